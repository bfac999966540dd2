/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_MIGRATION_H
#define EDGE_LLM_MIGRATION_H

#include "handover-plan.h"

#include "ns3/event-id.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One migration of one session's KV cache to a handover's target, for one plan.
 *
 * Its state has four regions that advance independently and are always explicit:
 * - the Phase: where the migration is in the handover's life (prepared, committed, resumed,
 *   or ended before that);
 * - the PrefillStep: the target's prefill of the plan's prefix (and of what a stalled link
 *   did not bring), which cannot start before its token IDs have arrived;
 * - the KvStep: the transfer of the plan's KV ranges over the backhaul;
 * - the LinkWatch: whether the stall check of a committed migration found its link silent.
 *
 * Every transition of any region goes through SwitchToState, which logs it and fires the
 * Transition trace (and the Phase trace when the phase changes). The events are named for
 * what happened (IdsArrived, PrefillEnded, KvArrived, DeadlineReached, ...); an event that
 * cannot happen in the current state stops the run, so a broken invariant is not carried on
 * silently. The session resumes at the target when CanResume holds: committed, prefilled,
 * and its KV all arrived or its window over.
 *
 * The migration owns its timers (deadline and stall check), which it cancels when it ends.
 * Its record is a HandoverRecord that the coordinator keeps, by index.
 */
class Migration
{
  public:
    /// Where the migration is in the handover's life.
    enum Phase
    {
        NONE,      //!< no migration
        PREPARED,  //!< started before a predicted handover
        COMMITTED, //!< the handover has happened; the target is recovering the session
        RESUMED,   //!< the target decodes the session (terminal)
        CANCELLED, //!< replaced by a newer handover, or a prediction proved wrong (terminal)
        FAILED,    //!< the handover failed; the holder decodes on (terminal)
        CLOSED,    //!< the UE was released or its link failed (terminal)
    };

    /// The target's prefill of the session's prefix, and of a re-prefill after a stall.
    enum class PrefillStep : uint8_t
    {
        NOT_NEEDED,   //!< nothing to prefill
        AWAITING_IDS, //!< the token IDs are on their way to the target
        READY,        //!< the IDs are in; it waits for its batch
        QUEUED,       //!< in the target engine's queue, or running
        /// The prefix is queued or running; the re-prefill's IDs are on their way
        QUEUED_THEN_AWAITING_IDS,
        /// The prefix is queued or running; the re-prefill's IDs are in
        QUEUED_THEN_READY,
        REPREFILL_AWAITING_IDS, //!< the prefix is done; the re-prefill's IDs are on their way
        REPREFILL_READY,        //!< the prefix is done and the IDs are in: submit it now
        DONE,                   //!< every prefill of it has ended
    };

    /// The transfer of the plan's KV ranges.
    enum class KvStep : uint8_t
    {
        NOTHING_TO_SEND, //!< the plan sends no KV
        OPEN,            //!< it grows with the blocks the source decodes, until the seal
        IN_FLIGHT,       //!< sent or queued, not all arrived
        WINDOW_OVER,     //!< not all arrived, and the resume deadline has passed
        ARRIVED,         //!< every range has arrived at the target
        GIVEN_UP,        //!< stalled and abandoned: what did not arrive is re-prefilled
    };

    /// The stall check of a committed migration's link.
    enum class LinkWatch : uint8_t
    {
        IDLE,     //!< not watched
        WATCHING, //!< checked every StallTimeout; the last check saw progress
        STALLED,  //!< the last check saw no byte arrive while some were due
    };

    /// The whole state.
    struct State
    {
        Phase phase{NONE};                            //!< the phase
        PrefillStep prefill{PrefillStep::NOT_NEEDED}; //!< the prefill
        KvStep kv{KvStep::NOTHING_TO_SEND};           //!< the transfer
        LinkWatch link{LinkWatch::IDLE};              //!< the link's stall check

        /// \param o another state \return true if equal in every region
        bool operator==(const State& o) const;
        /// \param o another state \return true if they differ in a region
        bool operator!=(const State& o) const;
        /// \return e.g. "committed/queued/in-flight/watching"
        std::string ToString() const;
    };

