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
    PortOf(targetCell);
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
        m_lifecycle.End(imsi, CANCELLED, true);
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
    const Migration* m = m_lifecycle.Find(imsi);
    if (!m || m->GetPhase() != PREPARED)
    {
        return false;
    }
    m_lifecycle.End(imsi, CANCELLED, true);
    return true;
}

} // namespace ns3
