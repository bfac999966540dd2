/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target: the byte stream of a KV-transfer connection, as TCP may cut it.
//
// Input: byte 0 gives n (its value mod 32), the next 2n bytes n cut points (16 bits each,
// big-endian, taken mod the stream's length + 1), and the rest is the stream. The stream is
// parsed whole, cut at those points, and one byte at a time: every way must find the same
// messages, and the same as a plain walk over the whole stream with KvTransferHeader::Parse.

#include "fuzz-check.h"
#include "kv-transfer-stream-parser.h"

#include <algorithm>
#include <string>
#include <vector>

namespace
{

using ns3::KvTransferHeader;
using ns3::KvTransferStreamParser;

/// What a stream was found to hold, in order, with payload pieces of a message merged.
struct Record
{
    enum Kind
    {
        HEADER,
        PAYLOAD,
        MESSAGE_END,
        FRAMING_LOST,
        UNFRAMED,
    } kind;

    uint64_t bytes{0};  //!< PAYLOAD, UNFRAMED: how many
    std::string detail; //!< HEADER: the header printed; FRAMING_LOST: why

    bool operator==(const Record& o) const
    {
        return kind == o.kind && bytes == o.bytes && detail == o.detail;
    }
};

std::string
Printed(const KvTransferHeader& h)
{
    std::ostringstream os;
    h.Print(os);
    return os.str();
}

void
Add(std::vector<Record>& records, Record::Kind kind, uint64_t bytes, const std::string& detail)
{
    if ((kind == Record::PAYLOAD || kind == Record::UNFRAMED) && !records.empty() &&
        records.back().kind == kind)
    {
        records.back().bytes += bytes;
        return;
    }
    records.push_back({kind, bytes, detail});
}

/// The stream fed to a parser in the pieces given by the cut points (ascending).
std::vector<Record>
Parse(const uint8_t* data,
      std::size_t size,
      const std::vector<std::size_t>& cuts,
      uint32_t& held,
      bool& broken)
{
    KvTransferStreamParser parser;
    std::vector<Record> records;
    std::size_t begin = 0;
    for (std::size_t k = 0; k <= cuts.size(); ++k)
    {
        const std::size_t end = k < cuts.size() ? cuts[k] : size;
        while (begin < end)
        {
            const bool header = !parser.InPayload() && !parser.IsBroken();
            const KvTransferStreamParser::Step step =
                parser.Next(header ? data + begin : nullptr, end - begin);
            FUZZ_CHECK(step.consumed >= 1 && step.consumed <= end - begin,
                       "every step takes at least one byte, and no more than it was given");
            begin += step.consumed;
            switch (step.event)
            {
            case KvTransferStreamParser::Event::NONE:
                FUZZ_CHECK(parser.GetHeldBytes() > 0, "a step with no event holds header bytes");
                break;
            case KvTransferStreamParser::Event::HEADER:
                Add(records, Record::HEADER, 0, Printed(parser.GetHeader()));
                break;
            case KvTransferStreamParser::Event::PAYLOAD:
                Add(records, Record::PAYLOAD, step.consumed, "");
                break;
            case KvTransferStreamParser::Event::FRAMING_LOST:
                FUZZ_CHECK(!parser.GetError().empty(), "a framing loss says why");
                Add(records, Record::FRAMING_LOST, 0, parser.GetError());
                break;
            case KvTransferStreamParser::Event::UNFRAMED:
                Add(records, Record::UNFRAMED, step.consumed, "");
                break;
            }
            if (step.messageEnd)
            {
                Add(records, Record::MESSAGE_END, 0, "");
            }
        }
    }
    held = parser.GetHeldBytes();
    broken = parser.IsBroken();
    return records;
}

/// The same stream walked whole, header by header, with no parser state at all.
std::vector<Record>
Walk(const uint8_t* data, std::size_t size, uint32_t& held)
{
    std::vector<Record> records;
    std::size_t at = 0;
    held = 0;
    while (at < size)
    {
        if (size - at < KvTransferHeader::SERIALIZED_SIZE)
        {
            held = static_cast<uint32_t>(size - at);
            break;
        }
        KvTransferHeader h;
        std::string why;
        if (!KvTransferHeader::Parse(data + at, KvTransferHeader::SERIALIZED_SIZE, h, why))
        {
            Add(records, Record::FRAMING_LOST, 0, why);
            at += KvTransferHeader::SERIALIZED_SIZE;
            if (at < size)
            {
                Add(records, Record::UNFRAMED, size - at, "");
            }
            break;
        }
        Add(records, Record::HEADER, 0, Printed(h));
        at += KvTransferHeader::SERIALIZED_SIZE;
        const uint64_t following = h.GetFollowingBytes();
        const uint64_t k = std::min<uint64_t>(following, size - at);
        if (k > 0)
        {
            Add(records, Record::PAYLOAD, k, "");
        }
        at += k;
        if (k < following)
        {
            break;
        }
        Add(records, Record::MESSAGE_END, 0, "");
    }
    return records;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size == 0)
    {
        return 0;
    }
    const edgellmfuzz::CutStream in = edgellmfuzz::ReadCutStream(data, size);
    const uint8_t* stream = in.data;
    const std::size_t length = in.length;
    const std::vector<std::size_t>& cuts = in.cuts;

    uint32_t heldWalk = 0;
    const std::vector<Record> walked = Walk(stream, length, heldWalk);
    uint32_t held = 0;
    bool broken = false;
    const std::vector<Record> whole = Parse(stream, length, {}, held, broken);
    FUZZ_CHECK(whole == walked, "the parser finds what a walk over the whole stream finds");
    FUZZ_CHECK(held == heldWalk, "and holds the same unfinished header");

    uint32_t heldCut = 0;
    bool brokenCut = false;
    FUZZ_CHECK(Parse(stream, length, cuts, heldCut, brokenCut) == whole,
               "a stream cut anywhere gives the same messages");
    FUZZ_CHECK(heldCut == held && brokenCut == broken, "and ends in the same state");

    if (length <= 4096)
    {
        const std::vector<std::size_t> everyByte = edgellmfuzz::EveryByte(length);
        uint32_t heldByte = 0;
        bool brokenByte = false;
        FUZZ_CHECK(Parse(stream, length, everyByte, heldByte, brokenByte) == whole,
                   "a stream read one byte at a time gives the same messages");
        FUZZ_CHECK(heldByte == held && brokenByte == broken, "and ends in the same state");
    }
    return 0;
}
