/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "detour-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DetourScheduler);

TypeId
DetourScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DetourScheduler")
                            .SetParent<HandoverScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<DetourScheduler>();
    return tid;
}

DetourScheduler::DetourScheduler() = default;

DetourScheduler::~DetourScheduler() = default;

std::string
DetourScheduler::GetSchemeName() const
{
    return "detour";
}

HandoverPlan
DetourScheduler::DoPlan(const HandoverPlanInput& input)
{
    HandoverPlan plan;
    for (const HandoverSessionView& s : input.sessions)
    {
        SessionPlan p;
        p.imsi = s.imsi;
        p.action = SessionPlan::RELAY;
        plan.sessions.push_back(p);
    }
    return plan;
}

} // namespace ns3
