/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-client.h"

#include "edge-llm-downlink-header.h"
#include "edge-llm-uplink-header.h"
#include "explaining-checker.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EdgeLlmClient");
NS_OBJECT_ENSURE_REGISTERED(EdgeLlmClient);

namespace
{

/// The full name of one of the client's attributes.
std::string
Full(const std::string& name)
{
    return "ns3::EdgeLlmClient::" + name;
}

/// Checker of a uint32 count of at least 1.
Ptr<const AttributeChecker>
CountChecker(const std::string& name)
{
    return edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1),
                                          Full(name),
                                          "an integer in [1, 4294967295]");
}

/// Checker of a UDP port.
Ptr<const AttributeChecker>
PortChecker(const std::string& name)
{
    return edgellm::MakeExplainingChecker(MakeUintegerChecker<uint16_t>(1),
                                          Full(name),
                                          "an integer in [1, 65535]");
}

/// Checker of a time that must be > 0 (or >= 0 when zero is allowed).
Ptr<const AttributeChecker>
IntervalChecker(const std::string& name, bool zeroAllowed, const std::string& why)
{
    return edgellm::MakeExplainingChecker(
        MakeTimeChecker(),
        Full(name),
        zeroAllowed ? "a time >= 0" : "a time > 0",
        [zeroAllowed, why](const AttributeValue& v) -> std::string {
            const Time t = static_cast<const TimeValue&>(v).Get();
            if (t.IsStrictlyNegative() || (!zeroAllowed && t.IsZero()))
            {
                return why;
            }
            return "";
        });
}

/// True while a client's attributes take their initial values.
bool g_constructing = false;

} // namespace

