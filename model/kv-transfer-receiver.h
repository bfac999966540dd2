/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_RECEIVER_H
#define EDGE_LLM_KV_TRANSFER_RECEIVER_H

#include "kv-transfer-header.h"
#include "kv-transfer-ledger.h"
#include "kv-transfer-stream-parser.h"
#include "range-set.h"

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <map>
#include <string>

namespace ns3
{

/// Number of KvTransferReceiver::DropReason values: the size of the per-reason arrays.
constexpr std::size_t KV_RECEIVER_DROP_REASONS = 6;

/**
 * \ingroup edge-llm
 * \brief Byte counts of one session at a receiver, over all its epochs.
 *
 * Once the link is drained, the sender's sent = received + stale; stale is the sum of
 * staleBy. droppedInvalid counts protocol errors and is no part of that ledger; it is the
 * sum of droppedInvalidBy.
 */
struct KvTransferReceiverCounters
{
    uint64_t announced{0}; //!< KV bytes announced by accepted BEGINs
    uint64_t received{0};  //!< KV bytes of accepted DATA
    uint64_t stale{0};     //!< KV bytes of DATA from an older or cancelled epoch, including
                           //!< the rest of a message the epoch overtook
    std::array<uint64_t, KV_DISCARD_REASONS> staleBy{}; //!< stale, by the reason its epoch
                                                        //!< retired with
    uint64_t droppedInvalid{0}; //!< KV bytes of DATA dropped for a protocol error
    /// droppedInvalid, by KvTransferReceiver::DropReason; STALE_EPOCH's bytes are stale
    /// instead, so its entry stays 0
    std::array<uint64_t, KV_RECEIVER_DROP_REASONS> droppedInvalidBy{};
    uint64_t tokensForwarded{0}; //!< token IDs of TOKENS messages read whole in a current epoch
    uint64_t tokensDropped{0};   //!< token IDs of TOKENS messages dropped, or whose epoch
                                 //!< moved on before they were read whole
    /// tokensDropped, by KvTransferReceiver::DropReason (STALE_EPOCH for an overtaken epoch)
    std::array<uint64_t, KV_RECEIVER_DROP_REASONS> tokensDroppedBy{};

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
        tokensDropped += other.tokensDropped;
        for (std::size_t r = 0; r < droppedInvalidBy.size(); ++r)
        {
            droppedInvalidBy[r] += other.droppedInvalidBy[r];
            tokensDroppedBy[r] += other.tokensDroppedBy[r];
        }
        return *this;
    }
};

/**
 * \ingroup edge-llm
 * \brief Byte counts of a receiver's streams, over all its connections.
 *
 * Every byte read is a header byte, a payload byte, an unframed byte or a byte held for a
 * header not yet whole: bytes = headerBytes + payloadBytes + unframedBytes + heldBytes. Once
 * the links are drained, payloadBytes is the sum over sessions of received + stale +
 * droppedInvalid + 4 (tokensForwarded + tokensDropped).
 */
struct KvTransferStreamCounters
{
    uint64_t bytes{0};         //!< every stream byte read
    uint64_t headerBytes{0};   //!< bytes of valid headers
    uint64_t payloadBytes{0};  //!< payload bytes of valid headers, whatever became of them
    uint64_t unframedBytes{0}; //!< bytes of a connection closed for a malformed header, from
                               //!< that header on, and of a header a closed connection left
                               //!< unfinished
    uint64_t heldBytes{0};     //!< header bytes of open connections, their header not whole
    uint64_t streamsClosed{0}; //!< connections closed for a malformed header
};

