/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverScheduler");
NS_OBJECT_ENSURE_REGISTERED(HandoverScheduler);

TypeId
HandoverScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HandoverScheduler").SetParent<Object>().SetGroupName("EdgeLlm");
    return tid;
}

HandoverScheduler::HandoverScheduler() = default;

HandoverScheduler::~HandoverScheduler() = default;

HandoverPlan
HandoverScheduler::Plan(const HandoverPlanInput& input) const
{
    try
    {
        const CtHoSolver solver(input.problem, input.compute);
        HandoverPlan plan = DoPlan(solver);
        NS_LOG_INFO(GetSchemeName()
                    << ": " << input.problem.ues.size() << " sessions, L = " << plan.prefixTokens
                    << ", predicted worst delay " << plan.predicted.worstDelay << " s");
        return plan;
    }
    catch (const std::invalid_argument& e)
    {
        NS_FATAL_ERROR("HandoverScheduler " << GetSchemeName() << ": " << e.what());
    }
    return {};
}

} // namespace ns3
