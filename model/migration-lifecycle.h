/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_MIGRATION_LIFECYCLE_H
#define EDGE_LLM_MIGRATION_LIFECYCLE_H

#include "cell-port.h"
#include "handover-plan.h"
#include "handover-record.h"
#include "handover-recorder.h"
#include "handover-scheduler.h"
#include "kv-cache-profile.h"
#include "kv-transfer-sender.h"
#include "migration.h"
#include "online-grouper.h"
#include "plan-input-builder.h"
#include "relay-paths.h"
#include "slot-clock.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Carries out the migrations of a HandoverCoordinator, from their start to their resume
 * at the target or their end before it: the whole lifecycle of a handover, in one place.
 *
 * It owns the migrations under way (one Migration per session, with its state machine, epoch,
 * timers and record index) and the epochs of every session. It acts on the cells only through
 * their CellPort (which reaches their KV senders too), and it decides nothing a policy decides: the
 * plan it starts or re-plans a migration with comes from the scheduler, through the coordinator.
 *
 * Its steps, in the order a handover meets them:
 * - Start: stop the source's decoding, resolve the plan against the context, admit the session
 *   at the target (TargetMemoryFull), or take the admission its reservation made there, take a
 *   new epoch, and hand the transfer to the sender;
 * - the cells' events: TokensArrived (the prefix's token IDs, relayed hop by hop),
 * PrefillCompleted, KvComplete, TokenGenerated (an open transfer grows), and its own timers, the
 * resume deadline and the stall check (StallPolicy);
 * - TryPrefill: a session's prefill, or its group's batch once every member's IDs are in;
 * - TryResume: once Migration::CanResume holds, the session moves to the target and decodes;
 * - End: cancelled, failed or closed before its resume, its transfer withdrawn.
 */
class MigrationLifecycle
{
  public:
    /// What a committed migration does when its transfer stalls (StallTimeout).
    enum StallPolicy
    {
        STALL_WAIT,      //!< wait for the link: TCP resends once it is back
        STALL_REPREFILL, //!< give up on what did not arrive, and re-prefill it at the target
    };

    /// What a handover does when the target's KV memory is full now (it could hold the
    /// session once others finish).
    enum MemoryFullPolicy
    {
        MEMORY_QUEUE,    //!< wait in the target's admission queue; the resume waits for it
        MEMORY_FALLBACK, //!< keep the session at the cell that holds its cache, and relay
        MEMORY_EVICT,    //!< preempt decoding sessions of the target by recompute to admit it
    };

    /// The coordinator's settings it works by (its attributes, read when needed).
    struct Settings
    {
        StallPolicy stallPolicy{STALL_WAIT};       //!< StallPolicy
        Time stallTimeout;                         //!< StallTimeout
        MemoryFullPolicy memoryFull{MEMORY_QUEUE}; //!< TargetMemoryFull
        uint64_t openStep{1};                      //!< OpenTransferStep, tokens
        /// ControlPlane network: each step reads its own node only. A target grows an open
        /// transfer's context when the KV stream announces the new tokens, not when the source
        /// decodes them; the stall watch at the source counts what the next hop's TCP
        /// acknowledged to its sender, not what the target's receiver took.
        bool network{false};
    };

