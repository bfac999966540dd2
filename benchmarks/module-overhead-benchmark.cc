/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The module's cost over the LTE simulation it runs on. Three runs of one LTE network, with
// the same mobility, the same planned handovers and the same radio draws, in one process:
//  - floor:  the network with no traffic at all;
//  - udp:    ns-3's UdpClient on each UE's first eNB sending to that UE through the EPC, at
//            the packet rate and size the module's servers sent to that UE;
//  - module: token streaming with the Detour policy.
// Prints each run's wall time (Simulator::Run alone, and build + run), the fastest of
// --reps, and the ratio module / udp.

#include "bench-common.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/internet-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <vector>

using namespace ns3;
using bench::WallSeconds;

namespace
{

/// The inputs every run shares.
struct Setup
{
    uint32_t enbs{3};
    uint32_t ues{8};
    Time simTime{Seconds(8)};
};

/// Downlink traffic to one UE in the module run, which the UDP run repeats.
struct Flow
{
    uint64_t packets{0};   //!< token packets the servers sent (injected or relayed)
    Time first;            //!< when the first was sent
    Time last;             //!< when the last was sent
    uint32_t enbIndex{0};  //!< the eNB whose server sent the first
    uint64_t rxPackets{0}; //!< IPv4 packets the UE received
    uint64_t rxBytes{0};   //!< their bytes, IPv4 header included
};

/// What one run measured.
struct Run
{
    double runWallS{1e300};   //!< wall time of Simulator::Run
    double totalWallS{1e300}; //!< wall time of building, running and destroying
    uint32_t handovers{0};    //!< HandoverEndOk at the target eNBs
    uint64_t rxPackets{0};    //!< IPv4 packets received by the UEs
};

constexpr double ENB_SPACING_M = 150;        // m
constexpr double UE_SPEED_MPS = 40;          // m/s
constexpr uint16_t UDP_PORT = 5000;          // the UdpServers' port on the UEs
constexpr uint32_t IP_UDP_HEADER_BYTES = 28; // IPv4 and UDP headers, bytes
constexpr int64_t FIRST_STREAM = 1;          // the LTE devices' first random stream

/**
 * The line every run uses: all UEs start between 5 m and EnbSpacing/2 - 5 m on the first
 * eNB's side of the first midpoint, so they attach to it and cross one after another.
 */
Ptr<EdgeLlmLineScenario>
MakeScenario(const Setup& setup, bool serving)
{
    Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
    scenario->SetAttribute("EnbCount", UintegerValue(setup.enbs));
    scenario->SetAttribute("EnbSpacing", DoubleValue(ENB_SPACING_M));
    scenario->SetAttribute("UeCount", UintegerValue(setup.ues));
    scenario->SetAttribute("UeSpeed", DoubleValue(UE_SPEED_MPS));
    scenario->SetAttribute("Trigger", StringValue("boundary"));
    scenario->SetAttribute("MoveStart", TimeValue(MilliSeconds(500)));
    scenario->SetAttribute("InstallServing", BooleanValue(serving));
    std::vector<double> x;
    const double span = ENB_SPACING_M / 2 - 10;
    for (uint32_t j = 0; j < setup.ues; ++j)
    {
        x.push_back(ENB_SPACING_M / 2 - 5 - j * span / setup.ues);
    }
    scenario->SetUeStartPositions(x);
    Ptr<EdgeLlmHelper> edge = scenario->GetEdgeLlmHelper();
    edge->SetSchedulerType("ns3::DetourScheduler");
    edge->SetClientAttribute("PromptTokens", UintegerValue(256));
    // More than any session can generate before the run ends: every stream lasts the run.
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(20000));
    scenario->Build();
    scenario->AssignStreams(FIRST_STREAM);
    return scenario;
}

/// Counts handovers and the UEs' received packets, per UE by node id.
void
CountOutcomes(Ptr<EdgeLlmLineScenario> scenario, Run& run, std::map<uint32_t, Flow>* flows)
{
    bench::CountHandovers(scenario->GetRanStack(), scenario->GetEnbDevices(), run.handovers);
    const NodeContainer& ues = scenario->GetUeNodes();
    for (uint32_t j = 0; j < ues.GetN(); ++j)
    {
        Flow* flow = flows ? &(*flows)[j] : nullptr;
        ues.Get(j)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [&run, flow](Ptr<const Packet> p, Ptr<Ipv4>, uint32_t) {
                    ++run.rxPackets;
                    if (flow)
                    {
                        ++flow->rxPackets;
                        flow->rxBytes += p->GetSize();
                    }
                }));
    }
}

