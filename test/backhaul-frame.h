/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_TEST_BACKHAUL_FRAME_H
#define EDGE_LLM_TEST_BACKHAUL_FRAME_H

// What the tests read off a TCP frame seen at a point-to-point backhaul device (MacTx, MacRx).

#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/ppp-header.h"
#include "ns3/tcp-header.h"

#include <array>
#include <cstdint>

namespace ns3
{
namespace edgellm
{
namespace test
{

/// The TCP payload of a backhaul frame.
struct TcpPayload
{
    uint32_t bytes{0};           //!< payload bytes; 0 for a frame that is not TCP
    uint64_t seqEnd{0};          //!< sequence number just past them (the stream's data starts at 1)
    uint16_t sourcePort{0};      //!< TCP source port
    uint16_t destinationPort{0}; //!< TCP destination port
    std::array<uint8_t, 4> start{}; //!< the payload's first bytes; 0 past its end
};

/**
 * \param frame a PPP frame carrying IPv4
 * \return its TCP payload, or none if it carries no TCP
 */
inline TcpPayload
ReadTcpPayload(Ptr<const Packet> frame)
{
    Ptr<Packet> p = frame->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    TcpHeader tcp;
    p->RemoveHeader(ppp);
    p->RemoveHeader(ip);
    if (ip.GetProtocol() != 6)
    {
        return {};
    }
    p->RemoveHeader(tcp);
    TcpPayload t{p->GetSize(),
                 tcp.GetSequenceNumber().GetValue() + uint64_t(p->GetSize()),
                 tcp.GetSourcePort(),
                 tcp.GetDestinationPort()};
    p->CopyData(t.start.data(), t.start.size());
    return t;
}

} // namespace test
} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_TEST_BACKHAUL_FRAME_H */
