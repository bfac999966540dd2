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

  protected:
    /// Drops the link helper.
    void DoDispose() override;

  private:
    Ptr<BackhaulHelper> m_helper; //!< Helper
};

} // namespace ns3

#endif /* EDGE_LLM_PER_PAIR_BACKHAUL_TOPOLOGY_H */
