/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What a HandoverCoordinator's policy plans with: the plan of a session or an oracle group, and
// what its PlanInputBuilder and OnlineGrouper read.

#include "handover-coordinator.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorInput");

double
HandoverCoordinator::GetPlannedRateBps(uint16_t from, uint16_t to) const
{
    return m_directory.GetPlannedRateBps(from, to);
}

double
HandoverCoordinator::GetPlannedTokensPerSecond(uint16_t cellA, uint16_t cellB) const
{
    return m_directory.GetPlannedTokensPerSecond(cellA, cellB);
}

double
HandoverCoordinator::GetMeasuredTokensPerSecond(uint16_t cellA, uint16_t cellB) const
{
    return m_directory.GetMeasuredTokensPerSecond(cellA, cellB);
}

void
HandoverCoordinator::KvGoodput(uint16_t cellId,
                               uint64_t imsi,
                               uint32_t epoch,
                               uint64_t bytes,
                               Time span)
{
    const Migration* m = m_lifecycle.Find(imsi);
    if (!m || m->epoch != epoch || m->route.back() != cellId || m->route.front() == cellId ||
        bytes == 0 || !span.IsStrictlyPositive())
    {
        return;
    }
    m_directory.RecordGoodput(m->route.front(),
                              cellId,
                              static_cast<double>(bytes) / span.GetSeconds());
}

HandoverPlan
HandoverCoordinator::PlanFor(uint64_t imsi, uint16_t holder, uint16_t target, uint32_t group)
{
    if (group == 0)
    {
        return Scheduler()->Plan(
            m_inputs.MakeSessionInput(imsi, holder, target, Simulator::Now(), true));
    }
    OracleGroups::Group& g = m_groups.Get(group);
    if (!g.planned)
    {
        // The first handover of the group fixes the plan for all.
        g.plan = Scheduler()->Plan(m_inputs.MakeOracleGroupInput(imsi, target, group, g.expected));
        g.planned = true;
    }
    return g.plan;
}

std::vector<OnlineGrouper::Member>
HandoverCoordinator::GetReplannableMembers(uint32_t group, uint16_t target)
{
    return m_lifecycle.GetReplannableMembers(group, target);
}

uint32_t
HandoverCoordinator::NewGroupNumber()
{
    return m_groups.NewNumber();
}

const std::map<std::pair<uint16_t, uint16_t>, DataRate>&
HandoverCoordinator::GetLinkRates() const
{
    return m_directory.GetLinkRates();
}

bool
HandoverCoordinator::ReplaysEngine(uint16_t cellId)
{
    // A replay takes the engine's live state, every session and queued prefill: a plan away
    // from the target has only what the target's messages said.
    return m_engineForecast && m_controlPlane == IDEAL_CONTROL &&
           ConfigOf(cellId)->GetIterationMode() == LlmEngine::IterationMode::MIXED;
}

std::vector<LlmEngine::PrefillForecast>
HandoverCoordinator::ForecastPrefills(uint16_t cellId,
                                      const std::vector<uint64_t>& lengths,
                                      Time from,
                                      const std::vector<uint64_t>& replacing)
{
    Ptr<CellPort> port = PortOf(cellId);
    std::vector<uint64_t> jobs = m_lifecycle.GetUnsubmittedPrefills(cellId, replacing);
    const std::size_t ahead = jobs.size();
    jobs.insert(jobs.end(), lengths.begin(), lengths.end());
    std::vector<LlmEngine::PrefillForecast> all = port->ForecastPrefills(jobs, from, replacing);
    return {all.begin() + static_cast<std::ptrdiff_t>(ahead), all.end()};
}

std::pair<Time, uint64_t>
HandoverCoordinator::GetPrefillForecast(uint16_t cellId)
{
    m_directory.PortOf(cellId); // an unknown cell stops the run, as every lookup of one does
    return m_lifecycle.GetPrefillForecast(cellId);
}

const std::map<uint64_t, Migration>&
HandoverCoordinator::GetMigrations() const
{
    return m_lifecycle.GetAll();
}

const HandoverRecord&
HandoverCoordinator::GetRecord(std::size_t i) const
{
    return m_recorder[i];
}

} // namespace ns3
