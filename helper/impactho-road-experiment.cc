/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "impactho-road-experiment.h"

#include "edge-llm-helper.h"
#include "edge-llm-network.h"
#include "flag-checks.h"
#include "ran-stack.h"
#include "road-cell-layout.h"
#include "star-backhaul-topology.h"
#include "ue-mobility.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/edge-llm-client.h"
#include "ns3/edge-llm-server.h"
#include "ns3/enum.h"
#include "ns3/gpu-compute-model.h"
#include "ns3/handover-coordinator.h"
#include "ns3/handover-scheme-registry.h"
#include "ns3/impact-clairvoyant-bound.h"
#include "ns3/impact-ho-scheduler.h"
#include "ns3/impact-slot-reference.h"
#include "ns3/input-checks.h"
#include "ns3/kv-cache-model.h"
#include "ns3/kv-cache-profile.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/kv-transfer-receiver.h"
#include "ns3/llm-compute-model.h"
#include "ns3/llm-engine.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/token-timing-stats.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ImpactHoRoadExperiment");

namespace
{

/// The stream of the arrival gaps; speeds, boundaries and contexts follow it.
constexpr int64_t ARRIVAL_STREAM = 12;
/// The first stream of the radio and the network.
constexpr int64_t RADIO_STREAM = 1;
/// The road's eNBs stand this far beside it, m.
constexpr double ROAD_OFFSET = 30;
/// The arrivals start here, s: the network has attached its UEs, and a session opened
/// SESSION_LEAD_S before its UE enters has started after the attach.
constexpr double FIRST_ARRIVAL_S = 1.5;
/// A session whose first cell prefills its prompt opens this long before its UE enters, s, so
/// that even a 16K-token prefill has ended and the session decodes when its handover comes.
constexpr double SESSION_LEAD_S = 1.0;
/// A session whose prompt is cached whole opens this long before its UE reaches its boundary,
/// s: it decodes at once, and with 300 tokens at 13.3 ms a step (4 s) it still has 1.9 to
/// 2.7 s of them to generate when A3 hands it over, 0.3 to 1.1 s past the boundary.
constexpr double CACHED_SESSION_LEAD_S = 1.0;
/// Time kept after the last arrival's window for its session to generate its last tokens, s.
constexpr double DECODE_MARGIN_S = 5.5;

/// \return the window over which UEs arrive, [FIRST_ARRIVAL_S, this], s
double
LastArrivalS(const ImpactHoRoadConfig& c)
{
    return c.simTime.GetSeconds() - c.leadTime.GetSeconds() - c.window.GetSeconds() -
           DECODE_MARGIN_S;
}

/// Bytes that place an entry on the wire: its token (2 bytes of a 16-bit position), layer and
/// head (4 bits each), the paper's 3 bytes.
constexpr uint64_t ENTRY_METADATA_BYTES = 3;

/// \return the bytes of one entry on the wire: K and V of one head, and its metadata
uint64_t
EntryBytes(const KvCacheProfile& profile)
{
    return static_cast<uint64_t>(
               std::ceil(2.0 * profile.GetHeadDim() * profile.GetBitsPerElement() / 8.0)) +
           ENTRY_METADATA_BYTES;
}

/// \return true if the scheme is one of ImpactHO's slot schedulers
bool
IsImpactScheme(const std::string& typeName)
{
    return TypeId::LookupByName(typeName).IsChildOf(ImpactSlotScheduler::GetTypeId());
}

} // namespace

