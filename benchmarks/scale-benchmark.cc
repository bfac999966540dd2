/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// One scaling point of the whole module: an EdgeLlmLineScenario with the default policy
// (ctHO), run for a capped simulated time, measured for wall time and peak RSS. Peak RSS is
// a per-process high-water mark, so each point runs in a process of its own; run-all.py runs
// the sweeps. Prints one CSV line (and its header with --header):
//
//   ./edge-llm-bench-scale --ues=10 --cells=8 --context=4096 --simTime=6 --header
//
// The UEs are spread evenly over the cells' boundaries: UE j stands just before the midpoint
// between eNBs b and b + 1, b = floor(j (cells - 1) / ues), attached to eNB b. Once every
// session has had time for its prefill, the UEs drive across their midpoints, 10 ms apart at
// each midpoint, and each is handed over there ("boundary" trigger); ctHO recovers each
// session at the target by prefilling part of its KV cache and receiving the rest over the
// backhaul, so the bytes on the backhaul grow with the context. With --floor the same LTE
// network, mobility and handovers run without the module (the LTE-only floor).

#include "bench-common.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <malloc.h>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// Ranges of the flags.
constexpr uint32_t MAX_UES = 200;
constexpr uint32_t MIN_CELLS = 2;
constexpr uint32_t MAX_CELLS = 64;
constexpr uint32_t MAX_CONTEXT = 131072;
constexpr double MAX_SIM_TIME_S = 3600;

/// The line's geometry and timing.
constexpr double ENB_SPACING_M = 300;
constexpr double UE_SPEED_MPS = 20;
/// The UEs drive this long before the first crossing at their midpoint.
constexpr double LEAD_S = 1;
/// Gap between the crossings of two UEs at the same midpoint.
constexpr double CROSSING_GAP_S = 0.01;
/// Slack after the last session's prefill before the first handover.
constexpr double SETTLE_S = 1;

/// What one point measured.
struct Point
{
    uint64_t events{0};          //!< simulator events executed
    uint64_t radioPackets{0};    //!< IPv4 packets received by the UEs
    uint64_t backhaulPackets{0}; //!< packets sent on the backhaul links
    uint64_t backhaulBytes{0};   //!< bytes sent on the backhaul links
    uint64_t kvBytes{0};         //!< KV bytes the handovers announced to the backhaul
    uint64_t tokens{0};          //!< tokens delivered to the UEs' applications
    uint64_t handovers{0};       //!< handovers the RAN completed
    uint64_t migrated{0};        //!< sessions the target took over
    double runWallS{0};          //!< wall time of Simulator::Run
    uint64_t heapEndKb{0};       //!< heap in use at the end of the run, kB
};

Point
RunPoint(uint32_t ues, uint32_t cells, uint32_t context, Time simTime, bool floor)
{
    // A target cell hands each incoming UE one of its 12 dedicated RACH preambles and takes
    // it back only PreambleTransMax x (RaResponseWindowSize + 5) ms later: 400 ms at ns-3's
    // default of 50 attempts, which caps a cell at 30 handovers a second and fails the rest
    // of a crowded crossing. 10 attempts, still within LTE's range, give 150 a second.
    Config::SetDefault("ns3::LteEnbMac::PreambleTransMax", UintegerValue(10));
    Ptr<EdgeLlmLineScenario> s = CreateObject<EdgeLlmLineScenario>();
    s->SetAttribute("EnbCount", UintegerValue(cells));
    s->SetAttribute("EnbSpacing", DoubleValue(ENB_SPACING_M));
    s->SetAttribute("UeCount", UintegerValue(ues));
    s->SetAttribute("UeSpeed", DoubleValue(UE_SPEED_MPS));
    s->SetAttribute("Trigger", StringValue("boundary"));
    s->SetAttribute("InstallServing", BooleanValue(!floor));

    // UE j at midpoint b = floor(j (cells - 1) / ues), k-th there.
    const uint32_t boundaries = cells - 1;
    std::vector<uint32_t> perBoundary(boundaries, 0);
    std::vector<double> startX;
    for (uint32_t j = 0; j < ues; ++j)
    {
        const uint32_t b = static_cast<uint32_t>(uint64_t(j) * boundaries / ues);
        const uint32_t k = perBoundary[b]++;
        const double lead = UE_SPEED_MPS * (LEAD_S + k * CROSSING_GAP_S);
        startX.push_back((b + 0.5) * ENB_SPACING_M - lead);
    }
    s->SetUeStartPositions(startX);
    const uint32_t mostAtOneMidpoint = *std::max_element(perBoundary.begin(), perBoundary.end());
    // A cell holds its own UEs and, after their handovers, those of the midpoint before it.
    // (The scenario's SrsPeriodicity, left at 0, fits all the UEs in one cell.)
    const uint32_t mostInOneCell = std::min(ues, 2 * mostAtOneMidpoint);

    // Every session opens and has its first prefill before the first UE moves.
    const LlmComputeModel compute =
        LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName());
    TimeValue sessionStart;
    TimeValue stagger;
    s->GetAttribute("SessionStart", sessionStart);
    s->GetAttribute("SessionStagger", stagger);
    const Time lastOpen = sessionStart.Get() + stagger.Get() * static_cast<int64_t>(ues - 1);
    s->SetAttribute("MoveStart",
                    TimeValue(lastOpen + Seconds(compute.PrefillTime(context) + SETTLE_S)));

    // Enough tokens to decode until the cap, at the fastest step a session can have.
    const double step = std::max(compute.DecodeStepTime(1, context), 1e-3);
    const auto tokensToGenerate = static_cast<uint32_t>(std::ceil(simTime.GetSeconds() / step));
    Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
    edge->SetClientAttribute("PromptTokens", UintegerValue(context));
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokensToGenerate));
    // The default KV memory (an 80 GB GPU) may be short of a crowded cell's long contexts;
    // the point measures the simulator, so the memory grows to admit them all.
    const uint64_t kvNeeded = uint64_t(mostInOneCell) * (uint64_t(context) + tokensToGenerate);
    UintegerValue kvDefault;
    CreateObject<LlmEngine>()->GetAttribute("KvCapacityTokens", kvDefault);
    if (kvNeeded > kvDefault.Get())
    {
        edge->SetEngineAttribute("KvCapacityTokens", UintegerValue(kvNeeded));
    }
    s->Build();
    s->AssignStreams(1);

    Point p;
    bench::CountHandovers(s->GetRanStack(), s->GetEnbDevices(), p.handovers);
    for (uint32_t i = 0; i < s->GetUeNodes().GetN(); ++i)
    {
        s->GetUeNodes().Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [&p](Ptr<const Packet>, Ptr<Ipv4>, uint32_t) { ++p.radioPackets; }));
    }
    for (const BackhaulLink& link : s->GetBackhaulLinks())
    {
        for (uint32_t d = 0; d < link.devices.GetN(); ++d)
        {
            link.devices.Get(d)->TraceConnectWithoutContext(
                "PhyTxBegin",
                Callback<void, Ptr<const Packet>>([&p](Ptr<const Packet> packet) {
                    ++p.backhaulPackets;
                    p.backhaulBytes += packet->GetSize();
                }));
        }
    }

    Simulator::Stop(simTime);
    const auto wall = std::chrono::steady_clock::now();
    Simulator::Run();
    p.runWallS = bench::WallSeconds(wall);
    p.events = Simulator::GetEventCount();
    // Heap in use once the run is over: unlike the peak RSS it does not depend on when the
    // allocator happened to return memory, so it shows state kept per token exactly.
    const struct mallinfo2 heap = mallinfo2();
    p.heapEndKb = (heap.uordblks + heap.hblkhd) / 1024;

    for (uint32_t i = 0; i < s->GetClients().GetN(); ++i)
    {
        p.tokens += DynamicCast<EdgeLlmClient>(s->GetClients().Get(i))->GetDeliveredTokens();
    }
    if (!floor)
    {
        for (const HandoverRecord& r : edge->GetCoordinator()->GetRecords())
        {
            p.kvBytes += r.kvBytes;
            p.migrated += r.outcome == HandoverRecord::MIGRATED ? 1 : 0;
        }
    }
    Simulator::Destroy();
    s->Dispose();
    return p;
}

} // namespace

