/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "online-grouper.h"

#include "kv-transfer-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OnlineGrouper");

OnlineGrouper::OnlineGrouper(Host* host, PlanInputBuilder* inputs)
    : m_host(host),
      m_inputs(inputs)
{
}

HandoverPlan
OnlineGrouper::PlanGroup(const std::vector<Member>& members,
                         uint64_t imsi,
                         uint16_t holder,
                         uint16_t target,
                         Time freeBefore,
                         const std::map<std::pair<uint16_t, uint16_t>, uint64_t>& backlog,
                         uint32_t group)
{
    const Time now = Simulator::Now();
    HandoverPlanInput input;
    input.nowS = now.GetSeconds();
    input.group = group;
    HandoverTargetView view = m_inputs->MakeTargetView(target);
    view.prefillFreeAtS = freeBefore.GetSeconds();
    input.targets.push_back(view);
    PlanInputBuilder::LinkIndex index;
    // KV bytes each link has carried for the members from their old prefixes on: of no use
    // if their prefixes grow.
    std::map<std::pair<uint16_t, uint16_t>, uint64_t> sentBytes;
    std::vector<std::pair<std::size_t, uint64_t>> keepBounds; // session index, its old prefix
    for (const Member& member : members)
    {
        HandoverSessionView v = m_inputs->MakeSessionView(member.imsi,
                                                          member.holder,
                                                          target,
                                                          member.handoverStart.GetSeconds(),
                                                          member.contextTokens,
                                                          true,
                                                          input.links,
                                                          index);
        v.inProgress = true;
        // Once all its KV is in TCP, its transfer may be complete at the target already:
        // its plan stands.
        if (member.plannedUnits > 0 && member.unsentUnits == 0)
        {
            v.prefixMin = member.prefillTokens;
            v.prefixMax = member.prefillTokens;
        }
        else if (member.plannedUnits > member.unsentUnits)
        {
            keepBounds.emplace_back(input.sessions.size(), member.prefillTokens);
            sentBytes[{member.holder, target}] +=
                (member.plannedUnits - member.unsentUnits) * member.bytesPerToken;
        }
        input.sessions.push_back(v);
    }
    input.sessions.push_back(
        m_inputs->MakeSessionView(imsi,
                                  holder,
                                  target,
                                  now.GetSeconds(),
                                  m_host->PortOf(holder)->GetContextTokens(imsi),
                                  true,
                                  input.links,
                                  index));
    for (HandoverLinkView& link : input.links)
    {
        auto b = backlog.find({link.fromCell, link.toCell});
        link.backlogBytes =
            b != backlog.end() ? b->second : LinkBacklog(link.fromCell, link.toCell);
    }
    // Two views, each true to what its prefixes cost: one keeps what the members sent (no
    // prefix grows past its old one), the other lets them grow and counts those bytes, which
    // the link carries all the same. The scheduler chooses.
    HandoverPlanInput keep = input;
    for (const auto& [session, prefix] : keepBounds)
    {
        HandoverSessionView& v = keep.sessions[session];
        v.prefixMax = std::min(v.prefixMax, prefix);
    }
    HandoverPlanInput grow = input;
    for (HandoverLinkView& link : grow.links)
    {
        auto sent = sentBytes.find({link.fromCell, link.toCell});
        if (sent != sentBytes.end())
        {
            link.backlogBytes += sent->second;
        }
    }
    return m_host->GetScheduler()->PlanCycleGroup(keep, keepBounds.empty() ? nullptr : &grow);
}

uint64_t
OnlineGrouper::LinkBacklog(uint16_t from, uint16_t to) const
{
    Ptr<CellPort> cell = m_host->PortOf(from);
    if (!cell->HasKvPeer(to))
    {
        return 0;
    }
    const CellPort::KvLinkLoad load = cell->GetKvLinkLoad(to);
    return load.backlogBytes + load.socketBufferedBytes;
}

