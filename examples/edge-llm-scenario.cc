/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// One network of the scenario layer, chosen by flags: a line, a road or a grid of cells; a
// backhaul link per neighbour pair or a star with one shared uplink; UEs at constant
// velocity, entering as a Poisson process, or on random routes; any trigger, any scheme.
//
//   ./edge-llm-scenario --layout=road --cells=4 --backhaul=star --mobility=poisson
//   ./edge-llm-scenario --layout=grid --columns=3 --rows=3 --mobility=routes --scheme=detour
//   ./edge-llm-scenario --layout=grid --mobility=routes --backhaulLoss=1e-3 --outageAfter=50ms
//
// It prints one line per handover, then each session's tokens and KV ledger, then what the
// faults did (with any fault flag), and exits 1 if a session missed tokens, the ledger does not
// balance, or nobody handed over.

#include "example-progress.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/token-log-flag.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <tuple>

using namespace ns3;

namespace
{

/// The flags, checked before anything is built.
struct Flags
{
    std::string ran{"lte"};
    std::string layout{"road"};
    uint32_t cells{4};
    uint32_t columns{3};
    uint32_t rows{3};
    double spacing{300};
    std::string backhaul{"pairs"};
    std::string backhaulRate{"4.5Gbps"}; //!< read as text, so that an error names the flag
    uint32_t ues{3};
    std::string mobility{"constant"};
    double arrivalRate{1};
    double speed{20};
    // Random routes that start together would cross every boundary at the same instants.
    double speedSpread{0.25};
    double departureSpread{1};
    std::string trigger{"planned"};
    uint32_t tokens{400};
    std::string simTime{"12s"}; //!< read as text, so that an error names the flag
};

/**
 * \param f the flags
 * \param [out] backhaulRate --backhaulRate, read
 * \param [out] simTime --simTime, read
 * \return the first flag error, or an empty string
 */
std::string
Check(const Flags& f, DataRate& backhaulRate, Time& simTime)
{
    std::ostringstream e;
    if (f.ran != "lte" && f.ran != "nr")
    {
        e << "--ran = " << f.ran << " is invalid; allowed: lte or nr";
    }
    else if (!IsRanStackAvailable(f.ran))
    {
        e << "--ran = nr is invalid here: this build of edge-llm has no NR support (it needs "
             "5G-LENA's nr module in the ns-3 tree); allowed: lte";
    }
    else if (f.layout != "line" && f.layout != "road" && f.layout != "grid")
    {
        e << "--layout = " << f.layout << " is invalid; allowed: line, road or grid";
    }
    else if (f.layout != "grid" && (f.cells < 2 || f.cells > 64))
    {
        e << "--cells = " << f.cells << " is invalid; allowed: an integer in [2, 64]";
    }
    else if (f.layout == "grid" &&
             (f.columns < 1 || f.columns > 8 || f.rows < 1 || f.rows > 8 || f.columns * f.rows < 2))
    {
        e << "--columns = " << f.columns << " and --rows = " << f.rows
          << " are invalid; allowed: integers in [1, 8], at least 2 cells";
    }
    else if (!(f.spacing >= 50 && f.spacing <= 5000))
    {
        e << "--spacing = " << f.spacing << " is invalid; allowed: a distance in [50, 5000] m";
    }
    else if (f.backhaul != "pairs" && f.backhaul != "star")
    {
        e << "--backhaul = " << f.backhaul << " is invalid; allowed: pairs or star";
    }
    else if (const std::string rate =
                 edgellm::ReadRateFlag("backhaulRate", f.backhaulRate, backhaulRate);
             !rate.empty())
    {
        e << rate;
    }
    else if (f.ues < 1 || f.ues > 64)
    {
        e << "--ues = " << f.ues << " is invalid; allowed: an integer in [1, 64]";
    }
    else if (f.mobility != "constant" && f.mobility != "poisson" && f.mobility != "routes")
    {
        e << "--mobility = " << f.mobility << " is invalid; allowed: constant, poisson or routes";
    }
    else if ((f.mobility == "routes") != (f.layout == "grid"))
    {
        e << "--mobility = " << f.mobility << " with --layout = " << f.layout
          << " is invalid; allowed: routes on the grid, constant or poisson on a line or road";
    }
    else if (!(f.arrivalRate > 0 && f.arrivalRate <= 100))
    {
        e << "--arrivalRate = " << f.arrivalRate << " is invalid; allowed: (0, 100] UEs/s";
    }
    else if (!(f.speed > 0 && f.speed <= 100))
    {
        e << "--speed = " << f.speed << " is invalid; allowed: (0, 100] m/s";
    }
    else if (f.trigger != "a3" && f.trigger != "a2a4" && f.trigger != "planned" &&
             f.trigger != "none")
    {
        e << "--trigger = " << f.trigger << " is invalid; allowed: a3, a2a4, planned or none";
    }
    else if (f.tokens < 1)
    {
        e << "--tokens = 0 is invalid; allowed: an integer >= 1";
    }
    else if (!edgellm::ParseTime(f.simTime, simTime) || !(simTime > Seconds(1)))
    {
        e << "--simTime = " << f.simTime << " is invalid; allowed: a time > 1 s, e.g. 12s";
    }
    return e.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    Flags f;
    HandoverSchemeFlag scheme({}, "ctho");
    FaultFlags faultFlags;
    CommandLine cmd(__FILE__);
    cmd.AddValue("ran", "the radio access network: lte, or nr (with 5G-LENA)", f.ran);
    cmd.AddValue("layout", "line, road or grid", f.layout);
    cmd.AddValue("cells", "cells of a line or road, [2, 64]", f.cells);
    cmd.AddValue("columns", "grid columns, [1, 8]", f.columns);
    cmd.AddValue("rows", "grid rows, [1, 8]", f.rows);
    cmd.AddValue("spacing", "distance between neighbouring cells, m", f.spacing);
    cmd.AddValue("backhaul",
                 "pairs (a link per neighbour pair) or star (one shared uplink)",
                 f.backhaul);
    cmd.AddValue("backhaulRate",
                 "each link's rate (pairs) or the shared uplink's (star)",
                 f.backhaulRate);
    cmd.AddValue("ues", "moving UEs, [1, 64]", f.ues);
    cmd.AddValue("mobility", "constant, poisson (entering the road) or routes (grid)", f.mobility);
    cmd.AddValue("arrivalRate", "poisson: UEs entering per s", f.arrivalRate);
    cmd.AddValue("speed", "UE speed, m/s", f.speed);
    cmd.AddValue("speedSpread",
                 "routes: each UE's speed is speed x (1 + u), u uniform in [-speedSpread, "
                 "speedSpread]",
                 f.speedSpread);
    cmd.AddValue("departureSpread",
                 "routes: each UE leaves its first cell up to this many legs after 1 s",
                 f.departureSpread);
    cmd.AddValue("trigger", "a3, a2a4, planned or none", f.trigger);
    cmd.AddValue("tokens", "tokens each session generates, [1, 1000000]", f.tokens);
    cmd.AddValue("simTime", "when the run stops", f.simTime);
    std::string outDir;
    std::string tokensCsv;
    bool quiet = false;
    cmd.AddValue("outDir",
                 "write handovers.csv and sessions.csv there, each with a .json sidecar",
                 outDir);
    cmd.AddValue("tokensCsv", "write every token's times to this file", tokensCsv);
    scheme.AddTo(cmd);
    faultFlags.AddTo(cmd);
    cmd.AddValue("quiet", "no progress on stderr during the run", quiet);
    // Every argument is checked as typed before CommandLine reads it: CommandLine would print
    // its whole help without the flag's range, wrap "-3" around in an unsigned flag, or keep
    // the last of a flag given twice.
    if (const std::string bad =
            edgellm::CheckArguments(cmd,
                                    {{"cells", true, "an integer in [2, 64]", 2, 64},
                                     {"columns", true, "an integer in [1, 8]", 1, 8},
                                     {"rows", true, "an integer in [1, 8]", 1, 8},
                                     {"spacing", false, "a distance in [50, 5000] m", 50, 5000},
                                     {"ues", true, "an integer in [1, 64]", 1, 64},
                                     {"arrivalRate", false, "(0, 100] UEs/s", 0, 100, true},
                                     {"speed", false, "(0, 100] m/s", 0, 100, true},
                                     {"speedSpread", false, "a number in [0, 0.9]", 0, 0.9},
                                     {"departureSpread",
                                      false,
                                      "a number of legs in [0, 100]",
                                      0,
                                      100},
                                     {"tokens", true, "an integer in [1, 1000000]", 1, 1e6}},
                                    {"quiet"},
                                    argc,
                                    argv);
        !bad.empty())
    {
        std::cerr << bad << "\n";
        return 1;
    }
    cmd.Parse(argc, argv);
    std::vector<std::string> schemes;
    try
    {
        schemes = scheme.GetSchemes();
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << e.what() << "\n";
        return 1;
    }
    DataRate backhaulRate;
    Time simTime;
    FaultConfig faults;
    std::string error = Check(f, backhaulRate, simTime);
    // A flag that the chosen layout or mobility does not use would be ignored without a word.
    for (const auto& [flag, applies, where] :
         {std::make_tuple("cells", f.layout != "grid", "--layout=line or road"),
          std::make_tuple("columns", f.layout == "grid", "--layout=grid"),
          std::make_tuple("rows", f.layout == "grid", "--layout=grid"),
          std::make_tuple("arrivalRate", f.mobility == "poisson", "--mobility=poisson")})
    {
        if (error.empty() && !applies && edgellm::IsFlagGiven(flag, argc, argv))
        {
            error = "--" + std::string(flag) + " = " + edgellm::GivenValue(flag, argc, argv) +
                    " is invalid with --layout = " + f.layout + " and --mobility = " + f.mobility +
                    "; allowed: --" + flag + " only with " + where;
        }
    }
    if (error.empty())
    {
        error = faultFlags.Read(faults);
    }
    if (error.empty() && !outDir.empty())
    {
        error = edgellm::PrepareOutDir("outDir", outDir);
    }
    Ptr<TokenLog> tokenLog;
    if (error.empty() && !tokensCsv.empty())
    {
        tokenLog = edgellm::OpenTokenLogFlag("tokensCsv", tokensCsv, error);
    }
    if (error.empty())
    {
        error = edgellm::CheckFlagAttributes(FaultConfig::FlagAttributes(), argc, argv);
    }
    if (error.empty())
    {
        // The run sets these attributes from the flags: a default given for one of them on
        // the command line would be silently replaced, so it is refused.
        error =
            edgellm::CheckFlagAttributes({{"columns", "ns3::GridCellLayout::Columns"},
                                          {"rows", "ns3::GridCellLayout::Rows"},
                                          {"spacing", "ns3::GridCellLayout::Spacing"},
                                          {"cells", "ns3::RoadCellLayout::Count"},
                                          {"spacing", "ns3::RoadCellLayout::Spacing"},
                                          {"cells", "ns3::LineCellLayout::Count"},
                                          {"spacing", "ns3::LineCellLayout::Spacing"},
                                          {"backhaulRate", "ns3::BackhaulHelper::DataRate"},
                                          {"backhaulRate", "ns3::StarBackhaulTopology::SharedRate"},
                                          {"speed", "ns3::GridRandomRoute::Speed"},
                                          {"speedSpread", "ns3::GridRandomRoute::SpeedSpread"},
                                          {"departureSpread",
                                           "ns3::GridRandomRoute::DepartureSpread"},
                                          {"trigger", "ns3::EdgeLlmNetwork::Trigger"},
                                          {"tokens", "ns3::EdgeLlmClient::TokensToGenerate"}},
                                         argc,
                                         argv);
    }
    if (!error.empty())
    {
        std::cerr << error << "\n";
        return 1;
    }

    // [scenario]
    Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
    // 0. The radio access network: LTE, or 5G-LENA's NR.
    net->SetRanStack(CreateRanStack(f.ran, "--ran"));
    // 1. Where the cells stand: any CellLayout.
    Ptr<CellLayout> layout;
    if (f.layout == "grid")
    {
        layout = CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                            UintegerValue(f.columns),
                                                            "Rows",
                                                            UintegerValue(f.rows),
                                                            "Spacing",
                                                            DoubleValue(f.spacing));
    }
    else if (f.layout == "road")
    {
        layout = CreateObjectWithAttributes<RoadCellLayout>("Count",
                                                            UintegerValue(f.cells),
                                                            "Spacing",
                                                            DoubleValue(f.spacing),
                                                            "Offset",
                                                            DoubleValue(30));
    }
    else
    {
        layout = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                            UintegerValue(f.cells),
                                                            "Spacing",
                                                            DoubleValue(f.spacing));
    }
    net->SetCellLayout(layout);
    // 2. How their servers are connected: any BackhaulTopology.
    if (f.backhaul == "star")
    {
        net->SetBackhaulTopology(CreateObjectWithAttributes<StarBackhaulTopology>(
            "SharedRate",
            DataRateValue(backhaulRate),
            "AccessRate",
            DataRateValue(std::max(backhaulRate, DataRate("10Gbps")))));
    }
    else
    {
        Ptr<PerPairBackhaulTopology> pairs = CreateObject<PerPairBackhaulTopology>();
        pairs->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(backhaulRate));
        net->SetBackhaulTopology(pairs);
    }
    // 3. How the UEs move, each with its own spec.
    const double end = simTime.GetSeconds();
    if (f.mobility == "routes")
    {
        Ptr<GridRandomRoute> routes = CreateObject<GridRandomRoute>();
        routes->SetAttribute("Speed", DoubleValue(f.speed));
        routes->SetAttribute("SpeedSpread", DoubleValue(f.speedSpread));
        routes->SetAttribute("DepartureSpread", DoubleValue(f.departureSpread));
        routes->AssignStreams(10);
        Ptr<UniformRandomVariable> startCell = CreateObject<UniformRandomVariable>();
        startCell->SetStream(11);
        for (uint32_t j = 0; j < f.ues; ++j)
        {
            const uint32_t cell = startCell->GetInteger(0, layout->GetCellCount() - 1);
            EdgeLlmUeSpec ue;
            ue.route =
                routes->GetRoute(*DynamicCast<GridCellLayout>(layout), cell, 1, end).GetWaypoints();
            net->AddUe(ue);
        }
    }
    else
    {
        // Entering the road at x = 0: together, 10 m apart, or as a Poisson process, each
        // session opening as its UE sets off.
        std::vector<double> entries;
        if (f.mobility == "poisson")
        {
            Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
            gap->SetStream(12);
            entries = DrawPoissonArrivals(gap, f.arrivalRate, 0.5, end, f.ues);
        }
        for (uint32_t j = 0; j < f.ues; ++j)
        {
            EdgeLlmUeSpec ue;
            ue.velocity = Vector(f.speed, 0, 0);
            if (f.mobility == "poisson")
            {
                if (j >= entries.size())
                {
                    break; // no more arrivals before the end
                }
                ue.start = Vector(0, f.layout == "road" ? 0 : 20, 0);
                ue.moveStart = Seconds(entries[j]);
                ue.sessionStart = Seconds(entries[j]);
            }
            else
            {
                ue.start = Vector(f.spacing / 3 + 10 * j, f.layout == "road" ? 0 : 20, 0);
                ue.moveStart = Seconds(1);
            }
            net->AddUe(ue);
        }
    }
    // 4. What hands them over, and what the servers do about it.
    net->SetAttribute("Trigger", StringValue(f.trigger));
    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
    edge->SetScheme(schemes[0]);
    edge->MatchKvTransferPolicyToScheduler();
    edge->SetCoordinatorAttribute("Batching", StringValue("online"));
    edge->SetClientAttribute("PromptTokens", UintegerValue(1024));
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(f.tokens));
    // 5. What goes wrong: backhaul faults on every link, a slower GPU, a stall policy.
    net->SetFaults(faults);
    net->Build();
    net->AssignStreams(1);
    // [scenario]
    edgellm::LogTokensOf(tokenLog, schemes[0], net->GetClients());
    Simulator::Stop(simTime);
    {
        const auto progress = StartProgress(quiet);
        Simulator::Run();
    }

    std::cout << "imsi  source  target  outcome    start[s]  delay[ms]\n";
    const std::vector<HandoverRecord> records = edge->GetCoordinator()->GetRecords();
    for (const HandoverRecord& r : records)
    {
        const bool ready = r.outcome == HandoverRecord::MIGRATED;
        std::cout << std::setw(4) << r.imsi << std::setw(8) << r.sourceCell << std::setw(8)
                  << r.targetCell << "  " << std::left << std::setw(9)
                  << HandoverOutcomeName(r.outcome) << std::right << std::setw(10) << std::fixed
                  << std::setprecision(3) << r.hoStart.GetSeconds() << std::setw(11)
                  << std::setprecision(1)
                  << (ready ? (r.kvReady - r.hoStart).GetSeconds() * 1e3 : 0.0) << "\n";
    }
    bool ok = true;
    std::cout << "\n                        KV bytes: announced        sent   withdrawn    received"
                 "       stale\nimsi  tokens  complete\n";
    for (uint32_t j = 0; j < net->GetMovingUeCount(); ++j)
    {
        Ptr<EdgeLlmClient> c = DynamicCast<EdgeLlmClient>(net->GetClients().Get(j));
        const KvTransferSenderCounters s = net->GetKvSent(c->GetImsi());
        const KvTransferReceiverCounters r = net->GetKvReceived(c->GetImsi());
        std::cout << std::setw(4) << c->GetImsi() << std::setw(8) << c->GetDeliveredTokens()
                  << std::setw(10) << (c->IsComplete() ? "yes" : "no") << std::setw(20)
                  << s.announced << std::setw(12) << s.sent << std::setw(12) << s.withdrawn
                  << std::setw(12) << r.received << std::setw(12) << r.stale << "\n";
        ok = ok && c->IsComplete() && s.announced == s.sent + s.withdrawn &&
             s.sent == r.received + r.stale;
    }
    uint32_t withSession = 0;
    for (const HandoverRecord& r : records)
    {
        withSession += r.outcome != HandoverRecord::NO_SESSION ? 1 : 0;
    }
    const bool handedOver = f.trigger == "none" || withSession > 0;
    std::vector<EdgeLlmRunResults> results{
        CollectRunResults(schemes[0], records, net->GetClients())};
    NoteClosedSessions(results[0], edge->GetCoordinator()->GetClosedSessions());
    PrintSitSplit(std::cout, results);
    const FaultCounts counts = net->GetFaultCounts();
    if (counts.lossDrops + counts.outageDrops + counts.crossTrafficBytes + counts.stalls > 0)
    {
        std::cout << "faults: backhaul packets lost " << counts.lossDrops << " at random, "
                  << counts.outageDrops << " in " << counts.outages << " outage(s); cross traffic "
                  << std::setprecision(1) << std::fixed << counts.crossTrafficBytes / 1e6
                  << " MB; transfers stalled " << counts.stalls << ", re-prefilled "
                  << counts.reprefills << "\n";
    }
    if (!outDir.empty())
    {
        // Every handover and session of the network, whatever its layout, in the module's
        // tidy CSVs, each with what made it.
        EdgeLlmRunMetadata meta;
        meta.program = "edge-llm-scenario";
        meta.arguments.assign(argv, argv + argc);
        meta.parameters = {{"layout", f.layout},
                           {"cells", std::to_string(f.cells)},
                           {"columns", std::to_string(f.columns)},
                           {"rows", std::to_string(f.rows)},
                           {"spacing", std::to_string(f.spacing)},
                           {"backhaul", f.backhaul},
                           {"backhaulRate", f.backhaulRate},
                           {"ues", std::to_string(f.ues)},
                           {"ran", f.ran},
                           {"mobility", f.mobility},
                           {"arrivalRate", std::to_string(f.arrivalRate)},
                           {"speed", std::to_string(f.speed)},
                           {"speedSpread", std::to_string(f.speedSpread)},
                           {"departureSpread", std::to_string(f.departureSpread)},
                           {"trigger", f.trigger},
                           {"tokens", std::to_string(f.tokens)},
                           {"simTime", f.simTime},
                           {"scheme", schemes[0]},
                           {"outDir", outDir}};
        for (const auto& pair : faults.ToParameters())
        {
            meta.parameters.push_back(pair);
        }
        if (!WriteRunResults(outDir, results, meta))
        {
            std::cerr << "--outDir = " << outDir << ": cannot write the results there\n";
            return 1;
        }
        std::cout << "CSV: " << outDir << "/handovers.csv, " << outDir
                  << "/sessions.csv (each with .json)\n";
    }
    Simulator::Destroy();
    net->Dispose();
    if (const std::string bad = edgellm::CloseTokenLogFlag("tokensCsv", tokensCsv, tokenLog);
        !bad.empty())
    {
        std::cerr << bad << "\n";
        return 1;
    }
    if (!handedOver)
    {
        std::cerr << "verdict: no session was handed over before --simTime; run longer, drive "
                     "faster, or generate more --tokens\n";
        return 1;
    }
    if (!ok)
    {
        std::cerr << "verdict: a session missed tokens, or the KV ledger does not balance\n";
        return 1;
    }
    std::cout << "verdict: every session got every token; the KV ledger balances\n";
    return 0;
}
