/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PallasScheduler is pure logic over its inputs: its prepare split, its admission check, its
// reactive fallback (ctHO's plan) and its window loop, checked on hand-made inputs.

#include "ns3/cache-handover-scheduler.h"
#include "ns3/ctho-scheduler.h"
#include "ns3/double.h"
#include "ns3/handover-scheme-registry.h"
#include "ns3/nstime.h"
#include "ns3/pallas-scheduler.h"
#include "ns3/pallas-window-model.h"
#include "ns3/token-handover-scheduler.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// One session of 1000 tokens on a 300 Mb/s link to an idle target.
HandoverPlanInput
OneSession(uint64_t context, uint64_t freeKv, bool handedOver)
{
    HandoverPlanInput in;
    in.nowS = 2.0;
    HandoverSessionView v;
    v.imsi = 7;
    v.holderCell = 1;
    v.targetCell = 2;
    v.contextTokens = context;
    v.tokensLeft = 100;
    v.decodeTokensPerSecond = 40;
    v.handoverStartS = handedOver ? 2.0 : 2.5;
    v.handedOver = handedOver;
    v.kv.bytesPerToken = 262144;
    v.links = {0};
    in.sessions.push_back(v);
    HandoverLinkView link;
    link.fromCell = 1;
    link.toCell = 2;
    link.rateBps = 300e6;
    link.plannedRateBps = 300e6;
    link.imsis = {7};
    in.links.push_back(link);
    HandoverTargetView target;
    target.cell = 2;
    target.prefillCycleS = 0.01;
    target.freeKvTokens = freeKv;
    target.kvCapacityTokens = 100000;
    target.compute = LlmComputeModel::FromPreset("qwen3-32b-awq-a6000");
    in.targets.push_back(target);
    return in;
}

} // namespace

TEST(PallasScheduler, PrepareSplitsAtTheLastFullBlock)
{
    Ptr<PallasScheduler> s = CreateObject<PallasScheduler>();
    const HandoverPlanInput in = OneSession(1000, 100000, false);
    const HandoverPlan plan = s->Prepare(in);
    ASSERT_EQ(plan.sessions.size(), 1u);
    const SessionPlan& p = plan.sessions.front();
    EXPECT_TRUE(p.keepDecoding);
    ASSERT_EQ(p.prefill.size(), 1u);
    EXPECT_EQ(p.prefill.front(), (TokenRange{0, 992})); // 62 blocks of 16
    ASSERT_EQ(p.transfer.size(), 1u);
    EXPECT_EQ(p.transfer.front(), (TokenRange{992, TokenRange::CONTEXT_END}));
    EXPECT_EQ(plan.prefixTokens, 992u);
    EXPECT_EQ(s->GetPrepared(), 1u);
    EXPECT_EQ(s->GetAdmissionRefusals(), 0u);
    // The target is busy with the prefix's prefill from now: a window for it is that longer.
    const double prefill = in.targets.front().compute.PrefillTime(992);
    EXPECT_NEAR((s->GetWindowFor(2, 2.0) - s->GetWindow()).GetSeconds(), prefill, 1e-9);
    EXPECT_NEAR((s->GetWindowFor(2, 2.0 + prefill / 2) - s->GetWindow()).GetSeconds(),
                prefill / 2,
                1e-9);
    EXPECT_EQ(s->GetWindowFor(2, 2.0 + prefill), s->GetWindow());
    EXPECT_EQ(s->GetWindowFor(3, 2.0), s->GetWindow());
}

TEST(PallasScheduler, RefusesATargetWithoutRoomAndCountsIt)
{
    Ptr<PallasScheduler> s = CreateObject<PallasScheduler>();
    // 1000 context + 100 left do not fit in 1099 free tokens.
    EXPECT_TRUE(s->Prepare(OneSession(1000, 1099, false)).sessions.empty());
    EXPECT_EQ(s->GetAdmissionRefusals(), 1u);
    EXPECT_EQ(s->Prepare(OneSession(1000, 1100, false)).sessions.size(), 1u);
    EXPECT_EQ(s->GetAdmissionRefusals(), 1u);
}

TEST(PallasScheduler, ReactivePlanIsCtHos)
{
    Ptr<PallasScheduler> pallas = CreateObject<PallasScheduler>();
    Ptr<CtHoScheduler> ctho = CreateObject<CtHoScheduler>();
    const HandoverPlanInput in = OneSession(3000, 100000, true);
    const HandoverPlan a = pallas->Plan(in);
    const HandoverPlan b = ctho->Plan(in);
    EXPECT_EQ(a.prefixTokens, b.prefixTokens);
    EXPECT_GT(a.prefixTokens, 0u);
    EXPECT_LT(a.prefixTokens, 3000u);
    EXPECT_EQ(a.predictedDelay, b.predictedDelay);
    ASSERT_EQ(a.sessions.size(), 1u);
    EXPECT_FALSE(a.sessions.front().keepDecoding);
    EXPECT_EQ(pallas->GetReactivePlans(), 1u);
}

