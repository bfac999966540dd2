/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_HEADER_H
#define EDGE_LLM_KV_TRANSFER_HEADER_H

#include "kv-transfer-ledger.h"

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The header of every message of the KV-cache transfer protocol.
 *
 * Fixed width, 36 bytes, network byte order:
 *
 * | offset | width | field         | rule                                             |
 * |--------|-------|---------------|--------------------------------------------------|
 * | 0      | 2     | magic         | 0x4B56 ("KV")                                    |
 * | 2      | 1     | version       | 3                                                |
 * | 3      | 1     | type          | BEGIN 1, TOKENS 2, DATA 3, END 4, CANCEL 5,      |
 * |        |       |               | OPEN 6, SEAL 7                                   |
 * | 4      | 1     | unit          | TOKEN 0, ENTRY 1 (importance-ordered entries)     |
 * | 5      | 3     | reserved      | 0                                                |
 * | 8      | 8     | imsi          | >= 1                                             |
 * | 16     | 4     | epoch         | any                                              |
 * | 20     | 4     | first         | first + count <= 2^32; CANCEL: reason code [0, 3]|
 * | 24     | 4     | count         | >= 1 for BEGIN, TOKENS, DATA; 0 for the others   |
 * | 28     | 8     | payloadBytes  | see below                                        |
 *
 * The payload follows the header in the byte stream and is virtual: its size is exact on
 * the wire, its content is zeros that nobody allocates. BEGIN announces a range and the bytes
 * that will cover it (payloadBytes >= 1, nothing follows); TOKENS forwards the IDs of
 * tokens [first, first + count) at 4 bytes each (payloadBytes = 4 count, unit TOKEN); DATA
 * carries the KV bytes of a range (payloadBytes >= 1); END, OPEN and SEAL carry nothing
 * (first, count and payloadBytes 0). CANCEL carries no range and no payload either, and
 * puts the KvDiscardReason of the cancel in first (count and payloadBytes 0). OPEN comes
 * before the first BEGIN of an open transfer, one that grows while the source decodes; SEAL
 * follows the BEGINs of its last ranges.
 *
 * Version 2 added OPEN, SEAL and CANCEL's reason, and version 3 the re-plan reason, after
 * which the next epoch keeps what the cancelled one delivered; an older peer would misread
 * them, so older headers are refused.
 */
class KvTransferHeader : public Header
{
  public:
    /// What a message is.
    enum MessageType : uint8_t
    {
        BEGIN = 1,  //!< announces a range of one session's transfer
        TOKENS = 2, //!< forwarded token IDs
        DATA = 3,   //!< KV bytes of a range
        END = 4,    //!< the sender has sent all of this epoch's data
        CANCEL = 5, //!< the sender abandons this epoch's transfer; first holds the reason
        OPEN = 6,   //!< an open transfer begins: more ranges may follow until SEAL
        SEAL = 7,   //!< an open transfer's last range has been announced
    };

    /// What first and count count.
    enum RangeUnit : uint8_t
    {
        TOKEN = 0, //!< token positions in the context
        ENTRY = 1, //!< entries in importance order
    };

    static constexpr uint16_t MAGIC = 0x4B56;         //!< first two bytes of every header
    static constexpr uint8_t VERSION = 3;             //!< the version this code speaks
    static constexpr uint32_t SERIALIZED_SIZE = 36;   //!< bytes on the wire
    static constexpr uint32_t BYTES_PER_TOKEN_ID = 4; //!< virtual size of a forwarded ID

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /// \return GetTypeId(), for a header reached through a Header pointer
    TypeId GetInstanceTypeId() const override;

    /// An END message of session 1, epoch 0: valid, so a default header can be printed.
    KvTransferHeader();

    /**
     * \brief Make a header and check it; a header that breaks a rule stops the run.
     * \param type message type
     * \param imsi session
     * \param epoch transfer epoch
     * \param unit range unit
     * \param first first token or entry
     * \param count tokens or entries
     * \param payloadBytes bytes that follow (or, for BEGIN, that the range will take)
     * \return the header
     */
    static KvTransferHeader Make(MessageType type,
                                 uint64_t imsi,
                                 uint32_t epoch,
                                 RangeUnit unit,
                                 uint32_t first,
                                 uint32_t count,
                                 uint64_t payloadBytes);

    /**
     * \brief Read a header from raw bytes, checking every field.
     * \param data the bytes
     * \param size how many there are; fewer than SERIALIZED_SIZE fail
     * \param[out] out the header read, when it is valid
     * \param[out] why the first rule broken, when it is not
     * \return true if the bytes hold a valid header
     */
    static bool Parse(const uint8_t* data, uint32_t size, KvTransferHeader& out, std::string& why);

    /// \return the first rule this header breaks, or an empty string
    std::string Check() const;

    /// \return the message type
    MessageType GetMessageType() const;
    /// \return the session
    uint64_t GetImsi() const;
    /// \return the epoch
    uint32_t GetEpoch() const;
    /// \return the range unit
    RangeUnit GetUnit() const;
    /// \return the first token or entry
    uint32_t GetFirst() const;
    /// \return the number of tokens or entries
    uint32_t GetCount() const;
    /// \return the payload bytes
    uint64_t GetPayloadBytes() const;
    /// \return the payload bytes that follow this header in the stream (0 for BEGIN)
    uint64_t GetFollowingBytes() const;

    /**
     * \brief Make a CANCEL message.
     * \param imsi session
     * \param epoch the epoch abandoned
     * \param reason why; it travels in the first field
     * \return the header
     */
    static KvTransferHeader MakeCancel(uint64_t imsi, uint32_t epoch, KvDiscardReason reason);

    /// \return the reason a CANCEL carries; only meaningful for a CANCEL
    KvDiscardReason GetCancelReason() const;

    /**
     * \param type a MessageType, raw, as read off the wire
     * \return its short name, e.g. "DATA"; "UNKNOWN" for a value that is no MessageType
     */
    static const char* TypeName(uint8_t type);

    /**
     * \brief Print the type, IMSI and epoch, then a CANCEL's reason or the unit, the range as
     * [first,end) and the payload bytes.
     * \param os the stream written to
     */
    void Print(std::ostream& os) const override;
    /// \return SERIALIZED_SIZE: every message type has the same header
    uint32_t GetSerializedSize() const override;
    /// \param start where the header's SERIALIZED_SIZE bytes go, in network byte order
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read a header, checking every field; use Parse() to learn why one is refused.
     * \param start the header's first byte
     * \return SERIALIZED_SIZE, or 0 if fewer bytes remain or a field breaks a rule, which
     * leaves this header unchanged
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint8_t m_type{END};        //!< MessageType, kept raw so a bad value can be reported
    uint8_t m_unit{TOKEN};      //!< RangeUnit, kept raw
    uint64_t m_imsi{1};         //!< session
    uint32_t m_epoch{0};        //!< epoch
    uint32_t m_first{0};        //!< first token or entry
    uint32_t m_count{0};        //!< tokens or entries
    uint64_t m_payloadBytes{0}; //!< bytes
};

} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_HEADER_H */