    /**
     * TracedCallback signature of a transition.
     * \param [in] imsi the UE
     * \param [in] epoch the migration's epoch
     * \param [in] from the state it leaves
     * \param [in] to the state it enters
     */
    typedef void (*TransitionTracedCallback)(uint64_t imsi,
                                             uint32_t epoch,
                                             const State& from,
                                             const State& to);

    /// A trace of transitions
    using TransitionTrace = TracedCallback<uint64_t, uint32_t, const State&, const State&>;
    /// A trace of phase changes: (imsi, epoch, from, to) as Phase values
    using PhaseTrace = TracedCallback<uint64_t, uint32_t, int, int>;

    /// Where a migration reports its transitions: the owner's trace sources.
    struct Traces
    {
        TransitionTrace* transition{nullptr}; //!< every transition, of any region
        PhaseTrace* phase{nullptr};           //!< every change of phase
    };

    /// \param phase a phase \return its lower-case name, e.g. "committed"
    static std::string PhaseName(Phase phase);
    /// \param step a prefill step \return its lower-case name, e.g. "awaiting-ids"
    static std::string StepName(PrefillStep step);
    /// \param step a KV step \return its lower-case name, e.g. "in-flight"
    static std::string StepName(KvStep step);
    /// \param watch a link watch \return its lower-case name, e.g. "stalled"
    static std::string StepName(LinkWatch watch);

    /// A migration that has not begun (NONE): for containers.
    Migration();

    /**
     * \param imsi the UE whose session moves
     * \param traces where its transitions are reported (each may be null); they must
     *        outlive it
     */
    Migration(uint64_t imsi, Traces traces);

    /**
     * \brief Begin: NONE to PREPARED or COMMITTED.
     * \param prepared true before a predicted handover
     * \param prefillTokens tokens of the prefix to prefill (its IDs are forwarded)
     * \param kvToSend true if the plan sends KV ranges now
     * \param open true if the transfer grows with the source's blocks until the seal
     */
    void Begin(bool prepared, uint64_t prefillTokens, bool kvToSend, bool open);

    /// The predicted handover happened: PREPARED to COMMITTED. An open transfer is sealed.
    void Commit();

    /// The session decodes at the target now: COMMITTED to RESUMED.
    void Resume();

    /// It ends before its resume. \param phase CANCELLED, FAILED or CLOSED
    void End(Phase phase);

    // Prefill events.

    /// The token IDs it waits for have arrived at the target.
    void IdsArrived();
    /// Its prefix went into the target's engine (READY to QUEUED).
    void PrefillQueued();
    /// Its queued prefix came out of the engine's queue, to go in with a later batch.
    void PrefillUnqueued();
    /// The target's engine ended a prefill of it.
    void PrefillEnded();
    /**
     * \brief A stalled transfer is given up on: what did not arrive is re-prefilled.
     * \param tokens the tokens to re-prefill
     * \param idsSent true if their IDs (and the prefix's, if needed) were sent in a message
     */
    void GiveUpOnLink(uint64_t tokens, bool idsSent);
    /**
     * \brief Take the re-prefill that may go to the engine now (REPREFILL_READY to QUEUED).
     * \return its tokens, 0 if none may go
     */
    uint64_t TakeReprefill();
    /**
     * \brief A re-plan replaced its plan.
     * \param prefix the new prefix, tokens
     * \param idsSent true if the new prefix's IDs were sent
     * \param kvToSend true if the new plan sends KV ranges
     */
    void Replanned(uint64_t prefix, bool idsSent, bool kvToSend);

    // Transfer events.

    /// Every range of its transfer has arrived.
    void KvArrived();
    /// Its resume deadline has come (AT_DEADLINE).
    void DeadlineReached();
    /// Its link is watched for stalls from now on (IDLE to WATCHING).
    void WatchLink();
    /// Its link needs no more watching: nothing more is due from it.
    void StopWatchingLink();
    /**
     * \brief Note what a stall check of a committed migration saw.
     * \param stalled true if no byte arrived while some were due
     */
    void LinkChecked(bool stalled);

    // What the state says.

