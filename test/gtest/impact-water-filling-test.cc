/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "invalid-message.h"

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

/// sum_i S_i b_i, bit/s.
double
TotalRate(const ImpactWaterFillingResult& r)
{
    double total = 0.0;
    for (const auto& u : r.ues)
    {
        total += u.rateBps;
    }
    return total;
}

/// sum_i [A_i(y_i) - A_i(x_i)] of given fractions.
double
Gain(const ImpactWaterFillingInput& in, const std::vector<double>& y)
{
    double gain = 0.0;
    for (std::size_t i = 0; i < in.ues.size(); ++i)
    {
        const ImpactAccuracyModel a(in.ues[i].accuracy);
        gain += a.Accuracy(y[i]) - a.Accuracy(in.ues[i].sentFraction);
    }
    return gain;
}

/// The fractions of a result.
std::vector<double>
Fractions(const ImpactWaterFillingResult& r)
{
    std::vector<double> y;
    for (const auto& u : r.ues)
    {
        y.push_back(u.fraction);
    }
    return y;
}

double
Floor(const ImpactWaterFillingUe& u)
{
    return std::max(u.sentFraction, u.accuracy.inflection);
}

/// Checks the optimality conditions of a WATER_FILLING result.
void
ExpectKkt(const ImpactWaterFillingInput& in, const ImpactWaterFillingResult& r)
{
    ASSERT_EQ(r.mode, ImpactWaterFillingMode::WATER_FILLING);
    const double price = r.lambda / in.slotSeconds; // A_i'(y_i) / S_i for interior UEs
    for (std::size_t i = 0; i < in.ues.size(); ++i)
    {
        const auto& u = in.ues[i];
        const ImpactAccuracyModel a(u.accuracy);
        const double y = r.ues[i].fraction;
        const double marginal = a.Slope(y) / u.cacheBits;
        const double floor = Floor(u);
        EXPECT_GE(y, floor - 1e-12) << "UE " << i;
        EXPECT_LE(y, 1.0) << "UE " << i;
        EXPECT_NEAR(r.ues[i].fractionRate, (y - u.sentFraction) / in.slotSeconds, 1e-12);
        EXPECT_NEAR(r.ues[i].rateBps, u.cacheBits * r.ues[i].fractionRate, 1e-6);
        if (y > floor + 1e-9 && y < 1.0 - 1e-9)
        {
            EXPECT_NEAR(marginal, price, 1e-7 * price) << "interior UE " << i;
        }
        else if (y >= 1.0 - 1e-9)
        {
            EXPECT_GE(marginal, price * (1 - 1e-7)) << "UE " << i << " at 1";
        }
        else
        {
            EXPECT_LE(marginal, price * (1 + 1e-7)) << "UE " << i << " at its floor";
        }
    }
}

ImpactWaterFillingInput
ThreeMixedUes(double capacityBps)
{
    ImpactWaterFillingInput in;
    in.ues = {{4e9, 0.0, ImpactAccuracyParams::ImportanceOrder()},
              {8e9, 0.2, ImpactAccuracyParams{0.8, 20.0, 0.1}},
              {2e9, 0.03, ImpactAccuracyParams::RandomOrder()}};
    in.capacityBps = capacityBps;
    in.slotSeconds = 0.1;
    return in;
}

} // namespace

TEST(ImpactWaterFilling, IdenticalUesSplitEqually)
{
    // Four UEs of 4e9 bit from x = 0, B = 20 Gbit/s, Delta t = 0.1 s: 2e9 bit in the slot, 5e8
    // each, y = 5e8 / 4e9 = 0.125 > y0. B_min = 4 * 4e9 * 0.065 / 0.1 = 10.4 Gbit/s.
    ImpactWaterFillingInput in;
    in.ues.assign(4, {4e9, 0.0, ImpactAccuracyParams::ImportanceOrder()});
    in.capacityBps = 20e9;
    in.slotSeconds = 0.1;
    const ImpactWaterFillingResult r = SolveImpactWaterFilling(in);
    EXPECT_EQ(r.mode, ImpactWaterFillingMode::WATER_FILLING);
    EXPECT_NEAR(r.minimumCapacityBps, 10.4e9, 1.0);
    for (const auto& u : r.ues)
    {
        EXPECT_NEAR(u.rateBps, 5e9, 5e9 * 1e-12);
        EXPECT_NEAR(u.fraction, 0.125, 1e-12);
        EXPECT_NEAR(u.fractionRate, 1.25, 1e-11);
    }
    // lambda* = Delta t A'(0.125) / S.
    const ImpactAccuracyModel a;
    EXPECT_NEAR(r.lambda, 0.1 * a.Slope(0.125) / 4e9, 1e-9 * r.lambda);
    ExpectKkt(in, r);
}

