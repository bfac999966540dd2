/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-coordinator.h"

#include "ctho-scheduler.h"
#include "explaining-checker.h"
#include "kv-transfer-policy.h"
#include "llm-engine.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinator");
NS_OBJECT_ENSURE_REGISTERED(HandoverCoordinator);

namespace
{

/// The block size of a paged KV cache: an open transfer grows by whole blocks.
constexpr uint64_t BLOCK_TOKENS = 16;

} // namespace

TypeId
HandoverCoordinator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HandoverCoordinator")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<HandoverCoordinator>()
            .AddAttribute("Scheduler",
                          "The handover policy (a HandoverScheduler).",
                          PointerValue(CreateObject<CtHoScheduler>()),
                          MakePointerAccessor(&HandoverCoordinator::m_scheduler),
                          MakePointerChecker<HandoverScheduler>())
            .AddAttribute("Batching",
                          "Oracle: groups announced with AddOracleGroup share one batch prefill "
                          "and one plan, fixed at the group's first handover. Online: each "
                          "session is planned alone when it hands over, behind the backhaul's "
                          "backlog and the target's planned prefills.",
                          EnumValue(HandoverCoordinator::ONLINE),
                          MakeEnumAccessor(&HandoverCoordinator::m_batching),
                          MakeEnumChecker(HandoverCoordinator::ORACLE,
                                          "oracle",
                                          HandoverCoordinator::ONLINE,
                                          "online"))
            .AddAttribute("PlannedBackhaulRate",
                          "The backhaul rate the scheduler plans with, bit/s; 0 means each "
                          "link's own rate. Range [0, inf).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&HandoverCoordinator::m_plannedRate),
                          MakeDataRateChecker())
            .AddAttribute("KvBytesPerToken",
                          "KV-cache bytes of one token of a session without its own profile "
                          "(SetSessionKvProfile; KvCacheProfile::GetBytesPerToken; Qwen2.5-7B "
                          "at 16 bits by default). Range [1, 2^32].",
                          UintegerValue(57344),
                          MakeUintegerAccessor(&HandoverCoordinator::m_kvBytesPerToken),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 32))
            .AddAttribute("KvEntriesPerToken",
                          "KV entries (layer x KV head) of one token of a session without its "
                          "own profile; an entry is KvBytesPerToken / KvEntriesPerToken bytes, "
                          "rounded up (Qwen2.5-7B: 28 x 4). Range [1, 2^16].",
                          UintegerValue(112),
                          MakeUintegerAccessor(&HandoverCoordinator::m_kvEntriesPerToken),
                          MakeUintegerChecker<uint32_t>(1, 1u << 16))
            .AddAttribute(
                "OracleGrace",
                "How long past its latest expected handover an oracle group's batch "
                "waits for members that have not handed over. Range [0, inf).",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&HandoverCoordinator::m_oracleGrace),
                edgellm::MakeTimeNotNegativeChecker("ns3::HandoverCoordinator::OracleGrace", true))
            .AddTraceSource("HandoverPlanned",
                            "A session's migration was planned: tokens to prefill and to send.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_plannedTrace),
                            "ns3::HandoverCoordinator::PlannedTracedCallback")
            .AddTraceSource("SessionResumed",
                            "A migrated session resumed at its target, which decodes it from "
                            "now on: with its whole cache, or at its deadline with what arrived.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_resumedTrace),
                            "ns3::HandoverCoordinator::ResumedTracedCallback")
            .AddTraceSource("MigrationCancelled",
                            "A migration ended before its resume: a later handover, a wrong "
                            "prediction, a failed handover or the UE's release.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_cancelledTrace),
                            "ns3::HandoverCoordinator::CancelledTracedCallback")
            .AddTraceSource("MigrationState",
                            "A migration moved from one state to another.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_stateTrace),
                            "ns3::HandoverCoordinator::StateTracedCallback");
    return tid;
}

HandoverCoordinator::HandoverCoordinator()
    : m_paths([this](uint16_t cellId) { return GetCell(cellId).server; })
{
}

HandoverCoordinator::~HandoverCoordinator() = default;

void
HandoverCoordinator::DoDispose()
{
    m_slotTick.Cancel();
    m_scheduler = nullptr;
    m_cells.clear();
    m_senders.clear();
    Object::DoDispose();
}

std::string
HandoverCoordinator::StateName(MigrationState state)
{
    switch (state)
    {
    case NONE:
        return "none";
    case PREPARED:
        return "prepared";
    case COMMITTED:
        return "committed";
    case RESUMED:
        return "resumed";
    case CANCELLED:
        return "cancelled";
    case FAILED:
        return "failed";
    case CLOSED:
        return "closed";
    }
    return "unknown";
}

