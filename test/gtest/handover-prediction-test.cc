/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The handover predictors against crossings solved by hand: on a line, with equal powers and
// exponent n, the A3 condition 10 n log10(d_s / d_n) > H is d_s / d_n > q, q = 10^(H / (10 n)).
// Between a serving cell at 0 and a neighbour at D it holds from x* = q D / (1 + q) on.

#include "invalid-message.h"

#include "ns3/handover-prediction.h"

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

/// Where, between a serving cell at 0 and a neighbour at D on a line, the condition starts.
double
CrossingPoint(double neighbourAt, double hysteresisDb, double exponent)
{
    const double q = std::pow(10.0, hysteresisDb / (10.0 * exponent));
    return q * neighbourAt / (1.0 + q);
}

TrajectoryPredictionInput
TwoCellsOnALine()
{
    TrajectoryPredictionInput in;
    in.nowS = 2.0;
    in.position = Vector(100, 0, 0);
    in.velocity = Vector(10, 0, 0);
    in.servingCell = 1;
    in.cells = {{1, Vector(0, 0, 0)}, {2, Vector(500, 0, 0)}};
    in.rule = {3.0, 0.256};
    in.pathLossExponent = 3.5;
    in.horizonS = 60.0;
    in.sampleStepS = 0.05;
    return in;
}

TEST(HandoverPredictionTest, TrajectoryOnALineMatchesTheClosedForm)
{
    const TrajectoryPredictionInput in = TwoCellsOnALine();
    const HandoverPrediction p = PredictByTrajectory(in);
    // q = 10^(3 / 35) = 1.218; x* = 500 q / (1 + q) = 274.6 m, reached after
    // (x* - 100) / 10 = 17.46 s; the rule fires TTT = 0.256 s later, from nowS = 2 s.
    const double expected = 2.0 + (CrossingPoint(500, 3.0, 3.5) - 100.0) / 10.0 + 0.256;
    ASSERT_TRUE(p.found);
    EXPECT_EQ(p.targetCell, 2);
    EXPECT_NEAR(p.handoverTimeS, expected, 1e-9);

    // The step that brackets the crossing does not move it.
    TrajectoryPredictionInput coarse = in;
    coarse.sampleStepS = 1.7;
    EXPECT_NEAR(PredictByTrajectory(coarse).handoverTimeS, expected, 1e-9);

    // A horizon that ends before the rule fires sees nothing; one that ends just after does.
    TrajectoryPredictionInput shortSight = in;
    shortSight.horizonS = expected - 2.0 - 1e-6;
    EXPECT_FALSE(PredictByTrajectory(shortSight).found);
    shortSight.horizonS = expected - 2.0 + 1e-6;
    EXPECT_TRUE(PredictByTrajectory(shortSight).found);
}

TEST(HandoverPredictionTest, TrajectoryAwayFromEveryNeighbourGivesNone)
{
    TrajectoryPredictionInput in = TwoCellsOnALine();
    in.velocity = Vector(-10, 0, 0);
    EXPECT_FALSE(PredictByTrajectory(in).found);

    // Neighbours on both sides, the UE leaving across: d_s / d_n grows towards 1 but never
    // reaches q > 1.
    in.cells = {{1, Vector(0, 0, 0)}, {2, Vector(500, 0, 0)}, {3, Vector(-500, 0, 0)}};
    in.position = Vector(0, 50, 0);
    in.velocity = Vector(0, 30, 0);
    EXPECT_FALSE(PredictByTrajectory(in).found);

    // A serving cell with no neighbour at all.
    in.cells = {{1, Vector(0, 0, 0)}};
    EXPECT_FALSE(PredictByTrajectory(in).found);
}

TEST(HandoverPredictionTest, TrajectoryPicksTheNearerOfThreeOnALine)
{
    TrajectoryPredictionInput in = TwoCellsOnALine();
    in.cells = {{3, Vector(1000, 0, 0)}, {1, Vector(0, 0, 0)}, {7, Vector(500, 0, 0)}};
    in.velocity = Vector(20, 0, 0);
    const HandoverPrediction p = PredictByTrajectory(in);
    // Cell 7 at 500 m is entered at 274.6 m; cell 3 at 1000 m only at 549.2 m.
    ASSERT_TRUE(p.found);
    EXPECT_EQ(p.targetCell, 7);
    EXPECT_NEAR(p.handoverTimeS, 2.0 + (CrossingPoint(500, 3.0, 3.5) - 100.0) / 20.0 + 0.256, 1e-9);
}

