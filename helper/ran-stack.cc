/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ran-stack.h"

#include "core-uplink-routes.h"

#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RanStack");
NS_OBJECT_ENSURE_REGISTERED(RanStack);

bool
ParseHandoverTrigger(const std::string& name, HandoverTrigger* trigger)
{
    for (HandoverTrigger t : {HandoverTrigger::NONE,
                              HandoverTrigger::A3,
                              HandoverTrigger::A2A4,
                              HandoverTrigger::PLANNED})
    {
        if (ToString(t) == name)
        {
            *trigger = t;
            return true;
        }
    }
    return false;
}

namespace
{

/**
 * \param name a RAN's name
 * \return the TypeId name of its stack, or "" if the name is none
 */
std::string
RanStackTypeName(const std::string& name)
{
    return name == "lte" ? "ns3::LteRanStack" : name == "nr" ? "ns3::NrRanStack" : "";
}

} // namespace

bool
IsRanStackAvailable(const std::string& name)
{
    TypeId tid;
    const std::string type = RanStackTypeName(name);
    return !type.empty() && TypeId::LookupByNameFailSafe(type, &tid);
}

Ptr<RanStack>
CreateRanStack(const std::string& name, const std::string& field)
{
    const std::string type = RanStackTypeName(name);
    if (type.empty())
    {
        NS_FATAL_ERROR(field << " = " << name << " is invalid; allowed: lte or nr");
    }
    if (!IsRanStackAvailable(name))
    {
        NS_FATAL_ERROR(field << " = " << name
                             << ": this build of edge-llm has no NR support; build it in an ns-3 "
                                "tree with 5G-LENA's nr module at contrib/nr, both enabled "
                                "(the build says whether NR support is on)");
    }
    ObjectFactory factory;
    factory.SetTypeId(type);
    return factory.Create<RanStack>();
}

std::string
ToString(HandoverTrigger trigger)
{
    switch (trigger)
    {
    case HandoverTrigger::NONE:
        return "none";
    case HandoverTrigger::A3:
        return "a3";
    case HandoverTrigger::A2A4:
        return "a2a4";
    case HandoverTrigger::PLANNED:
        return "planned";
    }
    return "?";
}

TypeId
RanStack::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RanStack")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddAttribute(
                "RequestRetry",
                "How long a requested handover whose UE is not ready is put off before it is "
                "tried again, (0, 1 s].",
                TimeValue(MilliSeconds(5)),
                MakeTimeAccessor(&RanStack::m_retry),
                edgellm::MakeExplainingChecker(
                    MakeTimeChecker(),
                    "ns3::RanStack::RequestRetry",
                    "a time in (0, 1 s]",
                    [](const AttributeValue& v) {
                        const Time t = static_cast<const TimeValue&>(v).Get();
                        return t.IsStrictlyPositive() && t <= Seconds(1) ? "" : "out of range";
                    }));
    return tid;
}

TypeId
RanStack::AddSharedAttributes(TypeId tid, const SharedAttributeText& text)
{
    const std::string& t = text.typeName;
    return tid
        .AddAttribute("S1uLinkDelay",
                      "One-way delay of each " + text.cell + "'s S1-U link to " + text.core +
                          " (>= 0).",
                      TimeValue(Seconds(0)),
                      MakeTimeAccessor(&RanStack::m_s1uDelay),
                      edgellm::MakeTimeNotNegativeChecker(t + "::S1uLinkDelay", true))
        .AddAttribute("X2LinkDelay",
                      "One-way delay of each X2 link, the path of handover signalling and of "
                      "the source's forwarded data (>= 0).",
                      TimeValue(Seconds(0)),
                      MakeTimeAccessor(&RanStack::m_x2Delay),
                      edgellm::MakeTimeNotNegativeChecker(t + "::X2LinkDelay", true))
        .AddAttribute("UplinkLinkDelay",
                      "One-way delay of the link from each " + text.cell +
                          " to the PGW that carries the UEs' prompts and acknowledgements to "
                          "its server (>= 0).",
                      TimeValue(MilliSeconds(1)),
                      MakeTimeAccessor(&RanStack::m_uplinkDelay),
                      edgellm::MakeTimeNotNegativeChecker(t + "::UplinkLinkDelay", true))
        .AddAttribute("A3Hysteresis",
                      "Hysteresis of " + text.a3 + ", dB, [0, 15] (" + text.spec + ").",
                      DoubleValue(2.0),
                      MakeDoubleAccessor(&RanStack::m_a3Hysteresis),
                      edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(0.0, 15.0),
                                                     t + "::A3Hysteresis",
                                                     "a number of dB in [0, 15]"))
        .AddAttribute("A3TimeToTrigger",
                      "Time to trigger of " + text.a3 + ", [0, 5120 ms] (" + text.spec + ").",
                      TimeValue(MilliSeconds(40)),
                      MakeTimeAccessor(&RanStack::m_a3TimeToTrigger),
                      edgellm::MakeTimeRangeChecker(t + "::A3TimeToTrigger",
                                                    MilliSeconds(5120),
                                                    "a time in [0, 5120 ms]"));
}

RanStack::RanStack() = default;

RanStack::~RanStack() = default;

void
RanStack::DoDispose()
{
    for (Request& r : m_requests)
    {
        r.event.Cancel();
    }
    m_cells = NetDeviceContainer();
    m_requests.clear();
    Object::DoDispose();
}

