/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-engine.h"

#include "enum-accessor.h"
#include "explaining-checker.h"
#include "explaining-enum-checker.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LlmEngine");

NS_OBJECT_ENSURE_REGISTERED(LlmEngine);

namespace
{

/// Default KvCapacityTokens: a 7B model (Qwen2.5-7B, bf16, 57,344 bytes per token) on an 80 GB
/// GPU with vLLM's 90 % memory share: (72 GB - 15.2 GB of weights) / 57,344 B ~ 990,000.
constexpr uint64_t DEFAULT_KV_CAPACITY_TOKENS = 990000;
/// Default MaxBatchSequences (vLLM's max_num_seqs).
constexpr uint32_t DEFAULT_MAX_BATCH_SEQUENCES = 256;
/// Default ChunkTokens: vLLM's max_num_batched_tokens with chunked prefill on, in the releases
/// that made chunked prefill the default (newer ones raise it on large GPUs).
constexpr uint64_t DEFAULT_CHUNK_TOKENS = 512;

/// Seconds of a pure model, as the simulator's time (rounded to its resolution).
Time
ToTime(double seconds)
{
    return Seconds(seconds);
}

/// Stop the run if a count an API call needs to be positive is 0.
void
RequirePositive(const char* call, const char* field, uint64_t value, uint64_t imsi)
{
    if (value == 0)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::" << call << ": " << field
                                          << " = 0 is invalid; allowed: an integer >= 1 (imsi "
                                          << imsi << ")");
    }
}
} // namespace

std::string
IterationKindName(LlmEngine::IterationKind kind)
{
    switch (kind)
    {
    case LlmEngine::IterationKind::PREFILL:
        return "Prefill";
    case LlmEngine::IterationKind::DECODE:
        return "Decode";
    case LlmEngine::IterationKind::MIXED:
        return "Mixed";
    }
    return "Unknown";
}

