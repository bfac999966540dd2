/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "invalid-message.h"

#include "ns3/impact-accuracy-model.h"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace ns3;
using edgellmtest::InvalidMessage;
using ::testing::HasSubstr;

namespace
{

/// Curves of different shapes: both presets, a gentle one and one concave from y = 0.
std::vector<ImpactAccuracyParams>
Curves()
{
    return {ImpactAccuracyParams::ImportanceOrder(),
            ImpactAccuracyParams::RandomOrder(),
            ImpactAccuracyParams{0.7, 4.0, 0.3},
            ImpactAccuracyParams{1.0, 12.0, 0.0}};
}

} // namespace

TEST(ImpactAccuracyModel, DefaultsAreTheImportanceOrderPreset)
{
    const ImpactAccuracyParams d;
    const ImpactAccuracyParams p = ImpactAccuracyParams::ImportanceOrder();
    EXPECT_EQ(d.fullAccuracy, 0.941);
    EXPECT_EQ(d.steepness, 30.0);
    EXPECT_EQ(d.inflection, 0.065);
    EXPECT_EQ(p.fullAccuracy, d.fullAccuracy);
    EXPECT_EQ(p.steepness, d.steepness);
    EXPECT_EQ(p.inflection, d.inflection);
}

TEST(ImpactAccuracyModel, HandComputedValues)
{
    // M = 0.941, k = 30, y0 = 0.065: M/2 = 0.4705 and A'(y0) = M k / 2 = 14.115.
    const ImpactAccuracyModel a;
    EXPECT_DOUBLE_EQ(a.Accuracy(0.065), 0.4705);
    EXPECT_DOUBLE_EQ(a.Slope(0.065), 14.115);
    EXPECT_DOUBLE_EQ(a.PeakSlope(), 14.115);
    // y = 0.09: u = k (y - y0) = 0.75, 1 + u^2 = 1.5625 = 1.25^2, so
    // A = 0.4705 (1 + 0.75 / 1.25) = 0.4705 * 1.6 = 0.7528 and A' = 14.115 / 1.25^3 = 7.22688.
    EXPECT_NEAR(a.Accuracy(0.09), 0.7528, 1e-12);
    EXPECT_NEAR(a.Slope(0.09), 7.22688, 1e-11);
    // y = 0.04: u = -0.75, A = 0.4705 (1 - 0.6) = 0.1882; the slope is symmetric about y0.
    EXPECT_NEAR(a.Accuracy(0.04), 0.1882, 1e-12);
    EXPECT_NEAR(a.Slope(0.04), 7.22688, 1e-11);
    // y = 0.145: u = 2.4, 1 + u^2 = 6.76 = 2.6^2, A = 0.4705 (1 + 2.4 / 2.6) = 2.3525 / 2.6 and
    // A' = 14.115 / 2.6^3 = 14.115 / 17.576.
    EXPECT_NEAR(a.Accuracy(0.145), 2.3525 / 2.6, 1e-12);
    EXPECT_NEAR(a.Slope(0.145), 14.115 / 17.576, 1e-12);
    // (A')^{-1}(7.22688): (14.115 / 7.22688)^{2/3} = 1.953125^{2/3} = 1.5625, minus 1 is 0.5625,
    // its root 0.75, over k 0.025, plus y0 0.09.
    EXPECT_NEAR(a.InverseSlope(7.22688), 0.09, 1e-12);

    // Random order, M = 0.941, k = 6, y0 = 0.5: A(0.5) = 0.4705; at 0, u = -3 and
    // A = 0.4705 (1 - 3 / sqrt(10)); at 1, u = 3 and A = 0.4705 (1 + 3 / sqrt(10)).
    const ImpactAccuracyModel r(ImpactAccuracyParams::RandomOrder());
    EXPECT_DOUBLE_EQ(r.Accuracy(0.5), 0.4705);
    EXPECT_NEAR(r.Accuracy(0.0), 0.4705 * (1 - 3 / std::sqrt(10.0)), 1e-12);
    EXPECT_NEAR(r.Accuracy(1.0), 0.4705 * (1 + 3 / std::sqrt(10.0)), 1e-12);
    EXPECT_NEAR(r.Accuracy(0.0), 0.024, 5e-4);
    EXPECT_NEAR(r.Accuracy(1.0), 0.917, 5e-4);
}

TEST(ImpactAccuracyModel, SlopeMatchesCentralDifference)
{
    const double h = 1e-6;
    for (const auto& p : Curves())
    {
        const ImpactAccuracyModel a(p);
        for (int j = 0; j <= 1000; ++j)
        {
            const double y = j / 1000.0;
            const double fd = (a.Accuracy(y + h) - a.Accuracy(y - h)) / (2 * h);
            // The difference errs by about A''' h^2 / 6 and the rounding of A by 1e-16 / h.
            EXPECT_NEAR(a.Slope(y), fd, 1e-7 * a.PeakSlope() + 1e-9)
                << "k = " << p.steepness << ", y = " << y;
        }
    }
}

