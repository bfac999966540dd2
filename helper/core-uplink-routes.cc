/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "core-uplink-routes.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CoreUplinkRoutes");

CoreUplinkRoutes::CoreUplinkRoutes()
{
    m_p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate("10Gb/s")));
    m_p2p.SetDeviceAttribute("Mtu", UintegerValue(1500));
    m_p2p.SetChannelAttribute("Delay", TimeValue(MilliSeconds(1)));
    m_addresses.SetBase("15.0.0.0", "255.255.255.252");
}

void
CoreUplinkRoutes::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_p2p.SetDeviceAttribute(name, value);
}

void
CoreUplinkRoutes::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_p2p.SetChannelAttribute(name, value);
}

void
CoreUplinkRoutes::SetBase(Ipv4Address network, Ipv4Mask mask)
{
    m_addresses.SetBase(network, mask);
}

Ipv4InterfaceContainer
CoreUplinkRoutes::Install(Ptr<Node> pgw, Ipv4Address ueGateway, const NodeContainer& bsNodes)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(pgw, "CoreUplinkRoutes::Install: no PGW node");
    Ipv4StaticRoutingHelper routing;
    Ipv4InterfaceContainer serverInterfaces;
    for (auto it = bsNodes.Begin(); it != bsNodes.End(); ++it)
    {
        Ptr<Node> bs = *it;
        NetDeviceContainer link = m_p2p.Install(bs, pgw);
        Ipv4InterfaceContainer ifaces = m_addresses.Assign(link);
        m_addresses.NewNetwork();
        Ptr<Ipv4> bsIp = bs->GetObject<Ipv4>();
        int32_t bsIf = bsIp->GetInterfaceForDevice(link.Get(0));
        NS_ABORT_MSG_IF(bsIf < 0,
                        "CoreUplinkRoutes::Install: the base station's link has no "
                        "interface");
        routing.GetStaticRouting(bsIp)->AddNetworkRouteTo(
            ueGateway.CombineMask(Ipv4Mask("255.0.0.0")),
            Ipv4Mask("255.0.0.0"),
            ifaces.GetAddress(1),
            bsIf);
        serverInterfaces.Add(ifaces.Get(0));
    }
    return serverInterfaces;
}

} // namespace ns3
