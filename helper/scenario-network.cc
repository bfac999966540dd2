/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-network.h"

#include "edge-llm-helper.h"
#include "grid-cell-layout.h"
#include "line-cell-layout.h"
#include "per-pair-backhaul-topology.h"
#include "ran-stack.h"
#include "road-cell-layout.h"
#include "star-backhaul-topology.h"
#include "ue-mobility.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

Ptr<EdgeLlmNetwork>
BuildScenarioNetwork(const ScenarioOptions& o)
{
    const std::string error = o.Check();
    NS_ABORT_MSG_UNLESS(error.empty(), error);
    const DataRate backhaulRate = o.GetBackhaulRate();
    // [scenario]
    Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
    // 0. The radio access network: LTE, or 5G-LENA's NR.
    net->SetRanStack(CreateRanStack(o.ran, "--ran"));
    // 1. Where the cells stand: any CellLayout.
    Ptr<CellLayout> layout;
    if (o.layout == "grid")
    {
        layout = CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                            UintegerValue(o.columns),
                                                            "Rows",
                                                            UintegerValue(o.rows),
                                                            "Spacing",
                                                            DoubleValue(o.spacing));
    }
    else if (o.layout == "road")
    {
        layout = CreateObjectWithAttributes<RoadCellLayout>("Count",
                                                            UintegerValue(o.cells),
                                                            "Spacing",
                                                            DoubleValue(o.spacing),
                                                            "Offset",
                                                            DoubleValue(30));
    }
    else
    {
        layout = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                            UintegerValue(o.cells),
                                                            "Spacing",
                                                            DoubleValue(o.spacing));
    }
    net->SetCellLayout(layout);
    // 2. How their servers are connected: any BackhaulTopology.
    if (o.backhaul == "star")
    {
        net->SetBackhaulTopology(CreateObjectWithAttributes<StarBackhaulTopology>(
            "SharedRate",
            DataRateValue(backhaulRate),
            "AccessRate",
            DataRateValue(std::max(backhaulRate, DataRate("10Gbps")))));
    }
    else
    {
        Ptr<PerPairBackhaulTopology> pairs = CreateObject<PerPairBackhaulTopology>();
        pairs->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(backhaulRate));
        net->SetBackhaulTopology(pairs);
    }
    // 3. How the UEs move, each with its own spec.
    const double end = o.GetSimTime().GetSeconds();
    if (o.mobility == "routes")
    {
        Ptr<GridRandomRoute> routes = CreateObject<GridRandomRoute>();
        routes->SetAttribute("Speed", DoubleValue(o.speed));
        routes->SetAttribute("SpeedSpread", DoubleValue(o.speedSpread));
        routes->SetAttribute("DepartureSpread", DoubleValue(o.departureSpread));
        routes->AssignStreams(10);
        Ptr<UniformRandomVariable> startCell = CreateObject<UniformRandomVariable>();
        startCell->SetStream(11);
        for (uint32_t j = 0; j < o.ues; ++j)
        {
            const uint32_t cell = startCell->GetInteger(0, layout->GetCellCount() - 1);
            EdgeLlmUeSpec ue;
            ue.route =
                routes->GetRoute(*DynamicCast<GridCellLayout>(layout), cell, 1, end).GetWaypoints();
            net->AddUe(ue);
        }
    }
    else
    {
        // Entering the road at x = 0: together, 10 m apart, or as a Poisson process, each
        // session opening as its UE sets off.
        const bool poisson = o.mobility == "poisson";
        const double y = o.layout == "road" ? 0 : 20;
        std::vector<double> entries;
        if (poisson)
        {
            Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
            gap->SetStream(12);
            entries = DrawPoissonArrivals(gap, o.arrivalRate, 0.5, end, o.ues);
        }
        // Poisson entries stop at the end: fewer UEs than asked may enter.
        for (uint32_t j = 0; j < o.ues && (!poisson || j < entries.size()); ++j)
        {
            EdgeLlmUeSpec ue;
            ue.velocity = Vector(o.speed, 0, 0);
            if (poisson)
            {
                ue.start = Vector(0, y, 0);
                ue.moveStart = Seconds(entries[j]);
                ue.sessionStart = Seconds(entries[j]);
            }
            else
            {
                ue.start = Vector(o.spacing / 3 + 10 * j, y, 0);
                ue.moveStart = Seconds(1);
            }
            net->AddUe(ue);
        }
    }
    // 4. What hands them over, and what the servers do about it.
    net->SetAttribute("Trigger", StringValue(o.trigger));
    net->SetAttribute("UeAirtime", StringValue(o.ueAirtime));
    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
    edge->SetScheme(o.scheme);
    // After the scheme, which drops scheduler attributes set before it; before the KV
    // transfer policy is matched to the scheduler's slot, which they may set.
    for (const auto& [name, text] : o.schedulerAttrs)
    {
        edge->SetSchedulerAttribute(name, StringValue(text));
    }
    edge->MatchKvTransferPolicyToScheduler();
    edge->SetCoordinatorAttribute("Batching", StringValue("online"));
    edge->SetClientAttribute("PromptTokens", UintegerValue(1024));
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(o.tokens));
    for (const auto& [name, text] : o.coordinatorAttrs)
    {
        edge->SetCoordinatorAttribute(name, StringValue(text));
    }
    for (const auto& [name, text] : o.clientAttrs)
    {
        edge->SetClientAttribute(name, StringValue(text));
    }
    for (const auto& [name, text] : o.serverAttrs)
    {
        edge->SetServerAttribute(name, StringValue(text));
    }
    for (const auto& [name, text] : o.engineAttrs)
    {
        edge->SetEngineAttribute(name, StringValue(text));
    }
    // 5. What goes wrong: backhaul faults on every link, a slower GPU, a stall policy.
    net->SetFaults(o.faults);
    net->Build();
    net->AssignStreams(1);
    // [scenario]
    return net;
}

} // namespace ns3