TEST(ImpactAccuracyModel, CurvatureMatchesCentralDifferenceOfTheSlope)
{
    const double h = 1e-6;
    for (const auto& p : Curves())
    {
        const ImpactAccuracyModel a(p);
        const double scale = a.PeakSlope() * p.steepness; // |A''| <= 0.86 M k^2 / 2
        for (int j = 0; j <= 1000; ++j)
        {
            const double y = j / 1000.0;
            const double fd = (a.Slope(y + h) - a.Slope(y - h)) / (2 * h);
            EXPECT_NEAR(a.Curvature(y), fd, 1e-6 * scale) << "k = " << p.steepness << ", y = " << y;
            if (y > p.inflection)
            {
                EXPECT_LT(a.Curvature(y), 0.0);
            }
        }
        EXPECT_EQ(a.Curvature(p.inflection), 0.0);
    }
}

TEST(ImpactAccuracyModel, InverseSlopeInvertsSlopeAboveInflection)
{
    for (const auto& p : Curves())
    {
        const ImpactAccuracyModel a(p);
        for (int j = 0; j <= 1000; ++j)
        {
            const double y = p.inflection + 1e-4 + (1.0 - p.inflection - 1e-4) * j / 1000.0;
            EXPECT_NEAR(a.InverseSlope(a.Slope(y)), y, 1e-9) << "k = " << p.steepness;
        }
    }
}

TEST(ImpactAccuracyModel, InverseSlopeOutsideTheSlopesRange)
{
    const ImpactAccuracyModel a;
    // No y has a slope above the peak; y0 comes closest.
    EXPECT_EQ(a.InverseSlope(a.PeakSlope()), 0.065);
    EXPECT_EQ(a.InverseSlope(2 * a.PeakSlope()), 0.065);
    EXPECT_EQ(a.InverseSlope(std::numeric_limits<double>::infinity()), 0.065);
    // The slope reaches 0 only at infinity.
    EXPECT_EQ(a.InverseSlope(0.0), std::numeric_limits<double>::infinity());
    EXPECT_EQ(a.InverseSlope(-1.0), std::numeric_limits<double>::infinity());
    // Decreasing in between.
    EXPECT_GT(a.InverseSlope(1e-3), a.InverseSlope(1e-2));
}

TEST(ImpactAccuracyEnvelope, BoundsAndIsConcave)
{
    for (const auto& p : Curves())
    {
        const ImpactAccuracyEnvelope env{ImpactAccuracyModel(p)};
        const ImpactAccuracyModel& a = env.GetModel();
        const int n = 10000;
        std::vector<double> v(n + 1);
        for (int j = 0; j <= n; ++j)
        {
            const double y = static_cast<double>(j) / n;
            v[j] = env.Value(y);
            EXPECT_GE(v[j], a.Accuracy(y) - 1e-12) << "k = " << p.steepness << ", y = " << y;
        }
        for (int j = 1; j < n; ++j)
        {
            EXPECT_LE(v[j + 1] - 2 * v[j] + v[j - 1], 1e-12)
                << "k = " << p.steepness << ", y = " << static_cast<double>(j) / n;
        }
        EXPECT_EQ(env.Value(0.0), a.Accuracy(0.0));
        EXPECT_EQ(env.Value(1.0), a.Accuracy(1.0));
    }
}

TEST(ImpactAccuracyEnvelope, TouchesTheCurveAtTheTangentPoint)
{
    for (const auto& p : Curves())
    {
        if (p.inflection == 0.0)
        {
            continue;
        }
        const ImpactAccuracyEnvelope env{ImpactAccuracyModel(p)};
        const ImpactAccuracyModel& a = env.GetModel();
        const double yt = env.TangentPoint();
        ASSERT_GT(yt, p.inflection);
        ASSERT_LT(yt, 1.0);
        EXPECT_NEAR(env.Value(yt), a.Accuracy(yt), 1e-12);
        // The line's slope is A's at y_t, and the line passes through (0, A(0)).
        EXPECT_NEAR(env.Slope(0.5 * yt), a.Slope(yt), 1e-9 * a.PeakSlope());
        EXPECT_NEAR(a.Accuracy(yt) - a.Accuracy(0.0), yt * a.Slope(yt), 1e-12);
        EXPECT_NEAR(env.Value(0.5 * yt), 0.5 * (a.Accuracy(0.0) + a.Accuracy(yt)), 1e-12);
        // From y_t on it is A itself.
        for (double y = yt; y <= 1.0; y += 0.01)
        {
            EXPECT_EQ(env.Value(y), a.Accuracy(y));
            EXPECT_EQ(env.Slope(y), a.Slope(y));
        }
    }
    // The default curve's y_t, from bisection of g(y) = A(y) - A(0) - y A'(y) on [y0, 1] by a
    // separate script: 0.0882318580345.
    const ImpactAccuracyEnvelope env{ImpactAccuracyModel()};
    EXPECT_NEAR(env.TangentPoint(), 0.0882318580345, 1e-11);
}

