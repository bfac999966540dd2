/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAN_DOWNLINK_H
#define RAN_DOWNLINK_H

#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Puts downlink UDP datagrams of an edge server straight into one cell's radio stack.
 *
 * Edge serving breaks out locally: a server on a base station sends its tokens to the UEs of
 * that cell without a trip through the core network. The server sees only this interface;
 * LteLocalBreakout implements it for ns-3's LTE eNB.
 *
 * A send is refused (false) whenever the cell cannot take the packet for that UE now, e.g. the
 * UE has no context in the cell or is still attaching; a refusal never stops the run.
 */
class RanDownlink : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RanDownlink() = default;
    ~RanDownlink() override = default;

    /**
     * \brief Send one UDP datagram to a UE of this cell.
     * \param udpPayload the datagram's payload (not modified; headers go on a copy)
     * \param imsi the UE
     * \param ueAddress the UE's IPv4 address (the destination)
     * \param srcAddress the source address written in the IPv4 header
     * \param srcPort the UDP source port
     * \param dstPort the UDP destination port
     * \return true if the cell took the packet, false if it was refused
     */
    virtual bool Send(Ptr<Packet> udpPayload,
                      uint64_t imsi,
                      Ipv4Address ueAddress,
                      Ipv4Address srcAddress,
                      uint16_t srcPort,
                      uint16_t dstPort) = 0;

    /**
     * \param imsi the UE
     * \return whether Send for this UE would be accepted now
     */
    virtual bool CanSend(uint64_t imsi) = 0;

    /// \return the cell this downlink sends into
    virtual uint16_t GetCellId() const = 0;
};

} // namespace ns3

#endif // RAN_DOWNLINK_H