void
HandoverCoordinator::AddCell(Ptr<EdgeLlmServer> server, Ptr<KvTransferApplication> kv)
{
    NS_ABORT_MSG_IF(!server || !kv, "HandoverCoordinator::AddCell: a server and a KV app");
    const uint16_t cellId = server->GetCellId();
    NS_ABORT_MSG_IF(m_cells.count(cellId) > 0,
                    "HandoverCoordinator::AddCell: cell " << cellId << " added twice");
    m_cells[cellId] = Cell{server, kv};
    Ptr<KvTransferReceiver> receiver = kv->GetReceiver();
    receiver->SetTokensCallback(MakeCallback(&HandoverCoordinator::TokensArrived, this, cellId));
    receiver->SetCompleteCallback(MakeCallback(&HandoverCoordinator::KvComplete, this, cellId));
    server->GetEngine()->TraceConnectWithoutContext(
        "PrefillCompleted",
        MakeCallback(&HandoverCoordinator::PrefillCompleted, this, cellId));
}

void
HandoverCoordinator::AddLink(uint16_t cellA,
                             Ptr<KvTransferSender> senderAtoB,
                             uint16_t cellB,
                             Ptr<KvTransferSender> senderBtoA,
                             DataRate rate)
{
    GetCell(cellA);
    GetCell(cellB);
    m_senders[{cellA, cellB}] = senderAtoB;
    m_senders[{cellB, cellA}] = senderBtoA;
    m_linkRates[{cellA, cellB}] = rate;
    m_linkRates[{cellB, cellA}] = rate;
    const Time slot = m_scheduler->GetSlotDuration();
    if (slot.IsZero())
    {
        return;
    }
    for (Ptr<KvTransferSender> sender : {senderAtoB, senderBtoA})
    {
        Ptr<SlotBudgetKvTransferPolicy> policy =
            DynamicCast<SlotBudgetKvTransferPolicy>(sender->GetPolicy());
        NS_ABORT_MSG_IF(!policy,
                        "HandoverCoordinator: scheduler "
                            << m_scheduler->GetSchemeName()
                            << " budgets the backhaul per slot; its KV-transfer policy must be "
                               "ns3::SlotBudgetKvTransferPolicy (EdgeLlmHelper::"
                               "SetKvTransferPolicyType)");
        TimeValue policySlot;
        policy->GetAttribute("SlotDuration", policySlot);
        NS_ABORT_MSG_IF(policySlot.Get() != slot,
                        "ns3::SlotBudgetKvTransferPolicy::SlotDuration = "
                            << policySlot.Get().As(Time::MS) << " is invalid; allowed: "
                            << slot.As(Time::MS) << ", the slot of scheduler "
                            << m_scheduler->GetSchemeName());
        policy->SetBudgetSource(MakeCallback(&HandoverCoordinator::GetSlotBudget, this));
    }
}

void
HandoverCoordinator::SetFirstCell(uint64_t imsi, uint16_t cellId)
{
    m_paths.Reset(imsi, cellId);
}

void
HandoverCoordinator::SetSessionKvProfile(uint64_t imsi, const SessionKvProfile& profile)
{
    NS_ABORT_MSG_IF(profile.bytesPerToken == 0 || profile.bytesPerEntry == 0 ||
                        profile.entriesPerToken == 0,
                    "HandoverCoordinator::SetSessionKvProfile: imsi "
                        << imsi
                        << ": bytesPerToken, bytesPerEntry and entriesPerToken are integers >= 1");
    m_profiles[imsi] = profile;
}

SessionKvProfile
HandoverCoordinator::GetKvProfile(uint64_t imsi) const
{
    auto it = m_profiles.find(imsi);
    if (it != m_profiles.end())
    {
        return it->second;
    }
    SessionKvProfile p;
    p.bytesPerToken = m_kvBytesPerToken;
    p.entriesPerToken = m_kvEntriesPerToken;
    p.bytesPerEntry = (m_kvBytesPerToken + m_kvEntriesPerToken - 1) / m_kvEntriesPerToken;
    return p;
}

void
HandoverCoordinator::Install(Ptr<RanObserver> observer)
{
    observer->TraceConnectWithoutContext("HandoverStarted",
                                         MakeCallback(&HandoverCoordinator::HandoverStarted, this));
    observer->TraceConnectWithoutContext("UeReady",
                                         MakeCallback(&HandoverCoordinator::UeReady, this));
    observer->TraceConnectWithoutContext("HandoverFailed",
                                         MakeCallback(&HandoverCoordinator::HandoverFailed, this));
    observer->TraceConnectWithoutContext("UeReleased",
                                         MakeCallback(&HandoverCoordinator::UeReleased, this));
}

uint32_t
HandoverCoordinator::AddOracleGroup(const std::vector<std::pair<uint64_t, Time>>& members)
{
    NS_ABORT_MSG_IF(m_batching != ORACLE,
                    "HandoverCoordinator::AddOracleGroup: Batching is online; oracle groups "
                    "need Batching=oracle");
    NS_ABORT_MSG_IF(members.empty(), "HandoverCoordinator::AddOracleGroup: no member");
    Group g;
    const auto number = static_cast<uint32_t>(m_groups.size() + 1);
    Time latest = Time(0);
    for (const auto& [imsi, time] : members)
    {
        NS_ABORT_MSG_IF(m_groupOf.count(imsi) > 0 || g.expected.count(imsi) > 0,
                        "HandoverCoordinator::AddOracleGroup: imsi " << imsi
                                                                     << " is in a group already");
        g.expected[imsi] = time;
        g.waiting.push_back(imsi);
        m_groupOf[imsi] = number;
        latest = std::max(latest, time);
    }
    m_groups.push_back(g);
    Simulator::Schedule(std::max(latest + m_oracleGrace - Simulator::Now(), Time(0)),
                        &HandoverCoordinator::ReleaseGroup,
                        this,
                        number);
    return number;
}

