/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The handover policies are pure logic over the ctHO problem: each is checked against values
// derived by hand for a small group, and chosen by its TypeId name as users choose it.

#include "ns3/cache-handover-scheduler.h"
#include "ns3/ctho-family-scheduler.h"
#include "ns3/ctho-line-experiment.h"
#include "ns3/ctho-scheduler.h"
#include "ns3/detour-scheduler.h"
#include "ns3/edge-llm-helper.h"
#include "ns3/flag-checks.h"
#include "ns3/handover-scheduler.h"
#include "ns3/handover-scheme-registry.h"
#include "ns3/object-factory.h"
#include "ns3/token-handover-scheduler.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>

using namespace ns3;

namespace
{

/// The ctHO paper's group: four UEs, contexts 1024 to 3072, handovers 50 ms apart, one link.
HandoverPlanInput
PaperGroup(double gbps)
{
    HandoverPlanInput in;
    in.nowS = 3.0;
    const std::pair<uint64_t, double> ues[] = {{2463, 3.00},
                                               {1200, 3.05},
                                               {3072, 3.10},
                                               {2000, 3.15}};
    uint64_t imsi = 1;
    for (const auto& [context, tau] : ues)
    {
        HandoverSessionView v;
        v.imsi = imsi++;
        v.holderCell = 1;
        v.targetCell = 2;
        v.contextTokens = context;
        v.handoverStartS = tau;
        v.links = {0};
        in.sessions.push_back(v);
    }
    HandoverLinkView link;
    link.fromCell = 1;
    link.toCell = 2;
    link.rateBps = gbps * 1e9;
    link.plannedRateBps = gbps * 1e9;
    link.imsis = {1, 2, 3, 4};
    link.bottleneck = true;
    in.links.push_back(link);
    HandoverTargetView target;
    target.cell = 2;
    target.prefillCycleS = 0.01;
    in.targets.push_back(target);
    return in;
}

/// Each session of a ctHO-family plan prefills [0, min(C, L)) and sends [L, C): all, once.
void
ExpectPrefixPlan(const HandoverPlanInput& in, const HandoverPlan& plan, uint64_t L)
{
    ASSERT_EQ(plan.sessions.size(), in.sessions.size());
    for (const HandoverSessionView& v : in.sessions)
    {
        const SessionPlan* p = plan.Find(v.imsi);
        ASSERT_NE(p, nullptr) << v.imsi;
        EXPECT_EQ(p->action, SessionPlan::MIGRATE);
        const auto prefill = HandoverScheduler::Resolve(p->prefill, v.contextTokens);
        const auto transfer = HandoverScheduler::Resolve(p->transfer, v.contextTokens);
        const uint64_t P = std::min(v.contextTokens, L);
        if (P == 0)
        {
            EXPECT_TRUE(prefill.empty());
        }
        else
        {
            ASSERT_EQ(prefill.size(), 1u);
            EXPECT_EQ(prefill[0], (TokenRange{0, P}));
        }
        if (P == v.contextTokens)
        {
            EXPECT_TRUE(transfer.empty());
        }
        else
        {
            ASSERT_EQ(transfer.size(), 1u);
            EXPECT_EQ(transfer[0], (TokenRange{P, v.contextTokens}));
        }
        EXPECT_EQ(p->resume, SessionPlan::ALL_ARRIVED);
    }
}

/// Two UEs on one link of R = 10^4 tokens/s (4.58752 Gb/s of 57344-byte tokens), 10 ms cycles.
HandoverPlanInput
TwoUeGroup()
{
    HandoverPlanInput in = PaperGroup(4.5);
    in.links[0].rateBps = 10000.0 * 8 * 57344;
    in.links[0].plannedRateBps = in.links[0].rateBps;
    in.sessions.resize(2);
    in.sessions[0].contextTokens = 1000;
    in.sessions[0].handoverStartS = 3.00;
    in.sessions[1].contextTokens = 2000;
    in.sessions[1].handoverStartS = 3.05;
    in.links[0].imsis = {1, 2};
    return in;
}

TEST(HandoverSchedulerTest, EachPolicyMatchesAHandDerivedTwoUeGroup)
{
    // C = (1000, 2000), tau = (3.00, 3.05) s, R = 10^4 tokens/s, T_c = 10 ms, the paper's
    // padded batch p(n) = 9.4267e-5 n + 2.4e-3 s. By hand:
    //   t_s = 3.05 (tau_2 is on a boundary), so for 0 < L <= 2000
    //   D_pf(L) = 3.05 + p(L) - 3.00 = 0.0524 + 9.4267e-5 L.
    //   FIFO on the link: F_1 = 3.00 + (1000 - L)^+ / R, F_2 = max(F_1, 3.05) + (2000 - L) / R.
    //   L <= 500: F_1 >= 3.05, D_tx = F_2 - 3.05 = 0.25 - 2 L / R.
    //   500 <= L < 2000: UE 2 starts at 3.05 on an idle link, D_tx = 0.2 - L / R (UE 1, if it
    //   sends, finishes by 3.05).
    //   Crossing: 0.0524 + 9.4267e-5 L = 0.2 - 1e-4 L, L = 0.1476 / 1.94267e-4 = 759.8, so
    //   V(759) = max(0.12394865, 0.1241) = 0.1241 and V(760) = max(0.12404292, 0.124) =
    //   0.12404292: L* = 760, D_tx(760) = 0.124.
    //   tHO: V(2000) = 0.0524 + 0.188534 = 0.240934. cHO: V(0) = D_tx(0) = 0.25.
    const HandoverPlanInput in = TwoUeGroup();

    const HandoverPlan tho = CreateObject<TokenHandoverScheduler>()->Plan(in);
    EXPECT_GE(tho.prefixTokens, 2000u);
    ExpectPrefixPlan(in, tho, tho.prefixTokens);
    EXPECT_NEAR(tho.predictedDelay.GetSeconds(), 0.240934, 2e-9);

    const HandoverPlan cho = CreateObject<CacheHandoverScheduler>()->Plan(in);
    EXPECT_EQ(cho.prefixTokens, 0u);
    ExpectPrefixPlan(in, cho, 0);
    EXPECT_NEAR(cho.predictedDelay.GetSeconds(), 0.25, 2e-9);
    // EDF with deadlines tau_i + D_tx*(0): F_1 = 3.1 is 0.15 early, F_2 = 3.3 is on time.
    EXPECT_NEAR(cho.Find(1)->transferDeadline.GetSeconds(), 0.25, 2e-9);
    EXPECT_NEAR(cho.Find(2)->transferDeadline.GetSeconds(), 0.25, 2e-9);

    const HandoverPlan ctho = CreateObject<CtHoScheduler>()->Plan(in);
    EXPECT_EQ(ctho.prefixTokens, 760u);
    ExpectPrefixPlan(in, ctho, 760);
    EXPECT_NEAR(ctho.predictedDelay.GetSeconds(), 0.12404292, 2e-9);
    // UE 1 sends 240 tokens in [3.000, 3.024], UE 2 1240 in [3.050, 3.174]: D_tx = 0.124.
    EXPECT_NEAR(ctho.Find(1)->transferDeadline.GetSeconds(), 0.124, 2e-9);
    EXPECT_NEAR(ctho.Find(2)->transferDeadline.GetSeconds(), 0.124, 2e-9);

    const HandoverPlan detour = CreateObject<DetourScheduler>()->Plan(in);
    ASSERT_EQ(detour.sessions.size(), 2u);
    for (const SessionPlan& p : detour.sessions)
    {
        EXPECT_EQ(p.action, SessionPlan::RELAY);
    }
}

TEST(HandoverSchedulerTest, TheCtHoViewTakesBacklogQueuedPrefillsAndTheHeaviestModel)
{
    HandoverPlanInput in = PaperGroup(4.5);
    in.links[0].backlogBytes = 57344 * 1000;
    in.targets[0].prefillFreeAtS = 3.2;
    in.sessions[2].kv.bytesPerToken = 2 * 57344;
    const CtHoInput view = CtHoFamilyScheduler::MakeCtHoView(in);
    ASSERT_EQ(view.ues.size(), 4u);
    EXPECT_EQ(view.ues[2].contextTokens, 3072u);
    EXPECT_DOUBLE_EQ(view.ues[3].handoverTime, 3.15);
    // The heaviest token of the group sets R and B_0: 4.5 Gb/s of 114688-byte tokens.
    EXPECT_DOUBLE_EQ(view.backhaulTokensPerSecond, 4.5e9 / 8 / 114688);
    EXPECT_DOUBLE_EQ(view.backlogTokens, 500.0);
    EXPECT_DOUBLE_EQ(view.earliestPrefillStart, 3.2);
    EXPECT_DOUBLE_EQ(view.prefillCycle, 0.01);
    // A queued prefill at the target pushes ctHO's batch back: its delay grows.
    const HandoverPlan idle = CreateObject<CtHoScheduler>()->Plan(PaperGroup(4.5));
    in = PaperGroup(4.5);
    in.targets[0].prefillFreeAtS = 3.5;
    const HandoverPlan busy = CreateObject<CtHoScheduler>()->Plan(in);
    EXPECT_GT(busy.predictedDelay, idle.predictedDelay);
}

TEST(HandoverSchedulerTest, CheckPlanRefusesGapsOverlapsAndNonPrefixPrefills)
{
    const HandoverPlanInput in = PaperGroup(4.5);
    HandoverPlan plan = CreateObject<CtHoScheduler>()->Plan(in);
    EXPECT_EQ(HandoverScheduler::CheckPlan(in, plan, "t"), "");
    HandoverPlan gap = plan;
    gap.sessions[0].transfer = {{gap.sessions[0].transfer[0].first + 16, TokenRange::CONTEXT_END}};
    EXPECT_NE(HandoverScheduler::CheckPlan(in, gap, "t").find("neither prefilled nor sent"),
              std::string::npos);
    HandoverPlan middle = plan;
    middle.sessions[1].prefill = {{16, 32}};
    EXPECT_NE(HandoverScheduler::CheckPlan(in, middle, "t").find("one range [0, P)"),
              std::string::npos);
    HandoverPlan missing = plan;
    missing.sessions.pop_back();
    EXPECT_NE(HandoverScheduler::CheckPlan(in, missing, "t").find("no SessionPlan for imsi"),
              std::string::npos);
    HandoverPlan weight = plan;
    weight.sessions[0].weight = 0;
    EXPECT_NE(HandoverScheduler::CheckPlan(in, weight, "t").find("SessionPlan::weight = 0"),
              std::string::npos);
    // Only an open transfer has a tail to hold for the seal.
    HandoverPlan held = plan;
    held.sessions[0].streamOpen = false;
    EXPECT_NE(HandoverScheduler::CheckPlan(in, held, "t").find("SessionPlan::streamOpen = false"),
              std::string::npos);
    // A partial plan is allowed when it resumes at a deadline: what arrives is what it gets.
    HandoverPlan partial = gap;
    partial.sessions[0].resume = SessionPlan::AT_DEADLINE;
    partial.sessions[0].resumeAfter = MilliSeconds(500);
    EXPECT_EQ(HandoverScheduler::CheckPlan(in, partial, "t"), "");
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
        EXPECT_EQ(edgellm::HandoverSchedulerTypeOf(scheme), type);
    }
    // The registry holds the module's own; an abstract base is not a scheme.
    const std::vector<std::string> registered = edgellm::HandoverSchemeNames();
    for (const char* scheme :
         {"cho", "ctho", "detour", "tho", "impactho", "impact-equal", "impact-pf", "impact-wta"})
    {
        EXPECT_NE(std::find(registered.begin(), registered.end(), scheme), registered.end())
            << scheme;
    }
    for (const edgellm::HandoverScheme& s : edgellm::ListHandoverSchemes())
    {
        EXPECT_NE(s.typeName, "ns3::CtHoFamilyScheduler");
        EXPECT_NE(s.typeName, "ns3::ImpactSlotScheduler");
        EXPECT_NE(s.typeName, "ns3::HandoverScheduler");
    }
    EXPECT_THROW(edgellm::HandoverSchedulerTypeOf("nope"), std::invalid_argument);
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
    in.sessions[1].contextTokens = 0;
    EXPECT_DEATH(CreateObject<CtHoScheduler>()->Plan(in),
                 "HandoverScheduler ctho: HandoverSessionView::contextTokens = 0 for imsi 2");
    in = PaperGroup(4.5);
    in.links[0].plannedRateBps = 0;
    EXPECT_DEATH(CreateObject<CacheHandoverScheduler>()->Plan(in),
                 "HandoverScheduler cho: HandoverLinkView 1 -> 2: rateBps and plannedRateBps");
    in = PaperGroup(4.5);
    in.sessions.clear();
    EXPECT_DEATH(CreateObject<TokenHandoverScheduler>()->Plan(in),
                 "HandoverPlanInput::sessions is empty");
    in = PaperGroup(4.5);
    in.targets.clear();
    EXPECT_DEATH(CreateObject<CtHoScheduler>()->Plan(in), "targets has no view of cell 2");
}

