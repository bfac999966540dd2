/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LLM_ENGINE_H
#define LLM_ENGINE_H

#include "gpu-compute-model.h"
#include "llm-compute-model.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The GPU of an edge LLM server: continuous batching of prefill and decode iterations
 * on the event scheduler, with a KV memory of fixed capacity.
 *
 * Sessions are keyed by the UE's IMSI, which, unlike the RNTI, survives a handover. Every
 * iteration is either a prefill of one or more queued prefill jobs, costed by
 * LlmComputeModel::BatchPrefillTime, or one decode step, costed by
 * LlmComputeModel::DecodeStepTime, which gives one token to every session in the step.
 *
 * Scheduling, at each iteration boundary (the GPU being free):
 * - prefill before decode: a waiting prefill job starts before the next decode step, as in
 *   vLLM's default scheduler, so that a new session's first token is not held back by long
 *   generations;
 * - an urgent prefill (handover recovery) goes before normal ones; a prefill iteration holds
 *   urgent jobs only or normal jobs only, so that a long normal prompt never lengthens a
 *   padded batch of urgent ones;
 * - with PrefillCycle > 0 a prefill starts only at a time k * PrefillCycle (k integer, from
 *   simulation time zero), as in the ctHO paper. Until that boundary the GPU keeps running
 *   decode steps that end by the boundary; a step that would end after it is not started, so a
 *   prefill starts at the first boundary at or after the GPU is free and is never starved.
 *
 * Admission: a session reserves KV memory for its whole life at admission (prompt plus every
 * token it will generate, or context plus remaining tokens when resumed), so a running session
 * can never run out of memory, and nothing is evicted unless EvictFor asks for it. A session
 * larger than the whole capacity is rejected (SessionRejected trace and callback); one that
 * fits, but not now, waits in FIFO order until memory is freed, or until EvictFor preempts
 * decoding sessions for it. The memory in use never exceeds KvCapacityTokens.
 *
 * The engine schedules no event while it has nothing to do. It keeps a fixed amount of state
 * per session, none per token.
 *
 * Callbacks and trace sinks may call back into the engine (e.g. remove a session, or add one
 * when another finishes); the next iteration is chosen after the current one is wound up.
 * Attributes are meant to be set before the first session arrives.
 */
class LlmEngine : public Object
{
  public:
    /// What an iteration does.
    enum class IterationKind
    {
        PREFILL, //!< prefill of one or more jobs (or chunks of them)
        DECODE,  //!< one decode step
        MIXED,   //!< one decode step and prefill chunks together (IterationMode Mixed)
    };

    /// How the engine forms its iterations.
    enum IterationMode
    {
        /// An iteration is all prefill (whole jobs, urgent first) or all decode: the ctHO
        /// paper's GPU, which its analytic delay assumes.
        SEPARATE,
        /// Chunked prefill, as vLLM schedules by default: each iteration decodes every ready
        /// session and fills the rest of a ChunkTokens budget with prefill chunks.
        MIXED,
    };

    /// Outcome of a request for admission.
    enum class Admission
    {
        ADMITTED, //!< memory reserved now
        WAITING,  //!< fits the capacity but not now: waits in FIFO order
        REJECTED, //!< larger than the whole capacity: never admitted, already forgotten
    };

    /// One token emitted by a decode step.
    struct EmittedToken
    {
        uint64_t imsi;       //!< the session
        uint64_t tokenIndex; //!< its index in the session's generation, from 0
    };

    /**
     * \brief Tokens of one decode step, one entry per session, in batch order. The vector is
     * the engine's and is reused: copy what must outlive the call. Sessions whose last token
     * is in it are already gone (HasSession is false, their memory free); the
     * session-finished callback follows for each of them.
     */
    using TokensCallback = Callback<void, const std::vector<EmittedToken>&>;
    /// A session event: the session's IMSI.
    using SessionCallback = Callback<void, uint64_t>;
    /// A rejection: the session's IMSI and the reason (names KvCapacityTokens and the sizes).
    using RejectedCallback = Callback<void, uint64_t, const std::string&>;

