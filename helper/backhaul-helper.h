/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_BACKHAUL_HELPER_H
#define EDGE_LLM_BACKHAUL_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/queue-size.h"

#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One point-to-point backhaul link between two eNB nodes.
 */
struct BackhaulLink
{
    Ptr<Node> nodeA;            //!< the first node given to Install
    Ptr<Node> nodeB;            //!< the second node given to Install
    NetDeviceContainer devices; //!< device on A, then device on B
    Ipv4Address addressA;       //!< A's address on the link's /30
    Ipv4Address addressB;       //!< B's address on the link's /30
};

/**
 * \ingroup edge-llm
 * \brief Connects neighbouring eNB nodes with dedicated point-to-point backhaul links.
 *
 * Each Install() call adds one link on its own /30, so a bulk KV transfer never queues in
 * front of X2 signalling and needs no routes (the /30 is directly connected). Links are made
 * per neighbour pair, never as a full mesh. Install after the LTE devices and X2: the EPC
 * helper assumes the LTE device is device 0 of an eNB node.
 *
 * ns-3's Ipv4AddressHelper installs an FqCoDel queue disc on every device it numbers; the
 * helper removes it unless the QueueDisc attribute names one, because on a dedicated link it
 * only costs simulation time.
 */
class BackhaulHelper : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    BackhaulHelper();
    ~BackhaulHelper() override;

    /**
     * \brief Connect two nodes that both have an Internet stack.
     *
     * Stops the run if the nodes are the same, if either has no Internet stack, if they are
     * already connected by this helper, or if the address block is used up.
     *
     * \param a one eNB node
     * \param b its neighbour
     * \return the link made
     */
    BackhaulLink Install(Ptr<Node> a, Ptr<Node> b);

    /**
     * \brief Connect each node of a line with the next one: n - 1 links for n nodes.
     * \param line the nodes in line order
     * \return the links made, in line order
     */
    std::vector<BackhaulLink> InstallLine(const NodeContainer& line);

    /**
     * \brief The link this helper made between two nodes, in either order.
     * \param a one node
     * \param b the other
     * \return the link, or nullptr if there is none
     */
    const BackhaulLink* Find(Ptr<const Node> a, Ptr<const Node> b) const;

    /// \return every link made, in the order they were made
    const std::vector<BackhaulLink>& GetLinks() const;

  private:
    DataRate m_dataRate;               //!< DataRate
    Time m_delay;                      //!< Delay
    uint16_t m_mtu;                    //!< Mtu
    QueueSize m_queueSize;             //!< QueueSize of the device's DropTail queue
    std::string m_queueDisc;           //!< QueueDisc TypeId name; empty for none
    Ipv4Address m_base;                //!< Network of the first link
    std::vector<BackhaulLink> m_links; //!< links in creation order
    std::map<std::pair<uint32_t, uint32_t>, std::size_t> m_byPair; //!< node ids → index
};

} // namespace ns3

#endif /* EDGE_LLM_BACKHAUL_HELPER_H */
