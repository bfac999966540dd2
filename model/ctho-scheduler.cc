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
                            .SetParent<CtHoFamilyScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<CtHoScheduler>();
    return tid;
}

CtHoScheduler::CtHoScheduler() = default;

CtHoScheduler::~CtHoScheduler() = default;

std::string
CtHoScheduler::GetSchemeName() const
{
    return SchemeNameOr("ctho");
}

CtHoValue
CtHoScheduler::ChoosePrefix(const CtHoSolver& solver) const
{
    return solver.Solve();
}

} // namespace ns3
