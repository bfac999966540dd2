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
// balance, or nobody handed over. The flags, their checks and the network are the module's
// ScenarioOptions and BuildScenarioNetwork, which a program of one's own can use alike.

#include "example-progress.h"

#include "ns3/control-plane-flag.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/token-log-flag.h"

#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ScenarioOptions o;
    HandoverSchemeFlag scheme({}, "ctho");
    FaultFlags faultFlags;
    ControlPlaneFlags controlPlane;
    CommandLine cmd(__FILE__);
    controlPlane.AddTo(cmd);
    o.AddTo(cmd);
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
            edgellm::CheckArguments(cmd, ScenarioOptions::NumberFlags(), {"quiet"}, argc, argv);
        !bad.empty())
    {
        std::cerr << bad << "\n";
        return 1;
    }
    cmd.Parse(argc, argv);
    try
    {
        o.scheme = scheme.GetSchemes().at(0);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << e.what() << "\n";
        return 1;
    }
    std::string error = o.Check();
    if (error.empty())
    {
        // A flag that the chosen layout or mobility does not use would be ignored without a
        // word.
        error = o.CheckUsed(argc, argv);
    }
    if (error.empty())
    {
        error = faultFlags.Read(o.faults);
    }
    if (error.empty())
    {
        error = controlPlane.Apply(argc, argv);
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
        error = edgellm::CheckFlagAttributes(ScenarioOptions::FlagAttributes(), argc, argv);
    }
    if (!error.empty())
    {
        std::cerr << error << "\n";
        return 1;
    }

    // The network of the options (helper/scenario-network.cc): stack, layout, backhaul, UEs,
    // trigger, scheme and faults.
    Ptr<EdgeLlmNetwork> net = BuildScenarioNetwork(o);
    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
    const Time simTime = o.GetSimTime();
    edgellm::LogTokensOf(tokenLog, o.scheme, net->GetClients());
    ControlPlaneTally control;
    control.Watch(edge);
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
    if (controlPlane.IsNetwork())
    {
        std::cout << controlPlane.Describe() << "; " << control.Summary() << "\n";
    }
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
        ok = ok && c->IsComplete() && KvLedgerBalances(s, r);
    }
    uint32_t withSession = 0;
    for (const HandoverRecord& r : records)
    {
        withSession += r.outcome != HandoverRecord::NO_SESSION ? 1 : 0;
    }
    const bool handedOver = o.trigger == "none" || withSession > 0;
    std::vector<EdgeLlmRunResults> results{CollectRunResults(o.scheme, records, net->GetClients())};
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
        meta.parameters = o.ToParameters();
        meta.parameters.emplace_back("outDir", outDir);
        for (const auto& pair : o.faults.ToParameters())
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
