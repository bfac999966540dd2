/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pallas-scheduler.h"

#include "ctho-family-scheduler.h"
#include "enum-accessor.h"
#include "explaining-checker.h"
#include "explaining-enum-checker.h"
#include "kv-cache-profile.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PallasScheduler");

NS_OBJECT_ENSURE_REGISTERED(PallasScheduler);

TypeId
PallasScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PallasScheduler")
            .SetParent<HandoverScheduler>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<PallasScheduler>()
            .AddAttribute("ControlPeriod",
                          "Period of the window loop, [1 ms, 60 s]: the window is chosen anew "
                          "at most once per period, from the averaged telemetry.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&PallasScheduler::m_controlPeriod),
                          edgellm::MakeTimeRangeChecker("ns3::PallasScheduler::ControlPeriod",
                                                        MilliSeconds(1),
                                                        Seconds(60),
                                                        "a time in [1 ms, 60 s]"))
            .AddAttribute("Alpha",
                          "Weight alpha of T_SIT in the window cost J = alpha T_SIT + (1 - "
                          "alpha) T_early, [0, 1].",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&PallasScheduler::m_alpha),
                          edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(0.0, 1.0),
                                                         "ns3::PallasScheduler::Alpha",
                                                         "a number in [0, 1]"))
            .AddAttribute("WindowLimit",
                          "T_max, the longest prefetch window, [0, 60 s]; a prediction closer "
                          "than the window prepares at once (T_limit = min(T_max, T_remain)).",
                          TimeValue(MilliSeconds(1500)),
                          MakeTimeAccessor(&PallasScheduler::m_windowLimit),
                          edgellm::MakeTimeRangeChecker("ns3::PallasScheduler::WindowLimit",
                                                        Seconds(60),
                                                        "a time in [0, 60 s]"))
            .AddAttribute("WindowStep",
                          "Delta T, the step of the window grid, [1 ms, 10 s].",
                          TimeValue(MilliSeconds(50)),
                          MakeTimeAccessor(&PallasScheduler::m_windowStep),
                          edgellm::MakeTimeRangeChecker("ns3::PallasScheduler::WindowStep",
                                                        MilliSeconds(1),
                                                        Seconds(10),
                                                        "a time in [1 ms, 10 s]"))
            .AddAttribute("EwmaWeight",
                          "Weight of a new telemetry sample in its exponentially weighted "
                          "average, (0, 1]; 1 keeps the newest only.",
                          DoubleValue(0.3),
                          MakeDoubleAccessor(&PallasScheduler::m_ewmaWeight),
                          edgellm::MakeExplainingChecker(
                              MakeDoubleChecker<double>(),
                              "ns3::PallasScheduler::EwmaWeight",
                              "a number in (0, 1]",
                              [](const AttributeValue& v) {
                                  // 0 would keep the first sample for ever.
                                  const double w = static_cast<const DoubleValue&>(v).Get();
                                  return w > 0 && w <= 1 ? "" : "out of range";
                              }))
            .AddAttribute("RadioInterruption",
                          "T_0, the radio interruption floor of the window model, [0, 1 s].",
                          TimeValue(MilliSeconds(30)),
                          MakeTimeAccessor(&PallasScheduler::m_radioFloor),
                          edgellm::MakeTimeRangeChecker("ns3::PallasScheduler::RadioInterruption",
                                                        Seconds(1),
                                                        "a time in [0, 1 s]"))
            .AddAttribute("WindowMargin",
                          "Added to the chosen window, [0, 60 s]: lead for a predictor whose "
                          "handover times come early or late (0: the model's window).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PallasScheduler::m_windowMargin),
                          edgellm::MakeTimeRangeChecker("ns3::PallasScheduler::WindowMargin",
                                                        Seconds(60),
                                                        "a time in [0, 60 s]"))
            .AddAttribute("PrepareLeadPeriods",
                          "Predictor periods added to the window before a predicted handover "
                          "is prepared, an integer in [0, 100]: the next prediction comes one "
                          "period later, so 1 prepares at the last prediction at or before the "
                          "window, 0 at the first one inside it.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&PallasScheduler::m_leadPeriods),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(0, 100),
                                                         "ns3::PallasScheduler::PrepareLeadPeriods",
                                                         "an integer in [0, 100]"))
            .AddAttribute(
                "OnlineGrouping",
                "The reactive fallback plans the online handovers one prefill batch "
                "of the target holds together (as ctHO does).",
                BooleanValue(true),
                MakeBooleanAccessor(&PallasScheduler::m_onlineGrouping),
                edgellm::MakeExplainingBooleanChecker("ns3::PallasScheduler::OnlineGrouping"))
            .AddAttribute("Ablation",
                          "Which part of Pallas is switched off: none, no-recompute (the whole "
                          "context streamed, nothing prefilled at the target) or no-streaming "
                          "(the suffix sent only at the handover). The scheme's name follows "
                          "it: pallas, pallas-no-recompute or pallas-no-streaming.",
                          EnumValue(PallasScheduler::NONE),
                          edgellm::MakeEnumMemberAccessor(&PallasScheduler::m_ablation),
                          edgellm::MakeExplainingEnumChecker<Ablation>(
                              "ns3::PallasScheduler::Ablation",
                              {{PallasScheduler::NONE, "none"},
                               {PallasScheduler::NO_RECOMPUTE, "no-recompute"},
                               {PallasScheduler::NO_STREAMING, "no-streaming"}}))
            .AddTraceSource("Window",
                            "The window loop chose a window T_w, with the SIT its model "
                            "predicts.",
                            MakeTraceSourceAccessor(&PallasScheduler::m_windowTrace),
                            "ns3::PallasScheduler::WindowTracedCallback");
    return tid;
}

