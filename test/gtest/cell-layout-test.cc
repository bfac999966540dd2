/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The layouts' positions and neighbours against small cases written out by hand, the nearest
// cell against a search over all cells, and the refusal of out-of-range attributes.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/edge-llm-line-scenario.h"
#include "ns3/grid-cell-layout.h"
#include "ns3/line-cell-layout.h"
#include "ns3/mobility-model.h"
#include "ns3/object-factory.h"
#include "ns3/road-cell-layout.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

void
ExpectPositions(const CellLayout& layout, const std::vector<Vector>& expected)
{
    const std::vector<Vector> cells = layout.GetCellPositions();
    ASSERT_EQ(cells.size(), expected.size());
    EXPECT_EQ(layout.GetCellCount(), expected.size());
    for (std::size_t i = 0; i < cells.size(); ++i)
    {
        EXPECT_DOUBLE_EQ(cells[i].x, expected[i].x) << "cell " << i;
        EXPECT_DOUBLE_EQ(cells[i].y, expected[i].y) << "cell " << i;
        EXPECT_EQ(cells[i].z, 0) << "cell " << i;
    }
}

/// The pairs as a set, after checking each is ordered and given once.
std::set<std::pair<uint32_t, uint32_t>>
PairSet(const Pairs& pairs)
{
    std::set<std::pair<uint32_t, uint32_t>> set;
    for (const auto& p : pairs)
    {
        EXPECT_LT(p.first, p.second);
        EXPECT_TRUE(set.insert(p).second) << p.first << "-" << p.second << " twice";
    }
    return set;
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

void
ExpectNearestMatchesSearch(const CellLayout& layout, double xMin, double xMax, double yMax)
{
    const std::vector<Vector> cells = layout.GetCellPositions();
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> x(xMin, xMax);
    std::uniform_real_distribution<double> y(-yMax, yMax);
    for (int k = 0; k < 2000; ++k)
    {
        const Vector p(x(rng), y(rng), 1.5);
        EXPECT_EQ(layout.GetNearestCell(p), BruteNearest(cells, p)) << p;
    }
}

TEST(LineCellLayoutTest, DefaultsAreThreeCells500mApart)
{
    Ptr<LineCellLayout> line = CreateObject<LineCellLayout>();
    ExpectPositions(*line, {{0, 0, 0}, {500, 0, 0}, {1000, 0, 0}});
    EXPECT_EQ(line->GetNeighbourPairs(), (Pairs{{0, 1}, {1, 2}}));
}

TEST(LineCellLayoutTest, OneCellHasNoNeighbours)
{
    Ptr<LineCellLayout> line =
        CreateObjectWithAttributes<LineCellLayout>("Count", UintegerValue(1));
    ExpectPositions(*line, {{0, 0, 0}});
    EXPECT_TRUE(line->GetNeighbourPairs().empty());
}

TEST(LineCellLayoutTest, PlacesEnbsAsTheLineScenarioDoes)
{
    const uint32_t count = 5;
    const double spacing = 333.3;
    Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
    scenario->SetAttribute("EnbCount", UintegerValue(count));
    scenario->SetAttribute("EnbSpacing", DoubleValue(spacing));
    scenario->SetAttribute("InstallServing", BooleanValue(false));
    scenario->Build();
    Ptr<LineCellLayout> line = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                                          UintegerValue(count),
                                                                          "Spacing",
                                                                          DoubleValue(spacing));
    const std::vector<Vector> cells = line->GetCellPositions();
    ASSERT_EQ(cells.size(), scenario->GetEnbNodes().GetN());
    for (uint32_t i = 0; i < count; ++i)
    {
        const Vector enb =
            scenario->GetEnbNodes().Get(i)->GetObject<MobilityModel>()->GetPosition();
        // The same doubles, not merely close ones.
        EXPECT_EQ(cells[i].x, enb.x) << "cell " << i;
        EXPECT_EQ(cells[i].y, enb.y) << "cell " << i;
        EXPECT_EQ(cells[i].z, enb.z) << "cell " << i;
    }
    scenario->Dispose();
    Simulator::Destroy();
}

TEST(LineCellLayoutTest, NearestCellMatchesSearchAndTiesGoLow)
{
    Ptr<LineCellLayout> line = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                                          UintegerValue(6),
                                                                          "Spacing",
                                                                          DoubleValue(250));
    ExpectNearestMatchesSearch(*line, -300, 1600, 200);
    EXPECT_EQ(line->GetNearestCell({125, 0, 0}), 0u);
    EXPECT_EQ(line->GetNearestCell({125.001, 0, 0}), 1u);
    EXPECT_EQ(line->GetNearestCell({625, 40, 0}), 2u);
    EXPECT_EQ(line->GetNearestCell({-1e6, 0, 0}), 0u);
    EXPECT_EQ(line->GetNearestCell({1e6, 0, 0}), 5u);
}

