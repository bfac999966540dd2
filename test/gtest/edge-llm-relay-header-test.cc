/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// EdgeLlmRelayHeader against the bytes a relay peer may send: its layout, every truncation,
// every broken field, and garbage.

#include "ns3/edge-llm-relay-header.h"
#include "ns3/packet.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

/// The layout the header documents, written out by hand: magic 0xED12, version 1, reserved
/// 0, IMSI (8), the UE's address (4) and port (2), reserved 0 (2).
const Bytes kValid = {0xED, 0x12, 1, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x2C, 7, 0, 0, 2, 0xC0, 0x01, 0, 0};

/// A header read from these bytes with Deserialize: its size, or 0, and what it holds.
uint32_t
Read(const Bytes& b, EdgeLlmRelayHeader& h)
{
    Buffer buffer;
    buffer.AddAtStart(static_cast<uint32_t>(b.size()));
    if (!b.empty())
    {
        buffer.Begin().Write(b.data(), static_cast<uint32_t>(b.size()));
    }
    return h.Deserialize(buffer.Begin());
}

} // namespace

TEST(EdgeLlmRelayHeader, ReadsTheDocumentedLayout)
{
    EdgeLlmRelayHeader h;
    ASSERT_EQ(Read(kValid, h), 20u);
    EXPECT_EQ(h.GetImsi(), 300u);
    EXPECT_EQ(h.GetUeAddress(), Ipv4Address("7.0.0.2"));
    EXPECT_EQ(h.GetUePort(), 49153u);

    Packet p;
    p.AddHeader(EdgeLlmRelayHeader(300, Ipv4Address("7.0.0.2"), 49153));
    Bytes written(p.GetSize());
    p.CopyData(written.data(), written.size());
    EXPECT_EQ(written, kValid);
}

TEST(EdgeLlmRelayHeader, EveryTruncationIsRefusedAndLeavesThePacket)
{
    for (std::size_t n = 0; n < kValid.size(); ++n)
    {
        const Bytes cut(kValid.begin(), kValid.begin() + n);
        EdgeLlmRelayHeader h(5, Ipv4Address("1.2.3.4"), 6);
        EXPECT_EQ(Read(cut, h), 0u) << n << " bytes";
        EXPECT_EQ(h.GetImsi(), 5u) << "a refusal leaves the header as it was";
        Ptr<Packet> p = Create<Packet>(cut.data(), static_cast<uint32_t>(n));
        EXPECT_FALSE(EdgeLlmRelayHeader::TryRemove(p, h)) << n << " bytes";
        EXPECT_EQ(p->GetSize(), n);
    }
}

TEST(EdgeLlmRelayHeader, EachBrokenFieldIsRefused)
{
    // Offset, and a value that breaks the rule there.
    const std::vector<std::pair<std::size_t, uint8_t>> broken = {
        {0, 0xEE},  // magic
        {2, 2},     // version
        {3, 1},     // reserved
        {4 + 7, 0}, // IMSI 0 (with the byte before it also 0)
        {16, 0},    // port 0 (with the next byte also 0)
        {18, 1},    // reserved
        {19, 0x80}, // reserved
    };
    for (const auto& [at, value] : broken)
    {
        Bytes b = kValid;
        b[at] = value;
        if (at == 11)
        {
            b[10] = 0; // the IMSI's other non-zero byte
        }
        if (at == 16)
        {
            b[17] = 0;
        }
        EdgeLlmRelayHeader h;
        EXPECT_EQ(Read(b, h), 0u) << "byte " << at << " = " << int(value);
        Ptr<Packet> p = Create<Packet>(b.data(), static_cast<uint32_t>(b.size()));
        EXPECT_FALSE(EdgeLlmRelayHeader::TryRemove(p, h)) << "byte " << at;
        EXPECT_EQ(p->GetSize(), b.size());
    }
}

TEST(EdgeLlmRelayHeader, GarbageIsRefusedOrReadBackExactly)
{
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<std::size_t> length(0, 40);
    int accepted = 0;
    for (int trial = 0; trial < 20000; ++trial)
    {
        Bytes b(length(rng));
        for (auto& x : b)
        {
            x = static_cast<uint8_t>(byte(rng));
        }
        // Half the trials keep the magic and version, so the checks behind them run.
        if (trial % 2 == 0 && b.size() >= 3)
        {
            std::copy(kValid.begin(), kValid.begin() + 3, b.begin());
            if (b.size() >= 4 && trial % 4 == 0)
            {
                b[3] = 0;
                if (b.size() >= 20)
                {
                    b[18] = 0;
                    b[19] = 0;
                }
            }
        }
        EdgeLlmRelayHeader h;
        const uint32_t read = Read(b, h);
        if (read == 0)
        {
            continue;
        }
        ++accepted;
        ASSERT_EQ(read, 20u);
        ASSERT_GE(h.GetImsi(), 1u);
        ASSERT_GE(h.GetUePort(), 1u);
        Packet p;
        p.AddHeader(h);
        Bytes back(20);
        p.CopyData(back.data(), back.size());
        EXPECT_TRUE(std::equal(back.begin(), back.end(), b.begin())) << "read back exactly";
    }
    EXPECT_GT(accepted, 100) << "the trials reach the valid case";
}
