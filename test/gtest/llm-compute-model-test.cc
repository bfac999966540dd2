/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "invalid-message.h"

#include "ns3/llm-compute-model.h"

#include <algorithm>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using edgellmtest::InvalidMessage;
using ::testing::HasSubstr;

namespace
{

TEST(PrefillCurve, LinearIsAffineWithNothingAtZero)
{
    const auto p = PrefillCurve::Linear(9.4267e-5, 2.4e-3);
    EXPECT_EQ(p(0), 0.0);
    EXPECT_DOUBLE_EQ(p(1), 9.4267e-5 + 2.4e-3);
    EXPECT_DOUBLE_EQ(p(3072), 9.4267e-5 * 3072 + 2.4e-3);
}

TEST(PrefillCurve, LinearRejectsNegativeOrNan)
{
    EXPECT_THAT(InvalidMessage([] { PrefillCurve::Linear(-1e-5, 0); }), HasSubstr("PrefillA"));
    EXPECT_THAT(InvalidMessage([] { PrefillCurve::Linear(1e-5, -1e-3); }), HasSubstr("PrefillB"));
    EXPECT_THAT(InvalidMessage([] { PrefillCurve::Linear(std::nan(""), 0); }),
                HasSubstr("PrefillA"));
    EXPECT_THAT(InvalidMessage([] { PrefillCurve::Linear(1e-5, INFINITY); }),
                HasSubstr("PrefillB"));
}

TEST(PrefillCurve, MeasuredInterpolatesAndExtrapolates)
{
    const auto p = LlmComputeModel::FromPreset("llama-7b-llumnix").GetPrefillCurve();
    EXPECT_DOUBLE_EQ(p(1024), 0.220);
    EXPECT_DOUBLE_EQ(p(8192), 1.995);
    EXPECT_DOUBLE_EQ(p(768), 0.165);
    // Below the first point: the straight line to the origin.
    EXPECT_DOUBLE_EQ(p(128), 0.029);
    // Above the last point: the last segment's slope.
    EXPECT_DOUBLE_EQ(p(16384), 1.995 + (1.995 - 0.940) / 4096 * 8192);
    EXPECT_EQ(p(0), 0.0);
}

TEST(PrefillCurve, MeasuredIsNonDecreasing)
{
    for (const auto& name : LlmComputeModel::PresetNames())
    {
        const auto p = LlmComputeModel::FromPreset(name).GetPrefillCurve();
        double last = 0;
        for (uint64_t l = 0; l <= 20000; ++l)
        {
            ASSERT_GE(p(l), last) << name << " at " << l;
            last = p(l);
        }
    }
}

TEST(PrefillCurve, RandomMeasuredCurvesAreNonDecreasing)
{
    std::mt19937_64 rng(3);
    for (int n = 0; n < 200; ++n)
    {
        std::vector<PrefillCurve::Point> pts;
        uint64_t x = 0;
        double y = 0;
        for (int i = 0; i < 2 + static_cast<int>(rng() % 8); ++i)
        {
            x += 1 + rng() % 3000;
            y += (rng() % 4 == 0) ? 0.0 : std::ldexp(static_cast<double>(rng() % 1000), -10);
            pts.emplace_back(x, y);
        }
        const auto p = PrefillCurve::Measured(pts);
        double last = 0;
        for (uint64_t l = 0; l <= x + 2000; ++l)
        {
            ASSERT_GE(p(l), last) << "curve " << n << " at " << l;
            last = p(l);
        }
        for (const auto& pt : pts)
        {
            ASSERT_EQ(p(pt.first), pt.second) << "a knot is its own value";
        }
    }
}

TEST(PrefillCurve, MeasuredRejectsBadProfiles)
{
    EXPECT_THAT(InvalidMessage([] {
                    PrefillCurve::Measured({{256, 0.1}});
                }),
                HasSubstr("at least 2"));
    EXPECT_THAT(InvalidMessage([] {
                    PrefillCurve::Measured({{512, 0.1}, {256, 0.2}});
                }),
                HasSubstr("point 1 tokens"));
    EXPECT_THAT(InvalidMessage([] {
                    PrefillCurve::Measured({{256, 0.2}, {512, 0.1}});
                }),
                HasSubstr("point 1 seconds = 0.1 is invalid; allowed: at least the previous "
                          "point's 0.2"));
    EXPECT_THAT(InvalidMessage([] {
                    PrefillCurve::Measured({{0, 0.0}, {512, 0.1}});
                }),
                HasSubstr("point 0 tokens"));
    EXPECT_THAT(InvalidMessage([] {
                    PrefillCurve::Measured({{256, std::nan("")}, {512, 0.1}});
                }),
                HasSubstr("point 0 seconds"));
}

TEST(PrefillCurve, ProfileTextRoundTrips)
{
    const auto points = PrefillCurve::ParseProfile(" 256:0.058, 512:0.11,1024:2.2e-1 ");
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(points[2].first, 1024u);
    EXPECT_EQ(points[2].second, 0.22);
    const auto preset = LlmComputeModel::FromPreset("llama-30b-llumnix").GetPrefillCurve();
    EXPECT_EQ(PrefillCurve::ParseProfile(PrefillCurve::FormatProfile(preset.GetPoints())),
              preset.GetPoints());
}

TEST(PrefillCurve, BadProfileTextNamesTheItem)
{
    for (const char* item : {"256", "a:0.1", "256:x", "256:0.1s", "-5:0.1", ":0.1", "256:"})
    {
        EXPECT_THAT(InvalidMessage([&] { PrefillCurve::ParseProfile(item); }),
                    HasSubstr(std::string("PrefillProfile item = \"") + item + "\""))
            << item;
    }
    EXPECT_THAT(InvalidMessage([] { PrefillCurve::ParseProfile(" , "); }),
                HasSubstr("at least one"));
    EXPECT_THAT(InvalidMessage([] { PrefillCurve::ParseProfile("99999999999999999999999:1"); }),
                HasSubstr("PrefillProfile item"));
}

TEST(LlmComputeModel, BatchModes)
{
    const auto curve = PrefillCurve::Linear(1e-3, 0.01);
    const LlmComputeModel padded(curve, BatchPrefillMode::PADDED_MAX, DecodeStepModel{});
    const LlmComputeModel packed(curve, BatchPrefillMode::TOKEN_COUNT, DecodeStepModel{});
    const auto batch = PrefillBatch::FromLengths({100, 0, 300, 200});
    EXPECT_EQ(batch.sequences, 3u);
    EXPECT_EQ(batch.maxTokens, 300u);
    EXPECT_EQ(batch.totalTokens, 600u);
    EXPECT_DOUBLE_EQ(padded.BatchPrefillTime(batch), 0.3 + 0.01);
    EXPECT_DOUBLE_EQ(packed.BatchPrefillTime(batch), 0.6 + 0.01);
    EXPECT_EQ(padded.BatchPrefillTime(PrefillBatch{}), 0.0);
    EXPECT_DOUBLE_EQ(padded.PrefillTime(300), padded.BatchPrefillTime(PrefillBatch{1, 300, 300}));
}

TEST(LlmComputeModel, BatchModeNames)
{
    for (auto mode : {BatchPrefillMode::PADDED_MAX, BatchPrefillMode::TOKEN_COUNT})
    {
        EXPECT_EQ(BatchPrefillModeFromName(BatchPrefillModeName(mode)), mode);
    }
    EXPECT_THAT(InvalidMessage([] { BatchPrefillModeFromName("padded"); }),
                HasSubstr("BatchMode = \"padded\" is invalid; allowed: PaddedMax or TokenCount"));
}

TEST(LlmComputeModel, SequencesWithNoTokensAreAnError)
{
    const auto m = LlmComputeModel::FromPreset("qwen2.5-7b-ctho-paper");
    EXPECT_THAT(InvalidMessage([&] {
                    m.BatchPrefillTime(PrefillBatch{2, 0, 0});
                }),
                HasSubstr("PrefillBatch"));
}

TEST(LlmComputeModel, BatchAtThePaddedBound)
{
    const auto m = LlmComputeModel::FromPreset("qwen2.5-7b-ctho-paper");
    EXPECT_NO_THROW(m.BatchPrefillTime(PrefillBatch{3, 7, 21}));
    EXPECT_THAT(InvalidMessage([&] {
                    m.BatchPrefillTime(PrefillBatch{3, 7, 22});
                }),
                HasSubstr("PrefillBatch"));
}

TEST(LlmComputeModel, InconsistentBatchIsAnError)
{
    const auto m = LlmComputeModel::FromPreset("qwen2.5-7b-ctho-paper");
    EXPECT_THAT(InvalidMessage([&] {
                    m.BatchPrefillTime(PrefillBatch{2, 100, 300});
                }),
                HasSubstr("PrefillBatch"));
    EXPECT_THAT(InvalidMessage([&] {
                    m.BatchPrefillTime(PrefillBatch{2, 100, 50});
                }),
                HasSubstr("PrefillBatch"));
    EXPECT_THAT(InvalidMessage([&] {
                    m.BatchPrefillTime(PrefillBatch{0, 10, 10});
                }),
                HasSubstr("PrefillBatch"));
    EXPECT_THAT(InvalidMessage([&] {
                    m.BatchPrefillTime(PrefillBatch{3, 1, 2});
                }),
                HasSubstr("PrefillBatch"));
}

TEST(LlmComputeModel, DecodeStep)
{
    const LlmComputeModel m(PrefillCurve::Linear(0, 0),
                            BatchPrefillMode::PADDED_MAX,
                            DecodeStepModel{0.01, 0.002, 1e-6});
    EXPECT_EQ(m.DecodeStepTime(0, 0), 0.0);
    EXPECT_DOUBLE_EQ(m.DecodeStepTime(4, 8000), 0.01 + 4 * 0.002 + 8000 * 1e-6);
    EXPECT_THAT(InvalidMessage([] {
                    LlmComputeModel(PrefillCurve::Linear(0, 0),
                                    BatchPrefillMode::PADDED_MAX,
                                    DecodeStepModel{0.01, -1, 0});
                }),
                HasSubstr("DecodePerSequence"));
}

TEST(LlmComputeModel, DefaultPresetIsThePapersWithABorrowedDecode)
{
    const auto m = LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName());
    EXPECT_TRUE(m.GetPrefillCurve().IsLinear());
    EXPECT_DOUBLE_EQ(m.GetPrefillCurve().GetA(), 9.4267e-5);
    EXPECT_DOUBLE_EQ(m.GetPrefillCurve().GetB(), 2.4e-3);
    EXPECT_EQ(m.GetBatchMode(), BatchPrefillMode::PADDED_MAX);
    EXPECT_DOUBLE_EQ(m.DecodeStepTime(1, 3000), 13.3e-3);
    EXPECT_THAT(m.GetDecodeSource(), HasSubstr("borrowed"));
    EXPECT_THAT(m.GetDecodeSource(), HasSubstr("Llama-3.1-8B"));
    EXPECT_THAT(m.GetPrefillSource(), HasSubstr("2603.28018"));
}

