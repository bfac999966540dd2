/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "invalid-message.h"

#include "ns3/impact-clairvoyant-bound.h"
#include "ns3/impact-water-filling.h"

#include <algorithm>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;
using edgellmtest::InvalidMessage;
using ::testing::HasSubstr;

namespace
{

/// GLPK's simplex meets its bounds to about 1e-7, relative.
const double kLpTolerance = 1e-6;

ImpactAccuracyParams
RandomCurve(std::mt19937_64& rng)
{
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    return {0.5 + 0.5 * u01(rng), 5.0 + 55.0 * u01(rng), 0.3 * u01(rng)};
}

/// The online scheme: every slot, water-filling over the UEs in transfer; returns each y_i.
std::vector<double>
OnlineFractions(const ImpactClairvoyantInput& in)
{
    std::vector<double> x(in.ues.size(), 0.0);
    uint32_t end = 0;
    for (const auto& u : in.ues)
    {
        end = std::max(end, u.arrivalSlot + in.windowSlots);
    }
    for (uint32_t t = 0; t < end; ++t)
    {
        ImpactWaterFillingInput slot;
        slot.capacityBps = in.capacityBps;
        slot.slotSeconds = in.slotSeconds;
        std::vector<std::size_t> active;
        for (std::size_t i = 0; i < in.ues.size(); ++i)
        {
            const auto& u = in.ues[i];
            if (u.arrivalSlot <= t && t < u.arrivalSlot + in.windowSlots)
            {
                active.push_back(i);
                slot.ues.push_back({u.cacheBits, x[i], u.accuracy});
            }
        }
        const ImpactWaterFillingResult r = SolveImpactWaterFilling(slot);
        double used = 0.0;
        for (std::size_t j = 0; j < active.size(); ++j)
        {
            x[active[j]] = r.ues[j].fraction;
            used += r.ues[j].rateBps;
        }
        EXPECT_LE(used, in.capacityBps * (1 + 1e-12) + 1e-6) << "slot " << t;
    }
    return x;
}

} // namespace

TEST(ImpactClairvoyantBound, HandWorkedCases)
{
    ImpactClairvoyantInput in;
    in.capacityBps = 20e9;
    in.slotSeconds = 0.1;
    in.windowSlots = 5;
    // One UE of 8e9 bit with 1e10 bit of window: it gets all of its cache, A(1).
    in.ues = {{8e9, 3, ImpactAccuracyParams{}}};
    const ImpactAccuracyModel a;
    ImpactClairvoyantResult r = SolveImpactClairvoyantBound(in);
    ASSERT_EQ(r.fractions.size(), 1u);
    EXPECT_NEAR(r.fractions[0], 1.0, kLpTolerance);
    EXPECT_NEAR(r.bound, a.Accuracy(1.0), kLpTolerance);
    EXPECT_NEAR(r.envelopeValue, a.Accuracy(1.0), kLpTolerance);

    // No capacity: every UE stays at 0, and the bound is sum_i A_i(0).
    in.capacityBps = 0.0;
    in.ues.push_back({2e9, 0, ImpactAccuracyParams::RandomOrder()});
    r = SolveImpactClairvoyantBound(in);
    const ImpactAccuracyModel random(ImpactAccuracyParams::RandomOrder());
    EXPECT_NEAR(r.bound, a.Accuracy(0.0) + random.Accuracy(0.0), kLpTolerance);
    EXPECT_NEAR(r.fractions[0], 0.0, kLpTolerance);
    EXPECT_NEAR(r.fractions[1], 0.0, kLpTolerance);

    // Two UEs of 2e10 bit whose windows do not overlap: each has 1e10 bit to itself, y = 0.5.
    in.capacityBps = 20e9;
    in.ues = {{2e10, 0, ImpactAccuracyParams{}}, {2e10, 5, ImpactAccuracyParams{}}};
    r = SolveImpactClairvoyantBound(in);
    EXPECT_NEAR(r.fractions[0], 0.5, kLpTolerance);
    EXPECT_NEAR(r.fractions[1], 0.5, kLpTolerance);
    EXPECT_NEAR(r.envelopeValue, 2 * a.Accuracy(0.5), kLpTolerance);
    EXPECT_GE(r.bound, r.envelopeValue - kLpTolerance);
    EXPECT_LE(r.bound, r.envelopeValue + r.approximationGap + kLpTolerance);

    // No UE: nothing to bound.
    in.ues.clear();
    r = SolveImpactClairvoyantBound(in);
    EXPECT_EQ(r.bound, 0.0);
    EXPECT_TRUE(r.fractions.empty());
}

TEST(ImpactClairvoyantBound, NeverBelowTheOnlineWaterFilling)
{
    int instances = 0;
    for (uint64_t seed : {11u, 12u, 13u})
    {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> u01(0.0, 1.0);
        for (int draw = 0; draw < 10; ++draw, ++instances)
        {
            ImpactClairvoyantInput in;
            in.slotSeconds = 0.1;
            in.windowSlots = 2 + static_cast<uint32_t>(rng() % 5);
            const int n = 1 + static_cast<int>(rng() % 8);
            for (int i = 0; i < n; ++i)
            {
                in.ues.push_back({std::pow(10.0, 9.0 + u01(rng)),
                                  static_cast<uint32_t>(rng() % 10),
                                  RandomCurve(rng)});
            }
            // From scarce (the online falls back) to plenty.
            in.capacityBps = std::pow(10.0, 9.0 + 2.0 * u01(rng));

            const ImpactClairvoyantResult r = SolveImpactClairvoyantBound(in);
            const std::vector<double> online = OnlineFractions(in);
            double accuracy = 0.0;
            double envelope = 0.0;
            for (std::size_t i = 0; i < in.ues.size(); ++i)
            {
                const ImpactAccuracyModel a(in.ues[i].accuracy);
                accuracy += a.Accuracy(online[i]);
                envelope += ImpactAccuracyEnvelope(a).Value(online[i]);
            }
            EXPECT_GE(r.bound, envelope - kLpTolerance) << "seed " << seed << " draw " << draw;
            EXPECT_GE(r.bound, accuracy - kLpTolerance) << "seed " << seed << " draw " << draw;
            EXPECT_GE(r.bound, r.envelopeValue - kLpTolerance);
            EXPECT_LE(r.bound, r.envelopeValue + r.approximationGap + kLpTolerance);
            ASSERT_EQ(r.fractions.size(), in.ues.size());
        }
    }
    EXPECT_EQ(instances, 30);
}