std::string
ImpactHoRoadConfig::Check() const
{
    std::ostringstream e;
    const std::vector<std::string> presets = KvCacheProfile::PresetNames();
    if (cells < 2 || cells > 64)
    {
        e << "--cells = " << cells << " is invalid; allowed: an integer in [2, 64]";
    }
    else if (!(spacing >= 50 && spacing <= 5000))
    {
        e << "--spacing = " << spacing << " is invalid; allowed: a distance in [50, 5000] m";
    }
    else if (!(rho > 0 && rho <= 50))
    {
        e << "--rho = " << rho << " is invalid; allowed: (0, 50] handovers/s";
    }
    else if (!(minSpeed > 0 && maxSpeed >= minSpeed && maxSpeed <= 100))
    {
        e << "--minSpeed = " << minSpeed << " and --maxSpeed = " << maxSpeed
          << " are invalid; allowed: 0 < minSpeed <= maxSpeed <= 100 m/s";
    }
    else if (contexts.empty() ||
             std::any_of(contexts.begin(), contexts.end(), [](uint32_t c) { return c < 1; }))
    {
        e << "contexts are invalid; allowed: one or more integers >= 1 (tokens)";
    }
    else if (std::find(presets.begin(), presets.end(), kvProfile) == presets.end())
    {
        e << "--kvProfile = " << kvProfile
          << " is invalid; allowed: " << edgellm::JoinNames(presets);
    }
    else if (const std::vector<std::string> computes = LlmComputeModel::PresetNames();
             std::find(computes.begin(), computes.end(), computePreset) == computes.end())
    {
        e << "--computePreset = " << computePreset
          << " is invalid; allowed: " << edgellm::JoinNames(computes);
    }
    else if (!KvCacheProfile::IsAllowedBits(kvBits))
    {
        e << "--kvBits = " << kvBits << " is invalid; allowed: 2, 4, 8 or 16";
    }
    else if (backhaulRate.GetBitRate() == 0)
    {
        e << "--backhaulRate = 0 is invalid; allowed: a rate > 0, e.g. 20Gbps";
    }
    else if (!slot.IsStrictlyPositive())
    {
        e << "--slot = " << slot.As(Time::MS) << " is invalid; allowed: a time > 0, e.g. 100ms";
    }
    else if (window.IsStrictlyNegative())
    {
        e << "--window = " << window.As(Time::MS)
          << " is invalid; allowed: a time >= 0 (0: no window), e.g. 500ms";
    }
    else if (!window.IsZero() && slot > window)
    {
        // The window is a whole number of slots, so it must hold one at least.
        e << "--slot = " << slot.As(Time::MS)
          << " is invalid; allowed: a time > 0, e.g. 100ms, and at most --window = "
          << window.As(Time::MS);
    }
    else if (!leadTime.IsStrictlyPositive() || leadTime.GetSeconds() * minSpeed >= spacing / 2)
    {
        e << "leadTime = " << leadTime.As(Time::S)
          << " is invalid; allowed: > 0, and short enough that a UE enters within the cell "
             "before its boundary (leadTime x minSpeed < spacing / 2)";
    }
    else if (tokens < 1)
    {
        e << "--tokens = 0 is invalid; allowed: an integer >= 1";
    }
    else if (LastArrivalS(*this) <= FIRST_ARRIVAL_S)
    {
        e << "--simTime = " << simTime.As(Time::S) << " is invalid; allowed: a time > "
          << FIRST_ARRIVAL_S + leadTime.GetSeconds() + window.GetSeconds() + DECODE_MARGIN_S
          << " s (" << FIRST_ARRIVAL_S << " s of attach, the lead time, the window and "
          << DECODE_MARGIN_S << " s for the last sessions to end)";
    }
    else if (order != "importance" && order != "random")
    {
        e << "--order = " << order << " is invalid; allowed: importance or random";
    }
    else if (bufferTime.IsStrictlyNegative() || bufferTime > Seconds(1))
    {
        e << "--bufferTime = " << bufferTime.As(Time::MS)
          << " is invalid; allowed: a time in [0, 1] s (the star's queues hold that long at B; "
             "at least 2 packets)";
    }
    else if (backhaulMtu < 576 || backhaulMtu > 65000)
    {
        e << "--backhaulMtu = " << backhaulMtu
          << " is invalid; allowed: an integer in [576, 65000]";
    }
    else if (overload != "equalized-bytes" && overload != "winner-take-all" &&
             overload != "admission" && overload != "no-admission")
    {
        e << "--overload = " << overload
          << " is invalid; allowed: equalized-bytes, winner-take-all, admission or no-admission";
    }
    else if (ueAirtime != "session" && ueAirtime != "run")
    {
        e << "--ueAirtime = " << ueAirtime << " is invalid; allowed: session or run";
    }
    else if (const std::string problem = edgellm::CheckRanFlag("ran", ran); !problem.empty())
    {
        e << problem;
    }
    else if (!(cachedPrompt >= 0 && cachedPrompt <= 1))
    {
        e << "--cachedPrompt = " << cachedPrompt << " is invalid; allowed: a fraction in [0, 1]";
    }
    else if (trigger != "a3" && trigger != "planned")
    {
        e << "--trigger = " << trigger << " is invalid; allowed: a3 or planned";
    }
    else if (!(goodput > 0 && goodput <= 1))
    {
        e << "--goodput = " << goodput << " is invalid; allowed: a fraction in (0, 1]";
    }
    return e.str();
}