const std::vector<HandoverRecord>&
HandoverCoordinator::GetRecords() const
{
    return m_records;
}

HandoverCoordinator::MigrationState
HandoverCoordinator::GetMigrationState(uint64_t imsi) const
{
    auto it = m_migrations.find(imsi);
    return it == m_migrations.end() ? NONE : it->second.state;
}

Ptr<HandoverScheduler>
HandoverCoordinator::GetScheduler() const
{
    return m_scheduler;
}

HandoverCoordinator::Cell&
HandoverCoordinator::GetCell(uint16_t cellId)
{
    auto it = m_cells.find(cellId);
    NS_ABORT_MSG_IF(it == m_cells.end(), "HandoverCoordinator: no server in cell " << cellId);
    return it->second;
}

Ptr<KvTransferSender>
HandoverCoordinator::GetSender(uint16_t from, uint16_t to) const
{
    auto it = m_senders.find({from, to});
    return it == m_senders.end() ? nullptr : it->second;
}

uint16_t
HandoverCoordinator::OwnerOf(uint64_t imsi) const
{
    const std::vector<uint16_t>& path = m_paths.Get(imsi);
    if (path.empty())
    {
        return 0;
    }
    const uint16_t cell = path.front();
    auto c = m_cells.find(cell);
    return c != m_cells.end() && c->second.server->OwnsSession(imsi) ? cell : 0;
}

void
HandoverCoordinator::SetState(uint64_t imsi, Migration& m, MigrationState state)
{
    NS_LOG_INFO("imsi " << imsi << " epoch " << m.epoch << ": " << StateName(m.state) << " -> "
                        << StateName(state));
    const MigrationState from = m.state;
    m.state = state;
    m_stateTrace(imsi, m.epoch, from, state);
}

uint32_t
HandoverCoordinator::LeaveGroup(uint64_t imsi)
{
    auto member = m_groupOf.find(imsi);
    if (member == m_groupOf.end())
    {
        return 0;
    }
    const uint32_t group = member->second;
    m_groupOf.erase(member);
    Group& g = m_groups[group - 1];
    g.waiting.erase(std::remove(g.waiting.begin(), g.waiting.end(), imsi), g.waiting.end());
    return group;
}

void
HandoverCoordinator::ReleaseGroup(uint32_t group)
{
    Group& g = m_groups[group - 1];
    if (g.waiting.empty())
    {
        return;
    }
    NS_LOG_WARN("oracle group " << group << ": " << g.waiting.size()
                                << " members never handed over; its batch goes without them");
    for (uint64_t imsi : g.waiting)
    {
        m_groupOf.erase(imsi);
    }
    g.waiting.clear();
    TryPrefill(0, group);
}

