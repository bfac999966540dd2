/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_ONE_HANDOVER_LINE_H
#define EDGE_LLM_ONE_HANDOVER_LINE_H

// The line the control-plane and fault suites hand one UE over on, and what its resume
// deadline's cases watch.

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace ns3
{
namespace edgellm
{

/// One UE that hands over once, from cell 1 to cell 2, over 300 Mb/s links of 20 ms one way
/// (prompt 500 tokens, 200 to generate). \return the scenario, to build
inline Ptr<EdgeLlmLineScenario>
OneHandoverLine()
{
    Ptr<EdgeLlmLineScenario> s = CreateObject<EdgeLlmLineScenario>();
    s->SetAttribute("EnbCount", UintegerValue(2));
    s->SetAttribute("EnbSpacing", DoubleValue(300));
    s->SetAttribute("UeCount", UintegerValue(1));
    s->SetAttribute("UeStartX", DoubleValue(125));
    s->SetAttribute("UeSpeed", DoubleValue(20));
    s->SetAttribute("MoveStart", TimeValue(Seconds(1)));
    s->SetAttribute("Trigger", StringValue("boundary"));
    s->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(DataRate("300Mbps")));
    s->GetBackhaulHelper()->SetAttribute("Delay", TimeValue(MilliSeconds(20)));
    s->GetEdgeLlmHelper()->SetClientAttribute("PromptTokens", UintegerValue(500));
    s->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate", UintegerValue(200));
    return s;
}

/**
 * \brief The line with a resume deadline: 1 Gb/s links and the test policy
 * (HookTestScheduler), which sends the whole cache and resumes \p window after the handover.
 * \param window the resume deadline, after the handover
 * \return the scenario, built
 */
inline Ptr<EdgeLlmLineScenario>
WindowLine(Time window)
{
    Ptr<EdgeLlmLineScenario> s = OneHandoverLine();
    s->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
    s->GetEdgeLlmHelper()->SetSchedulerType("ns3::HookTestScheduler");
    s->GetEdgeLlmHelper()->SetSchedulerAttribute("Window", TimeValue(window));
    s->Build();
    s->AssignStreams(1);
    return s;
}

/// The DATA messages a cell's KV receiver read whole, for what a resume counted.
struct DataArrivals
{
    std::vector<std::pair<Time, uint64_t>> seen; //!< (time, units) of each

    /// \param edge the helper \param cell the cell whose receiver to watch
    void Hook(Ptr<EdgeLlmHelper> edge, uint16_t cell)
    {
        edge->GetKvTransfer(cell)->GetReceiver()->TraceConnectWithoutContext(
            "DataArrived",
            Callback<void, const KvTransferHeader&>([this](const KvTransferHeader& h) {
                seen.emplace_back(Simulator::Now(), h.GetCount());
            }));
    }

    /// \param from exclusive \param to inclusive \return the units that arrived in (from, to]
    uint64_t Units(Time from, Time to) const
    {
        uint64_t n = 0;
        for (const auto& [at, units] : seen)
        {
            n += at > from && at <= to ? units : 0;
        }
        return n;
    }
};

/// When the first control message of a type left and arrived, over every channel.
struct MessageTimes
{
    Time sent{-1};                //!< its Tx, negative until then
    Time arrived{-1};             //!< its Rx, negative until then
    std::function<void()> onSent; //!< what the case does as it leaves (none if empty)

    /// \param edge the helper \param type the message's type
    void Hook(Ptr<EdgeLlmHelper> edge, ControlMessage::Type type)
    {
        for (const auto& [cell, channel] : edge->GetControlChannels())
        {
            channel->TraceConnectWithoutContext(
                "Tx",
                Callback<void, const ControlMessage&, uint16_t>(
                    [this, type](const ControlMessage& m, uint16_t) {
                        if (m.type == type && sent.IsNegative())
                        {
                            sent = Simulator::Now();
                            if (onSent)
                            {
                                onSent();
                            }
                        }
                    }));
            channel->TraceConnectWithoutContext("Rx",
                                                Callback<void, const ControlMessage&, Time>(
                                                    [this, type](const ControlMessage& m, Time) {
                                                        if (m.type == type && arrived.IsNegative())
                                                        {
                                                            arrived = Simulator::Now();
                                                        }
                                                    }));
        }
    }
};

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_ONE_HANDOVER_LINE_H */
