/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "invalid-message.h"

#include "ns3/edge-llm-downlink-header.h"
#include "ns3/edge-llm-uplink-header.h"
#include "ns3/packet-metadata.h"
#include "ns3/packet.h"

#include <cstdint>
#include <cstdlib>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <vector>

using edgellmtest::InvalidMessage;
using namespace ns3;
using ::testing::HasSubstr;

namespace
{

using Bytes = std::vector<uint8_t>;

template <typename H>
Bytes
ToBytes(const H& h)
{
    Packet p;
    p.AddHeader(h);
    Bytes b(p.GetSize());
    p.CopyData(b.data(), b.size());
    return b;
}

Ptr<Packet>
FromBytes(const Bytes& b, std::size_t size)
{
    return Create<Packet>(b.data(), static_cast<uint32_t>(size));
}

Ptr<Packet>
FromBytes(const Bytes& b)
{
    return FromBytes(b, b.size());
}

void
PutU16(Bytes& b, std::size_t at, uint16_t v)
{
    b.at(at) = static_cast<uint8_t>(v >> 8);
    b.at(at + 1) = static_cast<uint8_t>(v & 0xff);
}

void
PutU32(Bytes& b, std::size_t at, uint32_t v)
{
    for (int k = 0; k < 4; ++k)
    {
        b.at(at + k) = (v >> (24 - 8 * k)) & 0xff;
    }
}

std::vector<Time>
Times(std::size_t n, int64_t firstNs, int64_t stepNs)
{
    std::vector<Time> t;
    for (std::size_t k = 0; k < n; ++k)
    {
        t.push_back(NanoSeconds(firstNs + static_cast<int64_t>(k) * stepNs));
    }
    return t;
}

EdgeLlmDownlinkHeader
TokenHeader(uint32_t first, std::size_t n)
{
    EdgeLlmDownlinkHeader h;
    h.SetImsi(0x0102030405060708ULL);
    h.SetCellId(7);
    h.SetServer(Ipv4Address("10.1.2.3"), 5000);
    h.SetTokens(first, Times(n, 1000000000, 13300000));
    return h;
}

EdgeLlmUplinkHeader
NackHeader()
{
    EdgeLlmUplinkHeader h;
    h.SetImsi(42);
    h.SetRequestSeq(9);
    h.SetNack(10, {{10, 13}, {20, 21}, {4000000000u, 4294967296ULL}});
    return h;
}

/// Refused without reading past the end, and the packet is left untouched.
template <typename H>
std::string
Refusal(const Bytes& b, std::size_t size)
{
    Ptr<Packet> p = FromBytes(b, size);
    H h;
    EXPECT_FALSE(H::TryRemove(p, h)) << size << " bytes";
    EXPECT_EQ(p->GetSize(), size);
    EXPECT_FALSE(h.IsValid());
    // Deserialize alone must also refuse: RemoveHeader may be called without TryRemove.
    H raw;
    EXPECT_EQ(p->PeekHeader(raw), 0u) << size << " bytes";
    return h.GetError();
}

template <typename H>
std::string
Refusal(const Bytes& b)
{
    return Refusal<H>(b, b.size());
}

TEST(EdgeLlmDownlinkHeader, TokensRoundTripKeepsEveryField)
{
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{128}})
    {
        EdgeLlmDownlinkHeader h = TokenHeader(4294967296ULL - n, n);
        h.SetResent(true);
        h.SetHandoverMark(n == 3);
        ASSERT_TRUE(h.IsValid()) << h.GetError();
        EXPECT_EQ(h.GetSerializedSize(), 28 + 8 * n);

        Ptr<Packet> p = Create<Packet>(100);
        p->AddHeader(h);
        EdgeLlmDownlinkHeader r;
        ASSERT_TRUE(EdgeLlmDownlinkHeader::TryRemove(p, r)) << r.GetError();
        EXPECT_EQ(p->GetSize(), 100u);
        EXPECT_TRUE(r.IsValid());
        EXPECT_EQ(r.GetType(), EdgeLlmDownlinkHeader::TOKENS);
        EXPECT_EQ(r.GetImsi(), 0x0102030405060708ULL);
        EXPECT_EQ(r.GetCellId(), 7);
        EXPECT_EQ(r.GetServerAddress(), Ipv4Address("10.1.2.3"));
        EXPECT_EQ(r.GetServerPort(), 5000);
        EXPECT_EQ(r.GetFirstIndex(), 4294967296ULL - n);
        EXPECT_EQ(r.GetLastIndex(), 4294967295u);
        EXPECT_EQ(r.GetTokenCount(), n);
        EXPECT_TRUE(r.IsResent());
        EXPECT_EQ(r.IsHandoverMark(), n == 3);
        EXPECT_EQ(r.GetGenerationTimesNs(), h.GetGenerationTimesNs());
        EXPECT_EQ(r.GetGenerationTime(static_cast<uint16_t>(n - 1)),
                  NanoSeconds(1000000000 + static_cast<int64_t>(n - 1) * 13300000));
        EXPECT_EQ(ToBytes(r), ToBytes(h));
    }
}

