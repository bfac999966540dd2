/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// KvTransferStreamParser: a connection's bytes cut into messages, however TCP cuts them, and
// a malformed header breaking the framing for good.

#include "ns3/kv-transfer-header.h"
#include "ns3/kv-transfer-stream-parser.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using H = KvTransferHeader;
using P = KvTransferStreamParser;
using Bytes = std::vector<uint8_t>;

/// A header's 36 bytes, written out from its documented layout, not by Serialize.
Bytes
Wire(uint8_t type, uint64_t imsi, uint32_t epoch, uint32_t first, uint32_t count, uint64_t bytes)
{
    Bytes b = {0x4B, 0x56, 3, type, 0, 0, 0, 0};
    auto put = [&b](uint64_t v, int width) {
        for (int k = width - 1; k >= 0; --k)
        {
            b.push_back(static_cast<uint8_t>(v >> (8 * k)));
        }
    };
    put(imsi, 8);
    put(epoch, 4);
    put(first, 4);
    put(count, 4);
    put(bytes, 8);
    return b;
}

/// What the parser found, one line per event, payload pieces of a message merged.
std::vector<std::string>
Feed(P& parser, const Bytes& stream, const std::vector<std::size_t>& cuts)
{
    std::vector<std::string> events;
    uint64_t payload = 0;
    uint64_t unframed = 0;
    std::size_t begin = 0;
    for (std::size_t k = 0; k <= cuts.size(); ++k)
    {
        const std::size_t end = k < cuts.size() ? cuts[k] : stream.size();
        while (begin < end)
        {
            const bool wantsData = !parser.InPayload() && !parser.IsBroken();
            const P::Step s = parser.Next(wantsData ? stream.data() + begin : nullptr, end - begin);
            EXPECT_GE(s.consumed, 1u);
            begin += s.consumed;
            switch (s.event)
            {
            case P::Event::HEADER: {
                std::ostringstream os;
                parser.GetHeader().Print(os);
                events.push_back(os.str());
                break;
            }
            case P::Event::PAYLOAD:
                payload += s.consumed;
                break;
            case P::Event::FRAMING_LOST:
                events.push_back("lost: " + parser.GetError());
                break;
            case P::Event::UNFRAMED:
                unframed += s.consumed;
                break;
            case P::Event::NONE:
                break;
            }
            if (s.messageEnd)
            {
                events.push_back("end, payload " + std::to_string(payload));
                payload = 0;
            }
        }
    }
    if (unframed > 0)
    {
        events.push_back("unframed " + std::to_string(unframed));
    }
    return events;
}

Bytes
Join(const std::vector<Bytes>& parts)
{
    Bytes all;
    for (const Bytes& p : parts)
    {
        all.insert(all.end(), p.begin(), p.end());
    }
    return all;
}

} // namespace

TEST(KvTransferStreamParser, CutsAStreamIntoItsMessagesWhereverTcpCutsIt)
{
    const Bytes stream = Join({Wire(1, 5, 2, 0, 10, 100),
                               Wire(3, 5, 2, 0, 4, 40),
                               Bytes(40, 0xAB), // a payload's bytes are never looked at
                               Wire(2, 5, 2, 0, 2, 8),
                               Bytes(8),
                               Wire(4, 5, 2, 0, 0, 0)});
    const std::vector<std::string> expected = {
        "BEGIN imsi=5 epoch=2 unit=token range=[0,10) payloadBytes=100",
        "end, payload 0",
        "DATA imsi=5 epoch=2 unit=token range=[0,4) payloadBytes=40",
        "end, payload 40",
        "TOKENS imsi=5 epoch=2 unit=token range=[0,2) payloadBytes=8",
        "end, payload 8",
        "END imsi=5 epoch=2 unit=token range=[0,0) payloadBytes=0",
        "end, payload 0",
    };
    {
        P whole;
        EXPECT_EQ(Feed(whole, stream, {}), expected);
        EXPECT_EQ(whole.GetHeldBytes(), 0u);
        EXPECT_FALSE(whole.IsBroken());
    }
    for (std::size_t cut = 1; cut < stream.size(); ++cut)
    {
        P parser;
        EXPECT_EQ(Feed(parser, stream, {cut}), expected) << "cut at " << cut;
    }
    std::vector<std::size_t> everyByte;
    for (std::size_t k = 1; k < stream.size(); ++k)
    {
        everyByte.push_back(k);
    }
    P byByte;
    EXPECT_EQ(Feed(byByte, stream, everyByte), expected);
}

