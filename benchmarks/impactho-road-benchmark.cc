/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The cost of ImpactHO's road: the packet-level KV transfers against a floor that runs the
// same road without them. Both run in this process on the same draw (ImpactHoRoadExperiment):
//
//   kv:    impactho, every transfer over TCP across the star's shared link;
//   floor: detour, the same LTE network, UEs, sessions, decoding and handovers, each session
//          kept at its source and its tokens relayed: not one KV byte on the backhaul, and
//          no prefill at a target.
//
// Prints, per run, the wall time, the simulated time, the KV bytes handed to TCP, the wall
// time per simulated second, and the KV run's extra wall time per GB moved, its DATA messages
// and their mean size, and the ratio of the two wall times measured here:
//
//   ./edge-llm-bench-impactho                # simTime 20 s: UEs enter over 10.5 s
//   ./edge-llm-bench-impactho --simTime=68   # 60 s of arrivals, about 240 handovers
//   ./edge-llm-bench-impactho --smoke        # the tiniest run, to check that it works
//   ./edge-llm-bench-impactho --ueAirtime=run  # every UE on the air for the whole run
//   ./edge-llm-bench-impactho --backhaulMtu=9000  # the backhaul's frames of before
//
// benchmarks/run-all.py runs the 60 s road and compares it with the stored baseline of an
// earlier version of the module, measured on the same machine
// (benchmarks/results/baseline/).

#include "bench-common.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/impactho-road-experiment.h"
#include "ns3/llm-compute-model.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    double simTimeS = 20;
    double rho = 4;
    bool smoke = false;
    std::string ueAirtime = "session";
    uint32_t backhaulMtu = ImpactHoRoadConfig().backhaulMtu;
    // The stored baseline's road prefilled every prompt at its first cell; so does this
    // benchmark by default, so that the two time the same work.
    double cachedPrompt = 0;
    CommandLine cmd(__FILE__);
    cmd.AddValue("simTime", "when each run stops at the latest, s, >= 10", simTimeS);
    cmd.AddValue("rho", "handovers per s, (0, 50]", rho);
    cmd.AddValue("smoke", "the tiniest run (simTime 10 s), to check that it all works", smoke);
    cmd.AddValue("ueAirtime",
                 "session (a UE on the air only while its session matters) or run",
                 ueAirtime);
    cmd.AddValue("backhaulMtu",
                 "MTU of the star's backhaul links, bytes, [576, 65000]",
                 backhaulMtu);
    cmd.AddValue("cachedPrompt",
                 "the fraction of each prompt cached at its first cell, [0, 1] (the road's "
                 "default is 1; 0 is the baseline's work)",
                 cachedPrompt);
    {
        const std::string bad = edgellm::CheckNumberFlags(
            {{"simTime", false, "a time >= 10 s"},
             {"rho", false, "(0, 50] handovers/s"},
             {"backhaulMtu", true, "an integer in [576, 65000]", 576, 65000},
             {"cachedPrompt", false, "a fraction in [0, 1]", 0, 1}},
            argc,
            argv);
        if (!bad.empty())
        {
            std::cerr << bad << "\n";
            return 1;
        }
    }
    cmd.Parse(argc, argv);
    if (smoke)
    {
        simTimeS = 10;
    }
    if (!(simTimeS >= 10 && simTimeS <= 3600))
    {
        std::cerr << "--simTime = " << simTimeS << " is invalid; allowed: [10, 3600] s\n";
        return 1;
    }
    ImpactHoRoadConfig config;
    config.simTime = Seconds(simTimeS);
    config.rho = rho;
    config.ueAirtime = ueAirtime;
    config.backhaulMtu = backhaulMtu;
    config.cachedPrompt = cachedPrompt;
    // The baseline's GPUs ran the servers' default preset, not the road's Qwen3-8B.
    config.computePreset = LlmComputeModel::DefaultPresetName();
    const std::string error = config.Check();
    if (!error.empty())
    {
        std::cerr << error << "\n";
        return 1;
    }
    const ImpactHoRoadExperiment experiment(config);
    const ImpactHoRoadInputs inputs = experiment.Draw();
    if (inputs.arrivalS.empty())
    {
        std::cerr << "no UE entered: raise --simTime or --rho\n";
        return 1;
    }
    std::cout << inputs.arrivalS.size() << " UEs at rho = " << rho << "/s, simTime " << simTimeS
              << " s, --ueAirtime=" << ueAirtime << ", --backhaulMtu=" << backhaulMtu << "\n";
    std::cout << "run     scheme             wall[s]  simulated[s]  KV to TCP[GB]  "
                 "wall/sim s  handovers  sessions ok\n";
    double wall[2] = {0, 0};
    double gb[2] = {0, 0};
    double simulated[2] = {0, 0};
    std::size_t handovers[2] = {0, 0};
    uint32_t onAir = 0;
    uint64_t dataMessages = 0;
    bool ok = true;
    const char* names[2] = {"impactho", "detour"};
    for (int k = 0; k < 2; ++k)
    {
        const auto start = std::chrono::steady_clock::now();
        const ImpactHoRoadRun run = experiment.Run(names[k], inputs);
        wall[k] = bench::WallSeconds(start);
        simulated[k] = run.endTime.GetSeconds();
        gb[k] = run.sentBytes / 1e9;
        handovers[k] = run.records.size();
        onAir = std::max(onAir, run.onAirPeak);
        if (k == 0)
        {
            dataMessages = run.dataMessages;
        }
        ok = ok && run.complete == run.sessions && run.ledgerBalances;
        std::cout << std::left << std::setw(8) << (k == 0 ? "kv" : "floor") << std::setw(17)
                  << names[k] << std::right << std::fixed << std::setprecision(2) << std::setw(9)
                  << wall[k] << std::setw(14) << simulated[k] << std::setw(15) << gb[k]
                  << std::setprecision(3) << std::setw(12) << wall[k] / simulated[k]
                  << std::setw(11) << handovers[k] << std::setw(8) << run.complete << "/"
                  << run.sessions << "\n";
    }
    std::cout << "UEs on the air at once: at most " << onAir << "\n";
    if (dataMessages > 0)
    {
        // Each DATA message costs the policy's selection and a header to parse; rationed ones
        // are sized to TCP's free room, so their number depends on how acknowledgements come.
        std::cout << "DATA messages of the kv run: " << dataMessages << ", " << std::setprecision(1)
                  << gb[0] * 1e6 / dataMessages << " kB each on average\n";
    }
    std::cout << std::setprecision(2) << "kv / floor wall time: " << wall[0] / wall[1]
              << "; the transfers take " << 100 * (wall[0] - wall[1]) / wall[0]
              << " % of the kv run's wall time";
    if (gb[0] > 0)
    {
        std::cout << std::setprecision(3) << ", " << (wall[0] - wall[1]) / gb[0]
                  << " s of wall time per GB moved";
    }
    std::cout << "\n";
    if (!ok)
    {
        std::cerr << "a session missed tokens or a KV ledger does not balance\n";
        return 1;
    }
    return 0;
}