TypeId
LlmEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LlmEngine")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<LlmEngine>()
            .AddAttribute(
                "ComputeModel",
                "The GPU's compute model; one with its defaults when none is given. "
                "Read once, at the first iteration.",
                PointerValue(),
                MakePointerAccessor(&LlmEngine::SetComputeModel, &LlmEngine::GetComputeModel),
                MakePointerChecker<GpuComputeModel>())
            .AddAttribute("KvCapacityTokens",
                          "KV cache memory of the GPU, in tokens. The default fits a 7B model "
                          "(Qwen2.5-7B, bf16) on an 80 GB GPU. Range [1, 2^64 - 1].",
                          UintegerValue(DEFAULT_KV_CAPACITY_TOKENS),
                          MakeUintegerAccessor(&LlmEngine::m_kvCapacityTokens),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint64_t>(1),
                                                         "ns3::LlmEngine::KvCapacityTokens",
                                                         "an integer in [1, 18446744073709551615]"))
            .AddAttribute("MaxBatchSequences",
                          "Most sessions in one decode step or one prefill batch. "
                          "Range [1, 1000000].",
                          UintegerValue(DEFAULT_MAX_BATCH_SEQUENCES),
                          MakeUintegerAccessor(&LlmEngine::m_maxBatchSequences),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 1000000),
                                                         "ns3::LlmEngine::MaxBatchSequences",
                                                         "an integer in [1, 1000000]"))
            .AddAttribute("PrefillCycle",
                          "A prefill starts only at a multiple of this time, counted from time "
                          "zero; 0: at the next iteration boundary. Range [0, inf).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&LlmEngine::m_prefillCycle),
                          edgellm::MakeExplainingChecker(MakeTimeChecker(Seconds(0)),
                                                         "ns3::LlmEngine::PrefillCycle",
                                                         "a time >= 0"))
            .AddAttribute(
                "IterationMode",
                "Separate: an iteration is all prefill (whole jobs, urgent first) or "
                "all decode, the GPU that the ctHO analytic delay assumes. Mixed: "
                "chunked prefill; every iteration decodes the ready sessions and "
                "fills the rest of a ChunkTokens budget with prefill chunks, urgent "
                "first, so a session whose cache is ready decodes while others "
                "prefill.",
                EnumValue(IterationMode::SEPARATE),
                edgellm::MakeEnumMemberAccessor(&LlmEngine::m_iterationMode),
                edgellm::MakeExplainingEnumChecker<IterationMode>(
                    "ns3::LlmEngine::IterationMode",
                    {{IterationMode::SEPARATE, "Separate"}, {IterationMode::MIXED, "Mixed"}}))
            .AddAttribute(
                "ChunkTokens",
                "Tokens of one mixed iteration (IterationMode Mixed): each decoding "
                "session counts 1, prefill chunks take the rest. Range [1, 10^9].",
                UintegerValue(DEFAULT_CHUNK_TOKENS),
                MakeUintegerAccessor(&LlmEngine::m_chunkTokens),
                edgellm::MakeExplainingChecker(MakeUintegerChecker<uint64_t>(1, 1000000000),
                                               "ns3::LlmEngine::ChunkTokens",
                                               "an integer in [1, 1000000000]"))
            .AddAttribute(
                "LoadFactor",
                "The GPU's actual iteration times over its compute model's: 2 means every "
                "iteration takes twice what the model gives, as on a GPU shared with other "
                "work. Plans are made with the model alone (GetLlmComputeModel), so a factor "
                "> 1 is a GPU slower than planned. Range (0, 1000].",
                DoubleValue(1.0),
                MakeDoubleAccessor(&LlmEngine::m_loadFactor),
                edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(),
                                               "ns3::LlmEngine::LoadFactor",
                                               "a number in (0, 1000]",
                                               [](const AttributeValue& v) -> std::string {
                                                   const double f =
                                                       static_cast<const DoubleValue&>(v).Get();
                                                   return f > 0 && f <= 1000 ? ""
                                                                             : "outside (0, 1000]";
                                               }))
            .AddAttribute("CachedPromptFraction",
                          "Fraction of each new session's prompt whose KV is already in this GPU's "
                          "memory when the session opens, as a prefix cache keeps a conversation's "
                          "earlier turns: only the rest is prefilled, and always the prompt's last "
                          "token, whose logits give the first generated token. 0: every prompt is "
                          "prefilled whole. Sessions arriving by handover are not affected. "
                          "Range [0, 1].",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&LlmEngine::m_cachedPromptFraction),
                          edgellm::MakeExplainingChecker(
                              MakeDoubleChecker<double>(),
                              "ns3::LlmEngine::CachedPromptFraction",
                              "a number in [0, 1]",
                              [](const AttributeValue& v) -> std::string {
                                  const double f = static_cast<const DoubleValue&>(v).Get();
                                  return f >= 0 && f <= 1 ? "" : "outside [0, 1]";
                              }))
            .AddTraceSource("KvTokensInUse",
                            "KV tokens reserved by admitted sessions.",
                            MakeTraceSourceAccessor(&LlmEngine::m_kvTokensInUse),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("IterationStarted",
                            "An iteration starts: kind, sequences, tokens, duration.",
                            MakeTraceSourceAccessor(&LlmEngine::m_iterationStartedTrace),
                            "ns3::LlmEngine::IterationTracedCallback")
            .AddTraceSource("TokenGenerated",
                            "A decode step emitted a token: IMSI, token index.",
                            MakeTraceSourceAccessor(&LlmEngine::m_tokenTrace),
                            "ns3::LlmEngine::TokenTracedCallback")
            .AddTraceSource("PrefillStarted",
                            "A prefill job starts: IMSI, tokens, urgent.",
                            MakeTraceSourceAccessor(&LlmEngine::m_prefillStartedTrace),
                            "ns3::LlmEngine::PrefillTracedCallback")
            .AddTraceSource("PrefillCompleted",
                            "A prefill job ends: IMSI, tokens, urgent.",
                            MakeTraceSourceAccessor(&LlmEngine::m_prefillCompletedTrace),
                            "ns3::LlmEngine::PrefillTracedCallback")
            .AddTraceSource("SessionAdmitted",
                            "A session got its memory: IMSI, reserved tokens.",
                            MakeTraceSourceAccessor(&LlmEngine::m_admittedTrace),
                            "ns3::LlmEngine::AdmittedTracedCallback")
            .AddTraceSource("SessionRejected",
                            "A session can never fit: IMSI, reason.",
                            MakeTraceSourceAccessor(&LlmEngine::m_rejectedTrace),
                            "ns3::LlmEngine::RejectedTracedCallback")
            .AddTraceSource("SessionEvicted",
                            "A session lost its memory to another (EvictFor), and will "
                            "re-prefill its context: IMSI, context tokens, IMSI admitted.",
                            MakeTraceSourceAccessor(&LlmEngine::m_evictedTrace),
                            "ns3::LlmEngine::EvictedTracedCallback")
            .AddTraceSource("SessionFinished",
                            "A session emitted its last token: IMSI.",
                            MakeTraceSourceAccessor(&LlmEngine::m_finishedTrace),
                            "ns3::LlmEngine::SessionTracedCallback");
    return tid;
}