    /// \return the whole state
    const State& GetState() const;
    /// \return the phase
    Phase GetPhase() const;
    /// \return true if the token IDs its next prefill needs are at the target
    bool IdsIn() const;
    /// \return true if no prefill of it is pending
    bool PrefillDone() const;
    /// \return true if a prefill of it has gone to the engine (queued, running or ended)
    bool HasSubmittedPrefill() const;
    /// \return true if it holds a prefill that may go in a batch now (READY)
    bool ReadyForBatch() const;
    /// \return true if its prefix is in the engine's queue or running, with nothing after it
    bool IsPrefillQueued() const;
    /// \return true if no more KV is due: all arrived, none sent, or given up
    bool KvDone() const;
    /// \return true if the transfer grows with the source's blocks
    bool IsOpen() const;
    /// \return true if the transfer was given up on (GIVEN_UP)
    bool GaveUpOnLink() const;
    /// \return true if its KV had not all arrived when its resume deadline passed
    bool IsWindowOver() const;
    /// \return true if the last stall check found the link silent
    bool IsStalled() const;
    /// \return true if it may resume at the target now
    bool CanResume() const;
    /// \return the tokens of the re-prefill that waits for the prefix or its IDs
    uint64_t GetPendingReprefill() const;
    /// \return the tokens a transfer given up on re-prefills (GiveUpOnLink); 0 before
    uint64_t GetReprefillTokens() const;

    /// \return the UE
    uint64_t GetImsi() const;

    /// Cancel its timers (at its end).
    void CancelTimers();

    // What it moves, and how (set by the coordinator that carries it out).

    uint32_t epoch{0};              //!< its epoch
    std::vector<uint16_t> route;    //!< cells the tokens cross, holder first, target last
    SessionPlan plan;               //!< its plan
    uint64_t openEnd{0};            //!< end of the tokens appended to an open transfer
    uint64_t openStep{1};           //!< tokens an open transfer appends at a time, from its start
    uint64_t sentAtStart{0};        //!< the sender's sent counter at its start
    uint64_t receivedAtStart{0};    //!< the target receiver's received counter then
    uint64_t deliveredKvAtStart{0}; //!< the sender's deliveredKv counter then
    double expectedS{0};            //!< the (expected) handover time it was planned for, s
    uint64_t nextToken{0};          //!< index of the first token after the stop
    /// An epoch before a re-plan whose TOKENS, written to TCP already, still serve it
    uint32_t tokensEpoch{0};
    std::size_t record{0}; //!< index of its HandoverRecord
    // What its epoch does. The coordinator decides from these; its record only reports them.
    uint32_t group{0};                      //!< its cycle group; 0 for none
    uint64_t prefillTokens{0};              //!< the prefix it prefills at the target, tokens
    std::vector<TokenRange> transferRanges; //!< the KV ranges it sends, in its plan's units
    uint64_t stallSeenReceived{0};          //!< what the stall watch counted at its last check
    /// What it resumes with was fixed at its window's end, before the resume (which a late
    /// prefix holds): KV that arrives after it does not count
    bool arrivalsFixed{false};
    /// The epoch whose KV its source withdrew at the window's end, before the target heard
    /// (Host::SendWindowEnd); 0 for none (epochs count from 1). Its retirement at the resume
    /// raises the receivers' epoch only.
    uint32_t withdrawnEpoch{0};
    EventId deadlineTimer; //!< its resume deadline (AT_DEADLINE)
    EventId stallTimer;    //!< its next stall check

  private:
    /// The one place a transition happens: log it and trace it.
    void SwitchToState(const State& next);
    /// Stop the run: an event that cannot happen in this state.
    [[noreturn]] void Refuse(const char* event) const;

    uint64_t m_imsi{0};             //!< the UE
    Traces m_traces;                //!< where transitions go
    State m_state;                  //!< its state
    uint64_t m_pendingReprefill{0}; //!< tokens to re-prefill after the prefix, or its IDs
    uint64_t m_reprefillTokens{0};  //!< all it re-prefills since its transfer was given up on
};

/**
 * \param os a stream
 * \param state a migration state
 * \return os, with state.ToString()
 */
std::ostream& operator<<(std::ostream& os, const Migration::State& state);

} // namespace ns3

#endif /* EDGE_LLM_MIGRATION_H */
