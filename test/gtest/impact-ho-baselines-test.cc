/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ImpactHO's token-unit baselines (hybrid, re-prefill), the full-cache ceiling and
// ImpactHO's overload options, on hand-made plan and slot inputs; every expected value is
// derived here from the formulas.

#include "ns3/ctho-scheduler.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/handover-scheme-registry.h"
#include "ns3/impact-accuracy-model.h"
#include "ns3/impact-ho-baselines.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

Ptr<HandoverScheduler>
Make(const std::string& type)
{
    ObjectFactory f(type);
    return f.Create<HandoverScheduler>();
}

/**
 * A slot at t = 1 s (slot 10 of 100 ms) on one link of 1 Gb/s (95 Mbit of goodput in the
 * slot): one session per (imsi, handover start, announced bytes, sent bytes), in \p unit.
 */
HandoverSlotInput
Slot(const std::vector<std::tuple<uint64_t, double, uint64_t, uint64_t>>& sessions,
     KvTransferHeader::RangeUnit unit)
{
    HandoverSlotInput in;
    in.nowS = 1.0;
    in.slot = 10;
    in.slotS = 0.1;
    HandoverLinkView l;
    l.fromCell = 1;
    l.toCell = 2;
    l.rateBps = 1e9;
    in.links.push_back(l);
    for (const auto& [imsi, start, bytes, sent] : sessions)
    {
        MigrationView m;
        m.imsi = imsi;
        m.epoch = 1;
        m.committed = true;
        m.announcedBytes = bytes;
        m.sentBytes = sent;
        m.handoverStartS = start;
        m.unit = unit;
        m.links = {0};
        in.migrations.push_back(m);
        in.links[0].imsis.push_back(imsi);
    }
    in.links[0].bottleneck = sessions.size() > 1;
    return in;
}

/// One session of \p context tokens handing over at t = 1 s, to a target whose prefill is
/// p(L) = 20 ms + 0.13 ms x L and starts at once (no cycle, nothing queued), over 1 Gb/s.
HandoverPlanInput
OneHandover(uint64_t context)
{
    HandoverPlanInput in;
    in.nowS = 1;
    HandoverSessionView v;
    v.imsi = 7;
    v.holderCell = 1;
    v.targetCell = 2;
    v.contextTokens = context;
    v.handoverStartS = 1;
    v.links = {0};
    in.sessions.push_back(v);
    HandoverLinkView l;
    l.fromCell = 1;
    l.toCell = 2;
    l.rateBps = 1e9;
    l.plannedRateBps = 1e9;
    l.imsis = {7};
    in.links.push_back(l);
    HandoverTargetView t;
    t.cell = 2;
    t.kvCapacityTokens = 1 << 20;
    t.freeKvTokens = 1 << 20;
    t.compute = LlmComputeModel(PrefillCurve::Linear(1.3e-4, 0.02),
                                BatchPrefillMode::TOKEN_COUNT,
                                DecodeStepModel{0.01, 0, 0});
    in.targets.push_back(t);
    return in;
}

} // namespace

TEST(ImpactHoBaselinesTest, HybridServesTheEarliestHandoverFirstInWholeTokens)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactHybridScheduler");
    EXPECT_EQ(s->GetSchemeName(), "impact-hybrid");
    // Session 2 handed over first (0.90 s): it takes the slot's 95 Mbit = 11,875,000 bytes,
    // in whole tokens of 57,344 bytes: 207 tokens. Session 1 gets nothing.
    SlotBudgets b =
        s->Slot(Slot({{1, 0.95, 600000000, 0}, {2, 0.90, 600000000, 0}}, KvTransferHeader::TOKEN));
    EXPECT_EQ(b.at(2), 207u * 57344);
    EXPECT_EQ(b.count(1), 0u);
    // Session 2 has 5,000,000 bytes left: it takes them all (a last part of a token
    // included), and the other 6,875,000 bytes go to session 1: 119 tokens.
    b = s->Slot(
        Slot({{1, 0.95, 600000000, 0}, {2, 0.90, 600000000, 595000000}}, KvTransferHeader::TOKEN));
    EXPECT_EQ(b.at(2), 5000000u);
    EXPECT_EQ(b.at(1), 119u * 57344);
}