/**
 * \ingroup edge-llm
 * \brief Receives KV caches from any number of peers, one TCP connection each.
 *
 * TCP is a byte stream, so headers and payloads that straddle Recv() calls are reassembled;
 * only header bytes are copied, payloads are counted and let go. For each session it keeps
 * the current epoch and the ranges announced and received, as range sets. A message for an
 * unknown session, from an older or cancelled epoch, from a peer that is not the epoch's
 * source, with a range outside the announced ones (or received twice), with forwarded token
 * IDs after the epoch's one TOKENS message, or with a payload size that disagrees with the
 * epoch's bytes per unit, is dropped and counted; it changes nothing, and its bytes are still
 * consumed. When the received ranges of an epoch cover every announced one, the session is
 * complete, unless the epoch is open (an OPEN message, and no SEAL yet): an open transfer may
 * announce more.
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
 * The source of an epoch is the connection (the peer's address and port) whose message of
 * that epoch the receiver accepted first: the BEGIN or OPEN that opened it, or, for an epoch
 * ExpectEpoch() opened, whatever of it comes first. Every message of the current epoch from
 * another connection is dropped (WRONG_SOURCE). A newer epoch may come from another peer, as
 * after a handover, and that peer is then its source.
 *
 * An epoch's bytes per unit are those of its first BEGIN, payloadBytes / count, which must
 * divide exactly; every later BEGIN and every DATA of the epoch must carry count times that
 * (PAYLOAD_MISMATCH otherwise).
 *
 * A malformed header means that connection's stream has lost its framing: nothing after it can
 * be cut into messages. The receiver closes that connection (StreamClosed), counts the bytes
 * from the header on as unframed, and goes on with the others.
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
        /// token IDs outside the epoch's: its one TOKENS message was taken already
        TOKENS_OUT_OF_RANGE,
        WRONG_SOURCE,     //!< the current epoch's message from a peer that is not its source
        PAYLOAD_MISMATCH, //!< payloadBytes is not count times the epoch's bytes per unit
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
     * \brief Called for every DATA message of a session's current epoch that has wholly
     * arrived in two reads or more: the path's goodput as the message's dispersion.
     *
     * The span runs from the message's first read to its last, and the bytes are those of the
     * reads after the first that carried some of its payload, each read whole (the segment
     * that ends one message and begins the next took its whole length's time on the path). So
     * bytes / span is the rate at which the path delivered the stream while the message
     * arrived: its bottleneck's, less what TCP's window or other traffic took. A message read
     * at once says nothing of the rate, and is not reported.
     *
     * \param cb callback(imsi, epoch, bytes, span)
     */
    void SetGoodputCallback(Callback<void, uint64_t, uint32_t, uint64_t, Time> cb);

    /**
     * \brief Called for every accepted BEGIN of a range in token units: how far the session's
     * KV now reaches, as announced; the range's bytes may arrive later.
     *
     * An open transfer's later ranges are the tokens its source decoded since it began, so
     * their announcements tell the target how far its copy of the session's context grows.
     *
     * \param cb callback(imsi, epoch, end of the range (a token index), whether the transfer
     * is open: more ranges may follow)
     */
    void SetAnnouncedCallback(Callback<void, uint64_t, uint32_t, uint64_t, bool> cb);

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
     * \return the ranges announced in its current epoch (empty if unknown)
     */
    edgellm::RangeSet GetAnnouncedRanges(uint64_t imsi) const;

    /**
     * \param imsi a session
     * \return its current epoch (0 if unknown)
     */
    uint32_t GetCurrentEpoch(uint64_t imsi) const;

    /**
     * \param imsi a session
     * \return true if the session's current epoch is complete (and not cancelled since)
     */
    bool IsComplete(uint64_t imsi) const;

    /// \return every stream byte read, headers and payloads, from all peers
    uint64_t GetStreamBytesReceived() const;

    /// \return the byte counts of the streams, from all peers
    KvTransferStreamCounters GetStreamCounters() const;

    /// \return connections closed because their stream lost its framing
    uint64_t GetStreamsClosed() const;

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

    /**
     * TracedCallback signature for a DATA message's goodput (SetGoodputCallback).
     * \param [in] imsi the session
     * \param [in] epoch the epoch
     * \param [in] bytes bytes of the reads after its first that carried its payload
     * \param [in] span from the message's first read to its last
     */
    typedef void (*GoodputTracedCallback)(uint64_t imsi, uint32_t epoch, uint64_t bytes, Time span);

    /**
     * TracedCallback signature for a connection the receiver closed.
     * \param [in] peer the peer's address and port
     * \param [in] reason why, e.g. "framing lost: magic = 0; expected 19286"
     */
    typedef void (*StreamClosedTracedCallback)(const Address& peer, const std::string& reason);

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

    /// No drop: the current message was not dropped.
    static constexpr int NOT_DROPPED = -1;

    /// Reassembly state of one connection.
    struct Stream
    {
        KvTransferStreamParser parser; //!< cuts the stream into messages
        Address peer;                  //!< the peer's address and port
        bool accepted{false};          //!< whether the current message was accepted
        int dropReason{NOT_DROPPED};   //!< the DropReason of the current message, if dropped
        bool closing{false};           //!< the framing was lost: the connection is to close
        bool closeSent{false};         //!< Close() was called
        Time payloadFirstRead;         //!< when the current DATA's first payload was read
        Time payloadLastRead;          //!< when its latest payload was read
        uint64_t payloadAfterFirst{0}; //!< bytes of the reads after its first that carried it
        bool payloadStarted{false};    //!< some of its payload has been read
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
        bool tokensTaken{false};     //!< the epoch's TOKENS message was accepted
        uint64_t epochBytes{0};      //!< KV bytes received in the current epoch
        uint64_t bytesPerUnit{0};    //!< of the epoch's first BEGIN; 0 before it
        Address source;              //!< the epoch's source; invalid until its first message
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
    /// Handle a BEGIN or OPEN whose header was just read.
    void OnOpening(Stream& stream);
    /// Count a dropped message and remember why, for its payload bytes.
    void Drop(Stream& stream, DropReason reason);
    /// Count payload bytes of the current message.
    void OnPayload(Stream& stream, uint64_t bytes);
    /// The stream lost its framing: count it, trace it, and have the connection closed.
    void LoseFraming(Stream& stream);
    /// Move a stream's held header bytes to unframed, as the stream goes away.
    void Forget(const Stream& stream);
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
    KvTransferStreamCounters m_streamCounters; //!< byte counts; heldBytes is summed on demand
    bool m_reading{false};                     //!< Read() is running
    uint32_t m_readBytes{0};                   //!< bytes of the read being consumed
    bool m_stopRequested{false};               //!< Stop() was called from inside Read()
    std::array<uint64_t, KV_RECEIVER_DROP_REASONS> m_drops{}; //!< messages dropped, by reason
    Callback<void, uint64_t, uint32_t> m_complete;            //!< completion
    Callback<void, uint64_t, uint32_t, uint32_t, uint32_t> m_tokens; //!< TOKENS
    Callback<void, uint64_t, uint32_t, uint64_t, Time> m_goodput;    //!< a DATA's goodput
    Callback<void, uint64_t, uint32_t, uint64_t, bool> m_announced;  //!< a token range's BEGIN

    TracedCallback<const KvTransferHeader&> m_messageReceived;         //!< MessageReceived
    TracedCallback<const KvTransferHeader&> m_dataArrived;             //!< DataArrived
    TracedCallback<const KvTransferHeader&> m_tokensArrived;           //!< TokensArrived
    TracedCallback<const KvTransferHeader&, int> m_messageDropped;     //!< MessageDropped
    TracedCallback<uint64_t, uint32_t, uint64_t> m_sessionComplete;    //!< SessionComplete
    TracedCallback<uint64_t, uint32_t, uint64_t, Time> m_dataGoodput;  //!< DataGoodput
    TracedCallback<const Address&, const std::string&> m_streamClosed; //!< StreamClosed
};

} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_RECEIVER_H */
