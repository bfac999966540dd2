/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/buffer.h"
#include "ns3/kv-transfer-header.h"
#include "ns3/packet.h"

#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

namespace
{
using H = KvTransferHeader;

std::vector<uint8_t>
Bytes(const KvTransferHeader& h)
{
    Buffer buffer;
    buffer.AddAtStart(h.GetSerializedSize());
    h.Serialize(buffer.Begin());
    std::vector<uint8_t> out(buffer.GetSize());
    buffer.CopyData(out.data(), out.size());
    return out;
}

std::vector<KvTransferHeader>
OneOfEach()
{
    return {
        H::Make(H::BEGIN, 1, 0, H::TOKEN, 0, 3072, 3072ULL * 57344),
        H::Make(H::TOKENS, 123456789012345ULL, 7, H::TOKEN, 100, 50, 200),
        H::Make(H::DATA, 42, 0xFFFFFFFFu, H::ENTRY, 0xFFFFFFF0u, 16, 917504),
        H::Make(H::END, 9, 3, H::TOKEN, 0, 0, 0),
        H::Make(H::CANCEL, 9, 4, H::TOKEN, 0, 0, 0),
        H::MakeCancel(9, 5, KvDiscardReason::LINK_DOWN),
        H::Make(H::OPEN, 9, 6, H::TOKEN, 0, 0, 0),
        H::Make(H::SEAL, 9, 6, H::TOKEN, 0, 0, 0),
    };
}

void
ExpectSame(const KvTransferHeader& a, const KvTransferHeader& b)
{
    EXPECT_EQ(a.GetMessageType(), b.GetMessageType());
    EXPECT_EQ(a.GetImsi(), b.GetImsi());
    EXPECT_EQ(a.GetEpoch(), b.GetEpoch());
    EXPECT_EQ(a.GetUnit(), b.GetUnit());
    EXPECT_EQ(a.GetFirst(), b.GetFirst());
    EXPECT_EQ(a.GetCount(), b.GetCount());
    EXPECT_EQ(a.GetPayloadBytes(), b.GetPayloadBytes());
}
} // namespace

TEST(KvTransferHeader, EveryTypeRoundTripsThroughBytesAndPackets)
{
    for (const H& h : OneOfEach())
    {
        const std::vector<uint8_t> raw = Bytes(h);
        ASSERT_EQ(raw.size(), H::SERIALIZED_SIZE);
        H parsed;
        std::string why;
        ASSERT_TRUE(H::Parse(raw.data(), raw.size(), parsed, why)) << why;
        ExpectSame(h, parsed);

        Ptr<Packet> p = Create<Packet>(static_cast<uint32_t>(h.GetFollowingBytes()));
        p->AddHeader(h);
        EXPECT_EQ(p->GetSize(), H::SERIALIZED_SIZE + h.GetFollowingBytes());
        H removed;
        EXPECT_EQ(p->RemoveHeader(removed), H::SERIALIZED_SIZE);
        ExpectSame(h, removed);
    }
}

TEST(KvTransferHeader, FieldsSitAtTheDocumentedOffsetsInNetworkOrder)
{
    const std::vector<uint8_t> raw =
        Bytes(H::Make(H::DATA, 0x0102030405060708ULL, 0x0A0B0C0D, H::ENTRY, 0x11, 0x22, 0x33));
    const std::vector<uint8_t> expected = {
        0x4B, 0x56, 3, 3, 1, 0,    0, 0, 1, 2,    3, 4, 5, 6, 7, 8, 0x0A, 0x0B,
        0x0C, 0x0D, 0, 0, 0, 0x11, 0, 0, 0, 0x22, 0, 0, 0, 0, 0, 0, 0,    0x33};
    EXPECT_EQ(raw, expected);
}

TEST(KvTransferHeader, EveryTruncationFailsCleanly)
{
    for (const H& h : OneOfEach())
    {
        const std::vector<uint8_t> raw = Bytes(h);
        for (uint32_t n = 0; n < raw.size(); ++n)
        {
            H out;
            std::string why;
            EXPECT_FALSE(H::Parse(raw.data(), n, out, why)) << n << " bytes";
            EXPECT_NE(why.find("truncated"), std::string::npos) << why;

            // Through ns-3's own path: a packet holding only part of a header.
            Buffer buffer;
            buffer.AddAtStart(n);
            buffer.Begin().Write(raw.data(), n);
            H viaBuffer;
            EXPECT_EQ(viaBuffer.Deserialize(buffer.Begin()), 0u) << n << " bytes";
        }
    }
}

