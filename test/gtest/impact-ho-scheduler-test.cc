/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ImpactHO's slot hook on hand-made slot inputs: the plan it makes, which sessions a slot
// serves, and byte budgets checked against values derived here from the formulas.

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/impact-ho-scheduler.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A slot at t = 1 s (slot 10 of 100 ms) with one link of \p bps and two sessions on it.
HandoverSlotInput
TwoSessions(double bps, uint64_t bytes1, uint64_t sent1, uint64_t bytes2, uint64_t sent2)
{
    HandoverSlotInput in;
    in.nowS = 1.0;
    in.slot = 10;
    in.slotS = 0.1;
    HandoverLinkView l;
    l.fromCell = 1;
    l.toCell = 2;
    l.rateBps = bps;
    l.imsis = {1, 2};
    l.bottleneck = true;
    in.links.push_back(l);
    for (const auto& [imsi, bytes, sent] :
         {std::tuple<uint64_t, uint64_t, uint64_t>{1, bytes1, sent1},
          std::tuple<uint64_t, uint64_t, uint64_t>{2, bytes2, sent2}})
    {
        MigrationView m;
        m.imsi = imsi;
        m.epoch = 1;
        m.committed = true;
        m.announcedBytes = bytes;
        m.sentBytes = sent;
        m.handoverStartS = 0.95;
        m.unit = KvTransferHeader::ENTRY;
        m.links = {0};
        in.migrations.push_back(m);
    }
    return in;
}

Ptr<HandoverScheduler>
Make(const std::string& type)
{
    ObjectFactory f(type);
    return f.Create<HandoverScheduler>();
}

} // namespace

TEST(ImpactHoSchedulerTest, PlansOneEntryRangeInRankOrderWithTheWindow)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactHoScheduler");
    EXPECT_EQ(s->GetSchemeName(), "impactho");
    EXPECT_EQ(s->GetSlotDuration(), MilliSeconds(100));
    HandoverPlanInput in;
    in.nowS = 1;
    HandoverSessionView v;
    v.imsi = 7;
    v.holderCell = 1;
    v.targetCell = 2;
    v.contextTokens = 4096;
    in.sessions.push_back(v);
    HandoverTargetView t;
    t.cell = 2;
    t.kvCapacityTokens = 1 << 20;
    t.freeKvTokens = 1 << 20;
    in.targets.push_back(t);
    const HandoverPlan plan = s->Plan(in);
    ASSERT_EQ(plan.sessions.size(), 1u);
    const SessionPlan& p = plan.sessions[0];
    EXPECT_EQ(p.action, SessionPlan::MIGRATE);
    EXPECT_TRUE(p.prefill.empty());
    EXPECT_EQ(p.unit, KvTransferHeader::ENTRY);
    ASSERT_EQ(p.transfer.size(), 1u);
    EXPECT_EQ(p.transfer[0].first, 0u);
    EXPECT_EQ(p.transfer[0].end, TokenRange::CONTEXT_END);
    EXPECT_EQ(p.resume, SessionPlan::AT_DEADLINE);
    EXPECT_EQ(p.resumeAfter, MilliSeconds(500));
    s->SetAttribute("Window", TimeValue(Time(0)));
    EXPECT_EQ(s->Plan(in).sessions[0].resume, SessionPlan::ALL_ARRIVED);
}

TEST(ImpactHoSchedulerTest, EqualSharesTheGoodputInWholeEntries)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactEqualScheduler");
    EXPECT_EQ(s->GetSchemeName(), "impact-equal");
    // 1 Gb/s, 95% of it, 100 ms, two sessions: 0.95e9 * 0.1 / 8 / 2 = 5,937,500 bytes each,
    // 11,596 whole entries of 512 bytes = 5,937,152 bytes.
    const SlotBudgets b = s->Slot(TwoSessions(1e9, 600000000, 0, 600000000, 0));
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b.at(1), 5937152u);
    EXPECT_EQ(b.at(2), 5937152u);
}

