/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-transfer-receiver.h"

#include "kv-transfer-socket.h"

#include "ns3/explaining-checker.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("KvTransferReceiver");

static_assert(KvTransferReceiver::PAYLOAD_MISMATCH + 1 == KV_RECEIVER_DROP_REASONS,
              "KV_RECEIVER_DROP_REASONS counts the DropReason values");
NS_OBJECT_ENSURE_REGISTERED(KvTransferReceiver);

TypeId
KvTransferReceiver::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::KvTransferReceiver")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<KvTransferReceiver>()
            .AddAttribute(
                "SocketBufferBytes",
                "TCP receive and send buffer of every connection, in bytes; 0 sizes "
                "it from the node's fastest link as 2 x rate x RTT (at least "
                "128 KiB). Maximum 2^31 - 1.",
                UintegerValue(0),
                MakeUintegerAccessor(&KvTransferReceiver::m_socketBuffer),
                edgellm::MakeSocketBufferChecker("ns3::KvTransferReceiver::SocketBufferBytes"))
            .AddTraceSource("MessageReceived",
                            "A message's header was read.",
                            MakeTraceSourceAccessor(&KvTransferReceiver::m_messageReceived),
                            "ns3::KvTransferReceiver::MessageTracedCallback")
            .AddTraceSource("MessageDropped",
                            "A message was dropped; its bytes are still consumed.",
                            MakeTraceSourceAccessor(&KvTransferReceiver::m_messageDropped),
                            "ns3::KvTransferReceiver::DropTracedCallback")
            .AddTraceSource("DataArrived",
                            "A DATA message of a session's current epoch has wholly arrived, and "
                            "its range counts as received.",
                            MakeTraceSourceAccessor(&KvTransferReceiver::m_dataArrived),
                            "ns3::KvTransferReceiver::MessageTracedCallback")
            .AddTraceSource("TokensArrived",
                            "A TOKENS message of a session's current epoch has wholly arrived: "
                            "its token IDs are at this cell.",
                            MakeTraceSourceAccessor(&KvTransferReceiver::m_tokensArrived),
                            "ns3::KvTransferReceiver::MessageTracedCallback")
            .AddTraceSource("DataGoodput",
                            "A DATA message of a session's current epoch has wholly arrived in "
                            "two reads or more: the bytes of the reads after its first that "
                            "carried its payload, and the time from the first to the last "
                            "(SetGoodputCallback).",
                            MakeTraceSourceAccessor(&KvTransferReceiver::m_dataGoodput),
                            "ns3::KvTransferReceiver::GoodputTracedCallback")
            .AddTraceSource("SessionComplete",
                            "A session's received ranges cover every announced one.",
                            MakeTraceSourceAccessor(&KvTransferReceiver::m_sessionComplete),
                            "ns3::KvTransferReceiver::CompleteTracedCallback")
            .AddTraceSource("StreamClosed",
                            "The receiver closed a connection whose stream lost its framing; "
                            "the other connections go on.",
                            MakeTraceSourceAccessor(&KvTransferReceiver::m_streamClosed),
                            "ns3::KvTransferReceiver::StreamClosedTracedCallback");
    return tid;
}

KvTransferReceiver::KvTransferReceiver() = default;
KvTransferReceiver::~KvTransferReceiver() = default;

void
KvTransferReceiver::DoDispose()
{
    // The node disposes its devices before its applications: a close would send a FIN through
    // a device already gone, so the sockets are only detached.
    Detach(false);
    m_listener = nullptr;
    m_node = nullptr;
    m_complete = MakeNullCallback<void, uint64_t, uint32_t>();
    m_tokens = MakeNullCallback<void, uint64_t, uint32_t, uint32_t, uint32_t>();
    m_goodput = MakeNullCallback<void, uint64_t, uint32_t, uint64_t, Time>();
    Object::DoDispose();
}

void
KvTransferReceiver::Setup(Ptr<Node> node, uint16_t port)
{
    NS_ABORT_MSG_IF(!node, "KvTransferReceiver::Setup: node is null");
    NS_ABORT_MSG_IF(m_listener, "KvTransferReceiver::Setup: call it before Start()");
    m_node = node;
    m_port = port;
}

void
KvTransferReceiver::Start()
{
    NS_ABORT_MSG_IF(!m_node, "KvTransferReceiver::Start: call Setup() first");
    if (m_listener)
    {
        return;
    }
    uint32_t mtu = 576;
    uint32_t buffer = m_socketBuffer;
    for (uint32_t i = 0; i < m_node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> dev = m_node->GetDevice(i);
        mtu = std::max<uint32_t>(mtu, dev->GetMtu());
        if (m_socketBuffer == 0)
        {
            buffer = std::max(buffer, edgellm::SocketBufferForLink(dev, dev->GetMtu()));
        }
    }
    m_listener = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    // Accepted connections are forks of the listener and inherit these settings.
    edgellm::ConfigureTcpSocket(m_listener, mtu - edgellm::TCP_IP_OVERHEAD_BYTES, buffer);
    NS_ABORT_MSG_IF(m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "KvTransferReceiver: cannot listen on port " << m_port << " of node "
                                                                 << m_node->GetId());
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&KvTransferReceiver::Accept, this));
}

