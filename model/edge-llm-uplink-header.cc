/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-uplink-header.h"

#include "input-checks.h"
#include "wire-format.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EdgeLlmUplinkHeader");

NS_OBJECT_ENSURE_REGISTERED(EdgeLlmUplinkHeader);

namespace
{

constexpr uint64_t MAX_INDEX = std::numeric_limits<uint32_t>::max();

/// "" if the NACK's ranges follow the rules of the layout, else what is wrong
std::string
CheckRanges(uint32_t nextExpected, const std::vector<TokenRange>& ranges)
{
    if (ranges.empty() || ranges.size() > EdgeLlmUplinkHeader::MAX_RANGES)
    {
        return edgellm::FieldError("rangeCount",
                                   ranges.size(),
                                   "[1, " + std::to_string(EdgeLlmUplinkHeader::MAX_RANGES) + "]");
    }
    // Ranges that touch would be one range; requiring a gap keeps every list canonical.
    uint64_t floor = nextExpected;
    for (std::size_t k = 0; k < ranges.size(); ++k)
    {
        const TokenRange& r = ranges[k];
        const std::string name = "ranges[" + std::to_string(k) + "]";
        // Named as the wire carries a range: first and count.
        if (r.Empty())
        {
            return edgellm::FieldError(name + ".count", 0, ">= 1");
        }
        if (r.end - 1 > MAX_INDEX)
        {
            return edgellm::FieldError(name + ".first + count - 1",
                                       r.end - 1,
                                       "<= " + std::to_string(MAX_INDEX));
        }
        if (r.first < floor)
        {
            return edgellm::FieldError(name + ".first",
                                       r.first,
                                       ">= " + std::to_string(floor) +
                                           (k == 0 ? " (the next expected index)"
                                                   : " (past the previous range, with a gap)"));
        }
        floor = r.end + 1;
    }
    return "";
}

} // namespace

TypeId
EdgeLlmUplinkHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EdgeLlmUplinkHeader")
                            .SetParent<Header>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<EdgeLlmUplinkHeader>();
    return tid;
}

EdgeLlmUplinkHeader::EdgeLlmUplinkHeader()
{
}

TypeId
EdgeLlmUplinkHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
EdgeLlmUplinkHeader::GetSerializedSize() const
{
    switch (m_type)
    {
    case OPEN_SESSION:
        return COMMON_SIZE + 16;
    case NACK:
        return COMMON_SIZE + 8 + 8 * static_cast<uint32_t>(m_ranges.size());
    default:
        return COMMON_SIZE + 4;
    }
}

std::string
EdgeLlmUplinkHeader::Check() const
{
    if (m_type != OPEN_SESSION && m_type != NACK && m_type != ACK)
    {
        return edgellm::FieldError("type", m_type, "16 (OPEN_SESSION), 17 (NACK) or 18 (ACK)");
    }
    if (m_imsi == 0)
    {
        return edgellm::FieldError("imsi", m_imsi, ">= 1");
    }
    if (m_type == OPEN_SESSION)
    {
        if (m_promptTokens == 0)
        {
            return edgellm::FieldError("promptTokens", 0, ">= 1");
        }
        if (m_tokensToGenerate == 0)
        {
            return edgellm::FieldError("tokensToGenerate", 0, ">= 1");
        }
        if (m_startNs < 0)
        {
            return "startNs = " + std::to_string(m_startNs) + " is invalid; allowed: >= 0";
        }
    }
    else if (m_type == NACK)
    {
        return CheckRanges(m_nextExpected, m_ranges);
    }
    return "";
}