TEST(KvTransferHeader, EachBrokenRuleIsNamed)
{
    const std::vector<uint8_t> good = Bytes(H::Make(H::DATA, 5, 1, H::TOKEN, 10, 4, 400));

    struct Case
    {
        std::size_t offset;
        uint8_t value;
        const char* named;
    };

    const std::vector<Case> cases = {
        {0, 0x00, "magic"},
        {2, 1, "version"}, // version 1 lacks OPEN, SEAL and CANCEL's reason
        {2, 2, "version"}, // version 2 lacks the re-plan reason
        {2, 4, "version"},
        {3, 0, "type"},
        {3, 8, "type"},
        {4, 2, "unit"},
        {6, 1, "reserved"},
        {15, 0, "imsi"}, // with bytes 8..14 zero, the IMSI becomes 0
        {27, 0, "count"},
        {35, 0, "payloadBytes"}, // with byte 34 zeroed too: 400 becomes 0
        {20, 0xFF, "2^32"},      // with bytes 21-23 set too
    };
    for (const Case& c : cases)
    {
        std::vector<uint8_t> raw = good;
        raw[c.offset] = c.value;
        if (c.offset == 20)
        {
            raw[21] = raw[22] = raw[23] = 0xFF; // first = 2^32 - 1, count 4
        }
        if (c.offset == 35)
        {
            raw[34] = 0;
        }
        H out;
        std::string why;
        EXPECT_FALSE(H::Parse(raw.data(), raw.size(), out, why)) << c.named;
        EXPECT_NE(why.find(c.named), std::string::npos)
            << "'" << why << "' should name " << c.named;
    }
}

TEST(KvTransferHeader, PayloadRulesFollowTheType)
{
    std::string why;
    H h;
    auto parseOf =
        [&](H::MessageType type, uint8_t unit, uint32_t first, uint32_t count, uint64_t payload) {
            std::vector<uint8_t> raw = Bytes(H::Make(H::DATA, 1, 0, H::TOKEN, 0, 1, 1));
            raw[3] = type;
            raw[4] = unit;
            for (int i = 0; i < 4; ++i)
            {
                raw[20 + i] = static_cast<uint8_t>(first >> (24 - 8 * i));
                raw[24 + i] = static_cast<uint8_t>(count >> (24 - 8 * i));
            }
            for (int i = 0; i < 8; ++i)
            {
                raw[28 + i] = static_cast<uint8_t>(payload >> (56 - 8 * i));
            }
            return H::Parse(raw.data(), raw.size(), h, why);
        };
    EXPECT_TRUE(parseOf(H::TOKENS, H::TOKEN, 0, 10, 40));
    EXPECT_FALSE(parseOf(H::TOKENS, H::TOKEN, 0, 10, 41));
    EXPECT_FALSE(parseOf(H::TOKENS, H::ENTRY, 0, 10, 40));
    EXPECT_FALSE(parseOf(H::END, H::TOKEN, 0, 0, 1));
    EXPECT_FALSE(parseOf(H::CANCEL, H::TOKEN, 4, 0, 0));
    EXPECT_FALSE(parseOf(H::BEGIN, H::TOKEN, 0, 1, 0));
    EXPECT_TRUE(parseOf(H::DATA, H::ENTRY, 0xFFFFFFFFu, 1, 1));
    EXPECT_FALSE(parseOf(H::DATA, H::ENTRY, 0xFFFFFFFFu, 2, 1));
}

