/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Pallas on a single handover, over LTE (or 5G NR with --ran=nr): two cells 200 m apart, one
// UE at 20 m/s crossing at 3 s, its session a prompt of 500 to 1500 tokens (drawn per RngRun)
// of Qwen3-32B-AWQ on an RTX A6000 (bf16 KV, 262,144 B per token), and the inter-cell link
// swept over 100, 300 and 500 Mb/s. Each scheme runs on the same draw of each RngRun:
//
//   ./edge-llm-pallas                                  # 5 schemes x 3 rates x 2 RngRuns
//   ./edge-llm-pallas --linkRates=300 --runs=5 --scheme=pallas,pallas-recompute
//   ./edge-llm-pallas --trigger=planned --predictor=oracle --model=llama-3-8b --outDir=out
//   ./edge-llm-pallas --study=concurrency             # K = 1..4, 0 or 2 residents
//
//   ./edge-llm-pallas --study=grid --ues=4           # 8 x 8 cells, links ~ N(300, 50^2)
//   ./edge-llm-pallas --study=grid --speedSpread=0 --departureSpread=0  # UEs in step
//
// --study=concurrency hands K UEs over to one target, 2 m (0.1 s) apart, with 0 or 2
// resident users decoding at each cell. The engines run Mixed iterations (--modes; chunked
// prefill, as vLLM schedules: prefills of different handovers share iterations with each other
// and with decoding), and the plans replay them (LlmEngine::ForecastPrefills);
// --modes=Separate,Mixed runs each point under both.
// --study=grid drives --ues UEs on random routes over 8 x 8 cells of 100 m at 20 m/s for
// 15 s (a handover every 5 s), each link's rate drawn from N(300, 50^2) Mb/s truncated at
// 150; its SIT statistics are over every measured handover. The routes are staggered: each
// UE has a speed of its own within 25 % (--speedSpread) and leaves its first cell within one
// leg of the start (--departureSpread); both 0 move the UEs in step, crossing their
// boundaries at the same instants.
// The RAN hands over by A3 (--trigger=a3; planned: at the midpoint), and Pallas prepares the
// handover a window before the time its predictor expects: by default the constant-velocity
// trajectory predictor on positions with a GPS error (--positionNoise, 4.9 m), its lag trained
// on RngRuns of its own (--calibrationRuns, from RngRun + 1000); the row "pallas (oracle
// bound)" is Pallas with an oracle told each draw's handovers. Per link rate and scheme it
// prints the mean and P99 SIT (nearest rank over the runs), the ITL mean, P90 and
// P99 and the fraction of ITL samples over 100 ms, then the mean of the RngRuns' mean SITs
// with its 95 % interval (Student's t over the runs), the SIT reduction factor of pallas
// against each other scheme (mean SIT of the scheme / mean SIT of pallas) and the
// predictor's accuracy. It exits 1 if a session missed or repeated a token, or a KV ledger
// does not balance.

#include "ns3/control-plane-flag.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/pallas-line-experiment.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The flags, checked before anything is built.
struct Flags
{
    std::string study{"sweep"};
    std::string linkRates{"100,300,500"};
    double linkDelayMs{5};
    std::string backhaul{"x2"};
    double coreDelayMs{0.02};
    double coreRateMbps{10000};
    std::string ks{"1,2,3,4"};
    std::string residents{"0,2"};
    std::string modes{"Mixed"};
    uint32_t ues{4};
    double speedSpread{0.25};
    double departureSpread{1};
    double windowMarginMs{0};
    double windowLimitMs{5000};
    uint32_t runs{2};
    uint32_t promptMin{500};
    uint32_t promptMax{1500};
    std::string model{"qwen3-32b"};
    std::string predictor{"trajectory"};
    std::string trigger{"a3"};
    double predictorLagMs{0};
    uint32_t calibrationRuns{3};
    double positionNoiseM{4.9};
    double speedNoiseMps{0};
    double headingNoiseDeg{0};
    uint32_t streamStep{1};
    uint32_t tokensAfter{40};
    std::string ran{"lte"};
    std::string ablation{"none"};
};

/// A model: its compute preset and KV profile.
struct Model
{
    std::string compute; //!< LlmComputeModel preset
    std::string kv;      //!< KvCacheProfile preset
};

/// The models of the prototype.
const std::map<std::string, Model> MODELS{{"llama-3-8b", {"llama-3-8b-a6000", "Llama-3-8B"}},
                                          {"qwen3-14b", {"qwen3-14b-a6000", "Qwen3-14B"}},
                                          {"qwen3-32b", {"qwen3-32b-awq-a6000", "Qwen3-32B"}}};

/**
 * \param f the flags
 * \param [out] rates --linkRates, Mb/s
 * \return the first flag error, or an empty string
 */
