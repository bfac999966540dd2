/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-line-scenario.h"

#include "ns3/boolean.h"
#include "ns3/constant-velocity-mobility-model.h"
#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/log.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-enb-rrc.h"
#include "ns3/lte-ue-net-device.h"
#include "ns3/lte-ue-phy.h"
#include "ns3/lte-ue-rrc.h"
#include "ns3/mobility-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EdgeLlmLineScenario");
NS_OBJECT_ENSURE_REGISTERED(EdgeLlmLineScenario);

namespace
{
std::string
Name(const std::string& attribute)
{
    return "ns3::EdgeLlmLineScenario::" + attribute;
}
} // namespace

TypeId
EdgeLlmLineScenario::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EdgeLlmLineScenario")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<EdgeLlmLineScenario>()
            .AddAttribute("EnbCount",
                          "eNBs along the line [1, 64].",
                          UintegerValue(3),
                          MakeUintegerAccessor(&EdgeLlmLineScenario::m_enbCount),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 64),
                                                         "ns3::EdgeLlmLineScenario::EnbCount",
                                                         "an integer in [1, 64]"))
            .AddAttribute("EnbSpacing",
                          "Distance between neighbouring eNBs, in m (> 0).",
                          DoubleValue(500),
                          MakeDoubleAccessor(&EdgeLlmLineScenario::m_enbSpacing),
                          edgellm::MakeFiniteNotNegativeChecker(Name("EnbSpacing"), false))
            .AddAttribute("UeCount",
                          "UEs, one session each [1, 200].",
                          UintegerValue(1),
                          MakeUintegerAccessor(&EdgeLlmLineScenario::m_ueCount),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 200),
                                                         "ns3::EdgeLlmLineScenario::UeCount",
                                                         "an integer in [1, 200]"))
            .AddAttribute("UeStartX",
                          "Where the first UE starts along the line, in m (>= 0).",
                          DoubleValue(100),
                          MakeDoubleAccessor(&EdgeLlmLineScenario::m_ueStartX),
                          edgellm::MakeFiniteNotNegativeChecker(Name("UeStartX"), true))
            .AddAttribute("UeStartSpacing",
                          "Gap between consecutive UEs' starts, in m (>= 0).",
                          DoubleValue(10),
                          MakeDoubleAccessor(&EdgeLlmLineScenario::m_ueStartSpacing),
                          edgellm::MakeFiniteNotNegativeChecker(Name("UeStartSpacing"), true))
            .AddAttribute("UeY",
                          "The UEs' distance from the line of eNBs, in m (>= 0).",
                          DoubleValue(20),
                          MakeDoubleAccessor(&EdgeLlmLineScenario::m_ueY),
                          edgellm::MakeFiniteNotNegativeChecker(Name("UeY"), true))
            .AddAttribute("UeSpeed",
                          "The UEs' speed along the line, in m/s (>= 0).",
                          DoubleValue(20),
                          MakeDoubleAccessor(&EdgeLlmLineScenario::m_ueSpeed),
                          edgellm::MakeFiniteNotNegativeChecker(Name("UeSpeed"), true))
            .AddAttribute("Trigger",
                          "How handovers happen: a3 (A3-RSRP from measurements), none, or "
                          "boundary (requested when a UE crosses the midpoint between two "
                          "neighbouring eNBs).",
                          StringValue("a3"),
                          MakeStringAccessor(&EdgeLlmLineScenario::m_trigger),
                          edgellm::MakeExplainingChecker(
                              MakeStringChecker(),
                              "ns3::EdgeLlmLineScenario::Trigger",
                              "a3, none or boundary",
                              [](const AttributeValue& v) {
                                  const std::string t = static_cast<const StringValue&>(v).Get();
                                  return t == "a3" || t == "none" || t == "boundary"
                                             ? ""
                                             : "unknown trigger";
                              }))
            .AddAttribute("SessionStart",
                          "When the first UE opens its session (>= 0).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&EdgeLlmLineScenario::m_sessionStart),
                          edgellm::MakeTimeNotNegativeChecker(Name("SessionStart"), true))
            .AddAttribute("SessionStagger",
                          "Gap between consecutive UEs' session starts (>= 0).",
                          TimeValue(MilliSeconds(5)),
                          MakeTimeAccessor(&EdgeLlmLineScenario::m_sessionStagger),
                          edgellm::MakeTimeNotNegativeChecker(Name("SessionStagger"), true))
            .AddAttribute("SrsPeriodicity",
                          "SRS periodicity of every eNB: 0 picks one from UeCount (ns-3 aborts "
                          "with more than about 32 UEs in a cell at its default 40), else one "
                          "of 2, 5, 10, 20, 40, 80, 160, 320.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EdgeLlmLineScenario::m_srsPeriodicity),
                          edgellm::MakeExplainingChecker(
                              MakeUintegerChecker<uint16_t>(),
                              "ns3::EdgeLlmLineScenario::SrsPeriodicity",
                              "0, 2, 5, 10, 20, 40, 80, 160 or 320",
                              [](const AttributeValue& v) {
                                  const auto p = static_cast<const UintegerValue&>(v).Get();
                                  for (uint64_t ok : {0, 2, 5, 10, 20, 40, 80, 160, 320})
                                  {
                                      if (p == ok)
                                      {
                                          return "";
                                      }
                                  }
                                  return "not a periodicity LTE defines";
                              }))
            .AddAttribute(
                "CqiPeriodicity",
                "How often every UE reports its downlink CQI, [1 ms, 160 ms]. LTE configures "
                "periodic CQI reports between 2 and 160 ms; 1 ms is ns-3's own default, at "
                "which each UE runs the MI error model over every resource block every other "
                "subframe, most of the run time of a small network.",
                TimeValue(MilliSeconds(10)),
                MakeTimeAccessor(&EdgeLlmLineScenario::m_cqiPeriodicity),
                edgellm::MakeExplainingChecker(
                    MakeTimeChecker(),
                    "ns3::EdgeLlmLineScenario::CqiPeriodicity",
                    "a time in [1 ms, 160 ms]",
                    [](const AttributeValue& v) {
                        const Time t = static_cast<const TimeValue&>(v).Get();
                        return t >= MilliSeconds(1) && t <= MilliSeconds(160) ? "" : "out of range";
                    }))
            .AddAttribute("MoveStart",
                          "When the moving UEs start driving at UeSpeed; they stand still "
                          "before (>= 0).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&EdgeLlmLineScenario::m_moveStart),
                          edgellm::MakeTimeNotNegativeChecker(Name("MoveStart"), true))
            .AddAttribute(
                "ResidentUesPerEnb",
                "UEs standing at each eNB, attached to it, each with a session like "
                "the moving UEs' [0, 1000].",
                UintegerValue(0),
                MakeUintegerAccessor(&EdgeLlmLineScenario::m_residentsPerEnb),
                edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(0, 1000),
                                               "ns3::EdgeLlmLineScenario::ResidentUesPerEnb",
                                               "an integer in [0, 1000]"))
            .AddAttribute("InstallServing",
                          "Install the edge LLM servers, backhaul links, clients and RAN "
                          "observer; false builds the same LTE network with none of them.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EdgeLlmLineScenario::m_installServing),
                          MakeBooleanChecker());
    return tid;
}

