/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "per-pair-backhaul-topology.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/explaining-checker.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/traffic-control-helper.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PerPairBackhaulTopology");
NS_OBJECT_ENSURE_REGISTERED(PerPairBackhaulTopology);

TypeId
PerPairBackhaulTopology::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PerPairBackhaulTopology")
            .SetParent<BackhaulTopology>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<PerPairBackhaulTopology>()
            .AddAttribute("Helper",
                          "The BackhaulHelper that makes the links; null (the default) for one "
                          "with its default attributes.",
                          PointerValue(),
                          MakePointerAccessor(&PerPairBackhaulTopology::m_helper),
                          MakePointerChecker<BackhaulHelper>())
            .AddAttribute(
                "Controller",
                "Make a controller node (HandoverCoordinator::PolicyAt controller) "
                "with a link of its own to every cell, made as the neighbour links "
                "are (the Helper's DataRate, Delay, Mtu, queue size) and carrying "
                "control messages only.",
                BooleanValue(false),
                MakeBooleanAccessor(&PerPairBackhaulTopology::m_controller),
                edgellm::MakeExplainingBooleanChecker("ns3::PerPairBackhaulTopology::Controller"));
    return tid;
}

PerPairBackhaulTopology::PerPairBackhaulTopology() = default;
PerPairBackhaulTopology::~PerPairBackhaulTopology() = default;

void
PerPairBackhaulTopology::DoDispose()
{
    m_helper = nullptr;
    m_controllerNode = nullptr;
    m_controlLinks.clear();
    BackhaulTopology::DoDispose();
}

Ptr<BackhaulHelper>
PerPairBackhaulTopology::GetBackhaulHelper()
{
    if (!m_helper)
    {
        m_helper = CreateObject<BackhaulHelper>();
    }
    return m_helper;
}

std::vector<BackhaulPath>
PerPairBackhaulTopology::Install(const NodeContainer& cells,
                                 const std::vector<std::pair<uint32_t, uint32_t>>& neighbourPairs)
{
    CheckPairs(cells, neighbourPairs, "PerPairBackhaulTopology::Install");
    Ptr<BackhaulHelper> helper = GetBackhaulHelper();
    DataRateValue fixedRate;
    TimeValue fixedDelay;
    helper->GetAttribute("DataRate", fixedRate);
    helper->GetAttribute("Delay", fixedDelay);
    std::vector<BackhaulPath> paths;
    for (const auto& [a, b] : neighbourPairs)
    {
        const DataRate rate = NextRate(fixedRate.Get());
        const Time delay = NextDelay(fixedDelay.Get());
        // Touch only what was drawn, so a run without distributions makes its links exactly
        // as BackhaulHelper alone would.
        const bool drawn = rate != fixedRate.Get() || delay != fixedDelay.Get();
        if (drawn)
        {
            helper->SetAttribute("DataRate", DataRateValue(rate));
            helper->SetAttribute("Delay", TimeValue(delay));
        }
        const BackhaulLink link = helper->Install(cells.Get(a), cells.Get(b));
        if (drawn)
        {
            helper->SetAttribute("DataRate", fixedRate);
            helper->SetAttribute("Delay", fixedDelay);
        }

        // The link's own attributes, in case the helper was reconfigured between installs.
        DataRateValue linkRate;
        TimeValue linkDelay;
        link.devices.Get(0)->GetAttribute("DataRate", linkRate);
        link.devices.Get(0)->GetChannel()->GetAttribute("Delay", linkDelay);
        const uint32_t id = AddSegment(linkRate.Get(), linkDelay.Get(), link.devices);
        paths.push_back({a,
                         b,
                         link.nodeA,
                         link.nodeB,
                         link.addressA,
                         link.addressB,
                         linkRate.Get(),
                         linkDelay.Get(),
                         {id}});
    }
    if (m_controller)
    {
        InstallController(cells);
    }
    return paths;
}

void
PerPairBackhaulTopology::InstallController(const NodeContainer& cells)
{
    NS_ABORT_MSG_IF(m_controllerNode,
                    "PerPairBackhaulTopology::Install: called twice with Controller; use one "
                    "object per network");
    Ptr<BackhaulHelper> helper = GetBackhaulHelper();
    DataRateValue rate;
    TimeValue delay;
    UintegerValue mtu;
    QueueSizeValue queue;
    helper->GetAttribute("DataRate", rate);
    helper->GetAttribute("Delay", delay);
    helper->GetAttribute("Mtu", mtu);
    helper->GetAttribute("QueueSize", queue);
    m_controllerNode = CreateObject<Node>();
    InternetStackHelper().Install(m_controllerNode);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", rate);
    p2p.SetDeviceAttribute("Mtu", mtu);
    p2p.SetChannelAttribute("Delay", delay);
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", queue);
    // A /30 per cell from 172.31.0.0: 16384 cells fit below 172.32.0.0.
    NS_ABORT_MSG_IF(cells.GetN() > 16384,
                    "PerPairBackhaulTopology::Install: " << cells.GetN()
                                                         << " cells with Controller; at most "
                                                            "16384 fit its address block");
    Ipv4AddressHelper addresses(Ipv4Address("172.31.0.0"), Ipv4Mask("255.255.255.252"));
    for (uint32_t k = 0; k < cells.GetN(); ++k)
    {
        NetDeviceContainer devices = p2p.Install(m_controllerNode, cells.Get(k));
        addresses.Assign(devices);
        addresses.NewNetwork();
        // Control messages only: the device's own queue, as on the neighbour links.
        TrafficControlHelper().Uninstall(devices);
        m_controlLinks.push_back(devices);
    }
}

Ptr<Node>
PerPairBackhaulTopology::GetControllerNode() const
{
    return m_controllerNode;
}

std::vector<ControllerAttachment>
PerPairBackhaulTopology::GetControllerAttachments() const
{
    std::vector<ControllerAttachment> attachments;
    for (const NetDeviceContainer& link : m_controlLinks)
    {
        attachments.push_back(AttachmentOf(link));
    }
    return attachments;
}

const std::vector<NetDeviceContainer>&
PerPairBackhaulTopology::GetControllerLinks() const
{
    return m_controlLinks;
}

} // namespace ns3
