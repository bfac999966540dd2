/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ImpactHO on a road: 8 eNBs 300 m apart, UEs handing over as a Poisson process (rho per s)
// at 20 to 30 m/s, each with a session of 4K, 8K or 16K tokens of Qwen3-8B (bf16), A3
// handovers, a star backhaul whose shared link of B carries every KV transfer. Each scheme
// runs on the same draw:
//
//   ./edge-llm-impactho                          # impactho and impact-equal, rho = 4/s
//   ./edge-llm-impactho --scheme=impactho --rho=8 --window=300ms --outDir=out
//
// Per scheme it prints the mean and P5 accuracy (nearest rank), the starved users (accuracy
// below A(y0)), the KV bytes the windows abandoned and the worst handover delay, and exits 1
// if a session missed tokens or a KV ledger does not balance.

#include "example-progress.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/impactho-road-experiment.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ImpactHoRoadConfig config;
    HandoverSchemeFlag scheme({"impactho", "impact-equal"}, "all");
    // Times and rates are read as text, so that an error names the flag.
    std::string slotText = "100ms";
    std::string windowText = "500ms";
    std::string rateText = "20Gbps";
    std::string simTimeText = "10s";
    std::string outDir;
    bool quiet = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("rho", "handovers (UEs entering) per s, (0, 50]", config.rho);
    cmd.AddValue("slot", "Delta t, the allocation slot, > 0", slotText);
    cmd.AddValue("window",
                 "T_max, the transfer window, >= 0 (0: wait for the whole cache)",
                 windowText);
    cmd.AddValue("backhaulRate", "B, the star's shared link, > 0", rateText);
    cmd.AddValue("tokens", "tokens each session generates, >= 1", config.tokens);
    cmd.AddValue("order",
                 "importance or random: the entries' order and accuracy curve",
                 config.order);
    cmd.AddValue("simTime",
                 "when the run stops at the latest; UEs enter from 1.5 s until 6 s before it",
                 simTimeText);
    cmd.AddValue("outDir",
                 "write handovers.csv and sessions.csv there, each with a .json sidecar",
                 outDir);
    cmd.AddValue("quiet", "no progress on stderr during the run", quiet);
    scheme.AddTo(cmd);
    // Numbers are checked as text first: CommandLine would print its help without the
    // flag's range, or wrap "-3" around in an unsigned flag.
    {
        const std::string bad = edgellm::CheckNumberFlags(
            {{"rho", false, "(0, 50] handovers/s"}, {"tokens", true, "an integer >= 1"}},
            argc,
            argv);
        if (!bad.empty())
        {
            std::cerr << bad << "\n";
            return 1;
        }
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
    std::string error = edgellm::ReadTimeFlag("slot", slotText, config.slot, false, "100ms");
    if (error.empty())
    {
        error = edgellm::ReadTimeFlag("window", windowText, config.window, true, "500ms");
    }
    if (error.empty())
    {
        error = edgellm::ReadRateFlag("backhaulRate", rateText, config.backhaulRate, "20Gbps");
    }
    if (error.empty())
    {
        error = edgellm::ReadTimeFlag("simTime", simTimeText, config.simTime, false, "10s");
    }
    if (error.empty())
    {
        error = config.Check();
    }
    if (error.empty())
    {
        // The run sets these attributes from the flags: a default given for one of them on
        // the command line would be silently replaced, so it is refused.
        error = edgellm::CheckFlagAttributes(ImpactHoRoadConfig::FlagAttributes(), argc, argv);
    }
    if (error.empty() && !outDir.empty())
    {
        std::error_code e;
        std::filesystem::create_directories(outDir, e);
        if (e || !std::ofstream(outDir + "/handovers.csv"))
        {
            error = "--outDir = " + outDir + " is invalid: cannot write there";
        }
    }
    if (!error.empty())
    {
        std::cerr << error << "\n";
        return 1;
    }

    const ImpactHoRoadExperiment experiment(config);
    const ImpactHoRoadInputs inputs = experiment.Draw();
    if (inputs.arrivalS.empty())
    {
        std::cerr << "verdict: no UE entered before the last arrival time; raise --simTime or "
                     "--rho\n";
        return 1;
    }
    const ImpactAccuracyParams curve = config.order == "random"
                                           ? ImpactAccuracyParams::RandomOrder()
                                           : ImpactAccuracyParams::ImportanceOrder();
    std::cout << inputs.arrivalS.size() << " UEs enter over " << std::fixed << std::setprecision(1)
              << inputs.arrivalS.back() << " s; B = " << config.backhaulRate.GetBitRate() / 1e9
              << " Gb/s, slot " << config.slot.GetMilliSeconds() << " ms, window "
              << config.window.GetMilliSeconds() << " ms\n\n";
    std::cout << "scheme         handovers  mean acc  P5 acc  starved  abandoned[GB]  worst "
                 "delay[ms]  sessions ok\n";
    bool ok = true;
    std::vector<EdgeLlmRunResults> results;
    for (const std::string& name : schemes)
    {
        ImpactHoRoadRun run;
        {
            if (!quiet)
            {
                std::cerr << name << ":\n";
            }
            const auto progress = StartProgress(quiet);
            run = experiment.Run(name, inputs);
        }
        const ImpactHoAccuracySummary s = SummariseImpactHoAccuracy(run.accuracy, curve);
        const bool good = run.complete == run.sessions && run.ledgerBalances;
        std::cout << std::left << std::setw(15) << name << std::right << std::setw(9) << s.count
                  << std::setprecision(3) << std::setw(10) << s.mean << std::setw(8) << s.p5
                  << std::setw(9) << s.starved << std::setprecision(2) << std::setw(15)
                  << run.abandonedBytes / 1e9 << std::setprecision(1) << std::setw(17)
                  << run.worstDelayS * 1e3 << std::setw(8) << run.complete << "/" << run.sessions
                  << (good ? "" : "  FAILED") << "\n";
        if (run.budgetBytes > 0)
        {
            std::cout << "               budgets spent: " << std::setprecision(1)
                      << 100.0 * run.sentBytes / run.budgetBytes << " % of " << std::setprecision(2)
                      << run.budgetBytes / 1e9 << " GB\n";
        }
        ok = ok && good;
        results.push_back(run.results);
    }
    if (!outDir.empty())
    {
        EdgeLlmRunMetadata meta;
        meta.program = "edge-llm-impactho";
        meta.arguments.assign(argv, argv + argc);
        meta.parameters = config.ToParameters();
        meta.parameters.emplace_back("scheme", scheme.GetValue());
        meta.parameters.emplace_back("outDir", outDir);
        if (!WriteRunResults(outDir, results, meta))
        {
            std::cerr << "--outDir = " << outDir << ": cannot write the results there\n";
            return 1;
        }
        std::cout << "CSV: " << outDir << "/handovers.csv, " << outDir
                  << "/sessions.csv (each with .json)\n";
    }
    if (!ok)
    {
        std::cerr << "verdict: a session missed tokens or a KV ledger does not balance (or the "
                     "run ended first: raise --simTime)\n";
        return 1;
    }
    std::cout << "verdict: every session got every token; every KV ledger balances\n";
    return 0;
}