TEST(ImpactAccuracyEnvelope, ChordWhenTheCurveIsStillSteepAtOne)
{
    // y0 = 0.9, k = 5: A'(1) = 2.5 M / 1.25^{1.5} = 1.79 M exceeds the chord's slope
    // A(1) - A(0) = (M/2)(0.5 / sqrt(1.25) + 4.5 / sqrt(21.25)) = 0.71 M: no tangent in (y0, 1].
    const ImpactAccuracyEnvelope env{ImpactAccuracyModel(ImpactAccuracyParams{0.8, 5.0, 0.9})};
    const ImpactAccuracyModel& a = env.GetModel();
    EXPECT_EQ(env.TangentPoint(), 1.0);
    const double chord = a.Accuracy(1.0) - a.Accuracy(0.0);
    for (int j = 0; j <= 1000; ++j)
    {
        const double y = j / 1000.0;
        EXPECT_NEAR(env.Value(y), a.Accuracy(0.0) + chord * y, 1e-12);
        EXPECT_GE(env.Value(y), a.Accuracy(y) - 1e-12);
    }
}

TEST(ImpactAccuracyEnvelope, IsTheCurveWhenConcaveFromZero)
{
    const ImpactAccuracyEnvelope env{ImpactAccuracyModel(ImpactAccuracyParams{1.0, 12.0, 0.0})};
    EXPECT_EQ(env.TangentPoint(), 0.0);
    for (int j = 0; j <= 100; ++j)
    {
        const double y = j / 100.0;
        EXPECT_EQ(env.Value(y), env.GetModel().Accuracy(y));
    }
}

TEST(ImpactAccuracyModel, BadParametersAreRefusedByName)
{
    const auto refused = [](ImpactAccuracyParams p) {
        return InvalidMessage([p] { ImpactAccuracyModel{p}; });
    };
    for (double m : {0.0, -0.5, 1.5, std::nan("")})
    {
        const std::string msg = refused(ImpactAccuracyParams{m, 30.0, 0.065});
        EXPECT_THAT(msg, HasSubstr("fullAccuracy (M)"));
        EXPECT_THAT(msg, HasSubstr("(0, 1]"));
    }
    for (double k : {0.0, -1.0, std::numeric_limits<double>::infinity(), std::nan("")})
    {
        const std::string msg = refused(ImpactAccuracyParams{0.941, k, 0.065});
        EXPECT_THAT(msg, HasSubstr("steepness (k)"));
        EXPECT_THAT(msg, HasSubstr("> 0"));
    }
    for (double y0 : {-0.1, 1.0, 2.0, std::nan("")})
    {
        const std::string msg = refused(ImpactAccuracyParams{0.941, 30.0, y0});
        EXPECT_THAT(msg, HasSubstr("inflection (y0)"));
        EXPECT_THAT(msg, HasSubstr("[0, 1)"));
    }
    EXPECT_THAT(InvalidMessage([] {
                    ImpactAccuracyParams{0.941, 30.0, 1.0}.Check("ues[3].");
                }),
                HasSubstr("ues[3].inflection (y0) = 1 is invalid"));
    EXPECT_NO_THROW(ImpactAccuracyModel(ImpactAccuracyParams{1.0, 1e-3, 0.0}));
}

TEST(ImpactCurveFor, AWholeCacheIsScoredOnTheImportanceCurveInAnyOrder)
{
    // By hand: on the importance curve u = 30 x 0.935 = 28.05 and
    // A(1) = 0.4705 (1 + 28.05 / sqrt(1 + 28.05^2)) = 0.9407; the random one's is 0.9169.
    const double importanceAtOne = 0.4705 * (1 + 28.05 / std::sqrt(1 + 28.05 * 28.05));
    const ImpactAccuracyParams other{0.9, 10.0, 0.2};
    for (bool positional : {true, false})
    {
        const ImpactAccuracyParams curve = ImpactCurveFor(1.0, positional, other);
        EXPECT_NEAR(ImpactAccuracyModel(curve).Accuracy(1.0), importanceAtOne, 1e-12);
        EXPECT_NEAR(ImpactAccuracyModel(ImpactCurveFor(1.5, positional, other)).Accuracy(1.0),
                    importanceAtOne,
                    1e-12);
        EXPECT_EQ(curve.inflection, ImpactAccuracyParams::ImportanceOrder().inflection);
    }
}

TEST(ImpactCurveFor, APartIsScoredOnTheCurveOfItsOrder)
{
    const ImpactAccuracyParams other{0.9, 10.0, 0.2};
    // A positional part is a random part: A(0.5) = M / 2 = 0.4705 at the random curve's y0.
    EXPECT_NEAR(ImpactAccuracyModel(ImpactCurveFor(0.5, true, other)).Accuracy(0.5), 0.4705, 1e-12);
    const ImpactAccuracyParams entries = ImpactCurveFor(0.5, false, other);
    EXPECT_EQ(entries.fullAccuracy, 0.9);
    EXPECT_EQ(entries.steepness, 10.0);
    EXPECT_EQ(entries.inflection, 0.2);
    EXPECT_EQ(ImpactCurveFor(0.999, false, other).inflection, 0.2);
}
