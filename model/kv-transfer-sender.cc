/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-transfer-sender.h"

#include "kv-transfer-socket.h"

#include "ns3/channel.h"
#include "ns3/explaining-checker.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("KvTransferSender");
NS_OBJECT_ENSURE_REGISTERED(KvTransferSender);

TypeId
KvTransferSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::KvTransferSender")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<KvTransferSender>()
            .AddAttribute("Policy",
                          "Decides which session's bytes go next (a KvTransferPolicy); none "
                          "means first come, first served (FifoKvTransferPolicy).",
                          PointerValue(),
                          MakePointerAccessor(&KvTransferSender::m_policy),
                          MakePointerChecker<KvTransferPolicy>())
            .AddAttribute(
                "MaxMessageBytes",
                "Largest KV payload of one DATA message, in bytes [1, 2^32 - 1]. The "
                "policy decides at message boundaries, so this is how long a message "
                "may hold the link against a more urgent session. A message holds "
                "at least one token or entry even when that is larger.",
                UintegerValue(1048576),
                MakeUintegerAccessor(&KvTransferSender::m_maxMessageBytes),
                edgellm::MakeExplainingChecker(
                    MakeUintegerChecker<uint64_t>(1, std::numeric_limits<uint32_t>::max()),
                    "ns3::KvTransferSender::MaxMessageBytes",
                    "an integer in [1, 4294967295]"))
            .AddAttribute(
                "CongestionControl",
                "TCP congestion control of the transfers, a TcpCongestionOps TypeId: "
                "ns3::TcpCubic, the default of ns-3's sockets, or any other, "
                "e.g. ns3::TcpNewReno, whatever ns3::TcpL4Protocol::SocketType says.",
                TypeIdValue(TcpCubic::GetTypeId()),
                MakeTypeIdAccessor(&KvTransferSender::m_congestionControl),
                edgellm::MakeExplainingChecker(
                    MakeTypeIdChecker(),
                    "ns3::KvTransferSender::CongestionControl",
                    "a TypeId of a TcpCongestionOps, e.g. ns3::TcpCubic or ns3::TcpNewReno",
                    [](const AttributeValue& v) {
                        // Made and cast, not IsChildOf: ns-3.37 registers ns3::TcpCubic with
                        // TcpSocketBase as its parent.
                        const TypeId t = static_cast<const TypeIdValue&>(v).Get();
                        if (!t.HasConstructor())
                        {
                            return "not a TCP congestion control";
                        }
                        ObjectFactory f;
                        f.SetTypeId(t);
                        return DynamicCast<TcpCongestionOps>(f.Create())
                                   ? ""
                                   : "not a TCP congestion control";
                    }))
            .AddAttribute(
                "SocketBufferBytes",
                "TCP send and receive buffer, in bytes; 0 sizes it from the link as "
                "2 x rate x RTT (at least 128 KiB). Maximum 2^31 - 1.",
                UintegerValue(0),
                MakeUintegerAccessor(&KvTransferSender::m_socketBuffer),
                edgellm::MakeSocketBufferChecker("ns3::KvTransferSender::SocketBufferBytes"))
            .AddTraceSource("MessageSent",
                            "A message's header was handed to TCP.",
                            MakeTraceSourceAccessor(&KvTransferSender::m_messageSent),
                            "ns3::KvTransferSender::MessageTracedCallback")
            .AddTraceSource("TransferAcked",
                            "The peer's TCP acknowledged every byte of a transfer.",
                            MakeTraceSourceAccessor(&KvTransferSender::m_transferAcked),
                            "ns3::KvTransferSender::TransferTracedCallback")
            .AddTraceSource("TransferCancelled",
                            "A transfer was cancelled; bytes are those withdrawn.",
                            MakeTraceSourceAccessor(&KvTransferSender::m_transferCancelled),
                            "ns3::KvTransferSender::TransferTracedCallback");
    return tid;
}

KvTransferSender::KvTransferSender() = default;
KvTransferSender::~KvTransferSender() = default;

