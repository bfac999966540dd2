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
//
// That is --layout=line, the default. Two other layouts build an EdgeLlmNetwork, with planned
// handovers (so a run does not hang on measurement noise), ctHO and online batching:
//
//   ./edge-llm-bench-scale --layout=road --ues=64 --cells=8 --simTime=30
//   ./edge-llm-bench-scale --layout=grid --ues=64 --columns=8 --rows=8 --simTime=30
//
// road: --cells eNBs beside a road, 500 m apart, 30 m off it on alternate sides, behind a star
// backhaul, so that every KV transfer crosses one shared uplink. The UEs enter the road at its
// start as a Poisson process, all of them expected within the first half of --simTime, and
// drive along it at 30 m/s; each opens its session as it enters. Arrivals rather than UEs
// spread along the road in steady state: a UE crossing a boundary before its session has
// opened would measure the RAN alone, and entering UEs keep handing over until the end, as
// long as the road (8.3 s to the first boundary, 16.7 s between the next ones).
//
// grid: --columns x --rows eNBs 100 m apart (or --cells as a square), a backhaul link per
// neighbour pair, each UE on a random route from cell centre to cell centre (GridRandomRoute,
// 10 m/s) from a random start cell. The UEs set off once every session has its first tokens,
// one leg's time spread over them, so that their crossings, one per 10 s leg, come at an even
// rate rather than all at once.
//
// The last CSV column names the layout; the columns before it are the same for every layout.

#include "bench-common.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <dlfcn.h>
#include <iomanip>
#include <iostream>
#include <limits>
#include <malloc.h>
#include <string>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// Ranges of the flags.
constexpr uint32_t MAX_UES = 1000;
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

/// The road's geometry: eNBs at highway spacing, UEs at highway speed.
constexpr double ROAD_SPACING_M = 500;
constexpr double ROAD_OFFSET_M = 30;
constexpr double ROAD_SPEED_MPS = 30;
/// All the UEs are expected to have entered the road by this fraction of the run.
constexpr double ROAD_ENTRY_FRACTION = 0.5;

/// The grid's geometry: an urban small-cell grid, UEs at city speed.
constexpr uint32_t MAX_GRID_SIDE = 8;
constexpr double GRID_SPACING_M = 100;
constexpr double GRID_SPEED_MPS = 10;

/// Random streams of the UEs' arrivals, routes and start cells, apart from the RAN's.
constexpr int64_t ARRIVAL_STREAM = 1000;
constexpr int64_t ROUTE_STREAM = 1001;
constexpr int64_t START_CELL_STREAM = 1002;

/**
 * \return bytes the program's allocator holds for its callers now: tcmalloc's own count when
 * the program runs on it (EDGE_LLM_ALLOCATOR), since glibc's mallinfo2 sees only glibc's heap
 * and would read 0; else glibc's
 */
uint64_t
HeapInUseBytes()
{
    using NumericProperty = int (*)(const char*, size_t*);
    if (const auto get = reinterpret_cast<NumericProperty>(
            dlsym(RTLD_DEFAULT, "MallocExtension_GetNumericProperty")))
    {
        size_t bytes = 0;
        if (get("generic.current_allocated_bytes", &bytes) != 0)
        {
            return bytes;
        }
    }
    const struct mallinfo2 heap = mallinfo2();
    return heap.uordblks + heap.hblkhd;
}

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

/// What one run needs measured, whichever builder made its network.
struct Parts
{
    Ptr<RanStack> stack;                //!< the RAN
    NetDeviceContainer cellDevices;     //!< the base stations
    NodeContainer ueNodes;              //!< every UE
    NetDeviceContainer backhaulDevices; //!< the devices whose transmissions are counted
    ApplicationContainer clients;       //!< one per UE; empty in the floor
    Ptr<EdgeLlmHelper> edge;            //!< its coordinator holds the handover records
};

/**
 * \brief Run the simulation until \p simTime and measure it.
 * \param parts the network, built
 * \param simTime when the run stops
 * \param floor whether the module's parts are missing
 * \return what was measured; the simulator is destroyed
 */
