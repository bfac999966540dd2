/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_BACKHAUL_FAULTS_H
#define EDGE_LLM_BACKHAUL_FAULTS_H

#include "backhaul-helper.h"

#include "ns3/application-container.h"
#include "ns3/backhaul-fault-model.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Injects faults into backhaul links: random packet loss, outages (the link goes down
 * and perhaps comes back) and cross traffic that shares the link with the KV transfers.
 *
 * Loss and outages act through a BackhaulFaultModel on the receive side of both devices of a
 * link, so they hit both directions; each link gets its model on first use. Cross traffic is
 * an ns-3 application pair: a BulkSend (TCP, as much as the link gives it) or an OnOff (UDP at
 * a constant rate) from one end of the link to a PacketSink at the other. The KV-transfer
 * schedulers plan with the link's configured rate (or PlannedBackhaulRate), not with what is left
 * by these faults, which is the point: the plan meets a link worse than it assumed.
 *
 * Use it after the network is built (the links exist), before Simulator::Run.
 */
class BackhaulFaults : public Object
{
  public:
    /// Cross traffic's kind.
    enum CrossTrafficKind
    {
        BULK,   //!< BulkSend over TCP: takes what the link gives, competing with the KV flows
        ON_OFF, //!< OnOff over UDP at a constant rate: takes its rate whatever TCP does
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    BackhaulFaults();
    ~BackhaulFaults() override;

    /**
     * \brief Lose packets of a link at random, both ways.
     * \param link the link
     * \param rate the loss probability per packet, [0, 1)
     */
    void SetLoss(const BackhaulLink& link, double rate);

    /**
     * \brief Cut a link, both ways, for a while.
     * \param link the link
     * \param start when it goes down, from now; >= 0
     * \param duration how long it stays down; > 0, Time::Max() for the rest of the run
     */
    void ScheduleOutage(const BackhaulLink& link, Time start, Time duration);

    /**
     * \brief Send cross traffic over a link, from its node A to its node B.
     * \param link the link
     * \param kind BULK or ON_OFF
     * \param rate ON_OFF's rate, > 0; ignored by BULK
     * \param start when it starts, from now; >= 0
     * \param stop when it stops, from now; > start, Time::Max() for the rest of the run
     */
    void AddCrossTraffic(const BackhaulLink& link,
                         CrossTrafficKind kind,
                         DataRate rate,
                         Time start,
                         Time stop);

    /**
     * \param name "bulk" or "onoff"
     * \param [out] kind the kind named
     * \return false if the name is neither
     */
    static bool ParseCrossTrafficKind(const std::string& name, CrossTrafficKind& kind);

    /**
     * \brief Fix the loss models' random streams.
     * \param stream the first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /// \return packets lost to random loss, over every link
    uint64_t GetLossDrops() const;
    /// \return packets lost during outages, over every link
    uint64_t GetOutageDrops() const;
    /// \return outages started so far
    uint32_t GetOutagesStarted() const;
    /// \return bytes of cross traffic received, over every link
    uint64_t GetCrossTrafficBytes() const;

  protected:
    /// Drops the fault models and the cross traffic's sinks.
    void DoDispose() override;

  private:
    /// \return the fault models of a link's two devices, installed on first use
    std::pair<Ptr<BackhaulFaultModel>, Ptr<BackhaulFaultModel>> ModelsOf(const BackhaulLink& link);
    /// Start an outage on both models of a link.
    void StartOutage(Ptr<BackhaulFaultModel> a, Ptr<BackhaulFaultModel> b);
    /// End an outage on both models of a link.
    void EndOutage(Ptr<BackhaulFaultModel> a, Ptr<BackhaulFaultModel> b);

    uint16_t m_port;                               //!< CrossTrafficPort
    uint32_t m_packetSize;                         //!< CrossTrafficPacketSize
    std::vector<Ptr<BackhaulFaultModel>> m_models; //!< every device's model
    uint32_t m_outages{0};                         //!< outages started
    uint16_t m_flows{0};                           //!< cross-traffic flows, for their ports
    ApplicationContainer m_sinks;                  //!< the cross traffic's sinks
};

} // namespace ns3

#endif /* EDGE_LLM_BACKHAUL_FAULTS_H */