LlmEngine::LlmEngine()
    : m_kvCapacityTokens(DEFAULT_KV_CAPACITY_TOKENS),
      m_maxBatchSequences(DEFAULT_MAX_BATCH_SEQUENCES),
      m_chunkTokens(DEFAULT_CHUNK_TOKENS),
      m_kvTokensInUse(0),
      m_busy(false),
      m_batchUrgent(false)
{
    NS_LOG_FUNCTION(this);
}

LlmEngine::~LlmEngine()
{
    NS_LOG_FUNCTION(this);
}

void
LlmEngine::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_iterationEnd.Cancel();
    m_wake.Cancel();
    m_sessions.clear();
    m_admissionQueue.clear();
    m_urgentPrefills.clear();
    m_prefills.clear();
    m_decodeQueue.clear();
    m_batch.clear();
    m_busy = false;
    m_tokensCallback = TokensCallback();
    m_prefillDoneCallback = SessionCallback();
    m_finishedCallback = SessionCallback();
    m_rejectedCallback = RejectedCallback();
    m_computeModel = nullptr;
    Object::DoDispose();
}

void
LlmEngine::SetComputeModel(Ptr<GpuComputeModel> model)
{
    m_computeModel = model;
    m_model.reset();
}

Ptr<GpuComputeModel>
LlmEngine::GetComputeModel() const
{
    return m_computeModel;
}

const LlmComputeModel&
LlmEngine::GetLlmComputeModel()
{
    return Model();
}

const LlmComputeModel&
LlmEngine::Model()
{
    if (!m_model)
    {
        if (!m_computeModel)
        {
            m_computeModel = CreateObject<GpuComputeModel>();
        }
        // GetModel() re-validates every attribute; once is enough.
        m_model = m_computeModel->GetModel();
    }
    return *m_model;
}

void
LlmEngine::SetTokensCallback(TokensCallback cb)
{
    m_tokensCallback = cb;
}

void
LlmEngine::SetPrefillDoneCallback(SessionCallback cb)
{
    m_prefillDoneCallback = cb;
}

void
LlmEngine::SetSessionFinishedCallback(SessionCallback cb)
{
    m_finishedCallback = cb;
}

void
LlmEngine::SetSessionRejectedCallback(RejectedCallback cb)
{
    m_rejectedCallback = cb;
}

LlmEngine::Session&
LlmEngine::GetOrFatal(uint64_t imsi, const char* call)
{
    auto it = m_sessions.find(imsi);
    if (it == m_sessions.end())
    {
        NS_FATAL_ERROR("ns3::LlmEngine::" << call << ": imsi = " << imsi
                                          << " is invalid; allowed: the IMSI of a session of "
                                             "this engine");
    }
    return it->second;
}

const LlmEngine::Session&
LlmEngine::GetOrFatal(uint64_t imsi, const char* call) const
{
    return const_cast<LlmEngine*>(this)->GetOrFatal(imsi, call);
}

LlmEngine::Admission
LlmEngine::AddSession(uint64_t imsi, uint64_t promptTokens, uint64_t tokensToGenerate)
{
    NS_LOG_FUNCTION(this << imsi << promptTokens << tokensToGenerate);
    RequirePositive("AddSession", "promptTokens", promptTokens, imsi);
    RequirePositive("AddSession", "tokensToGenerate", tokensToGenerate, imsi);
    Session s;
    s.reservedTokens = SaturatingAdd(promptTokens, tokensToGenerate);
    s.contextTokens = promptTokens;
    s.prefillTokens = promptTokens - CachedPromptTokens(promptTokens);
    s.decodeWanted = true;
    s.endTokenIndex = tokensToGenerate;
    return Admit(imsi,
                 s,
                 std::to_string(promptTokens) + " prompt + " + std::to_string(tokensToGenerate) +
                     " to generate");
}

