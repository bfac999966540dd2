/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAN_OBSERVER_H
#define RAN_OBSERVER_H

#include "ns3/net-device-container.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One cell's quantities in a UE's measurement report, in physical units.
 */
struct RanCellMeasurement
{
    uint16_t cellId{0};  ///< the measured cell
    bool hasRsrp{false}; ///< whether the report carries the cell's RSRP
    double rsrpDbm{0};   ///< RSRP, dBm (valid if hasRsrp)
    bool hasRsrq{false}; ///< whether the report carries the cell's RSRQ
    double rsrqDb{0};    ///< RSRQ, dB (valid if hasRsrq)
};

/**
 * \ingroup edge-llm
 * \brief A UE's measurement report as its serving cell received it.
 *
 * The values are those the UE reported, so they carry the radio stack's quantisation (LTE:
 * 1 dB steps of RSRP, 0.5 dB steps of RSRQ).
 */
struct RanMeasurementReport
{
    uint64_t imsi{0};          ///< the reporting UE
    uint16_t servingCellId{0}; ///< the cell that received the report
    /// The measurement identity the report answers: which reporting configuration sent it.
    uint8_t measId{0};
    RanCellMeasurement serving;                 ///< the serving cell
    std::vector<RanCellMeasurement> neighbours; ///< neighbour cells, strongest first
};

/**
 * \ingroup edge-llm
 * \brief The RAN events the edge servers react to, keyed by IMSI, whatever the radio stack.
 *
 * Subclasses (LteRanObserver; an NR one later) are the only code of the module that names the
 * radio stack's classes and trace sources. They translate those into the events below; the
 * rest of the module subscribes here. Sessions are keyed by IMSI because the RNTI changes at
 * every handover.
 *
 * - UeReady (imsi, cellId): the UE can receive data in the cell.
 * - HandoverStarted (imsi, sourceCellId, targetCellId): the target admitted the UE and the
 *   source commands it over.
 * - HandoverDone (imsi, targetCellId): the UE is served by the target.
 * - HandoverFailed (imsi, cellId, reason): an admitted handover failed.
 * - HandoverRefused (imsi, sourceCellId, targetCellId): the target refused the handover during
 *   its preparation; the UE stays in the source, where nothing changed. The target is 0 when
 *   the radio stack does not tell it. A NO_PREAMBLE failure is such a refusal: the target
 *   reports HandoverFailed, then the source HandoverRefused.
 * - UeReleased (imsi, cellId): the serving cell released the UE.
 * - RadioLinkFailure (imsi, cellId): the UE lost its radio link to its serving cell and left
 *   connected mode (watched at the UEs given to InstallUes).
 * - Reattached (imsi, cellId): the first UeReady after a RadioLinkFailure, in the cell the UE
 *   reconnected to (the same or another); it fires just before that UeReady.
 * - RadioDrop (imsi, cellId): the radio stack dropped a downlink packet.
 * - MeasurementReport (report): the serving cell received a UE's measurement report (RSRP in
 *   dBm, RSRQ in dB); which reports a UE sends is the radio stack's configuration (for LTE,
 *   see ConfigurePeriodicMeasurementReports).
 *
 * The serving cell of an IMSI "as last seen" is the cell of its last UeReady or HandoverDone
 * event. It stays the source cell during a handover (from HandoverStarted to HandoverDone),
 * and is forgotten when that cell releases the UE or reports a handover failure, or the UE
 * reports a radio link failure (the UE has then lost its context there). UeReady fires when the
 * serving cell changes (or becomes known), not again for a UE already served in that cell.
 */
class RanObserver : public Object
{
  public:
    /// Why a handover failed, one value per failure trace of the radio stack.
    enum HandoverFailureReason : uint8_t
    {
        /// The target had no dedicated RACH preamble for the UE and refused the handover.
        NO_PREAMBLE = 0,
        /// The UE gave up random access to the target.
        MAX_RACH,
        /// The source did not hear of the UE's arrival at the target in time.
        LEAVING_TIMEOUT,
        /// The UE did not arrive at the target in time.
        JOINING_TIMEOUT,
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RanObserver() = default;
    ~RanObserver() override = default;

    /**
     * \brief Start observing the given base-station devices.
     * \param ranDevs base-station devices of the observer's radio stack (LTE eNBs for
     *        LteRanObserver); a device of another kind stops the run with a message
     *
     * May be called more than once, with devices not given before.
     */
    virtual void Install(const NetDeviceContainer& ranDevs) = 0;

