/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-epc-routes.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LteEpcRoutes");

LteEpcRoutes::LteEpcRoutes()
{
    m_p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate("10Gb/s")));
    m_p2p.SetDeviceAttribute("Mtu", UintegerValue(1500));
    m_p2p.SetChannelAttribute("Delay", TimeValue(MilliSeconds(1)));
    m_addresses.SetBase("15.0.0.0", "255.255.255.252");
}

void
LteEpcRoutes::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_p2p.SetDeviceAttribute(name, value);
}

void
LteEpcRoutes::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_p2p.SetChannelAttribute(name, value);
}

void
LteEpcRoutes::SetBase(Ipv4Address network, Ipv4Mask mask)
{
    m_addresses.SetBase(network, mask);
}

Ipv4InterfaceContainer
LteEpcRoutes::Install(Ptr<EpcHelper> epcHelper, const NodeContainer& enbNodes)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(epcHelper, "LteEpcRoutes::Install: no EPC helper");
    Ptr<Node> pgw = epcHelper->GetPgwNode();
    Ipv4StaticRoutingHelper routing;
    Ipv4InterfaceContainer serverInterfaces;
    for (auto it = enbNodes.Begin(); it != enbNodes.End(); ++it)
    {
        Ptr<Node> enb = *it;
        NS_ABORT_MSG_UNLESS(enb->GetNDevices() > 0 &&
                                DynamicCast<LteEnbNetDevice>(enb->GetDevice(0)),
                            "LteEpcRoutes::Install: node "
                                << enb->GetId()
                                << " has no LteEnbNetDevice as device 0; install the LTE devices "
                                   "and X2 first");
        NetDeviceContainer link = m_p2p.Install(enb, pgw);
        Ipv4InterfaceContainer ifaces = m_addresses.Assign(link);
        m_addresses.NewNetwork();
        Ptr<Ipv4> enbIp = enb->GetObject<Ipv4>();
        int32_t enbIf = enbIp->GetInterfaceForDevice(link.Get(0));
        NS_ABORT_MSG_IF(enbIf < 0, "LteEpcRoutes::Install: the eNB link has no interface");
        routing.GetStaticRouting(enbIp)->AddNetworkRouteTo(
            epcHelper->GetUeDefaultGatewayAddress().CombineMask(Ipv4Mask("255.0.0.0")),
            Ipv4Mask("255.0.0.0"),
            ifaces.GetAddress(1),
            enbIf);
        serverInterfaces.Add(ifaces.Get(0));
    }
    return serverInterfaces;
}

} // namespace ns3
