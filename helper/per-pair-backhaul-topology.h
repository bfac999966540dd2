/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_PER_PAIR_BACKHAUL_TOPOLOGY_H
#define EDGE_LLM_PER_PAIR_BACKHAUL_TOPOLOGY_H

#include "backhaul-helper.h"
#include "backhaul-topology.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A dedicated point-to-point link per neighbour pair, made by a BackhaulHelper.
 *
 * Links are made in the order of the neighbour pairs, each by BackhaulHelper::Install(A, B),
 * so a line's pairs (0, 1), (1, 2), ... give the very links (devices, addresses, order) of
 * EdgeLlmHelper::InstallBackhaulLine. Each path crosses its own link only, and takes the
 * link's addresses. The helper's attributes (DataRate, Delay, Mtu, QueueSize, QueueDisc,
 * BaseNetwork) set the links; RateMbps and DelayUs, when set, draw a rate and a delay for each
 * link, in pair order (rate, then delay), in place of the helper's DataRate and Delay.
 *
 * With Controller true it also makes a controller node (HandoverCoordinator::PolicyAt
 * controller, a near-RT RIC on a control network of its own) and a link from it to every cell,
 * after the neighbour links, so theirs are as without it. Each controller link has the
 * helper's DataRate, Delay, Mtu and queue size (one hop from each cell, as a neighbour is), a
 * /30 of its own from 172.31.0.0 up, and carries control messages only: none of them queues
 * behind KV bytes. The controller links are not paths or segments, and the helper does not
 * list them (GetControllerLinks does).
 */
class PerPairBackhaulTopology : public BackhaulTopology
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PerPairBackhaulTopology();
    ~PerPairBackhaulTopology() override;

    std::vector<BackhaulPath> Install(
        const NodeContainer& cells,
        const std::vector<std::pair<uint32_t, uint32_t>>& neighbourPairs) override;

    /**
     * \brief The helper that makes the links; set its attributes before Install.
     * \return the helper given as the Helper attribute, or the default one made on first use
     */
    Ptr<BackhaulHelper> GetBackhaulHelper();

    Ptr<Node> GetControllerNode() const override;
    std::vector<ControllerAttachment> GetControllerAttachments() const override;

    /// \return the controller's links, in the cells' order (device 0 the controller's); empty
    /// without Controller
    const std::vector<NetDeviceContainer>& GetControllerLinks() const;

  protected:
    /// Drops the link helper.
    void DoDispose() override;

  private:
    /// Make the controller node and its link to each cell. \param cells the cells' nodes
    void InstallController(const NodeContainer& cells);

    Ptr<BackhaulHelper> m_helper;                   //!< Helper
    bool m_controller{false};                       //!< Controller
    Ptr<Node> m_controllerNode;                     //!< the controller, with Controller
    std::vector<NetDeviceContainer> m_controlLinks; //!< per cell: controller, cell
};

} // namespace ns3

#endif /* EDGE_LLM_PER_PAIR_BACKHAUL_TOPOLOGY_H */
