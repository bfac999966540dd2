/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A report period that LTE does not allow stops the run, which a TestCase cannot observe;
// these death tests check that it stops, naming the value and the allowed ones.

#include "ns3/lte-helper.h"
#include "ns3/lte-measurement-reports.h"
#include "ns3/mobility-helper.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Configure reports of the given period on a fresh eNB.
void
ConfigureWith(Time period)
{
    Ptr<LteHelper> lte = CreateObject<LteHelper>();
    NodeContainer enb;
    enb.Create(1);
    MobilityHelper mobility;
    mobility.Install(enb);
    NetDeviceContainer devs = lte->InstallEnbDevice(enb);
    ConfigurePeriodicMeasurementReports(devs.Get(0), period);
    Simulator::Destroy();
}

TEST(LteMeasurementReportsDeathTest, PeriodNotAllowedIsNamedWithTheAllowedOnes)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(ConfigureWith(MilliSeconds(100)),
                 "period \\+100ms is not an LTE report interval; allowed: 120 ms, 240 ms, "
                 ".*, 60 min");
    EXPECT_DEATH(ConfigureWith(MilliSeconds(121)), "period \\+121ms is not an LTE report");
    EXPECT_DEATH(ConfigureWith(Time(0)), "is not an LTE report interval");
}

TEST(LteMeasurementReportsDeathTest, AllowedPeriodIsAccepted)
{
    ConfigureWith(MilliSeconds(240));
    ConfigureWith(Minutes(1));
    SUCCEED();
}

} // namespace
