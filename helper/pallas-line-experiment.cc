/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pallas-line-experiment.h"

#include "edge-llm-network.h"
#include "flag-checks.h"
#include "grid-cell-layout.h"
#include "line-cell-layout.h"
#include "pallas-controller.h"
#include "per-pair-backhaul-topology.h"
#include "ran-stack.h"
#include "star-backhaul-topology.h"
#include "ue-mobility.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/edge-llm-client.h"
#include "ns3/edge-llm-server.h"
#include "ns3/enum.h"
#include "ns3/gpu-compute-model.h"
#include "ns3/handover-prediction-meter.h"
#include "ns3/handover-scheme-registry.h"
#include "ns3/kv-cache-model.h"
#include "ns3/kv-cache-profile.h"
#include "ns3/mobility-model.h"
#include "ns3/pallas-scheduler.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/scheduled-handover-predictor.h"
#include "ns3/show-progress.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/token-timing-stats.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace ns3
{

namespace
{
/// The moving UE's session opens then.
const Time SESSION_START = MilliSeconds(200);

/**
 * Sets KvTransferSender::SocketBufferBytes's default for one run, unless the user set it, and
 * puts the old one back when the run ends (StarBackhaulTopology::GetPathSocketBufferBytes says
 * why a star's run needs its own).
 */
class SocketBufferDefault
{
  public:
    /// \param bytes the run's buffer; 0 keeps the default
    explicit SocketBufferDefault(uint32_t bytes)
    {
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_UNLESS(TypeId::LookupByName("ns3::KvTransferSender")
                                .LookupAttributeByName("SocketBufferBytes", &info),
                            "KvTransferSender has no SocketBufferBytes");
        const Ptr<const UintegerValue> now = DynamicCast<const UintegerValue>(info.initialValue);
        if (bytes != 0 && now && now->Get() == 0)
        {
            m_set = true;
            Config::SetDefault("ns3::KvTransferSender::SocketBufferBytes", UintegerValue(bytes));
        }
    }

    ~SocketBufferDefault()
    {
        if (m_set)
        {
            Config::SetDefault("ns3::KvTransferSender::SocketBufferBytes", UintegerValue(0));
        }
    }

    SocketBufferDefault(const SocketBufferDefault&) = delete;
    SocketBufferDefault& operator=(const SocketBufferDefault&) = delete;

  private:
    bool m_set{false}; //!< the default was 0 and this run set it
};
} // namespace

PallasLineExperiment::PallasLineExperiment(const PallasLineConfig& config)
    : m_config(config)
{
    const std::string error = config.Check();
    NS_ABORT_MSG_IF(!error.empty(), "PallasLineExperiment: " << error);
}

const PallasLineConfig&
PallasLineExperiment::GetConfig() const
{
    return m_config;
}

std::string
PallasLineConfig::Check() const
{
    const PallasLineConfig& c = *this;
    std::ostringstream e;
    const auto presets = LlmComputeModel::PresetNames();
    const auto profiles = KvCacheProfile::PresetNames();
    if (c.gridSide != 0)
    {
        if (c.gridSide < 2 || c.gridSide > 8)
        {
            e << "gridSide = " << c.gridSide << " is invalid; allowed: 0 (a line) or [2, 8]";
        }
        else if (c.gridRoute < Seconds(2) || c.gridRoute >= c.maxSimTime)
        {
            e << "gridRoute = " << c.gridRoute.As(Time::S)
              << " is invalid; allowed: >= 2 s and before maxSimTime";
        }
        else if (c.predictor == "wrong")
        {
            e << "predictor = wrong is invalid on a grid; allowed: oracle, trajectory or none";
        }
        else if (!(c.linkRateStdMbps >= 0 && c.linkRateMinMbps >= 0))
        {
            e << "linkRateStdMbps = " << c.linkRateStdMbps
              << " and linkRateMinMbps = " << c.linkRateMinMbps
              << " are invalid; allowed: numbers >= 0";
        }
        else if (!(c.routeSpeedSpread >= 0 && c.routeSpeedSpread <= 0.9))
        {
            e << "routeSpeedSpread = " << c.routeSpeedSpread << " is invalid; allowed: [0, 0.9]";
        }
        else if (!(c.routeDepartureSpread >= 0 && c.routeDepartureSpread <= 100))
        {
            e << "routeDepartureSpread = " << c.routeDepartureSpread
              << " is invalid; allowed: [0, 100] legs";
        }
        if (!e.str().empty())
        {
            return e.str();
        }
    }
    // Spacing and speed apply to both; cells, fromCell and crossing to a line only.
    if (!(c.spacingM >= 50 && c.spacingM <= 5000))
    {
        e << "spacingM = " << c.spacingM << " is invalid; allowed: [50, 5000] m";
    }
    else if (!(c.speedMps > 0 && c.speedMps <= 100))
    {
        e << "speedMps = " << c.speedMps << " is invalid; allowed: (0, 100] m/s";
    }
    else if (c.gridSide == 0 && (c.cells < 2 || c.cells > 8))
    {
        e << "cells = " << c.cells << " is invalid; allowed: an integer in [2, 8]";
    }
    else if (c.gridSide == 0 && c.fromCell + 1 >= c.cells)
    {
        e << "fromCell = " << c.fromCell << " is invalid; allowed: an index in [0, " << c.cells - 2
          << "] (a next cell must follow)";
    }
    else if (c.gridSide == 0 &&
             (c.crossing < Seconds(1.5) || c.crossing * c.speedMps > Seconds(c.spacingM / 2)))
    {
        e << "crossing = " << c.crossing.As(Time::S)
          << " is invalid; allowed: >= 1.5 s, and speedMps x crossing <= spacingM / 2 (the UE "
             "starts in its first cell)";
    }
    if (!e.str().empty())
    {
        return e.str();
    }
    if (c.linkRate.GetBitRate() == 0)
    {
        e << "linkRate = 0 is invalid; allowed: a rate > 0";
    }
    else if (c.linkDelay.IsStrictlyNegative() || c.linkDelay > Seconds(1))
    {
        // In integer microseconds: a negative Time converted to a double is undefined here.
        e << "linkDelay = " << static_cast<double>(c.linkDelay.GetMicroSeconds()) / 1e3
          << " ms is invalid; allowed: [0, 1000] ms";
    }
    else if (c.backhaul != "x2" && c.backhaul != "core")
    {
        e << "backhaul = " << c.backhaul << " is invalid; allowed: x2 or core";
    }
    else if (c.coreDelay.IsStrictlyNegative() || c.coreDelay > Seconds(1))
    {
        e << "coreDelay = " << static_cast<double>(c.coreDelay.GetMicroSeconds()) / 1e3
          << " ms is invalid; allowed: [0, 1000] ms";
    }
    else if (c.coreRate.GetBitRate() == 0)
    {
        e << "coreRate = 0 is invalid; allowed: a rate > 0";
    }
    else if (std::find(presets.begin(), presets.end(), c.computePreset) == presets.end())
    {
        e << "computePreset = " << c.computePreset
          << " is invalid; allowed: an LlmComputeModel "
             "preset";
    }
    else if (std::find(profiles.begin(), profiles.end(), c.kvProfile) == profiles.end())
    {
        e << "kvProfile = " << c.kvProfile << " is invalid; allowed: a KvCacheProfile preset";
    }
    else if (c.promptTokens < 16 || c.promptTokens > 32768)
    {
        e << "promptTokens = " << c.promptTokens << " is invalid; allowed: [16, 32768]";
    }
    else if (c.promptMaxTokens != 0 &&
             (c.promptMaxTokens < c.promptTokens || c.promptMaxTokens > 32768))
    {
        e << "promptMaxTokens = " << c.promptMaxTokens
          << " is invalid; allowed: 0, or an integer in [promptTokens, 32768]";
    }
    else if (c.tokensAfter < 1)
    {
        e << "tokensAfter = 0 is invalid; allowed: an integer >= 1";
    }
    else if (c.ues < 1 || c.ues > 16)
    {
        e << "ues = " << c.ues << " is invalid; allowed: an integer in [1, 16]";
    }
    else if (!(c.ueGapM >= 0 && c.ueGapM <= 100))
    {
        e << "ueGapM = " << c.ueGapM << " is invalid; allowed: [0, 100] m";
    }
    else if (c.residentsPerCell > 32)
    {
        e << "residentsPerCell = " << c.residentsPerCell << " is invalid; allowed: [0, 32]";
    }
    else if (c.predictor != "oracle" && c.predictor != "wrong" && c.predictor != "trajectory" &&
             c.predictor != "none")
    {
        e << "predictor = " << c.predictor
          << " is invalid; allowed: oracle, wrong, trajectory or none";
    }
    else if (c.predictor == "wrong" && c.fromCell == 0)
    {
        e << "predictor = wrong with fromCell = 0 is invalid; allowed: fromCell >= 1 (the "
             "wrong target is the previous cell)";
    }
    else if (c.iterationMode != "Separate" && c.iterationMode != "Mixed")
    {
        e << "iterationMode = " << c.iterationMode << " is invalid; allowed: Separate or Mixed";
    }
    else if (c.gridSide == 0 && c.maxSimTime <= c.crossing)
    {
        e << "maxSimTime = " << c.maxSimTime.As(Time::S)
          << " is invalid; allowed: a time after crossing";
    }
    else if (const std::string problem = edgellm::CheckRanFlag("ran", c.ran); !problem.empty())
    {
        e << problem;
    }
    else if (c.trigger != "planned" && c.trigger != "a3")
    {
        e << "trigger = " << c.trigger << " is invalid; allowed: planned or a3";
    }
    else if (c.trigger == "a3" && c.predictor == "wrong")
    {
        e << "predictor = wrong is invalid with trigger = a3; allowed: oracle, trajectory or "
             "none (wrong is told the planned handovers, which A3 does not make)";
    }
    else if (!(c.positionNoiseM >= 0 && c.positionNoiseM <= 1e5))
    {
        e << "positionNoiseM = " << c.positionNoiseM << " is invalid; allowed: [0, 100000] m";
    }
    else if (!(c.speedNoiseMps >= 0 && c.speedNoiseMps <= 1000))
    {
        e << "speedNoiseMps = " << c.speedNoiseMps << " is invalid; allowed: [0, 1000] m/s";
    }
    else if (!(c.headingNoiseDeg >= 0 && c.headingNoiseDeg <= 180))
    {
        e << "headingNoiseDeg = " << c.headingNoiseDeg << " is invalid; allowed: [0, 180] degrees";
    }
    else if (c.streamStepTokens < 1 || c.streamStepTokens > 16)
    {
        e << "streamStepTokens = " << c.streamStepTokens
          << " is invalid; allowed: an integer in [1, 16]";
    }
    else if (c.predictorLag < Seconds(-10) || c.predictorLag > Seconds(10))
    {
        // From its nanoseconds: ns-3's conversion of a negative time to a unit is undefined.
        e << "predictorLag = " << static_cast<double>(c.predictorLag.GetNanoSeconds()) / 1e6
          << " ms is invalid; allowed: a time in [-10 s, 10 s]";
    }
    return e.str();
}

Ptr<CellLayout>
PallasLineExperiment::MakeLayout() const
{
    const PallasLineConfig& c = m_config;
    if (c.gridSide != 0)
    {
        Ptr<GridCellLayout> grid = CreateObject<GridCellLayout>();
        grid->SetAttribute("Columns", UintegerValue(c.gridSide));
        grid->SetAttribute("Rows", UintegerValue(c.gridSide));
        grid->SetAttribute("Spacing", DoubleValue(c.spacingM));
        return grid;
    }
    Ptr<LineCellLayout> line = CreateObject<LineCellLayout>();
    line->SetAttribute("Count", UintegerValue(c.cells));
    line->SetAttribute("Spacing", DoubleValue(c.spacingM));
    return line;
}

std::size_t
PallasLineExperiment::LinkCount(const CellLayout& layout) const
{
    return m_config.backhaul == "core" ? layout.GetCellCount() : layout.GetNeighbourPairs().size();
}

Ptr<BackhaulTopology>
PallasLineExperiment::MakeBackhaul(const PallasLineInputs& inputs) const
{
    const PallasLineConfig& c = m_config;
    // The drawn rates, link by link in the layout's order (pairs, or cells).
    Ptr<DeterministicRandomVariable> rates;
    if (!inputs.linkRates.empty())
    {
        std::vector<double> mbps;
        for (const DataRate& rate : inputs.linkRates)
        {
            mbps.push_back(rate.GetBitRate() / 1e6);
        }
        rates = CreateObject<DeterministicRandomVariable>();
        rates->SetValueArray(mbps.data(), mbps.size());
    }
    if (c.backhaul == "core")
    {
        // The star checks AccessRate >= SharedRate; each cell's drawn rate, when there is
        // one, replaces AccessRate and may fall below the core's.
        Ptr<StarBackhaulTopology> star = CreateObjectWithAttributes<StarBackhaulTopology>(
            "SharedRate",
            DataRateValue(c.coreRate),
            "SharedDelay",
            TimeValue(c.coreDelay),
            "AccessRate",
            DataRateValue(std::max(c.linkRate, c.coreRate)),
            "AccessDelay",
            TimeValue(c.linkDelay));
        if (!rates)
        {
            double mbps = c.linkRate.GetBitRate() / 1e6;
            rates = CreateObject<DeterministicRandomVariable>();
            rates->SetValueArray(&mbps, 1);
        }
        star->SetAttribute("RateMbps", PointerValue(rates));
        return star;
    }
    Ptr<PerPairBackhaulTopology> pairs = CreateObject<PerPairBackhaulTopology>();
    pairs->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(c.linkRate));
    pairs->GetBackhaulHelper()->SetAttribute("Delay", TimeValue(c.linkDelay));
    if (rates)
    {
        pairs->SetAttribute("RateMbps", PointerValue(rates));
    }
    return pairs;
}