TEST(HandoverPredictionTest, TrajectoryDiagonalThroughAGrid)
{
    // A 3 x 3 grid of 100 m cells, ids 1 to 9 row by row; the UE leaves cell 1 at (0, 0)
    // along the diagonal. At (s, s) the diagonal cell 5 at (100, 100) has d_s / d_n =
    // s / (100 - s), so it is entered at s* = 100 q / (1 + q) = 54.9 m. Cells 2 and 4 are
    // no nearer than cell 5 beyond s = 50, so they come later.
    TrajectoryPredictionInput in;
    in.nowS = 0.0;
    uint16_t id = 1;
    for (int row = 0; row < 3; ++row)
    {
        for (int col = 0; col < 3; ++col)
        {
            in.cells[id++] = Vector(100.0 * col, 100.0 * row, 0);
        }
    }
    in.servingCell = 1;
    in.position = Vector(10, 10, 0);
    in.velocity = Vector(10, 10, 0);
    in.rule = {2.0, 0.1};
    in.pathLossExponent = 3.0;
    in.horizonS = 20.0;
    const HandoverPrediction p = PredictByTrajectory(in);
    ASSERT_TRUE(p.found);
    EXPECT_EQ(p.targetCell, 5);
    EXPECT_NEAR(p.handoverTimeS, (CrossingPoint(100, 2.0, 3.0) - 10.0) / 10.0 + 0.1, 1e-9);
}

TEST(HandoverPredictionTest, TrajectoryTiesGoToTheLowestId)
{
    // Two neighbours mirrored about the UE's path are entered at the same time.
    TrajectoryPredictionInput in = TwoCellsOnALine();
    in.cells = {{1, Vector(0, 0, 0)}, {9, Vector(500, 80, 0)}, {4, Vector(500, -80, 0)}};
    const HandoverPrediction p = PredictByTrajectory(in);
    ASSERT_TRUE(p.found);
    EXPECT_EQ(p.targetCell, 4);
}

TEST(HandoverPredictionTest, TrajectoryNeedsTheConditionForTheWholeTtt)
{
    // Serving cell at (0, 0), neighbour at (200, 0); the UE crosses along x = 110 at 10 m/s.
    // There d_s^2 = 110^2 + y^2 and d_n^2 = 90^2 + y^2, and d_s^2 > k d_n^2 with
    // k = 10^(H / (5 n)) holds while y^2 < (110^2 - 8100 k) / (k - 1): with H = 3, n = 3.5,
    // k = 1.4845 and |y| < 12.48 m, 2.496 s.
    TrajectoryPredictionInput in;
    in.cells = {{1, Vector(0, 0, 0)}, {2, Vector(200, 0, 0)}};
    in.servingCell = 1;
    in.position = Vector(110, -100, 0);
    in.velocity = Vector(0, 10, 0);
    in.pathLossExponent = 3.5;
    in.horizonS = 30.0;
    const double k = std::pow(10.0, 3.0 / 17.5);
    const double halfWidth = std::sqrt((12100.0 - 8100.0 * k) / (k - 1.0));
    in.rule = {3.0, 2.0};
    const HandoverPrediction p = PredictByTrajectory(in);
    ASSERT_TRUE(p.found);
    EXPECT_EQ(p.targetCell, 2);
    EXPECT_NEAR(p.handoverTimeS, (100.0 - halfWidth) / 10.0 + 2.0, 1e-9);
    in.rule = {3.0, 2 * halfWidth / 10.0 + 0.01};
    EXPECT_FALSE(PredictByTrajectory(in).found);
}

