/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-server.h"

#include "edge-llm-downlink-header.h"
#include "edge-llm-relay-header.h"
#include "edge-llm-uplink-header.h"

#include "ns3/explaining-checker.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EdgeLlmServer");
NS_OBJECT_ENSURE_REGISTERED(EdgeLlmServer);

TypeId
EdgeLlmServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EdgeLlmServer")
            .SetParent<Application>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<EdgeLlmServer>()
            .AddAttribute("Port",
                          "UDP port of the uplink (prompts, NACKs, ACKs) on the uplink address.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&EdgeLlmServer::m_port),
                          edgellm::MakeEnbPortChecker("ns3::EdgeLlmServer::Port"))
            .AddAttribute("RelayPort",
                          "UDP port on which neighbour servers relay token packets (Detour).",
                          UintegerValue(9001),
                          MakeUintegerAccessor(&EdgeLlmServer::m_relayPort),
                          edgellm::MakeEnbPortChecker("ns3::EdgeLlmServer::RelayPort"))
            .AddAttribute(
                "ResendHoldoff",
                "A token resent less than this ago is not resent again for a NACK, "
                "so that NACK repeats do not multiply copies in flight (>= 0; 0, the "
                "default, resends on every NACK).",
                TimeValue(Seconds(0)),
                MakeTimeAccessor(&EdgeLlmServer::m_resendHoldoff),
                edgellm::MakeTimeNotNegativeChecker("ns3::EdgeLlmServer::ResendHoldoff", true))
            .AddAttribute("Engine",
                          "The GPU engine (an LlmEngine); one with its defaults if none.",
                          PointerValue(),
                          MakePointerAccessor(&EdgeLlmServer::m_engine),
                          MakePointerChecker<LlmEngine>())
            .AddAttribute("KvCache",
                          "The KV-cache shape of the served model (a KvCacheModel): the bytes "
                          "and entries of one token that a session's cache weighs when it "
                          "leaves this cell. One with its defaults (Qwen2.5-7B-Instruct, 16 "
                          "bits) if none.",
                          PointerValue(),
                          MakePointerAccessor(&EdgeLlmServer::SetKvCacheModel,
                                              &EdgeLlmServer::GetKvCacheModel),
                          MakePointerChecker<KvCacheModel>())
            .AddTraceSource("TokensSent",
                            "A token packet left the server, injected or relayed.",
                            MakeTraceSourceAccessor(&EdgeLlmServer::m_tokensSent),
                            "ns3::EdgeLlmServer::TokensSentTracedCallback")
            .AddTraceSource("SessionRejected",
                            "A session was refused; the reason names the limit.",
                            MakeTraceSourceAccessor(&EdgeLlmServer::m_sessionRejected),
                            "ns3::EdgeLlmServer::RejectedTracedCallback")
            .AddTraceSource("SessionOpened",
                            "A session was accepted (admitted, or waiting for memory).",
                            MakeTraceSourceAccessor(&EdgeLlmServer::m_sessionOpened),
                            "ns3::EdgeLlmServer::SessionTracedCallback")
            .AddTraceSource("PacketDropped",
                            "A received packet was dropped (malformed, or an OPEN_SESSION the "
                            "server cannot take); it changes nothing.",
                            MakeTraceSourceAccessor(&EdgeLlmServer::m_packetDropped),
                            "ns3::EdgeLlmServer::PacketDroppedTracedCallback");
    return tid;
}

EdgeLlmServer::EdgeLlmServer()
    : m_oneTime(1)
{
}

EdgeLlmServer::~EdgeLlmServer() = default;

void
EdgeLlmServer::DoDispose()
{
    if (m_engine)
    {
        m_engine->Dispose();
    }
    m_engine = nullptr;
    m_kvCache = nullptr;
    m_downlink = nullptr;
    m_uplinkSocket = nullptr;
    m_relaySocket = nullptr;
    m_sessions.clear();
    Application::DoDispose();
}

void
EdgeLlmServer::SetRanDownlink(Ptr<RanDownlink> downlink)
{
    m_downlink = downlink;
}

Ptr<RanDownlink>
EdgeLlmServer::GetRanDownlink() const
{
    return m_downlink;
}

void
EdgeLlmServer::SetUplinkAddress(Ipv4Address address)
{
    m_uplinkAddress = address;
}