TEST(PallasScheduler, WindowLoopFollowsTheTelemetry)
{
    Ptr<PallasScheduler> s = CreateObject<PallasScheduler>();
    s->SetAttribute("EwmaWeight", DoubleValue(1.0));
    s->SetAttribute("ControlPeriod", TimeValue(MilliSeconds(100)));
    // No telemetry yet: the window is WindowLimit.
    EXPECT_EQ(s->GetWindow(), MilliSeconds(1500));
    std::vector<Time> traced;
    s->TraceConnectWithoutContext("Window", Callback<void, Time, Time>([&traced](Time w, Time) {
                                      traced.push_back(w);
                                  }));
    PallasTelemetry t;
    t.contextTokens = 1000;
    t.decodeTokensPerSecond = 40;
    t.prefillTokensPerSecond = 2000; // T_hist = 0.5 s
    t.loadS = 0;
    t.backhaulKvTokensPerSecond = 143; // 300 Mb/s of 262,144-byte tokens
    s->Observe(t, 1.0);
    ASSERT_EQ(traced.size(), 1u);
    // Its model's choice: the grid point at or after T_hist (J rises after it).
    PallasWindowInput in = s->GetWindowInput();
    EXPECT_EQ(in.prefixTokens, 992u);
    const PallasWindowChoice expected = PallasWindowModel(in).Choose();
    EXPECT_DOUBLE_EQ(s->GetWindow().GetSeconds(), expected.windowS);
    EXPECT_NEAR(s->GetWindow().GetSeconds(), 0.5, 0.05);
    // Within the period: averaged, but not chosen anew.
    t.prefillTokensPerSecond = 1000; // T_hist = 1 s
    s->Observe(t, 1.05);
    EXPECT_EQ(traced.size(), 1u);
    s->Observe(t, 1.10);
    ASSERT_EQ(traced.size(), 2u);
    EXPECT_NEAR(s->GetWindow().GetSeconds(), 1.0, 0.05);
    // A margin is added on top.
    s->SetAttribute("WindowMargin", TimeValue(MilliSeconds(300)));
    EXPECT_NEAR(s->GetWindow().GetSeconds(), 1.3, 0.05);
}

TEST(PallasScheduler, BaselinesAreAliasesUnderTheirOwnNames)
{
    EXPECT_EQ(edgellm::HandoverSchedulerTypeOf("pallas"), "ns3::PallasScheduler");
    EXPECT_EQ(edgellm::HandoverSchedulerTypeOf("pallas-full-copy"), "ns3::CacheHandoverScheduler");
    EXPECT_EQ(edgellm::HandoverSchedulerTypeOf("pallas-recompute"), "ns3::TokenHandoverScheduler");
    for (const char* name : {"pallas-full-copy", "pallas-recompute"})
    {
        EXPECT_EQ(edgellm::HandoverSchemeFactory(name).Create<HandoverScheduler>()->GetSchemeName(),
                  name);
    }
    // The base types keep their own names.
    EXPECT_EQ(CreateObject<CacheHandoverScheduler>()->GetSchemeName(), "cho");
    EXPECT_EQ(CreateObject<TokenHandoverScheduler>()->GetSchemeName(), "tho");
}

TEST(PallasScheduler, PreparesWithinTheWindowPlusLeadPeriods)
{
    Ptr<PallasScheduler> s = CreateObject<PallasScheduler>();
    s->SetAttribute("WindowLimit", TimeValue(MilliSeconds(1000)));
    HandoverPredictionView v;
    v.imsi = 1;
    v.servingCell = 1;
    v.targetCell = 2;
    v.now = Seconds(10);
    v.period = MilliSeconds(100);
    // Before any telemetry the window is WindowLimit: 1 s + one period of lead.
    v.handoverAt = Seconds(11.1);
    EXPECT_TRUE(s->ShouldPrepare(v));
    v.handoverAt = Seconds(11.2);
    EXPECT_FALSE(s->ShouldPrepare(v));
    v.queuedAhead = MilliSeconds(100);
    EXPECT_TRUE(s->ShouldPrepare(v));
    s->SetAttribute("PrepareLeadPeriods", UintegerValue(0));
    EXPECT_FALSE(s->ShouldPrepare(v));
    // A prepared migration for another target: kept while the new one is prepared instead,
    // cancelled when it is not; a withdrawn prediction cancels.
    v.prepared = true;
    v.preparedTarget = 3;
    v.handoverAt = Seconds(10.5);
    EXPECT_FALSE(s->ShouldCancel(v));
    v.handoverAt = Seconds(12);
    EXPECT_TRUE(s->ShouldCancel(v));
    v.preparedTarget = 2;
    EXPECT_FALSE(s->ShouldCancel(v));
    v.targetCell = 0;
    EXPECT_TRUE(s->ShouldCancel(v));
    v.prepared = false;
    EXPECT_FALSE(s->ShouldCancel(v));
}

TEST(HandoverScheduler, DefaultHooksNeverPrepare)
{
    Ptr<HandoverScheduler> s = CreateObject<CtHoScheduler>();
    HandoverPredictionView v;
    v.servingCell = 1;
    v.targetCell = 2;
    v.now = Seconds(1);
    v.handoverAt = Seconds(1);
    EXPECT_FALSE(s->ShouldPrepare(v));
    v.prepared = true;
    v.preparedTarget = 2;
    EXPECT_FALSE(s->ShouldCancel(v));
    v.targetCell = 3;
    EXPECT_TRUE(s->ShouldCancel(v));
}