EdgeLlmLineScenario::EdgeLlmLineScenario()
    : m_lte(CreateObject<LteHelper>()),
      m_epc(CreateObject<PointToPointEpcHelper>()),
      m_edge(CreateObject<EdgeLlmHelper>()),
      m_backhaul(CreateObject<BackhaulHelper>())
{
}

EdgeLlmLineScenario::~EdgeLlmLineScenario() = default;

void
EdgeLlmLineScenario::DoDispose()
{
    for (PendingCrossing& pending : m_pending)
    {
        pending.event.Cancel();
    }
    m_pending.clear();
    m_lte = nullptr;
    m_epc = nullptr;
    m_edge = nullptr;
    m_backhaul = nullptr;
    m_observer = nullptr;
    Object::DoDispose();
}

void
EdgeLlmLineScenario::Build()
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmLineScenario::Build: called twice");
    m_built = true;

    std::vector<double> startX;
    if (m_startPositionsSet)
    {
        NS_ABORT_MSG_IF(m_startPositions.size() != m_ueCount,
                        "EdgeLlmLineScenario::SetUeStartPositions: "
                            << m_startPositions.size()
                            << " positions, but ns3::EdgeLlmLineScenario::UeCount is " << m_ueCount
                            << "; give one per UE");
        for (std::size_t j = 0; j < m_startPositions.size(); ++j)
        {
            NS_ABORT_MSG_IF(!std::isfinite(m_startPositions[j]),
                            "EdgeLlmLineScenario::SetUeStartPositions: position "
                                << j << " is " << m_startPositions[j]
                                << "; each must be a finite x in m");
        }
        startX = m_startPositions;
    }
    else
    {
        for (uint32_t j = 0; j < m_ueCount; ++j)
        {
            startX.push_back(m_ueStartX + j * m_ueStartSpacing);
        }
    }
    const uint32_t residents = m_residentsPerEnb * m_enbCount;
    const uint32_t ueTotal = m_ueCount + residents;

    m_lte->SetEpcHelper(m_epc);
    m_lte->SetHandoverAlgorithmType(m_trigger == "a3" ? "ns3::A3RsrpHandoverAlgorithm"
                                                      : "ns3::NoOpHandoverAlgorithm");
    m_enbNodes.Create(m_enbCount);
    m_ueNodes.Create(ueTotal);

    MobilityHelper enbMobility;
    Ptr<ListPositionAllocator> enbPositions = CreateObject<ListPositionAllocator>();
    for (uint32_t i = 0; i < m_enbCount; ++i)
    {
        enbPositions->Add(Vector(i * m_enbSpacing, 0, 0));
    }
    enbMobility.SetPositionAllocator(enbPositions);
    enbMobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    enbMobility.Install(m_enbNodes);

    NodeContainer moving;
    NodeContainer resident;
    for (uint32_t j = 0; j < ueTotal; ++j)
    {
        (j < m_ueCount ? moving : resident).Add(m_ueNodes.Get(j));
    }
    MobilityHelper ueMobility;
    ueMobility.SetMobilityModel("ns3::ConstantVelocityMobilityModel");
    ueMobility.Install(moving);
    // nearest[j]: the eNB UE j attaches to, by index.
    std::vector<uint32_t> nearest;
    const Vector velocity(m_ueSpeed, 0, 0);
    for (uint32_t j = 0; j < m_ueCount; ++j)
    {
        Ptr<ConstantVelocityMobilityModel> m =
            m_ueNodes.Get(j)->GetObject<ConstantVelocityMobilityModel>();
        m->SetPosition(Vector(startX[j], m_ueY, 0));
        if (m_moveStart.IsZero())
        {
            m->SetVelocity(velocity);
        }
        else
        {
            Simulator::Schedule(m_moveStart,
                                &ConstantVelocityMobilityModel::SetVelocity,
                                m,
                                velocity);
        }
        const double index = std::round(startX[j] / m_enbSpacing);
        nearest.push_back(static_cast<uint32_t>(std::clamp<double>(index, 0, m_enbCount - 1)));
    }
    MobilityHelper residentMobility;
    Ptr<ListPositionAllocator> residentPositions = CreateObject<ListPositionAllocator>();
    for (uint32_t i = 0; i < m_enbCount; ++i)
    {
        for (uint32_t k = 0; k < m_residentsPerEnb; ++k)
        {
            residentPositions->Add(Vector(i * m_enbSpacing, m_ueY, 0));
            nearest.push_back(i);
        }
    }
    residentMobility.SetPositionAllocator(residentPositions);
    residentMobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    residentMobility.Install(resident);

    m_enbDevices = m_lte->InstallEnbDevice(m_enbNodes);
    m_ueDevices = m_lte->InstallUeDevice(m_ueNodes);
    uint16_t srs = m_srsPeriodicity;
    if (srs == 0)
    {
        // Every UE may end up in one cell.
        srs = ueTotal <= 30 ? 40 : ueTotal <= 60 ? 80 : ueTotal <= 120 ? 160 : 320;
    }
    for (uint32_t i = 0; i < m_enbDevices.GetN(); ++i)
    {
        DynamicCast<LteEnbNetDevice>(m_enbDevices.Get(i))
            ->GetRrc()
            ->SetAttribute("SrsPeriodicity", UintegerValue(srs));
    }
    for (uint32_t i = 1; i < m_enbCount; ++i)
    {
        m_lte->AddX2Interface(m_enbNodes.Get(i - 1), m_enbNodes.Get(i));
    }

    InternetStackHelper internet;
    internet.Install(m_ueNodes);
    m_epc->AssignUeIpv4Address(m_ueDevices);
    Ipv4StaticRoutingHelper routing;
    std::vector<uint16_t> firstCells;
    for (uint32_t j = 0; j < ueTotal; ++j)
    {
        routing.GetStaticRouting(m_ueNodes.Get(j)->GetObject<Ipv4>())
            ->SetDefaultRoute(m_epc->GetUeDefaultGatewayAddress(), 1);
        Ptr<NetDevice> enb = m_enbDevices.Get(nearest[j]);
        m_lte->Attach(m_ueDevices.Get(j), enb);
        firstCells.push_back(DynamicCast<LteEnbNetDevice>(enb)->GetCellId());
        Ptr<LteUePhy> phy = DynamicCast<LteUeNetDevice>(m_ueDevices.Get(j))->GetPhy();
        phy->SetAttribute("DownlinkCqiPeriodicity", TimeValue(m_cqiPeriodicity));
        if (m_trigger != "a3")
        {
            phy->SetAttribute("EnableRlfDetection", BooleanValue(false));
        }
    }
    if (m_trigger == "boundary")
    {
        PlanBoundaryCrossings(startX, nearest);
    }

    if (!m_installServing)
    {
        return;
    }
    m_servers = m_edge->InstallServers(m_epc, m_enbNodes, m_enbDevices);
    m_links = m_edge->InstallBackhaulLine(m_backhaul, m_enbNodes);
    m_clients = m_edge->InstallClients(m_ueDevices, firstCells);
    for (uint32_t j = 0; j < ueTotal; ++j)
    {
        m_clients.Get(j)->SetStartTime(m_sessionStart + m_sessionStagger * static_cast<int64_t>(j));
    }
    m_observer = m_edge->InstallObserver(m_enbDevices);
}