PallasScheduler::PallasScheduler()
    : m_ablation(NONE),
      m_window(Time(-1))
{
}

PallasScheduler::~PallasScheduler() = default;

std::string
PallasScheduler::GetSchemeName() const
{
    switch (m_ablation)
    {
    case NO_RECOMPUTE:
        return "pallas-no-recompute";
    case NO_STREAMING:
        return "pallas-no-streaming";
    case NONE:
        break;
    }
    return "pallas";
}

bool
PallasScheduler::GetOnlineGrouping() const
{
    return m_onlineGrouping;
}

Time
PallasScheduler::GetWindow() const
{
    return (m_window.IsNegative() ? m_windowLimit : m_window) + m_windowMargin;
}

Time
PallasScheduler::GetWindowFor(uint16_t targetCell, double nowS) const
{
    auto it = m_busyUntilS.find(targetCell);
    const double busy = it == m_busyUntilS.end() ? 0 : std::max(0.0, it->second - nowS);
    return GetWindow() + Seconds(busy);
}

uint64_t
PallasScheduler::SplitPoint(uint64_t contextTokens)
{
    return contextTokens / KvCacheProfile::DEFAULT_BLOCK_TOKENS *
           KvCacheProfile::DEFAULT_BLOCK_TOKENS;
}

PallasTelemetry
PallasScheduler::GetTelemetry() const
{
    PallasTelemetry t;
    t.contextTokens = static_cast<uint64_t>(std::llround(m_context));
    t.decodeTokensPerSecond = m_decode;
    t.prefillTokensPerSecond = m_prefill;
    t.loadS = m_seenLoad ? m_load : -1;
    t.backhaulKvTokensPerSecond = m_backhaul;
    return t;
}

PallasWindowInput
PallasScheduler::GetWindowInput() const
{
    return m_lastInput;
}

uint64_t
PallasScheduler::GetWindowChoices() const
{
    return m_windowChoices;
}

uint64_t
PallasScheduler::GetPrepared() const
{
    return m_prepared;
}

uint64_t
PallasScheduler::GetAdmissionRefusals() const
{
    return m_refusals;
}

uint64_t
PallasScheduler::GetReactivePlans() const
{
    return m_reactive;
}

uint64_t
PallasScheduler::PrefixFor(uint64_t contextTokens) const
{
    return m_ablation == NO_RECOMPUTE ? 0 : SplitPoint(contextTokens);
}