TypeId
EdgeLlmClient::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EdgeLlmClient")
            .SetParent<Application>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<EdgeLlmClient>()
            .AddAttribute("Imsi",
                          "The UE's IMSI, the session's id, >= 1. Must be set (the helper "
                          "takes it from the UE's LTE device); 0 means not set.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EdgeLlmClient::m_imsi),
                          edgellm::MakeExplainingChecker(
                              MakeUintegerChecker<uint64_t>(),
                              Full("Imsi"),
                              "an integer in [1, 18446744073709551615]",
                              [](const AttributeValue& v) -> std::string {
                                  // The initial 0 marks the IMSI as not set, and is taken
                                  // silently while an object is built; StartApplication names
                                  // the attribute if it was never given.
                                  const bool zero = static_cast<const UintegerValue&>(v).Get() == 0;
                                  return zero && !g_constructing ? "0 is no IMSI" : "";
                              }))
            .AddAttribute("ServerAddress",
                          "IPv4 address of the server that receives OPEN_SESSION (the serving "
                          "cell's). Must be set; not 0.0.0.0 nor 255.255.255.255.",
                          Ipv4AddressValue(Ipv4Address()),
                          MakeIpv4AddressAccessor(&EdgeLlmClient::m_serverAddress),
                          edgellm::MakeExplainingChecker(
                              MakeIpv4AddressChecker(),
                              Full("ServerAddress"),
                              "a unicast IPv4 address, not 0.0.0.0 nor 255.255.255.255",
                              [](const AttributeValue& v) -> std::string {
                                  const Ipv4Address a =
                                      static_cast<const Ipv4AddressValue&>(v).Get();
                                  const bool everyone = a.IsAny() || a.IsBroadcast();
                                  if (a.IsInitialized() && (everyone || a.IsMulticast()))
                                  {
                                      return "not a server's address";
                                  }
                                  return "";
                              }))
            .AddAttribute("ServerPort",
                          "UDP port of the server that receives OPEN_SESSION, [1, 65535].",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&EdgeLlmClient::m_serverPort),
                          PortChecker("ServerPort"))
            .AddAttribute("Port",
                          "Local UDP port of the client's one socket, [1, 65535]; it sends "
                          "every uplink message and receives every downlink one.",
                          UintegerValue(9100),
                          MakeUintegerAccessor(&EdgeLlmClient::m_port),
                          PortChecker("Port"))
            .AddAttribute("PromptTokens",
                          "Tokens in the session's prompt, >= 1.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&EdgeLlmClient::m_promptTokens),
                          CountChecker("PromptTokens"))
            .AddAttribute("TokensToGenerate",
                          "Tokens the server is to generate, >= 1. The client keeps 8 bytes "
                          "per delivered token: its delivery time.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&EdgeLlmClient::m_tokensToGenerate),
                          CountChecker("TokensToGenerate"))
            .AddAttribute("OpenRetryInterval",
                          "Time between OPEN_SESSION retries until the first TOKENS or a "
                          "rejection, > 0.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&EdgeLlmClient::m_openRetryInterval),
                          IntervalChecker("OpenRetryInterval", false, "the retries would not end"))
            .AddAttribute("NackDelay",
                          "Wait after a gap appears before NACKing it, >= 0: reordering also "
                          "opens gaps, which close by themselves.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&EdgeLlmClient::m_nackDelay),
                          IntervalChecker("NackDelay", true, "negative"))
            .AddAttribute("NackInterval",
                          "Time between repeated NACKs while gaps remain, > 0; longer than "
                          "a round trip to avoid asking twice for what is on its way.",
                          TimeValue(MilliSeconds(30)),
                          MakeTimeAccessor(&EdgeLlmClient::m_nackInterval),
                          IntervalChecker("NackInterval", false, "the NACKs would not end"))
            .AddAttribute("IdleTimeout",
                          "Silence after which an incomplete session NACKs its unreceived "
                          "tail, > 0; repeated at this interval.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&EdgeLlmClient::m_idleTimeout),
                          IntervalChecker("IdleTimeout", false, "the NACKs would not end"))
            .AddAttribute("AckEveryTokens",
                          "Send an ACK every this many tokens delivered (and at completion), "
                          ">= 1.",
                          UintegerValue(32),
                          MakeUintegerAccessor(&EdgeLlmClient::m_ackEveryTokens),
                          CountChecker("AckEveryTokens"))
            .AddTraceSource("TokenDelivered",
                            "A token was delivered to the application, in order, once.",
                            MakeTraceSourceAccessor(&EdgeLlmClient::m_tokenDelivered),
                            "ns3::EdgeLlmClient::TokenDeliveredTracedCallback")
            .AddTraceSource("SessionRejected",
                            "The server refused the session.",
                            MakeTraceSourceAccessor(&EdgeLlmClient::m_sessionRejected),
                            "ns3::EdgeLlmClient::RejectedTracedCallback")
            .AddTraceSource("Ttft",
                            "Time to first token: delivery of token 0 minus the session start.",
                            MakeTraceSourceAccessor(&EdgeLlmClient::m_ttft),
                            "ns3::Time::TracedCallback")
            .AddTraceSource("InterTokenLatency",
                            "Delivery of a token minus delivery of the one before it.",
                            MakeTraceSourceAccessor(&EdgeLlmClient::m_interTokenLatency),
                            "ns3::Time::TracedCallback")
            .AddTraceSource("ServiceInterruption",
                            "A handover's SIT: the delivery of the first token generated "
                            "after the marked one (or of the first token delivered after the "
                            "mark's arrival, if later) minus the last in-order delivery before "
                            "the mark arrived. Fires at that delivery.",
                            MakeTraceSourceAccessor(&EdgeLlmClient::m_serviceInterruption),
                            "ns3::EdgeLlmClient::ServiceInterruptionTracedCallback")
            .AddTraceSource("SessionComplete",
                            "Every token of the session was delivered.",
                            MakeTraceSourceAccessor(&EdgeLlmClient::m_complete),
                            "ns3::EdgeLlmClient::CompleteTracedCallback")
            .AddTraceSource("PacketDropped",
                            "A downlink packet was dropped: malformed, of another session, or "
                            "out of the session's range or state. It changes nothing.",
                            MakeTraceSourceAccessor(&EdgeLlmClient::m_packetDropped),
                            "ns3::EdgeLlmClient::PacketDroppedTracedCallback");
    return tid;
}

EdgeLlmClient::EdgeLlmClient()
{
    NS_LOG_FUNCTION(this);
    g_constructing = true;
}

void
EdgeLlmClient::NotifyConstructionCompleted()
{
    g_constructing = false;
    Application::NotifyConstructionCompleted();
}

EdgeLlmClient::~EdgeLlmClient() = default;

void
EdgeLlmClient::DoDispose()
{
    NS_LOG_FUNCTION(this);
    CancelTimers();
    m_socket = nullptr;
    m_log = nullptr;
    Application::DoDispose();
}

void
EdgeLlmClient::SetTokenLog(Ptr<TokenLog> log)
{
    m_log = log;
}

