/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What a program's command line check refuses before ns-3's CommandLine reads it, and the
// words of each refusal: one line, naming what was typed.

#include "program-args.h"

#include "ns3/attribute-text.h"
#include "ns3/core-module.h"
#include "ns3/flag-checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace ns3;
using testing::HasSubstr;
using testing::StartsWith;

namespace
{

/// The check of a command line for a program with the flags of a small example.
std::string
Check(std::vector<std::string> args)
{
    uint32_t count = 1;
    double distance = 300;
    std::string time = "10ms";
    bool quiet = false;
    CommandLine cmd;
    cmd.AddValue("count", "a count, [1, 64]", count);
    cmd.AddValue("distance", "a distance, (0, 1e6] m", distance);
    cmd.AddValue("time", "a time", time);
    cmd.AddValue("quiet", "a boolean", quiet);
    edgellm::test::ProgramArgs program(std::move(args));
    return edgellm::CheckArguments(cmd,
                                   {{"count", true, "an integer in [1, 64]", 1, 64},
                                    {"distance", false, "a distance in (0, 1e6] m", 0, 1e6, true}},
                                   {"quiet"},
                                   program.Argc(),
                                   program.Argv());
}

TEST(FlagChecksTest, GoodArgumentsPass)
{
    EXPECT_EQ(Check({}), "");
    EXPECT_EQ(Check({"--count=64", "--distance=1e6", "--time=abc", "--quiet"}), "");
    EXPECT_EQ(Check({"-count=2"}), "");
    EXPECT_EQ(Check({"--quiet=false", "--RngRun=3", "--ns3::LlmEngine::ChunkTokens=512"}), "");
    // CommandLine's own requests are its business.
    EXPECT_EQ(Check({"--PrintHelp", "--PrintAttributes=ns3::LlmEngine"}), "");
}

TEST(FlagChecksTest, NumbersAreCheckedAsTyped)
{
    EXPECT_EQ(Check({"--count=65"}), "--count = 65 is invalid; allowed: an integer in [1, 64]");
    for (const char* bad : {"", "0", "-1", "1.5", "1e1", "99999999999999999999", "4294967297"})
    {
        EXPECT_THAT(Check({std::string("--count=") + bad}), StartsWith("--count = ")) << bad;
    }
    for (const char* bad : {"0", "-1", "1e308", "nan", "inf", "0x10", " 5", "5 "})
    {
        EXPECT_THAT(Check({std::string("--distance=") + bad}),
                    StartsWith(std::string("--distance = ") + bad + " is invalid"))
            << bad;
    }
}

TEST(FlagChecksTest, AFlagGivenTwiceIsRefused)
{
    EXPECT_EQ(Check({"--time=abc", "--time=10ms"}),
              "--time = 10ms is invalid; allowed: one value, given once (--time is given more "
              "than once, first = abc)");
    EXPECT_THAT(Check({"--count=2", "-count=2"}), StartsWith("--count = 2 is invalid"));
}

TEST(FlagChecksTest, AMissingValueAnUnknownFlagAndAWordAreRefused)
{
    EXPECT_THAT(Check({"--time"}), StartsWith("--time = (no value) is invalid"));
    EXPECT_THAT(Check({"--count"}), StartsWith("--count = (no value) is invalid"));
    EXPECT_THAT(Check({"--foo=1"}), StartsWith("--foo = 1 is invalid; allowed: the flags"));
    EXPECT_THAT(Check({"count=2"}), StartsWith("\"count=2\" is invalid"));
    EXPECT_THAT(Check({"--quiet=yes"}), StartsWith("--quiet = yes is invalid; allowed: true"));
}

TEST(FlagChecksTest, AttributeSettingsAreTriedAsNs3WouldTakeThem)
{
    EXPECT_THAT(Check({"--ns3::LlmEngine::ChunkTokens=0"}),
                StartsWith("ns3::LlmEngine::ChunkTokens = 0 is invalid; allowed: "));
    EXPECT_THAT(Check({"--RngRun=abc"}), StartsWith("RngRun = abc is invalid"));
    EXPECT_THAT(Check({"--ns3::LlmEngine::NoSuch=1"}), HasSubstr("(no such attribute)"));
    EXPECT_THAT(Check({"--ns3::NoSuchType::X=1"}), HasSubstr("(no TypeId ns3::NoSuchType)"));
    // As Config::SetDefault, among the class's own attributes: an inherited one is named.
    EXPECT_THAT(Check({"--ns3::StarBackhaulTopology::MinRateMbps=1"}),
                HasSubstr("(it is one of ns3::BackhaulTopology: "
                          "--ns3::BackhaulTopology::MinRateMbps)"));
    EXPECT_THAT(Check({"--ns3::LlmEngine::ChunkTokens"}),
                StartsWith("--ns3::LlmEngine::ChunkTokens = (no value) is invalid"));
}

TEST(FlagChecksTest, TimesOutOfRangeOrRoundingToZeroAreRefused)
{
    Time t = Seconds(7);
    EXPECT_EQ(edgellm::ReadTimeFlag("window", "0", t, true, "1s"), "");
    EXPECT_EQ(t, Seconds(0));
    EXPECT_EQ(edgellm::ReadTimeFlag("window", "2ms", t, true, "1s"), "");
    EXPECT_EQ(t, MilliSeconds(2));
    for (const char* bad : {"1e308",
                            "99999999999999999999",
                            "300y",
                            "1e-20s",
                            "-1e-20s",
                            "-1ms",
                            "nan",
                            "1 s",
                            "5xs",
                            ""})
    {
        EXPECT_THAT(edgellm::ReadTimeFlag("window", bad, t, true, "1s"),
                    StartsWith(std::string("--window = ") + bad +
                               " is invalid; allowed: a time >= 0, e.g. 1s"))
            << bad;
    }
    EXPECT_EQ(t, MilliSeconds(2)); // unchanged by a refusal
    EXPECT_THAT(edgellm::ReadTimeFlag("slot", "0s", t, false, "1s"),
                StartsWith("--slot = 0s is invalid; allowed: a time > 0"));
}

TEST(FlagChecksTest, RatesNeedAUnitAndAValueDataRateHolds)
{
    DataRate r;
    EXPECT_EQ(edgellm::ReadRateFlag("rate", "4.5Gbps", r), "");
    EXPECT_EQ(r.GetBitRate(), 4500000000u);
    EXPECT_EQ(edgellm::ReadRateFlag("rate", "10000000000Gbps", r), "");
    for (const char* bad : {"4.5", "0bps", "-1Gbps", "20000000000Gbps", "1e9bps", "4.5 Gbps", ""})
    {
        EXPECT_THAT(edgellm::ReadRateFlag("rate", bad, r),
                    StartsWith(std::string("--rate = ") + bad + " is invalid; allowed: a rate > 0"))
            << bad;
    }
    EXPECT_THAT(edgellm::DataRateTextProblem("4.5"), HasSubstr("no unit"));
    EXPECT_THAT(edgellm::DataRateTextProblem("20000000000Gbps"), HasSubstr("2^64"));
}

TEST(AttributeSettingTest, ARefusalIsOneLineAndNothingIsPrinted)
{
    testing::internal::CaptureStderr();
    const std::string refusal = edgellm::AttributeSettingRefusal("ns3::LlmEngine::LoadFactor", "0");
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_THAT(refusal, StartsWith("ns3::LlmEngine::LoadFactor = 0 is invalid; allowed: "));
    EXPECT_EQ(refusal.find('\n'), std::string::npos);
}

TEST(AttributeSettingTest, TextsThatWouldStopTheRunAreRefused)
{
    // Each of these stopped ns-3's reader (or misread it) before the module's checks saw it.
    for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
             {"ns3::LlmEngine::LoadFactor", "nan"},
             {"ns3::LlmEngine::ChunkTokens", "99999999999999999999"},
             {"ns3::LlmEngine::IterationMode", "Bogus"},
             {"ns3::LlmEngine::PrefillCycle", "1e308"},
             {"ns3::KvTransferSender::CongestionControl", "ns3::Bogus"},
             {"ns3::ImpactSlotScheduler::SharedRate", "-1bps"},
             {"ns3::PallasScheduler::WindowStep", "1e308"},
             {"ns3::BackhaulTopology::RateMbps", "ns3::Bogus"},
             {"ns3::BackhaulTopology::RateMbps", "ns3::LlmEngine"},
             {"ns3::BackhaulTopology::RateMbps", "ns3::NormalRandomVariable[Mean=abc]"},
             {"ns3::BackhaulTopology::RateMbps", "ns3::NormalRandomVariable[Nope=1]"},
             {"ns3::BackhaulTopology::RateMbps", ""},
             {"RngRun", "-1"}})
    {
        EXPECT_THAT(edgellm::AttributeSettingRefusal(name, text),
                    StartsWith(name + " = " + text + " is invalid; allowed: "));
    }
}

TEST(AttributeSettingTest, GoodTextsAreTaken)
{
    EXPECT_EQ(edgellm::AttributeSettingRefusal("ns3::LlmEngine::IterationMode", "Mixed"), "");
    EXPECT_EQ(edgellm::AttributeSettingRefusal("ns3::BackhaulTopology::RateMbps",
                                               "ns3::NormalRandomVariable[Mean=300|Variance=2500]"),
              "");
    EXPECT_EQ(edgellm::AttributeSettingRefusal("RngRun", "2"), "");
    EXPECT_EQ(edgellm::AttributeSettingRefusal("NotAGlobalValue", "x"), "");
}

} // namespace
