/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_COORDINATOR_H
#define EDGE_LLM_HANDOVER_COORDINATOR_H

#include "cell-directory.h"
#include "cell-port.h"
#include "control-channel.h"
#include "control-message.h"
#include "cross-node-audit.h"
#include "handover-record.h"
#include "handover-recorder.h"
#include "handover-scheduler.h"
#include "kv-cache-profile.h"
#include "kv-transfer-sender.h"
#include "link-failure-handler.h"
#include "migration-lifecycle.h"
#include "migration.h"
#include "online-grouper.h"
#include "oracle-groups.h"
#include "plan-input-builder.h"
#include "ran-observer.h"
#include "relay-paths.h"
#include "slot-clock.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Carries out handover plans: the dispatcher between the RAN, the policy and the
 * migrations.
 *
 * It listens to a RanObserver, asks its HandoverScheduler for plans and hands each plan to its
 * MigrationLifecycle, which carries it out; it holds no scheme logic. It owns the directory of
 * cells (CellPort) and backhaul links, the sessions' KV shapes, the oracle groups and the
 * records. Each migration of a session goes through
 *
 *     (predicted) PREPARED --handover to the predicted target--> COMMITTED --> RESUMED
 *     (handover)            COMMITTED --> RESUMED
 *
 * and ends early in CANCELLED (a newer handover, a wrong or withdrawn prediction), FAILED
 * (the RAN's HandoverFailed) or CLOSED (the UE's release, or its radio link failure).
 * Every step is guarded by the migration's epoch, so late events of an older one change
 * nothing.
 *
 * After a radio link failure, LinkFailurePolicy chooses what the session does: decode on
 * (Continue), wait for the UE to reconnect (Suspend: the same cell resumes it, another cell
 * gets it by a migration planned as a handover from the holder), or end (Close).
 *
 * A migration forwards the token IDs of its prefill prefix and sends its KV ranges on the
 * KV-transfer sender of the link to the target, in the plan's order and unit, with its
 * weight, deadline and priority; the target's engine batch-prefills the prefix once every
 * session of the batch has handed over and its token IDs have arrived. The session resumes
 * at the target once its prefill has ended and either all its KV has arrived (ALL_ARRIVED) or
 * its deadline has passed (AT_DEADLINE): then the transfer's rest is abandoned (withdrawn, or
 * dropped as stale, under KvDiscardReason::WINDOW_END), and the record holds the ranges the
 * target's receiver counted. A prepared plan that keeps the source decoding leaves the
 * transfer open: each 16-token block the source fills is appended, and the last partial
 * block goes with the seal at the handover.
 *
 * It is a global object that acts with zero latency: it reads the servers' state and
 * commands them directly, as if the control messages took no time. The data they exchange
 * (tokens, KV bytes) travels as packets.
 */
