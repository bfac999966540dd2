/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CELL_PORT_H
#define EDGE_LLM_CELL_PORT_H

#include "edge-llm-server.h"
#include "kv-cache-profile.h"
#include "kv-transfer-receiver.h"
#include "kv-transfer-sender.h"
#include "llm-engine.h"
#include "range-set.h"
#include "token-range.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Everything the HandoverCoordinator asks of, and tells, one cell: its server, the
 * server's engine and the KV receiver on its node.
 *
 * Every coordinator-to-cell interaction is a call on this interface, so that where the
 * control messages travel is one choice: LocalCellPort (local-cell-port.h) calls the cell's
 * objects directly, as a control plane of zero latency would. That includes the KV-transfer
 * senders on the cell's node, one per backhaul peer: the coordinator tells them what to send
 * and reads their progress here. The KV bytes and token IDs themselves always travel as
 * packets. The coordinator is given each cell's port (HandoverCoordinator::AddCell).
 */
class CellPort : public SimpleRefCount<CellPort>
{
  public:
    virtual ~CellPort() = default;

    /// \return the cell's id
    virtual uint16_t GetCellId() const = 0;

    // What the cell knows of a session.

    /// \param imsi a UE \return true if the cell's engine holds its session
    virtual bool HasSession(uint64_t imsi) const = 0;
    /// \param imsi a UE \return true if the cell's server owns its session
    virtual bool OwnsSession(uint64_t imsi) const = 0;
    /// \param imsi a UE \return true if it decodes (or will once its prefill ends)
    virtual bool IsDecoding(uint64_t imsi) const = 0;
    /// \param imsi a UE \return the index of the next token it decodes
    virtual uint64_t GetNextTokenIndex(uint64_t imsi) const = 0;
    /// \param imsi a UE \return the tokens of its context: prompt and tokens so far
    virtual uint64_t GetContextTokens(uint64_t imsi) const = 0;
    /// \param imsi a UE \return its state at the server
    virtual const EdgeLlmServer::SessionState& GetSessionState(uint64_t imsi) const = 0;

    // Decoding and the session's place.

    /// Stop decoding a session. \param imsi the UE \return the index of its next token
    virtual uint64_t StopDecoding(uint64_t imsi) = 0;
    /// Decode a session from a token on. \param imsi the UE \param next the token's index
    /// \param count tokens left
    virtual void ResumeDecoding(uint64_t imsi, uint64_t next, uint64_t count) = 0;
    /// Mark the last token before a handover. \param imsi the UE
    virtual void MarkHandover(uint64_t imsi) = 0;
    /**
     * \brief Admit a session that moves here.
     * \param imsi the UE \param context its context, tokens \param remaining tokens left
     * \return whether it is admitted, waits for memory, or is refused
     */
    virtual LlmEngine::Admission AdmitMigrated(uint64_t imsi,
                                               uint64_t context,
                                               uint64_t remaining) = 0;
    /// Preempt residents to make room. \param imsi the incoming UE \return residents evicted
    virtual uint32_t EvictFor(uint64_t imsi) = 0;
    /// Drop a session from the engine. \param imsi the UE
    virtual void RemoveSession(uint64_t imsi) = 0;
    /// \param imsi a UE \return its server state, which the server hands over
    virtual EdgeLlmServer::SessionState ExportSession(uint64_t imsi) = 0;
    /// Take a session's server state. \param imsi the UE \param state its state
    virtual void ImportSession(uint64_t imsi, EdgeLlmServer::SessionState state) = 0;
    /// Close a session before its end. \param imsi the UE \return its state then
    virtual EdgeLlmServer::SessionState CloseSession(uint64_t imsi) = 0;

    // The GPU's prefills.

