/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-line-scenario.h"

#include "line-cell-layout.h"
#include "per-pair-backhaul-topology.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/log.h"
#include "ns3/lte-attribute-checkers.h"
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
                          "How handovers happen: a3 or a2a4 (the RAN stack's algorithms, from "
                          "measurements), none, or boundary (requested when a UE crosses the "
                          "midpoint between two neighbouring eNBs).",
                          StringValue("a3"),
                          MakeStringAccessor(&EdgeLlmLineScenario::m_trigger),
                          edgellm::MakeExplainingChecker(
                              MakeStringChecker(),
                              "ns3::EdgeLlmLineScenario::Trigger",
                              "a3, a2a4, none or boundary",
                              [](const AttributeValue& v) {
                                  const std::string t = static_cast<const StringValue&>(v).Get();
                                  return t == "a3" || t == "a2a4" || t == "none" || t == "boundary"
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
            .AddAttribute(
                "SrsPeriodicity",
                "SRS periodicity of every eNB: 0 picks one from UeCount (ns-3 aborts "
                "with more than about 32 UEs in a cell at its default 40), else one "
                "of 2, 5, 10, 20, 40, 80, 160, 320.",
                UintegerValue(0),
                MakeUintegerAccessor(&EdgeLlmLineScenario::m_srsPeriodicity),
                edgellm::MakeSrsPeriodicityChecker("ns3::EdgeLlmLineScenario::SrsPeriodicity"))
            .AddAttribute(
                "CqiPeriodicity",
                "How often every UE reports its downlink CQI, [1 ms, 160 ms]. LTE configures "
                "periodic CQI reports between 2 and 160 ms; 1 ms is ns-3's own default, at "
                "which each UE runs the MI error model over every resource block every other "
                "subframe, most of the run time of a small network.",
                TimeValue(MilliSeconds(10)),
                MakeTimeAccessor(&EdgeLlmLineScenario::m_cqiPeriodicity),
                edgellm::MakeCqiPeriodicityChecker("ns3::EdgeLlmLineScenario::CqiPeriodicity"))
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
                          edgellm::MakeExplainingBooleanChecker(Name("InstallServing")));
    return tid;
}

EdgeLlmLineScenario::EdgeLlmLineScenario()
    : m_network(CreateObject<EdgeLlmNetwork>())
{
}

EdgeLlmLineScenario::~EdgeLlmLineScenario() = default;

void
EdgeLlmLineScenario::DoDispose()
{
    if (m_network)
    {
        m_network->Dispose();
    }
    m_network = nullptr;
    Object::DoDispose();
}

void
EdgeLlmLineScenario::SetRanStack(Ptr<RanStack> stack)
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmLineScenario::SetRanStack: call it before Build()");
    m_network->SetRanStack(stack);
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

    Ptr<LineCellLayout> line = CreateObject<LineCellLayout>();
    line->SetAttribute("Count", UintegerValue(m_enbCount));
    line->SetAttribute("Spacing", DoubleValue(m_enbSpacing));
    m_network->SetCellLayout(line);
    Ptr<RanStack> stack = m_network->GetRanStack();
    const bool srs = stack->SetAttributeFailSafe("SrsPeriodicity", UintegerValue(m_srsPeriodicity));
    const bool cqi = stack->SetAttributeFailSafe("CqiPeriodicity", TimeValue(m_cqiPeriodicity));
    NS_ABORT_MSG_IF((!srs && m_srsPeriodicity != 0) ||
                        (!cqi && m_cqiPeriodicity != MilliSeconds(10)),
                    "ns3::EdgeLlmLineScenario::SrsPeriodicity and CqiPeriodicity are LTE's; "
                    "the RAN stack "
                        << stack->GetName() << " has neither");
    m_network->SetAttribute("Trigger",
                            StringValue(m_trigger == "boundary" ? "planned" : m_trigger));
    m_network->SetAttribute("SessionStart", TimeValue(m_sessionStart));
    m_network->SetAttribute("SessionStagger", TimeValue(m_sessionStagger));
    m_network->SetAttribute("ResidentUesPerCell", UintegerValue(m_residentsPerEnb));
    m_network->SetAttribute("ResidentOffset", DoubleValue(m_ueY));
    m_network->SetAttribute("InstallServing", BooleanValue(m_installServing));
    for (uint32_t j = 0; j < m_ueCount; ++j)
    {
        EdgeLlmUeSpec ue;
        ue.start = Vector(startX[j], m_ueY, 0);
        ue.velocity = Vector(m_ueSpeed, 0, 0);
        ue.moveStart = m_moveStart;
        m_network->AddUe(ue);
    }
    m_network->Build();
}

void
EdgeLlmLineScenario::SetUeStartPositions(const std::vector<double>& x)
{
    NS_ABORT_MSG_IF(m_built, "EdgeLlmLineScenario::SetUeStartPositions: call it before Build()");
    m_startPositions = x;
    m_startPositionsSet = true;
}

uint32_t
EdgeLlmLineScenario::GetCrossingRetries() const
{
    return m_network->GetPlannedRetries();
}

uint32_t
EdgeLlmLineScenario::GetSkippedCrossings() const
{
    return m_network->GetPlannedDropped();
}

const std::vector<EdgeLlmBoundaryCrossing>&
EdgeLlmLineScenario::GetBoundaryCrossings() const
{
    return m_network->GetPlannedHandovers();
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
    return m_network->AssignStreams(stream);
}

Ptr<RanStack>
EdgeLlmLineScenario::GetRanStack() const
{
    return m_network->GetRanStack();
}

Ptr<EdgeLlmNetwork>
EdgeLlmLineScenario::GetNetwork() const
{
    return m_network;
}

Ptr<EdgeLlmHelper>
EdgeLlmLineScenario::GetEdgeLlmHelper() const
{
    return m_network->GetEdgeLlmHelper();
}

Ptr<BackhaulHelper>
EdgeLlmLineScenario::GetBackhaulHelper() const
{
    Ptr<PerPairBackhaulTopology> perPair =
        DynamicCast<PerPairBackhaulTopology>(m_network->GetBackhaulTopology());
    return perPair ? perPair->GetBackhaulHelper() : nullptr;
}

const NodeContainer&
EdgeLlmLineScenario::GetEnbNodes() const
{
    return m_network->GetCellNodes();
}

const NodeContainer&
EdgeLlmLineScenario::GetUeNodes() const
{
    return m_network->GetUeNodes();
}

const NetDeviceContainer&
EdgeLlmLineScenario::GetEnbDevices() const
{
    return m_network->GetCellDevices();
}

const NetDeviceContainer&
EdgeLlmLineScenario::GetUeDevices() const
{
    return m_network->GetUeDevices();
}

const ApplicationContainer&
EdgeLlmLineScenario::GetServers() const
{
    return m_network->GetServers();
}

const ApplicationContainer&
EdgeLlmLineScenario::GetClients() const
{
    return m_network->GetClients();
}

const std::vector<BackhaulLink>&
EdgeLlmLineScenario::GetBackhaulLinks() const
{
    static const std::vector<BackhaulLink> none;
    Ptr<BackhaulHelper> helper = GetBackhaulHelper();
    return helper && m_network->GetObserver() ? helper->GetLinks() : none;
}

Ptr<RanObserver>
EdgeLlmLineScenario::GetObserver() const
{
    return m_network->GetObserver();
}

} // namespace ns3