Ipv4Address
EdgeLlmServer::GetUplinkAddress() const
{
    return m_uplinkAddress;
}

void
EdgeLlmServer::AddRelayPeer(uint16_t cellId, Ipv4Address address)
{
    m_relayPeers[cellId] = address;
}

uint16_t
EdgeLlmServer::GetCellId() const
{
    NS_ABORT_MSG_IF(!m_downlink, "EdgeLlmServer: no RanDownlink set (SetRanDownlink)");
    return m_downlink->GetCellId();
}

Ptr<LlmEngine>
EdgeLlmServer::GetEngine() const
{
    return m_engine;
}

Ptr<KvCacheModel>
EdgeLlmServer::GetKvCacheModel() const
{
    // Made on first read, not in the constructor, so that Config::SetDefault of
    // KvCacheModel's attributes given after the server exists still reaches it.
    if (!m_kvCache)
    {
        m_kvCache = CreateObject<KvCacheModel>();
    }
    return m_kvCache;
}

void
EdgeLlmServer::SetKvCacheModel(Ptr<KvCacheModel> model)
{
    m_kvCache = model;
}

void
EdgeLlmServer::StartApplication()
{
    // Both are UDP ports of this node: the second bind would fail without naming the first.
    NS_ABORT_MSG_IF(m_relayPort == m_port,
                    "ns3::EdgeLlmServer::RelayPort = "
                        << m_relayPort
                        << " is invalid; allowed: a port other than ns3::EdgeLlmServer::Port = "
                        << m_port);
    NS_ABORT_MSG_IF(!m_downlink,
                    "EdgeLlmServer on node " << GetNode()->GetId()
                                             << ": no RanDownlink; call SetRanDownlink");
    NS_ABORT_MSG_IF(m_uplinkAddress == Ipv4Address(),
                    "EdgeLlmServer on node " << GetNode()->GetId()
                                             << ": no uplink address; call SetUplinkAddress");
    if (!m_engine)
    {
        m_engine = CreateObject<LlmEngine>();
    }
    m_engine->SetTokensCallback(MakeCallback(&EdgeLlmServer::TokensEmitted, this));
    m_engine->SetSessionRejectedCallback(MakeCallback(&EdgeLlmServer::EngineRejected, this));

    m_uplinkSocket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_uplinkSocket->Bind(InetSocketAddress(m_uplinkAddress, m_port)) != 0,
                    "EdgeLlmServer: cannot bind " << m_uplinkAddress << ":" << m_port);
    m_uplinkSocket->SetRecvCallback(MakeCallback(&EdgeLlmServer::ReceiveUplink, this));

    m_relaySocket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_relaySocket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_relayPort)) != 0,
                    "EdgeLlmServer: cannot bind relay port " << m_relayPort);
    m_relaySocket->SetRecvCallback(MakeCallback(&EdgeLlmServer::ReceiveRelay, this));
}

void
EdgeLlmServer::StopApplication()
{
    for (Ptr<Socket> s : {m_uplinkSocket, m_relaySocket})
    {
        if (s)
        {
            s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            s->Close();
        }
    }
}

void
EdgeLlmServer::ReceiveUplink(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> p = socket->RecvFrom(from))
    {
        EdgeLlmUplinkHeader h;
        if (!EdgeLlmUplinkHeader::TryRemove(p, h))
        {
            DropUplink("malformed: " + h.GetError());
            continue;
        }
        const InetSocketAddress src = InetSocketAddress::ConvertFrom(from);
        const uint64_t imsi = h.GetImsi();
        if (h.GetType() == EdgeLlmUplinkHeader::OPEN_SESSION)
        {
            OpenSession(h, src.GetIpv4(), src.GetPort());
            continue;
        }
        auto it = m_sessions.find(imsi);
        if (it == m_sessions.end())
        {
            NS_LOG_INFO("cell " << GetCellId() << ": feedback for imsi " << imsi
                                << ", not owned here");
            continue;
        }
        SessionState& s = it->second;
        // The UE's address does not change at a handover, but its port could after a
        // restart of the client; the latest message is right.
        s.ueAddress = src.GetIpv4();
        s.uePort = src.GetPort();
        Forget(s, h.GetNextExpected());
        if (h.GetType() == EdgeLlmUplinkHeader::NACK)
        {
            for (const TokenRange& r : h.GetMissingRanges())
            {
                // A range may end at 2^32, one past any index; no session has that many
                // tokens, so its end is taken as 2^32 - 1 with nothing lost.
                const auto end = static_cast<uint32_t>(
                    std::min<uint64_t>(r.end, std::numeric_limits<uint32_t>::max()));
                Resend(imsi, s, static_cast<uint32_t>(r.first), end, false);
            }
        }
    }
}