    /// Prefill sessions in one batch, urgently. \param jobs (IMSI, tokens) of each
    virtual void SubmitPrefillBatch(const std::vector<std::pair<uint64_t, uint64_t>>& jobs) = 0;
    /// Prefill one session urgently. \param imsi the UE \param tokens the tokens
    virtual void SubmitPrefill(uint64_t imsi, uint64_t tokens) = 0;
    /// Resize a queued prefill. \param imsi the UE \param tokens its new size (0: out of the
    /// queue) \return false if it is not queued (running or done)
    virtual bool ResizeQueuedPrefill(uint64_t imsi, uint64_t tokens) = 0;
    /// \param imsi the UE \return true if its prefill is queued and has not started
    virtual bool IsPrefillWaiting(uint64_t imsi) const = 0;
    /// Grow a session's context. \param imsi the UE \param tokens its new context
    virtual void GrowContext(uint64_t imsi, uint64_t tokens) = 0;
    /// \return when the engine's current iteration ends
    virtual Time GetIterationEnd() const = 0;
    /// \param at a time \return the first prefill boundary at or after it
    virtual Time GetPrefillBoundary(Time at) const = 0;
    /// \return the engine's PrefillCycle
    virtual Time GetPrefillCycle() const = 0;
    /// \return the engine's IterationMode
    virtual LlmEngine::IterationMode GetIterationMode() const = 0;
    /// When urgent prefills would run at the engine (LlmEngine::ForecastPrefills).
    /// \param jobs their lengths \param from when they are queued, >= now
    /// \param replacing sessions whose queued prefills are left out \return one per job
    virtual std::vector<LlmEngine::PrefillForecast> ForecastPrefills(
        const std::vector<uint64_t>& jobs,
        Time from,
        const std::vector<uint64_t>& replacing) = 0;
    /// \return the engine's compute model
    virtual const LlmComputeModel& GetComputeModel() const = 0;
    /// \return the KV-cache shape of the model the server serves (EdgeLlmServer::KvCache)
    virtual KvCacheProfile GetKvCacheProfile() const = 0;
    /// \return the KV memory, tokens
    virtual uint64_t GetKvCapacityTokens() const = 0;
    /// \return the KV memory in use, tokens
    virtual uint64_t GetKvTokensInUse() const = 0;

    // Relays: the server passes a session's tokens on over the backhaul.

    /// \param cellId another cell \return true if the server has a backhaul link to it
    virtual bool HasRelayPeer(uint16_t cellId) const = 0;
    /// Relay a session's tokens to another cell. \param imsi the UE \param cellId the cell
    virtual void StartRelay(uint64_t imsi, uint16_t cellId) = 0;
    /// Stop relaying a session's tokens. \param imsi the UE
    virtual void StopRelay(uint64_t imsi) = 0;

    // The KV receiver.

    /// Expect an epoch of a session. \param imsi the UE \param epoch the epoch
    /// \param reason why the epoch it replaces retires
    virtual void ExpectEpoch(uint64_t imsi, uint32_t epoch, KvDiscardReason reason) = 0;
    /// \param imsi a UE \return the epoch of its KV the receiver accepts (0 if unknown)
    virtual uint32_t GetExpectedEpoch(uint64_t imsi) const = 0;
    /// \param imsi a UE \return the KV ranges of its current epoch that have wholly arrived
    virtual edgellm::RangeSet GetReceivedRanges(uint64_t imsi) const = 0;
    /// \param imsi a UE \return the KV bytes received for it, over all its epochs
    virtual uint64_t GetReceivedBytes(uint64_t imsi) const = 0;

    // The KV senders on the cell's node, one per backhaul peer. A call naming a peer the cell
    // has no sender to stops the run.

    /// What a KV sender's link still has to carry, and how long its packets take.
    struct KvLinkLoad
    {
        uint64_t backlogBytes{0};        //!< KvTransferSender::GetBacklogBytes
        uint64_t socketBufferedBytes{0}; //!< KvTransferSender::GetSocketBufferedBytes
        uint64_t writingBytesLeft{0};    //!< KvTransferSender::GetWritingBytesLeft
        Time linkDelay;                  //!< KvTransferSender::GetLinkDelay
    };

