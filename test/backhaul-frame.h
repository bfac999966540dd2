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
    uint32_t bytes{0};  //!< payload bytes
    uint64_t seqEnd{0}; //!< sequence number just past them (the stream's data starts at 1)
};

/**
 * \param frame a PPP frame carrying IPv4 and TCP
 * \return its TCP payload
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
    p->RemoveHeader(tcp);
    return {p->GetSize(), tcp.GetSequenceNumber().GetValue() + uint64_t(p->GetSize())};
}

} // namespace test
} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_TEST_BACKHAUL_FRAME_H */
