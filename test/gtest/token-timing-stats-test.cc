/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "invalid-message.h"

#include "ns3/token-timing-stats.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <vector>

using edgellmtest::InvalidMessage;
using namespace ns3::edgellm;
using ::testing::HasSubstr;

namespace
{

/// The reference: sort everything, rank by integer arithmetic (p an integer percent).
template <typename T>
T
BruteForcePercentile(std::vector<T> samples, unsigned p)
{
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    const std::size_t rank = (p * n + 99) / 100; // ceil(p n / 100)
    return samples[std::max<std::size_t>(rank, 1) - 1];
}

TEST(NearestRankPercentile, SmallCasesByHand)
{
    EXPECT_EQ(NearestRankPercentile(std::vector<double>{15, 20, 35, 40, 50}, 30), 20);
    EXPECT_EQ(NearestRankPercentile(std::vector<double>{15, 20, 35, 40, 50}, 40), 20);
    EXPECT_EQ(NearestRankPercentile(std::vector<double>{15, 20, 35, 40, 50}, 50), 35);
    EXPECT_EQ(NearestRankPercentile(std::vector<double>{15, 20, 35, 40, 50}, 100), 50);
    EXPECT_EQ(NearestRankPercentile(std::vector<double>{3, 1, 2}, 1e-9), 1);
    EXPECT_EQ(NearestRankPercentile(std::vector<int64_t>{7}, 50), 7);
}

TEST(NearestRankPercentile, DecimalPercentilesGetTheTextbookRank)
{
    EXPECT_EQ(NearestRank(1000, 99.9), 999u);
    EXPECT_EQ(NearestRank(1000, 0.1), 1u);
    EXPECT_EQ(NearestRank(3, 100.0 / 3), 1u);
    EXPECT_EQ(NearestRank(10, 90), 9u);
    EXPECT_EQ(NearestRank(10, 90.0000001), 10u);
    EXPECT_EQ(NearestRank(100, 99), 99u);
    EXPECT_EQ(NearestRank(1, 0.5), 1u);
}

TEST(NearestRankPercentile, MatchesASortOnRandomSamples)
{
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 2000; ++trial)
    {
        const std::size_t n = 1 + rng() % 300;
        std::vector<double> d(n);
        std::vector<int64_t> i(n);
        for (std::size_t k = 0; k < n; ++k)
        {
            // Few distinct values now and then, so ties are exercised.
            const uint64_t v = trial % 3 == 0 ? rng() % 5 : rng() % 1000000;
            i[k] = static_cast<int64_t>(v) - 500;
            d[k] = static_cast<double>(i[k]) * 0.25;
        }
        const unsigned p = 1 + rng() % 100;
        ASSERT_EQ(NearestRankPercentile(d, p), BruteForcePercentile(d, p)) << n << " " << p;
        ASSERT_EQ(NearestRankPercentile(i, p), BruteForcePercentile(i, p)) << n << " " << p;
    }
}

TEST(NearestRankPercentile, BadInputIsRefusedByName)
{
    EXPECT_THAT(InvalidMessage([] { NearestRankPercentile(std::vector<double>{}, 50); }),
                HasSubstr("samples = empty is invalid; allowed: at least one sample"));
    EXPECT_THAT(InvalidMessage([] { NearestRankPercentile(std::vector<double>{1}, 0); }),
                HasSubstr("p = 0 is invalid; allowed: (0, 100]"));
    EXPECT_THAT(InvalidMessage([] { NearestRankPercentile(std::vector<int64_t>{1}, 100.5); }),
                HasSubstr("p = 100.5 is invalid; allowed: (0, 100]"));
    EXPECT_THAT(InvalidMessage([] {
                    NearestRankPercentile(std::vector<double>{1},
                                          std::numeric_limits<double>::quiet_NaN());
                }),
                HasSubstr("p = nan"));
    EXPECT_THAT(InvalidMessage([] {
                    NearestRankPercentile(
                        std::vector<double>{1, std::numeric_limits<double>::quiet_NaN()},
                        50);
                }),
                HasSubstr("samples[1] = NaN"));
}