PallasLineInputs
PallasLineExperiment::Draw() const
{
    const PallasLineConfig& c = m_config;
    PallasLineInputs inputs;
    inputs.promptTokens = c.promptTokens;
    if (c.promptMaxTokens > c.promptTokens)
    {
        Ptr<UniformRandomVariable> draw = CreateObject<UniformRandomVariable>();
        draw->SetStream(PROMPT_STREAM);
        inputs.promptTokens = draw->GetInteger(c.promptTokens, c.promptMaxTokens);
    }
    const Ptr<CellLayout> layout = MakeLayout();
    if (c.linkRateStdMbps > 0)
    {
        // Each link's rate drawn from N(mean, std^2) Mb/s, drawn again below the minimum.
        Ptr<NormalRandomVariable> rate = CreateObject<NormalRandomVariable>();
        rate->SetAttribute("Mean", DoubleValue(c.linkRate.GetBitRate() / 1e6));
        rate->SetAttribute("Variance", DoubleValue(c.linkRateStdMbps * c.linkRateStdMbps));
        rate->SetStream(LINK_STREAM);
        for (std::size_t link = 0; link < LinkCount(*layout); ++link)
        {
            inputs.linkRates.push_back(BackhaulTopology::DrawRate(rate, c.linkRateMinMbps));
        }
    }
    if (c.gridSide != 0)
    {
        const Ptr<GridCellLayout> grid = DynamicCast<GridCellLayout>(layout);
        Ptr<GridRandomRoute> routes = CreateObject<GridRandomRoute>();
        routes->SetAttribute("Speed", DoubleValue(c.speedMps));
        routes->SetAttribute("SpeedSpread", DoubleValue(c.routeSpeedSpread));
        routes->SetAttribute("DepartureSpread", DoubleValue(c.routeDepartureSpread));
        routes->AssignStreams(ROUTE_STREAM);
        Ptr<UniformRandomVariable> startCell = CreateObject<UniformRandomVariable>();
        startCell->SetStream(ROUTE_STREAM + 1);
        for (uint32_t j = 0; j < c.ues; ++j)
        {
            const uint32_t cell = startCell->GetInteger(0, grid->GetCellCount() - 1);
            inputs.routes.push_back(
                routes->GetRoute(*grid, cell, 0, c.gridRoute.GetSeconds()).GetWaypoints());
        }
    }
    return inputs;
}

