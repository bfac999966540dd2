/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-transfer-socket.h"

#include "explaining-checker.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{
namespace edgellm
{

uint32_t
SocketBufferForLink(Ptr<NetDevice> device, uint32_t mtu)
{
    const uint64_t floor = std::max<uint64_t>(MIN_SOCKET_BUFFER_BYTES, 4ULL * mtu);
    DataRateValue rate;
    TimeValue delay;
    if (!device || !device->GetChannel() || !device->GetAttributeFailSafe("DataRate", rate) ||
        !device->GetChannel()->GetAttributeFailSafe("Delay", delay))
    {
        return static_cast<uint32_t>(floor);
    }
    return SocketBufferForPath(static_cast<double>(rate.Get().GetBitRate()),
                               delay.Get().GetSeconds(),
                               1,
                               mtu);
}

uint32_t
SocketBufferForPath(double bitsPerSecond, double oneWayDelayS, uint32_t links, uint32_t mtu)
{
    const uint64_t floor = std::max<uint64_t>(MIN_SOCKET_BUFFER_BYTES, 4ULL * mtu);
    const double bps = bitsPerSecond;
    const double rttS = 2.0 * oneWayDelayS + 2.0 * links * mtu * 8.0 / bps;
    const double bytes = std::ceil(2.0 * bps / 8.0 * rttS);
    const double capped = std::min(bytes, static_cast<double>(std::numeric_limits<int32_t>::max()));
    return static_cast<uint32_t>(std::max<double>(capped, floor));
}

Ptr<const AttributeChecker>
MakeSocketBufferChecker(const std::string& attribute)
{
    return MakeExplainingChecker(
        MakeUintegerChecker<uint32_t>(0, std::numeric_limits<int32_t>::max()),
        attribute,
        "0 (from the link) or an integer in [" + std::to_string(MIN_CONFIGURED_BUFFER_BYTES) +
            ", 2147483647]",
        [](const AttributeValue& v) {
            const auto bytes = static_cast<const UintegerValue&>(v).Get();
            return bytes > 0 && bytes < MIN_CONFIGURED_BUFFER_BYTES
                       ? "too small for a header and a few segments"
                       : "";
        });
}

void
ConfigureTcpSocket(Ptr<Socket> socket, uint32_t segmentSize, uint32_t bufferBytes)
{
    socket->SetAttribute("SegmentSize", UintegerValue(segmentSize));
    socket->SetAttribute("SndBufSize", UintegerValue(bufferBytes));
    socket->SetAttribute("RcvBufSize", UintegerValue(bufferBytes));
    // ns-3 delays an ACK up to 200 ms when a transfer ends on an odd segment: the sender
    // would learn of its completion that much late.
    socket->SetAttribute("DelAckTimeout", TimeValue(DELAYED_ACK_TIMEOUT));
}

} // namespace edgellm
} // namespace ns3