TEST(HandoverPredictionTest, TrajectoryAlreadyInsideCountsFromItsStart)
{
    // At 300 m, past x* = 274.6 m at 10 m/s: the condition began (300 - x*) / 10 = 2.54 s ago,
    // at 2 - 2.54 s, and fired TTT after that, before now (overdue); a UE standing still there
    // fires TTT from now, one standing before x* never.
    TrajectoryPredictionInput in = TwoCellsOnALine();
    in.position = Vector(300, 0, 0);
    const double started = 2.0 - (300.0 - CrossingPoint(500, 3.0, 3.5)) / 10.0;
    EXPECT_NEAR(PredictByTrajectory(in).handoverTimeS, started + 0.256, 1e-9);
    // The step that brackets the start does not move it.
    TrajectoryPredictionInput coarse = in;
    coarse.sampleStepS = 0.7;
    EXPECT_NEAR(PredictByTrajectory(coarse).handoverTimeS, started + 0.256, 1e-9);
    // Inside for longer than the horizon back: counted from now.
    TrajectoryPredictionInput shortBack = in;
    shortBack.horizonS = 2.0;
    EXPECT_NEAR(PredictByTrajectory(shortBack).handoverTimeS, 2.256, 1e-12);
    in.velocity = Vector(0, 0, 0);
    EXPECT_NEAR(PredictByTrajectory(in).handoverTimeS, 2.256, 1e-12);
    in.position = Vector(250, 0, 0);
    EXPECT_FALSE(PredictByTrajectory(in).found);
}

TEST(HandoverPredictionTest, TrajectoryBadInputsNameTheField)
{
    const auto refused = [](auto change) {
        TrajectoryPredictionInput in = TwoCellsOnALine();
        change(in);
        return InvalidMessage([&in] { PredictByTrajectory(in); });
    };
    EXPECT_THAT(refused([](auto& in) { in.servingCell = 9; }),
                HasSubstr("servingCell = 9 is invalid; allowed: the id of a cell in cells (1, 2)"));
    EXPECT_THAT(refused([](auto& in) { in.cells.clear(); }),
                HasSubstr("servingCell = 1 is invalid; allowed: the id of a cell in cells, which "
                          "is empty"));
    EXPECT_THAT(refused([](auto& in) { in.position.y = NAN; }),
                HasSubstr("position (m) = (100, nan, 0) is invalid; allowed: finite coordinates"));
    EXPECT_THAT(refused([](auto& in) { in.velocity.x = INFINITY; }),
                HasSubstr("velocity (m/s) = (inf, 0, 0)"));
    EXPECT_THAT(refused([](auto& in) { in.cells[2].z = NAN; }), HasSubstr("cells[2] (m)"));
    EXPECT_THAT(refused([](auto& in) { in.nowS = NAN; }), HasSubstr("nowS (s) = nan"));
    EXPECT_THAT(refused([](auto& in) { in.rule.hysteresisDb = -1; }),
                HasSubstr("rule.hysteresisDb (H, dB) = -1 is invalid; allowed: a finite number "
                          ">= 0"));
    EXPECT_THAT(refused([](auto& in) { in.rule.timeToTriggerS = -0.1; }),
                HasSubstr("rule.timeToTriggerS (TTT, s) = -0.1"));
    EXPECT_THAT(refused([](auto& in) { in.pathLossExponent = 0; }),
                HasSubstr("pathLossExponent (n) = 0 is invalid; allowed: a finite number > 0"));
    EXPECT_THAT(refused([](auto& in) { in.horizonS = -1; }), HasSubstr("horizonS (s) = -1"));
    EXPECT_THAT(refused([](auto& in) { in.sampleStepS = 0; }), HasSubstr("sampleStepS (s) = 0"));
    EXPECT_THAT(refused([](auto& in) { in.sampleStepS = 1e-9; }),
                HasSubstr("sampleStepS (s) = 1e-09 with horizonS (s) = 60"));
}

/// Samples of a serving RSRP and neighbours' RSRP, each a line in time, at the given times.
std::vector<MeasurementSample>
LinearSamples(const std::vector<double>& times,
              double servingAt0,
              double servingSlope,
              const std::map<uint16_t, std::pair<double, double>>& neighbours)
{
    std::vector<MeasurementSample> samples;
    for (double t : times)
    {
        MeasurementSample s;
        s.timeS = t;
        s.servingRsrpDbm = servingAt0 + servingSlope * t;
        for (const auto& [id, line] : neighbours)
        {
            s.neighbourRsrpDbm[id] = line.first + line.second * t;
        }
        samples.push_back(s);
    }
    return samples;
}

std::vector<double>
Times(double from, double to, int count)
{
    std::vector<double> t;
    for (int i = 0; i < count; ++i)
    {
        t.push_back(from + (to - from) * i / (count - 1));
    }
    return t;
}

