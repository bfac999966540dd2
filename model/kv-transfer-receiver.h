/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_RECEIVER_H
#define EDGE_LLM_KV_TRANSFER_RECEIVER_H

#include "kv-transfer-header.h"
#include "kv-transfer-ledger.h"
#include "range-set.h"

#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Byte counts of one session at a receiver, over all its epochs.
 *
 * Once the link is drained, the sender's sent = received + stale; stale is the sum of
 * staleBy. droppedInvalid counts protocol errors and is no part of that ledger.
 */
struct KvTransferReceiverCounters
{
    uint64_t announced{0}; //!< KV bytes announced by accepted BEGINs
    uint64_t received{0};  //!< KV bytes of accepted DATA
    uint64_t stale{0};     //!< KV bytes of DATA from an older or cancelled epoch, including
                           //!< the rest of a message the epoch overtook
    std::array<uint64_t, KV_DISCARD_REASONS> staleBy{}; //!< stale, by the reason its epoch
                                                        //!< retired with
    uint64_t droppedInvalid{0};  //!< KV bytes of DATA outside the announced ranges
    uint64_t tokensForwarded{0}; //!< token IDs of TOKENS messages read whole in a current epoch

    /**
     * \brief Add another receiver's (or session's) counts, field by field.
     * \param other the counts to add
     * \return this
     */
    KvTransferReceiverCounters& operator+=(const KvTransferReceiverCounters& other)
    {
        announced += other.announced;
        received += other.received;
        stale += other.stale;
        for (std::size_t r = 0; r < staleBy.size(); ++r)
        {
            staleBy[r] += other.staleBy[r];
        }
        droppedInvalid += other.droppedInvalid;
        tokensForwarded += other.tokensForwarded;
        return *this;
    }
};

/**
 * \ingroup edge-llm
 * \brief Receives KV caches from any number of peers, one TCP connection each.
 *
 * TCP is a byte stream, so headers and payloads that straddle Recv() calls are reassembled;
 * only header bytes are copied, payloads are counted and let go. For each session it keeps
 * the current epoch and the ranges announced and received, as range sets. A message for an
 * unknown session, from an older or cancelled epoch, or with a range outside the announced
 * ones (or received twice) is dropped and counted; its bytes are still consumed. When the
 * received ranges of an epoch cover every announced one, the session is complete, unless
 * the epoch is open (an OPEN message, and no SEAL yet): an open transfer may announce more.
 *
 * An epoch retires when a newer one replaces it (a BEGIN or OPEN of a newer epoch, reason
 * NEWER_EPOCH; ExpectEpoch(), with the reason given) or when a CANCEL of it arrives (with the
 * reason it carries); the first of these sets the reason. Stale bytes of an epoch count under
 * the reason it retired with, NEWER_EPOCH for one the receiver does not know. The reasons of
 * the last few retired epochs of each session are kept, since stale bytes can only be of
 * epochs whose data was still in flight.
 *
 * A tokens-only transfer (a token handover: no KV bytes, only a TOKENS message) announces
 * nothing, so it never completes a session; the tokens callback is its arrival signal. A
 * TOKENS message opens no epoch, unlike a BEGIN: the host calls ExpectEpoch() first, or the
 * message is dropped as of an unknown session.
 *
 * A malformed header means the stream has lost its framing; nothing after it can be trusted,
 * so the run stops with the reason.
 */
class KvTransferReceiver : public Object
{
  public:
    /// Why a message was dropped.
    enum DropReason
    {
        UNKNOWN_SESSION, //!< nothing announced for the session
        STALE_EPOCH,     //!< an older epoch, or a cancelled one
        OUT_OF_RANGE,    //!< a range outside the announced ones, or received already
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    KvTransferReceiver();
    ~KvTransferReceiver() override;

    /**
     * \brief Say where to listen. Call once, before Start().
     * \param node the host node
     * \param port the TCP port, on every address of the node
     */
    void Setup(Ptr<Node> node, uint16_t port);

