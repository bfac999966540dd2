/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cache-handover-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CacheHandoverScheduler);

TypeId
CacheHandoverScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CacheHandoverScheduler")
                            .SetParent<HandoverScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<CacheHandoverScheduler>();
    return tid;
}

CacheHandoverScheduler::CacheHandoverScheduler() = default;

CacheHandoverScheduler::~CacheHandoverScheduler() = default;

std::string
CacheHandoverScheduler::GetSchemeName() const
{
    return "cho";
}

HandoverPlan
CacheHandoverScheduler::DoPlan(const CtHoSolver& solver) const
{
    HandoverPlan plan;
    plan.prefixTokens = 0;
    plan.predicted = solver.Cho();
    return plan;
}

} // namespace ns3
