/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The mobility generators against hand-computed positions and the statistics of a Poisson
// process, grid routes against the rules they follow, and the installed ns-3 mobility models
// against the trajectories during a simulation.

#include "ns3/constant-position-mobility-model.h"
#include "ns3/double.h"
#include "ns3/grid-cell-layout.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/ue-mobility.h"
#include "ns3/uinteger.h"
#include "ns3/waypoint-mobility-model.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <set>
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

TEST(ConstantVelocityTrajectoryTest, StandsThenDrivesThenStops)
{
    const UeTrajectory t = ConstantVelocityTrajectory({10, -3, 1.5}, {20, 0, 0}, 4, 14);
    ExpectNear(t.GetPosition(0), {10, -3, 1.5});
    ExpectNear(t.GetPosition(4), {10, -3, 1.5});
    ExpectNear(t.GetPosition(6.5), {60, -3, 1.5});
    ExpectNear(t.GetPosition(14), {210, -3, 1.5});
    ExpectNear(t.GetPosition(100), {210, -3, 1.5});
    const UeTrajectory now = ConstantVelocityTrajectory({1, 2, 0}, {5, 5, 0}, 3, 3);
    EXPECT_EQ(now.GetWaypoints().size(), 1u);
    ExpectNear(now.GetPosition(10), {1, 2, 0});
}

TEST(ConstantVelocityTrajectoryDeathTest, BadValuesAreNamed)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(ConstantVelocityTrajectory({0, 0, 0}, {1, 0, 0}, 5, 4),
                 "endS is 4; it must be finite and >= moveStartS \\(5\\)");
    EXPECT_DEATH(ConstantVelocityTrajectory({0, 0, 0}, {NAN, 0, 0}, 0, 4),
                 "velocity is nan:0:0; each component must be finite");
    EXPECT_DEATH(ConstantVelocityTrajectory({0, INFINITY, 0}, {1, 0, 0}, 0, 4),
                 "start is 0:inf:0; each coordinate must be finite");
}

Ptr<ExponentialRandomVariable>
Gaps(int64_t stream)
{
    Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
    gap->SetStream(stream);
    return gap;
}

TEST(DrawPoissonArrivalsTest, CountAndGapsFitTheRate)
{
    const double rate = 0.5;
    const double start = 10;
    const double window = 20000;
    const double expected = rate * window; // 10000, standard deviation 100
    for (int64_t stream = 1; stream <= 6; ++stream)
    {
        SCOPED_TRACE("stream " + std::to_string(stream));
        const std::vector<double> arrivals =
            DrawPoissonArrivals(Gaps(stream), rate, start, start + window, 1000000);
        EXPECT_NEAR(static_cast<double>(arrivals.size()), expected, 4 * std::sqrt(expected));
        ASSERT_FALSE(arrivals.empty());
        EXPECT_GT(arrivals.front(), start);
        EXPECT_LE(arrivals.back(), start + window);
        EXPECT_TRUE(std::is_sorted(arrivals.begin(), arrivals.end()));
        // The gaps are exponential of mean 1 / rate = 2 s and standard deviation 2 s: their
        // mean over n gaps has a standard deviation of 2 / sqrt(n).
        double sum = arrivals.front() - start;
        double squares = sum * sum;
        for (std::size_t k = 1; k < arrivals.size(); ++k)
        {
            const double g = arrivals[k] - arrivals[k - 1];
            sum += g;
            squares += g * g;
        }
        const double n = static_cast<double>(arrivals.size());
        const double mean = sum / n;
        EXPECT_NEAR(mean, 1 / rate, 4 * (1 / rate) / std::sqrt(n));
        // Exponential: the standard deviation equals the mean (within 10 %, many sigmas).
        EXPECT_NEAR(std::sqrt(squares / n - mean * mean), 1 / rate, 0.1 / rate);
    }
}

TEST(DrawPoissonArrivalsTest, MaxCountKeepsTheFirstArrivals)
{
    const std::vector<double> all = DrawPoissonArrivals(Gaps(3), 2, 0, 100, 1000000);
    const std::vector<double> first = DrawPoissonArrivals(Gaps(3), 2, 0, 100, 7);
    ASSERT_EQ(first.size(), 7u);
    EXPECT_EQ(first, std::vector<double>(all.begin(), all.begin() + 7));
    EXPECT_TRUE(DrawPoissonArrivals(Gaps(3), 2, 0, 100, 0).empty());
    EXPECT_TRUE(DrawPoissonArrivals(Gaps(3), 2, 5, 5, 10).empty());
}

