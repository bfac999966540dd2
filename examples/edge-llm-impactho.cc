/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ImpactHO on a road: 8 eNBs (gNBs with --ran=nr) 300 m apart, UEs handing over as a Poisson
// process (rho per s) at 20 to 30 m/s, each with a session of 4K, 8K or 16K tokens of Qwen3-8B
// (bf16), A3 handovers, a star backhaul whose shared link of B carries every KV transfer. Each
// scheme runs on the same draw of each RngRun:
//
//   ./edge-llm-impactho                       # 4 schemes, rho = 4/s, 2 RngRuns
//   ./edge-llm-impactho --scheme=impactho,impact-equal --rho=1,2,4,8 --outDir=out
//   ./edge-llm-impactho --scheme=impactho --rho=12 --overload=equalized-bytes,admission
//   ./edge-llm-impactho --window=0             # T_max = infinity: the time until 0.99 M
//
// --rho, --slot, --window, --backhaulRate and --overload take comma-separated lists, and
// every combination is a point of the sweep. Per point and scheme it prints the mean and P5
// accuracy (nearest rank), the starved users (accuracy below A(y0)), the fraction of the
// clairvoyant bound, the slot reference's mean accuracy on the same handovers (the paper's
// model, no network) and the fraction of it reached, the KV bytes the windows abandoned, the
// worst handover delay and the
// time until A >= 0.99 M; it exits 1 if a session missed tokens or a KV ledger does not
// balance.

#include "example-progress.h"

#include "ns3/control-plane-flag.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/impactho-road-experiment.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// Reads one item of a list flag into a config; returns an error naming the flag, or "".
using ItemReader = std::function<std::string(const std::string&, ImpactHoRoadConfig&)>;

/// One list flag of the sweep.
struct SweepFlag
{
    std::string flag;               //!< its name
    std::string text;               //!< what it was given
    ItemReader read;                //!< reads one item
    bool shown{false};              //!< a point's heading names it (it has more than one value)
    std::vector<std::string> items; //!< its values, split
};

/// \return the nearest-rank median of the finite values, NaN if there are none
double
FiniteMedian(std::vector<double> values)
{
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
        values.end());
    if (values.empty())
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return edgellm::NearestRankPercentile(values, 50);
}

} // namespace