uint64_t
LlmEngine::CachedPromptTokens(uint64_t promptTokens) const
{
    // The last token is computed even on a whole hit, for the logits that start decoding.
    const auto cached = static_cast<uint64_t>(
        std::floor(m_cachedPromptFraction * static_cast<double>(promptTokens)));
    return std::min(cached, promptTokens - 1);
}

LlmEngine::Admission
LlmEngine::AddResumedSession(uint64_t imsi, uint64_t contextTokens, uint64_t remainingTokens)
{
    NS_LOG_FUNCTION(this << imsi << contextTokens << remainingTokens);
    RequirePositive("AddResumedSession", "contextTokens", contextTokens, imsi);
    RequirePositive("AddResumedSession", "remainingTokens", remainingTokens, imsi);
    Session s;
    s.reservedTokens = SaturatingAdd(contextTokens, remainingTokens);
    s.contextTokens = contextTokens;
    return Admit(imsi,
                 s,
                 std::to_string(contextTokens) + " context + " + std::to_string(remainingTokens) +
                     " to generate");
}

LlmEngine::Admission
LlmEngine::Admit(uint64_t imsi, const Session& session, const std::string& sizes)
{
    if (m_sessions.count(imsi) != 0)
    {
        NS_FATAL_ERROR("ns3::LlmEngine: imsi = " << imsi
                                                 << " is invalid; allowed: an IMSI with no "
                                                    "session in this engine (duplicate IMSI)");
    }
    if (session.reservedTokens > m_kvCapacityTokens)
    {
        std::ostringstream reason;
        reason << "needs " << sizes << " = " << session.reservedTokens
               << " KV tokens, more than KvCapacityTokens = " << m_kvCapacityTokens;
        NS_LOG_INFO("imsi " << imsi << " rejected: " << reason.str());
        m_rejectedTrace(imsi, reason.str());
        if (!m_rejectedCallback.IsNull())
        {
            m_rejectedCallback(imsi, reason.str());
        }
        return Admission::REJECTED;
    }
    Session& s = m_sessions.emplace(imsi, session).first->second;
    s.phase = Phase::WAITING_ADMISSION;
    if (m_admissionQueue.empty() && m_kvTokensInUse + s.reservedTokens <= m_kvCapacityTokens)
    {
        OnAdmitted(imsi, s);
        Schedule();
        return Admission::ADMITTED;
    }
    NS_LOG_INFO("imsi " << imsi << " waits for " << s.reservedTokens << " KV tokens");
    m_admissionQueue.push_back(imsi);
    return Admission::WAITING;
}

void
LlmEngine::OnAdmitted(uint64_t imsi, Session& s)
{
    NS_LOG_FUNCTION(this << imsi << s.reservedTokens);
    const uint64_t reserved = s.reservedTokens;
    s.phase = Phase::HELD;
    s.admissionOrder = ++m_admissions;
    Dispatch(imsi, s);
    // Traces last, as their sinks may remove the session.
    m_kvTokensInUse = m_kvTokensInUse + reserved;
    m_admittedTrace(imsi, reserved);
}

void
LlmEngine::AdmitWaiting()
{
    // Strict FIFO: a large session at the head is not overtaken, so it cannot starve.
    while (!m_admissionQueue.empty())
    {
        const uint64_t imsi = m_admissionQueue.front();
        Session& s = m_sessions.at(imsi);
        if (m_kvTokensInUse + s.reservedTokens > m_kvCapacityTokens)
        {
            break;
        }
        m_admissionQueue.pop_front();
        OnAdmitted(imsi, s);
    }
}

void
LlmEngine::Dispatch(uint64_t imsi, Session& s)
{
    if (s.prefillTokens > 0)
    {
        s.phase = Phase::PREFILL_QUEUED;
        s.prefillFrom = NextPrefillBoundary();
        (s.prefillUrgent ? m_urgentPrefills : m_prefills).push_back(imsi);
    }
    else if (s.decodeWanted && s.nextTokenIndex < s.endTokenIndex)
    {
        s.phase = Phase::DECODE_READY;
        m_decodeQueue.push_back(imsi);
    }
    else
    {
        s.phase = Phase::HELD;
    }
}