void
KvTransferSender::DoDispose()
{
    m_refill.Cancel();
    if (m_socket)
    {
        // TCP keeps the socket after this object is gone: nothing of it may call back here.
        m_socket->TraceDisconnectWithoutContext("HighestRxAck",
                                                MakeCallback(&KvTransferSender::AckAdvanced, this));
        m_socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                     MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        // Not closed: at the end of a run the node disposes its devices before its
        // applications, and a close would send a FIN through a device already gone.
    }
    m_connected = false;
    m_socket = nullptr;
    m_node = nullptr;
    m_policy = nullptr;
    m_completion = MakeNullCallback<void, uint64_t, uint32_t>();
    Object::DoDispose();
}

void
KvTransferSender::Setup(Ptr<Node> node, Ipv4Address local, Ipv4Address peer, uint16_t port)
{
    NS_ABORT_MSG_IF(!node, "KvTransferSender::Setup: node is null");
    NS_ABORT_MSG_IF(m_socket, "KvTransferSender::Setup: call it before Start()");
    m_node = node;
    if (!m_policy)
    {
        m_policy = CreateObject<FifoKvTransferPolicy>();
    }
    m_local = local;
    m_peer = peer;
    m_port = port;
}

void
KvTransferSender::Start()
{
    NS_ABORT_MSG_IF(!m_node, "KvTransferSender::Start: call Setup() first");
    if (m_socket)
    {
        return;
    }
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    NS_ABORT_MSG_IF(!ipv4, "KvTransferSender: node " << m_node->GetId() << " has no IPv4");
    const int32_t iface = ipv4->GetInterfaceForAddress(m_local);
    NS_ABORT_MSG_IF(iface < 0,
                    "KvTransferSender: " << m_local << " is not an address of node "
                                         << m_node->GetId());
    const uint32_t mtu = ipv4->GetMtu(iface);
    NS_ABORT_MSG_IF(mtu <= edgellm::TCP_IP_OVERHEAD_BYTES,
                    "KvTransferSender: MTU " << mtu << " leaves no room for TCP payload");
    m_segmentSize = mtu - edgellm::TCP_IP_OVERHEAD_BYTES;
    const uint32_t buffer = m_socketBuffer != 0
                                ? m_socketBuffer
                                : edgellm::SocketBufferForLink(ipv4->GetNetDevice(iface), mtu);

    Ptr<NetDevice> device = ipv4->GetNetDevice(iface);
    TimeValue delay;
    if (device && device->GetChannel() &&
        device->GetChannel()->GetAttributeFailSafe("Delay", delay))
    {
        m_linkDelay = delay.Get();
    }
    m_socket = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    edgellm::ConfigureTcpSocket(m_socket, m_segmentSize, buffer);
    // Read once: the sender asks for it at every pump, and a lookup by name costs more than
    // the rest of the pump (the socket is this sender's own; nothing resizes its buffer).
    UintegerValue sndBuf;
    m_socket->GetAttribute("SndBufSize", sndBuf);
    m_sndBufBytes = sndBuf.Get();
    ObjectFactory congestion;
    congestion.SetTypeId(m_congestionControl);
    DynamicCast<TcpSocketBase>(m_socket)->SetCongestionControlAlgorithm(
        congestion.Create<TcpCongestionOps>());
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(m_local, 0)) != 0,
                    "KvTransferSender: cannot bind " << m_local);
    m_socket->TraceConnectWithoutContext("HighestRxAck",
                                         MakeCallback(&KvTransferSender::AckAdvanced, this));
    m_socket->SetConnectCallback(MakeCallback(&KvTransferSender::ConnectionSucceeded, this),
                                 MakeCallback(&KvTransferSender::ConnectionFailed, this));
    m_socket->SetSendCallback(MakeCallback(&KvTransferSender::SendSpace, this));
    m_socket->Connect(InetSocketAddress(m_peer, m_port));
    NS_LOG_INFO(m_local << " -> " << m_peer << ":" << m_port << " segment " << m_segmentSize
                        << " buffer " << buffer);
}

