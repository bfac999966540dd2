/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "token-handover-scheduler.h"

#include <limits>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TokenHandoverScheduler);

TypeId
TokenHandoverScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TokenHandoverScheduler")
                            .SetParent<HandoverScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<TokenHandoverScheduler>();
    return tid;
}

TokenHandoverScheduler::TokenHandoverScheduler() = default;

TokenHandoverScheduler::~TokenHandoverScheduler() = default;

std::string
TokenHandoverScheduler::GetSchemeName() const
{
    return "tho";
}

HandoverPlan
TokenHandoverScheduler::DoPlan(const CtHoSolver& solver) const
{
    HandoverPlan plan;
    // Not C_max: the contexts planned with may be estimates, and tHO re-prefills all of each.
    plan.prefixTokens = std::numeric_limits<uint64_t>::max();
    plan.predicted = solver.Tho();
    return plan;
}

} // namespace ns3
