/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_BACKHAUL_TOPOLOGY_H
#define EDGE_LLM_BACKHAUL_TOPOLOGY_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One point-to-point link of a backhaul topology.
 */
struct BackhaulSegment
{
    uint32_t id;                //!< the link's id, unique within its topology
    DataRate rate;              //!< the link's rate
    Time delay;                 //!< the link's one-way propagation delay
    NetDeviceContainer devices; //!< the device at each end
};

/**
 * \ingroup edge-llm
 * \brief How two neighbouring cells reach each other over a backhaul topology.
 *
 * A KV transfer from A binds addressA and connects to addressB (and the other way round);
 * both addresses are on the cells' own nodes.
 */
struct BackhaulPath
{
    uint32_t cellA;                 //!< index of A into the cells given to Install
    uint32_t cellB;                 //!< index of B into the cells given to Install
    Ptr<Node> nodeA;                //!< A's node
    Ptr<Node> nodeB;                //!< B's node
    Ipv4Address addressA;           //!< the address A binds and B reaches A at
    Ipv4Address addressB;           //!< the address B binds and A reaches B at
    DataRate rate;                  //!< the lowest rate of the links the path crosses
    Time delay;                     //!< one-way propagation delay from A to B
    std::vector<uint32_t> segments; //!< ids of the links it crosses (BackhaulSegment::id)
};

/**
 * \ingroup edge-llm
 * \brief How a controller node in the backhaul reaches one cell
 * (HandoverCoordinator::PolicyAt controller).
 */
struct ControllerAttachment
{
    Ptr<Node> cell;                //!< the cell's node
    Ipv4Address cellAddress;       //!< the address the cell binds and is reached at
    Ipv4Address controllerAddress; //!< the controller's address towards it
};

/**
 * \ingroup edge-llm
 * \brief Connects cells (eNB nodes with an Internet stack) for KV-cache transfers.
 *
 * A topology makes the links, numbers them, and adds whatever static routes they need (EPC
 * scenarios have no global routing). It answers with one path per neighbour pair; a link that
 * several paths cross has the same segment id in each, so a caller can tell shared capacity
 * from dedicated.
 *
 * The base class holds the per-link random rates and delays that every topology accepts:
 * with RateMbps (or DelayUs) unset, each link takes the topology's fixed rate (or delay) and
 * no random stream is drawn from, so a run without them draws exactly as before. A rate
 * below MinRateMbps, and a delay below 0, is drawn again (truncation by redraw); after
 * MAX_REDRAWS draws in a row that all fall below, the run stops.
 */
class BackhaulTopology : public Object
{
  public:
    /// Draws of one value that may fall below the floor before the run stops.
    static constexpr uint32_t MAX_REDRAWS = 1000;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    BackhaulTopology();
    ~BackhaulTopology() override;

    /**
     * \brief Connect the cells, and give a path for each neighbour pair.
     *
     * Call once per topology object, after the LTE devices and X2 (the EPC helper assumes the
     * LTE device is device 0 of an eNB node). Stops the run on a pair naming a cell out of
     * range, a cell paired with itself, a pair given twice, or a cell without an Internet
     * stack.
     *
     * \param cells the cells' nodes
     * \param neighbourPairs pairs of indices into cells
     * \return one path per pair, in the order of neighbourPairs, with A the pair's first
     */
    virtual std::vector<BackhaulPath> Install(
        const NodeContainer& cells,
        const std::vector<std::pair<uint32_t, uint32_t>>& neighbourPairs) = 0;

    /// \return every link made, by increasing id
    virtual std::vector<BackhaulSegment> GetSegments() const;

    /// \return the node a controller can sit on, routed to every cell; null (the default)
    /// when the topology has none
    virtual Ptr<Node> GetControllerNode() const;

    /// \return how the controller node reaches each cell, in the cells' order; empty (the
    /// default) without one
    virtual std::vector<ControllerAttachment> GetControllerAttachments() const;

    /**
     * \brief Fix the random streams of RateMbps and DelayUs.
     * \param stream the first stream index to use
     * \return the number of streams used: one per distribution set, so 0 with none
     */
    virtual int64_t AssignStreams(int64_t stream);

    /**
     * \brief Draw a link's rate as RateMbps and MinRateMbps do: a draw that is not finite,
     * falls below the floor, or rounds to 0 bit/s is drawn again, MAX_REDRAWS times at most.
     * \param mbps the distribution, in Mb/s
     * \param minMbps the floor, Mb/s
     * \return the rate, rounded to the bit/s; the run stops if every draw fell below
     */
    static DataRate DrawRate(Ptr<RandomVariableStream> mbps, double minMbps);

  protected:
    /// Drops the rate and delay distributions and the links made.
    void DoDispose() override;

    /**
     * \param link a link from the controller to a cell: device 0 the controller's, device 1
     * the cell's
     * \return how the controller reaches that cell over it
     */
    static ControllerAttachment AttachmentOf(const NetDeviceContainer& link);

    /**
     * \brief Stop the run if a neighbour pair is not valid for these cells (see Install).
     * \param cells the cells
     * \param neighbourPairs the pairs
     * \param who the caller, for the message
     */
    static void CheckPairs(const NodeContainer& cells,
                           const std::vector<std::pair<uint32_t, uint32_t>>& neighbourPairs,
                           const std::string& who);

    /**
     * \brief The rate of the next link: a draw of RateMbps, or \p fixed if it is unset.
     * \param fixed the topology's fixed rate
     * \return the rate
     */
    DataRate NextRate(DataRate fixed);

    /**
     * \brief The delay of the next link: a draw of DelayUs, or \p fixed if it is unset.
     * \param fixed the topology's fixed delay
     * \return the delay
     */
    Time NextDelay(Time fixed);

    /**
     * \brief Record a link made, with the next id.
     * \param rate its rate
     * \param delay its delay
     * \param devices the device at each end
     * \return its id
     */
    uint32_t AddSegment(DataRate rate, Time delay, const NetDeviceContainer& devices);

    /**
     * \brief A recorded link.
     * \param id its id
     * \return the link
     */
    const BackhaulSegment& GetSegment(uint32_t id) const;

  private:
    Ptr<RandomVariableStream> m_rateMbps;    //!< RateMbps; null for the fixed rate
    Ptr<RandomVariableStream> m_delayUs;     //!< DelayUs; null for the fixed delay
    double m_minRateMbps;                    //!< MinRateMbps
    std::vector<BackhaulSegment> m_segments; //!< links made, id = index
};

} // namespace ns3

#endif /* EDGE_LLM_BACKHAUL_TOPOLOGY_H */