TEST(SummarizeTokenTiming, SmallSessionByHand)
{
    // Start at 1 s; tokens delivered at +100, +150, +150 (same packet), +400 ns.
    const int64_t start = 1000000000;
    const std::vector<int64_t> d{start + 100, start + 150, start + 150, start + 400};
    // Marks that arrived after 1, 2 and 4 deliveries; the last has no SIT yet.
    const auto s = SummarizeTokenTiming(start, d, {{0, 1}, {1, 2}, {3, 4}});
    EXPECT_EQ(s.tokens, 4u);
    EXPECT_DOUBLE_EQ(s.ttftS, 100e-9);
    EXPECT_DOUBLE_EQ(s.totalS, 400e-9); // the last delivery, +400 ns, not the latest mark
    EXPECT_EQ(s.itlCount, 3u);
    EXPECT_EQ(ItlSamplesNs(d), (std::vector<int64_t>{50, 0, 250}));
    EXPECT_DOUBLE_EQ(s.itlMeanS, 100e-9);
    EXPECT_DOUBLE_EQ(s.itlP50S, 50e-9); // rank ceil(1.5) = 2 of {0, 50, 250}
    EXPECT_DOUBLE_EQ(s.itlP90S, 250e-9);
    EXPECT_DOUBLE_EQ(s.itlP99S, 250e-9);
    ASSERT_EQ(s.sit.size(), 2u);
    EXPECT_EQ(s.sit[0].markedIndex, 0u);
    EXPECT_DOUBLE_EQ(s.sit[0].sitS, 50e-9); // from token 0's delivery to token 1's
    EXPECT_EQ(s.sit[1].markedIndex, 1u);
    EXPECT_DOUBLE_EQ(s.sit[1].sitS, 0.0); // token 2 came in token 1's packet
    EXPECT_EQ(s.marksWithoutNext, 1u);
    // A mark on token 0 before any delivery: the silence runs from the session start, past
    // token 0 (generated before the handover), to token 1.
    EXPECT_DOUBLE_EQ(SummarizeTokenTiming(start, d, {{0, 0}}).sit.at(0).sitS, 150e-9);
}

/// Tokens 0..211 paced 13 ms apart, the last at 3.215 s, then the handover's tokens; in ns.
std::vector<int64_t>
MigrationDeliveries()
{
    std::vector<int64_t> d;
    for (int64_t i = 0; i < 212; ++i)
    {
        d.push_back(3215000000 - (211 - i) * 13000000);
    }
    d.push_back(3233000000); // 212: the marked copy, its original lost in the handover
    d.push_back(3844000000); // 213: the target's first token, after its prefill
    d.push_back(3857000000); // 214
    return d;
}

TEST(SummarizeTokenTiming, MarkedCopyDeliveringItsTokenWaitsForTheNext)
{
    // The session migrates: the mark on 212 arrives after 212 deliveries and delivers 212
    // itself, but the user waits for 213, which the target generates 611 ms later.
    const std::vector<int64_t> d = MigrationDeliveries();
    const auto s = SummarizeTokenTiming(0, d, {{212, 212}});
    ASSERT_EQ(s.sit.size(), 1u);
    EXPECT_EQ(s.sit[0].markedIndex, 212u);
    EXPECT_NEAR(s.sit[0].sitS, 0.629, 1e-12); // 3.844 - 3.215, not 3.233 - 3.215
    EXPECT_EQ(s.marksWithoutNext, 0u);

    // Before 213 arrives the handover has no SIT yet, although the mark delivered a token.
    const std::vector<int64_t> upTo212(d.begin(), d.begin() + 213);
    const auto pending = SummarizeTokenTiming(0, upTo212, {{212, 212}});
    EXPECT_TRUE(pending.sit.empty());
    EXPECT_EQ(pending.marksWithoutNext, 1u);

    // A mark that overtook 210 and 211 too (k < m) runs from 209, the last delivery before it.
    const auto early = SummarizeTokenTiming(0, d, {{212, 210}});
    ASSERT_EQ(early.sit.size(), 1u);
    EXPECT_NEAR(early.sit[0].sitS, (3844000000 - d[209]) * 1e-9, 1e-12);
}

TEST(SummarizeTokenTiming, MarkedTokenDeliveredBeforeTheMarkKeepsTheNextDelivery)
{
    // Token 5 was delivered before its mark, which arrived after 8 deliveries: the silence is
    // the one the mark ended, from token 7's delivery to token 8's, not to token 6's.
    const std::vector<int64_t> d{10, 20, 30, 40, 50, 60, 70, 80, 500, 510};
    const auto s = SummarizeTokenTiming(0, d, {{5, 8}, {7, 8}});
    ASSERT_EQ(s.sit.size(), 2u);
    EXPECT_EQ(s.sit[0].markedIndex, 5u);
    EXPECT_DOUBLE_EQ(s.sit[0].sitS, (500 - 80) * 1e-9);
    // The same when the marked token is the last delivered before the mark (m + 1 = k).
    EXPECT_EQ(s.sit[1].markedIndex, 7u);
    EXPECT_DOUBLE_EQ(s.sit[1].sitS, (500 - 80) * 1e-9);
    EXPECT_EQ(s.marksWithoutNext, 0u);
}