void
EdgeLlmLineScenario::PlanBoundaryCrossings(const std::vector<double>& startX,
                                           const std::vector<uint32_t>& firstEnb)
{
    if (m_ueSpeed <= 0)
    {
        return; // nobody crosses anything
    }
    for (uint32_t j = 0; j < m_ueCount; ++j)
    {
        Ptr<LteUeNetDevice> ue = DynamicCast<LteUeNetDevice>(m_ueDevices.Get(j));
        // The first midpoint ahead is the one past the first eNB: the UE attached to the eNB
        // nearest to it, so it is behind that midpoint (UeSpeed is never negative).
        for (uint32_t i = firstEnb[j]; i + 1 < m_enbCount; ++i)
        {
            const double distance = std::max(0.0, (i + 0.5) * m_enbSpacing - startX[j]);
            const Time t = m_moveStart + Seconds(distance / m_ueSpeed);
            Ptr<LteEnbNetDevice> source = DynamicCast<LteEnbNetDevice>(m_enbDevices.Get(i));
            Ptr<LteEnbNetDevice> target = DynamicCast<LteEnbNetDevice>(m_enbDevices.Get(i + 1));
            m_crossings.push_back({j, ue->GetImsi(), t, source->GetCellId(), target->GetCellId()});
            // Put off for at most a second, and never past the UE's next crossing.
            if (!m_pending.empty() && m_crossings[m_pending.size() - 1].ue == j)
            {
                m_pending.back().giveUp = std::min(m_pending.back().giveUp, t);
            }
            m_pending.push_back({source, t + MilliSeconds(CROSSING_PATIENCE_MS), EventId()});
        }
    }
    for (std::size_t c = 0; c < m_pending.size(); ++c)
    {
        m_pending[c].event = Simulator::Schedule(m_crossings[c].time,
                                                 &EdgeLlmLineScenario::RequestCrossing,
                                                 this,
                                                 c);
    }
}

