/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "local-breakout.h"

#include "explaining-checker.h"

#include "ns3/boolean.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LocalBreakout");

NS_OBJECT_ENSURE_REGISTERED(LocalBreakout);

namespace
{

/// Size of the IPv4 header built here (no options) plus the UDP header.
constexpr uint32_t kHeaderBytes = 20 + 8;

} // namespace

TypeId
LocalBreakout::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LocalBreakout")
            .SetParent<RanDownlink>()
            .SetGroupName("EdgeLlm")
            .AddAttribute("Ttl",
                          "IPv4 time to live of the packets built.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&LocalBreakout::m_ttl),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint8_t>(1),
                                                         "ns3::LocalBreakout::Ttl",
                                                         "an integer in [1, 255]"))
            .AddAttribute("BearerId",
                          "EPS bearer the packets are tagged with; 1 is the default bearer.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&LocalBreakout::m_bearerId),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint8_t>(1, 11),
                                                         "ns3::LocalBreakout::BearerId",
                                                         "an integer in [1, 11]"))
            .AddAttribute("UdpChecksum",
                          "Compute the UDP checksum. It is computed anyway when ns-3's "
                          "ChecksumEnabled global value is true, since the UE then checks it.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&LocalBreakout::m_udpChecksum),
                          edgellm::MakeExplainingBooleanChecker("ns3::LocalBreakout::UdpChecksum"))
            .AddTraceSource("SendRefused",
                            "A send was refused: the UE has no context here, or one in a state "
                            "that takes no downlink data.",
                            MakeTraceSourceAccessor(&LocalBreakout::m_refusedTrace),
                            "ns3::LocalBreakout::SendRefusedTracedCallback")
            .AddTraceSource("Tx",
                            "An IPv4 packet was handed to the base station.",
                            MakeTraceSourceAccessor(&LocalBreakout::m_txTrace),
                            "ns3::LocalBreakout::TxTracedCallback");
    return tid;
}

LocalBreakout::LocalBreakout() = default;

LocalBreakout::~LocalBreakout() = default;

uint64_t
LocalBreakout::GetSentPackets() const
{
    return m_sent;
}

uint64_t
LocalBreakout::GetRefusedPackets() const
{
    return m_refused;
}

std::string
LocalBreakout::ToString(RefuseReason reason)
{
    switch (reason)
    {
    case NO_DEVICE:
        return "NO_DEVICE";
    case NO_CONTEXT:
        return "NO_CONTEXT";
    case STATE_NOT_ALLOWED:
        return "STATE_NOT_ALLOWED";
    case TOO_LARGE:
        return "TOO_LARGE";
    case NO_BEARER:
        return "NO_BEARER";
    }
    return "UNKNOWN";
}

bool
LocalBreakout::CanSend(uint64_t imsi)
{
    if (!IsBound() || imsi == 0)
    {
        return false;
    }
    const Context c = FindContext(imsi);
    return c.found && c.sendAllowed;
}

bool
LocalBreakout::Refuse(uint64_t imsi, RefuseReason reason)
{
    NS_LOG_LOGIC("cell " << GetCellId() << " refuses a packet to IMSI " << imsi << ": "
                         << ToString(reason));
    ++m_refused;
    m_refusedTrace(imsi, reason);
    return false;
}

bool
LocalBreakout::Send(Ptr<Packet> udpPayload,
                    uint64_t imsi,
                    Ipv4Address ueAddress,
                    Ipv4Address srcAddress,
                    uint16_t srcPort,
                    uint16_t dstPort)
{
    NS_LOG_FUNCTION(this << udpPayload << imsi << ueAddress << srcAddress << srcPort << dstPort);
    if (!IsBound())
    {
        return Refuse(imsi, NO_DEVICE);
    }
    if (udpPayload->GetSize() > 0xffff - kHeaderBytes)
    {
        return Refuse(imsi, TOO_LARGE);
    }
    const Context ue = imsi == 0 ? Context{} : FindContext(imsi);
    if (!ue.found)
    {
        return Refuse(imsi, NO_CONTEXT);
    }
    if (!ue.sendAllowed)
    {
        return Refuse(imsi, STATE_NOT_ALLOWED);
    }
    // A missing bearer is dropped silently by a connected UE's context, but stops the run in a
    // context that is leaving. The default bearer exists in every allowed state.
    if (m_bearerId != 1 && !HasBearer(imsi, m_bearerId))
    {
        return Refuse(imsi, NO_BEARER);
    }

    Ptr<Packet> p = udpPayload->Copy();
    bool checksums = Node::ChecksumEnabled();
    UdpHeader udp;
    udp.SetSourcePort(srcPort);
    udp.SetDestinationPort(dstPort);
    if (m_udpChecksum || checksums)
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(srcAddress, ueAddress, UdpL4Protocol::PROT_NUMBER);
    }
    p->AddHeader(udp);

    Ipv4Header ip;
    ip.SetSource(srcAddress);
    ip.SetDestination(ueAddress);
    ip.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(m_ttl);
    ip.SetIdentification(m_identification++);
    if (checksums)
    {
        // The UE's IPv4 checks the header checksum exactly when checksums are enabled.
        ip.EnableChecksum();
    }
    p->AddHeader(ip);

    m_txTrace(imsi, ue.rnti, p);
    Deliver(p, ue.rnti, m_bearerId);
    ++m_sent;
    return true;
}

} // namespace ns3
