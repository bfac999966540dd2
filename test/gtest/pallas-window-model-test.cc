/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Pallas's window model at hand-computed points and in each regime, its grid search against a
// brute force written out here and against the minimiser derived below, and its refusals.
//
// Derivation. With rho = 8 r_d s_KV / B, the suffix streams rho times slower than it is made,
// so T_res(T_w) = max(0, (rho - 1) T_w). For T_w < T_hist / max(1, rho) the prefix term
// T_hist - T_w is the largest, and J falls with slope -alpha; beyond it J rises: with slope
// alpha (rho - 1) while T_w < T_hist (if rho > 1), then alpha max(0, rho - 1) + 1 - alpha.
// So for alpha in (0, 1) J is convex with its minimum at T* = min(T_hist / max(1, rho),
// T_limit), and the grid's minimiser is within Delta T of T*. With alpha = 1 and rho <= 1,
// J = T_SIT is flat at T_0 from T_hist on, and the smallest such grid point wins. With
// alpha = 0, J = T_early is 0 on [0, T_hist], and the smallest window, 0, wins.
//
// Without streaming nothing crosses before the handover: T_res = rho T_w, which rises from 0
// while T_hist - T_w falls, so T_SIT is least where they meet, T_w = T_hist / (1 + rho), and
// for alpha in (0, 1) so is J (it falls with slope -alpha before, rises after): T* =
// min(T_hist / (1 + rho), T_limit).
//
// With S_0 bytes sent ahead and streaming (the ablation without recompute, L_hist = 0 and
// T_hist = T_load), sigma = 8 S_0 / B and rho < 1: T_res = max(0, sigma - (1 - rho) T_w)
// reaches 0 at T_a = sigma / (1 - rho). If T_hist < T_a, J falls with slope -alpha (1 - rho)
// up to T_hist and with -alpha (1 - rho) + (1 - alpha) from there to T_a, then rises with
// 1 - alpha: T* = T_a when alpha (1 - rho) > 1 - alpha, else T_hist.

#include "invalid-message.h"

#include "ns3/pallas-window-model.h"

#include <algorithm>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>

using namespace ns3;
using edgellmtest::InvalidMessage;
using ::testing::HasSubstr;

namespace
{

/// T_hist = 0.2 + 1000 / 2000 = 0.7 s; the stream makes 25 * 131072 * 8 = 26,214,400 bit/s.
PallasWindowInput
Session(double backhaulBps)
{
    PallasWindowInput in;
    in.radioInterruptionS = 0.05;
    in.loadS = 0.2;
    in.prefixTokens = 1000;
    in.prefillTokensPerSecond = 2000;
    in.decodeTokensPerSecond = 25;
    in.kvBytesPerToken = 131072;
    in.backhaulBps = backhaulBps;
    in.alpha = 0.8;
    in.gridStepS = 0.01;
    in.windowLimitS = 2.0;
    return in;
}

/// The model's formulas written out again, apart from the model's code.
struct Formulas
{
    explicit Formulas(const PallasWindowInput& in)
        : p(in)
    {
    }

    double History() const
    {
        return p.loadS + static_cast<double>(p.prefixTokens) / p.prefillTokensPerSecond;
    }

    double Sit(double w) const
    {
        const double bytes = p.historyBytes + p.decodeTokensPerSecond * w * p.kvBytesPerToken;
        const double residual = std::max(0.0, bytes * 8.0 / p.backhaulBps - (p.streaming ? w : 0));
        return p.radioInterruptionS + std::max({0.0, History() - w, residual});
    }

    double Early(double w) const
    {
        return std::max(0.0, w - History());
    }

    double J(double w) const
    {
        return p.alpha * Sit(w) + (1.0 - p.alpha) * Early(w);
    }

