/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup edge-llm
 * The ctHO paper's scenario on a packet-level LTE (or, with --ran=nr, 5G NR) network: K UEs with
 * LLM sessions on the first eNB drive across the cell boundary; at each handover the session's KV
 * cache is recovered at the second eNB by re-prefill (tHO), transfer over the backhaul (cHO), both
 * (ctHO), or not at all (Detour relays the tokens). The handover delay of each UE is measured
 * from the packets and the GPU queue, and compared with the analytic value of the same inputs.
 *
 *   ./edge-llm-handover --scheme=all --numUes=4 --backhaulRate=4.5Gbps --outDir=results
 */

#include "example-format.h"
#include "example-progress.h"

#include "ns3/command-line.h"
#include "ns3/control-plane-flag.h"
#include "ns3/core-module.h"
#include "ns3/ctho-line-experiment.h"
#include "ns3/flag-checks.h"
#include "ns3/handover-scheme-flag.h"
#include "ns3/input-checks.h"
#include "ns3/kv-cache-profile.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/token-log-flag.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// Mean and maximum of the measured values.
std::pair<double, double>
MeanMax(const std::vector<double>& values)
{
    double sum = 0;
    double max = std::numeric_limits<double>::quiet_NaN();
    std::size_t n = 0;
    for (double v : values)
    {
        if (!std::isnan(v))
        {
            sum += v;
            max = n == 0 ? v : std::max(max, v);
            ++n;
        }
    }
    return {n == 0 ? std::numeric_limits<double>::quiet_NaN() : sum / n, max};
}

/// \return whether every number of the row is finite ("-" stands for one that is missing)
bool
PrintRow(const CtHoLineRun& run)
{
    const std::vector<CtHoLineGroupSummary> groups = CtHoLineExperiment::Summarize(run);
    double worst = std::numeric_limits<double>::quiet_NaN();
    double mean = std::numeric_limits<double>::quiet_NaN();
    double analytic = std::numeric_limits<double>::quiet_NaN();
    double ratio = std::numeric_limits<double>::quiet_NaN();
    double sum = 0;
    std::size_t sessions = 0;
    for (const CtHoLineGroupSummary& g : groups)
    {
        if (std::isnan(worst) || g.worstDelayS > worst)
        {
            worst = g.worstDelayS;
            analytic = g.analytic.worstDelay;
            ratio = g.ratio;
        }
        sum += g.meanDelayS * g.sessions;
        sessions += g.sessions;
    }
    mean = sessions > 0 ? sum / sessions : mean;
    const auto [sitMean, sitMax] = MeanMax(run.sitS);
    uint64_t prefilled = 0;
    for (const HandoverRecord& r : run.records)
    {
        prefilled += r.outcome == HandoverRecord::MIGRATED ? r.prefillTokens : 0;
    }
    std::ostringstream r;
    r << std::fixed << std::setprecision(3) << ratio;
    std::cout << std::setw(7) << run.scheme << std::setw(10) << FormatMs(worst) << std::setw(10)
              << FormatMs(mean) << std::setw(10) << FormatMs(sitMean) << std::setw(10)
              << FormatMs(sitMax) << std::setw(12) << std::setprecision(1) << std::fixed
              << run.sent.sent / 1e6 << std::setw(10) << prefilled << std::setw(12)
              << FormatMs(analytic) << std::setw(8) << (std::isnan(ratio) ? "-" : r.str()) << "\n";
    return !std::isinf(worst) && !std::isinf(mean) && !std::isinf(analytic) && !std::isinf(ratio);
}

} // namespace

