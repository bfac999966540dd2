/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-transfer-header.h"

#include "ns3/abort.h"

#include <array>
#include <limits>
#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(KvTransferHeader);

namespace
{
uint64_t
ReadBigEndian(const uint8_t* p, int width)
{
    uint64_t v = 0;
    for (int i = 0; i < width; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}
} // namespace

TypeId
KvTransferHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::KvTransferHeader")
                            .SetParent<Header>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<KvTransferHeader>();
    return tid;
}

TypeId
KvTransferHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

KvTransferHeader::KvTransferHeader() = default;

KvTransferHeader
KvTransferHeader::Make(MessageType type,
                       uint64_t imsi,
                       uint32_t epoch,
                       RangeUnit unit,
                       uint32_t first,
                       uint32_t count,
                       uint64_t payloadBytes)
{
    KvTransferHeader h;
    h.m_type = type;
    h.m_imsi = imsi;
    h.m_epoch = epoch;
    h.m_unit = unit;
    h.m_first = first;
    h.m_count = count;
    h.m_payloadBytes = payloadBytes;
    const std::string why = h.Check();
    NS_ABORT_MSG_IF(!why.empty(), "KvTransferHeader: " << why);
    return h;
}

std::string
KvTransferHeader::Check() const
{
    std::ostringstream why;
    if (m_type < BEGIN || m_type > SEAL)
    {
        why << "type = " << unsigned(m_type) << " is not in [1, 7]";
    }
    else if (m_unit > ENTRY)
    {
        why << "unit = " << unsigned(m_unit) << " is not 0 (TOKEN) or 1 (ENTRY)";
    }
    else if (m_imsi == 0)
    {
        why << "imsi = 0; an IMSI is >= 1";
    }
    else if (uint64_t(m_first) + m_count > (uint64_t(1) << 32))
    {
        why << "first + count = " << uint64_t(m_first) + m_count << " exceeds 2^32";
    }
    else if (m_type == CANCEL)
    {
        if (m_first >= KV_DISCARD_REASONS)
        {
            why << "CANCEL reason (first) = " << m_first << " is not in [0, "
                << KV_DISCARD_REASONS - 1 << "]";
        }
        else if (m_count != 0 || m_payloadBytes != 0)
        {
            why << "CANCEL carries no range and no payload; got count = " << m_count
                << ", payloadBytes = " << m_payloadBytes;
        }
    }
    else if (m_type == END || m_type == OPEN || m_type == SEAL)
    {
        if (m_first != 0 || m_count != 0 || m_payloadBytes != 0)
        {
            why << TypeName(m_type) << " carries no range and no payload; got first = " << m_first
                << ", count = " << m_count << ", payloadBytes = " << m_payloadBytes;
        }
    }
    else if (m_count == 0)
    {
        why << "count = 0; a " << TypeName(m_type) << " range holds at least 1";
    }
    else if (m_type == TOKENS && m_unit != TOKEN)
    {
        why << "TOKENS must use unit 0 (TOKEN)";
    }
    else if (m_type == TOKENS && m_payloadBytes != uint64_t(m_count) * BYTES_PER_TOKEN_ID)
    {
        why << "TOKENS payloadBytes = " << m_payloadBytes
            << " must be 4 x count = " << uint64_t(m_count) * BYTES_PER_TOKEN_ID;
    }
    else if (m_payloadBytes == 0)
    {
        why << "payloadBytes = 0; a " << TypeName(m_type) << " carries at least 1 byte";
    }
    return why.str();
}

