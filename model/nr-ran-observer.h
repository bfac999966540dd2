/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_NR_RAN_OBSERVER_H
#define EDGE_LLM_NR_RAN_OBSERVER_H

#include "rrc-ran-observer.h"

#include "ns3/nr-gnb-rrc.h"
#include "ns3/nr-rrc-sap.h"
#include "ns3/traced-callback.h"

#include <map>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief RanObserver of 5G-LENA's NR stack: listens to the NrGnbRrc of each gNB given.
 *
 * NrGnbRrc has LTE's trace sources under the same names and signatures, so the mapping to the
 * RanObserver events is RrcRanObserver's. `RecvMeasurementReport` is converted with nr's
 * EutranMeasurementMapping (5G-LENA's RRC reports in LTE's range indices). Bearer drops are
 * those of the data bearers' `NrRlc`.
 *
 * 5G-LENA's source `HandoverStart` fires when the target's acknowledgement returns, and the
 * target's `HandoverEndOk` about 2 ms later (ideal RRC). RNTIs change per cell, so everything
 * is keyed by IMSI; cell ids are whatever the helper gave, read with GetCellId.
 *
 * RntiCollision detects a fault of 5G-LENA the module cannot mend: after a handover the source
 * gNB keeps the departed UE in its PHY's device list and matches UEs by RNTI, so if the UE's
 * new RNTI at the target is the RNTI of another UE still served by the source, the source may
 * serve that other UE with the departed UE's beam (packet loss, an outage of about 100 ms).
 * The check runs when the handover ends: a UE that enters the source later with that RNTI is
 * not seen.
 * Only available when the module is built with 5G-LENA's nr module.
 */
class NrRanObserver : public RrcRanObserver<NrGnbRrc, NrUeManager>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    NrRanObserver() = default;
    ~NrRanObserver() override = default;

    /**
     * \brief Sink of RecvMeasurementReport.
     * \param imsi the UE
     * \param cellId the serving cell
     * \param rnti the UE's RNTI there
     * \param report the report, in RRC range indices
     */
    void MeasurementReportSink(uint64_t imsi,
                               uint16_t cellId,
                               uint16_t rnti,
                               NrRrcSap::MeasurementReport report);

    /// \return handovers after which another UE of the source had the UE's new RNTI
    uint64_t GetRntiCollisions() const;

    /**
     * TracedCallback signature of RntiCollision.
     * \param [in] imsi the UE that was handed over
     * \param [in] sourceCellId the cell it left
     * \param [in] rnti its RNTI in the target
     * \param [in] otherImsi the UE of the source that has that RNTI
     */
    typedef void (*RntiCollisionTracedCallback)(uint64_t imsi,
                                                uint16_t sourceCellId,
                                                uint16_t rnti,
                                                uint64_t otherImsi);

  protected:
    Ptr<NrGnbRrc> RrcOf(Ptr<NetDevice> dev) const override;
    uint16_t CellOf(Ptr<NetDevice> dev) const override;
    void ConnectRanTraces(Ptr<NrGnbRrc> rrc) override;
    std::string RlcAttribute() const override;

  private:
    /// The source of each UE in a handover, from HandoverStart.
    std::map<uint64_t, uint16_t> m_leaving;
    /// RNTI collisions seen.
    uint64_t m_rntiCollisions{0};
    /// The RntiCollision trace source.
    TracedCallback<uint64_t, uint16_t, uint16_t, uint64_t> m_rntiCollisionTrace;
};

} // namespace ns3

#endif // EDGE_LLM_NR_RAN_OBSERVER_H
