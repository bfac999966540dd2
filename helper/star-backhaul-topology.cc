/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "star-backhaul-topology.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/explaining-checker.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/kv-transfer-socket.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StarBackhaulTopology");
NS_OBJECT_ENSURE_REGISTERED(StarBackhaulTopology);

namespace
{
const Ipv4Mask kLinkMask("255.255.255.252");
const Ipv4Mask kBlockMask("255.255.0.0");
/// /30 subnets in a /16: the most cells the up and down blocks can number.
constexpr uint32_t kMaxCells = 1u << 14;

Ptr<const AttributeChecker>
PositiveRateChecker(const std::string& attribute)
{
    return edgellm::MakeExplainingChecker(
        MakeDataRateChecker(),
        attribute,
        "a rate above 0 bit/s",
        [](const AttributeValue& v) {
            return static_cast<const DataRateValue&>(v).Get().GetBitRate() > 0
                       ? ""
                       : "a link cannot carry data at 0 bit/s";
        });
}
} // namespace

TypeId
StarBackhaulTopology::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StarBackhaulTopology")
            .SetParent<BackhaulTopology>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<StarBackhaulTopology>()
            .AddAttribute("SharedRate",
                          "Rate of the shared link from the aggregation to the core router, "
                          "in bit/s (> 0): the capacity every inter-cell transfer shares.",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&StarBackhaulTopology::m_sharedRate),
                          PositiveRateChecker("ns3::StarBackhaulTopology::SharedRate"))
            .AddAttribute("AccessRate",
                          "Rate of each cell's up and down access links, in bit/s (> 0, and "
                          ">= SharedRate, checked at Install). The default equals SharedRate, "
                          "so a path's bottleneck is the per-pair default's 10 Gb/s.",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&StarBackhaulTopology::m_accessRate),
                          PositiveRateChecker("ns3::StarBackhaulTopology::AccessRate"))
            .AddAttribute(
                "SharedDelay",
                "One-way propagation delay of the shared link (>= 0).",
                TimeValue(MicroSeconds(20)),
                MakeTimeAccessor(&StarBackhaulTopology::m_sharedDelay),
                edgellm::MakeTimeNotNegativeChecker("ns3::StarBackhaulTopology::SharedDelay", true))
            .AddAttribute(
                "AccessDelay",
                "One-way propagation delay of each access link (>= 0). With the "
                "defaults a path's delay is 15 + 20 + 15 = 50 us, the per-pair "
                "default.",
                TimeValue(MicroSeconds(15)),
                MakeTimeAccessor(&StarBackhaulTopology::m_accessDelay),
                edgellm::MakeTimeNotNegativeChecker("ns3::StarBackhaulTopology::AccessDelay", true))
            .AddAttribute("Mtu",
                          "IP MTU of every device of the star, in bytes [576, 65000].",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&StarBackhaulTopology::m_mtu),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint16_t>(576, 65000),
                                                         "ns3::StarBackhaulTopology::Mtu",
                                                         "an integer in [576, 65000]"))
            .AddAttribute("QueueSize",
                          "Size of each device's DropTail transmit queue (packets or bytes, "
                          ">= 1). The queue in front of the shared link holds every cell's "
                          "backlog.",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&StarBackhaulTopology::m_queueSize),
                          edgellm::MakeExplainingChecker(
                              MakeQueueSizeChecker(),
                              "ns3::StarBackhaulTopology::QueueSize",
                              "a size of at least 1 packet or 1 byte",
                              [](const AttributeValue& v) {
                                  return static_cast<const QueueSizeValue&>(v).Get().GetValue() > 0
                                             ? ""
                                             : "an empty queue drops everything";
                              }))
            .AddAttribute("BaseNetwork",
                          "The /8 the star takes its addresses from (N.0.0.0, low 24 bits 0). "
                          "Must not overlap the EPC's 7/8 and 10/8 to 14/8, EdgeLlmEpcRoutes' "
                          "15/8 or BackhaulHelper's block (172.16/12 by default).",
                          Ipv4AddressValue(Ipv4Address("17.0.0.0")),
                          MakeIpv4AddressAccessor(&StarBackhaulTopology::m_base),
                          edgellm::MakeExplainingChecker(
                              MakeIpv4AddressChecker(),
                              "ns3::StarBackhaulTopology::BaseNetwork",
                              "a /8 network N.0.0.0 with N in [1, 223]",
                              [](const AttributeValue& v) -> std::string {
                                  const uint32_t a =
                                      static_cast<const Ipv4AddressValue&>(v).Get().Get();
                                  if ((a & 0x00FFFFFFu) != 0)
                                  {
                                      return "its low 24 bits are not 0";
                                  }
                                  const uint32_t n = a >> 24;
                                  return n >= 1 && n <= 223 ? "" : "not a unicast /8";
                              }));
    return tid;
}