    /// Start listening.
    void Start();
    /// Close every connection.
    void Stop();

    /**
     * \brief Declare the epoch the host expects for a session; anything older is stale.
     *
     * A handover that replaces an in-flight migration raises the epoch here at the same
     * instant as the sender's Cancel(), so bytes already in flight are dropped as stale.
     * When the epoch is raised, the epoch it replaces retires with the reason given, unless
     * it was retired already (by a CANCEL).
     *
     * \param imsi the session
     * \param epoch the epoch now expected
     * \param reason why the epoch it replaces retires
     */
    void ExpectEpoch(uint64_t imsi,
                     uint32_t epoch,
                     KvDiscardReason reason = KvDiscardReason::NEWER_EPOCH);

    /**
     * \brief Called when a session's received ranges cover every announced one; never for a
     * tokens-only transfer, which announces no range.
     * \param cb callback(imsi, epoch)
     */
    void SetCompleteCallback(Callback<void, uint64_t, uint32_t> cb);

    /**
     * \brief Called for every accepted TOKENS message once its payload, the token IDs (4 bytes
     * each), has been read in full, and only if its epoch is still current and not cancelled
     * then. For a tokens-only transfer this is the arrival.
     *
     * The header alone is no arrival: 131,072 IDs take 42 ms more at 100 Mb/s.
     *
     * \param cb callback(imsi, epoch, first, count)
     */
    void SetTokensCallback(Callback<void, uint64_t, uint32_t, uint32_t, uint32_t> cb);

    /**
     * \param imsi a session
     * \return its counters (zero if unknown)
     */
    KvTransferReceiverCounters GetCounters(uint64_t imsi) const;

    /**
     * \param imsi a session
     * \return the ranges of its current epoch received so far (empty if unknown)
     */
    edgellm::RangeSet GetReceivedRanges(uint64_t imsi) const;

    /**
     * \param imsi a session
     * \return true if the session's current epoch is complete (and not cancelled since)
     */
    bool IsComplete(uint64_t imsi) const;

    /// \return every stream byte read, headers and payloads, from all peers
    uint64_t GetStreamBytesReceived() const;

    /**
     * \param reason why a message was dropped
     * \return messages dropped for that reason, from all peers and sessions
     */
    uint64_t GetDroppedMessages(DropReason reason) const;

    /**
     * \param reason why a message was dropped
     * \return its short name, e.g. "stale-epoch"
     */
    static const char* ReasonName(DropReason reason);

    /**
     * TracedCallback signature for a message whose header has been read.
     * \param [in] header the header
     */
    typedef void (*MessageTracedCallback)(const KvTransferHeader& header);

    /**
     * TracedCallback signature for a dropped message.
     * \param [in] header the header
     * \param [in] reason a DropReason
     */
    typedef void (*DropTracedCallback)(const KvTransferHeader& header, int reason);

    /**
     * TracedCallback signature for a complete session.
     * \param [in] imsi the session
     * \param [in] epoch the epoch
     * \param [in] bytes KV bytes received in it
     */
    typedef void (*CompleteTracedCallback)(uint64_t imsi, uint32_t epoch, uint64_t bytes);

  protected:
    /**
     * Detaches the listener and the connections without closing them (the node's devices are
     * gone by then, and a FIN could not be sent), and drops the callbacks.
     */
    void DoDispose() override;

  private:
    /**
     * \brief Drop every connection and the listener, their callbacks first.
     * \param close whether to close the sockets too (not at disposal: see DoDispose)
     */
    void Detach(bool close);

    /// Where a dropped message's payload bytes are counted.
    enum Sink
    {
        SINK_NONE,    //!< not a DATA message: nothing to count
        SINK_STALE,   //!< stale, under its epoch's reason
        SINK_INVALID, //!< droppedInvalid
    };