/// Runs the simulation, times it, and tears it down.
void
RunAndTime(const Setup& setup, Run& run, const std::chrono::steady_clock::time_point& buildStart)
{
    Simulator::Stop(setup.simTime);
    const auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    run.runWallS = WallSeconds(start);
    Simulator::Destroy();
    run.totalWallS = WallSeconds(buildStart);
}

Run
RunFloor(const Setup& setup)
{
    Run run;
    const auto buildStart = std::chrono::steady_clock::now();
    Ptr<EdgeLlmLineScenario> scenario = MakeScenario(setup, false);
    CountOutcomes(scenario, run, nullptr);
    RunAndTime(setup, run, buildStart);
    return run;
}

Run
RunModule(const Setup& setup, std::vector<Flow>& flows)
{
    Run run;
    const auto buildStart = std::chrono::steady_clock::now();
    Ptr<EdgeLlmLineScenario> scenario = MakeScenario(setup, true);
    std::map<uint32_t, Flow> byUe;
    CountOutcomes(scenario, run, &byUe);
    std::map<uint64_t, uint32_t> ueByImsi;
    const NetDeviceContainer& ueDevices = scenario->GetUeDevices();
    for (uint32_t j = 0; j < ueDevices.GetN(); ++j)
    {
        ueByImsi[scenario->GetRanStack()->GetImsi(ueDevices.Get(j))] = j;
    }
    const ApplicationContainer& servers = scenario->GetServers();
    for (uint32_t i = 0; i < servers.GetN(); ++i)
    {
        servers.Get(i)->TraceConnectWithoutContext(
            "TokensSent",
            Callback<void, uint64_t, uint32_t, uint16_t, bool, bool>(
                [&byUe, &ueByImsi, i](uint64_t imsi, uint32_t, uint16_t, bool, bool) {
                    Flow& f = byUe[ueByImsi.at(imsi)];
                    if (f.packets == 0)
                    {
                        f.first = Simulator::Now();
                        f.enbIndex = i;
                    }
                    f.last = Simulator::Now();
                    ++f.packets;
                }));
    }
    RunAndTime(setup, run, buildStart);
    flows.assign(setup.ues, Flow());
    for (const auto& [ue, flow] : byUe)
    {
        flows[ue] = flow;
    }
    return run;
}

Run
RunUdp(const Setup& setup, const std::vector<Flow>& flows)
{
    Run run;
    const auto buildStart = std::chrono::steady_clock::now();
    Ptr<EdgeLlmLineScenario> scenario = MakeScenario(setup, false);
    // The eNB reaches the UEs over its own link to the PGW, and the EPC tunnels the packets
    // to wherever the UE is served.
    scenario->GetRanStack()->InstallUplinkRoutes(scenario->GetEnbNodes());
    const NodeContainer& ues = scenario->GetUeNodes();
    for (uint32_t j = 0; j < ues.GetN(); ++j)
    {
        const Flow& f = flows[j];
        if (f.packets == 0)
        {
            continue;
        }
        const Ipv4Address ue = ues.Get(j)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
        UdpServerHelper server(UDP_PORT);
        server.Install(ues.Get(j));
        UdpClientHelper client(ue, UDP_PORT);
        client.SetAttribute("MaxPackets", UintegerValue(f.packets));
        const Time interval =
            f.packets > 1 ? (f.last - f.first) / static_cast<int64_t>(f.packets - 1) : Seconds(1);
        client.SetAttribute("Interval", TimeValue(interval));
        const uint64_t ipBytes =
            f.rxPackets > 0 ? f.rxBytes / f.rxPackets : IP_UDP_HEADER_BYTES + 12;
        // UdpClient's payload carries its own 12-byte sequence header.
        client.SetAttribute("PacketSize",
                            UintegerValue(std::max<uint64_t>(12, ipBytes - IP_UDP_HEADER_BYTES)));
        ApplicationContainer app = client.Install(scenario->GetEnbNodes().Get(f.enbIndex));
        app.Start(f.first);
    }
    CountOutcomes(scenario, run, nullptr);
    RunAndTime(setup, run, buildStart);
    return run;
}

void
Keep(Run& best, const Run& run)
{
    best.runWallS = std::min(best.runWallS, run.runWallS);
    best.totalWallS = std::min(best.totalWallS, run.totalWallS);
    best.handovers = run.handovers;
    best.rxPackets = run.rxPackets;
}

} // namespace

