/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-epc-routes.h"

#include "ns3/abort.h"
#include "ns3/lte-enb-net-device.h"

namespace ns3
{

Ipv4InterfaceContainer
LteEpcRoutes::Install(Ptr<EpcHelper> epcHelper, const NodeContainer& enbNodes)
{
    NS_ABORT_MSG_UNLESS(epcHelper, "LteEpcRoutes::Install: no EPC helper");
    for (auto it = enbNodes.Begin(); it != enbNodes.End(); ++it)
    {
        NS_ABORT_MSG_UNLESS((*it)->GetNDevices() > 0 &&
                                DynamicCast<LteEnbNetDevice>((*it)->GetDevice(0)),
                            "LteEpcRoutes::Install: node "
                                << (*it)->GetId()
                                << " has no LteEnbNetDevice as device 0; install the LTE devices "
                                   "and X2 first");
    }
    return CoreUplinkRoutes::Install(epcHelper->GetPgwNode(),
                                     epcHelper->GetUeDefaultGatewayAddress(),
                                     enbNodes);
}

} // namespace ns3