TEST(EdgeLlmDownlinkHeader, LayoutMatchesTheDocumentedOffsets)
{
    EdgeLlmDownlinkHeader h = TokenHeader(0x0A0B0C0D, 2);
    h.SetHandoverMark(true);
    const Bytes b = ToBytes(h);
    ASSERT_EQ(b.size(), 44u);
    EXPECT_EQ(b[0], 0xED);
    EXPECT_EQ(b[1], 0x11);
    EXPECT_EQ(b[2], 1);
    EXPECT_EQ(b[3], 1);
    EXPECT_EQ(b[4], 0x01);
    EXPECT_EQ(b[11], 0x08);
    EXPECT_EQ(b[13], 7);
    EXPECT_EQ((b[14] << 8) | b[15], 5000);
    EXPECT_EQ(b[16], 10);
    EXPECT_EQ(b[19], 3);
    EXPECT_EQ(b[20], EdgeLlmDownlinkHeader::FLAG_HANDOVER_MARK);
    EXPECT_EQ(b[21], 0);
    EXPECT_EQ((b[22] << 8) | b[23], 2);
    EXPECT_EQ(b[24], 0x0A);
    EXPECT_EQ(b[27], 0x0D);
    // 1 s in ns is 0x3B9ACA00.
    EXPECT_EQ(b[32], 0x3B);
    EXPECT_EQ(b[35], 0x00);
}

TEST(EdgeLlmDownlinkHeader, RejectionRoundTrip)
{
    EdgeLlmDownlinkHeader h;
    h.SetImsi(5);
    h.SetCellId(65535);
    h.SetServer(Ipv4Address("1.0.0.1"), 65535);
    h.SetRejection(EdgeLlmDownlinkHeader::SESSION_TOO_LARGE, 4294967295u);
    EXPECT_EQ(h.GetSerializedSize(), 28u);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    EdgeLlmDownlinkHeader r;
    ASSERT_TRUE(EdgeLlmDownlinkHeader::TryRemove(p, r)) << r.GetError();
    EXPECT_EQ(p->GetSize(), 0u);
    EXPECT_EQ(r.GetType(), EdgeLlmDownlinkHeader::SESSION_REJECTED);
    EXPECT_EQ(r.GetRejectReason(), EdgeLlmDownlinkHeader::SESSION_TOO_LARGE);
    EXPECT_EQ(r.GetRequestSeq(), 4294967295u);
    EXPECT_EQ(r.GetImsi(), 5u);
    EXPECT_EQ(r.GetCellId(), 65535);
    EXPECT_EQ(r.GetTokenCount(), 0);
    EXPECT_EQ(ToBytes(r), ToBytes(h));
}

TEST(EdgeLlmDownlinkHeader, EveryTruncationIsRefused)
{
    for (const auto& h : {TokenHeader(3, 1), TokenHeader(0, 128)})
    {
        const Bytes b = ToBytes(h);
        for (std::size_t size = 0; size < b.size(); ++size)
        {
            EXPECT_THAT(Refusal<EdgeLlmDownlinkHeader>(b, size), HasSubstr("size")) << size;
        }
    }
}

