/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LTE_LOCAL_BREAKOUT_H
#define LTE_LOCAL_BREAKOUT_H

#include "local-breakout.h"
#include "rrc-context-index.h"

#include "ns3/lte-enb-rrc.h"
#include "ns3/net-device.h"

namespace ns3
{

class LteEnbNetDevice;

/**
 * \ingroup edge-llm
 * \brief Local breakout at an LTE eNB: downlink UDP datagrams go straight into the eNB's radio
 * stack, as EpcEnbApplication does with what arrives from the S1-U tunnel.
 *
 * Each packet gets a UDP and an IPv4 header (LocalBreakout) and an `EpsBearerTag(rnti,
 * bearer)`, and is handed to the LteEnbNetDevice. The RNTI is looked up by IMSI at every send
 * (RrcContextIndex), since it differs per cell and changes at each handover.
 *
 * A send is accepted only if the UE has a context in this eNB in one of the states in which
 * the eNB RRC takes downlink data: CONNECTED_NORMALLY, CONNECTION_RECONFIGURATION,
 * HANDOVER_PREPARATION, HANDOVER_PATH_SWITCH, HANDOVER_JOINING (the eNB buffers the packet
 * until the UE arrives) or HANDOVER_LEAVING (the eNB forwards it over X2). Everything else is
 * refused, counted and traced (SendRefused), because ns-3 would stop the run: in
 * ATTACH_REQUEST it aborts, and with the RNTI of a released context the lookup in the RRC
 * dereferences an end iterator (Debian's ns-3 is built without asserts).
 */
class LteLocalBreakout : public LocalBreakout
{
  public:
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

    /// \return the eNB's cell, or 0 if no device was set
    uint16_t GetCellId() const override;
    uint64_t GetUeMapScans() const override;

    /**
     * \param state a UeManager state
     * \return whether the eNB RRC takes downlink data in that state without stopping the run
     */
    static bool IsSendAllowed(UeManager::State state);

  protected:
    /// Forgets the RRC contexts and drops the eNB device.
    void DoDispose() override;
    bool IsBound() const override;
    Context FindContext(uint64_t imsi) override;
    bool HasBearer(uint64_t imsi, uint8_t bearerId) override;
    void Deliver(Ptr<Packet> ipPacket, uint16_t rnti, uint8_t bearerId) override;

  private:
    Ptr<LteEnbNetDevice> m_enbDev;                    //!< The eNB
    RrcContextIndex<LteEnbRrc, UeManager> m_contexts; //!< Its RRC's contexts by IMSI
};

} // namespace ns3

#endif // LTE_LOCAL_BREAKOUT_H
