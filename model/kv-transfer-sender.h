/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_SENDER_H
#define EDGE_LLM_KV_TRANSFER_SENDER_H

#include "kv-transfer-header.h"
#include "kv-transfer-ledger.h"
#include "kv-transfer-policy.h"
#include "range-set.h"
#include "token-range.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/sequence-number.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <list>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One session's KV transfer, as its owner hands it to a sender.
 *
 * With no ranges and not open, the transfer is tokens-only (a token handover: the target
 * re-prefills the forwarded token IDs and no KV byte moves); it then needs forwarded token
 * IDs, and unit, bytesPerUnit, deadline, priority and weight are ignored.
 *
 * An open transfer grows while the source decodes: KvTransferSender::Append() adds ranges
 * and KvTransferSender::Seal() closes it. It may start with no range, and is then not
 * tokens-only.
 */
struct KvTransferRequest
{
    uint64_t imsi{0};  //!< session (>= 1)
    uint32_t epoch{0}; //!< epoch; a later handover of the same session uses a higher one
    KvTransferHeader::RangeUnit unit{KvTransferHeader::TOKEN}; //!< what ranges count
    std::vector<TokenRange> ranges; //!< disjoint, each within [0, 2^32), or none
    uint64_t bytesPerUnit{0};       //!< exact KV bytes of one token or entry (>= 1 with ranges)
    uint32_t forwardedFirst{0};     //!< first forwarded token ID
    uint32_t forwardedCount{0};     //!< forwarded token IDs; 0 for none, >= 1 without ranges
    Time deadline{Time::Max()};     //!< for EDF policies
    uint32_t priority{0};           //!< for strict-priority policies; lower first
    bool open{false};               //!< more ranges follow through Append() until Seal()
    double weight{1};               //!< share for weighted policies; > 0 and finite
};

/**
 * \ingroup edge-llm
 * \brief Byte counts of one session at a sender, over all its epochs.
 *
 * announced = sent + withdrawn once the message being written at a Cancel() is finished;
 * withdrawn is the sum of withdrawnBy.
 */
struct KvTransferSenderCounters
{
    uint64_t announced{0}; //!< KV bytes enqueued or appended
    uint64_t sent{0};      //!< KV bytes handed to TCP
    uint64_t withdrawn{0}; //!< KV bytes withdrawn: announced and never handed to TCP
    std::array<uint64_t, KV_DISCARD_REASONS> withdrawnBy{}; //!< withdrawn, by KvDiscardReason
    uint64_t acked{0}; //!< KV bytes of transfers the peer's TCP has acknowledged in full
    /// Stream bytes of its messages handed to TCP, headers and token IDs included
    uint64_t written{0};
    /// Of those, the bytes the peer's TCP has acknowledged so far, byte by byte
    uint64_t delivered{0};
    /// KV bytes among the delivered ones: what the peer has of its caches, as far as this
    /// sender can tell
    uint64_t deliveredKv{0};
    /// DATA messages begun, each with its own header at the receiver: a transfer's bytes over
    /// its messages is their mean size (a rationed message is sized to TCP's free room)
    uint64_t messages{0};

    /**
     * \brief Add another sender's (or session's) counts, field by field.
     * \param other the counts to add
     * \return this
     */
    KvTransferSenderCounters& operator+=(const KvTransferSenderCounters& other)
    {
        announced += other.announced;
        sent += other.sent;
        withdrawn += other.withdrawn;
        acked += other.acked;
        written += other.written;
        delivered += other.delivered;
        deliveredKv += other.deliveredKv;
        messages += other.messages;
        for (std::size_t r = 0; r < withdrawnBy.size(); ++r)
        {
            withdrawnBy[r] += other.withdrawnBy[r];
        }
        return *this;
    }
};