void
KvTransferSender::Stop()
{
    m_refill.Cancel();
    if (m_socket)
    {
        m_socket->Close();
    }
    m_connected = false;
}

void
KvTransferSender::ConnectionSucceeded(Ptr<Socket> /* socket */)
{
    m_connected = true;
    Pump();
}

void
KvTransferSender::ConnectionFailed(Ptr<Socket> /* socket */)
{
    NS_FATAL_ERROR("KvTransferSender: connection " << m_local << " -> " << m_peer << ":" << m_port
                                                   << " failed; is a receiver listening there?");
}

void
KvTransferSender::SendSpace(Ptr<Socket> /* socket */, uint32_t /* available */)
{
    Pump();
}

void
KvTransferSender::AckAdvanced(SequenceNumber32 oldValue, SequenceNumber32 newValue)
{
    // The SYN's acknowledgement arrives before the connection counts as established, and
    // holds no stream byte.
    if (!m_connected || newValue <= oldValue)
    {
        return;
    }
    m_streamAcked += static_cast<uint32_t>(newValue - oldValue);
    // Whose bytes the acknowledgement covers, byte by byte: a write's header and token IDs
    // come before its KV bytes in the stream.
    while (!m_unacked.empty())
    {
        Write& w = m_unacked.front();
        const uint64_t start = w.end - w.bytes;
        const uint64_t covered = std::min(w.end, m_streamAcked) - std::min(start, m_streamAcked);
        if (covered == 0)
        {
            break;
        }
        KvTransferSenderCounters& c = m_counters[w.imsi];
        c.delivered += covered;
        const uint64_t kv = std::min(w.kvBytes, w.bytes) - std::min(w.kvBytes, w.bytes - covered);
        c.deliveredKv += kv;
        w.bytes -= covered;
        w.kvBytes -= kv;
        if (w.bytes > 0)
        {
            break;
        }
        m_unacked.pop_front();
    }
    while (!m_awaitingAck.empty() && m_awaitingAck.front().streamEnd <= m_streamAcked)
    {
        const Job done = m_awaitingAck.front();
        m_awaitingAck.pop_front();
        m_counters[done.info.imsi].acked += done.info.sentBytes;
        m_transferAcked(done.info.imsi, done.info.epoch, done.info.sentBytes);
        if (!m_completion.IsNull())
        {
            m_completion(done.info.imsi, done.info.epoch);
        }
    }
}

std::list<KvTransferSender::Job>::iterator
KvTransferSender::FindJob(uint64_t imsi, uint32_t epoch)
{
    return std::find_if(m_jobs.begin(), m_jobs.end(), [imsi, epoch](const Job& j) {
        return j.info.imsi == imsi && j.info.epoch == epoch;
    });
}

