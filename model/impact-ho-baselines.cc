/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "impact-ho-baselines.h"

#include "ctho-family-scheduler.h"
#include "ctho-solver.h"

#include "ns3/log.h"

#include <algorithm>
#include <boost/iterator/counting_iterator.hpp>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ImpactHoBaselines");

NS_OBJECT_ENSURE_REGISTERED(ImpactHybridScheduler);
NS_OBJECT_ENSURE_REGISTERED(ImpactReprefillScheduler);

namespace
{

/**
 * \brief A token-unit plan: the prefix [0, L) re-prefilled, the KV of [L, C) sent in position
 * order, resumed at the window's end (or once all arrived, with no window).
 * \param input the group
 * \param prefix L
 * \param window T_max; 0 for none
 * \return the plan
 */
HandoverPlan
MakeTokenPlan(const HandoverPlanInput& input, uint64_t prefix, Time window)
{
    HandoverPlan plan;
    plan.prefixTokens = prefix;
    for (const HandoverSessionView& s : input.sessions)
    {
        SessionPlan p;
        p.imsi = s.imsi;
        p.action = SessionPlan::MIGRATE;
        p.unit = KvTransferHeader::TOKEN;
        if (prefix > 0)
        {
            p.prefill.push_back({0, prefix});
        }
        p.transfer.push_back({prefix, TokenRange::CONTEXT_END});
        if (window.IsZero())
        {
            p.resume = SessionPlan::ALL_ARRIVED;
        }
        else
        {
            p.resume = SessionPlan::AT_DEADLINE;
            p.resumeAfter = window;
        }
        plan.sessions.push_back(p);
    }
    return plan;
}

} // namespace

TypeId
ImpactHybridScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ImpactHybridScheduler")
                            .SetParent<ImpactSlotScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<ImpactHybridScheduler>();
    return tid;
}

ImpactHybridScheduler::ImpactHybridScheduler() = default;

ImpactHybridScheduler::~ImpactHybridScheduler() = default;

std::string
ImpactHybridScheduler::GetSchemeName() const
{
    return "impact-hybrid";
}

HandoverPlan
ImpactHybridScheduler::DoPlan(const HandoverPlanInput& input)
{
    const CtHoInput problem = CtHoFamilyScheduler::MakeCtHoView(input);
    const CtHoSolver solver(problem, input.GetTarget(input.sessions.front().targetCell).compute);
    const uint64_t prefix =
        std::clamp(solver.Solve().prefixTokens, problem.minPrefix, problem.maxPrefix);
    return MakeTokenPlan(input, prefix, GetWindow());
}

std::vector<double>
ImpactHybridScheduler::Allocate(const std::vector<Member>& members,
                                double capacityBps,
                                double slotS)
{
    std::vector<std::size_t> order(members.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&members](std::size_t a, std::size_t b) {
        return members[a].handoverStartS < members[b].handoverStartS;
    });
    std::vector<double> rates(members.size(), 0);
    double left = capacityBps * slotS;
    for (std::size_t i : order)
    {
        const double x = std::min(1.0, std::max(0.0, members[i].sentFraction));
        const double take = std::min(left, (1 - x) * members[i].cacheBits);
        rates[i] = take / slotS;
        left -= take;
    }
    return rates;
}

TypeId
ImpactReprefillScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ImpactReprefillScheduler")
                            .SetParent<ImpactSlotScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<ImpactReprefillScheduler>();
    return tid;
}

ImpactReprefillScheduler::ImpactReprefillScheduler() = default;

ImpactReprefillScheduler::~ImpactReprefillScheduler() = default;

std::string
ImpactReprefillScheduler::GetSchemeName() const
{
    return "impact-reprefill";
}

HandoverPlan
ImpactReprefillScheduler::DoPlan(const HandoverPlanInput& input)
{
    const CtHoInput problem = CtHoFamilyScheduler::MakeCtHoView(input);
    const CtHoSolver solver(problem, input.GetTarget(input.sessions.front().targetCell).compute);
    const Time window = GetWindow();
    // maxPrefix may stand for "no limit"; no prefix is longer than the longest context.
    const uint64_t longest = std::min(problem.maxPrefix, solver.GetMaxContext());
    uint64_t prefix = longest;
    if (!window.IsZero())
    {
        // D_pf(L) does not decrease with L: the prefixes that fit are a leading run of
        // [minPrefix, maxPrefix], and the longest is where that run ends.
        const double limitS = window.GetSeconds();
        const auto end = std::partition_point(
            boost::counting_iterator<uint64_t>(problem.minPrefix),
            boost::counting_iterator<uint64_t>(longest + 1),
            [&solver, limitS](uint64_t l) { return solver.PrefillDelay(l) <= limitS; });
        prefix = *end == problem.minPrefix ? problem.minPrefix : *end - 1;
    }
    NS_LOG_INFO("impact-reprefill: prefix " << prefix << " of " << solver.GetMaxContext());
    return MakeTokenPlan(input, prefix, window);
}

std::vector<double>
ImpactReprefillScheduler::Allocate(const std::vector<Member>& members,
                                   double /* capacityBps */,
                                   double /* slotS */)
{
    return std::vector<double>(members.size(), 0.0);
}

} // namespace ns3
