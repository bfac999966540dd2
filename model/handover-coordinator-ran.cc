/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RAN's events, as the coordinator dispatches them: a handover is planned (by the
// scheduler) and handed to the MigrationLifecycle; a failure or a release ends its migration;
// a UE that is ready again gets its packets back, or a migration to where it is.

#include "handover-coordinator.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorRan");

void
HandoverCoordinator::HandoverStarted(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell)
{
    StartHandover(imsi, sourceCell, targetCell, Simulator::Now());
}

void
HandoverCoordinator::StartHandover(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell, Time at)
{
    const std::size_t before = m_recorder.Size();
    PlanHandover(imsi, sourceCell, targetCell, at);
    // The record this handover made, or the prepared one it committed.
    const Migration* m = m_lifecycle.Find(imsi);
    std::size_t record = m ? m->record : m_recorder.Size();
    if (record == m_recorder.Size() && m_recorder.Size() > before)
    {
        record = m_recorder.Size() - 1;
    }
    const bool awaits = record < m_recorder.Size() && m_recorder[record].imsi == imsi &&
                        m_recorder[record].resumeIndex > 0 &&
                        m_recorder[record].firstDecode.IsStrictlyNegative();
    m_recorder.AwaitFirstDecode(imsi, awaits ? record : m_recorder.Size());
}

void
HandoverCoordinator::PlanHandover(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell, Time at)
{
    // A plan that waited for control messages still counts from the RAN's handover: at.
    NS_LOG_FUNCTION(this << imsi << sourceCell << targetCell);
    const uint32_t originalGroup = m_groups.Leave(imsi);
    uint32_t group = originalGroup;
    const Migration* prepared = m_lifecycle.Find(imsi);
    if (prepared && prepared->GetPhase() == PREPARED)
    {
        // A prepared session never ends at its source unnoticed: its last token cancels it.
        if (prepared->route.back() == targetCell)
        {
            m_recorder[prepared->record].sourceCell = sourceCell;
            if (m_lifecycle.Commit(imsi, at))
            {
                m_lifecycle.TryPrefill(0, originalGroup); // its group's batch no longer waits
                return;
            }
        }
        // The prediction was wrong, or its target cannot be reached: what was prepared is
        // waste, and the handover is planned as any other.
        m_lifecycle.End(imsi, CANCELLED, false, sourceCell);
    }

    // A handover the RAN made itself supersedes a reconnection this coordinator waits for.
    m_reconnecting.erase(imsi);
    HandoverRecord record;
    record.scheme = Scheduler()->GetSchemeName();
    record.imsi = imsi;
    record.sourceCell = sourceCell;
    record.targetCell = targetCell;
    record.hoStart = at;
    record.planApplied = Simulator::Now();

    if (m_lifecycle.Find(imsi))
    {
        m_lifecycle.End(imsi, CANCELLED, false, sourceCell);
    }
    const uint16_t holder = HolderOf(imsi);
    record.holderCell = holder;
    Ptr<CellPort> source = holder == 0 ? nullptr : PortOf(holder);
    const bool started =
        holder != 0 && source->HasSession(imsi) && source->GetSessionState(imsi).generated > 0;
    const uint64_t next = started ? source->GetNextTokenIndex(imsi) : 0;
    const uint32_t total = started ? source->GetSessionState(imsi).tokensToGenerate : 0;
    if (!started || next >= total)
    {
        // Nothing decoded yet, or nothing left: only the packets have to follow the UE.
        record.outcome = HandoverRecord::NO_SESSION;
        if (m_paths.RouteTo(imsi, targetCell))
        {
            record.relayHops = static_cast<uint32_t>(m_paths.Get(imsi).size() - 1);
        }
        m_recorder.Add(record);
        m_lifecycle.TryPrefill(imsi, group);
        return;
    }
    record.resumeIndex = static_cast<uint32_t>(next);
    record.contextTokens = source->GetContextTokens(imsi);

    if (targetCell == holder)
    {
        // Back to the cell that holds the whole cache (a ping-pong): it decodes again.
        m_paths.RouteTo(imsi, targetCell);
        source->MarkHandover(imsi);
        if (!source->IsDecoding(imsi))
        {
            source->ResumeDecoding(imsi, next, total - next);
        }
        record.outcome = HandoverRecord::REUSED;
        record.kvReady = Simulator::Now();
        Scheduler()->CompleteRecord(record);
        m_recorder.Add(record);
        m_resumedTrace(imsi, holder, Time(0));
        m_lifecycle.TryPrefill(imsi, group);
        return;
    }

    const bool online =
        group == 0 && Scheduler()->GetOnlineGrouping() && source->HasKvPeer(targetCell);
    HandoverPlan plan;
    if (online)
    {
        // The group it joins may change: its members under way go with the new plan.
        const OnlineGrouper::Decision d = m_online.Plan(imsi, holder, targetCell);
        m_lifecycle.Regroup(d, targetCell);
        group = d.group;
        plan = d.plan;
    }
    else
    {
        plan = PlanFor(imsi, holder, targetCell, group);
    }
    if (!plan.Find(imsi))
    {
        // An oracle member the group's plan could not see (no session then): alone now.
        group = 0;
        plan = PlanFor(imsi, holder, targetCell, 0);
    }
    const SessionPlan session = *plan.Find(imsi);
    record.prefixTokens = std::min(plan.prefixTokens, record.contextTokens);
    record.predictedDelay =
        plan.predictedDelay.IsStrictlyNegative() ? Time(0) : plan.predictedDelay;
    const bool routed = m_paths.RouteTo(imsi, targetCell);
    record.relayHops = routed ? static_cast<uint32_t>(m_paths.Get(imsi).size() - 1) : 0;
    record.group = group;
    m_recorder.Add(record);
    const bool migrating = session.action == SessionPlan::MIGRATE && routed;
    const bool begun =
        migrating &&
        m_lifecycle.Start(imsi, holder, targetCell, m_recorder.Size() - 1, session, at, false);
    if (begun && m_controlPlane == NETWORK_CONTROL)
    {
        RequestPrefill(imsi, sourceCell, targetCell);
    }
    if (online)
    {
        // One batch holds the group: its end, not each prefill after the last, is what the
        // next group waits for.
        m_lifecycle.SetGroupPrefillEnd(group);
    }
    if (!begun)
    {
        if (!migrating)
        {
            source->MarkHandover(imsi); // a failed start has marked already
        }
        if (!source->IsDecoding(imsi))
        {
            // Stopped by a migration this handover cancelled: the holder decodes on.
            source->ResumeDecoding(imsi, next, total - next);
        }
        m_recorder.Back().outcome = HandoverRecord::RELAYED;
        m_recorder.Back().group = 0;
        Scheduler()->CompleteRecord(m_recorder.Back());
    }
    // A member that cannot migrate, or that is planned alone, must not hold its group's batch
    // back.
    m_lifecycle.TryPrefill(imsi, group);
    if (group != originalGroup)
    {
        m_lifecycle.TryPrefill(0, originalGroup);
    }
}