TEST(ImpactHoSchedulerTest, WaterFillingFinishesWhatIsCheapAndNeverOverdraws)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactHoScheduler");
    // Enough capacity for both (10 Gb/s, 118,750,000 bytes of goodput per slot): each gets
    // exactly what it has left.
    SlotBudgets b = s->Slot(TwoSessions(10e9, 50000000, 10000000, 60000000, 0));
    EXPECT_EQ(b.at(1), 40000000u);
    EXPECT_EQ(b.at(2), 60000000u);
    // Below B_min (session 2 alone needs 4.8 Gbit x 0.065 / 0.1 s = 3.12 Gb/s to reach y0):
    // Equalized-Bytes serves only the session below y0, with the whole goodput
    // (11,875,000 bytes, 23,193 entries); session 1, past y0 at 1/6, waits.
    b = s->Slot(TwoSessions(1e9, 600000000, 100000000, 600000000, 0));
    EXPECT_EQ(b.count(1), 0u);
    EXPECT_EQ(b.at(2), 23193u * 512);
    // Both past y0 (x = 0.11 and 0.10): water-filling first lifts the steeper one (0.10) to
    // the other, a 0.01 of 4.8 Gbit, half the slot's 95 Mbit, then lifts both together:
    // the flatter one gets less, and the budgets fill the goodput to within one entry each.
    b = s->Slot(TwoSessions(1e9, 600000000, 66000000, 600000000, 60000000));
    const double goodputBytes = 0.95 * 1e9 * 0.1 / 8;
    EXPECT_LT(b.at(1), b.at(2));
    EXPECT_LE(b.at(1) + b.at(2), goodputBytes);
    EXPECT_GT(b.at(1) + b.at(2) + 2 * 512, goodputBytes);
}

TEST(ImpactHoSchedulerTest, AHandoverInsideTheSlotWaitsForTheNext)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactHoScheduler");
    HandoverSlotInput in = TwoSessions(1e9, 600000000, 0, 600000000, 0);
    in.nowS = 1.05;
    in.migrations[1].handoverStartS = 1.02; // after slot 10's start at 1.0 s
    const SlotBudgets b = s->Slot(in);
    EXPECT_EQ(b.count(2), 0u);
    ASSERT_EQ(b.count(1), 1u);
    // Alone, it has the whole goodput: 11,875,000 bytes, 23,193 entries.
    EXPECT_EQ(b.at(1), 23193u * 512);
}

TEST(ImpactHoSchedulerTest, SharedRateMakesOneGroupOfAllLinks)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactEqualScheduler");
    s->SetAttribute("SharedRate", DataRateValue(DataRate("1Gbps")));
    HandoverSlotInput in = TwoSessions(10e9, 600000000, 0, 600000000, 0);
    HandoverLinkView other = in.links[0];
    other.fromCell = 3;
    other.toCell = 4;
    in.links.push_back(other);
    in.migrations[1].links = {1};
    const SlotBudgets b = s->Slot(in);
    // One group of 1 Gb/s, as if on one link.
    EXPECT_EQ(b.at(1), 5937152u);
    EXPECT_EQ(b.at(2), 5937152u);
}

TEST(ImpactHoSchedulerTest, RecordsTheFractionThatArrivedAndCompounds)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactHoScheduler");
    const ImpactAccuracyModel model(ImpactAccuracyParams::ImportanceOrder());
    HandoverRecord r;
    r.imsi = 3;
    r.unit = KvTransferHeader::ENTRY;
    r.transferRanges = {{0, 1000}};
    r.arrived = {{0, 250}};
    s->CompleteRecord(r);
    EXPECT_DOUBLE_EQ(r.policyValues.at("fraction_arrived"), 0.25);
    EXPECT_DOUBLE_EQ(r.policyValues.at("accuracy"), model.Accuracy(0.25));
    EXPECT_DOUBLE_EQ(r.policyValues.at("compound_accuracy"), model.Accuracy(0.25));
    HandoverRecord next = r;
    next.policyValues.clear();
    next.arrived = {{0, 500}};
    s->CompleteRecord(next);
    // M (A(0.25) / M) (A(0.5) / M)
    EXPECT_DOUBLE_EQ(next.policyValues.at("compound_accuracy"),
                     model.Accuracy(0.25) * model.Accuracy(0.5) / 0.941);
    // The random order's curve, by the Order attribute.
    Ptr<HandoverScheduler> random = Make("ns3::ImpactHoScheduler");
    random->SetAttribute("Order", StringValue("random"));
    HandoverRecord q = r;
    q.policyValues.clear();
    random->CompleteRecord(q);
    EXPECT_DOUBLE_EQ(q.policyValues.at("accuracy"),
                     ImpactAccuracyModel(ImpactAccuracyParams::RandomOrder()).Accuracy(0.25));
}

