/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_DOWNLINK_HEADER_H
#define EDGE_LLM_DOWNLINK_HEADER_H

#include "ns3/header.h"
#include "ns3/ipv4-address.h"
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
 * \brief Header of every message an edge LLM server sends to a UE: a run of tokens, or the
 * refusal of a session.
 *
 * Layout (network byte order; widths in bytes):
 *
 * | offset | width | field |
 * |---|---|---|
 * | 0  | 2 | magic 0xED11 |
 * | 2  | 1 | version 1 |
 * | 3  | 1 | type: 1 TOKENS, 2 SESSION_REJECTED |
 * | 4  | 8 | session id (the UE's IMSI), >= 1 |
 * | 12 | 2 | cell id of the eNB that injected the packet, >= 1 |
 * | 14 | 2 | UDP port of the owning server, where NACKs and ACKs go, >= 1 |
 * | 16 | 4 | IPv4 address of the owning server, neither 0.0.0.0 nor 255.255.255.255 |
 *
 * TOKENS goes on with (28 + 8 n bytes in all):
 *
 * | offset | width | field |
 * |---|---|---|
 * | 20 | 1 | flags: bit 0 resent, bit 1 handover mark; other bits 0 |
 * | 21 | 1 | reserved, 0 |
 * | 22 | 2 | token count n, [1, MAX_TOKENS] |
 * | 24 | 4 | index of the first token; first + n - 1 <= 2^32 - 1 |
 * | 28 | 8 n | generation time of each token, int64 ns, >= 0, non-decreasing |
 *
 * SESSION_REJECTED goes on with (28 bytes in all):
 *
 * | offset | width | field |
 * |---|---|---|
 * | 20 | 1 | reason (RejectReason) |
 * | 21 | 3 | reserved, 0 |
 * | 24 | 4 | request sequence number of the OPEN_SESSION refused |
 *
 * The handover mark tags the last token of the packet as the last one the server sent before
 * the UE's handover; a server that learns of the handover too late may send that token again,
 * alone, with the resent and mark flags.
 *
 * Deserialize() refuses any field outside its range: it returns 0, reads nothing past the
 * buffer's end, leaves IsValid() false and GetError() naming the field. Use TryRemove() to
 * take the header off a received packet.
 */
class EdgeLlmDownlinkHeader : public Header
{
  public:
    static constexpr uint16_t MAGIC = 0xED11;           //!< first two bytes of every message
    static constexpr uint8_t VERSION = 1;               //!< wire format version
    static constexpr uint16_t MAX_TOKENS = 128;         //!< tokens per packet, at most
    static constexpr uint32_t COMMON_SIZE = 20;         //!< bytes before the type's own fields
    static constexpr uint32_t MIN_SIZE = 28;            //!< bytes of the shortest message
    static constexpr uint8_t FLAG_RESENT = 0x01;        //!< the tokens are resent
    static constexpr uint8_t FLAG_HANDOVER_MARK = 0x02; //!< last token before a handover

    /// Message type, the byte at offset 3.
    enum Type : uint8_t
    {
        TOKENS = 1,           //!< a run of consecutive tokens
        SESSION_REJECTED = 2, //!< the server refuses the session
    };

    /// Why the server refuses a session.
    enum RejectReason : uint8_t
    {
        SESSION_TOO_LARGE = 1, //!< the session's KV cache can never fit in the server's memory
        SERVER_BUSY = 2,       //!< the server cannot admit the session now
        INVALID_REQUEST = 3,   //!< the OPEN_SESSION asked for something out of range
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// An invalid header (TOKENS with no token) until its fields are set.
    EdgeLlmDownlinkHeader();

    /// \return GetTypeId(), for a header reached through a Header pointer
    TypeId GetInstanceTypeId() const override;
    /// \return the message's bytes: MIN_SIZE, plus 8 per token for TOKENS
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
     * \brief Print the type, IMSI, cell and server, and for TOKENS the first index, the
     * count and the flags, or for SESSION_REJECTED the reason and request sequence number.
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
    static bool TryRemove(Ptr<Packet> packet, EdgeLlmDownlinkHeader& header);

    /**
     * \brief Make this a TOKENS message.
     *
     * Throws std::invalid_argument naming the field if there are no tokens or more than
     * MAX_TOKENS, if the last index passes 2^32 - 1, or if the times are negative or
     * decreasing.
     *
     * \param firstIndex index of the first token in the session
     * \param generated generation time of each token, in index order
     */
    void SetTokens(uint32_t firstIndex, const std::vector<Time>& generated);

    /**
     * \brief Make this a SESSION_REJECTED message.
     * \param reason why; throws std::invalid_argument if not a RejectReason
     * \param requestSeq the sequence number of the OPEN_SESSION refused
     */
    void SetRejection(RejectReason reason, uint32_t requestSeq);

    /// \param imsi the session id (the UE's IMSI), >= 1
    void SetImsi(uint64_t imsi);
    /// \param cellId the cell id of the eNB injecting the packet, >= 1
    void SetCellId(uint16_t cellId);

    /**
     * \brief Set where the UE sends NACKs and ACKs of this session.
     * \param address the owning server's IPv4 address
     * \param port its UDP port, >= 1
     */
    void SetServer(Ipv4Address address, uint16_t port);

    /// \param resent true if the tokens were sent before
    void SetResent(bool resent);
    /// \param mark true if the last token is the last one sent before the UE's handover
    void SetHandoverMark(bool mark);

    /// \return true if the fields form a valid message (always, after a successful Deserialize)
    bool IsValid() const;
    /// \return why the header is invalid, naming the field; empty if it is valid
    std::string GetError() const;

    /// \return the message type
    Type GetType() const;
    /// \return the session id (IMSI)
    uint64_t GetImsi() const;
    /// \return the cell id of the injecting eNB
    uint16_t GetCellId() const;
    /// \return the owning server's IPv4 address
    Ipv4Address GetServerAddress() const;
    /// \return the owning server's UDP port
    uint16_t GetServerPort() const;

    /// \return the index of the first token (TOKENS)
    uint32_t GetFirstIndex() const;
    /// \return the number of tokens (TOKENS; 0 for other types)
    uint16_t GetTokenCount() const;
    /// \return the index of the last token (TOKENS)
    uint32_t GetLastIndex() const;
    /// \return the generation times of the tokens, in ns, in index order (TOKENS)
    const std::vector<int64_t>& GetGenerationTimesNs() const;
    /**
     * \param i position of the token in the packet, [0, GetTokenCount())
     * \return its generation time
     */
    Time GetGenerationTime(uint16_t i) const;
    /// \return true if the tokens are resent (TOKENS)
    bool IsResent() const;
    /// \return true if the last token is the last one before a handover (TOKENS)
    bool IsHandoverMark() const;

    /// \return the reason of a SESSION_REJECTED
    RejectReason GetRejectReason() const;
    /// \return the request sequence number of the refused OPEN_SESSION (SESSION_REJECTED)
    uint32_t GetRequestSeq() const;

  private:
    /// \return "" if the fields form a valid message, else what is wrong, naming the field
    std::string Check() const;

    uint8_t m_type{TOKENS};             //!< message type
    uint64_t m_imsi{0};                 //!< session id
    uint16_t m_cellId{0};               //!< injecting cell
    uint16_t m_serverPort{0};           //!< owning server's port
    Ipv4Address m_serverAddress;        //!< owning server's address
    uint8_t m_flags{0};                 //!< TOKENS flags
    uint32_t m_firstIndex{0};           //!< TOKENS first index
    std::vector<int64_t> m_generatedNs; //!< TOKENS generation times
    uint8_t m_reason{0};                //!< SESSION_REJECTED reason
    uint32_t m_requestSeq{0};           //!< SESSION_REJECTED request sequence number
    std::string m_error;                //!< why the last Deserialize refused its input
};

} // namespace ns3

#endif /* EDGE_LLM_DOWNLINK_HEADER_H */