TEST(DrawPoissonArrivalsDeathTest, BadValuesAreNamed)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    for (const double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()})
    {
        EXPECT_DEATH(DrawPoissonArrivals(Gaps(1), bad, 0, 10, 5),
                     "ratePerS is .*; it must be finite and > 0, in 1/s");
    }
    EXPECT_DEATH(DrawPoissonArrivals(Gaps(1), 1, 10, 5, 5),
                 "endS is 5; it must be finite and >= startS \\(10\\)");
    EXPECT_DEATH(DrawPoissonArrivals(nullptr, 1, 0, 5, 5), "no random variable for the gaps");
}

Ptr<GridCellLayout>
Grid(uint32_t columns, uint32_t rows, double spacing)
{
    return CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                      UintegerValue(columns),
                                                      "Rows",
                                                      UintegerValue(rows),
                                                      "Spacing",
                                                      DoubleValue(spacing));
}

Ptr<GridRandomRoute>
Route(double speed, int64_t stream)
{
    Ptr<GridRandomRoute> route =
        CreateObjectWithAttributes<GridRandomRoute>("Speed", DoubleValue(speed));
    EXPECT_EQ(route->AssignStreams(stream), 1);
    return route;
}

/// The cell whose centre is at p, which must be one.
uint32_t
CellAt(const std::vector<Vector>& cells, const Vector& p)
{
    for (uint32_t i = 0; i < cells.size(); ++i)
    {
        if (CalculateDistance(cells[i], p) < 1e-9)
        {
            return i;
        }
    }
    ADD_FAILURE() << p << " is no cell's centre";
    return 0;
}

/// Checks a route against the rules: legs between 4-neighbours' centres at one speed, inside
/// the grid, no U-turn unless forced, until endS; crossings at the legs' midpoints.
void
ExpectRouteFollowsTheRules(const GridCellLayout& grid,
                           uint32_t columns,
                           uint32_t rows,
                           double spacing,
                           double speed,
                           const UeTrajectory& t,
                           uint32_t startCell,
                           double startS,
                           double endS)
{
    const std::vector<Vector> cells = grid.GetCellPositions();
    std::set<std::pair<uint32_t, uint32_t>> neighbours;
    for (const auto& [a, b] : grid.GetNeighbourPairs())
    {
        neighbours.insert({a, b});
        neighbours.insert({b, a});
    }
    std::vector<uint32_t> degree(cells.size(), 0);
    for (const auto& [a, b] : neighbours)
    {
        ++degree[a];
    }
    const std::vector<UeWaypoint>& w = t.GetWaypoints();
    ASSERT_GE(w.size(), 2u);
    EXPECT_EQ(w.front().timeS, startS);
    ExpectNear(w.front().position, cells[startCell]);
    EXPECT_DOUBLE_EQ(w.back().timeS, endS);
    std::vector<uint32_t> visited{startCell};
    for (std::size_t k = 1; k < w.size(); ++k)
    {
        const double dt = w[k].timeS - w[k - 1].timeS;
        ASSERT_GT(dt, 0) << k;
        EXPECT_NEAR(CalculateDistance(w[k].position, w[k - 1].position) / dt, speed, 1e-9) << k;
        EXPECT_GE(w[k].position.x, -1e-9);
        EXPECT_LE(w[k].position.x, (columns - 1) * spacing + 1e-9);
        EXPECT_GE(w[k].position.y, -1e-9);
        EXPECT_LE(w[k].position.y, (rows - 1) * spacing + 1e-9);
        if (k + 1 < w.size())
        {
            // Every leg but the last is whole: one Spacing, between neighbours' centres.
            EXPECT_NEAR(dt, spacing / speed, 1e-9) << k;
            const uint32_t cell = CellAt(cells, w[k].position);
            EXPECT_TRUE(neighbours.count({visited.back(), cell}))
                << visited.back() << " to " << cell;
            visited.push_back(cell);
        }
        else
        {
            EXPECT_LE(dt, spacing / speed + 1e-9);
        }
    }
    for (std::size_t k = 2; k < visited.size(); ++k)
    {
        if (degree[visited[k - 1]] > 1)
        {
            EXPECT_NE(visited[k], visited[k - 2]) << "U-turn at leg " << k;
        }
        else
        {
            EXPECT_EQ(visited[k], visited[k - 2]) << "a dead end has one way out";
        }
    }
    // Each whole leg crosses one boundary, at its midpoint; so does the last leg if it gets
    // past its midpoint.
    const std::vector<PlannedCrossing> changes = FindNearestCellChanges(t, grid, startS, endS);
    std::size_t c = 0;
    for (std::size_t k = 1; k < w.size(); ++k)
    {
        const double mid = w[k - 1].timeS + spacing / speed / 2;
        if (mid >= w[k].timeS)
        {
            continue;
        }
        ASSERT_LT(c, changes.size());
        EXPECT_NEAR(changes[c].timeS, mid, 1e-6) << k;
        EXPECT_EQ(changes[c].fromCell, visited[k - 1]) << k;
        if (k < visited.size())
        {
            EXPECT_EQ(changes[c].toCell, visited[k]) << k;
        }
        ++c;
    }
    EXPECT_EQ(c, changes.size());
}

