/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_UPLINK_HEADER_H
#define EDGE_LLM_UPLINK_HEADER_H

#include "token-range.h"

#include "ns3/header.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Header of every message a UE sends to an edge LLM server: open a session, ask for
 * missing tokens (NACK), or acknowledge the tokens delivered (ACK).
 *
 * Layout (network byte order; widths in bytes):
 *
 * | offset | width | field |
 * |---|---|---|
 * | 0  | 2 | magic 0xED11 (as downlink) |
 * | 2  | 1 | version 1 |
 * | 3  | 1 | type: 16 OPEN_SESSION, 17 NACK, 18 ACK |
 * | 4  | 4 | request sequence number |
 * | 8  | 8 | session id (the UE's IMSI), >= 1 |
 *
 * OPEN_SESSION goes on with (32 bytes in all):
 *
 * | offset | width | field |
 * |---|---|---|
 * | 16 | 4 | prompt tokens, >= 1 |
 * | 20 | 4 | tokens to generate, >= 1 |
 * | 24 | 8 | session start time, int64 ns, >= 0 |
 *
 * NACK goes on with (24 + 8 n bytes in all):
 *
 * | offset | width | field |
 * |---|---|---|
 * | 16 | 4 | next expected index: every token below it was delivered |
 * | 20 | 2 | number of missing ranges n, [1, MAX_RANGES] |
 * | 22 | 2 | reserved, 0 |
 * | 24 | 8 n | ranges, each a first index (4) and a count (4, >= 1) |
 *
 * The ranges ascend, neither overlap nor touch, start at or above the next expected index,
 * and end at index 2^32 - 1 at most.
 *
 * ACK goes on with (20 bytes in all):
 *
 * | offset | width | field |
 * |---|---|---|
 * | 16 | 4 | next expected index |
 *
 * The sequence number grows by one with every message the client sends in a session, retries
 * included, so that a server can drop feedback older than what it has acted on; a
 * SESSION_REJECTED echoes the number of the OPEN_SESSION it refuses.
 *
 * Deserialize() refuses any field outside its range: it returns 0, reads nothing past the
 * buffer's end, leaves IsValid() false and GetError() naming the field. Use TryRemove() to
 * take the header off a received packet.
 */
class EdgeLlmUplinkHeader : public Header
{
  public:
    static constexpr uint16_t MAGIC = 0xED11;   //!< first two bytes of every message
    static constexpr uint8_t VERSION = 1;       //!< wire format version
    static constexpr uint16_t MAX_RANGES = 64;  //!< missing ranges per NACK, at most
    static constexpr uint32_t COMMON_SIZE = 16; //!< bytes before the type's own fields
    static constexpr uint32_t MIN_SIZE = 20;    //!< bytes of the shortest message (ACK)

    /// Message type, the byte at offset 3; disjoint from the downlink types.
    enum Type : uint8_t
    {
        OPEN_SESSION = 16, //!< ask for a session
        NACK = 17,         //!< ask for missing tokens
        ACK = 18,          //!< report the tokens delivered in order
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// An invalid header (OPEN_SESSION with no IMSI and no tokens) until its fields are set.
    EdgeLlmUplinkHeader();

    /// \return GetTypeId(), for a header reached through a Header pointer
    TypeId GetInstanceTypeId() const override;
    /// \return the message's bytes: 32 for OPEN_SESSION, 24 + 8 per range for NACK, 20 for ACK
    uint32_t GetSerializedSize() const override;
    /**
     * \brief Write the message in the layout above; aborts the run if the fields do not make a
     * valid message.
     * \param start where the message's GetSerializedSize() bytes go
     */
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read a message, taking its fields only if every one is in range.
     * \param start the message's first byte
     * \return the bytes read, or 0 if the message was refused (GetError() says why)
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    /**
     * \brief Print the type, IMSI and sequence number, then the OPEN_SESSION's counts and
     * start, or the next expected index and each missing range as [first,end).
     * \param os the stream written to
     */
    void Print(std::ostream& os) const override;

    /**
     * \brief Remove the header from the front of a packet, if a valid one is there.
     *
     * The packet's size is checked before any byte is read, so a truncated packet is refused
     * without reading past its end; on refusal the packet is left as it was.
     *
     * \param packet the received packet
     * \param header receives the fields; its GetError() says why on refusal
     * \return true if a valid header was removed
     */
    static bool TryRemove(Ptr<Packet> packet, EdgeLlmUplinkHeader& header);

    /**
     * \brief Make this an OPEN_SESSION message.
     *
     * Throws std::invalid_argument naming the field if a count is 0 or the start is negative.
     *
     * \param promptTokens tokens in the prompt
     * \param tokensToGenerate tokens the server is to generate
     * \param start when the session started at the UE
     */
    void SetOpenSession(uint32_t promptTokens, uint32_t tokensToGenerate, Time start);

    /**
     * \brief Make this a NACK message.
     *
     * Throws std::invalid_argument naming the field if the ranges break the rules of the
     * layout above.
     *
     * \param nextExpected every token below this index was delivered
     * \param missing the missing ranges, ascending
     */
    void SetNack(uint32_t nextExpected, const std::vector<TokenRange>& missing);

    /**
     * \brief Make this an ACK message.
     * \param nextExpected every token below this index was delivered
     */
    void SetAck(uint32_t nextExpected);

    /// \param imsi the session id (the UE's IMSI), >= 1
    void SetImsi(uint64_t imsi);
    /// \param seq the request sequence number
    void SetRequestSeq(uint32_t seq);

    /// \return true if the fields form a valid message (always, after a successful Deserialize)
    bool IsValid() const;
    /// \return why the header is invalid, naming the field; empty if it is valid
    std::string GetError() const;

    /// \return the message type
    Type GetType() const;
    /// \return the session id (IMSI)
    uint64_t GetImsi() const;
    /// \return the request sequence number
    uint32_t GetRequestSeq() const;

    /// \return the prompt length (OPEN_SESSION)
    uint32_t GetPromptTokens() const;
    /// \return the tokens to generate (OPEN_SESSION)
    uint32_t GetTokensToGenerate() const;
    /// \return the session start time (OPEN_SESSION)
    Time GetStartTime() const;
    /// \return the session start time in ns (OPEN_SESSION)
    int64_t GetStartTimeNs() const;

    /// \return the next expected index (NACK, ACK)
    uint32_t GetNextExpected() const;
    /// \return the missing ranges (NACK)
    const std::vector<TokenRange>& GetMissingRanges() const;

  private:
    /// \return "" if the fields form a valid message, else what is wrong, naming the field
    std::string Check() const;

    uint8_t m_type{OPEN_SESSION};     //!< message type
    uint32_t m_requestSeq{0};         //!< request sequence number
    uint64_t m_imsi{0};               //!< session id
    uint32_t m_promptTokens{0};       //!< OPEN_SESSION prompt length
    uint32_t m_tokensToGenerate{0};   //!< OPEN_SESSION tokens to generate
    int64_t m_startNs{0};             //!< OPEN_SESSION start time
    uint32_t m_nextExpected{0};       //!< NACK, ACK next expected index
    std::vector<TokenRange> m_ranges; //!< NACK missing ranges
    std::string m_error;              //!< why the last Deserialize refused its input
};

} // namespace ns3

#endif /* EDGE_LLM_UPLINK_HEADER_H */
