/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-network.h"

#include "line-cell-layout.h"
#include "per-pair-backhaul-topology.h"
#include "ue-mobility.h"

#include "ns3/boolean.h"
#include "ns3/constant-velocity-mobility-model.h"
#include "ns3/double.h"
#include "ns3/edge-llm-server.h"
#include "ns3/explaining-checker.h"
#include "ns3/ipv4.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/log.h"
#include "ns3/mobility-helper.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EdgeLlmNetwork");
NS_OBJECT_ENSURE_REGISTERED(EdgeLlmNetwork);

namespace
{

/// The first random stream of the faults' loss draws: clear of the RAN's streams.
constexpr int64_t FAULT_STREAM = 10000;

std::string
Name(const std::string& attribute)
{
    return "ns3::EdgeLlmNetwork::" + attribute;
}

bool
IsFinite(const Vector& v)
{
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

/// When a UE driving at a constant velocity has crossed every cell's area it will cross.
double
CrossingHorizon(const EdgeLlmUeSpec& ue, const std::vector<Vector>& cells)
{
    double far = 0;
    for (const Vector& c : cells)
    {
        far = std::max(far, CalculateDistance(c, ue.start));
    }
    // Past twice the farthest cell and a kilometre, the UE is outside every cell's area it
    // can still enter: the areas it leaves there extend away from every other cell.
    return ue.moveStart.GetSeconds() + (2 * far + 1000) / ue.velocity.GetLength();
}

} // namespace

TypeId
EdgeLlmNetwork::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EdgeLlmNetwork")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<EdgeLlmNetwork>()
            .AddAttribute(
                "Trigger",
                "How handovers happen: a3 or a2a4 (the RAN stack's algorithms, from "
                "measurements), planned (requested when a moving UE's nearest cell "
                "changes), or none.",
                StringValue("a3"),
                MakeStringAccessor(&EdgeLlmNetwork::m_trigger),
                edgellm::MakeExplainingChecker(
                    MakeStringChecker(),
                    Name("Trigger"),
                    "a3, a2a4, planned or none",
                    [](const AttributeValue& v) {
                        HandoverTrigger t;
                        return ParseHandoverTrigger(static_cast<const StringValue&>(v).Get(), &t)
                                   ? ""
                                   : "unknown trigger";
                    }))
            .AddAttribute("SessionStart",
                          "When the first UE opens its session, unless its spec says (>= 0).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&EdgeLlmNetwork::m_sessionStart),
                          edgellm::MakeTimeNotNegativeChecker(Name("SessionStart"), true))
            .AddAttribute("SessionStagger",
                          "Gap between consecutive UEs' session starts (>= 0).",
                          TimeValue(MilliSeconds(5)),
                          MakeTimeAccessor(&EdgeLlmNetwork::m_sessionStagger),
                          edgellm::MakeTimeNotNegativeChecker(Name("SessionStagger"), true))
            .AddAttribute(
                "ResidentUesPerCell",
                "UEs standing at each cell, attached to it, each with a session [0, 1000].",
                UintegerValue(0),
                MakeUintegerAccessor(&EdgeLlmNetwork::m_residentsPerCell),
                edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(0, 1000),
                                               Name("ResidentUesPerCell"),
                                               "an integer in [0, 1000]"))
            .AddAttribute("ResidentOffset",
                          "How far from its cell, along y, each resident UE stands, in m (>= 0).",
                          DoubleValue(20),
                          MakeDoubleAccessor(&EdgeLlmNetwork::m_residentOffset),
                          edgellm::MakeFiniteNotNegativeChecker(Name("ResidentOffset"), true))
            .AddAttribute("PlannedPatience",
                          "How long a planned handover whose UE is not ready may be put off, "
                          "at most (>= 0).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&EdgeLlmNetwork::m_patience),
                          edgellm::MakeTimeNotNegativeChecker(Name("PlannedPatience"), true))
            .AddAttribute("InstallServing",
                          "Install the edge LLM servers, backhaul, clients and RAN observer; "
                          "false builds the same radio network with none of them.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EdgeLlmNetwork::m_installServing),
                          edgellm::MakeExplainingBooleanChecker(Name("InstallServing")))
            .AddAttribute(
                "UeAirtime",
                "run: every UE is on the air and attached from the start of the run to its "
                "end. session: a UE attaches AttachLead before its session opens (to the cell "
                "nearest it then) and goes off the air LeaveDelay after its session ends, once "
                "it is in no handover; off the air it hears no cell (RanStack::SetUeOnAir), so "
                "the radio's work follows the UEs with a session, not every UE of the run. "
                "Needs InstallServing.",
                StringValue("run"),
                MakeStringAccessor(&EdgeLlmNetwork::m_ueAirtime),
                edgellm::MakeExplainingChecker(
                    MakeStringChecker(),
                    Name("UeAirtime"),
                    "run or session",
                    [](const AttributeValue& v) {
                        const std::string n = static_cast<const StringValue&>(v).Get();
                        return n == "run" || n == "session" ? "" : "unknown airtime";
                    }))
            .AddAttribute("AttachLead",
                          "With UeAirtime session: how long before its session opens a UE "
                          "attaches, [0, 10 s]; an attach takes tens of ms. A UE whose session "
                          "opens sooner than this attaches at the start.",
                          TimeValue(MilliSeconds(500)),
                          MakeTimeAccessor(&EdgeLlmNetwork::m_attachLead),
                          edgellm::MakeTimeRangeChecker(Name("AttachLead"),
                                                        Seconds(10),
                                                        "a time in [0, 10 s]"))
            .AddAttribute("LeaveDelay",
                          "With UeAirtime session: how long after its session ends a UE goes "
                          "off the air, [0, 10 s], so that its last acknowledgements leave.",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&EdgeLlmNetwork::m_leaveDelay),
                          edgellm::MakeTimeRangeChecker(Name("LeaveDelay"),
                                                        Seconds(10),
                                                        "a time in [0, 10 s]"))
            .AddTraceSource("AirChange",
                            "With UeAirtime session, a UE came on the air (its attach) or went "
                            "off it: (IMSI, on the air).",
                            MakeTraceSourceAccessor(&EdgeLlmNetwork::m_airChange),
                            "ns3::EdgeLlmNetwork::AirChangeCallback");
    return tid;
}