std::string
Check(const Flags& f,
      std::vector<double>& rates,
      std::vector<uint32_t>& ks,
      std::vector<uint32_t>& residents,
      std::vector<std::string>& modes)
{
    std::ostringstream e;
    if (f.study != "sweep" && f.study != "concurrency" && f.study != "grid")
    {
        e << "--study = " << f.study << " is invalid; allowed: sweep, concurrency or grid";
        return e.str();
    }
    if (f.backhaul != "x2" && f.backhaul != "core")
    {
        e << "--backhaul = " << f.backhaul << " is invalid; allowed: x2 or core";
        return e.str();
    }
    if (f.ablation != "none" && f.ablation != "no-recompute" && f.ablation != "no-streaming" &&
        f.ablation != "both")
    {
        e << "--ablation = " << f.ablation
          << " is invalid; allowed: none, no-recompute, no-streaming or both";
        return e.str();
    }
    if (!(f.windowMarginMs >= 0 && f.windowMarginMs <= 60000))
    {
        e << "--windowMargin = " << f.windowMarginMs << " is invalid; allowed: [0, 60000] ms";
        return e.str();
    }
    if (!(f.windowLimitMs >= 0 && f.windowLimitMs <= 60000))
    {
        e << "--windowLimit = " << f.windowLimitMs << " is invalid; allowed: [0, 60000] ms";
        return e.str();
    }
    if (f.ues < 1 || f.ues > 16)
    {
        e << "--ues = " << f.ues << " is invalid; allowed: an integer in [1, 16]";
        return e.str();
    }
    for (const std::string& item : edgellm::SplitList(f.ks))
    {
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
            item.size() > 2 || std::stoul(item) < 1 || std::stoul(item) > 8)
        {
            e << "--ks = " << f.ks
              << " is invalid; allowed: a comma-separated list of "
                 "integers in [1, 8]";
            return e.str();
        }
        ks.push_back(static_cast<uint32_t>(std::stoul(item)));
    }
    for (const std::string& item : edgellm::SplitList(f.residents))
    {
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
            item.size() > 2 || std::stoul(item) > 16)
        {
            e << "--residents = " << f.residents
              << " is invalid; allowed: a comma-separated list of integers in [0, 16]";
            return e.str();
        }
        residents.push_back(static_cast<uint32_t>(std::stoul(item)));
    }
    for (const std::string& item : edgellm::SplitList(f.modes))
    {
        if (item != "Separate" && item != "Mixed")
        {
            e << "--modes = " << f.modes
              << " is invalid; allowed: a comma-separated list of Separate and Mixed";
            return e.str();
        }
        modes.push_back(item);
    }
    for (const std::string& item : edgellm::SplitList(f.linkRates))
    {
        // A plain number is Mb/s; a rate with a unit is taken as the other examples take one.
        double v = 0;
        bool read = edgellm::ParseFiniteNumber(item, v);
        if (DataRate rate; !read && edgellm::ParseDataRate(item, rate))
        {
            v = static_cast<double>(rate.GetBitRate()) / 1e6;
            read = true;
        }
        if (!read || !(v >= 1 && v <= 100000))
        {
            e << "--linkRates = " << f.linkRates
              << " is invalid; allowed: a comma-separated list of rates in [1, 100000] Mb/s "
                 "(300 or 300Mbps)";
            return e.str();
        }
        rates.push_back(v);
    }
    if (f.runs < 1 || f.runs > 100)
    {
        e << "--runs = " << f.runs << " is invalid; allowed: an integer in [1, 100]";
    }
    else if (f.promptMin < 16 || f.promptMin > 32768)
    {
        e << "--promptMin = " << f.promptMin << " is invalid; allowed: an integer in [16, 32768]";
    }
    else if (f.promptMax < f.promptMin || f.promptMax > 32768)
    {
        e << "--promptMax = " << f.promptMax
          << " is invalid; allowed: an integer in [--promptMin, 32768]";
    }
    else if (MODELS.count(f.model) == 0)
    {
        e << "--model = " << f.model << " is invalid; allowed: llama-3-8b, qwen3-14b or qwen3-32b";
    }
    else if (const std::string problem = edgellm::CheckRanFlag("ran", f.ran); !problem.empty())
    {
        e << problem;
    }
    else if (f.predictor != "oracle" && f.predictor != "trajectory")
    {
        e << "--predictor = " << f.predictor << " is invalid; allowed: oracle or trajectory";
    }
    else if (f.trigger != "planned" && f.trigger != "a3")
    {
        e << "--trigger = " << f.trigger << " is invalid; allowed: planned or a3";
    }
    else if (f.tokensAfter < 1 || f.tokensAfter > 100000)
    {
        e << "--tokensAfter = " << f.tokensAfter
          << " is invalid; allowed: an integer in [1, 100000]";
    }
    return e.str();
}

/// What one scheme gave at one link rate, over the runs.
struct Point
{
    std::vector<double> sit; //!< SIT per run, s
    std::vector<double> itl; //!< ITL samples of every run, s
    /// per handover of a prepared migration it committed: T_early, its handover start minus
    /// when it was prepared, s
    std::vector<double> early;
    double wastedBytes{0};        //!< KV bytes of prepared work thrown away, all runs
    double wastedGpuS{0};         //!< GPU time of prepared prefills thrown away, all runs, s
    uint64_t prefillMeasured{0};  //!< window samples with the target's observed prefill rate
    uint64_t prefillModelled{0};  //!< window samples with its compute model's
    uint64_t loadForecast{0};     //!< window samples whose T_load the target's replay gave
    uint64_t backhaulMeasured{0}; //!< window samples with the receiver's measured goodput
    uint64_t backhaulPlanned{0};  //!< window samples with the link's planned rate
    uint64_t loadReported{0};     //!< window samples whose T_load a LOAD report gave
    uint64_t loadsSent{0};        //!< the cells' LOAD reports (control plane on the network)
    /// SITs of relayed handovers (Detour), s, by the relay path's backhaul links to the UE
    std::map<uint32_t, std::vector<double>> relayedSitByHops;
    /// Of sessions only ever relayed, token latencies, s, by the relay path's links
    std::map<uint32_t, std::vector<double>> latencyByHops;
    /// per RngRun with a measured SIT: the mean of its SITs, s
    std::vector<double> runMeanSit;
};

/// \return the mean of v; NaN if empty
double
Mean(const std::vector<double>& v)
{
    if (v.empty())
    {
        return std::nan("");
    }
    double s = 0;
    for (double x : v)
    {
        s += x;
    }
    return s / static_cast<double>(v.size());
}

/**
 * \param v samples, at least 2
 * \return the half width of the 95 % interval of their mean (Student's t with size - 1
 *         degrees of freedom)
 */
double
HalfWidth95(const std::vector<double>& v)
{
    const double n = static_cast<double>(v.size());
    const double m = Mean(v);
    double ss = 0;
    for (double x : v)
    {
        ss += (x - m) * (x - m);
    }
    const boost::math::students_t t(n - 1);
    return boost::math::quantile(boost::math::complement(t, 0.025)) * std::sqrt(ss / (n - 1)) /
           std::sqrt(n);
}