void
PallasScheduler::Fold(double& avg, bool& seen, double value) const
{
    avg = seen ? m_ewmaWeight * value + (1 - m_ewmaWeight) * avg : value;
    seen = true;
}

void
PallasScheduler::Observe(const PallasTelemetry& sample, double nowS)
{
    NS_LOG_FUNCTION(this << sample.contextTokens << sample.decodeTokensPerSecond
                         << sample.prefillTokensPerSecond << sample.loadS
                         << sample.backhaulKvTokensPerSecond << nowS);
    if (sample.contextTokens > 0)
    {
        Fold(m_context, m_seenContext, static_cast<double>(sample.contextTokens));
    }
    if (sample.decodeTokensPerSecond > 0 && std::isfinite(sample.decodeTokensPerSecond))
    {
        Fold(m_decode, m_seenDecode, sample.decodeTokensPerSecond);
    }
    if (sample.prefillTokensPerSecond > 0 && std::isfinite(sample.prefillTokensPerSecond))
    {
        Fold(m_prefill, m_seenPrefill, sample.prefillTokensPerSecond);
    }
    if (sample.loadS >= 0 && std::isfinite(sample.loadS))
    {
        Fold(m_load, m_seenLoad, sample.loadS);
    }
    if (sample.backhaulKvTokensPerSecond > 0 && std::isfinite(sample.backhaulKvTokensPerSecond))
    {
        Fold(m_backhaul, m_seenBackhaul, sample.backhaulKvTokensPerSecond);
    }
    if (m_lastChoiceS < 0 || nowS - m_lastChoiceS >= m_controlPeriod.GetSeconds() - 1e-12)
    {
        ChooseWindow(nowS);
    }
}

void
PallasScheduler::ChooseWindow(double nowS)
{
    if (!m_seenContext || !m_seenDecode || !m_seenPrefill || !m_seenBackhaul)
    {
        return; // not enough telemetry yet: the window stays at WindowLimit
    }
    PallasWindowInput in;
    in.radioInterruptionS = m_radioFloor.GetSeconds();
    in.loadS = m_seenLoad ? m_load : 0;
    const auto context = static_cast<uint64_t>(std::llround(m_context));
    in.prefixTokens = PrefixFor(context);
    in.prefillTokensPerSecond = m_prefill;
    in.decodeTokensPerSecond = m_decode;
    // The backhaul is averaged in KV tokens/s: one "byte" per token over 8 bit/s per token/s
    // gives the model's S_inc / B exactly.
    in.kvBytesPerToken = 1;
    in.backhaulBps = 8 * m_backhaul;
    in.historyBytes = m_ablation == NO_RECOMPUTE ? static_cast<double>(context) : 0;
    in.streaming = m_ablation != NO_STREAMING;
    in.alpha = m_alpha;
    in.gridStepS = m_windowStep.GetSeconds();
    in.windowLimitS = m_windowLimit.GetSeconds();
    const PallasWindowChoice choice = PallasWindowModel(in).Choose();
    m_lastInput = in;
    m_lastChoiceS = nowS;
    m_window = Seconds(choice.windowS);
    m_windowSit = Seconds(choice.sitS);
    ++m_windowChoices;
    NS_LOG_INFO("window " << choice.windowS << " s (SIT " << choice.sitS << " s, early "
                          << choice.earlyS << " s) for L_hist " << in.prefixTokens << ", r_p "
                          << in.prefillTokensPerSecond << ", r_d " << in.decodeTokensPerSecond
                          << ", B " << m_backhaul << " KV tokens/s");
    m_windowTrace(m_window, m_windowSit);
}

