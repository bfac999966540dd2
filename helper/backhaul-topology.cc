/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "backhaul-topology.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/pointer.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackhaulTopology");
NS_OBJECT_ENSURE_REGISTERED(BackhaulTopology);

TypeId
BackhaulTopology::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BackhaulTopology")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddAttribute("RateMbps",
                          "Distribution of each link's rate, in Mb/s (which links: see the "
                          "topology). Null (the default) for the topology's fixed rate, with no "
                          "random draw. Draws below MinRateMbps, or <= 0, are drawn again.",
                          PointerValue(),
                          MakePointerAccessor(&BackhaulTopology::m_rateMbps),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("DelayUs",
                          "Distribution of each link's one-way delay, in microseconds. Null "
                          "(the default) for the topology's fixed delay, with no random draw. "
                          "Draws below 0 are drawn again.",
                          PointerValue(),
                          MakePointerAccessor(&BackhaulTopology::m_delayUs),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute(
                "MinRateMbps",
                "Truncation of RateMbps, in Mb/s (finite, >= 0): a draw below it is "
                "drawn again. Unused without RateMbps.",
                DoubleValue(0.0),
                MakeDoubleAccessor(&BackhaulTopology::m_minRateMbps),
                edgellm::MakeFiniteNotNegativeChecker("ns3::BackhaulTopology::MinRateMbps", true));
    return tid;
}

BackhaulTopology::BackhaulTopology()
    : m_minRateMbps(0.0)
{
}

BackhaulTopology::~BackhaulTopology() = default;

void
BackhaulTopology::DoDispose()
{
    m_rateMbps = nullptr;
    m_delayUs = nullptr;
    m_segments.clear();
    Object::DoDispose();
}

std::vector<BackhaulSegment>
BackhaulTopology::GetSegments() const
{
    return m_segments;
}

Ptr<Node>
BackhaulTopology::GetControllerNode() const
{
    return nullptr;
}

std::vector<ControllerAttachment>
BackhaulTopology::GetControllerAttachments() const
{
    return {};
}

ControllerAttachment
BackhaulTopology::AttachmentOf(const NetDeviceContainer& link)
{
    const auto addressOf = [](Ptr<NetDevice> device) {
        Ptr<Ipv4> ip = device->GetNode()->GetObject<Ipv4>();
        return ip->GetAddress(ip->GetInterfaceForDevice(device), 0).GetLocal();
    };
    return {link.Get(1)->GetNode(), addressOf(link.Get(1)), addressOf(link.Get(0))};
}

int64_t
BackhaulTopology::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (const Ptr<RandomVariableStream>& rv : {m_rateMbps, m_delayUs})
    {
        if (rv)
        {
            rv->SetStream(stream + used);
            ++used;
        }
    }
    return used;
}

void
BackhaulTopology::CheckPairs(const NodeContainer& cells,
                             const std::vector<std::pair<uint32_t, uint32_t>>& neighbourPairs,
                             const std::string& who)
{
    for (uint32_t i = 0; i < cells.GetN(); ++i)
    {
        NS_ABORT_MSG_IF(!cells.Get(i)->GetObject<Ipv4>(),
                        who << ": install an Internet stack on cell " << i << " (node "
                            << cells.Get(i)->GetId() << ") first");
    }
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (const auto& [a, b] : neighbourPairs)
    {
        NS_ABORT_MSG_IF(a >= cells.GetN() || b >= cells.GetN(),
                        who << ": neighbour pair (" << a << ", " << b
                            << ") names a cell out of [0, " << cells.GetN() << ")");
        NS_ABORT_MSG_IF(a == b, who << ": cell " << a << " paired with itself");
        NS_ABORT_MSG_IF(!seen.insert({std::min(a, b), std::max(a, b)}).second,
                        who << ": neighbour pair (" << a << ", " << b << ") given twice");
    }
}

DataRate
BackhaulTopology::DrawRate(Ptr<RandomVariableStream> mbps, double minMbps)
{
    for (uint32_t draw = 0; draw < MAX_REDRAWS; ++draw)
    {
        const double value = mbps->GetValue();
        // A rate that rounds to 0 bit/s is no link at all, whatever the floor.
        if (std::isfinite(value) && value >= minMbps && std::llround(value * 1e6) > 0)
        {
            return DataRate(static_cast<uint64_t>(std::llround(value * 1e6)));
        }
    }
    NS_FATAL_ERROR("ns3::BackhaulTopology::RateMbps: "
                   << MAX_REDRAWS << " draws in a row fell below ns3::BackhaulTopology::"
                   << "MinRateMbps = " << minMbps
                   << " Mb/s (or at 0); the distribution must put real weight on rates >= "
                      "MinRateMbps and > 0");
    return DataRate(0);
}

DataRate
BackhaulTopology::NextRate(DataRate fixed)
{
    return m_rateMbps ? DrawRate(m_rateMbps, m_minRateMbps) : fixed;
}

Time
BackhaulTopology::NextDelay(Time fixed)
{
    if (!m_delayUs)
    {
        return fixed;
    }
    for (uint32_t draw = 0; draw < MAX_REDRAWS; ++draw)
    {
        const double us = m_delayUs->GetValue();
        if (std::isfinite(us) && us >= 0)
        {
            return NanoSeconds(std::llround(us * 1e3));
        }
    }
    NS_FATAL_ERROR("ns3::BackhaulTopology::DelayUs: "
                   << MAX_REDRAWS
                   << " draws in a row fell below 0 us; the distribution must put real "
                      "weight on delays >= 0");
    return fixed;
}

uint32_t
BackhaulTopology::AddSegment(DataRate rate, Time delay, const NetDeviceContainer& devices)
{
    const uint32_t id = static_cast<uint32_t>(m_segments.size());
    m_segments.push_back({id, rate, delay, devices});
    return id;
}

const BackhaulSegment&
BackhaulTopology::GetSegment(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_segments.size(), "BackhaulTopology: no link " << id);
    return m_segments[id];
}

} // namespace ns3
