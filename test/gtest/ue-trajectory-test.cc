/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Trajectory positions against hand-computed ones, and the nearest-cell changes against a
// hand derivation on a line and against a search by sampling and bisection on random paths.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/edge-llm-line-scenario.h"
#include "ns3/grid-cell-layout.h"
#include "ns3/line-cell-layout.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/road-cell-layout.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/ue-trajectory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

void
ExpectNear(const Vector& actual, const Vector& expected, double tolerance = 1e-9)
{
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
}

TEST(UeTrajectoryTest, PositionIsPiecewiseLinearAndStillOutside)
{
    const UeTrajectory path(
        {{1, {0, 0, 0}}, {3, {20, 10, 0}}, {3, {20, 10, 0}}, {5, {20, 10, 0}}, {6, {20, 0, 1}}});
    ExpectNear(path.GetPosition(-100), {0, 0, 0});
    ExpectNear(path.GetPosition(1), {0, 0, 0});
    ExpectNear(path.GetPosition(1.5), {5, 2.5, 0});
    ExpectNear(path.GetPosition(2), {10, 5, 0});
    ExpectNear(path.GetPosition(3), {20, 10, 0});
    ExpectNear(path.GetPosition(4), {20, 10, 0});
    ExpectNear(path.GetPosition(5.5), {20, 5, 0.5});
    ExpectNear(path.GetPosition(6), {20, 0, 1});
    ExpectNear(path.GetPosition(1e9), {20, 0, 1});
}

TEST(UeTrajectoryTest, OneWaypointStandsStill)
{
    const UeTrajectory still({{4, {7, 8, 0}}});
    ExpectNear(still.GetPosition(0), {7, 8, 0});
    ExpectNear(still.GetPosition(4), {7, 8, 0});
    ExpectNear(still.GetPosition(9), {7, 8, 0});
    EXPECT_EQ(still.GetWaypoints().size(), 1u);
}

TEST(UeTrajectoryDeathTest, BadWaypointsAreNamed)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(UeTrajectory({}), "UeTrajectory: no waypoints");
    EXPECT_DEATH(UeTrajectory({{2, {0, 0, 0}}, {1, {1, 0, 0}}}),
                 "waypoint 1 has timeS 1 < waypoint 0's 2; times must be nondecreasing");
    EXPECT_DEATH(UeTrajectory({{0, {0, 0, 0}}, {std::nan(""), {1, 0, 0}}}),
                 "waypoint 1 has timeS nan; each must be a finite time");
    EXPECT_DEATH(UeTrajectory({{0, {INFINITY, 0, 0}}}),
                 "waypoint 0 has position inf:0:0; each coordinate must be finite");
    EXPECT_DEATH(UeTrajectory({{0, {0, 0, 0}}, {1, {0, 0, 0}}, {1, {5, 0, 0}}}),
                 "waypoints 1 and 2 share timeS 1 but not the position");
    EXPECT_DEATH(UeTrajectory({{0, {0, 0, 0}}}).GetPosition(std::nan("")), "the time is NaN");
}

TEST(UeTrajectoryDeathTest, BadWindowIsNamed)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<LineCellLayout> line = CreateObject<LineCellLayout>();
    const UeTrajectory path({{0, {0, 0, 0}}, {10, {100, 0, 0}}});
    EXPECT_DEATH(FindNearestCellChanges(path, *line, 5, 4),
                 "endS is 4; it must be finite and >= startS \\(5\\)");
    EXPECT_DEATH(FindNearestCellChanges(path, *line, -INFINITY, 4), "startS is -inf");
}

/// A UE standing at x0 (at UeY = 20 off the line) until 2 s, then driving at v along x.
UeTrajectory
Drive(double x0, double v)
{
    return UeTrajectory({{2, {x0, 20, 0}}, {100, {x0 + v * 98, 20, 0}}});
}