void
EdgeLlmClient::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_imsi == 0)
    {
        NS_FATAL_ERROR(Full("Imsi") << " is not set; allowed: an integer >= 1");
    }
    if (!m_serverAddress.IsInitialized())
    {
        NS_FATAL_ERROR(Full("ServerAddress") << " is not set; allowed: a unicast IPv4 address");
    }
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    if (m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) == -1)
    {
        NS_FATAL_ERROR(Full("Port") << " = " << m_port << ": cannot bind the client's socket");
    }
    m_socket->SetRecvCallback(MakeCallback(&EdgeLlmClient::HandleRead, this));
    m_started = true;
    m_startNs = Simulator::Now().GetNanoSeconds();
    m_rob = std::make_unique<TokenReorderBuffer>(m_tokensToGenerate);
    // The times grow with the tokens delivered; reserving for a huge request up front would
    // take its memory before a single token came.
    m_deliveryNs.reserve(std::min<uint32_t>(m_tokensToGenerate, 65536));
    m_ownerAddress = m_serverAddress;
    m_ownerPort = m_serverPort;
    m_ownerFrontier = 0;
    SendOpen();
}

void
EdgeLlmClient::StopApplication()
{
    NS_LOG_FUNCTION(this);
    CancelTimers();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
        m_socket = nullptr;
    }
}

void
EdgeLlmClient::CancelTimers()
{
    m_openEvent.Cancel();
    m_gapNackEvent.Cancel();
    m_idleEvent.Cancel();
}

void
EdgeLlmClient::SendUplink(EdgeLlmUplinkHeader& header, Ipv4Address to, uint16_t port)
{
    header.SetImsi(m_imsi);
    header.SetRequestSeq(m_nextSeq++);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(header);
    m_socket->SendTo(p, 0, InetSocketAddress(to, port));
}

void
EdgeLlmClient::SendOpen()
{
    EdgeLlmUplinkHeader h;
    h.SetOpenSession(m_promptTokens, m_tokensToGenerate, NanoSeconds(m_startNs));
    if (m_opensSent == 0)
    {
        m_firstOpenSeq = m_nextSeq;
    }
    m_lastOpenSeq = m_nextSeq;
    NS_LOG_INFO("EdgeLlmClient " << m_imsi << ": OPEN_SESSION seq " << m_nextSeq << " to "
                                 << m_serverAddress << ":" << m_serverPort);
    SendUplink(h, m_serverAddress, m_serverPort);
    ++m_opensSent;
    m_openEvent = Simulator::Schedule(m_openRetryInterval, &EdgeLlmClient::SendOpen, this);
}

void
EdgeLlmClient::HandleRead(Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    Address from;
    while ((packet = socket->RecvFrom(from)))
    {
        EdgeLlmDownlinkHeader header;
        if (!EdgeLlmDownlinkHeader::TryRemove(packet, header))
        {
            DropPacket("malformed: " + header.GetError());
            continue;
        }
        if (header.GetImsi() != m_imsi)
        {
            DropPacket("of session " + std::to_string(header.GetImsi()));
            continue;
        }
        if (header.GetType() == EdgeLlmDownlinkHeader::TOKENS)
        {
            HandleTokens(header);
        }
        else
        {
            HandleRejection(header);
        }
    }
}

void
EdgeLlmClient::DropPacket(const std::string& why)
{
    NS_LOG_WARN("EdgeLlmClient " << m_imsi << ": dropped a packet: " << why);
    ++m_invalidPackets;
    m_packetDropped(m_imsi, why);
}

void
EdgeLlmClient::HandleRejection(const EdgeLlmDownlinkHeader& header)
{
    const uint32_t seq = header.GetRequestSeq();
    // Only an answer to one of this session's OPEN_SESSIONs, and only before streaming began:
    // once tokens flow, a server serves the session and a stray refusal is not its verdict.
    const bool echoesOpen =
        m_opensSent > 0 && seq - m_firstOpenSeq <= m_lastOpenSeq - m_firstOpenSeq;
    if (m_rejected || m_streaming || !echoesOpen)
    {
        DropPacket("a SESSION_REJECTED of seq " + std::to_string(seq) +
                   ", no answer to a pending OPEN_SESSION");
        return;
    }
    NS_LOG_INFO("EdgeLlmClient " << m_imsi << ": rejected, reason "
                                 << static_cast<int>(header.GetRejectReason()));
    m_rejected = true;
    CancelTimers();
    m_sessionRejected(m_imsi, static_cast<uint8_t>(header.GetRejectReason()));
}