    /**
     * TracedCallback signature of IterationStarted.
     * \param kind prefill or decode
     * \param sequences sequences in the iteration
     * \param tokens tokens the model costs: prefill tokens of the batch (or of the chunks of a
     *        mixed iteration), or context tokens read by the decode step
     * \param duration the iteration's duration
     */
    typedef void (*IterationTracedCallback)(IterationKind kind,
                                            uint32_t sequences,
                                            uint64_t tokens,
                                            Time duration);
    /**
     * TracedCallback signature of TokenGenerated.
     * \param imsi the session
     * \param tokenIndex the token's index in the session's generation
     */
    typedef void (*TokenTracedCallback)(uint64_t imsi, uint64_t tokenIndex);
    /**
     * TracedCallback signature of PrefillStarted and PrefillCompleted.
     * \param imsi the session
     * \param tokens tokens prefilled
     * \param urgent whether the job was urgent
     */
    typedef void (*PrefillTracedCallback)(uint64_t imsi, uint64_t tokens, bool urgent);
    /**
     * TracedCallback signature of SessionAdmitted.
     * \param imsi the session
     * \param reservedTokens KV tokens reserved for it
     */
    typedef void (*AdmittedTracedCallback)(uint64_t imsi, uint64_t reservedTokens);
    /**
     * TracedCallback signature of SessionRejected.
     * \param imsi the session
     * \param reason why, naming KvCapacityTokens and the sizes
     */
    typedef void (*RejectedTracedCallback)(uint64_t imsi, const std::string& reason);
    /**
     * TracedCallback signature of SessionEvicted.
     * \param imsi the session that lost its memory
     * \param contextTokens its context, which it re-prefills once admitted again
     * \param forImsi the session admitted in its place
     */
    typedef void (*EvictedTracedCallback)(uint64_t imsi, uint64_t contextTokens, uint64_t forImsi);
    /**
     * TracedCallback signature of SessionFinished.
     * \param imsi the session
     */
    typedef void (*SessionTracedCallback)(uint64_t imsi);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LlmEngine();
    ~LlmEngine() override;

    /**
     * \brief A new request: admit it, prefill its prompt, then generate tokens 0 ..
     * tokensToGenerate - 1.
     *
     * The part of the prompt that CachedPromptFraction says is cached is not prefilled, but
     * it is held (and reserved) as the session's context all the same.
     *
     * A rejection fires SessionRejected and the rejected callback before this returns.
     * \param imsi the UE; no session of it may exist
     * \param promptTokens prompt length, >= 1
     * \param tokensToGenerate tokens to generate, >= 1
     * \return the admission outcome
     */
    Admission AddSession(uint64_t imsi, uint64_t promptTokens, uint64_t tokensToGenerate);

    /**
     * \brief A session arriving by handover: admit it with room for its context and the tokens
     * it has left to generate, and do nothing else until told (SubmitPrefill, ResumeDecoding).
     *
     * SubmitPrefill and ResumeDecoding may be called while it waits for admission; their work
     * starts once it is admitted.
     * \param imsi the UE; no session of it may exist
     * \param contextTokens KV tokens the session holds once recovered (prompt and tokens
     *        generated so far), >= 1
     * \param remainingTokens tokens left to generate, >= 1
     * \return the admission outcome
     */
    Admission AddResumedSession(uint64_t imsi, uint64_t contextTokens, uint64_t remainingTokens);

    /**
     * \brief Queue a prefill of part of a session's context (handover recovery by re-prefill).
     *
     * The prefill-done callback fires when it ends. The session does not decode unless
     * ResumeDecoding is (or was) called; if it was, decoding starts after this prefill.
     * \param imsi a session with no prefill queued or running
     * \param tokens tokens to prefill, >= 1 and <= the session's reserved tokens
     * \param urgent put it before normal prefills and decode steps
     */
    void SubmitPrefill(uint64_t imsi, uint64_t tokens, bool urgent);

    /**
     * \brief Queue the prefills of several sessions at once, so that they can share one
     * batch: the GPU looks at its queues only after all are in.
     * \param jobs (IMSI, tokens) of each, as SubmitPrefill takes them
     * \param urgent put them before normal prefills and decode steps
     */
    void SubmitPrefillBatch(const std::vector<std::pair<uint64_t, uint64_t>>& jobs, bool urgent);