void
EdgeLlmServer::DropUplink(const std::string& why)
{
    NS_LOG_WARN("cell " << GetCellId() << ": uplink message dropped: " << why);
    ++m_droppedUplink;
    m_packetDropped("uplink", why);
}

void
EdgeLlmServer::DropRelay(const std::string& why)
{
    NS_LOG_WARN("cell " << GetCellId() << ": relay packet dropped: " << why);
    ++m_droppedRelay;
    m_packetDropped("relay", why);
}

void
EdgeLlmServer::OpenSession(const EdgeLlmUplinkHeader& h, Ipv4Address ue, uint16_t port)
{
    const uint64_t imsi = h.GetImsi();
    auto existing = m_sessions.find(imsi);
    if (existing != m_sessions.end())
    {
        // A retry: the client has no token yet, so every one sent so far was lost; only it
        // can say so, since it NACKs nothing before its first token.
        SessionState& s = existing->second;
        s.ueAddress = ue;
        s.uePort = port;
        Resend(imsi, s, s.acked, s.generated, false);
        return;
    }
    if (m_closed.count(imsi) > 0)
    {
        // A retry from a client that never heard of the close: reopening would serve a
        // session the run has already counted as closed.
        NS_LOG_INFO("cell " << GetCellId() << ": OPEN_SESSION of imsi " << imsi
                            << ", closed here, ignored");
        return;
    }
    if (m_movedAway.count(imsi) > 0)
    {
        // A retry that crossed the migration: the session lives on at its new owner, whose
        // tokens will tell the client where it is now.
        NS_LOG_INFO("cell " << GetCellId() << ": OPEN_SESSION of imsi " << imsi
                            << ", which has moved away, ignored");
        return;
    }
    auto rejected = m_rejected.find(imsi);
    if (rejected == m_rejected.end() && m_engine->HasSession(imsi))
    {
        // The engine holds the session for a migration to this server that has not resumed
        // yet; until it does, the session is not this server's to open.
        DropUplink("OPEN_SESSION of imsi " + std::to_string(imsi) +
                   ", which is migrating here and not resumed yet");
        return;
    }
    if (rejected == m_rejected.end())
    {
        SessionState s;
        s.ueAddress = ue;
        s.uePort = port;
        s.tokensToGenerate = h.GetTokensToGenerate();
        m_sessions[imsi] = s;
        if (m_engine->AddSession(imsi, h.GetPromptTokens(), h.GetTokensToGenerate()) !=
            LlmEngine::Admission::REJECTED)
        {
            m_sessionOpened(imsi);
            return;
        }
        m_sessions.erase(imsi);
        rejected = m_rejected.emplace(imsi, EdgeLlmDownlinkHeader::SESSION_TOO_LARGE).first;
    }
    EdgeLlmDownlinkHeader reply;
    Stamp(reply, imsi);
    reply.SetRejection(static_cast<EdgeLlmDownlinkHeader::RejectReason>(rejected->second),
                       h.GetRequestSeq());
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(reply);
    Deliver(imsi, p, ue, port);
}

void
EdgeLlmServer::EngineRejected(uint64_t imsi, const std::string& reason)
{
    NS_LOG_INFO("cell " << GetCellId() << ": imsi " << imsi << " rejected: " << reason);
    m_sessionRejected(imsi, reason);
}

void
EdgeLlmServer::Forget(SessionState& s, uint32_t nextExpected)
{
    // The last token stays, so a handover can always mark it.
    const uint32_t upTo = std::min(nextExpected, s.generated > 0 ? s.generated - 1 : 0);
    while (s.acked < upTo)
    {
        s.history.pop_front();
        ++s.acked;
    }
}

void
EdgeLlmServer::StartRelay(uint64_t imsi, uint16_t nextCellId)
{
    NS_ABORT_MSG_IF(m_relayPeers.count(nextCellId) == 0,
                    "EdgeLlmServer::StartRelay: cell " << GetCellId() << " has no backhaul link to "
                                                       << "cell " << nextCellId
                                                       << "; Detour relays between neighbours");
    NS_LOG_INFO("cell " << GetCellId() << ": imsi " << imsi << " relayed to cell " << nextCellId);
    m_relayNext[imsi] = nextCellId;
}