TEST(SummarizeTokenTiming, OneTokenHasNoItl)
{
    const auto s = SummarizeTokenTiming(0, {5});
    EXPECT_EQ(s.itlCount, 0u);
    EXPECT_TRUE(std::isnan(s.itlMeanS));
    EXPECT_TRUE(std::isnan(s.itlP99S));
    EXPECT_DOUBLE_EQ(s.ttftS, 5e-9);
    EXPECT_DOUBLE_EQ(s.totalS, 5e-9);
    EXPECT_TRUE(ItlSamplesNs({}).empty());
}

TEST(SummarizeTokenTiming, MatchesABruteForceOnRandomSessions)
{
    std::mt19937_64 rng(5);
    for (int trial = 0; trial < 500; ++trial)
    {
        const std::size_t n = 2 + rng() % 2000;
        const int64_t start = static_cast<int64_t>(rng() % 1000000000);
        std::vector<int64_t> d(n);
        int64_t t = start + static_cast<int64_t>(rng() % 500000000);
        std::vector<ns3::HandoverMark> marks;
        for (std::size_t k = 0; k < n; ++k)
        {
            // Mostly decode steps of ~13 ms, some tokens in the same packet, some stalls.
            const uint64_t r = rng() % 100;
            t += r < 20   ? 0
                 : r < 97 ? 13000000 + static_cast<int64_t>(rng() % 2000000)
                          : static_cast<int64_t>(rng() % 400000000);
            d[k] = t;
            if (rng() % 200 == 0)
            {
                marks.push_back({static_cast<uint32_t>(k), static_cast<uint32_t>(rng() % (n + 1))});
            }
        }
        const auto s = SummarizeTokenTiming(start, d, marks);

        std::vector<int64_t> itl;
        double sum = 0;
        for (std::size_t k = 1; k < n; ++k)
        {
            itl.push_back(d[k] - d[k - 1]);
            sum += static_cast<double>(d[k] - d[k - 1]);
        }
        ASSERT_EQ(s.tokens, n);
        ASSERT_DOUBLE_EQ(s.ttftS, (d[0] - start) * 1e-9);
        ASSERT_DOUBLE_EQ(s.totalS, (d[n - 1] - start) * 1e-9);
        ASSERT_NEAR(s.itlMeanS, sum / (n - 1) * 1e-9, 1e-15);
        ASSERT_DOUBLE_EQ(s.itlP50S, BruteForcePercentile(itl, 50) * 1e-9);
        ASSERT_DOUBLE_EQ(s.itlP90S, BruteForcePercentile(itl, 90) * 1e-9);
        ASSERT_DOUBLE_EQ(s.itlP99S, BruteForcePercentile(itl, 99) * 1e-9);
        std::size_t next = 0;
        for (const ns3::HandoverMark& m : marks)
        {
            // The silence ends with the first token generated after the marked one, or with
            // the first delivery after the mark if that is later.
            const std::size_t end =
                std::max<std::size_t>(m.deliveredBefore, std::size_t{m.markedIndex} + 1);
            if (end >= n)
            {
                continue;
            }
            ASSERT_LT(next, s.sit.size());
            const int64_t before = m.deliveredBefore == 0 ? start : d[m.deliveredBefore - 1];
            ASSERT_EQ(s.sit[next].markedIndex, m.markedIndex);
            ASSERT_DOUBLE_EQ(s.sit[next].sitS, (d[end] - before) * 1e-9);
            ++next;
        }
        ASSERT_EQ(s.sit.size(), next);
        ASSERT_EQ(s.marksWithoutNext, marks.size() - next);
    }
}

TEST(SummarizeTokenTiming, BadInputIsRefusedByName)
{
    EXPECT_THAT(InvalidMessage([] { SummarizeTokenTiming(0, {}); }),
                HasSubstr("deliveryNs = empty is invalid; allowed: at least one delivered token"));
    EXPECT_THAT(InvalidMessage([] {
                    SummarizeTokenTiming(10, {9, 12});
                }),
                HasSubstr("deliveryNs[0] = 9 is invalid; allowed: >= startNs = 10"));
    EXPECT_THAT(InvalidMessage([] {
                    SummarizeTokenTiming(0, {5, 7, 6});
                }),
                HasSubstr("deliveryNs[2] = 6 is invalid; allowed: >= deliveryNs[1] = 7"));
    EXPECT_THAT(InvalidMessage([] {
                    SummarizeTokenTiming(0, {5, 7}, {{1, 3}});
                }),
                HasSubstr("handoverMarks[].deliveredBefore = 3 is invalid; allowed: <= the "
                          "tokens delivered, 2"));
    EXPECT_THAT(InvalidMessage([] { ItlSamplesNs({5, 4}); }), HasSubstr("deliveryNs[1]"));
}

} // namespace