/**
 * \ingroup edge-llm
 * \brief Sends KV caches to one peer over one TCP connection, scheduled by the application.
 *
 * The connection opens at Start(), when its host starts, so no SYN round trip falls inside
 * a handover. Payloads are virtual: sizes are exact on the wire, nothing is allocated per
 * byte. A session's ranges leave as DATA messages of at most MaxMessageBytes; at each message
 * boundary a KvTransferPolicy picks the session that goes next, and control messages (BEGIN,
 * TOKENS, CANCEL) go ahead of all data. A message is written in chunks that fit the socket's
 * free space, and a message once started is finished, because TCP is a byte stream.
 *
 * A rationing policy (e.g. a slot budget) is charged for a DATA message's KV bytes as TCP
 * accepts them, and no chunk exceeds the session's allowance at that moment, so the bytes that
 * enter TCP in a slot stay within its budget. A message is chosen no larger than the
 * allowance; what TCP has not taken of it when the slot ends goes on under the next slot's
 * allowance, and while that is 0 nothing else enters the connection.
 *
 * A tokens-only transfer (no ranges) is its TOKENS message alone: no BEGIN, DATA or END,
 * since the peer has nothing to assemble and the TOKENS message carries everything it learns.
 * It counts 0 KV bytes announced, sent, withdrawn and acked; like any transfer it completes
 * (TransferAcked with 0 bytes, then the completion callback) once the peer's TCP has
 * acknowledged its last byte, can be cancelled, and is superseded by a newer epoch.
 *
 * An open transfer (KvTransferRequest::open) is announced by an OPEN message ahead of its
 * first BEGIN, grows with Append(), and ends with Seal(), which sends a SEAL after the BEGINs
 * of its last ranges. Its END follows its last DATA once it is sealed, so it completes only
 * after Seal().
 *
 * Counters: announced = sent + withdrawn for every session once the message being written
 * when Cancel() was called has been written.
 */