TEST(HandoverPredictionTest, MeasurementsOnExactLines)
{
    MeasurementPredictionInput in;
    // Serving -80 - 2t dBm. Neighbour 5: -95 + 3t, a difference of -15 + 5t dB, which reaches
    // H = 3 at t = 3.6 s. Neighbour 2: -90 + 0.5t, a difference of -10 + 2.5t, at 5.2 s.
    // Neighbour 8: -70 - 3t, falling away.
    in.samples = LinearSamples(Times(0.0, 1.0, 6),
                               -80.0,
                               -2.0,
                               {{5, {-95.0, 3.0}}, {2, {-90.0, 0.5}}, {8, {-70.0, -3.0}}});
    in.rule = {3.0, 0.1};
    in.windowS = 2.0;
    const HandoverPrediction p = PredictByMeasurements(in);
    ASSERT_TRUE(p.found);
    EXPECT_EQ(p.targetCell, 5);
    EXPECT_NEAR(p.handoverTimeS, 3.7, 1e-9);

    // Without neighbour 5, neighbour 2 at 5.2 + 0.1 s.
    for (auto& s : in.samples)
    {
        s.neighbourRsrpDbm.erase(5);
    }
    EXPECT_NEAR(PredictByMeasurements(in).handoverTimeS, 5.3, 1e-9);
    EXPECT_EQ(PredictByMeasurements(in).targetCell, 2);
    // A horizon that ends before it: none.
    in.horizonS = 4.0;
    EXPECT_FALSE(PredictByMeasurements(in).found);
}

TEST(HandoverPredictionTest, MeasurementsWithoutARisingTrendGiveNone)
{
    MeasurementPredictionInput in;
    in.samples = LinearSamples(Times(0.0, 1.0, 6), -80.0, 0.0, {{3, {-70.0, -1.0}}});
    EXPECT_FALSE(PredictByMeasurements(in).found); // above H now, but falling
    in.samples = LinearSamples(Times(0.0, 1.0, 6), -80.0, 0.0, {{3, {-90.0, 0.0}}});
    EXPECT_FALSE(PredictByMeasurements(in).found); // flat
    in.samples.clear();
    EXPECT_FALSE(PredictByMeasurements(in).found); // nothing measured
}

TEST(HandoverPredictionTest, MeasurementsFitOnlyTheWindow)
{
    // From t = -5 s to 0 the difference falls, from 0 on it rises as -6 + 4t, reaching H = 2 at
    // 2 s. A window of 1 s sees only the rise.
    MeasurementPredictionInput in;
    auto old = LinearSamples(Times(-5.0, -0.5, 10), -80.0, 0.0, {{4, {-86.0, -4.0}}});
    auto recent = LinearSamples(Times(0.0, 1.0, 5), -80.0, 0.0, {{4, {-86.0, 4.0}}});
    in.samples = old;
    in.samples.insert(in.samples.end(), recent.begin(), recent.end());
    in.rule = {2.0, 0.0};
    in.windowS = 1.0;
    const HandoverPrediction p = PredictByMeasurements(in);
    ASSERT_TRUE(p.found);
    EXPECT_NEAR(p.handoverTimeS, 2.0, 1e-9);
    // A window that reaches back into the fall flattens the fitted trend.
    in.windowS = 10.0;
    EXPECT_FALSE(PredictByMeasurements(in).found);

    // A neighbour in fewer than minSamples of the window's samples is not fitted.
    in.windowS = 1.0;
    in.minSamples = 6;
    EXPECT_FALSE(PredictByMeasurements(in).found);
    in.minSamples = 5;
    EXPECT_TRUE(PredictByMeasurements(in).found);
}

TEST(HandoverPredictionTest, MeasurementsCrossingInThePast)
{
    // The difference -1 + 5t passed H = 3 at t = 0.8 s, before the newest sample at 1 s.
    MeasurementPredictionInput in;
    in.samples = LinearSamples(Times(0.0, 1.0, 6), -80.0, 0.0, {{6, {-81.0, 5.0}}});
    in.rule = {3.0, 0.5};
    EXPECT_NEAR(PredictByMeasurements(in).handoverTimeS, 1.3, 1e-9); // the TTT counts from 0.8
    in.rule = {3.0, 0.1};
    EXPECT_NEAR(PredictByMeasurements(in).handoverTimeS, 1.0, 1e-12); // overdue: now
}

