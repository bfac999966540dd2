/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The KV-transfer protocol against ns-3's BulkSendApplication: the same bytes over the same
// backhaul link, with the same TCP settings, in one process. Prints the wall-time ratio
// (protocol / BulkSend) and the simulated goodput of each as a fraction of the link rate.

#include "ns3/applications-module.h"
#include "ns3/backhaul-helper.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/kv-transfer-socket.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// What one run measured.
struct Run
{
    double wallS{0};     //!< wall time of Simulator::Run
    double transferS{0}; //!< simulated time from start to the last byte at the receiver
    uint64_t bytes{0};   //!< bytes delivered to the receiving application
};

struct Link
{
    NodeContainer nodes;
    BackhaulLink link;
    uint32_t segment{0};
    uint32_t buffer{0};
};

Link
MakeLink(DataRate rate, Time delay, uint16_t mtu)
{
    Link l;
    l.nodes.Create(2);
    InternetStackHelper().Install(l.nodes);
    Ptr<BackhaulHelper> backhaul = CreateObject<BackhaulHelper>();
    backhaul->SetAttribute("DataRate", DataRateValue(rate));
    backhaul->SetAttribute("Delay", TimeValue(delay));
    backhaul->SetAttribute("Mtu", UintegerValue(mtu));
    l.link = backhaul->Install(l.nodes.Get(0), l.nodes.Get(1));
    l.segment = mtu - edgellm::TCP_IP_OVERHEAD_BYTES;
    l.buffer = edgellm::SocketBufferForLink(l.link.devices.Get(0), mtu);
    return l;
}

double
WallSeconds(const std::chrono::steady_clock::time_point& start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Run
RunProtocol(DataRate rate, Time delay, uint16_t mtu, uint64_t tokens, uint64_t tokenBytes)
{
    Link l = MakeLink(rate, delay, mtu);
    Ptr<KvTransferApplication> a = CreateObject<KvTransferApplication>();
    Ptr<KvTransferApplication> b = CreateObject<KvTransferApplication>();
    l.nodes.Get(0)->AddApplication(a);
    l.nodes.Get(1)->AddApplication(b);
    Ptr<KvTransferSender> sender = a->AddPeer(l.link.addressA, l.link.addressB);
    Run run;
    const Time start = Seconds(0.1);
    b->GetReceiver()->SetCompleteCallback(
        Callback<void, uint64_t, uint32_t>([&run, start](uint64_t, uint32_t) {
            run.transferS = (Simulator::Now() - start).GetSeconds();
            Simulator::Stop();
        }));
    KvTransferRequest request;
    request.imsi = 1;
    request.ranges = {{0, static_cast<uint32_t>(tokens)}};
    request.bytesPerUnit = tokenBytes;
    Simulator::Schedule(start, &KvTransferSender::Enqueue, sender, request);
    const auto wall = std::chrono::steady_clock::now();
    Simulator::Run();
    run.wallS = WallSeconds(wall);
    run.bytes = b->GetReceiver()->GetCounters(1).received;
    Simulator::Destroy();
    return run;
}

Run
RunBulkSend(DataRate rate, Time delay, uint16_t mtu, uint64_t bytes)
{
    Link l = MakeLink(rate, delay, mtu);
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(l.segment));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(l.buffer));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(l.buffer));
    const uint16_t port = 7200;
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(l.link.addressB, port));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    // BulkSend gives up on a write larger than the socket's free space, so it writes pieces
    // that fit.
    bulk.SetAttribute("SendSize", UintegerValue(std::min<uint32_t>(65536, l.buffer / 2)));
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

} // namespace

int
main(int argc, char* argv[])
{
    std::string rateText = "10Gbps";
    double delayUs = 50;
    uint32_t mtu = 9000;
    uint64_t tokens = 8192; // 470 MB of Qwen2.5-7B-Instruct at 16 bits
    uint64_t tokenBytes = 57344;
    uint32_t repetitions = 3;
    bool smoke = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "backhaul rate", rateText);
    cmd.AddValue("delayUs", "backhaul one-way delay, in microseconds (>= 0)", delayUs);
    cmd.AddValue("mtu", "backhaul MTU, in bytes [576, 65000]", mtu);
    cmd.AddValue("tokens", "tokens of KV cache to move (>= 1)", tokens);
    cmd.AddValue("tokenBytes", "KV bytes per token (>= 1)", tokenBytes);
    cmd.AddValue("repetitions", "runs of each; the fastest wall time counts (>= 1)", repetitions);
    cmd.AddValue("smoke", "a tiny run that only checks the program works", smoke);
    cmd.Parse(argc, argv);
    if (smoke)
    {
        tokens = 64;
        repetitions = 1;
    }
    NS_ABORT_MSG_IF(tokens < 1 || tokens > 0xFFFFFFFFull, "--tokens must be in [1, 2^32 - 1]");
    NS_ABORT_MSG_IF(tokenBytes < 1, "--tokenBytes must be >= 1");
    NS_ABORT_MSG_IF(repetitions < 1, "--repetitions must be >= 1");
    NS_ABORT_MSG_IF(delayUs < 0, "--delayUs must be >= 0");
    NS_ABORT_MSG_IF(mtu < 576 || mtu > 65000, "--mtu must be in [576, 65000]");
    const DataRate rate(rateText);
    const Time delay = MicroSeconds(delayUs);
    const uint64_t bytes = tokens * tokenBytes;

    Run best[2];
    best[0].wallS = best[1].wallS = 1e300;
    for (uint32_t i = 0; i < repetitions; ++i)
    {
        // Alternate, so drift in the machine's speed hits both alike.
        const Run bulk = RunBulkSend(rate, delay, static_cast<uint16_t>(mtu), bytes);
        const Run kv = RunProtocol(rate, delay, static_cast<uint16_t>(mtu), tokens, tokenBytes);
        NS_ABORT_MSG_IF(bulk.bytes < bytes || kv.bytes != bytes,
                        "a transfer did not complete: BulkSend " << bulk.bytes << ", protocol "
                                                                 << kv.bytes << " of " << bytes);
        best[0] = bulk.wallS < best[0].wallS ? bulk : best[0];
        best[1] = kv.wallS < best[1].wallS ? kv : best[1];
    }
    const double ideal = bytes * 8.0 / rate.GetBitRate();
    std::cout << std::fixed << std::setprecision(4);
    std::cout << "bytes " << bytes << " over " << rateText << ", " << delayUs << " us, MTU " << mtu
              << "; ideal " << ideal << " s\n";
    std::cout << "run        wall_s   transfer_s  goodput/link\n";
    std::cout << "BulkSend   " << best[0].wallS << "   " << best[0].transferS << "      "
              << ideal / best[0].transferS << "\n";
    std::cout << "protocol   " << best[1].wallS << "   " << best[1].transferS << "      "
              << ideal / best[1].transferS << "\n";
    std::cout << "wall ratio protocol/BulkSend " << best[1].wallS / best[0].wallS
              << " (target <= 1.1); protocol goodput/link " << ideal / best[1].transferS
              << " (target >= 0.97)\n";
    return 0;
}
