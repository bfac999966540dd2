/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-relay-header.h"

#include "wire-format.h"

#include "ns3/abort.h"
#include "ns3/packet.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(EdgeLlmRelayHeader);

TypeId
EdgeLlmRelayHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EdgeLlmRelayHeader")
                            .SetParent<Header>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<EdgeLlmRelayHeader>();
    return tid;
}

TypeId
EdgeLlmRelayHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

EdgeLlmRelayHeader::EdgeLlmRelayHeader() = default;

EdgeLlmRelayHeader::EdgeLlmRelayHeader(uint64_t imsi, Ipv4Address ueAddress, uint16_t uePort)
    : m_imsi(imsi),
      m_ueAddress(ueAddress),
      m_uePort(uePort)
{
    NS_ABORT_MSG_IF(imsi == 0, "EdgeLlmRelayHeader: imsi = 0; an IMSI is >= 1");
    NS_ABORT_MSG_IF(uePort == 0, "EdgeLlmRelayHeader: uePort = 0; a port is >= 1");
}

bool
EdgeLlmRelayHeader::TryRemove(Ptr<Packet> packet, EdgeLlmRelayHeader& header)
{
    if (!packet || packet->GetSize() < SERIALIZED_SIZE)
    {
        return false;
    }
    return edgellm::RemoveIfValid(packet, header);
}

uint64_t
EdgeLlmRelayHeader::GetImsi() const
{
    return m_imsi;
}

Ipv4Address
EdgeLlmRelayHeader::GetUeAddress() const
{
    return m_ueAddress;
}

uint16_t
EdgeLlmRelayHeader::GetUePort() const
{
    return m_uePort;
}

void
EdgeLlmRelayHeader::Print(std::ostream& os) const
{
    os << "relay imsi=" << m_imsi << " ue=" << m_ueAddress << ":" << m_uePort;
}

uint32_t
EdgeLlmRelayHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
EdgeLlmRelayHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(MAGIC);
    start.WriteU8(VERSION);
    start.WriteU8(0);
    start.WriteHtonU64(m_imsi);
    start.WriteHtonU32(m_ueAddress.Get());
    start.WriteHtonU16(m_uePort);
    start.WriteU16(0);
}

uint32_t
EdgeLlmRelayHeader::Deserialize(Buffer::Iterator start)
{
    if (!edgellm::ReadPreamble(start, SERIALIZED_SIZE, MAGIC, VERSION).empty())
    {
        return 0;
    }
    const uint8_t reserved = start.ReadU8();
    const uint64_t imsi = start.ReadNtohU64();
    const uint32_t address = start.ReadNtohU32();
    const uint16_t port = start.ReadNtohU16();
    const uint16_t reserved2 = start.ReadU16();
    if (reserved != 0 || reserved2 != 0 || imsi == 0 || port == 0)
    {
        return 0;
    }
    m_imsi = imsi;
    m_ueAddress = Ipv4Address(address);
    m_uePort = port;
    return SERIALIZED_SIZE;
}

} // namespace ns3