EdgeLlmNetwork::EdgeLlmNetwork()
    : m_stack(CreateRanStack("lte")),
      m_layout(CreateObject<LineCellLayout>()),
      m_topology(CreateObject<PerPairBackhaulTopology>()),
      m_edge(CreateObject<EdgeLlmHelper>())
{
}

EdgeLlmNetwork::~EdgeLlmNetwork() = default;

void
EdgeLlmNetwork::DoDispose()
{
    if (m_stack)
    {
        m_stack->Dispose();
    }
    m_stack = nullptr;
    m_layout = nullptr;
    m_topology = nullptr;
    m_edge = nullptr;
    m_observer = nullptr;
    m_faults.reset();
    Object::DoDispose();
}

void
EdgeLlmNetwork::SetRanStack(Ptr<RanStack> stack)
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmNetwork::SetRanStack: call it before Build()");
    NS_ABORT_MSG_IF(!stack, "EdgeLlmNetwork::SetRanStack: no stack");
    m_stack = stack;
}

void
EdgeLlmNetwork::SetCellLayout(Ptr<CellLayout> layout)
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmNetwork::SetCellLayout: call it before Build()");
    NS_ABORT_MSG_IF(!layout, "EdgeLlmNetwork::SetCellLayout: no layout");
    m_layout = layout;
}

void
EdgeLlmNetwork::SetBackhaulTopology(Ptr<BackhaulTopology> topology)
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmNetwork::SetBackhaulTopology: call it before Build()");
    NS_ABORT_MSG_IF(!topology, "EdgeLlmNetwork::SetBackhaulTopology: no topology");
    m_topology = topology;
}

void
EdgeLlmNetwork::AddUe(const EdgeLlmUeSpec& spec)
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmNetwork::AddUe: call it before Build()");
    const std::size_t j = m_ues.size();
    NS_ABORT_MSG_IF(spec.moveStart.IsStrictlyNegative(),
                    "EdgeLlmNetwork::AddUe: UE " << j
                                                 << "'s moveStart = " << spec.moveStart.As(Time::S)
                                                 << " is invalid; allowed: a time >= 0");
    NS_ABORT_MSG_IF(!IsFinite(spec.start) || !IsFinite(spec.velocity),
                    "EdgeLlmNetwork::AddUe: UE " << j << "'s start " << spec.start
                                                 << " or velocity " << spec.velocity
                                                 << " is invalid; allowed: finite, in m and m/s");
    m_ues.push_back(spec);
}