void
LlmEngine::Unqueue(uint64_t imsi, Session& s)
{
    auto drop = [imsi](std::deque<uint64_t>& queue) {
        queue.erase(std::remove(queue.begin(), queue.end(), imsi), queue.end());
    };
    switch (s.phase)
    {
    case Phase::WAITING_ADMISSION:
        drop(m_admissionQueue);
        break;
    case Phase::PREFILL_QUEUED:
        drop(s.prefillUrgent ? m_urgentPrefills : m_prefills);
        break;
    case Phase::DECODE_READY:
        drop(m_decodeQueue);
        break;
    case Phase::HELD:
    case Phase::PREFILLING:
    case Phase::DECODING:
        // A running iteration skips sessions no longer in its phase when it ends.
        break;
    }
}

void
LlmEngine::Erase(uint64_t imsi)
{
    auto it = m_sessions.find(imsi);
    if (it == m_sessions.end())
    {
        return; // a trace sink removed it already
    }
    const uint64_t freed =
        it->second.phase == Phase::WAITING_ADMISSION ? 0 : it->second.reservedTokens;
    m_sessions.erase(it);
    if (freed > 0)
    {
        m_kvTokensInUse = m_kvTokensInUse - freed; // a traced value: its sinks run now
    }
}

void
LlmEngine::SubmitPrefill(uint64_t imsi, uint64_t tokens, bool urgent)
{
    NS_LOG_FUNCTION(this << imsi << tokens << urgent);
    Session& s = GetOrFatal(imsi, "SubmitPrefill");
    if (tokens == 0 || tokens > s.reservedTokens)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::SubmitPrefill: tokens = "
                       << tokens << " is invalid; allowed: an integer in [1, " << s.reservedTokens
                       << "], the tokens reserved by imsi " << imsi);
    }
    if (s.prefillTokens > 0)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::SubmitPrefill: imsi = "
                       << imsi
                       << " is invalid; allowed: a session with no prefill queued or "
                          "running");
    }
    if (s.phase == Phase::DECODE_READY || s.phase == Phase::DECODING)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::SubmitPrefill: imsi = "
                       << imsi
                       << " is invalid; allowed: a session that is not decoding "
                          "(StopDecoding first)");
    }
    s.prefillTokens = tokens;
    s.prefillUrgent = urgent;
    if (s.phase == Phase::HELD)
    {
        Dispatch(imsi, s);
        if (!m_holdSchedule)
        {
            Schedule();
        }
    }
}

void
LlmEngine::SubmitPrefillBatch(const std::vector<std::pair<uint64_t, uint64_t>>& jobs, bool urgent)
{
    // Queued together, they are in the queue before the GPU looks at it: with a free GPU at
    // a cycle boundary, SubmitPrefill one by one would start the first job alone.
    m_holdSchedule = true;
    for (const auto& [imsi, tokens] : jobs)
    {
        SubmitPrefill(imsi, tokens, urgent);
    }
    m_holdSchedule = false;
    Schedule();
}

bool
LlmEngine::ResizeQueuedPrefill(uint64_t imsi, uint64_t tokens)
{
    NS_LOG_FUNCTION(this << imsi << tokens);
    Session& s = GetOrFatal(imsi, "ResizeQueuedPrefill");
    if (s.phase != Phase::PREFILL_QUEUED || s.prefillDone > 0)
    {
        return false;
    }
    NS_ABORT_MSG_IF(tokens > s.reservedTokens,
                    "ns3::LlmEngine::ResizeQueuedPrefill: tokens = "
                        << tokens << " is invalid; allowed: an integer in [0, " << s.reservedTokens
                        << "], what imsi " << imsi << " has reserved");
    if (tokens > 0)
    {
        s.prefillTokens = tokens; // keeps its place in the queue
        return true;
    }
    Unqueue(imsi, s);
    s.prefillTokens = 0;
    s.prefillUrgent = false;
    Dispatch(imsi, s);
    // The GPU may have been waiting for a boundary for this prefill alone.
    Schedule();
    return true;
}