int
main(int argc, char* argv[])
{
    const auto start = std::chrono::steady_clock::now();
    uint32_t ues = 10;
    uint32_t cells = 2;
    uint32_t context = 1024;
    double simTime = 10;
    bool header = false;
    bool smoke = false;
    bool floor = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("ues", "moving UEs, one session each [1, 200]", ues);
    cmd.AddValue("cells", "eNBs along the line [2, 64]", cells);
    cmd.AddValue("context", "prompt tokens of every session [1, 131072]", context);
    cmd.AddValue("simTime", "simulated time, s (0, 3600]", simTime);
    cmd.AddValue("header", "print the CSV header line first", header);
    cmd.AddValue("smoke", "a tiny run that only checks the program works", smoke);
    cmd.AddValue("floor", "the same LTE network and handovers without the module", floor);
    cmd.Parse(argc, argv);
    if (smoke)
    {
        ues = 2;
        cells = 2;
        context = 1024;
        simTime = 3;
    }
    NS_ABORT_MSG_IF(ues < 1 || ues > MAX_UES,
                    "--ues = " << ues << " is invalid; allowed: [1, " << MAX_UES << "]");
    NS_ABORT_MSG_IF(cells < MIN_CELLS || cells > MAX_CELLS,
                    "--cells = " << cells << " is invalid; allowed: [" << MIN_CELLS << ", "
                                 << MAX_CELLS << "]");
    NS_ABORT_MSG_IF(context < 1 || context > MAX_CONTEXT,
                    "--context = " << context << " is invalid; allowed: [1, " << MAX_CONTEXT
                                   << "]");
    NS_ABORT_MSG_IF(!(simTime > 0 && simTime <= MAX_SIM_TIME_S),
                    "--simTime = " << simTime << " is invalid; allowed: (0, " << MAX_SIM_TIME_S
                                   << "]");

    const Point p = RunPoint(ues, cells, context, Seconds(simTime), floor);
    const double totalWallS = bench::WallSeconds(start);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);

    if (header)
    {
        std::cout << "run,ues,cells,context,sim_s,events,radio_packets,backhaul_packets,"
                     "backhaul_bytes,kv_bytes,tokens,handovers,migrated,run_wall_s,total_wall_s,"
                     "peak_rss_kb,heap_end_kb\n";
    }
    std::cout << (floor ? "floor" : "module") << "," << ues << "," << cells << "," << context << ","
              << simTime << "," << p.events << "," << p.radioPackets << "," << p.backhaulPackets
              << "," << p.backhaulBytes << "," << p.kvBytes << "," << p.tokens << "," << p.handovers
              << "," << p.migrated << "," << std::fixed << std::setprecision(3) << p.runWallS << ","
              << totalWallS << "," << usage.ru_maxrss << "," << p.heapEndKb << "\n";
    return 0;
}