PallasLineRun
PallasLineExperiment::Run(const std::string& scheme,
                          const PallasLineInputs& inputs,
                          const Hook& hook,
                          const ControllerHook& controllerHook) const
{
    const PallasLineConfig& c = m_config;
    const Ptr<CellLayout> layout = MakeLayout();
    NS_ABORT_MSG_IF(inputs.promptTokens < c.promptTokens ||
                        inputs.promptTokens > std::max(c.promptTokens, c.promptMaxTokens) ||
                        inputs.routes.size() != (c.gridSide != 0 ? c.ues : 0) ||
                        inputs.linkRates.size() != (c.linkRateStdMbps > 0 ? LinkCount(*layout) : 0),
                    "PallasLineExperiment::Run: the inputs were not drawn for this configuration "
                    "(PallasLineExperiment::Draw makes them)");
    NS_ABORT_MSG_IF(c.trigger == "a3" && c.predictor == "oracle" && !inputs.knownHandovers,
                    "PallasLineExperiment::Run: predictor = oracle with trigger = a3 needs the "
                    "draw's handovers in PallasLineInputs::knownHandovers (an earlier run's "
                    "PallasLineRun::handovers)");
    PallasLineRun run;
    run.scheme = scheme;
    const uint32_t prompt = inputs.promptTokens;
    run.promptTokens = prompt;
    const KvCacheProfile profile = KvCacheProfile::FromPreset(c.kvProfile);
    const LlmComputeModel compute = LlmComputeModel::FromPreset(c.computePreset);

    Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
    net->SetRanStack(CreateRanStack(c.ran, "--ran"));
    const Ptr<BackhaulTopology> backhaul = MakeBackhaul(inputs);
    uint32_t coreBuffer = 0;
    if (const Ptr<StarBackhaulTopology> star = DynamicCast<StarBackhaulTopology>(backhaul))
    {
        // Sized for the fastest path: the fastest access link's, or the core's if slower.
        uint64_t access = c.linkRate.GetBitRate();
        for (const DataRate& rate : inputs.linkRates)
        {
            access = std::max(access, rate.GetBitRate());
        }
        coreBuffer =
            star->GetPathSocketBufferBytes(DataRate(std::min(access, c.coreRate.GetBitRate())));
    }
    const SocketBufferDefault buffer(coreBuffer);
    net->SetBackhaulTopology(backhaul);
    net->SetCellLayout(layout);
    const double midpoint = (c.fromCell + 0.5) * c.spacingM;
    for (const std::vector<UeWaypoint>& route : inputs.routes)
    {
        EdgeLlmUeSpec ue;
        ue.route = route;
        ue.sessionStart = SESSION_START;
        net->AddUe(ue);
    }
    for (uint32_t j = 0; c.gridSide == 0 && j < c.ues; ++j)
    {
        // Each UE a gap behind the one before: its handover comes gap / speed later.
        EdgeLlmUeSpec ue;
        ue.start = Vector(midpoint - c.speedMps * c.crossing.GetSeconds() - j * c.ueGapM, 20, 0);
        ue.velocity = Vector(c.speedMps, 0, 0);
        ue.moveStart = Seconds(0);
        ue.sessionStart = SESSION_START;
        net->AddUe(ue);
    }
    net->SetAttribute("Trigger", StringValue(c.trigger));
    net->SetAttribute("ResidentUesPerCell", UintegerValue(c.residentsPerCell));

    // Tokens decoded until the crossing, at batch 1 (the residents slow it, which only
    // leaves more to decode after it).
    const double step = std::max(compute.DecodeStepTime(c.ues + c.residentsPerCell, prompt), 1e-4);
    // On a grid the sessions decode until the routes end.
    const double decoding = (c.gridSide != 0 ? c.gridRoute : c.crossing).GetSeconds() -
                            SESSION_START.GetSeconds() - compute.PrefillTime(prompt);
    const uint32_t tokens =
        static_cast<uint32_t>(std::max(0.0, std::ceil(decoding / step))) + c.tokensAfter;
    run.tokensExpected = tokens * c.ues;

    Ptr<GpuComputeModel> gpu = CreateObject<GpuComputeModel>();
    gpu->ApplyPreset(c.computePreset);
    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
    edge->SetScheme(scheme);
    // Pallas's own attributes for it and for any scheme built on it (a scheduler whose hooks
    // differ); IsChildOf is false for the type itself.
    const TypeId schedulerType = TypeId::LookupByName(edgellm::HandoverSchedulerTypeOf(scheme));
    if (schedulerType == PallasScheduler::GetTypeId() ||
        schedulerType.IsChildOf(PallasScheduler::GetTypeId()))
    {
        edge->SetSchedulerAttribute("ControlPeriod", TimeValue(c.controlPeriod));
        edge->SetSchedulerAttribute("WindowLimit", TimeValue(c.windowLimit));
        edge->SetSchedulerAttribute("WindowMargin", TimeValue(c.windowMargin));
    }
    edge->SetCoordinatorAttribute("Batching", StringValue("online"));
    edge->SetCoordinatorAttribute("OpenTransferStep", UintegerValue(c.streamStepTokens));
    // The coordinator weighs each session's cache by its servers' model.
    edge->SetServerAttribute("KvCache", PointerValue(KvCacheModel::FromProfile(profile)));
    edge->SetEngineAttribute("IterationMode", StringValue(c.iterationMode));
    edge->SetClientAttribute("PromptTokens", UintegerValue(prompt));
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
    net->Build();
    const int64_t networkStreams = net->AssignStreams(1);
    std::map<uint16_t, Ptr<EdgeLlmServer>> servers;
    std::map<uint16_t, Vector> cells;
    for (uint32_t i = 0; i < net->GetServers().GetN(); ++i)
    {
        Ptr<EdgeLlmServer> s = DynamicCast<EdgeLlmServer>(net->GetServers().Get(i));
        s->GetEngine()->SetComputeModel(gpu);
        servers[s->GetCellId()] = s;
    }
    for (uint32_t i = 0; i < net->GetCellNodes().GetN(); ++i)
    {
        cells[net->GetCellIds()[i]] =
            net->GetCellNodes().Get(i)->GetObject<MobilityModel>()->GetPosition();
    }

    // Each moving UE's deliveries, counted by token index; the run stops once all are done.
    std::vector<Ptr<EdgeLlmClient>> clients;
    std::vector<uint64_t> imsis;
    auto seen = std::make_shared<std::map<uint64_t, std::vector<uint32_t>>>();
    auto order = std::make_shared<bool>(true);
    auto done = std::make_shared<uint32_t>(0);
    // Per moving UE, each first delivery's generation and delivery time, s.
    auto latencies = std::make_shared<std::map<uint64_t, std::vector<std::pair<double, double>>>>();
    const uint32_t moving = c.ues;
    for (uint32_t j = 0; j < c.ues; ++j)
    {
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(net->GetClients().Get(j));
        clients.push_back(client);
        imsis.push_back(client->GetImsi());
        (*seen)[client->GetImsi()];
        auto delivered = [seen, order, latencies](uint64_t imsi,
                                                  uint32_t index,
                                                  Time generatedAt,
                                                  Time deliveredAt,
                                                  uint16_t,
                                                  bool resent) {
            if (!resent)
            {
                (*latencies)[imsi].emplace_back(generatedAt.GetSeconds(), deliveredAt.GetSeconds());
            }
            std::vector<uint32_t>& counts = (*seen)[imsi];
            if (index >= counts.size())
            {
                *order = *order && index == counts.size();
                counts.resize(index + 1, 0);
            }
            else
            {
                *order = false;
            }
            ++counts[index];
        };
        client->TraceConnectWithoutContext(
            "TokenDelivered",
            Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(delivered));
        client->TraceConnectWithoutContext("SessionComplete",
                                           Callback<void, uint64_t>([done, moving](uint64_t) {
                                               if (++*done == moving)
                                               {
                                                   Simulator::Stop(MilliSeconds(200));
                                               }
                                           }));
    }

    // The predictor and its meter, for every scheme; the controller for Pallas.
    Ptr<HandoverPredictor> predictor;
    if (c.predictor == "trajectory")
    {
        predictor = CreateObject<TrajectoryHandoverPredictor>();
        predictor->SetAttribute("PositionNoise", DoubleValue(c.positionNoiseM));
        predictor->SetAttribute("SpeedNoise", DoubleValue(c.speedNoiseMps));
        predictor->SetAttribute("HeadingNoise", DoubleValue(c.headingNoiseDeg));
        // The streams after the network's: every scheme of a draw, and a draw run again in
        // one process, sees the same noise.
        predictor->AssignStreams(1 + networkStreams);
    }
    else if (c.predictor == "oracle" && c.trigger == "a3")
    {
        // Told the handovers the RAN started in an earlier run of this draw.
        Ptr<ScheduledHandoverPredictor> oracle = CreateObject<ScheduledHandoverPredictor>();
        for (const PallasKnownHandover& h : *inputs.knownHandovers)
        {
            NS_ABORT_MSG_IF(h.ue >= c.ues,
                            "PallasLineExperiment::Run: a known handover's UE index "
                                << h.ue << " is invalid; allowed: [0, " << c.ues - 1 << "]");
            oracle->AddHandover(imsis[h.ue], h.source, h.target, h.at);
        }
        predictor = oracle;
    }
    else if (c.predictor != "none")
    {
        Ptr<ScheduledHandoverPredictor> oracle = CreateObject<ScheduledHandoverPredictor>();
        const std::vector<uint16_t>& ids = net->GetCellIds();
        for (const EdgeLlmPlannedHandover& h : net->GetPlannedHandovers())
        {
            uint16_t target = h.targetCell;
            if (c.predictor == "wrong")
            {
                // Another neighbour of the source: the cell before it on the line.
                const auto at = std::find(ids.begin(), ids.end(), h.sourceCell);
                const auto index = static_cast<std::size_t>(at - ids.begin());
                const uint16_t before = index > 0 ? ids[index - 1] : 0;
                const uint16_t after = index + 1 < ids.size() ? ids[index + 1] : 0;
                target = h.targetCell == before ? after : before;
                if (target == 0)
                {
                    continue;
                }
            }
            oracle->AddHandover(h.imsi, h.sourceCell, target, h.time);
        }
        predictor = oracle;
    }
    Ptr<HandoverPredictionMeter> meter;
    Ptr<PallasController> controller;
    if (predictor)
    {
        predictor->SetAttribute("Horizon", TimeValue(c.horizon));
        predictor->SetAttribute("ControlPeriod", TimeValue(c.controlPeriod));
        predictor->SetAttribute("Lag", TimeValue(c.predictorLag));
        predictor->SetObserver(net->GetObserver());
        predictor->SetCells(cells);
        for (uint32_t j = 0; j < c.ues; ++j)
        {
            predictor->AddUe(imsis[j], net->GetUeNodes().Get(j));
        }
        meter = CreateObject<HandoverPredictionMeter>();
        meter->Install(predictor);
        if (DynamicCast<PallasScheduler>(edge->GetCoordinator()->GetScheduler()))
        {
            controller = CreateObject<PallasController>();
            controller->SetCoordinator(edge->GetCoordinator());
            controller->SetServers(servers);
            controller->SetControlChannels(edge->GetControlChannels());
            controller->Install(predictor);
        }
        predictor->Start();
    }

    // The moving UEs' handovers as the RAN starts them, for an oracle of a later run.
    auto started = std::make_shared<std::vector<PallasKnownHandover>>();
    net->GetObserver()->TraceConnectWithoutContext(
        "HandoverStarted",
        Callback<void, uint64_t, uint16_t, uint16_t>([started, imsis](uint64_t imsi,
                                                                      uint16_t source,
                                                                      uint16_t target) {
            const auto at = std::find(imsis.begin(), imsis.end(), imsi);
            if (at != imsis.end())
            {
                started->push_back(
                    {static_cast<uint32_t>(at - imsis.begin()), source, target, Simulator::Now()});
            }
        }));

    if (hook)
    {
        hook(net);
    }
    if (controllerHook && controller)
    {
        controllerHook(controller);
    }
    Simulator::Stop(c.maxSimTime);
    {
        std::unique_ptr<ShowProgress> progress;
        if (c.showProgress)
        {
            progress = std::make_unique<ShowProgress>(Seconds(10), std::cerr);
        }
        Simulator::Run();
    }

    Ptr<HandoverCoordinator> coordinator = edge->GetCoordinator();
    run.records = coordinator->GetRecords();
    if (!run.records.empty())
    {
        const HandoverRecord& first = run.records.front();
        run.measuredKvTokensPerSecond =
            coordinator->GetMeasuredTokensPerSecond(first.sourceCell, first.targetCell);
        run.plannedKvTokensPerSecond =
            coordinator->GetPlannedTokensPerSecond(first.sourceCell, first.targetCell);
    }
    run.results = CollectRunResults(scheme, run.records, net->GetClients());
    NoteClosedSessions(run.results, coordinator->GetClosedSessions());
    for (const EdgeLlmHandoverRow& row : run.results.handovers)
    {
        if (std::find(imsis.begin(), imsis.end(), row.record.imsi) != imsis.end() &&
            !std::isnan(row.sitS))
        {
            run.allSitsS.push_back(row.sitS);
        }
    }
    bool once = *order;
    for (uint32_t j = 0; j < c.ues; ++j)
    {
        double sit = std::numeric_limits<double>::quiet_NaN();
        for (const EdgeLlmHandoverRow& row : run.results.handovers)
        {
            if (row.record.imsi == imsis[j] && !std::isnan(row.sitS))
            {
                sit = row.sitS;
                break;
            }
        }
        run.sitsS.push_back(sit);
        // The relay path's links over time, from the records of a session only ever relayed.
        std::vector<std::pair<double, uint32_t>> hops{{0.0, 0}};
        bool relayedOnly = true;
        for (const HandoverRecord& r : run.records)
        {
            if (r.imsi == imsis[j] && r.outcome != HandoverRecord::NO_SESSION)
            {
                // A relayed record has a handover's start; a cancelled prepare may have none.
                relayedOnly = relayedOnly && r.outcome == HandoverRecord::RELAYED;
                if (relayedOnly)
                {
                    hops.emplace_back(r.hoStart.GetSeconds(), r.relayHops);
                }
            }
        }
        if (relayedOnly && hops.size() > 1)
        {
            for (const auto& [generated, delivered] : (*latencies)[imsis[j]])
            {
                uint32_t links = 0;
                for (const auto& [from, n] : hops)
                {
                    links = from <= generated ? n : links;
                }
                run.relayedLatencyByHopsS[links].push_back(delivered - generated);
            }
        }
        for (int64_t ns : edgellm::ItlSamplesNs(clients[j]->GetDeliveryTimesNs()))
        {
            run.itlS.push_back(static_cast<double>(ns) * 1e-9);
        }
        const std::vector<uint32_t>& counts = (*seen)[imsis[j]];
        for (uint32_t n : counts)
        {
            run.tokensDelivered += n > 0 ? 1 : 0;
            run.tokensRepeated += n > 1 ? n - 1 : 0;
            once = once && n == 1;
        }
        once = once && counts.size() == tokens;
        run.kvSent += net->GetKvSent(imsis[j]);
        run.kvReceived += net->GetKvReceived(imsis[j]);
    }
    run.handovers = *started;
    run.sitS = run.sitsS.front();
    run.exactlyOnce = once;
    if (Ptr<PallasScheduler> pallas = DynamicCast<PallasScheduler>(coordinator->GetScheduler()))
    {
        run.admissionRefusals = pallas->GetAdmissionRefusals();
        run.windowS = pallas->GetWindow().GetSeconds();
        run.windowChoices = pallas->GetWindowChoices();
    }
    if (controller)
    {
        run.prepares = controller->GetPrepares();
        run.controllerCancels = controller->GetCancels();
        run.prefillMeasured = controller->GetMeasuredPrefillSamples();
        run.prefillModelled = controller->GetModelledPrefillSamples();
        run.loadForecast = controller->GetForecastLoadSamples();
        run.backhaulMeasured = controller->GetMeasuredBackhaulSamples();
        run.backhaulPlanned = controller->GetPlannedBackhaulSamples();
        run.loadReported = controller->GetReportedLoadSamples();
        run.loadsSent = controller->GetLoadsSent();
    }
    run.absTimeErrorP50S = std::numeric_limits<double>::quiet_NaN();
    if (meter)
    {
        run.handoversScored = meter->GetHandovers();
        run.handoversPredicted = meter->GetPredicted();
        run.targetAccuracy = meter->GetTargetAccuracy();
        if (!meter->GetTimeErrors().empty())
        {
            run.absTimeErrorP50S = meter->GetAbsTimeErrorPercentile(50);
        }
        run.timeErrorsS = meter->GetTimeErrors();
    }
    if (predictor)
    {
        predictor->Stop();
    }
    Simulator::Destroy();
    if (controller)
    {
        controller->Dispose();
    }
    if (meter)
    {
        meter->Dispose();
    }
    if (predictor)
    {
        predictor->Dispose();
    }
    net->Dispose();
    return run;
}

