/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Start positions that do not fit the scenario stop the run at Build(), which a TestCase
// cannot observe; these death tests check that it stops, naming what is wrong.

#include "ns3/edge-llm-line-scenario.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// Build a two-UE scenario with the given start positions.
void
BuildWith(const std::vector<double>& x)
{
    Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
    scenario->SetAttribute("UeCount", UintegerValue(2));
    scenario->SetUeStartPositions(x);
    scenario->Build();
    Simulator::Destroy();
}

TEST(EdgeLlmLineScenarioDeathTest, StartPositionsOfAnotherCountNameUeCount)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(BuildWith({120}), "1 positions, but ns3::EdgeLlmLineScenario::UeCount is 2");
    EXPECT_DEATH(BuildWith({120, 125, 130}),
                 "3 positions, but ns3::EdgeLlmLineScenario::UeCount is 2");
}

TEST(EdgeLlmLineScenarioDeathTest, NonFiniteStartPositionIsNamed)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(BuildWith({120, std::nan("")}), "position 1 is nan; each must be a finite x");
    EXPECT_DEATH(BuildWith({INFINITY, 120}), "position 0 is inf; each must be a finite x");
}

TEST(EdgeLlmLineScenarioTest, CqiPeriodicityTakesItsWholeRange)
{
    // One scenario: each makes an EPC, and a process holds one until Simulator::Destroy.
    Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
    for (const Time ok : {MilliSeconds(1), MilliSeconds(2), MilliSeconds(160)})
    {
        EXPECT_TRUE(scenario->SetAttributeFailSafe("CqiPeriodicity", TimeValue(ok))) << ok;
    }
    scenario->Dispose();
    Simulator::Destroy();
}

TEST(EdgeLlmLineScenarioDeathTest, CqiPeriodicityOutsideLteRangeIsNamed)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    for (const Time bad : {MicroSeconds(500), MilliSeconds(161)})
    {
        EXPECT_DEATH(
            CreateObject<EdgeLlmLineScenario>()->SetAttribute("CqiPeriodicity", TimeValue(bad)),
            "CqiPeriodicity = .* is invalid; allowed: a time in \\[1 ms, 160 ms\\]");
    }
}

} // namespace
