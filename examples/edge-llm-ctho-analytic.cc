/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Analytic tHO / cHO / ctHO comparison on the ctHO paper's scenario (Lee, Park, Zheng, Park,
// arXiv 2603.28018): two base stations 300 m apart, K UEs moving at 20 m/s from U[120, 130] m
// and handing over at the 150 m crossing, contexts C_i ~ U[1024, C_max], Qwen2.5-7B-Instruct
// at 16 bits, p(L) = 9.4267e-5 L + 2.4e-3 s, prefill cycle 10 ms.
//
// The inputs are drawn with ns-3's random streams, the same for every scheme and every sweep
// point: a point with K UEs has the first K UEs of the base draw, and a larger C_max stretches
// the same draw. The sweeps are the paper's: the backhaul rate, K, C_max and the prefill rate
// 1/a. With --sweep=none, one point is evaluated and ctHO's per-UE plan is printed.
//
//   ./edge-llm-ctho-analytic                              # sweep the backhaul rate
//   ./edge-llm-ctho-analytic --sweep=ues --rbhGbps=4.5    # sweep K at 4.5 Gb/s
//   ./edge-llm-ctho-analytic --sweep=none --ues=8         # one point, with the plan
//   ./edge-llm-ctho-analytic --sweep=cMax --values=2048,8192,32768 --csv=cmax.csv
//   ./edge-llm-ctho-analytic --ns3::KvCacheModel::BitsPerElement=4 --compute=llama-7b-llumnix

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("EdgeLlmCtHoAnalytic");

