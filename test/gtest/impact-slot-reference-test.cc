/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The slot reference of ImpactHO: hand-derived runs of a hand-made allocator, aligned and pro
// rata; the curve a part or a whole is scored on; ImpactHO's own allocator against the
// clairvoyant bound on random arrivals; and what it refuses.

#include "invalid-message.h"

#include "ns3/impact-clairvoyant-bound.h"
#include "ns3/impact-ho-scheduler.h"
#include "ns3/impact-slot-reference.h"
#include "ns3/object-factory.h"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>

using namespace ns3;
using edgellmtest::InvalidMessage;
using ::testing::HasSubstr;

namespace
{

/// B / n to each member, whatever it needs.
std::vector<double>
EqualShare(const std::vector<ImpactSlotMember>& members, double capacityBps, double /* slotS */)
{
    return std::vector<double>(members.size(), capacityBps / static_cast<double>(members.size()));
}

/// Two handovers of 1 Gbit on 1 Gb/s, slots of 100 ms, windows of 500 ms, at 0 and 0.25 s.
ImpactSlotReferenceInput
TwoHandovers(ImpactSlotWindow window)
{
    ImpactSlotReferenceInput in;
    in.capacityBps = 1e9;
    in.slotSeconds = 0.1;
    in.windowSeconds = 0.5;
    in.window = window;
    in.ues = {{0.0, 1e9, 0, false}, {0.25, 1e9, 0, false}};
    return in;
}

} // namespace

TEST(ImpactSlotReferenceTest, AlignedWindowsStartAtTheNextSlot)
{
    // The first is served in slots 0 to 4, the second from slot 3 (0.3 s, the first start at
    // or after 0.25 s) to 7. Alone a slot moves 0.1 of a cache, shared 0.05: the first gets
    // 3 x 0.1 + 2 x 0.05 = 0.4, the second 2 x 0.05 + 3 x 0.1 = 0.4, over 8 slots.
    const ImpactSlotReferenceResult r =
        RunImpactSlotReference(TwoHandovers(ImpactSlotWindow::WHOLE_SLOTS), EqualShare);
    ASSERT_EQ(r.fractions.size(), 2u);
    EXPECT_NEAR(r.fractions[0], 0.4, 1e-12);
    EXPECT_NEAR(r.fractions[1], 0.4, 1e-12);
    EXPECT_EQ(r.slots, 8u);
    const ImpactAccuracyModel a(ImpactAccuracyParams{});
    EXPECT_NEAR(r.accuracies[0], a.Accuracy(0.4), 1e-12);
    EXPECT_NEAR(r.meanAccuracy, a.Accuracy(0.4), 1e-12);
}

TEST(ImpactSlotReferenceTest, WindowsToTheDeadlineCutTheirLastSlot)
{
    // The slot hook's timing: from the next slot, until T_max after the handover. The second
    // is served in slots 3 to 6 and half of slot 7 (to 0.75 s): 2 x 0.05 + 2 x 0.1 + 0.05 =
    // 0.35; the first, at a slot's start, as before: 0.4.
    const ImpactSlotReferenceResult r =
        RunImpactSlotReference(TwoHandovers(ImpactSlotWindow::TO_DEADLINE), EqualShare);
    EXPECT_NEAR(r.fractions[0], 0.4, 1e-12);
    EXPECT_NEAR(r.fractions[1], 0.35, 1e-12);
    EXPECT_EQ(r.slots, 8u);
    EXPECT_EQ(ImpactSlotWindowName(ImpactSlotWindow::TO_DEADLINE), "to-deadline");
}

TEST(ImpactSlotReferenceTest, ProRataWindowsStartAtTheHandover)
{
    // The second's window is [0.25, 0.75): half of slot 2, slots 3 to 6, half of slot 7.
    // First: slots 0, 1 alone (0.2), slot 2 shared (0.05), slots 3, 4 shared (0.1): 0.35.
    // Second: slot 2 shared, half (0.025), slots 3, 4 shared (0.1), 5, 6 alone (0.2), half of
    // slot 7 alone (0.05): 0.375.
    const ImpactSlotReferenceResult r =
        RunImpactSlotReference(TwoHandovers(ImpactSlotWindow::PRO_RATA), EqualShare);
    EXPECT_NEAR(r.fractions[0], 0.35, 1e-12);
    EXPECT_NEAR(r.fractions[1], 0.375, 1e-12);
    EXPECT_EQ(r.slots, 8u);
}

TEST(ImpactSlotReferenceTest, APrefixCountsAndAPositionalPartIsARandomPart)
{
    ImpactSlotReferenceInput in;
    in.capacityBps = 1e9;
    in.ues = {// Half prefilled, half of the rest sent by position in 5 slots of 0.1 Gbit.
              {1.0, 1e9, 0.5, true},
              // Not a part: 0.3 Gbit sent whole in 3 slots; random order is no matter then.
              {5.0, 0.3e9, 0.0, false},
              // Nothing to send (re-prefilled whole).
              {9.0, 0, 1.0, true}};
    in.accuracy = ImpactAccuracyParams::RandomOrder();
    const ImpactSlotReferenceResult r = RunImpactSlotReference(in, EqualShare);
    const double ceiling = ImpactAccuracyModel(ImpactAccuracyParams::ImportanceOrder()).Accuracy(1);
    EXPECT_NEAR(r.fractions[0], 0.75, 1e-12);
    EXPECT_NEAR(r.accuracies[0],
                ImpactAccuracyModel(ImpactAccuracyParams::RandomOrder()).Accuracy(0.75),
                1e-12);
    EXPECT_DOUBLE_EQ(r.fractions[1], 1.0);
    EXPECT_DOUBLE_EQ(r.accuracies[1], ceiling);
    EXPECT_DOUBLE_EQ(r.fractions[2], 1.0);
    EXPECT_DOUBLE_EQ(r.accuracies[2], ceiling);
    // 5 slots of the first and 3 of the second; the third is never a member.
    EXPECT_EQ(r.slots, 8u);
}