TEST(ImpactHoBaselinesTest, HybridPlansCtHosSplitInPositionOrderWithTheWindow)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactHybridScheduler");
    const HandoverPlanInput in = OneHandover(8192);
    const HandoverPlan plan = s->Plan(in);
    const HandoverPlan ctho = Make("ns3::CtHoScheduler")->Plan(in);
    ASSERT_EQ(plan.sessions.size(), 1u);
    const SessionPlan& p = plan.sessions[0];
    // ctHO's L, which here is strictly inside the context: both halves are used.
    EXPECT_EQ(plan.prefixTokens, ctho.prefixTokens);
    ASSERT_GT(plan.prefixTokens, 0u);
    ASSERT_LT(plan.prefixTokens, 8192u);
    ASSERT_EQ(p.prefill.size(), 1u);
    EXPECT_EQ(p.prefill[0].first, 0u);
    EXPECT_EQ(p.prefill[0].end, plan.prefixTokens);
    ASSERT_EQ(p.transfer.size(), 1u);
    EXPECT_EQ(p.transfer[0].first, plan.prefixTokens);
    EXPECT_EQ(p.transfer[0].end, TokenRange::CONTEXT_END);
    EXPECT_EQ(p.unit, KvTransferHeader::TOKEN);
    EXPECT_EQ(p.resume, SessionPlan::AT_DEADLINE);
    EXPECT_EQ(p.resumeAfter, MilliSeconds(500));
}

TEST(ImpactHoBaselinesTest, ReprefillStopsThePrefixAtTheWindow)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactReprefillScheduler");
    EXPECT_EQ(s->GetSchemeName(), "impact-reprefill");
    // p(L) = 0.02 + 1.3e-4 L <= 0.5 s for L <= 3692.3: L_w = 3692 of 8192.
    HandoverPlan plan = s->Plan(OneHandover(8192));
    EXPECT_EQ(plan.prefixTokens, 3692u);
    const SessionPlan& p = plan.sessions[0];
    ASSERT_EQ(p.prefill.size(), 1u);
    EXPECT_EQ(p.prefill[0].end, 3692u);
    ASSERT_EQ(p.transfer.size(), 1u);
    EXPECT_EQ(p.transfer[0].first, 3692u);
    EXPECT_EQ(p.resume, SessionPlan::AT_DEADLINE);
    // A window of 200 ms: L <= 1384.6.
    s->SetAttribute("Window", TimeValue(MilliSeconds(200)));
    EXPECT_EQ(s->Plan(OneHandover(8192)).prefixTokens, 1384u);
    // A window shorter than p's constant part: nothing fits.
    s->SetAttribute("Window", TimeValue(MilliSeconds(10)));
    EXPECT_EQ(s->Plan(OneHandover(8192)).prefixTokens, 0u);
    // No window: the whole context, tHO.
    s->SetAttribute("Window", TimeValue(Time(0)));
    plan = s->Plan(OneHandover(8192));
    EXPECT_EQ(plan.prefixTokens, 8192u);
    EXPECT_EQ(plan.sessions[0].resume, SessionPlan::ALL_ARRIVED);
    // The slots never fund its transfer.
    EXPECT_TRUE(
        s->Slot(Slot({{1, 0.9, 600000000, 0}, {2, 0.9, 50000000, 0}}, KvTransferHeader::TOKEN))
            .empty());
}

TEST(ImpactHoBaselinesTest, TokenPlansCountThePrefixAndUseTheRandomCurveForAPart)
{
    const ImpactAccuracyModel random(ImpactAccuracyParams::RandomOrder());
    const ImpactAccuracyModel importance(ImpactAccuracyParams::ImportanceOrder());
    for (const std::string type : {"ns3::ImpactHybridScheduler", "ns3::ImpactReprefillScheduler"})
    {
        Ptr<HandoverScheduler> s = Make(type);
        HandoverRecord r;
        r.imsi = 3;
        r.unit = KvTransferHeader::TOKEN;
        r.contextTokens = 8000;
        r.prefillTokens = 2000;
        r.transferRanges = {{2000, 8000}};
        r.arrived = {{2000, 3000}, {3000, 4000}};
        s->CompleteRecord(r);
        // (2000 + 2000) / 8000
        EXPECT_DOUBLE_EQ(r.policyValues.at("fraction_arrived"), 0.5) << type;
        EXPECT_DOUBLE_EQ(r.policyValues.at("accuracy"), random.Accuracy(0.5)) << type;
        HandoverRecord whole = r;
        whole.imsi = 4;
        whole.policyValues.clear();
        whole.arrived = {{2000, 8000}};
        s->CompleteRecord(whole);
        EXPECT_DOUBLE_EQ(whole.policyValues.at("fraction_arrived"), 1.0) << type;
        EXPECT_DOUBLE_EQ(whole.policyValues.at("accuracy"), importance.Accuracy(1.0)) << type;
    }
}