ImpactAccuracyParams
ImpactHoRoadConfig::Curve() const
{
    return order == "random" ? ImpactAccuracyParams::RandomOrder()
                             : ImpactAccuracyParams::ImportanceOrder();
}

std::vector<std::pair<std::string, std::string>>
ImpactHoRoadConfig::ToParameters() const
{
    std::ostringstream contextText;
    for (std::size_t i = 0; i < contexts.size(); ++i)
    {
        contextText << (i ? "," : "") << contexts[i];
    }
    return {{"cells", std::to_string(cells)},
            {"spacing", std::to_string(spacing)},
            {"rho", std::to_string(rho)},
            {"minSpeed", std::to_string(minSpeed)},
            {"maxSpeed", std::to_string(maxSpeed)},
            {"contexts", contextText.str()},
            {"kvProfile", kvProfile},
            {"computePreset", computePreset},
            {"kvBits", std::to_string(kvBits)},
            {"backhaulRate", std::to_string(backhaulRate.GetBitRate()) + "bps"},
            {"slot", std::to_string(slot.GetMilliSeconds()) + "ms"},
            {"window", std::to_string(window.GetMilliSeconds()) + "ms"},
            {"leadTime", std::to_string(leadTime.GetMilliSeconds()) + "ms"},
            {"tokens", std::to_string(tokens)},
            {"simTime", std::to_string(simTime.GetMilliSeconds()) + "ms"},
            {"order", order},
            {"overload", overload},
            {"bufferTime", std::to_string(bufferTime.GetMicroSeconds()) + "us"},
            {"backhaulMtu", std::to_string(backhaulMtu)},
            {"ueAirtime", ueAirtime},
            {"ran", ran},
            {"cachedPrompt", std::to_string(cachedPrompt)},
            {"trigger", trigger},
            {"goodput", std::to_string(goodput)}};
}

std::vector<std::pair<std::string, std::string>>
ImpactHoRoadConfig::FlagAttributes()
{
    return {{"backhaulRate", "ns3::StarBackhaulTopology::SharedRate"},
            {"backhaulRate", "ns3::ImpactSlotScheduler::SharedRate"},
            {"slot", "ns3::ImpactSlotScheduler::Slot"},
            {"slot", "ns3::SlotBudgetKvTransferPolicy::SlotDuration"},
            {"window", "ns3::ImpactSlotScheduler::Window"},
            {"overload", "ns3::ImpactHoScheduler::Overload"},
            {"bufferTime", "ns3::StarBackhaulTopology::QueueSize"},
            {"backhaulMtu", "ns3::StarBackhaulTopology::Mtu"},
            {"ueAirtime", "ns3::EdgeLlmNetwork::UeAirtime"},
            {"kvProfile", "ns3::HandoverCoordinator::KvEntryBytes"},
            {"tokens", "ns3::EdgeLlmClient::TokensToGenerate"},
            {"cachedPrompt", "ns3::LlmEngine::CachedPromptFraction"},
            {"trigger", "ns3::EdgeLlmNetwork::Trigger"},
            {"goodput", "ns3::ImpactSlotScheduler::Goodput"},
            {"backhaulRate", "ns3::KvTransferSender::SocketBufferBytes"}};
}

ImpactHoAccuracySummary
SummariseImpactHoAccuracy(const std::vector<double>& accuracy, const ImpactAccuracyParams& curve)
{
    ImpactHoAccuracySummary s;
    s.count = static_cast<uint32_t>(accuracy.size());
    if (accuracy.empty())
    {
        s.mean = std::numeric_limits<double>::quiet_NaN();
        s.p5 = s.mean;
        return s;
    }
    s.mean = std::accumulate(accuracy.begin(), accuracy.end(), 0.0) / accuracy.size();
    s.p5 = edgellm::NearestRankPercentile(accuracy, 5);
    const double atInflection = ImpactAccuracyModel(curve).Accuracy(curve.inflection);
    for (double a : accuracy)
    {
        s.starved += a < atInflection ? 1 : 0;
    }
    return s;
}

