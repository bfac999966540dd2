/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "control-plane-flag.h"

#include "edge-llm-helper.h"
#include "flag-checks.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/string.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace ns3
{

void
ControlPlaneFlags::AddTo(CommandLine& cmd)
{
    cmd.AddValue("controlPlane",
                 "ideal (decisions reach the cells at once) or network (as control messages "
                 "over the backhaul)",
                 m_controlPlane);
    cmd.AddValue("policyAt",
                 "with --controlPlane=network: where a handover's policy runs, source, target "
                 "or controller (a node of its own: a star backhaul's core router, else one "
                 "linked to every cell as a neighbour is)",
                 m_policyAt);
}

void
ControlPlaneFlags::RequireController(const std::string& why)
{
    m_controllerRequired = why;
    m_policyAt = "controller";
}

std::string
ControlPlaneFlags::Apply(int argc, char* argv[]) const
{
    if (m_controlPlane != "ideal" && m_controlPlane != "network")
    {
        return edgellm::FlagError("controlPlane", m_controlPlane, "ideal or network");
    }
    if (!m_controllerRequired.empty() && m_policyAt != "controller")
    {
        return edgellm::FlagError("policyAt",
                                  m_policyAt,
                                  "controller (" + m_controllerRequired + ")");
    }
    if (m_policyAt != "source" && m_policyAt != "target" && m_policyAt != "controller")
    {
        return edgellm::FlagError("policyAt", m_policyAt, "source, target or controller");
    }
    if (m_controlPlane == "ideal" && edgellm::IsFlagGiven("policyAt", argc, argv))
    {
        return "--policyAt needs --controlPlane=network: with an ideal control plane the "
               "policy is everywhere at once";
    }
    if (const std::string bad = edgellm::CheckFlagAttributes(
            {{"controlPlane", "ns3::HandoverCoordinator::ControlPlane"},
             {"policyAt", "ns3::HandoverCoordinator::PolicyAt"}},
            argc,
            argv);
        !bad.empty())
    {
        return bad;
    }
    if (IsNetwork())
    {
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
        Config::SetDefault("ns3::HandoverCoordinator::PolicyAt", StringValue(m_policyAt));
        if (m_policyAt == "controller")
        {
            // Per-pair links have no node between the cells: the controller gets links of its
            // own. A star has its core router.
            Config::SetDefault("ns3::PerPairBackhaulTopology::Controller", BooleanValue(true));
        }
    }
    return "";
}

const std::string&
ControlPlaneFlags::GetControlPlane() const
{
    return m_controlPlane;
}

const std::string&
ControlPlaneFlags::GetPolicyAt() const
{
    return m_policyAt;
}

bool
ControlPlaneFlags::IsNetwork() const
{
    return m_controlPlane == "network";
}

std::string
ControlPlaneFlags::HeaderSuffix() const
{
    return IsNetwork() ? ", " + Describe() : "";
}

std::string
ControlPlaneFlags::Describe() const
{
    return m_controlPlane == "ideal" ? "control plane ideal"
                                     : "control plane network (policy at the " + m_policyAt + ")";
}

void
ControlPlaneTally::Watch(Ptr<EdgeLlmHelper> edge)
{
    for (const auto& [cell, channel] : edge->GetControlChannels())
    {
        channel->TraceConnectWithoutContext("Rx", MakeCallback(&ControlPlaneTally::Rx, this));
    }
    if (Ptr<HandoverCoordinator> coordinator = edge->GetCoordinator())
    {
        m_coordinator = coordinator;
        coordinator->TraceConnectWithoutContext("ControlDelay",
                                                MakeCallback(&ControlPlaneTally::Waited, this));
    }
}

void
ControlPlaneTally::Rx(const ControlMessage& /* message */, Time delay)
{
    m_oneWay.push_back(delay);
}

void
ControlPlaneTally::Waited(uint64_t /* imsi */,
                          uint16_t /* sourceCell */,
                          uint16_t /* targetCell */,
                          Time delay)
{
    m_waits.push_back(delay);
}

namespace
{

/// "mean / max ms" of some times, 3 decimals.
std::string
MeanMax(const std::vector<Time>& times)
{
    double sum = 0;
    double max = 0;
    for (const Time& t : times)
    {
        sum += t.GetSeconds();
        max = std::max(max, t.GetSeconds());
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << sum / times.size() * 1e3 << " / " << max * 1e3
       << " ms";
    return os.str();
}

} // namespace

std::string
ControlPlaneTally::Summary() const
{
    if (m_oneWay.empty())
    {
        return "control plane: no message";
    }
    std::ostringstream os;
    os << "control plane: " << m_oneWay.size() << " messages, one-way " << MeanMax(m_oneWay)
       << " (mean / max)";
    if (!m_waits.empty())
    {
        os << "; " << m_waits.size() << " plans applied " << MeanMax(m_waits)
           << " after the handover start";
    }
    if (m_coordinator && m_coordinator->GetPlanTimeouts() > 0)
    {
        TimeValue timeout;
        m_coordinator->GetAttribute("PlanTimeout", timeout);
        os << "; " << m_coordinator->GetPlanTimeouts() << " plans timed out (PlanTimeout "
           << timeout.Get().As(Time::MS) << ")";
    }
    if (m_coordinator && m_coordinator->GetCrossNodeAudit().GetTotal() > 0)
    {
        os << "; " << m_coordinator->GetCrossNodeAudit().GetTotal()
           << " direct calls on another node's cell (CrossNodeCall)";
    }
    return os.str();
}

const std::vector<Time>&
ControlPlaneTally::GetOneWayDelays() const
{
    return m_oneWay;
}

const std::vector<Time>&
ControlPlaneTally::GetPlanWaits() const
{
    return m_waits;
}

} // namespace ns3
