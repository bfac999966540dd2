/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Prepared migrations: started before a predicted handover, committed at it, or thrown away.

#include "handover-coordinator.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorPrepare");

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
    const uint16_t holder = HolderOf(imsi);
    auto it = m_migrations.find(imsi);
    if (it != m_migrations.end())
    {
        if (it->second.GetPhase() != PREPARED)
        {
            return false;
        }
        if (it->second.route.back() == targetCell && it->second.route.front() == holder)
        {
            // The same prediction, later or earlier: what is prepared stays.
            it->second.expectedS = expected.GetSeconds();
            return true;
        }
        EndMigration(imsi, CANCELLED, true);
    }
    if (holder == 0 || holder == targetCell || !GetSender(holder, targetCell))
    {
        return false;
    }
    Ptr<CellPort> source = GetCell(holder).port;
    if (!source->HasSession(imsi) || !source->IsDecoding(imsi) ||
        source->GetSessionState(imsi).generated == 0)
    {
        return false;
    }
    HandoverPlanInput input;
    input.nowS = now.GetSeconds();
    std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
    input.sessions.push_back(m_inputs.MakeSessionView(imsi,
                                                      holder,
                                                      targetCell,
                                                      expected.GetSeconds(),
                                                      source->GetContextTokens(imsi),
                                                      false,
                                                      input.links,
                                                      index));
    input.targets.push_back(m_inputs.MakeTargetView(targetCell));
    const HandoverPlan plan = Scheduler()->Prepare(input);
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
    record.prefixTokens = std::min(plan.prefixTokens, source->GetContextTokens(imsi));
    record.predictedDelay =
        plan.predictedDelay.IsStrictlyNegative() ? Time(0) : plan.predictedDelay;
    m_recorder.Add(record);
    if (!StartMigration(imsi, holder, targetCell, m_recorder.Size() - 1, *session, expected, true))
    {
        m_recorder.Back().outcome = HandoverRecord::CANCELLED;
        Scheduler()->CompleteRecord(m_recorder.Back());
        return false;
    }
    return true;
}

bool
HandoverCoordinator::CancelPrepared(uint64_t imsi)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.GetPhase() != PREPARED)
    {
        return false;
    }
    EndMigration(imsi, CANCELLED, true);
    return true;
}

bool
HandoverCoordinator::CommitPrepared(uint64_t imsi)
{
    Migration& m = m_migrations.at(imsi);
    HandoverRecord& record = m_recorder[m.record];
    Cell& h = GetCell(m.route.front());
    if (!m_paths.RouteTo(imsi, record.targetCell))
    {
        return false; // the caller ends it, and plans the handover as any other
    }
    record.hoStart = Simulator::Now();
    if (m.IsOpen())
    {
        m.nextToken = h.port->StopDecoding(imsi);
        const uint64_t context = h.port->GetContextTokens(imsi);
        record.contextTokens = context;
        record.resumeIndex = static_cast<uint32_t>(m.nextToken);
        // The last partial block goes with the seal.
        GrowOpenTransfer(imsi, m, context, true);
    }
    h.port->MarkHandover(imsi);
    m.Commit();
    ScheduleDeadline(imsi, m);
    Scheduler()->Commit(m_inputs.MakeMigrationView(imsi, m, nullptr, nullptr));
    TryResume(imsi);
    return true;
}

void
HandoverCoordinator::TokenGenerated(uint16_t cellId, uint64_t imsi, uint64_t index)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || !it->second.IsOpen() || it->second.route.front() != cellId)
    {
        return;
    }
    Migration& m = it->second;
    if (index + 1 >= GetCell(cellId).port->GetSessionState(imsi).tokensToGenerate)
    {
        // The session ends at its source before the predicted handover: nothing is left to
        // move, and what was prepared is waste.
        EndMigration(imsi, CANCELLED, false);
        return;
    }
    const uint64_t context = GetCell(cellId).port->GetContextTokens(imsi);
    const uint64_t full = context / BLOCK_TOKENS * BLOCK_TOKENS;
    if (full <= m.openEnd)
    {
        return;
    }
    // A block is sent once the source has filled it: its KV no longer changes.
    GrowOpenTransfer(imsi, m, full, false);
}

void
HandoverCoordinator::GrowOpenTransfer(uint64_t imsi, Migration& m, uint64_t end, bool seal)
{
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
    if (end > m.openEnd)
    {
        ranges.emplace_back(static_cast<uint32_t>(m.openEnd),
                            static_cast<uint32_t>(end - m.openEnd));
        m.transferRanges.push_back({m.openEnd, end});
        HandoverRecord& record = m_recorder[m.record];
        record.transferRanges.push_back({m.openEnd, end});
        record.transferTokens += end - m.openEnd;
        record.kvBytes += (end - m.openEnd) * GetKvProfile(imsi).bytesPerToken;
        m.openEnd = end;
    }
    Ptr<KvTransferSender> sender = GetSender(m.route[0], m.route[1]);
    if (seal)
    {
        sender->Seal(imsi, m.epoch, ranges);
    }
    else
    {
        sender->Append(imsi, m.epoch, ranges);
    }
    GetCell(m.route.back()).port->GrowContext(imsi, end);
}

} // namespace ns3