TEST(FindNearestCellChangesTest, LineCrossingsAreAtMidpoints)
{
    // Five cells 400 m apart: the midpoints are at 200, 600, 1000 and 1400 m. From x = 100 at
    // 25 m/s, leaving at 2 s: 2 + (200 - 100) / 25 = 6 s, then every 400 / 25 = 16 s.
    Ptr<LineCellLayout> line = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                                          UintegerValue(5),
                                                                          "Spacing",
                                                                          DoubleValue(400));
    const std::vector<PlannedCrossing> changes =
        FindNearestCellChanges(Drive(100, 25), *line, 0, 100);
    const std::vector<PlannedCrossing> expected{{6, 0, 1}, {22, 1, 2}, {38, 2, 3}, {54, 3, 4}};
    ASSERT_EQ(changes.size(), expected.size());
    for (std::size_t k = 0; k < changes.size(); ++k)
    {
        EXPECT_NEAR(changes[k].timeS, expected[k].timeS, 1e-9) << k;
        EXPECT_EQ(changes[k].fromCell, expected[k].fromCell) << k;
        EXPECT_EQ(changes[k].toCell, expected[k].toCell) << k;
    }
}

TEST(FindNearestCellChangesTest, LineBackwardsAndWindowed)
{
    Ptr<LineCellLayout> line = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                                          UintegerValue(5),
                                                                          "Spacing",
                                                                          DoubleValue(400));
    // From x = 1700 at -25 m/s: 1400 m at 2 + 300 / 25 = 14 s, 1000 m at 30 s, 600 m at 46 s.
    const std::vector<PlannedCrossing> changes =
        FindNearestCellChanges(Drive(1700, -25), *line, 20, 50);
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_NEAR(changes[0].timeS, 30, 1e-9);
    EXPECT_EQ(changes[0].fromCell, 3u);
    EXPECT_EQ(changes[0].toCell, 2u);
    EXPECT_NEAR(changes[1].timeS, 46, 1e-9);
    EXPECT_EQ(changes[1].fromCell, 2u);
    EXPECT_EQ(changes[1].toCell, 1u);
    // A UE that does not move, or a window before it moves, crosses nothing.
    EXPECT_TRUE(FindNearestCellChanges(Drive(1700, 0), *line, 0, 100).empty());
    EXPECT_TRUE(FindNearestCellChanges(Drive(1700, -25), *line, 0, 13.9).empty());
}

TEST(FindNearestCellChangesTest, StartOnABoundaryLeavesAtOnce)
{
    // At 200 m cells 0 and 1 are equally near; GetNearestCell says 0, and the UE drives to 1.
    Ptr<LineCellLayout> line = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                                          UintegerValue(2),
                                                                          "Spacing",
                                                                          DoubleValue(400));
    const std::vector<PlannedCrossing> changes =
        FindNearestCellChanges(Drive(200, 10), *line, 2, 100);
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_NEAR(changes[0].timeS, 2, 1e-9);
    EXPECT_EQ(changes[0].fromCell, 0u);
    EXPECT_EQ(changes[0].toCell, 1u);
}

TEST(FindNearestCellChangesTest, DiagonalThroughAGridCornerIsOneChange)
{
    // From cell 0's centre to cell 7's (column 1, row 1) in 10 s: through the corner (50, 50)
    // that cells 0, 1, 6 and 7 share, at 5 s; 1 and 6 are never nearest.
    Ptr<GridCellLayout> grid = CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                                          UintegerValue(6),
                                                                          "Rows",
                                                                          UintegerValue(4));
    const UeTrajectory path({{0, {0, 0, 0}}, {10, {100, 100, 0}}});
    const std::vector<PlannedCrossing> changes = FindNearestCellChanges(path, *grid, 0, 20);
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_NEAR(changes[0].timeS, 5, 1e-9);
    EXPECT_EQ(changes[0].fromCell, 0u);
    EXPECT_EQ(changes[0].toCell, 7u);
}

