/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-downlink-header.h"

#include "input-checks.h"
#include "wire-format.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EdgeLlmDownlinkHeader");

NS_OBJECT_ENSURE_REGISTERED(EdgeLlmDownlinkHeader);

namespace
{

constexpr uint8_t KNOWN_FLAGS =
    EdgeLlmDownlinkHeader::FLAG_RESENT | EdgeLlmDownlinkHeader::FLAG_HANDOVER_MARK;
constexpr uint64_t MAX_INDEX = std::numeric_limits<uint32_t>::max();

bool
IsRejectReason(uint8_t reason)
{
    return reason >= EdgeLlmDownlinkHeader::SESSION_TOO_LARGE &&
           reason <= EdgeLlmDownlinkHeader::INVALID_REQUEST;
}

} // namespace

TypeId
EdgeLlmDownlinkHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EdgeLlmDownlinkHeader")
                            .SetParent<Header>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<EdgeLlmDownlinkHeader>();
    return tid;
}

EdgeLlmDownlinkHeader::EdgeLlmDownlinkHeader()
    : m_serverAddress(Ipv4Address::GetAny())
{
}

TypeId
EdgeLlmDownlinkHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
EdgeLlmDownlinkHeader::GetSerializedSize() const
{
    return MIN_SIZE + (m_type == TOKENS ? 8 * static_cast<uint32_t>(m_generatedNs.size()) : 0);
}

std::string
EdgeLlmDownlinkHeader::Check() const
{
    if (m_type != TOKENS && m_type != SESSION_REJECTED)
    {
        return edgellm::FieldError("type", m_type, "1 (TOKENS) or 2 (SESSION_REJECTED)");
    }
    if (m_imsi == 0)
    {
        return edgellm::FieldError("imsi", m_imsi, ">= 1");
    }
    if (m_cellId == 0)
    {
        return edgellm::FieldError("cellId", m_cellId, "[1, 65535]");
    }
    if (m_serverPort == 0)
    {
        return edgellm::FieldError("serverPort", m_serverPort, "[1, 65535]");
    }
    if (m_serverAddress == Ipv4Address::GetAny() || m_serverAddress.IsBroadcast())
    {
        std::ostringstream os;
        m_serverAddress.Print(os);
        return "serverAddress = " + os.str() +
               " is invalid; allowed: a unicast address, neither 0.0.0.0 nor 255.255.255.255";
    }
    if (m_type == SESSION_REJECTED)
    {
        if (!IsRejectReason(m_reason))
        {
            return edgellm::FieldError("rejectReason", m_reason, "[1, 3]");
        }
        return "";
    }
    if ((m_flags & ~KNOWN_FLAGS) != 0)
    {
        return edgellm::FieldError("flags", m_flags, "bits 0 (resent) and 1 (handover mark) only");
    }
    if (m_generatedNs.empty() || m_generatedNs.size() > MAX_TOKENS)
    {
        return edgellm::FieldError("tokenCount",
                                   m_generatedNs.size(),
                                   "[1, " + std::to_string(MAX_TOKENS) + "]");
    }
    if (m_firstIndex + m_generatedNs.size() - 1 > MAX_INDEX)
    {
        return edgellm::FieldError("firstIndex + tokenCount - 1",
                                   m_firstIndex + m_generatedNs.size() - 1,
                                   "<= " + std::to_string(MAX_INDEX));
    }
    for (std::size_t i = 0; i < m_generatedNs.size(); ++i)
    {
        const int64_t t = m_generatedNs[i];
        const int64_t previous = i == 0 ? 0 : m_generatedNs[i - 1];
        if (t < previous)
        {
            return "generatedNs[" + std::to_string(i) + "] = " + std::to_string(t) +
                   " is invalid; allowed: >= 0 and >= the previous token's time";
        }
    }
    return "";
}

void
EdgeLlmDownlinkHeader::Serialize(Buffer::Iterator start) const
{
    const std::string error = Check();
    NS_ABORT_MSG_UNLESS(error.empty(), "EdgeLlmDownlinkHeader::Serialize: " << error);
    Buffer::Iterator i = start;
    i.WriteHtonU16(MAGIC);
    i.WriteU8(VERSION);
    i.WriteU8(m_type);
    i.WriteHtonU64(m_imsi);
    i.WriteHtonU16(m_cellId);
    i.WriteHtonU16(m_serverPort);
    i.WriteHtonU32(m_serverAddress.Get());
    if (m_type == TOKENS)
    {
        i.WriteU8(m_flags);
        i.WriteU8(0);
        i.WriteHtonU16(static_cast<uint16_t>(m_generatedNs.size()));
        i.WriteHtonU32(m_firstIndex);
        for (int64_t t : m_generatedNs)
        {
            i.WriteHtonU64(static_cast<uint64_t>(t));
        }
    }
    else
    {
        i.WriteU8(m_reason);
        i.WriteU8(0);
        i.WriteHtonU16(0);
        i.WriteHtonU32(m_requestSeq);
    }
}