TEST(GridRandomRouteTest, RoutesFollowTheRules)
{
    const uint32_t columns = 5;
    const uint32_t rows = 4;
    const double spacing = 100;
    const double speed = 12.5; // 8 s a leg
    Ptr<GridCellLayout> grid = Grid(columns, rows, spacing);
    std::set<std::vector<uint32_t>> distinct;
    for (int64_t stream = 1; stream <= 8; ++stream)
    {
        SCOPED_TRACE("stream " + std::to_string(stream));
        const uint32_t start = static_cast<uint32_t>(stream * 7) % (columns * rows);
        // (301 - 3) / 8 = 37.25 legs, the last one cut before its midpoint; (305 - 3) / 8 =
        // 37.75, cut after it. Either way 37 whole legs and a part of one.
        const double end = stream % 2 == 1 ? 301 : 305;
        const UeTrajectory t = Route(speed, stream)->GetRoute(*grid, start, 3, end);
        EXPECT_EQ(t.GetWaypoints().size(), 39u);
        ExpectRouteFollowsTheRules(*grid, columns, rows, spacing, speed, t, start, 3, end);
        std::vector<uint32_t> cells;
        for (const UeWaypoint& w : t.GetWaypoints())
        {
            cells.push_back(grid->GetNearestCell(w.position));
        }
        distinct.insert(cells);
    }
    EXPECT_EQ(distinct.size(), 8u) << "streams should give different routes";
}

TEST(GridRandomRouteTest, TheSameStreamGivesTheSameRoute)
{
    Ptr<GridCellLayout> grid = Grid(6, 6, 50);
    const UeTrajectory a = Route(3, 42)->GetRoute(*grid, 14, 0, 500);
    const UeTrajectory b = Route(3, 42)->GetRoute(*grid, 14, 0, 500);
    ASSERT_EQ(a.GetWaypoints().size(), b.GetWaypoints().size());
    for (std::size_t k = 0; k < a.GetWaypoints().size(); ++k)
    {
        EXPECT_EQ(a.GetWaypoints()[k].position, b.GetWaypoints()[k].position);
    }
}

TEST(GridRandomRouteTest, SpreadsGiveEachRouteItsOwnDepartureAndSpeed)
{
    // 100 m legs at 10 m/s +- 25 %: 8 to 13.33 s a leg; departures up to one leg after 2 s.
    const double spacing = 100;
    Ptr<GridCellLayout> grid = Grid(4, 4, spacing);
    std::set<double> crossings;
    double earliest = 1e9;
    double latest = 0;
    double slowest = 1e9;
    double fastest = 0;
    for (int64_t stream = 1; stream <= 40; ++stream)
    {
        SCOPED_TRACE("stream " + std::to_string(stream));
        Ptr<GridRandomRoute> route = Route(10, stream);
        route->SetAttribute("SpeedSpread", DoubleValue(0.25));
        route->SetAttribute("DepartureSpread", DoubleValue(1));
        const UeTrajectory t = route->GetRoute(*grid, 5, 2, 200);
        const std::vector<UeWaypoint>& w = t.GetWaypoints();
        ASSERT_GE(w.size(), 4u);
        // It waits at its first centre, then moves at one speed of its own from leg to leg.
        EXPECT_EQ(w[0].timeS, 2);
        ExpectNear(w[0].position, grid->GetCellPositions()[5]);
        ExpectNear(w[1].position, w[0].position);
        const double departure = w[1].timeS;
        const double leg = w[2].timeS - w[1].timeS;
        const double speed = spacing / leg;
        EXPECT_GE(speed, 7.5 - 1e-9);
        EXPECT_LE(speed, 12.5 + 1e-9);
        EXPECT_GE(departure, 2);
        EXPECT_LE(departure, 2 + leg + 1e-9);
        EXPECT_NEAR(w[3].timeS - w[2].timeS, leg, 1e-9) << "one speed for the whole route";
        // Its first boundary is the first leg's midpoint.
        crossings.insert(departure + leg / 2);
        earliest = std::min(earliest, departure);
        latest = std::max(latest, departure);
        slowest = std::min(slowest, speed);
        fastest = std::max(fastest, speed);
    }
    EXPECT_EQ(crossings.size(), 40u) << "no two UEs cross their first boundary together";
    // 40 uniform draws: each extreme is within a tenth of its range's end but with
    // probability 2 x 0.9^40 = 3 %, and these streams are fixed.
    EXPECT_LT(earliest, 2 + 0.1 * 8);
    EXPECT_GT(latest, 2 + 0.9 * 8);
    EXPECT_LT(slowest, 7.5 + 0.1 * 5);
    EXPECT_GT(fastest, 12.5 - 0.1 * 5);
}