void
EdgeLlmNetwork::SetFaults(const FaultConfig& faults)
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmNetwork::SetFaults: call it before Build()");
    const std::string error = faults.Check();
    NS_ABORT_MSG_IF(!error.empty(), "EdgeLlmNetwork::SetFaults: " << error);
    m_faultConfig = faults;
    m_hasFaults = true;
}

void
EdgeLlmNetwork::Build()
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmNetwork::Build: called twice");
    m_built = true;
    HandoverTrigger trigger = HandoverTrigger::NONE;
    ParseHandoverTrigger(m_trigger, &trigger);
    m_stack->SetTrigger(trigger);

    const std::vector<Vector> cells = m_layout->GetCellPositions();
    const uint32_t cellCount = cells.size();
    NS_ABORT_MSG_IF(cellCount == 0, "EdgeLlmNetwork::Build: the cell layout has no cells");
    const uint32_t moving = m_ues.size();
    const uint32_t ueTotal = moving + m_residentsPerCell * cellCount;
    m_cellNodes.Create(cellCount);
    m_ueNodes.Create(ueTotal);

    MobilityHelper cellMobility;
    Ptr<ListPositionAllocator> cellPositions = CreateObject<ListPositionAllocator>();
    for (const Vector& c : cells)
    {
        cellPositions->Add(c);
    }
    cellMobility.SetPositionAllocator(cellPositions);
    cellMobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    cellMobility.Install(m_cellNodes);

    NodeContainer driving;
    NodeContainer resident;
    for (uint32_t j = 0; j < ueTotal; ++j)
    {
        if (j >= moving)
        {
            resident.Add(m_ueNodes.Get(j));
        }
        else if (m_ues[j].route.empty())
        {
            driving.Add(m_ueNodes.Get(j));
        }
    }
    MobilityHelper ueMobility;
    ueMobility.SetMobilityModel("ns3::ConstantVelocityMobilityModel");
    ueMobility.Install(driving);
    for (uint32_t j = 0; j < moving; ++j)
    {
        const EdgeLlmUeSpec& ue = m_ues[j];
        if (!ue.route.empty())
        {
            const UeTrajectory route(ue.route);
            InstallTrajectory(m_ueNodes.Get(j), route);
            m_firstCell.push_back(m_layout->GetNearestCell(route.GetPosition(0)));
            continue;
        }
        Ptr<ConstantVelocityMobilityModel> m =
            m_ueNodes.Get(j)->GetObject<ConstantVelocityMobilityModel>();
        m->SetPosition(ue.start);
        if (ue.moveStart.IsZero())
        {
            m->SetVelocity(ue.velocity);
        }
        else
        {
            Simulator::Schedule(ue.moveStart,
                                &ConstantVelocityMobilityModel::SetVelocity,
                                m,
                                ue.velocity);
        }
        m_firstCell.push_back(m_layout->GetNearestCell(ue.start));
    }
    MobilityHelper residentMobility;
    Ptr<ListPositionAllocator> residentPositions = CreateObject<ListPositionAllocator>();
    for (uint32_t i = 0; i < cellCount; ++i)
    {
        for (uint32_t k = 0; k < m_residentsPerCell; ++k)
        {
            residentPositions->Add(cells[i] + Vector(0, m_residentOffset, 0));
            m_firstCell.push_back(i);
        }
    }
    residentMobility.SetPositionAllocator(residentPositions);
    residentMobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    residentMobility.Install(resident);

    m_cellDevices = m_stack->InstallCells(m_cellNodes);
    m_ueDevices = m_stack->InstallUes(m_ueNodes);
    for (uint32_t i = 0; i < cellCount; ++i)
    {
        m_cellIds.push_back(m_stack->GetCellId(m_cellDevices.Get(i)));
    }
    const std::vector<std::pair<uint32_t, uint32_t>> pairs = m_layout->GetNeighbourPairs();
    for (const auto& [a, b] : pairs)
    {
        m_stack->AddX2(m_cellNodes.Get(a), m_cellNodes.Get(b));
    }

    m_stack->InstallUeInternet(m_ueNodes, m_ueDevices);
    // A UE's airtime follows its session, so it needs a client to end one.
    NS_ABORT_MSG_IF(m_ueAirtime == "session" && !m_installServing,
                    "EdgeLlmNetwork::Build: UeAirtime = session needs InstallServing = true");
    if (m_ueAirtime == "session")
    {
        m_airtime = std::make_unique<UeAirtime>(m_stack, m_leaveDelay, &m_airChange);
    }
    std::vector<uint16_t> firstCells;
    for (uint32_t j = 0; j < ueTotal; ++j)
    {
        if (m_airtime)
        {
            const Time attach = std::max(Time(0), SessionStartOf(j) - m_attachLead);
            m_firstCell[j] = NearestCellAt(j, attach);
            m_airtime->Add(m_ueDevices.Get(j), m_cellDevices.Get(m_firstCell[j]), attach);
        }
        else
        {
            m_stack->Attach(m_ueDevices.Get(j), m_cellDevices.Get(m_firstCell[j]));
        }
        firstCells.push_back(m_cellIds[m_firstCell[j]]);
    }
    if (trigger == HandoverTrigger::PLANNED)
    {
        PlanHandovers();
    }

    // Faults act on the serving parts: without them, asked-for faults would silently vanish.
    NS_ABORT_MSG_IF(m_hasFaults && !m_installServing,
                    "EdgeLlmNetwork::Build: SetFaults needs InstallServing = true");
    if (!m_installServing)
    {
        return;
    }
    m_servers = m_edge->InstallServers(m_stack, m_cellNodes, m_cellDevices);
    m_paths = m_topology->Install(m_cellNodes, pairs);
    for (const BackhaulPath& p : m_paths)
    {
        m_edge->InstallBackhaulPeering(p.nodeA, p.addressA, p.nodeB, p.addressB, p.rate);
    }
    for (const ControllerAttachment& a : m_topology->GetControllerAttachments())
    {
        m_edge->AddControllerLink(m_topology->GetControllerNode(),
                                  a.cell,
                                  a.cellAddress,
                                  a.controllerAddress);
    }
    m_clients = m_edge->InstallClients(m_ueDevices, firstCells);
    for (uint32_t j = 0; j < ueTotal; ++j)
    {
        m_clients.Get(j)->SetStartTime(SessionStartOf(j));
        if (m_airtime)
        {
            m_clients.Get(j)->TraceConnectWithoutContext(
                "SessionComplete",
                Callback<void, uint64_t>([this, j](uint64_t) { m_airtime->SessionEnded(j); }));
        }
    }
    m_observer = m_edge->InstallObserver(m_cellDevices);
    if (m_airtime)
    {
        const Callback<void, uint64_t, uint16_t> back(
            [this](uint64_t imsi, uint16_t) { m_airtime->Reconnected(imsi); });
        m_observer->TraceConnectWithoutContext("HandoverDone", back);
        m_observer->TraceConnectWithoutContext("Reattached", back);
    }
    if (m_hasFaults)
    {
        std::vector<Ptr<LlmEngine>> engines;
        for (uint32_t i = 0; i < m_servers.GetN(); ++i)
        {
            engines.push_back(DynamicCast<EdgeLlmServer>(m_servers.Get(i))->GetEngine());
        }
        m_faults = std::make_unique<FaultInjection>();
        m_faults->Install(m_faultConfig,
                          GetBackhaulLinks(),
                          m_edge->GetCoordinator(),
                          engines,
                          FAULT_STREAM);
    }
}