double
ImpactHoClairvoyantBound(const ImpactHoRoadConfig& config,
                         const std::vector<HandoverRecord>& records,
                         uint64_t entryBytes)
{
    if (config.window.IsZero())
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const KvCacheProfile profile = KvCacheProfile::FromPreset(config.kvProfile, config.kvBits);
    const double slotS = config.slot.GetSeconds();
    ImpactClairvoyantInput in;
    in.capacityBps = static_cast<double>(config.backhaulRate.GetBitRate());
    in.slotSeconds = slotS;
    in.windowSlots = static_cast<uint32_t>(std::ceil(config.window.GetSeconds() / slotS - 1e-9));
    const ImpactAccuracyParams curve = config.Curve();
    for (const HandoverRecord& r : records)
    {
        if (r.outcome != HandoverRecord::MIGRATED)
        {
            continue;
        }
        ImpactClairvoyantUe ue;
        ue.cacheBits = 8.0 * static_cast<double>(r.contextTokens) * profile.GetLayers() *
                       profile.GetKvHeads() * static_cast<double>(entryBytes);
        ue.arrivalSlot = static_cast<uint32_t>(std::ceil(r.hoStart.GetSeconds() / slotS - 1e-9));
        ue.accuracy = curve;
        in.ues.push_back(ue);
    }
    return in.ues.empty() ? 0.0 : SolveImpactClairvoyantBound(in).bound;
}

std::vector<double>
ImpactHoSlotReference(const ImpactHoRoadConfig& config,
                      const std::string& scheme,
                      const std::vector<HandoverRecord>& records)
{
    const std::string typeName = edgellm::HandoverSchedulerTypeOf(scheme);
    if (config.window.IsZero() || !IsImpactScheme(typeName))
    {
        return {};
    }
    // A scheduler of the scheme, set as the run's, whose allocator the reference calls.
    Ptr<ImpactSlotScheduler> scheduler =
        edgellm::HandoverSchemeFactory(scheme).Create<ImpactSlotScheduler>();
    scheduler->SetAttribute("Slot", TimeValue(config.slot));
    scheduler->SetAttribute("Window", TimeValue(config.window));
    scheduler->SetAttribute("Order", StringValue(config.order));
    if (typeName == ImpactHoScheduler::GetTypeId().GetName())
    {
        scheduler->SetAttribute("Overload", StringValue(config.overload));
    }
    ImpactSlotReferenceInput in;
    in.capacityBps = static_cast<double>(config.backhaulRate.GetBitRate());
    in.slotSeconds = config.slot.GetSeconds();
    in.windowSeconds = config.window.GetSeconds();
    in.accuracy = config.Curve();
    for (const HandoverRecord& r : records)
    {
        if (r.outcome != HandoverRecord::MIGRATED)
        {
            continue;
        }
        ImpactSlotReferenceUe ue;
        ue.handoverS = r.hoStart.GetSeconds();
        ue.cacheBits = 8.0 * static_cast<double>(r.kvBytes);
        ue.positional = r.unit == KvTransferHeader::TOKEN;
        ue.prefixFraction = ue.positional && r.contextTokens > 0
                                ? std::min(1.0,
                                           static_cast<double>(r.prefillTokens) /
                                               static_cast<double>(r.contextTokens))
                                : 0.0;
        in.ues.push_back(ue);
    }
    return RunImpactSlotReference(in,
                                  [scheduler](const std::vector<ImpactSlotMember>& members,
                                              double capacityBps,
                                              double slotS) {
                                      return scheduler->AllocateSlot(members, capacityBps, slotS);
                                  })
        .accuracies;
}

ImpactHoRoadExperiment::ImpactHoRoadExperiment(const ImpactHoRoadConfig& config)
    : m_config(config)
{
    const std::string error = m_config.Check();
    if (!error.empty())
    {
        NS_FATAL_ERROR(error);
    }
}

const ImpactHoRoadConfig&
ImpactHoRoadExperiment::GetConfig() const
{
    return m_config;
}