TEST(FindNearestCellChangesTest, LineMatchesTheLineScenarioBoundaryPlan)
{
    // EdgeLlmLineScenario plans its "boundary" handovers from the midpoints by its own
    // arithmetic; the same UEs on the same layout must change cells at the same times.
    const uint32_t enbs = 4;
    const double spacing = 450;
    const uint32_t ues = 3;
    const double startX = 80;
    const double startSpacing = 130;
    const double speed = 18;
    const double moveStart = 1.5;
    Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
    scenario->SetAttribute("EnbCount", UintegerValue(enbs));
    scenario->SetAttribute("EnbSpacing", DoubleValue(spacing));
    scenario->SetAttribute("UeCount", UintegerValue(ues));
    scenario->SetAttribute("UeStartX", DoubleValue(startX));
    scenario->SetAttribute("UeStartSpacing", DoubleValue(startSpacing));
    scenario->SetAttribute("UeSpeed", DoubleValue(speed));
    scenario->SetAttribute("MoveStart", TimeValue(Seconds(moveStart)));
    scenario->SetAttribute("Trigger", StringValue("boundary"));
    scenario->SetAttribute("InstallServing", BooleanValue(false));
    scenario->Build();
    Ptr<LineCellLayout> line = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                                          UintegerValue(enbs),
                                                                          "Spacing",
                                                                          DoubleValue(spacing));
    std::vector<EdgeLlmBoundaryCrossing> planned;
    for (uint32_t j = 0; j < ues; ++j)
    {
        const double x = startX + j * startSpacing;
        const UeTrajectory path({{moveStart, {x, 20, 0}}, {1000, {x + speed * 998.5, 20, 0}}});
        for (const PlannedCrossing& c : FindNearestCellChanges(path, *line, 0, 1000))
        {
            auto cell = [&scenario](uint32_t i) {
                return scenario->GetRanStack()->GetCellId(scenario->GetEnbDevices().Get(i));
            };
            planned.push_back({j, 0, Seconds(c.timeS), cell(c.fromCell), cell(c.toCell)});
        }
    }
    const std::vector<EdgeLlmBoundaryCrossing>& expected = scenario->GetBoundaryCrossings();
    ASSERT_EQ(planned.size(), expected.size());
    // Midpoints at 225, 675 and 1125 m: UEs from 80 and 210 m cross all three, from 340 m two.
    EXPECT_EQ(planned.size(), 8u);
    for (std::size_t k = 0; k < planned.size(); ++k)
    {
        EXPECT_EQ(planned[k].ue, expected[k].ue) << k;
        EXPECT_NEAR(planned[k].time.GetSeconds(), expected[k].time.GetSeconds(), 1e-6) << k;
        EXPECT_EQ(planned[k].sourceCell, expected[k].sourceCell) << k;
        EXPECT_EQ(planned[k].targetCell, expected[k].targetCell) << k;
    }
    scenario->Dispose();
    Simulator::Destroy();
}

/// The nearest cell by a search over all cells, ties to the lowest index.
uint32_t
BruteNearest(const std::vector<Vector>& cells, const Vector& p)
{
    uint32_t best = 0;
    for (uint32_t i = 1; i < cells.size(); ++i)
    {
        if (CalculateDistance(p, cells[i]) < CalculateDistance(p, cells[best]))
        {
            best = i;
        }
    }
    return best;
}

/// Every change of the nearest cell in (a, b), whose ends have nearest cells ca and cb, by
/// bisection. A cell's region is convex, so along one straight segment a cell nearest at
/// both ends of an interval is nearest all through it: halving finds every change.
void
Bisect(const UeTrajectory& path,
       const std::vector<Vector>& cells,
       double a,
       double b,
       uint32_t ca,
       uint32_t cb,
       std::vector<PlannedCrossing>& out)
{
    if (b - a < 1e-10)
    {
        out.push_back({(a + b) / 2, ca, cb});
        return;
    }
    const double m = (a + b) / 2;
    const uint32_t cm = BruteNearest(cells, path.GetPosition(m));
    if (cm != ca)
    {
        Bisect(path, cells, a, m, ca, cm, out);
    }
    if (cm != cb)
    {
        Bisect(path, cells, m, b, cm, cb, out);
    }
}

/// The changes by sampling every 10 ms and at every waypoint, then bisecting.
std::vector<PlannedCrossing>
SearchChanges(const UeTrajectory& path, const CellLayout& layout, double startS, double endS)
{
    const std::vector<Vector> cells = layout.GetCellPositions();
    std::vector<double> samples;
    for (int64_t k = 0; startS + k * 0.01 < endS; ++k)
    {
        samples.push_back(startS + k * 0.01);
    }
    for (const UeWaypoint& w : path.GetWaypoints())
    {
        if (w.timeS > startS && w.timeS < endS)
        {
            samples.push_back(w.timeS);
        }
    }
    samples.push_back(endS);
    std::sort(samples.begin(), samples.end());
    std::vector<PlannedCrossing> out;
    uint32_t before = BruteNearest(cells, path.GetPosition(samples[0]));
    for (std::size_t k = 1; k < samples.size(); ++k)
    {
        const uint32_t now = BruteNearest(cells, path.GetPosition(samples[k]));
        if (now != before)
        {
            Bisect(path, cells, samples[k - 1], samples[k], before, now, out);
        }
        before = now;
    }
    return out;
}