void
KvTransferSender::Enqueue(const KvTransferRequest& request)
{
    const uint64_t imsi = request.imsi;
    NS_ABORT_MSG_IF(imsi == 0, "KvTransferRequest::imsi = 0; an IMSI is >= 1");
    const bool tokensOnly = request.ranges.empty() && !request.open;
    NS_ABORT_MSG_IF(tokensOnly && request.forwardedCount == 0,
                    "KvTransferRequest::ranges is empty and KvTransferRequest::forwardedCount = 0 "
                    "for imsi "
                        << imsi
                        << "; give at least one range, or forwardedCount >= 1 for a "
                           "tokens-only transfer");
    NS_ABORT_MSG_IF(!tokensOnly && request.bytesPerUnit == 0,
                    "KvTransferRequest::bytesPerUnit = 0 for imsi " << imsi << "; it is >= 1");
    NS_ABORT_MSG_IF(!(request.weight > 0) || !std::isfinite(request.weight),
                    "KvTransferRequest::weight = " << request.weight << " for imsi " << imsi
                                                   << "; it is > 0 and finite");
    std::vector<uint32_t> superseded;
    for (const Job& j : m_jobs)
    {
        if (j.info.imsi != imsi)
        {
            continue;
        }
        NS_ABORT_MSG_IF(j.info.epoch >= request.epoch,
                        "KvTransferSender::Enqueue: imsi " << imsi << " epoch " << request.epoch
                                                           << " is not newer than its queued epoch "
                                                           << j.info.epoch);
        superseded.push_back(j.info.epoch);
    }
    NS_ABORT_MSG_IF(request.forwardedCount > 0 &&
                        uint64_t(request.forwardedFirst) + request.forwardedCount >
                            (uint64_t(1) << 32),
                    "KvTransferRequest::forwardedFirst + forwardedCount exceeds 2^32");

    auto sorted = request.ranges;
    std::sort(sorted.begin(), sorted.end(), [](const TokenRange& a, const TokenRange& b) {
        return a.first != b.first ? a.first < b.first : a.end < b.end;
    });
    uint64_t previousEnd = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i)
    {
        const TokenRange& r = sorted[i];
        NS_ABORT_MSG_IF(r.Empty(),
                        "KvTransferRequest::ranges: an empty range [" << r.first << ", " << r.end
                                                                      << ")");
        NS_ABORT_MSG_IF(r.end > (uint64_t(1) << 32),
                        "KvTransferRequest::ranges: [" << r.first << ", " << r.end
                                                       << ") ends past 2^32");
        NS_ABORT_MSG_IF(i > 0 && r.first < previousEnd,
                        "KvTransferRequest::ranges overlap at " << r.first);
        previousEnd = r.end;
    }

    Job job;
    job.tokensOnly = tokensOnly;
    job.open = request.open;
    job.unit = request.unit;
    job.info.imsi = imsi;
    job.info.epoch = request.epoch;
    job.info.arrival = m_arrivals++;
    job.info.enqueued = Simulator::Now();
    job.info.deadline = request.deadline;
    job.info.priority = request.priority;
    job.info.weight = request.weight;
    job.info.bytesPerUnit = request.bytesPerUnit;

    if (request.open)
    {
        // Ahead of every BEGIN, so the peer knows from the first one that more may follow.
        m_control.push_back(KvTransferHeader::Make(KvTransferHeader::OPEN,
                                                   imsi,
                                                   request.epoch,
                                                   KvTransferHeader::TOKEN,
                                                   0,
                                                   0,
                                                   0));
    }
    AddRanges(job, request.ranges, "KvTransferSender::Enqueue");
    if (request.forwardedCount > 0)
    {
        m_control.push_back(KvTransferHeader::Make(KvTransferHeader::TOKENS,
                                                   imsi,
                                                   request.epoch,
                                                   KvTransferHeader::TOKEN,
                                                   request.forwardedFirst,
                                                   request.forwardedCount,
                                                   uint64_t(request.forwardedCount) *
                                                       KvTransferHeader::BYTES_PER_TOKEN_ID));
    }
    // A newer epoch makes the older ones useless to the peer: they are cancelled first, so
    // the link does not carry bytes the receiver would drop as stale.
    for (uint32_t old : superseded)
    {
        Cancel(imsi, old, KvDiscardReason::NEWER_EPOCH);
    }
    m_jobs.push_back(std::move(job));
    Pump();
}

