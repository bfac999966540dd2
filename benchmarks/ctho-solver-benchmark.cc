/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The ctHO solver against its baseline, a scan of every L, on the same instances in one run.
// Reports each time and the ratio scan / solve per K.
//
//   ./edge-llm-bench-ctho-solver            # K = 10, 100, 1000 UEs, C_max = 131072
//   ./edge-llm-bench-ctho-solver --smoke    # tiny sizes: checks that it builds and runs

#include "ns3/ctho-solver.h"

#include <benchmark/benchmark.h>
#include <cstring>
#include <iostream>
#include <map>
#include <random>
#include <string>

using namespace ns3;

namespace
{

/// K UEs with contexts U{1, cMax} (one at cMax), handing over 1 ms apart from t = 1 s.
CtHoInput
MakeInput(int k, uint64_t cMax)
{
    std::mt19937_64 rng(1000 + k);
    std::uniform_int_distribution<uint64_t> c(1, cMax);
    CtHoInput in;
    for (int i = 0; i < k; ++i)
    {
        in.ues.push_back({c(rng), 1.0 + 1e-3 * i});
    }
    in.ues.front().contextTokens = cMax;
    // 4.5 Gb/s of Qwen2.5-7B at 16 bits: 9809 tokens/s.
    in.backhaulTokensPerSecond = 4.5e9 / 458752.0;
    in.prefillCycle = 0.01;
    return in;
}

const LlmComputeModel&
Gpu()
{
    static const LlmComputeModel gpu = LlmComputeModel::FromPreset("qwen2.5-7b-ctho-paper");
    return gpu;
}

void
BmSolve(benchmark::State& state, int k, uint64_t cMax)
{
    const CtHoInput in = MakeInput(k, cMax);
    for (auto _ : state)
    {
        // Construction (validation and sorting) is part of solving a new group.
        const CtHoSolver s(in, Gpu());
        benchmark::DoNotOptimize(s.Solve());
    }
}

void
BmScan(benchmark::State& state, int k, uint64_t cMax)
{
    const CtHoInput in = MakeInput(k, cMax);
    for (auto _ : state)
    {
        const CtHoSolver s(in, Gpu());
        benchmark::DoNotOptimize(s.SolveByScan());
    }
}

/// Console output as usual, plus the per-run times kept for the ratio table.
class RatioReporter : public benchmark::ConsoleReporter
{
  public:
    void ReportRuns(const std::vector<Run>& runs) override
    {
        for (const auto& r : runs)
        {
            if (r.run_type == Run::RT_Iteration)
            {
                // Names carry the options, e.g. "solve/K:10/Cmax:2048/min_time:0.010".
                const std::string name = r.benchmark_name();
                m_seconds[name.substr(0, name.find("/min_time"))] =
                    r.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(r.time_unit);
            }
        }
        ConsoleReporter::ReportRuns(runs);
    }

    std::map<std::string, double> m_seconds; //!< real time per iteration, by benchmark name
};

} // namespace

int
main(int argc, char** argv)
{
    bool smoke = false;
    for (int i = 1; i < argc; ++i)
    {
        if (std::strcmp(argv[i], "--smoke") == 0)
        {
            smoke = true;
            argv[i] = argv[argc - 1];
            --argc;
            break;
        }
    }
    const uint64_t cMax = smoke ? 2048 : 131072;
    const std::vector<int> ks = smoke ? std::vector<int>{10} : std::vector<int>{10, 100, 1000};
    const double minTime = smoke ? 0.01 : 0.5;
    for (int k : ks)
    {
        const std::string tag = "K:" + std::to_string(k) + "/Cmax:" + std::to_string(cMax);
        benchmark::RegisterBenchmark(("solve/" + tag).c_str(), BmSolve, k, cMax)
            ->Unit(benchmark::kMicrosecond)
            ->MinTime(minTime);
        benchmark::RegisterBenchmark(("scan/" + tag).c_str(), BmScan, k, cMax)
            ->Unit(benchmark::kMillisecond)
            ->MinTime(minTime);
    }
    benchmark::Initialize(&argc, argv);
    RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);

    std::cout << "\nbaseline (scan of every L) against the solver, same instances, same run:\n";
    for (int k : ks)
    {
        const std::string tag = "K:" + std::to_string(k) + "/Cmax:" + std::to_string(cMax);
        const auto solve = reporter.m_seconds.find("solve/" + tag);
        const auto scan = reporter.m_seconds.find("scan/" + tag);
        if (solve == reporter.m_seconds.end() || scan == reporter.m_seconds.end())
        {
            continue;
        }
        std::cout << "  " << tag << ": solve " << solve->second * 1e6 << " us, scan "
                  << scan->second * 1e3 << " ms, scan / solve = " << scan->second / solve->second
                  << "\n";
    }
    benchmark::Shutdown();
    return 0;
}