void
EdgeLlmNetwork::PlanHandovers()
{
    const std::vector<Vector> cells = m_layout->GetCellPositions();
    std::set<std::pair<uint32_t, uint32_t>> x2;
    for (const auto& [a, b] : m_layout->GetNeighbourPairs())
    {
        x2.insert({std::min(a, b), std::max(a, b)});
    }
    for (uint32_t j = 0; j < m_ues.size(); ++j)
    {
        const EdgeLlmUeSpec& ue = m_ues[j];
        double end = 0;
        std::vector<UeWaypoint> waypoints = ue.route;
        if (waypoints.empty())
        {
            if (ue.velocity.GetLength() <= 0)
            {
                continue; // it crosses nothing
            }
            end = CrossingHorizon(ue, cells);
            waypoints =
                ConstantVelocityTrajectory(ue.start, ue.velocity, ue.moveStart.GetSeconds(), end)
                    .GetWaypoints();
        }
        else
        {
            end = waypoints.back().timeS;
        }
        const UeTrajectory path(waypoints);
        const uint64_t imsi = m_stack->GetImsi(m_ueDevices.Get(j));
        bool first = true;
        for (const PlannedCrossing& c : FindNearestCellChanges(path, *m_layout, 0, end))
        {
            const Time t = Seconds(c.timeS);
            // Put off for at most PlannedPatience, and never past the UE's next crossing.
            if (!first)
            {
                m_giveUp.back() = std::min(m_giveUp.back(), t);
            }
            first = false;
            m_planned.push_back({j, imsi, t, m_cellIds[c.fromCell], m_cellIds[c.toCell]});
            m_plannedSource.push_back(c.fromCell);
            m_giveUp.push_back(t + m_patience);
            if (!x2.count({std::min(c.fromCell, c.toCell), std::max(c.fromCell, c.toCell)}))
            {
                NS_LOG_WARN("IMSI " << imsi << " crosses from cell " << m_cellIds[c.fromCell]
                                    << " into cell " << m_cellIds[c.toCell]
                                    << ", which is not its X2 neighbour: not handed over");
                m_giveUp.back() = Time(-1);
            }
        }
    }
    for (std::size_t h = 0; h < m_planned.size(); ++h)
    {
        Simulator::Schedule(m_planned[h].time, &EdgeLlmNetwork::RequestPlanned, this, h);
    }
}

