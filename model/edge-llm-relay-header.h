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
    TypeId GetInstanceTypeId() const override;

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

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /// Returns 0, and leaves this header unchanged, for short or invalid input.
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint64_t m_imsi{1};      //!< session
    Ipv4Address m_ueAddress; //!< UE address
    uint16_t m_uePort{1};    //!< client port
};

} // namespace ns3

#endif /* EDGE_LLM_RELAY_HEADER_H */
