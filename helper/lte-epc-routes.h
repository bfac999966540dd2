/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LTE_EPC_ROUTES_H
#define EDGE_LLM_LTE_EPC_ROUTES_H

#include "core-uplink-routes.h"

#include "ns3/epc-helper.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief CoreUplinkRoutes for ns-3's LTE EPC: the uplink from the UEs to a server on their
 * eNB, over a link from each eNB to the PGW.
 * Call Install after LteHelper::InstallEnbDevice and LteHelper::AddX2Interface: the EPC helper
 * expects the LTE device to be device 0 of an eNB node.
 */
class LteEpcRoutes : public CoreUplinkRoutes
{
  public:
    /**
     * \brief Link each eNB node to the PGW and route the UEs' range from the eNB over it.
     * \param epcHelper the EPC helper (its PGW node, and the UE network 7.0.0.0/8)
     * \param enbNodes eNB nodes with their LTE device and X2 already installed
     * \return per eNB (same order), the eNB's interface on its link to the PGW: the address a
     *         server on that eNB binds for the uplink
     */
    Ipv4InterfaceContainer Install(Ptr<EpcHelper> epcHelper, const NodeContainer& enbNodes);
};

} // namespace ns3

#endif // EDGE_LLM_LTE_EPC_ROUTES_H
