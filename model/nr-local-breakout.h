/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_NR_LOCAL_BREAKOUT_H
#define EDGE_LLM_NR_LOCAL_BREAKOUT_H

#include "local-breakout.h"
#include "rrc-context-index.h"

#include "ns3/net-device.h"
#include "ns3/nr-gnb-rrc.h"

namespace ns3
{

class NrGnbNetDevice;

/**
 * \ingroup edge-llm
 * \brief Local breakout at a 5G-LENA gNB: downlink UDP datagrams go straight into the gNB's
 * RRC, as NrEpcGnbApplication does with what arrives from the N3 (S1-U) tunnel.
 *
 * Each packet gets a UDP and an IPv4 header (LocalBreakout) and an `NrEpsBearerTag(rnti,
 * bearer)`, and is handed to the NrGnbNetDevice, whose Send passes it to NrGnbRrc::SendData.
 * The RNTI is looked up by IMSI at every send (RrcContextIndex): it differs per cell and
 * changes at each handover.
 *
 * NrUeManager::SendData takes data in the states LTE's does: CONNECTED_NORMALLY,
 * CONNECTION_RECONFIGURATION, HANDOVER_PREPARATION, HANDOVER_PATH_SWITCH, HANDOVER_JOINING
 * (buffered until the UE arrives) and HANDOVER_LEAVING (forwarded over X2-U). In
 * INITIAL_RANDOM_ACCESS and CONNECTION_SETUP it drops the packet; in every other state it stops
 * the run (`method unexpected in state`), and NrGnbRrc::SendData with an RNTI it does not hold
 * dereferences a null context. So every other case is refused, counted and traced.
 * Only available when the module is built with 5G-LENA's nr module.
 */
class NrLocalBreakout : public LocalBreakout
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    NrLocalBreakout();
    ~NrLocalBreakout() override;

    /**
     * \brief Bind to one gNB.
     * \param gnbDev an NrGnbNetDevice with its RRC (after NrHelper::InstallGnbDevice);
     *        another kind of device stops the run
     */
    void SetGnbNetDevice(Ptr<NetDevice> gnbDev);

    /// \return the gNB device, or null if none was set
    Ptr<NetDevice> GetGnbNetDevice() const;

    /// \return the gNB's cell, or 0 if no device was set
    uint16_t GetCellId() const override;
    uint64_t GetUeMapScans() const override;

  protected:
    /// Forgets the RRC contexts and drops the gNB device.
    void DoDispose() override;
    bool IsBound() const override;
    Context FindContext(uint64_t imsi) override;
    bool HasBearer(uint64_t imsi, uint8_t bearerId) override;
    void Deliver(Ptr<Packet> ipPacket, uint16_t rnti, uint8_t bearerId) override;

  private:
    Ptr<NrGnbNetDevice> m_gnbDev;                      //!< The gNB
    RrcContextIndex<NrGnbRrc, NrUeManager> m_contexts; //!< Its RRC's contexts by IMSI
};

} // namespace ns3

#endif // EDGE_LLM_NR_LOCAL_BREAKOUT_H