void
HandoverCoordinator::HandoverFailed(uint64_t imsi,
                                    uint16_t cellId,
                                    RanObserver::HandoverFailureReason why)
{
    HandoverFailedAt(imsi, cellId, why, cellId);
}

void
HandoverCoordinator::HandoverFailedAt(uint64_t imsi,
                                      uint16_t cellId,
                                      RanObserver::HandoverFailureReason why,
                                      uint16_t at)
{
    const Migration* m = m_lifecycle.Find(imsi);
    if (!m || m->GetPhase() != COMMITTED)
    {
        if (why == RanObserver::NO_PREAMBLE)
        {
            return; // a refusal in preparation: the UE stays where it is, connected
        }
        // The target may have resumed the session before the UE's random access gave up: it
        // holds the session now, and the UE will connect where it can.
        const HandoverRecord* r = m_recorder.Latest(imsi);
        if (r && (r->targetCell == cellId || r->sourceCell == cellId))
        {
            AwaitReconnect(imsi, r->sourceCell);
        }
        return;
    }
    if (cellId != m->route.back() && cellId != m_recorder[m->record].sourceCell)
    {
        return;
    }
    m_lifecycle.End(imsi, FAILED, true, at);
}

void
HandoverCoordinator::UeReleased(uint64_t imsi, uint16_t at)
{
    if (m_lifecycle.Find(imsi))
    {
        m_lifecycle.End(imsi, CLOSED, true, at);
    }
}

void
HandoverCoordinator::UeReady(uint64_t imsi, uint16_t cellId)
{
    if (m_linkFailures.UeReady(imsi, cellId))
    {
        return;
    }
    // After a handover this changes nothing: the path ends there already. After a failed
    // handover or a radio link failure it brings the packets back to where the UE is.
    const Migration* m = m_lifecycle.Find(imsi);
    if (m && m->GetPhase() == COMMITTED && m->route.back() != cellId)
    {
        HandoverStarted(imsi, m->route.back(), cellId);
        return;
    }
    auto lost = m_reconnecting.find(imsi);
    if (lost != m_reconnecting.end())
    {
        const uint16_t left = lost->second;
        m_reconnecting.erase(lost);
        const uint16_t holder = HolderOf(imsi);
        if (!m && holder != 0 && holder != cellId)
        {
            // Back after a failed handover, in a cell that does not hold the session (a third
            // one, or the target that failed): relaying from the holder for the rest of the
            // session would cost every token a backhaul hop, so it migrates as after any
            // handover from the cell the UE left.
            HandoverStarted(imsi, left, cellId);
            return;
        }
    }
    m_paths.RouteTo(imsi, cellId);
}

} // namespace ns3