void
HandoverCoordinator::HandoverStarted(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell)
{
    const Time now = Simulator::Now();
    NS_LOG_FUNCTION(this << imsi << sourceCell << targetCell);
    auto prepared = m_migrations.find(imsi);
    if (prepared != m_migrations.end() && prepared->second.state == PREPARED)
    {
        const uint16_t holder = prepared->second.route.front();
        Ptr<LlmEngine> engine = GetCell(holder).server->GetEngine();
        const bool unfinished =
            engine->HasSession(imsi) && engine->GetNextTokenIndex(imsi) <
                                            GetCell(holder).server->GetSessionState(imsi).tokensToGenerate;
        if (prepared->second.route.back() == targetCell && unfinished)
        {
            HandoverRecord& r = m_records[prepared->second.record];
            r.sourceCell = sourceCell;
            r.hoStart = now;
            CommitPrepared(imsi);
            return;
        }
        // The prediction was wrong: what was prepared is waste.
        EndMigration(imsi, CANCELLED, HandoverRecord::CANCELLED, false);
    }

    HandoverRecord record;
    record.scheme = m_scheduler->GetSchemeName();
    record.imsi = imsi;
    record.sourceCell = sourceCell;
    record.targetCell = targetCell;
    record.hoStart = now;
    uint32_t group = LeaveGroup(imsi);

    if (m_migrations.count(imsi) > 0)
    {
        EndMigration(imsi, CANCELLED, HandoverRecord::CANCELLED, false);
    }
    const uint16_t holder = OwnerOf(imsi);
    record.holderCell = holder;
    Ptr<LlmEngine> engine = holder == 0 ? nullptr : GetCell(holder).server->GetEngine();
    const bool started = holder != 0 && engine->HasSession(imsi) &&
                         GetCell(holder).server->GetSessionState(imsi).generated > 0;
    const uint64_t next = started ? engine->GetNextTokenIndex(imsi) : 0;
    const uint32_t total =
        started ? GetCell(holder).server->GetSessionState(imsi).tokensToGenerate : 0;
    if (!started || next >= total)
    {
        // Nothing decoded yet, or nothing left: only the packets have to follow the UE.
        record.outcome = HandoverRecord::NO_SESSION;
        m_records.push_back(record);
        m_paths.RouteTo(imsi, targetCell);
        TryPrefill(imsi, group);
        return;
    }
    record.resumeIndex = static_cast<uint32_t>(next);
    record.contextTokens = engine->GetContextTokens(imsi);

    if (targetCell == holder)
    {
        // Back to the cell that holds the whole cache (a ping-pong): it decodes again.
        m_paths.RouteTo(imsi, targetCell);
        GetCell(holder).server->MarkHandover(imsi);
        if (!engine->IsDecoding(imsi))
        {
            engine->ResumeDecoding(imsi, next, total - next);
        }
        record.outcome = HandoverRecord::REUSED;
        record.kvReady = now;
        m_scheduler->CompleteRecord(record);
        m_records.push_back(record);
        m_resumedTrace(imsi, holder, Time(0));
        TryPrefill(imsi, group);
        return;
    }

    HandoverPlan plan = PlanFor(imsi, holder, targetCell, group);
    if (!plan.Find(imsi))
    {
        // An oracle member the group's plan could not see (no session then): alone now.
        group = 0;
        plan = PlanFor(imsi, holder, targetCell, 0);
    }
    const SessionPlan session = *plan.Find(imsi);
    record.prefixTokens = std::min(plan.prefixTokens, record.contextTokens);
    record.predictedDelay = plan.predictedDelay.IsStrictlyNegative() ? Time(0) : plan.predictedDelay;
    const bool routed = m_paths.RouteTo(imsi, targetCell);
    record.group = group;
    m_records.push_back(record);
    const bool migrating = session.action == SessionPlan::MIGRATE && routed;
    if (!migrating ||
        !StartMigration(imsi, holder, targetCell, m_records.size() - 1, session, false))
    {
        if (!migrating)
        {
            GetCell(holder).server->MarkHandover(imsi); // a failed start has marked already
        }
        if (!engine->IsDecoding(imsi))
        {
            // Stopped by a migration this handover cancelled: the holder decodes on.
            engine->ResumeDecoding(imsi, next, total - next);
        }
        m_records.back().outcome = HandoverRecord::RELAYED;
        m_records.back().group = 0;
        m_scheduler->CompleteRecord(m_records.back());
    }
    // A member that cannot migrate must not hold its group's batch back.
    TryPrefill(imsi, group);
}

bool
HandoverCoordinator::PrepareHandover(uint64_t imsi, uint16_t targetCell, Time expected)
{
    NS_LOG_FUNCTION(this << imsi << targetCell << expected);
    const Time now = Simulator::Now();
    NS_ABORT_MSG_IF(expected < now,
                    "HandoverCoordinator::PrepareHandover: expected = "
                        << expected.As(Time::S) << " is invalid; allowed: a time >= now ("
                        << now.As(Time::S) << ")");
    GetCell(targetCell);
    auto it = m_migrations.find(imsi);
    if (it != m_migrations.end())
    {
        if (it->second.state != PREPARED)
        {
            return false;
        }
        EndMigration(imsi, CANCELLED, HandoverRecord::CANCELLED, true);
    }
    const uint16_t holder = OwnerOf(imsi);
    if (holder == 0 || holder == targetCell || !GetSender(holder, targetCell))
    {
        return false;
    }
    Ptr<EdgeLlmServer> server = GetCell(holder).server;
    Ptr<LlmEngine> engine = server->GetEngine();
    if (!engine->HasSession(imsi) || !engine->IsDecoding(imsi) ||
        server->GetSessionState(imsi).generated == 0)
    {
        return false;
    }
    HandoverPlanInput input;
    input.nowS = now.GetSeconds();
    std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
    input.sessions.push_back(MakeSessionView(imsi,
                                             holder,
                                             targetCell,
                                             expected.GetSeconds(),
                                             engine->GetContextTokens(imsi),
                                             false,
                                             input.links,
                                             index));
    input.targets.push_back(MakeTargetView(targetCell));
    const HandoverPlan plan = m_scheduler->Prepare(input);
    const SessionPlan* session = plan.Find(imsi);
    if (!session || session->action != SessionPlan::MIGRATE)
    {
        return false;
    }
    HandoverRecord record;
    record.scheme = m_scheduler->GetSchemeName();
    record.imsi = imsi;
    record.sourceCell = holder;
    record.targetCell = targetCell;
    record.holderCell = holder;
    record.hoStart = Time(-1);
    record.preparedAt = now;
    record.prefixTokens = std::min(plan.prefixTokens, engine->GetContextTokens(imsi));
    record.predictedDelay = plan.predictedDelay.IsStrictlyNegative() ? Time(0) : plan.predictedDelay;
    m_records.push_back(record);
    if (!StartMigration(imsi, holder, targetCell, m_records.size() - 1, *session, true))
    {
        m_records.back().outcome = HandoverRecord::CANCELLED;
        return false;
    }
    m_migrations.at(imsi).expectedS = expected.GetSeconds();
    return true;
}