TEST(EdgeLlmDownlinkHeader, BadFieldsAreRefusedByName)
{
    const Bytes good = ToBytes(TokenHeader(100, 4));

    struct Case
    {
        std::size_t offset;
        uint32_t value;
        int width;
        const char* field;
    };

    const Case cases[] = {
        {0, 0xED12, 2, "magic"},
        {2, 2, 1, "version"},
        {3, 3, 1, "type"},
        {3, EdgeLlmUplinkHeader::NACK, 1, "type"},
        {12, 0, 2, "cellId"},
        {14, 0, 2, "serverPort"},
        {16, 0, 4, "serverAddress"},
        {16, 0xFFFFFFFF, 4, "serverAddress"},
        {20, 0x04, 1, "flags"},
        {21, 1, 1, "reserved"},
        {22, 0, 2, "tokenCount"},
        {22, 129, 2, "tokenCount"},
        {22, 5, 2, "size"},
        {24, 0xFFFFFFFE, 4, "firstIndex + tokenCount - 1"},
        {28, 0xFFFFFFFF, 4, "generatedNs[0]"}, // negative
        {44, 0x7FFFFFFF, 4, "generatedNs[3]"}, // token 2 made later than token 3
    };
    for (const auto& c : cases)
    {
        Bytes b = good;
        if (c.width == 1)
        {
            b[c.offset] = static_cast<uint8_t>(c.value);
        }
        else if (c.width == 2)
        {
            PutU16(b, c.offset, static_cast<uint16_t>(c.value));
        }
        else
        {
            PutU32(b, c.offset, c.value);
        }
        EXPECT_THAT(Refusal<EdgeLlmDownlinkHeader>(b), HasSubstr(c.field)) << c.offset;
    }
    Bytes b = good;
    PutU32(b, 4, 0);
    PutU32(b, 8, 0);
    EXPECT_THAT(Refusal<EdgeLlmDownlinkHeader>(b), HasSubstr("imsi"));

    EdgeLlmDownlinkHeader rej;
    rej.SetImsi(1);
    rej.SetCellId(1);
    rej.SetServer(Ipv4Address("10.0.0.1"), 1);
    rej.SetRejection(EdgeLlmDownlinkHeader::SERVER_BUSY, 3);
    Bytes r = ToBytes(rej);
    r[20] = 4;
    EXPECT_THAT(Refusal<EdgeLlmDownlinkHeader>(r), HasSubstr("rejectReason"));
    r = ToBytes(rej);
    r[23] = 1;
    EXPECT_THAT(Refusal<EdgeLlmDownlinkHeader>(r), HasSubstr("reserved"));
}

TEST(EdgeLlmDownlinkHeader, RefusalLeavesTheHeaderAsItWas)
{
    EdgeLlmDownlinkHeader h = TokenHeader(5, 2);
    Bytes b = ToBytes(TokenHeader(900, 3));
    PutU16(b, 22, 0);
    EXPECT_EQ(FromBytes(b)->PeekHeader(h), 0u);
    EXPECT_EQ(h.GetFirstIndex(), 5u);
    EXPECT_EQ(h.GetTokenCount(), 2);
    EXPECT_FALSE(h.IsValid());
    // A later valid message clears the error.
    EXPECT_TRUE(EdgeLlmDownlinkHeader::TryRemove(FromBytes(ToBytes(TokenHeader(900, 3))), h));
    EXPECT_TRUE(h.IsValid());
    EXPECT_EQ(h.GetFirstIndex(), 900u);
}

TEST(EdgeLlmDownlinkHeader, SettersRefuseOutOfRangeValuesByName)
{
    EdgeLlmDownlinkHeader h;
    EXPECT_FALSE(h.IsValid());
    EXPECT_THAT(InvalidMessage([&] { h.SetTokens(0, {}); }), HasSubstr("tokenCount = 0"));
    EXPECT_THAT(InvalidMessage([&] { h.SetTokens(0, Times(129, 0, 1)); }),
                HasSubstr("tokenCount = 129 is invalid; allowed: [1, 128]"));
    EXPECT_THAT(InvalidMessage([&] { h.SetTokens(4294967295u, Times(2, 0, 1)); }),
                HasSubstr("firstIndex + tokenCount - 1 = 4294967296"));
    EXPECT_THAT(InvalidMessage([&] { h.SetTokens(0, Times(3, 10, -1)); }),
                HasSubstr("generated[1]"));
    EXPECT_THAT(InvalidMessage([&] { h.SetTokens(0, Times(1, -1, 0)); }),
                HasSubstr("generated[0]"));
    EXPECT_THAT(InvalidMessage([&] { h.SetImsi(0); }), HasSubstr("imsi"));
    EXPECT_THAT(InvalidMessage([&] { h.SetCellId(0); }), HasSubstr("cellId"));
    EXPECT_THAT(InvalidMessage([&] { h.SetServer(Ipv4Address("10.0.0.1"), 0); }),
                HasSubstr("serverPort"));
    EXPECT_THAT(InvalidMessage([&] { h.SetServer(Ipv4Address::GetAny(), 1); }),
                HasSubstr("serverAddress = 0.0.0.0"));
    EXPECT_THAT(InvalidMessage([&] {
                    h.SetRejection(static_cast<EdgeLlmDownlinkHeader::RejectReason>(0), 1);
                }),
                HasSubstr("rejectReason"));
}