Point
Measure(const Parts& parts, Time simTime, bool floor)
{
    Point p;
    bench::CountHandovers(parts.stack, parts.cellDevices, p.handovers);
    for (uint32_t i = 0; i < parts.ueNodes.GetN(); ++i)
    {
        parts.ueNodes.Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [&p](Ptr<const Packet>, Ptr<Ipv4>, uint32_t) { ++p.radioPackets; }));
    }
    for (uint32_t d = 0; d < parts.backhaulDevices.GetN(); ++d)
    {
        parts.backhaulDevices.Get(d)->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>([&p](Ptr<const Packet> packet) {
                ++p.backhaulPackets;
                p.backhaulBytes += packet->GetSize();
            }));
    }

    Simulator::Stop(simTime);
    const auto wall = std::chrono::steady_clock::now();
    Simulator::Run();
    p.runWallS = bench::WallSeconds(wall);
    p.events = Simulator::GetEventCount();
    // Heap in use once the run is over: unlike the peak RSS it does not depend on when the
    // allocator happened to return memory, so it shows state kept per token exactly.
    p.heapEndKb = HeapInUseBytes() / 1024;

    for (uint32_t i = 0; i < parts.clients.GetN(); ++i)
    {
        p.tokens += DynamicCast<EdgeLlmClient>(parts.clients.Get(i))->GetDeliveredTokens();
    }
    if (!floor)
    {
        for (const HandoverRecord& r : parts.edge->GetCoordinator()->GetRecords())
        {
            p.kvBytes += r.kvBytes;
            p.migrated += r.outcome == HandoverRecord::MIGRATED ? 1 : 0;
        }
    }
    Simulator::Destroy();
    return p;
}

/**
 * \brief Give the sessions their prompts, enough tokens to decode until the cap, and, if they
 * could all crowd into one cell beyond the default KV memory, the memory to admit them.
 * \param edge the helper
 * \param context prompt tokens per session
 * \param simTime the cap
 * \param mostInOneCell how many sessions one cell may hold at once
 */
void
SetSessions(Ptr<EdgeLlmHelper> edge, uint32_t context, Time simTime, uint32_t mostInOneCell)
{
    const LlmComputeModel compute =
        LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName());
    // At the fastest step a session can have.
    const double step = std::max(compute.DecodeStepTime(1, context), 1e-3);
    const auto tokensToGenerate = static_cast<uint32_t>(std::ceil(simTime.GetSeconds() / step));
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
}

/// A crowded crossing's handovers must not fail for want of RACH preambles.
void
ShortenPreambleHold()
{
    // A target cell hands each incoming UE one of its 12 dedicated RACH preambles and takes
    // it back only PreambleTransMax x (RaResponseWindowSize + 5) ms later: 400 ms at ns-3's
    // default of 50 attempts, which caps a cell at 30 handovers a second and fails the rest
    // of a crowded crossing. 10 attempts, still within LTE's range, give 150 a second.
    Config::SetDefault("ns3::LteEnbMac::PreambleTransMax", UintegerValue(10));
}

Point
RunLinePoint(uint32_t ues, uint32_t cells, uint32_t context, Time simTime, bool floor)
{
    ShortenPreambleHold();
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

    SetSessions(s->GetEdgeLlmHelper(), context, simTime, mostInOneCell);
    s->Build();
    s->AssignStreams(1);

    Parts parts{s->GetRanStack(),
                s->GetEnbDevices(),
                s->GetUeNodes(),
                {},
                s->GetClients(),
                s->GetEdgeLlmHelper()};
    for (const BackhaulLink& link : s->GetBackhaulLinks())
    {
        parts.backhaulDevices.Add(link.devices);
    }
    const Point p = Measure(parts, simTime, floor);
    s->Dispose();
    return p;
}

/**
 * \brief The road's UEs: entering at its start as a Poisson process, each session opening as
 * its UE enters.
 * \param net the network
 * \param ues how many
 * \param simTime the run's length
 */
void
AddRoadUes(Ptr<EdgeLlmNetwork> net, uint32_t ues, Time simTime)
{
    Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
    gap->SetStream(ARRIVAL_STREAM);
    const double rate = ues / (ROAD_ENTRY_FRACTION * simTime.GetSeconds());
    // No end to the window, so that there are always --ues arrivals: the few that come after
    // the cap stand at the road's start, attached, with no session yet.
    const std::vector<double> entries =
        DrawPoissonArrivals(gap, rate, 0, std::numeric_limits<double>::max(), ues);
    for (const double entry : entries)
    {
        EdgeLlmUeSpec ue;
        ue.start = Vector(0, 0, 0);
        ue.velocity = Vector(ROAD_SPEED_MPS, 0, 0);
        ue.moveStart = Seconds(entry);
        ue.sessionStart = Seconds(entry);
        net->AddUe(ue);
    }
}

/**
 * \brief The grid's UEs: random routes from random start cells, setting off once every
 * session has its first tokens.
 * \param net the network
 * \param grid its layout
 * \param ues how many
 * \param context prompt tokens per session
 * \param simTime the run's length
 */