TEST(GridRandomRouteTest, WithoutSpreadsEveryRouteLeavesAtItsStartAtSpeed)
{
    Ptr<GridCellLayout> grid = Grid(4, 4, 100);
    for (int64_t stream = 1; stream <= 5; ++stream)
    {
        const UeTrajectory t = Route(10, stream)->GetRoute(*grid, 5, 2, 100);
        const std::vector<UeWaypoint>& w = t.GetWaypoints();
        ASSERT_GE(w.size(), 2u);
        EXPECT_EQ(w[0].timeS, 2);
        EXPECT_NEAR(w[1].timeS, 12, 1e-9) << "the first leg ends 100 m / 10 m/s later";
        EXPECT_NEAR(CalculateDistance(w[1].position, w[0].position), 100, 1e-9);
    }
}

TEST(GridRandomRouteTest, OneRowBouncesBetweenItsEnds)
{
    // Three cells in a row: from the end cell 0 the only way is to 1, then on to 2 (no U-turn),
    // then back.
    Ptr<GridCellLayout> row = Grid(3, 1, 100);
    const UeTrajectory t = Route(10, 5)->GetRoute(*row, 0, 0, 80);
    ExpectRouteFollowsTheRules(*row, 3, 1, 100, 10, t, 0, 0, 80);
    const std::vector<double> x{0, 100, 200, 100, 0, 100, 200, 100, 0};
    ASSERT_EQ(t.GetWaypoints().size(), x.size());
    for (std::size_t k = 0; k < x.size(); ++k)
    {
        EXPECT_NEAR(t.GetWaypoints()[k].position.x, x[k], 1e-9) << k;
        EXPECT_NEAR(t.GetWaypoints()[k].timeS, 10.0 * k, 1e-9) << k;
    }
}

TEST(GridRandomRouteTest, OneCellStandsStillUntilTheEnd)
{
    Ptr<GridCellLayout> one = Grid(1, 1, 100);
    const UeTrajectory t = Route(10, 5)->GetRoute(*one, 0, 2, 50);
    ASSERT_EQ(t.GetWaypoints().size(), 2u);
    EXPECT_EQ(t.GetWaypoints().back().timeS, 50);
    ExpectNear(t.GetPosition(30), {0, 0, 0});
}

TEST(GridRandomRouteDeathTest, BadValuesAreNamed)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<GridCellLayout> grid = Grid(3, 2, 100);
    EXPECT_DEATH(Route(10, 1)->GetRoute(*grid, 6, 0, 10),
                 "startCell is 6; the grid's cells are \\[0, 5\\]");
    EXPECT_DEATH(Route(10, 1)->GetRoute(*grid, 0, 10, 5),
                 "endS is 5; it must be finite and >= startS \\(10\\)");
    for (const double bad : {0.0, -2.0, std::numeric_limits<double>::infinity()})
    {
        EXPECT_DEATH(CreateObject<GridRandomRoute>()->SetAttribute("Speed", DoubleValue(bad)),
                     "ns3::GridRandomRoute::Speed = .* is invalid; allowed: a finite number > 0");
    }
}