TEST(ImpactWaterFilling, KktAndFullCapacityWhenBinding)
{
    for (double capacity : {15e9, 20e9, 60e9, 120e9})
    {
        const ImpactWaterFillingInput in = ThreeMixedUes(capacity);
        const ImpactWaterFillingResult r = SolveImpactWaterFilling(in);
        ASSERT_EQ(r.mode, ImpactWaterFillingMode::WATER_FILLING) << capacity;
        EXPECT_LE(TotalRate(r), capacity * (1 + 1e-12));
        EXPECT_NEAR(TotalRate(r), capacity, 1e-9 * capacity);
        ExpectKkt(in, r);
    }
}

TEST(ImpactWaterFilling, FallbackBelowMinimumCapacityOnly)
{
    // B_min = (4e9 * 0.065 + 0 + 2e9 * (0.5 - 0.03)) / 0.1 = (2.6e8 + 9.4e8) / 0.1 = 12 Gbit/s;
    // UE 1 is at 0.2, past its y0 = 0.1.
    const double bMin = SolveImpactWaterFilling(ThreeMixedUes(1.0)).minimumCapacityBps;
    EXPECT_NEAR(bMin, 12e9, 1e-3);

    const ImpactWaterFillingResult below = SolveImpactWaterFilling(ThreeMixedUes(0.999 * bMin));
    EXPECT_EQ(below.mode, ImpactWaterFillingMode::EQUALIZED_BYTES);
    EXPECT_TRUE(std::isnan(below.lambda));
    EXPECT_NEAR(TotalRate(below), 0.999 * bMin, 1e-3);

    const ImpactWaterFillingInput atInput = ThreeMixedUes(bMin);
    const ImpactWaterFillingResult at = SolveImpactWaterFilling(atInput);
    EXPECT_EQ(at.mode, ImpactWaterFillingMode::WATER_FILLING);
    for (std::size_t i = 0; i < at.ues.size(); ++i)
    {
        EXPECT_NEAR(at.ues[i].fraction, Floor(atInput.ues[i]), 1e-12) << "UE " << i;
    }

    const ImpactWaterFillingInput aboveInput = ThreeMixedUes(1.001 * bMin);
    const ImpactWaterFillingResult above = SolveImpactWaterFilling(aboveInput);
    EXPECT_EQ(above.mode, ImpactWaterFillingMode::WATER_FILLING);
    EXPECT_NEAR(TotalRate(above), 1.001 * bMin, 1e-9 * bMin);
    ExpectKkt(aboveInput, above);
}

TEST(ImpactWaterFilling, EqualizedBytesSharesWhatCappedUesLeave)
{
    // S = 1e9 bit, Delta t = 0.1 s, y0 = 0.065. Needs to reach y0: UE 0 at x = 0.06 needs
    // 1e9 * 0.005 / 0.1 = 5e7 bit/s, UEs 1 and 2 at 0 need 6.5e8; UE 3 at 0.5 needs nothing.
    // B = 4e8 < B_min = 1.35e9: a third each is 1.333e8, more than UE 0 needs, so UE 0 gets
    // 5e7 and reaches y0, and UEs 1 and 2 share the other 3.5e8: 1.75e8 each.
    ImpactWaterFillingInput in;
    const ImpactAccuracyParams p;
    in.ues = {{1e9, 0.06, p}, {1e9, 0.0, p}, {1e9, 0.0, p}, {1e9, 0.5, p}};
    in.capacityBps = 4e8;
    in.slotSeconds = 0.1;
    const ImpactWaterFillingResult r = SolveImpactWaterFilling(in);
    ASSERT_EQ(r.mode, ImpactWaterFillingMode::EQUALIZED_BYTES);
    EXPECT_NEAR(r.minimumCapacityBps, 1.35e9, 1e-3);
    EXPECT_NEAR(r.ues[0].rateBps, 5e7, 1e-4);
    EXPECT_NEAR(r.ues[0].fraction, 0.065, 1e-12);
    EXPECT_NEAR(r.ues[1].rateBps, 1.75e8, 1e-4);
    EXPECT_NEAR(r.ues[2].rateBps, 1.75e8, 1e-4);
    EXPECT_NEAR(r.ues[1].fraction, 0.0175, 1e-12);
    EXPECT_EQ(r.ues[3].rateBps, 0.0);
    EXPECT_EQ(r.ues[3].fraction, 0.5);
    EXPECT_NEAR(TotalRate(r), 4e8, 1e-4);
}