TEST(ImpactHoBaselinesTest, AStallsReprefilledTokensCountAsArrived)
{
    // 2000 prefilled, 2000 arrived, 4000 re-prefilled after a stall: the whole context.
    const ImpactAccuracyModel importance(ImpactAccuracyParams::ImportanceOrder());
    const ImpactAccuracyModel random(ImpactAccuracyParams::RandomOrder());
    for (const std::string type : {"ns3::ImpactHybridScheduler", "ns3::ImpactReprefillScheduler"})
    {
        Ptr<HandoverScheduler> s = Make(type);
        HandoverRecord r;
        r.imsi = 3;
        r.unit = KvTransferHeader::TOKEN;
        r.contextTokens = 8000;
        r.prefillTokens = 2000;
        r.transferRanges = {{2000, 8000}};
        r.arrived = {{2000, 4000}};
        r.reprefillTokens = 4000;
        s->CompleteRecord(r);
        EXPECT_DOUBLE_EQ(r.policyValues.at("fraction_arrived"), 1.0) << type;
        EXPECT_DOUBLE_EQ(r.policyValues.at("accuracy"), importance.Accuracy(1.0)) << type;
    }
    // impact-full (prefix 0) with half its context arrived and a quarter re-prefilled: 3/4 of
    // it, held by position, worth a random part.
    Ptr<HandoverScheduler> full =
        edgellm::HandoverSchemeFactory("impact-full").Create<HandoverScheduler>();
    HandoverRecord r;
    r.unit = KvTransferHeader::TOKEN;
    r.contextTokens = 8192;
    r.transferRanges = {{0, 8192}};
    r.arrived = {{0, 4096}};
    r.reprefillTokens = 2048;
    full->CompleteRecord(r);
    EXPECT_DOUBLE_EQ(r.policyValues.at("fraction_arrived"), 0.75);
    EXPECT_DOUBLE_EQ(r.policyValues.at("accuracy"), random.Accuracy(0.75));
}

TEST(ImpactHoBaselinesTest, FullCacheIsCacheHandoverWithAnAccuracy)
{
    EXPECT_EQ(edgellm::HandoverSchedulerTypeOf("impact-full"), "ns3::CacheHandoverScheduler");
    Ptr<HandoverScheduler> s =
        edgellm::HandoverSchemeFactory("impact-full").Create<HandoverScheduler>();
    EXPECT_EQ(s->GetSchemeName(), "impact-full");
    const HandoverPlanInput in = OneHandover(8192);
    const HandoverPlan plan = s->Plan(in);
    const HandoverPlan cho = Make("ns3::CacheHandoverScheduler")->Plan(in);
    EXPECT_EQ(plan.prefixTokens, 0u);
    ASSERT_EQ(plan.sessions.size(), cho.sessions.size());
    EXPECT_TRUE(plan.sessions[0].prefill.empty());
    EXPECT_EQ(plan.sessions[0].transfer, cho.sessions[0].transfer);
    EXPECT_EQ(plan.sessions[0].resume, SessionPlan::ALL_ARRIVED);
    HandoverRecord r;
    r.transferRanges = {{0, 8192}};
    r.arrived = {{0, 8192}};
    s->CompleteRecord(r);
    EXPECT_DOUBLE_EQ(r.policyValues.at("fraction_arrived"), 1.0);
    EXPECT_DOUBLE_EQ(r.policyValues.at("accuracy"),
                     ImpactAccuracyModel(ImpactAccuracyParams::ImportanceOrder()).Accuracy(1.0));
    // Plain cHO records no accuracy.
    HandoverRecord plain;
    plain.transferRanges = {{0, 8192}};
    plain.arrived = {{0, 8192}};
    Make("ns3::CacheHandoverScheduler")->CompleteRecord(plain);
    EXPECT_EQ(plain.policyValues.count("accuracy"), 0u);
}