TEST(EdgeLlmUplinkHeader, EveryTypeRoundTrips)
{
    EdgeLlmUplinkHeader open;
    open.SetImsi(18446744073709551615ULL);
    open.SetRequestSeq(1);
    open.SetOpenSession(1024, 4294967295u, Seconds(1.5));
    EXPECT_EQ(open.GetSerializedSize(), 32u);

    EdgeLlmUplinkHeader ack;
    ack.SetImsi(3);
    ack.SetRequestSeq(4294967295u);
    ack.SetAck(77);
    EXPECT_EQ(ack.GetSerializedSize(), 20u);

    const EdgeLlmUplinkHeader nack = NackHeader();
    EXPECT_EQ(nack.GetSerializedSize(), 24u + 3 * 8);

    for (const auto& h : {open, ack, nack})
    {
        ASSERT_TRUE(h.IsValid()) << h.GetError();
        Ptr<Packet> p = Create<Packet>(10);
        p->AddHeader(h);
        EdgeLlmUplinkHeader r;
        ASSERT_TRUE(EdgeLlmUplinkHeader::TryRemove(p, r)) << r.GetError();
        EXPECT_EQ(p->GetSize(), 10u);
        EXPECT_EQ(r.GetType(), h.GetType());
        EXPECT_EQ(r.GetImsi(), h.GetImsi());
        EXPECT_EQ(r.GetRequestSeq(), h.GetRequestSeq());
        EXPECT_EQ(r.GetPromptTokens(), h.GetPromptTokens());
        EXPECT_EQ(r.GetTokensToGenerate(), h.GetTokensToGenerate());
        EXPECT_EQ(r.GetStartTime(), h.GetStartTime());
        EXPECT_EQ(r.GetNextExpected(), h.GetNextExpected());
        EXPECT_EQ(r.GetMissingRanges(), h.GetMissingRanges());
        EXPECT_EQ(ToBytes(r), ToBytes(h));
    }
    EXPECT_EQ(open.GetStartTimeNs(), 1500000000);
    EXPECT_EQ(NackHeader().GetMissingRanges().back().end, 4294967296ULL);
}

TEST(EdgeLlmUplinkHeader, LayoutMatchesTheDocumentedOffsets)
{
    const Bytes b = ToBytes(NackHeader());
    EXPECT_EQ(b[0], 0xED);
    EXPECT_EQ(b[3], EdgeLlmUplinkHeader::NACK);
    EXPECT_EQ(b[7], 9);   // request sequence number
    EXPECT_EQ(b[15], 42); // IMSI
    EXPECT_EQ(b[19], 10); // next expected
    EXPECT_EQ(b[21], 3);  // range count
    EXPECT_EQ(b[27], 10); // first range's first
    EXPECT_EQ(b[31], 3);  // first range's count
}

TEST(EdgeLlmUplinkHeader, EveryTruncationIsRefused)
{
    EdgeLlmUplinkHeader open;
    open.SetImsi(1);
    open.SetOpenSession(1, 1, Seconds(0));
    EdgeLlmUplinkHeader ack;
    ack.SetImsi(1);
    ack.SetAck(0);
    for (const auto& h : {open, ack, NackHeader()})
    {
        const Bytes b = ToBytes(h);
        for (std::size_t size = 0; size < b.size(); ++size)
        {
            EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(b, size), HasSubstr("size")) << size;
        }
    }
}