TEST(ImpactWaterFilling, ZeroCapacityMovesNothing)
{
    // Some UE below y0: infeasible, the fallback shares nothing.
    const ImpactWaterFillingResult fallback = SolveImpactWaterFilling(ThreeMixedUes(0.0));
    EXPECT_EQ(fallback.mode, ImpactWaterFillingMode::EQUALIZED_BYTES);
    // Every UE past y0: feasible, and the optimum keeps everyone where they are.
    ImpactWaterFillingInput in = ThreeMixedUes(0.0);
    in.ues[0].sentFraction = 0.3;
    in.ues[2].sentFraction = 0.6;
    const ImpactWaterFillingResult optimum = SolveImpactWaterFilling(in);
    EXPECT_EQ(optimum.mode, ImpactWaterFillingMode::WATER_FILLING);
    EXPECT_EQ(optimum.minimumCapacityBps, 0.0);
    for (const auto* r : {&fallback, &optimum})
    {
        for (const auto& u : r->ues)
        {
            EXPECT_EQ(u.rateBps, 0.0);
            EXPECT_EQ(u.fractionRate, 0.0);
        }
    }
    for (std::size_t i = 0; i < in.ues.size(); ++i)
    {
        EXPECT_EQ(optimum.ues[i].fraction, in.ues[i].sentFraction);
    }
}

TEST(ImpactWaterFilling, EveryoneToOneWhenCapacityIsNotBinding)
{
    // Everything left: (4e9 + 8e9 * 0.8 + 2e9 * 0.97) / 0.1 = 123.4 Gbit/s.
    for (double capacity : {123.41e9, 200e9})
    {
        ImpactWaterFillingInput in = ThreeMixedUes(capacity);
        in.ues.push_back({1e9, 1.0, ImpactAccuracyParams{}});
        const ImpactWaterFillingResult r = SolveImpactWaterFilling(in);
        EXPECT_EQ(r.mode, ImpactWaterFillingMode::NOT_BINDING) << capacity;
        EXPECT_EQ(r.lambda, 0.0);
        for (const auto& u : r.ues)
        {
            EXPECT_EQ(u.fraction, 1.0);
        }
        EXPECT_EQ(r.ues[3].rateBps, 0.0);
        EXPECT_NEAR(TotalRate(r), 123.4e9, 1e-3);
    }
    // Just below, it binds.
    EXPECT_EQ(SolveImpactWaterFilling(ThreeMixedUes(123.3e9)).mode,
              ImpactWaterFillingMode::WATER_FILLING);
    // No UE at all: nothing to bind.
    ImpactWaterFillingInput none;
    none.capacityBps = 1e9;
    none.slotSeconds = 0.1;
    const ImpactWaterFillingResult empty = SolveImpactWaterFilling(none);
    EXPECT_EQ(empty.mode, ImpactWaterFillingMode::NOT_BINDING);
    EXPECT_TRUE(empty.ues.empty());
}