void
PallasScheduler::ObserveInput(const HandoverPlanInput& input)
{
    for (const HandoverSessionView& s : input.sessions)
    {
        PallasTelemetry t;
        t.contextTokens = s.contextTokens;
        t.decodeTokensPerSecond = s.decodeTokensPerSecond;
        for (const HandoverTargetView& target : input.targets)
        {
            if (target.cell != s.targetCell)
            {
                continue;
            }
            const double p = target.compute.PrefillTime(s.contextTokens);
            t.prefillTokensPerSecond = p > 0 ? static_cast<double>(s.contextTokens) / p : 0;
            t.loadS = std::max(0.0, target.prefillFreeAtS - input.nowS);
        }
        if (!s.links.empty() && s.links.front() < input.links.size())
        {
            t.backhaulKvTokensPerSecond = input.links[s.links.front()].plannedRateBps / 8.0 /
                                          static_cast<double>(s.kv.bytesPerToken);
        }
        Observe(t, input.nowS);
    }
}

HandoverPlan
PallasScheduler::DoPlan(const HandoverPlanInput& input)
{
    ++m_reactive;
    ObserveInput(input);
    if (m_ablation == NO_RECOMPUTE)
    {
        return CtHoFamilyScheduler::PlanWithPrefix(input, [](const CtHoSolver& s) {
            return s.Evaluate(0);
        });
    }
    return CtHoFamilyScheduler::PlanWithPrefix(input,
                                               [](const CtHoSolver& s) { return s.Solve(); });
}

bool
PallasScheduler::DoShouldPrepare(const HandoverPredictionView& prediction) const
{
    const Time window = GetWindowFor(prediction.targetCell, prediction.now.GetSeconds());
    return prediction.handoverAt - prediction.now <=
           window + prediction.queuedAhead + prediction.period * m_leadPeriods;
}

HandoverPlan
PallasScheduler::DoPrepare(const HandoverPlanInput& input)
{
    ObserveInput(input);
    const HandoverSessionView& s = input.sessions.front();
    const HandoverTargetView& target = input.GetTarget(s.targetCell);
    const uint64_t needed = s.contextTokens + s.tokensLeft;
    if (target.freeKvTokens < needed)
    {
        // Admission: the predicted target cannot hold the session; the handover is planned
        // reactively when it comes.
        ++m_refusals;
        NS_LOG_INFO("imsi " << s.imsi << ": cell " << s.targetCell << " has " << target.freeKvTokens
                            << " free KV tokens, the session needs " << needed << "; not prepared");
        return HandoverPlan{};
    }
    const uint64_t prefix = PrefixFor(s.contextTokens);
    HandoverPlan plan;
    plan.prefixTokens = prefix;
    SessionPlan p;
    p.imsi = s.imsi;
    if (prefix > 0)
    {
        p.prefill.push_back({0, prefix});
    }
    p.transfer.push_back({prefix, TokenRange::CONTEXT_END});
    p.keepDecoding = true;
    p.streamOpen = m_ablation != NO_STREAMING;
    plan.sessions.push_back(p);
    if (!m_windowSit.IsNegative() && m_windowChoices > 0)
    {
        plan.predictedDelay = m_windowSit;
    }
    ++m_prepared;
    m_preparedWindow[s.imsi] = GetWindow().GetSeconds();
    if (prefix > 0)
    {
        // The target's GPU is busy with this prefix after what was queued there before.
        double& busy = m_busyUntilS[s.targetCell];
        busy = std::max(busy,
                        std::max(target.prefillFreeAtS, input.nowS) +
                            target.compute.PrefillTime(prefix));
    }
    return plan;
}

void
PallasScheduler::DoCompleteRecord(HandoverRecord& record) const
{
    record.policyValues["window_s"] = GetWindow().GetSeconds();
    const bool prepared = !record.preparedAt.IsNegative();
    record.policyValues["prepared"] = prepared ? 1 : 0;
    if (prepared && !record.hoStart.IsNegative())
    {
        // Negative when the prepare came back after the handover started (its messages on
        // the network); Time::GetSeconds is not for negative times.
        record.policyValues["lead_s"] =
            static_cast<double>((record.hoStart - record.preparedAt).GetNanoSeconds()) * 1e-9;
    }
    auto it = m_preparedWindow.find(record.imsi);
    if (prepared && it != m_preparedWindow.end())
    {
        record.policyValues["prepared_window_s"] = it->second;
    }
}

} // namespace ns3