bool
HandoverCoordinator::CancelPrepared(uint64_t imsi)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.state != PREPARED)
    {
        return false;
    }
    EndMigration(imsi, CANCELLED, HandoverRecord::CANCELLED, true);
    return true;
}

bool
HandoverCoordinator::StartMigration(uint64_t imsi,
                                    uint16_t holder,
                                    uint16_t target,
                                    std::size_t recordIndex,
                                    const SessionPlan& plan,
                                    bool prepared)
{
    HandoverRecord& record = m_records[recordIndex];
    Cell& h = GetCell(holder);
    Cell& t = GetCell(target);
    Ptr<LlmEngine> engine = h.server->GetEngine();
    const bool keepDecoding = prepared && plan.keepDecoding;
    const uint64_t next = keepDecoding ? engine->GetNextTokenIndex(imsi) : engine->StopDecoding(imsi);
    const uint64_t remaining = h.server->GetSessionState(imsi).tokensToGenerate - next;
    const SessionKvProfile kv = GetKvProfile(imsi);
    record.contextTokens = engine->GetContextTokens(imsi);
    record.resumeIndex = static_cast<uint32_t>(next);
    if (!prepared)
    {
        // The mark goes out after the stop, so the marked token is the last one before the
        // handover.
        h.server->MarkHandover(imsi);
    }

    Migration m;
    m.record = recordIndex;
    m.plan = plan;
    m.nextToken = next;
    m.open = keepDecoding;
    const uint64_t context = record.contextTokens;
    // An open transfer holds whole blocks only; the last partial one goes with the seal.
    const uint64_t sendable = m.open ? context / BLOCK_TOKENS * BLOCK_TOKENS : context;
    const uint64_t units =
        plan.unit == KvTransferHeader::TOKEN ? sendable : sendable * kv.entriesPerToken;
    std::vector<PlanRange> prefill = HandoverScheduler::Resolve(plan.prefill, context);
    std::vector<PlanRange> transfer = HandoverScheduler::Resolve(plan.transfer, units);
    if (GetSender(holder, target))
    {
        m.route = {holder, target};
    }
    else
    {
        NS_LOG_INFO("imsi " << imsi << ": cell " << target << " has no link to cell " << holder
                            << ", which holds the cache; tokens are relayed and re-prefilled");
        m.route = m_paths.Get(imsi);
        prefill = {{0, context}};
        transfer.clear();
    }
    if (m.open)
    {
        NS_ABORT_MSG_IF(plan.unit != KvTransferHeader::TOKEN || plan.transfer.empty() ||
                            plan.transfer.back().end != PlanRange::CONTEXT_END,
                        "HandoverScheduler " << m_scheduler->GetSchemeName() << ": imsi " << imsi
                                             << ": a plan that keeps decoding grows its transfer "
                                                "at the context's end: its unit is TOKEN and its "
                                                "last range ends at PlanRange::CONTEXT_END");
        m.openEnd = std::max<uint64_t>(transfer.empty() ? 0 : transfer.back().end,
                                       std::max(plan.transfer.back().first, sendable));
    }
    record.prefillTokens = prefill.empty() ? 0 : prefill.front().end;
    record.unit = plan.unit;
    record.transferRanges = transfer;
    uint64_t transferUnits = 0;
    for (const PlanRange& r : transfer)
    {
        transferUnits += r.end - r.first;
    }
    record.transferTokens = plan.unit == KvTransferHeader::TOKEN
                                ? transferUnits
                                : context - record.prefillTokens;

    if (t.server->GetEngine()->AddResumedSession(imsi, context, remaining) ==
        LlmEngine::Admission::REJECTED)
    {
        // An admission outcome, not an error: the session stays where its cache is.
        NS_LOG_INFO("imsi " << imsi << ": cell " << target << " cannot hold " << context
                            << " tokens; it stays at cell " << holder);
        record.prefillTokens = 0;
        record.transferTokens = 0;
        record.transferRanges.clear();
        if (!keepDecoding)
        {
            engine->ResumeDecoding(imsi, next, remaining);
        }
        return false;
    }
    m.epoch = ++m_epochs[imsi];
    record.epoch = m.epoch;
    for (std::size_t i = 1; i < m.route.size(); ++i)
    {
        GetCell(m.route[i]).kv->GetReceiver()->ExpectEpoch(imsi, m.epoch);
    }
    KvTransferRequest request;
    request.imsi = imsi;
    request.epoch = m.epoch;
    request.unit = plan.unit;
    request.bytesPerUnit =
        plan.unit == KvTransferHeader::TOKEN ? kv.bytesPerToken : kv.bytesPerEntry;
    request.forwardedFirst = 0;
    request.forwardedCount = static_cast<uint32_t>(record.prefillTokens);
    for (const PlanRange& r : transfer)
    {
        request.ranges.emplace_back(static_cast<uint32_t>(r.first),
                                    static_cast<uint32_t>(r.end - r.first));
    }
    request.open = m.open;
    request.weight = plan.weight;
    request.priority = plan.priority;
    if (plan.transferDeadline != Time::Max())
    {
        request.deadline = Simulator::Now() + plan.transferDeadline;
    }
    Ptr<KvTransferSender> sender = GetSender(m.route[0], m.route[1]);
    m.sentAtStart = sender->GetCounters(imsi).sent;
    m.receivedAtStart = t.kv->GetReceiver()->GetCounters(imsi).received;
    m.expectedS = Simulator::Now().GetSeconds();
    if (!request.ranges.empty() || request.forwardedCount > 0 || request.open)
    {
        sender->Enqueue(request);
    }

    m.tokensIn = record.prefillTokens == 0;
    m.prefillDone = record.prefillTokens == 0;
    m.kvDone = request.ranges.empty() && !m.open;
    record.kvBytes = transferUnits * request.bytesPerUnit;
    if (record.prefillTokens > 0)
    {
        // What online plans behind this one wait for: the earliest its prefill can end.
        const LlmComputeModel& model = t.server->GetEngine()->GetLlmComputeModel();
        t.prefillFreeAt = std::max(t.prefillFreeAt, Simulator::Now()) +
                          Seconds(model.PrefillTime(record.prefillTokens));
        t.queuedPrefill += record.prefillTokens;
    }
    m.state = prepared ? PREPARED : COMMITTED;
    m_migrations[imsi] = m;
    m_stateTrace(imsi, m.epoch, NONE, m.state);
    if (m.open && !m_tokensHooked)
    {
        m_tokensHooked = true;
        for (const auto& [cell, c] : m_cells)
        {
            c.server->GetEngine()->TraceConnectWithoutContext(
                "TokenGenerated",
                MakeCallback(&HandoverCoordinator::TokenGenerated, this, cell));
        }
    }
    if (!prepared && plan.resume == SessionPlan::AT_DEADLINE)
    {
        Simulator::Schedule(plan.resumeAfter,
                            &HandoverCoordinator::DeadlineReached,
                            this,
                            imsi,
                            m.epoch);
    }
    ArmSlotTick();
    m_plannedTrace(imsi, record.prefillTokens, record.transferTokens);
    return true;
}

