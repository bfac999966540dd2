/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ctho-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CtHoScheduler);

TypeId
CtHoScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CtHoScheduler")
                            .SetParent<HandoverScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<CtHoScheduler>();
    return tid;
}

CtHoScheduler::CtHoScheduler() = default;

CtHoScheduler::~CtHoScheduler() = default;

std::string
CtHoScheduler::GetSchemeName() const
{
    return "ctho";
}

HandoverPlan
CtHoScheduler::DoPlan(const CtHoSolver& solver) const
{
    const CtHoValue best = solver.Solve();
    HandoverPlan plan;
    plan.prefixTokens = best.prefixTokens;
    plan.predicted = best;
    return plan;
}

} // namespace ns3