class KvTransferSender : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    KvTransferSender();
    ~KvTransferSender() override;

    /**
     * \brief Say where to send from and to. Call once, before Start().
     * \param node the host node
     * \param local an address of the node on the link to the peer
     * \param peer the peer's address
     * \param port the peer receiver's port
     */
    void Setup(Ptr<Node> node, Ipv4Address local, Ipv4Address peer, uint16_t port);

    /// Open the connection.
    void Start();
    /// Close the connection; what is queued stays unsent.
    void Stop();

    /**
     * \brief Queue one session's transfer: its BEGIN and TOKENS go ahead of queued data.
     *
     * A newer epoch of a session cancels its older ones still queued (reason NEWER_EPOCH). A
     * request with no ranges that is not open is a tokens-only transfer: only its TOKENS
     * message is sent. Stops the run if a field is out of range: imsi 0, neither ranges nor
     * forwarded token IDs (unless open), an empty or overflowing range, overlapping ranges,
     * bytesPerUnit 0 with ranges or open, forwarded token IDs past 2^32, a weight not > 0 or
     * not finite, or an epoch not newer than one of the session already queued.
     *
     * \param request the transfer
     */
    void Enqueue(const KvTransferRequest& request);

    /**
     * \brief Withdraw a session's transfer of one epoch.
     *
     * What has not reached TCP is withdrawn: its data, and its BEGIN, TOKENS and END messages.
     * If the peer has heard of the transfer (a BEGIN or TOKENS reached TCP), a CANCEL tells it.
     * The DATA message being written, if it is this transfer's, is finished, since TCP is a
     * byte stream; its rest is not rationed or charged to the policy, since the transfer has
     * no allowance any more.
     *
     * The CANCEL carries the reason, so the peer counts what was in flight as stale under
     * the same reason as the bytes withdrawn here.
     *
     * \param imsi the session
     * \param epoch the epoch to cancel
     * \param reason why; the withdrawn bytes are counted under it
     * \return the KV bytes withdrawn; 0 if the transfer is not queued, is tokens-only, or
     *         all its data has reached TCP already
     */
    uint64_t Cancel(uint64_t imsi,
                    uint32_t epoch,
                    KvDiscardReason reason = KvDiscardReason::NEWER_EPOCH);

    /**
     * \brief Add ranges to an open transfer; their BEGINs go ahead of queued data, their DATA
     * after the ranges already queued, in the order given.
     *
     * Stops the run if the transfer is not queued, was not enqueued open, is sealed already,
     * or a range is empty, ends past 2^32, or overlaps one the transfer already holds or
     * another of the same call.
     *
     * \param imsi the session
     * \param epoch the transfer's epoch
     * \param ranges the ranges, in the order they should be sent
     */
    void Append(uint64_t imsi, uint32_t epoch, const std::vector<TokenRange>& ranges);

    /**
     * \brief Close an open transfer, after appending its last ranges (e.g. a last partial
     * block).
     *
     * A SEAL follows the BEGINs of the last ranges; the END follows the transfer's last DATA,
     * and the transfer completes (TransferAcked, completion callback) once the peer's TCP has
     * acknowledged it. Stops the run as Append() does.
     *
     * \param imsi the session
     * \param epoch the transfer's epoch
     * \param lastRanges ranges to append first; may be empty
     */
    void Seal(uint64_t imsi, uint32_t epoch, const std::vector<TokenRange>& lastRanges = {});

    /**
     * \param imsi a session
     * \param epoch an epoch
     * \return true if that transfer is queued, was enqueued open, and is not sealed yet
     */
    bool IsOpen(uint64_t imsi, uint32_t epoch) const;

    /**
     * \brief Look for work again now: call it after raising a policy's allowances (for
     * example a session's slot budget) between refills.
     */
    void Reschedule();

    /**
     * \brief Called when the peer's TCP has acknowledged every byte of a transfer.
     * \param cb callback(imsi, epoch)
     */
    void SetCompletionCallback(Callback<void, uint64_t, uint32_t> cb);

    /**
     * \param imsi a session
     * \return its counters (zero if unknown)
     */
    KvTransferSenderCounters GetCounters(uint64_t imsi) const;

    /// \return every stream byte handed to TCP: headers and payloads
    uint64_t GetStreamBytesSent() const;

    /**
     * \brief KV payload bytes queued, over all sessions, that TCP has not taken yet.
     *
     * This is the backlog a transfer enqueued now waits behind under FIFO: the data of every
     * queued transfer, plus the rest of the DATA message being written, which is finished
     * even if its transfer is cancelled. Headers and forwarded token IDs are not counted, nor
     * bytes already in the socket buffer. Over all sessions it equals announced - sent -
     * withdrawn.
     *
     * \return the bytes; 0 when everything enqueued has reached TCP or been withdrawn
     */
    uint64_t GetBacklogBytes() const;

    /**
     * \brief Bytes in the TCP socket's send buffer: written and not yet acknowledged by the
     * peer, headers included. With GetBacklogBytes, what the link still has to carry of what
     * was enqueued.
     * \return the bytes; 0 before the connection is up
     */
    uint64_t GetSocketBufferedBytes() const;

    /**
     * \return bytes of the message being written that have not reached TCP yet (0 if none):
     *         a control message enqueued now goes after them and after the socket's buffer
     */
    uint64_t GetWritingBytesLeft() const;

    /// \return the one-way delay of the channel of the device the connection leaves by; 0
    ///         before Start or if it has none
    Time GetLinkDelay() const;

    /**
     * \param imsi a session
     * \param epoch one of its epochs
     * \return whether a control message of that transfer (OPEN, BEGIN, TOKENS) has not been
     *         written to TCP yet: a Cancel now would withdraw it
     */
    bool HasPendingControl(uint64_t imsi, uint32_t epoch) const;

    /**
     * \param imsi a session
     * \param epoch one of its epochs
     * \return the ranges of that transfer no DATA message has been started for yet, in
     *         sending order (units of the transfer); empty if it is not queued
     */
    std::vector<TokenRange> GetUnsentRanges(uint64_t imsi, uint32_t epoch) const;

    /**
     * \brief Move a queued transfer's deadline, as a re-plan of its group does.
     * \param imsi the session
     * \param epoch its epoch
     * \param deadline the new deadline
     * \return false if the transfer is not queued
     */
    bool SetDeadline(uint64_t imsi, uint32_t epoch, Time deadline);

    /// \return true once the connection is established
    bool IsConnected() const;

    /// \return the policy in use
    Ptr<KvTransferPolicy> GetPolicy() const;

    /**
     * TracedCallback signature for a message handed to TCP (its first byte).
     * \param [in] header the message's header
     */
    typedef void (*MessageTracedCallback)(const KvTransferHeader& header);

    /**
     * TracedCallback signature for per-transfer events.
     * \param [in] imsi the session
     * \param [in] epoch the epoch
     * \param [in] bytes KV bytes concerned
     */
    typedef void (*TransferTracedCallback)(uint64_t imsi, uint32_t epoch, uint64_t bytes);

  protected:
    /**
     * Cancels the refill, unhooks the socket's callbacks and traces without closing it (TCP
     * outlives this object, and the node's devices are gone by then), and drops the policy.
     */
    void DoDispose() override;

  private:
    /// One queued transfer.
    struct Job
    {
        KvTransferJobInfo info;           //!< what the policy sees
        KvTransferHeader::RangeUnit unit; //!< unit of the ranges
        std::deque<TokenRange> ranges;    //!< what is left to put in DATA
        bool peerKnows{false};            //!< a BEGIN or TOKENS of it has reached TCP
        bool tokensOnly{false};           //!< no ranges: its TOKENS message is the whole transfer
        bool open{false};                 //!< enqueued open: Append() and Seal() apply
        bool sealed{false};               //!< an open transfer was sealed
        edgellm::RangeSet held; //!< every range announced, to refuse an overlapping Append
        uint64_t streamEnd{0};  //!< stream offset just past its last message, once written
    };

    /// The message being written to the socket.
    struct Writing
    {
        KvTransferHeader header;   //!< its header
        bool headerWritten{false}; //!< whether the header is in TCP
        uint64_t payloadLeft{0};   //!< payload bytes not yet in TCP
        bool active{false};        //!< whether there is one
    };

    void ConnectionSucceeded(Ptr<Socket> socket);
    void ConnectionFailed(Ptr<Socket> socket);
    void SendSpace(Ptr<Socket> socket, uint32_t available);
    void AckAdvanced(SequenceNumber32 oldValue, SequenceNumber32 newValue);
    /// Write as much as the socket takes; restarts itself when work arrives.
    void Pump();
    /// Choose the next message; false if there is none now.
    bool NextMessage();
    /// Pump again at the policy's next refill, unless a wake-up is pending already.
    void WaitForRefill(Time now);
    void Begin(const KvTransferHeader& header);
    std::list<Job>::iterator FindJob(uint64_t imsi, uint32_t epoch);
    /// The open, unsealed job that Append or Seal (named by caller) acts on; fatal if none.
    Job& OpenJob(uint64_t imsi, uint32_t epoch, const char* caller);
    /// Check ranges against the job and queue them with their BEGINs.
    void AddRanges(Job& job, const std::vector<TokenRange>& ranges, const char* caller);

    Ptr<Node> m_node;               //!< host
    Ipv4Address m_local;            //!< local address
    Ipv4Address m_peer;             //!< peer address
    uint16_t m_port{0};             //!< peer port
    Ptr<Socket> m_socket;           //!< the connection
    Time m_linkDelay{0};            //!< delay of the channel the connection leaves by
    uint64_t m_sndBufBytes{0};      //!< the socket's SndBufSize
    bool m_connected{false};        //!< established
    bool m_pumping{false};          //!< re-entrancy guard
    Ptr<KvTransferPolicy> m_policy; //!< Policy
    TypeId m_congestionControl;     //!< CongestionControl
    uint64_t m_maxMessageBytes;     //!< MaxMessageBytes
    uint32_t m_socketBuffer;        //!< SocketBufferBytes (0: from the link)
    uint32_t m_segmentSize{0};      //!< the segment size chosen at Start

    std::deque<KvTransferHeader> m_control; //!< control messages, ahead of data
    std::deque<KvTransferHeader> m_ends;    //!< END messages right after their last DATA
    std::list<Job> m_jobs;                  //!< transfers with a message still to write
    Writing m_writing;                      //!< message in progress
    uint64_t m_arrivals{0};                 //!< jobs enqueued so far
    uint64_t m_streamSent{0};               //!< stream bytes handed to TCP
    uint64_t m_streamAcked{0};              //!< stream bytes the peer acknowledged
    std::deque<Job> m_awaitingAck;          //!< fully written, by stream end

    /// One write to the socket: whose bytes, where in the stream they end, and how many.
    struct Write
    {
        uint64_t imsi;    //!< the session the message belongs to
        uint64_t end;     //!< stream offset just past it
        uint64_t bytes;   //!< its bytes not yet acknowledged
        uint64_t kvBytes; //!< its KV bytes (a DATA chunk), the last ones of the write
    };

    std::deque<Write> m_unacked; //!< writes not acknowledged in full, in stream order
    std::map<uint64_t, KvTransferSenderCounters> m_counters; //!< per session
    EventId m_refill;                                //!< wake-up at the policy's next refill
    Callback<void, uint64_t, uint32_t> m_completion; //!< completion callback

    TracedCallback<const KvTransferHeader&> m_messageSent;            //!< MessageSent
    TracedCallback<uint64_t, uint32_t, uint64_t> m_transferAcked;     //!< TransferAcked
    TracedCallback<uint64_t, uint32_t, uint64_t> m_transferCancelled; //!< TransferCancelled
};

} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_SENDER_H */
