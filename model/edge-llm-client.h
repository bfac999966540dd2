/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CLIENT_H
#define EDGE_LLM_CLIENT_H

#include "token-log.h"
#include "token-range.h"
#include "token-reorder-buffer.h"
#include "token-timing-stats.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class Socket;
class Packet;
class EdgeLlmDownlinkHeader;
class EdgeLlmUplinkHeader;

/**
 * \ingroup edge-llm
 * \brief One handover's interruption as the client measured it: SIT = end - lastBefore.
 */
struct ClientInterruption
{
    uint32_t markedIndex{0}; //!< the token the mark came on
    uint64_t endIndex{0};    //!< the token whose delivery ended the silence
    Time lastBefore;         //!< the last in-order delivery before the mark (or the start)
    Time end;                //!< the delivery of endIndex
    Time endGenerated;       //!< when endIndex was generated, as its packet says
};

/**
 * \ingroup edge-llm
 * \brief The application on a UE that asks an edge LLM server for one session and receives its
 * token stream, in order and exactly once, across losses and handovers.
 *
 * One UDP socket, bound to Port on any address, sends every uplink message and receives every
 * downlink one; the server answers to its source address and port. At start (the session's
 * start) the client sends OPEN_SESSION to ServerAddress:ServerPort, and repeats it every
 * OpenRetryInterval until the first TOKENS or a SESSION_REJECTED that echoes one of its
 * sequence numbers. Every uplink message carries the next request sequence number.
 *
 * Tokens go through a TokenReorderBuffer. NACKs and ACKs go to the owning server named in the
 * TOKENS packet with the newest token so far, so that feedback follows the session when it
 * migrates, and a late resend of an old holder (older tokens, relayed after the migration)
 * does not take it back there. Timers:
 *
 * - a gap waits NackDelay (it may be reordering) before a NACK of the missing ranges, repeated
 *   every NackInterval while gaps remain;
 * - after IdleTimeout without any TOKENS, an incomplete session NACKs its unreceived tail too,
 *   since a tail lost at a handover leaves no gap; repeated every IdleTimeout;
 * - an ACK every AckEveryTokens tokens delivered and at completion lets the server drop its
 *   resend history. A TOKENS packet after completion means the final ACK was lost, so it is
 *   sent again (at most once per NackInterval).
 *
 * Per token, the client keeps only its delivery time (8 bytes, reserved for TokensToGenerate
 * tokens up front); everything else is per session.
 */