    /// What it asks of its coordinator: the directory of cells (whose ports reach their KV
    /// senders too), and the groups.
    class Host
    {
      public:
        virtual ~Host() = default;
        /// \return the scheduler in use
        virtual Ptr<HandoverScheduler> GetScheduler() const = 0;
        /// \param cellId a cell \param site the calling function (CrossNodeAudit)
        /// \return its port (stops the run if there is none)
        virtual Ptr<CellPort> PortOf(uint16_t cellId, const char* site = __builtin_FUNCTION()) = 0;
        /**
         * \param cellId a cell
         * \return its port, only to read what every node is configured with (its links, its
         *         compute model) or what the simulation records of it; not an action on the
         *         cell, so not audited (CrossNodeAudit)
         */
        virtual Ptr<const CellPort> ConfigOf(uint16_t cellId) const = 0;
        /// \param imsi a UE \return its session's KV-cache shape
        virtual SessionKvProfile GetKvProfile(uint64_t imsi) const = 0;
        /// \return the settings, as the attributes are now
        virtual Settings GetMigrationSettings() const = 0;
        /// \param group an oracle or online group \return true if none of its members is
        /// still to hand over, so its batch may start
        virtual bool IsGroupComplete(uint32_t group) const = 0;
        /// A failed or closed migration's UE comes back to the cell it left.
        /// \param imsi the UE \param cellId the cell it left
        virtual void AwaitReconnect(uint64_t imsi, uint16_t cellId) = 0;
        /// \param imsi a UE with a migration \return true once its target has the plan's
        /// prefill request (at once with an ideal control plane)
        virtual bool IsPrefillRequested(uint64_t imsi) const = 0;
        /// A session resumed at its target: its old holder drops it, at once with an ideal
        /// control plane, or when the target's resume notice reaches it.
        /// \param imsi the UE \param holder the cell that held it \param target where it resumed
        virtual void ReleaseHolder(uint64_t imsi, uint16_t holder, uint16_t target) = 0;
        /// A migration of the UE starts: a release still on its way is done now, before the
        /// new migration reads or admits anything, and so is a cancel on its way to the new
        /// migration's target. \param imsi the UE \param target the new migration's target
        virtual void SettleRelease(uint64_t imsi, uint16_t target) = 0;
        /**
         * \brief The target's admission for a migration that starts now, if its reservation
         * admitted the session already (ControlPlane network: when the reservation reached the
         * target, and the answer said how). The reservation is the migration's from then on.
         * \param imsi the UE \param target the migration's target
         * \return the admission its answer reported, or nothing: Start admits the session
         */
        virtual std::optional<LlmEngine::Admission> TakeAdmission(uint64_t imsi,
                                                                  uint16_t target) = 0;
        /// \param at the cell where a migration's end or window's end is decided
        /// \param target its target
        /// \return true if it tells its target by message (SendCancel, SendWindowEnd), false
        /// if the target's part is done at once
        virtual bool TellsByMessage(uint16_t at, uint16_t target) const = 0;
        /// A migration ends: its target drops the session and expects the next epoch when the
        /// message reaches it. \param imsi the UE \param at where the end is decided
        /// \param target the target \param next the epoch the target expects from then on
        virtual void SendCancel(uint64_t imsi, uint16_t at, uint16_t target, uint32_t next) = 0;
        /// A resume deadline passed at the transfer's source: its target resumes the session
        /// on what arrived when the message reaches it (WindowEndArrived).
        /// \param imsi the UE \param at the source \param target the target
        /// \param epoch the migration's epoch
        virtual void SendWindowEnd(uint64_t imsi, uint16_t at, uint16_t target, uint32_t epoch) = 0;
    };

    /// The pieces of the coordinator it works with.
    struct Parts
    {
        HandoverRecorder* recorder{nullptr}; //!< the records it fills
        RelayPaths* paths{nullptr};          //!< the sessions' packet paths
        PlanInputBuilder* inputs{nullptr};   //!< the views the scheduler's hooks read
        OnlineGrouper* online{nullptr};      //!< the online cycle groups' batches
        SlotClock* slotClock{nullptr};       //!< the slot hook's clock
    };

    /// Where it reports: the coordinator's trace sources (none may be null).
    struct Traces
    {
        TracedCallback<uint64_t, uint64_t, uint64_t>* planned{nullptr};   //!< HandoverPlanned
        TracedCallback<uint64_t, uint16_t, Time>* resumed{nullptr};       //!< SessionResumed
        TracedCallback<uint64_t, uint32_t, uint64_t>* cancelled{nullptr}; //!< MigrationCancelled
        TracedCallback<uint64_t, uint32_t, uint64_t>* replanned{nullptr}; //!< MigrationReplanned
        TracedCallback<uint64_t, uint32_t, uint64_t, bool>* stalled{nullptr}; //!< TransferStalled
        Migration::Traces migration; //!< MigrationTransition and MigrationState
    };

