/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-coordinator.h"

#include "ctho-scheduler.h"
#include "explaining-checker.h"
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
                          "KV-cache bytes of one token (KvCacheProfile::GetBytesPerToken; "
                          "Qwen2.5-7B at 16 bits by default). Range [1, 2^32].",
                          UintegerValue(57344),
                          MakeUintegerAccessor(&HandoverCoordinator::m_kvBytesPerToken),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 32))
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
                            "A migrated session's whole cache is at its target, which decodes "
                            "it from now on.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_resumedTrace),
                            "ns3::HandoverCoordinator::ResumedTracedCallback")
            .AddTraceSource("MigrationCancelled",
                            "A later handover cancelled a migration under way.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_cancelledTrace),
                            "ns3::HandoverCoordinator::CancelledTracedCallback");
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
    m_scheduler = nullptr;
    m_cells.clear();
    m_senders.clear();
    Object::DoDispose();
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
}

void
HandoverCoordinator::SetFirstCell(uint64_t imsi, uint16_t cellId)
{
    m_paths.Reset(imsi, cellId);
}

void
HandoverCoordinator::Install(Ptr<RanObserver> observer)
{
    observer->TraceConnectWithoutContext("HandoverStarted",
                                         MakeCallback(&HandoverCoordinator::HandoverStarted, this));
    observer->TraceConnectWithoutContext("UeReady",
                                         MakeCallback(&HandoverCoordinator::UeReady, this));
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

double
HandoverCoordinator::GetPlannedTokensPerSecond(uint16_t cellA, uint16_t cellB) const
{
    uint64_t bps = m_plannedRate.GetBitRate();
    if (bps == 0)
    {
        auto it = m_linkRates.find({cellA, cellB});
        if (it != m_linkRates.end())
        {
            bps = it->second.GetBitRate();
        }
        else
        {
            // No direct link: the cache cannot move there, so only token forwarding (tHO)
            // is possible; the slowest link is a rate the policy can still decide with.
            bps = std::numeric_limits<uint64_t>::max();
            for (const auto& [pair, rate] : m_linkRates)
            {
                bps = std::min(bps, rate.GetBitRate());
            }
            NS_ABORT_MSG_IF(m_linkRates.empty(), "HandoverCoordinator: no backhaul link at all");
        }
    }
    return static_cast<double>(bps) / 8.0 / static_cast<double>(m_kvBytesPerToken);
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

CtHoInput
HandoverCoordinator::MakeProblem(uint16_t holder, uint16_t target)
{
    CtHoInput problem;
    problem.backhaulTokensPerSecond = GetPlannedTokensPerSecond(holder, target);
    TimeValue cycle;
    GetCell(target).server->GetEngine()->GetAttribute("PrefillCycle", cycle);
    problem.prefillCycle = cycle.Get().GetSeconds();
    return problem;
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
    std::vector<uint64_t>& waiting = m_groups[group - 1].waiting;
    waiting.erase(std::remove(waiting.begin(), waiting.end(), imsi), waiting.end());
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

HandoverPlan
HandoverCoordinator::PlanFor(uint64_t imsi, uint16_t holder, uint16_t target, uint32_t group)
{
    const Time now = Simulator::Now();
    Ptr<LlmEngine> engine = GetCell(holder).server->GetEngine();
    HandoverPlanInput input;
    input.compute = GetCell(target).server->GetEngine()->GetLlmComputeModel();
    input.problem = MakeProblem(holder, target);
    if (group > 0)
    {
        Group& g = m_groups[group - 1];
        if (g.planned)
        {
            return g.plan;
        }
        // The first handover of the group fixes L for all: the others' contexts are what they
        // will have at their expected handover times, at the rate they have decoded so far.
        for (const auto& [other, expected] : g.expected)
        {
            const uint16_t cell = OwnerOf(other);
            if (cell == 0 || !GetCell(cell).server->GetEngine()->HasSession(other))
            {
                continue;
            }
            Ptr<EdgeLlmServer> server = GetCell(cell).server;
            uint64_t context = server->GetEngine()->GetContextTokens(other);
            const double at = std::max(expected, now).GetSeconds();
            const EdgeLlmServer::SessionState& s = server->GetSessionState(other);
            if (other != imsi && s.generated >= 2)
            {
                const double rate = (s.generated - 1) / (now.GetSeconds() - s.firstTokenNs * 1e-9);
                const double left = s.tokensToGenerate - s.generated;
                context += static_cast<uint64_t>(
                    std::min(left, std::floor(rate * (at - now.GetSeconds()))));
            }
            input.problem.ues.push_back({context, other == imsi ? now.GetSeconds() : at});
        }
        g.plan = m_scheduler->Plan(input);
        g.planned = true;
        return g.plan;
    }
    input.problem.ues.push_back({engine->GetContextTokens(imsi), now.GetSeconds()});
    Cell& t = GetCell(target);
    input.problem.earliestPrefillStart = std::max(t.prefillFreeAt, now).GetSeconds();
    if (Ptr<KvTransferSender> sender = GetSender(holder, target))
    {
        input.problem.backlogTokens =
            static_cast<double>(sender->GetBacklogBytes()) / static_cast<double>(m_kvBytesPerToken);
    }
    return m_scheduler->Plan(input);
}

void
HandoverCoordinator::HandoverStarted(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell)
{
    const Time now = Simulator::Now();
    NS_LOG_FUNCTION(this << imsi << sourceCell << targetCell);
    HandoverRecord record;
    record.scheme = m_scheduler->GetSchemeName();
    record.imsi = imsi;
    record.sourceCell = sourceCell;
    record.targetCell = targetCell;
    record.hoStart = now;
    const uint32_t group = LeaveGroup(imsi);

    if (m_migrations.count(imsi) > 0)
    {
        CancelMigration(imsi);
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
        m_records.push_back(record);
        m_resumedTrace(imsi, holder, Time(0));
        TryPrefill(imsi, group);
        return;
    }

    const HandoverPlan plan = PlanFor(imsi, holder, targetCell, group);
    record.prefixTokens = std::min(plan.prefixTokens, record.contextTokens);
    record.predictedDelay = Seconds(plan.predicted.worstDelay);
    const bool routed = m_paths.RouteTo(imsi, targetCell);
    record.group = group;
    m_records.push_back(record);
    const bool migrating = plan.action == HandoverPlan::MIGRATE && routed;
    if (!migrating || !StartMigration(imsi, holder, targetCell, m_records.size() - 1, plan))
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
    }
    // A member that cannot migrate must not hold its group's batch back.
    TryPrefill(imsi, group);
}

bool
HandoverCoordinator::StartMigration(uint64_t imsi,
                                    uint16_t holder,
                                    uint16_t target,
                                    std::size_t recordIndex,
                                    const HandoverPlan& plan)
{
    HandoverRecord& record = m_records[recordIndex];
    Cell& h = GetCell(holder);
    Cell& t = GetCell(target);
    Ptr<LlmEngine> engine = h.server->GetEngine();
    const uint64_t next = engine->StopDecoding(imsi);
    const uint64_t remaining = h.server->GetSessionState(imsi).tokensToGenerate - next;
    record.contextTokens = engine->GetContextTokens(imsi);
    record.resumeIndex = static_cast<uint32_t>(next);
    // The mark goes out after the stop, so the marked token is the last one before the handover.
    h.server->MarkHandover(imsi);

    Migration m;
    m.record = recordIndex;
    if (GetSender(holder, target))
    {
        m.route = {holder, target};
        record.prefillTokens = std::min(record.contextTokens, plan.prefixTokens);
    }
    else
    {
        NS_LOG_INFO("imsi " << imsi << ": cell " << target << " has no link to cell " << holder
                            << ", which holds the cache; tokens are relayed and re-prefilled");
        m.route = m_paths.Get(imsi);
        record.prefillTokens = record.contextTokens;
    }
    record.transferTokens = record.contextTokens - record.prefillTokens;

    if (t.server->GetEngine()->AddResumedSession(imsi, record.contextTokens, remaining) ==
        LlmEngine::Admission::REJECTED)
    {
        // An admission outcome, not an error: the session stays where its cache is.
        NS_LOG_INFO("imsi " << imsi << ": cell " << target << " cannot hold "
                            << record.contextTokens << " tokens; it stays at cell " << holder);
        record.prefillTokens = 0;
        record.transferTokens = 0;
        engine->ResumeDecoding(imsi, next, remaining);
        return false;
    }
    m.epoch = ++m_epochs[imsi];
    for (std::size_t i = 1; i < m.route.size(); ++i)
    {
        GetCell(m.route[i]).kv->GetReceiver()->ExpectEpoch(imsi, m.epoch);
    }
    KvTransferRequest request;
    request.imsi = imsi;
    request.epoch = m.epoch;
    request.bytesPerUnit = m_kvBytesPerToken;
    request.forwardedFirst = 0;
    request.forwardedCount = static_cast<uint32_t>(record.prefillTokens);
    if (record.transferTokens > 0)
    {
        request.ranges.emplace_back(static_cast<uint32_t>(record.prefillTokens),
                                    static_cast<uint32_t>(record.transferTokens));
    }
    // Earliest deadline first with d_i = tau_i + D_tx*(L) attains D_tx*(L).
    request.deadline = Simulator::Now() + Seconds(plan.predicted.transferDelay);
    GetSender(m.route[0], m.route[1])->Enqueue(request);

    m.tokensIn = record.prefillTokens == 0;
    m.prefillDone = record.prefillTokens == 0;
    m.kvDone = record.transferTokens == 0;
    record.kvBytes = record.transferTokens * m_kvBytesPerToken;
    if (record.prefillTokens > 0)
    {
        // What online plans behind this one wait for: the earliest its prefill can end.
        const LlmComputeModel& model = t.server->GetEngine()->GetLlmComputeModel();
        t.prefillFreeAt = std::max(t.prefillFreeAt, Simulator::Now()) +
                          Seconds(model.PrefillTime(record.prefillTokens));
    }
    m_migrations[imsi] = m;
    m_plannedTrace(imsi, record.prefillTokens, record.transferTokens);
    return true;
}

void
HandoverCoordinator::CancelMigration(uint64_t imsi)
{
    auto it = m_migrations.find(imsi);
    const Migration m = it->second;
    m_migrations.erase(it);
    const uint64_t withdrawn = GetSender(m.route[0], m.route[1])->Cancel(imsi, m.epoch);
    // Bytes still in flight arrive under an epoch the target no longer expects: stale.
    const uint32_t next = ++m_epochs[imsi];
    for (std::size_t i = 1; i < m.route.size(); ++i)
    {
        GetCell(m.route[i]).kv->GetReceiver()->ExpectEpoch(imsi, next);
    }
    GetCell(m.route.back()).server->GetEngine()->RemoveSession(imsi);
    m_records[m.record].outcome = HandoverRecord::CANCELLED;
    m_cancelledTrace(imsi, m.epoch, withdrawn);
    NS_LOG_INFO("imsi " << imsi << ": migration to cell " << m.route.back() << " cancelled, "
                        << withdrawn << " KV bytes withdrawn");
}

void
HandoverCoordinator::UeReady(uint64_t imsi, uint16_t cellId)
{
    // After a handover this changes nothing: the path ends there already. After a failed
    // handover or a radio link failure it brings the packets back to where the UE is.
    auto it = m_migrations.find(imsi);
    if (it != m_migrations.end() && it->second.route.back() != cellId)
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
        request.bytesPerUnit = m_kvBytesPerToken;
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
                                      uint64_t /* tokens */,
                                      bool /* urgent */)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.route.back() != cellId ||
        !it->second.prefillSubmitted)
    {
        return;
    }
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
HandoverCoordinator::TryResume(uint64_t imsi)
{
    auto it = m_migrations.find(imsi);
    const Migration m = it->second;
    if (!m.tokensIn || !m.prefillDone || !m.kvDone)
    {
        return;
    }
    m_migrations.erase(it);
    HandoverRecord& record = m_records[m.record];
    Cell& h = GetCell(record.holderCell);
    Cell& t = GetCell(record.targetCell);
    m_paths.StopRelays(imsi);
    EdgeLlmServer::SessionState state = h.server->ExportSession(imsi);
    const uint64_t remaining = state.tokensToGenerate - record.resumeIndex;
    t.server->ImportSession(imsi, std::move(state));
    h.server->GetEngine()->RemoveSession(imsi);
    m_paths.Reset(imsi, record.targetCell);
    t.server->GetEngine()->ResumeDecoding(imsi, record.resumeIndex, remaining);
    record.kvReady = Simulator::Now();
    record.outcome = HandoverRecord::MIGRATED;
    NS_LOG_INFO("imsi " << imsi << ": resumed at cell " << record.targetCell << " after "
                        << (record.kvReady - record.hoStart).As(Time::MS));
    m_resumedTrace(imsi, record.targetCell, record.kvReady - record.hoStart);
}

} // namespace ns3