void
EdgeLlmLineScenario::SetUeStartPositions(const std::vector<double>& x)
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmLineScenario::SetUeStartPositions: call it before Build()");
    m_startPositions = x;
    m_startPositionsSet = true;
}

void
EdgeLlmLineScenario::RequestCrossing(std::size_t c)
{
    // ns-3 crashes on a handover request for a UE that is not connected normally at both
    // ends, so one that is still attaching or handing over is asked again shortly.
    PendingCrossing& pending = m_pending[c];
    Ptr<LteUeNetDevice> ue = DynamicCast<LteUeNetDevice>(m_ueDevices.Get(m_crossings[c].ue));
    Ptr<LteEnbNetDevice> source = pending.source;
    const uint16_t targetCell = m_crossings[c].targetCell;
    Ptr<LteUeRrc> ueRrc = ue->GetRrc();
    Ptr<LteEnbRrc> enbRrc = source->GetRrc();
    const uint16_t rnti = ueRrc->GetRnti();
    const bool servedBySource = ueRrc->GetCellId() == source->GetCellId();
    const bool ueReady = ueRrc->GetState() == LteUeRrc::CONNECTED_NORMALLY;
    if (servedBySource && ueReady && enbRrc->HasUeManager(rnti) &&
        enbRrc->GetUeManager(rnti)->GetState() == UeManager::CONNECTED_NORMALLY)
    {
        enbRrc->SendHandoverRequest(rnti, targetCell);
        return;
    }
    if (ueReady && !servedBySource)
    {
        NS_LOG_WARN("IMSI " << ue->GetImsi() << " is served by cell " << ueRrc->GetCellId()
                            << ", not " << source->GetCellId()
                            << ", at its crossing: not handed over");
        ++m_skippedCrossings;
        return;
    }
    if (Simulator::Now() + MilliSeconds(CROSSING_RETRY_MS) > pending.giveUp)
    {
        NS_LOG_WARN("IMSI " << ue->GetImsi() << " did not get connected normally to cell "
                            << source->GetCellId() << " in time: not handed over");
        ++m_skippedCrossings;
        return;
    }
    NS_LOG_INFO("IMSI " << ue->GetImsi() << " not connected normally at its crossing; retrying");
    ++m_crossingRetries;
    pending.event = Simulator::Schedule(MilliSeconds(CROSSING_RETRY_MS),
                                        &EdgeLlmLineScenario::RequestCrossing,
                                        this,
                                        c);
}