namespace
{

/// The scenario of one sweep point.
struct Point
{
    uint32_t ues;            //!< K
    uint64_t cMax;           //!< largest context drawn
    double rbhGbps;          //!< backhaul rate, Gb/s
    double prefillPerTokenS; //!< a, s/token (used when the curve is linear)
};

/// What the example knows of each sweep.
struct Sweep
{
    const char* heading;       //!< column heading
    const char* defaultValues; //!< the paper's points
    double largest;            //!< largest value allowed
    bool whole;                //!< values must be whole numbers
    const char* allowed;       //!< the allowed values, in words
};

const std::map<std::string, Sweep> SWEEPS{
    {"rbh", {"R_bh[Gb/s]", "1,2,3,4.5,6,8,10,15,20", 1e6, false, "rates in (0, 1e6] Gb/s"}},
    {"ues", {"K", "1,2,4,6,8,10,12", 100000, true, "whole numbers in [1, 100000]"}},
    {"cMax",
     {"C_max",
      "1024,2048,3072,4096,6144,8192",
      4294967295.0,
      true,
      "whole numbers in [1, 4294967295]"}},
    {"prefillRate",
     {"1/a[tok/s]", "2500,5000,10608,20000,40000", 1e12, false, "rates in (0, 1e12] tokens/s"}},
    {"none", {"point", "", 0, false, ""}},
};

/**
 * \param text --values
 * \param [out] values the points read
 * \return an empty string, or the flag's error
 */
std::string
ParseValues(const std::string& text, std::vector<double>& values)
{
    // A trailing comma would be dropped by getline; refuse it with the other empty items.
    std::istringstream in(text + (text.empty() || text.back() == ',' ? "," : ""));
    std::string item;
    while (std::getline(in, item, ','))
    {
        double v = 0;
        if (!edgellm::ParseFiniteNumber(item, v) || !(v > 0))
        {
            return "--values = " + text + " is invalid (\"" + item +
                   "\"); allowed: numbers > 0, separated by commas";
        }
        values.push_back(v);
    }
    return "";
}

/// \return an empty string, or the error of sweep value v
std::string
CheckPoint(const std::string& sweep, double v)
{
    // Ranges are checked before a value is cast to an integer type.
    const Sweep& limit = SWEEPS.at(sweep);
    if (sweep != "none" && (v > limit.largest || (limit.whole && (v != std::floor(v) || v < 1))))
    {
        return "--values = " + edgellm::FormatValue(v) + " is invalid for --sweep=" + sweep +
               "; allowed: " + limit.allowed;
    }
    return "";
}

/// Apply sweep value v, already checked, to the base point.
Point
PointOf(const std::string& sweep, double v, Point p)
{
    if (sweep == "rbh")
    {
        p.rbhGbps = v;
    }
    else if (sweep == "ues")
    {
        p.ues = static_cast<uint32_t>(v);
    }
    else if (sweep == "cMax")
    {
        p.cMax = static_cast<uint64_t>(v);
    }
    else if (sweep == "prefillRate")
    {
        p.prefillPerTokenS = 1.0 / v;
    }
    return p;
}

std::vector<CtHoPaperUe>
Draw(const Point& p, uint64_t cMin, double bsDistance)
{
    Ptr<CtHoPaperScenario> scenario = CreateObject<CtHoPaperScenario>();
    scenario->SetAttribute("UeCount", UintegerValue(p.ues));
    scenario->SetAttribute("MinContext", UintegerValue(cMin));
    scenario->SetAttribute("MaxContext", UintegerValue(p.cMax));
    scenario->SetAttribute("BsDistance", DoubleValue(bsDistance));
    scenario->AssignStreams(0); // the same streams at every point
    return scenario->Draw();
}

void
PrintDraw(const std::vector<CtHoPaperUe>& draw)
{
    std::cout << "  ue   x0[m]   tau[ms]  C[tokens]\n";
    for (std::size_t i = 0; i < draw.size(); ++i)
    {
        std::cout << "  " << std::setw(2) << i << std::setw(8) << draw[i].startX << std::setw(10)
                  << draw[i].handoverTime * 1e3 << std::setw(11) << draw[i].contextTokens << "\n";
    }
}

void
PrintPlan(const CtHoPlan& plan, const std::vector<CtHoPaperUe>& ues)
{
    std::cout << "\nctHO plan: L* = " << plan.value.prefixTokens << " tokens, prefill "
              << plan.prefillStart * 1e3 << " to " << plan.prefillEnd * 1e3 << " ms\n";
    std::cout << "  ue   tau[ms]  prefill  transfer  tx_start[ms]  tx_end[ms]  deadline[ms]"
                 "  delay[ms]\n";
    for (const auto& u : plan.ues)
    {
        std::cout << "  " << std::setw(2) << u.ue << std::setw(10) << ues[u.ue].handoverTime * 1e3
                  << std::setw(9) << u.prefillTokens << std::setw(10) << u.transferTokens
                  << std::setw(14) << u.transferStart * 1e3 << std::setw(12) << u.transferEnd * 1e3
                  << std::setw(14) << u.deadline * 1e3 << std::setw(11) << u.delay * 1e3 << "\n";
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Point base{4, 3072, 4.5, 0};
    uint64_t cMin = 1024;
    double prefillCycle = 0.01;
    double bsDistance = 300.0;
    std::string sweep = "rbh";
    std::string values;
    std::string kvModel;
    std::string compute;
    bool blockAligned = false;
    std::string csv;
    std::string outDir;

    // A preset sets the defaults before the command line is parsed, so that attributes given
    // beside it (--ns3::GpuComputeModel::...) override the preset rather than the reverse.
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        for (const auto& [flag, presets] :
             {std::make_pair(std::string("--kvModel="), KvCacheProfile::PresetNames()),
              std::make_pair(std::string("--compute="), LlmComputeModel::PresetNames())})
        {
            if (arg.rfind(flag, 0) != 0)
            {
                continue;
            }
            const std::string name = arg.substr(flag.size());
            if (std::find(presets.begin(), presets.end(), name) == presets.end())
            {
                std::cerr << flag.substr(0, flag.size() - 1) << " = " << name
                          << " is invalid; allowed: " << edgellm::JoinNames(presets) << "\n";
                return 1;
            }
            if (flag == "--kvModel=")
            {
                KvCacheModel::SetDefaultPreset(name);
            }
            else
            {
                GpuComputeModel::SetDefaultPreset(name);
            }
        }
    }

    CommandLine cmd(__FILE__);
    cmd.AddValue("sweep", "what to sweep: rbh, ues, cMax, prefillRate, or none", sweep);
    cmd.AddValue("values", "sweep points, separated by commas (default: the paper's)", values);
    cmd.AddValue("ues", "K, UEs handing over together", base.ues);
    cmd.AddValue("cMin", "smallest context C_i, tokens", cMin);
    cmd.AddValue("cMax", "largest context C_i, tokens (3072 = the paper's 176 MB)", base.cMax);
    cmd.AddValue("rbhGbps", "backhaul rate, Gb/s", base.rbhGbps);
    cmd.AddValue("prefillCycle", "prefill cycle T_c, s", prefillCycle);
    cmd.AddValue("bsDistance", "distance between the base stations, m", bsDistance);
    cmd.AddValue("kvModel",
                 "KV cache preset of the served model, the defaults of ns3::KvCacheModel "
                 "(Qwen2.5-7B-Instruct unless given)",
                 kvModel);
    cmd.AddValue("compute",
                 "compute preset, the defaults of ns3::GpuComputeModel (qwen2.5-7b-ctho-paper "
                 "unless given)",
                 compute);
    cmd.AddValue("blockAligned", "restrict L to whole KV blocks (plus C_max)", blockAligned);
    cmd.AddValue("csv", "also write the results to this CSV file", csv);
    cmd.AddValue("outDir", "write analytic.csv, with a .json sidecar, there", outDir);
    // Every argument is checked as typed before CommandLine reads it: CommandLine would print
    // its whole help without the flag's range, wrap "-3" around in an unsigned flag, or keep
    // the last of a flag given twice.
    if (const std::string bad = edgellm::CheckArguments(
            cmd,
            {{"ues", true, "an integer in [1, 100000]", 1, 100000},
             {"cMin", true, "an integer in [1, 4294967295]", 1, 4294967295.0},
             {"cMax", true, "an integer in [--cMin, 4294967295]", 1, 4294967295.0},
             {"rbhGbps", false, "(0, 1e6] Gb/s", 0, 1e6, true},
             {"prefillCycle", false, "[0, 1e6] s (0: no cycle)", 0, 1e6},
             {"bsDistance", false, "a distance in (2 MaxStartX, 1e6] m", 0, 1e6, true}},
            {"blockAligned"},
            argc,
            argv);
        !bad.empty())
    {
        std::cerr << bad << "\n";
        return 1;
    }
    cmd.Parse(argc, argv);

    // Every flag is checked before anything is printed; a bad one exits 1 with its message.
    // The scenario's own limits are read from it, so that its attributes still apply.
    Ptr<CtHoPaperScenario> limits = CreateObject<CtHoPaperScenario>();
    DoubleValue maxStartX;
    limits->GetAttribute("MaxStartX", maxStartX);
    std::ostringstream e;
    if (SWEEPS.count(sweep) == 0)
    {
        e << "--sweep = " << sweep << " is invalid; allowed: rbh, ues, cMax, prefillRate or none";
    }
    else if (base.ues < 1 || base.ues > 100000)
    {
        e << "--ues = " << base.ues << " is invalid; allowed: an integer in [1, 100000]";
    }
    else if (cMin < 1 || cMin > std::numeric_limits<uint32_t>::max())
    {
        e << "--cMin = " << cMin << " is invalid; allowed: an integer in [1, 4294967295]";
    }
    else if (base.cMax < cMin || base.cMax > std::numeric_limits<uint32_t>::max())
    {
        e << "--cMax = " << base.cMax
          << " is invalid; allowed: an integer in [--cMin, 4294967295] (--cMin = " << cMin << ")";
    }
    else if (!(bsDistance > 2 * maxStartX.Get() && bsDistance <= 1e6))
    {
        e << "--bsDistance = " << bsDistance
          << " is invalid; allowed: a distance in (2 MaxStartX, 1e6] m, so that every UE starts "
             "in the first cell (2 MaxStartX = "
          << 2 * maxStartX.Get() << " m)";
    }
    else if (!(base.rbhGbps > 0 && base.rbhGbps <= 1e6))
    {
        e << "--rbhGbps = " << base.rbhGbps << " is invalid; allowed: (0, 1e6] Gb/s";
    }
    else if (!(prefillCycle >= 0 && prefillCycle <= 1e6))
    {
        e << "--prefillCycle = " << prefillCycle
          << " is invalid; allowed: [0, 1e6] s (0: no cycle)";
    }
    else if (prefillCycle > 0 && prefillCycle < 1e-9)
    {
        // The solver divides by the cycle: a denormal one makes every delay infinite.
        e << "--prefillCycle = " << prefillCycle
          << " is invalid; allowed: [0, 1e6] s (0: no cycle) (a cycle below 1 ns, the time "
             "step of the simulations, is none)";
    }
    else if (sweep == "none" && !values.empty())
    {
        e << "--values = " << values << " is invalid with --sweep=none, which evaluates one "
          << "point; allowed: no --values, or another --sweep";
    }
    std::string error = e.str();
    std::vector<double> points{0};
    if (error.empty() && sweep != "none")
    {
        points.clear();
        error = ParseValues(values.empty() ? SWEEPS.at(sweep).defaultValues : values, points);
    }
    for (double v : points)
    {
        error = error.empty() ? CheckPoint(sweep, v) : error;
    }
    if (error.empty())
    {
        // The sweep sets these attributes from the flags: a default given for one of them on
        // the command line would be silently replaced, so it is refused.
        error = edgellm::CheckFlagAttributes({{"ues", "ns3::CtHoPaperScenario::UeCount"},
                                              {"cMin", "ns3::CtHoPaperScenario::MinContext"},
                                              {"cMax", "ns3::CtHoPaperScenario::MaxContext"},
                                              {"bsDistance", "ns3::CtHoPaperScenario::BsDistance"}},
                                             argc,
                                             argv);
    }
    if (error.empty() && !outDir.empty() && !csv.empty())
    {
        error = "--csv = " + csv + " is invalid with --outDir, which names the file itself (" +
                "analytic.csv); allowed: one of the two";
    }
    if (error.empty() && !outDir.empty())
    {
        error = edgellm::PrepareOutDir("outDir", outDir);
        csv = outDir + "/analytic.csv";
    }
    std::ofstream out;
    if (error.empty() && !csv.empty())
    {
        out.open(csv);
        if (!out)
        {
            error = edgellm::FlagError("csv", csv, "a file that can be written");
        }
    }
    if (!error.empty())
    {
        std::cerr << error << "\n";
        return 1;
    }

    // The models come from their ns-3 objects, so that every attribute can be set from the
    // command line (e.g. --ns3::KvCacheModel::BitsPerElement=4).
    const KvCacheProfile kv = CreateObject<KvCacheModel>()->GetProfile();
    const LlmComputeModel gpu = CreateObject<GpuComputeModel>()->GetModel();
    base.prefillPerTokenS = gpu.GetPrefillCurve().GetA();
    if (sweep == "prefillRate" && !gpu.GetPrefillCurve().IsLinear())
    {
        std::cerr << "--sweep = prefillRate is invalid with this compute model: it scales a of a "
                     "linear prefill p(L) = a L + b, and the model has a measured profile; "
                     "allowed: rbh, ues, cMax or none\n";
        return 1;
    }

    const std::vector<CtHoPaperUe> baseDraw = Draw(base, cMin, bsDistance);
    std::cout
        << "edge-llm-ctho-analytic: tHO / cHO / ctHO on the ctHO paper's scenario (analytic)\n"
        << "KV cache: " << kv.GetName() << ", " << kv.GetBitsPerElement() << "-bit, "
        << kv.GetBytesForTokens(1) << " B/token; " << base.cMax
        << " tokens = " << std::setprecision(4) << kv.GetBytesForTokens(base.cMax) / 1e6 << " MB\n"
        << "compute: prefill from " << gpu.GetPrefillSource() << "\n"
        << "K = " << base.ues << " UEs, base stations " << bsDistance << " m apart, backhaul "
        << base.rbhGbps << " Gb/s, prefill cycle " << prefillCycle * 1e3 << " ms, RngRun "
        << RngSeedManager::GetRun() << "\n\n";
    std::cout << std::fixed << std::setprecision(3);
    PrintDraw(baseDraw);

    if (out.is_open())
    {
        out << "sweep,value,ues,c_max,rbh_gbps,prefill_s_per_token,l_star,tho_s,cho_s,ctho_s\n";
    }
    std::cout << "\n  " << std::setw(11) << SWEEPS.at(sweep).heading
              << "     L*   tHO[ms]   cHO[ms]  ctHO[ms]  ctHO/best\n";
    for (double v : points)
    {
        const Point p = sweep == "none" ? base : PointOf(sweep, v, base);
        const std::vector<CtHoPaperUe> draw = Draw(p, cMin, bsDistance);
        CtHoInput input;
        input.ues = CtHoPaperScenario::ToSolverUes(draw);
        input.backhaulTokensPerSecond = kv.GetTokensPerSecond(p.rbhGbps * 1e9); // finite: checked
        input.prefillCycle = prefillCycle;
        input.blockAligned = blockAligned;
        input.blockTokens = kv.GetBlockTokens();
        const LlmComputeModel pointGpu =
            sweep == "prefillRate"
                ? LlmComputeModel(
                      PrefillCurve::Linear(p.prefillPerTokenS, gpu.GetPrefillCurve().GetB()),
                      gpu.GetBatchMode(),
                      gpu.GetDecodeModel(),
                      gpu.GetPrefillSource() + ", a scaled",
                      gpu.GetDecodeSource())
                : gpu;
        const CtHoSolver solver = edgellm::CallOrFatal("edge-llm-ctho-analytic",
                                                       [&] { return CtHoSolver(input, pointGpu); });
        const CtHoValue th = solver.Tho();
        const CtHoValue ch = solver.Cho();
        const CtHoValue ct = solver.Solve();
        std::ostringstream label;
        label << std::fixed << std::setprecision(sweep == "rbh" ? 1 : 0) << v;
        std::cout << "  " << std::setw(11) << (sweep == "none" ? "base" : label.str())
                  << std::setw(7) << ct.prefixTokens << std::setprecision(3) << std::setw(10)
                  << th.worstDelay * 1e3 << std::setw(10) << ch.worstDelay * 1e3 << std::setw(10)
                  << ct.worstDelay * 1e3 << std::setw(11);
        if (!std::isfinite(th.worstDelay) || !std::isfinite(ch.worstDelay) ||
            !std::isfinite(ct.worstDelay))
        {
            std::cout << "\n";
            std::cerr << "verdict: a delay is not finite: the flags' values are past what the "
                         "model can compute\n";
            return 1;
        }
        const double best = std::min(th.worstDelay, ch.worstDelay);
        if (best > 0)
        {
            std::cout << ct.worstDelay / best << "\n";
        }
        else
        {
            std::cout << "-"
                      << "\n"; // no delay at all: nothing to compare
        }
        if (out.is_open())
        {
            out << std::defaultfloat << std::setprecision(9) << sweep << "," << v << "," << p.ues
                << "," << p.cMax << "," << p.rbhGbps << ","
                << (pointGpu.GetPrefillCurve().IsLinear() ? edgellm::FormatValue(p.prefillPerTokenS)
                                                          : std::string())
                << "," << ct.prefixTokens << "," << th.worstDelay << "," << ch.worstDelay << ","
                << ct.worstDelay << "\n"
                << std::fixed << std::setprecision(3);
        }
        if (sweep == "none")
        {
            PrintPlan(solver.MakePlan(ct.prefixTokens), draw);
        }
    }
    if (out.is_open())
    {
        out.close();
        if (out.fail())
        {
            std::cerr << edgellm::FlagError("csv", csv, "a file that can be written")
                      << " (writing it failed)\n";
            return 1;
        }
    }
    if (!outDir.empty())
    {
        EdgeLlmRunMetadata meta;
        meta.program = "edge-llm-ctho-analytic";
        meta.arguments.assign(argv, argv + argc);
        meta.parameters = {{"sweep", sweep},
                           {"values", values},
                           {"ues", std::to_string(base.ues)},
                           {"cMin", std::to_string(cMin)},
                           {"cMax", std::to_string(base.cMax)},
                           {"rbhGbps", edgellm::FormatValue(base.rbhGbps)},
                           {"prefillCycle", edgellm::FormatValue(prefillCycle)},
                           {"bsDistance", edgellm::FormatValue(bsDistance)},
                           {"kvModel", kvModel},
                           {"compute", compute},
                           {"blockAligned", blockAligned ? "true" : "false"},
                           {"outDir", outDir}};
        if (!WriteRunSidecar(csv, meta))
        {
            std::cerr << "--outDir = " << outDir << ": cannot write analytic.csv.json there\n";
            return 1;
        }
    }
    return 0;
}