TEST(ImpactHoBaselinesTest, OverloadOptionsBelowBmin)
{
    // Three sessions at x = 0 of 400, 100 and 200 Mbit (50, 12.5 and 25 MB): reaching
    // y0 = 0.065 needs 26, 6.5 and 13 Mbit, B_min = 455 Mb/s over the slot, above the 95 Mbit
    // the 1 Gb/s link gives (B = 950 Mb/s... of goodput: 95 Mbit in 100 ms). So scale the
    // caches up tenfold: 4000, 1000 and 2000 Mbit need 260, 65 and 130 Mbit, none of which
    // fit beside another in 95 Mbit, and B_min = 4550 Mb/s > 950 Mb/s.
    const auto in = Slot({{1, 0.9, 500000000, 0}, {2, 0.9, 125000000, 0}, {3, 0.9, 250000000, 0}},
                         KvTransferHeader::ENTRY);
    Ptr<HandoverScheduler> s = Make("ns3::ImpactHoScheduler");
    // Equalized-Bytes: 95 / 3 Mbit each, none capped (the caps are 65 Mbit and more):
    // 3,958,333 bytes, 7,731 entries of 512 bytes each.
    SlotBudgets b = s->Slot(in);
    ASSERT_EQ(b.size(), 3u);
    for (uint64_t imsi : {1, 2, 3})
    {
        EXPECT_EQ(b.at(imsi), 7731u * 512) << imsi;
    }
    // Admission: the smallest need (session 2, 65 Mbit) fits, the next (130 Mbit) does not:
    // session 2 alone water-fills with 95 Mbit, more than it needs for y0, so the solver
    // gives it all 95 Mbit (its slope at 0.095 is still positive): 23,193 entries.
    s->SetAttribute("Overload", StringValue("admission"));
    b = s->Slot(in);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b.at(2), 23193u * 512);
    // Winner-take-all: the best gain per bit of 95 Mbit is the smallest cache's, which it
    // takes all of: A(0.095) - A(0) on 1000 Mbit beats A(0.0475) - A(0) and A(0.02375) - A(0).
    s->SetAttribute("Overload", StringValue("winner-take-all"));
    b = s->Slot(in);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b.at(2), 23193u * 512);
}

TEST(ImpactHoBaselinesTest, AdmissionWithNoNeedThatFitsServesTheCheapest)
{
    // Two sessions whose needs (260 and 130 Mbit) both exceed the slot's 95 Mbit: the
    // cheapest (session 2) gets everything.
    const auto in = Slot({{1, 0.9, 500000000, 0}, {2, 0.9, 250000000, 0}}, KvTransferHeader::ENTRY);
    Ptr<HandoverScheduler> s = Make("ns3::ImpactHoScheduler");
    s->SetAttribute("Overload", StringValue("admission"));
    const SlotBudgets b = s->Slot(in);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b.at(2), 23193u * 512);
}

TEST(ImpactHoBaselinesTest, NoAdmissionScalesEveryNeedToTheSlot)
{
    // The caches of OverloadOptionsBelowBmin (needs 260, 65 and 130 Mbit to reach y0, B_min
    // Delta t = 455 Mbit against the slot's 95 Mbit), and a fourth session already past y0
    // (x = 0.1), which needs nothing. By hand, each need times 95 / 455: 54.2857, 13.5714 and
    // 27.1429 Mbit, that is 6,785,714, 1,696,428 and 3,392,857 bytes: 13,253, 3,313 and 6,626
    // whole entries of 512 bytes. Nobody reaches y0; Equalized-Bytes would give 7,731 each.
    const auto in = Slot({{1, 0.9, 500000000, 0},
                          {2, 0.9, 125000000, 0},
                          {3, 0.9, 250000000, 0},
                          {4, 0.9, 250000000, 25000000}},
                         KvTransferHeader::ENTRY);
    Ptr<HandoverScheduler> s = Make("ns3::ImpactHoScheduler");
    s->SetAttribute("Overload", StringValue("no-admission"));
    const SlotBudgets b = s->Slot(in);
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b.at(1), 13253u * 512);
    EXPECT_EQ(b.at(2), 3313u * 512);
    EXPECT_EQ(b.at(3), 6626u * 512);
    EXPECT_EQ(b.count(4), 0u);
}

TEST(ImpactAccuracyModelInverse, ReachesTheAccuracyAskedFor)
{
    const ImpactAccuracyModel a(ImpactAccuracyParams::ImportanceOrder());
    // 0.99 M: w = 0.98, u = 0.98 / sqrt(1 - 0.9604) = 4.92468, y = 0.065 + u / 30 = 0.229156.
    EXPECT_NEAR(a.InverseAccuracy(0.99 * 0.941), 0.229156, 1e-6);
    // M / 2 is the inflection.
    EXPECT_DOUBLE_EQ(a.InverseAccuracy(0.941 / 2), 0.065);
    EXPECT_EQ(a.InverseAccuracy(0.941), std::numeric_limits<double>::infinity());
    EXPECT_EQ(a.InverseAccuracy(0), -std::numeric_limits<double>::infinity());
    // The random order never reaches 0.99 M within the cache: y = 0.5 + 4.92468 / 6 > 1.
    EXPECT_NEAR(
        ImpactAccuracyModel(ImpactAccuracyParams::RandomOrder()).InverseAccuracy(0.99 * 0.941),
        1.320781,
        1e-6);
}