    /**
     * \brief Start observing the radio link of the given UE devices, for RadioLinkFailure.
     *
     * Radio link failures are detected at the UE, so the base stations alone cannot tell
     * them from other releases. May be called more than once; devices already observed are
     * skipped. This base class watches no UE (it logs a warning): an observer that does not
     * override it reports no RadioLinkFailure, and its sessions see only the release.
     * \param ueDevs UE devices of the observer's radio stack
     */
    virtual void InstallUes(const NetDeviceContainer& ueDevs);

    /**
     * \param imsi the UE
     * \return the UE's serving cell as last seen, or 0 if unknown
     */
    uint16_t GetServingCellId(uint64_t imsi) const;

    /**
     * \param reason a failure reason
     * \return its name, e.g. "JOINING_TIMEOUT"
     */
    static std::string ToString(HandoverFailureReason reason);

    /**
     * TracedCallback signature of UeReady.
     * \param [in] imsi the UE
     * \param [in] cellId the cell where the UE can now receive data
     */
    typedef void (*UeReadyTracedCallback)(uint64_t imsi, uint16_t cellId);

    /**
     * TracedCallback signature of HandoverStarted.
     * \param [in] imsi the UE
     * \param [in] sourceCellId the cell the UE leaves
     * \param [in] targetCellId the cell the UE goes to
     */
    typedef void (*HandoverStartedTracedCallback)(uint64_t imsi,
                                                  uint16_t sourceCellId,
                                                  uint16_t targetCellId);

    /**
     * TracedCallback signature of HandoverDone.
     * \param [in] imsi the UE
     * \param [in] targetCellId the UE's new serving cell
     */
    typedef void (*HandoverDoneTracedCallback)(uint64_t imsi, uint16_t targetCellId);

    /**
     * TracedCallback signature of HandoverFailed.
     * \param [in] imsi the UE
     * \param [in] cellId the cell that reported the failure (the target, except for
     *             LEAVING_TIMEOUT, which the source reports)
     * \param [in] reason why
     */
    typedef void (*HandoverFailedTracedCallback)(uint64_t imsi,
                                                 uint16_t cellId,
                                                 HandoverFailureReason reason);

    /**
     * TracedCallback signature of RadioDrop.
     * \param [in] imsi the UE whose downlink packet the radio stack dropped
     * \param [in] cellId the cell that dropped it
     */
    typedef void (*RadioDropTracedCallback)(uint64_t imsi, uint16_t cellId);

    /**
     * TracedCallback signature of HandoverRefused.
     * \param [in] imsi the UE
     * \param [in] sourceCellId the cell that prepared the handover and still serves the UE
     * \param [in] targetCellId the cell that refused it, or 0 if unknown
     */
    typedef void (*HandoverRefusedTracedCallback)(uint64_t imsi,
                                                  uint16_t sourceCellId,
                                                  uint16_t targetCellId);

    /**
     * TracedCallback signature of MeasurementReport.
     * \param [in] report the report, in dBm and dB
     */
    typedef void (*MeasurementReportTracedCallback)(const RanMeasurementReport& report);

    /**
     * TracedCallback signature of RadioLinkFailure and Reattached.
     * \param [in] imsi the UE
     * \param [in] cellId RadioLinkFailure: the cell whose link failed; Reattached: the cell
     *             the UE reconnected to
     */
    typedef void (*RadioLinkTracedCallback)(uint64_t imsi, uint16_t cellId);

    /// \return radio link failures, over all UEs and cells
    uint64_t GetRadioLinkFailures() const;

    /// \return reattachments after a radio link failure, over all UEs and cells
    uint64_t GetReattachments() const;

    /// \return downlink packets the radio stacks dropped, over all UEs and cells
    uint64_t GetRadioDrops() const;

    /// \return handovers refused by their target, over all UEs and cells
    uint64_t GetHandoverRefusals() const;

    /// \return measurement reports received, over all UEs and cells
    uint64_t GetMeasurementReports() const;

  protected:
    /**
     * \brief Counts a downlink packet that a cell's radio stack dropped (a full RLC buffer),
     * and fires RadioDrop.
     * \param imsi the UE
     * \param cellId the cell
     */
    void NotifyRadioDrop(uint64_t imsi, uint16_t cellId);

