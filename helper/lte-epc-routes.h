/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LTE_EPC_ROUTES_H
#define EDGE_LLM_LTE_EPC_ROUTES_H

#include "ns3/epc-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-helper.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Gives the edge server on each eNB an address that UEs reach through the EPC, for the
 * uplink (prompts, acknowledgements).
 *
 * ns-3's EPC has no local breakout: a UE's uplink packets leave the PGW. This helper adds one
 * point-to-point link from each eNB node to the PGW node, and on the eNB the only route it
 * needs: 7.0.0.0/8 (the UEs) via the PGW's end of that link. The PGW reaches the eNB's end
 * directly. A server on the eNB binds the eNB's address on the link (returned by Install);
 * its downlink goes by local breakout, or through this route and the core.
 *
 * Call Install after LteHelper::InstallEnbDevice and LteHelper::AddX2Interface: the EPC helper
 * expects the LTE device to be device 0 of an eNB node. Never call
 * Ipv4GlobalRoutingHelper::PopulateRoutingTables in an EPC scenario (it crashes on the PGW's
 * tunnel device); the routes here are static.
 */
class LteEpcRoutes
{
  public:
    /// Links of 10 Gb/s, 1 ms, MTU 1500; addresses from 15.0.0.0/30.
    LteEpcRoutes();

    /**
     * \brief Set an attribute of the point-to-point devices made by Install.
     * \param name attribute name
     * \param value attribute value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of the point-to-point channels made by Install.
     * \param name attribute name
     * \param value attribute value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set where the links' /30 subnets are taken from.
     * \param network the first subnet; must not overlap the EPC's ranges (7/8 UEs, 10/8
     *        S1-U, 11/8 S1-AP, 12/8 X2, 13/8 S11, 14/8 S5)
     * \param mask the mask of each link's subnet
     */
    void SetBase(Ipv4Address network, Ipv4Mask mask);

    /**
     * \brief Link each eNB node to the PGW and route the UEs' range from the eNB over it.
     * \param epcHelper the EPC helper (its PGW node, and the UE network 7.0.0.0/8)
     * \param enbNodes eNB nodes with their LTE device and X2 already installed
     * \return per eNB (same order), the eNB's interface on its link to the PGW: the address a
     *         server on that eNB binds for the uplink
     */
    Ipv4InterfaceContainer Install(Ptr<EpcHelper> epcHelper, const NodeContainer& enbNodes);

  private:
    PointToPointHelper m_p2p;      //!< Makes the links
    Ipv4AddressHelper m_addresses; //!< Numbers them
};

} // namespace ns3

#endif // EDGE_LLM_LTE_EPC_ROUTES_H