TEST(ImpactClairvoyantBound, MatchesBruteForceGridOnSharedSlots)
{
    // All UEs share the same W slots, so the slot constraints add up to one budget of
    // B Delta t W bits. The grid puts every UE but the last on steps steps of [0, 1]; the last
    // takes what is left. Rounding the optimum down to the grid loses at most env_i'(0) / steps
    // per UE (the envelope's slope is largest at 0), and the LP's tangents add at most
    // approximationGap: so the bound lies in [grid, grid + resolution + gap].
    const int steps = 1000;
    int instances = 0;
    for (uint64_t seed : {21u, 22u, 23u})
    {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> u01(0.0, 1.0);
        for (int draw = 0; draw < 10; ++draw, ++instances)
        {
            ImpactClairvoyantInput in;
            in.slotSeconds = 0.05;
            in.windowSlots = 1 + static_cast<uint32_t>(rng() % 4);
            in.tangentCount = 200;
            const uint32_t arrival = static_cast<uint32_t>(rng() % 3);
            const int n = 1 + static_cast<int>(rng() % 3);
            double total = 0.0;
            std::vector<ImpactAccuracyEnvelope> env;
            for (int i = 0; i < n; ++i)
            {
                in.ues.push_back({std::pow(10.0, 9.0 + u01(rng)), arrival, RandomCurve(rng)});
                env.emplace_back(ImpactAccuracyModel(in.ues.back().accuracy));
                total += in.ues.back().cacheBits;
            }
            const double budget = (0.05 + 0.9 * u01(rng)) * total;
            in.capacityBps = budget / (in.slotSeconds * in.windowSlots);

            const ImpactClairvoyantResult r = SolveImpactClairvoyantBound(in);

            double resolution = 0.0;
            for (int i = 0; i + 1 < n; ++i)
            {
                resolution += env[i].Slope(0.0) / steps;
            }
            double grid = -1.0;
            std::vector<int> idx(n - 1, 0);
            while (true)
            {
                double used = 0.0;
                double value = 0.0;
                for (int i = 0; i + 1 < n; ++i)
                {
                    const double y = static_cast<double>(idx[i]) / steps;
                    used += in.ues[i].cacheBits * y;
                    value += env[i].Value(y);
                }
                if (used <= budget)
                {
                    const double lastY = std::min(1.0, (budget - used) / in.ues[n - 1].cacheBits);
                    grid = std::max(grid, value + env[n - 1].Value(lastY));
                }
                int i = 0;
                while (i + 1 < n && ++idx[i] > steps)
                {
                    idx[i++] = 0;
                }
                if (i + 1 >= n)
                {
                    break;
                }
            }
            EXPECT_GE(r.bound, grid - kLpTolerance) << "seed " << seed << " draw " << draw;
            EXPECT_LE(r.bound, grid + resolution + r.approximationGap + kLpTolerance)
                << "seed " << seed << " draw " << draw;
            EXPECT_LE(r.envelopeValue, grid + resolution + kLpTolerance);
            EXPECT_LT(r.approximationGap, 1e-3 * n);
        }
    }
    EXPECT_EQ(instances, 30);
}

TEST(ImpactClairvoyantBound, BadInputIsRefusedByName)
{
    const auto refused = [](auto change) {
        ImpactClairvoyantInput in;
        in.ues = {{1e9, 0, ImpactAccuracyParams{}}, {1e9, 2, ImpactAccuracyParams{}}};
        in.capacityBps = 1e9;
        in.slotSeconds = 0.1;
        in.windowSlots = 5;
        change(in);
        return InvalidMessage([&in] { SolveImpactClairvoyantBound(in); });
    };
    EXPECT_THAT(refused([](auto& in) { in.windowSlots = 0; }),
                HasSubstr("windowSlots (W) = 0 is invalid; allowed: an integer >= 1"));
    EXPECT_THAT(refused([](auto& in) { in.tangentCount = 1; }),
                HasSubstr("tangentCount = 1 is invalid; allowed: an integer >= 2"));
    EXPECT_THAT(refused([](auto& in) { in.ues[1].cacheBits = -1.0; }),
                HasSubstr("ues[1].cacheBits (S, bit) = -1 is invalid"));
    EXPECT_THAT(refused([](auto& in) { in.capacityBps = std::nan(""); }),
                HasSubstr("capacityBps (B, bit/s) = nan is invalid"));
    EXPECT_THAT(refused([](auto& in) { in.slotSeconds = -0.1; }),
                HasSubstr("slotSeconds (Delta t, s) = -0.1 is invalid"));
    EXPECT_THAT(refused([](auto& in) { in.ues[0].accuracy.fullAccuracy = 2.0; }),
                HasSubstr("ues[0].accuracy.fullAccuracy (M) = 2 is invalid"));
}