TEST(KvTransferStreamParser, HoldsAHeaderUntilItIsWhole)
{
    const Bytes end = Wire(4, 1, 0, 0, 0, 0);
    P parser;
    const P::Step first = parser.Next(end.data(), 35);
    EXPECT_EQ(first.event, P::Event::NONE);
    EXPECT_EQ(first.consumed, 35u);
    EXPECT_EQ(parser.GetHeldBytes(), 35u);
    const P::Step last = parser.Next(end.data() + 35, 1);
    EXPECT_EQ(last.event, P::Event::HEADER);
    EXPECT_TRUE(last.messageEnd);
    EXPECT_EQ(parser.GetHeldBytes(), 0u);
    EXPECT_EQ(parser.GetHeader().GetMessageType(), H::END);
    const P::Step none = parser.Next(nullptr, 0);
    EXPECT_EQ(none.event, P::Event::NONE);
    EXPECT_EQ(none.consumed, 0u);
}

TEST(KvTransferStreamParser, StopsAtAHeaderBoundaryAndCountsPayloadWithoutItsBytes)
{
    const Bytes stream = Join({Wire(3, 5, 2, 0, 4, 40), Bytes(40), Wire(4, 5, 2, 0, 0, 0)});
    P parser;
    const P::Step header = parser.Next(stream.data(), stream.size());
    EXPECT_EQ(header.event, P::Event::HEADER);
    EXPECT_EQ(header.consumed, 36u) << "the caller acts on the header before its payload";
    EXPECT_FALSE(header.messageEnd);
    EXPECT_TRUE(parser.InPayload());
    const P::Step payload = parser.Next(nullptr, stream.size() - 36);
    EXPECT_EQ(payload.event, P::Event::PAYLOAD);
    EXPECT_EQ(payload.consumed, 40u) << "and no byte of the next message";
    EXPECT_TRUE(payload.messageEnd);
    EXPECT_FALSE(parser.InPayload());
}

TEST(KvTransferStreamParser, AMalformedHeaderBreaksTheFramingForGood)
{
    Bytes garbage = Wire(3, 5, 2, 0, 4, 40);
    garbage[2] = 2; // version 2
    const Bytes stream = Join({Wire(4, 5, 2, 0, 0, 0), garbage, Bytes(10), Wire(4, 5, 3, 0, 0, 0)});
    P parser;
    const std::vector<std::string> events = Feed(parser, stream, {50});
    const std::vector<std::string> expected = {
        "END imsi=5 epoch=2 unit=token range=[0,0) payloadBytes=0",
        "end, payload 0",
        "lost: version = 2; this code speaks 3",
        "unframed 46", // what follows the bad header, a valid one included
    };
    EXPECT_EQ(events, expected);
    EXPECT_TRUE(parser.IsBroken());
    EXPECT_FALSE(parser.InPayload());
    const Bytes more = Wire(4, 5, 4, 0, 0, 0);
    const P::Step after = parser.Next(more.data(), more.size());
    EXPECT_EQ(after.event, P::Event::UNFRAMED);
    EXPECT_EQ(after.consumed, more.size());
}

TEST(KvTransferStreamParser, EachRuleABrokenHeaderBreaksLosesTheFraming)
{
    std::vector<std::pair<Bytes, std::string>> cases;
    Bytes b = Wire(4, 1, 0, 0, 0, 0);
    b[0] = 0;
    cases.emplace_back(b, "magic");
    b = Wire(4, 1, 0, 0, 0, 0);
    b[6] = 1;
    cases.emplace_back(b, "reserved");
    cases.emplace_back(Wire(9, 1, 0, 0, 0, 0), "type");
    cases.emplace_back(Wire(3, 0, 0, 0, 1, 1), "imsi");
    cases.emplace_back(Wire(3, 1, 0, 0xFFFFFFFF, 2, 2), "exceeds 2^32");
    cases.emplace_back(Wire(2, 1, 0, 0, 2, 9), "4 x count");
    for (const auto& [bytes, rule] : cases)
    {
        P parser;
        const P::Step s = parser.Next(bytes.data(), bytes.size());
        EXPECT_EQ(s.event, P::Event::FRAMING_LOST) << rule;
        EXPECT_NE(parser.GetError().find(rule), std::string::npos) << parser.GetError();
    }
}
