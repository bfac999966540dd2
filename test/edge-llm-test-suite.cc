/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/config.h"
#include "ns3/ctho-paper-scenario.h"
#include "ns3/ctho-solver.h"
#include "ns3/double.h"
#include "ns3/gpu-compute-model.h"
#include "ns3/kv-cache-model.h"
#include "ns3/llm-compute-model.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace ns3;

/**
 * \ingroup edge-llm-tests
 * \brief KvCacheModel's attributes accept their ranges and refuse what lies outside.
 */
class KvCacheModelAttributeTestCase : public TestCase
{
  public:
    KvCacheModelAttributeTestCase()
        : TestCase("KvCacheModel attributes are validated through the TypeId")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<KvCacheModel> m = CreateObject<KvCacheModel>();
        NS_TEST_ASSERT_MSG_EQ(m->GetProfile().GetBitsPerToken(),
                              458752u,
                              "default is Qwen2.5-7B-Instruct at 16 bits");

        NS_TEST_ASSERT_MSG_EQ(m->SetAttributeFailSafe("KvHeads", UintegerValue(0)),
                              false,
                              "zero KV heads must be refused");
        NS_TEST_ASSERT_MSG_EQ(m->SetAttributeFailSafe("Layers", UintegerValue(4097)),
                              false,
                              "layers above 4096 must be refused");
        NS_TEST_ASSERT_MSG_EQ(m->SetAttributeFailSafe("BlockTokens", UintegerValue(0)),
                              false,
                              "an empty block must be refused");
        NS_TEST_ASSERT_MSG_EQ(m->SetAttributeFailSafe("BitsPerElement", UintegerValue(3)),
                              false,
                              "3 bits is not a supported cache width");
        NS_TEST_ASSERT_MSG_EQ(m->GetProfile().GetBitsPerToken(),
                              458752u,
                              "refused values must leave the profile as it was");

        NS_TEST_ASSERT_MSG_EQ(m->SetAttributeFailSafe("BitsPerElement", UintegerValue(4)),
                              true,
                              "4 bits is allowed");
        NS_TEST_ASSERT_MSG_EQ(m->GetProfile().GetBytesPerToken(),
                              57344.0 / 4,
                              "a 4-bit cache is a quarter of the bf16 size");

        m->ApplyPreset("Qwen3-32B");
        NS_TEST_ASSERT_MSG_EQ(m->GetProfile().GetLayers(), 64u, "preset sets the layers");
        NS_TEST_ASSERT_MSG_EQ(m->GetProfile().GetBitsPerElement(),
                              4u,
                              "a preset keeps the chosen width");
        UintegerValue heads;
        m->GetAttribute("KvHeads", heads);
        NS_TEST_ASSERT_MSG_EQ(heads.Get(), 8u, "the attribute shows the preset's KV heads");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief SetDefaultPreset changes what new KvCacheModels start with, through Config.
 */
class KvCacheModelDefaultPresetTestCase : public TestCase
{
  public:
    KvCacheModelDefaultPresetTestCase()
        : TestCase("KvCacheModel::SetDefaultPreset sets the attribute defaults")
    {
    }

