/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The KV-transfer protocol against ns-3's BulkSendApplication: the same bytes over the same
// backhaul link, with the same TCP settings, in one process. First one session, then several
// with deadlines: one EDF sender against one BulkSend per session. Prints the wall-time ratio
// (protocol / BulkSend) and the simulated goodput of each as a fraction of the link rate, and
// for several sessions how many met their deadlines.

#include "kv-transfer-bench-link.h"
#include "kv-transfer-multi-session.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/kv-cache-profile.h"
#include "ns3/kv-transfer-application.h"

#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::kvtransferbench;

namespace
{

/// What one run measured.
struct Run
{
    double wallS{0};     //!< wall time of Simulator::Run
    double transferS{0}; //!< simulated time from start to the last byte at the receiver
    uint64_t bytes{0};   //!< bytes delivered to the receiving application
};

Run
RunProtocol(const LinkSpec& spec, uint64_t tokens, uint64_t tokenBytes)
{
    const ProtocolEnds ends = MakeProtocolEnds(spec);
    Ptr<KvTransferSender> sender = ends.sender;
    Ptr<KvTransferReceiver> receiver = ends.receiver;
    Run run;
    const Time start = Seconds(0.1);
    receiver->SetCompleteCallback(
        Callback<void, uint64_t, uint32_t>([&run, start](uint64_t, uint32_t) {
            run.transferS = (Simulator::Now() - start).GetSeconds();
            Simulator::Stop();
        }));
    KvTransferRequest request;
    request.imsi = 1;
    request.ranges = {{0, tokens}};
    request.bytesPerUnit = tokenBytes;
    Simulator::Schedule(start, &KvTransferSender::Enqueue, sender, request);
    const auto wall = std::chrono::steady_clock::now();
    Simulator::Run();
    run.wallS = WallSeconds(wall);
    run.bytes = receiver->GetCounters(1).received;
    Simulator::Destroy();
    return run;
}

Run
RunBulkSend(const LinkSpec& spec, uint64_t bytes)
{
    Link l = MakeLink(spec);
    SetBulkSendTcpDefaults(l);
    const uint16_t port = 7200;
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(l.link.addressB, port));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    bulk.SetAttribute("SendSize", UintegerValue(BulkSendWriteSize(l)));
    ApplicationContainer src = bulk.Install(l.nodes.Get(0));
    src.Start(Seconds(0.1));
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sink = sinkHelper.Install(l.nodes.Get(1));
    Run run;
    const Time start = Seconds(0.1);
    sink.Get(0)->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, const Address&>(
            [&run, bytes, start](Ptr<const Packet> p, const Address&) {
                run.bytes += p->GetSize();
                if (run.bytes >= bytes)
                {
                    run.transferS = (Simulator::Now() - start).GetSeconds();
                    Simulator::Stop();
                }
            }));
    const auto wall = std::chrono::steady_clock::now();
    Simulator::Run();
    run.wallS = WallSeconds(wall);
    Simulator::Destroy();
    // Later runs in this process must not inherit these defaults.
    Config::Reset();
    return run;
}

/**
 * \brief Fastest of `repetitions` runs of each, alternating, so drift in the machine's speed
 * hits both alike.
 * \return (BulkSend's fastest, the protocol's fastest)
 */
template <typename R, typename B, typename P>
std::pair<R, R>
FastestOf(uint32_t repetitions, B bulkSend, P protocol)
{
    std::pair<R, R> best;
    best.first.wallS = best.second.wallS = std::numeric_limits<double>::max();
    for (uint32_t i = 0; i < repetitions; ++i)
    {
        const R bulk = bulkSend();
        const R kv = protocol();
        best.first = bulk.wallS < best.first.wallS ? bulk : best.first;
        best.second = kv.wallS < best.second.wallS ? kv : best.second;
    }
    return best;
}

/// \return how many sessions of a run were whole by their deadlines
uint32_t
DeadlinesMet(const MultiRun& run, const std::vector<SessionSpec>& sessions)
{
    uint32_t met = 0;
    for (std::size_t i = 0; i < sessions.size(); ++i)
    {
        met += run.done[i] <= sessions[i].deadline ? 1 : 0;
    }
    return met;
}