bool
KvTransferHeader::Parse(const uint8_t* data, uint32_t size, KvTransferHeader& out, std::string& why)
{
    if (data == nullptr || size < SERIALIZED_SIZE)
    {
        why = "truncated: " + std::to_string(data == nullptr ? 0 : size) + " of " +
              std::to_string(SERIALIZED_SIZE) + " bytes";
        return false;
    }
    const auto magic = static_cast<uint16_t>(ReadBigEndian(data, 2));
    if (magic != MAGIC)
    {
        why = "magic = " + std::to_string(magic) + "; expected " + std::to_string(MAGIC);
        return false;
    }
    if (data[2] != VERSION)
    {
        why = "version = " + std::to_string(data[2]) + "; this code speaks " +
              std::to_string(VERSION);
        return false;
    }
    if (data[5] != 0 || data[6] != 0 || data[7] != 0)
    {
        why = "reserved bytes 5-7 must be 0";
        return false;
    }
    KvTransferHeader h;
    h.m_type = data[3];
    h.m_unit = data[4];
    h.m_imsi = ReadBigEndian(data + 8, 8);
    h.m_epoch = static_cast<uint32_t>(ReadBigEndian(data + 16, 4));
    h.m_first = static_cast<uint32_t>(ReadBigEndian(data + 20, 4));
    h.m_count = static_cast<uint32_t>(ReadBigEndian(data + 24, 4));
    h.m_payloadBytes = ReadBigEndian(data + 28, 8);
    why = h.Check();
    if (!why.empty())
    {
        return false;
    }
    out = h;
    return true;
}

KvTransferHeader::MessageType
KvTransferHeader::GetMessageType() const
{
    return static_cast<MessageType>(m_type);
}

uint64_t
KvTransferHeader::GetImsi() const
{
    return m_imsi;
}

uint32_t
KvTransferHeader::GetEpoch() const
{
    return m_epoch;
}

KvTransferHeader::RangeUnit
KvTransferHeader::GetUnit() const
{
    return static_cast<RangeUnit>(m_unit);
}

uint32_t
KvTransferHeader::GetFirst() const
{
    return m_first;
}

uint32_t
KvTransferHeader::GetCount() const
{
    return m_count;
}

uint64_t
KvTransferHeader::GetPayloadBytes() const
{
    return m_payloadBytes;
}

uint64_t
KvTransferHeader::GetFollowingBytes() const
{
    return m_type == BEGIN ? 0 : m_payloadBytes;
}

KvTransferHeader
KvTransferHeader::MakeCancel(uint64_t imsi, uint32_t epoch, KvDiscardReason reason)
{
    return Make(CANCEL, imsi, epoch, TOKEN, static_cast<uint32_t>(reason), 0, 0);
}

KvDiscardReason
KvTransferHeader::GetCancelReason() const
{
    return static_cast<KvDiscardReason>(m_first);
}

const char*
KvTransferHeader::TypeName(uint8_t type)
{
    switch (type)
    {
    case BEGIN:
        return "BEGIN";
    case TOKENS:
        return "TOKENS";
    case DATA:
        return "DATA";
    case END:
        return "END";
    case CANCEL:
        return "CANCEL";
    case OPEN:
        return "OPEN";
    case SEAL:
        return "SEAL";
    default:
        return "UNKNOWN";
    }
}

void
KvTransferHeader::Print(std::ostream& os) const
{
    os << TypeName(m_type) << " imsi=" << m_imsi << " epoch=" << m_epoch;
    if (m_type == CANCEL && m_first < KV_DISCARD_REASONS)
    {
        os << " reason=" << KvDiscardReasonName(GetCancelReason());
        return;
    }
    os << " unit=" << (m_unit == TOKEN ? "token" : "entry") << " range=[" << m_first << ","
       << uint64_t(m_first) + m_count << ") payloadBytes=" << m_payloadBytes;
}

uint32_t
KvTransferHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
KvTransferHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(MAGIC);
    start.WriteU8(VERSION);
    start.WriteU8(m_type);
    start.WriteU8(m_unit);
    start.WriteU8(0);
    start.WriteU8(0);
    start.WriteU8(0);
    start.WriteHtonU64(m_imsi);
    start.WriteHtonU32(m_epoch);
    start.WriteHtonU32(m_first);
    start.WriteHtonU32(m_count);
    start.WriteHtonU64(m_payloadBytes);
}

uint32_t
KvTransferHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SERIALIZED_SIZE)
    {
        return 0;
    }
    std::array<uint8_t, SERIALIZED_SIZE> raw;
    start.Read(raw.data(), SERIALIZED_SIZE);
    std::string why;
    return Parse(raw.data(), SERIALIZED_SIZE, *this, why) ? SERIALIZED_SIZE : 0;
}

} // namespace ns3