void
EdgeLlmClient::GapNackTimeout()
{
    const std::vector<TokenRange> missing = m_rob->MissingRanges(EdgeLlmUplinkHeader::MAX_RANGES);
    if (missing.empty())
    {
        return;
    }
    SendNack(missing);
    m_gapNackEvent = Simulator::Schedule(m_nackInterval, &EdgeLlmClient::GapNackTimeout, this);
}

void
EdgeLlmClient::IdleTimeout()
{
    std::vector<TokenRange> ranges = m_rob->MissingRanges(EdgeLlmUplinkHeader::MAX_RANGES - 1);
    const TokenRange tail = m_rob->UnreceivedTail();
    if (!tail.Empty())
    {
        // The tail starts past the highest token received, so it never touches a gap.
        ranges.push_back(tail);
    }
    if (!ranges.empty())
    {
        SendNack(ranges);
    }
    m_idleEvent = Simulator::Schedule(m_idleTimeout, &EdgeLlmClient::IdleTimeout, this);
}

void
EdgeLlmClient::SendNack(const std::vector<TokenRange>& ranges)
{
    EdgeLlmUplinkHeader h;
    h.SetNack(m_rob->GetNextExpected(), ranges);
    NS_LOG_INFO("EdgeLlmClient " << m_imsi << ": NACK of " << ranges.size() << " ranges from "
                                 << ranges.front().first << " to " << m_ownerAddress);
    SendUplink(h, m_ownerAddress, m_ownerPort);
    ++m_nacksSent;
}

void
EdgeLlmClient::SendAck()
{
    EdgeLlmUplinkHeader h;
    h.SetAck(m_rob->GetNextExpected());
    SendUplink(h, m_ownerAddress, m_ownerPort);
    ++m_acksSent;
    m_deliveredSinceAck = 0;
    m_lastAckTime = Simulator::Now();
}

TokenTimingSummary
EdgeLlmClient::GetSummary() const
{
    if (m_deliveryNs.empty())
    {
        TokenTimingSummary s;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        s.ttftS = s.totalS = s.itlMeanS = s.itlP50S = s.itlP90S = s.itlP99S = nan;
        return s;
    }
    return edgellm::SummarizeTokenTiming(m_startNs, m_deliveryNs, m_handoverMarks);
}

uint64_t
EdgeLlmClient::GetImsi() const
{
    return m_imsi;
}

uint64_t
EdgeLlmClient::GetDeliveredTokens() const
{
    return m_deliveryNs.size();
}

uint64_t
EdgeLlmClient::GetDuplicates() const
{
    return m_rob ? m_rob->GetDuplicateCount() : 0;
}

uint64_t
EdgeLlmClient::GetDeliveredByResend() const
{
    return m_rob ? m_rob->GetDeliveredByResendCount() : 0;
}

uint64_t
EdgeLlmClient::GetNacksSent() const
{
    return m_nacksSent;
}

uint64_t
EdgeLlmClient::GetAcksSent() const
{
    return m_acksSent;
}

uint64_t
EdgeLlmClient::GetOpensSent() const
{
    return m_opensSent;
}

uint64_t
EdgeLlmClient::GetInvalidPackets() const
{
    return m_invalidPackets;
}

bool
EdgeLlmClient::IsComplete() const
{
    return m_rob && m_rob->IsComplete();
}

bool
EdgeLlmClient::IsRejected() const
{
    return m_rejected;
}

Time
EdgeLlmClient::GetStartTime() const
{
    return NanoSeconds(m_startNs);
}

const std::vector<int64_t>&
EdgeLlmClient::GetDeliveryTimesNs() const
{
    return m_deliveryNs;
}

const std::vector<ClientInterruption>&
EdgeLlmClient::GetInterruptions() const
{
    return m_interruptions;
}

std::vector<uint32_t>
EdgeLlmClient::GetHandoverMarks() const
{
    return std::vector<uint32_t>(m_marks.begin(), m_marks.end());
}

Ipv4Address
EdgeLlmClient::GetOwnerAddress() const
{
    return m_started ? m_ownerAddress : m_serverAddress;
}

} // namespace ns3
