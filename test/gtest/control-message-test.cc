/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ControlMessage and ControlStreamParser: the wire format as its table documents it, a stream
// cut into messages however TCP cuts it, and each rule of the table refused by name.

#include "ns3/control-message.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using M = ControlMessage;
using Bytes = std::vector<uint8_t>;

void
Put(Bytes& b, uint64_t v, int width)
{
    for (int k = width - 1; k >= 0; --k)
    {
        b.push_back(static_cast<uint8_t>(v >> (8 * k)));
    }
}

/// A message's bytes, written out from the documented layout, not by Serialize.
Bytes
Wire(uint8_t type,
     uint8_t code,
     uint16_t from,
     uint16_t about,
     uint32_t sequence,
     uint64_t imsi,
     uint64_t value,
     int64_t sentAt,
     const std::vector<M::Item>& items = {})
{
    Bytes b = {0x43, 0x50, 1, type, code, 0};
    Put(b, from, 2);
    Put(b, about, 2);
    Put(b, items.size(), 2);
    Put(b, sequence, 4);
    Put(b, imsi, 8);
    Put(b, value, 8);
    Put(b, static_cast<uint64_t>(sentAt), 8);
    for (const M::Item& i : items)
    {
        Put(b, i.imsi, 8);
        Put(b, i.sequence, 4);
        Put(b, i.value, 4);
    }
    return b;
}

M
Message(M::Type type, std::vector<M::Item> items = {})
{
    M m;
    m.type = type;
    m.fromCell = 1;
    m.aboutCell = 2;
    m.sequence = 7;
    m.imsi = 42;
    m.value = 300;
    m.sentAtNs = 123456789;
    m.items = std::move(items);
    return m;
}

/// A LOAD: cell 1's engine, 70 prefill tokens queued, 1500 us to its iteration's end, 9000
/// tokens/s its last prefill rate.
M
Load()
{
    M m = Message(M::LOAD);
    m.aboutCell = 1;
    m.imsi = 0;
    m.sequence = 9000;
    m.value = (uint64_t{70} << 32) | 1500;
    return m;
}

TEST(ControlMessageTest, SerializesToTheDocumentedLayout)
{
    const M reserve = Message(M::RESERVE);
    EXPECT_EQ(reserve.Serialize(), Wire(3, 0, 1, 2, 7, 42, 300, 123456789));
    EXPECT_EQ(reserve.GetSerializedSize(), 40U);
    const M prefill = Message(M::PREFILL_REQUEST, {{42, 3, 1500}, {43, 1, 900}});
    EXPECT_EQ(prefill.Serialize(),
              Wire(5, 0, 1, 2, 7, 42, 300, 123456789, {{42, 3, 1500}, {43, 1, 900}}));
    EXPECT_EQ(prefill.GetSerializedSize(), 72U);
    EXPECT_EQ(Load().Serialize(),
              Wire(11, 0, 1, 1, 9000, 0, (uint64_t{70} << 32) | 1500, 123456789));
}

TEST(ControlMessageTest, ParsesWhatItWrites)
{
    for (const M& m : {Message(M::NOTICE),
                       Message(M::PLAN),
                       Message(M::PLAN, {{42, 7, 1500}}),
                       Message(M::RESERVE_ANSWER, {{42, 7, 0}}),
                       Message(M::BUDGET, {{5, 2, 65536}}),
                       Message(M::CANCEL),
                       Message(M::WINDOW_END),
                       Message(M::RELEASE),
                       Message(M::NOTICE, {{42, 1200, 80}}),
                       Message(M::RESERVE, {{42, 1200, 80}}),
                       Message(M::PREPARE, {{42, 1200, 80}}),
                       Load()})
    {
        ControlStreamParser parser;
        const Bytes bytes = m.Serialize();
        const std::vector<M> out = parser.Push(bytes.data(), bytes.size());
        ASSERT_EQ(out.size(), 1U) << m.ToString();
        EXPECT_EQ(out[0].Serialize(), bytes) << m.ToString();
        EXPECT_EQ(out[0].ToString(), m.ToString());
        EXPECT_FALSE(parser.IsBroken());
        EXPECT_EQ(parser.GetHeldBytes(), 0U);
    }
}