    /**
     * \param host its coordinator
     * \param parts the coordinator's pieces it works with; they must outlive it
     * \param traces where it reports; they must outlive it
     */
    MigrationLifecycle(Host* host, Parts parts, Traces traces);

    /**
     * \brief Start a migration.
     * \param imsi the UE
     * \param holder the cell that holds the session's cache
     * \param target the handover's target
     * \param record the index of the handover's record
     * \param plan the session's plan
     * \param handoverAt the handover's time (the expected one if prepared)
     * \param prepared true before a predicted handover
     * \return false if it cannot start (no way to the target, or no room there); the holder
     *         then decodes on
     */
    bool Start(uint64_t imsi,
               uint16_t holder,
               uint16_t target,
               std::size_t record,
               const SessionPlan& plan,
               Time handoverAt,
               bool prepared);
    /**
     * \brief Admit a session at a cell, by TargetMemoryFull: it waits in the cell's
     * admission queue (Queue), evicts decoding sessions there to fit (Evict), or is not
     * admitted (Fallback).
     * \param imsi the UE \param target the cell
     * \param context its context tokens \param remaining the tokens it has left to generate
     * \return the admission
     */
    LlmEngine::Admission Admit(uint64_t imsi,
                               uint16_t target,
                               uint64_t context,
                               uint64_t remaining);
    /**
     * \brief The predicted handover of a prepared migration has started.
     * \param imsi the UE
     * \param handoverAt when the RAN started it (now, unless its notice crossed the network)
     * \return false if its packets cannot be routed to the target (it is then unchanged)
     */
    bool Commit(uint64_t imsi, Time handoverAt);
    /**
     * \brief A migration ends before its resume: its transfer is withdrawn and the target
     * freed.
     * \param imsi the UE
     * \param phase CANCELLED, FAILED or CLOSED (the record's outcome of the same name)
     * \param resumeHolder true if the holder decodes on (else the caller decides what follows)
     * \param at the cell where the end is decided: the target's part is done there at once,
     *        elsewhere when the host's message reaches it (Host::TellsByMessage); 0 for no
     *        cell, every part at once
     */
    void End(uint64_t imsi, Migration::Phase phase, bool resumeHolder, uint16_t at);
    /**
     * \brief Submit the prefills of a session (group 0), or of a group once every member's
     * token IDs are in.
     * \param imsi the UE (group 0)
     * \param group a group, or 0
     */
    void TryPrefill(uint64_t imsi, uint32_t group);
    /**
     * \brief An online group changed: members under way go with its new plan.
     * \param decision the grouper's decision
     * \param target the group's target
     */
    void Regroup(const OnlineGrouper::Decision& decision, uint16_t target);
    /**
     * \brief Set the target's prefill end to a cycle group's batch end.
     * \param group the group
     */
    void SetGroupPrefillEnd(uint32_t group);

    // The cells' events, from their CellPort listeners.