uint32_t
EdgeLlmDownlinkHeader::Deserialize(Buffer::Iterator start)
{
    // Fields are read into a copy and taken only if all of them are valid, so that a refused
    // message leaves nothing half-written behind.
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
    EdgeLlmDownlinkHeader h;
    h.m_type = i.ReadU8();
    h.m_imsi = i.ReadNtohU64();
    h.m_cellId = i.ReadNtohU16();
    h.m_serverPort = i.ReadNtohU16();
    h.m_serverAddress = Ipv4Address(i.ReadNtohU32());
    if (h.m_type == TOKENS)
    {
        h.m_flags = i.ReadU8();
        const uint8_t reserved = i.ReadU8();
        if (reserved != 0)
        {
            return refuse(edgellm::FieldError("reserved", reserved, "0"));
        }
        const uint16_t count = i.ReadNtohU16();
        h.m_firstIndex = i.ReadNtohU32();
        if (count == 0 || count > MAX_TOKENS)
        {
            return refuse(edgellm::FieldError("tokenCount",
                                              count,
                                              "[1, " + std::to_string(MAX_TOKENS) + "]"));
        }
        if (i.GetRemainingSize() < 8u * count)
        {
            return refuse(edgellm::FieldError("size",
                                              MIN_SIZE + i.GetRemainingSize(),
                                              ">= " + std::to_string(MIN_SIZE + 8u * count) +
                                                  " for " + std::to_string(count) + " tokens"));
        }
        h.m_generatedNs.resize(count);
        for (auto& t : h.m_generatedNs)
        {
            t = static_cast<int64_t>(i.ReadNtohU64());
        }
    }
    else if (h.m_type == SESSION_REJECTED)
    {
        h.m_reason = i.ReadU8();
        const uint32_t reserved = (static_cast<uint32_t>(i.ReadU8()) << 16) | i.ReadNtohU16();
        if (reserved != 0)
        {
            return refuse(edgellm::FieldError("reserved", reserved, "0"));
        }
        h.m_requestSeq = i.ReadNtohU32();
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
EdgeLlmDownlinkHeader::Print(std::ostream& os) const
{
    os << (m_type == TOKENS             ? "TOKENS"
           : m_type == SESSION_REJECTED ? "SESSION_REJECTED"
                                        : "?")
       << " imsi=" << m_imsi << " cell=" << m_cellId << " server=" << m_serverAddress << ":"
       << m_serverPort;
    if (m_type == TOKENS)
    {
        os << " first=" << m_firstIndex << " count=" << m_generatedNs.size();
        if (m_flags & FLAG_RESENT)
        {
            os << " resent";
        }
        if (m_flags & FLAG_HANDOVER_MARK)
        {
            os << " handover-mark";
        }
    }
    else
    {
        os << " reason=" << static_cast<uint32_t>(m_reason) << " requestSeq=" << m_requestSeq;
    }
}

bool
EdgeLlmDownlinkHeader::TryRemove(Ptr<Packet> packet, EdgeLlmDownlinkHeader& header)
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
EdgeLlmDownlinkHeader::SetTokens(uint32_t firstIndex, const std::vector<Time>& generated)
{
    if (generated.empty() || generated.size() > MAX_TOKENS)
    {
        edgellm::ThrowInvalid("tokenCount",
                              std::to_string(generated.size()),
                              "[1, " + std::to_string(MAX_TOKENS) + "]");
    }
    if (firstIndex + generated.size() - 1 > MAX_INDEX)
    {
        edgellm::ThrowInvalid("firstIndex + tokenCount - 1",
                              std::to_string(firstIndex + generated.size() - 1),
                              "<= " + std::to_string(MAX_INDEX));
    }
    std::vector<int64_t> ns;
    ns.reserve(generated.size());
    for (std::size_t i = 0; i < generated.size(); ++i)
    {
        const int64_t t = generated[i].GetNanoSeconds();
        if (t < 0 || (i > 0 && t < ns.back()))
        {
            edgellm::ThrowInvalid("generated[" + std::to_string(i) + "]",
                                  std::to_string(t) + " ns",
                                  ">= 0 and >= the previous token's time");
        }
        ns.push_back(t);
    }
    m_type = TOKENS;
    m_firstIndex = firstIndex;
    m_generatedNs = std::move(ns);
    m_error.clear();
}

void
EdgeLlmDownlinkHeader::SetRejection(RejectReason reason, uint32_t requestSeq)
{
    if (!IsRejectReason(reason))
    {
        edgellm::ThrowInvalid("rejectReason", std::to_string(reason), "[1, 3]");
    }
    m_type = SESSION_REJECTED;
    m_reason = reason;
    m_requestSeq = requestSeq;
    m_generatedNs.clear();
    m_flags = 0;
    m_error.clear();
}

void
EdgeLlmDownlinkHeader::SetImsi(uint64_t imsi)
{
    if (imsi == 0)
    {
        edgellm::ThrowInvalid("imsi", "0", ">= 1");
    }
    m_imsi = imsi;
    m_error.clear();
}

void
EdgeLlmDownlinkHeader::SetCellId(uint16_t cellId)
{
    if (cellId == 0)
    {
        edgellm::ThrowInvalid("cellId", "0", "[1, 65535]");
    }
    m_cellId = cellId;
    m_error.clear();
}

void
EdgeLlmDownlinkHeader::SetServer(Ipv4Address address, uint16_t port)
{
    if (address == Ipv4Address::GetAny() || address.IsBroadcast())
    {
        std::ostringstream os;
        address.Print(os);
        edgellm::ThrowInvalid("serverAddress",
                              os.str(),
                              "a unicast address, neither 0.0.0.0 nor 255.255.255.255");
    }
    if (port == 0)
    {
        edgellm::ThrowInvalid("serverPort", "0", "[1, 65535]");
    }
    m_serverAddress = address;
    m_serverPort = port;
    m_error.clear();
}

void
EdgeLlmDownlinkHeader::SetResent(bool resent)
{
    m_flags = resent ? (m_flags | FLAG_RESENT) : (m_flags & ~FLAG_RESENT);
}

void
EdgeLlmDownlinkHeader::SetHandoverMark(bool mark)
{
    m_flags = mark ? (m_flags | FLAG_HANDOVER_MARK) : (m_flags & ~FLAG_HANDOVER_MARK);
}

bool
EdgeLlmDownlinkHeader::IsValid() const
{
    return GetError().empty();
}

std::string
EdgeLlmDownlinkHeader::GetError() const
{
    return m_error.empty() ? Check() : m_error;
}

EdgeLlmDownlinkHeader::Type
EdgeLlmDownlinkHeader::GetType() const
{
    return static_cast<Type>(m_type);
}

uint64_t
EdgeLlmDownlinkHeader::GetImsi() const
{
    return m_imsi;
}

uint16_t
EdgeLlmDownlinkHeader::GetCellId() const
{
    return m_cellId;
}

Ipv4Address
EdgeLlmDownlinkHeader::GetServerAddress() const
{
    return m_serverAddress;
}

uint16_t
EdgeLlmDownlinkHeader::GetServerPort() const
{
    return m_serverPort;
}

uint32_t
EdgeLlmDownlinkHeader::GetFirstIndex() const
{
    return m_firstIndex;
}

uint16_t
EdgeLlmDownlinkHeader::GetTokenCount() const
{
    return static_cast<uint16_t>(m_generatedNs.size());
}

uint32_t
EdgeLlmDownlinkHeader::GetLastIndex() const
{
    return m_generatedNs.empty() ? m_firstIndex
                                 : m_firstIndex + static_cast<uint32_t>(m_generatedNs.size()) - 1;
}

const std::vector<int64_t>&
EdgeLlmDownlinkHeader::GetGenerationTimesNs() const
{
    return m_generatedNs;
}

Time
EdgeLlmDownlinkHeader::GetGenerationTime(uint16_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_generatedNs.size(),
                        "EdgeLlmDownlinkHeader::GetGenerationTime: i = "
                            << i << " is invalid; allowed: [0, " << m_generatedNs.size() << ")");
    return NanoSeconds(m_generatedNs[i]);
}

bool
EdgeLlmDownlinkHeader::IsResent() const
{
    return (m_flags & FLAG_RESENT) != 0;
}

bool
EdgeLlmDownlinkHeader::IsHandoverMark() const
{
    return (m_flags & FLAG_HANDOVER_MARK) != 0;
}

EdgeLlmDownlinkHeader::RejectReason
EdgeLlmDownlinkHeader::GetRejectReason() const
{
    return static_cast<RejectReason>(m_reason);
}

uint32_t
EdgeLlmDownlinkHeader::GetRequestSeq() const
{
    return m_requestSeq;
}

} // namespace ns3