/// \return the nearest-rank p-th percentile of v; NaN if empty
double
Pct(const std::vector<double>& v, double p)
{
    return v.empty() ? std::nan("") : edgellm::NearestRankPercentile(v, p);
}

/**
 * \brief Print one line of samples by the relay path's hops, if there are any.
 * \param title what the line shows, before " [ms] by the relay path's links:"
 * \param byLinks samples, s, by the relay path's hops
 * \param median true for the median (P50), false for the mean, each beside its P99
 * \param core each hop is a path through the core (up, core and down links), not one link
 */
void
PrintByLinks(const std::string& title,
             const std::map<uint32_t, std::vector<double>>& byLinks,
             bool median,
             bool core)
{
    if (byLinks.empty())
    {
        return;
    }
    std::cout << title
              << (core ? " [ms] by the relay path's hops (each through the core):"
                       : " [ms] by the relay path's links:");
    const char* one = core ? " hop " : " link ";
    const char* many = core ? " hops " : " links ";
    for (const auto& [links, samples] : byLinks)
    {
        std::cout << " " << links << (links == 1 ? one : many) << std::fixed << std::setprecision(1)
                  << (median ? Pct(samples, 50) : Mean(samples)) * 1e3 << " ("
                  << Pct(samples, 99) * 1e3 << ", n " << samples.size() << ")";
    }
    std::cout << "\n";
}

/// \return s in ms rounded to 0.1 ms, without a sign on a zero (a rounding error's "-0.0")
double
Ms(double s)
{
    return std::round(s * 1e4) / 10 + 0.0;
}

} // namespace