    /// Give the cell its sender to a peer. \param peer another cell \param sender the sender on
    /// this cell's node towards it
    virtual void SetKvSender(uint16_t peer, Ptr<KvTransferSender> sender) = 0;
    /// \param peer another cell \return true if the cell has a KV sender to it
    virtual bool HasKvPeer(uint16_t peer) const = 0;
    /// Queue a transfer (KvTransferSender::Enqueue). \param peer where it goes
    /// \param request the transfer
    virtual void EnqueueKv(uint16_t peer, const KvTransferRequest& request) = 0;
    /**
     * \brief Add ranges to an open transfer (KvTransferSender::Append), or add them and close
     * it (KvTransferSender::Seal).
     * \param peer where it goes \param imsi the UE \param epoch its epoch
     * \param ranges the ranges, in sending order \param seal true to close it
     */
    virtual void AppendKv(uint16_t peer,
                          uint64_t imsi,
                          uint32_t epoch,
                          const std::vector<TokenRange>& ranges,
                          bool seal) = 0;
    /**
     * \brief Withdraw a transfer (KvTransferSender::Cancel).
     * \param peer where it goes \param imsi the UE \param epoch its epoch \param reason why
     * \return the KV bytes withdrawn
     */
    virtual uint64_t CancelKv(uint16_t peer,
                              uint64_t imsi,
                              uint32_t epoch,
                              KvDiscardReason reason) = 0;
    /**
     * \brief Move a queued transfer's deadline (KvTransferSender::SetDeadline).
     * \param peer where it goes \param imsi the UE \param epoch its epoch
     * \param deadline the new deadline \return false if it is not queued
     */
    virtual bool SetKvDeadline(uint16_t peer, uint64_t imsi, uint32_t epoch, Time deadline) = 0;
    /// \param peer another cell \param imsi a UE \return the sender's counters of its session
    virtual KvTransferSenderCounters GetKvCounters(uint16_t peer, uint64_t imsi) const = 0;
    /// Let the sender to a peer look for work again (KvTransferSender::Reschedule), after its
    /// budgets grew. \param peer where it sends
    virtual void RescheduleKv(uint16_t peer) = 0;
    /// \param peer another cell \param imsi a UE \param epoch an epoch \return the ranges of
    /// that transfer no DATA has started for, in sending order
    virtual std::vector<TokenRange> GetUnsentKvRanges(uint16_t peer,
                                                      uint64_t imsi,
                                                      uint32_t epoch) const = 0;
    /// \param peer another cell \param imsi a UE \param epoch an epoch \return true if a
    /// control message of that transfer has not reached TCP yet
    virtual bool HasPendingKvControl(uint16_t peer, uint64_t imsi, uint32_t epoch) const = 0;
    /// \param peer another cell \return the load of the link to it
    virtual KvLinkLoad GetKvLinkLoad(uint16_t peer) const = 0;

    /// What the cell reports to the coordinator.
    struct Listener
    {
        /// Token IDs arrived: (imsi, epoch, first, count)
        Callback<void, uint64_t, uint32_t, uint32_t, uint32_t> tokensArrived;
        /// A transfer's ranges have all arrived: (imsi, epoch)
        Callback<void, uint64_t, uint32_t> kvComplete;
        /// A prefill ended: (imsi, tokens, urgent)
        Callback<void, uint64_t, uint64_t, bool> prefillCompleted;
        /// A token was decoded: (imsi, index)
        Callback<void, uint64_t, uint64_t> tokenGenerated;
        /// A DATA message's goodput at the cell's receiver: (imsi, epoch, bytes, span)
        /// (KvTransferReceiver::SetGoodputCallback)
        Callback<void, uint64_t, uint32_t, uint64_t, Time> kvGoodput;
        /// A token range's BEGIN was accepted at the cell's receiver: (imsi, epoch, end,
        /// open) (KvTransferReceiver::SetAnnouncedCallback)
        Callback<void, uint64_t, uint32_t, uint64_t, bool> kvAnnounced;
    };

    /// Report to a listener from now on. \param listener its callbacks
    virtual void Listen(const Listener& listener) = 0;
};

} // namespace ns3

#endif /* EDGE_LLM_CELL_PORT_H */