void
HandoverCoordinator::CommitPrepared(uint64_t imsi)
{
    Migration& m = m_migrations.at(imsi);
    HandoverRecord& record = m_records[m.record];
    Cell& h = GetCell(m.route.front());
    Ptr<LlmEngine> engine = h.server->GetEngine();
    if (m.open)
    {
        m.nextToken = engine->StopDecoding(imsi);
        const uint64_t context = engine->GetContextTokens(imsi);
        record.contextTokens = context;
        record.resumeIndex = static_cast<uint32_t>(m.nextToken);
        GetCell(m.route.back()).server->GetEngine()->GrowContext(imsi, context);
        std::vector<std::pair<uint32_t, uint32_t>> last;
        if (context > m.openEnd)
        {
            last.emplace_back(static_cast<uint32_t>(m.openEnd),
                              static_cast<uint32_t>(context - m.openEnd));
            record.transferRanges.push_back({m.openEnd, context});
            record.transferTokens += context - m.openEnd;
            record.kvBytes += (context - m.openEnd) * GetKvProfile(imsi).bytesPerToken;
            m.openEnd = context;
        }
        GetSender(m.route[0], m.route[1])->Seal(imsi, m.epoch, last);
        m.open = false;
    }
    h.server->MarkHandover(imsi);
    m_paths.RouteTo(imsi, record.targetCell);
    SetState(imsi, m, COMMITTED);
    if (m.plan.resume == SessionPlan::AT_DEADLINE)
    {
        Simulator::Schedule(m.plan.resumeAfter,
                            &HandoverCoordinator::DeadlineReached,
                            this,
                            imsi,
                            m.epoch);
    }
    m_scheduler->Commit(MakeMigrationView(imsi, m, nullptr, nullptr));
    TryResume(imsi);
}

void
HandoverCoordinator::TokenGenerated(uint16_t cellId, uint64_t imsi, uint64_t /* index */)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || !it->second.open || it->second.route.front() != cellId)
    {
        return;
    }
    Migration& m = it->second;
    const uint64_t context = GetCell(cellId).server->GetEngine()->GetContextTokens(imsi);
    const uint64_t full = context / BLOCK_TOKENS * BLOCK_TOKENS;
    if (full <= m.openEnd)
    {
        return;
    }
    // A block is sent once the source has filled it: its KV no longer changes.
    GetSender(m.route[0], m.route[1])
        ->Append(imsi,
                 m.epoch,
                 {{static_cast<uint32_t>(m.openEnd), static_cast<uint32_t>(full - m.openEnd)}});
    HandoverRecord& record = m_records[m.record];
    record.transferRanges.push_back({m.openEnd, full});
    record.transferTokens += full - m.openEnd;
    record.kvBytes += (full - m.openEnd) * GetKvProfile(imsi).bytesPerToken;
    m.openEnd = full;
    GetCell(m.route.back()).server->GetEngine()->GrowContext(imsi, full);
}

