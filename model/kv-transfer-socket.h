/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_SOCKET_H
#define EDGE_LLM_KV_TRANSFER_SOCKET_H

#include "ns3/attribute.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace edgellm
{

/// TCP/IP header bytes of a full segment: IPv4 20, TCP 20, timestamp option 12.
constexpr uint32_t TCP_IP_OVERHEAD_BYTES = 52;

/// The smallest socket buffer the module uses, whatever the link (ns-3's default size).
constexpr uint32_t MIN_SOCKET_BUFFER_BYTES = 131072;

/// The smallest socket buffer that may be configured: a header and a few segments.
constexpr uint32_t MIN_CONFIGURED_BUFFER_BYTES = 4096;

/// How long a receiver may delay an ACK (ns-3's default is 200 ms).
const Time DELAYED_ACK_TIMEOUT = MilliSeconds(1);

/**
 * \brief A socket buffer that keeps a link busy: 2 x rate x RTT, or more.
 *
 * RTT is two propagation delays plus two full-size frames' serialisation. A device that is
 * not point-to-point (no DataRate attribute, or a channel without Delay) gets the minimum.
 *
 * \param device the device the connection uses
 * \param mtu its IP MTU
 * \return bytes, at least MIN_SOCKET_BUFFER_BYTES and 4 segments
 */
uint32_t SocketBufferForLink(Ptr<NetDevice> device, uint32_t mtu);

/**
 * \brief A socket buffer that keeps a path of several links busy: 2 x rate x RTT, or more.
 *
 * RTT is twice the path's one-way delay plus, both ways, a full-size frame's serialisation on
 * each of its links at the bottleneck's rate. SocketBufferForLink is the one-link case.
 *
 * \param bitsPerSecond the path's bottleneck rate, > 0
 * \param oneWayDelayS the path's one-way propagation delay, s
 * \param links the links the path crosses, >= 1
 * \param mtu its IP MTU
 * \return bytes, at least MIN_SOCKET_BUFFER_BYTES and 4 segments, at most 2^31 - 1
 */
uint32_t SocketBufferForPath(double bitsPerSecond,
                             double oneWayDelayS,
                             uint32_t links,
                             uint32_t mtu);

/**
 * \brief The checker of a SocketBufferBytes attribute: 0 (size it from the link) or
 * [MIN_CONFIGURED_BUFFER_BYTES, 2^31 - 1], explained when refused.
 * \param attribute the full attribute name
 * \return the checker
 */
Ptr<const AttributeChecker> MakeSocketBufferChecker(const std::string& attribute);

/**
 * \brief Set a TCP socket's segment size, buffers and delayed-ACK timeout before it connects
 * or listens.
 * \param socket a TcpSocket
 * \param segmentSize bytes of TCP payload per segment (MTU - 52)
 * \param bufferBytes send and receive buffer sizes
 */
void ConfigureTcpSocket(Ptr<Socket> socket, uint32_t segmentSize, uint32_t bufferBytes);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_SOCKET_H */
