/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The handover policies are pure logic over the ctHO problem: each is checked against the
// solver it wraps, and chosen by its TypeId name as users choose it.

#include "ns3/cache-handover-scheduler.h"
#include "ns3/ctho-line-experiment.h"
#include "ns3/ctho-scheduler.h"
#include "ns3/detour-scheduler.h"
#include "ns3/edge-llm-helper.h"
#include "ns3/handover-scheduler.h"
#include "ns3/object-factory.h"
#include "ns3/token-handover-scheduler.h"

#include <gtest/gtest.h>
#include <limits>

using namespace ns3;

namespace
{

/// The ctHO paper's group: four UEs, contexts 1024 to 3072, handovers 50 ms apart.
HandoverPlanInput
PaperGroup(double gbps)
{
    HandoverPlanInput in;
    in.problem.ues = {{2463, 3.00}, {1200, 3.05}, {3072, 3.10}, {2000, 3.15}};
    in.problem.backhaulTokensPerSecond = gbps * 1e9 / 8 / 57344;
    in.problem.prefillCycle = 0.01;
    return in;
}

TEST(HandoverSchedulerTest, EachPolicyIsTheSolversPlanAtItsOwnPrefix)
{
    const HandoverPlanInput in = PaperGroup(4.5);
    const CtHoSolver solver(in.problem, in.compute);

    const HandoverPlan tho = CreateObject<TokenHandoverScheduler>()->Plan(in);
    EXPECT_EQ(tho.action, HandoverPlan::MIGRATE);
    // At least every context: each session re-prefills all of its own.
    EXPECT_GE(tho.prefixTokens, solver.GetMaxContext());
    EXPECT_DOUBLE_EQ(tho.predicted.worstDelay, solver.Tho().worstDelay);
    EXPECT_DOUBLE_EQ(tho.predicted.transferDelay, 0.0);

    const HandoverPlan cho = CreateObject<CacheHandoverScheduler>()->Plan(in);
    EXPECT_EQ(cho.prefixTokens, 0u);
    EXPECT_DOUBLE_EQ(cho.predicted.worstDelay, solver.Cho().worstDelay);
    EXPECT_DOUBLE_EQ(cho.predicted.prefillDelay, 0.0);

    const HandoverPlan ctho = CreateObject<CtHoScheduler>()->Plan(in);
    EXPECT_EQ(ctho.prefixTokens, solver.Solve().prefixTokens);
    EXPECT_DOUBLE_EQ(ctho.predicted.worstDelay, solver.Evaluate(ctho.prefixTokens).worstDelay);
    // Strictly inside (0, C_max) here, so it beats both baselines.
    EXPECT_GT(ctho.prefixTokens, 0u);
    EXPECT_LT(ctho.prefixTokens, solver.GetMaxContext());
    EXPECT_LT(ctho.predicted.worstDelay, tho.predicted.worstDelay);
    EXPECT_LT(ctho.predicted.worstDelay, cho.predicted.worstDelay);

    EXPECT_EQ(CreateObject<DetourScheduler>()->Plan(in).action, HandoverPlan::RELAY);
}

TEST(HandoverSchedulerTest, CtHoFollowsTheBackhaul)
{
    // The slower the link, the more is re-prefilled: nearly all on a crawl, little on a fast one.
    const uint64_t slow = CreateObject<CtHoScheduler>()->Plan(PaperGroup(0.01)).prefixTokens;
    const uint64_t paper = CreateObject<CtHoScheduler>()->Plan(PaperGroup(4.5)).prefixTokens;
    const uint64_t fast = CreateObject<CtHoScheduler>()->Plan(PaperGroup(1000)).prefixTokens;
    EXPECT_GT(slow, paper);
    EXPECT_GT(paper, fast);
    EXPECT_GT(slow, 3000u);
    EXPECT_LT(fast, 100u);
}

TEST(HandoverSchedulerTest, ChosenByTypeIdName)
{
    const std::pair<const char*, const char*> names[] = {
        {"ns3::TokenHandoverScheduler", "tho"},
        {"ns3::CacheHandoverScheduler", "cho"},
        {"ns3::CtHoScheduler", "ctho"},
        {"ns3::DetourScheduler", "detour"},
    };
    for (const auto& [type, scheme] : names)
    {
        ObjectFactory f(type);
        Ptr<HandoverScheduler> s = f.Create<HandoverScheduler>();
        ASSERT_NE(s, nullptr) << type;
        EXPECT_EQ(s->GetSchemeName(), scheme);
        EXPECT_EQ(CtHoLineExperiment::SchedulerTypeOf(scheme), type);
    }
}

class HandoverSchedulerDeathTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        GTEST_FLAG_SET(death_test_style, "threadsafe");
    }
};

TEST_F(HandoverSchedulerDeathTest, BadInputsStopTheRunNamingTheField)
{
    HandoverPlanInput in = PaperGroup(4.5);
    in.problem.ues[1].contextTokens = 0;
    EXPECT_DEATH(CreateObject<CtHoScheduler>()->Plan(in),
                 "HandoverScheduler ctho: .*contextTokens");
    in = PaperGroup(4.5);
    in.problem.backhaulTokensPerSecond = 0;
    EXPECT_DEATH(CreateObject<CacheHandoverScheduler>()->Plan(in),
                 "HandoverScheduler cho: .*backhaulTokensPerSecond");
}

TEST_F(HandoverSchedulerDeathTest, UnknownSchedulerNamesStopTheRun)
{
    Ptr<EdgeLlmHelper> helper = CreateObject<EdgeLlmHelper>();
    EXPECT_DEATH(
        helper->SetSchedulerType("ns3::NoSuchScheduler"),
        "\"ns3::NoSuchScheduler\" is not a HandoverScheduler; allowed: ns3::CtHoScheduler");
    EXPECT_DEATH(helper->SetSchedulerType("ns3::LlmEngine"), "is not a HandoverScheduler");
    EXPECT_DEATH(CtHoLineExperiment::SchedulerTypeOf("pallas"),
                 "--scheme = pallas is invalid; allowed: ctho, tho, cho, detour or all");
}

TEST_F(HandoverSchedulerDeathTest, OracleBatchingNeedsTheBoundaryTrigger)
{
    CtHoLineConfig c;
    c.trigger = "a3";
    EXPECT_DEATH(c.Validate(), "--batching=oracle with --trigger=a3 is invalid");
    c.batching = "online";
    c.Validate(); // any trigger goes with online batching
    c.trigger = "x2";
    EXPECT_DEATH(c.Validate(), "--trigger = x2 is invalid; allowed: boundary, a3 or none");
    c = CtHoLineConfig();
    c.cMax = 1000;
    EXPECT_DEATH(c.Validate(), "--cMax = 1000 is invalid; allowed: an integer >= 1024");
}

} // namespace