void
HandoverCoordinator::EndMigration(uint64_t imsi,
                                  MigrationState state,
                                  HandoverRecord::Outcome outcome,
                                  bool resumeHolder)
{
    auto it = m_migrations.find(imsi);
    Migration m = it->second;
    const MigrationView view = MakeMigrationView(imsi, m, nullptr, nullptr);
    m_migrations.erase(it);
    Ptr<KvTransferSender> sender = GetSender(m.route[0], m.route[1]);
    const uint64_t withdrawn = sender->Cancel(imsi, m.epoch, KvDiscardReason::NEWER_EPOCH);
    // Bytes still in flight arrive under an epoch the target no longer expects: stale.
    const uint32_t next = ++m_epochs[imsi];
    for (std::size_t i = 1; i < m.route.size(); ++i)
    {
        GetCell(m.route[i]).kv->GetReceiver()->ExpectEpoch(imsi,
                                                           next,
                                                           KvDiscardReason::NEWER_EPOCH);
    }
    Cell& t = GetCell(m.route.back());
    t.server->GetEngine()->RemoveSession(imsi);
    HandoverRecord& record = m_records[m.record];
    record.outcome = outcome;
    record.wastedBytes = sender->GetCounters(imsi).sent - m.sentAtStart;
    if (m.prefillDone && record.prefillTokens > 0)
    {
        record.wastedGpuSeconds =
            t.server->GetEngine()->GetLlmComputeModel().PrefillTime(record.prefillTokens);
    }
    if (m.prefillSubmitted && !m.prefillDone)
    {
        t.queuedPrefill -= std::min(t.queuedPrefill, record.prefillTokens);
    }
    if (resumeHolder)
    {
        // The session stays where its cache is, and decodes on there.
        Ptr<EdgeLlmServer> holder = GetCell(m.route.front()).server;
        Ptr<LlmEngine> engine = holder->GetEngine();
        if (engine->HasSession(imsi) && !engine->IsDecoding(imsi))
        {
            const uint64_t total = holder->GetSessionState(imsi).tokensToGenerate;
            if (m.nextToken < total)
            {
                engine->ResumeDecoding(imsi, m.nextToken, total - m.nextToken);
            }
        }
    }
    if (state == FAILED || state == CLOSED)
    {
        m_paths.RouteTo(imsi, m.route.front());
    }
    const MigrationState from = m.state;
    m_stateTrace(imsi, m.epoch, from, state);
    if (from == PREPARED)
    {
        m_scheduler->Cancel(view);
    }
    m_scheduler->CompleteRecord(record);
    m_cancelledTrace(imsi, m.epoch, withdrawn);
    NS_LOG_INFO("imsi " << imsi << ": migration to cell " << m.route.back() << " "
                        << StateName(state) << ", " << withdrawn << " KV bytes withdrawn");
}

void
HandoverCoordinator::HandoverFailed(uint64_t imsi,
                                    uint16_t cellId,
                                    RanObserver::HandoverFailureReason /* why */)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.state != COMMITTED)
    {
        return;
    }
    const Migration& m = it->second;
    if (cellId != m.route.back() && cellId != m_records[m.record].sourceCell)
    {
        return;
    }
    EndMigration(imsi, FAILED, HandoverRecord::FAILED, true);
}

void
HandoverCoordinator::UeReleased(uint64_t imsi, uint16_t /* cellId */)
{
    if (m_migrations.count(imsi) > 0)
    {
        EndMigration(imsi, CLOSED, HandoverRecord::CLOSED, true);
    }
}

void
HandoverCoordinator::UeReady(uint64_t imsi, uint16_t cellId)
{
    // After a handover this changes nothing: the path ends there already. After a failed
    // handover or a radio link failure it brings the packets back to where the UE is.
    auto it = m_migrations.find(imsi);
    if (it != m_migrations.end() && it->second.state == COMMITTED &&
        it->second.route.back() != cellId)
    {
        HandoverStarted(imsi, it->second.route.back(), cellId);
        return;
    }
    m_paths.RouteTo(imsi, cellId);
}

void
HandoverCoordinator::TokensArrived(uint16_t cellId,
                                   uint64_t imsi,
                                   uint32_t epoch,
                                   uint32_t first,
                                   uint32_t count)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.epoch != epoch)
    {
        return;
    }
    Migration& m = it->second;
    auto at = std::find(m.route.begin(), m.route.end(), cellId);
    if (at == m.route.end() || at == m.route.begin())
    {
        return;
    }
    if (cellId != m.route.back())
    {
        // A hop on the way: pass the token IDs on to the next cell.
        KvTransferRequest request;
        request.imsi = imsi;
        request.epoch = epoch;
        request.bytesPerUnit = GetKvProfile(imsi).bytesPerToken;
        request.forwardedFirst = first;
        request.forwardedCount = count;
        GetSender(cellId, *(at + 1))->Enqueue(request);
        return;
    }
    m.tokensIn = true;
    TryPrefill(imsi, m_records[m.record].group);
}