TEST(ControlMessageTest, AStreamCutAnywhereGivesTheSameMessages)
{
    Bytes stream;
    std::vector<std::string> expected;
    for (const M& m : {Message(M::NOTICE),
                       Message(M::PREFILL_REQUEST, {{42, 3, 1500}, {43, 1, 900}, {44, 0, 1}}),
                       Message(M::RESERVE),
                       Message(M::PROGRESS, {{9, 4, 77}})})
    {
        const Bytes b = m.Serialize();
        stream.insert(stream.end(), b.begin(), b.end());
        expected.push_back(m.ToString());
    }
    // Every piece size from 1 byte to the whole stream.
    for (std::size_t piece = 1; piece <= stream.size(); ++piece)
    {
        ControlStreamParser parser;
        std::vector<std::string> got;
        for (std::size_t at = 0; at < stream.size(); at += piece)
        {
            const std::size_t n = std::min(piece, stream.size() - at);
            for (const M& m : parser.Push(stream.data() + at, n))
            {
                got.push_back(m.ToString());
            }
        }
        EXPECT_EQ(got, expected) << "pieces of " << piece << " bytes";
        EXPECT_EQ(parser.GetHeldBytes(), 0U);
    }
}

/// The error a parser gives for a message's bytes, or "" if it takes them.
std::string
ErrorOf(const Bytes& bytes)
{
    ControlStreamParser parser;
    const std::vector<M> out = parser.Push(bytes.data(), bytes.size());
    EXPECT_EQ(parser.IsBroken(), out.empty());
    return parser.GetError();
}