bool
LlmEngine::IsPrefillWaiting(uint64_t imsi) const
{
    auto it = m_sessions.find(imsi);
    return it != m_sessions.end() && it->second.phase == Phase::PREFILL_QUEUED &&
           it->second.prefillDone == 0;
}

Time
LlmEngine::GetIterationEnd() const
{
    return m_busy ? TimeStep(m_iterationEnd.GetTs()) : Simulator::Now();
}

uint64_t
LlmEngine::SaturatingAdd(uint64_t a, uint64_t b)
{
    return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max()
                                                        : a + b;
}

Time
LlmEngine::GetPrefillBoundary(Time at) const
{
    const int64_t t = at.GetTimeStep();
    const int64_t cycle = m_prefillCycle.GetTimeStep();
    return cycle == 0 ? at : TimeStep((t + cycle - 1) / cycle * cycle);
}

void
LlmEngine::ResumeDecoding(uint64_t imsi, uint64_t nextTokenIndex, uint64_t remaining)
{
    NS_LOG_FUNCTION(this << imsi << nextTokenIndex << remaining);
    Session& s = GetOrFatal(imsi, "ResumeDecoding");
    const uint64_t room = s.reservedTokens - std::min(s.reservedTokens, s.contextTokens);
    if (remaining == 0 || remaining > room)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::ResumeDecoding: remaining = "
                       << remaining << " is invalid; allowed: an integer in [1, " << room
                       << "], what imsi " << imsi << " has reserved beyond its context");
    }
    if (s.phase == Phase::DECODE_READY || s.phase == Phase::DECODING)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::ResumeDecoding: imsi = "
                       << imsi << " is invalid; allowed: a session that is not decoding");
    }
    if (nextTokenIndex > std::numeric_limits<uint64_t>::max() - remaining)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::ResumeDecoding: nextTokenIndex = "
                       << nextTokenIndex
                       << " is invalid; allowed: nextTokenIndex + remaining < "
                          "2^64");
    }
    s.decodeWanted = true;
    s.nextTokenIndex = nextTokenIndex;
    s.endTokenIndex = nextTokenIndex + remaining;
    if (s.phase == Phase::HELD)
    {
        Dispatch(imsi, s);
        Schedule();
    }
}

void
LlmEngine::GrowContext(uint64_t imsi, uint64_t contextTokens)
{
    NS_LOG_FUNCTION(this << imsi << contextTokens);
    Session& s = GetOrFatal(imsi, "GrowContext");
    if (s.phase == Phase::DECODE_READY || s.phase == Phase::DECODING)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::GrowContext: imsi = "
                       << imsi << " is invalid; allowed: a session that is not decoding");
    }
    if (contextTokens < s.contextTokens || contextTokens >= s.reservedTokens)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::GrowContext: contextTokens = "
                       << contextTokens << " is invalid; allowed: an integer in ["
                       << s.contextTokens << ", " << s.reservedTokens - 1 << "] for imsi " << imsi);
    }
    s.contextTokens = contextTokens;
}

uint64_t
LlmEngine::StopDecoding(uint64_t imsi)
{
    NS_LOG_FUNCTION(this << imsi);
    Session& s = GetOrFatal(imsi, "StopDecoding");
    s.decodeWanted = false;
    if (s.phase == Phase::DECODE_READY || s.phase == Phase::DECODING)
    {
        Unqueue(imsi, s);
        s.phase = Phase::HELD;
    }
    return s.nextTokenIndex;
}

bool
LlmEngine::RemoveSession(uint64_t imsi)
{
    NS_LOG_FUNCTION(this << imsi);
    auto it = m_sessions.find(imsi);
    if (it == m_sessions.end())
    {
        return false;
    }
    Unqueue(imsi, it->second);
    Erase(imsi);
    AdmitWaiting();
    Schedule();
    return true;
}

bool
LlmEngine::IsDecoding(uint64_t imsi) const
{
    return GetOrFatal(imsi, "IsDecoding").decodeWanted;
}

bool
LlmEngine::HasSession(uint64_t imsi) const
{
    return m_sessions.count(imsi) != 0;
}