TEST(LlmComputeModel, EveryPresetStatesItsSources)
{
    // Each preset names its model and where its figures come from (a paper id, a venue or
    // the GPU they were measured on), and its numbers are the calibration points those
    // sources publish: ms of recompute at 256 to 8192 tokens, or a linear fit.
    struct Expected
    {
        const char* name;
        std::vector<std::string> prefillMentions;
        std::vector<std::pair<uint64_t, double>> points; //!< (tokens, s)
    };

    // Linear fits at the same token counts: 9.4267e-5 n + 2.4e-3 s, and 66 us per token.
    std::vector<std::pair<uint64_t, double>> paper;
    std::vector<std::pair<uint64_t, double>> a100;
    for (uint64_t n : {256, 512, 1024, 2048, 4096, 8192})
    {
        paper.emplace_back(n, 9.4267e-5 * n + 2.4e-3);
        a100.emplace_back(n, 66e-6 * n);
    }
    const std::vector<Expected> expected = {
        {"qwen2.5-7b-ctho-paper", {"Qwen2.5-7B", "arXiv 2603.28018"}, paper},
        {"llama-7b-llumnix",
         {"LLaMA-7B", "Llumnix", "OSDI 2024"},
         {{256, 0.058}, {512, 0.110}, {1024, 0.220}, {2048, 0.436}, {4096, 0.940}, {8192, 1.995}}},
        {"llama-30b-llumnix",
         {"LLaMA-30B", "Llumnix", "OSDI 2024"},
         {{256, 0.115}, {512, 0.235}, {1024, 0.443}, {2048, 0.829}, {4096, 1.712}, {8192, 3.546}}},
        {"llama-3.1-8b-a100", {"Llama-3-8B", "A100", "66 us"}, a100},
    };
    ASSERT_EQ(LlmComputeModel::PresetNames().size(), expected.size());
    for (const Expected& e : expected)
    {
        SCOPED_TRACE(e.name);
        const auto m = LlmComputeModel::FromPreset(e.name);
        for (const std::string& word : e.prefillMentions)
        {
            EXPECT_THAT(m.GetPrefillSource(), HasSubstr(word));
        }
        // The published figures are rounded to 1 ms (Llumnix) or 4 digits (the fit): a point
        // within 0.5 ms, or 0.1 %, is the source's number.
        for (const auto& [tokens, seconds] : e.points)
        {
            EXPECT_NEAR(m.PrefillTime(tokens), seconds, std::max(0.5e-3, 1e-3 * seconds))
                << tokens << " tokens";
        }
        // Every decode figure is the one measurement: Llama-3.1-8B bf16 on A100-40GB, 13.3 ms.
        EXPECT_THAT(m.GetDecodeSource(), HasSubstr("Llama-3.1-8B"));
        EXPECT_THAT(m.GetDecodeSource(), HasSubstr("A100-40GB"));
        EXPECT_THAT(m.GetDecodeSource(), HasSubstr("13.3 ms"));
        EXPECT_NEAR(m.DecodeStepTime(1, 1000), 13.3e-3, 1e-12);
    }
    EXPECT_THAT(InvalidMessage([] { LlmComputeModel::FromPreset("gpt"); }),
                HasSubstr("ComputePreset"));
}

} // namespace
