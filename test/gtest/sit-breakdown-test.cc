/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/sit-breakdown.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>

using namespace ns3;

namespace
{

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

// In order, every milestone inside the silence: each part is the gap between two of them.
TEST(SitBreakdown, OrderedMilestonesGiveTheirGaps)
{
    // 1.000 last delivery, 1.010 HandoverStart, 1.014 HandoverEndOk, 1.300 KV ready,
    // 1.313 generated, 1.318 delivered: 10, 4, 286, 13, 5 ms = 318 ms.
    const SitBreakdown b = BreakDownSit({1.000, 1.010, 1.014, 1.010, 1.300, 1.313, 1.318});
    EXPECT_NEAR(b.radioBeforeS, 0.010, 1e-12);
    EXPECT_NEAR(b.executionS, 0.004, 1e-12);
    EXPECT_EQ(b.controlWaitS, 0.0); // the plan, applied at HandoverStart, waited for nothing
    EXPECT_NEAR(b.recoveryWaitS, 0.286, 1e-12);
    EXPECT_NEAR(b.gpuWaitS, 0.013, 1e-12);
    EXPECT_NEAR(b.deliveryS, 0.005, 1e-12);
    EXPECT_NEAR(b.Total(), 0.318, 1e-12);
}

// A plan applied after the radio's handover ended (its control messages still under way):
// the wait from HandoverEndOk to it is the control plane's, and the recovery counts from it.
TEST(SitBreakdown, PlanAppliedAfterTheRadioEndIsTheControlWait)
{
    // 1.000 last delivery, 1.010 HandoverStart, 1.014 HandoverEndOk, 1.020 plan applied,
    // 1.300 KV ready, 1.313 generated, 1.318 delivered: 10, 4, 6, 280, 13, 5 ms = 318 ms.
    const SitBreakdown b = BreakDownSit({1.000, 1.010, 1.014, 1.020, 1.300, 1.313, 1.318});
    EXPECT_NEAR(b.executionS, 0.004, 1e-12);
    EXPECT_NEAR(b.controlWaitS, 0.006, 1e-12);
    EXPECT_NEAR(b.recoveryWaitS, 0.280, 1e-12);
    EXPECT_NEAR(b.Total(), 0.318, 1e-12);
    // Applied during the radio's handover (1.012): nothing left to wait for at its end.
    const SitBreakdown c = BreakDownSit({1.000, 1.010, 1.014, 1.012, 1.300, 1.313, 1.318});
    EXPECT_EQ(c.controlWaitS, 0.0);
    EXPECT_NEAR(c.recoveryWaitS, 0.286, 1e-12);
}

// Tokens still came after HandoverStart: the handover's start counts from the last delivery,
// and radio-before is 0.
TEST(SitBreakdown, MilestoneBeforeTheLastDeliveryGivesZero)
{
    const SitBreakdown b = BreakDownSit({2.005, 2.000, 2.004, 2.000, 2.004, 2.009, 2.020});
    EXPECT_EQ(b.radioBeforeS, 0.0);
    EXPECT_EQ(b.executionS, 0.0); // HandoverEndOk at 2.004 < 2.005 too
    EXPECT_EQ(b.recoveryWaitS, 0.0);
    EXPECT_NEAR(b.gpuWaitS, 0.004, 1e-12);
    EXPECT_NEAR(b.deliveryS, 0.011, 1e-12);
}

// A relay's token generated during the handover (before HandoverEndOk): no GPU wait, and the
// delivery counts from the handover's end.
TEST(SitBreakdown, TokenGeneratedBeforeTheEndCountsFromTheEnd)
{
    const SitBreakdown b = BreakDownSit({3.0, 3.002, 3.006, 3.002, 3.006, 3.004, 3.015});
    EXPECT_NEAR(b.executionS, 0.004, 1e-12);
    EXPECT_EQ(b.gpuWaitS, 0.0);
    EXPECT_NEAR(b.deliveryS, 0.009, 1e-12);
}

// A missing milestone (no HandoverEndOk) takes no time; the next part starts where the
// previous one ended.
TEST(SitBreakdown, MissingMilestoneTakesNoTime)
{
    const SitBreakdown b = BreakDownSit({1.0, 1.1, NaN, NaN, 1.5, 1.6, 1.7});
    EXPECT_EQ(b.executionS, 0.0);
    EXPECT_NEAR(b.recoveryWaitS, 0.4, 1e-12);
}

// A milestone after the SIT's end (a cache ready after the relay's token came) is cut there.
TEST(SitBreakdown, MilestoneAfterTheEndIsCut)
{
    const SitBreakdown b = BreakDownSit({1.0, 1.01, 1.02, 1.01, 5.0, 5.1, 1.05});
    EXPECT_NEAR(b.recoveryWaitS, 0.03, 1e-12);
    EXPECT_EQ(b.gpuWaitS, 0.0);
    EXPECT_EQ(b.deliveryS, 0.0);
}

// Random milestones in any order: no part below 0, and the sum is the SIT.
TEST(SitBreakdown, AnyMilestonesAddUpToTheSit)
{
    for (unsigned seed = 1; seed <= 5; ++seed)
    {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> t(0.0, 2.0);
        for (int i = 0; i < 2000; ++i)
        {
            const double a = t(rng);
            const double e = a + t(rng);
            const SitBreakdown b = BreakDownSit({a, t(rng), t(rng), t(rng), t(rng), t(rng), e});
            for (const double part : b.Parts())
            {
                EXPECT_GE(part, 0.0);
            }
            EXPECT_NEAR(b.Total(), e - a, 1e-12);
        }
    }
}

TEST(SitBreakdownDeathTest, EndBeforeStartStops)
{
    EXPECT_DEATH(BreakDownSit({2.0, 2.1, 2.2, 2.2, 2.3, 2.4, 1.0}), "endS = 1 is invalid");
}
