/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CORE_UPLINK_ROUTES_H
#define EDGE_LLM_CORE_UPLINK_ROUTES_H

#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-helper.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Gives the edge server on each base station an address that UEs reach through the
 * core network, for the uplink (prompts, acknowledgements).
 *
 * ns-3's cores (LTE's EPC, 5G-LENA's) have no local breakout: a UE's uplink packets leave the
 * PGW. This helper adds one point-to-point link from each base-station node to the PGW node,
 * and on the base station the only route it needs: the UEs' /8 via the PGW's end of that link.
 * The PGW reaches the base station's end directly. A server on the base station binds the
 * address returned by Install; its downlink goes by local breakout, or through this route and
 * the core. Never call Ipv4GlobalRoutingHelper::PopulateRoutingTables in such a scenario (it
 * crashes on the PGW's tunnel device); the routes here are static.
 */
class CoreUplinkRoutes
{
  public:
    /// Links of 10 Gb/s, 1 ms, MTU 1500; addresses from 15.0.0.0/30.
    CoreUplinkRoutes();

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
     * \param network the first subnet; must not overlap the core's ranges (7/8 UEs, 10/8
     *        S1-U, 11/8 S1-AP, 12/8 X2, 13/8 S11, 14/8 S5)
     * \param mask the mask of each link's subnet
     */
    void SetBase(Ipv4Address network, Ipv4Mask mask);

    /**
     * \brief Link each base-station node to the PGW and route the UEs' range over it.
     * \param pgw the core's PGW node
     * \param ueGateway the UEs' default gateway (its /8 is the UEs' range)
     * \param bsNodes base-station nodes, their RAN devices and X2 already installed (the
     *        cores expect the RAN device to be device 0)
     * \return per node (same order), its interface on its link to the PGW: the address a
     *         server on that base station binds for the uplink
     */
    Ipv4InterfaceContainer Install(Ptr<Node> pgw,
                                   Ipv4Address ueGateway,
                                   const NodeContainer& bsNodes);

  private:
    PointToPointHelper m_p2p;      //!< Makes the links
    Ipv4AddressHelper m_addresses; //!< Numbers them
};

} // namespace ns3

#endif // EDGE_LLM_CORE_UPLINK_ROUTES_H