uint32_t
EdgeLlmLineScenario::GetCrossingRetries() const
{
    return m_crossingRetries;
}

uint32_t
EdgeLlmLineScenario::GetSkippedCrossings() const
{
    return m_skippedCrossings;
}

const std::vector<EdgeLlmBoundaryCrossing>&
EdgeLlmLineScenario::GetBoundaryCrossings() const
{
    return m_crossings;
}

uint32_t
EdgeLlmLineScenario::GetMovingUeCount() const
{
    return m_ueCount;
}

int64_t
EdgeLlmLineScenario::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(!m_built, "EdgeLlmLineScenario::AssignStreams: call Build() first");
    int64_t used = m_lte->AssignStreams(m_enbDevices, stream);
    used += m_lte->AssignStreams(m_ueDevices, stream + used);
    return used;
}

Ptr<LteHelper>
EdgeLlmLineScenario::GetLteHelper() const
{
    return m_lte;
}

Ptr<PointToPointEpcHelper>
EdgeLlmLineScenario::GetEpcHelper() const
{
    return m_epc;
}

Ptr<EdgeLlmHelper>
EdgeLlmLineScenario::GetEdgeLlmHelper() const
{
    return m_edge;
}

Ptr<BackhaulHelper>
EdgeLlmLineScenario::GetBackhaulHelper() const
{
    return m_backhaul;
}

const NodeContainer&
EdgeLlmLineScenario::GetEnbNodes() const
{
    return m_enbNodes;
}

const NodeContainer&
EdgeLlmLineScenario::GetUeNodes() const
{
    return m_ueNodes;
}

const NetDeviceContainer&
EdgeLlmLineScenario::GetEnbDevices() const
{
    return m_enbDevices;
}

const NetDeviceContainer&
EdgeLlmLineScenario::GetUeDevices() const
{
    return m_ueDevices;
}

const ApplicationContainer&
EdgeLlmLineScenario::GetServers() const
{
    return m_servers;
}

const ApplicationContainer&
EdgeLlmLineScenario::GetClients() const
{
    return m_clients;
}

const std::vector<BackhaulLink>&
EdgeLlmLineScenario::GetBackhaulLinks() const
{
    return m_links;
}

Ptr<RanObserver>
EdgeLlmLineScenario::GetObserver() const
{
    return m_observer;
}

} // namespace ns3