StarBackhaulTopology::StarBackhaulTopology()
    : m_mtu(9000)
{
}

StarBackhaulTopology::~StarBackhaulTopology() = default;

void
StarBackhaulTopology::DoDispose()
{
    m_agg = nullptr;
    m_core = nullptr;
    m_cells.clear();
    BackhaulTopology::DoDispose();
}

Ptr<Node>
StarBackhaulTopology::GetAggregationRouter() const
{
    return m_agg;
}

Ptr<Node>
StarBackhaulTopology::GetCoreRouter() const
{
    return m_core;
}

uint32_t
StarBackhaulTopology::GetPathSocketBufferBytes(DataRate bottleneck) const
{
    return edgellm::SocketBufferForPath(static_cast<double>(bottleneck.GetBitRate()),
                                        2 * m_accessDelay.GetSeconds() + m_sharedDelay.GetSeconds(),
                                        3,
                                        m_mtu);
}

Ipv4Address
StarBackhaulTopology::GetCellAddress(uint32_t cell) const
{
    NS_ABORT_MSG_IF(cell >= m_cellAddress.size(),
                    "StarBackhaulTopology::GetCellAddress: cell " << cell << " out of [0, "
                                                                  << m_cellAddress.size() << ")");
    return m_cellAddress[cell];
}

Ptr<Node>
StarBackhaulTopology::GetControllerNode() const
{
    return m_core;
}

std::vector<ControllerAttachment>
StarBackhaulTopology::GetControllerAttachments() const
{
    std::vector<ControllerAttachment> attachments;
    for (std::size_t k = 0; k < m_cells.size(); ++k)
    {
        // Device 0 of a down link is the core router's, device 1 the cell's.
        attachments.push_back(AttachmentOf(GetSegment(m_down[k]).devices));
    }
    return attachments;
}

uint32_t
StarBackhaulTopology::MakeLink(Ptr<Node> x,
                               Ptr<Node> y,
                               DataRate rate,
                               Time delay,
                               Ipv4Address network)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    p2p.SetChannelAttribute("Delay", TimeValue(delay));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(m_queueSize));
    NetDeviceContainer devices = p2p.Install(x, y);
    Ipv4AddressHelper addresses(network, kLinkMask);
    addresses.Assign(devices);
    TrafficControlHelper().Uninstall(devices);
    return AddSegment(rate, delay, devices);
}