    /// Reassembly state of one connection.
    struct Stream
    {
        std::array<uint8_t, KvTransferHeader::SERIALIZED_SIZE> header{}; //!< header bytes
        uint32_t headerFill{0};                                          //!< header bytes held
        uint64_t payloadLeft{0};  //!< payload bytes of the current message still to come
        KvTransferHeader current; //!< the current message
        bool accepted{false};     //!< whether the message was accepted
        Sink sink{SINK_NONE};     //!< where a dropped message's payload bytes are counted
    };

    /// Retired epochs whose reason is kept per session; older ones count as NEWER_EPOCH.
    static constexpr std::size_t RETIRED_KEPT = 8;

    /// One session's state.
    struct Session
    {
        uint32_t epoch{0};           //!< current epoch
        bool cancelled{false};       //!< the current epoch was cancelled
        bool complete{false};        //!< the current epoch is complete
        bool open{false};            //!< the current epoch is open: OPEN read, SEAL not yet
        edgellm::RangeSet announced; //!< announced ranges of the current epoch
        edgellm::RangeSet received;  //!< received ranges of the current epoch
        uint64_t epochBytes{0};      //!< KV bytes received in the current epoch
        bool carry{false};           //!< cancelled for a re-plan: the next epoch keeps received
        std::deque<std::pair<uint32_t, KvDiscardReason>> retired; //!< latest last, at most
                                                                  //!< RETIRED_KEPT
    };

    void Accept(Ptr<Socket> socket, const Address& from);
    void Read(Ptr<Socket> socket);
    /// Take one received packet's bytes into a stream.
    void Consume(Stream& stream, Ptr<Packet> p);
    void Closed(Ptr<Socket> socket);
    /// Decide what to do with a message whose header was just read.
    void OnHeader(Stream& stream);
    /// The current message's payload is complete.
    void OnMessageEnd(Stream& stream);
    /// Count a dropped message; returns where its payload bytes go.
    Sink Drop(const KvTransferHeader& header, DropReason reason);
    /// Make epoch the current one; the one it replaces retires with reason.
    Session& ResetEpoch(uint64_t imsi, uint32_t epoch, KvDiscardReason reason);
    /// Record that an epoch retired, unless it already has.
    static void Retire(Session& s, uint32_t epoch, KvDiscardReason reason);
    /// Count stale bytes of an epoch under the reason it retired with.
    void CountStale(uint64_t imsi, uint32_t epoch, uint64_t bytes);
    /// Report completion if the current epoch is whole and not open.
    void CheckComplete(uint64_t imsi, Session& s);

    Ptr<Node> m_node;                        //!< host
    uint16_t m_port{0};                      //!< listening port
    uint32_t m_socketBuffer;                 //!< SocketBufferBytes
    Ptr<Socket> m_listener;                  //!< listening socket
    std::map<Ptr<Socket>, Stream> m_streams; //!< one per connection
    std::map<uint64_t, Session> m_sessions;  //!< by IMSI, once announced or expected
    std::map<uint64_t, KvTransferReceiverCounters> m_counters; //!< by IMSI, over all epochs
    uint64_t m_streamBytes{0};                                 //!< stream bytes read
    bool m_reading{false};                                     //!< Read() is running
    bool m_stopRequested{false};                   //!< Stop() was called from inside Read()
    std::array<uint64_t, 3> m_drops{};             //!< messages dropped, by reason
    Callback<void, uint64_t, uint32_t> m_complete; //!< completion
    Callback<void, uint64_t, uint32_t, uint32_t, uint32_t> m_tokens; //!< TOKENS

    TracedCallback<const KvTransferHeader&> m_messageReceived;      //!< MessageReceived
    TracedCallback<const KvTransferHeader&> m_dataArrived;          //!< DataArrived
    TracedCallback<const KvTransferHeader&, int> m_messageDropped;  //!< MessageDropped
    TracedCallback<uint64_t, uint32_t, uint64_t> m_sessionComplete; //!< SessionComplete
};

} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_RECEIVER_H */
