/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LTE_RAN_OBSERVER_H
#define LTE_RAN_OBSERVER_H

#include "ran-observer.h"

#include "ns3/lte-enb-rrc.h"
#include "ns3/lte-rrc-sap.h"
#include "ns3/packet.h"

#include <map>
#include <set>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief RanObserver of ns-3's LTE stack: listens to the LteEnbRrc of each eNB given.
 *
 * Maps the eNB RRC's trace sources to the RanObserver events:
 *
 * - `ConnectionReconfiguration (imsi, cellId, rnti)` to UeReady. Not `ConnectionEstablished`:
 *   that fires while the UE is still attaching (ATTACH_REQUEST), when a downlink packet
 *   aborts the run.
 * - `HandoverStart (imsi, cellId, rnti, targetCellId)` (at the source, once the target has
 *   acknowledged) to HandoverStarted.
 * - `HandoverEndOk (imsi, cellId, rnti)` (at the target, after the path switch) to
 *   HandoverDone, followed by UeReady in the target.
 * - `NotifyConnectionRelease (imsi, cellId, rnti)`: forgets the serving cell if it is that
 *   cell.
 * - `HandoverFailureNoPreamble`, `HandoverFailureMaxRach`, `HandoverFailureLeaving`,
 *   `HandoverFailureJoining`, which pass `(imsi, rnti, cellId)` (another order), to
 *   HandoverFailed.
 * - `RecvMeasurementReport (imsi, cellId, rnti, report)` to MeasurementReport, the RRC range
 *   indices converted with EutranMeasurementMapping (RSRP to dBm, RSRQ to dB). Neighbours
 *   are named by their physical cell identity, which ns-3 sets to the cell ID.
 * - A UE context's `StateTransition (imsi, cellId, rnti, oldState, newState)` from
 *   HANDOVER_PREPARATION to CONNECTED_NORMALLY to HandoverRefused. ns-3.37 fires no trace
 *   when a target refuses a handover request (`AdmitHandoverRequest` false, or no SRS
 *   resource left); the source's context takes that transition on the target's HANDOVER
 *   PREPARATION FAILURE and on nothing else (an admitted handover goes on to
 *   HANDOVER_LEAVING). The contexts are watched as the RRC creates them (`NewUeContext`).
 *
 * A refusal's target cell is what the source's context holds as its handover target. The
 * context does not expose it; it is read from the X2 HANDOVER CANCEL message the context
 * builds (UeManager::BuildHoCancelMsg, which only fills in a structure and sends nothing).
 *
 * It connects to the RRC objects of the given devices without a context, not through
 * `/NodeList/...` paths, so that several simulations in one process (tests) do not hear each
 * other's eNBs.
 */