ImpactHoRoadInputs
ImpactHoRoadExperiment::Draw() const
{
    const ImpactHoRoadConfig& c = m_config;
    Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
    gap->SetStream(ARRIVAL_STREAM);
    Ptr<UniformRandomVariable> speed = CreateObject<UniformRandomVariable>();
    speed->SetStream(ARRIVAL_STREAM + 1);
    Ptr<UniformRandomVariable> boundary = CreateObject<UniformRandomVariable>();
    boundary->SetStream(ARRIVAL_STREAM + 2);
    Ptr<UniformRandomVariable> context = CreateObject<UniformRandomVariable>();
    context->SetStream(ARRIVAL_STREAM + 3);
    ImpactHoRoadInputs in;
    in.arrivalS = DrawPoissonArrivals(gap, c.rho, FIRST_ARRIVAL_S, LastArrivalS(c), 4096);
    for (std::size_t j = 0; j < in.arrivalS.size(); ++j)
    {
        in.speed.push_back(speed->GetValue(c.minSpeed, c.maxSpeed));
        in.boundary.push_back(boundary->GetInteger(0, c.cells - 2));
        in.context.push_back(
            c.contexts[context->GetInteger(0, static_cast<uint32_t>(c.contexts.size()) - 1)]);
    }
    return in;
}

