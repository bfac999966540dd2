/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "invalid-message.h"

#include "ns3/token-reorder-buffer.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using edgellmtest::InvalidMessage;
using ns3::DeliveredToken;
using ns3::TokenRange;
using ns3::TokenReorderBuffer;
using ::testing::HasSubstr;

namespace
{

/// The generation time the tests give token i: distinct, so a mix-up shows.
int64_t
Gen(uint64_t i)
{
    return 1000000 + static_cast<int64_t>(i) * 7;
}

std::vector<int64_t>
Gens(uint64_t first, uint64_t count)
{
    std::vector<int64_t> g;
    for (uint64_t i = first; i < first + count; ++i)
    {
        g.push_back(Gen(i));
    }
    return g;
}

std::vector<uint32_t>
Indices(const std::vector<DeliveredToken>& d)
{
    std::vector<uint32_t> out;
    for (const auto& t : d)
    {
        out.push_back(t.index);
    }
    return out;
}

void
ExpectBalanced(const TokenReorderBuffer& b)
{
    EXPECT_EQ(b.GetReceivedCount(),
              b.GetDuplicateCount() + b.GetDeliveredCount() + b.GetHeldCount());
}

TEST(TokenReorderBuffer, InOrderTokensAreDeliveredAtOnce)
{
    TokenReorderBuffer b(5);
    auto d = b.Receive(0, Gens(0, 2));
    EXPECT_EQ(Indices(d), (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(d[1].generatedNs, Gen(1));
    EXPECT_FALSE(d[1].resent);
    d = b.Receive(2, Gens(2, 3));
    EXPECT_EQ(Indices(d), (std::vector<uint32_t>{2, 3, 4}));
    EXPECT_TRUE(b.IsComplete());
    EXPECT_EQ(b.GetDeliveredCount(), 5u);
    EXPECT_EQ(b.GetHeldCount(), 0u);
    EXPECT_TRUE(b.MissingRanges().empty());
    EXPECT_EQ(b.UnreceivedTail().Count(), 0u);
    ExpectBalanced(b);
}

TEST(TokenReorderBuffer, GapsAreHeldReportedAndFilled)
{
    TokenReorderBuffer b(20);
    EXPECT_TRUE(b.Receive(3, Gens(3, 2)).empty());   // holds 3-4
    EXPECT_TRUE(b.Receive(8, Gens(8, 1)).empty());   // holds 8
    EXPECT_TRUE(b.Receive(10, Gens(10, 3)).empty()); // holds 10-12
    EXPECT_EQ(b.GetHeldCount(), 6u);
    EXPECT_EQ(b.MissingRanges(), (std::vector<TokenRange>{{0, 3}, {5, 8}, {9, 10}}));
    EXPECT_EQ(b.MissingRanges(2), (std::vector<TokenRange>{{0, 3}, {5, 8}}));
    EXPECT_EQ(b.UnreceivedTail(), (TokenRange{13, 20}));

    // Fills 0-2 and releases 3-4.
    auto d = b.Receive(0, Gens(0, 3), true);
    EXPECT_EQ(Indices(d), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
    EXPECT_TRUE(d[0].resent);
    EXPECT_FALSE(d[3].resent);
    EXPECT_EQ(d[4].generatedNs, Gen(4));
    EXPECT_EQ(b.GetDeliveredByResendCount(), 3u);
    EXPECT_EQ(b.MissingRanges(), (std::vector<TokenRange>{{5, 8}, {9, 10}}));

    // Overlaps the held 8 and 10-11: only 5-7 and 9 are new; 12 is released.
    d = b.Receive(5, Gens(5, 7), true);
    EXPECT_EQ(Indices(d), (std::vector<uint32_t>{5, 6, 7, 8, 9, 10, 11, 12}));
    EXPECT_EQ(d[3].generatedNs, Gen(8));
    EXPECT_FALSE(d[3].resent);
    EXPECT_TRUE(d[4].resent);
    EXPECT_EQ(b.GetDuplicateCount(), 3u);
    EXPECT_EQ(b.GetDeliveredByResendCount(), 7u);
    EXPECT_EQ(b.GetNextExpected(), 13u);
    EXPECT_EQ(b.GetHeldCount(), 0u);
    EXPECT_EQ(b.GetHeldRunCount(), 0u);
    ExpectBalanced(b);
}

TEST(TokenReorderBuffer, DuplicatesAreCountedAndDropped)
{
    TokenReorderBuffer b(10);
    b.Receive(0, Gens(0, 4));
    EXPECT_TRUE(b.Receive(1, Gens(1, 2)).empty()); // delivered already
    EXPECT_TRUE(b.Receive(6, Gens(6, 2)).empty());
    EXPECT_TRUE(b.Receive(6, Gens(6, 2)).empty()); // held already
    EXPECT_TRUE(b.Receive(7, Gens(7, 1), true).empty());
    EXPECT_EQ(b.GetDuplicateCount(), 5u);
    EXPECT_EQ(b.GetReceivedCount(), 11u);
    EXPECT_EQ(b.GetHeldCount(), 2u);
    // Straddles delivered (2-3), missing (4-5) and held (6-7) tokens.
    auto d = b.Receive(2, Gens(2, 7));
    EXPECT_EQ(Indices(d), (std::vector<uint32_t>{4, 5, 6, 7, 8}));
    EXPECT_EQ(b.GetDuplicateCount(), 9u);
    ExpectBalanced(b);
}

TEST(TokenReorderBuffer, AdjacentArrivalsShareOneRun)
{
    TokenReorderBuffer b(1000);
    for (uint32_t i = 999; i >= 1; --i)
    {
        b.Receive(i, Gens(i, 1));
    }
    EXPECT_EQ(b.GetHeldRunCount(), 1u);
    EXPECT_EQ(b.GetHeldCount(), 999u);
    EXPECT_EQ(b.MissingRanges(), (std::vector<TokenRange>{{0, 1}}));
    EXPECT_EQ(b.Receive(0, Gens(0, 1)).size(), 1000u);
}

TEST(TokenReorderBuffer, HugeIndicesDoNotOverflow)
{
    const uint32_t total = TokenReorderBuffer::MAX_TOTAL_TOKENS;
    TokenReorderBuffer b(total);
    EXPECT_TRUE(b.Receive(total - 3, Gens(total - 3, 3)).empty());
    EXPECT_EQ(b.MissingRanges(), (std::vector<TokenRange>{{0, total - 3}}));
    EXPECT_EQ(b.UnreceivedTail(), (TokenRange{total, total}));
    EXPECT_THAT(InvalidMessage([&] { b.Receive(total - 1, Gens(total - 1, 2)); }),
                HasSubstr("firstIndex + count = 4294967296 is invalid; allowed: <= totalTokens "
                          "= 4294967295"));
    EXPECT_THAT(InvalidMessage([&] { b.Receive(4294967295u, Gens(0, 1)); }),
                HasSubstr("firstIndex + count"));
    EXPECT_EQ(b.GetReceivedCount(), 3u); // refused packets leave no trace
}

TEST(TokenReorderBuffer, BadInputIsRefusedByName)
{
    EXPECT_THAT(InvalidMessage([] { TokenReorderBuffer b(0); }),
                HasSubstr("totalTokens = 0 is invalid; allowed: [1, 4294967295]"));
    TokenReorderBuffer b(4);
    EXPECT_THAT(InvalidMessage([&] { b.Receive(0, {}); }),
                HasSubstr("count = 0 is invalid; allowed: >= 1"));
    EXPECT_THAT(InvalidMessage([&] { b.Receive(3, Gens(3, 2)); }),
                HasSubstr("firstIndex + count = 5"));
}

/// An independent model of the receiver: one flag per token, for the test only.
struct Reference
{
    explicit Reference(uint32_t n)
        : received(n, false),
          resent(n, false)
    {
    }

    std::vector<uint32_t> Receive(uint32_t first, uint32_t count, bool isResent)
    {
        for (uint32_t i = first; i < first + count; ++i)
        {
            if (!received[i])
            {
                received[i] = true;
                resent[i] = isResent;
            }
        }
        std::vector<uint32_t> out;
        while (next < received.size() && received[next])
        {
            out.push_back(next++);
        }
        return out;
    }

    std::vector<TokenRange> Gaps() const
    {
        std::vector<TokenRange> gaps;
        uint32_t highest = 0;
        bool any = false;
        for (uint32_t i = next; i < received.size(); ++i)
        {
            if (received[i])
            {
                highest = i;
                any = true;
            }
        }
        if (!any)
        {
            return gaps;
        }
        for (uint32_t i = next; i < highest; ++i)
        {
            if (!received[i])
            {
                if (!gaps.empty() && gaps.back().end == i)
                {
                    ++gaps.back().end;
                }
                else
                {
                    gaps.push_back({i, i + 1u});
                }
            }
        }
        return gaps;
    }

    std::vector<bool> received;
    std::vector<bool> resent;
    uint32_t next{0};
};

struct Packet
{
    uint32_t first;
    uint32_t count;
    bool resent;
};

/// Sessions through a channel that loses, duplicates and reorders packets; the client asks
/// for every gap and the tail until it is complete. Each token must reach the application
/// once, in order, with its own generation time.
TEST(TokenReorderBuffer, RandomLossyStreamsAreDeliveredExactlyOnceInOrder)
{
    std::mt19937 rng(20261129);
    for (int session = 0; session < 200; ++session)
    {
        const uint32_t total = std::uniform_int_distribution<uint32_t>(1, 600)(rng);
        const double loss = std::uniform_real_distribution<double>(0.0, 0.5)(rng);
        const double duplication = std::uniform_real_distribution<double>(0.0, 0.3)(rng);
        const int window = std::uniform_int_distribution<int>(1, 8)(rng);
        std::bernoulli_distribution lost(loss);
        std::bernoulli_distribution duplicated(duplication);

        TokenReorderBuffer b(total);
        Reference ref(total);
        std::vector<DeliveredToken> app;

        // The channel holds up to `window` packets and lets a random one out.
        std::deque<Packet> channel;
        auto deliverOne = [&]() {
            const std::size_t k = rng() % channel.size();
            const Packet p = channel[k];
            channel.erase(channel.begin() + static_cast<std::ptrdiff_t>(k));
            const auto got = b.Receive(p.first, Gens(p.first, p.count), p.resent);
            const auto expected = ref.Receive(p.first, p.count, p.resent);
            ASSERT_EQ(Indices(got), expected);
            for (const auto& t : got)
            {
                ASSERT_EQ(t.generatedNs, Gen(t.index));
                ASSERT_EQ(t.resent, static_cast<bool>(ref.resent[t.index]));
            }
            app.insert(app.end(), got.begin(), got.end());
            ASSERT_EQ(b.MissingRanges(), ref.Gaps());
            ExpectBalanced(b);
        };
        auto send = [&](uint32_t first, uint32_t count, bool resent) {
            const int copies = duplicated(rng) ? 2 : 1;
            for (int copy = 0; copy < copies; ++copy)
            {
                if (!lost(rng))
                {
                    channel.push_back({first, count, resent});
                }
                while (channel.size() > static_cast<std::size_t>(window))
                {
                    deliverOne();
                }
            }
        };
        auto sendRange = [&](uint64_t first, uint64_t end, bool resent) {
            while (first < end)
            {
                const uint32_t n = std::min<uint64_t>(end - first, 1 + rng() % 8);
                send(static_cast<uint32_t>(first), n, resent);
                first += n;
            }
        };

        sendRange(0, total, false);
        int rounds = 0;
        while (!b.IsComplete())
        {
            ASSERT_LT(++rounds, 10000) << "no progress";
            while (!channel.empty())
            {
                deliverOne();
            }
            for (const auto& gap : b.MissingRanges(64))
            {
                sendRange(gap.first, gap.end, true);
            }
            const TokenRange tail = b.UnreceivedTail();
            sendRange(tail.first, tail.end, true);
            while (!channel.empty())
            {
                deliverOne();
            }
        }

        ASSERT_EQ(app.size(), total);
        for (uint32_t i = 0; i < total; ++i)
        {
            ASSERT_EQ(app[i].index, i);
        }
        EXPECT_EQ(b.GetDeliveredCount(), total);
        EXPECT_EQ(b.GetHeldCount(), 0u);
        EXPECT_EQ(b.GetHeldRunCount(), 0u);
        const auto byResend = std::count(ref.resent.begin(), ref.resent.end(), true);
        EXPECT_EQ(b.GetDeliveredByResendCount(), static_cast<uint64_t>(byResend));
        ExpectBalanced(b);
    }
}

/// Held memory is bounded by the gap: never more tokens held than lie between the next
/// expected token and the highest received.
TEST(TokenReorderBuffer, HeldTokensAreBoundedByTheGap)
{
    std::mt19937 rng(7);
    TokenReorderBuffer b(100000);
    uint32_t highest = 0;
    for (int k = 0; k < 20000; ++k)
    {
        const uint32_t first =
            std::min<uint32_t>(b.GetNextExpected() + static_cast<uint32_t>(rng() % 200), 99990);
        b.Receive(first, Gens(first, 1 + rng() % 10));
        highest = std::max(highest, first);
        ASSERT_LE(b.GetHeldCount(), highest + 10 - b.GetNextExpected());
        ASSERT_LE(b.GetHeldRunCount(), b.GetHeldCount());
    }
}

} // namespace
