/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LOCAL_BREAKOUT_H
#define EDGE_LLM_LOCAL_BREAKOUT_H

#include "ran-downlink.h"

#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief What every local breakout into a base station's RRC shares: the UDP and IPv4 headers
 * built here, the checks made before a packet reaches the RAN, the counters and the traces.
 *
 * A subclass (LteLocalBreakout, and the NR one when 5G-LENA is built) finds the UE's context in
 * its base station's RRC by IMSI, says whether a send is safe in that context's state, and hands
 * the IPv4 packet to the base-station device with the RAN's bearer tag. A refusal is counted and
 * traced (SendRefused), and never stops the run.
 */
class LocalBreakout : public RanDownlink
{
  public:
    /// Why a send was refused.
    enum RefuseReason : uint8_t
    {
        /// No base-station device was set.
        NO_DEVICE = 0,
        /// The base station holds no context of this IMSI.
        NO_CONTEXT,
        /// The base station holds a context, in a state that takes no downlink data.
        STATE_NOT_ALLOWED,
        /// The datagram does not fit in one IPv4 packet.
        TOO_LARGE,
        /// The UE has no radio bearer of the BearerId attribute (only checked for bearers
        /// other than the default one, which every connected UE has).
        NO_BEARER,
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LocalBreakout();
    ~LocalBreakout() override;

    bool Send(Ptr<Packet> udpPayload,
              uint64_t imsi,
              Ipv4Address ueAddress,
              Ipv4Address srcAddress,
              uint16_t srcPort,
              uint16_t dstPort) override;
    bool CanSend(uint64_t imsi) override;

    /// \return the number of packets handed to the base station
    uint64_t GetSentPackets() const;
    /// \return the number of sends refused
    uint64_t GetRefusedPackets() const;
    /// \return how many times the RRC's UE map was scanned (the slow path of a lookup)
    virtual uint64_t GetUeMapScans() const = 0;

    /**
     * \param reason a refusal reason
     * \return its name, e.g. "NO_CONTEXT"
     */
    static std::string ToString(RefuseReason reason);

    /**
     * TracedCallback signature of SendRefused.
     * \param [in] imsi the UE
     * \param [in] reason why
     */
    typedef void (*SendRefusedTracedCallback)(uint64_t imsi, RefuseReason reason);

    /**
     * TracedCallback signature of Tx.
     * \param [in] imsi the UE
     * \param [in] rnti the UE's RNTI in this cell
     * \param [in] packet the IPv4 packet handed to the base station
     */
    typedef void (*TxTracedCallback)(uint64_t imsi, uint16_t rnti, Ptr<const Packet> packet);

  protected:
    /// A UE's context in the base station, as the subclass found it.
    struct Context
    {
        bool found{false};       //!< the base station holds a context of the IMSI
        bool sendAllowed{false}; //!< its state takes downlink data without stopping the run
        uint16_t rnti{0};        //!< the UE's RNTI in this cell
    };

    /// \return whether a base-station device was set
    virtual bool IsBound() const = 0;

    /**
     * \param imsi a UE (not 0)
     * \return its context in the base station
     */
    virtual Context FindContext(uint64_t imsi) = 0;

    /**
     * \param imsi a UE whose context was found, in a state that allows a send
     * \param bearerId an EPS bearer other than the default one
     * \return whether the context has a radio bearer of it
     */
    virtual bool HasBearer(uint64_t imsi, uint8_t bearerId) = 0;

    /**
     * \brief Hand an IPv4 packet to the base station.
     * \param ipPacket the packet, headers on
     * \param rnti the UE's RNTI in this cell
     * \param bearerId the EPS bearer to tag it with
     */
    virtual void Deliver(Ptr<Packet> ipPacket, uint16_t rnti, uint8_t bearerId) = 0;

  private:
    /**
     * \brief Counts and traces a refusal.
     * \param imsi the UE
     * \param reason why
     * \return false
     */
    bool Refuse(uint64_t imsi, RefuseReason reason);

    uint8_t m_ttl{64};                                     //!< IPv4 TTL
    uint8_t m_bearerId{1};                                 //!< EPS bearer of the packets
    bool m_udpChecksum{false};                             //!< Whether to compute the UDP checksum
    uint16_t m_identification{0};                          //!< Next IPv4 identification
    uint64_t m_sent{0};                                    //!< Packets handed to the cell
    uint64_t m_refused{0};                                 //!< Sends refused
    TracedCallback<uint64_t, RefuseReason> m_refusedTrace; //!< SendRefused
    TracedCallback<uint64_t, uint16_t, Ptr<const Packet>> m_txTrace; //!< Tx
};

} // namespace ns3

#endif // EDGE_LLM_LOCAL_BREAKOUT_H