class EdgeLlmClient : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    EdgeLlmClient();
    ~EdgeLlmClient() override;

    /**
     * \brief Write a row for every token delivered to a log, which clients may share.
     * \param log the log; nullptr to stop logging
     */
    void SetTokenLog(Ptr<TokenLog> log);

    /**
     * \brief TTFT, ITL and SIT of the tokens delivered so far.
     *
     * Marks on tokens not yet delivered are left out. With no token delivered, the summary has
     * tokens = 0 and NaN times.
     *
     * \return the summary
     */
    TokenTimingSummary GetSummary() const;

    /// \return the session's IMSI (0 until set)
    uint64_t GetImsi() const;
    /// \return tokens delivered to the application
    uint64_t GetDeliveredTokens() const;
    /// \return token copies received and dropped as duplicates
    uint64_t GetDuplicates() const;
    /// \return tokens whose delivered copy came in a resent packet
    uint64_t GetDeliveredByResend() const;
    /// \return NACKs sent, gap and idle NACKs together
    uint64_t GetNacksSent() const;
    /// \return ACKs sent
    uint64_t GetAcksSent() const;
    /// \return OPEN_SESSION messages sent, retries included
    uint64_t GetOpensSent() const;
    /// \return downlink packets dropped as malformed, of another session or out of range
    uint64_t GetInvalidPackets() const;
    /// \return true once every token of the session has been delivered
    bool IsComplete() const;
    /// \return true if the server refused the session
    bool IsRejected() const;
    /// \return the session's start: the application's start time
    Time GetStartTime() const;
    /// \return the delivery time of each token delivered, in ns, in index order
    const std::vector<int64_t>& GetDeliveryTimesNs() const;
    /// \return the indices the servers marked as their last before a handover, ascending
    std::vector<uint32_t> GetHandoverMarks() const;
    /// \return every handover's interruption whose silence has ended, in the order they ended
    const std::vector<ClientInterruption>& GetInterruptions() const;
    /// \return the address of the server that owns the session now (ServerAddress before the
    ///         first TOKENS)
    Ipv4Address GetOwnerAddress() const;

    /**
     * TracedCallback signature of a token delivered.
     * \param imsi the session
     * \param tokenIndex the token's index
     * \param generated when the server generated it
     * \param delivered when it was delivered, in order
     * \param cellId the cell of the packet that made it deliverable
     * \param resent its delivered copy was resent
     */
    typedef void (*TokenDeliveredTracedCallback)(uint64_t imsi,
                                                 uint32_t tokenIndex,
                                                 Time generated,
                                                 Time delivered,
                                                 uint16_t cellId,
                                                 bool resent);

    /**
     * TracedCallback signature of a refused session.
     * \param imsi the session
     * \param reason an EdgeLlmDownlinkHeader::RejectReason
     */
    typedef void (*RejectedTracedCallback)(uint64_t imsi, uint8_t reason);

    /**
     * TracedCallback signature of a service interruption.
     * \param imsi the session's UE
     * \param markedIndex the token the server marked as its last before a handover
     * \param sit the delivery of the first token generated after the marked one (or of the
     *        first token delivered after the mark's arrival, if later) minus the last in-order
     *        delivery before the arrival; see HandoverMark
     */
    typedef void (*ServiceInterruptionTracedCallback)(uint64_t imsi,
                                                      uint32_t markedIndex,
                                                      Time sit);

    /**
     * TracedCallback signature of a completed session.
     * \param imsi the session
     */
    typedef void (*CompleteTracedCallback)(uint64_t imsi);

    /**
     * TracedCallback signature for a dropped downlink packet.
     * \param [in] imsi the client's session
     * \param [in] why why it was dropped, naming the field for a malformed packet
     */
    typedef void (*PacketDroppedTracedCallback)(uint64_t imsi, const std::string& why);

  protected:
    /// Cancels the client's timers and drops its socket and token log.
    void DoDispose() override;
    /**
     * Ends the construction phase, during which the Imsi attribute takes its initial 0
     * silently; from then on setting it to 0 is refused.
     */
    void NotifyConstructionCompleted() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Read every datagram waiting on the socket.
    /// \param socket the socket
    void HandleRead(Ptr<Socket> socket);
    /// Count and trace a dropped downlink packet.
    /// \param why why it was dropped
    void DropPacket(const std::string& why);
    /// \param header a TOKENS header, valid
    void HandleTokens(const EdgeLlmDownlinkHeader& header);
    /// \param header a SESSION_REJECTED header, valid
    void HandleRejection(const EdgeLlmDownlinkHeader& header);
    /// Take the delivery of one token: its time, traces, log row.
    /// \param token the token
    /// \param cellId the cell of the packet that released it
    void Deliver(const DeliveredToken& token, uint16_t cellId);
    /// Record a handover mark; its SIT ends with the delivery of the token after the marked
    /// one, or with the next delivery if that token is already delivered.
    /// \param index the marked token
    /// \return false if this mark was seen before
    bool RecordMark(uint32_t index);

    /// Send OPEN_SESSION and schedule its retry.
    void SendOpen();
    /// NackDelay after a gap appeared, then every NackInterval while gaps remain.
    void GapNackTimeout();
    /// IdleTimeout after the last TOKENS: NACK the gaps and the unreceived tail.
    void IdleTimeout();
    /// \param ranges missing ranges, ascending, at most EdgeLlmUplinkHeader::MAX_RANGES
    void SendNack(const std::vector<TokenRange>& ranges);
    /// ACK everything delivered.
    void SendAck();
    /// Stamp the next sequence number and IMSI on a header and send it.
    /// \param header the message
    /// \param to the server's address
    /// \param port the server's port
    void SendUplink(EdgeLlmUplinkHeader& header, Ipv4Address to, uint16_t port);
    /// Cancel every timer.
    void CancelTimers();

    // Attributes
    uint64_t m_imsi{0};             //!< Imsi; 0 while unset
    Ipv4Address m_serverAddress;    //!< ServerAddress; uninitialized while unset
    uint16_t m_serverPort{9000};    //!< ServerPort
    uint16_t m_port{9100};          //!< Port
    uint32_t m_promptTokens{0};     //!< PromptTokens
    uint32_t m_tokensToGenerate{0}; //!< TokensToGenerate
    Time m_openRetryInterval;       //!< OpenRetryInterval
    Time m_nackDelay;               //!< NackDelay
    Time m_nackInterval;            //!< NackInterval
    Time m_idleTimeout;             //!< IdleTimeout
    uint32_t m_ackEveryTokens{32};  //!< AckEveryTokens

    Ptr<Socket> m_socket;                      //!< the one UDP socket
    Ptr<TokenLog> m_log;                       //!< optional token log
    std::unique_ptr<TokenReorderBuffer> m_rob; //!< created at start
    std::vector<int64_t> m_deliveryNs;         //!< delivery time of each token, in order
    std::set<uint32_t> m_marks;                //!< handover marks

    std::vector<HandoverMark> m_handoverMarks;       //!< as received, for the summary
    std::vector<std::size_t> m_pendingMarks;         //!< m_handoverMarks positions, SIT not ended
    std::vector<ClientInterruption> m_interruptions; //!< every ended SIT, taken apart
    int64_t m_startNs{0};                            //!< session start
    uint32_t m_nextSeq{0};                           //!< next request sequence number
    uint32_t m_firstOpenSeq{0};                      //!< sequence number of the first OPEN_SESSION
    uint32_t m_lastOpenSeq{0};                       //!< and of the latest one
    bool m_started{false};                           //!< StartApplication ran
    bool m_streaming{false};                         //!< a TOKENS packet has arrived
    bool m_rejected{false};                          //!< refused by the server
    Ipv4Address m_ownerAddress;                      //!< where NACKs and ACKs go
    uint16_t m_ownerPort{0};                         //!< and the port
    uint64_t m_ownerFrontier{0};                     //!< its newest token index, plus one
    uint32_t m_deliveredSinceAck{0};                 //!< tokens delivered since the last ACK
    Time m_lastAckTime;                              //!< when the last ACK left
    uint64_t m_nacksSent{0};                         //!< NACKs sent
    uint64_t m_acksSent{0};                          //!< ACKs sent
    uint64_t m_opensSent{0};                         //!< OPEN_SESSIONs sent
    uint64_t m_invalidPackets{0};                    //!< downlink packets dropped
    EventId m_openEvent;                             //!< OPEN_SESSION retry
    EventId m_gapNackEvent;                          //!< gap NACK
    EventId m_idleEvent;                             //!< idle NACK

    TracedCallback<uint64_t, uint32_t, Time, Time, uint16_t, bool> m_tokenDelivered; //!< trace
    TracedCallback<uint64_t, uint8_t> m_sessionRejected;                             //!< trace
    TracedCallback<Time> m_ttft;                                                     //!< trace
    TracedCallback<Time> m_interTokenLatency;                                        //!< trace
    TracedCallback<uint64_t, uint32_t, Time> m_serviceInterruption;                  //!< trace
    TracedCallback<uint64_t> m_complete;                                             //!< trace
    TracedCallback<uint64_t, const std::string&> m_packetDropped;                    //!< trace
};

} // namespace ns3

#endif /* EDGE_LLM_CLIENT_H */