TEST(ImpactWaterFilling, MatchesBruteForceGridOnRandomInstances)
{
    // The grid puts y_i on (1 - floor_i) / steps steps above its floor for every UE but the last,
    // which takes all that is left (its best, since A is increasing). Rounding the optimum's
    // other coordinates down to the grid keeps it feasible and loses at most
    // A_i'(floor_i) (1 - floor_i) / steps each (A' is largest at the floor above y0), so the
    // grid's best lies within that of the optimum.
    const int steps = 800;
    int instances = 0;
    for (uint64_t seed : {1u, 2u, 3u, 4u})
    {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> u01(0.0, 1.0);
        for (int draw = 0; draw < 50; ++draw, ++instances)
        {
            ImpactWaterFillingInput in;
            const int n = 1 + static_cast<int>(rng() % 3);
            const double slots[] = {0.02, 0.05, 0.1};
            in.slotSeconds = slots[rng() % 3];
            for (int i = 0; i < n; ++i)
            {
                ImpactWaterFillingUe u;
                u.cacheBits = std::pow(10.0, 8.0 + 2.0 * u01(rng));
                u.sentFraction = u01(rng) < 0.5 ? 0.0 : 0.3 * u01(rng);
                u.accuracy = {0.5 + 0.5 * u01(rng), 5.0 + 55.0 * u01(rng), 0.3 * u01(rng)};
                in.ues.push_back(u);
            }
            double bMin = 0.0;
            double all = 0.0;
            for (const auto& u : in.ues)
            {
                bMin += u.cacheBits * (Floor(u) - u.sentFraction) / in.slotSeconds;
                all += u.cacheBits * (1.0 - u.sentFraction) / in.slotSeconds;
            }
            in.capacityBps = bMin + (0.02 + 0.96 * u01(rng)) * (all - bMin);

            const ImpactWaterFillingResult r = SolveImpactWaterFilling(in);
            ASSERT_EQ(r.mode, ImpactWaterFillingMode::WATER_FILLING) << "seed " << seed;
            EXPECT_LE(TotalRate(r), in.capacityBps * (1 + 1e-12));
            const double solver = Gain(in, Fractions(r));

            const double budget = in.capacityBps * in.slotSeconds; // bits in the slot
            std::vector<double> y(n);
            double grid = -1.0;
            double resolution = 0.0;
            const auto& last = in.ues[n - 1];
            std::vector<int> idx(n - 1, 0);
            for (int i = 0; i + 1 < n; ++i)
            {
                resolution += ImpactAccuracyModel(in.ues[i].accuracy).Slope(Floor(in.ues[i])) *
                              (1.0 - Floor(in.ues[i])) / steps;
            }
            while (true)
            {
                double used = 0.0;
                for (int i = 0; i + 1 < n; ++i)
                {
                    const double f = Floor(in.ues[i]);
                    y[i] = f + (1.0 - f) * idx[i] / steps;
                    used += in.ues[i].cacheBits * (y[i] - in.ues[i].sentFraction);
                }
                const double lastY =
                    std::min(1.0, last.sentFraction + (budget - used) / last.cacheBits);
                if (lastY >= Floor(last))
                {
                    y[n - 1] = lastY;
                    grid = std::max(grid, Gain(in, y));
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
            ASSERT_GE(grid, 0.0);
            EXPECT_GE(solver, grid - 1e-9) << "seed " << seed << " draw " << draw;
            EXPECT_LE(solver, grid + resolution + 1e-9) << "seed " << seed << " draw " << draw;
        }
    }
    EXPECT_EQ(instances, 200);
}

TEST(ImpactWaterFilling, BadInputIsRefusedByName)
{
    const auto refused = [](auto change) {
        ImpactWaterFillingInput in = ThreeMixedUes(1e9);
        change(in);
        return InvalidMessage([&in] { SolveImpactWaterFilling(in); });
    };
    EXPECT_THAT(
        refused([](auto& in) { in.ues[1].cacheBits = 0.0; }),
        HasSubstr("ues[1].cacheBits (S, bit) = 0 is invalid; allowed: a finite number > 0"));
    EXPECT_THAT(
        refused([](auto& in) { in.ues[0].sentFraction = 1.5; }),
        HasSubstr("ues[0].sentFraction (x) = 1.5 is invalid; allowed: a fraction in [0, 1]"));
    EXPECT_THAT(refused([](auto& in) { in.ues[2].sentFraction = -0.1; }),
                HasSubstr("ues[2].sentFraction (x)"));
    EXPECT_THAT(refused([](auto& in) { in.capacityBps = -1.0; }),
                HasSubstr("capacityBps (B, bit/s) = -1 is invalid; allowed: a finite number >= 0"));
    EXPECT_THAT(refused([](auto& in) { in.slotSeconds = 0.0; }),
                HasSubstr("slotSeconds (Delta t, s) = 0 is invalid; allowed: a finite number > 0"));
    EXPECT_THAT(refused([](auto& in) { in.ues[2].accuracy.steepness = 0.0; }),
                HasSubstr("ues[2].accuracy.steepness (k) = 0 is invalid"));
    EXPECT_EQ(ToString(ImpactWaterFillingMode::WATER_FILLING), "water-filling");
    EXPECT_EQ(ToString(ImpactWaterFillingMode::NOT_BINDING), "not-binding");
    EXPECT_EQ(ToString(ImpactWaterFillingMode::EQUALIZED_BYTES), "equalized-bytes");
}
