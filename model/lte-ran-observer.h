/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LTE_RAN_OBSERVER_H
#define LTE_RAN_OBSERVER_H

#include "rrc-ran-observer.h"

#include "ns3/lte-enb-rrc.h"
#include "ns3/lte-rrc-sap.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief RanObserver of ns-3's LTE stack: listens to the LteEnbRrc of each eNB given.
 *
 * The mapping of the eNB RRC's trace sources to the RanObserver events is RrcRanObserver's.
 * This class adds `RecvMeasurementReport (imsi, cellId, rnti, report)` to MeasurementReport,
 * the RRC range indices converted with EutranMeasurementMapping (RSRP to dBm, RSRQ to dB).
 * Neighbours are named by their physical cell identity, which ns-3 sets to the cell ID.
 * InstallUes connects to each UE's LteUeRrc: `RadioLinkFailure (imsi, cellId, rnti)`, which
 * fires when T310 expires, to RadioLinkFailure. The UE then asks the cell to drop its context
 * (the eNB's `NotifyConnectionRelease` follows at once) and searches for a cell again.
 */
class LteRanObserver : public RrcRanObserver<LteEnbRrc, UeManager>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LteRanObserver() = default;
    ~LteRanObserver() override = default;

    void InstallUes(const NetDeviceContainer& ueDevs) override;

    /**
     * \brief Sink of the UE RRC's RadioLinkFailure, public so that the mapping can be tested.
     * \param imsi the UE
     * \param cellId the cell whose link failed
     * \param rnti the UE's RNTI there
     */
    void RadioLinkFailureSink(uint64_t imsi, uint16_t cellId, uint16_t rnti);

    /**
     * \brief Sink of RecvMeasurementReport, public so that the mapping can be tested.
     * \param imsi the UE
     * \param cellId the serving cell
     * \param rnti the UE's RNTI there
     * \param report the report, in RRC range indices
     */
    void MeasurementReportSink(uint64_t imsi,
                               uint16_t cellId,
                               uint16_t rnti,
                               LteRrcSap::MeasurementReport report);

  protected:
    Ptr<LteEnbRrc> RrcOf(Ptr<NetDevice> dev) const override;
    uint16_t CellOf(Ptr<NetDevice> dev) const override;
    void ConnectRanTraces(Ptr<LteEnbRrc> rrc) override;
    std::string RlcAttribute() const override;
    /// Forgets the UE RRCs watched, whose addresses a later simulation's objects may reuse.
    void DoDispose() override;

  private:
    /// UE RRCs connected already, so that a second InstallUes of a device is harmless.
    std::set<const Object*> m_observedUes;
};

} // namespace ns3

#endif // LTE_RAN_OBSERVER_H
