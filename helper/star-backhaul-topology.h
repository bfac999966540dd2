/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_STAR_BACKHAUL_TOPOLOGY_H
#define EDGE_LLM_STAR_BACKHAUL_TOPOLOGY_H

#include "backhaul-topology.h"

#include "ns3/queue-size.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A star backhaul in which every transfer between two cells crosses one shared link.
 *
 * Destination-based static routes cannot send a packet back out of the router it came in on
 * towards another cell and still make it cross one shared link, so the star has two routers:
 * an aggregation router (Agg) and a core router (Core), joined by the shared link. Each cell
 * has an access link up to Agg and one down from Core:
 *
 * \verbatim
 *   cell i --up_i--> Agg ==shared==> Core --down_j--> cell j
 * \endverbatim
 *
 * A cell binds, and is reached at, its address on its up link (ns-3's TCP takes the source
 * of a socket's route as its local address, whatever the socket bound, so the address must be
 * on the link the route leaves by); those addresses lie in one /16. The cell routes that /16
 * to Agg over its up link. Agg, though directly connected to every up link, has a host route
 * to each cell's address via Core over the shared link (longer than the connected /30, so
 * nothing turns back at Agg), and Core a host route to each via the cell's down link, where
 * the cell takes it by ns-3's weak end-system model (the default: Ipv4::WeakEsModel true, or
 * from ns-3.41 StrongEndSystemModel false). So the data of a transfer from i to j and the ACKs from
 * j to i both cross the shared link from Agg to Core, once each; the link from Core to Agg stays
 * idle.
 *
 * Addresses, from BaseNetwork N.0.0.0 (a /8): the shared link N.0.0.0/30 (Agg .1, Core .2),
 * cell k's up link the k-th /30 of N.1.0.0/16 (cell .1, its address; Agg .2), its down link
 * the k-th /30 of N.2.0.0/16 (Core .1, cell .2). At most 16384 cells.
 *
 * RateMbps and DelayUs, when set, are drawn once per cell, in cell order (rate, then delay),
 * for both of that cell's access links: they stand for one physical access link, and the two
 * directions of a path then have the same delay. The shared link keeps SharedRate and
 * SharedDelay. A drawn access rate may fall below SharedRate; the access link is then the
 * bottleneck of the paths that cross it.
 *
 * Install adds the two routers, with an IPv4 stack, as new nodes. ns-3's Ipv4AddressHelper
 * installs an FqCoDel queue disc on every device it numbers; it is removed from every link
 * here, as BackhaulHelper does.
 */
class StarBackhaulTopology : public BackhaulTopology
{
  public:
    /// Id of the shared link among the segments.
    static constexpr uint32_t SHARED_SEGMENT = 0;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    StarBackhaulTopology();
    ~StarBackhaulTopology() override;

    /**
     * \copydoc BackhaulTopology::Install
     *
     * Every cell gets its access links, paired or not. A path's segments are, in order, the
     * links from A to B (up_A, the shared link, down_B), then those of B to A's own access
     * (up_B, down_A), which the ACKs of A's transfers and B's transfers cross. Also stops the
     * run if AccessRate is below SharedRate, if there are more than 16384 cells, or if a cell
     * has the strong end-system model.
     */
    std::vector<BackhaulPath> Install(
        const NodeContainer& cells,
        const std::vector<std::pair<uint32_t, uint32_t>>& neighbourPairs) override;

    /// \return the aggregation router, or nullptr before Install
    Ptr<Node> GetAggregationRouter() const;

    /// \return the core router, or nullptr before Install
    Ptr<Node> GetCoreRouter() const;

    /**
     * \brief Where a cell is reached, and what it binds: its address on its up link.
     * \param cell an index into the cells given to Install
     * \return the address
     */
    Ipv4Address GetCellAddress(uint32_t cell) const;

    /**
     * \return the core router: a controller there (a near-RT RIC beside the core) reaches
     * each cell over the cell's down link, both ways, so its messages queue behind the KV
     * bytes the cell receives and never cross the shared link
     */
    Ptr<Node> GetControllerNode() const override;

    /// \return per cell, its address on its down link and the core router's
    std::vector<ControllerAttachment> GetControllerAttachments() const override;

    /**
     * \brief The TCP buffer that keeps a path of the star busy at a rate: a sender sizes its
     * buffer from its first link (edgellm::SocketBufferForLink), one of the three a path
     * crosses, and its window would cap a transfer below the path's rate.
     * \param bottleneck the path's rate
     * \return edgellm::SocketBufferForPath over up, shared and down links, with AccessDelay
     *         twice and SharedDelay (not the per-cell draws of DelayUs) and the star's Mtu
     */
    uint32_t GetPathSocketBufferBytes(DataRate bottleneck) const;

  protected:
    /// Drops the aggregation and core routers.
    void DoDispose() override;

  private:
    /**
     * \brief Make one numbered point-to-point link with no queue disc.
     * \param x first node (first address of the /30)
     * \param y second node
     * \param rate its rate
     * \param delay its delay
     * \param network its /30
     * \return the id of the segment recorded
     */
    uint32_t MakeLink(Ptr<Node> x, Ptr<Node> y, DataRate rate, Time delay, Ipv4Address network);

    DataRate m_sharedRate;                  //!< SharedRate
    DataRate m_accessRate;                  //!< AccessRate
    Time m_sharedDelay;                     //!< SharedDelay
    Time m_accessDelay;                     //!< AccessDelay
    uint16_t m_mtu;                         //!< Mtu
    QueueSize m_queueSize;                  //!< QueueSize
    Ipv4Address m_base;                     //!< BaseNetwork
    Ptr<Node> m_agg;                        //!< aggregation router
    Ptr<Node> m_core;                       //!< core router
    std::vector<uint32_t> m_up;             //!< per cell, the id of its up link
    std::vector<uint32_t> m_down;           //!< per cell, the id of its down link
    std::vector<Ipv4Address> m_cellAddress; //!< per cell, its address on its up link
    std::vector<Ptr<Node>> m_cells;         //!< the cells' nodes
};

} // namespace ns3

#endif /* EDGE_LLM_STAR_BACKHAUL_TOPOLOGY_H */