void
EdgeLlmUplinkHeader::Serialize(Buffer::Iterator start) const
{
    const std::string error = Check();
    NS_ABORT_MSG_UNLESS(error.empty(), "EdgeLlmUplinkHeader::Serialize: " << error);
    Buffer::Iterator i = start;
    i.WriteHtonU16(MAGIC);
    i.WriteU8(VERSION);
    i.WriteU8(m_type);
    i.WriteHtonU32(m_requestSeq);
    i.WriteHtonU64(m_imsi);
    switch (m_type)
    {
    case OPEN_SESSION:
        i.WriteHtonU32(m_promptTokens);
        i.WriteHtonU32(m_tokensToGenerate);
        i.WriteHtonU64(static_cast<uint64_t>(m_startNs));
        break;
    case NACK:
        i.WriteHtonU32(m_nextExpected);
        i.WriteHtonU16(static_cast<uint16_t>(m_ranges.size()));
        i.WriteHtonU16(0);
        for (const TokenRange& r : m_ranges)
        {
            i.WriteHtonU32(edgellm::WireU32(r.first, "EdgeLlmUplinkHeader ranges[].first"));
            i.WriteHtonU32(edgellm::WireU32(r.Count(), "EdgeLlmUplinkHeader ranges[].count"));
        }
        break;
    default:
        i.WriteHtonU32(m_nextExpected);
        break;
    }
}

uint32_t
EdgeLlmUplinkHeader::Deserialize(Buffer::Iterator start)
{
    // Fields are read into a copy and taken only if all of them are valid.
    Buffer::Iterator i = start;
    auto refuse = [this](const std::string& why) -> uint32_t {
        m_error = why;
        NS_LOG_LOGIC("refused: " << why);
        return 0;
    };
    const std::string preamble = edgellm::ReadPreamble(i, MIN_SIZE, MAGIC, VERSION);
    if (!preamble.empty())
    {
        return refuse(preamble);
    }
    EdgeLlmUplinkHeader h;
    h.m_type = i.ReadU8();
    h.m_requestSeq = i.ReadNtohU32();
    h.m_imsi = i.ReadNtohU64();
    // MIN_SIZE covers the common part and the ACK; the other types need more.
    if (h.m_type == OPEN_SESSION || h.m_type == NACK)
    {
        const uint32_t need = h.m_type == OPEN_SESSION ? 16 : 8;
        if (i.GetRemainingSize() < need)
        {
            return refuse(edgellm::FieldError("size",
                                              COMMON_SIZE + i.GetRemainingSize(),
                                              ">= " + std::to_string(COMMON_SIZE + need)));
        }
    }
    if (h.m_type == OPEN_SESSION)
    {
        h.m_promptTokens = i.ReadNtohU32();
        h.m_tokensToGenerate = i.ReadNtohU32();
        h.m_startNs = static_cast<int64_t>(i.ReadNtohU64());
    }
    else if (h.m_type == NACK)
    {
        h.m_nextExpected = i.ReadNtohU32();
        const uint16_t count = i.ReadNtohU16();
        const uint16_t reserved = i.ReadNtohU16();
        if (reserved != 0)
        {
            return refuse(edgellm::FieldError("reserved", reserved, "0"));
        }
        if (count == 0 || count > MAX_RANGES)
        {
            return refuse(edgellm::FieldError("rangeCount",
                                              count,
                                              "[1, " + std::to_string(MAX_RANGES) + "]"));
        }
        if (i.GetRemainingSize() < 8u * count)
        {
            return refuse(edgellm::FieldError("size",
                                              COMMON_SIZE + 8 + i.GetRemainingSize(),
                                              ">= " + std::to_string(COMMON_SIZE + 8 + 8u * count) +
                                                  " for " + std::to_string(count) + " ranges"));
        }
        h.m_ranges.resize(count);
        for (TokenRange& r : h.m_ranges)
        {
            r.first = i.ReadNtohU32();
            r.end = r.first + i.ReadNtohU32();
        }
    }
    else if (h.m_type == ACK)
    {
        h.m_nextExpected = i.ReadNtohU32();
    }
    const std::string error = h.Check();
    if (!error.empty())
    {
        return refuse(error);
    }
    *this = h;
    return GetSerializedSize();
}