Time
EdgeLlmNetwork::SessionStartOf(uint32_t j) const
{
    return j < m_ues.size() && !m_ues[j].sessionStart.IsStrictlyNegative()
               ? m_ues[j].sessionStart
               : m_sessionStart + m_sessionStagger * static_cast<int64_t>(j);
}

uint32_t
EdgeLlmNetwork::NearestCellAt(uint32_t j, Time t) const
{
    if (j >= m_ues.size())
    {
        return m_firstCell[j]; // a resident stands at its cell
    }
    const EdgeLlmUeSpec& ue = m_ues[j];
    if (!ue.route.empty())
    {
        return m_layout->GetNearestCell(UeTrajectory(ue.route).GetPosition(t.GetSeconds()));
    }
    // A negative Time is not converted: ns-3's int64x64_t shifts its sign bit.
    const double moving = t > ue.moveStart ? (t - ue.moveStart).GetSeconds() : 0.0;
    return m_layout->GetNearestCell(
        ue.start + Vector(ue.velocity.x * moving, ue.velocity.y * moving, ue.velocity.z * moving));
}

void
EdgeLlmNetwork::RequestPlanned(std::size_t h)
{
    if (m_airtime && !m_airtime->IsOnAir(m_planned[h].ue))
    {
        // Off the air it measures nothing, and would fail the handover's random access.
        ++m_plannedOffAir;
        return;
    }
    if (m_giveUp[h].IsStrictlyNegative())
    {
        ++m_plannedDropped;
        return;
    }
    m_stack->RequestHandover(m_ueDevices.Get(m_planned[h].ue),
                             m_cellDevices.Get(m_plannedSource[h]),
                             m_planned[h].targetCell,
                             m_giveUp[h],
                             MakeCallback(&EdgeLlmNetwork::PlannedDone, this));
}

void
EdgeLlmNetwork::PlannedDone(RanStack::RequestOutcome outcome)
{
    if (outcome != RanStack::REQUESTED)
    {
        ++m_plannedDropped;
    }
}

int64_t
EdgeLlmNetwork::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(!m_built, "EdgeLlmNetwork::AssignStreams: call Build() first");
    int64_t used = m_stack->AssignStreams(m_cellDevices, stream);
    used += m_stack->AssignStreams(m_ueDevices, stream + used);
    return used;
}

const std::vector<EdgeLlmPlannedHandover>&
EdgeLlmNetwork::GetPlannedHandovers() const
{
    return m_planned;
}

uint32_t
EdgeLlmNetwork::GetPlannedRetries() const
{
    return m_stack->GetRequestRetries();
}

uint32_t
EdgeLlmNetwork::GetPlannedDropped() const
{
    return m_plannedDropped;
}

uint32_t
EdgeLlmNetwork::GetPlannedOffAir() const
{
    return m_plannedOffAir;
}

const UeAirtime*
EdgeLlmNetwork::GetUeAirtime() const
{
    return m_airtime.get();
}

