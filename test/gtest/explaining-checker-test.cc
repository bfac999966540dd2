/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// How an explaining checker tells a refusal, and which texts it takes for a value of each type.

#include "ns3/attribute-text.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"
#include "ns3/explaining-checker.h"
#include "ns3/ipv4-address.h"
#include "ns3/llm-engine.h"
#include "ns3/queue-size.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace ns3;
using testing::HasSubstr;

namespace
{

/// The lines a call prints on stderr.
template <typename F>
std::string
Stderr(F f)
{
    testing::internal::CaptureStderr();
    f();
    return testing::internal::GetCapturedStderr();
}

TEST(ExplainingCheckerTest, AValueRefusedAgainIsToldAgain)
{
    const auto checker = edgellm::MakeTimeNotNegativeChecker("ns3::Test::Interval", false);
    const std::string told = "ns3::Test::Interval = +0ns is invalid; allowed: a time > 0 (zero)\n";
    EXPECT_EQ(Stderr([&] { EXPECT_FALSE(checker->Check(TimeValue(Seconds(0)))); }), told);
    EXPECT_EQ(Stderr([&] { EXPECT_FALSE(checker->Check(TimeValue(Seconds(0)))); }), told);
}

TEST(ExplainingCheckerTest, ARefusedTextOfAStringIsToldOnce)
{
    // ns-3 offers the text as given, then as read back from itself: one refusal, one line.
    const auto checker =
        edgellm::MakeExplainingChecker(MakeStringChecker(),
                                       "ns3::Test::Name",
                                       "a or b",
                                       [](const AttributeValue& v) {
                                           const std::string s =
                                               static_cast<const StringValue&>(v).Get();
                                           return s == "a" || s == "b" ? "" : "unknown";
                                       });
    const std::string told = "ns3::Test::Name = c is invalid; allowed: a or b (unknown)\n";
    EXPECT_EQ(Stderr([&] { EXPECT_FALSE(checker->CreateValidValue(StringValue("c"))); }), told);
    EXPECT_EQ(Stderr([&] { EXPECT_FALSE(checker->CreateValidValue(StringValue("c"))); }), told);
    EXPECT_EQ(Stderr([&] { EXPECT_TRUE(checker->CreateValidValue(StringValue("b"))); }), "");
}

TEST(ExplainingCheckerTest, AReadableTextOutOfRangeIsRefusedWithoutStopping)
{
    const auto checker = edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 64),
                                                        "ns3::Test::Count",
                                                        "an integer in [1, 64]");
    EXPECT_EQ(Stderr([&] { EXPECT_FALSE(checker->CreateValidValue(StringValue("65"))); }),
              "ns3::Test::Count = 65 is invalid; allowed: an integer in [1, 64]\n");
}

TEST(ExplainingCheckerDeathTest, ATextThatIsNoValueStopsTheRun)
{
    // ns-3 reads "-1" as 2^64 - 1, which the range [0, 2^64 - 1] would take.
    const auto checker = edgellm::MakeExplainingChecker(MakeUintegerChecker<uint64_t>(),
                                                        "ns3::Test::Bytes",
                                                        "an integer in [0, 18446744073709551615]");
    EXPECT_DEATH(checker->CreateValidValue(StringValue("-1")),
                 "ns3::Test::Bytes = -1 is invalid; allowed: an integer in \\[0, "
                 "18446744073709551615\\] \\(not a whole number\\)");
}

TEST(ExplainingCheckerDeathTest, AnUnknownEnumNameStopsTheRunEvenFailSafe)
{
    Ptr<LlmEngine> engine = CreateObject<LlmEngine>();
    EXPECT_DEATH(engine->SetAttributeFailSafe("IterationMode", StringValue("Chunked")),
                 "ns3::LlmEngine::IterationMode = Chunked is invalid; allowed: Separate or Mixed "
                 "\\(no such name\\)");
}

TEST(ExplainingCheckerTest, AnEnumValueOutsideTheSetIsRefusedByItsNumber)
{
    Ptr<LlmEngine> engine = CreateObject<LlmEngine>();
    const auto seven = static_cast<LlmEngine::IterationMode>(7);
    EXPECT_EQ(Stderr([&] {
                  EXPECT_FALSE(engine->SetAttributeFailSafe("IterationMode", EnumValue(seven)));
              }),
              "ns3::LlmEngine::IterationMode = 7 is invalid; allowed: Separate or Mixed (no such "
              "value)\n");
    EXPECT_TRUE(engine->SetAttributeFailSafe("IterationMode", StringValue("Mixed")));
    StringValue mode;
    engine->GetAttribute("IterationMode", mode);
    EXPECT_EQ(mode.Get(), "Mixed");
}