  private:
    void DoRun() override
    {
        KvCacheModel::SetDefaultPreset("Llama-3-8B");
        Config::SetDefault("ns3::KvCacheModel::BitsPerElement", UintegerValue(8));
        Ptr<KvCacheModel> m = CreateObject<KvCacheModel>();
        const KvCacheProfile p = m->GetProfile();
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(p.GetName(), "Llama-3-8B", "model name follows the preset");
        NS_TEST_ASSERT_MSG_EQ(p.GetBytesForTokens(1), 131072u / 2, "Llama-3-8B at 8 bits");
        NS_TEST_ASSERT_MSG_EQ(CreateObject<KvCacheModel>()->GetProfile().GetName(),
                              "Qwen2.5-7B-Instruct",
                              "Config::Reset restores the default");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief GpuComputeModel's attributes describe the compute model, and refuse bad values.
 */
class GpuComputeModelAttributeTestCase : public TestCase
{
  public:
    GpuComputeModelAttributeTestCase()
        : TestCase("GpuComputeModel attributes are validated and reach the compute model")
    {
    }

  private:
    void DoRun() override
    {
        const LlmComputeModel paper = LlmComputeModel::FromPreset("qwen2.5-7b-ctho-paper");
        Ptr<GpuComputeModel> g = CreateObject<GpuComputeModel>();
        NS_TEST_ASSERT_MSG_EQ(g->GetModel().PrefillTime(3072),
                              paper.PrefillTime(3072),
                              "the defaults are the default preset");
        NS_TEST_ASSERT_MSG_EQ(g->GetModel().DecodeStepTime(1, 100), 13.3e-3, "decode default");

        for (const char* name : {"PrefillSecondsPerToken",
                                 "PrefillFixedSeconds",
                                 "DecodeBaseSeconds",
                                 "DecodeSecondsPerSequence",
                                 "DecodeSecondsPerContextToken"})
        {
            NS_TEST_ASSERT_MSG_EQ(g->SetAttributeFailSafe(name, DoubleValue(-1e-3)),
                                  false,
                                  name << " must refuse a negative value");
            NS_TEST_ASSERT_MSG_EQ(g->SetAttributeFailSafe(name, DoubleValue(std::nan(""))),
                                  false,
                                  name << " must refuse NaN");
        }
        NS_TEST_ASSERT_MSG_EQ(
            g->SetAttributeFailSafe("PrefillProfile", StringValue("256:0.2,512:0.1")),
            false,
            "a decreasing profile must be refused");
        NS_TEST_ASSERT_MSG_EQ(g->GetModel().PrefillTime(3072),
                              paper.PrefillTime(3072),
                              "refused values leave the model as it was");

        g->SetAttribute("PrefillProfile", StringValue("256:0.1, 512:0.3"));
        NS_TEST_ASSERT_MSG_EQ_TOL(g->GetModel().PrefillTime(384), 0.2, 1e-12, "interpolated");
        NS_TEST_ASSERT_MSG_EQ(g->SetAttributeFailSafe("BatchMode", StringValue("Padded")),
                              false,
                              "an unknown batch mode must be refused");
        g->SetAttribute("BatchMode", StringValue("TokenCount"));
        NS_TEST_ASSERT_MSG_EQ_TOL(g->GetModel().BatchPrefillTime(PrefillBatch{2, 256, 512}),
                                  0.3,
                                  1e-12,
                                  "token-count batches cost p(sum)");
        g->SetAttribute("PrefillProfile", StringValue(""));
        NS_TEST_ASSERT_MSG_EQ(g->GetModel().GetPrefillCurve().IsLinear(),
                              true,
                              "an empty profile returns to the linear form");

        g->ApplyPreset("llama-7b-llumnix");
        NS_TEST_ASSERT_MSG_EQ_TOL(g->GetModel().PrefillTime(1024), 0.220, 1e-12, "preset");
        StringValue profile;
        g->GetAttribute("PrefillProfile", profile);
        NS_TEST_ASSERT_MSG_EQ(profile.Get(),
                              "256:0.058,512:0.11,1024:0.22,2048:0.436,4096:0.94,8192:1.995",
                              "the profile attribute shows the preset's points");
        StringValue source;
        g->GetAttribute("PrefillSource", source);
        NS_TEST_ASSERT_MSG_EQ((source.Get().find("Llumnix") != std::string::npos),
                              true,
                              "the preset's source comes along");

        GpuComputeModel::SetDefaultPreset("llama-3.1-8b-a100");
        const LlmComputeModel fresh = CreateObject<GpuComputeModel>()->GetModel();
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ_TOL(fresh.PrefillTime(1000), 0.066, 1e-12, "default preset");
        NS_TEST_ASSERT_MSG_EQ((fresh.GetBatchMode() == BatchPrefillMode::TOKEN_COUNT),
                              true,
                              "default preset's batch mode");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The paper scenario draws within its ranges, reproducibly per stream.
 */
class CtHoPaperScenarioTestCase : public TestCase
{
  public:
    CtHoPaperScenarioTestCase()
        : TestCase("CtHoPaperScenario draws the paper's inputs reproducibly")
    {
    }

  private:
    void DoRun() override
    {
        auto draw = [](int64_t stream, uint32_t k) {
            Ptr<CtHoPaperScenario> s = CreateObject<CtHoPaperScenario>();
            s->SetAttribute("UeCount", UintegerValue(k));
            s->AssignStreams(stream);
            return s->Draw();
        };
        const auto a = draw(11, 200);
        const auto b = draw(11, 200);
        const auto c = draw(13, 200);
        NS_TEST_ASSERT_MSG_EQ(a.size(), 200u, "UeCount UEs are drawn");
        bool differs = false;
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(a[i].contextTokens, b[i].contextTokens, "same stream");
            NS_TEST_ASSERT_MSG_EQ(a[i].handoverTime, b[i].handoverTime, "same stream");
            differs = differs || a[i].contextTokens != c[i].contextTokens;
            NS_TEST_ASSERT_MSG_GT_OR_EQ(a[i].contextTokens, 1024u, "C >= 1024");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(a[i].contextTokens, 3072u, "C <= 3072");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(a[i].startX, 120.0, "x >= 120 m");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(a[i].startX, 130.0, "x <= 130 m");
            // Crossing 150 m at 20 m/s from [120, 130] m takes 1.0 to 1.5 s.
            NS_TEST_ASSERT_MSG_EQ_TOL(a[i].handoverTime,
                                      (150.0 - a[i].startX) / 20.0,
                                      1e-12,
                                      "tau is the boundary crossing time");
        }
        NS_TEST_ASSERT_MSG_EQ(differs, true, "another stream gives another draw");
        const auto byC = std::minmax_element(a.begin(), a.end(), [](auto& x, auto& y) {
            return x.contextTokens < y.contextTokens;
        });
        NS_TEST_ASSERT_MSG_LT(byC.first->contextTokens, 1300u, "200 draws reach the low end");
        NS_TEST_ASSERT_MSG_GT(byC.second->contextTokens, 2800u, "and the high end");
    }
};

namespace
{

/**
 * The ctHO problem of one prefix length L, evaluated from its definition and nothing of
 * CtHoSolver: the paper's padded batch costs p(max_i min(C_i, L)) with its published fit
 * p(n) = 9.4267e-5 n + 2.4e-3 s, starting at the first 10 ms boundary at or after the last
 * handover; the backhaul is a single server of R tokens/s that takes the UEs' remainders
 * (C_i - L)^+ in handover order, none before its own tau_i.
 */
struct BruteCtHo
{
    std::vector<double> tau;       //!< handover times, ascending
    std::vector<uint64_t> context; //!< contexts, in the same order
    double rate{0};                //!< R, tokens/s
    double prefillStart{0};        //!< t_s
    uint64_t maxContext{0};        //!< C_max

    BruteCtHo(std::vector<CtHoUe> ues, double r)
        : rate(r)
    {
        std::stable_sort(ues.begin(), ues.end(), [](const CtHoUe& a, const CtHoUe& b) {
            return a.handoverTime < b.handoverTime;
        });
        for (const CtHoUe& u : ues)
        {
            tau.push_back(u.handoverTime);
            context.push_back(u.contextTokens);
            maxContext = std::max(maxContext, u.contextTokens);
        }
        // Walk the 10 ms boundaries up to the last handover (a boundary within 1 ns of it
        // counts as reached: 3.05 is not exact in binary).
        double k = std::floor(tau.back() / 0.01) - 2;
        while (k * 0.01 < tau.back() - 1e-9)
        {
            k += 1;
        }
        prefillStart = std::max(k * 0.01, tau.back());
    }

    /// \return D_pf(L) = t_s + p(batch) - tau_1, 0 when nothing is prefilled
    double Prefill(uint64_t l) const
    {
        const uint64_t longest = std::min(l, maxContext);
        return longest == 0 ? 0.0 : prefillStart + 9.4267e-5 * longest + 2.4e-3 - tau.front();
    }

    /// \return the remainder of UE k, (C_k - L)^+
    uint64_t Remainder(std::size_t k, uint64_t l) const
    {
        return context[k] > l ? context[k] - l : 0;
    }

    /**
     * The smallest common offset D such that every remainder can be sent by tau_k + D. The
     * k-th finish of a work-conserving single server is the largest busy period ending at it:
     * F_k = max over j <= k of (tau_j + sum_{i=j..k} n_i / R). Deadlines tau_k + D are in
     * handover order, so serving in that order (EDF) is optimal, and D = max_k (F_k - tau_k)
     * over the UEs that send anything.
     */
    double Transfer(uint64_t l) const
    {
        double worst = 0;
        for (std::size_t k = 0; k < tau.size(); ++k)
        {
            if (Remainder(k, l) == 0)
            {
                continue;
            }
            double finish = 0;
            for (std::size_t j = 0; j <= k; ++j)
            {
                uint64_t tokens = 0;
                for (std::size_t i = j; i <= k; ++i)
                {
                    tokens += Remainder(i, l);
                }
                finish = std::max(finish, tau[j] + static_cast<double>(tokens) / rate);
            }
            worst = std::max(worst, finish - tau[k]);
        }
        return worst;
    }

    /// \return V(L) = max(D_pf, D_tx*)
    double Value(uint64_t l) const
    {
        return std::max(Prefill(l), Transfer(l));
    }
};

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief On the paper's scenario, the solver's optimum, its baselines and its plan agree with
 * a brute-force scan of every L evaluated from the problem's definition; over a backhaul
 * sweep ctHO is strictly better than both baselines somewhere.
 */
class CtHoPaperSweepTestCase : public TestCase
{
  public:
    CtHoPaperSweepTestCase()
        : TestCase("ctHO's optimum and plan equal a brute force over every L on the paper "
                   "scenario")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<CtHoPaperScenario> s = CreateObject<CtHoPaperScenario>();
        s->AssignStreams(5);
        const auto ues = s->Draw();
        const LlmComputeModel gpu = LlmComputeModel::FromPreset("qwen2.5-7b-ctho-paper");
        bool strictlyBetter = false;
        for (double gbps = 0.5; gbps <= 20.0; gbps += 0.5)
        {
            CtHoInput in;
            in.ues = CtHoPaperScenario::ToSolverUes(ues);
            // 57344 bytes of KV per token: Qwen2.5-7B-Instruct, 28 layers x 4 KV heads x 128
            // x 2 (K and V) x 2 bytes.
            const double rate = gbps * 1e9 / 8 / 57344;
            in.backhaulTokensPerSecond = rate;
            in.prefillCycle = 0.01;
            const BruteCtHo brute(in.ues, rate);
            CtHoSolver solver(in, gpu);

            double bestValue = std::numeric_limits<double>::infinity();
            for (uint64_t l = 0; l <= brute.maxContext; ++l)
            {
                bestValue = std::min(bestValue, brute.Value(l));
            }
            const CtHoValue ct = solver.Solve();
            NS_TEST_ASSERT_MSG_EQ_TOL(ct.worstDelay, bestValue, 1e-9, gbps << " Gb/s: optimum");
            NS_TEST_ASSERT_MSG_EQ_TOL(brute.Value(ct.prefixTokens),
                                      bestValue,
                                      1e-9,
                                      gbps << " Gb/s: the chosen L is optimal");
            NS_TEST_ASSERT_MSG_EQ_TOL(solver.Tho().worstDelay,
                                      brute.Value(brute.maxContext),
                                      1e-9,
                                      gbps << " Gb/s: tHO is L = C_max");
            NS_TEST_ASSERT_MSG_EQ_TOL(solver.Cho().worstDelay,
                                      brute.Value(0),
                                      1e-9,
                                      gbps << " Gb/s: cHO is L = 0");
            strictlyBetter =
                strictlyBetter ||
                bestValue < std::min(brute.Value(0), brute.Value(brute.maxContext)) - 1e-6;

            const uint64_t l = ct.prefixTokens;
            const CtHoPlan plan = solver.MakePlan(l);
            const double dtx = brute.Transfer(l);
            NS_TEST_ASSERT_MSG_EQ_TOL(plan.prefillStart, brute.prefillStart, 1e-12, "t_s");
            const double batchEnd =
                l == 0 ? brute.prefillStart - brute.tau.front() : brute.Prefill(l);
            NS_TEST_ASSERT_MSG_EQ_TOL(plan.prefillEnd - brute.tau.front(),
                                      batchEnd,
                                      1e-9,
                                      "the batch ends at t_s + p(min(L, C_max))");
            NS_TEST_ASSERT_MSG_EQ(plan.ues.size(), in.ues.size(), "one entry per UE");
            double linkBusyUntil = 0;
            double latestFinish = 0;
            for (const auto& u : plan.ues)
            {
                const CtHoUe& ue = in.ues.at(u.ue);
                const uint64_t n = ue.contextTokens > l ? ue.contextTokens - l : 0;
                NS_TEST_ASSERT_MSG_EQ(u.transferTokens, n, "sends (C_i - L)^+");
                NS_TEST_ASSERT_MSG_EQ(u.prefillTokens, ue.contextTokens - n, "prefills the rest");
                if (n == 0)
                {
                    continue;
                }
                NS_TEST_ASSERT_MSG_GT_OR_EQ(u.transferStart + 1e-12,
                                            ue.handoverTime,
                                            "no data leaves before its handover");
                NS_TEST_ASSERT_MSG_GT_OR_EQ(u.transferStart + 1e-12,
                                            linkBusyUntil,
                                            "intervals never overlap, so rate <= R");
                NS_TEST_ASSERT_MSG_EQ_TOL(u.transferEnd - u.transferStart,
                                          static_cast<double>(n) / rate,
                                          1e-9,
                                          "n_i / R on the link");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(u.transferEnd,
                                            ue.handoverTime + dtx + 1e-9,
                                            "meets tau_i + D_tx*(L) of the brute force");
                linkBusyUntil = u.transferEnd;
                latestFinish = std::max(latestFinish, u.transferEnd - ue.handoverTime);
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(latestFinish, dtx, 1e-9, "the schedule attains D_tx*(L)");
        }
        NS_TEST_ASSERT_MSG_EQ(strictlyBetter, true, "ctHO beats both somewhere in the sweep");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The edge-llm test suite.
 */
class EdgeLlmTestSuite : public TestSuite
{
  public:
    EdgeLlmTestSuite()
        // The default type (unit) and duration (quick) keep to the API of every ns-3 release.
        : TestSuite("edge-llm")
    {
        AddTestCase(new KvCacheModelAttributeTestCase);
        AddTestCase(new KvCacheModelDefaultPresetTestCase);
        AddTestCase(new GpuComputeModelAttributeTestCase);
        AddTestCase(new CtHoPaperScenarioTestCase);
        AddTestCase(new CtHoPaperSweepTestCase);
    }
};

/// Static instance that registers the suite.
static EdgeLlmTestSuite g_edgeLlmTestSuite;
