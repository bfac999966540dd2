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
                            .SetParent<CtHoFamilyScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<TokenHandoverScheduler>();
    return tid;
}

TokenHandoverScheduler::TokenHandoverScheduler() = default;

TokenHandoverScheduler::~TokenHandoverScheduler() = default;

std::string
TokenHandoverScheduler::GetSchemeName() const
{
    return SchemeNameOr("tho");
}

CtHoValue
TokenHandoverScheduler::ChoosePrefix(const CtHoSolver& solver) const
{
    CtHoValue value = solver.Tho();
    // Not C_max: the contexts planned with may be estimates, and tHO re-prefills all of each.
    value.prefixTokens = std::numeric_limits<uint64_t>::max();
    return value;
}

} // namespace ns3