TEST(ExplainingCheckerTest, JoinAlternatives)
{
    EXPECT_EQ(edgellm::JoinAlternatives({"a"}), "a");
    EXPECT_EQ(edgellm::JoinAlternatives({"a", "b"}), "a or b");
    EXPECT_EQ(edgellm::JoinAlternatives({"a", "b", "c"}), "a, b or c");
}

/// Whether a text is readable as a value like sample.
bool
Readable(const AttributeValue& sample, const std::string& text)
{
    return edgellm::AttributeTextProblem(sample, text).empty();
}

TEST(AttributeTextTest, Integers)
{
    const UintegerValue u;
    EXPECT_TRUE(Readable(u, "0"));
    EXPECT_TRUE(Readable(u, "+5"));
    EXPECT_TRUE(Readable(u, "18446744073709551615"));
    EXPECT_FALSE(Readable(u, "18446744073709551616"));
    EXPECT_FALSE(Readable(u, "-1"));
    EXPECT_FALSE(Readable(u, "1.5"));
    EXPECT_FALSE(Readable(u, "1e3"));
    EXPECT_FALSE(Readable(u, " 7"));
    EXPECT_FALSE(Readable(u, ""));
}

TEST(AttributeTextTest, Numbers)
{
    const DoubleValue d;
    EXPECT_TRUE(Readable(d, "-0.5"));
    EXPECT_TRUE(Readable(d, "1."));
    EXPECT_TRUE(Readable(d, ".5e-3"));
    EXPECT_TRUE(Readable(d, "9.4267e-05"));
    EXPECT_FALSE(Readable(d, "nan"));
    EXPECT_FALSE(Readable(d, "inf"));
    EXPECT_FALSE(Readable(d, "1e999"));
    EXPECT_FALSE(Readable(d, "0x10"));
    EXPECT_FALSE(Readable(d, "1,5"));
}

TEST(AttributeTextTest, Times)
{
    const TimeValue t;
    // ns-3 writes a time back as "+1e+08ns": its own text must read again.
    EXPECT_TRUE(Readable(t, "+1e+08ns"));
    EXPECT_TRUE(Readable(t, "5"));
    EXPECT_TRUE(Readable(t, "-1ms"));
    EXPECT_TRUE(Readable(t, "2min"));
    EXPECT_TRUE(Readable(t, "292y"));
    EXPECT_FALSE(Readable(t, "293y")); // 9.24e18 ns, past int64
    EXPECT_FALSE(Readable(t, "1e400s"));
    EXPECT_FALSE(Readable(t, "1.5.2s"));
    EXPECT_FALSE(Readable(t, "5xs"));
    EXPECT_FALSE(Readable(t, "1 s"));
    EXPECT_FALSE(Readable(t, "soon"));
}

TEST(AttributeTextTest, OtherTypes)
{
    const BooleanValue b;
    for (const char* text : {"true", "false", "t", "f", "1", "0"})
    {
        EXPECT_TRUE(Readable(b, text)) << text;
    }
    EXPECT_FALSE(Readable(b, "yes"));
    EXPECT_FALSE(Readable(b, "TRUE"));
    const DataRateValue r;
    EXPECT_TRUE(Readable(r, "4.5Gbps"));
    EXPECT_TRUE(Readable(r, "10000000000bps"));
    EXPECT_FALSE(Readable(r, "10 Gbps"));
    EXPECT_FALSE(Readable(r, "-1Gbps"));
    const QueueSizeValue q;
    EXPECT_TRUE(Readable(q, "100p"));
    EXPECT_FALSE(Readable(q, "100"));
    const Ipv4AddressValue a;
    EXPECT_TRUE(Readable(a, "255.255.255.255"));
    EXPECT_FALSE(Readable(a, "256.0.0.1"));
    EXPECT_FALSE(Readable(a, "1.2.3"));
    EXPECT_FALSE(Readable(a, "abc"));
    const TypeIdValue tid;
    EXPECT_TRUE(Readable(tid, "ns3::LlmEngine"));
    EXPECT_FALSE(Readable(tid, "ns3::NoSuchType"));
    // A type it does not know is left to ns-3's reader.
    EXPECT_TRUE(Readable(StringValue(), "any text at all"));
}

TEST(AttributeTextTest, EveryDefaultOfTheModuleReadsBack)
{
    // ns-3 writes a value back as text (--PrintAttributes, ConfigStore, the results' sidecar):
    // that text must be readable, or it could not be given back.
    std::size_t seen = 0;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() != "EdgeLlm")
        {
            continue;
        }
        for (std::size_t j = 0; j < tid.GetAttributeN(); ++j)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(j);
            const std::string text = info.originalInitialValue->SerializeToString(info.checker);
            EXPECT_EQ(edgellm::AttributeTextProblem(*info.checker->Create(), text), "")
                << tid.GetAttributeFullName(j) << " = " << text;
            ++seen;
        }
    }
    EXPECT_GT(seen, 100u);
}

} // namespace