    /**
     * \brief Change the length of a prefill still in its queue, as a re-plan of its handover
     * group does; 0 takes it out of the queue.
     * \param imsi a session
     * \param tokens the new length; at most the session's reserved tokens
     * \return false, changing nothing, if the session has no prefill queued (none, or it runs,
     *         or a chunk of it has run)
     */
    bool ResizeQueuedPrefill(uint64_t imsi, uint64_t tokens);

    /**
     * \param imsi a session, or none
     * \return true if it has a prefill in its queue that has not started: one that
     *         ResizeQueuedPrefill can still change
     */
    bool IsPrefillWaiting(uint64_t imsi) const;

    /// When one prefill job would run, as ForecastPrefills foresees it.
    struct PrefillForecast
    {
        Time start; //!< its first iteration (or first chunk) starts
        Time end;   //!< its last iteration ends: the prefill-done callback
    };

    /**
     * \brief When urgent prefills would run if they were queued now or later: a replay of this
     * engine's own iterations, by its own rules (IterationMode, ChunkTokens, MaxBatchSequences,
     * PrefillCycle, LoadFactor, the compute model), from its present state: the running
     * iteration, the queued prefills, the decoding sessions, whose contexts grow by a token a
     * step and which leave at their last token. The engine itself does not change.
     *
     * The replay foresees no work that comes later: no new session, no admission of a waiting
     * one, no ResumeDecoding (a handed-over session starts decoding when its coordinator says,
     * not by itself), no removal. Plans use it to model the iterations the engine really runs.
     * \param jobs lengths of the prefills, each >= 1, submitted together (SubmitPrefillBatch,
     *        urgent) at from, behind every prefill queued by then
     * \param from when they would be submitted; >= now
     * \param replacing sessions whose queued prefills that have not started are left out, as a
     *        re-plan of them replaces those prefills
     * \return one forecast per job, in order; Time::Max() for both times of a job that does
     *         not end within 10^6 replayed iterations
     */
    std::vector<PrefillForecast> ForecastPrefills(const std::vector<uint64_t>& jobs,
                                                  Time from,
                                                  const std::vector<uint64_t>& replacing = {});

    /// \return the IterationMode
    IterationMode GetIterationMode() const;

    /**
     * \return when the running iteration (prefill or decode) ends, or now if the GPU is idle:
     *         the earliest a prefill batch submitted now can start, before rounding up to a
     *         cycle boundary
     */
    Time GetIterationEnd() const;

    /**
     * \param at a time
     * \return the first prefill-cycle boundary at or after it (it, with no cycle)
     */
    Time GetPrefillBoundary(Time at) const;

    /**
     * \brief Start (or restart) a session's decoding at a given token index.
     *
     * Its next decode step emits nextTokenIndex; the session finishes after emitting
     * nextTokenIndex + remaining - 1. With a prefill queued or running, decoding starts after
     * it.
     * \param imsi a session that is not decoding
     * \param nextTokenIndex index of the next token to emit
     * \param remaining tokens left, >= 1; its context plus remaining must fit its reservation
     */
    void ResumeDecoding(uint64_t imsi, uint64_t nextTokenIndex, uint64_t remaining);

    /**
     * \brief Stop a session's decoding, keeping its memory (e.g. the source at a handover,
     * while its KV cache is sent). A token of a decode step in flight is not emitted.
     * \param imsi a session
     * \return the index of the next token it would have emitted
     */
    uint64_t StopDecoding(uint64_t imsi);

    /**
     * \brief Forget a session and free its memory, whatever it is doing; work of it in flight
     * emits nothing. No finished callback fires. Unknown IMSIs are ignored.
     * \param imsi the UE
     * \return whether a session was removed
     */
    bool RemoveSession(uint64_t imsi);

    /**
     * \param imsi a session; stops the run otherwise
     * \return true if it decodes, or will once its pending prefill ends (ResumeDecoding was
     *         called and StopDecoding was not, since)
     */
    bool IsDecoding(uint64_t imsi) const;

