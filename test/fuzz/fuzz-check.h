/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_FUZZ_CHECK_H
#define EDGE_LLM_FUZZ_CHECK_H

// What every fuzz target of the wire parsers shares: a property check that stops the run as
// a crash, so that libFuzzer keeps the input, and the round trip every accepted header owes.

#include "ns3/buffer.h"
#include "ns3/packet.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

/// Stop as a crash, naming the property, if cond is false.
#define FUZZ_CHECK(cond, what)                                                                     \
    do                                                                                             \
    {                                                                                              \
        if (!(cond))                                                                               \
        {                                                                                          \
            std::fprintf(stderr,                                                                   \
                         "%s:%d: property broken: %s (%s)\n",                                      \
                         __FILE__,                                                                 \
                         __LINE__,                                                                 \
                         what,                                                                     \
                         #cond);                                                                   \
            std::abort();                                                                          \
        }                                                                                          \
    } while (false)

namespace edgellmfuzz
{

/// Inputs longer than this are cut: the headers are short, and a packet's size is 32 bits.
constexpr std::size_t MAX_INPUT = 1 << 16;

/// A stream target's input: the stream, and where TCP cut it.
struct CutStream
{
    const uint8_t* data{nullptr};  //!< the stream's bytes
    std::size_t length{0};         //!< how many
    std::vector<std::size_t> cuts; //!< the cut points, ascending, each in [0, length]
};

/**
 * Read a stream target's input: byte 0 gives n (its value mod 32), the next 2n bytes n cut
 * points (16 bits each, big-endian, taken mod the stream's length + 1), the rest is the stream.
 * \param data the input, at least one byte \param size its bytes (cut to MAX_INPUT)
 */
inline CutStream
ReadCutStream(const uint8_t* data, std::size_t size)
{
    size = std::min(size, MAX_INPUT);
    const std::size_t n = data[0] % 32;
    const std::size_t skip = std::min(size, 1 + 2 * n);
    CutStream in;
    in.data = data + skip;
    in.length = size - skip;
    for (std::size_t k = 0; 2 + 2 * k < skip; ++k)
    {
        const std::size_t at = (std::size_t(data[1 + 2 * k]) << 8) | data[2 + 2 * k];
        in.cuts.push_back(at % (in.length + 1));
    }
    std::sort(in.cuts.begin(), in.cuts.end());
    return in;
}

/// \param length a stream's bytes \return a cut after every one of them
inline std::vector<std::size_t>
EveryByte(std::size_t length)
{
    std::vector<std::size_t> every(length);
    for (std::size_t k = 0; k < length; ++k)
    {
        every[k] = k;
    }
    return every;
}

/// A buffer holding exactly the bytes given.
inline ns3::Buffer
BufferOf(const uint8_t* data, std::size_t size)
{
    ns3::Buffer buffer;
    buffer.AddAtStart(static_cast<uint32_t>(size));
    if (size > 0)
    {
        buffer.Begin().Write(data, static_cast<uint32_t>(size));
    }
    return buffer;
}

/**
 * The properties of a header H that a received packet's bytes are read into: Deserialize
 * reads no more than there is; what it accepts serializes back to the very bytes read and
 * prints; TryRemove agrees with it on a packet whose metadata is checked, and takes the
 * header's bytes or none.
 */
template <typename H>
void
CheckHeader(const uint8_t* data, std::size_t size)
{
    size = std::min(size, MAX_INPUT);
    const ns3::Buffer in = BufferOf(data, size);
    H h;
    const uint32_t read = h.Deserialize(in.Begin());
    FUZZ_CHECK(read <= size, "Deserialize reads no more than there is");
    if (read > 0)
    {
        FUZZ_CHECK(h.GetSerializedSize() == read, "the size read is the header's size");
        ns3::Buffer out;
        out.AddAtStart(read);
        h.Serialize(out.Begin()); // stops the run if the fields are not a valid header
        FUZZ_CHECK(std::memcmp(out.PeekData(), data, read) == 0,
                   "an accepted header serializes back to the bytes read");
        std::ostringstream os;
        h.Print(os);
    }
    ns3::Ptr<ns3::Packet> p =
        ns3::Create<ns3::Packet>(size > 0 ? data : nullptr, static_cast<uint32_t>(size));
    H removed;
    const bool ok = H::TryRemove(p, removed);
    FUZZ_CHECK(ok == (read > 0), "TryRemove accepts what Deserialize accepts");
    FUZZ_CHECK(p->GetSize() == (ok ? size - read : size), "TryRemove takes the header or nothing");
}

} // namespace edgellmfuzz

#endif /* EDGE_LLM_FUZZ_CHECK_H */
