/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-prediction-meter.h"

#include "explaining-checker.h"
#include "fatal-on-invalid.h"
#include "token-timing-stats.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverPredictionMeter");

NS_OBJECT_ENSURE_REGISTERED(HandoverPredictionMeter);

TypeId
HandoverPredictionMeter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HandoverPredictionMeter")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<HandoverPredictionMeter>()
            .AddAttribute(
                "MinLead",
                "How long before a real handover the prediction scored must have been made, "
                "[0, 60 s]: the latest one at least this early counts. A proactive migration "
                "needs its prediction this much in advance.",
                TimeValue(MilliSeconds(500)),
                MakeTimeAccessor(&HandoverPredictionMeter::m_minLead),
                edgellm::MakeExplainingChecker(
                    MakeTimeChecker(),
                    "ns3::HandoverPredictionMeter::MinLead",
                    "a time in [0 s, 60 s]",
                    [](const AttributeValue& v) -> std::string {
                        const Time t = static_cast<const TimeValue&>(v).Get();
                        return t.IsStrictlyNegative() || t > Seconds(60) ? "out of range" : "";
                    }))
            .AddTraceSource("Scored",
                            "A real handover was scored: (imsi, source, target, the prediction "
                            "scored, when it was made).",
                            MakeTraceSourceAccessor(&HandoverPredictionMeter::m_scoredTrace),
                            "ns3::HandoverPredictionMeter::ScoredTracedCallback");
    return tid;
}

HandoverPredictionMeter::HandoverPredictionMeter() = default;

HandoverPredictionMeter::~HandoverPredictionMeter() = default;

void
HandoverPredictionMeter::DoDispose()
{
    m_recent.clear();
    Object::DoDispose();
}

void
HandoverPredictionMeter::Install(Ptr<HandoverPredictor> predictor)
{
    NS_ABORT_MSG_IF(!predictor, "ns3::HandoverPredictionMeter::Install: null predictor");
    Ptr<RanObserver> observer = predictor->GetObserver();
    NS_ABORT_MSG_IF(!observer,
                    "ns3::HandoverPredictionMeter::Install: the predictor has no observer yet "
                    "(HandoverPredictor::SetObserver)");
    predictor->TraceConnectWithoutContext(
        "Prediction",
        MakeCallback(&HandoverPredictionMeter::RecordPrediction, this));
    observer->TraceConnectWithoutContext(
        "HandoverStarted",
        MakeCallback(&HandoverPredictionMeter::RecordHandover, this));
}

void
HandoverPredictionMeter::RecordPrediction(uint64_t imsi,
                                          uint16_t servingCellId,
                                          const HandoverPrediction& prediction)
{
    const Time now = Simulator::Now();
    Recent& r = m_recent[imsi];
    if (r.servingCellId != servingCellId)
    {
        r.made.clear();
        r.servingCellId = servingCellId;
    }
    r.made.push_back({now, prediction});
    // Keep the latest prediction at least MinLead old, and the newer ones: a handover comes
    // now or later, so an older one can never be the latest early enough.
    const Time old = now - m_minLead;
    while (r.made.size() >= 2 && r.made[1].at <= old)
    {
        r.made.pop_front();
    }
}

void
HandoverPredictionMeter::RecordHandover(uint64_t imsi, uint16_t sourceCellId, uint16_t targetCellId)
{
    const Time now = Simulator::Now();
    ++m_handovers;
    HandoverPrediction scored;
    Time madeAt = Seconds(-1);
    const auto r = m_recent.find(imsi);
    if (r != m_recent.end() && r->second.servingCellId == sourceCellId)
    {
        const Time latest = now - m_minLead;
        for (auto m = r->second.made.rbegin(); m != r->second.made.rend(); ++m)
        {
            if (m->at <= latest)
            {
                scored = m->prediction;
                madeAt = m->at;
                break;
            }
        }
    }
    if (scored.found)
    {
        ++m_predicted;
        if (scored.targetCell == targetCellId)
        {
            ++m_correct;
        }
        m_timeErrors.push_back(scored.handoverTimeS - now.GetSeconds());
    }
    NS_LOG_INFO("IMSI " << imsi << " " << sourceCellId << " -> " << targetCellId << " at "
                        << now.As(Time::S) << ": "
                        << (scored.found ? "predicted " + std::to_string(scored.targetCell) +
                                               " at " + std::to_string(scored.handoverTimeS)
                                         : std::string("unpredicted")));
    if (r != m_recent.end())
    {
        m_recent.erase(r); // the next handover is out of another cell
    }
    m_scoredTrace(imsi, sourceCellId, targetCellId, scored, madeAt);
}

uint64_t
HandoverPredictionMeter::GetHandovers() const
{
    return m_handovers;
}

uint64_t
HandoverPredictionMeter::GetPredicted() const
{
    return m_predicted;
}

uint64_t
HandoverPredictionMeter::GetUnpredicted() const
{
    return m_handovers - m_predicted;
}

uint64_t
HandoverPredictionMeter::GetCorrectTargets() const
{
    return m_correct;
}

double
HandoverPredictionMeter::GetTargetAccuracy() const
{
    return m_handovers == 0 ? 0.0
                            : static_cast<double>(m_correct) / static_cast<double>(m_handovers);
}

const std::vector<double>&
HandoverPredictionMeter::GetTimeErrors() const
{
    return m_timeErrors;
}

double
HandoverPredictionMeter::GetAbsTimeErrorPercentile(double p) const
{
    std::vector<double> abs;
    abs.reserve(m_timeErrors.size());
    for (double e : m_timeErrors)
    {
        abs.push_back(std::fabs(e));
    }
    return edgellm::CallOrFatal("ns3::HandoverPredictionMeter::GetAbsTimeErrorPercentile",
                                [&abs, p] { return edgellm::NearestRankPercentile(abs, p); });
}

} // namespace ns3