    /**
     * \param imsi the UE
     * \return whether the engine holds a session of it (admitted or waiting for admission)
     */
    bool HasSession(uint64_t imsi) const;
    /**
     * \param imsi a session
     * \return tokens this engine has generated for it
     */
    uint64_t GetGeneratedTokens(uint64_t imsi) const;
    /**
     * \param imsi a session
     * \return index of its next token
     */
    uint64_t GetNextTokenIndex(uint64_t imsi) const;
    /**
     * \brief The KV tokens a session holds now: the context a migration of it moves or
     * re-prefills, and what its decode steps are costed by.
     *
     * This is the prompt (or the context it was resumed with) plus every token decoded here
     * since. The prompt counts from AddSession on, before its prefill has run, as the
     * session's reservation does.
     * \param imsi a session
     * \return its context tokens
     */
    uint64_t GetContextTokens(uint64_t imsi) const;
    /**
     * \brief Grow the context of a session that is not decoding here, as its source decodes
     * on while the session is prepared here (a proactive migration). Its reservation is
     * unchanged: what the source decoded no longer needs room to be generated.
     * \param imsi a session of this engine that is not decoding; stops the run otherwise
     * \param contextTokens its context now; allowed: at least its current context, and below
     *        its reservation
     */
    void GrowContext(uint64_t imsi, uint64_t contextTokens);
    /**
     * \param imsi a session
     * \return whether it waits for admission
     */
    bool IsWaitingForAdmission(uint64_t imsi) const;
    /**
     * \brief Admit a waiting session now by preempting decoding sessions by recompute.
     *
     * The victims are sessions that decode (or will, at the end of the step in flight) and
     * have no prefill pending, the latest admitted first, as few as make the session fit.
     * Each frees its whole reservation and goes to the front of the admission queue; once
     * admitted again it prefills its whole context (a normal prefill, costed as any prefill
     * of that many tokens) and decodes on from its next token, so its tokens stay exactly
     * once and in order. A token of a step in flight is not emitted and is computed again.
     * If evicting every candidate would not make room, nothing is evicted and the session
     * keeps waiting. The memory in use never exceeds KvCapacityTokens.
     * \param imsi a session waiting for admission; stops the run otherwise
     * \return the sessions evicted; 0 if none could make room, or none had to (the session
     *         fits, but waits behind others in FIFO order)
     */
    uint32_t EvictFor(uint64_t imsi);
    /// \return sessions evicted by EvictFor, over the engine's life
    uint64_t GetEvictions() const;
    /// \return sessions held, admitted or waiting
    std::size_t GetSessionCount() const;
    /// \return KV tokens reserved by admitted sessions
    uint64_t GetKvTokensInUse() const;
    /**
     * \return prefill tokens queued and not started: the rest of every prefill in a queue
     *         (what earlier chunks did not prefill), not the running iteration's. The work a
     *         new prefill waits behind, once the running iteration ends; O(sessions).
     */
    uint64_t GetQueuedPrefillTokens() const;
    /// \return the KV capacity in tokens
    uint64_t GetKvCapacityTokens() const;

    /**
     * \brief The compute model this engine costs its iterations with, as its planners must
     * see it (made from a default GpuComputeModel if none was set).
     * \return the model
     */
    const LlmComputeModel& GetLlmComputeModel();

    /**
     * \brief Use this compute model; its LlmComputeModel is read once, at the first iteration
     * after this call.
     * \param model the model
     */
    void SetComputeModel(Ptr<GpuComputeModel> model);
    /**
     * \return the compute model; when none was given, null until the first iteration creates
     * one with its defaults
     */
    Ptr<GpuComputeModel> GetComputeModel() const;

    /// \param cb called after each decode step with its tokens
    void SetTokensCallback(TokensCallback cb);
    /// \param cb called when a prefill job of a session ends
    void SetPrefillDoneCallback(SessionCallback cb);
    /// \param cb called when a session has emitted its last token, after its memory is freed
    void SetSessionFinishedCallback(SessionCallback cb);
    /// \param cb called when a session is rejected
    void SetSessionRejectedCallback(RejectedCallback cb);

  protected:
    /**
     * Cancels the iteration and wake-up events, forgets every session and queue, and drops the
     * callbacks and the compute model.
     */
    void DoDispose() override;