TEST(RoadCellLayoutTest, CellsAlternateSidesOfTheRoad)
{
    Ptr<RoadCellLayout> road = CreateObjectWithAttributes<RoadCellLayout>("Count",
                                                                          UintegerValue(4),
                                                                          "Spacing",
                                                                          DoubleValue(200),
                                                                          "Offset",
                                                                          DoubleValue(30));
    ExpectPositions(*road, {{0, 30, 0}, {200, -30, 0}, {400, 30, 0}, {600, -30, 0}});
    EXPECT_EQ(road->GetNeighbourPairs(), (Pairs{{0, 1}, {1, 2}, {2, 3}}));
    EXPECT_DOUBLE_EQ(road->GetRoadLength(), 600);
}

TEST(RoadCellLayoutTest, DefaultsAreEightCellsOnTheRoad)
{
    Ptr<RoadCellLayout> road = CreateObject<RoadCellLayout>();
    ExpectPositions(*road,
                    {{0, 0, 0},
                     {500, 0, 0},
                     {1000, 0, 0},
                     {1500, 0, 0},
                     {2000, 0, 0},
                     {2500, 0, 0},
                     {3000, 0, 0},
                     {3500, 0, 0}});
    EXPECT_EQ(road->GetNeighbourPairs().size(), 7u);
    EXPECT_DOUBLE_EQ(road->GetRoadLength(), 3500);
}

TEST(RoadCellLayoutTest, OneCellIsARoadOfLengthZero)
{
    Ptr<RoadCellLayout> road =
        CreateObjectWithAttributes<RoadCellLayout>("Count", UintegerValue(1));
    EXPECT_EQ(road->GetCellCount(), 1u);
    EXPECT_TRUE(road->GetNeighbourPairs().empty());
    EXPECT_EQ(road->GetRoadLength(), 0);
}

TEST(RoadCellLayoutTest, NearestCellMatchesSearch)
{
    Ptr<RoadCellLayout> road = CreateObjectWithAttributes<RoadCellLayout>("Count",
                                                                          UintegerValue(10),
                                                                          "Spacing",
                                                                          DoubleValue(300),
                                                                          "Offset",
                                                                          DoubleValue(80));
    ExpectNearestMatchesSearch(*road, -200, 2900, 150);
}

TEST(GridCellLayoutTest, ThreeByTwoWrittenOut)
{
    Ptr<GridCellLayout> grid = CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                                          UintegerValue(3),
                                                                          "Rows",
                                                                          UintegerValue(2));
    ExpectPositions(
        *grid,
        {{0, 0, 0}, {100, 0, 0}, {200, 0, 0}, {0, 100, 0}, {100, 100, 0}, {200, 100, 0}});
    const std::set<std::pair<uint32_t, uint32_t>>
        expected{{0, 1}, {1, 2}, {3, 4}, {4, 5}, {0, 3}, {1, 4}, {2, 5}};
    EXPECT_EQ(PairSet(grid->GetNeighbourPairs()), expected);
}

TEST(GridCellLayoutTest, DefaultsAreEightByEight100mApart)
{
    Ptr<GridCellLayout> grid = CreateObject<GridCellLayout>();
    const std::vector<Vector> cells = grid->GetCellPositions();
    ASSERT_EQ(cells.size(), 64u);
    EXPECT_DOUBLE_EQ(cells[63].x, 700);
    EXPECT_DOUBLE_EQ(cells[63].y, 700);
    EXPECT_DOUBLE_EQ(cells[8].x, 0);
    EXPECT_DOUBLE_EQ(cells[8].y, 100);
}

TEST(GridCellLayoutTest, NeighboursAreExactlyTheCellsOneSpacingApart)
{
    for (const auto& [columns, rows] :
         std::vector<std::pair<uint32_t, uint32_t>>{{1, 1}, {1, 5}, {4, 1}, {2, 2}, {5, 3}, {7, 9}})
    {
        const double spacing = 75;
        Ptr<GridCellLayout> grid =
            CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                       UintegerValue(columns),
                                                       "Rows",
                                                       UintegerValue(rows),
                                                       "Spacing",
                                                       DoubleValue(spacing));
        const Pairs pairs = grid->GetNeighbourPairs();
        EXPECT_EQ(pairs.size(), rows * (columns - 1) + columns * (rows - 1))
            << columns << " x " << rows;
        const std::vector<Vector> cells = grid->GetCellPositions();
        std::set<std::pair<uint32_t, uint32_t>> apart;
        for (uint32_t a = 0; a < cells.size(); ++a)
        {
            for (uint32_t b = a + 1; b < cells.size(); ++b)
            {
                if (std::abs(CalculateDistance(cells[a], cells[b]) - spacing) < 1e-9)
                {
                    apart.insert({a, b});
                }
            }
        }
        EXPECT_EQ(PairSet(pairs), apart) << columns << " x " << rows;
    }
}