void
KvTransferReceiver::Stop()
{
    if (m_reading)
    {
        // A callback stopped the receiver while Read() holds one of the streams: Read()
        // stops it on its way out.
        m_stopRequested = true;
        return;
    }
    Detach(true);
}

void
KvTransferReceiver::Detach(bool close)
{
    for (auto& [socket, stream] : m_streams)
    {
        socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                  MakeNullCallback<void, Ptr<Socket>>());
        if (close && !stream.closeSent)
        {
            socket->Close();
        }
        Forget(stream);
    }
    m_streams.clear();
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        if (close)
        {
            m_listener->Close();
        }
    }
}

void
KvTransferReceiver::Accept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_INFO("connection from " << InetSocketAddress::ConvertFrom(from).GetIpv4());
    Stream stream;
    stream.peer = from;
    m_streams[socket] = stream;
    socket->SetRecvCallback(MakeCallback(&KvTransferReceiver::Read, this));
    socket->SetCloseCallbacks(MakeCallback(&KvTransferReceiver::Closed, this),
                              MakeCallback(&KvTransferReceiver::Closed, this));
}

void
KvTransferReceiver::Forget(const Stream& stream)
{
    // A header its peer never finished is no message; its bytes were read all the same.
    m_streamCounters.unframedBytes += stream.parser.GetHeldBytes();
}

void
KvTransferReceiver::Closed(Ptr<Socket> socket)
{
    auto found = m_streams.find(socket);
    if (found != m_streams.end())
    {
        Forget(found->second);
        m_streams.erase(found);
    }
}

void
KvTransferReceiver::Read(Ptr<Socket> socket)
{
    auto found = m_streams.find(socket);
    if (found == m_streams.end())
    {
        return;
    }
    Stream& stream = found->second;
    m_reading = true;
    while (!m_stopRequested)
    {
        Ptr<Packet> p = socket->Recv();
        if (!p || p->GetSize() == 0)
        {
            break;
        }
        Consume(stream, p);
    }
    m_reading = false;
    if (m_stopRequested)
    {
        m_stopRequested = false;
        Stop();
        return;
    }
    if (stream.closing && !stream.closeSent)
    {
        // The receive buffer is empty now, so the close is a FIN, not a reset. The stream
        // stays until the close completes: what the peer still sends is counted as unframed.
        stream.closeSent = true;
        socket->Close();
    }
}

void
KvTransferReceiver::LoseFraming(Stream& stream)
{
    // The malformed header was held until it was whole: its bytes are the first unframed ones.
    m_streamCounters.unframedBytes += KvTransferHeader::SERIALIZED_SIZE;
    ++m_streamCounters.streamsClosed;
    stream.closing = true;
    const std::string reason = "framing lost: " + stream.parser.GetError();
    NS_LOG_WARN("KvTransferReceiver on node "
                << m_node->GetId() << ": closing the connection from "
                << InetSocketAddress::ConvertFrom(stream.peer).GetIpv4() << ", " << reason);
    m_streamClosed(stream.peer, reason);
}

void
KvTransferReceiver::Drop(Stream& stream, DropReason reason)
{
    const KvTransferHeader& header = stream.parser.GetHeader();
    ++m_drops[reason];
    stream.dropReason = reason;
    m_messageDropped(header, reason);
    NS_LOG_INFO("drop (" << ReasonName(reason) << ") " << header);
}

void
KvTransferReceiver::Retire(Session& s, uint32_t epoch, KvDiscardReason reason)
{
    for (const auto& [e, r] : s.retired)
    {
        if (e == epoch)
        {
            return;
        }
    }
    s.retired.emplace_back(epoch, reason);
    if (s.retired.size() > RETIRED_KEPT)
    {
        s.retired.pop_front();
    }
}

void
KvTransferReceiver::CountStale(uint64_t imsi, uint32_t epoch, uint64_t bytes)
{
    KvDiscardReason reason = KvDiscardReason::NEWER_EPOCH;
    auto it = m_sessions.find(imsi);
    if (it != m_sessions.end())
    {
        for (const auto& [e, r] : it->second.retired)
        {
            if (e == epoch)
            {
                reason = r;
            }
        }
    }
    KvTransferReceiverCounters& c = m_counters[imsi];
    c.stale += bytes;
    c.staleBy[static_cast<std::size_t>(reason)] += bytes;
}