int
main(int argc, char* argv[])
{
    bool smoke = false;
    uint32_t reps = 3;
    uint32_t ues = 8;
    uint32_t enbs = 3;
    double simTime = 8;
    std::string only = "all";

    CommandLine cmd(__FILE__);
    cmd.AddValue("smoke", "a tiny run that only checks the program works", smoke);
    cmd.AddValue("reps", "repetitions of each run; the fastest counts [1, 100]", reps);
    cmd.AddValue("ues", "moving UEs [1, 64]", ues);
    cmd.AddValue("enbs", "eNBs along the line [2, 16]", enbs);
    cmd.AddValue("simTime", "simulated time of each run, s [1, 60]", simTime);
    cmd.AddValue("only",
                 "all, or one run alone to profile it: module or floor (udp repeats the "
                 "module's traffic, so it never runs alone)",
                 only);
    cmd.Parse(argc, argv);
    if (smoke)
    {
        reps = 1;
        ues = 2;
        enbs = 2;
        simTime = 1;
    }
    NS_ABORT_MSG_IF(only != "all" && only != "module" && only != "floor",
                    "--only = " << only << " is invalid; allowed: all, module or floor");
    NS_ABORT_MSG_IF(reps < 1 || reps > 100,
                    "--reps = " << reps << " is invalid; allowed: [1, 100]");
    NS_ABORT_MSG_IF(ues < 1 || ues > 64, "--ues = " << ues << " is invalid; allowed: [1, 64]");
    NS_ABORT_MSG_IF(enbs < 2 || enbs > 16, "--enbs = " << enbs << " is invalid; allowed: [2, 16]");
    NS_ABORT_MSG_IF(!(simTime >= 1 && simTime <= 60),
                    "--simTime = " << simTime << " is invalid; allowed: [1, 60]");

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    Setup setup;
    setup.enbs = enbs;
    setup.ues = ues;
    setup.simTime = Seconds(simTime);

    if (only != "all")
    {
        std::vector<Flow> flows;
        const Run run = only == "module" ? RunModule(setup, flows) : RunFloor(setup);
        std::cout << only << ": run_wall_s " << run.runWallS << ", handovers " << run.handovers
                  << ", ue_rx_packets " << run.rxPackets << "\n";
        return 0;
    }

    Run floor;
    Run udp;
    Run module;
    std::vector<Flow> flows;
    for (uint32_t r = 0; r < reps; ++r)
    {
        // The module run comes first: the UDP run repeats its traffic. Alternating the three
        // spreads drift in the machine's speed over all of them.
        std::vector<Flow> measured;
        Keep(module, RunModule(setup, measured));
        if (r == 0)
        {
            flows = measured;
        }
        Keep(udp, RunUdp(setup, flows));
        Keep(floor, RunFloor(setup));
    }

    uint64_t sent = 0;
    std::cout << "LTE line: " << enbs << " eNBs " << ENB_SPACING_M << " m apart, " << ues
              << " UEs at " << UE_SPEED_MPS << " m/s, planned handovers, " << simTime
              << " s simulated; fastest of " << reps << "\n";
    std::cout << "UE  packets  interval_ms  ip_bytes  first_s  eNB\n";
    for (uint32_t j = 0; j < flows.size(); ++j)
    {
        const Flow& f = flows[j];
        sent += f.packets;
        const double interval =
            f.packets > 1 ? (f.last - f.first).GetSeconds() * 1e3 / (f.packets - 1) : 0;
        std::cout << std::setw(2) << j << std::setw(9) << f.packets << std::fixed
                  << std::setprecision(3) << std::setw(13) << interval << std::setw(10)
                  << (f.rxPackets > 0 ? f.rxBytes / f.rxPackets : 0) << std::setw(9)
                  << f.first.GetSeconds() << std::setw(5) << f.enbIndex << "\n";
    }
    std::cout << "module servers sent " << sent << " token packets\n";
    std::cout << "run     run_wall_s  total_wall_s  handovers  ue_rx_packets\n";
    const std::pair<const char*, const Run*> rows[] = {{"floor ", &floor},
                                                       {"udp   ", &udp},
                                                       {"module", &module}};
    for (const auto& [name, run] : rows)
    {
        std::cout << name << std::setw(12) << std::setprecision(3) << run->runWallS << std::setw(14)
                  << run->totalWallS << std::setw(11) << run->handovers << std::setw(15)
                  << run->rxPackets << "\n";
    }
    std::cout << std::setprecision(3) << "wall ratio module/udp: run "
              << module.runWallS / udp.runWallS << ", total " << module.totalWallS / udp.totalWallS
              << " (target <= 1.15); floor/udp: run " << floor.runWallS / udp.runWallS
              << "; above the floor, module/udp: run "
              << (module.runWallS - floor.runWallS) / (udp.runWallS - floor.runWallS) << "\n";
    return 0;
}
