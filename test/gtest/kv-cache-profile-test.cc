/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "invalid-message.h"

#include "ns3/kv-cache-profile.h"

#include <cstdint>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <stdexcept>

using edgellmtest::InvalidMessage;
using ns3::KvCacheProfile;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace
{

TEST(KvCacheProfile, Qwen25SizesMatchThePaper)
{
    const auto p = KvCacheProfile::FromPreset("Qwen2.5-7B-Instruct");
    EXPECT_EQ(p.GetBitsPerToken(), 458752u);
    EXPECT_EQ(p.GetBytesForTokens(1), 57344u);
    EXPECT_EQ(p.GetBytesPerBlock(), 917504u);
    // The paper's "176 MB for 3072 tokens" is decimal megabytes.
    EXPECT_EQ(p.GetBytesForTokens(3072), 176160768u);
    EXPECT_NEAR(p.GetBytesForTokens(3072) / 1e6, 176.2, 0.05);
}

struct PresetCase
{
    const char* name;
    uint64_t bf16BytesPerToken;
};

class KvPresetTest : public ::testing::TestWithParam<PresetCase>
{
};

TEST_P(KvPresetTest, BytesPerTokenAtEveryWidth)
{
    const auto c = GetParam();
    for (uint32_t bits : {16u, 8u, 4u, 2u})
    {
        const auto p = KvCacheProfile::FromPreset(c.name, bits);
        EXPECT_EQ(p.GetBytesForTokens(1), c.bf16BytesPerToken * bits / 16) << bits << " bits";
        EXPECT_EQ(p.GetBytesPerBlock(), 16 * c.bf16BytesPerToken * bits / 16);
    }
}

INSTANTIATE_TEST_SUITE_P(Presets,
                         KvPresetTest,
                         ::testing::Values(PresetCase{"Qwen2.5-7B-Instruct", 57344},
                                           PresetCase{"Llama-3-8B", 131072},
                                           PresetCase{"Llama-3.1-8B", 131072},
                                           PresetCase{"Qwen3-8B", 147456},
                                           PresetCase{"Qwen3-14B", 163840},
                                           PresetCase{"Qwen3-32B", 262144}));

TEST(KvCacheProfile, EveryPresetNameLoads)
{
    EXPECT_EQ(KvCacheProfile::PresetNames().size(), 6u);
    for (const auto& n : KvCacheProfile::PresetNames())
    {
        EXPECT_EQ(KvCacheProfile::FromPreset(n).GetName(), n);
    }
}

TEST(KvCacheProfile, PresetWithAnotherBlockSize)
{
    const auto p = KvCacheProfile::FromPreset("Qwen3-8B", 8, 32);
    EXPECT_EQ(p.GetBlockTokens(), 32u);
    EXPECT_EQ(p.GetBytesPerBlock(), 32u * 147456 / 2);
    EXPECT_THAT(InvalidMessage([] { KvCacheProfile::FromPreset("Qwen3-8B", 16, 0); }),
                HasSubstr("BlockTokens"));
}

TEST(KvCacheProfile, BlocksRoundUp)
{
    const KvCacheProfile p("m", 2, 2, 8, 16, 16);
    EXPECT_EQ(p.GetBlocksForTokens(0), 0u);
    EXPECT_EQ(p.GetBlocksForTokens(16), 1u);
    EXPECT_EQ(p.GetBlocksForTokens(17), 2u);
}

TEST(KvCacheProfile, OddShapesRoundBytesUp)
{
    // 2 * 1 * 1 * 1 * 2 = 4 bits per token: half a byte.
    const KvCacheProfile p("tiny", 1, 1, 1, 2, 1);
    EXPECT_DOUBLE_EQ(p.GetBytesPerToken(), 0.5);
    EXPECT_EQ(p.GetBytesForTokens(3), 2u);
    EXPECT_EQ(p.GetBytesForTokens(4), 2u);
}

TEST(KvCacheProfile, TokenRateOfALink)
{
    const auto p = KvCacheProfile::FromPreset("Qwen2.5-7B-Instruct");
    EXPECT_DOUBLE_EQ(p.GetTokensPerSecond(4.5e9), 4.5e9 / 458752.0);
    EXPECT_THAT(InvalidMessage([&] { p.GetTokensPerSecond(-1.0); }), HasSubstr("bitsPerSecond"));
    EXPECT_THAT(InvalidMessage([&] { p.GetTokensPerSecond(std::nan("")); }),
                HasSubstr("bitsPerSecond"));
    EXPECT_THAT(InvalidMessage([&] { p.GetTokensPerSecond(0.0); }), HasSubstr("> 0"));
}

TEST(KvCacheProfile, BadShapesNameTheFieldAndRange)
{
    EXPECT_THAT(InvalidMessage([] { KvCacheProfile("m", 28, 0, 128); }),
                AllOf(HasSubstr("KvHeads"), HasSubstr("[1, 4096]")));
    EXPECT_THAT(InvalidMessage([] { KvCacheProfile("m", 0, 4, 128); }), HasSubstr("Layers"));
    EXPECT_THAT(InvalidMessage([] { KvCacheProfile("m", 28, 4, 0); }), HasSubstr("HeadDim"));
    EXPECT_THAT(InvalidMessage([] { KvCacheProfile("m", 28, 4, 128, 16, 0); }),
                HasSubstr("BlockTokens"));
    EXPECT_THAT(InvalidMessage([] { KvCacheProfile("m", 28, 4, 128, 3); }),
                AllOf(HasSubstr("BitsPerElement"), HasSubstr("16, 8, 4 or 2")));
    EXPECT_THAT(InvalidMessage([] { KvCacheProfile::FromPreset("GPT-5"); }),
                AllOf(HasSubstr("Preset"), HasSubstr("Qwen3-32B")));
}

TEST(KvCacheProfile, HugeTokenCountsAreExact)
{
    // 4 bits per token: half a byte each, so 2^64 - 1 tokens take 2^63 bytes, rounded up.
    const KvCacheProfile tiny("tiny", 1, 1, 1, 2, 1);
    EXPECT_EQ(tiny.GetBytesForTokens(std::numeric_limits<uint64_t>::max()), 1ULL << 63);
    // 458,752 bits = 57,344 bytes per token: the largest count that fits, and one more.
    const auto p = KvCacheProfile::FromPreset("Qwen2.5-7B-Instruct");
    const uint64_t most = std::numeric_limits<uint64_t>::max() / 57344;
    EXPECT_EQ(p.GetBytesForTokens(most), most * 57344);
    EXPECT_THROW(p.GetBytesForTokens(most + 1), std::invalid_argument);
}

TEST(KvCacheProfile, ByteCountOverflowIsAnError)
{
    const auto p = KvCacheProfile::FromPreset("Qwen3-32B");
    EXPECT_THAT(InvalidMessage([&] { p.GetBytesForTokens(std::numeric_limits<uint64_t>::max()); }),
                HasSubstr("tokens"));
}

} // namespace
