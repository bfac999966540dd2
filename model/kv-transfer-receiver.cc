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
            .AddTraceSource("SessionComplete",
                            "A session's received ranges cover every announced one.",
                            MakeTraceSourceAccessor(&KvTransferReceiver::m_sessionComplete),
                            "ns3::KvTransferReceiver::CompleteTracedCallback");
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
        if (close)
        {
            socket->Close();
        }
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
    m_streams[socket] = Stream{};
    socket->SetRecvCallback(MakeCallback(&KvTransferReceiver::Read, this));
    socket->SetCloseCallbacks(MakeCallback(&KvTransferReceiver::Closed, this),
                              MakeCallback(&KvTransferReceiver::Closed, this));
}

void
KvTransferReceiver::Closed(Ptr<Socket> socket)
{
    m_streams.erase(socket);
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
    }
}

void
KvTransferReceiver::Consume(Stream& stream, Ptr<Packet> p)
{
    const uint32_t size = p->GetSize();
    m_streamBytes += size;
    uint32_t offset = 0;
    while (offset < size && !m_stopRequested)
    {
        if (stream.payloadLeft > 0)
        {
            const uint64_t k = std::min<uint64_t>(stream.payloadLeft, size - offset);
            offset += static_cast<uint32_t>(k);
            stream.payloadLeft -= k;
            if (stream.accepted && stream.current.GetMessageType() == KvTransferHeader::DATA)
            {
                // The epoch may move on while a message's payload is arriving; what arrives
                // after that is as stale as a message of the old epoch.
                const uint64_t imsi = stream.current.GetImsi();
                Session& s = m_sessions[imsi];
                if (s.epoch == stream.current.GetEpoch() && !s.cancelled)
                {
                    m_counters[imsi].received += k;
                    s.epochBytes += k;
                }
                else
                {
                    CountStale(imsi, stream.current.GetEpoch(), k);
                }
            }
            else if (stream.sink == SINK_STALE)
            {
                CountStale(stream.current.GetImsi(), stream.current.GetEpoch(), k);
            }
            else if (stream.sink == SINK_INVALID)
            {
                m_counters[stream.current.GetImsi()].droppedInvalid += k;
            }
            if (stream.payloadLeft == 0)
            {
                OnMessageEnd(stream);
            }
            continue;
        }
        const uint32_t k = std::min<uint32_t>(KvTransferHeader::SERIALIZED_SIZE - stream.headerFill,
                                              size - offset);
        p->CreateFragment(offset, k)->CopyData(stream.header.data() + stream.headerFill, k);
        stream.headerFill += k;
        offset += k;
        if (stream.headerFill < KvTransferHeader::SERIALIZED_SIZE)
        {
            continue;
        }
        stream.headerFill = 0;
        std::string why;
        NS_ABORT_MSG_IF(!KvTransferHeader::Parse(stream.header.data(),
                                                 KvTransferHeader::SERIALIZED_SIZE,
                                                 stream.current,
                                                 why),
                        "KvTransferReceiver on node " << m_node->GetId()
                                                      << ": the stream lost its framing: " << why);
        OnHeader(stream);
        stream.payloadLeft = stream.current.GetFollowingBytes();
        if (stream.payloadLeft == 0)
        {
            OnMessageEnd(stream);
        }
    }
}

