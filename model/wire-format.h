/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_WIRE_FORMAT_H
#define EDGE_LLM_WIRE_FORMAT_H

#include "ns3/abort.h"
#include "ns3/buffer.h"
#include "ns3/header.h"
#include "ns3/packet.h"

#include <cstdint>
#include <limits>
#include <string>

namespace ns3
{
namespace edgellm
{

/**
 * \brief The message every wire header of the module gives for a field it refuses.
 * \param name the field
 * \param value its value
 * \param allowed the allowed values, in words
 * \return "name = value is invalid; allowed: allowed"
 */
inline std::string
FieldError(const std::string& name, uint64_t value, const std::string& allowed)
{
    return name + " = " + std::to_string(value) + " is invalid; allowed: " + allowed;
}

/**
 * \brief A value held in 64 bits in memory (a TokenRange's first or count), as the 32-bit
 * field that carries it on the wire: a value that does not fit would be cut silently.
 * \param value the value
 * \param field the field, named if the value does not fit
 * \return the value; stops the run if it is over 2^32 - 1
 */
inline uint32_t
WireU32(uint64_t value, const char* field)
{
    NS_ABORT_MSG_IF(value > std::numeric_limits<uint32_t>::max(),
                    field << " = " << value << " does not fit its 32 bits on the wire");
    return static_cast<uint32_t>(value);
}

/**
 * \brief Read and check the preamble every wire header of the module starts with: enough
 * bytes for the shortest message, the magic (2 bytes) and the version (1 byte).
 * \param i where the header starts; left after the version
 * \param minSize bytes of the shortest message of this header
 * \param magic the expected magic
 * \param version the expected version
 * \return an empty string, or the first rule broken (a FieldError)
 */
inline std::string
ReadPreamble(Buffer::Iterator& i, uint32_t minSize, uint16_t magic, uint8_t version)
{
    if (i.GetRemainingSize() < minSize)
    {
        return FieldError("size", i.GetRemainingSize(), ">= " + std::to_string(minSize));
    }
    const uint16_t readMagic = i.ReadNtohU16();
    if (readMagic != magic)
    {
        return FieldError("magic", readMagic, std::to_string(magic));
    }
    const uint8_t readVersion = i.ReadU8();
    if (readVersion != version)
    {
        return FieldError("version", readVersion, std::to_string(version));
    }
    return "";
}

/**
 * \brief Remove a header from the front of a received packet if its Deserialize accepts it.
 *
 * Not Packet::RemoveHeader: with packet metadata checking on, that stops the run when the
 * front of the packet was not added as this header (a packet built from raw bytes), and it
 * would remove bytes that Deserialize refused.
 *
 * \param packet the packet; left untouched when the header is refused
 * \param header the header to fill; its Deserialize returns 0 to refuse
 * \return true if the header was read and removed
 */
inline bool
RemoveIfValid(Ptr<Packet> packet, Header& header)
{
    const uint32_t read = packet->PeekHeader(header);
    if (read == 0)
    {
        return false;
    }
    packet->RemoveAtStart(read);
    return true;
}

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_WIRE_FORMAT_H */
