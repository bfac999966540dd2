/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/range-set.h"

#include <gtest/gtest.h>
#include <random>
#include <set>
#include <vector>

using ns3::TokenRange;
using ns3::edgellm::RangeSet;

TEST(TokenRange, CountsWhatItHolds)
{
    EXPECT_EQ((TokenRange{3, 10}).Count(), 7u);
    EXPECT_FALSE((TokenRange{3, 10}).Empty());
    EXPECT_EQ((TokenRange{10, 10}).Count(), 0u);
    EXPECT_TRUE((TokenRange{10, 10}).Empty());
    EXPECT_EQ((TokenRange{10, 3}).Count(), 0u) << "an end below the first holds nothing";
    EXPECT_TRUE((TokenRange{10, 3}).Empty());
    // 64 bits: an end one past the last 32-bit index does not wrap.
    EXPECT_EQ((TokenRange{4294967295u, 4294967296u}).Count(), 1u);
    EXPECT_EQ(ns3::CountUnits({{0, 16}, {32, 40}, {50, 50}}), 24u);
    EXPECT_TRUE((TokenRange{1, 2}) == (TokenRange{1, 2}));
    EXPECT_FALSE((TokenRange{1, 2}) == (TokenRange{1, 3}));
}

TEST(RangeSet, AdjacentAndOverlappingRangesMerge)
{
    RangeSet s;
    s.Add({10, 20});
    s.Add({30, 40});
    EXPECT_EQ(s.RangeCount(), 2u);
    s.Add({20, 30});
    EXPECT_EQ(s.RangeCount(), 1u);
    EXPECT_EQ(s.Count(), 30u);
    s.Add({5, 12});
    s.Add({38, 50});
    EXPECT_EQ(s.RangeCount(), 1u);
    EXPECT_EQ(s.Ranges(), (std::vector<TokenRange>{{5, 50}}));
    EXPECT_EQ(s.Count(), 45u);
    s.Add({7, 7});
    EXPECT_EQ(s.Count(), 45u) << "an empty range adds nothing";
    s.Add({60, 55});
    EXPECT_EQ(s.Count(), 45u) << "nor does one whose end is below its first";
}

TEST(RangeSet, OverlapsAndContainsAtTheEdges)
{
    RangeSet s;
    s.Add({10, 20});
    EXPECT_FALSE(s.Overlaps({0, 10}));
    EXPECT_TRUE(s.Overlaps({0, 11}));
    EXPECT_TRUE(s.Overlaps({19, 30}));
    EXPECT_FALSE(s.Overlaps({20, 30}));
    EXPECT_TRUE(s.Contains({10, 20}));
    EXPECT_FALSE(s.Contains({9, 20}));
    EXPECT_FALSE(s.Contains({10, 21}));
    EXPECT_TRUE(s.Contains({15, 15}));
    EXPECT_FALSE(s.Overlaps({15, 15}));
}

TEST(RangeSet, AgreesWithAPlainSetOnRandomRanges)
{
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> start(0, 300);
    std::uniform_int_distribution<int> length(0, 20);
    for (int trial = 0; trial < 200; ++trial)
    {
        RangeSet s;
        std::set<uint64_t> reference;
        for (int i = 0; i < 30; ++i)
        {
            const uint64_t a = start(rng);
            const uint64_t b = a + length(rng);
            const uint64_t qa = start(rng);
            const uint64_t qb = qa + length(rng);
            bool overlaps = false;
            bool contains = true;
            for (uint64_t x = qa; x < qb; ++x)
            {
                overlaps = overlaps || reference.count(x) > 0;
                contains = contains && reference.count(x) > 0;
            }
            ASSERT_EQ(s.Overlaps({qa, qb}), overlaps) << qa << " " << qb;
            ASSERT_EQ(s.Contains({qa, qb}), contains) << qa << " " << qb;
            s.Add({a, b});
            for (uint64_t x = a; x < b; ++x)
            {
                reference.insert(x);
            }
            ASSERT_EQ(s.Count(), reference.size());
        }
        uint64_t previousEnd = 0;
        bool firstRange = true;
        for (const auto& [first, end] : s.Ranges())
        {
            EXPECT_LT(first, end);
            EXPECT_TRUE(firstRange || first > previousEnd) << "ranges are disjoint, not adjacent";
            previousEnd = end;
            firstRange = false;
        }
    }
}

// The gaps of random sets in random windows, against a set of integers by brute force.
TEST(RangeSet, ForEachGapMatchesBruteForce)
{
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 300; ++trial)
    {
        RangeSet s;
        std::set<uint64_t> held;
        const int adds = std::uniform_int_distribution<int>(0, 6)(rng);
        for (int i = 0; i < adds; ++i)
        {
            const uint64_t a = std::uniform_int_distribution<uint64_t>(0, 60)(rng);
            const uint64_t b = a + std::uniform_int_distribution<uint64_t>(0, 12)(rng);
            s.Add({a, b});
            for (uint64_t x = a; x < b; ++x)
            {
                held.insert(x);
            }
        }
        const uint64_t first = std::uniform_int_distribution<uint64_t>(0, 70)(rng);
        const uint64_t end = first + std::uniform_int_distribution<uint64_t>(0, 30)(rng);
        std::vector<TokenRange> expected;
        for (uint64_t x = first; x < end; ++x)
        {
            if (held.count(x) != 0)
            {
                continue;
            }
            if (!expected.empty() && expected.back().end == x)
            {
                expected.back().end = x + 1;
            }
            else
            {
                expected.push_back({x, x + 1});
            }
        }
        std::vector<TokenRange> got;
        s.ForEachGap({first, end}, [&got](TokenRange gap) { got.push_back(gap); });
        EXPECT_EQ(got, expected) << "trial " << trial << ", window [" << first << ", " << end
                                 << ")";
    }
}