TEST(GridCellLayoutTest, NearestCellMatchesSearchAndTiesGoLow)
{
    Ptr<GridCellLayout> grid = CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                                          UintegerValue(6),
                                                                          "Rows",
                                                                          UintegerValue(4));
    ExpectNearestMatchesSearch(*grid, -100, 600, 400);
    // The corner of cells 0, 1, 6 and 7.
    EXPECT_EQ(grid->GetNearestCell({50, 50, 0}), 0u);
    EXPECT_EQ(grid->GetNearestCell({50.01, 50, 0}), 1u);
    EXPECT_EQ(grid->GetNearestCell({50, 50.01, 0}), 6u);
    EXPECT_EQ(grid->GetNearestCell({50.01, 50.01, 0}), 7u);
}

TEST(CellLayoutTest, RangeEndsAreAccepted)
{
    Ptr<LineCellLayout> line = CreateObject<LineCellLayout>();
    EXPECT_TRUE(line->SetAttributeFailSafe("Count", UintegerValue(1)));
    EXPECT_TRUE(line->SetAttributeFailSafe("Count", UintegerValue(64)));
    EXPECT_TRUE(line->SetAttributeFailSafe("Spacing", DoubleValue(1e-3)));
    Ptr<RoadCellLayout> road = CreateObject<RoadCellLayout>();
    EXPECT_TRUE(road->SetAttributeFailSafe("Count", UintegerValue(256)));
    EXPECT_TRUE(road->SetAttributeFailSafe("Offset", DoubleValue(0)));
    Ptr<GridCellLayout> grid = CreateObject<GridCellLayout>();
    EXPECT_TRUE(grid->SetAttributeFailSafe("Columns", UintegerValue(64)));
    EXPECT_TRUE(grid->SetAttributeFailSafe("Rows", UintegerValue(64)));
    EXPECT_EQ(grid->GetCellCount(), 4096u);
}

TEST(CellLayoutDeathTest, OutOfRangeAttributesAreNamed)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const double inf = std::numeric_limits<double>::infinity();
    for (const uint32_t bad : {0u, 65u})
    {
        EXPECT_DEATH(CreateObject<LineCellLayout>()->SetAttribute("Count", UintegerValue(bad)),
                     "ns3::LineCellLayout::Count = [0-9]+ is invalid; allowed: an integer in "
                     "\\[1, 64\\]");
        EXPECT_DEATH(CreateObject<GridCellLayout>()->SetAttribute("Columns", UintegerValue(bad)),
                     "ns3::GridCellLayout::Columns = [0-9]+ is invalid; allowed: an integer in "
                     "\\[1, 64\\]");
        EXPECT_DEATH(CreateObject<GridCellLayout>()->SetAttribute("Rows", UintegerValue(bad)),
                     "ns3::GridCellLayout::Rows = [0-9]+ is invalid; allowed: an integer in "
                     "\\[1, 64\\]");
    }
    for (const uint32_t bad : {0u, 257u})
    {
        EXPECT_DEATH(CreateObject<RoadCellLayout>()->SetAttribute("Count", UintegerValue(bad)),
                     "ns3::RoadCellLayout::Count = [0-9]+ is invalid; allowed: an integer in "
                     "\\[1, 256\\]");
    }
    for (const double bad : {0.0, -1.0, inf})
    {
        EXPECT_DEATH(CreateObject<LineCellLayout>()->SetAttribute("Spacing", DoubleValue(bad)),
                     "ns3::LineCellLayout::Spacing = .* is invalid; allowed: a finite number > 0");
        EXPECT_DEATH(CreateObject<RoadCellLayout>()->SetAttribute("Spacing", DoubleValue(bad)),
                     "ns3::RoadCellLayout::Spacing = .* is invalid; allowed: a finite number > 0");
        EXPECT_DEATH(CreateObject<GridCellLayout>()->SetAttribute("Spacing", DoubleValue(bad)),
                     "ns3::GridCellLayout::Spacing = .* is invalid; allowed: a finite number > 0");
    }
    for (const double bad : {-0.5, inf})
    {
        EXPECT_DEATH(CreateObject<RoadCellLayout>()->SetAttribute("Offset", DoubleValue(bad)),
                     "ns3::RoadCellLayout::Offset = .* is invalid; allowed: a finite number >= 0");
    }
}

} // namespace
