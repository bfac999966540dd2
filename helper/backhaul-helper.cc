/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "backhaul-helper.h"

#include "ns3/explaining-checker.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackhaulHelper");
NS_OBJECT_ENSURE_REGISTERED(BackhaulHelper);

namespace
{
const Ipv4Mask kLinkMask("255.255.255.252");

std::pair<uint32_t, uint32_t>
PairKey(uint32_t a, uint32_t b)
{
    return {std::min(a, b), std::max(a, b)};
}
} // namespace

TypeId
BackhaulHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BackhaulHelper")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<BackhaulHelper>()
            .AddAttribute("DataRate",
                          "Rate of each backhaul link, in bit/s (> 0).",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&BackhaulHelper::m_dataRate),
                          edgellm::MakeExplainingChecker(
                              MakeDataRateChecker(),
                              "ns3::BackhaulHelper::DataRate",
                              "a rate above 0 bit/s",
                              [](const AttributeValue& v) {
                                  return static_cast<const DataRateValue&>(v).Get().GetBitRate() > 0
                                             ? ""
                                             : "a link cannot carry data at 0 bit/s";
                              }))
            .AddAttribute("Delay",
                          "One-way propagation delay of each backhaul link (>= 0).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&BackhaulHelper::m_delay),
                          edgellm::MakeTimeNotNegativeChecker("ns3::BackhaulHelper::Delay", true))
            .AddAttribute("Mtu",
                          "IP MTU of each backhaul device, in bytes [576, 65000]. Jumbo "
                          "frames (9000) keep bulk KV transfers cheap to simulate.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&BackhaulHelper::m_mtu),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint16_t>(576, 65000),
                                                         "ns3::BackhaulHelper::Mtu",
                                                         "an integer in [576, 65000]"))
            .AddAttribute("QueueSize",
                          "Size of each device's DropTail transmit queue (packets or bytes).",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&BackhaulHelper::m_queueSize),
                          edgellm::MakeExplainingChecker(
                              MakeQueueSizeChecker(),
                              "ns3::BackhaulHelper::QueueSize",
                              "a size of at least 1 packet or 1 byte",
                              [](const AttributeValue& v) {
                                  return static_cast<const QueueSizeValue&>(v).Get().GetValue() > 0
                                             ? ""
                                             : "an empty queue drops everything";
                              }))
            .AddAttribute("QueueDisc",
                          "TypeId name of a queue disc for each device, e.g. "
                          "ns3::FqCoDelQueueDisc; empty for none.",
                          StringValue(""),
                          MakeStringAccessor(&BackhaulHelper::m_queueDisc),
                          edgellm::MakeExplainingChecker(
                              MakeStringChecker(),
                              "ns3::BackhaulHelper::QueueDisc",
                              "empty, or the TypeId name of a QueueDisc",
                              [](const AttributeValue& v) {
                                  const std::string name = static_cast<const StringValue&>(v).Get();
                                  if (name.empty())
                                  {
                                      return std::string();
                                  }
                                  TypeId tid;
                                  if (!TypeId::LookupByNameFailSafe(name, &tid))
                                  {
                                      return std::string("no such TypeId");
                                  }
                                  return tid.IsChildOf(TypeId::LookupByName("ns3::QueueDisc"))
                                             ? std::string()
                                             : std::string("not a QueueDisc");
                              }))
            .AddAttribute("BaseNetwork",
                          "Network of the first link; link n (from 0) takes the n-th /30 after "
                          "it. Two helpers in one simulation need blocks that do not overlap.",
                          Ipv4AddressValue(Ipv4Address("172.16.0.0")),
                          MakeIpv4AddressAccessor(&BackhaulHelper::m_base),
                          edgellm::MakeExplainingChecker(
                              MakeIpv4AddressChecker(),
                              "ns3::BackhaulHelper::BaseNetwork",
                              "a /30 network N.x.y.z with N in [1, 223] and z a multiple of 4",
                              [](const AttributeValue& v) -> std::string {
                                  const uint32_t a =
                                      static_cast<const Ipv4AddressValue&>(v).Get().Get();
                                  // The links' /30s are counted from it: host bits would be
                                  // dropped without a word.
                                  if ((a & 0x3u) != 0)
                                  {
                                      return "not the start of a /30";
                                  }
                                  const uint32_t n = a >> 24;
                                  return n >= 1 && n <= 223 ? "" : "not a unicast network";
                              }));
    return tid;
}

BackhaulHelper::BackhaulHelper() = default;
BackhaulHelper::~BackhaulHelper() = default;

BackhaulLink
BackhaulHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NS_ABORT_MSG_IF(!a || !b, "BackhaulHelper::Install: a node is null");
    NS_ABORT_MSG_IF(a == b, "BackhaulHelper::Install: node " << a->GetId() << " linked to itself");
    NS_ABORT_MSG_IF(!a->GetObject<Ipv4>() || !b->GetObject<Ipv4>(),
                    "BackhaulHelper::Install: install an Internet stack on nodes "
                        << a->GetId() << " and " << b->GetId() << " first");
    NS_ABORT_MSG_IF(Find(a, b) != nullptr,
                    "BackhaulHelper::Install: nodes " << a->GetId() << " and " << b->GetId()
                                                      << " are already linked");

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(m_dataRate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    p2p.SetChannelAttribute("Delay", TimeValue(m_delay));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(m_queueSize));
    NetDeviceContainer devices = p2p.Install(a, b);

    const uint64_t net = uint64_t(m_base.CombineMask(kLinkMask).Get()) + 4 * m_links.size();
    NS_ABORT_MSG_IF(net > 0xFFFFFFFCu,
                    "BackhaulHelper: link " << m_links.size() + 1
                                            << " has no /30 left above "
                                               "ns3::BackhaulHelper::BaseNetwork = "
                                            << m_base);
    Ipv4AddressHelper addresses(Ipv4Address(static_cast<uint32_t>(net)), kLinkMask);
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

    TrafficControlHelper tc;
    tc.Uninstall(devices);
    if (!m_queueDisc.empty())
    {
        TrafficControlHelper chosen;
        chosen.SetRootQueueDisc(m_queueDisc);
        chosen.Install(devices);
    }

    BackhaulLink link{a, b, devices, interfaces.GetAddress(0), interfaces.GetAddress(1)};
    m_byPair[PairKey(a->GetId(), b->GetId())] = m_links.size();
    m_links.push_back(link);
    NS_LOG_INFO("backhaul " << a->GetId() << " " << link.addressA << " <-> " << b->GetId() << " "
                            << link.addressB);
    return link;
}

std::vector<BackhaulLink>
BackhaulHelper::InstallLine(const NodeContainer& line)
{
    std::vector<BackhaulLink> made;
    for (uint32_t i = 1; i < line.GetN(); ++i)
    {
        made.push_back(Install(line.Get(i - 1), line.Get(i)));
    }
    return made;
}

const BackhaulLink*
BackhaulHelper::Find(Ptr<const Node> a, Ptr<const Node> b) const
{
    auto it = m_byPair.find(PairKey(a->GetId(), b->GetId()));
    return it == m_byPair.end() ? nullptr : &m_links[it->second];
}

const std::vector<BackhaulLink>&
BackhaulHelper::GetLinks() const
{
    return m_links;
}

} // namespace ns3