uint64_t
LlmEngine::GetGeneratedTokens(uint64_t imsi) const
{
    return GetOrFatal(imsi, "GetGeneratedTokens").generatedTokens;
}

uint64_t
LlmEngine::GetNextTokenIndex(uint64_t imsi) const
{
    return GetOrFatal(imsi, "GetNextTokenIndex").nextTokenIndex;
}

uint64_t
LlmEngine::GetContextTokens(uint64_t imsi) const
{
    return GetOrFatal(imsi, "GetContextTokens").contextTokens;
}

bool
LlmEngine::IsWaitingForAdmission(uint64_t imsi) const
{
    return GetOrFatal(imsi, "IsWaitingForAdmission").phase == Phase::WAITING_ADMISSION;
}

std::size_t
LlmEngine::GetSessionCount() const
{
    return m_sessions.size();
}

uint64_t
LlmEngine::GetKvTokensInUse() const
{
    return m_kvTokensInUse;
}

uint64_t
LlmEngine::GetQueuedPrefillTokens() const
{
    uint64_t queued = 0;
    for (const auto& [imsi, s] : m_sessions)
    {
        if (s.phase == Phase::PREFILL_QUEUED)
        {
            queued += s.prefillTokens - s.prefillDone;
        }
    }
    return queued;
}

uint64_t
LlmEngine::GetKvCapacityTokens() const
{
    return m_kvCapacityTokens;
}

Time
LlmEngine::NextPrefillBoundary() const
{
    return GetPrefillBoundary(Simulator::Now());
}

void
LlmEngine::Schedule()
{
    if (m_busy)
    {
        return; // the running iteration calls this again when it ends
    }
    m_wake.Cancel();
    if (m_iterationMode == IterationMode::MIXED)
    {
        ScheduleMixed();
        return;
    }
    const bool prefillWaiting = !m_urgentPrefills.empty() || !m_prefills.empty();
    if (prefillWaiting)
    {
        const Time boundary = NextPrefillBoundary();
        const Time now = Simulator::Now();
        if (boundary == now)
        {
            StartPrefill();
            return;
        }
        if (!m_decodeQueue.empty())
        {
            uint64_t context = 0;
            const Time step = PlanDecodeStep(context);
            if (now + step <= boundary)
            {
                StartDecode(step, context);
                return;
            }
        }
        NS_LOG_LOGIC("GPU waits for the prefill boundary at " << boundary.As(Time::S));
        m_wake = Simulator::Schedule(boundary - now, &LlmEngine::Schedule, this);
        return;
    }
    if (!m_decodeQueue.empty())
    {
        uint64_t context = 0;
        const Time step = PlanDecodeStep(context);
        StartDecode(step, context);
    }
}

Time
LlmEngine::PlanDecodeStep(uint64_t& contextTokens)
{
    const std::size_t n = std::min<std::size_t>(m_decodeQueue.size(), m_maxBatchSequences);
    m_batch.assign(m_decodeQueue.begin(), m_decodeQueue.begin() + n);
    contextTokens = 0;
    for (uint64_t imsi : m_batch)
    {
        contextTokens = SaturatingAdd(contextTokens, m_sessions.at(imsi).contextTokens);
    }
    return ToTime(m_loadFactor * Model().DecodeStepTime(n, contextTokens));
}

void
LlmEngine::StartDecode(Time duration, uint64_t contextTokens)
{
    m_decodeQueue.erase(m_decodeQueue.begin(), m_decodeQueue.begin() + m_batch.size());
    m_decodeInBatch = m_batch.size();
    for (uint64_t imsi : m_batch)
    {
        m_sessions.at(imsi).phase = Phase::DECODING;
    }
    NS_LOG_LOGIC("decode step of " << m_batch.size() << " sequences, " << contextTokens
                                   << " context tokens, " << duration.As(Time::MS));
    m_busy = true;
    m_iterationStartedTrace(IterationKind::DECODE, m_batch.size(), contextTokens, duration);
    m_iterationEnd = Simulator::Schedule(duration, &LlmEngine::EndDecode, this);
}