void
HandoverCoordinator::TryPrefill(uint64_t imsi, uint32_t group)
{
    std::vector<uint64_t> batch;
    if (group == 0)
    {
        if (m_migrations.count(imsi) == 0)
        {
            return;
        }
        batch.push_back(imsi);
    }
    else
    {
        if (!m_groups[group - 1].waiting.empty())
        {
            return; // the batch starts after the group's last handover
        }
        for (const auto& [member, m] : m_migrations)
        {
            if (m_records[m.record].group == group)
            {
                batch.push_back(member);
            }
        }
    }
    for (uint64_t member : batch)
    {
        if (!m_migrations.at(member).tokensIn)
        {
            return;
        }
    }
    // Every session of the batch is in: the engine starts them together at its next cycle.
    std::map<uint16_t, std::vector<std::pair<uint64_t, uint64_t>>> jobs; // by target
    for (uint64_t member : batch)
    {
        Migration& m = m_migrations.at(member);
        const HandoverRecord& r = m_records[m.record];
        if (r.prefillTokens > 0 && !m.prefillSubmitted)
        {
            m.prefillSubmitted = true;
            jobs[r.targetCell].emplace_back(member, r.prefillTokens);
        }
    }
    for (const auto& [cell, list] : jobs)
    {
        GetCell(cell).server->GetEngine()->SubmitPrefillBatch(list, true);
    }
}

void
HandoverCoordinator::PrefillCompleted(uint16_t cellId,
                                      uint64_t imsi,
                                      uint64_t tokens,
                                      bool /* urgent */)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.route.back() != cellId ||
        !it->second.prefillSubmitted)
    {
        return;
    }
    Cell& t = GetCell(cellId);
    t.queuedPrefill -= std::min(t.queuedPrefill, tokens);
    it->second.prefillDone = true;
    TryResume(imsi);
}

void
HandoverCoordinator::KvComplete(uint16_t cellId, uint64_t imsi, uint32_t epoch)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.route.back() != cellId || it->second.epoch != epoch)
    {
        return;
    }
    it->second.kvDone = true;
    TryResume(imsi);
}

void
HandoverCoordinator::DeadlineReached(uint64_t imsi, uint32_t epoch)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.epoch != epoch ||
        it->second.state != COMMITTED)
    {
        return;
    }
    it->second.deadlinePassed = true;
    TryResume(imsi);
}

void
HandoverCoordinator::TryResume(uint64_t imsi)
{
    auto it = m_migrations.find(imsi);
    const Migration m = it->second;
    // A prefix cannot be decoded over before it is prefilled, even at a deadline.
    if (m.state != COMMITTED || !m.tokensIn || !m.prefillDone || (!m.kvDone && !m.deadlinePassed))
    {
        return;
    }
    HandoverRecord& record = m_records[m.record];
    Cell& h = GetCell(record.holderCell);
    Cell& t = GetCell(record.targetCell);
    Ptr<KvTransferReceiver> receiver = t.kv->GetReceiver();
    // What the session resumes with is what the target's receiver counted, not the plan.
    const edgellm::RangeSet received = receiver->GetReceivedRanges(imsi);
    for (const auto& [first, end] : received.Ranges())
    {
        record.arrived.push_back({first, end});
    }
    if (!m.kvDone)
    {
        // The window is over: the rest of the transfer is abandoned.
        uint64_t arrivedUnits = 0;
        for (const PlanRange& r : record.arrived)
        {
            arrivedUnits += r.end - r.first;
        }
        const SessionKvProfile kv = GetKvProfile(imsi);
        const uint64_t bpu =
            record.unit == KvTransferHeader::TOKEN ? kv.bytesPerToken : kv.bytesPerEntry;
        record.abandonedBytes = record.kvBytes - std::min(record.kvBytes, arrivedUnits * bpu);
        GetSender(m.route[0], m.route[1])->Cancel(imsi, m.epoch, KvDiscardReason::WINDOW_END);
        const uint32_t next = ++m_epochs[imsi];
        for (std::size_t i = 1; i < m.route.size(); ++i)
        {
            GetCell(m.route[i]).kv->GetReceiver()->ExpectEpoch(imsi,
                                                               next,
                                                               KvDiscardReason::WINDOW_END);
        }
    }
    m_migrations.erase(it);
    m_paths.StopRelays(imsi);
    EdgeLlmServer::SessionState state = h.server->ExportSession(imsi);
    const uint64_t remaining = state.tokensToGenerate - record.resumeIndex;
    t.server->ImportSession(imsi, std::move(state));
    h.server->GetEngine()->RemoveSession(imsi);
    m_paths.Reset(imsi, record.targetCell);
    t.server->GetEngine()->ResumeDecoding(imsi, record.resumeIndex, remaining);
    record.kvReady = Simulator::Now();
    record.outcome = HandoverRecord::MIGRATED;
    m_stateTrace(imsi, m.epoch, COMMITTED, RESUMED);
    m_scheduler->CompleteRecord(record);
    NS_LOG_INFO("imsi " << imsi << ": resumed at cell " << record.targetCell << " after "
                        << (record.kvReady - record.hoStart).As(Time::MS));
    m_resumedTrace(imsi, record.targetCell, record.kvReady - record.hoStart);
}

} // namespace ns3
