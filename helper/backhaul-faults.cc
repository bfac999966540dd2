/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "backhaul-faults.h"

#include "ns3/abort.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/on-off-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackhaulFaults");

NS_OBJECT_ENSURE_REGISTERED(BackhaulFaults);

TypeId
BackhaulFaults::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BackhaulFaults")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<BackhaulFaults>()
            .AddAttribute("CrossTrafficPort",
                          "Port of the first cross-traffic flow's sink; each later flow takes "
                          "the next port. Range [1, 65535], not an EPC port (2152, 2123, "
                          "4444) of the eNB nodes.",
                          UintegerValue(5300),
                          MakeUintegerAccessor(&BackhaulFaults::m_port),
                          edgellm::MakeEnbPortChecker("ns3::BackhaulFaults::CrossTrafficPort"))
            .AddAttribute("CrossTrafficPacketSize",
                          "Payload bytes of each cross-traffic send. Range [1, 65000].",
                          UintegerValue(1448),
                          MakeUintegerAccessor(&BackhaulFaults::m_packetSize),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 65000),
                                                         "ns3::BackhaulFaults::"
                                                         "CrossTrafficPacketSize",
                                                         "an integer in [1, 65000]"));
    return tid;
}

BackhaulFaults::BackhaulFaults()
    : m_port(5300),
      m_packetSize(1448)
{
}

BackhaulFaults::~BackhaulFaults() = default;

void
BackhaulFaults::DoDispose()
{
    m_models.clear();
    m_sinks = ApplicationContainer();
    Object::DoDispose();
}

std::pair<Ptr<BackhaulFaultModel>, Ptr<BackhaulFaultModel>>
BackhaulFaults::ModelsOf(const BackhaulLink& link)
{
    NS_ABORT_MSG_IF(link.devices.GetN() != 2,
                    "BackhaulFaults: a backhaul link has two devices, not " << link.devices.GetN());
    Ptr<BackhaulFaultModel> models[2];
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<NetDevice> device = link.devices.Get(i);
        PointerValue current;
        device->GetAttribute("ReceiveErrorModel", current);
        models[i] = DynamicCast<BackhaulFaultModel>(current.Get<ErrorModel>());
        if (!models[i])
        {
            NS_ABORT_MSG_IF(current.Get<ErrorModel>(),
                            "BackhaulFaults: the device already has another ReceiveErrorModel");
            models[i] = CreateObject<BackhaulFaultModel>();
            device->SetAttribute("ReceiveErrorModel", PointerValue(models[i]));
            m_models.push_back(models[i]);
        }
    }
    return {models[0], models[1]};
}

void
BackhaulFaults::SetLoss(const BackhaulLink& link, double rate)
{
    auto [a, b] = ModelsOf(link);
    // The checker refuses a rate outside [0, 1), naming the attribute.
    a->SetAttribute("LossRate", DoubleValue(rate));
    b->SetAttribute("LossRate", DoubleValue(rate));
}

void
BackhaulFaults::ScheduleOutage(const BackhaulLink& link, Time start, Time duration)
{
    NS_ABORT_MSG_IF(start.IsStrictlyNegative(),
                    "BackhaulFaults::ScheduleOutage: start = " << start.As(Time::S)
                                                               << "; allowed: a time >= 0");
    NS_ABORT_MSG_IF(!duration.IsStrictlyPositive(),
                    "BackhaulFaults::ScheduleOutage: duration = "
                        << duration.As(Time::S) << "; allowed: a time > 0, or Time::Max()");
    auto [a, b] = ModelsOf(link);
    Simulator::Schedule(start, &BackhaulFaults::StartOutage, this, a, b);
    if (duration != Time::Max())
    {
        Simulator::Schedule(start + duration, &BackhaulFaults::EndOutage, this, a, b);
    }
}

void
BackhaulFaults::StartOutage(Ptr<BackhaulFaultModel> a, Ptr<BackhaulFaultModel> b)
{
    NS_LOG_INFO("backhaul outage starts");
    ++m_outages;
    a->StartOutage();
    b->StartOutage();
}

void
BackhaulFaults::EndOutage(Ptr<BackhaulFaultModel> a, Ptr<BackhaulFaultModel> b)
{
    NS_LOG_INFO("backhaul outage ends");
    a->EndOutage();
    b->EndOutage();
}

void
BackhaulFaults::AddCrossTraffic(const BackhaulLink& link,
                                CrossTrafficKind kind,
                                DataRate rate,
                                Time start,
                                Time stop)
{
    NS_ABORT_MSG_IF(start.IsStrictlyNegative(),
                    "BackhaulFaults::AddCrossTraffic: start = " << start.As(Time::S)
                                                                << "; allowed: a time >= 0");
    NS_ABORT_MSG_IF(stop <= start,
                    "BackhaulFaults::AddCrossTraffic: stop = "
                        << stop.As(Time::S) << "; allowed: a time > start = " << start.As(Time::S));
    NS_ABORT_MSG_IF(kind == ON_OFF && rate.GetBitRate() == 0,
                    "BackhaulFaults::AddCrossTraffic: rate = 0; allowed: a rate > 0 for onoff");
    NS_ABORT_MSG_IF(
        uint32_t(m_port) + m_flows > 65535,
        "BackhaulFaults::AddCrossTraffic: no port left after CrossTrafficPort = " << m_port);
    const uint16_t port = m_port + m_flows++;
    const std::string factory = kind == BULK ? "ns3::TcpSocketFactory" : "ns3::UdpSocketFactory";
    const Address to = InetSocketAddress(link.addressB, port);
    PacketSinkHelper sink(factory, InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinks = sink.Install(link.nodeB);
    sinks.Start(Simulator::Now());
    m_sinks.Add(sinks);
    ApplicationContainer sources;
    if (kind == BULK)
    {
        BulkSendHelper bulk(factory, to);
        bulk.SetAttribute("SendSize", UintegerValue(m_packetSize));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        sources = bulk.Install(link.nodeA);
    }
    else
    {
        OnOffHelper onoff(factory, to);
        onoff.SetConstantRate(rate, m_packetSize);
        sources = onoff.Install(link.nodeA);
    }
    const Time now = Simulator::Now();
    sources.Start(now + start);
    if (stop != Time::Max())
    {
        sources.Stop(now + stop);
    }
}

bool
BackhaulFaults::ParseCrossTrafficKind(const std::string& name, CrossTrafficKind& kind)
{
    if (name == "bulk")
    {
        kind = BULK;
        return true;
    }
    if (name == "onoff")
    {
        kind = ON_OFF;
        return true;
    }
    return false;
}

int64_t
BackhaulFaults::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (Ptr<BackhaulFaultModel> m : m_models)
    {
        used += m->AssignStreams(stream + used);
    }
    return used;
}

uint64_t
BackhaulFaults::GetLossDrops() const
{
    uint64_t n = 0;
    for (Ptr<BackhaulFaultModel> m : m_models)
    {
        n += m->GetLossDrops();
    }
    return n;
}

uint64_t
BackhaulFaults::GetOutageDrops() const
{
    uint64_t n = 0;
    for (Ptr<BackhaulFaultModel> m : m_models)
    {
        n += m->GetOutageDrops();
    }
    return n;
}

uint32_t
BackhaulFaults::GetOutagesStarted() const
{
    return m_outages;
}

uint64_t
BackhaulFaults::GetCrossTrafficBytes() const
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < m_sinks.GetN(); ++i)
    {
        n += DynamicCast<PacketSink>(m_sinks.Get(i))->GetTotalRx();
    }
    return n;
}

} // namespace ns3