TEST(ImpactHoSchedulerTest, AWholeCacheScoresTheImportanceCeilingInAnyOrder)
{
    // The random curve tends to M only as y grows without bound: A_rand(1) = 0.917, but a
    // whole cache is the same cache whichever order its entries came in.
    const double ceiling = ImpactAccuracyModel(ImpactAccuracyParams::ImportanceOrder()).Accuracy(1);
    ASSERT_LT(ImpactAccuracyModel(ImpactAccuracyParams::RandomOrder()).Accuracy(1), ceiling - 0.02);
    for (const std::string type :
         {"ns3::ImpactHoScheduler", "ns3::ImpactEqualScheduler", "ns3::ImpactHybridScheduler"})
    {
        Ptr<HandoverScheduler> s = Make(type);
        s->SetAttribute("Order", StringValue("random"));
        HandoverRecord r;
        r.imsi = 5;
        r.unit = KvTransferHeader::ENTRY;
        r.transferRanges = {{0, 1000}};
        r.arrived = {{0, 1000}};
        s->CompleteRecord(r);
        EXPECT_DOUBLE_EQ(r.policyValues.at("fraction_arrived"), 1.0) << type;
        EXPECT_DOUBLE_EQ(r.policyValues.at("accuracy"), ceiling) << type;
        EXPECT_DOUBLE_EQ(r.policyValues.at("compound_accuracy"), ceiling) << type;
    }
}

TEST(ImpactHoSchedulerTest, ASessionPastItsWindowGetsNoBudget)
{
    // Two sessions of the same need; the first's window ended at the slot's start (1 s), the
    // second's ends later. A late prefix may hold the first's resume: its link must not be.
    for (const std::string type : {"ns3::ImpactHoScheduler", "ns3::ImpactHybridScheduler"})
    {
        Ptr<HandoverScheduler> s = Make(type);
        HandoverSlotInput in = TwoSessions(1e9, 600000000, 0, 600000000, 0);
        in.migrations[0].resumeAtS = 1.0;
        in.migrations[1].resumeAtS = 1.45;
        const SlotBudgets b = s->Slot(in);
        EXPECT_EQ(b.count(1), 0u) << type;
        ASSERT_EQ(b.count(2), 1u) << type;
        EXPECT_GT(b.at(2), 0u) << type;
        // Without a window (resumeAtS < 0) both are served.
        in.migrations[0].resumeAtS = -1;
        in.slot = 11;
        in.nowS = 1.1;
        const SlotBudgets both = s->Slot(in);
        EXPECT_EQ(both.count(1), 1u) << type;
    }
}

TEST(ImpactHoSchedulerTest, ProportionalFairnessEqualisesTheBitsSent)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactPfScheduler");
    EXPECT_EQ(s->GetSchemeName(), "impact-pf");
    // 95 Mbit of goodput; session 2 has sent 40 Mbit, session 1 nothing. The level mu with
    // mu + (mu - 40) = 95 Mbit is 67.5 Mbit: 8,437,500 bytes (16,479 entries) to session 1,
    // 27.5 Mbit = 3,437,500 bytes (6,713 entries) to session 2.
    SlotBudgets b = s->Slot(TwoSessions(1e9, 600000000, 0, 600000000, 5000000));
    EXPECT_EQ(b.at(1), 16479u * 512);
    EXPECT_EQ(b.at(2), 6713u * 512);
    // Session 2 far ahead (480 Mbit sent): the level stays below it, session 1 takes all.
    b = s->Slot(TwoSessions(1e9, 600000000, 0, 600000000, 60000000));
    EXPECT_EQ(b.at(1), 23193u * 512);
    EXPECT_EQ(b.count(2), 0u);
}

TEST(ImpactHoSchedulerTest, WinnerTakeAllCascadesTheCapacity)
{
    Ptr<HandoverScheduler> s = Make("ns3::ImpactWtaScheduler");
    EXPECT_EQ(s->GetSchemeName(), "impact-wta");
    // From x = 0 the curve is still flat (gain 4.2e-10 per bit of the slot's 95 Mbit); from
    // x = 0.1 it is steep (6.4e-10): session 2 takes all, 23,193 entries.
    SlotBudgets b = s->Slot(TwoSessions(1e9, 600000000, 0, 600000000, 60000000));
    EXPECT_EQ(b.count(1), 0u);
    EXPECT_EQ(b.at(2), 23193u * 512);
    // A small cache (5 MB) it can finish wins (2.2e-8 per bit), takes all it has, and the
    // other 55 Mbit cascade to session 2: 6,875,000 bytes, 13,427 entries.
    b = s->Slot(TwoSessions(1e9, 5000000, 0, 600000000, 60000000));
    EXPECT_EQ(b.at(1), 5000000u);
    EXPECT_EQ(b.at(2), 13427u * 512);
}
