/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-transfer-multi-session.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/kv-transfer-application.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace kvtransferbench
{

namespace
{
/// DataRate::CalculateBytesTxTime counts bits in 32 bits, too few for a cache.
Time
TxTime(uint64_t bytes, DataRate rate)
{
    return Seconds(static_cast<double>(bytes) * 8 / rate.GetBitRate());
}

/// Record one session's completion; stop the run at the last.
void
Finish(MultiRun& run, std::size_t session, uint32_t& left, Time first)
{
    run.done[session] = Simulator::Now();
    if (--left == 0)
    {
        run.last = Simulator::Now() - first;
        Simulator::Stop();
    }
}

Time
FirstAnnouncement(const std::vector<SessionSpec>& sessions)
{
    Time first = Time::Max();
    for (const SessionSpec& s : sessions)
    {
        first = std::min(first, s.announced);
    }
    return first;
}
} // namespace

std::vector<SessionSpec>
MakeSessions(const SessionSetSpec& set, DataRate rate)
{
    const uint32_t n = set.sessions;
    std::vector<SessionSpec> sessions(n);
    const double growth = static_cast<double>(set.maxTokens) / set.minTokens;
    for (uint32_t i = 0; i < n; ++i)
    {
        SessionSpec& s = sessions[i];
        const double step = n > 1 ? static_cast<double>(i) / (n - 1) : 0.0;
        s.tokens =
            i + 1 == n && n > 1
                ? set.maxTokens
                : static_cast<uint64_t>(std::llround(set.minTokens * std::pow(growth, step)));
        s.bytes = s.tokens * set.tokenBytes;
        s.announced = set.start + set.stagger * static_cast<int64_t>(i);
    }
    std::vector<uint32_t> order;
    for (uint32_t low = 0, high = n; low < high;)
    {
        order.push_back(--high);
        if (low < high)
        {
            order.push_back(low++);
        }
    }
    Time free = set.start;
    for (uint32_t i : order)
    {
        SessionSpec& s = sessions[i];
        free = std::max(free, s.announced) + TxTime(s.bytes, rate);
        s.deadline = s.announced + Seconds(set.slack * (free - s.announced).GetSeconds());
    }
    return sessions;
}

Time
IdealMakespan(const std::vector<SessionSpec>& sessions, DataRate rate)
{
    std::vector<SessionSpec> byArrival = sessions;
    std::stable_sort(
        byArrival.begin(),
        byArrival.end(),
        [](const SessionSpec& a, const SessionSpec& b) { return a.announced < b.announced; });
    Time free = byArrival.front().announced;
    for (const SessionSpec& s : byArrival)
    {
        free = std::max(free, s.announced) + TxTime(s.bytes, rate);
    }
    return free - byArrival.front().announced;
}

MultiRun
RunEdfSender(const LinkSpec& spec, const std::vector<SessionSpec>& sessions, uint64_t tokenBytes)
{
    const ProtocolEnds ends = MakeProtocolEnds(spec);
    Ptr<KvTransferSender> sender = ends.sender;
    Ptr<KvTransferReceiver> receiver = ends.receiver;
    sender->SetAttribute("Policy", PointerValue(CreateObject<EdfKvTransferPolicy>()));

    MultiRun run;
    run.done.assign(sessions.size(), Time::Max());
    uint32_t left = sessions.size();
    const Time first = FirstAnnouncement(sessions);
    // Session i is IMSI i + 1: an IMSI is >= 1.
    receiver->SetCompleteCallback(Callback<void, uint64_t, uint32_t>(
        [&run, &left, first](uint64_t imsi, uint32_t) { Finish(run, imsi - 1, left, first); }));
    for (std::size_t i = 0; i < sessions.size(); ++i)
    {
        KvTransferRequest request;
        request.imsi = i + 1;
        request.ranges = {{0, sessions[i].tokens}};
        request.bytesPerUnit = tokenBytes;
        request.deadline = sessions[i].deadline;
        Simulator::Schedule(sessions[i].announced, &KvTransferSender::Enqueue, sender, request);
    }
    const auto wall = std::chrono::steady_clock::now();
    Simulator::Run();
    run.wallS = WallSeconds(wall);
    for (std::size_t i = 0; i < sessions.size(); ++i)
    {
        run.got.push_back(receiver->GetCounters(i + 1).received);
    }
    Simulator::Destroy();
    return run;
}

MultiRun
RunParallelBulkSend(const LinkSpec& spec, const std::vector<SessionSpec>& sessions)
{
    // Without a scheduler above TCP, moving several caches at once means one connection per
    // cache, and TCP shares the link among them. That is what a server would do with no
    // protocol, it keeps the link as busy as one connection does (so the last byte arrives
    // at about the same time), and it leaves the order to TCP: the comparison shows what
    // ordering inside one connection costs in wall time and gains in deadlines met.
    Link l = MakeLink(spec);
    SetBulkSendTcpDefaults(l);
    MultiRun run;
    run.done.assign(sessions.size(), Time::Max());
    run.got.assign(sessions.size(), 0);
    uint32_t left = sessions.size();
    const Time first = FirstAnnouncement(sessions);
    for (std::size_t i = 0; i < sessions.size(); ++i)
    {
        const uint16_t port = static_cast<uint16_t>(7200 + i);
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(l.link.addressB, port));
        bulk.SetAttribute("MaxBytes", UintegerValue(sessions[i].bytes));
        bulk.SetAttribute("SendSize", UintegerValue(BulkSendWriteSize(l)));
        bulk.Install(l.nodes.Get(0)).Start(sessions[i].announced);
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sink = sinkHelper.Install(l.nodes.Get(1));
        const uint64_t bytes = sessions[i].bytes;
        sink.Get(0)->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, const Address&>(
                [&run, &left, first, i, bytes](Ptr<const Packet> p, const Address&) {
                    const bool wasShort = run.got[i] < bytes;
                    run.got[i] += p->GetSize();
                    if (wasShort && run.got[i] >= bytes)
                    {
                        Finish(run, i, left, first);
                    }
                }));
    }
    const auto wall = std::chrono::steady_clock::now();
    Simulator::Run();
    run.wallS = WallSeconds(wall);
    Simulator::Destroy();
    Config::Reset();
    return run;
}

} // namespace kvtransferbench
} // namespace ns3
