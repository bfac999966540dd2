/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What a HandoverCoordinator's policy plans with: the plan of a session or an oracle group, and
// what its PlanInputBuilder and OnlineGrouper read.

#include "handover-coordinator.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorInput");

double
HandoverCoordinator::GetPlannedRateBps(uint16_t from, uint16_t to) const
{
    if (m_plannedRate.GetBitRate() != 0)
    {
        return static_cast<double>(m_plannedRate.GetBitRate());
    }
    auto it = m_linkRates.find({from, to});
    NS_ABORT_MSG_IF(it == m_linkRates.end(),
                    "HandoverCoordinator: no backhaul link " << from << " -> " << to);
    return static_cast<double>(it->second.GetBitRate());
}

double
HandoverCoordinator::GetPlannedTokensPerSecond(uint16_t cellA, uint16_t cellB) const
{
    double bps = 0;
    if (m_plannedRate.GetBitRate() != 0 || m_linkRates.count({cellA, cellB}) > 0)
    {
        bps = GetPlannedRateBps(cellA, cellB);
    }
    else
    {
        // No direct link: the slowest link is a rate the policy can still decide with.
        NS_ABORT_MSG_IF(m_linkRates.empty(), "HandoverCoordinator: no backhaul link at all");
        bps = std::numeric_limits<double>::max();
        for (const auto& [pair, rate] : m_linkRates)
        {
            bps = std::min(bps, GetPlannedRateBps(pair.first, pair.second));
        }
    }
    return bps / 8.0 / static_cast<double>(KvShapeAt(cellA).bytesPerToken);
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
    return m_linkRates;
}

std::pair<Time, uint64_t>
HandoverCoordinator::GetPrefillForecast(uint16_t cellId)
{
    PortOf(cellId); // an unknown cell stops the run, as every lookup of one does
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