OnlineGrouper::Decision
OnlineGrouper::Plan(uint64_t imsi, uint16_t holder, uint16_t target)
{
    const Time now = Simulator::Now();
    // The target's prefill cycle is its configuration; its iteration's end is its live state,
    // which the host has from the target's answer where the control plane is on the network.
    Ptr<const CellPort> t = m_host->ConfigOf(target);
    Ptr<HandoverScheduler> scheduler = m_host->GetScheduler();
    // The target can prefill only once it has the token IDs, which queue behind what the
    // link's TCP holds already.
    Ptr<CellPort> h = m_host->PortOf(holder);
    NS_ABORT_MSG_IF(!h->HasKvPeer(target),
                    "OnlineGrouper: no link from cell " << holder << " to cell " << target);
    const CellPort::KvLinkLoad load = h->GetKvLinkLoad(target);
    const uint64_t context = h->GetContextTokens(imsi);
    const uint64_t ahead = load.socketBufferedBytes + load.writingBytesLeft +
                           KvTransferHeader::SERIALIZED_SIZE +
                           context * KvTransferHeader::BYTES_PER_TOKEN_ID;
    const Time tokensIn = now + Seconds(ahead * 8.0 / m_host->GetPlannedRateBps(holder, target)) +
                          load.linkDelay + scheduler->GetOnlineTokensSlack();

    // Alone: a batch of its own, after every batch planned here.
    const Time aloneFree = std::max({m_host->GetPrefillForecast(target).first,
                                     m_host->GetTargetIterationEnd(target),
                                     tokensIn});
    const std::map<std::pair<uint16_t, uint16_t>, uint64_t> live{
        {{holder, target}, LinkBacklog(holder, target)}};
    Decision decision;
    decision.plan = PlanGroup({}, imsi, holder, target, aloneFree, live, 0);

    // With the group whose batch has not started, which waits for this one's tokens if it
    // must: taken if the scheduler finds that no worse.
    auto open = m_open.find(target);
    if (open != m_open.end() && now < m_groups.at(open->second).boundary)
    {
        const uint32_t number = open->second;
        Batch& g = m_groups.at(number);
        std::vector<Member> members = m_host->GetReplannableMembers(number, target);
        std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) {
            return std::tie(a.handoverStart, a.imsi) < std::tie(b.handoverStart, b.imsi);
        });
        Time worst{0};
        for (const Member& member : members)
        {
            worst = std::max(worst, member.predictedDelay);
        }
        std::map<std::pair<uint16_t, uint16_t>, uint64_t> backlog = g.backlog;
        backlog.try_emplace({holder, target}, LinkBacklog(holder, target));
        const Time joinFree = std::max(g.freeBefore, tokensIn);
        const HandoverPlan joint =
            PlanGroup(members, imsi, holder, target, joinFree, backlog, number);
        if (!members.empty() && scheduler->JoinCycleGroup(joint, worst, decision.plan))
        {
            g.backlog = backlog;
            const Time boundary = t->GetPrefillBoundary(joinFree);
            decision.batchMoved = boundary != g.boundary;
            g.freeBefore = joinFree;
            g.boundary = boundary;
            decision.plan = joint;
            decision.group = number;
            decision.joined = true;
            for (const Member& member : members)
            {
                decision.others.push_back(member.imsi);
            }
            NS_LOG_INFO("imsi " << imsi << " joins cycle group " << number << " at cell " << target
                                << " with " << members.size() << " members");
            return decision;
        }
    }
    Batch g;
    g.target = target;
    g.freeBefore = aloneFree;
    g.boundary = t->GetPrefillBoundary(aloneFree);
    g.backlog = live;
    decision.group = m_host->NewGroupNumber();
    m_groups[decision.group] = g;
    m_open[target] = decision.group;
    return decision;
}

std::pair<uint16_t, Time>
OnlineGrouper::GetBatchEnd(uint32_t group, const std::vector<uint64_t>& prefills) const
{
    auto it = m_groups.find(group);
    NS_ABORT_MSG_IF(it == m_groups.end(), "OnlineGrouper: no cycle group " << group);
    const Batch& g = it->second;
    if (prefills.empty())
    {
        return {g.target, g.freeBefore};
    }
    const LlmComputeModel& model = m_host->ConfigOf(g.target)->GetComputeModel();
    return {g.target,
            g.boundary + Seconds(model.BatchPrefillTime(PrefillBatch::FromLengths(prefills)))};
}

bool
OnlineGrouper::IsOnline(uint32_t group) const
{
    return m_groups.count(group) > 0;
}

} // namespace ns3