int
main(int argc, char* argv[])
{
    Flags f;
    HandoverSchemeFlag scheme({"pallas", "pallas-full-copy", "pallas-recompute", "ctho", "detour"},
                              "all");
    ControlPlaneFlags controlPlane;
    CommandLine cmd(__FILE__);
    controlPlane.AddTo(cmd);
    cmd.AddValue("study",
                 "sweep (one handover, each link rate), concurrency (K handovers to one "
                 "target, with resident users, under each engine iteration mode) or grid "
                 "(repeated handovers of UEs on random routes over 8 x 8 cells)",
                 f.study);
    cmd.AddValue("linkRates",
                 "inter-cell link rates, Mb/s (300) or with a unit (300Mbps, 1Gbps), a "
                 "comma-separated list (concurrency and grid: "
                 "300 unless given; grid: the mean of each link's draw)",
                 f.linkRates);
    cmd.AddValue("linkDelay",
                 "one-way delay of each inter-cell link, ms, [0, 1000]: the transport "
                 "network's per hop, crossed by every KV transfer and by each hop of Detour's "
                 "relay (5: the low end of fibre access's 5 to 10 ms, 3GPP TR 36.932)",
                 f.linkDelayMs);
    cmd.AddValue("backhaul",
                 "where inter-cell traffic goes: x2 (a link per neighbour pair: the X2 path "
                 "through the transport network) or core (each cell's access link up to an "
                 "aggregation router, a core link to the core router, the other cell's access "
                 "link down: every KV transfer and relay hop crosses both cells' links, each "
                 "--linkDelay and --linkRates, and the core link, which they all share)",
                 f.backhaul);
    cmd.AddValue("coreDelay",
                 "--backhaul=core: the core link's one-way delay, ms, [0, 1000] (0.02: the "
                 "aggregation and core routers on one site)",
                 f.coreDelayMs);
    cmd.AddValue("coreRate",
                 "--backhaul=core: the core link's rate, Mb/s, [1, 1000000]",
                 f.coreRateMbps);
    cmd.AddValue("ues", "grid: UEs on random routes, [1, 16]", f.ues);
    cmd.AddValue("speedSpread",
                 "grid: each route's speed is 20 m/s x (1 + u), u uniform in [-speedSpread, "
                 "speedSpread], [0, 0.9]; 0 (with departureSpread 0): the UEs in step",
                 f.speedSpread);
    cmd.AddValue("departureSpread",
                 "grid: each UE leaves its first cell up to this many legs after the start (a "
                 "leg: 100 m at its route's speed), [0, 100]; 0: all at once",
                 f.departureSpread);
    cmd.AddValue("windowMargin",
                 "Pallas's WindowMargin, ms, [0, 60000]: lead for a predictor whose times are "
                 "late (the trajectory predictor's are, against a planned crossing)",
                 f.windowMarginMs);
    cmd.AddValue("windowLimit",
                 "Pallas's WindowLimit, ms, [0, 60000]: the longest prefetch window; by "
                 "default 5000, the predictor's horizon, so that it does not cut the window "
                 "model's choice (sending the whole context ahead, --ablation=no-recompute, "
                 "needs its bytes' time on the link)",
                 f.windowLimitMs);
    cmd.AddValue("ks", "concurrency: handovers to one target, a list of integers in [1, 8]", f.ks);
    cmd.AddValue("residents",
                 "concurrency: resident decoding users per cell, a list of integers in [0, 16]",
                 f.residents);
    cmd.AddValue("modes",
                 "the target engines' LlmEngine IterationMode, a list of Separate and/or Mixed "
                 "(Mixed: prefill chunks share iterations with decoding and with each other)",
                 f.modes);
    cmd.AddValue("runs", "RngRuns per point, [1, 100]", f.runs);
    cmd.AddValue("promptMin", "shortest prompt drawn, tokens", f.promptMin);
    cmd.AddValue("promptMax", "longest prompt drawn, tokens", f.promptMax);
    cmd.AddValue("model", "llama-3-8b, qwen3-14b or qwen3-32b (AWQ), on an RTX A6000", f.model);
    cmd.AddValue("predictor",
                 "trajectory (constant velocity and heading, from noisy positions) or oracle "
                 "(told each draw's handovers: the planned ones, or those A3 made in a run "
                 "before; with trajectory it is the bound row, pallas (oracle bound))",
                 f.predictor);
    cmd.AddValue("trigger",
                 "a3 (the RAN's A3 rule, from measurements) or planned (each handover "
                 "requested at its crossing)",
                 f.trigger);
    cmd.AddValue("predictorLag",
                 "the trajectory predictor's Lag, ms, [-10000, 10000]: added to each "
                 "predicted time; given, it is not trained (--calibrationRuns)",
                 f.predictorLagMs);
    cmd.AddValue("calibrationRuns",
                 "RngRuns the trajectory predictor's Lag is trained on before each study, "
                 "[0, 100], from RngRun + 1000 (never the study's own); 0: --predictorLag",
                 f.calibrationRuns);
    cmd.AddValue("positionNoise",
                 "the trajectory predictor's position error, m, [0, 1000]: N(0, s^2) on x and "
                 "y, per prediction (4.9: a smartphone's GPS under open sky)",
                 f.positionNoiseM);
    cmd.AddValue("speedNoise",
                 "the trajectory predictor's speed error, m/s, [0, 100]",
                 f.speedNoiseMps);
    cmd.AddValue("headingNoise",
                 "the trajectory predictor's heading error, degrees, [0, 180]",
                 f.headingNoiseDeg);
    cmd.AddValue("streamStep",
                 "tokens Pallas streams at a time as the source makes them, [1, 16]: 16 (a "
                 "block) leaves the last partial block for the handover, 1 none",
                 f.streamStep);
    cmd.AddValue("tokensAfter", "tokens each session generates after its handover", f.tokensAfter);
    cmd.AddValue("ran", "the radio access network: lte, or nr (with 5G-LENA)", f.ran);
    cmd.AddValue("ablation",
                 "Pallas's ablations, run after pallas as schemes of their own: none, "
                 "no-recompute (pallas-no-recompute: the whole context streamed, nothing "
                 "prefilled at the target), no-streaming (pallas-no-streaming: the suffix sent "
                 "only at the handover) or both",
                 f.ablation);
    std::string outDir;
    bool quiet = false;
    cmd.AddValue("outDir",
                 "write handovers.csv and sessions.csv (with .json sidecars) there, one "
                 "subdirectory per link rate",
                 outDir);
    scheme.AddTo(cmd);
    cmd.AddValue("quiet", "no progress on stderr during the runs", quiet);
    // Every argument is checked as typed before CommandLine reads it: CommandLine would print
    // its whole help without the flag's range, wrap "-3" around in an unsigned flag, or keep
    // the last of a flag given twice.
    if (const std::string bad = edgellm::CheckArguments(
            cmd,
            {{"runs", true, "an integer in [1, 100]", 1, 100},
             {"promptMin", true, "an integer in [16, 32768]", 16, 32768},
             {"promptMax", true, "an integer in [--promptMin, 32768]", 0, 32768},
             {"tokensAfter", true, "an integer in [1, 100000]", 1, 100000},
             {"ues", true, "an integer in [1, 16]", 1, 16},
             {"speedSpread", false, "[0, 0.9]", 0, 0.9},
             {"departureSpread", false, "[0, 100] legs", 0, 100},
             {"linkDelay", false, "[0, 1000] ms", 0, 1000},
             {"coreDelay", false, "[0, 1000] ms", 0, 1000},
             {"coreRate", false, "[1, 1000000] Mb/s", 1, 1e6},
             {"windowMargin", false, "[0, 60000] ms", 0, 60000},
             {"windowLimit", false, "[0, 60000] ms", 0, 60000},
             {"predictorLag", false, "[-10000, 10000] ms", -10000, 10000},
             {"calibrationRuns", true, "an integer in [0, 100]", 0, 100},
             {"positionNoise", false, "[0, 1000] m", 0, 1000},
             {"speedNoise", false, "[0, 100] m/s", 0, 100},
             {"headingNoise", false, "[0, 180] degrees", 0, 180},
             {"streamStep", true, "an integer in [1, 16]", 1, 16}},
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
    if (f.study != "sweep" && !edgellm::IsFlagGiven("linkRates", argc, argv))
    {
        f.linkRates = "300";
    }
    std::vector<double> rates;
    std::vector<uint32_t> ks;
    std::vector<uint32_t> residentCounts;
    std::vector<std::string> modes;
    std::string error = Check(f, rates, ks, residentCounts, modes);
    if (error.empty())
    {
        error = controlPlane.Apply(argc, argv);
    }
    // A lag given is used as given; else it is trained (a trajectory predictor only).
    const bool lagGiven = edgellm::IsFlagGiven("predictorLag", argc, argv);
    if (error.empty() && lagGiven && f.calibrationRuns > 0 &&
        edgellm::IsFlagGiven("calibrationRuns", argc, argv))
    {
        error = "--calibrationRuns = " + std::to_string(f.calibrationRuns) +
                " is invalid with --predictorLag; allowed: 0 (the lag given is used)";
    }
    for (const char* core : {"coreDelay", "coreRate"})
    {
        if (error.empty() && f.backhaul != "core" && edgellm::IsFlagGiven(core, argc, argv))
        {
            error = std::string("--") + core + " is invalid with --backhaul = " + f.backhaul +
                    "; allowed: only with --backhaul=core (the x2 links have no core link)";
        }
    }
    if (error.empty())
    {
        // The flags set these attributes on the objects they make, over any default given.
        error = edgellm::CheckFlagAttributes(
            {{"predictorLag", "ns3::HandoverPredictor::Lag"},
             {"linkDelay", "ns3::BackhaulHelper::Delay"},
             {"linkDelay", "ns3::StarBackhaulTopology::AccessDelay"},
             {"coreDelay", "ns3::StarBackhaulTopology::SharedDelay"},
             {"coreRate", "ns3::StarBackhaulTopology::SharedRate"},
             {"positionNoise", "ns3::TrajectoryHandoverPredictor::PositionNoise"},
             {"speedNoise", "ns3::TrajectoryHandoverPredictor::SpeedNoise"},
             {"headingNoise", "ns3::TrajectoryHandoverPredictor::HeadingNoise"},
             {"windowMargin", "ns3::PallasScheduler::WindowMargin"},
             {"windowLimit", "ns3::PallasScheduler::WindowLimit"},
             {"streamStep", "ns3::HandoverCoordinator::OpenTransferStep"}},
            argc,
            argv);
    }
    const uint32_t calibrationRuns =
        lagGiven || f.predictor != "trajectory" ? 0 : f.calibrationRuns;
    if (error.empty() && f.ablation != "none")
    {
        // After pallas (or last), each ablation not already asked for by --scheme.
        auto at = std::find(schemes.begin(), schemes.end(), "pallas");
        at = at == schemes.end() ? schemes.end() : at + 1;
        for (const std::string name : {"no-recompute", "no-streaming"})
        {
            const std::string added = "pallas-" + name;
            if ((f.ablation == name || f.ablation == "both") &&
                std::find(schemes.begin(), schemes.end(), added) == schemes.end())
            {
                at = schemes.insert(at, added) + 1;
            }
        }
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

    const Model& model = MODELS.at(f.model);
    bool ok = true;
    std::cout << "Pallas, "
              << (f.study == "sweep"         ? "one handover"
                  : f.study == "concurrency" ? "K handovers to one target"
                                             : "repeated handovers on a grid")
              << ": " << f.model << " (" << model.compute << "), prompts " << f.promptMin << " to "
              << f.promptMax << " tokens, " << f.runs << " RngRun(s) from "
              << RngSeedManager::GetRun() << ", " << f.trigger << " handovers, predictor "
              << f.predictor;
    if (f.predictor == "trajectory")
    {
        std::cout << " (position noise " << edgellm::FormatValue(f.positionNoiseM) << " m";
        if (f.speedNoiseMps > 0 || f.headingNoiseDeg > 0)
        {
            std::cout << ", speed " << edgellm::FormatValue(f.speedNoiseMps) << " m/s, heading "
                      << edgellm::FormatValue(f.headingNoiseDeg) << " deg";
        }
        std::cout << "; lag "
                  << (calibrationRuns > 0
                          ? "trained on " + std::to_string(calibrationRuns) + " RngRuns from " +
                                std::to_string(RngSeedManager::GetRun() + 1000)
                          : edgellm::FormatValue(f.predictorLagMs) + " ms")
                  << ")";
    }
    else
    {
        std::cout << (f.trigger == "a3" ? " (told the handovers A3 made in a run of each draw "
                                          "before)"
                                        : " (told the planned handovers)");
    }
    if (f.backhaul == "core")
    {
        std::cout << ", inter-cell paths through the core (access links "
                  << edgellm::FormatValue(f.linkDelayMs) << " ms one way, the core link "
                  << edgellm::FormatValue(f.coreDelayMs) << " ms at "
                  << edgellm::FormatValue(f.coreRateMbps) << " Mb/s)";
    }
    else
    {
        std::cout << ", inter-cell links " << edgellm::FormatValue(f.linkDelayMs) << " ms one way";
    }
    std::cout << ", over " << (f.ran == "nr" ? "NR" : "LTE") << ", " << f.modes << " iterations"
              << controlPlane.HeaderSuffix() << "\n";
    // Pallas told each draw's handovers: the bound of a predictor that is not the oracle.
    const std::string bound = "pallas (oracle bound)";
    const bool withBound = f.predictor == "trajectory" &&
                           std::find(schemes.begin(), schemes.end(), "pallas") != schemes.end();
    if (withBound)
    {
        std::cout << "pallas (oracle bound): pallas with the oracle, told the handovers of each "
                     "draw as the RAN "
                  << (f.trigger == "a3" ? "made them in the first scheme's run" : "planned them")
                  << ": the bound\n";
    }

    // The points of the study: (label, subdirectory, configuration).
    struct Spec
    {
        std::string label;
        std::string dir;
        PallasLineConfig config;
        double rate;
    };

    std::vector<Spec> specs;
    // One point per iteration mode; the mode names the point only when there are several.
    auto addModes = [&specs, &modes](const std::string& label,
                                     const std::string& dir,
                                     PallasLineConfig c,
                                     double rate) {
        for (const std::string& mode : modes)
        {
            c.iterationMode = mode;
            const bool named = modes.size() > 1;
            specs.push_back(
                {named ? label + ", " + mode : label, named ? dir + "-" + mode : dir, c, rate});
        }
    };
    for (double rate : rates)
    {
        PallasLineConfig c;
        c.linkRate = DataRate(static_cast<uint64_t>(rate * 1e6));
        c.linkDelay = MicroSeconds(std::llround(f.linkDelayMs * 1e3));
        c.backhaul = f.backhaul;
        c.coreDelay = MicroSeconds(std::llround(f.coreDelayMs * 1e3));
        c.coreRate = DataRate(static_cast<uint64_t>(std::llround(f.coreRateMbps * 1e6)));
        c.computePreset = model.compute;
        c.kvProfile = model.kv;
        c.promptTokens = f.promptMin;
        c.promptMaxTokens = f.promptMax > f.promptMin ? f.promptMax : 0;
        c.tokensAfter = f.tokensAfter;
        c.predictor = f.predictor;
        c.trigger = f.trigger;
        c.predictorLag = MilliSeconds(f.predictorLagMs);
        c.positionNoiseM = f.positionNoiseM;
        c.speedNoiseMps = f.speedNoiseMps;
        c.headingNoiseDeg = f.headingNoiseDeg;
        c.streamStepTokens = f.streamStep;
        c.ran = f.ran;
        c.windowMargin = MilliSeconds(f.windowMarginMs);
        c.windowLimit = MilliSeconds(f.windowLimitMs);
        c.showProgress = !quiet;
        // Full-Copy of the longest prompt at this rate, with room to decode after it.
        const double fullCopyS = 8.0 * f.promptMax *
                                 KvCacheProfile::FromPreset(model.kv).GetBytesPerToken() /
                                 (rate * 1e6);
        std::ostringstream r;
        r << rate;
        if (f.study == "grid")
        {
            // Pallas's repeated-handover study: 8 x 8 cells of 100 m, UEs on random routes at
            // 20 m/s (a handover every 5 s), each link's rate drawn from N(rate, 50^2) Mb/s
            // truncated at 150.
            c.gridSide = 8;
            c.spacingM = 100;
            c.ues = f.ues;
            c.routeSpeedSpread = f.speedSpread;
            c.routeDepartureSpread = f.departureSpread;
            c.gridRoute = Seconds(15);
            c.linkRateStdMbps = 50;
            c.linkRateMinMbps = 150;
            const double slowest = std::min(rate, 150.0);
            c.maxSimTime =
                Seconds(c.gridRoute.GetSeconds() + 30 + 3 * fullCopyS * rate / slowest * f.ues);
            std::ostringstream routes;
            if (f.speedSpread > 0 || f.departureSpread > 0)
            {
                routes << "routes staggered (speeds within " << f.speedSpread * 100
                       << " %, departures within " << f.departureSpread << " leg(s))";
            }
            else
            {
                routes << "routes in step";
            }
            addModes("grid 8x8, links N(" + r.str() + ", 50^2) Mb/s >= 150, " +
                         std::to_string(f.ues) + " UEs, " + routes.str(),
                     "grid-" + r.str() + "Mbps",
                     c,
                     rate);
            continue;
        }
        if (f.study == "sweep")
        {
            c.maxSimTime = Seconds(c.crossing.GetSeconds() + 2 * fullCopyS + 30);
            addModes("link " + r.str() + " Mb/s", "link-" + r.str() + "Mbps", c, rate);
            continue;
        }
        for (const std::string& mode : modes)
        {
            for (uint32_t residents : residentCounts)
            {
                for (uint32_t k : ks)
                {
                    PallasLineConfig kc = c;
                    kc.iterationMode = mode;
                    kc.residentsPerCell = residents;
                    kc.ues = k;
                    // Every session decodes before its crossing: the source prefills the K
                    // prompts and its residents' one after another. The cells stand far
                    // enough apart for the drive.
                    const double prefills =
                        (k + residents) *
                        LlmComputeModel::FromPreset(model.compute).PrefillTime(f.promptMax);
                    kc.crossing = Seconds(std::max(3.0, 1.0 + 1.3 * prefills));
                    kc.spacingM = std::max(200.0, 2 * kc.speedMps * kc.crossing.GetSeconds() + 20);
                    kc.maxSimTime =
                        Seconds(c.crossing.GetSeconds() + 2 * k * fullCopyS + 30 * (1 + residents));
                    std::ostringstream label;
                    label << "link " << r.str() << " Mb/s, " << mode << ", " << residents
                          << " resident(s) per cell, K = " << k;
                    std::ostringstream dir;
                    dir << "link-" << r.str() << "Mbps-" << mode << "-residents" << residents
                        << "-k" << k;
                    specs.push_back({label.str(), dir.str(), kc, rate});
                }
            }
        }
    }
    // The runs start at the command line's RngRun, so that campaign tools (SEM, the edgellm
    // sweeps) that give each process its own RngRun get distinct draws.
    const uint64_t firstRun = RngSeedManager::GetRun();
    // The trained lag by the geometry it was trained on (residents and modes do not move it).
    std::map<std::string, PallasLagCalibration> lags;
    for (Spec& spec : specs)
    {
        if (calibrationRuns > 0)
        {
            std::ostringstream key;
            key << spec.config.spacingM << "/" << spec.config.crossing.GetNanoSeconds() << "/"
                << spec.config.ues << "/" << spec.config.gridSide;
            if (lags.count(key.str()) == 0)
            {
                PallasLineConfig trained = spec.config;
                trained.residentsPerCell = 0;
                lags[key.str()] = PallasLineExperiment(trained).CalibrateLag(firstRun + 1000,
                                                                             calibrationRuns,
                                                                             "pallas-recompute");
                RngSeedManager::SetRun(firstRun);
            }
            const PallasLagCalibration& lag = lags.at(key.str());
            spec.config.predictorLag = lag.lag;
            std::cout << std::defaultfloat << "\n"
                      << spec.label << ": predictor lag "
                      << Ms(static_cast<double>(lag.lag.GetNanoSeconds()) * 1e-9)
                      << " ms, trained on RngRuns " << firstRun + 1000 << " to "
                      << firstRun + 1000 + calibrationRuns - 1 << " in " << lag.rounds
                      << " round(s): median time error then " << Ms(lag.residualS) << " ms over "
                      << lag.handovers << " handovers";
            if (!lag.converged)
            {
                std::cout << " (not within 1 ms: the training stopped there)";
                std::cerr << "note: the predictor's lag for " << spec.label
                          << " did not converge; its median time error on the training runs is "
                          << Ms(lag.residualS) << " ms\n";
            }
            std::cout << "\n";
        }
    }
    for (const Spec& spec : specs)
    {
        const PallasLineExperiment experiment(spec.config);
        PallasLineConfig oracleConfig = spec.config;
        oracleConfig.predictor = "oracle";
        oracleConfig.predictorLag = Seconds(0);
        const PallasLineExperiment oracle(oracleConfig);
        std::vector<double> boundErrors; // the bound's predicted - real, s
        std::map<std::string, Point> points;
        std::vector<std::string> runSchemes = schemes; // with the bound after pallas
        if (withBound)
        {
            runSchemes.insert(std::find(runSchemes.begin(), runSchemes.end(), "pallas") + 1, bound);
        }
        std::vector<EdgeLlmRunResults> results;
        uint64_t scored = 0;
        uint64_t predicted = 0;
        double correct = 0;
        std::vector<double> timeErrors;
        std::vector<double> signedErrors; // predicted - real, s, every handover of every run
        std::vector<PallasKnownHandover> lastHandovers; // the RAN's, in this draw's first run
        for (uint64_t r = firstRun; r < firstRun + f.runs; ++r)
        {
            RngSeedManager::SetRun(r);
            PallasLineInputs inputs = experiment.Draw();
            if (f.predictor == "oracle" && f.trigger == "a3")
            {
                // The oracle is told the handovers A3 makes on this draw, from a run of its own.
                PallasLineConfig pilot = spec.config;
                pilot.predictor = "none";
                inputs.knownHandovers =
                    PallasLineExperiment(pilot).Run("pallas-recompute", inputs).handovers;
            }
            for (const std::string& s : runSchemes)
            {
                const bool isBound = s == bound;
                if (isBound)
                {
                    inputs.knownHandovers = lastHandovers;
                }
                const PallasLineRun run =
                    isBound ? oracle.Run("pallas", inputs) : experiment.Run(s, inputs);
                if (s == runSchemes.front())
                {
                    lastHandovers = run.handovers;
                }
                if (isBound)
                {
                    boundErrors.insert(boundErrors.end(),
                                       run.timeErrorsS.begin(),
                                       run.timeErrorsS.end());
                }
                Point& p = points[s];
                bool measured = true;
                std::vector<double> runSits;
                for (double sit : f.study == "grid" ? run.allSitsS : run.sitsS)
                {
                    if (!std::isnan(sit))
                    {
                        p.sit.push_back(sit);
                        runSits.push_back(sit);
                    }
                    measured = measured && (f.study == "grid" || !std::isnan(sit));
                }
                if (!runSits.empty())
                {
                    p.runMeanSit.push_back(Mean(runSits));
                }
                p.itl.insert(p.itl.end(), run.itlS.begin(), run.itlS.end());
                p.prefillMeasured += run.prefillMeasured;
                p.prefillModelled += run.prefillModelled;
                p.loadForecast += run.loadForecast;
                p.backhaulMeasured += run.backhaulMeasured;
                p.backhaulPlanned += run.backhaulPlanned;
                p.loadReported += run.loadReported;
                p.loadsSent += run.loadsSent;
                for (const HandoverRecord& h : run.records)
                {
                    p.wastedBytes += static_cast<double>(h.wastedBytes);
                    p.wastedGpuS += h.wastedGpuSeconds;
                    if (h.outcome == HandoverRecord::MIGRATED && !h.preparedAt.IsStrictlyNegative())
                    {
                        // Negative when the prepare came back after the handover started.
                        p.early.push_back(
                            static_cast<double>((h.hoStart - h.preparedAt).GetNanoSeconds()) *
                            1e-9);
                    }
                }
                for (const EdgeLlmHandoverRow& row : run.results.handovers)
                {
                    if (row.record.outcome == HandoverRecord::RELAYED && !std::isnan(row.sitS))
                    {
                        p.relayedSitByHops[row.record.relayHops].push_back(row.sitS);
                    }
                }
                for (const auto& [hops, latencies] : run.relayedLatencyByHopsS)
                {
                    std::vector<double>& to = p.latencyByHops[hops];
                    to.insert(to.end(), latencies.begin(), latencies.end());
                }
                results.push_back(run.results);
                if (isBound)
                {
                    // A name of its own in the CSVs, beside pallas's rows.
                    results.back().scheme = "pallas-oracle-bound";
                }
                const bool balanced = KvLedgerBalances(run.kvSent, run.kvReceived);
                if (!run.exactlyOnce || !balanced || !measured)
                {
                    std::cerr << s << ", " << spec.label << ", RngRun " << r << ": "
                              << run.tokensDelivered << " of " << run.tokensExpected << " tokens, "
                              << run.tokensRepeated << " repeated, ledger "
                              << (balanced ? "balanced" : "unbalanced")
                              << (measured ? "" : ", a SIT not measured") << "\n";
                    ok = false;
                }
                if (s == schemes.front())
                {
                    scored += run.handoversScored;
                    predicted += run.handoversPredicted;
                    correct += run.targetAccuracy * static_cast<double>(run.handoversScored);
                    if (!std::isnan(run.absTimeErrorP50S))
                    {
                        timeErrors.push_back(run.absTimeErrorP50S);
                    }
                    signedErrors.insert(signedErrors.end(),
                                        run.timeErrorsS.begin(),
                                        run.timeErrorsS.end());
                }
            }
        }
        RngSeedManager::SetRun(firstRun); // the sidecar names the first run, as --RngRun did
        std::cout << std::defaultfloat << "\n"
                  << spec.label << "\n"
                  << "scheme                 SIT mean[ms]  SIT P99[ms]  ITL mean[ms]  ITL P90[ms]"
                     "  ITL P99[ms]  ITL>100ms  T_early[ms]  wasted[MB]  wasted GPU[s]\n";
        for (const std::string& s : runSchemes)
        {
            const Point& p = points[s];
            uint32_t over = 0;
            for (double x : p.itl)
            {
                over += x > 0.1 ? 1 : 0;
            }
            std::cout << std::left << std::setw(22) << s << std::right << std::fixed
                      << std::setprecision(1) << std::setw(13) << Mean(p.sit) * 1e3 << std::setw(13)
                      << Pct(p.sit, 99) * 1e3 << std::setw(14) << Mean(p.itl) * 1e3 << std::setw(13)
                      << Pct(p.itl, 90) * 1e3 << std::setw(13) << Pct(p.itl, 99) * 1e3
                      << std::setw(10) << std::setprecision(4)
                      << (p.itl.empty() ? 0.0 : double(over) / double(p.itl.size()))
                      << std::setprecision(1) << std::setw(13)
                      << (p.early.empty() ? 0.0 : Mean(p.early) * 1e3) << std::setw(12)
                      << p.wastedBytes / 1e6 << std::setprecision(3) << std::setw(15)
                      << p.wastedGpuS << "\n";
            for (double v :
                 {Mean(p.sit), Pct(p.sit, 99), Mean(p.itl), Pct(p.itl, 90), Pct(p.itl, 99)})
            {
                if (!std::isfinite(v))
                {
                    // An empty sample prints as nan: nothing of it was measured.
                    std::cerr << "verdict: " << s << " at " << spec.label
                              << ": a value of its row is not finite (no SIT or ITL of it "
                                 "was measured)\n";
                    ok = false;
                    break;
                }
            }
        }
        for (const std::string& s : runSchemes)
        {
            // A relay chain grows a link per handover; each link delays every token after it.
            const Point& p = points[s];
            const bool core = f.backhaul == "core";
            PrintByLinks(s + "'s relayed handovers, SIT mean (P99)",
                         p.relayedSitByHops,
                         false,
                         core);
            PrintByLinks(s + "'s token latency (delivery - generation), P50 (P99)",
                         p.latencyByHops,
                         true,
                         core);
        }
        // The RngRuns are independent draws: the interval is of the mean of their means.
        std::cout << "SIT, mean of the RngRuns' means +- the 95 % interval (Student's t) [ms]:";
        for (const std::string& s : runSchemes)
        {
            const std::vector<double>& m = points[s].runMeanSit;
            if (m.empty())
            {
                std::cout << " " << s << " (no SIT measured)";
                continue;
            }
            std::cout << " " << s << " " << std::fixed << std::setprecision(1) << Mean(m) * 1e3;
            if (m.size() >= 2)
            {
                std::cout << " +- " << HalfWidth95(m) * 1e3;
            }
            else
            {
                std::cout << " (1 RngRun: no interval)";
            }
        }
        std::cout << "\n";
        if (points.count("pallas") > 0)
        {
            std::cout << "SIT reduction of pallas (mean SIT of the scheme / pallas's):";
            for (const std::string& s : runSchemes)
            {
                if (s != "pallas")
                {
                    std::cout << " " << s << " " << std::setprecision(2)
                              << Mean(points[s].sit) / Mean(points["pallas"].sit) << "x";
                }
            }
            std::cout << "\n";
        }
        std::cout << "predictor (" << f.predictor << "): " << predicted << " of " << scored
                  << " handovers predicted, target accuracy " << std::setprecision(3)
                  << (scored == 0 ? 0.0 : correct / double(scored))
                  << ", median |time error| (mean over runs) ";
        if (timeErrors.empty())
        {
            std::cout << "- (no time predicted)\n";
        }
        else
        {
            std::cout << std::setprecision(1) << Mean(timeErrors) * 1e3
                      << " ms; predicted - real, P5 / P50 / P95 over the handovers: "
                      << Ms(Pct(signedErrors, 5)) << " / " << Ms(Pct(signedErrors, 50)) << " / "
                      << Ms(Pct(signedErrors, 95)) << " ms\n";
        }
        if (points.count("pallas") > 0)
        {
            const Point& p = points["pallas"];
            std::cout << "pallas's window telemetry: prefill rate observed at the target in "
                      << p.prefillMeasured << " of " << p.prefillMeasured + p.prefillModelled
                      << " samples (the rest from its compute model); the target's queue ";
            if (p.loadsSent > 0)
            {
                std::cout << "from its LOAD reports in " << p.loadReported << " (" << p.loadsSent
                          << " sent; the rest before the first: idle)";
            }
            else
            {
                std::cout << "from its engine (its replay of its Mixed iterations in "
                          << p.loadForecast << ")";
            }
            std::cout << "; the link's goodput measured by the target's "
                         "receiver in "
                      << p.backhaulMeasured << " of " << p.backhaulMeasured + p.backhaulPlanned
                      << " (the rest the rate the coordinator plans)\n";
        }
        if (withBound)
        {
            // The bound is told the handovers of the draw; a time error here would mean the
            // RAN did not repeat them in the bound's run.
            std::cout << "oracle bound (told each draw's handovers): predicted - real over its "
                      << boundErrors.size()
                      << " handover(s), P5 / P50 / P95: " << Ms(Pct(boundErrors, 5)) << " / "
                      << Ms(Pct(boundErrors, 50)) << " / " << Ms(Pct(boundErrors, 95)) << " ms\n";
        }
        if (!outDir.empty())
        {
            const std::string dir = outDir + "/" + spec.dir;
            std::error_code e;
            std::filesystem::create_directories(dir, e);
            EdgeLlmRunMetadata meta;
            meta.program = "edge-llm-pallas";
            meta.arguments.assign(argv, argv + argc);
            std::ostringstream r;
            r << spec.rate;
            meta.parameters = {{"study", f.study},
                               {"linkRateMbps", r.str()},
                               {"ues", std::to_string(spec.config.ues)},
                               {"residentsPerCell", std::to_string(spec.config.residentsPerCell)},
                               {"iterationMode", spec.config.iterationMode},
                               {"runs", std::to_string(f.runs)},
                               {"promptMin", std::to_string(f.promptMin)},
                               {"promptMax", std::to_string(f.promptMax)},
                               {"model", f.model},
                               {"predictor", f.predictor},
                               {"trigger", f.trigger},
                               {"streamStep", std::to_string(f.streamStep)},
                               {"predictorLagMs", std::to_string(f.predictorLagMs)},
                               {"windowMarginMs", std::to_string(f.windowMarginMs)},
                               {"windowLimitMs", std::to_string(f.windowLimitMs)},
                               {"ablation", f.ablation},
                               {"tokensAfter", std::to_string(f.tokensAfter)},
                               {"scheme", scheme.GetValue()},
                               {"outDir", outDir}};
            if (!WriteRunResults(dir, results, meta))
            {
                std::cerr << edgellm::FlagError("outDir",
                                                outDir,
                                                "a directory that can be made and written")
                          << " (cannot write the results to " << dir << ")\n";
                return 1;
            }
            std::cout << "CSV: " << dir << "/handovers.csv, " << dir
                      << "/sessions.csv (each with .json)\n";
        }
    }
    if (!ok)
    {
        std::cerr << "verdict: a session missed or repeated a token, a KV ledger does not "
                     "balance, or a handover's SIT was not measured (the lines above say which)\n";
        return 1;
    }
    std::cout << "\nverdict: every session got every token once; every KV ledger balances\n";
    return 0;
}