  private:
    /// Where a session is.
    enum class Phase
    {
        WAITING_ADMISSION, //!< in the admission queue, no memory
        HELD,              //!< admitted, no work
        PREFILL_QUEUED,    //!< in a prefill queue
        PREFILLING,        //!< in the running prefill iteration
        DECODE_READY,      //!< in the decode queue
        DECODING,          //!< in the running decode step
    };

    /// Per-session state; fixed size, whatever the number of tokens.
    struct Session
    {
        Phase phase{Phase::WAITING_ADMISSION}; //!< where it is
        uint64_t reservedTokens{0};            //!< KV tokens it reserves once admitted
        uint64_t contextTokens{0};             //!< KV tokens it holds now (cost of decoding)
        uint64_t prefillTokens{0};             //!< tokens of its pending prefill; 0: none
        uint64_t prefillDone{0};               //!< of them, prefilled by earlier chunks
        uint64_t chunkTokens{0};               //!< of them, in the running mixed iteration
        Time prefillFrom;                      //!< Mixed: its prefill boundary, when queued
        bool prefillUrgent{false};             //!< whether that prefill is urgent
        bool decodeWanted{false};              //!< decode once no prefill is pending
        uint64_t nextTokenIndex{0};            //!< next token to emit
        uint64_t endTokenIndex{0};             //!< one past its last token
        uint64_t generatedTokens{0};           //!< tokens emitted here
        uint64_t admissionOrder{0};            //!< rank of its latest admission, from 1
    };

    /// \return a + b, or the largest value when it overflows (it then exceeds any capacity)
    static uint64_t SaturatingAdd(uint64_t a, uint64_t b);
    /// \return the session of imsi, or stop the run naming the call
    Session& GetOrFatal(uint64_t imsi, const char* call);
    /// \return the session of imsi, or stop the run naming the call
    const Session& GetOrFatal(uint64_t imsi, const char* call) const;
    /**
     * \param promptTokens a new session's prompt, >= 1
     * \return the tokens of it already cached: CachedPromptFraction of it, rounded down, and
     *         at most all but the last
     */
    uint64_t CachedPromptTokens(uint64_t promptTokens) const;
    /**
     * \brief Common part of AddSession and AddResumedSession.
     * \param imsi the UE
     * \param session its state, with its reservation
     * \param sizes its reservation in words, for a rejection's reason
     * \return the admission outcome
     */
    Admission Admit(uint64_t imsi, const Session& session, const std::string& sizes);
    /// Admit waiting sessions in FIFO order while they fit.
    void AdmitWaiting();
    /// A session was admitted now: reserve its memory and queue its work.
    void OnAdmitted(uint64_t imsi, Session& s);
    /// Put a session where its pending work says: a prefill queue, the decode queue, or held.
    void Dispatch(uint64_t imsi, Session& s);
    /// Take a session out of any queue it is in.
    void Unqueue(uint64_t imsi, Session& s);
    /// Free a session's memory and erase it.
    void Erase(uint64_t imsi);
    /// Start an iteration if the GPU is free and there is work.
    void Schedule();
    /// \return the first prefill boundary at or after now
    Time NextPrefillBoundary() const;
    /// Fill m_batch with the next decode step's sessions. \return its duration
    Time PlanDecodeStep(uint64_t& contextTokens);
    /// Start the prefill iteration of the urgent or else the normal queue.
    void StartPrefill();
    /// Start the next mixed iteration, or wait for a prefill boundary (IterationMode Mixed).
    void ScheduleMixed();
    /**
     * \brief Append to m_batch the prefill chunks of one queue that the budget allows.
     * \param queue a prefill queue
     * \param budget tokens left in this iteration's budget; reduced
     * \param seats sequences left in it; reduced
     * \return the chunks' time, s
     */
    double PlanChunks(std::deque<uint64_t>& queue, uint64_t& budget, uint64_t& seats);
    /// End of a mixed iteration: emit the decode tokens, advance the chunks.
    void EndMixed();
    /// Emit the tokens of the sessions of m_batch that decoded, into m_emitted and m_finished.
    void EmitDecodedTokens();
    /// Tell the callbacks and traces of m_emitted and m_finished.
    void NotifyDecoded();
    /// Start the decode step that PlanDecodeStep planned.
    void StartDecode(Time duration, uint64_t contextTokens);
    /// End of a prefill iteration.
    void EndPrefill();
    /// End of a decode step.
    void EndDecode();
    /// \return the cached compute model
    const LlmComputeModel& Model();