void
LlmEngine::StartPrefill()
{
    m_batchUrgent = !m_urgentPrefills.empty();
    std::deque<uint64_t>& queue = m_batchUrgent ? m_urgentPrefills : m_prefills;
    const std::size_t n = std::min<std::size_t>(queue.size(), m_maxBatchSequences);
    m_batch.assign(queue.begin(), queue.begin() + n);
    queue.erase(queue.begin(), queue.begin() + n);
    m_prefillLengths.clear();
    uint64_t tokens = 0;
    for (uint64_t imsi : m_batch)
    {
        Session& s = m_sessions.at(imsi);
        s.phase = Phase::PREFILLING;
        m_prefillLengths.push_back(s.prefillTokens);
        tokens = SaturatingAdd(tokens, s.prefillTokens);
    }
    const Time duration = ToTime(
        m_loadFactor * Model().BatchPrefillTime(PrefillBatch::FromLengths(m_prefillLengths)));
    NS_LOG_LOGIC((m_batchUrgent ? "urgent " : "") << "prefill of " << n << " sequences, " << tokens
                                                  << " tokens, " << duration.As(Time::MS));
    m_busy = true;
    m_iterationStartedTrace(IterationKind::PREFILL, n, tokens, duration);
    for (std::size_t i = 0; i < m_batch.size(); ++i)
    {
        m_prefillStartedTrace(m_batch[i], m_prefillLengths[i], m_batchUrgent);
    }
    m_iterationEnd = Simulator::Schedule(duration, &LlmEngine::EndPrefill, this);
}

void
LlmEngine::EndPrefill()
{
    NS_LOG_FUNCTION(this);
    m_finished.clear(); // here: the sessions whose prefill ended
    for (uint64_t imsi : m_batch)
    {
        auto it = m_sessions.find(imsi);
        if (it == m_sessions.end() || it->second.phase != Phase::PREFILLING)
        {
            continue; // removed while it ran
        }
        Session& s = it->second;
        const uint64_t tokens = s.prefillTokens;
        s.prefillTokens = 0;
        s.prefillUrgent = false;
        Dispatch(imsi, s);
        m_prefillCompletedTrace(imsi, tokens, m_batchUrgent);
        m_finished.push_back(imsi);
    }
    // Callbacks may call back into the engine; m_busy keeps it from starting an iteration
    // until this one is wound up.
    if (!m_prefillDoneCallback.IsNull())
    {
        for (uint64_t imsi : m_finished)
        {
            m_prefillDoneCallback(imsi);
        }
    }
    m_busy = false;
    AdmitWaiting();
    Schedule();
}

void
LlmEngine::EmitDecodedTokens()
{
    m_emitted.clear();
    m_finished.clear();
    for (std::size_t i = 0; i < m_decodeInBatch; ++i)
    {
        const uint64_t imsi = m_batch[i];
        auto it = m_sessions.find(imsi);
        if (it == m_sessions.end() || it->second.phase != Phase::DECODING)
        {
            continue; // stopped or removed while the step ran: its token is not emitted
        }
        Session& s = it->second;
        const uint64_t index = s.nextTokenIndex;
        m_emitted.push_back({imsi, index});
        ++s.nextTokenIndex;
        ++s.generatedTokens;
        ++s.contextTokens;
        if (s.nextTokenIndex >= s.endTokenIndex)
        {
            m_finished.push_back(imsi);
        }
        else
        {
            // To the back: with more sessions than MaxBatchSequences, steps take turns.
            s.phase = Phase::DECODE_READY;
            m_decodeQueue.push_back(imsi);
        }
        // Last: a trace sink may remove the session.
        m_tokenTrace(imsi, index);
    }
    for (uint64_t imsi : m_finished)
    {
        Erase(imsi);
    }
}

void
LlmEngine::NotifyDecoded()
{
    if (!m_tokensCallback.IsNull() && !m_emitted.empty())
    {
        m_tokensCallback(m_emitted);
    }
    for (uint64_t imsi : m_finished)
    {
        NS_LOG_INFO("imsi " << imsi << " finished");
        m_finishedTrace(imsi);
        if (!m_finishedCallback.IsNull())
        {
            m_finishedCallback(imsi);
        }
    }
}

void
LlmEngine::EndDecode()
{
    NS_LOG_FUNCTION(this);
    EmitDecodedTokens();
    NotifyDecoded();
    m_busy = false;
    AdmitWaiting();
    Schedule();
}

} // namespace ns3