TEST(EdgeLlmUplinkHeader, BadFieldsAreRefusedByName)
{
    const Bytes nack = ToBytes(NackHeader());
    auto with = [&](std::size_t at, uint32_t v) {
        Bytes b = nack;
        PutU32(b, at, v);
        return b;
    };
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(0, 0xED110101)), HasSubstr("type"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(0, 0xED110113)), HasSubstr("type"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(0, 0xAAAA0111)), HasSubstr("magic"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(0, 0xED110011)), HasSubstr("version"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(12, 0)), HasSubstr("imsi"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(20, 0x00000000)), HasSubstr("rangeCount = 0"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(20, 0x00410000)), HasSubstr("rangeCount = 65"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(20, 0x00040000)), HasSubstr("size"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(20, 0x00030001)), HasSubstr("reserved"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(16, 11)), HasSubstr("ranges[0].first = 10"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(28, 0)), HasSubstr("ranges[0].count"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(28, 10)),
                HasSubstr("ranges[1].first")); // [10, 20) touches [20, 21)
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(with(44, 294967297u)),
                HasSubstr("ranges[2].first + count - 1"));

    EdgeLlmUplinkHeader open;
    open.SetImsi(1);
    open.SetOpenSession(1, 1, Seconds(0));
    const Bytes o = ToBytes(open);
    auto openWith = [&](std::size_t at, uint32_t v) {
        Bytes b = o;
        PutU32(b, at, v);
        return b;
    };
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(openWith(12, 0)), HasSubstr("imsi"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(openWith(16, 0)), HasSubstr("promptTokens"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(openWith(20, 0)), HasSubstr("tokensToGenerate"));
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(openWith(24, 0x80000000)), HasSubstr("startNs"));

    // A downlink message is not an uplink one.
    EXPECT_THAT(Refusal<EdgeLlmUplinkHeader>(ToBytes(TokenHeader(0, 1))), HasSubstr("type"));
}

TEST(EdgeLlmUplinkHeader, SettersRefuseOutOfRangeValuesByName)
{
    EdgeLlmUplinkHeader h;
    EXPECT_FALSE(h.IsValid());
    EXPECT_THAT(InvalidMessage([&] { h.SetOpenSession(0, 1, Seconds(0)); }),
                HasSubstr("promptTokens"));
    EXPECT_THAT(InvalidMessage([&] { h.SetOpenSession(1, 0, Seconds(0)); }),
                HasSubstr("tokensToGenerate"));
    EXPECT_THAT(InvalidMessage([&] { h.SetOpenSession(1, 1, Seconds(-1)); }), HasSubstr("start"));
    EXPECT_THAT(InvalidMessage([&] { h.SetNack(0, {}); }), HasSubstr("rangeCount = 0"));
    EXPECT_THAT(InvalidMessage([&] {
                    h.SetNack(0, std::vector<TokenRange>(65, {0, 1}));
                }),
                HasSubstr("rangeCount = 65 is invalid; allowed: [1, 64]"));
    EXPECT_THAT(InvalidMessage([&] { h.SetNack(5, {{4, 5}}); }), HasSubstr("ranges[0].first"));
    EXPECT_THAT(InvalidMessage([&] {
                    h.SetNack(0, {{4, 6}, {5, 6}});
                }),
                HasSubstr("ranges[1].first"));
    EXPECT_THAT(InvalidMessage([&] { h.SetNack(0, {{4, 4}}); }), HasSubstr("ranges[0].count"));
    EXPECT_THAT(InvalidMessage([&] { h.SetNack(0, {{6, 4}}); }), HasSubstr("ranges[0].count"));
    EXPECT_THAT(InvalidMessage([&] {
                    h.SetNack(0, {{4294967295u, 4294967297ULL}});
                }),
                HasSubstr("ranges[0].first + count - 1"));
    EXPECT_THAT(InvalidMessage([&] { h.SetImsi(0); }), HasSubstr("imsi"));
}

/// Random bytes, some with a valid magic, version and type in front: refused or, if accepted,
/// a valid header that serializes back to the bytes it was read from.
template <typename H, typename Massage>
void
GarbageIsRefusedOrCanonical(const std::vector<uint8_t>& types, uint32_t seed, Massage massage)
{
    std::mt19937 rng(seed);
    int accepted = 0;
    for (int trial = 0; trial < 20000; ++trial)
    {
        Bytes b(std::uniform_int_distribution<std::size_t>(0, 1200)(rng));
        for (auto& x : b)
        {
            x = static_cast<uint8_t>(rng());
        }
        if (b.size() >= 4 && trial % 2 == 0)
        {
            b[0] = 0xED;
            b[1] = 0x11;
            b[2] = 1;
            b[3] = types[rng() % types.size()];
            if (b.size() >= 24)
            {
                massage(b, rng);
            }
        }
        Ptr<Packet> p = FromBytes(b);
        H h;
        if (H::TryRemove(p, h))
        {
            ++accepted;
            ASSERT_TRUE(h.IsValid());
            const Bytes again = ToBytes(h);
            ASSERT_LE(again.size(), b.size());
            EXPECT_TRUE(std::equal(again.begin(), again.end(), b.begin()));
            EXPECT_EQ(p->GetSize(), b.size() - again.size());
        }
        else
        {
            EXPECT_EQ(p->GetSize(), b.size());
            EXPECT_FALSE(h.GetError().empty());
        }
    }
    // Not a requirement of the parser, but of the test: it must reach the accepting path.
    EXPECT_GT(accepted, 100);
}

