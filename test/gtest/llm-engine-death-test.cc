/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bad configuration and calls that are programming errors stop an ns-3 run, which a TestCase
// cannot observe; these death tests check that they stop it, with a message naming the field.

#include "ns3/config.h"
#include "ns3/llm-engine.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Leaves the simulator empty after each test: the engine schedules its first iteration.
class LlmEngineDeathTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        GTEST_FLAG_SET(death_test_style, "threadsafe");
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }
};

TEST_F(LlmEngineDeathTest, BadAttributeValuesStopTheRun)
{
    Ptr<LlmEngine> e = CreateObject<LlmEngine>();
    EXPECT_DEATH(e->SetAttribute("KvCapacityTokens", UintegerValue(0)),
                 "ns3::LlmEngine::KvCapacityTokens = 0 is invalid; allowed: an integer in "
                 "\\[1, 18446744073709551615\\]");
    EXPECT_DEATH(e->SetAttribute("MaxBatchSequences", UintegerValue(0)),
                 "ns3::LlmEngine::MaxBatchSequences = 0 is invalid; allowed: an integer in "
                 "\\[1, 1000000\\]");
    EXPECT_DEATH(e->SetAttribute("PrefillCycle", TimeValue(MilliSeconds(-1))),
                 "ns3::LlmEngine::PrefillCycle = .* is invalid; allowed: a time >= 0");
    EXPECT_DEATH(Config::SetDefault("ns3::LlmEngine::KvCapacityTokens", UintegerValue(0)),
                 "KvCapacityTokens = 0 is invalid");
}

TEST_F(LlmEngineDeathTest, BadForecastsStopTheRun)
{
    Ptr<LlmEngine> e = CreateObject<LlmEngine>();
    EXPECT_DEATH(e->ForecastPrefills({100, 0}, Simulator::Now()),
                 "ns3::LlmEngine::ForecastPrefills: jobs\\[1\\] = 0 is invalid; allowed: an "
                 "integer >= 1");
    Simulator::Schedule(MilliSeconds(5), [e]() { e->ForecastPrefills({100}, MilliSeconds(4)); });
    EXPECT_DEATH(Simulator::Run(),
                 "ns3::LlmEngine::ForecastPrefills: from = 4000000 ns is invalid; allowed: a "
                 "time >= now \\(5000000 ns\\)");
}

TEST_F(LlmEngineDeathTest, BadSessionsStopTheRun)
{
    Ptr<LlmEngine> e = CreateObject<LlmEngine>();
    EXPECT_DEATH(e->AddSession(1, 100, 0),
                 "ns3::LlmEngine::AddSession: tokensToGenerate = 0 is invalid; allowed: an "
                 "integer >= 1");
    EXPECT_DEATH(e->AddSession(1, 0, 10),
                 "ns3::LlmEngine::AddSession: promptTokens = 0 is invalid; allowed: an "
                 "integer >= 1");
    EXPECT_DEATH(e->AddResumedSession(1, 0, 10), "contextTokens = 0 is invalid");
    EXPECT_DEATH(e->AddResumedSession(1, 10, 0), "remainingTokens = 0 is invalid");
    e->AddSession(5, 100, 10);
    EXPECT_DEATH(e->AddSession(5, 100, 10), "imsi = 5 is invalid; .*duplicate IMSI");
    EXPECT_DEATH(e->AddResumedSession(5, 100, 10), "imsi = 5 is invalid; .*duplicate IMSI");
}

TEST_F(LlmEngineDeathTest, CallsOnUnknownOrBusySessionsStopTheRun)
{
    Ptr<LlmEngine> e = CreateObject<LlmEngine>();
    EXPECT_DEATH(e->ResumeDecoding(7, 0, 10),
                 "ns3::LlmEngine::ResumeDecoding: imsi = 7 is invalid; allowed: the IMSI of a "
                 "session");
    EXPECT_DEATH(e->SubmitPrefill(7, 10, true), "ns3::LlmEngine::SubmitPrefill: imsi = 7");
    EXPECT_DEATH(e->StopDecoding(7), "ns3::LlmEngine::StopDecoding: imsi = 7");
    EXPECT_DEATH(e->GetGeneratedTokens(7), "ns3::LlmEngine::GetGeneratedTokens: imsi = 7");
    EXPECT_DEATH(e->GetContextTokens(7), "ns3::LlmEngine::GetContextTokens: imsi = 7");

    e->AddResumedSession(3, 100, 10);
    EXPECT_EQ(e->GetContextTokens(3), 100u) << "the context it was resumed with";
    EXPECT_DEATH(e->ResumeDecoding(3, 50, 11),
                 "ResumeDecoding: remaining = 11 is invalid; allowed: an integer in \\[1, 10\\]");
    EXPECT_DEATH(e->ResumeDecoding(3, 50, 0), "remaining = 0 is invalid");
    EXPECT_DEATH(e->SubmitPrefill(3, 0, false),
                 "SubmitPrefill: tokens = 0 is invalid; allowed: an integer in \\[1, 110\\]");
    e->SubmitPrefill(3, 100, true);
    EXPECT_DEATH(e->SubmitPrefill(3, 100, true), "a session with no prefill queued or running");

    e->AddResumedSession(4, 100, 10);
    e->ResumeDecoding(4, 0, 10);
    EXPECT_DEATH(e->ResumeDecoding(4, 0, 10),
                 "imsi = 4 is invalid; allowed: a session that is "
                 "not decoding");
    EXPECT_DEATH(e->SubmitPrefill(4, 100, false), "StopDecoding first");
}

} // namespace
