/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The predictors' and the meter's attributes: a value out of range stops the run with a
// message naming the attribute and its range. Every predictor is made by its TypeId name.

#include "ns3/double.h"
#include "ns3/handover-prediction-meter.h"
#include "ns3/handover-predictor.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

TEST(HandoverPredictorTest, EveryPredictorIsMadeByItsTypeIdName)
{
    for (const char* name :
         {"ns3::TrajectoryHandoverPredictor", "ns3::MeasurementHandoverPredictor"})
    {
        ObjectFactory f(name);
        Ptr<HandoverPredictor> p = f.Create<HandoverPredictor>();
        ASSERT_NE(p, nullptr) << name;
        EXPECT_EQ(p->GetInstanceTypeId().GetName(), name);
        EXPECT_EQ(p->GetControlPeriod(), MilliSeconds(100));
        EXPECT_DOUBLE_EQ(p->GetRule().hysteresisDb, 2.0);
        EXPECT_DOUBLE_EQ(p->GetRule().timeToTriggerS, 0.040);
        EXPECT_EQ(p->GetHorizon(), Seconds(10));
    }
    EXPECT_EQ(CreateObject<TrajectoryHandoverPredictor>()->AssignStreams(7), 1);
    EXPECT_EQ(CreateObject<MeasurementHandoverPredictor>()->AssignStreams(7), 0);
}

TEST(HandoverPredictorDeathTest, OutOfRangeAttributesStopTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<TrajectoryHandoverPredictor> t = CreateObject<TrajectoryHandoverPredictor>();
    EXPECT_DEATH(t->SetAttribute("Hysteresis", DoubleValue(16)),
                 "ns3::HandoverPredictor::Hysteresis = 16 is invalid; allowed: a number in "
                 "\\[0, 15\\]");
    EXPECT_DEATH(t->SetAttribute("TimeToTrigger", TimeValue(Seconds(6))),
                 "ns3::HandoverPredictor::TimeToTrigger = .* is invalid; allowed: a time in "
                 "\\[0 s, 5.12 s\\]");
    EXPECT_DEATH(t->SetAttribute("Horizon", TimeValue(Seconds(0))),
                 "ns3::HandoverPredictor::Horizon = .* is invalid; allowed: a time in \\(0 s");
    EXPECT_DEATH(t->SetAttribute("ControlPeriod", TimeValue(MicroSeconds(10))),
                 "ns3::HandoverPredictor::ControlPeriod = .* is invalid; allowed: a time in "
                 "\\[0.001 s, 60 s\\]");
    EXPECT_DEATH(t->SetAttribute("PositionNoise", DoubleValue(-1)),
                 "ns3::TrajectoryHandoverPredictor::PositionNoise = -1 is invalid; allowed: a "
                 "number in \\[0, 100000\\]");
    EXPECT_DEATH(t->SetAttribute("HeadingNoise", DoubleValue(181)),
                 "ns3::TrajectoryHandoverPredictor::HeadingNoise = 181 is invalid");
    EXPECT_DEATH(t->SetAttribute("PathLossExponent", DoubleValue(0)),
                 "ns3::TrajectoryHandoverPredictor::PathLossExponent = 0 is invalid; allowed: "
                 "a number in \\(0, 10\\]");
    Ptr<MeasurementHandoverPredictor> m = CreateObject<MeasurementHandoverPredictor>();
    EXPECT_DEATH(m->SetAttribute("MinSamples", UintegerValue(1)),
                 "ns3::MeasurementHandoverPredictor::MinSamples = 1 is invalid; allowed: an "
                 "integer in \\[2, 10000\\]");
    EXPECT_DEATH(m->SetAttribute("Window", TimeValue(Seconds(0))),
                 "ns3::MeasurementHandoverPredictor::Window = .* is invalid");
    Ptr<HandoverPredictionMeter> meter = CreateObject<HandoverPredictionMeter>();
    EXPECT_DEATH(meter->SetAttribute("MinLead", TimeValue(Seconds(-1))),
                 "ns3::HandoverPredictionMeter::MinLead = .* is invalid; allowed: a time in "
                 "\\[0 s, 60 s\\]");
}

TEST(HandoverPredictorDeathTest, MisuseStopsTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<TrajectoryHandoverPredictor> t = CreateObject<TrajectoryHandoverPredictor>();
    EXPECT_DEATH(t->AddUe(1, nullptr), "IMSI 1 needs a node with a MobilityModel");
    Ptr<MeasurementHandoverPredictor> m = CreateObject<MeasurementHandoverPredictor>();
    m->AddUe(1, nullptr);
    EXPECT_DEATH(m->AddUe(1, nullptr), "IMSI 1 added twice");
    EXPECT_DEATH(m->Predict(2), "IMSI 2 was not given to AddUe");
    EXPECT_DEATH(m->Predict(1), "no observer");
    Ptr<HandoverPredictionMeter> meter = CreateObject<HandoverPredictionMeter>();
    EXPECT_DEATH(meter->Install(m), "the predictor has no observer");
    EXPECT_DEATH(meter->GetAbsTimeErrorPercentile(50), "GetAbsTimeErrorPercentile");
}

} // namespace