void
AddGridUes(Ptr<EdgeLlmNetwork> net,
           Ptr<GridCellLayout> grid,
           uint32_t ues,
           uint32_t context,
           Time simTime)
{
    TimeValue sessionStart;
    TimeValue stagger;
    net->GetAttribute("SessionStart", sessionStart);
    net->GetAttribute("SessionStagger", stagger);
    const Time lastOpen = sessionStart.Get() + stagger.Get() * static_cast<int64_t>(ues - 1);
    const LlmComputeModel compute =
        LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName());
    const double moveStartS =
        (lastOpen + Seconds(compute.PrefillTime(context) + SETTLE_S)).GetSeconds();
    const double legS = GRID_SPACING_M / GRID_SPEED_MPS;

    Ptr<GridRandomRoute> routes = CreateObject<GridRandomRoute>();
    routes->SetAttribute("Speed", DoubleValue(GRID_SPEED_MPS));
    routes->AssignStreams(ROUTE_STREAM);
    Ptr<UniformRandomVariable> startCell = CreateObject<UniformRandomVariable>();
    startCell->SetStream(START_CELL_STREAM);
    const double endS = std::max(simTime.GetSeconds(), moveStartS + legS);
    for (uint32_t j = 0; j < ues; ++j)
    {
        const uint32_t cell = startCell->GetInteger(0, grid->GetCellCount() - 1);
        EdgeLlmUeSpec ue;
        ue.route = routes->GetRoute(*grid, cell, moveStartS + legS * j / ues, endS).GetWaypoints();
        net->AddUe(ue);
    }
}

/// The flags that choose a road or grid network.
struct NetworkFlags
{
    std::string layout; //!< road or grid
    uint32_t cells;     //!< road: its eNBs
    uint32_t columns;   //!< grid: its columns
    uint32_t rows;      //!< grid: its rows
};

Point
RunNetworkPoint(const NetworkFlags& f, uint32_t ues, uint32_t context, Time simTime, bool floor)
{
    ShortenPreambleHold();
    Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
    net->SetAttribute("Trigger", StringValue("planned"));
    net->SetAttribute("InstallServing", BooleanValue(!floor));
    Ptr<StarBackhaulTopology> star;
    if (f.layout == "road")
    {
        net->SetCellLayout(CreateObjectWithAttributes<RoadCellLayout>("Count",
                                                                      UintegerValue(f.cells),
                                                                      "Spacing",
                                                                      DoubleValue(ROAD_SPACING_M),
                                                                      "Offset",
                                                                      DoubleValue(ROAD_OFFSET_M)));
        star = CreateObject<StarBackhaulTopology>();
        net->SetBackhaulTopology(star);
        AddRoadUes(net, ues, simTime);
    }
    else
    {
        Ptr<GridCellLayout> grid =
            CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                       UintegerValue(f.columns),
                                                       "Rows",
                                                       UintegerValue(f.rows),
                                                       "Spacing",
                                                       DoubleValue(GRID_SPACING_M));
        net->SetCellLayout(grid);
        net->SetBackhaulTopology(CreateObject<PerPairBackhaulTopology>());
        AddGridUes(net, grid, ues, context, simTime);
    }
    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
    edge->SetScheme("ctho");
    edge->SetCoordinatorAttribute("Batching", StringValue("online"));
    // On the road every UE passes through the first cells; on a grid several routes may
    // meet in one cell: either way, all of them may be in one cell at once.
    SetSessions(edge, context, simTime, ues);
    net->Build();
    net->AssignStreams(1);

    Parts parts{net->GetRanStack(),
                net->GetCellDevices(),
                net->GetUeNodes(),
                {},
                net->GetClients(),
                edge};
    if (!floor)
    {
        for (const BackhaulSegment& segment : net->GetBackhaulTopology()->GetSegments())
        {
            // Every packet between two cells of the star crosses the shared link once, and
            // its access links besides; counting the shared link alone keeps the packets and
            // bytes comparable with a link per pair's.
            if (!star || segment.id == StarBackhaulTopology::SHARED_SEGMENT)
            {
                parts.backhaulDevices.Add(segment.devices);
            }
        }
    }
    const Point p = Measure(parts, simTime, floor);
    net->Dispose();
    return p;
}

} // namespace