std::vector<BackhaulPath>
StarBackhaulTopology::Install(const NodeContainer& cells,
                              const std::vector<std::pair<uint32_t, uint32_t>>& neighbourPairs)
{
    NS_ABORT_MSG_IF(m_agg, "StarBackhaulTopology::Install: called twice; use one object per star");
    CheckPairs(cells, neighbourPairs, "StarBackhaulTopology::Install");
    if (m_accessRate < m_sharedRate)
    {
        NS_FATAL_ERROR("ns3::StarBackhaulTopology::AccessRate = "
                       << m_accessRate << " is below ns3::StarBackhaulTopology::SharedRate = "
                       << m_sharedRate << "; it must be >= SharedRate, or the shared link is "
                       << "not the bottleneck");
    }
    NS_ABORT_MSG_IF(cells.GetN() > kMaxCells,
                    "StarBackhaulTopology::Install: " << cells.GetN() << " cells; at most "
                                                      << kMaxCells << " fit its /16 blocks");

    for (uint32_t k = 0; k < cells.GetN(); ++k)
    {
        // Packets for a cell's up-link address arrive on its down link; without the weak
        // end-system model they would be dropped without a word. ns-3.41 added
        // StrongEndSystemModel, its negation, and later releases dropped WeakEsModel.
        Ptr<Ipv4> ip = cells.Get(k)->GetObject<Ipv4>();
        BooleanValue model;
        const bool weak = ip->GetAttributeFailSafe("WeakEsModel", model)
                              ? model.Get()
                              : (ip->GetAttribute("StrongEndSystemModel", model), !model.Get());
        NS_ABORT_MSG_IF(!weak,
                        "StarBackhaulTopology::Install: cell "
                            << k << " has the strong end-system model (ns3::Ipv4::WeakEsModel "
                            << "false, or StrongEndSystemModel true); the star needs the weak one "
                            << "(ns-3's default)");
    }
    m_agg = CreateObject<Node>();
    m_core = CreateObject<Node>();
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(NodeContainer(m_agg, m_core));

    const uint32_t base = m_base.Get();
    const Ipv4Address sharedNet(base);
    const Ipv4Address upBlock(base + 0x00010000u);
    const uint32_t downBlock = base + 0x00020000u;

    const uint32_t shared = MakeLink(m_agg, m_core, m_sharedRate, m_sharedDelay, sharedNet);
    NS_ASSERT(shared == SHARED_SEGMENT);
    const Ipv4Address coreOnShared(base + 2);

    Ipv4StaticRoutingHelper routing;
    Ptr<Ipv4> aggIp = m_agg->GetObject<Ipv4>();
    Ptr<Ipv4> coreIp = m_core->GetObject<Ipv4>();
    Ptr<Ipv4StaticRouting> aggRoutes = routing.GetStaticRouting(aggIp);
    Ptr<Ipv4StaticRouting> coreRoutes = routing.GetStaticRouting(coreIp);
    const uint32_t aggShared = aggIp->GetInterfaceForDevice(GetSegment(shared).devices.Get(0));

    m_up.clear();
    m_down.clear();
    m_cellAddress.clear();
    m_cells.clear();
    for (uint32_t k = 0; k < cells.GetN(); ++k)
    {
        Ptr<Node> cell = cells.Get(k);
        const DataRate rate = NextRate(m_accessRate);
        const Time delay = NextDelay(m_accessDelay);
        const uint32_t upNet = upBlock.Get() + 4 * k;
        const uint32_t downNet = downBlock + 4 * k;
        const uint32_t up = MakeLink(cell, m_agg, rate, delay, Ipv4Address(upNet));
        const uint32_t down = MakeLink(m_core, cell, rate, delay, Ipv4Address(downNet));
        m_up.push_back(up);
        m_down.push_back(down);
        m_cells.push_back(cell);
        // ns-3's TCP replaces the address a socket bound with the source of its route
        // (TcpSocketBase::SetupEndpoint), so the address a cell binds must be on the link its
        // route leaves by: its up link.
        const Ipv4Address address(upNet + 1);
        m_cellAddress.push_back(address);

        Ptr<Ipv4> ip = cell->GetObject<Ipv4>();
        routing.GetStaticRouting(ip)->AddNetworkRouteTo(
            upBlock,
            kBlockMask,
            Ipv4Address(upNet + 2),
            ip->GetInterfaceForDevice(GetSegment(up).devices.Get(0)));
        // Agg is directly connected to every cell's up /30; this /32 is longer, so a packet
        // for a cell crosses the shared link instead of turning back at Agg.
        aggRoutes->AddHostRouteTo(address, coreOnShared, aggShared);
        // The cell takes it on its down link: ns-3's weak end-system model (its default)
        // accepts an address of any of the node's interfaces.
        coreRoutes->AddHostRouteTo(address,
                                   Ipv4Address(downNet + 2),
                                   coreIp->GetInterfaceForDevice(GetSegment(down).devices.Get(0)));
        NS_LOG_INFO("star cell " << k << " node " << cell->GetId() << " at " << address
                                 << ", access " << rate << " " << delay.As(Time::US));
    }

    std::vector<BackhaulPath> paths;
    for (const auto& [a, b] : neighbourPairs)
    {
        const std::vector<uint32_t> crossed{m_up[a], shared, m_down[b], m_up[b], m_down[a]};
        DataRate bottleneck = GetSegment(shared).rate;
        for (uint32_t id : crossed)
        {
            bottleneck = std::min(bottleneck, GetSegment(id).rate);
        }
        const Time delay =
            GetSegment(m_up[a]).delay + GetSegment(shared).delay + GetSegment(m_down[b]).delay;
        paths.push_back({a,
                         b,
                         cells.Get(a),
                         cells.Get(b),
                         m_cellAddress[a],
                         m_cellAddress[b],
                         bottleneck,
                         delay,
                         crossed});
    }
    return paths;
}

} // namespace ns3