int
main(int argc, char* argv[])
{
    ImpactHoRoadConfig config;
    HandoverSchemeFlag scheme({"impactho",
                               "impact-equal",
                               "impact-pf",
                               "impact-wta",
                               "impact-hybrid",
                               "impact-reprefill",
                               "impact-full"},
                              "impactho,impact-equal,impact-hybrid,impact-reprefill");
    std::vector<SweepFlag> sweep = {
        {"rho",
         "4",
         [](const std::string& t, ImpactHoRoadConfig& c) {
             return edgellm::ParseFiniteNumber(t, c.rho)
                        ? std::string()
                        : "--rho = " + t +
                              " is invalid; allowed: (0, 50] handovers/s, or a comma-separated "
                              "list of them";
         }},
        {"slot",
         "100ms",
         [](const std::string& t, ImpactHoRoadConfig& c) {
             return edgellm::ReadTimeFlag("slot", t, c.slot, false, "100ms");
         }},
        {"window",
         "500ms",
         [](const std::string& t, ImpactHoRoadConfig& c) {
             return edgellm::ReadTimeFlag("window", t, c.window, true, "500ms");
         }},
        {"backhaulRate",
         "20Gbps",
         [](const std::string& t, ImpactHoRoadConfig& c) {
             return edgellm::ReadRateFlag("backhaulRate", t, c.backhaulRate, "20Gbps");
         }},
        {"overload",
         "equalized-bytes",
         [](const std::string& t, ImpactHoRoadConfig& c) {
             c.overload = t;
             return std::string();
         }},
        {"backhaulMtu",
         "65000",
         [](const std::string& t, ImpactHoRoadConfig& c) {
             // Digits only, as a count is typed: "1e3" is not an MTU a user means.
             const std::string bad = edgellm::CheckNumber(
                 {"backhaulMtu",
                  true,
                  "an integer in [576, 65000], or a comma-separated list of them",
                  576,
                  65000},
                 t);
             if (bad.empty())
             {
                 c.backhaulMtu = static_cast<uint32_t>(std::stoul(t));
             }
             return bad;
         }},
    };
    std::string simTimeText = "11s";
    std::string bufferText = "10ms";
    uint32_t runs = 2;
    std::string outDir;
    bool quiet = false;
    ControlPlaneFlags controlPlane;
    CommandLine cmd(__FILE__);
    controlPlane.AddTo(cmd);
    controlPlane.RequireController("the slot budgets couple every link of the star");
    cmd.AddValue("rho", "handovers (UEs entering) per s, (0, 50]; a list sweeps", sweep[0].text);
    cmd.AddValue("slot", "Delta t, the allocation slot, > 0; a list sweeps", sweep[1].text);
    cmd.AddValue("window",
                 "T_max, the transfer window, >= 0 (0: wait for the whole cache); a list sweeps",
                 sweep[2].text);
    cmd.AddValue("backhaulRate", "B, the star's shared link, > 0; a list sweeps", sweep[3].text);
    cmd.AddValue("overload",
                 "impactho below B_min: equalized-bytes, winner-take-all, admission or "
                 "no-admission; a list sweeps",
                 sweep[4].text);
    cmd.AddValue("backhaulMtu",
                 "the star's IP MTU, bytes, [576, 65000]: 65000 carries a transfer in a seventh "
                 "of 9000's packets; a list sweeps",
                 sweep[5].text);
    cmd.AddValue("runs", "RngRuns per point, from the run's RngRun on, [1, 1000]", runs);
    cmd.AddValue("tokens", "tokens each session generates, [1, 1000000]", config.tokens);
    cmd.AddValue("order",
                 "importance or random: the entries' order and accuracy curve",
                 config.order);
    cmd.AddValue("kvProfile", "the sessions' model, a KvCacheProfile preset", config.kvProfile);
    cmd.AddValue("trigger",
                 "how handovers happen: a3 (the RAN's measurements) or planned (as each UE "
                 "crosses its boundary, at the Poisson arrivals exactly)",
                 config.trigger);
    cmd.AddValue(
        "goodput",
        "the share of B the slot schedulers plan on, (0, 1] (ImpactSlotScheduler::Goodput)",
        config.goodput);
    cmd.AddValue("computePreset",
                 "every cell's GPU, an LlmComputeModel preset (the re-prefilling baselines' "
                 "prefill)",
                 config.computePreset);
    cmd.AddValue("kvBits", "bits per KV element: 2, 4, 8 or 16", config.kvBits);
    cmd.AddValue("simTime",
                 "when a run stops at the latest; UEs enter from 1.5 s until 8 s before it",
                 simTimeText);
    cmd.AddValue("bufferTime",
                 "the star's queues hold this long at B (bytes = B x bufferTime), [0, 1] s",
                 bufferText);
    cmd.AddValue("ueAirtime",
                 "session: a UE is on the air from 0.5 s before its session opens until 0.2 s "
                 "after it ends; run: every UE from the start (slower, the same draws)",
                 config.ueAirtime);
    cmd.AddValue("ran", "the radio access network: lte, or nr (with 5G-LENA)", config.ran);
    cmd.AddValue("cachedPrompt",
                 "the fraction of each prompt in its first cell's cache when its session "
                 "opens, [0, 1]; 0: that cell prefills it whole",
                 config.cachedPrompt);
    cmd.AddValue("outDir",
                 "write handovers.csv and sessions.csv there, each with a .json sidecar",
                 outDir);
    cmd.AddValue("quiet", "no progress on stderr during the run", quiet);
    scheme.AddTo(cmd);
    // Every argument is checked as typed before CommandLine reads it: CommandLine would print
    // its whole help without the flag's range, wrap "-3" around in an unsigned flag, or keep
    // the last of a flag given twice.
    if (const std::string bad =
            edgellm::CheckArguments(cmd,
                                    {{"tokens", true, "an integer in [1, 1000000]", 1, 1e6},
                                     {"runs", true, "an integer in [1, 1000]", 1, 1000},
                                     {"kvBits", true, "2, 4, 8 or 16", 2, 16},
                                     {"cachedPrompt", false, "a fraction in [0, 1]", 0, 1},
                                     {"goodput", false, "a fraction in (0, 1]", 0, 1, true}},
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
    std::string error = edgellm::ReadTimeFlag("simTime", simTimeText, config.simTime, false, "11s");
    if (error.empty())
    {
        error = edgellm::ReadTimeFlag("bufferTime", bufferText, config.bufferTime, true, "10ms");
    }
    if (error.empty())
    {
        error = controlPlane.Apply(argc, argv);
    }
    // Every value of every list is checked before the first run.
    for (SweepFlag& f : sweep)
    {
        f.items = edgellm::SplitList(f.text);
        f.shown = f.items.size() > 1;
        for (const std::string& item : f.items)
        {
            ImpactHoRoadConfig probe = config;
            if (error.empty())
            {
                error = f.read(item, probe);
            }
            if (error.empty())
            {
                error = probe.Check();
            }
        }
    }
    if (error.empty())
    {
        // The run sets these attributes from the flags: a default given for one of them on
        // the command line would be silently replaced, so it is refused.
        error = edgellm::CheckFlagAttributes(ImpactHoRoadConfig::FlagAttributes(), argc, argv);
    }
    if (error.empty() && !outDir.empty())
    {
        error = edgellm::PrepareOutDir("outDir", outDir);
    }
    if (!error.empty())
    {
        std::cerr << error << "\n";
        return 1;
    }

    const ImpactAccuracyParams curve = config.Curve();
    const uint64_t firstRun = RngSeedManager::GetRun();
    bool ok = true;
    bool anyUe = false;
    std::size_t handovers = 0;

    /// Per (point, RngRun): its results and its settings, for a directory of its own
    struct Output
    {
        std::string dir;                                             //!< under outDir
        std::vector<std::pair<std::string, std::string>> parameters; //!< the run's settings
        std::vector<EdgeLlmRunResults> results;                      //!< one per scheme
    };

    std::vector<Output> outputs;
    std::size_t points = 0;
    // The sweep: every combination of the list flags' values, the last flag fastest.
    std::vector<std::size_t> at(sweep.size(), 0);
    for (bool more = true; more;)
    {
        ImpactHoRoadConfig point = config;
        std::ostringstream heading;
        for (std::size_t k = 0; k < sweep.size(); ++k)
        {
            sweep[k].read(sweep[k].items[at[k]], point);
            if (sweep[k].shown)
            {
                heading << (heading.tellp() > 0 ? ", " : "") << sweep[k].flag << " = "
                        << sweep[k].items[at[k]];
            }
        }
        std::cout << (heading.tellp() > 0 ? "== " + heading.str() + " ==\n" : "");
        const ImpactHoRoadExperiment experiment(point);
        ++points;
        std::map<std::string, std::vector<ImpactHoRoadRun>> byScheme;
        uint32_t ues = 0;
        for (uint32_t r = 0; r < runs; ++r)
        {
            RngSeedManager::SetRun(firstRun + r);
            const ImpactHoRoadInputs inputs = experiment.Draw();
            ues += inputs.arrivalS.size();
            if (inputs.arrivalS.empty())
            {
                continue;
            }
            Output out;
            out.dir = "point-" + std::to_string(points) + "/run-" + std::to_string(firstRun + r);
            out.parameters = point.ToParameters();
            out.parameters.emplace_back("RngRun", std::to_string(firstRun + r));
            for (const std::string& name : schemes)
            {
                if (!quiet)
                {
                    std::cerr << name << ", RngRun " << firstRun + r << ":\n";
                }
                const auto progress = StartProgress(quiet);
                byScheme[name].push_back(experiment.Run(name, inputs));
                out.results.push_back(byScheme[name].back().results);
            }
            outputs.push_back(std::move(out));
        }
        anyUe = anyUe || ues > 0;
        std::cout << ues << " UEs over " << runs << " RngRun(s) from " << firstRun
                  << "; rho = " << std::defaultfloat << std::setprecision(6) << point.rho
                  << "/s, B = " << std::fixed << std::setprecision(1)
                  << point.backhaulRate.GetBitRate() / 1e9 << " Gb/s, slot "
                  << point.slot.GetMilliSeconds() << " ms, window "
                  << point.window.GetMilliSeconds() << " ms (0: none), over "
                  << (point.ran == "nr" ? "NR" : "LTE") << controlPlane.HeaderSuffix() << "\n";
        uint32_t onAir = 0;
        for (const auto& [name, scheduled] : byScheme)
        {
            for (const ImpactHoRoadRun& run : scheduled)
            {
                onAir = std::max(onAir, run.onAirPeak);
            }
        }
        std::cout << "UEs on the air at once: at most " << onAir
                  << " (--ueAirtime=" << point.ueAirtime
                  << "); prompts cached at the first cell: " << std::defaultfloat
                  << std::setprecision(6) << point.cachedPrompt << " (--cachedPrompt)\n"
                  << std::fixed << std::setprecision(1);
        std::cout << "scheme            HOs  mean acc  P5 acc  starved  of bound  ref acc  of ref  "
                     "abandoned[GB]  worst delay[ms]  t(0.99M) P50[ms]  reached  sessions ok\n";
        for (const std::string& name : schemes)
        {
            std::vector<double> accuracy;
            std::vector<double> reference;
            std::vector<double> t99;
            double bound = 0;
            double abandoned = 0;
            double worst = 0;
            uint32_t complete = 0;
            uint32_t sessions = 0;
            bool good = true;
            for (const ImpactHoRoadRun& run : byScheme[name])
            {
                accuracy.insert(accuracy.end(), run.accuracy.begin(), run.accuracy.end());
                reference.insert(reference.end(),
                                 run.referenceAccuracy.begin(),
                                 run.referenceAccuracy.end());
                t99.insert(t99.end(), run.timeTo99S.begin(), run.timeTo99S.end());
                bound += run.clairvoyantBound;
                abandoned += run.abandonedBytes / 1e9;
                worst = std::max(worst, run.worstDelayS);
                complete += run.complete;
                sessions += run.sessions;
                good = good && run.complete == run.sessions && run.ledgerBalances;
            }
            const ImpactHoAccuracySummary s = SummariseImpactHoAccuracy(accuracy, curve);
            double sum = 0;
            for (double a : accuracy)
            {
                sum += a;
            }
            const auto reached = static_cast<uint32_t>(
                std::count_if(t99.begin(), t99.end(), [](double t) { return !std::isnan(t); }));
            const double median = FiniteMedian(t99);
            // The slot reference of the same handovers: the paper's model, no network.
            std::ostringstream refText;
            std::ostringstream ofRef;
            if (reference.empty() || reference.size() != accuracy.size())
            {
                refText << "-";
                ofRef << "-";
            }
            else
            {
                const double refMean = std::accumulate(reference.begin(), reference.end(), 0.0) /
                                       static_cast<double>(reference.size());
                refText << std::fixed << std::setprecision(3) << refMean;
                ofRef << std::fixed << std::setprecision(3) << s.mean / refMean;
            }
            std::ostringstream ofBound;
            std::ostringstream p50;
            if (std::isnan(bound) || bound <= 0)
            {
                ofBound << "-";
            }
            else
            {
                ofBound << std::fixed << std::setprecision(3) << sum / bound;
            }
            if (std::isnan(median))
            {
                p50 << "never";
            }
            else
            {
                p50 << std::fixed << std::setprecision(1) << median * 1e3;
            }
            std::cout << std::left << std::setw(16) << name << std::right << std::setw(5) << s.count
                      << std::setprecision(3) << std::setw(10) << s.mean << std::setw(8) << s.p5
                      << std::setw(9) << s.starved << std::setw(10) << ofBound.str() << std::setw(9)
                      << refText.str() << std::setw(8) << ofRef.str() << std::setprecision(2)
                      << std::setw(15) << abandoned << std::setprecision(1) << std::setw(17)
                      << worst * 1e3 << std::setw(18) << p50.str() << std::setw(6) << reached << "/"
                      << std::left << std::setw(4) << t99.size() << std::right << std::setw(5)
                      << complete << "/" << sessions << (good ? "" : "  FAILED") << "\n";
            if (!(std::isfinite(s.mean) && std::isfinite(s.p5) && std::isfinite(abandoned) &&
                  std::isfinite(worst)))
            {
                std::cerr << "verdict: " << name
                          << ": a value of its row is not finite (none of its handovers was "
                             "scored)\n";
                good = false;
            }
            ok = ok && good;
            handovers += s.count;
        }
        std::cout << "\n";
        more = false;
        for (std::size_t k = sweep.size(); k-- > 0;)
        {
            if (++at[k] < sweep[k].items.size())
            {
                more = true;
                break;
            }
            at[k] = 0;
        }
    }
    if (!anyUe)
    {
        std::cerr << "verdict: no UE entered before the last arrival time; raise --simTime, "
                     "--rho or --runs\n";
        return 1;
    }
    if (handovers == 0)
    {
        std::cerr << "verdict: no UE handed over before --simTime; raise --simTime or --rho\n";
        return 1;
    }
    if (!outDir.empty())
    {
        // One point and one RngRun write to outDir itself; a sweep writes each (point,
        // RngRun) to outDir/point-K/run-R, every one with the sidecar of its own settings.
        for (Output& out : outputs)
        {
            const std::string dir = outputs.size() == 1 ? outDir : outDir + "/" + out.dir;
            std::error_code e;
            std::filesystem::create_directories(dir, e);
            EdgeLlmRunMetadata meta;
            meta.program = "edge-llm-impactho";
            meta.arguments.assign(argv, argv + argc);
            meta.parameters = out.parameters;
            meta.parameters.emplace_back("scheme", scheme.GetValue());
            meta.parameters.emplace_back("outDir", outDir);
            if (e || !WriteRunResults(dir, out.results, meta))
            {
                std::cerr << edgellm::FlagError("outDir",
                                                outDir,
                                                "a directory that can be made and written")
                          << " (cannot write the results to " << dir << ")\n";
                return 1;
            }
        }
        std::cout << "CSV: handovers.csv and sessions.csv (each with .json) in " << outDir
                  << (outputs.size() == 1 ? "" : "/point-K/run-R, one per point and RngRun")
                  << "\n";
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
