/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "token-handover-scheduler.h"

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
    plan.prefixTokens = solver.GetMaxContext();
    plan.predicted = solver.Tho();
    return plan;
}

} // namespace ns3