int
main(int argc, char* argv[])
{
    const auto start = std::chrono::steady_clock::now();
    uint32_t ues = 10;
    uint32_t cells = 2;
    uint32_t columns = 0;
    uint32_t rows = 0;
    uint32_t context = 1024;
    double simTime = 10;
    std::string layout = "line";
    bool header = false;
    bool smoke = false;
    bool floor = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("layout", "line, road or grid", layout);
    cmd.AddValue("ues", "moving UEs, one session each [1, 1000]", ues);
    cmd.AddValue("cells", "eNBs along the line or road [2, 64]; grid: a square number", cells);
    cmd.AddValue("columns",
                 "grid: columns [1, 8], with --rows (0: the square of --cells)",
                 columns);
    cmd.AddValue("rows", "grid: rows [1, 8], with --columns (0: the square of --cells)", rows);
    cmd.AddValue("context", "prompt tokens of every session [1, 131072]", context);
    cmd.AddValue("simTime", "simulated time, s (0, 3600]", simTime);
    cmd.AddValue("header", "print the CSV header line first", header);
    cmd.AddValue("smoke", "a tiny run that only checks the program works", smoke);
    cmd.AddValue("floor", "the same LTE network and handovers without the module", floor);
    // As typed, before CommandLine reads them: it would wrap "-3" around in an unsigned flag.
    if (const std::string typed =
            edgellm::CheckNumberFlags({{"ues", true, "[1, 1000]", 1, MAX_UES},
                                       {"cells", true, "[2, 64]", MIN_CELLS, MAX_CELLS},
                                       {"columns", true, "[1, 8]", 0, MAX_GRID_SIDE},
                                       {"rows", true, "[1, 8]", 0, MAX_GRID_SIDE},
                                       {"context", true, "[1, 131072]", 1, MAX_CONTEXT},
                                       {"simTime", false, "(0, 3600]", 0, MAX_SIM_TIME_S, true}},
                                      argc,
                                      argv);
        !typed.empty())
    {
        std::cerr << typed << "\n";
        return 1;
    }
    cmd.Parse(argc, argv);

    if (layout != "line" && layout != "road" && layout != "grid")
    {
        std::cerr << "--layout = " << layout << " is invalid; allowed: line, road or grid\n";
        return 1;
    }
    if (layout != "grid" && (columns != 0 || rows != 0))
    {
        std::cerr << "--columns and --rows are for --layout=grid; the " << layout
                  << " takes --cells\n";
        return 1;
    }
    if (smoke)
    {
        ues = 2;
        cells = layout == "grid" ? 4 : 2;
        columns = 0;
        rows = 0;
        context = 1024;
        simTime = 3;
    }
    if (layout == "grid")
    {
        if (columns == 0 && rows == 0)
        {
            const auto side = static_cast<uint32_t>(std::lround(std::sqrt(double(cells))));
            if (side * side != cells)
            {
                std::cerr << "--cells = " << cells
                          << " is invalid for --layout=grid; allowed: a square number of "
                             "cells, or --columns and --rows\n";
                return 1;
            }
            columns = side;
            rows = side;
        }
        if (columns < 1 || columns > MAX_GRID_SIDE || rows < 1 || rows > MAX_GRID_SIDE ||
            columns * rows < MIN_CELLS)
        {
            std::cerr << "--columns = " << columns << " and --rows = " << rows
                      << " are invalid; allowed: both in [1, " << MAX_GRID_SIDE << "], at least "
                      << MIN_CELLS << " cells\n";
            return 1;
        }
        cells = columns * rows;
    }
    const Point p = layout == "line" ? RunLinePoint(ues, cells, context, Seconds(simTime), floor)
                                     : RunNetworkPoint({layout, cells, columns, rows},
                                                       ues,
                                                       context,
                                                       Seconds(simTime),
                                                       floor);
    const double totalWallS = bench::WallSeconds(start);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);

    if (header)
    {
        std::cout << "run,ues,cells,context,sim_s,events,radio_packets,backhaul_packets,"
                     "backhaul_bytes,kv_bytes,tokens,handovers,migrated,run_wall_s,total_wall_s,"
                     "peak_rss_kb,heap_end_kb,layout\n";
    }
    std::cout << (floor ? "floor" : "module") << "," << ues << "," << cells << "," << context << ","
              << simTime << "," << p.events << "," << p.radioPackets << "," << p.backhaulPackets
              << "," << p.backhaulBytes << "," << p.kvBytes << "," << p.tokens << "," << p.handovers
              << "," << p.migrated << "," << std::fixed << std::setprecision(3) << p.runWallS << ","
              << totalWallS << "," << usage.ru_maxrss << "," << p.heapEndKb << "," << layout
              << "\n";
    return 0;
}