class HandoverCoordinator : public Object,
                            private LinkFailureHandler::Host,
                            private PlanInputBuilder::Source,
                            private OnlineGrouper::Host,
                            private MigrationLifecycle::Host
{
  public:
    /// How sessions are grouped into batch prefills.
    enum Batching
    {
        ORACLE, //!< groups known in advance (AddOracleGroup); one plan per group, fixed at tau_1
        ONLINE, //!< each session planned alone when it hands over
    };

    /// How the policy's decisions reach the cells (ControlPlane).
    enum ControlPlaneMode
    {
        IDEAL_CONTROL,   //!< at once: the policy knows and acts everywhere with no delay
        NETWORK_CONTROL, //!< as ControlMessages over the backhaul, through ControlChannels
    };

    /// Where a handover's policy runs (PolicyAt).
    enum PolicyPlacement
    {
        POLICY_AT_SOURCE,     //!< at the source cell's node
        POLICY_AT_TARGET,     //!< at the target cell's node
        POLICY_AT_CONTROLLER, //!< at a controller node (ControlMessage::CONTROLLER)
    };

    /// What a committed migration does when its transfer stalls (see StallTimeout).
    using StallPolicy = MigrationLifecycle::StallPolicy;
    /// Wait for the link: TCP resends once it is back
    static constexpr StallPolicy STALL_WAIT = MigrationLifecycle::STALL_WAIT;
    /// Give up on what did not arrive, and re-prefill it at the target
    static constexpr StallPolicy STALL_REPREFILL = MigrationLifecycle::STALL_REPREFILL;

    /// What a handover does when the target's KV memory is full now (it could hold the
    /// session once others finish).
    using MemoryFullPolicy = MigrationLifecycle::MemoryFullPolicy;
    /// Wait in the target's admission queue; the resume waits for it
    static constexpr MemoryFullPolicy MEMORY_QUEUE = MigrationLifecycle::MEMORY_QUEUE;
    /// Keep the session at the cell that holds its cache, and relay
    static constexpr MemoryFullPolicy MEMORY_FALLBACK = MigrationLifecycle::MEMORY_FALLBACK;
    /// Preempt decoding sessions of the target by recompute to admit it
    static constexpr MemoryFullPolicy MEMORY_EVICT = MigrationLifecycle::MEMORY_EVICT;

    /// What a session does when its UE's radio link fails (RanObserver::RadioLinkFailure).
    using LinkFailurePolicy = LinkFailureHandler::Policy;
    /// The holder decodes on; the client's NACKs recover what the detached UE missed
    static constexpr LinkFailurePolicy LINK_FAILURE_CONTINUE =
        LinkFailureHandler::LINK_FAILURE_CONTINUE;
    /// The session stops decoding until the UE reconnects, or LinkFailureTimeout
    static constexpr LinkFailurePolicy LINK_FAILURE_SUSPEND =
        LinkFailureHandler::LINK_FAILURE_SUSPEND;
    /// The session is closed at once
    static constexpr LinkFailurePolicy LINK_FAILURE_CLOSE = LinkFailureHandler::LINK_FAILURE_CLOSE;

    /// A session closed before its end, after a radio link failure.
    using ClosedSession = LinkFailureHandler::ClosedSession;

    /// Where a migration is: its Migration::Phase.
    using MigrationState = Migration::Phase;
    static constexpr MigrationState NONE = Migration::NONE;           //!< no migration
    static constexpr MigrationState PREPARED = Migration::PREPARED;   //!< Migration::PREPARED
    static constexpr MigrationState COMMITTED = Migration::COMMITTED; //!< Migration::COMMITTED
    static constexpr MigrationState RESUMED = Migration::RESUMED;     //!< Migration::RESUMED
    static constexpr MigrationState CANCELLED = Migration::CANCELLED; //!< Migration::CANCELLED
    static constexpr MigrationState FAILED = Migration::FAILED;       //!< Migration::FAILED
    static constexpr MigrationState CLOSED = Migration::CLOSED;       //!< Migration::CLOSED

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    HandoverCoordinator();
    ~HandoverCoordinator() override;

    /**
     * \brief Take a cell: the port every interaction with it goes through (a LocalCellPort on
     * its server and the KV-transfer endpoints of its node, as EdgeLlmHelper makes).
     * \param cellId the cell's id, >= 1
     * \param port its port; the coordinator listens to it from now on
     */
    void AddCell(uint16_t cellId, Ptr<CellPort> port);

    /**
     * \brief Take a backhaul link between two cells: KV senders both ways.
     *
     * With a scheduler that has a slot hook, each sender's policy must be a
     * SlotBudgetKvTransferPolicy of the same SlotDuration; its budgets are then pulled from
     * the hook, slot by slot.
     * \param cellA a cell added with AddCell
     * \param senderAtoB the sender on A's node towards B
     * \param cellB another cell
     * \param senderBtoA the sender on B's node towards A
     * \param rate the link's rate (what PlannedBackhaulRate = 0 plans with)
     */
    void AddLink(uint16_t cellA,
                 Ptr<KvTransferSender> senderAtoB,
                 uint16_t cellB,
                 Ptr<KvTransferSender> senderBtoA,
                 DataRate rate);

    /**
     * \brief Say which cell a UE's session starts in (where the client opens it).
     * \param imsi the UE
     * \param cellId its first cell
     */
    void SetFirstCell(uint64_t imsi, uint16_t cellId);

    /**
     * \brief Give a session its own KV-cache shape. A session without one weighs what its
     * holder's server serves (EdgeLlmServer::KvCache), or KvBytesPerToken and
     * KvEntriesPerToken where those are set.
     * \param imsi the UE
     * \param profile its model's shape; each field >= 1
     */
    void SetSessionKvProfile(uint64_t imsi, const SessionKvProfile& profile);

    /**
     * \brief Listen to a RAN observer's events: HandoverStarted, UeReady, HandoverFailed,
     * UeReleased and RadioLinkFailure.
     * \param observer the observer
     */
    void Install(Ptr<RanObserver> observer);

    /**
     * \brief Give the control plane a cell's end (ControlPlane network). Messages that arrive
     * at it are the coordinator's from now on.
     * \param cellId the cell \param channel the ControlChannel on its node
     */
    void AddControlChannel(uint16_t cellId, Ptr<ControlChannel> channel);

    /// \return the ControlPlane attribute
    ControlPlaneMode GetControlPlane() const;

    /// \return the PolicyAt attribute
    PolicyPlacement GetPolicyAt() const;

    /// \return handovers whose control messages had no connection to travel on, and which
    /// were planned at once
    uint32_t GetUnroutedControl() const;

    /// \return handovers and prepares whose plan did not come back within PlanTimeout, and
    /// which their source planned alone
    uint32_t GetPlanTimeouts() const;

    /// \return with ControlPlane network, the calls the coordinator made on a cell's server,
    /// engine or KV applications from another node (CrossNodeAudit); empty with ideal
    const CrossNodeAudit& GetCrossNodeAudit() const;

    /**
     * \brief Announce a group of sessions that hand over together (oracle batching).
     *
     * Their first handover is planned as one group when the first of them hands over: the
     * session lengths are taken as the contexts each will have at its expected handover
     * time, and the plan is fixed then. The batch prefill waits for every member's handover,
     * but no longer than OracleGrace past the latest expected time: a member that has not
     * handed over by then is planned alone when it does.
     * \param members (IMSI, expected handover time) of each session; each IMSI in one group
     * \return the group's number, from 1
     */
    uint32_t AddOracleGroup(const std::vector<std::pair<uint64_t, Time>>& members);

    /**
     * \brief A handover is predicted: ask the scheduler's prepare hook, and start what it
     * plans.
     *
     * A prediction for a session that has a migration under way, is not decoding at a server,
     * or whose target is its holder or has no direct link to it, prepares nothing. A newer
     * prediction for a prepared session replaces the old one (which is cancelled).
     *
     * With ControlPlane network and a control connection between the holder and the target
     * (and the controller, with the policy there), the prepare is a PREPARE message that takes
     * the path a handover's notice takes (PolicyAt): the migration is prepared when the plan
     * comes back to the holder, with the latest predicted time (now if that has passed), and
     * the call only asks for it. A second call for the same target while the request is on
     * its way updates the time it will use.
     * \param imsi the UE
     * \param targetCell the predicted target
     * \param expected the predicted handover time (>= now)
     * \return true if a migration was prepared (ideal control plane) or asked for (network)
     */
    bool PrepareHandover(uint64_t imsi, uint16_t targetCell, Time expected);

    /**
     * \brief A prediction is withdrawn: cancel its prepared migration (counted as waste).
     *
     * With ControlPlane network the holder stops sending at once, and the target drops what it
     * received and the memory it holds for the session when the CANCEL message reaches it. A
     * prepare still on its way is withdrawn: its plan, when it comes, is not applied.
     * \param imsi the UE
     * \return true if there was one, prepared or asked for
     */
    bool CancelPrepared(uint64_t imsi);

    /**
     * \brief How to read how many tokens a session's application has had, for the
     * undelivered count of a closed session. Without it, the count relies on the client's
     * acknowledgements, which can lag behind what it delivered (so it may count too many).
     * \param delivered the tokens delivered to the application of a UE, by IMSI
     */
    void SetDeliveredTokensProbe(Callback<uint64_t, uint64_t> delivered);

    /// \return the sessions closed after a radio link failure, by IMSI
    const std::map<uint64_t, ClosedSession>& GetClosedSessions() const;

    /// \return the tokens the closed sessions never delivered, summed over them
    uint64_t GetUndeliveredTokens() const;

    /**
     * \param imsi a UE
     * \return true if its session is suspended: its radio link failed and it waits for
     *         the UE to reconnect
     */
    bool IsSuspended(uint64_t imsi) const;

    /// \return every handover so far (and each prepared migration), in the order they began
    const std::vector<HandoverRecord>& GetRecords() const;

    /**
     * \param imsi a UE
     * \return the state of its migration under way, or NONE
     */
    MigrationState GetMigrationState(uint64_t imsi) const;

    /// \return the scheduler in use
    Ptr<HandoverScheduler> GetScheduler() const override;

    /// \return handovers whose session stayed at its holder because the target's memory was
    /// full then (TargetMemoryFull Fallback)
    uint32_t GetMemoryFallbacks() const;

    /// \return sessions that target engines evicted to admit an incoming one
    /// (TargetMemoryFull Evict); each fires the engine's SessionEvicted
    uint32_t GetEvictions() const;

    /**
     * \param cellA a cell
     * \param cellB another cell
     * \return the KV rate R, tokens/s, the scheduler is told for the link A to B, at the KV
     *         bytes of a token of A's server (or KvBytesPerToken where set)
     */
    double GetPlannedTokensPerSecond(uint16_t cellA, uint16_t cellB) const;

    /**
     * \param cellA a cell
     * \param cellB another cell
     * \return the KV rate, tokens/s at the KV bytes of a token of A's server, that B's receiver
     *         last measured on a migration's transfer from A (the DATA message's goodput:
     *         KvTransferReceiver::SetGoodputCallback), or 0 if none has been measured
     */
    double GetMeasuredTokensPerSecond(uint16_t cellA, uint16_t cellB) const;

    /**
     * \param cellId a target cell
     * \return whether plans for it replay its engine's iterations: EngineForecast is true,
     *         the engine runs Mixed iterations and the control plane is ideal
     */
    bool ReplaysEngine(uint16_t cellId) override;

    /**
     * \brief When urgent prefills would run at a target cell's engine, queued behind the
     * handover prefills planned there: those its engine has (LlmEngine::ForecastPrefills
     * replays its iterations) and those whose token IDs are still on the way, taken as
     * queued first.
     * \param cellId the target cell
     * \param lengths the prefills' lengths, each >= 1
     * \param from when they would be queued, >= now
     * \param replacing sessions whose planned prefills are left out (a re-plan of them)
     * \return one forecast per prefill of lengths
     */
    std::vector<LlmEngine::PrefillForecast> ForecastPrefills(
        uint16_t cellId,
        const std::vector<uint64_t>& lengths,
        Time from,
        const std::vector<uint64_t>& replacing) override;

    /**
     * \param state a state
     * \return its lower-case name, e.g. "committed"
     */
    static std::string StateName(MigrationState state);

    /**
     * TracedCallback signature of HandoverPlanned.
     * \param [in] imsi the UE
     * \param [in] prefillTokens tokens to re-prefill at the target
     * \param [in] transferTokens tokens whose KV cache is sent
     */
    typedef void (*PlannedTracedCallback)(uint64_t imsi,
                                          uint64_t prefillTokens,
                                          uint64_t transferTokens);

    /**
     * TracedCallback signature of SessionResumed.
     * \param [in] imsi the UE
     * \param [in] cellId the cell that decodes it now
     * \param [in] delay time from HandoverStart to the resume
     */
    typedef void (*ResumedTracedCallback)(uint64_t imsi, uint16_t cellId, Time delay);

    /**
     * TracedCallback signature of MigrationCancelled.
     * \param [in] imsi the UE
     * \param [in] epoch the cancelled epoch
     * \param [in] bytes KV bytes withdrawn before they reached TCP
     */
    typedef void (*CancelledTracedCallback)(uint64_t imsi, uint32_t epoch, uint64_t bytes);

    /**
     * TracedCallback signature of MigrationState.
     * \param [in] imsi the UE
     * \param [in] epoch the migration's epoch
     * \param [in] from the state it leaves (a MigrationState)
     * \param [in] to the state it enters
     */
    typedef void (*StateTracedCallback)(uint64_t imsi, uint32_t epoch, int from, int to);

    /**
     * TracedCallback signature of TransferStalled.
     * \param [in] imsi the UE
     * \param [in] epoch the transfer's epoch
     * \param [in] missingTokens tokens whose KV cache had not arrived
     * \param [in] reprefill true if they are re-prefilled at the target now (StallPolicy
     *        Reprefill), false if the migration waits for the link
     */
    typedef void (*StalledTracedCallback)(uint64_t imsi,
                                          uint32_t epoch,
                                          uint64_t missingTokens,
                                          bool reprefill);

    /**
     * TracedCallback signature of MigrationReplanned.
     * \param [in] imsi the UE
     * \param [in] epoch the transfer's new epoch
     * \param [in] bytes KV bytes of the old plan withdrawn (never handed to TCP)
     */
    typedef void (*ReplannedTracedCallback)(uint64_t imsi, uint32_t epoch, uint64_t bytes);

    /**
     * TracedCallback signature of SessionSuspended.
     * \param [in] imsi the UE
     * \param [in] cellId the cell that holds the session
     */
    typedef void (*SuspendedTracedCallback)(uint64_t imsi, uint16_t cellId);

    /**
     * TracedCallback signature of SessionReattached.
     * \param [in] imsi the UE
     * \param [in] cellId the cell the UE reconnected to
     * \param [in] detached how long the session was suspended
     */
    typedef void (*ReattachedTracedCallback)(uint64_t imsi, uint16_t cellId, Time detached);

    /**
     * TracedCallback signature of SessionClosed.
     * \param [in] imsi the UE
     * \param [in] delivered tokens its application had had
     * \param [in] undelivered tokens it was to generate that never reached its application
     */
    typedef void (*ClosedTracedCallback)(uint64_t imsi, uint64_t delivered, uint64_t undelivered);

    /**
     * TracedCallback signature of ControlDelay.
     * \param [in] imsi the UE \param [in] sourceCell its source \param [in] targetCell its
     * target
     * \param [in] delay from the RAN's handover start to when the policy's plan reached the
     * source, its control messages' one-way delays
     */
    typedef void (*ControlDelayTracedCallback)(uint64_t imsi,
                                               uint16_t sourceCell,
                                               uint16_t targetCell,
                                               Time delay);

    /**
     * TracedCallback signature of CrossNodeCall.
     * \param [in] site the coordinator's function that made the call
     * \param [in] acting the cell the action ran at (ControlMessage::CONTROLLER: the
     * controller's node; CrossNodeAudit::NOWHERE: not known)
     * \param [in] cellId the cell whose port it called
     */
    typedef void (*CrossNodeCallTracedCallback)(const std::string& site,
                                                uint16_t acting,
                                                uint16_t cellId);

  protected:
    /// Cancels the slot tick and drops the scheduler, the cells and the KV senders.
    void DoDispose() override;

  private:
    // The RAN's events (handover-coordinator-ran.cc).
    void HandoverStarted(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell);
    /// HandoverStarted, for a handover the RAN started at a given time (earlier than now when
    /// its plan waited for control messages). \param imsi the UE \param sourceCell its source
    /// \param targetCell its target \param at when the RAN started it
    void StartHandover(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell, Time at);

    // The control plane on the network (handover-coordinator-control.cc).
    /// A RAN event, as the cell where it happened reports it. \param event what
    /// \param imsi the UE \param cellId where \param about the target (a handover's start)
    /// \param value the failure's reason (a failed handover)
    void Notice(ControlMessage::RanEvent event,
                uint64_t imsi,
                uint16_t cellId,
                uint16_t about,
                uint64_t value);
    /// The RAN's HandoverStarted, as a notice. \param imsi the UE \param sourceCell its
    /// source \param targetCell its target
    void NoticeStarted(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell);
    /// The RAN's UeReady, as a notice. \param imsi the UE \param cellId where
    void NoticeReady(uint64_t imsi, uint16_t cellId);
    /// The RAN's HandoverFailed, as a notice. \param imsi the UE \param cellId where
    /// \param why the reason
    void NoticeFailed(uint64_t imsi, uint16_t cellId, RanObserver::HandoverFailureReason why);
    /// The RAN's UeReleased, as a notice. \param imsi the UE \param cellId where
    void NoticeReleased(uint64_t imsi, uint16_t cellId);
    /// The RAN's RadioLinkFailure, as a notice. \param imsi the UE \param cellId where
    void NoticeLinkFailure(uint64_t imsi, uint16_t cellId);
    /// The RAN's HandoverDone, as a notice. \param imsi the UE \param targetCell where
    void NoticeDone(uint64_t imsi, uint16_t targetCell);
    /// A message arrived at a cell's node. \param cellId the cell \param m the message
    /// \param delay its one-way delay
    void ControlArrived(uint16_t cellId, const ControlMessage& m, Time delay);
    /// A UE's event may be acted on: acts on it and on the held ones after it, in the order
    /// they happened. \param m its NOTICE
    void Deliver(const ControlMessage& m);
    /// Act on a RAN event. \param m its NOTICE
    void Dispatch(const ControlMessage& m);
    /// A migration just started: with the policy at its source, its target gets the plan's
    /// prefill request as a message. \param imsi the UE \param sourceCell the policy's cell
    /// \param targetCell its target
    void RequestPrefill(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell);
    /// A prefill request arrived at its target. \param cellId the target \param m it
    void PrefillRequestArrived(uint16_t cellId, const ControlMessage& m);
    /// A resume notice arrived at the old holder. \param cellId the holder \param m it
    void ResumeNoticeArrived(uint16_t cellId, const ControlMessage& m);
    /// \param a a node's id (a cell, or ControlMessage::CONTROLLER) \param b another
    /// \return true if a control connection joins them both ways
    bool HasControlPath(uint16_t a, uint16_t b) const;
    /// At the controller: a handover's notice arrived; the target is asked for memory.
    /// \param m the notice
    void ControllerNoticed(const ControlMessage& m);
    /// \param notice a handover's NOTICE \return the RESERVE that asks its target for memory
    static ControlMessage ReserveFor(const ControlMessage& notice);
    /// At the controller: the target answered; the plan goes to both cells. \param m the answer
    void ControllerAnswered(const ControlMessage& m);
    /// At a handover's target: its report, the item its answer or plan carries.
    /// \param cellId the target \param m the RESERVE, NOTICE or PREPARE it answers
    /// \return the item: the microseconds to the end of its engine's iteration
    ControlMessage::Item TargetReport(uint16_t cellId, const ControlMessage& m);
    /// The controller's plan reached the target: its prefill may start. \param m the PLAN
    void PlanArrivedAtTarget(const ControlMessage& m);
    /// PrepareHandover's work, where the holder applies the prepare. \param imsi the UE
    /// \param targetCell the predicted target \param expected the predicted time (>= now)
    /// \return true if a migration was prepared
    bool ApplyPrepare(uint64_t imsi, uint16_t targetCell, Time expected);
    /// A prepare's plan is back at the holder. \param m the PREPARE, as asked
    void PrepareArrived(const ControlMessage& m);
    /// A cancel reached a prepared migration's target. \param cellId the target \param m it
    void CancelArrived(uint16_t cellId, const ControlMessage& m);
    /// The target's part of a cancel, now: it expects the next epoch, and drops the session
    /// unless it holds it. \param imsi the UE \param target the cell \param next the epoch
    void CancelAtTarget(uint64_t imsi, uint16_t target, uint32_t next);
    /// A cancel still on its way to a cell is done now. \param imsi the UE \param target
    /// the cell
    void SettleCancel(uint64_t imsi, uint16_t target);
    /// One of a UE's events, numbered in its order and timed now. \param type NOTICE or
    /// PREPARE \param code a NOTICE's RanEvent \param imsi the UE \param cellId where it
    /// happens \param about the target \param value its value \return the message
    ControlMessage NewEvent(ControlMessage::Type type,
                            uint8_t code,
                            uint64_t imsi,
                            uint16_t cellId,
                            uint16_t about,
                            uint64_t value);
    /// The first of a handover's or a prepare's messages to the policy's node, as its source
    /// sends it; at once where there is no control connection. \param m a NOTICE of
    /// HANDOVER_STARTED, or a PREPARE
    void SendToPolicy(const ControlMessage& m);
    /// A handover's or a prepare's plan is applied at its source now: its target's answer,
    /// if any, is what its plan reads. \param m its NOTICE or PREPARE
    void UseAnswer(const ControlMessage& m);
    /// PlanTimeout passed since a handover's or a prepare's first message: unless its plan
    /// came back, the source plans alone. \param m its NOTICE or PREPARE
    void PlanTimedOut(const ControlMessage& m);

    // Reservations: a target admits a session when the reservation that sizes it arrives
    // (handover-coordinator-reserve.cc).
    /// \param imsi a UE \param cellId the cell that sends a handover's notice or a prepare
    /// \return the session's size there as the message's item, if the cell holds a session
    /// with tokens left whose size fits the item; else none
    std::vector<ControlMessage::Item> SizeAt(uint64_t imsi, uint16_t cellId);
    /// At a handover's target, as a reservation (or the notice or prepare it plans) arrives:
    /// the session is admitted with the size it carries, unless the cell holds it already.
    /// \param cellId the target \param m the RESERVE, NOTICE or PREPARE
    /// \return the answer's code (ControlMessage::AdmissionCode)
    uint8_t ReserveAt(uint16_t cellId, const ControlMessage& m);
    /// A reservation admitted a session that no migration took: its target frees it.
    /// \param imsi the UE \param at the cell that sends the release
    /// \param target the target \param notice the reservation's event number
    void SendRelease(uint64_t imsi, uint16_t at, uint16_t target, uint32_t notice);
    /// A release reached a target. \param cellId the target \param m the RELEASE
    void ReleaseArrived(uint16_t cellId, const ControlMessage& m);
    /// A handover or prepare was acted on at its source: an admission its answer reported and
    /// no migration took is released. \param m its NOTICE or PREPARE
    void ReleaseUnused(const ControlMessage& m);
    std::optional<LlmEngine::Admission> TakeAdmission(uint64_t imsi, uint16_t target) override;

    // A slot scheduler's budgets set away from the senders (handover-coordinator-budget.cc).
    /// The node that sets a migration's slot budgets. \param m the migration
    /// \return a cell, or ControlMessage::CONTROLLER
    uint16_t AllocatorOf(const Migration& m) const;
    /// A slot begins: each sender reports its progress to its allocator. \param slot the
    /// slot's number \return true while a transfer is open
    bool ReportProgress(uint64_t slot);
    /// Set a slot's budgets at an allocator, from what its senders reported.
    /// \param allocator the node \param slot the slot's number
    void SetBudgets(uint16_t allocator, uint64_t slot);
    /// A sender's report arrived at its allocator. \param cellId the allocator's node
    /// \param m the PROGRESS
    void ProgressArrived(uint16_t cellId, const ControlMessage& m);
    /// Budgets arrived at their sender. \param cellId the sender's cell \param m the BUDGET
    void BudgetArrived(uint16_t cellId, const ControlMessage& m);
    /// (imsi, epoch, value) of each session of a batch message
    using ControlBatch = std::vector<std::tuple<uint64_t, uint32_t, uint64_t>>;
    /**
     * \brief Send a batch as messages of at most ControlMessage::MAX_ITEMS items; a value
     * above 32 bits goes as several items of the session, which add up.
     * \param from the sending node \param to the receiving node \param head the head
     * \param values (imsi, epoch, value) of each session
     * \return the messages sent
     */
    uint32_t SendBatch(uint16_t from,
                       uint16_t to,
                       const ControlMessage& head,
                       const ControlBatch& values);
    /// StartHandover's work; the caller then watches the record for its milestones.
    /// \param imsi the UE \param sourceCell its source \param targetCell its target
    /// \param at when the RAN started it: the record's hoStart, its deadline's origin
    void PlanHandover(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell, Time at);
    void UeReady(uint64_t imsi, uint16_t cellId);
    void HandoverFailed(uint64_t imsi, uint16_t cellId, RanObserver::HandoverFailureReason why);
    /// A handover failed, acted on at a cell. \param imsi the UE \param cellId where it failed
    /// \param why the reason \param at the cell that acts: cellId, or the holder it told
    void HandoverFailedAt(uint64_t imsi,
                          uint16_t cellId,
                          RanObserver::HandoverFailureReason why,
                          uint16_t at);
    /// A UE was released. \param imsi the UE \param at the cell that acts: where it was
    /// released, or the holder it told
    void UeReleased(uint64_t imsi, uint16_t at);
    /// A UE's radio link failed: the LinkFailureHandler decides.
    void RadioLinkFailure(uint64_t imsi, uint16_t cellId);
    /// A UE's radio link failed, acted on at a cell. \param imsi the UE \param cellId where
    /// \param at the cell that acts: cellId, or the holder it told
    void RadioLinkFailureAt(uint64_t imsi, uint16_t cellId, uint16_t at);

    /**
     * \brief A cell's receiver timed a DATA message: kept as the goodput of the path from the
     * migration's holder, if the message is of its current transfer to this cell.
     * \param cellId the receiving cell \param imsi the UE \param epoch the message's epoch
     * \param bytes payload bytes after its first read \param span from that read to its last
     */
    void KvGoodput(uint16_t cellId, uint64_t imsi, uint32_t epoch, uint64_t bytes, Time span);

    // What the LinkFailureHandler asks of the coordinator.
    uint16_t HolderOf(uint64_t imsi) const override; // also the PlanInputBuilder's
    bool GetReportedFreeKv(uint16_t cellId, uint64_t& tokens) const override;
    Time GetTargetIterationEnd(uint16_t cellId) override; // the OnlineGrouper's
    Ptr<CellPort> PortOf(uint16_t cellId, const char* site = __builtin_FUNCTION()) override;
    Ptr<const CellPort> ConfigOf(uint16_t cellId) const override;
    bool HasMigration(uint64_t imsi) const override;
    void CloseMigration(uint64_t imsi, uint16_t at) override;
    void Handover(uint64_t imsi, uint16_t from, uint16_t to) override;
    void RouteTo(uint64_t imsi, uint16_t cellId) override;
    void SessionClosed(uint64_t imsi) override;

    // What the MigrationLifecycle asks of the coordinator.
    MigrationLifecycle::Settings GetMigrationSettings() const override;
    bool IsGroupComplete(uint32_t group) const override;
    bool IsPrefillRequested(uint64_t imsi) const override;
    void AwaitReconnect(uint64_t imsi, uint16_t cellId) override;
    void ReleaseHolder(uint64_t imsi, uint16_t holder, uint16_t target) override;
    void SettleRelease(uint64_t imsi, uint16_t target) override;
    bool TellsByMessage(uint16_t at, uint16_t target) const override;
    void SendCancel(uint64_t imsi, uint16_t at, uint16_t target, uint32_t next) override;
    void SendWindowEnd(uint64_t imsi, uint16_t at, uint16_t target, uint32_t epoch) override;

    /// \return the scheduler, made on first use if none was set
    Ptr<HandoverScheduler> Scheduler() const;
    /// An oracle group's batch goes without the members that did not hand over.
    /// \param group the group
    void GroupReleased(uint32_t group);
    /// Plan a session alone (group 0), or fix its oracle group's plan. \return the plan
    HandoverPlan PlanFor(uint64_t imsi, uint16_t holder, uint16_t target, uint32_t group);
    std::vector<OnlineGrouper::Member> GetReplannableMembers(uint32_t group,
                                                             uint16_t target) override;
    uint32_t NewGroupNumber() override;
    /// \return the KV-cache shape of a session
    SessionKvProfile GetKvProfile(uint64_t imsi) const override;

    // What the PlanInputBuilder reads (handover-coordinator-input.cc).
    const std::map<std::pair<uint16_t, uint16_t>, DataRate>& GetLinkRates() const override;
    std::pair<Time, uint64_t> GetPrefillForecast(uint16_t cellId) override;
    const std::map<uint64_t, Migration>& GetMigrations() const override;
    const HandoverRecord& GetRecord(std::size_t i) const override;
    /// \return the planned rate of a link, bit/s
    double GetPlannedRateBps(uint16_t from, uint16_t to) const override;

    mutable Ptr<HandoverScheduler> m_scheduler; //!< Scheduler (made on first use if unset)
    Batching m_batching;                        //!< Batching
    DataRate m_plannedRate;                     //!< PlannedBackhaulRate
    uint64_t m_kvBytesPerToken;                 //!< KvBytesPerToken
    uint32_t m_kvEntriesPerToken;               //!< KvEntriesPerToken
    uint64_t m_kvEntryBytes;                    //!< KvEntryBytes
    Time m_oracleGrace;                         //!< OracleGrace
    StallPolicy m_stallPolicy;                  //!< StallPolicy
    Time m_stallTimeout;                        //!< StallTimeout
    MemoryFullPolicy m_memoryFull;              //!< TargetMemoryFull
    uint32_t m_openTransferStep{1};             //!< OpenTransferStep
    LinkFailurePolicy m_linkFailurePolicy;      //!< LinkFailurePolicy
    Time m_linkFailureTimeout;                  //!< LinkFailureTimeout
    bool m_engineForecast{true};                //!< EngineForecast

    CellDirectory m_directory;                   //!< cells, links, KV shapes
    RelayPaths m_paths;                          //!< per session: holder, then relays
    OracleGroups m_groups;                       //!< oracle groups, and cycle groups' numbers
    HandoverRecorder m_recorder;                 //!< every handover
    std::map<uint64_t, uint16_t> m_reconnecting; //!< failed or closed: IMSI to cell it left

    TracedCallback<uint64_t, uint64_t, uint64_t> m_plannedTrace;       //!< HandoverPlanned
    TracedCallback<uint64_t, uint16_t, Time> m_resumedTrace;           //!< SessionResumed
    TracedCallback<uint64_t, uint32_t, uint64_t> m_cancelledTrace;     //!< MigrationCancelled
    Migration::PhaseTrace m_stateTrace;                                //!< MigrationState
    Migration::TransitionTrace m_transitionTrace;                      //!< MigrationTransition
    TracedCallback<uint64_t, uint32_t, uint64_t> m_replannedTrace;     //!< MigrationReplanned
    TracedCallback<uint64_t, uint32_t, uint64_t, bool> m_stalledTrace; //!< TransferStalled
    TracedCallback<uint64_t, uint16_t> m_suspendedTrace;               //!< SessionSuspended
    TracedCallback<uint64_t, uint16_t, Time> m_reattachedTrace;        //!< SessionReattached
    TracedCallback<uint64_t, uint64_t, uint64_t> m_closedTrace;        //!< SessionClosed

    ControlPlaneMode m_controlPlane{IDEAL_CONTROL};     //!< ControlPlane
    PolicyPlacement m_policyAt{POLICY_AT_SOURCE};       //!< PolicyAt
    std::map<uint16_t, Ptr<ControlChannel>> m_channels; //!< the control plane's ends
    std::map<uint64_t, uint32_t> m_noticesMade;         //!< per UE: notices numbered
    std::map<uint64_t, uint32_t> m_noticesDone;         //!< per UE: notices acted on
    std::map<uint64_t, std::map<uint32_t, ControlMessage>> m_noticesHeld; //!< arrived early
    std::map<std::pair<uint64_t, uint32_t>, Time> m_noticeTimes;          //!< when each happened
    uint32_t m_unroutedControl{0};                                        //!< GetUnroutedControl
    Time m_planTimeout{0};                                                //!< PlanTimeout
    uint32_t m_planTimeouts{0};                                           //!< GetPlanTimeouts
    /// Handovers and prepares planned alone after PlanTimeout, by (imsi, notice)
    std::set<std::pair<uint64_t, uint32_t>> m_plannedAlone;

    /// A prefill request on its way: the migration's record, and (policy at the controller)
    /// the notice of the handover whose plan carries it
    struct PendingPrefill
    {
        std::size_t record{0}; //!< the migration's record
        uint32_t notice{0};    //!< its handover's notice
    };

    std::map<uint64_t, PendingPrefill> m_prefillPending; //!< per UE: a request on its way
    TracedCallback<uint64_t, uint16_t, uint16_t, Time> m_controlDelayTrace; //!< ControlDelay
    CrossNodeAudit m_audit; //!< calls on another node's cell (ControlPlane network)
    TracedCallback<const std::string&, uint16_t, uint16_t> m_crossNodeTrace; //!< CrossNodeCall
    /// Per UE: the old holder a resume notice is on its way to, and the notice's number
    std::map<uint64_t, std::pair<uint16_t, uint32_t>> m_releasePending;
    std::map<uint64_t, uint32_t> m_releasesMade; //!< per UE: resume notices numbered
    /// At the controller: each handover's (source, target), by (imsi, notice)
    std::map<std::pair<uint64_t, uint32_t>, std::pair<uint16_t, uint16_t>> m_controllerPending;
    /// Handovers whose plan reached the target before the source applied it, by (imsi, notice)
    std::set<std::pair<uint64_t, uint32_t>> m_planAtTarget;
    uint32_t m_startingNotice{0}; //!< the notice of the handover being started

    /// A prepare asked for, on its way: its target, its notice, the latest predicted time
    struct PendingPrepare
    {
        uint16_t target{0}; //!< the predicted target
        uint32_t notice{0}; //!< the PREPARE's number in the UE's events
        Time expected{0};   //!< the latest predicted handover time
    };

    std::map<uint64_t, PendingPrepare> m_preparesAsked; //!< per UE: a prepare on its way
    /// Cancels on their way: by (imsi, target), the epoch each carries
    std::map<std::pair<uint64_t, uint16_t>, uint32_t> m_cancelPending;

    /// What a target reported of itself in its answer or plan
    struct AnswerReport
    {
        uint64_t freeKvTokens{0};         //!< its free KV memory, tokens
        std::optional<Time> iterationEnd; //!< its engine's iteration end, if the item came
        uint8_t admission{ControlMessage::NOT_RESERVED}; //!< its AdmissionCode
    };

    /// The targets' answers and plans back at their sources, by (imsi, notice)
    std::map<std::pair<uint64_t, uint32_t>, AnswerReport> m_answers;
    /// While a handover or prepare is acted on: what its target reported, by cell (its
    /// admission until a Start takes it; the reservation is m_startingNotice's)
    std::map<uint16_t, AnswerReport> m_answered;
    /// At the targets: the sessions admitted by a reservation that no migration took yet, by
    /// (imsi, cell), with the reservation's event number
    std::map<std::pair<uint64_t, uint16_t>, uint32_t> m_reserved;
    /// Slot budgets set away from the senders, keyed by a migration's (imsi, epoch):
    using EpochKey = std::pair<uint64_t, uint32_t>;
    std::map<EpochKey, uint64_t> m_progressSent;  //!< at the sender: bytes reported so far
    std::map<EpochKey, uint64_t> m_progressKnown; //!< at the allocator: bytes reported to it
    std::map<EpochKey, uint64_t> m_receivedSent;  //!< at a target: arrivals reported so far
    std::map<EpochKey, uint64_t> m_receivedKnown; //!< at the allocator: arrivals reported to it
    /// At the allocator: each link's KV backlog its sender last reported, by (allocator,
    /// sender, peer)
    std::map<std::tuple<uint16_t, uint16_t, uint16_t>, uint64_t> m_backlogKnown;
    /// Reports an allocator waits for before it sets a slot's budgets: (allocator, slot) ->
    /// messages still on their way
    std::map<std::pair<uint16_t, uint64_t>, uint32_t> m_reportsAwaited;

    LinkFailureHandler m_linkFailures; //!< what a radio link failure does
    SlotClock m_slotClock;             //!< the slot hook's clock
    PlanInputBuilder m_inputs;         //!< the views the scheduler plans with
    OnlineGrouper m_online;            //!< the online cycle groups' plans and batches
    MigrationLifecycle m_lifecycle;    //!< the migrations under way, from start to end
};

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_COORDINATOR_H */