void
CompareOneSession(const LinkSpec& link,
                  const std::string& rateText,
                  double delayUs,
                  uint64_t tokens,
                  uint64_t tokenBytes,
                  uint32_t repetitions)
{
    const uint64_t bytes = tokens * tokenBytes;
    const auto [bulk, kv] = FastestOf<Run>(
        repetitions,
        [&]() {
            const Run r = RunBulkSend(link, bytes);
            NS_ABORT_MSG_IF(r.bytes < bytes,
                            "BulkSend delivered " << r.bytes << " of " << bytes << " bytes");
            return r;
        },
        [&]() {
            const Run r = RunProtocol(link, tokens, tokenBytes);
            NS_ABORT_MSG_IF(r.bytes != bytes,
                            "the protocol delivered " << r.bytes << " of " << bytes << " bytes");
            return r;
        });
    const double ideal = bytes * 8.0 / link.rate.GetBitRate();
    std::cout << "bytes " << bytes << " over " << rateText << ", " << delayUs << " us, MTU "
              << link.mtu << "; ideal " << ideal << " s\n";
    std::cout << "run        wall_s   transfer_s  goodput/link\n";
    std::cout << "BulkSend   " << bulk.wallS << "   " << bulk.transferS << "      "
              << ideal / bulk.transferS << "\n";
    std::cout << "protocol   " << kv.wallS << "   " << kv.transferS << "      "
              << ideal / kv.transferS << "\n";
    std::cout << "wall ratio protocol/BulkSend " << kv.wallS / bulk.wallS
              << " (target <= 1.1); protocol goodput/link " << ideal / kv.transferS
              << " (target >= 0.97)\n";
}

