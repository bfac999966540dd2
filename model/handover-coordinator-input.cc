/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The views a HandoverCoordinator gives its scheduler: the plan inputs, and the migrations of
// the slot hook.

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

double
HandoverCoordinator::GetDecodeRate(uint64_t imsi, uint16_t holder) const
{
    const EdgeLlmServer::SessionState& s = m_cells.at(holder).port->GetSessionState(imsi);
    if (s.generated < 2)
    {
        return 0;
    }
    return (s.generated - 1) / (Simulator::Now().GetSeconds() - s.firstTokenNs * 1e-9);
}

std::pair<std::size_t, bool>
HandoverCoordinator::AddLinkView(uint16_t from,
                                 uint16_t to,
                                 std::vector<HandoverLinkView>& links,
                                 std::map<std::pair<uint16_t, uint16_t>, std::size_t>& index)
{
    auto [it, inserted] = index.try_emplace({from, to}, links.size());
    if (inserted)
    {
        HandoverLinkView l;
        l.fromCell = from;
        l.toCell = to;
        l.rateBps = static_cast<double>(m_linkRates.at({from, to}).GetBitRate());
        l.plannedRateBps = GetPlannedRateBps(from, to);
        l.backlogBytes = GetSender(from, to)->GetBacklogBytes();
        links.push_back(l);
    }
    return {it->second, inserted};
}

HandoverSessionView
HandoverCoordinator::MakeSessionView(uint64_t imsi,
                                     uint16_t holder,
                                     uint16_t target,
                                     double handoverStartS,
                                     uint64_t contextTokens,
                                     bool handedOver,
                                     std::vector<HandoverLinkView>& links,
                                     std::map<std::pair<uint16_t, uint16_t>, std::size_t>& index)
{
    Ptr<CellPort> source = GetCell(holder).port;
    const EdgeLlmServer::SessionState& state = source->GetSessionState(imsi);
    HandoverSessionView v;
    v.imsi = imsi;
    v.holderCell = holder;
    v.targetCell = target;
    v.contextTokens = contextTokens;
    v.nextTokenIndex = source->GetNextTokenIndex(imsi);
    v.tokensLeft =
        state.tokensToGenerate - std::min<uint64_t>(state.tokensToGenerate, v.nextTokenIndex);
    v.decodeTokensPerSecond = GetDecodeRate(imsi, holder);
    v.handoverStartS = handoverStartS;
    v.kv = GetKvProfile(imsi);
    v.handedOver = handedOver;
    auto add = [this, &links, &index](uint16_t from, uint16_t to) {
        const auto [l, inserted] = AddLinkView(from, to, links, index);
        if (inserted)
        {
            for (const auto& [other, m] : m_migrations)
            {
                if (m.route.size() >= 2 && m.route[0] == from && m.route[1] == to)
                {
                    links[l].imsis.push_back(other);
                }
            }
        }
        return l;
    };
    if (GetSender(holder, target))
    {
        const std::size_t l = add(holder, target);
        v.links.push_back(l);
        std::vector<uint64_t>& carried = links[l].imsis;
        if (std::find(carried.begin(), carried.end(), imsi) == carried.end())
        {
            carried.push_back(imsi);
        }
        links[l].bottleneck = carried.size() > 1;
    }
    else
    {
        // No direct link: the cache cannot move; every link is there for a policy that
        // wants a rate to decide with.
        for (const auto& [pair, rate] : m_linkRates)
        {
            add(pair.first, pair.second);
        }
    }
    return v;
}

HandoverTargetView
HandoverCoordinator::MakeTargetView(uint16_t cell)
{
    Cell& c = GetCell(cell);
    HandoverTargetView t;
    t.cell = cell;
    t.prefillCycleS = c.port->GetPrefillCycle().GetSeconds();
    t.prefillFreeAtS = c.prefillFreeAt.GetSeconds();
    t.queuedPrefillTokens = c.queuedPrefill;
    t.kvCapacityTokens = c.port->GetKvCapacityTokens();
    t.freeKvTokens = t.kvCapacityTokens - std::min(t.kvCapacityTokens, c.port->GetKvTokensInUse());
    t.compute = c.port->GetComputeModel();
    return t;
}

HandoverPlan
HandoverCoordinator::PlanFor(uint64_t imsi, uint16_t holder, uint16_t target, uint32_t group)
{
    const Time now = Simulator::Now();
    HandoverPlanInput input;
    input.nowS = now.GetSeconds();
    input.group = group;
    input.targets.push_back(MakeTargetView(target));
    std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
    if (group == 0)
    {
        const uint64_t context = GetCell(holder).port->GetContextTokens(imsi);
        input.sessions.push_back(MakeSessionView(imsi,
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
        const uint16_t cell = OwnerOf(other);
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
            const double rate = GetDecodeRate(other, cell);
            const double left = s.tokensToGenerate - s.generated;
            context +=
                static_cast<uint64_t>(std::min(left, std::floor(rate * (at - now.GetSeconds()))));
        }
        input.sessions.push_back(MakeSessionView(other,
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

MigrationView
HandoverCoordinator::MakeMigrationView(uint64_t imsi,
                                       const Migration& m,
                                       std::vector<HandoverLinkView>* links,
                                       std::map<std::pair<uint16_t, uint16_t>, std::size_t>* index)
{
    const HandoverRecord& r = m_recorder[m.record];
    MigrationView v;
    v.imsi = imsi;
    v.epoch = m.epoch;
    v.holderCell = m.route.front();
    v.targetCell = m.route.back();
    v.committed = m.GetPhase() == COMMITTED;
    v.announcedBytes = r.kvBytes;
    Ptr<KvTransferSender> sender = GetSender(m.route[0], m.route[1]);
    v.sentBytes = sender->GetCounters(imsi).sent - m.sentAtStart;
    v.receivedBytes = GetCell(m.route.back()).port->GetReceivedBytes(imsi) - m.receivedAtStart;
    v.weight = m.plan.weight;
    v.handoverStartS = v.committed ? r.hoStart.GetSeconds() : m.expectedS;
    v.resumeAtS = v.committed && m.plan.resume == SessionPlan::AT_DEADLINE
                      ? (r.hoStart + m.plan.resumeAfter).GetSeconds()
                      : -1;
    v.kv = GetKvProfile(imsi);
    v.unit = m.plan.unit;
    if (links && index)
    {
        const std::size_t l = AddLinkView(m.route[0], m.route[1], *links, *index).first;
        HandoverLinkView& link = (*links)[l];
        link.imsis.push_back(imsi);
        link.bottleneck = link.imsis.size() > 1;
        v.links.push_back(l);
    }
    return v;
}

void
HandoverCoordinator::GatherSlot(HandoverSlotInput& input, std::map<uint64_t, uint32_t>& epochs)
{
    std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
    for (const auto& [imsi, m] : m_migrations)
    {
        const bool transferring = !m.KvDone() && (m.IsOpen() || m_recorder[m.record].kvBytes > 0);
        if ((m.GetPhase() == PREPARED || m.GetPhase() == COMMITTED) && transferring)
        {
            input.migrations.push_back(MakeMigrationView(imsi, m, &input.links, &index));
            epochs[imsi] = m.epoch;
        }
    }
}

} // namespace ns3