TEST(EdgeLlmDownlinkHeader, GarbageIsRefusedOrCanonical)
{
    // Small counts and zero reserved bytes, so that some inputs are accepted.
    GarbageIsRefusedOrCanonical<EdgeLlmDownlinkHeader>({1, 2, 0, 17}, 1, [](Bytes& b, auto& rng) {
        b[20] = static_cast<uint8_t>(b[3] == 2 ? 1 + rng() % 3 : rng() % 4);
        b[21] = 0;
        b[22] = 0;
        b[23] = static_cast<uint8_t>(b[3] == 2 ? 0 : 1 + rng() % 3);
    });
}

TEST(EdgeLlmUplinkHeader, GarbageIsRefusedOrCanonical)
{
    GarbageIsRefusedOrCanonical<EdgeLlmUplinkHeader>({16, 17, 18, 1}, 2, [](Bytes& b, auto& rng) {
        if (b[3] == EdgeLlmUplinkHeader::NACK)
        {
            b[20] = 0;
            b[21] = static_cast<uint8_t>(1 + rng() % 2);
            b[22] = 0;
            b[23] = 0;
        }
    });
}

TEST(EdgeLlmHeaders, PrintAndTypeIds)
{
    EXPECT_EQ(TypeId::LookupByName("ns3::EdgeLlmDownlinkHeader"),
              EdgeLlmDownlinkHeader::GetTypeId());
    EXPECT_EQ(TypeId::LookupByName("ns3::EdgeLlmUplinkHeader"), EdgeLlmUplinkHeader::GetTypeId());
    EdgeLlmDownlinkHeader t = TokenHeader(40, 2);
    t.SetResent(true);
    t.SetHandoverMark(true);
    std::ostringstream os;
    t.Print(os);
    EXPECT_EQ(os.str(),
              "TOKENS imsi=72623859790382856 cell=7 server=10.1.2.3:5000 first=40 count=2 "
              "resent handover-mark");
    os.str("");
    NackHeader().Print(os);
    EXPECT_EQ(os.str(),
              "NACK imsi=42 seq=9 nextExpected=10 [10,13) [20,21) [4000000000,4294967296)");
}

TEST(EdgeLlmHeaderDeathTest, TryRemoveDoesNotStopARunThatChecksPacketMetadata)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // In a child process: metadata checking, once on, stays on for every later packet.
    EXPECT_EXIT(
        {
            PacketMetadata::Enable();
            PacketMetadata::EnableChecking();
            // Raw bytes carry no header metadata; RemoveHeader would stop the run here.
            Ptr<Packet> raw = FromBytes(ToBytes(TokenHeader(1, 2)));
            EdgeLlmDownlinkHeader h;
            bool ok = EdgeLlmDownlinkHeader::TryRemove(raw, h) && raw->GetSize() == 0;
            Ptr<Packet> added = Create<Packet>(5);
            added->AddHeader(NackHeader());
            EdgeLlmUplinkHeader u;
            ok = ok && EdgeLlmUplinkHeader::TryRemove(added, u) && added->GetSize() == 5;
            std::exit(ok ? 0 : 1);
        },
        ::testing::ExitedWithCode(0),
        "");
}

TEST(EdgeLlmHeaderDeathTest, SerializingAnInvalidHeaderStopsTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(ToBytes(EdgeLlmDownlinkHeader()), "EdgeLlmDownlinkHeader::Serialize: imsi = 0");
    EXPECT_DEATH(ToBytes(EdgeLlmUplinkHeader()), "EdgeLlmUplinkHeader::Serialize: imsi = 0");
}

} // namespace