    /**
     * \brief Token IDs arrived at a cell.
     * \param cellId the cell \param imsi the UE \param epoch their epoch
     * \param first the first token \param count how many
     */
    void TokensArrived(uint16_t cellId,
                       uint64_t imsi,
                       uint32_t epoch,
                       uint32_t first,
                       uint32_t count);
    /// Every range of a transfer arrived. \param cellId the cell \param imsi the UE
    /// \param epoch its epoch
    void KvComplete(uint16_t cellId, uint64_t imsi, uint32_t epoch);
    /**
     * \brief A resume deadline's message reached the target (Host::SendWindowEnd): the
     * window is over, and the session resumes on what has arrived (once prefilled).
     * \param cellId the receiving cell \param imsi the UE \param epoch the migration's epoch
     */
    void WindowEndArrived(uint16_t cellId, uint64_t imsi, uint32_t epoch);
    /// A cell's engine ended a prefill. \param cellId the cell \param imsi the UE
    /// \param tokens its tokens \param urgent unused
    void PrefillCompleted(uint16_t cellId, uint64_t imsi, uint64_t tokens, bool urgent);
    /**
     * \brief A cell's receiver took the BEGIN of a token range: with Settings::network,
     * an open transfer's target grows its copy of the context to the range's end.
     * \param cellId the receiving cell \param imsi the UE \param epoch its epoch
     * \param end the range's end, a token index \param open whether the transfer is open
     */
    void KvAnnounced(uint16_t cellId, uint64_t imsi, uint32_t epoch, uint64_t end, bool open);
    /// A cell's engine decoded a token. \param cellId the cell \param imsi the UE
    /// \param index the token
    void TokenGenerated(uint16_t cellId, uint64_t imsi, uint64_t index);

    // What it holds.

    /// \param imsi a UE \return its migration under way, or null
    Migration* Find(uint64_t imsi);
    /// \param imsi a UE \return its migration under way, or null
    const Migration* Find(uint64_t imsi) const;
    /// \return the migrations under way, by IMSI
    const std::map<uint64_t, Migration>& GetAll() const;
    /// \param group an online group \param target its target
    /// \return its members under way that a re-plan may change
    std::vector<OnlineGrouper::Member> GetReplannableMembers(uint32_t group, uint16_t target);
    /// Fill a slot's input with the migrations that transfer, and the epoch of each.
    /// \param input the slot's input \param epochs their epochs, by IMSI
    void GatherSlot(HandoverSlotInput& input, std::map<uint64_t, uint32_t>& epochs);
    /// \return the migrations a slot budgets (those GatherSlot gathers), by IMSI
    std::vector<uint64_t> GetSlotMigrations() const;
    /// \param cellId a cell \return when the prefills planned there end, and their tokens left
    std::pair<Time, uint64_t> GetPrefillForecast(uint16_t cellId) const;
    /**
     * \param cellId a target cell
     * \param except sessions to leave out
     * \return the lengths of the handover prefills planned there and not yet submitted to
     *         its engine (their token IDs are on the way), in IMSI order
     */
    std::vector<uint64_t> GetUnsubmittedPrefills(uint16_t cellId,
                                                 const std::vector<uint64_t>& except) const;
    /// \return handovers kept at the holder because the target's memory was full
    uint32_t GetMemoryFallbacks() const;
    /// \return sessions evicted by target engines to admit incoming ones
    uint32_t GetEvictions() const;

  private:
    /// The target's prefill queue as the plans forecast it.
    struct Forecast
    {
        Time freeAt{0};     //!< end of the handover prefills planned there
        uint64_t queued{0}; //!< tokens of those not yet done
    };

    /// \param imsi a UE \return a new migration whose transitions go to the traces
    Migration NewMigration(uint64_t imsi);
    /// Re-plan a member of an online group. \param imsi the UE \param plan its new plan
    /// \param predicted the group's predicted delay
    void Replan(uint64_t imsi, const SessionPlan& plan, Time predicted);
    /// Withdraw a migration's transfer and raise the session's epoch at every receiver on its
    /// path, but one that hears of it later. \param imsi the UE \param m its migration
    /// \param reason why \param later a receiver told by message instead (0: none)
    /// \return the KV bytes withdrawn
    uint64_t RetireEpoch(uint64_t imsi,
                         const Migration& m,
                         KvDiscardReason reason,
                         uint16_t later = 0);
    /// Schedule a committed migration's resume deadline and stall checks.
    /// \param imsi the UE \param m its migration
    void ScheduleDeadline(uint64_t imsi, Migration& m);
    /// The resume deadline came, at the transfer's source. \param imsi the UE
    /// \param epoch the migration's epoch
    void DeadlineReached(uint64_t imsi, uint32_t epoch);
    /// The window is over where the target learns it (at once with an ideal control plane):
    /// what arrived then is what the session resumes with. \param imsi the UE
    /// \param m its migration
    void CloseWindow(uint64_t imsi, Migration& m);
    /// Look for a stall of a committed migration's transfer.
    /// \param imsi the UE \param record its record index, which outlives re-plans
    void CheckStall(uint64_t imsi, std::size_t record);