/// Checks at each time that the node's mobility model puts it where the trajectory does.
void
ScheduleChecks(Ptr<Node> node, const UeTrajectory& t, const std::vector<double>& times)
{
    for (const double s : times)
    {
        Simulator::Schedule(Seconds(s), [node, t, s]() {
            const Ptr<MobilityModel> model = node->GetObject<MobilityModel>();
            ASSERT_TRUE(model) << "at " << s;
            SCOPED_TRACE("node " + std::to_string(node->GetId()) + " at " + std::to_string(s));
            ExpectNear(model->GetPosition(), t.GetPosition(Simulator::Now().GetSeconds()), 1e-6);
        });
    }
}

TEST(InstallTrajectoryTest, ModelFollowsTheTrajectory)
{
    // A wait before the first waypoint, a repeated waypoint, a stop, and two waypoints closer
    // than ns-3's time step.
    const UeTrajectory t({{2, {0, 0, 1.5}},
                          {5, {30, 40, 1.5}},
                          {5, {30, 40, 1.5}},
                          {6, {30, 40, 1.5}},
                          {9, {-60, 40, 1.5}},
                          {9 + 1e-12, {-60, 40, 1.5}},
                          {10, {-60, 50, 1.5}}});
    Ptr<Node> node = CreateObject<Node>();
    InstallTrajectory(node, t);
    EXPECT_TRUE(node->GetObject<WaypointMobilityModel>());
    ScheduleChecks(node, t, {0, 1, 2, 2.5, 3.7, 5, 5.5, 6, 7.25, 8.999, 9, 9.5, 10, 12, 100});

    // Installed at 4 s, partway along the first leg: from then on it follows as well.
    Ptr<Node> late = CreateObject<Node>();
    Simulator::Schedule(Seconds(4), [late, t]() { InstallTrajectory(late, t); });
    ScheduleChecks(late, t, {4, 4.5, 5, 7, 9.25, 11});

    // Installed after the end, it stands at the last waypoint.
    Ptr<Node> after = CreateObject<Node>();
    Simulator::Schedule(Seconds(11), [after, t]() {
        InstallTrajectory(after, t);
        EXPECT_TRUE(after->GetObject<ConstantPositionMobilityModel>());
    });
    ScheduleChecks(after, t, {11, 20});

    // A grid route: many legs.
    Ptr<GridCellLayout> grid = Grid(4, 4, 100);
    const UeTrajectory route = Route(15, 9)->GetRoute(*grid, 5, 1, 200);
    Ptr<Node> walker = CreateObject<Node>();
    InstallTrajectory(walker, route);
    std::vector<double> times;
    for (double s = 0; s < 210; s += 0.77)
    {
        times.push_back(s);
    }
    ScheduleChecks(walker, route, times);
    // Its velocity too, away from the waypoints where it changes.
    for (double s = 1.3; s < 200; s += 2.9)
    {
        Simulator::Schedule(Seconds(s), [walker, route, s]() {
            const Vector v = walker->GetObject<MobilityModel>()->GetVelocity();
            const double h = 1e-3;
            const Vector a = route.GetPosition(s - h);
            const Vector b = route.GetPosition(s + h);
            for (const UeWaypoint& w : route.GetWaypoints())
            {
                if (std::abs(w.timeS - s) < 2 * h)
                {
                    return;
                }
            }
            ExpectNear(v, {(b.x - a.x) / (2 * h), (b.y - a.y) / (2 * h), 0}, 1e-6);
        });
    }

    Simulator::Run();
    Simulator::Destroy();
}

TEST(InstallTrajectoryTest, StandingStillIsAConstantPosition)
{
    Ptr<Node> node = CreateObject<Node>();
    const UeTrajectory still({{3, {5, 6, 0}}});
    InstallTrajectory(node, still);
    EXPECT_TRUE(node->GetObject<ConstantPositionMobilityModel>());
    ScheduleChecks(node, still, {0, 3, 10});
    Simulator::Run();
    Simulator::Destroy();
}

TEST(InstallTrajectoryDeathTest, ANodeWithAModelIsRefused)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            Ptr<Node> node = CreateObject<Node>();
            node->AggregateObject(CreateObject<ConstantPositionMobilityModel>());
            InstallTrajectory(node, UeTrajectory({{0, {0, 0, 0}}}));
        },
        "InstallTrajectory: node [0-9]+ already has a mobility model");
    EXPECT_DEATH(InstallTrajectory(nullptr, UeTrajectory({{0, {0, 0, 0}}})),
                 "InstallTrajectory: the node is null");
}

} // namespace