    Ptr<GpuComputeModel> m_computeModel;    //!< ComputeModel
    std::optional<LlmComputeModel> m_model; //!< its model, read at the first iteration
    uint64_t m_kvCapacityTokens;            //!< KvCapacityTokens
    uint32_t m_maxBatchSequences;           //!< MaxBatchSequences
    Time m_prefillCycle;                    //!< PrefillCycle
    IterationMode m_iterationMode{IterationMode::SEPARATE}; //!< IterationMode
    uint64_t m_chunkTokens;                                 //!< ChunkTokens
    double m_loadFactor{1.0};                               //!< LoadFactor
    double m_cachedPromptFraction{0.0};                     //!< CachedPromptFraction
    std::size_t m_decodeInBatch{0};        //!< of m_batch, the decoding sessions (at its front)
    std::vector<uint64_t> m_prefillsEnded; //!< sessions whose prefill the last iteration ended
    TracedValue<uint64_t> m_kvTokensInUse; //!< KV tokens reserved
    uint64_t m_admissions{0};              //!< admissions so far, evicted ones' again included
    uint64_t m_evictions{0};               //!< sessions evicted by EvictFor
    std::unordered_map<uint64_t, Session> m_sessions; //!< every session, by IMSI
    std::deque<uint64_t> m_admissionQueue;            //!< sessions waiting for memory, FIFO
    std::deque<uint64_t> m_urgentPrefills;            //!< urgent prefill jobs, FIFO
    std::deque<uint64_t> m_prefills;                  //!< normal prefill jobs, FIFO
    std::deque<uint64_t> m_decodeQueue;               //!< sessions ready to decode, round robin
    std::vector<uint64_t> m_batch;                    //!< sessions of the running iteration
    std::vector<uint64_t> m_prefillLengths;           //!< lengths of the prefill being planned
    std::vector<EmittedToken> m_emitted;              //!< tokens of the last decode step
    std::vector<uint64_t> m_finished;                 //!< sessions finished by the last step
    bool m_holdSchedule{false};                       //!< SubmitPrefillBatch is queueing
    bool m_busy;                                      //!< an iteration is running
    bool m_batchUrgent;                               //!< the running prefill is urgent
    EventId m_iterationEnd;                           //!< end of the running iteration
    EventId m_wake;                                   //!< a prefill boundary the GPU waits for

    TokensCallback m_tokensCallback;       //!< tokens of a decode step
    SessionCallback m_prefillDoneCallback; //!< a prefill job ended
    SessionCallback m_finishedCallback;    //!< a session finished
    RejectedCallback m_rejectedCallback;   //!< a session was rejected

    TracedCallback<IterationKind, uint32_t, uint64_t, Time> m_iterationStartedTrace; //!< trace
    TracedCallback<uint64_t, uint64_t> m_tokenTrace;                  //!< TokenGenerated
    TracedCallback<uint64_t, uint64_t, uint64_t> m_evictedTrace;      //!< SessionEvicted
    TracedCallback<uint64_t, uint64_t, bool> m_prefillStartedTrace;   //!< PrefillStarted
    TracedCallback<uint64_t, uint64_t, bool> m_prefillCompletedTrace; //!< PrefillCompleted
    TracedCallback<uint64_t, uint64_t> m_admittedTrace;               //!< SessionAdmitted
    TracedCallback<uint64_t, const std::string&> m_rejectedTrace;     //!< SessionRejected
    TracedCallback<uint64_t> m_finishedTrace;                         //!< SessionFinished
};

/**
 * \param kind an iteration kind
 * \return "Prefill" or "Decode"
 */
std::string IterationKindName(LlmEngine::IterationKind kind);

} // namespace ns3

#endif /* LLM_ENGINE_H */