PallasLagCalibration
PallasLineExperiment::CalibrateLag(uint64_t firstRun,
                                   uint32_t runs,
                                   const std::string& scheme,
                                   Time tolerance,
                                   uint32_t maxRounds) const
{
    NS_ABORT_MSG_IF(
        runs < 1 || runs > 100,
        "PallasLineExperiment::CalibrateLag: runs = " << runs << " is invalid; allowed: [1, 100]");
    NS_ABORT_MSG_IF(maxRounds < 1 || maxRounds > 20,
                    "PallasLineExperiment::CalibrateLag: maxRounds = "
                        << maxRounds << " is invalid; allowed: [1, 20]");
    NS_ABORT_MSG_IF(!tolerance.IsStrictlyPositive(),
                    "PallasLineExperiment::CalibrateLag: tolerance is invalid; allowed: > 0");
    NS_ABORT_MSG_IF(m_config.predictor != "trajectory",
                    "PallasLineExperiment::CalibrateLag: predictor = "
                        << m_config.predictor << " is invalid; allowed: trajectory (the oracle "
                        << "needs no lag)");
    PallasLagCalibration result;
    // Without the predictor's noise: the lag corrects the model's bias, which the zero-mean
    // noise does not have, and a noisy median would not settle within the tolerance.
    PallasLineConfig config = m_config;
    config.showProgress = false;
    config.positionNoiseM = 0;
    config.speedNoiseMps = 0;
    config.headingNoiseDeg = 0;
    for (uint32_t round = 1; round <= maxRounds; ++round)
    {
        const PallasLineExperiment experiment(config);
        std::vector<double> errors;
        for (uint64_t r = firstRun; r < firstRun + runs; ++r)
        {
            RngSeedManager::SetRun(r);
            const PallasLineRun run = experiment.Run(scheme, experiment.Draw());
            errors.insert(errors.end(), run.timeErrorsS.begin(), run.timeErrorsS.end());
        }
        result.lag = config.predictorLag;
        result.rounds = round;
        result.handovers = static_cast<uint32_t>(errors.size());
        if (errors.empty())
        {
            // Nothing was predicted: no error to correct by.
            result.residualS = std::numeric_limits<double>::quiet_NaN();
            return result;
        }
        result.residualS = edgellm::NearestRankPercentile(errors, 50);
        if (std::abs(result.residualS) <= tolerance.GetSeconds())
        {
            result.converged = true;
            return result;
        }
        const Time next = config.predictorLag - Seconds(result.residualS);
        config.predictorLag = std::clamp(next, Seconds(-10), Seconds(10));
    }
    return result;
}

} // namespace ns3
