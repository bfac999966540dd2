/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_RELAY_HEADER_H
#define EDGE_LLM_RELAY_HEADER_H

#include "ns3/header.h"
#include "ns3/ipv4-address.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Wraps a downlink message that a server relays over the backhaul (Detour).
 *
 * Fixed width, 20 bytes, network byte order: magic 0xED12 (2), version 1 (1), reserved 0
 * (1), IMSI >= 1 (8), the UE's IPv4 address (4) and UDP port >= 1 (2), reserved 0 (2). The
 * downlink message follows unchanged, except that the injecting server writes its own cell
 * id into it.
 */
class EdgeLlmRelayHeader : public Header
{
  public:
    static constexpr uint16_t MAGIC = 0xED12;       //!< first two bytes
    static constexpr uint8_t VERSION = 1;           //!< wire format version
    static constexpr uint32_t SERIALIZED_SIZE = 20; //!< bytes on the wire

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /// \return GetTypeId(), for a header reached through a Header pointer
    TypeId GetInstanceTypeId() const override;

    /// A header for IMSI 1 and port 1 at 0.0.0.0, to be filled by Deserialize().
    EdgeLlmRelayHeader();

    /**
     * \param imsi the session
     * \param ueAddress the UE's address
     * \param uePort the client's port
     */
    EdgeLlmRelayHeader(uint64_t imsi, Ipv4Address ueAddress, uint16_t uePort);

    /**
     * \brief Remove a valid header from the front of a packet.
     * \param packet the packet; left untouched unless a valid header is removed
     * \param header the header read
     * \return true if a valid header was removed
     */
    static bool TryRemove(Ptr<Packet> packet, EdgeLlmRelayHeader& header);

    /// \return the session
    uint64_t GetImsi() const;
    /// \return the UE's address
    Ipv4Address GetUeAddress() const;
    /// \return the client's port
    uint16_t GetUePort() const;

    /**
     * \brief Print "relay imsi=I ue=A:P".
     * \param os the stream written to
     */
    void Print(std::ostream& os) const override;
    /// \return SERIALIZED_SIZE: the header has one width
    uint32_t GetSerializedSize() const override;
    /// \param start where the header's SERIALIZED_SIZE bytes go
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read a header, taking its fields only if the magic, version and reserved bytes
     * match and the IMSI and port are >= 1.
     * \param start the header's first byte
     * \return SERIALIZED_SIZE, or 0 for short or invalid input, which leaves this header
     * unchanged
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint64_t m_imsi{1};      //!< session
    Ipv4Address m_ueAddress; //!< UE address
    uint16_t m_uePort{1};    //!< client port
};

} // namespace ns3

#endif /* EDGE_LLM_RELAY_HEADER_H */