int
main(int argc, char* argv[])
{
    CtHoLineConfig config;
    HandoverSchemeFlag scheme(CtHoLineExperiment::PaperSchemes());
    // Rates and times are read as text and converted here, so that a bad value is refused
    // naming its flag (CommandLine's own reader does not name it).
    std::string backhaulRate = "4.5Gbps";
    std::string plannedRate;
    std::string backhaulDelay = "50us";
    std::string prefillCycle = "10ms";
    std::string moveStart = "2s";
    std::string outDir;
    std::string tokensCsv;
    bool quiet = false;
    FaultFlags faultFlags;

    ControlPlaneFlags controlPlane;
    CommandLine cmd(__FILE__);
    controlPlane.AddTo(cmd);
    scheme.AddTo(cmd);
    cmd.AddValue("numUes", "K, the UEs that hand over, [1, 64]", config.numUes);
    cmd.AddValue("cMax",
                 "largest prompt, tokens (prompts are U[1024, cMax]), [1024, 1000000]",
                 config.cMax);
    cmd.AddValue("backhaulRate", "rate of the backhaul link, > 0", backhaulRate);
    cmd.AddValue("plannedBackhaulRate",
                 "rate the scheduler and the analytic column are told (default: backhaulRate)",
                 plannedRate);
    cmd.AddValue("backhaulDelay", "one-way delay of the backhaul link, >= 0", backhaulDelay);
    cmd.AddValue("prefillA", "a of p(L) = a L + b, s/token, [0, 1]", config.prefillA);
    cmd.AddValue("prefillB", "b of p(L) = a L + b, s, [0, 60]", config.prefillB);
    cmd.AddValue("prefillCycle",
                 "T_c: prefills start on multiples of it, >= 0 (0: no cycle)",
                 prefillCycle);
    cmd.AddValue("bsDistance", "D_bs: distance between the eNBs, m, (260, 1e6]", config.bsDistance);
    cmd.AddValue("trigger", "boundary, a3 or none", config.trigger);
    cmd.AddValue("batching", "oracle (needs --trigger=boundary) or online", config.batching);
    cmd.AddValue("ran", "the radio access network: lte, or nr (with 5G-LENA)", config.ran);
    cmd.AddValue("kvProfile",
                 "KV-cache model: " + edgellm::JoinNames(KvCacheProfile::PresetNames()),
                 config.kvProfile);
    cmd.AddValue("moveStart", "when the UEs start moving, >= 0", moveStart);
    cmd.AddValue("tokensAfter",
                 "tokens each session decodes after its handover, [1, 1000000]",
                 config.tokensAfter);
    cmd.AddValue("residentUes",
                 "stationary sessions on each eNB (load), [0, 100]",
                 config.residentUes);
    cmd.AddValue("outDir",
                 "write handovers.csv and sessions.csv there, each with a .json sidecar",
                 outDir);
    cmd.AddValue("quiet", "no progress on stderr during the runs", quiet);
    cmd.AddValue("tokensCsv", "write every token's times to this file", tokensCsv);
    faultFlags.AddTo(cmd);
    // Every argument is checked as typed before CommandLine reads it: CommandLine would print
    // its whole help without the flag's range, wrap "-3" around in an unsigned flag, or keep
    // the last of a flag given twice.
    if (const std::string bad = edgellm::CheckArguments(
            cmd,
            {{"numUes", true, "an integer in [1, 64]", 1, 64},
             {"cMax", true, "an integer in [1024, 1000000]", 1024, 1e6},
             {"prefillA", false, "a finite number in [0, 1] s/token", 0, 1},
             {"prefillB", false, "a finite number in [0, 60] s", 0, 60},
             {"bsDistance", false, "a finite number in (260, 1e6] m", 260, 1e6, true},
             {"tokensAfter", true, "an integer in [1, 1000000]", 1, 1e6},
             {"residentUes", true, "an integer in [0, 100]", 0, 100}},
            {"quiet"},
            argc,
            argv);
        !bad.empty())
    {
        std::cerr << bad << "\n";
        return 1;
    }
    cmd.Parse(argc, argv);

    // Every flag is checked before anything runs; a bad one exits 1 with its message.
    std::vector<std::string> schemes;
    std::string error;
    try
    {
        schemes = scheme.GetSchemes();
    }
    catch (const std::invalid_argument& e)
    {
        error = e.what();
    }
    // The first problem is reported.
    const auto check = [&error](const std::string& e) {
        if (error.empty())
        {
            error = e;
        }
    };
    check(edgellm::ReadRateFlag("backhaulRate", backhaulRate, config.backhaulRate));
    if (!plannedRate.empty())
    {
        check(
            edgellm::ReadRateFlag("plannedBackhaulRate", plannedRate, config.plannedBackhaulRate));
    }
    check(
        edgellm::ReadTimeFlag("backhaulDelay", backhaulDelay, config.backhaulDelay, true, "50us"));
    check(edgellm::ReadTimeFlag("prefillCycle",
                                prefillCycle,
                                config.prefillCycle,
                                true,
                                "10ms (0: no cycle)"));
    check(edgellm::ReadTimeFlag("moveStart", moveStart, config.moveStart, true, "2s"));
    check(faultFlags.Read(config.faults));
    check(controlPlane.Apply(argc, argv));
    if (plannedRate.empty())
    {
        config.plannedBackhaulRate = config.backhaulRate;
    }
    if (error.empty())
    {
        error = config.Check();
    }
    if (error.empty())
    {
        // The run sets these attributes from the flags: a default given for one of them on the
        // command line would be silently replaced, so it is refused, naming the flag to use.
        error = edgellm::CheckFlagAttributes(CtHoLineConfig::FlagAttributes(), argc, argv);
    }
    if (error.empty() && !outDir.empty())
    {
        error = edgellm::PrepareOutDir("outDir", outDir);
    }
    Ptr<TokenLog> log;
    if (error.empty() && !tokensCsv.empty())
    {
        log = edgellm::OpenTokenLogFlag("tokensCsv", tokensCsv, error);
    }
    if (!error.empty())
    {
        std::cerr << error << "\n";
        return 1;
    }
    const CtHoLineExperiment experiment(config);
    const CtHoLineInputs inputs = experiment.Draw();

    std::cout << "K = " << config.numUes << " UEs, prompts U[" << config.minPrompt << ", "
              << config.cMax << "], R_bh = " << config.backhaulRate.GetBitRate() / 1e9
              << " Gb/s (planned " << config.plannedBackhaulRate.GetBitRate() / 1e9
              << "), T_c = " << config.prefillCycle.As(Time::MS) << ", trigger " << config.trigger
              << ", " << config.batching << " batching, over "
              << (config.ran == "nr" ? "NR" : "LTE") << controlPlane.HeaderSuffix() << "\n";
    std::cout << "  ue  start[m]  prompt\n";
    for (std::size_t j = 0; j < inputs.prompts.size(); ++j)
    {
        std::cout << std::setw(4) << j << std::setw(10) << std::setprecision(2) << std::fixed
                  << inputs.startX[j] << std::setw(8) << inputs.prompts[j] << "\n";
    }
    std::cout << "\n scheme  worst[ms]  mean[ms]   SIT[ms]  SITmax[ms]  KV[MB]  prefill"
                 "  analytic[ms]  ratio\n";

    std::vector<EdgeLlmRunResults> results;
    std::vector<CtHoLineRun> onlineRuns; // online runs with a migrated handover
    // The verdict: every handover accounted for, every token once, every KV byte conserved.
    uint32_t requested = 0;
    uint32_t completed = 0;
    uint32_t failed = 0;
    uint32_t givenUp = 0;
    bool tokensOnce = true;
    bool bytesConserved = true;
    bool capHit = false;
    bool finite = true;
    // Every run's tokens, bytes and end count in the verdict.
    const auto countInVerdict = [&](const CtHoLineRun& run) {
        for (const CtHoLineUe& ue : run.ues)
        {
            tokensOnce = tokensOnce && ue.complete && ue.delivered == ue.tokensToGenerate;
        }
        bytesConserved = bytesConserved && KvLedgerBalances(run.sent, run.received);
        capHit = capHit || run.endTime >= config.maxSimTime;
    };
    for (const std::string& s : schemes)
    {
        std::unique_ptr<ShowProgress> progress;
        uint32_t crossings = 0;
        ControlPlaneTally control;
        const CtHoLineRun run = experiment.Run(
            s,
            inputs,
            [&log, &s, &progress, &control, quiet](Ptr<EdgeLlmLineScenario> sc) {
                edgellm::LogTokensOf(log, s, sc->GetClients());
                control.Watch(sc->GetEdgeLlmHelper());
                progress = StartProgress(quiet);
            },
            [&crossings, &givenUp](Ptr<EdgeLlmLineScenario> sc) {
                crossings = sc->GetBoundaryCrossings().size();
                givenUp += sc->GetSkippedCrossings();
            });
        // A planned trigger requests its crossings; an algorithm's requests are the handovers
        // that started.
        requested += config.trigger == "boundary" ? crossings : run.records.size();
        progress.reset();
        // Every scheme must see the same scenario, or the comparison means nothing.
        NS_ABORT_MSG_IF(!(run.inputs == inputs), "scheme " << s << " ran on other inputs");
        finite = PrintRow(run) && finite;
        if (controlPlane.IsNetwork())
        {
            std::cout << "         " << control.Summary() << "\n";
        }
        if (run.faults.lossDrops + run.faults.outageDrops + run.faults.crossTrafficBytes +
                run.faults.stalls >
            0)
        {
            std::cout << "         faults: backhaul packets lost " << run.faults.lossDrops
                      << " at random, " << run.faults.outageDrops << " in " << run.faults.outages
                      << " outage(s); cross traffic " << std::setprecision(1) << std::fixed
                      << run.faults.crossTrafficBytes / 1e6 << " MB; transfers stalled "
                      << run.faults.stalls << ", re-prefilled " << run.faults.reprefills << "\n";
        }
        for (const HandoverRecord& r : run.records)
        {
            completed += r.outcome == HandoverRecord::MIGRATED ||
                                 r.outcome == HandoverRecord::RELAYED ||
                                 r.outcome == HandoverRecord::REUSED
                             ? 1
                             : 0;
            failed += r.outcome == HandoverRecord::FAILED ? 1 : 0;
        }
        countInVerdict(run);
        results.push_back(run.results);
        if (config.batching == "online" && !std::isnan(CtHoLineExperiment::WorstMigratedDelay(run)))
        {
            onlineRuns.push_back(run);
        }
    }
    if (config.batching == "online")
    {
        // Regret against measured: the same draw run again with the clairvoyant batches of
        // each scheme's handovers. The model error of those batches is apart from it.
        std::cout << "\nonline vs clairvoyant batches, both measured (worst delay):\n";
        for (const CtHoLineRun& run : onlineRuns)
        {
            const CtHoLineRegret regret = experiment.MeasureRegret(run);
            countInVerdict(regret.clairvoyantRun); // a run like the others
            finite = finite && !std::isinf(regret.regret) && !std::isinf(regret.modelError);
            std::ostringstream line;
            line << std::fixed << std::setprecision(3) << std::setw(7) << run.scheme << "  online "
                 << FormatMs(regret.onlineWorstS) << " ms, clairvoyant ("
                 << regret.clairvoyant.groups << " batches) "
                 << FormatMs(regret.clairvoyantMeasuredS) << " ms: regret " << regret.regret
                 << "; its analytic " << FormatMs(regret.clairvoyantAnalyticS)
                 << " ms: model error " << regret.modelError;
            std::cout << line.str() << "\n";
        }
    }
    PrintSitSplit(std::cout, results);
    if (!outDir.empty())
    {
        EdgeLlmRunMetadata meta;
        meta.program = "edge-llm-handover";
        meta.arguments.assign(argv, argv + argc);
        meta.parameters = config.ToParameters();
        meta.parameters.emplace_back("scheme", edgellm::JoinNames(schemes));
        meta.parameters.emplace_back("outDir", outDir);
        if (!WriteRunResults(outDir, results, meta))
        {
            std::cerr << "--outDir = " << outDir << ": cannot write the results there\n";
            return 1;
        }
        std::cout << "\nCSV: " << outDir << "/handovers.csv, " << outDir
                  << "/sessions.csv (each with .json)\n";
    }
    const bool ok = tokensOnce && bytesConserved;
    std::cout << "verdict: handovers requested " << requested << ", completed " << completed
              << ", failed " << failed << ", given up " << givenUp
              << "; tokens exactly once: " << (tokensOnce ? "yes" : "NO")
              << "; KV bytes conserved: " << (bytesConserved ? "yes" : "NO") << "\n";
    if (const std::string bad = edgellm::CloseTokenLogFlag("tokensCsv", tokensCsv, log);
        !bad.empty())
    {
        std::cerr << bad << "\n";
        return 1;
    }
    // A degenerate run fails, with what made it so: its numbers compare nothing.
    if (capHit)
    {
        std::cerr << "verdict: a run reached the time cap of " << config.maxSimTime.As(Time::S)
                  << " before every session ended\n";
        return 1;
    }
    if (config.trigger != "none" && completed == 0)
    {
        std::cerr << "verdict: no handover completed (--trigger = " << config.trigger << ")\n";
        return 1;
    }
    if (!finite)
    {
        std::cerr << "verdict: a delay is not finite: the flags' values are past what the run "
                     "can measure\n";
        return 1;
    }
    if (config.trigger == "boundary" && completed + failed < requested - givenUp)
    {
        std::cerr << "warning: " << requested - givenUp - completed - failed
                  << " requested handovers never completed\n";
    }
    return ok ? 0 : 1;
}