    PallasWindowInput p;
};

TEST(PallasWindowModelTest, HandComputedPoints)
{
    // B = 10 Mbit/s: rho = 26,214,400 / 1e7 = 2.62144.
    const PallasWindowModel slow(Session(1e7));
    EXPECT_DOUBLE_EQ(slow.HistoryTime(), 0.7);
    // T_w = 0.2: S_inc = 25 * 0.2 * 131072 = 655,360 B; 8 S_inc / B = 0.524288 s;
    // T_res = 0.324288 s < T_hist - T_w = 0.5 s, so T_SIT = 0.05 + 0.5 = 0.55 s.
    EXPECT_DOUBLE_EQ(slow.IncrementBytes(0.2), 655360.0);
    EXPECT_NEAR(slow.ResidualTime(0.2), 0.324288, 1e-12);
    EXPECT_NEAR(slow.Sit(0.2), 0.55, 1e-12);
    EXPECT_DOUBLE_EQ(slow.EarlyTime(0.2), 0.0);
    // J = 0.8 * 0.55 + 0.2 * 0 = 0.44.
    EXPECT_NEAR(slow.Cost(0.2), 0.44, 1e-12);
    // T_w = 0.5: S_inc = 1,638,400 B; 8 S_inc / B = 1.31072 s; T_res = 0.81072 s > 0.2 s, so
    // T_SIT = 0.05 + 0.81072 = 0.86072 s.
    EXPECT_NEAR(slow.Sit(0.5), 0.86072, 1e-12);

    // B = 100 Mbit/s: rho = 0.262144 < 1, the stream keeps up and T_res = 0.
    const PallasWindowModel fast(Session(1e8));
    // T_w = 1: T_hist - T_w = -0.3, so T_SIT = T_0 = 0.05 s; T_early = 1 - 0.7 = 0.3 s;
    // J = 0.8 * 0.05 + 0.2 * 0.3 = 0.1.
    EXPECT_DOUBLE_EQ(fast.ResidualTime(1.0), 0.0);
    EXPECT_NEAR(fast.Sit(1.0), 0.05, 1e-12);
    EXPECT_NEAR(fast.EarlyTime(1.0), 0.3, 1e-12);
    EXPECT_NEAR(fast.Cost(1.0), 0.1, 1e-12);
    // T_w = 0: the whole history is still to prefill: T_SIT = 0.05 + 0.7 = 0.75 s.
    EXPECT_NEAR(fast.Sit(0.0), 0.75, 1e-12);
}

TEST(PallasWindowModelTest, ThreeRegimes)
{
    const PallasWindowModel slow(Session(1e7));
    // Prefix-bound: at T_w = 0.2, T_hist - T_w = 0.5 s beats T_res = 0.324288 s.
    EXPECT_EQ(slow.Regime(0.2), PallasSitRegime::PREFIX);
    EXPECT_NEAR(slow.Sit(0.2) - 0.05, slow.HistoryTime() - 0.2, 1e-12);
    // Stream-bound: at T_w = 0.5, T_res = 0.81072 s beats T_hist - T_w = 0.2 s.
    EXPECT_EQ(slow.Regime(0.5), PallasSitRegime::STREAM);
    EXPECT_NEAR(slow.Sit(0.5) - 0.05, slow.ResidualTime(0.5), 1e-12);
    // On the slow link the regimes meet at T_w = T_hist / rho = 0.7 / 2.62144 = 0.267029 s,
    // where T_SIT is least, 0.05 + 0.7 - 0.267029 = 0.482971 s; it is never at the floor.
    const double meet = 0.7 / 2.62144;
    EXPECT_NEAR(slow.Sit(meet), 0.05 + 0.7 - meet, 1e-12);
    EXPECT_NE(slow.Regime(1.0), PallasSitRegime::FLOOR);

    const PallasWindowModel fast(Session(1e8));
    // At the floor: from T_w = T_hist on, the prefix is ready and the stream keeps up.
    EXPECT_EQ(fast.Regime(0.7), PallasSitRegime::FLOOR);
    EXPECT_EQ(fast.Regime(1.5), PallasSitRegime::FLOOR);
    EXPECT_DOUBLE_EQ(fast.Sit(1.5), 0.05);
    EXPECT_EQ(fast.Regime(0.69), PallasSitRegime::PREFIX);

    EXPECT_EQ(ToString(PallasSitRegime::FLOOR), "floor");
    EXPECT_EQ(ToString(PallasSitRegime::PREFIX), "prefix");
    EXPECT_EQ(ToString(PallasSitRegime::STREAM), "stream");
}

TEST(PallasWindowModelTest, ChoiceAtTheDerivedMinimiser)
{
    // rho < 1: T* = T_hist = 0.7 s, a grid point; T_SIT = T_0 there and nothing is early.
    const PallasWindowChoice fast = PallasWindowModel(Session(1e8)).Choose();
    EXPECT_NEAR(fast.windowS, 0.7, 1e-12);
    EXPECT_NEAR(fast.sitS, 0.05, 1e-12);
    EXPECT_NEAR(fast.earlyS, 0.0, 1e-12);
    EXPECT_NEAR(fast.cost, 0.8 * 0.05, 1e-12);
    EXPECT_EQ(fast.gridPoints, 201u); // 0, 0.01, ..., 2

    // rho = 2.62144: T* = 0.267029 s, between the grid points 0.26 and 0.27.
    // J(0.26) = 0.8 (0.05 + max(0.44, 1.62144 * 0.26 = 0.4215744)) = 0.8 * 0.49 = 0.392;
    // J(0.27) = 0.8 (0.05 + max(0.43, 1.62144 * 0.27 = 0.4377888)) = 0.8 * 0.4877888.
    const PallasWindowChoice slow = PallasWindowModel(Session(1e7)).Choose();
    EXPECT_NEAR(slow.windowS, 0.27, 1e-12);
    EXPECT_NEAR(slow.sitS, 0.4877888, 1e-12);
    EXPECT_NEAR(slow.cost, 0.8 * 0.4877888, 1e-12);

    // T_limit below T*: the longest window allowed, 0.5 s.
    PallasWindowInput capped = Session(1e8);
    capped.windowLimitS = 0.5;
    EXPECT_NEAR(PallasWindowModel(capped).Choose().windowS, 0.5, 1e-12);
}

TEST(PallasWindowModelTest, WithoutStreamingByHand)
{
    // B = 10 Mbit/s, rho = 2.62144, T_hist = 0.7 s; the suffix waits for the handover.
    PallasWindowInput in = Session(1e7);
    in.streaming = false;
    const PallasWindowModel held(in);
    // T_w = 0.2: S_inc = 655,360 B, all of it after the handover: T_res = 0.524288 s, above
    // T_hist - T_w = 0.5 s; T_SIT = 0.05 + 0.524288 = 0.574288 s (streamed: 0.55 s).
    EXPECT_NEAR(held.ResidualTime(0.2), 0.524288, 1e-12);
    EXPECT_NEAR(held.Sit(0.2), 0.574288, 1e-12);
    EXPECT_EQ(held.Regime(0.2), PallasSitRegime::STREAM);
    // T_w = 0: nothing to send; T_SIT = 0.05 + 0.7.
    EXPECT_EQ(held.ResidualTime(0.0), 0.0);
    EXPECT_NEAR(held.Sit(0.0), 0.75, 1e-12);
    // T* = 0.7 / 3.62144 = 0.193293 s, between 0.19 and 0.20:
    // J(0.19) = 0.8 (0.05 + max(0.51, 2.62144 * 0.19 = 0.4980736)) = 0.8 * 0.56 = 0.448;
    // J(0.20) = 0.8 * 0.574288 = 0.4594304.
    const PallasWindowChoice c = held.Choose();
    EXPECT_NEAR(c.windowS, 0.19, 1e-12);
    EXPECT_NEAR(c.sitS, 0.56, 1e-12);
    EXPECT_NEAR(c.cost, 0.448, 1e-12);
}

TEST(PallasWindowModelTest, HistoryAheadByHand)
{
    // Nothing recomputed: L_hist = 0, so T_hist = T_load = 0.2 s, and the history's 1000
    // tokens, S_0 = 131,072,000 B, go first. B = 1 Gbit/s: sigma = 1.048576 s and
    // rho = 0.0262144.
    PallasWindowInput in = Session(1e9);
    in.prefixTokens = 0;
    in.historyBytes = 1000.0 * 131072;
    const PallasWindowModel ahead(in);
    EXPECT_DOUBLE_EQ(ahead.HistoryTime(), 0.2);
    // T_w = 0.5: 8 (S_0 + 1,638,400) / B = 1.0616832 s; T_res = 0.5616832 s; the prefix term
    // is -0.3, so T_SIT = 0.6116832 s.
    EXPECT_NEAR(ahead.ResidualTime(0.5), 0.5616832, 1e-12);
    EXPECT_NEAR(ahead.Sit(0.5), 0.6116832, 1e-12);
    EXPECT_EQ(ahead.Regime(0.5), PallasSitRegime::STREAM);
    // T_a = 1.048576 / 0.9737856 = 1.076802 s; alpha (1 - rho) = 0.779 > 0.2, so T* = T_a:
    // J(1.07) = 0.8 (0.05 + 1.048576 - 0.9737856 * 1.07) + 0.2 * 0.87 = 0.2193003;
    // J(1.08) = 0.8 * 0.05 + 0.2 * 0.88 = 0.216, the stream done by the handover.
    const PallasWindowChoice c = ahead.Choose();
    EXPECT_NEAR(c.windowS, 1.08, 1e-12);
    EXPECT_NEAR(c.sitS, 0.05, 1e-12);
    EXPECT_NEAR(c.cost, 0.216, 1e-12);
    EXPECT_NEAR(ahead.Cost(1.07), 0.8 * (0.05 + 1.048576 - 0.9737856 * 1.07) + 0.2 * 0.87, 1e-12);
    // alpha = 0.2: alpha (1 - rho) = 0.1948 < 0.8, so T* = T_hist = 0.2 s:
    // J(0.2) = 0.2 (0.05 + 1.048576 - 0.9737856 * 0.2) = 0.180763776.
    in.alpha = 0.2;
    const PallasWindowChoice light = PallasWindowModel(in).Choose();
    EXPECT_NEAR(light.windowS, 0.2, 1e-12);
    EXPECT_NEAR(light.cost, 0.180763776, 1e-12);
    // Held back as well, the whole cache crosses after the handover: T_res = sigma + rho T_w.
    in.streaming = false;
    EXPECT_NEAR(PallasWindowModel(in).ResidualTime(0.5), 1.0616832, 1e-12);
}

TEST(PallasWindowModelTest, AlphaOneMinimisesSitAlone)
{
    // rho < 1: T_SIT is T_0 from T_hist = 0.7 s on. With Delta T = 0.03 the first grid point
    // there is 24 * 0.03 = 0.72 (23 * 0.03 = 0.69 leaves 0.01 s of prefill).
    PallasWindowInput in = Session(1e8);
    in.alpha = 1.0;
    in.gridStepS = 0.03;
    const PallasWindowChoice flat = PallasWindowModel(in).Choose();
    EXPECT_NEAR(flat.windowS, 0.72, 1e-12);
    EXPECT_NEAR(flat.sitS, 0.05, 1e-12);
    EXPECT_NEAR(flat.cost, flat.sitS, 1e-15);

    // rho > 1: T_SIT alone is least at T_hist / rho; the grid's best, by the formulas here.
    in = Session(1e7);
    in.alpha = 1.0;
    const PallasWindowChoice sharp = PallasWindowModel(in).Choose();
    const Formulas f(in);
    double least = f.Sit(0.0);
    for (int k = 1; k <= 200; ++k)
    {
        least = std::min(least, f.Sit(k * 0.01));
    }
    EXPECT_NEAR(sharp.sitS, least, 1e-12);
    EXPECT_NEAR(sharp.windowS, 0.27, 1e-12);
}

TEST(PallasWindowModelTest, AlphaZeroStartsAtTheHandover)
{
    // J = T_early is 0 for every window up to T_hist; the smallest, 0, wins, and the UE waits
    // T_0 + T_hist.
    for (double bps : {1e7, 1e8})
    {
        PallasWindowInput in = Session(bps);
        in.alpha = 0.0;
        const PallasWindowChoice c = PallasWindowModel(in).Choose();
        EXPECT_EQ(c.windowS, 0.0) << bps;
        EXPECT_EQ(c.cost, 0.0) << bps;
        EXPECT_EQ(c.earlyS, 0.0) << bps;
        EXPECT_NEAR(c.sitS, 0.05 + 0.7, 1e-12) << bps;
    }
}

TEST(PallasWindowModelTest, ZeroLimitGivesZeroWindow)
{
    PallasWindowInput in = Session(1e8);
    in.windowLimitS = 0.0;
    const PallasWindowChoice c = PallasWindowModel(in).Choose();
    EXPECT_EQ(c.windowS, 0.0);
    EXPECT_EQ(c.gridPoints, 1u);
    EXPECT_NEAR(c.sitS, 0.75, 1e-12);
}

TEST(PallasWindowModelTest, GridEndsAtTheLimitDespiteRounding)
{
    // 0.3 / 0.1 is 2.9999999999999996: the point 0.3 still counts, and is not exceeded.
    PallasWindowInput in = Session(1e8);
    in.gridStepS = 0.1;
    in.windowLimitS = 0.3;
    const PallasWindowChoice c = PallasWindowModel(in).Choose();
    EXPECT_EQ(c.gridPoints, 4u);
    EXPECT_LE(c.windowS, 0.3);
    EXPECT_NEAR(c.windowS, 0.3, 1e-15);
    // A limit between grid points is not itself a point.
    in.windowLimitS = 0.35;
    EXPECT_EQ(PallasWindowModel(in).Choose().gridPoints, 4u);
}

TEST(PallasWindowModelTest, RandomInstancesAgainstBruteForce)
{
    const double sizes[] = {57344, 131072, 262144};
    for (unsigned seed : {1u, 2u, 3u, 4u, 5u})
    {
        std::mt19937_64 rng(seed);
        auto uniform = [&rng](double lo, double hi) {
            return std::uniform_real_distribution<double>(lo, hi)(rng);
        };
        for (int instance = 0; instance < 20; ++instance)
        {
            PallasWindowInput in;
            in.radioInterruptionS = uniform(0.0, 0.1);
            in.loadS = uniform(0.0, 1.0);
            in.prefixTokens = static_cast<uint64_t>(uniform(0.0, 5000.0));
            in.prefillTokensPerSecond = uniform(500.0, 20000.0);
            in.decodeTokensPerSecond = uniform(5.0, 100.0);
            in.kvBytesPerToken = sizes[std::uniform_int_distribution<int>(0, 2)(rng)];
            in.backhaulBps = uniform(1e7, 1e9);
            in.alpha = uniform(0.05, 0.99);
            in.gridStepS = uniform(0.005, 0.1);
            in.windowLimitS = uniform(0.0, 5.0);
            // A third of the instances hold the suffix back, a third send a history ahead.
            const int variant = instance % 3;
            in.streaming = variant != 1;
            if (variant == 2)
            {
                in.historyBytes = uniform(0.0, 1e8);
            }
            const PallasWindowChoice c = PallasWindowModel(in).Choose();
            const Formulas f(in);
            const std::string where =
                "seed " + std::to_string(seed) + " instance " + std::to_string(instance);

            // The choice is a grid point within the limit, and its values are the formulas'.
            const double k = c.windowS / in.gridStepS;
            EXPECT_NEAR(k, std::round(k), 1e-6) << where;
            EXPECT_LE(c.windowS, in.windowLimitS) << where;
            EXPECT_NEAR(c.cost, f.J(c.windowS), 1e-12) << where;
            EXPECT_NEAR(c.sitS, f.Sit(c.windowS), 1e-12) << where;
            EXPECT_NEAR(c.earlyS, f.Early(c.windowS), 1e-12) << where;

            // No point of the same grid is better.
            const auto last = static_cast<int>(std::floor(in.windowLimitS / in.gridStepS));
            for (int j = 0; j <= last; ++j)
            {
                EXPECT_LE(c.cost, f.J(j * in.gridStepS) + 1e-12) << where << " point " << j;
            }

            // A grid 100 times finer does better by at most J's steepest slope times Delta T,
            // and its minimiser is within Delta T of the choice (J is convex).
            const double fine = in.gridStepS / 100.0;
            double bestFine = f.J(0.0);
            double atFine = 0.0;
            const auto steps = static_cast<int>(std::floor(in.windowLimitS / fine));
            for (int j = 1; j <= steps; ++j)
            {
                const double w = j * fine;
                const double cost = f.J(w);
                if (cost < bestFine)
                {
                    bestFine = cost;
                    atFine = w;
                }
            }
            const double rho = 8.0 * in.decodeTokensPerSecond * in.kvBytesPerToken / in.backhaulBps;
            const double slope = in.alpha * std::max({1.0, rho, std::abs(rho - 1.0)}) + 1.0;
            EXPECT_LE(bestFine, c.cost + 1e-12) << where;
            EXPECT_LE(c.cost - bestFine, slope * in.gridStepS) << where;
            EXPECT_LE(std::abs(c.windowS - atFine), in.gridStepS + fine) << where;

            // And the derived minimiser: T* = min(T_hist / max(1, rho), T_limit) streamed,
            // min(T_hist / (1 + rho), T_limit) held back.
            if (variant < 2)
            {
                const double meet = in.streaming ? std::max(1.0, rho) : 1.0 + rho;
                const double derived = std::min(f.History() / meet, in.windowLimitS);
                EXPECT_LE(std::abs(c.windowS - derived), in.gridStepS + 1e-9) << where;
            }
        }
    }
}

TEST(PallasWindowModelTest, WindowLimit)
{
    EXPECT_EQ(PallasWindowLimit(2.0, 1.5), 1.5);
    EXPECT_EQ(PallasWindowLimit(2.0, 3.0), 2.0);
    EXPECT_EQ(PallasWindowLimit(0.0, 3.0), 0.0);
    EXPECT_THAT(InvalidMessage([] { PallasWindowLimit(-1.0, 1.0); }),
                HasSubstr("maxWindowS (T_max, s) = -1 is invalid; allowed: a finite number >= 0"));
    EXPECT_THAT(InvalidMessage([] { PallasWindowLimit(1.0, NAN); }),
                HasSubstr("remainingS (T_remain, s) = nan is invalid"));
}

TEST(PallasWindowModelTest, BadInputsNameTheField)
{
    const auto refused = [](auto change) {
        PallasWindowInput in = Session(1e8);
        change(in);
        return InvalidMessage([&in] { PallasWindowModel m(in); });
    };
    EXPECT_THAT(refused([](auto& in) { in.radioInterruptionS = -0.1; }),
                HasSubstr("radioInterruptionS (T_0, s) = -0.1 is invalid; allowed: a finite "
                          "number >= 0"));
    EXPECT_THAT(refused([](auto& in) { in.loadS = INFINITY; }), HasSubstr("loadS (T_load, s)"));
    EXPECT_THAT(refused([](auto& in) { in.prefillTokensPerSecond = 0.0; }),
                HasSubstr("prefillTokensPerSecond (r_p, tokens/s) = 0 is invalid; allowed: a "
                          "finite number > 0"));
    EXPECT_THAT(refused([](auto& in) { in.decodeTokensPerSecond = -5.0; }),
                HasSubstr("decodeTokensPerSecond (r_d, tokens/s) = -5"));
    EXPECT_THAT(refused([](auto& in) { in.kvBytesPerToken = 0.0; }),
                HasSubstr("kvBytesPerToken (s_KV, bytes/token) = 0"));
    EXPECT_THAT(refused([](auto& in) { in.backhaulBps = 0.0; }),
                HasSubstr("backhaulBps (B, bit/s) = 0"));
    EXPECT_THAT(refused([](auto& in) { in.alpha = 1.5; }),
                HasSubstr("alpha = 1.5 is invalid; allowed: a weight in [0, 1]"));
    EXPECT_THAT(refused([](auto& in) { in.alpha = NAN; }), HasSubstr("alpha = nan"));
    EXPECT_THAT(refused([](auto& in) { in.gridStepS = 0.0; }),
                HasSubstr("gridStepS (Delta T, s) = 0 is invalid; allowed: a finite number > 0"));
    EXPECT_THAT(refused([](auto& in) { in.windowLimitS = -1.0; }),
                HasSubstr("windowLimitS (T_limit, s) = -1"));
    EXPECT_THAT(refused([](auto& in) { in.historyBytes = -1.0; }),
                HasSubstr("historyBytes (S_0, bytes) = -1 is invalid; allowed: a finite number "
                          ">= 0"));
    EXPECT_THAT(refused([](auto& in) { in.historyBytes = NAN; }),
                HasSubstr("historyBytes (S_0, bytes) = nan"));
    // 1 / 1e-7 + 1 points, one too many.
    EXPECT_THAT(refused([](auto& in) {
                    in.gridStepS = 1e-7;
                    in.windowLimitS = 1.0;
                }),
                HasSubstr("gridStepS (Delta T, s) = 1e-07 with windowLimitS (T_limit, s) = 1 "
                          "(10000001 grid points) is invalid; allowed: at most 10000000 grid "
                          "points"));
    EXPECT_THAT(refused([](auto& in) {
                    in.gridStepS = 1e-300;
                    in.windowLimitS = 1.0;
                }),
                HasSubstr("gridStepS (Delta T, s) = 1e-300"));
    // Zero is meaningful for T_0, T_load, L_hist and T_limit.
    PallasWindowInput zeros = Session(1e8);
    zeros.radioInterruptionS = 0.0;
    zeros.loadS = 0.0;
    zeros.prefixTokens = 0;
    zeros.windowLimitS = 0.0;
    EXPECT_EQ(PallasWindowModel(zeros).Choose().sitS, 0.0);

    const PallasWindowModel m(Session(1e8));
    EXPECT_THAT(InvalidMessage([&m] { m.Sit(-1.0); }),
                HasSubstr("windowS (T_w, s) = -1 is invalid"));
    EXPECT_THAT(InvalidMessage([&m] { m.Cost(NAN); }), HasSubstr("windowS (T_w, s) = nan"));
}

TEST(PallasWindowModelTest, LargestGridIsSearched)
{
    // 10^7 points exactly: k 2^-20 s for k = 0, ..., 9999999, every one exact in binary.
    PallasWindowInput in = Session(1e8);
    in.gridStepS = std::ldexp(1.0, -20);
    in.windowLimitS = 9999999.0 * in.gridStepS;
    const PallasWindowChoice c = PallasWindowModel(in).Choose();
    EXPECT_EQ(c.gridPoints, PallasWindowModel::MAX_GRID_POINTS);
    EXPECT_LE(std::abs(c.windowS - 0.7), in.gridStepS);
}

} // namespace