class LteRanObserver : public RanObserver
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LteRanObserver() = default;
    ~LteRanObserver() override = default;

    /**
     * \brief Connect to the RRC of each eNB device; devices already observed are skipped.
     * \param enbDevs LteEnbNetDevices (e.g. from LteHelper::InstallEnbDevice); another kind
     *        of device stops the run
     */
    void Install(const NetDeviceContainer& enbDevs) override;

    /**
     * \name Sinks of the LteEnbRrc trace sources, public so that the mapping can be tested
     * without provoking each event in a simulation.
     * @{
     */
    /**
     * \param imsi IMSI
     * \param cellId the eNB's cell
     * \param rnti the UE's RNTI in that cell
     */
    void ConnectionReconfigurationSink(uint64_t imsi, uint16_t cellId, uint16_t rnti);
    /**
     * \param imsi IMSI
     * \param cellId the source cell
     * \param rnti the UE's RNTI in the source cell
     * \param targetCellId the target cell
     */
    void HandoverStartSink(uint64_t imsi, uint16_t cellId, uint16_t rnti, uint16_t targetCellId);
    /**
     * \param imsi IMSI
     * \param cellId the target cell
     * \param rnti the UE's RNTI in the target cell
     */
    void HandoverEndOkSink(uint64_t imsi, uint16_t cellId, uint16_t rnti);
    /**
     * \param imsi IMSI
     * \param cellId the cell releasing the UE
     * \param rnti the UE's RNTI in that cell
     */
    void ConnectionReleaseSink(uint64_t imsi, uint16_t cellId, uint16_t rnti);
    /**
     * \param imsi IMSI
     * \param rnti the UE's RNTI in the reporting cell
     * \param cellId the reporting cell
     */
    void HandoverFailureNoPreambleSink(uint64_t imsi, uint16_t rnti, uint16_t cellId);
    /**
     * \param imsi IMSI
     * \param rnti the UE's RNTI in the reporting cell
     * \param cellId the reporting cell
     */
    void HandoverFailureMaxRachSink(uint64_t imsi, uint16_t rnti, uint16_t cellId);
    /**
     * \param imsi IMSI
     * \param rnti the UE's RNTI in the reporting cell
     * \param cellId the reporting cell
     */
    void HandoverFailureLeavingSink(uint64_t imsi, uint16_t rnti, uint16_t cellId);
    /**
     * \param imsi IMSI
     * \param rnti the UE's RNTI in the reporting cell
     * \param cellId the reporting cell
     */
    void HandoverFailureJoiningSink(uint64_t imsi, uint16_t rnti, uint16_t cellId);
    /**
     * \param imsi IMSI
     * \param cellId the serving cell that received the report
     * \param rnti the UE's RNTI in that cell
     * \param report the report, RSRP and RSRQ as 3GPP TS 36.133 range indices
     */
    void MeasurementReportSink(uint64_t imsi,
                               uint16_t cellId,
                               uint16_t rnti,
                               LteRrcSap::MeasurementReport report);
    /**
     * \param imsi IMSI
     * \param cellId the context's cell
     * \param rnti the UE's RNTI in that cell
     * \param oldState the context's state before
     * \param newState its state now
     */
    void UeStateTransitionSink(uint64_t imsi,
                               uint16_t cellId,
                               uint16_t rnti,
                               UeManager::State oldState,
                               UeManager::State newState);
    /** @} */

  private:
    /**
     * \brief Connect to the state transitions of a UE context of a cell.
     * \param rrc the cell's RRC
     * \param rnti the context's RNTI
     */
    void WatchContext(Ptr<LteEnbRrc> rrc, uint16_t rnti);

    /**
     * \brief A UE context was created.
     * \param self the observer
     * \param rrc the RRC that created it; a raw pointer, since the RRC holds this callback
     * \param cellId the cell
     * \param rnti the context's RNTI
     */
    static void NewUeContextSink(Ptr<LteRanObserver> self,
                                 LteEnbRrc* rrc,
                                 uint16_t cellId,
                                 uint16_t rnti);

    /**
     * \brief Connect to the RLC drops of a UE's data bearers in a cell. RLC entities are made
     * with the UE's context, so this runs when a context appears: at the reconfiguration
     * that makes a UE ready, and at the target when a handover starts.
     * \param cellId the cell
     * \param imsi the UE
     */
    void WatchBearers(uint16_t cellId, uint64_t imsi);

    /**
     * \brief A data bearer's RLC dropped a packet.
     * \param self the observer
     * \param imsi the bearer's UE
     * \param cellId the bearer's cell
     * \param packet the packet
     */
    static void RlcDropSink(Ptr<LteRanObserver> self,
                            uint64_t imsi,
                            uint16_t cellId,
                            Ptr<const Packet> packet);

    /// RRC objects already connected, so that a second Install of a device is harmless.
    std::set<const Object*> m_observed;
    /// The RRC of each cell.
    std::map<uint16_t, Ptr<LteEnbRrc>> m_rrcByCell;
    /// RLC entities whose drops are counted already.
    std::set<const Object*> m_watchedRlc;
};

} // namespace ns3

#endif // LTE_RAN_OBSERVER_H
