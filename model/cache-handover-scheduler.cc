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
                            .SetParent<CtHoFamilyScheduler>()
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

CtHoValue
CacheHandoverScheduler::ChoosePrefix(const CtHoSolver& solver) const
{
    return solver.Cho();
}

} // namespace ns3