uint32_t
EdgeLlmNetwork::GetMovingUeCount() const
{
    return m_ues.size();
}

Ptr<RanStack>
EdgeLlmNetwork::GetRanStack() const
{
    return m_stack;
}

Ptr<CellLayout>
EdgeLlmNetwork::GetCellLayout() const
{
    return m_layout;
}

Ptr<BackhaulTopology>
EdgeLlmNetwork::GetBackhaulTopology() const
{
    return m_topology;
}

Ptr<EdgeLlmHelper>
EdgeLlmNetwork::GetEdgeLlmHelper() const
{
    return m_edge;
}

const NodeContainer&
EdgeLlmNetwork::GetCellNodes() const
{
    return m_cellNodes;
}

const NodeContainer&
EdgeLlmNetwork::GetUeNodes() const
{
    return m_ueNodes;
}

const NetDeviceContainer&
EdgeLlmNetwork::GetCellDevices() const
{
    return m_cellDevices;
}

const NetDeviceContainer&
EdgeLlmNetwork::GetUeDevices() const
{
    return m_ueDevices;
}

const std::vector<uint16_t>&
EdgeLlmNetwork::GetCellIds() const
{
    return m_cellIds;
}

const ApplicationContainer&
EdgeLlmNetwork::GetServers() const
{
    return m_servers;
}

const ApplicationContainer&
EdgeLlmNetwork::GetClients() const
{
    return m_clients;
}

const std::vector<BackhaulPath>&
EdgeLlmNetwork::GetBackhaulPaths() const
{
    return m_paths;
}

Ptr<RanObserver>
EdgeLlmNetwork::GetObserver() const
{
    return m_observer;
}

std::vector<BackhaulLink>
EdgeLlmNetwork::GetBackhaulLinks() const
{
    std::vector<BackhaulLink> links;
    if (!m_observer)
    {
        return links;
    }
    // A topology names its links by their devices; cross traffic needs the nodes and the
    // addresses at each end too.
    const auto addressOf = [](Ptr<NetDevice> device) {
        Ptr<Ipv4> ip = device->GetNode()->GetObject<Ipv4>();
        const int32_t interface = ip ? ip->GetInterfaceForDevice(device) : -1;
        NS_ABORT_MSG_IF(interface < 0 || ip->GetNAddresses(interface) == 0,
                        "EdgeLlmNetwork: a backhaul device has no IPv4 address");
        return ip->GetAddress(interface, 0).GetLocal();
    };
    for (const BackhaulSegment& segment : m_topology->GetSegments())
    {
        BackhaulLink link;
        link.devices = segment.devices;
        link.nodeA = segment.devices.Get(0)->GetNode();
        link.nodeB = segment.devices.Get(1)->GetNode();
        link.addressA = addressOf(segment.devices.Get(0));
        link.addressB = addressOf(segment.devices.Get(1));
        links.push_back(link);
    }
    return links;
}

FaultCounts
EdgeLlmNetwork::GetFaultCounts() const
{
    return m_faults ? m_faults->GetCounts() : FaultCounts();
}

KvTransferSenderCounters
EdgeLlmNetwork::GetKvSent(uint64_t imsi) const
{
    KvTransferSenderCounters sum;
    for (Ptr<KvTransferSender> sender : m_edge->GetKvSenders())
    {
        sum += sender->GetCounters(imsi);
    }
    return sum;
}

KvTransferReceiverCounters
EdgeLlmNetwork::GetKvReceived(uint64_t imsi) const
{
    KvTransferReceiverCounters sum;
    for (const auto& [cell, app] : m_edge->GetKvTransfers())
    {
        sum += app->GetReceiver()->GetCounters(imsi);
    }
    return sum;
}

uint64_t
EdgeLlmNetwork::GetKvStreamBytesSent() const
{
    uint64_t sum = 0;
    for (Ptr<KvTransferSender> sender : m_edge->GetKvSenders())
    {
        sum += sender->GetStreamBytesSent();
    }
    return sum;
}

uint64_t
EdgeLlmNetwork::GetKvStreamBytesReceived() const
{
    uint64_t sum = 0;
    for (const auto& [cell, app] : m_edge->GetKvTransfers())
    {
        sum += app->GetReceiver()->GetStreamBytesReceived();
    }
    return sum;
}

} // namespace ns3
