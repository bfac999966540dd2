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

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The RAN events the edge servers react to, keyed by IMSI, whatever the radio stack.
 *
 * Subclasses (LteRanObserver; an NR one later) are the only code of the module that names the
 * radio stack's classes and trace sources. They translate those into the four events below;
 * the rest of the module subscribes here. Sessions are keyed by IMSI because the RNTI changes
 * at every handover.
 *
 * The serving cell of an IMSI "as last seen" is the cell of its last UeReady or HandoverDone
 * event. It stays the source cell during a handover (from HandoverStarted to HandoverDone),
 * and is forgotten when that cell releases the UE or reports a handover failure (the UE has
 * then lost its context there). UeReady fires when the serving cell changes (or becomes
 * known), not again for a UE already served in that cell.
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

    /// \return downlink packets the radio stacks dropped, over all UEs and cells
    uint64_t GetRadioDrops() const;

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
    /// Packets dropped by the radio stacks.
    uint64_t m_radioDrops{0};
};

} // namespace ns3

#endif // RAN_OBSERVER_H