    /**
     * \brief Records the cell and fires UeReady, unless the UE is already known to be served
     * there.
     * \param imsi the UE
     * \param cellId the cell
     */
    void NotifyUeReady(uint64_t imsi, uint16_t cellId);

    /**
     * \brief Fires HandoverStarted.
     * \param imsi the UE
     * \param sourceCellId the cell the UE leaves
     * \param targetCellId the cell the UE goes to
     */
    void NotifyHandoverStarted(uint64_t imsi, uint16_t sourceCellId, uint16_t targetCellId);

    /**
     * \brief Records the cell, fires HandoverDone, then UeReady in the target.
     * \param imsi the UE
     * \param targetCellId the new serving cell
     */
    void NotifyHandoverDone(uint64_t imsi, uint16_t targetCellId);

    /**
     * \brief Forgets the serving cell and fires UeReleased if it is this one: the cell dropped
     * the UE's context (a source's release after a handover concerns a cell that no longer
     * serves, and is no news).
     * \param imsi the UE
     * \param cellId the cell that released the UE
     */
    void NotifyUeReleased(uint64_t imsi, uint16_t cellId);

    /**
     * \brief Fires HandoverFailed; forgets the serving cell if the failure is at it.
     * \param imsi the UE
     * \param cellId the cell reporting the failure
     * \param reason why
     */
    void NotifyHandoverFailed(uint64_t imsi, uint16_t cellId, HandoverFailureReason reason);

    /**
     * \brief Counts a handover the target refused, and fires HandoverRefused. The serving cell
     * stays the source.
     * \param imsi the UE
     * \param sourceCellId the source cell
     * \param targetCellId the target cell, or 0 if unknown
     */
    void NotifyHandoverRefused(uint64_t imsi, uint16_t sourceCellId, uint16_t targetCellId);

    /**
     * \brief Counts a radio link failure, fires RadioLinkFailure, then UeReleased if the
     * cell served the UE, and forgets the serving cell; the next UeReady of the UE is its
     * reattachment.
     * \param imsi the UE
     * \param cellId the cell whose link failed
     */
    void NotifyRadioLinkFailure(uint64_t imsi, uint16_t cellId);

    /**
     * \brief Counts a measurement report, and fires MeasurementReport.
     * \param report the report, converted to dBm and dB
     */
    void NotifyMeasurementReport(const RanMeasurementReport& report);

  private:
    /// Serving cell by IMSI, as last seen.
    std::unordered_map<uint64_t, uint16_t> m_servingCell;
    /// The UeReady trace source.
    TracedCallback<uint64_t, uint16_t> m_ueReadyTrace;
    /// The HandoverStarted trace source.
    TracedCallback<uint64_t, uint16_t, uint16_t> m_handoverStartedTrace;
    /// The HandoverDone trace source.
    TracedCallback<uint64_t, uint16_t> m_handoverDoneTrace;
    /// The HandoverFailed trace source.
    TracedCallback<uint64_t, uint16_t, HandoverFailureReason> m_handoverFailedTrace;
    /// The UeReleased trace source.
    TracedCallback<uint64_t, uint16_t> m_ueReleasedTrace;
    /// The RadioDrop trace source.
    TracedCallback<uint64_t, uint16_t> m_radioDropTrace;
    /// The HandoverRefused trace source.
    TracedCallback<uint64_t, uint16_t, uint16_t> m_handoverRefusedTrace;
    /// The MeasurementReport trace source.
    TracedCallback<const RanMeasurementReport&> m_measurementReportTrace;
    /// The RadioLinkFailure trace source.
    TracedCallback<uint64_t, uint16_t> m_radioLinkFailureTrace;
    /// The Reattached trace source.
    TracedCallback<uint64_t, uint16_t> m_reattachedTrace;
    /// UEs whose link failed and that have not reconnected since.
    std::unordered_set<uint64_t> m_linkFailed;
    /// Radio link failures.
    uint64_t m_radioLinkFailures{0};
    /// Reattachments after a radio link failure.
    uint64_t m_reattachments{0};
    /// Packets dropped by the radio stacks.
    uint64_t m_radioDrops{0};
    /// Handovers refused by their target.
    uint64_t m_handoverRefusals{0};
    /// Measurement reports received.
    uint64_t m_measurementReports{0};
};

} // namespace ns3

#endif // RAN_OBSERVER_H