KvTransferReceiver::Session&
KvTransferReceiver::ResetEpoch(uint64_t imsi, uint32_t epoch, KvDiscardReason reason)
{
    auto [it, inserted] = m_sessions.try_emplace(imsi);
    Session& s = it->second;
    if (!inserted)
    {
        // A cancelled epoch retired at its CANCEL already, and keeps that reason.
        Retire(s, s.epoch, reason);
    }
    s.epoch = epoch;
    s.cancelled = false;
    s.carry = false;
    s.complete = false;
    s.open = false;
    s.announced.Clear();
    s.received.Clear();
    s.tokensTaken = false;
    s.epochBytes = 0;
    s.bytesPerUnit = 0;
    s.source = Address();
    return s;
}

void
KvTransferReceiver::CheckComplete(uint64_t imsi, Session& s)
{
    if (s.complete || s.open || s.cancelled || s.received.Count() != s.announced.Count())
    {
        return;
    }
    s.complete = true;
    m_sessionComplete(imsi, s.epoch, s.epochBytes);
    if (!m_complete.IsNull())
    {
        m_complete(imsi, s.epoch);
    }
}

void
KvTransferReceiver::ExpectEpoch(uint64_t imsi, uint32_t epoch, KvDiscardReason reason)
{
    const auto code = static_cast<std::size_t>(reason);
    NS_ABORT_MSG_IF(code >= KV_DISCARD_REASONS,
                    "KvTransferReceiver::ExpectEpoch: reason = " << code << " is not in [0, "
                                                                 << KV_DISCARD_REASONS - 1 << "]");
    auto it = m_sessions.find(imsi);
    NS_ABORT_MSG_IF(it != m_sessions.end() && epoch < it->second.epoch,
                    "KvTransferReceiver::ExpectEpoch: imsi " << imsi << " epoch " << epoch
                                                             << " is older than the current "
                                                             << it->second.epoch);
    if (it == m_sessions.end() || epoch > it->second.epoch)
    {
        ResetEpoch(imsi, epoch, reason);
    }
}

void
KvTransferReceiver::SetCompleteCallback(Callback<void, uint64_t, uint32_t> cb)
{
    m_complete = cb;
}

void
KvTransferReceiver::SetTokensCallback(Callback<void, uint64_t, uint32_t, uint32_t, uint32_t> cb)
{
    m_tokens = cb;
}

void
KvTransferReceiver::SetGoodputCallback(Callback<void, uint64_t, uint32_t, uint64_t, Time> cb)
{
    m_goodput = cb;
}

void
KvTransferReceiver::SetAnnouncedCallback(Callback<void, uint64_t, uint32_t, uint64_t, bool> cb)
{
    m_announced = cb;
}

KvTransferReceiverCounters
KvTransferReceiver::GetCounters(uint64_t imsi) const
{
    auto it = m_counters.find(imsi);
    return it == m_counters.end() ? KvTransferReceiverCounters{} : it->second;
}

edgellm::RangeSet
KvTransferReceiver::GetReceivedRanges(uint64_t imsi) const
{
    auto it = m_sessions.find(imsi);
    return it == m_sessions.end() ? edgellm::RangeSet{} : it->second.received;
}

edgellm::RangeSet
KvTransferReceiver::GetAnnouncedRanges(uint64_t imsi) const
{
    auto it = m_sessions.find(imsi);
    return it == m_sessions.end() ? edgellm::RangeSet{} : it->second.announced;
}

uint32_t
KvTransferReceiver::GetCurrentEpoch(uint64_t imsi) const
{
    auto it = m_sessions.find(imsi);
    return it == m_sessions.end() ? 0 : it->second.epoch;
}

bool
KvTransferReceiver::IsComplete(uint64_t imsi) const
{
    auto it = m_sessions.find(imsi);
    return it != m_sessions.end() && it->second.complete;
}

uint64_t
KvTransferReceiver::GetStreamBytesReceived() const
{
    return m_streamCounters.bytes;
}

KvTransferStreamCounters
KvTransferReceiver::GetStreamCounters() const
{
    KvTransferStreamCounters c = m_streamCounters;
    for (const auto& [socket, stream] : m_streams)
    {
        c.heldBytes += stream.parser.GetHeldBytes();
    }
    return c;
}

uint64_t
KvTransferReceiver::GetStreamsClosed() const
{
    return m_streamCounters.streamsClosed;
}

uint64_t
KvTransferReceiver::GetDroppedMessages(DropReason reason) const
{
    return m_drops.at(reason);
}

const char*
KvTransferReceiver::ReasonName(DropReason reason)
{
    switch (reason)
    {
    case UNKNOWN_SESSION:
        return "unknown-session";
    case STALE_EPOCH:
        return "stale-epoch";
    case OUT_OF_RANGE:
        return "out-of-range";
    case TOKENS_OUT_OF_RANGE:
        return "tokens-out-of-range";
    case WRONG_SOURCE:
        return "wrong-source";
    case PAYLOAD_MISMATCH:
        return "payload-mismatch";
    }
    return "unknown";
}

} // namespace ns3