void
RanStack::RequestHandover(Ptr<NetDevice> ue,
                          Ptr<NetDevice> source,
                          uint16_t targetCellId,
                          Time giveUp,
                          Callback<void, RequestOutcome> done)
{
    NS_ABORT_MSG_IF(!ue || !source, "RanStack::RequestHandover: no UE or no source device");
    m_requests.push_back({ue, source, targetCellId, giveUp, done, EventId()});
    TryRequest(m_requests.size() - 1);
}

void
RanStack::TryRequest(std::size_t id)
{
    Request& r = m_requests[id];
    switch (GetReadiness(r.ue, r.source))
    {
    case READY:
        DoRequestHandover(r.ue, r.source, r.target);
        Finish(id, REQUESTED);
        return;
    case ELSEWHERE:
        NS_LOG_WARN("IMSI " << GetImsi(r.ue) << " is not served by cell " << GetCellId(r.source)
                            << " when its handover is due: not handed over");
        Finish(id, SERVED_ELSEWHERE);
        return;
    case NOT_YET:
        break;
    }
    if (Simulator::Now() + m_retry > r.giveUp)
    {
        NS_LOG_WARN("IMSI " << GetImsi(r.ue) << " did not get ready for a handover out of cell "
                            << GetCellId(r.source) << " in time: not handed over");
        Finish(id, NOT_READY);
        return;
    }
    NS_LOG_INFO("IMSI " << GetImsi(r.ue) << " not ready for its handover; retrying");
    ++m_retries;
    r.event = Simulator::Schedule(m_retry, &RanStack::TryRequest, this, id);
}

void
RanStack::Finish(std::size_t id, RequestOutcome outcome)
{
    Request& r = m_requests[id];
    if (outcome != REQUESTED)
    {
        ++m_dropped;
    }
    Callback<void, RequestOutcome> done = r.done;
    r.ue = nullptr;
    r.source = nullptr;
    r.done = MakeNullCallback<void, RequestOutcome>();
    if (!done.IsNull())
    {
        done(outcome);
    }
}

uint32_t
RanStack::GetRequestRetries() const
{
    return m_retries;
}

uint32_t
RanStack::GetRequestsDropped() const
{
    return m_dropped;
}

void
RanStack::SetTrigger(HandoverTrigger trigger)
{
    NS_ABORT_MSG_IF(m_cells.GetN() > 0,
                    GetInstanceTypeId().GetName() << "::SetTrigger: call it before InstallCells");
    m_trigger = trigger;
    DoSetTrigger(trigger);
}

HandoverTrigger
RanStack::GetTrigger() const
{
    return m_trigger;
}

bool
RanStack::IsRanTriggered() const
{
    return m_trigger == HandoverTrigger::A3 || m_trigger == HandoverTrigger::A2A4;
}

void
RanStack::AddCells(const NetDeviceContainer& devices)
{
    m_cells.Add(devices);
}

const NetDeviceContainer&
RanStack::GetCells() const
{
    return m_cells;
}

void
RanStack::InstallUeInternet(const NodeContainer& nodes, const NetDeviceContainer& devices)
{
    InternetStackHelper internet;
    internet.Install(nodes);
    AssignUeAddresses(devices);
    const Ipv4Address gateway = GetUeGateway();
    Ipv4StaticRoutingHelper routing;
    for (uint32_t j = 0; j < nodes.GetN(); ++j)
    {
        routing.GetStaticRouting(nodes.Get(j)->GetObject<Ipv4>())->SetDefaultRoute(gateway, 1);
    }
}

Ipv4InterfaceContainer
RanStack::InstallUplinkRoutes(const NodeContainer& nodes)
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        NS_ABORT_MSG_UNLESS((*it)->GetNDevices() > 0 &&
                                std::find(m_cells.Begin(), m_cells.End(), (*it)->GetDevice(0)) !=
                                    m_cells.End(),
                            GetInstanceTypeId().GetName()
                                << "::InstallUplinkRoutes: node " << (*it)->GetId()
                                << " has no cell of this stack as device 0; install the cells "
                                   "and X2 first");
    }
    CoreUplinkRoutes routes;
    routes.SetChannelAttribute("Delay", TimeValue(m_uplinkDelay));
    return routes.Install(GetPgwNode(), GetUeGateway(), nodes);
}

bool
RanStack::IsUeConnected(Ptr<NetDevice> ue) const
{
    const uint16_t cellId = GetUeRrcState(ue).cellId;
    for (uint32_t i = 0; i < m_cells.GetN(); ++i)
    {
        if (GetCellId(m_cells.Get(i)) == cellId)
        {
            return GetReadiness(ue, m_cells.Get(i)) == READY;
        }
    }
    return false;
}

RanStack::Readiness
RanStack::GetReadiness(Ptr<NetDevice> ue, Ptr<NetDevice> source) const
{
    const UeRrcState state = GetUeRrcState(ue);
    const bool servedBySource = state.cellId == GetCellId(source);
    if (servedBySource && state.connectedNormally && IsContextConnected(source, state.rnti))
    {
        return READY;
    }
    return state.connectedNormally && !servedBySource ? ELSEWHERE : NOT_YET;
}

} // namespace ns3
