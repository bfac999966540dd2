/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Configuration errors that stop an ns-3 run cannot be observed from a TestCase; these death
// tests check that they stop it, and with a message that names the field.

#include "ns3/config.h"
#include "ns3/ctho-paper-scenario.h"
#include "ns3/double.h"
#include "ns3/gpu-compute-model.h"
#include "ns3/kv-cache-model.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

TEST(KvCacheModelDeathTest, UnsupportedWidthStopsTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<KvCacheModel> m = CreateObject<KvCacheModel>();
    EXPECT_DEATH(m->SetAttribute("BitsPerElement", UintegerValue(3)),
                 "BitsPerElement = 3 is invalid; allowed: 16, 8, 4 or 2");
    EXPECT_DEATH(m->SetAttribute("KvHeads", UintegerValue(0)),
                 "ns3::KvCacheModel::KvHeads = 0 is invalid; allowed: an integer in \\[1, 4096\\]");
}

TEST(KvCacheModelDeathTest, BadDefaultStopsTheRunWhereItIsGiven)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // Refused by Config::SetDefault itself, not ignored later when an object is made.
    EXPECT_DEATH(Config::SetDefault("ns3::KvCacheModel::BitsPerElement", UintegerValue(3)),
                 "BitsPerElement = 3 is invalid; allowed: 16, 8, 4 or 2");
    EXPECT_DEATH(Config::SetDefault("ns3::GpuComputeModel::BatchMode", StringValue("Fast")),
                 "BatchMode = Fast is invalid; allowed: PaddedMax or TokenCount");
    EXPECT_DEATH(Config::SetDefault("ns3::CtHoPaperScenario::UeCount", UintegerValue(0)),
                 "UeCount = 0 is invalid; allowed: an integer in \\[1, 100000\\]");
}

TEST(KvCacheModelDeathTest, UnknownPresetStopsTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<KvCacheModel> m = CreateObject<KvCacheModel>();
    EXPECT_DEATH(m->ApplyPreset("GPT-5"), "Preset = \"GPT-5\" is invalid; allowed: one of");
    EXPECT_DEATH(KvCacheModel::SetDefaultPreset("qwen"), "Qwen2.5-7B-Instruct");
}

TEST(GpuComputeModelDeathTest, BadValuesStopTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<GpuComputeModel> g = CreateObject<GpuComputeModel>();
    EXPECT_DEATH(g->SetAttribute("PrefillProfile", StringValue("256:0.2,512:0.1")),
                 "PrefillProfile point 1 seconds");
    EXPECT_DEATH(
        g->SetAttribute("PrefillSecondsPerToken", DoubleValue(-1.0)),
        "PrefillSecondsPerToken = -1 is invalid; allowed: a finite number of seconds >= 0");
    EXPECT_DEATH(g->ApplyPreset("gpt"), "ComputePreset = \"gpt\" is invalid");
}

TEST(CtHoPaperScenarioDeathTest, InconsistentRangesStopTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<CtHoPaperScenario> s = CreateObject<CtHoPaperScenario>();
    s->SetAttribute("MaxStartX", DoubleValue(150.0));
    EXPECT_DEATH(s->Draw(), "MaxStartX = 150 m must be below BsDistance / 2 = 150 m");
    s->SetAttribute("MaxStartX", DoubleValue(130.0));
    s->SetAttribute("MinContext", UintegerValue(4000));
    EXPECT_DEATH(s->Draw(), "MinContext = 4000 must be <= MaxContext = 3072");
}

} // namespace
