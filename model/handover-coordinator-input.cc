/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What a HandoverCoordinator's policy plans with: the plan of a session or an oracle group, the
// migrations of the slot hook, and what its PlanInputBuilder reads.

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
    return bps / 8.0 / static_cast<double>(m_kvBytesPerToken);
}

HandoverPlan
HandoverCoordinator::PlanFor(uint64_t imsi, uint16_t holder, uint16_t target, uint32_t group)
{
    const Time now = Simulator::Now();
    HandoverPlanInput input;
    input.nowS = now.GetSeconds();
    input.group = group;
    input.targets.push_back(m_inputs.MakeTargetView(target));
    std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
    if (group == 0)
    {
        const uint64_t context = GetCell(holder).port->GetContextTokens(imsi);
        input.sessions.push_back(m_inputs.MakeSessionView(imsi,
                                                          holder,
                                                          target,
                                                          now.GetSeconds(),
                                                          context,
                                                          true,
                                                          input.links,
                                                          index));
        return Scheduler()->Plan(input);
    }
    Group& g = m_groups[group - 1];
    if (g.planned)
    {
        return g.plan;
    }
    // The first handover of the group fixes the plan for all: the others' contexts are what
    // they will have at their expected handover times, at the rate they have decoded so far.
    for (const auto& [other, expected] : g.expected)
    {
        const uint16_t cell = HolderOf(other);
        if (cell == 0 || !GetCell(cell).port->HasSession(other))
        {
            continue;
        }
        Ptr<CellPort> source = GetCell(cell).port;
        uint64_t context = source->GetContextTokens(other);
        const double at = std::max(expected, now).GetSeconds();
        const EdgeLlmServer::SessionState& s = source->GetSessionState(other);
        if (other != imsi && s.generated >= 2)
        {
            const double rate = m_inputs.GetDecodeRate(other, cell);
            const double left = s.tokensToGenerate - s.generated;
            context +=
                static_cast<uint64_t>(std::min(left, std::floor(rate * (at - now.GetSeconds()))));
        }
        input.sessions.push_back(m_inputs.MakeSessionView(other,
                                                          cell,
                                                          target,
                                                          other == imsi ? now.GetSeconds() : at,
                                                          context,
                                                          other == imsi,
                                                          input.links,
                                                          index));
    }
    g.plan = Scheduler()->Plan(input);
    g.planned = true;
    return g.plan;
}

void
HandoverCoordinator::GatherSlot(HandoverSlotInput& input, std::map<uint64_t, uint32_t>& epochs)
{
    std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
    for (const auto& [imsi, m] : m_migrations)
    {
        const bool transferring = !m.KvDone() && (m.IsOpen() || CountUnits(m.transferRanges) > 0);
        if ((m.GetPhase() == PREPARED || m.GetPhase() == COMMITTED) && transferring)
        {
            input.migrations.push_back(m_inputs.MakeMigrationView(imsi, m, &input.links, &index));
            epochs[imsi] = m.epoch;
        }
    }
}

const std::map<std::pair<uint16_t, uint16_t>, DataRate>&
HandoverCoordinator::GetLinkRates() const
{
    return m_linkRates;
}

std::pair<Time, uint64_t>
HandoverCoordinator::GetPrefillForecast(uint16_t cellId)
{
    const Cell& c = GetCell(cellId);
    return {c.prefillFreeAt, c.queuedPrefill};
}

const std::map<uint64_t, Migration>&
HandoverCoordinator::GetMigrations() const
{
    return m_migrations;
}

const HandoverRecord&
HandoverCoordinator::GetRecord(std::size_t i) const
{
    return m_recorder[i];
}

} // namespace ns3