TEST(ImpactSlotReferenceTest, ImpactHoAloneMovesBTimesItsWindow)
{
    Ptr<ImpactSlotScheduler> s =
        ObjectFactory("ns3::ImpactHoScheduler").Create<ImpactSlotScheduler>();
    auto allocate = [s](const std::vector<ImpactSlotMember>& m, double b, double dt) {
        return s->AllocateSlot(m, b, dt);
    };
    // A 16K-token Qwen3-8B cache on the wire, 2.43 GB, on 20 Gb/s: 2 Gbit a slot, 5 slots.
    ImpactSlotReferenceInput in;
    in.capacityBps = 20e9;
    const double cacheBits = 16384.0 * 36 * 8 * 515 * 8;
    in.ues = {{0.05, cacheBits, 0, false}};
    const ImpactSlotReferenceResult r = RunImpactSlotReference(in, allocate);
    EXPECT_NEAR(r.fractions[0], 5 * 20e9 * 0.1 / cacheBits, 1e-9);
}

TEST(ImpactSlotReferenceTest, ImpactHoNeverBeatsTheClairvoyantBound)
{
    // Random arrivals at rho = 8 on 20 Gb/s, contexts of 4K to 16K tokens: the bound is an
    // LP of the same slots, windows and capacity that knows every arrival.
    for (uint32_t seed = 1; seed <= 5; ++seed)
    {
        SCOPED_TRACE(seed);
        Ptr<ImpactSlotScheduler> s =
            ObjectFactory("ns3::ImpactHoScheduler").Create<ImpactSlotScheduler>();
        auto allocate = [s](const std::vector<ImpactSlotMember>& m, double b, double dt) {
            return s->AllocateSlot(m, b, dt);
        };
        std::mt19937 rng(seed);
        std::exponential_distribution<double> gap(8.0);
        std::uniform_int_distribution<int> context(0, 2);
        ImpactSlotReferenceInput in;
        in.capacityBps = 20e9;
        ImpactClairvoyantInput bound;
        bound.capacityBps = in.capacityBps;
        bound.slotSeconds = in.slotSeconds;
        bound.windowSlots = 5;
        double t = 0;
        for (int i = 0; i < 20; ++i)
        {
            t += gap(rng);
            const double bits = (4096 << context(rng)) * 36.0 * 8 * 515 * 8;
            in.ues.push_back({t, bits, 0, false});
            ImpactClairvoyantUe ue;
            ue.cacheBits = bits;
            ue.arrivalSlot = static_cast<uint32_t>(std::ceil(t / 0.1 - 1e-9));
            bound.ues.push_back(ue);
        }
        const ImpactSlotReferenceResult r = RunImpactSlotReference(in, allocate);
        const double sum = r.meanAccuracy * 20;
        const double upper = SolveImpactClairvoyantBound(bound).bound;
        EXPECT_LE(sum, upper + 1e-9);
        // Water-filling is near the bound at this load (the packet level's 0.95 and more).
        EXPECT_GT(sum, 0.9 * upper);
    }
}

TEST(ImpactSlotReferenceTest, RefusesBadInputByName)
{
    ImpactSlotReferenceInput in = TwoHandovers(ImpactSlotWindow::WHOLE_SLOTS);
    in.capacityBps = 0;
    EXPECT_THAT(InvalidMessage([&] { RunImpactSlotReference(in, EqualShare); }),
                HasSubstr("capacityBps"));
    in = TwoHandovers(ImpactSlotWindow::WHOLE_SLOTS);
    in.windowSeconds = -1;
    EXPECT_THAT(InvalidMessage([&] { RunImpactSlotReference(in, EqualShare); }),
                HasSubstr("windowSeconds"));
    in = TwoHandovers(ImpactSlotWindow::WHOLE_SLOTS);
    in.ues[1].prefixFraction = 1.5;
    EXPECT_THAT(InvalidMessage([&] { RunImpactSlotReference(in, EqualShare); }),
                HasSubstr("ues[1].prefixFraction"));
    in = TwoHandovers(ImpactSlotWindow::WHOLE_SLOTS);
    in.ues[0].handoverS = std::nan("");
    EXPECT_THAT(InvalidMessage([&] { RunImpactSlotReference(in, EqualShare); }),
                HasSubstr("ues[0].handoverS"));
    // An allocator that gives more than B.
    auto greedy = [](const std::vector<ImpactSlotMember>& m, double b, double) {
        return std::vector<double>(m.size(), b);
    };
    EXPECT_THROW(RunImpactSlotReference(TwoHandovers(ImpactSlotWindow::WHOLE_SLOTS), greedy),
                 std::runtime_error);
    // No handover: no slot, a mean of NaN.
    in = TwoHandovers(ImpactSlotWindow::WHOLE_SLOTS);
    in.ues.clear();
    const ImpactSlotReferenceResult none = RunImpactSlotReference(in, EqualShare);
    EXPECT_EQ(none.slots, 0u);
    EXPECT_TRUE(std::isnan(none.meanAccuracy));
}
