/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Analytic tHO / cHO / ctHO comparison on the ctHO paper's scenario (Lee, Park, Zheng, Park,
// arXiv 2603.28018): two base stations 300 m apart, K UEs moving at 20 m/s from U[120, 130] m
// handing over at the 150 m crossing, contexts C_i ~ U[1024, C_max], Qwen2.5-7B-Instruct at
// 16 bits, p(L) = 9.4267e-5 L + 2.4e-3 s, prefill cycle 10 ms.
//
// The inputs are drawn once, with ns-3's random streams, and every scheme and every backhaul
// rate is evaluated on the same draw. With --rbhGbps the sweep is replaced by one rate, and the
// per-UE plan of ctHO is printed.
//
//   ./edge-llm-ctho-analytic                         # the sweep
//   ./edge-llm-ctho-analytic --rbhGbps=4.5 --ues=8   # one rate, 8 UEs, with the plan
//   ./edge-llm-ctho-analytic --csv=ctho.csv          # also write the sweep as CSV
//   ./edge-llm-ctho-analytic --ns3::KvCacheModel::BitsPerElement=4 --compute=llama-7b-llumnix

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("EdgeLlmCtHoAnalytic");

namespace
{

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
    uint32_t ues = 4;
    uint64_t cMin = 1024;
    uint64_t cMax = 3072;
    double rbhGbps = 0;
    double prefillCycle = 0.01;
    double bsDistance = 300.0;
    std::string kvModel;
    std::string compute;
    bool blockAligned = false;
    std::string csv;

    CommandLine cmd(__FILE__);
    cmd.AddValue("ues", "K, UEs handing over together", ues);
    cmd.AddValue("cMin", "smallest context C_i, tokens", cMin);
    cmd.AddValue("cMax", "largest context C_i, tokens (3072 = the paper's 176 MB)", cMax);
    cmd.AddValue("rbhGbps", "one backhaul rate in Gb/s; 0 sweeps 1 to 20 Gb/s", rbhGbps);
    cmd.AddValue("prefillCycle", "prefill cycle T_c, s", prefillCycle);
    cmd.AddValue("bsDistance", "distance between the base stations, m", bsDistance);
    cmd.AddValue("kvModel",
                 "KV cache preset of the served model (default: ns3::KvCacheModel's attributes, "
                 "Qwen2.5-7B-Instruct unless set)",
                 kvModel);
    cmd.AddValue("compute",
                 "compute preset (default: ns3::GpuComputeModel's attributes, "
                 "qwen2.5-7b-ctho-paper unless set)",
                 compute);
    cmd.AddValue("blockAligned", "restrict L to 16-token blocks (plus C_max)", blockAligned);
    cmd.AddValue("csv", "write the sweep to this CSV file", csv);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_IF(rbhGbps < 0 || !std::isfinite(rbhGbps),
                    "--rbhGbps = " << rbhGbps << " is invalid; allowed: 0 (sweep) or > 0 Gb/s");

    // The models come from their ns-3 objects, so that every attribute can be set from the
    // command line (e.g. --ns3::KvCacheModel::BitsPerElement=4); a preset replaces the shape
    // or the compute figures.
    Ptr<KvCacheModel> kvModelObject = CreateObject<KvCacheModel>();
    if (!kvModel.empty())
    {
        kvModelObject->ApplyPreset(kvModel);
    }
    Ptr<GpuComputeModel> gpuObject = CreateObject<GpuComputeModel>();
    if (!compute.empty())
    {
        gpuObject->ApplyPreset(compute);
    }
    const KvCacheProfile kv = kvModelObject->GetProfile();
    const LlmComputeModel gpu = gpuObject->GetModel();

    Ptr<CtHoPaperScenario> scenario = CreateObject<CtHoPaperScenario>();
    scenario->SetAttribute("UeCount", UintegerValue(ues));
    scenario->SetAttribute("MinContext", UintegerValue(cMin));
    scenario->SetAttribute("MaxContext", UintegerValue(cMax));
    scenario->SetAttribute("BsDistance", DoubleValue(bsDistance));
    scenario->AssignStreams(0);
    const std::vector<CtHoPaperUe> draw = scenario->Draw();

    std::cout
        << "edge-llm-ctho-analytic: tHO / cHO / ctHO on the ctHO paper's scenario (analytic)\n"
        << "KV cache: " << kv.GetName() << ", " << kv.GetBitsPerElement() << "-bit, "
        << kv.GetBytesForTokens(1) << " B/token; " << cMax << " tokens = " << std::setprecision(4)
        << kv.GetBytesForTokens(cMax) / 1e6 << " MB\n"
        << "compute: prefill from " << gpu.GetPrefillSource() << "\n"
        << "K = " << ues << " UEs, base stations " << bsDistance << " m apart, prefill cycle "
        << prefillCycle * 1e3 << " ms, RngRun " << RngSeedManager::GetRun() << "\n\n";
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "  ue   x0[m]   tau[ms]  C[tokens]\n";
    for (std::size_t i = 0; i < draw.size(); ++i)
    {
        std::cout << "  " << std::setw(2) << i << std::setw(8) << draw[i].startX << std::setw(10)
                  << draw[i].handoverTime * 1e3 << std::setw(11) << draw[i].contextTokens << "\n";
    }

    std::vector<double> rates{1, 2, 3, 4.5, 6, 8, 10, 15, 20};
    if (rbhGbps > 0)
    {
        rates = {rbhGbps};
    }
    std::ofstream out;
    if (!csv.empty())
    {
        out.open(csv);
        NS_ABORT_MSG_IF(!out, "--csv: cannot write " << csv);
        out << "rbh_gbps,tokens_per_s,l_star,tho_s,cho_s,ctho_s\n";
    }

    std::cout << "\n  R_bh[Gb/s]  R[tok/s]     L*   tHO[ms]   cHO[ms]  ctHO[ms]  ctHO/best\n";
    CtHoInput input;
    input.ues = CtHoPaperScenario::ToSolverUes(draw);
    input.prefillCycle = prefillCycle;
    input.blockAligned = blockAligned;
    input.blockTokens = kv.GetBlockTokens();
    for (double gbps : rates)
    {
        input.backhaulTokensPerSecond = kv.GetTokensPerSecond(gbps * 1e9);
        const CtHoSolver solver(input, gpu);
        const CtHoValue th = solver.Tho();
        const CtHoValue ch = solver.Cho();
        const CtHoValue ct = solver.Solve();
        std::cout << std::setw(12) << gbps << std::setw(10) << std::setprecision(0)
                  << input.backhaulTokensPerSecond << std::setw(7) << ct.prefixTokens
                  << std::setprecision(3) << std::setw(10) << th.worstDelay * 1e3 << std::setw(10)
                  << ch.worstDelay * 1e3 << std::setw(10) << ct.worstDelay * 1e3 << std::setw(11)
                  << ct.worstDelay / std::min(th.worstDelay, ch.worstDelay) << "\n";
        if (out.is_open())
        {
            out << std::setprecision(9) << gbps << "," << input.backhaulTokensPerSecond << ","
                << ct.prefixTokens << "," << th.worstDelay << "," << ch.worstDelay << ","
                << ct.worstDelay << "\n";
        }
        if (rates.size() == 1)
        {
            PrintPlan(solver.MakePlan(ct.prefixTokens), draw);
        }
    }
    return 0;
}
