/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_BACKHAUL_FAULT_MODEL_H
#define EDGE_LLM_BACKHAUL_FAULT_MODEL_H

#include "ns3/error-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The receive error model of one backhaul device: random packet loss, and outages
 * during which every packet is lost.
 *
 * ns-3's point-to-point device has no notion of a link going down, and setting an IPv4
 * interface down also withdraws its routes, which a cable cut does not. An outage here keeps
 * the device, its address and its routes, and loses every packet that reaches it, so TCP
 * sees what it would see on a cut link: silence, then retransmission timeouts with backoff.
 * Installed on both devices of a link, it cuts the link both ways (data and ACKs).
 *
 * The PointToPointNetDevice fires PhyRxDrop for each packet this model corrupts, so drops can
 * be counted at the device independently of this model's own counters.
 */
class BackhaulFaultModel : public ErrorModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    BackhaulFaultModel();

    /// Start an outage: every packet is lost until EndOutage().
    void StartOutage();
    /// End the outage; random loss (LossRate) applies again.
    void EndOutage();
    /// \return whether an outage is under way
    bool IsInOutage() const;

    /**
     * \brief Use a fixed stream for the loss draws.
     * \param stream the first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return packets lost to random loss
    uint64_t GetLossDrops() const;
    /// \return packets lost during outages
    uint64_t GetOutageDrops() const;

    /**
     * TracedCallback signature of Dropped.
     * \param [in] packet the packet lost
     * \param [in] outage true if lost to an outage, false to random loss
     */
    typedef void (*DroppedTracedCallback)(Ptr<const Packet> packet, bool outage);

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    double m_lossRate;                //!< LossRate
    Ptr<UniformRandomVariable> m_uni; //!< the loss draws
    bool m_outage{false};             //!< an outage is under way
    uint64_t m_lossDrops{0};          //!< packets lost to random loss
    uint64_t m_outageDrops{0};        //!< packets lost during outages

    TracedCallback<Ptr<const Packet>, bool> m_droppedTrace; //!< Dropped
};

} // namespace ns3

#endif /* EDGE_LLM_BACKHAUL_FAULT_MODEL_H */