TEST(KvTransferHeader, OpenSealAndCancelCarryNoRangeAndCancelCarriesItsReason)
{
    std::string why;
    H h;
    // Raw bytes, so the rules are checked on what a peer could send, not on what Make allows.
    auto parseOf = [&](uint8_t type, uint32_t first, uint32_t count, uint64_t payload) {
        std::vector<uint8_t> raw = Bytes(H::Make(H::END, 3, 2, H::TOKEN, 0, 0, 0));
        raw[3] = type;
        for (int i = 0; i < 4; ++i)
        {
            raw[20 + i] = static_cast<uint8_t>(first >> (24 - 8 * i));
            raw[24 + i] = static_cast<uint8_t>(count >> (24 - 8 * i));
        }
        for (int i = 0; i < 8; ++i)
        {
            raw[28 + i] = static_cast<uint8_t>(payload >> (56 - 8 * i));
        }
        why.clear();
        return H::Parse(raw.data(), raw.size(), h, why);
    };
    for (uint8_t type : {uint8_t(H::OPEN), uint8_t(H::SEAL)})
    {
        EXPECT_TRUE(parseOf(type, 0, 0, 0)) << why;
        EXPECT_EQ(h.GetMessageType(), type);
        EXPECT_FALSE(parseOf(type, 1, 0, 0)) << H::TypeName(type) << " with first 1";
        EXPECT_NE(why.find("no range and no payload"), std::string::npos) << why;
        EXPECT_FALSE(parseOf(type, 0, 1, 0)) << H::TypeName(type) << " with count 1";
        EXPECT_FALSE(parseOf(type, 0, 0, 1)) << H::TypeName(type) << " with a payload";
    }
    const KvDiscardReason reasons[] = {KvDiscardReason::NEWER_EPOCH,
                                       KvDiscardReason::WINDOW_END,
                                       KvDiscardReason::LINK_DOWN,
                                       KvDiscardReason::REPLAN};
    for (uint32_t code = 0; code < 4; ++code)
    {
        EXPECT_TRUE(parseOf(H::CANCEL, code, 0, 0)) << why;
        EXPECT_EQ(h.GetCancelReason(), reasons[code]);
        EXPECT_EQ(h.GetFirst(), code);
    }
    EXPECT_FALSE(parseOf(H::CANCEL, 4, 0, 0));
    EXPECT_NE(why.find("CANCEL reason (first) = 4 is not in [0, 3]"), std::string::npos) << why;
    EXPECT_FALSE(parseOf(H::CANCEL, 0xFFFFFFFFu, 0, 0));
    EXPECT_FALSE(parseOf(H::CANCEL, 1, 1, 0));
    EXPECT_NE(why.find("count = 1"), std::string::npos) << why;
    EXPECT_FALSE(parseOf(H::CANCEL, 1, 0, 8));
    EXPECT_NE(why.find("payloadBytes = 8"), std::string::npos) << why;

    // The reason is on the wire at offset 20, where first is.
    const std::vector<uint8_t> raw = Bytes(H::MakeCancel(4, 1, KvDiscardReason::WINDOW_END));
    EXPECT_EQ(raw[3], 5);
    EXPECT_EQ(raw[20], 0);
    EXPECT_EQ(raw[23], 1);
    EXPECT_STREQ(KvDiscardReasonName(KvDiscardReason::NEWER_EPOCH), "newer-epoch");
    EXPECT_STREQ(KvDiscardReasonName(KvDiscardReason::WINDOW_END), "window-end");
    EXPECT_STREQ(KvDiscardReasonName(KvDiscardReason::LINK_DOWN), "link-down");
    EXPECT_STREQ(KvDiscardReasonName(KvDiscardReason::REPLAN), "re-plan");
}

TEST(KvTransferHeader, RandomBytesNeverParseIntoAnInvalidHeader)
{
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> byte(0, 255);
    int accepted = 0;
    for (int trial = 0; trial < 20000; ++trial)
    {
        std::vector<uint8_t> raw(H::SERIALIZED_SIZE);
        for (auto& b : raw)
        {
            b = static_cast<uint8_t>(byte(rng));
        }
        // Half the trials keep a valid prefix so the checks past the magic get exercised.
        if (trial % 2 == 0)
        {
            raw[0] = 0x4B;
            raw[1] = 0x56;
            raw[2] = H::VERSION;
            raw[5] = raw[6] = raw[7] = 0;
            raw[3] = static_cast<uint8_t>(1 + trial % 7);
            raw[4] = static_cast<uint8_t>(trial % 3 == 0);
        }
        H out;
        std::string why;
        if (H::Parse(raw.data(), raw.size(), out, why))
        {
            ++accepted;
            EXPECT_EQ(out.Check(), "");
            EXPECT_EQ(Bytes(out), raw) << "a parsed header re-serialises to the same bytes";
        }
        else
        {
            EXPECT_FALSE(why.empty());
        }
    }
    EXPECT_GT(accepted, 0) << "some random DATA/BEGIN headers are valid";
}

TEST(KvTransferHeaderDeathTest, MakingAnInvalidHeaderStopsWithTheRule)
{
    EXPECT_DEATH(H::Make(H::DATA, 1, 0, H::TOKEN, 0, 0, 10), "count = 0");
    EXPECT_DEATH(H::Make(H::TOKENS, 1, 0, H::TOKEN, 0, 2, 9), "4 x count");
    EXPECT_DEATH(H::Make(H::BEGIN, 0, 0, H::TOKEN, 0, 2, 9), "imsi = 0");
    EXPECT_DEATH(H::Make(H::CANCEL, 1, 0, H::TOKEN, 4, 0, 0), "CANCEL reason \\(first\\) = 4");
}