TEST(ControlMessageTest, RefusesEachBrokenRuleByName)
{
    EXPECT_EQ(ErrorOf(Wire(3, 0, 1, 2, 7, 42, 0, 0)), "");
    Bytes magic = Wire(3, 0, 1, 2, 7, 42, 0, 0);
    magic[1] = 0x51;
    EXPECT_NE(ErrorOf(magic).find("magic"), std::string::npos);
    Bytes version = Wire(3, 0, 1, 2, 7, 42, 0, 0);
    version[2] = 2;
    EXPECT_NE(ErrorOf(version).find("version 2"), std::string::npos);
    EXPECT_NE(ErrorOf(Wire(0, 0, 1, 2, 7, 42, 0, 0)).find("type 0"), std::string::npos);
    EXPECT_EQ(ErrorOf(Wire(13, 0, 1, 2, 7, 42, 0, 0)), "");
    EXPECT_NE(ErrorOf(Wire(14, 0, 1, 2, 7, 42, 0, 0)).find("type 14 is outside [1, 13]"),
              std::string::npos);
    EXPECT_NE(ErrorOf(Wire(12, 1, 1, 2, 7, 42, 0, 0)).find("code 1 of a WINDOW_END"),
              std::string::npos);
    EXPECT_NE(ErrorOf(Wire(13, 1, 1, 2, 7, 42, 0, 0)).find("code 1 of a RELEASE"),
              std::string::npos);
    // Codes: a notice's RAN event [0, 5], an answer's or a plan's admission [0, 3], others
    // none.
    EXPECT_EQ(ErrorOf(Wire(1, 5, 1, 2, 7, 42, 0, 0)), "");
    EXPECT_NE(ErrorOf(Wire(1, 6, 1, 2, 7, 42, 0, 0)).find("code 6"), std::string::npos);
    EXPECT_EQ(ErrorOf(Wire(4, 3, 1, 2, 7, 42, 0, 0, {{42, 7, 0}})), "");
    EXPECT_NE(ErrorOf(Wire(4, 4, 1, 2, 7, 42, 0, 0, {{42, 7, 0}})).find("code 4"),
              std::string::npos);
    EXPECT_EQ(ErrorOf(Wire(2, 3, 1, 2, 7, 42, 0, 0)), "");
    EXPECT_NE(ErrorOf(Wire(2, 4, 1, 2, 7, 42, 0, 0)).find("code 4 of a PLAN is outside [0, 3]"),
              std::string::npos);
    EXPECT_NE(ErrorOf(Wire(3, 1, 1, 2, 7, 42, 0, 0)).find("code 1 of a RESERVE"),
              std::string::npos);
    Bytes reserved = Wire(3, 0, 1, 2, 7, 42, 0, 0);
    reserved[5] = 1;
    EXPECT_NE(ErrorOf(reserved).find("reserved"), std::string::npos);
    EXPECT_NE(ErrorOf(Wire(3, 0, 0, 2, 7, 42, 0, 0)).find("cell 0"), std::string::npos);
    EXPECT_NE(ErrorOf(Wire(3, 0, 1, 0, 7, 42, 0, 0)).find("cell 0"), std::string::npos);
    EXPECT_NE(ErrorOf(Wire(3, 0, 1, 2, 7, 0, 0, 0)).find("imsi 0"), std::string::npos);
    // A LOAD concerns a cell, not a UE: its IMSI is 0, and only its.
    EXPECT_EQ(ErrorOf(Wire(11, 0, 1, 1, 9000, 0, (uint64_t{70} << 32) | 1500, 0)), "");
    EXPECT_NE(ErrorOf(Wire(11, 0, 1, 1, 9000, 42, 0, 0)).find("imsi 42 in a LOAD"),
              std::string::npos);
    EXPECT_NE(ErrorOf(Wire(3, 0, 1, 2, 7, 42, 0, -1)).find("negative"), std::string::npos);
    // A failed handover's reason is one of RanObserver's four.
    EXPECT_EQ(ErrorOf(Wire(1, 2, 1, 1, 7, 42, 3, 0)), "");
    EXPECT_NE(ErrorOf(Wire(1, 2, 1, 1, 7, 42, 4, 0)).find("reason 4"), std::string::npos);
    // Items: only in a batch's types, at least one there, at most MAX_ITEMS, IMSIs >= 1;
    // the target's report in an answer (one, always) or a plan (one at most).
    EXPECT_NE(ErrorOf(Wire(5, 0, 1, 2, 7, 42, 0, 0)).find("no items"), std::string::npos);
    EXPECT_NE(ErrorOf(Wire(4, 0, 1, 2, 7, 42, 0, 0)).find("a RESERVE_ANSWER with no items"),
              std::string::npos);
    EXPECT_EQ(ErrorOf(Wire(4, 0, 1, 2, 7, 42, 0, 0, {{42, 7, 900}})), "");
    EXPECT_NE(ErrorOf(Wire(4, 0, 1, 2, 7, 42, 0, 0, {{42, 7, 900}, {43, 7, 1}}))
                  .find("a RESERVE_ANSWER with 2 items: it carries at most 1"),
              std::string::npos);
    EXPECT_EQ(ErrorOf(Wire(2, 0, 1, 2, 7, 42, 0, 0)), "");
    EXPECT_EQ(ErrorOf(Wire(2, 0, 1, 2, 7, 42, 0, 0, {{42, 7, 900}})), "");
    EXPECT_NE(ErrorOf(Wire(2, 0, 1, 2, 7, 42, 0, 0, {{42, 7, 900}, {42, 7, 1}}))
                  .find("a PLAN with 2 items: it carries at most 1"),
              std::string::npos);
    EXPECT_NE(ErrorOf(Wire(6, 0, 1, 2, 7, 42, 0, 0, {{1, 0, 1}})).find("carries none"),
              std::string::npos);
    // The session's size: one item at most, in a handover's notice, a reservation or a
    // prepare; a notice of another event carries none.
    for (uint8_t type : {1, 3, 9})
    {
        EXPECT_EQ(ErrorOf(Wire(type, 0, 1, 2, 7, 42, 0, 0, {{42, 1200, 80}})), "");
        EXPECT_NE(ErrorOf(Wire(type, 0, 1, 2, 7, 42, 0, 0, {{42, 1200, 80}, {42, 1, 1}}))
                      .find("with 2 items: it carries at most 1"),
                  std::string::npos)
            << unsigned(type);
    }
    EXPECT_NE(ErrorOf(Wire(1, 3, 1, 1, 7, 42, 0, 0, {{42, 1200, 80}}))
                  .find("a NOTICE of event 3 with 1 items: only a HANDOVER_STARTED carries one"),
              std::string::npos);
    EXPECT_NE(ErrorOf(Wire(13, 0, 1, 2, 7, 42, 0, 0, {{42, 1, 1}})).find("carries none"),
              std::string::npos);
    EXPECT_NE(ErrorOf(Wire(5, 0, 1, 2, 7, 42, 0, 0, {{0, 0, 1}})).find("item with imsi 0"),
              std::string::npos);
    Bytes many = Wire(5, 0, 1, 2, 7, 42, 0, 0);
    many[10] = 0x04;
    many[11] = 0x01; // 1025 items announced
    EXPECT_NE(ErrorOf(many).find("1025 items"), std::string::npos);
}

TEST(ControlMessageTest, ABrokenStreamStaysBroken)
{
    Bytes stream = Wire(3, 0, 1, 2, 7, 0, 0, 0); // imsi 0
    const Bytes good = Message(M::PLAN).Serialize();
    stream.insert(stream.end(), good.begin(), good.end());
    ControlStreamParser parser;
    EXPECT_TRUE(parser.Push(stream.data(), stream.size()).empty());
    EXPECT_TRUE(parser.IsBroken());
    EXPECT_TRUE(parser.Push(good.data(), good.size()).empty());
}

TEST(ControlMessageDeathTest, RefusesToWriteAMessageTheOtherEndWouldRefuse)
{
    M m = Message(M::RESERVE);
    m.imsi = 0;
    EXPECT_DEATH(m.Serialize(), "imsi 0");
    M batch = Message(M::PREFILL_REQUEST);
    EXPECT_DEATH(batch.Serialize(), "no items");
    M answer = Message(M::RESERVE_ANSWER);
    EXPECT_DEATH(answer.Serialize(), "no items");
}

} // namespace
