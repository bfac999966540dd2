/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_ONE_HANDOVER_LINE_H
#define EDGE_LLM_ONE_HANDOVER_LINE_H

// The line the control-plane and fault suites hand one UE over on.

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"

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

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_ONE_HANDOVER_LINE_H */