TEST_F(HandoverSchedulerDeathTest, UnknownSchedulerNamesStopTheRun)
{
    Ptr<EdgeLlmHelper> helper = CreateObject<EdgeLlmHelper>();
    EXPECT_DEATH(
        helper->SetSchedulerType("ns3::NoSuchScheduler"),
        "\"ns3::NoSuchScheduler\" is not a HandoverScheduler; allowed: .*ns3::CtHoScheduler");
    EXPECT_DEATH(helper->SetSchedulerType("ns3::LlmEngine"), "is not a HandoverScheduler");
    EXPECT_DEATH(CtHoLineExperiment::SchedulerTypeOf("no-such-scheme"),
                 "--scheme = no-such-scheme is invalid; allowed: one of cho, ctho, detour, .*tho");
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

TEST(CtHoLineConfigCheck, ReportsWithoutStopping)
{
    CtHoLineConfig c;
    EXPECT_EQ(c.Check(), "");
    // Zero is a valid time where it means something: no cycle, no delay, moving at once.
    c.prefillCycle = Seconds(0);
    c.backhaulDelay = Seconds(0);
    c.moveStart = Seconds(0);
    EXPECT_EQ(c.Check(), "");
    c.prefillCycle = MilliSeconds(-1);
    EXPECT_EQ(c.Check().rfind("--prefillCycle = ", 0), 0u) << c.Check();
    EXPECT_NE(c.Check().find("allowed: a time >= 0"), std::string::npos) << c.Check();
    c = CtHoLineConfig();
    c.kvProfile = "Foo";
    EXPECT_EQ(c.Check().rfind("--kvProfile = Foo is invalid; allowed: ", 0), 0u) << c.Check();
    EXPECT_NE(c.Check().find("Qwen2.5-7B-Instruct"), std::string::npos) << c.Check();
    c = CtHoLineConfig();
    c.numUes = 0;
    EXPECT_EQ(c.Check(), "--numUes = 0 is invalid; allowed: an integer in [1, 64]");
}

TEST(FlagChecks, ReadRatesAndTimesNamingTheFlag)
{
    DataRate rate;
    EXPECT_EQ(edgellm::ReadRateFlag("backhaulRate", "2Gbps", rate), "");
    EXPECT_EQ(rate, DataRate("2Gbps"));
    EXPECT_EQ(edgellm::ReadRateFlag("backhaulRate", "-1Gbps", rate),
              "--backhaulRate = -1Gbps is invalid; allowed: a rate > 0, e.g. 4.5Gbps");
    EXPECT_NE(edgellm::ReadRateFlag("backhaulRate", "0Gbps", rate), "");
    Time t;
    EXPECT_EQ(edgellm::ReadTimeFlag("moveStart", "0s", t, true, "2s"), "");
    EXPECT_TRUE(t.IsZero());
    EXPECT_EQ(edgellm::ReadTimeFlag("slot", "0s", t, false, "10ms"),
              "--slot = 0s is invalid; allowed: a time > 0, e.g. 10ms");
    EXPECT_EQ(edgellm::ReadTimeFlag("moveStart", "soon", t, true, "2s"),
              "--moveStart = soon is invalid; allowed: a time >= 0, e.g. 2s");
    EXPECT_NE(edgellm::ReadTimeFlag("moveStart", "-1ms", t, true, "2s"), "");
    EXPECT_NE(edgellm::ReadTimeFlag("moveStart", "1parsec", t, true, "2s"), "");
    EXPECT_EQ(edgellm::ReadTimeFlag("moveStart", "1.5ms", t, true, "2s"), "");
    EXPECT_EQ(t, MicroSeconds(1500));
}

} // namespace

TEST(FlagChecks, SplitListKeepsEmptyItemsForTheirCheck)
{
    using V = std::vector<std::string>;
    EXPECT_EQ(edgellm::SplitList("4"), V({"4"}));
    EXPECT_EQ(edgellm::SplitList("1,2,4"), V({"1", "2", "4"}));
    EXPECT_EQ(edgellm::SplitList(""), V({""}));
    EXPECT_EQ(edgellm::SplitList("4,"), V({"4", ""}));
    EXPECT_EQ(edgellm::SplitList(",4"), V({"", "4"}));
    EXPECT_EQ(edgellm::SplitList("a,,b"), V({"a", "", "b"}));
}