KvTransferReceiver::Sink
KvTransferReceiver::Drop(const KvTransferHeader& header, DropReason reason)
{
    ++m_drops[reason];
    m_messageDropped(header, reason);
    NS_LOG_INFO("drop (" << ReasonName(reason) << ") " << header);
    if (header.GetMessageType() != KvTransferHeader::DATA)
    {
        return SINK_NONE;
    }
    return reason == STALE_EPOCH ? SINK_STALE : SINK_INVALID;
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
    s.epochBytes = 0;
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
KvTransferReceiver::OnHeader(Stream& stream)
{
    const KvTransferHeader& h = stream.current;
    m_messageReceived(h);
    stream.accepted = false;
    stream.sink = SINK_NONE;
    const uint64_t imsi = h.GetImsi();
    const uint64_t first = h.GetFirst();
    const uint64_t end = first + h.GetCount();
    auto it = m_sessions.find(imsi);
    const KvTransferHeader::MessageType type = h.GetMessageType();

    if (type == KvTransferHeader::BEGIN || type == KvTransferHeader::OPEN)
    {
        if (it != m_sessions.end() && (h.GetEpoch() < it->second.epoch ||
                                       (h.GetEpoch() == it->second.epoch && it->second.cancelled)))
        {
            Drop(h, STALE_EPOCH);
            return;
        }
        const bool newer = it == m_sessions.end() || h.GetEpoch() > it->second.epoch;
        edgellm::RangeSet kept;
        if (newer && it != m_sessions.end() && it->second.carry)
        {
            // The epoch a re-plan cancelled delivered these; the plan that replaced it counts
            // on them, so they are the new epoch's from the start.
            kept = it->second.received;
        }
        Session& s =
            newer ? ResetEpoch(imsi, h.GetEpoch(), KvDiscardReason::NEWER_EPOCH) : it->second;
        if (kept.Count() > 0)
        {
            s.announced = kept;
            s.received = kept;
        }
        if (type == KvTransferHeader::OPEN)
        {
            s.open = true;
            s.complete = false;
            stream.accepted = true;
            return;
        }
        if (s.announced.Overlaps(first, end))
        {
            Drop(h, OUT_OF_RANGE);
            return;
        }
        s.announced.Add(first, end);
        s.complete = false;
        m_counters[imsi].announced += h.GetPayloadBytes();
        stream.accepted = true;
        return;
    }

    if (it == m_sessions.end() || h.GetEpoch() > it->second.epoch)
    {
        stream.sink = Drop(h, UNKNOWN_SESSION);
        return;
    }
    Session& s = it->second;
    if (h.GetEpoch() < s.epoch || s.cancelled)
    {
        stream.sink = Drop(h, STALE_EPOCH);
        return;
    }
    switch (type)
    {
    case KvTransferHeader::TOKENS:
        // Reported at the end of its payload: the IDs are not here yet.
        stream.accepted = true;
        return;
    case KvTransferHeader::DATA:
        if (!s.announced.Contains(first, end) || s.received.Overlaps(first, end))
        {
            stream.sink = Drop(h, OUT_OF_RANGE);
            return;
        }
        stream.accepted = true;
        return;
    case KvTransferHeader::CANCEL:
        s.cancelled = true;
        s.complete = false;
        s.carry = h.GetCancelReason() == KvDiscardReason::REPLAN;
        Retire(s, s.epoch, h.GetCancelReason());
        stream.accepted = true;
        return;
    case KvTransferHeader::SEAL:
        s.open = false;
        stream.accepted = true;
        // Every range is announced now; the data may all be in already.
        CheckComplete(imsi, s);
        return;
    default: // END: the data before it in the stream has been read
        stream.accepted = true;
        return;
    }
}

void
KvTransferReceiver::OnMessageEnd(Stream& stream)
{
    const KvTransferHeader& h = stream.current;
    if (!stream.accepted || (h.GetMessageType() != KvTransferHeader::DATA &&
                             h.GetMessageType() != KvTransferHeader::TOKENS))
    {
        return;
    }
    const uint64_t imsi = h.GetImsi();
    Session& s = m_sessions[imsi];
    if (s.epoch != h.GetEpoch() || s.cancelled)
    {
        return;
    }
    if (h.GetMessageType() == KvTransferHeader::TOKENS)
    {
        m_counters[imsi].tokensForwarded += h.GetCount();
        if (!m_tokens.IsNull())
        {
            m_tokens(imsi, h.GetEpoch(), h.GetFirst(), h.GetCount());
        }
        return;
    }
    s.received.Add(h.GetFirst(), uint64_t(h.GetFirst()) + h.GetCount());
    m_dataArrived(h);
    CheckComplete(imsi, s);
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

bool
KvTransferReceiver::IsComplete(uint64_t imsi) const
{
    auto it = m_sessions.find(imsi);
    return it != m_sessions.end() && it->second.complete;
}

uint64_t
KvTransferReceiver::GetStreamBytesReceived() const
{
    return m_streamBytes;
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
    default:
        return "out-of-range";
    }
}

} // namespace ns3