void
CompareSessions(const LinkSpec& link, const SessionSetSpec& set, uint32_t repetitions)
{
    const std::vector<SessionSpec> sessions = MakeSessions(set, link.rate);
    const auto [bulk, kv] = FastestOf<MultiRun>(
        repetitions,
        [&]() {
            const MultiRun r = RunParallelBulkSend(link, sessions);
            for (std::size_t i = 0; i < sessions.size(); ++i)
            {
                NS_ABORT_MSG_IF(r.got[i] < sessions[i].bytes,
                                "BulkSend delivered " << r.got[i] << " of " << sessions[i].bytes
                                                      << " bytes of session " << i + 1);
            }
            return r;
        },
        [&]() {
            const MultiRun r = RunEdfSender(link, sessions, set.tokenBytes);
            for (std::size_t i = 0; i < sessions.size(); ++i)
            {
                NS_ABORT_MSG_IF(r.got[i] != sessions[i].bytes,
                                "the protocol delivered " << r.got[i] << " of " << sessions[i].bytes
                                                          << " bytes of session " << i + 1);
            }
            return r;
        });
    uint64_t bytes = 0;
    for (const SessionSpec& s : sessions)
    {
        bytes += s.bytes;
    }
    const Time first = sessions.front().announced;
    const double ideal = IdealMakespan(sessions, link.rate).GetSeconds();
    std::cout << "\n"
              << "sessions " << set.sessions << ", " << set.minTokens << " to " << set.maxTokens
              << " tokens x " << set.tokenBytes << " B, " << bytes << " bytes in all, announced "
              << set.stagger.GetMicroSeconds() << " us apart; ideal " << ideal << " s\n";
    std::cout << "deadlines: largest and smallest left in turn, back to back at the link rate, "
                 "x slack "
              << set.slack << "\n";
    std::cout << "run           wall_s   last_s   goodput/link  deadlines_met\n";
    std::cout << "BulkSend x" << std::left << std::setw(3) << set.sessions << std::right << " "
              << bulk.wallS << "   " << bulk.last.GetSeconds() << "   "
              << ideal / bulk.last.GetSeconds() << "        " << DeadlinesMet(bulk, sessions) << "/"
              << set.sessions << "\n";
    std::cout << "protocol EDF  " << kv.wallS << "   " << kv.last.GetSeconds() << "   "
              << ideal / kv.last.GetSeconds() << "        " << DeadlinesMet(kv, sessions) << "/"
              << set.sessions << "\n";
    std::cout << "wall ratio protocol/BulkSend " << kv.wallS / bulk.wallS << ", sessions "
              << set.sessions << "\n";
    std::cout << "session  tokens  announced_s  deadline_s  EDF_done_s   BulkSend_done_s "
                 "(* missed)\n";
    auto done = [&first](Time t, Time deadline) {
        std::ostringstream os;
        os << std::fixed << std::setprecision(4) << (t - first).GetSeconds()
           << (t <= deadline ? " " : "*");
        return os.str();
    };
    for (std::size_t i = 0; i < sessions.size(); ++i)
    {
        const SessionSpec& s = sessions[i];
        std::cout << std::setw(7) << i + 1 << std::setw(8) << s.tokens << std::setw(13)
                  << (s.announced - first).GetSeconds() << std::setw(12)
                  << (s.deadline - first).GetSeconds() << std::setw(12)
                  << done(kv.done[i], s.deadline) << std::setw(16) << done(bulk.done[i], s.deadline)
                  << "\n";
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string rateText = "10Gbps";
    double delayUs = 50;
    uint32_t mtu = 9000;
    uint64_t tokens = 8192; // 470 MB of Qwen2.5-7B-Instruct at 16 bits
    uint64_t tokenBytes = KvCacheProfile::FromPreset("Qwen2.5-7B-Instruct").GetBytesForTokens(1);
    uint32_t repetitions = 3;
    uint32_t sessions = 8;
    uint64_t minTokens = 1024;
    uint64_t maxTokens = 16384;
    double slack = 1.1;
    double staggerUs = 0;
    bool smoke = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "backhaul rate", rateText);
    cmd.AddValue("delayUs", "backhaul one-way delay, in microseconds (>= 0)", delayUs);
    cmd.AddValue("mtu", "backhaul MTU, in bytes [576, 65000]", mtu);
    cmd.AddValue("tokens", "tokens of KV cache to move in one session (>= 1)", tokens);
    cmd.AddValue("tokenBytes", "KV bytes per token (>= 1)", tokenBytes);
    cmd.AddValue("repetitions", "runs of each; the fastest wall time counts (>= 1)", repetitions);
    cmd.AddValue("sessions", "sessions moved at once [1, 64]", sessions);
    cmd.AddValue("minTokens", "tokens of the smallest of them [1, 2^32 - 1]", minTokens);
    cmd.AddValue("maxTokens", "tokens of the largest [minTokens, 2^32 - 1]", maxTokens);
    cmd.AddValue("slack", "deadlines over a tight schedule of the sessions [1, 100]", slack);
    cmd.AddValue("staggerUs",
                 "between the sessions' announcements, in microseconds [0, 10^6]",
                 staggerUs);
    cmd.AddValue("smoke", "a tiny run that only checks the program works", smoke);
    cmd.Parse(argc, argv);
    NS_ABORT_MSG_IF(tokens < 1 || tokens > 0xFFFFFFFFull, "--tokens must be in [1, 2^32 - 1]");
    NS_ABORT_MSG_IF(tokenBytes < 1, "--tokenBytes must be >= 1");
    NS_ABORT_MSG_IF(tokens > std::numeric_limits<uint64_t>::max() / tokenBytes,
                    "--tokens x --tokenBytes must be below 2^64");
    NS_ABORT_MSG_IF(repetitions < 1, "--repetitions must be >= 1");
    NS_ABORT_MSG_IF(delayUs < 0, "--delayUs must be >= 0");
    NS_ABORT_MSG_IF(mtu < 576 || mtu > 65000, "--mtu must be in [576, 65000]");
    NS_ABORT_MSG_IF(sessions < 1 || sessions > 64, "--sessions must be in [1, 64]");
    NS_ABORT_MSG_IF(minTokens < 1 || minTokens > 0xFFFFFFFFull,
                    "--minTokens must be in [1, 2^32 - 1]");
    NS_ABORT_MSG_IF(maxTokens < minTokens || maxTokens > 0xFFFFFFFFull,
                    "--maxTokens must be in [--minTokens, 2^32 - 1], here [" << minTokens
                                                                             << ", 4294967295]");
    NS_ABORT_MSG_IF(maxTokens > std::numeric_limits<uint64_t>::max() / tokenBytes / sessions,
                    "--maxTokens x --tokenBytes x --sessions must be below 2^64");
    NS_ABORT_MSG_IF(!(slack >= 1 && slack <= 100), "--slack must be in [1, 100]");
    NS_ABORT_MSG_IF(!(staggerUs >= 0 && staggerUs <= 1e6), "--staggerUs must be in [0, 10^6]");
    // Checked first, so a bad flag is refused in a smoke run too.
    if (smoke)
    {
        tokens = 64;
        minTokens = 8;
        maxTokens = 64;
        repetitions = 1;
    }
    LinkSpec link;
    link.rate = DataRate(rateText);
    link.delay = MicroSeconds(delayUs);
    link.mtu = static_cast<uint16_t>(mtu);

    std::cout << std::fixed << std::setprecision(4);
    CompareOneSession(link, rateText, delayUs, tokens, tokenBytes, repetitions);

    SessionSetSpec set;
    set.sessions = sessions;
    set.minTokens = minTokens;
    set.maxTokens = maxTokens;
    set.tokenBytes = tokenBytes;
    set.slack = slack;
    set.start = Seconds(0.1);
    set.stagger = MicroSeconds(staggerUs);
    CompareSessions(link, set, repetitions);
    return 0;
}
