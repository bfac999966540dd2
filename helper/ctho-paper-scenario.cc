/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ctho-paper-scenario.h"

#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CtHoPaperScenario");

NS_OBJECT_ENSURE_REGISTERED(CtHoPaperScenario);

namespace
{

const char* const CONTEXT_RANGE = "a number of tokens in [1, 4294967295]";
const char* const POSITION_RANGE = "a finite position >= 0 m";

Ptr<const AttributeChecker>
Explained(const std::string& name, Ptr<const AttributeChecker> base, const std::string& allowed)
{
    return edgellm::MakeExplainingChecker(base, "ns3::CtHoPaperScenario::" + name, allowed);
}

/// Contexts are drawn by UniformRandomVariable::GetInteger, which is 32-bit.
Ptr<const AttributeChecker>
ContextChecker()
{
    return MakeUintegerChecker<uint64_t>(1, std::numeric_limits<uint32_t>::max());
}

Ptr<const AttributeChecker>
PositionChecker()
{
    return MakeDoubleChecker<double>(0.0, std::numeric_limits<double>::max());
}

} // namespace

TypeId
CtHoPaperScenario::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CtHoPaperScenario")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<CtHoPaperScenario>()
            .AddAttribute("UeCount",
                          "K, the UEs handing over together. Range [1, 100000].",
                          UintegerValue(4),
                          MakeUintegerAccessor(&CtHoPaperScenario::m_ueCount),
                          Explained("UeCount",
                                    MakeUintegerChecker<uint32_t>(1, 100000),
                                    "an integer in [1, 100000]"))
            .AddAttribute(
                "MinContext",
                "Smallest context C_i drawn, tokens; at most MaxContext (Draw checks it). "
                "Range [1, 4294967295].",
                UintegerValue(1024),
                MakeUintegerAccessor(&CtHoPaperScenario::m_minContext),
                Explained("MinContext", ContextChecker(), CONTEXT_RANGE))
            .AddAttribute("MaxContext",
                          "Largest context C_i drawn, tokens (the paper's C_max is not "
                          "published; 3072 is its 176 MB example). Range [1, 4294967295].",
                          UintegerValue(3072),
                          MakeUintegerAccessor(&CtHoPaperScenario::m_maxContext),
                          Explained("MaxContext", ContextChecker(), CONTEXT_RANGE))
            .AddAttribute(
                "BsDistance",
                "Distance between the two base stations, m. Range (0, 1e6].",
                DoubleValue(300.0),
                MakeDoubleAccessor(&CtHoPaperScenario::m_bsDistance),
                Explained("BsDistance",
                          MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1e6),
                          "a distance in (0, 1e6] m"))
            .AddAttribute("MinStartX",
                          "Smallest start position, m; at most MaxStartX (Draw checks it). "
                          "Range [0, inf).",
                          DoubleValue(120.0),
                          MakeDoubleAccessor(&CtHoPaperScenario::m_minStartX),
                          Explained("MinStartX", PositionChecker(), POSITION_RANGE))
            .AddAttribute("MaxStartX",
                          "Largest start position, m; at least MinStartX and below BsDistance / 2 "
                          "(Draw checks both). Range [0, inf).",
                          DoubleValue(130.0),
                          MakeDoubleAccessor(&CtHoPaperScenario::m_maxStartX),
                          Explained("MaxStartX", PositionChecker(), POSITION_RANGE))
            .AddAttribute(
                "Speed",
                "Speed of every UE, m/s. Range (0, 1000].",
                DoubleValue(20.0),
                MakeDoubleAccessor(&CtHoPaperScenario::m_speed),
                Explained("Speed",
                          MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1000.0),
                          "a speed in (0, 1000] m/s"))
            .AddAttribute("MoveStart",
                          "When the UEs start moving, s. Range [0, 1e6].",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&CtHoPaperScenario::m_moveStart),
                          Explained("MoveStart",
                                    MakeDoubleChecker<double>(0.0, 1e6),
                                    "a time in [0, 1e6] s"));
    return tid;
}

CtHoPaperScenario::CtHoPaperScenario()
    : m_ueCount(1),
      m_minContext(1),
      m_maxContext(1),
      m_bsDistance(1),
      m_minStartX(0),
      m_maxStartX(0),
      m_speed(1),
      m_moveStart(0),
      m_startRv(CreateObject<UniformRandomVariable>()),
      m_contextRv(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

CtHoPaperScenario::~CtHoPaperScenario()
{
    NS_LOG_FUNCTION(this);
}

void
CtHoPaperScenario::DoDispose()
{
    m_startRv = nullptr;
    m_contextRv = nullptr;
    Object::DoDispose();
}

int64_t
CtHoPaperScenario::AssignStreams(int64_t stream)
{
    m_startRv->SetStream(stream);
    m_contextRv->SetStream(stream + 1);
    return 2;
}

std::vector<CtHoPaperUe>
CtHoPaperScenario::Draw()
{
    NS_ABORT_MSG_IF(m_minContext > m_maxContext,
                    "ns3::CtHoPaperScenario: MinContext = "
                        << m_minContext << " must be <= MaxContext = " << m_maxContext);
    NS_ABORT_MSG_IF(m_minStartX > m_maxStartX,
                    "ns3::CtHoPaperScenario: MinStartX = "
                        << m_minStartX << " m must be <= MaxStartX = " << m_maxStartX << " m");
    const double boundary = m_bsDistance / 2.0;
    NS_ABORT_MSG_IF(m_maxStartX >= boundary,
                    "ns3::CtHoPaperScenario: MaxStartX = "
                        << m_maxStartX << " m must be below BsDistance / 2 = " << boundary
                        << " m, so that every UE starts in the first cell");
    std::vector<CtHoPaperUe> ues(m_ueCount);
    for (auto& ue : ues)
    {
        ue.startX = m_startRv->GetValue(m_minStartX, m_maxStartX);
        ue.handoverTime = m_moveStart + (boundary - ue.startX) / m_speed;
        // GetInteger is inclusive at both ends, and draws in 32 bits.
        ue.contextTokens = m_contextRv->GetInteger(static_cast<uint32_t>(m_minContext),
                                                   static_cast<uint32_t>(m_maxContext));
    }
    return ues;
}

std::vector<CtHoUe>
CtHoPaperScenario::ToSolverUes(const std::vector<CtHoPaperUe>& ues)
{
    std::vector<CtHoUe> out;
    out.reserve(ues.size());
    for (const auto& ue : ues)
    {
        out.push_back(CtHoUe{ue.contextTokens, ue.handoverTime});
    }
    return out;
}

} // namespace ns3