ImpactHoRoadRun
ImpactHoRoadExperiment::Run(const std::string& scheme,
                            const ImpactHoRoadInputs& inputs,
                            const Hook& hook) const
{
    const ImpactHoRoadConfig& c = m_config;
    ImpactHoRoadRun run;
    run.scheme = scheme;
    const std::string typeName = edgellm::HandoverSchedulerTypeOf(scheme);
    const KvCacheProfile profile = KvCacheProfile::FromPreset(c.kvProfile, c.kvBits);

    Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
    net->SetRanStack(CreateRanStack(c.ran, "--ran"));
    net->SetCellLayout(CreateObjectWithAttributes<RoadCellLayout>("Count",
                                                                  UintegerValue(c.cells),
                                                                  "Spacing",
                                                                  DoubleValue(c.spacing),
                                                                  "Offset",
                                                                  DoubleValue(ROAD_OFFSET)));
    // Every transfer crosses the star's shared link of B; the access links are no slower.
    // The shared port's buffer holds BufferTime at B (the rule of thumb of rate x RTT): a
    // shallow one drops the slots' bursts, and ns-3's 1 s minimum RTO then empties windows of
    // 500 ms.
    const auto bufferBytes = static_cast<uint32_t>(
        std::min(std::max(std::ceil(c.backhaulRate.GetBitRate() / 8.0 * c.bufferTime.GetSeconds()),
                          2.0 * c.backhaulMtu),
                 static_cast<double>(std::numeric_limits<uint32_t>::max())));
    Ptr<StarBackhaulTopology> star = CreateObjectWithAttributes<StarBackhaulTopology>(
        "QueueSize",
        QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, bufferBytes)),
        "Mtu",
        UintegerValue(c.backhaulMtu),
        "SharedRate",
        DataRateValue(c.backhaulRate),
        "AccessRate",
        DataRateValue(std::max(c.backhaulRate, DataRate("10Gbps"))));
    net->SetBackhaulTopology(star);
    // A sender sizes its TCP buffers from its first link, but a path of the star crosses three
    // (up, shared, down): its window would then cap a transfer near two thirds of B, and the
    // budgets, planned on B, would go unspent. So the buffers are sized from the whole path.
    Config::SetDefault("ns3::KvTransferSender::SocketBufferBytes",
                       UintegerValue(star->GetPathSocketBufferBytes(c.backhaulRate)));
    for (std::size_t j = 0; j < inputs.arrivalS.size(); ++j)
    {
        // It stands LeadTime of driving before its boundary until it enters, then drives on.
        const double boundaryX = (inputs.boundary[j] + 0.5) * c.spacing;
        EdgeLlmUeSpec ue;
        ue.start = Vector(boundaryX - inputs.speed[j] * c.leadTime.GetSeconds(), 0, 0);
        ue.velocity = Vector(inputs.speed[j], 0, 0);
        ue.moveStart = Seconds(inputs.arrivalS[j]);
        ue.sessionStart =
            Seconds(c.cachedPrompt == 1
                        ? inputs.arrivalS[j] + c.leadTime.GetSeconds() - CACHED_SESSION_LEAD_S
                        : inputs.arrivalS[j] - SESSION_LEAD_S);
        NS_LOG_INFO("UE " << j << ": enters at " << inputs.arrivalS[j] << " s at "
                          << inputs.speed[j] << " m/s, crosses boundary " << inputs.boundary[j]
                          << " at " << inputs.arrivalS[j] + c.leadTime.GetSeconds() << " s, "
                          << inputs.context[j] << " tokens");
        net->AddUe(ue);
    }
    net->SetAttribute("Trigger", StringValue(c.trigger));
    // Each UE matters from its session's start to its end, and the radio's work with it.
    net->SetAttribute("UeAirtime", StringValue(c.ueAirtime));
    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
    edge->SetScheme(scheme);
    if (IsImpactScheme(typeName))
    {
        edge->SetSchedulerAttribute("Slot", TimeValue(c.slot));
        edge->SetSchedulerAttribute("Window", TimeValue(c.window));
        edge->SetSchedulerAttribute("Order", StringValue(c.order));
        edge->SetSchedulerAttribute("SharedRate", DataRateValue(c.backhaulRate));
        edge->SetSchedulerAttribute("Goodput", DoubleValue(c.goodput));
        // The slot hook's budgets are spent by a per-slot KV-transfer policy of that slot.
        edge->SetKvTransferPolicyType("ns3::SlotBudgetKvTransferPolicy");
        edge->SetKvTransferPolicyAttribute("SlotDuration", TimeValue(c.slot));
    }
    // The coordinator weighs each session's cache by its servers' model.
    edge->SetServerAttribute("KvCache", PointerValue(KvCacheModel::FromProfile(profile)));
    // An entry on the wire: K and V of one head at KvBits, plus the metadata that places it.
    const uint64_t entryBytes = EntryBytes(profile);
    edge->SetCoordinatorAttribute("KvEntryBytes", UintegerValue(entryBytes));
    if (typeName == ImpactHoScheduler::GetTypeId().GetName())
    {
        edge->SetSchedulerAttribute("Overload", StringValue(c.overload));
    }
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(c.tokens));
    edge->SetEngineAttribute("CachedPromptFraction", DoubleValue(c.cachedPrompt));
    net->Build();
    net->AssignStreams(RADIO_STREAM);
    Ptr<GpuComputeModel> gpu = CreateObject<GpuComputeModel>();
    gpu->ApplyPreset(c.computePreset);
    for (uint32_t i = 0; i < net->GetServers().GetN(); ++i)
    {
        DynamicCast<EdgeLlmServer>(net->GetServers().Get(i))->GetEngine()->SetComputeModel(gpu);
    }

    uint64_t* budget = &run.budgetBytes;
    if (IsImpactScheme(typeName))
    {
        edge->GetCoordinator()->GetScheduler()->TraceConnectWithoutContext(
            "Budget",
            Callback<void, uint64_t, uint64_t, uint64_t>(
                [budget](uint64_t, uint64_t, uint64_t bytes) { *budget += bytes; }));
    }
    // Per (imsi, epoch): when each DATA message arrived, and the units arrived so far.
    std::map<std::pair<uint64_t, uint32_t>, std::vector<std::pair<double, uint64_t>>> arrivals;
    // Only the entry-unit plans of ImpactHO's slot schedulers read them.
    for (const auto& [cell, app] : edge->GetKvTransfers())
    {
        if (!IsImpactScheme(typeName))
        {
            break;
        }
        app->GetReceiver()->TraceConnectWithoutContext(
            "DataArrived",
            Callback<void, const KvTransferHeader&>([&arrivals](const KvTransferHeader& h) {
                auto& a = arrivals[{h.GetImsi(), h.GetEpoch()}];
                a.emplace_back(Simulator::Now().GetSeconds(),
                               (a.empty() ? 0 : a.back().second) + h.GetCount());
            }));
    }
    const uint32_t sessions = net->GetMovingUeCount();
    uint32_t completed = 0;
    for (uint32_t j = 0; j < sessions; ++j)
    {
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(net->GetClients().Get(j));
        client->SetAttribute("PromptTokens", UintegerValue(inputs.context[j]));
        client->TraceConnectWithoutContext(
            "SessionComplete",
            Callback<void, uint64_t>([&completed, sessions](uint64_t) {
                if (++completed == sessions)
                {
                    Simulator::Stop(MilliSeconds(1));
                }
            }));
    }
    if (hook)
    {
        hook(net);
    }
    Simulator::Stop(c.simTime);
    Simulator::Run();
    run.endTime = Simulator::Now();

    Ptr<HandoverCoordinator> coordinator = edge->GetCoordinator();
    run.records = coordinator->GetRecords();
    run.sessions = sessions;
    const ImpactAccuracyModel curve(c.Curve());
    const double y99 = curve.InverseAccuracy(0.99 * curve.GetParams().fullAccuracy);
    const double wholeCache =
        ImpactAccuracyModel(ImpactAccuracyParams::ImportanceOrder()).Accuracy(1.0);
    for (const HandoverRecord& r : run.records)
    {
        if (r.outcome != HandoverRecord::MIGRATED)
        {
            continue;
        }
        auto a = r.policyValues.find("accuracy");
        // tHO and cHO resume with the whole context: A(1), in any order the importance
        // curve's.
        run.accuracy.push_back(a != r.policyValues.end() ? a->second : wholeCache);
        run.abandonedBytes += r.abandonedBytes;
        run.worstDelayS = std::max(run.worstDelayS, (r.kvReady - r.hoStart).GetSeconds());
        double t99 = std::numeric_limits<double>::quiet_NaN();
        if (r.unit == KvTransferHeader::ENTRY)
        {
            const uint64_t total = CountUnits(r.transferRanges);
            const auto need = static_cast<uint64_t>(std::ceil(y99 * static_cast<double>(total)));
            auto it = arrivals.find({r.imsi, r.epoch});
            if (y99 <= 1 && it != arrivals.end())
            {
                auto at = std::find_if(it->second.begin(), it->second.end(), [need](auto& p) {
                    return p.second >= need;
                });
                if (at != it->second.end())
                {
                    t99 = at->first - r.hoStart.GetSeconds();
                }
            }
        }
        else
        {
            auto y = r.policyValues.find("fraction_arrived");
            if ((y == r.policyValues.end() || y->second >= 1) && !r.kvReady.IsStrictlyNegative())
            {
                t99 = (r.kvReady - r.hoStart).GetSeconds();
            }
        }
        run.timeTo99S.push_back(t99);
    }
    run.clairvoyantBound = ImpactHoClairvoyantBound(c, run.records, entryBytes);
    run.referenceAccuracy = ImpactHoSlotReference(c, scheme, run.records);
    // Beside each migrated handover's own accuracy in handovers.csv (policy_...). The bound
    // is the run's, on the sum over its handovers: each of them carries it, so that a table
    // of many runs gives each run's share of it.
    std::size_t k = 0;
    for (HandoverRecord& r : run.records)
    {
        if (r.outcome != HandoverRecord::MIGRATED)
        {
            continue;
        }
        if (k < run.referenceAccuracy.size())
        {
            r.policyValues["reference_accuracy"] = run.referenceAccuracy[k];
        }
        r.policyValues["time_to_99_s"] = run.timeTo99S[k];
        r.policyValues["run_clairvoyant_bound"] = run.clairvoyantBound;
        ++k;
    }
    for (uint32_t j = 0; j < sessions; ++j)
    {
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(net->GetClients().Get(j));
        run.complete += client->IsComplete() ? 1 : 0;
        const KvTransferSenderCounters s = net->GetKvSent(client->GetImsi());
        const KvTransferReceiverCounters r = net->GetKvReceived(client->GetImsi());
        run.sentBytes += s.sent;
        run.dataMessages += s.messages;
        run.ledgerBalances = run.ledgerBalances && KvLedgerBalances(s, r);
    }
    run.onAirPeak = net->GetUeAirtime() ? net->GetUeAirtime()->GetOnAirPeak() : sessions;
    run.results = CollectRunResults(scheme, run.records, net->GetClients());
    NoteClosedSessions(run.results, coordinator->GetClosedSessions());
    Simulator::Destroy();
    net->Dispose();
    return run;
}

} // namespace ns3
