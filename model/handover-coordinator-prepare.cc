/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Predicted handovers: a migration prepared before the handover (the scheduler's prepare hook),
// or withdrawn with its prediction. Its commit at the handover is the MigrationLifecycle's.

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
    m_directory.PortOf(targetCell); // an unknown cell stops the run
    const uint16_t holder = HolderOf(imsi);
    const Migration* m = m_lifecycle.Find(imsi);
    const bool sameAsPrepared = m && m->GetPhase() == PREPARED && m->route.back() == targetCell &&
                                m->route.front() == holder;
    if (m_controlPlane == IDEAL_CONTROL || holder == 0 || holder == targetCell ||
        !HasControlPath(holder, targetCell) || sameAsPrepared)
    {
        m_preparesAsked.erase(imsi);
        return ApplyPrepare(imsi, targetCell, expected);
    }
    auto asked = m_preparesAsked.find(imsi);
    if (asked != m_preparesAsked.end() && asked->second.target == targetCell)
    {
        asked->second.expected = expected; // the same prediction, later or earlier
        return true;
    }
    if (m && m->GetPhase() != PREPARED)
    {
        return false;
    }
    Ptr<CellPort> source = PortOf(holder);
    if (!source->HasSession(imsi) || !source->IsDecoding(imsi) ||
        source->GetSessionState(imsi).generated == 0 || !source->HasKvPeer(targetCell))
    {
        return false; // what the holder knows of its own session already says no
    }
    // The holder asks the policy's node, as for a handover; a newer request for another target
    // replaces this one.
    ControlMessage prepare = NewEvent(ControlMessage::PREPARE,
                                      0,
                                      imsi,
                                      holder,
                                      targetCell,
                                      static_cast<uint64_t>(expected.GetNanoSeconds()));
    prepare.items = SizeAt(imsi, holder); // what its target reserves
    m_preparesAsked[imsi] = {targetCell, prepare.sequence, expected};
    SendToPolicy(prepare);
    return true;
}

void
HandoverCoordinator::PrepareArrived(const ControlMessage& m)
{
    auto asked = m_preparesAsked.find(m.imsi);
    if (asked == m_preparesAsked.end() || asked->second.notice != m.sequence)
    {
        NS_LOG_INFO("imsi " << m.imsi << ": the prepare for cell " << m.aboutCell
                            << " was withdrawn or replaced on its way");
        return;
    }
    const Time expected = std::max(asked->second.expected, Simulator::Now());
    m_preparesAsked.erase(asked);
    const uint16_t holder = HolderOf(m.imsi);
    if (ApplyPrepare(m.imsi, m.aboutCell, expected) && m_controlPlane == NETWORK_CONTROL)
    {
        RequestPrefill(m.imsi, holder, m.aboutCell);
    }
}

bool
HandoverCoordinator::ApplyPrepare(uint64_t imsi, uint16_t targetCell, Time expected)
{
    const Time now = Simulator::Now();
    m_directory.PortOf(targetCell); // an unknown cell stops the run
    const uint16_t holder = HolderOf(imsi);
    if (Migration* m = m_lifecycle.Find(imsi))
    {
        if (m->GetPhase() != PREPARED)
        {
            return false;
        }
        if (m->route.back() == targetCell && m->route.front() == holder)
        {
            // The same prediction, later or earlier: what is prepared stays.
            m->expectedS = expected.GetSeconds();
            return true;
        }
        m_lifecycle.End(imsi, CANCELLED, true, m->route.front());
    }
    if (holder == 0 || holder == targetCell || !PortOf(holder)->HasKvPeer(targetCell))
    {
        return false;
    }
    Ptr<CellPort> source = PortOf(holder);
    if (!source->HasSession(imsi) || !source->IsDecoding(imsi) ||
        source->GetSessionState(imsi).generated == 0)
    {
        return false;
    }
    const HandoverPlan plan =
        Scheduler()->Prepare(m_inputs.MakeSessionInput(imsi, holder, targetCell, expected, false));
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
    const std::size_t index = m_recorder.Size() - 1;
    if (!m_lifecycle.Start(imsi, holder, targetCell, index, *session, expected, true))
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
    // A prepare still on its way finds nothing to apply when its plan comes; one prepared
    // earlier (for another target) ends now.
    const bool asked = m_preparesAsked.erase(imsi) > 0;
    const Migration* m = m_lifecycle.Find(imsi);
    if (!m || m->GetPhase() != PREPARED)
    {
        return asked;
    }
    m_lifecycle.End(imsi, CANCELLED, true, m->route.front());
    return true;
}

bool
HandoverCoordinator::TellsByMessage(uint16_t at, uint16_t target) const
{
    return m_controlPlane == NETWORK_CONTROL && HasControlPath(at, target);
}

void
HandoverCoordinator::SendCancel(uint64_t imsi, uint16_t at, uint16_t target, uint32_t next)
{
    SettleCancel(imsi, target); // an older one to the same cell, still on its way, is done now
    m_cancelPending[{imsi, target}] = next;
    m_channels.at(at)->Send(target,
                            ControlMessage::ForUe(ControlMessage::CANCEL, imsi, target, next));
}

void
HandoverCoordinator::SendWindowEnd(uint64_t imsi, uint16_t at, uint16_t target, uint32_t epoch)
{
    m_channels.at(at)->Send(target,
                            ControlMessage::ForUe(ControlMessage::WINDOW_END, imsi, target, epoch));
}

void
HandoverCoordinator::CancelArrived(uint16_t cellId, const ControlMessage& m)
{
    auto pending = m_cancelPending.find({m.imsi, cellId});
    if (pending == m_cancelPending.end() || pending->second != m.sequence)
    {
        return; // done already: a migration of the UE to this cell started first
    }
    m_cancelPending.erase(pending);
    CancelAtTarget(m.imsi, cellId, m.sequence);
}

void
HandoverCoordinator::SettleCancel(uint64_t imsi, uint16_t target)
{
    auto pending = m_cancelPending.find({imsi, target});
    if (pending == m_cancelPending.end())
    {
        return;
    }
    NS_LOG_INFO("imsi " << imsi << ": its cancel had not reached cell " << target
                        << ", which it migrates to again; done now");
    const uint32_t next = pending->second;
    m_cancelPending.erase(pending);
    CancelAtTarget(imsi, target, next);
}

void
HandoverCoordinator::CancelAtTarget(uint64_t imsi, uint16_t target, uint32_t next)
{
    Ptr<CellPort> t = PortOf(target);
    if (t->GetExpectedEpoch(imsi) < next)
    {
        // Bytes of the cancelled epoch that arrive from now on are stale.
        t->ExpectEpoch(imsi, next, KvDiscardReason::NEWER_EPOCH);
    }
    if (HolderOf(imsi) != target && m_reserved.count({imsi, target}) == 0)
    {
        // A reservation that no migration took yet admitted the session after the cancelled
        // migration's copy was gone: it stays.
        t->RemoveSession(imsi);
    }
}

} // namespace ns3