void
EdgeLlmUplinkHeader::Print(std::ostream& os) const
{
    switch (m_type)
    {
    case OPEN_SESSION:
        os << "OPEN_SESSION";
        break;
    case NACK:
        os << "NACK";
        break;
    case ACK:
        os << "ACK";
        break;
    default:
        os << "?";
    }
    os << " imsi=" << m_imsi << " seq=" << m_requestSeq;
    if (m_type == OPEN_SESSION)
    {
        os << " prompt=" << m_promptTokens << " generate=" << m_tokensToGenerate
           << " startNs=" << m_startNs;
        return;
    }
    os << " nextExpected=" << m_nextExpected;
    for (const TokenRange& r : m_ranges)
    {
        os << " [" << r.first << "," << r.end << ")";
    }
}

bool
EdgeLlmUplinkHeader::TryRemove(Ptr<Packet> packet, EdgeLlmUplinkHeader& header)
{
    if (packet->GetSize() < MIN_SIZE)
    {
        header.m_error =
            edgellm::FieldError("size", packet->GetSize(), ">= " + std::to_string(MIN_SIZE));
        return false;
    }
    return edgellm::RemoveIfValid(packet, header);
}

void
EdgeLlmUplinkHeader::SetOpenSession(uint32_t promptTokens, uint32_t tokensToGenerate, Time start)
{
    if (promptTokens == 0)
    {
        edgellm::ThrowInvalid("promptTokens", "0", ">= 1");
    }
    if (tokensToGenerate == 0)
    {
        edgellm::ThrowInvalid("tokensToGenerate", "0", ">= 1");
    }
    if (start.IsStrictlyNegative())
    {
        edgellm::ThrowInvalid("start", std::to_string(start.GetNanoSeconds()) + " ns", ">= 0");
    }
    m_type = OPEN_SESSION;
    m_promptTokens = promptTokens;
    m_tokensToGenerate = tokensToGenerate;
    m_startNs = start.GetNanoSeconds();
    m_ranges.clear();
    m_error.clear();
}

void
EdgeLlmUplinkHeader::SetNack(uint32_t nextExpected, const std::vector<TokenRange>& missing)
{
    const std::string error = CheckRanges(nextExpected, missing);
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    m_type = NACK;
    m_nextExpected = nextExpected;
    m_ranges = missing;
    m_error.clear();
}

void
EdgeLlmUplinkHeader::SetAck(uint32_t nextExpected)
{
    m_type = ACK;
    m_nextExpected = nextExpected;
    m_ranges.clear();
    m_error.clear();
}

void
EdgeLlmUplinkHeader::SetImsi(uint64_t imsi)
{
    if (imsi == 0)
    {
        edgellm::ThrowInvalid("imsi", "0", ">= 1");
    }
    m_imsi = imsi;
    m_error.clear();
}

void
EdgeLlmUplinkHeader::SetRequestSeq(uint32_t seq)
{
    m_requestSeq = seq;
}

bool
EdgeLlmUplinkHeader::IsValid() const
{
    return GetError().empty();
}

std::string
EdgeLlmUplinkHeader::GetError() const
{
    return m_error.empty() ? Check() : m_error;
}

EdgeLlmUplinkHeader::Type
EdgeLlmUplinkHeader::GetType() const
{
    return static_cast<Type>(m_type);
}

uint64_t
EdgeLlmUplinkHeader::GetImsi() const
{
    return m_imsi;
}

uint32_t
EdgeLlmUplinkHeader::GetRequestSeq() const
{
    return m_requestSeq;
}

uint32_t
EdgeLlmUplinkHeader::GetPromptTokens() const
{
    return m_promptTokens;
}

uint32_t
EdgeLlmUplinkHeader::GetTokensToGenerate() const
{
    return m_tokensToGenerate;
}

Time
EdgeLlmUplinkHeader::GetStartTime() const
{
    return NanoSeconds(m_startNs);
}

int64_t
EdgeLlmUplinkHeader::GetStartTimeNs() const
{
    return m_startNs;
}

uint32_t
EdgeLlmUplinkHeader::GetNextExpected() const
{
    return m_nextExpected;
}

const std::vector<TokenRange>&
EdgeLlmUplinkHeader::GetMissingRanges() const
{
    return m_ranges;
}

} // namespace ns3