void
EdgeLlmServer::StopRelay(uint64_t imsi)
{
    m_relayNext.erase(imsi);
}

void
EdgeLlmServer::MarkHandover(uint64_t imsi)
{
    auto it = m_sessions.find(imsi);
    if (it == m_sessions.end() || it->second.generated == 0 ||
        it->second.generated == it->second.tokensToGenerate)
    {
        return;
    }
    SessionState& s = it->second;
    Resend(imsi, s, s.generated - 1, s.generated, true);
}

EdgeLlmServer::SessionState
EdgeLlmServer::ExportSession(uint64_t imsi)
{
    auto it = m_sessions.find(imsi);
    NS_ABORT_MSG_IF(it == m_sessions.end(),
                    "EdgeLlmServer::ExportSession: cell " << GetCellId() << " does not own imsi "
                                                          << imsi);
    SessionState state = std::move(it->second);
    m_sessions.erase(it);
    m_relayNext.erase(imsi);
    m_movedAway.insert(imsi);
    return state;
}

EdgeLlmServer::SessionState
EdgeLlmServer::CloseSession(uint64_t imsi)
{
    auto it = m_sessions.find(imsi);
    NS_ABORT_MSG_IF(it == m_sessions.end(),
                    "EdgeLlmServer::CloseSession: cell " << GetCellId() << " does not own imsi "
                                                         << imsi);
    SessionState state = std::move(it->second);
    m_sessions.erase(it);
    m_relayNext.erase(imsi);
    m_engine->RemoveSession(imsi);
    m_closed.insert(imsi);
    NS_LOG_INFO("cell " << GetCellId() << ": imsi " << imsi << " closed at token "
                        << state.generated << " of " << state.tokensToGenerate);
    return state;
}

uint64_t
EdgeLlmServer::GetClosedSessions() const
{
    return m_closed.size();
}

void
EdgeLlmServer::ImportSession(uint64_t imsi, SessionState state)
{
    NS_ABORT_MSG_IF(m_sessions.count(imsi) > 0,
                    "EdgeLlmServer::ImportSession: cell " << GetCellId() << " owns imsi " << imsi
                                                          << " already");
    NS_ABORT_MSG_IF(state.history.size() != state.generated - state.acked,
                    "EdgeLlmServer::ImportSession: imsi " << imsi << " has " << state.history.size()
                                                          << " history entries for tokens ["
                                                          << state.acked << ", " << state.generated
                                                          << ")");
    m_sessions[imsi] = std::move(state);
    m_movedAway.erase(imsi);
}

const EdgeLlmServer::SessionState&
EdgeLlmServer::GetSessionState(uint64_t imsi) const
{
    auto it = m_sessions.find(imsi);
    NS_ABORT_MSG_IF(it == m_sessions.end(),
                    "EdgeLlmServer::GetSessionState: cell " << GetCellId() << " does not own imsi "
                                                            << imsi);
    return it->second;
}

uint16_t
EdgeLlmServer::GetRelayNext(uint64_t imsi) const
{
    auto it = m_relayNext.find(imsi);
    return it == m_relayNext.end() ? 0 : it->second;
}

bool
EdgeLlmServer::HasRelayPeer(uint16_t cellId) const
{
    return m_relayPeers.count(cellId) > 0;
}

bool
EdgeLlmServer::OwnsSession(uint64_t imsi) const
{
    return m_sessions.count(imsi) > 0;
}

uint64_t
EdgeLlmServer::GetDroppedUplinkPackets() const
{
    return m_droppedUplink;
}

uint64_t
EdgeLlmServer::GetDroppedRelayPackets() const
{
    return m_droppedRelay;
}

uint64_t
EdgeLlmServer::GetInjectedPackets() const
{
    return m_injected;
}

uint64_t
EdgeLlmServer::GetRefusedPackets() const
{
    return m_refused;
}

uint64_t
EdgeLlmServer::GetRelayedPackets() const
{
    return m_relayed;
}

uint64_t
EdgeLlmServer::GetResentTokens() const
{
    return m_resentTokens;
}

} // namespace ns3