TEST(HandoverPredictionTest, MeasurementsWithNoiseWithinTolerance)
{
    // The difference -10 + 3t dB reaches H = 3 at t_c = 13/3 s; TTT 0.1 s. Both RSRPs carry
    // Gaussian noise of 0.5 dB, so the difference carries sigma = 0.5 sqrt(2) dB. Over a fit
    // of n samples with mean time t_m, to first order the error of the crossing has the
    // standard deviation sqrt(sigma^2 / n + (t_c - t_m)^2 sigma^2 / S_tt) / slope, with S_tt
    // the samples' sum of squared time deviations; each run must be within 5 of them.
    const double crossing = 13.0 / 3.0;
    const double sigma = 0.5 * std::sqrt(2.0);
    double previousTolerance = INFINITY;
    double previousMeanError = INFINITY;
    for (int count : {20, 200, 2000})
    {
        const std::vector<double> times = Times(0.0, 2.0, count);
        double mean = 0.0;
        for (double t : times)
        {
            mean += t / count;
        }
        double stt = 0.0;
        for (double t : times)
        {
            stt += (t - mean) * (t - mean);
        }
        const double sd = std::sqrt(sigma * sigma / count +
                                    (crossing - mean) * (crossing - mean) * sigma * sigma / stt) /
                          3.0;
        const double tolerance = 5.0 * sd;
        EXPECT_LT(tolerance, previousTolerance);
        double meanError = 0.0;
        const std::vector<unsigned> seeds{1, 2, 3, 4, 5};
        for (unsigned seed : seeds)
        {
            std::mt19937_64 rng(seed);
            std::normal_distribution<double> noise(0.0, 0.5);
            MeasurementPredictionInput in;
            in.samples = LinearSamples(times, -80.0, -1.0, {{3, {-90.0, 2.0}}});
            for (auto& s : in.samples)
            {
                s.servingRsrpDbm += noise(rng);
                s.neighbourRsrpDbm[3] += noise(rng);
            }
            in.rule = {3.0, 0.1};
            in.windowS = 2.0;
            const HandoverPrediction p = PredictByMeasurements(in);
            ASSERT_TRUE(p.found) << count << " samples, seed " << seed;
            const double error = std::abs(p.handoverTimeS - (crossing + 0.1));
            EXPECT_LT(error, tolerance) << count << " samples, seed " << seed;
            meanError += error / seeds.size();
        }
        EXPECT_LT(meanError, previousMeanError) << count << " samples";
        previousTolerance = tolerance;
        previousMeanError = meanError;
    }
}

TEST(HandoverPredictionTest, MeasurementBadInputsNameTheField)
{
    const auto refused = [](auto change) {
        MeasurementPredictionInput in;
        in.samples = LinearSamples(Times(0.0, 1.0, 4), -80.0, 0.0, {{4, {-90.0, 1.0}}});
        change(in);
        return InvalidMessage([&in] { PredictByMeasurements(in); });
    };
    EXPECT_THAT(refused([](auto& in) { in.samples[2].timeS = 0.25; }),
                HasSubstr("samples[2].timeS (s) = 0.25 is invalid; allowed: a time after "
                          "samples[1].timeS = 0.3333333333333333"));
    EXPECT_THAT(refused([](auto& in) { in.samples[0].timeS = NAN; }),
                HasSubstr("samples[0].timeS (s) = nan"));
    EXPECT_THAT(refused([](auto& in) { in.samples[3].servingRsrpDbm = -INFINITY; }),
                HasSubstr("samples[3].servingRsrpDbm (dBm) = -inf is invalid; allowed: a finite "
                          "number"));
    EXPECT_THAT(refused([](auto& in) { in.samples[1].neighbourRsrpDbm[4] = NAN; }),
                HasSubstr("samples[1].neighbourRsrpDbm[4] (dBm) = nan"));
    EXPECT_THAT(refused([](auto& in) { in.windowS = 0; }),
                HasSubstr("windowS (s) = 0 is invalid; allowed: a finite number > 0"));
    EXPECT_THAT(refused([](auto& in) { in.minSamples = 1; }),
                HasSubstr("minSamples = 1 is invalid; allowed: an integer >= 2"));
    EXPECT_THAT(refused([](auto& in) { in.horizonS = NAN; }), HasSubstr("horizonS (s) = nan"));
    EXPECT_THAT(refused([](auto& in) { in.rule.hysteresisDb = NAN; }),
                HasSubstr("rule.hysteresisDb (H, dB) = nan"));
    EXPECT_THAT(refused([](auto& in) { in.rule.timeToTriggerS = -1; }),
                HasSubstr("rule.timeToTriggerS (TTT, s) = -1"));
}

} // namespace