/// A random path in [x0, x1] x [y0, y1], with stops and repeated waypoints.
UeTrajectory
RandomPath(std::mt19937& rng, double x0, double x1, double y0, double y1)
{
    std::uniform_real_distribution<double> x(x0, x1);
    std::uniform_real_distribution<double> y(y0, y1);
    std::uniform_real_distribution<double> gap(0.5, 15);
    std::uniform_int_distribution<int> kind(0, 9);
    std::vector<UeWaypoint> waypoints{
        {std::uniform_real_distribution<double>(0, 5)(rng), {x(rng), y(rng), 1.5}}};
    for (int k = 0; k < 25; ++k)
    {
        const UeWaypoint& last = waypoints.back();
        switch (kind(rng))
        {
        case 0: // the same waypoint again
            waypoints.push_back(last);
            break;
        case 1: // a stop
            waypoints.push_back({last.timeS + gap(rng), last.position});
            break;
        default:
            waypoints.push_back({last.timeS + gap(rng), {x(rng), y(rng), 1.5}});
        }
    }
    return UeTrajectory(waypoints);
}

void
ExpectSameChanges(const std::vector<PlannedCrossing>& found,
                  const std::vector<PlannedCrossing>& searched)
{
    ASSERT_EQ(found.size(), searched.size());
    for (std::size_t k = 0; k < found.size(); ++k)
    {
        EXPECT_NEAR(found[k].timeS, searched[k].timeS, 1e-6) << k;
        EXPECT_EQ(found[k].fromCell, searched[k].fromCell) << k;
        EXPECT_EQ(found[k].toCell, searched[k].toCell) << k;
    }
}

TEST(FindNearestCellChangesTest, RandomPathsOverARoadMatchTheSearch)
{
    Ptr<RoadCellLayout> road = CreateObjectWithAttributes<RoadCellLayout>("Count",
                                                                          UintegerValue(12),
                                                                          "Spacing",
                                                                          DoubleValue(300),
                                                                          "Offset",
                                                                          DoubleValue(60));
    std::size_t total = 0;
    for (uint32_t seed = 1; seed <= 6; ++seed)
    {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937 rng(seed);
        const UeTrajectory path = RandomPath(rng, -200, 3500, -150, 150);
        const double end = path.GetWaypoints().back().timeS + 3;
        const std::vector<PlannedCrossing> found = FindNearestCellChanges(path, *road, 0, end);
        ExpectSameChanges(found, SearchChanges(path, *road, 0, end));
        total += found.size();
        // A window that starts and ends inside segments.
        const double from = path.GetWaypoints()[3].timeS + 0.37;
        const double to = path.GetWaypoints()[18].timeS - 0.21;
        ExpectSameChanges(FindNearestCellChanges(path, *road, from, to),
                          SearchChanges(path, *road, from, to));
    }
    // The paths are long enough to cross many cells.
    EXPECT_GT(total, 50u);
}

TEST(FindNearestCellChangesTest, RandomPathsOverAGridMatchTheSearch)
{
    Ptr<GridCellLayout> grid = CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                                          UintegerValue(7),
                                                                          "Rows",
                                                                          UintegerValue(5),
                                                                          "Spacing",
                                                                          DoubleValue(100));
    std::size_t total = 0;
    for (uint32_t seed = 11; seed <= 16; ++seed)
    {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937 rng(seed);
        const UeTrajectory path = RandomPath(rng, -80, 680, -80, 480);
        const double end = path.GetWaypoints().back().timeS + 3;
        const std::vector<PlannedCrossing> found = FindNearestCellChanges(path, *grid, 0, end);
        ExpectSameChanges(found, SearchChanges(path, *grid, 0, end));
        total += found.size();
        for (std::size_t k = 1; k < found.size(); ++k)
        {
            EXPECT_EQ(found[k].fromCell, found[k - 1].toCell);
            EXPECT_LE(found[k - 1].timeS, found[k].timeS);
        }
    }
    EXPECT_GT(total, 50u);
}

} // namespace
