/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ctho-family-scheduler.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CtHoFamilyScheduler);

TypeId
CtHoFamilyScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CtHoFamilyScheduler").SetParent<HandoverScheduler>().SetGroupName("EdgeLlm");
    return tid;
}

CtHoFamilyScheduler::CtHoFamilyScheduler() = default;

CtHoFamilyScheduler::~CtHoFamilyScheduler() = default;

CtHoInput
CtHoFamilyScheduler::MakeCtHoView(const HandoverPlanInput& input)
{
    if (input.sessions.empty())
    {
        throw std::invalid_argument("HandoverPlanInput::sessions is empty");
    }
    const HandoverTargetView& target = input.GetTarget(input.sessions.front().targetCell);
    CtHoInput problem;
    problem.prefillCycle = target.prefillCycleS;
    problem.earliestPrefillStart = std::max(target.prefillFreeAtS, input.nowS);
    double bps = 0;
    uint64_t bytesPerToken = 0;
    uint64_t backlog = 0;
    for (const HandoverSessionView& s : input.sessions)
    {
        problem.ues.push_back({s.contextTokens, s.handoverStartS});
        bytesPerToken = std::max(bytesPerToken, s.kv.bytesPerToken);
        for (std::size_t l : s.links)
        {
            const HandoverLinkView& link = input.links.at(l);
            bps = bps == 0 ? link.plannedRateBps : std::min(bps, link.plannedRateBps);
            if (l == s.links.front())
            {
                backlog = std::max(backlog, link.backlogBytes);
            }
        }
    }
    if (bps == 0)
    {
        // No path has a link: the cache cannot move, so only a re-prefill is possible; the
        // slowest link anywhere is a rate the policy can still decide with.
        for (const HandoverLinkView& link : input.links)
        {
            bps = bps == 0 ? link.plannedRateBps : std::min(bps, link.plannedRateBps);
        }
    }
    if (bps == 0)
    {
        throw std::invalid_argument("HandoverPlanInput::links is empty: no backhaul link at all");
    }
    problem.backhaulTokensPerSecond = bps / 8.0 / static_cast<double>(bytesPerToken);
    problem.backlogTokens = static_cast<double>(backlog) / static_cast<double>(bytesPerToken);
    return problem;
}

HandoverPlan
CtHoFamilyScheduler::DoPlan(const HandoverPlanInput& input)
{
    const HandoverTargetView& target = input.GetTarget(input.sessions.front().targetCell);
    const CtHoSolver solver(MakeCtHoView(input), target.compute);
    const CtHoValue chosen = ChoosePrefix(solver);
    const uint64_t L = chosen.prefixTokens;
    HandoverPlan plan;
    plan.prefixTokens = L;
    plan.predictedDelay = Seconds(chosen.worstDelay);
    for (const HandoverSessionView& s : input.sessions)
    {
        SessionPlan p;
        p.imsi = s.imsi;
        if (L > 0)
        {
            p.prefill.push_back({0, L});
        }
        // CONTEXT_END: an oracle member's context grows until its own handover.
        p.transfer.push_back({L, PlanRange::CONTEXT_END});
        // Earliest deadline first with d_i = tau_i + D_tx*(L) attains D_tx*(L).
        p.transferDeadline = Seconds(chosen.transferDelay);
        plan.sessions.push_back(p);
    }
    return plan;
}

} // namespace ns3
