/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scheduled-handover-predictor.h"

#include "explaining-checker.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduledHandoverPredictor");

NS_OBJECT_ENSURE_REGISTERED(ScheduledHandoverPredictor);

TypeId
ScheduledHandoverPredictor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ScheduledHandoverPredictor")
            .SetParent<HandoverPredictor>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<ScheduledHandoverPredictor>()
            .AddAttribute("Lateness",
                          "How long after its time a handover told is still predicted while "
                          "the UE stays in its source cell, [0, 60 s].",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&ScheduledHandoverPredictor::m_lateness),
                          edgellm::MakeTimeRangeChecker("ns3::ScheduledHandoverPredictor::Lateness",
                                                        Seconds(60),
                                                        "a time in [0, 60 s]"));
    return tid;
}

ScheduledHandoverPredictor::ScheduledHandoverPredictor() = default;

ScheduledHandoverPredictor::~ScheduledHandoverPredictor() = default;

void
ScheduledHandoverPredictor::AddHandover(uint64_t imsi,
                                        uint16_t sourceCell,
                                        uint16_t targetCell,
                                        Time at)
{
    NS_LOG_FUNCTION(this << imsi << sourceCell << targetCell << at);
    NS_ABORT_MSG_IF(sourceCell == 0 || targetCell == 0 || sourceCell == targetCell,
                    "ScheduledHandoverPredictor::AddHandover: sourceCell = "
                        << sourceCell << " and targetCell = " << targetCell
                        << " are invalid; allowed: two different cell ids >= 1");
    NS_ABORT_MSG_IF(at.IsStrictlyNegative(),
                    "ScheduledHandoverPredictor::AddHandover: at = "
                        << at.As(Time::S) << " is invalid; allowed: a time >= 0");
    std::vector<Entry>& entries = m_table[imsi];
    entries.push_back({sourceCell, targetCell, at});
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.at < b.at;
    });
}

HandoverPrediction
ScheduledHandoverPredictor::DoPredict(uint64_t imsi, Ptr<Node>, uint16_t servingCellId)
{
    HandoverPrediction p;
    auto it = m_table.find(imsi);
    if (it == m_table.end())
    {
        return p;
    }
    const Time now = Simulator::Now();
    for (const Entry& e : it->second)
    {
        if (e.source != servingCellId || e.at + m_lateness < now)
        {
            continue;
        }
        if (e.at - now > GetHorizon())
        {
            break;
        }
        p.found = true;
        p.targetCell = e.target;
        p.handoverTimeS = e.at.GetSeconds();
        break;
    }
    return p;
}

} // namespace ns3