uint64_t
KvTransferSender::Cancel(uint64_t imsi, uint32_t epoch, KvDiscardReason reason)
{
    const auto code = static_cast<std::size_t>(reason);
    NS_ABORT_MSG_IF(code >= KV_DISCARD_REASONS,
                    "KvTransferSender::Cancel: reason = " << code << " is not in [0, "
                                                          << KV_DISCARD_REASONS - 1 << "]");
    auto it = FindJob(imsi, epoch);
    if (it == m_jobs.end())
    {
        return 0;
    }
    const uint64_t withdrawn = it->info.remainingBytes;
    const bool peerKnows = it->peerKnows;
    KvTransferSenderCounters& counters = m_counters[imsi];
    counters.withdrawn += withdrawn;
    counters.withdrawnBy[code] += withdrawn;
    m_jobs.erase(it);
    // What the peer has not been told yet is not told: its OPEN, BEGIN, TOKENS and SEAL, and
    // an END, which would tell it the transfer is whole.
    auto ofJob = [imsi, epoch](const KvTransferHeader& h) {
        return h.GetImsi() == imsi && h.GetEpoch() == epoch;
    };
    m_control.erase(std::remove_if(m_control.begin(), m_control.end(), ofJob), m_control.end());
    m_ends.erase(std::remove_if(m_ends.begin(), m_ends.end(), ofJob), m_ends.end());
    if (peerKnows)
    {
        m_control.push_back(KvTransferHeader::MakeCancel(imsi, epoch, reason));
    }
    m_transferCancelled(imsi, epoch, withdrawn);
    NS_LOG_INFO("cancel imsi " << imsi << " epoch " << epoch << " (" << KvDiscardReasonName(reason)
                               << "): " << withdrawn << " bytes");
    Pump();
    return withdrawn;
}

void
KvTransferSender::Reschedule()
{
    m_refill.Cancel();
    Pump();
}

void
KvTransferSender::SetCompletionCallback(Callback<void, uint64_t, uint32_t> cb)
{
    m_completion = cb;
}

KvTransferSenderCounters
KvTransferSender::GetCounters(uint64_t imsi) const
{
    auto it = m_counters.find(imsi);
    return it == m_counters.end() ? KvTransferSenderCounters{} : it->second;
}

uint64_t
KvTransferSender::GetStreamBytesSent() const
{
    return m_streamSent;
}

uint64_t
KvTransferSender::GetSocketBufferedBytes() const
{
    if (!m_socket || !m_connected)
    {
        return 0;
    }
    return m_sndBufBytes - std::min<uint64_t>(m_sndBufBytes, m_socket->GetTxAvailable());
}

uint64_t
KvTransferSender::GetWritingBytesLeft() const
{
    if (!m_writing.active)
    {
        return 0;
    }
    return m_writing.payloadLeft +
           (m_writing.headerWritten ? 0 : KvTransferHeader::SERIALIZED_SIZE);
}

Time
KvTransferSender::GetLinkDelay() const
{
    return m_linkDelay;
}

bool
KvTransferSender::HasPendingControl(uint64_t imsi, uint32_t epoch) const
{
    return std::any_of(m_control.begin(),
                       m_control.end(),
                       [imsi, epoch](const KvTransferHeader& h) {
                           return h.GetImsi() == imsi && h.GetEpoch() == epoch;
                       });
}

std::vector<TokenRange>
KvTransferSender::GetUnsentRanges(uint64_t imsi, uint32_t epoch) const
{
    for (const Job& j : m_jobs)
    {
        if (j.info.imsi == imsi && j.info.epoch == epoch)
        {
            return {j.ranges.begin(), j.ranges.end()};
        }
    }
    return {};
}

bool
KvTransferSender::SetDeadline(uint64_t imsi, uint32_t epoch, Time deadline)
{
    for (Job& j : m_jobs)
    {
        if (j.info.imsi == imsi && j.info.epoch == epoch)
        {
            j.info.deadline = deadline;
            return true;
        }
    }
    return false;
}

uint64_t
KvTransferSender::GetBacklogBytes() const
{
    uint64_t backlog = 0;
    for (const Job& j : m_jobs)
    {
        backlog += j.info.remainingBytes;
    }
    // The message being written left its job's remaining bytes when it was chosen.
    if (m_writing.active && m_writing.header.GetMessageType() == KvTransferHeader::DATA)
    {
        backlog += m_writing.payloadLeft;
    }
    return backlog;
}

bool
KvTransferSender::IsConnected() const
{
    return m_connected;
}

Ptr<KvTransferPolicy>
KvTransferSender::GetPolicy() const
{
    return m_policy;
}

} // namespace ns3
