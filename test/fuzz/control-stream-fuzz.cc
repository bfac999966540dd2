/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target: the byte stream of a control connection, as TCP may cut it.
//
// Input: byte 0 gives n (its value mod 32), the next 2n bytes n cut points (16 bits each,
// big-endian, taken mod the stream's length + 1), and the rest is the stream. The stream is
// parsed whole, cut at those points, and one byte at a time: every way must find the same
// messages, and the same as a plain walk over the stream with ControlMessage::ParseHead and
// ParseItem; every message found must serialize back to the bytes it came from.

#include "control-message.h"
#include "fuzz-check.h"

#include <algorithm>
#include <string>
#include <vector>

namespace
{

using ns3::ControlMessage;
using ns3::ControlStreamParser;

/// What a stream was found to hold: each message printed, then the error if it broke.
struct Found
{
    std::vector<std::string> messages;
    std::string error;
    uint32_t held{0};

    bool operator==(const Found& o) const
    {
        return messages == o.messages && error == o.error && held == o.held;
    }
};

/// The stream fed to a parser in the pieces given by the cut points (ascending).
Found
Parse(const uint8_t* data, std::size_t size, const std::vector<std::size_t>& cuts)
{
    ControlStreamParser parser;
    Found found;
    std::size_t begin = 0;
    for (std::size_t k = 0; k <= cuts.size(); ++k)
    {
        const std::size_t end = k < cuts.size() ? cuts[k] : size;
        for (const ControlMessage& m : parser.Push(data + begin, end - begin))
        {
            found.messages.push_back(m.ToString());
        }
        begin = std::max(begin, end);
    }
    FUZZ_CHECK(parser.IsBroken() == !parser.GetError().empty(), "a broken stream says why");
    found.error = parser.GetError();
    found.held = parser.IsBroken() ? 0 : parser.GetHeldBytes();
    return found;
}

/// The same stream walked head by head and item by item, with no parser state at all.
Found
Walk(const uint8_t* data, std::size_t size)
{
    Found found;
    std::size_t at = 0;
    while (at < size)
    {
        if (size - at < ControlMessage::HEAD_SIZE)
        {
            found.held = static_cast<uint32_t>(size - at);
            return found;
        }
        ControlMessage m;
        if (!ControlMessage::ParseHead(data + at, m, found.error))
        {
            return found;
        }
        const std::size_t begin = at;
        at += ControlMessage::HEAD_SIZE;
        for (ControlMessage::Item& item : m.items)
        {
            if (size - at < ControlMessage::ITEM_SIZE)
            {
                found.held = static_cast<uint32_t>(size - begin);
                return found;
            }
            if (!ControlMessage::ParseItem(data + at, item, found.error))
            {
                return found;
            }
            at += ControlMessage::ITEM_SIZE;
        }
        const std::vector<uint8_t> again = m.Serialize();
        FUZZ_CHECK(again.size() == at - begin &&
                       std::equal(again.begin(), again.end(), data + begin),
                   "a message found serializes back to its bytes");
        found.messages.push_back(m.ToString());
    }
    return found;
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
    const Found whole = Parse(in.data, in.length, {});
    FUZZ_CHECK(whole == Walk(in.data, in.length), "the parser finds what a walk finds");
    FUZZ_CHECK(Parse(in.data, in.length, in.cuts) == whole, "a stream cut anywhere gives the same");
    if (in.length <= 4096)
    {
        FUZZ_CHECK(Parse(in.data, in.length, edgellmfuzz::EveryByte(in.length)) == whole,
                   "a stream read one byte at a time gives the same");
    }
    return 0;
}