    /// What the stall watch sees of a migration's link.
    struct LinkProgress
    {
        uint64_t delivered; //!< bytes of the session delivered so far
        bool inFlight;      //!< bytes of it in TCP are not delivered yet
    };

    /// \param m a migration \return true if the source counts what arrived as what its
    /// sender's peer acknowledged (Settings::network, a direct route), not as what its
    /// target took: the stall watch, and the views at a commit or an end
    bool CountsBySender(const Migration& m) const;
    /// \param imsi the UE \param m its migration
    /// \return its link's progress: at the source, as its sender's peer acknowledged it
    ///         (CountsBySender), else as the target's receiver took it
    LinkProgress GetLinkProgress(uint64_t imsi, const Migration& m);
    /// \param imsi the UE \param m its migration
    /// \return units of its transfer whose KV bytes its sender has no acknowledgement of
    uint64_t UndeliveredUnits(uint64_t imsi, const Migration& m) const;
    /// The policy's view of a migration as it commits or ends (not a slot's). With
    /// Settings::network and a direct route, its receivedBytes are what the target's TCP
    /// acknowledged to the sender. \param imsi the UE \param m its migration \return the view
    MigrationView MakeView(uint64_t imsi, const Migration& m);
    /// Give up on the link: what did not arrive is re-prefilled at the target.
    /// \param imsi the UE \param m its migration
    void Reprefill(uint64_t imsi, Migration& m);
    /// Submit a re-prefill once its IDs are in and its prefix is done.
    /// \param imsi the UE \param m its migration
    void TrySubmitReprefill(uint64_t imsi, Migration& m);
    /// Append an open transfer's tokens up to end (seal: and close it), and grow the target's
    /// context. \param imsi the UE \param m its migration \param end the new end
    /// \param seal true at the handover
    void GrowOpenTransfer(uint64_t imsi, Migration& m, uint64_t end, bool seal);
    /// Resume a session at its target if it may. \param imsi the UE
    void TryResume(uint64_t imsi);
    /// \param imsi the UE \param record its record, with what arrived
    /// \return the KV bytes of its transfer that did not arrive
    uint64_t AbandonedBytes(uint64_t imsi, const HandoverRecord& record) const;
    /// \param from a cell \param to another \return true if from has a KV sender to to
    bool HasKvLink(uint16_t from, uint16_t to) const;
    /// \param m a migration \return the port of the cell its transfer leaves from
    Ptr<CellPort> From(const Migration& m) const;
    /// \param i a record's index \return the record
    HandoverRecord& Record(std::size_t i);

    Host* m_host;                               //!< the coordinator
    Parts m_parts;                              //!< its pieces
    Traces m_traces;                            //!< its trace sources
    std::map<uint64_t, Migration> m_migrations; //!< under way, by IMSI
    std::map<uint64_t, uint32_t> m_epochs;      //!< per session: the last epoch used
    std::map<uint16_t, Forecast> m_forecasts;   //!< per target cell
    uint32_t m_memoryFallbacks{0};              //!< handovers kept at the holder by Fallback
    uint32_t m_evictions{0};                    //!< sessions evicted for incoming ones by Evict
};

} // namespace ns3

#endif /* EDGE_LLM_MIGRATION_LIFECYCLE_H */
