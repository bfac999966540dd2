/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LTE_LOCAL_BREAKOUT_H
#define LTE_LOCAL_BREAKOUT_H

#include "ran-downlink.h"

#include "ns3/lte-enb-rrc.h"
#include "ns3/net-device.h"
#include "ns3/simple-ref-count.h"
#include "ns3/traced-callback.h"

#include <unordered_map>

namespace ns3
{

class LteEnbNetDevice;

/**
 * \ingroup edge-llm
 * \brief Local breakout at an LTE eNB: downlink UDP datagrams go straight into the eNB's radio
 * stack, as EpcEnbApplication does with what arrives from the S1-U tunnel.
 *
 * Each packet gets a UDP and an IPv4 header built here and an `EpsBearerTag(rnti, bearer)`,
 * and is handed to the LteEnbNetDevice. The RNTI is looked up by IMSI at every send, since it
 * differs per cell and changes at each handover.
 *
 * A send is accepted only if the UE has a context in this eNB in one of the states in which
 * the eNB RRC takes downlink data: CONNECTED_NORMALLY, CONNECTION_RECONFIGURATION,
 * HANDOVER_PREPARATION, HANDOVER_PATH_SWITCH, HANDOVER_JOINING (the eNB buffers the packet
 * until the UE arrives) or HANDOVER_LEAVING (the eNB forwards it over X2). Everything else is
 * refused, counted and traced (SendRefused), because ns-3 would stop the run: in
 * ATTACH_REQUEST it aborts, and with the RNTI of a released context the lookup in the RRC
 * dereferences an end iterator (Debian's ns-3 is built without asserts).
 *
 * Lookups are cheap: a map from IMSI to the UE's context object is kept, and an entry is used
 * only if the RRC still holds that very object under its RNTI. The RRC's UeMap is scanned
 * again only when it may answer differently: a context was created (NewUeContext) or changed
 * state (StateTransition) since the last scan, or the entry's context was released. So a
 * stale RNTI is never sent with, and a handover in progress costs no scan per packet.
 */
class LteLocalBreakout : public RanDownlink
{
  public:
    /// Why a send was refused.
    enum RefuseReason : uint8_t
    {
        /// No eNB device was set.
        NO_DEVICE = 0,
        /// The eNB holds no context of this IMSI.
        NO_CONTEXT,
        /// The eNB holds a context, in a state that takes no downlink data.
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

    LteLocalBreakout();
    ~LteLocalBreakout() override;

    /**
     * \brief Bind to one eNB.
     * \param enbDev an LteEnbNetDevice with its RRC configured (after
     *        LteHelper::InstallEnbDevice); another kind of device stops the run
     */
    void SetEnbNetDevice(Ptr<NetDevice> enbDev);

    /// \return the eNB device, or null if none was set
    Ptr<NetDevice> GetEnbNetDevice() const;

    bool Send(Ptr<Packet> udpPayload,
              uint64_t imsi,
              Ipv4Address ueAddress,
              Ipv4Address srcAddress,
              uint16_t srcPort,
              uint16_t dstPort) override;
    bool CanSend(uint64_t imsi) override;
    /// \return the eNB's cell, or 0 if no device was set
    uint16_t GetCellId() const override;

    /// \return the number of packets handed to the eNB
    uint64_t GetSentPackets() const;
    /// \return the number of sends refused
    uint64_t GetRefusedPackets() const;
    /// \return how many times the RRC's UeMap was scanned (the slow path of a lookup)
    uint64_t GetUeMapScans() const;

    /**
     * \param state a UeManager state
     * \return whether the eNB RRC takes downlink data in that state without stopping the run
     */
    static bool IsSendAllowed(UeManager::State state);

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
     * \param [in] packet the IPv4 packet handed to the eNB
     */
    typedef void (*TxTracedCallback)(uint64_t imsi, uint16_t rnti, Ptr<const Packet> packet);

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief The UE's context in this eNB, validated against the RRC.
     * \param imsi the UE
     * \return the context, or null if the eNB holds none
     */
    Ptr<UeManager> Lookup(uint64_t imsi);

    /// Rebuilds the IMSI map from the RRC's UeMap.
    void Rescan();

    /**
     * \brief Counts and traces a refusal.
     * \param imsi the UE
     * \param reason why
     * \return false
     */
    bool Refuse(uint64_t imsi, RefuseReason reason);

    /**
     * Set by the RRC's traces when its contexts may answer a lookup differently. Shared with
     * the callbacks the RRC and its contexts hold, which may outlive this object.
     */
    struct ContextsChanged : public SimpleRefCount<ContextsChanged>
    {
        bool changed{true}; //!< true until the next scan
    };

    /// Connects the traces that set m_contextsChanged, on the RRC and its contexts.
    void WatchContexts();

    Ptr<LteEnbNetDevice> m_enbDev; //!< The eNB
    Ptr<LteEnbRrc> m_rrc;          //!< Its RRC
    /// Whether the UeMap may have changed since the last scan
    Ptr<ContextsChanged> m_contextsChanged;
    /// The UE contexts of the last scan, by IMSI; checked against the RRC before use.
    std::unordered_map<uint64_t, Ptr<UeManager>> m_contexts;
    uint8_t m_ttl{64};                                     //!< IPv4 TTL
    uint8_t m_bearerId{1};                                 //!< EPS bearer of the packets
    bool m_udpChecksum{false};                             //!< Whether to compute the UDP checksum
    uint16_t m_identification{0};                          //!< Next IPv4 identification
    uint64_t m_sent{0};                                    //!< Packets handed to the eNB
    uint64_t m_refused{0};                                 //!< Sends refused
    uint64_t m_scans{0};                                   //!< Scans of the UeMap
    TracedCallback<uint64_t, RefuseReason> m_refusedTrace; //!< SendRefused
    TracedCallback<uint64_t, uint16_t, Ptr<const Packet>> m_txTrace; //!< Tx
};

} // namespace ns3

#endif // LTE_LOCAL_BREAKOUT_H
