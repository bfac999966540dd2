/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "invalid-message.h"

#include "ns3/ctho-solver.h"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace ns3;
using edgellmtest::InvalidMessage;
using ::testing::HasSubstr;

namespace
{

/// p(L) = 1 ms per token, padded batches.
LlmComputeModel
MsPerToken()
{
    return LlmComputeModel(PrefillCurve::Linear(1e-3, 0.0),
                           BatchPrefillMode::PADDED_MAX,
                           DecodeStepModel{});
}

/// Two UEs worked by hand: R = 1000 tokens/s, tau = {0, 0.5}, C = {1000, 2000}.
CtHoInput
TwoUes()
{
    CtHoInput in;
    in.ues = {{1000, 0.0}, {2000, 0.5}};
    in.backhaulTokensPerSecond = 1000.0;
    return in;
}

TEST(CtHoSolver, HandWorkedOptimum)
{
    const CtHoSolver s(TwoUes(), MsPerToken());
    EXPECT_DOUBLE_EQ(s.GetPrefillStart(), 0.5);
    // cHO: UE 1 sends 1 s of data from 0, UE 2 sends 2 s from 1: done at 3, 2.5 s after 0.5.
    EXPECT_DOUBLE_EQ(s.Cho().worstDelay, 2.5);
    EXPECT_EQ(s.Cho().prefillDelay, 0.0);
    // tHO: one prefill of 2000 tokens from 0.5, done at 2.5, 2.5 s after tau_1.
    EXPECT_EQ(s.Tho().prefixTokens, 2000u);
    EXPECT_DOUBLE_EQ(s.Tho().worstDelay, 2.5);
    EXPECT_EQ(s.Tho().transferDelay, 0.0);
    // In (500, 1000] the link idles before UE 2 hands over: D_tx = (2000 - L) / 1000 and
    // D_pf = 0.5 + L / 1000 cross at L = 750.
    const CtHoValue best = s.Solve();
    EXPECT_EQ(best.prefixTokens, 750u);
    EXPECT_DOUBLE_EQ(best.worstDelay, 1.25);
    EXPECT_DOUBLE_EQ(best.prefillDelay, 1.25);
    EXPECT_DOUBLE_EQ(best.transferDelay, 1.25);
    EXPECT_DOUBLE_EQ(s.SolveByScan().worstDelay, 1.25);
}

TEST(CtHoSolver, TheTargetEnginesForecastReplacesOneBatch)
{
    // The engine says: its queue is busy until 0.8 s, then it prefills 0.5 ms per token of
    // every UE's prefill, one after another (a token-count engine, chunked).
    CtHoInput in = TwoUes();
    std::vector<uint64_t> seen;
    in.prefillEnd = [&seen](const std::vector<uint64_t>& lengths) {
        seen = lengths;
        double tokens = 0;
        for (uint64_t l : lengths)
        {
            tokens += static_cast<double>(l);
        }
        return 0.8 + 0.5e-3 * tokens;
    };
    const CtHoSolver s(in, MsPerToken());
    // tHO: prefills of 1000 and 2000 tokens, in handover order: 0.8 + 1.5 s after tau_1 = 0.
    EXPECT_DOUBLE_EQ(s.Tho().worstDelay, 2.3);
    EXPECT_EQ(seen, (std::vector<uint64_t>{1000, 2000}));
    // For L in (500, 1000]: D_pf = 0.8 + L / 1000 against D_tx = (2000 - L) / 1000 (as in
    // HandWorkedOptimum): they cross at L = 600, at 1.4 s; the one-batch model says 750.
    const CtHoValue best = s.Solve();
    EXPECT_EQ(best.prefixTokens, 600u);
    EXPECT_DOUBLE_EQ(best.worstDelay, 1.4);
    EXPECT_EQ(s.SolveByScan().prefixTokens, 600u);
    const CtHoPlan plan = s.MakePlan(600);
    EXPECT_DOUBLE_EQ(plan.prefillEnd, 1.4);
    EXPECT_EQ(seen, (std::vector<uint64_t>{600, 600}));
    EXPECT_DOUBLE_EQ(s.MakePlan(0).prefillEnd, s.GetPrefillStart());
}

TEST(CtHoSolver, IdleBackhaulMakesThePapersClosedFormTooLow)
{
    const CtHoSolver s(TwoUes(), MsPerToken());
    // The paper's closed form max_k [S_k / R - (tau_k - tau_1)]^+ at L = 750: UE 2's 1250
    // tokens cannot leave before 0.5 and take 1.25 s, but the form counts the idle 0.25 s.
    const double closedForm = std::max(250.0 / 1000, (250.0 + 1250.0) / 1000 - 0.5);
    EXPECT_DOUBLE_EQ(closedForm, 1.0);
    EXPECT_DOUBLE_EQ(s.TransferDelay(750), 1.25);
    EXPECT_LT(closedForm, s.TransferDelay(750));
    // With no idle time the two agree: L = 0 keeps the link busy from 0 to 3.
    EXPECT_DOUBLE_EQ(s.TransferDelay(0), std::max(1.0, 3.0 - 0.5));
}

TEST(CtHoSolver, ScheduleOfTheOptimum)
{
    const CtHoSolver s(TwoUes(), MsPerToken());
    const CtHoPlan plan = s.MakePlan(750);
    ASSERT_EQ(plan.ues.size(), 2u);
    EXPECT_DOUBLE_EQ(plan.prefillStart, 0.5);
    EXPECT_DOUBLE_EQ(plan.prefillEnd, 1.25);
    EXPECT_EQ(plan.ues[0].prefillTokens, 750u);
    EXPECT_EQ(plan.ues[0].transferTokens, 250u);
    EXPECT_DOUBLE_EQ(plan.ues[0].transferStart, 0.0);
    EXPECT_DOUBLE_EQ(plan.ues[0].transferEnd, 0.25);
    EXPECT_DOUBLE_EQ(plan.ues[0].deadline, 1.25);
    EXPECT_DOUBLE_EQ(plan.ues[0].delay, 1.25);
    EXPECT_EQ(plan.ues[1].transferTokens, 1250u);
    EXPECT_DOUBLE_EQ(plan.ues[1].transferStart, 0.5);
    EXPECT_DOUBLE_EQ(plan.ues[1].transferEnd, 1.75);
    EXPECT_DOUBLE_EQ(plan.ues[1].deadline, 1.75);
    EXPECT_DOUBLE_EQ(plan.ues[1].delay, 1.25);
}

TEST(CtHoSolver, UesInAnyOrderMapBack)
{
    CtHoInput in = TwoUes();
    std::swap(in.ues[0], in.ues[1]);
    const CtHoSolver s(in, MsPerToken());
    EXPECT_DOUBLE_EQ(s.Solve().worstDelay, 1.25);
    const CtHoPlan plan = s.MakePlan(750);
    EXPECT_EQ(plan.ues[0].ue, 1u); // handed over first
    EXPECT_EQ(plan.ues[1].ue, 0u);
    EXPECT_EQ(plan.ues[1].transferTokens, 1250u);
}

TEST(CtHoSolver, PrefillCycleAndEarliestStart)
{
    CtHoInput in = TwoUes();
    in.prefillCycle = 0.3;
    EXPECT_DOUBLE_EQ(CtHoSolver(in, MsPerToken()).GetPrefillStart(), 0.6);
    in.earliestPrefillStart = 0.7;
    EXPECT_DOUBLE_EQ(CtHoSolver(in, MsPerToken()).GetPrefillStart(), 0.9);
    // 0.07 / 0.01 is 7.000000000000001 in doubles; the boundary is still 0.07.
    in = TwoUes();
    in.ues[1].handoverTime = 0.07;
    in.prefillCycle = 0.01;
    EXPECT_NEAR(CtHoSolver(in, MsPerToken()).GetPrefillStart(), 0.07, 1e-15);
    in.ues[1].handoverTime = 0.0701;
    EXPECT_NEAR(CtHoSolver(in, MsPerToken()).GetPrefillStart(), 0.08, 1e-15);
}

TEST(CtHoSolver, NoPrefillTermWhenNothingIsPrefilled)
{
    CtHoInput in = TwoUes();
    in.earliestPrefillStart = 100.0; // a prefill would wait for a long time
    const CtHoSolver s(in, MsPerToken());
    EXPECT_EQ(s.PrefillDelay(0), 0.0);
    EXPECT_DOUBLE_EQ(s.Cho().worstDelay, 2.5);
    EXPECT_EQ(s.Solve().prefixTokens, 0u);
    EXPECT_DOUBLE_EQ(s.PrefillDelay(1), 100.0 + 1e-3);
}

TEST(CtHoSolver, BacklogDelaysTheFirstTransfer)
{
    CtHoInput in = TwoUes();
    in.backlogTokens = 500; // 0.5 s ahead on the link
    const CtHoSolver s(in, MsPerToken());
    // UE 1: 0.5 to 1.5; UE 2: 1.5 to 3.5, 3.0 s after its handover.
    EXPECT_DOUBLE_EQ(s.TransferDelay(0), 3.0);
    EXPECT_DOUBLE_EQ(s.MakePlan(0).ues[0].transferStart, 0.5);
}

TEST(CtHoSolver, BlockAlignedPrefix)
{
    CtHoInput in = TwoUes();
    in.ues[1].contextTokens = 2001;
    in.blockAligned = true;
    in.blockTokens = 16;
    const CtHoSolver s(in, MsPerToken());
    const CtHoValue v = s.Solve();
    EXPECT_TRUE(v.prefixTokens % 16 == 0 || v.prefixTokens == 2001) << v.prefixTokens;
    EXPECT_DOUBLE_EQ(v.worstDelay, s.SolveByScan().worstDelay);
    in.blockAligned = false;
    EXPECT_GE(v.worstDelay, CtHoSolver(in, MsPerToken()).Solve().worstDelay);
    // C_max is always a candidate: tHO is reachable.
    in.blockAligned = true;
    in.backhaulTokensPerSecond = 1e-3;
    EXPECT_EQ(CtHoSolver(in, MsPerToken()).Solve().prefixTokens, 2001u);
}

TEST(CtHoSolver, BadInputNamesTheField)
{
    const auto gpu = MsPerToken();
    auto with = [&](auto change) {
        CtHoInput in = TwoUes();
        change(in);
        return InvalidMessage([&] { CtHoSolver(in, gpu); });
    };
    EXPECT_THAT(with([](CtHoInput& in) { in.ues.clear(); }), HasSubstr("ues"));
    EXPECT_THAT(with([](CtHoInput& in) { in.backhaulTokensPerSecond = -5; }),
                HasSubstr("backhaulTokensPerSecond"));
    EXPECT_THAT(with([](CtHoInput& in) { in.backhaulTokensPerSecond = 0; }),
                HasSubstr("backhaulTokensPerSecond"));
    EXPECT_THAT(with([](CtHoInput& in) { in.backhaulTokensPerSecond = std::nan(""); }),
                HasSubstr("backhaulTokensPerSecond"));
    EXPECT_THAT(with([](CtHoInput& in) { in.prefillCycle = -0.01; }), HasSubstr("prefillCycle"));
    EXPECT_THAT(with([](CtHoInput& in) { in.backlogTokens = -1; }), HasSubstr("backlogTokens"));
    EXPECT_THAT(with([](CtHoInput& in) { in.ues[1].handoverTime = std::nan(""); }),
                HasSubstr("ues[1].handoverTime"));
    EXPECT_THAT(with([](CtHoInput& in) { in.ues[0].contextTokens = 0; }),
                HasSubstr("ues[0].contextTokens"));
    EXPECT_THAT(
        with([](CtHoInput& in) { in.ues[0].contextTokens = std::numeric_limits<uint64_t>::max(); }),
        HasSubstr("contextTokens"));
    EXPECT_THAT(with([](CtHoInput& in) { in.earliestPrefillStart = std::nan(""); }),
                HasSubstr("earliestPrefillStart"));
    EXPECT_THAT(with([](CtHoInput& in) {
                    in.blockAligned = true;
                    in.blockTokens = 0;
                }),
                HasSubstr("blockTokens"));
}

TEST(CtHoSolver, ScalesToAThousandUesAndLongContexts)
{
    CtHoInput in;
    for (uint64_t i = 0; i < 1000; ++i)
    {
        in.ues.push_back({1 + (i * 7919) % 131072, 1.0 + 1e-3 * static_cast<double>(i)});
    }
    in.ues[17].contextTokens = 131072;
    in.backhaulTokensPerSecond = 1e5;
    in.prefillCycle = 0.01;
    const CtHoSolver s(in, LlmComputeModel::FromPreset("qwen2.5-7b-ctho-paper"));
    const CtHoValue v = s.Solve();
    EXPECT_EQ(s.GetMaxContext(), 131072u);
    EXPECT_LE(v.worstDelay, s.Tho().worstDelay);
    EXPECT_LE(v.worstDelay, s.Cho().worstDelay);
    EXPECT_DOUBLE_EQ(v.worstDelay, s.SolveByScan().worstDelay);
}

} // namespace
