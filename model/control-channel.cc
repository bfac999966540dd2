/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "control-channel.h"

#include "explaining-checker.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ControlChannel");
NS_OBJECT_ENSURE_REGISTERED(ControlChannel);

TypeId
ControlChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ControlChannel")
            .SetParent<Application>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<ControlChannel>()
            .AddAttribute("Port",
                          "TCP port of the control plane [1, 65535], the same on every node. "
                          "2152, 2123 and 4444 are taken by the EPC on eNB nodes.",
                          UintegerValue(7200),
                          MakeUintegerAccessor(&ControlChannel::m_port),
                          edgellm::MakeEnbPortChecker("ns3::ControlChannel::Port"))
            .AddTraceSource("Tx",
                            "A control message is handed to TCP's connection to a peer",
                            MakeTraceSourceAccessor(&ControlChannel::m_txTrace),
                            "ns3::ControlChannel::TxTracedCallback")
            .AddTraceSource("Rx",
                            "A control message arrived whole, with its one-way delay",
                            MakeTraceSourceAccessor(&ControlChannel::m_rxTrace),
                            "ns3::ControlChannel::RxTracedCallback");
    return tid;
}

ControlChannel::ControlChannel() = default;

ControlChannel::~ControlChannel() = default;

void
ControlChannel::DoDispose()
{
    m_peers.clear();
    m_in.clear();
    m_listener = nullptr;
    m_receive = ReceiveCallback();
    Application::DoDispose();
}

void
ControlChannel::SetCellId(uint16_t cellId)
{
    NS_ABORT_MSG_IF(cellId == 0, "ControlChannel::SetCellId: cells are >= 1");
    m_cellId = cellId;
}

uint16_t
ControlChannel::GetCellId() const
{
    return m_cellId;
}

void
ControlChannel::AddPeer(uint16_t cellId, Ipv4Address local, Ipv4Address remote)
{
    NS_ABORT_MSG_IF(cellId == 0 || cellId == m_cellId,
                    "ControlChannel::AddPeer: cell " << cellId << " cannot be a peer of cell "
                                                     << m_cellId);
    NS_ABORT_MSG_IF(m_peers.count(cellId) > 0,
                    "ControlChannel::AddPeer: cell " << cellId << " is already a peer");
    Peer& peer = m_peers[cellId];
    peer.local = local;
    peer.remote = remote;
    if (m_listener)
    {
        Connect(peer); // added while running
    }
}

bool
ControlChannel::HasPeer(uint16_t cellId) const
{
    return m_peers.count(cellId) > 0;
}

void
ControlChannel::SetReceiveCallback(ReceiveCallback callback)
{
    m_receive = callback;
}

void
ControlChannel::StartApplication()
{
    NS_ABORT_MSG_IF(m_cellId == 0,
                    "ControlChannel on node " << GetNode()->GetId() << ": no cell (SetCellId)");
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "ControlChannel on node " << GetNode()->GetId() << ": port " << m_port
                                              << " is taken");
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&ControlChannel::Accept, this));
    for (auto& [cell, peer] : m_peers)
    {
        Connect(peer);
    }
}

void
ControlChannel::StopApplication()
{
    for (auto& [cell, peer] : m_peers)
    {
        if (peer.socket)
        {
            peer.socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            peer.socket->Close();
            peer.socket = nullptr;
        }
    }
    for (auto& [socket, parser] : m_in)
    {
        socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        socket->Close();
    }
    m_in.clear();
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener->Close();
        m_listener = nullptr;
    }
}

void
ControlChannel::Connect(Peer& peer)
{
    peer.socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(peer.socket->Bind(InetSocketAddress(peer.local, 0)) != 0,
                    "ControlChannel on node " << GetNode()->GetId() << ": cannot bind to "
                                              << peer.local);
    peer.socket->Connect(InetSocketAddress(peer.remote, m_port));
    peer.socket->SetSendCallback(MakeCallback(&ControlChannel::SendRoom, this));
    // Bytes sent before the handshake ends wait in TCP's buffer, which sends them once it
    // is open.
    Flush(peer);
}

void
ControlChannel::Send(uint16_t cellId, ControlMessage message)
{
    auto it = m_peers.find(cellId);
    NS_ABORT_MSG_IF(it == m_peers.end(),
                    "ControlChannel of cell " << m_cellId << ": no connection to cell " << cellId);
    message.fromCell = m_cellId;
    message.sentAtNs = Simulator::Now().GetNanoSeconds();
    const std::vector<uint8_t> bytes = message.Serialize();
    Peer& peer = it->second;
    peer.pending.insert(peer.pending.end(), bytes.begin(), bytes.end());
    ++m_sent;
    m_sentBytes += bytes.size();
    NS_LOG_INFO("cell " << m_cellId << " -> cell " << cellId << ": " << message.ToString());
    m_txTrace(message, cellId);
    if (peer.socket)
    {
        Flush(peer);
    }
}

void
ControlChannel::Flush(Peer& peer)
{
    while (!peer.pending.empty())
    {
        const uint32_t room = peer.socket->GetTxAvailable();
        const auto k = static_cast<uint32_t>(std::min<std::size_t>(room, peer.pending.size()));
        if (k == 0)
        {
            return; // SendRoom() calls again
        }
        const int sent = peer.socket->Send(Create<Packet>(peer.pending.data(), k));
        if (sent <= 0)
        {
            return;
        }
        peer.pending.erase(peer.pending.begin(), peer.pending.begin() + sent);
    }
}

void
ControlChannel::SendRoom(Ptr<Socket> socket, uint32_t /* room */)
{
    for (auto& [cell, peer] : m_peers)
    {
        if (peer.socket == socket)
        {
            Flush(peer);
            return;
        }
    }
}

void
ControlChannel::Accept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_INFO("cell " << m_cellId << ": control connection from "
                        << InetSocketAddress::ConvertFrom(from).GetIpv4());
    m_in[socket] = ControlStreamParser();
    socket->SetRecvCallback(MakeCallback(&ControlChannel::Read, this));
}

void
ControlChannel::Read(Ptr<Socket> socket)
{
    auto found = m_in.find(socket);
    if (found == m_in.end())
    {
        return;
    }
    std::vector<ControlMessage> messages;
    while (Ptr<Packet> p = socket->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        for (ControlMessage& m : found->second.Push(bytes.data(), bytes.size()))
        {
            messages.push_back(std::move(m));
        }
        if (found->second.IsBroken())
        {
            NS_LOG_WARN("ControlChannel of cell "
                        << m_cellId
                        << ": closing a stream, framing lost: " << found->second.GetError());
            ++m_streamsClosed;
            socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            socket->Close();
            m_in.erase(found);
            break;
        }
    }
    const Time now = Simulator::Now();
    for (const ControlMessage& m : messages)
    {
        ++m_received;
        const Time delay = now - NanoSeconds(m.sentAtNs);
        NS_LOG_INFO("cell " << m_cellId << " <- cell " << m.fromCell << ": " << m.ToString()
                            << ", one-way " << delay.As(Time::US));
        m_rxTrace(m, delay);
        if (!m_receive.IsNull())
        {
            m_receive(m, delay);
        }
    }
}

uint64_t
ControlChannel::GetSentMessages() const
{
    return m_sent;
}

uint64_t
ControlChannel::GetReceivedMessages() const
{
    return m_received;
}

uint64_t
ControlChannel::GetSentBytes() const
{
    return m_sentBytes;
}

uint32_t
ControlChannel::GetStreamsClosed() const
{
    return m_streamsClosed;
}

} // namespace ns3
