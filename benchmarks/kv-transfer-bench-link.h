/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_BENCH_LINK_H
#define EDGE_LLM_KV_TRANSFER_BENCH_LINK_H

// What the KV-transfer benchmark's runs share: the backhaul link both contenders use, the TCP
// settings BulkSend gets so that it matches the protocol's, and the wall clock.

#include "bench-common.h"

#include "ns3/backhaul-helper.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/kv-transfer-socket.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace ns3
{
namespace kvtransferbench
{

/// The link every run of one comparison uses.
struct LinkSpec
{
    DataRate rate;   //!< backhaul rate
    Time delay;      //!< one-way propagation delay
    uint16_t mtu{0}; //!< IP MTU
};

/// A two-node backhaul link with the TCP sizes the protocol would choose on it.
struct Link
{
    NodeContainer nodes; //!< node 0 sends, node 1 receives
    BackhaulLink link;   //!< devices and addresses
    uint32_t segment{0}; //!< TCP payload bytes per segment
    uint32_t buffer{0};  //!< TCP send and receive buffer
};

/**
 * \param spec the link
 * \return two nodes with IPv4 joined by it
 */
inline Link
MakeLink(const LinkSpec& spec)
{
    Link l;
    l.nodes.Create(2);
    InternetStackHelper().Install(l.nodes);
    Ptr<BackhaulHelper> backhaul = CreateObject<BackhaulHelper>();
    backhaul->SetAttribute("DataRate", DataRateValue(spec.rate));
    backhaul->SetAttribute("Delay", TimeValue(spec.delay));
    backhaul->SetAttribute("Mtu", UintegerValue(spec.mtu));
    l.link = backhaul->Install(l.nodes.Get(0), l.nodes.Get(1));
    l.segment = spec.mtu - edgellm::TCP_IP_OVERHEAD_BYTES;
    l.buffer = edgellm::SocketBufferForLink(l.link.devices.Get(0), spec.mtu);
    return l;
}

/**
 * \brief Give every TCP socket made from now on the protocol's segment size and buffers.
 *
 * Undo with Config::Reset() after the run, so that later runs in the process do not
 * inherit them.
 *
 * \param l the link
 */
/// The protocol's two ends on a link of their own.
struct ProtocolEnds
{
    Link link;                        //!< the link
    Ptr<KvTransferSender> sender;     //!< on node 0, towards node 1
    Ptr<KvTransferReceiver> receiver; //!< on node 1
};

/// \return a fresh link with a KvTransferApplication at each end, node 0 sending to node 1
inline ProtocolEnds
MakeProtocolEnds(const LinkSpec& spec)
{
    ProtocolEnds e;
    e.link = MakeLink(spec);
    Ptr<KvTransferApplication> a = CreateObject<KvTransferApplication>();
    Ptr<KvTransferApplication> b = CreateObject<KvTransferApplication>();
    e.link.nodes.Get(0)->AddApplication(a);
    e.link.nodes.Get(1)->AddApplication(b);
    e.sender = a->AddPeer(e.link.link.addressA, e.link.link.addressB);
    e.receiver = b->GetReceiver();
    return e;
}

inline void
SetBulkSendTcpDefaults(const Link& l)
{
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(l.segment));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(l.buffer));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(l.buffer));
}

/**
 * \param l the link
 * \return BulkSend's write size: BulkSend gives up on a write larger than the socket's free
 *         space, so it writes pieces that fit
 */
inline uint32_t
BulkSendWriteSize(const Link& l)
{
    return std::min<uint32_t>(65536, l.buffer / 2);
}

using bench::WallSeconds;

} // namespace kvtransferbench
} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_BENCH_LINK_H */
