/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ctho-line-experiment.h"

#include "ctho-paper-scenario.h"
#include "flag-checks.h"
#include "handover-scheme-flag.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/edge-llm-client.h"
#include "ns3/gpu-compute-model.h"
#include "ns3/handover-scheme-registry.h"
#include "ns3/input-checks.h"
#include "ns3/kv-cache-model.h"
#include "ns3/kv-cache-profile.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/llm-engine.h"
#include "ns3/mobility-model.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr double NOT_MEASURED = std::numeric_limits<double>::quiet_NaN();

/// The stream index every run draws the radio from, so that schemes see the same radio.
constexpr int64_t RADIO_STREAM = 100;
/// The stream index of the backhaul loss draws, apart from the radio's.
constexpr int64_t FAULT_STREAM = 10000;

} // namespace

std::string
CtHoLineConfig::Check() const
{
    std::ostringstream e;
    if (numUes < 1 || numUes > 64)
    {
        e << "--numUes = " << numUes << " is invalid; allowed: an integer in [1, 64]";
    }
    else if (minPrompt < 1 || cMax < minPrompt)
    {
        e << "--cMax = " << cMax << " is invalid; allowed: an integer >= " << minPrompt
          << " (the smallest prompt)";
    }
    else if (backhaulRate.GetBitRate() == 0)
    {
        e << "--backhaulRate = 0bps is invalid; allowed: a rate > 0, e.g. 4.5Gbps";
    }
    else if (backhaulDelay.IsStrictlyNegative())
    {
        e << "--backhaulDelay = " << backhaulDelay.As(Time::US)
          << " is invalid; allowed: a time >= 0, e.g. 50us";
    }
    else if (!(prefillA >= 0) || !std::isfinite(prefillA))
    {
        e << "--prefillA = " << prefillA << " is invalid; allowed: a finite number >= 0";
    }
    else if (!(prefillB >= 0) || !std::isfinite(prefillB))
    {
        e << "--prefillB = " << prefillB << " is invalid; allowed: a finite number >= 0";
    }
    else if (prefillCycle.IsStrictlyNegative())
    {
        e << "--prefillCycle = " << prefillCycle.As(Time::MS)
          << " is invalid; allowed: a time >= 0 (0: no cycle), e.g. 10ms";
    }
    else if (!(bsDistance > 2 * maxStartX) || !std::isfinite(bsDistance))
    {
        e << "--bsDistance = " << bsDistance << " is invalid; allowed: a finite number > "
          << 2 * maxStartX << " m, so that the UEs start before the boundary";
    }
    else if (!(speed > 0) || !std::isfinite(speed))
    {
        e << "speed = " << speed << " is invalid; allowed: a finite number > 0";
    }
    else if (moveStart.IsStrictlyNegative())
    {
        e << "--moveStart = " << moveStart.As(Time::S)
          << " is invalid; allowed: a time >= 0, e.g. 2s";
    }
    else if (const std::string problem = edgellm::CheckRanFlag("ran", ran); !problem.empty())
    {
        e << problem;
    }
    else if (trigger != "boundary" && trigger != "a3" && trigger != "none")
    {
        e << "--trigger = " << trigger << " is invalid; allowed: boundary, a3 or none";
    }
    else if (batching != "oracle" && batching != "online")
    {
        e << "--batching = " << batching << " is invalid; allowed: oracle or online";
    }
    else if (batching == "oracle" && trigger != "boundary")
    {
        e << "--batching=oracle with --trigger=" << trigger
          << " is invalid; oracle batching knows the handover times in advance, which only "
             "--trigger=boundary schedules: use --batching=online";
    }
    else if (tokensAfter < 1)
    {
        e << "--tokensAfter = 0 is invalid; allowed: an integer >= 1";
    }
    else if (residentUes > 100)
    {
        e << "--residentUes = " << residentUes << " is invalid; allowed: an integer in [0, 100]";
    }
    else if (!(maxSimTime.IsStrictlyPositive()))
    {
        e << "maxSimTime = " << maxSimTime.As(Time::S) << " is invalid; allowed: a time > 0";
    }
    else
    {
        const std::vector<std::string> presets = KvCacheProfile::PresetNames();
        if (std::find(presets.begin(), presets.end(), kvProfile) == presets.end())
        {
            e << "--kvProfile = " << kvProfile
              << " is invalid; allowed: " << edgellm::JoinNames(presets);
        }
        else
        {
            try
            {
                KvCacheProfile::FromPreset(kvProfile, kvBits);
            }
            catch (const std::invalid_argument& error)
            {
                e << "--kvProfile = " << kvProfile << " with kvBits = " << kvBits
                  << " is invalid: " << error.what();
            }
        }
    }
    if (e.str().empty())
    {
        return faults.Check();
    }
    return e.str();
}

void
CtHoLineConfig::Validate() const
{
    const std::string error = Check();
    NS_ABORT_MSG_IF(!error.empty(), error);
}

std::vector<std::pair<std::string, std::string>>
CtHoLineConfig::FlagAttributes()
{
    std::vector<std::pair<std::string, std::string>> pairs{
        {"numUes", "ns3::EdgeLlmLineScenario::UeCount"},
        {"bsDistance", "ns3::EdgeLlmLineScenario::EnbSpacing"},
        {"trigger", "ns3::EdgeLlmLineScenario::Trigger"},
        {"moveStart", "ns3::EdgeLlmLineScenario::MoveStart"},
        {"residentUes", "ns3::EdgeLlmLineScenario::ResidentUesPerEnb"},
        {"backhaulRate", "ns3::BackhaulHelper::DataRate"},
        {"backhaulDelay", "ns3::BackhaulHelper::Delay"},
        {"prefillA", "ns3::GpuComputeModel::PrefillSecondsPerToken"},
        {"prefillB", "ns3::GpuComputeModel::PrefillFixedSeconds"},
        {"prefillCycle", "ns3::LlmEngine::PrefillCycle"},
        {"batching", "ns3::HandoverCoordinator::Batching"},
        {"plannedBackhaulRate", "ns3::HandoverCoordinator::PlannedBackhaulRate"},
        {"cMax", "ns3::EdgeLlmClient::PromptTokens"},
        {"tokensAfter", "ns3::EdgeLlmClient::TokensToGenerate"},
    };
    for (const auto& pair : FaultConfig::FlagAttributes())
    {
        pairs.push_back(pair);
    }
    return pairs;
}

std::vector<std::pair<std::string, std::string>>
CtHoLineConfig::ToParameters() const
{
    auto text = [](const auto& v) {
        std::ostringstream os;
        os << v;
        return os.str();
    };
    std::vector<std::pair<std::string, std::string>> parameters{
        {"numUes", text(numUes)},
        {"minPrompt", text(minPrompt)},
        {"cMax", text(cMax)},
        {"backhaulRate", text(backhaulRate.GetBitRate()) + "bps"},
        {"plannedBackhaulRate", text(plannedBackhaulRate.GetBitRate()) + "bps"},
        {"backhaulDelay", text(backhaulDelay.GetNanoSeconds()) + "ns"},
        {"prefillA", text(prefillA)},
        {"prefillB", text(prefillB)},
        {"prefillCycle", text(prefillCycle.GetNanoSeconds()) + "ns"},
        {"bsDistance", text(bsDistance)},
        {"minStartX", text(minStartX)},
        {"maxStartX", text(maxStartX)},
        {"speed", text(speed)},
        {"moveStart", text(moveStart.GetNanoSeconds()) + "ns"},
        {"trigger", trigger},
        {"batching", batching},
        {"ran", ran},
        {"kvProfile", kvProfile},
        {"kvBits", text(kvBits)},
        {"tokensAfter", text(tokensAfter)},
        {"residentUes", text(residentUes)},
        {"maxSimTime", text(maxSimTime.GetNanoSeconds()) + "ns"}};
    for (const auto& pair : faults.ToParameters())
    {
        parameters.push_back(pair);
    }
    return parameters;
}

bool
CtHoLineInputs::operator==(const CtHoLineInputs& other) const
{
    return startX == other.startX && prompts == other.prompts && batches == other.batches;
}

CtHoLineExperiment::CtHoLineExperiment(CtHoLineConfig config)
    : m_config(std::move(config))
{
    m_config.Validate();
}

std::string
CtHoLineExperiment::SchedulerTypeOf(const std::string& scheme)
{
    // The flag's own check, so that every front refuses a name with the same words.
    std::string invalid;
    try
    {
        HandoverSchemeFlag({}, scheme).GetSchemes();
    }
    catch (const std::invalid_argument& e)
    {
        invalid = e.what();
    }
    NS_ABORT_MSG_IF(!invalid.empty(), invalid);
    return edgellm::HandoverSchedulerTypeOf(scheme);
}

std::vector<std::string>
CtHoLineExperiment::PaperSchemes()
{
    return {"tho", "cho", "ctho", "detour"};
}

CtHoLineInputs
CtHoLineExperiment::Draw() const
{
    Ptr<CtHoPaperScenario> paper = CreateObject<CtHoPaperScenario>();
    paper->SetAttribute("UeCount", UintegerValue(m_config.numUes));
    paper->SetAttribute("MinContext", UintegerValue(m_config.minPrompt));
    paper->SetAttribute("MaxContext", UintegerValue(m_config.cMax));
    paper->SetAttribute("BsDistance", DoubleValue(m_config.bsDistance));
    paper->SetAttribute("MinStartX", DoubleValue(m_config.minStartX));
    paper->SetAttribute("MaxStartX", DoubleValue(m_config.maxStartX));
    paper->AssignStreams(0);
    CtHoLineInputs inputs;
    for (const CtHoPaperUe& ue : paper->Draw())
    {
        inputs.startX.push_back(ue.startX);
        inputs.prompts.push_back(static_cast<uint32_t>(ue.contextTokens));
    }
    return inputs;
}

CtHoLineRun
CtHoLineExperiment::Run(const std::string& scheme,
                        const CtHoLineInputs& inputs,
                        Hook before,
                        Hook after) const
{
    const CtHoLineConfig& c = m_config;
    NS_ABORT_MSG_IF(inputs.startX.size() != c.numUes || inputs.prompts.size() != c.numUes,
                    "CtHoLineExperiment::Run: inputs for " << inputs.startX.size()
                                                           << " UEs, but --numUes = " << c.numUes);
    CtHoLineRun run;
    run.scheme = scheme;
    const KvCacheProfile profile = KvCacheProfile::FromPreset(c.kvProfile, c.kvBits);

    Ptr<EdgeLlmLineScenario> s = CreateObject<EdgeLlmLineScenario>();
    s->SetRanStack(CreateRanStack(c.ran, "--ran"));
    s->SetAttribute("EnbCount", UintegerValue(2));
    s->SetAttribute("EnbSpacing", DoubleValue(c.bsDistance));
    s->SetAttribute("UeCount", UintegerValue(c.numUes));
    s->SetAttribute("UeSpeed", DoubleValue(c.speed));
    s->SetAttribute("Trigger", StringValue(c.trigger));
    s->SetAttribute("MoveStart", TimeValue(c.moveStart));
    s->SetAttribute("SessionStart", TimeValue(Seconds(0)));
    s->SetAttribute("SessionStagger", TimeValue(Seconds(0)));
    s->SetAttribute("ResidentUesPerEnb", UintegerValue(c.residentUes));
    s->SetUeStartPositions(inputs.startX);
    s->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(c.backhaulRate));
    s->GetBackhaulHelper()->SetAttribute("Delay", TimeValue(c.backhaulDelay));

    Ptr<GpuComputeModel> gpu = CreateObject<GpuComputeModel>();
    gpu->SetAttribute("PrefillSecondsPerToken", DoubleValue(c.prefillA));
    gpu->SetAttribute("PrefillFixedSeconds", DoubleValue(c.prefillB));
    run.compute = gpu->GetModel();

    // Tokens decoded before the handover, at the decode rate of the whole batch: each session
    // asks for that many plus tokensAfter, so that it runs about tokensAfter past it.
    uint64_t batchContext = 0;
    for (uint32_t p : inputs.prompts)
    {
        batchContext += p;
    }
    // The source serves the moving UEs and its own residents.
    const uint32_t sequences = c.numUes + c.residentUes;
    batchContext += uint64_t(c.residentUes) * c.minPrompt;
    const double step = std::max(run.compute.DecodeStepTime(sequences, batchContext), 1e-4);
    std::vector<uint32_t> tokens;
    for (uint32_t j = 0; j < c.numUes; ++j)
    {
        const double crossing =
            c.moveStart.GetSeconds() + (c.bsDistance / 2 - inputs.startX[j]) / c.speed;
        tokens.push_back(static_cast<uint32_t>(std::ceil(crossing / step)) + c.tokensAfter);
    }

    Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
    // The flag's check first, so that a bad name is refused with the flag's words.
    SchedulerTypeOf(scheme);
    edge->SetScheme(scheme);
    // Batches fixed in hindsight are oracle groups, whatever the trigger.
    edge->SetCoordinatorAttribute("Batching",
                                  StringValue(inputs.batches.empty() ? c.batching : "oracle"));
    edge->SetCoordinatorAttribute("PlannedBackhaulRate", DataRateValue(c.plannedBackhaulRate));
    // The coordinator weighs each session's cache by its servers' model.
    edge->SetServerAttribute("KvCache", PointerValue(KvCacheModel::FromProfile(profile)));
    edge->SetEngineAttribute("PrefillCycle", TimeValue(c.prefillCycle));
    // Residents decode for the whole run.
    edge->SetClientAttribute("PromptTokens", UintegerValue(c.minPrompt));
    edge->SetClientAttribute(
        "TokensToGenerate",
        UintegerValue(static_cast<uint32_t>(c.maxSimTime.GetSeconds() / step) + 1));
    s->Build();
    s->AssignStreams(RADIO_STREAM);

    for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
    {
        DynamicCast<EdgeLlmServer>(s->GetServers().Get(i))->GetEngine()->SetComputeModel(gpu);
    }
    Ptr<HandoverCoordinator> coordinator = edge->GetCoordinator();
    const uint16_t cell1 = DynamicCast<EdgeLlmServer>(s->GetServers().Get(0))->GetCellId();
    const uint16_t cell2 = DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))->GetCellId();
    run.plannedTokensPerSecond = coordinator->GetPlannedTokensPerSecond(cell1, cell2);
    run.prefillCycleS = c.prefillCycle.GetSeconds();
    for (const auto& batch : inputs.batches)
    {
        coordinator->AddOracleGroup(batch);
    }
    if (c.batching == "oracle" && inputs.batches.empty())
    {
        std::vector<std::pair<uint64_t, Time>> group;
        std::set<uint32_t> seen;
        for (const EdgeLlmBoundaryCrossing& x : s->GetBoundaryCrossings())
        {
            if (seen.insert(x.ue).second)
            {
                group.emplace_back(x.imsi, x.time);
            }
        }
        coordinator->AddOracleGroup(group);
    }

    run.ues.resize(c.numUes);
    // The run ends once the moving UEs are done and no KV byte of theirs is still in the
    // backhaul, so that the ledger can be checked whole; an outage can hold bytes a while.
    std::function<void()> drained;
    drained = [&drained, &run, s]() {
        Ptr<EdgeLlmNetwork> network = s->GetNetwork();
        uint64_t sent = 0;
        uint64_t arrived = 0;
        for (const CtHoLineUe& ue : run.ues)
        {
            sent += network->GetKvSent(ue.imsi).sent;
            const KvTransferReceiverCounters r = network->GetKvReceived(ue.imsi);
            arrived += r.received + r.stale;
        }
        if (arrived >= sent)
        {
            Simulator::Stop(MilliSeconds(1));
            return;
        }
        Simulator::Schedule(MilliSeconds(100), drained);
    };
    std::set<uint64_t> moving;
    std::set<uint64_t> finished;
    // Residents would decode on: the run ends when the moving UEs are done.
    std::function<void(uint64_t)> done = [&moving, &finished, &drained](uint64_t imsi) {
        if (moving.count(imsi) > 0 && finished.insert(imsi).second &&
            finished.size() == moving.size())
        {
            drained();
        }
    };
    for (uint32_t j = 0; j < c.numUes; ++j)
    {
        moving.insert(DynamicCast<EdgeLlmClient>(s->GetClients().Get(j))->GetImsi());
    }
    for (uint32_t j = 0; j < c.numUes; ++j)
    {
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(s->GetClients().Get(j));
        client->SetAttribute("PromptTokens", UintegerValue(inputs.prompts[j]));
        client->SetAttribute("TokensToGenerate", UintegerValue(tokens[j]));
        run.ues[j].imsi = client->GetImsi();
        run.ues[j].tokensToGenerate = tokens[j];
        std::map<uint32_t, double>* sit = &run.ues[j].sitByMark;
        client->TraceConnectWithoutContext(
            "ServiceInterruption",
            Callback<void, uint64_t, uint32_t, Time>(
                [sit](uint64_t, uint32_t mark, Time t) { (*sit)[mark] = t.GetSeconds(); }));
        client->TraceConnectWithoutContext("SessionComplete", Callback<void, uint64_t>(done));
    }
    // A session closed after a radio link failure is done too: it will never complete.
    coordinator->TraceConnectWithoutContext(
        "SessionClosed",
        Callback<void, uint64_t, uint64_t, uint64_t>(
            [&done](uint64_t imsi, uint64_t, uint64_t) { done(imsi); }));
    // The inputs as the network holds them, not as they were asked for: a scheme that drew
    // its own, or a scenario that moved a UE, shows here.
    run.inputs.batches = inputs.batches;
    for (uint32_t j = 0; j < c.numUes; ++j)
    {
        run.inputs.startX.push_back(
            s->GetUeNodes().Get(j)->GetObject<MobilityModel>()->GetPosition().x);
        UintegerValue prompt;
        s->GetClients().Get(j)->GetAttribute("PromptTokens", prompt);
        run.inputs.prompts.push_back(static_cast<uint32_t>(prompt.Get()));
    }
    FaultInjection faults;
    {
        std::vector<Ptr<LlmEngine>> engines;
        for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
        {
            engines.push_back(DynamicCast<EdgeLlmServer>(s->GetServers().Get(i))->GetEngine());
        }
        faults.Install(c.faults, s->GetBackhaulLinks(), coordinator, engines, FAULT_STREAM);
    }
    if (before)
    {
        before(s);
    }
    Simulator::Stop(c.maxSimTime);
    Simulator::Run();
    run.endTime = Simulator::Now();
    run.faults = faults.GetCounts();

    run.records = coordinator->GetRecords();
    std::map<uint64_t, std::size_t> ueOf;
    for (uint32_t j = 0; j < c.numUes; ++j)
    {
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(s->GetClients().Get(j));
        CtHoLineUe& ue = run.ues[j];
        ue.delivered = client->GetDeliveredTokens();
        ue.duplicates = client->GetDuplicates();
        ue.complete = client->IsComplete();
        ue.deliveryNs = client->GetDeliveryTimesNs();
        ueOf[ue.imsi] = j;
    }
    for (const HandoverRecord& r : run.records)
    {
        double first = NOT_MEASURED;
        double sit = NOT_MEASURED;
        auto u = ueOf.find(r.imsi);
        if (u != ueOf.end() && r.outcome != HandoverRecord::CANCELLED &&
            r.outcome != HandoverRecord::NO_SESSION)
        {
            const CtHoLineUe& ue = run.ues[u->second];
            if (r.resumeIndex < ue.deliveryNs.size())
            {
                first = ue.deliveryNs[r.resumeIndex] * 1e-9;
            }
            auto mark = ue.sitByMark.find(r.resumeIndex - 1);
            if (r.resumeIndex > 0 && mark != ue.sitByMark.end())
            {
                sit = mark->second;
            }
        }
        run.firstTokenAfterS.push_back(first);
        run.sitS.push_back(sit);
    }
    // Over every cell and every backhaul path, not along the line.
    Ptr<EdgeLlmNetwork> network = s->GetNetwork();
    run.streamBytesReceived = network->GetKvStreamBytesReceived();
    run.streamBytesSent = network->GetKvStreamBytesSent();
    for (const CtHoLineUe& ue : run.ues)
    {
        run.received += network->GetKvReceived(ue.imsi);
        run.sent += network->GetKvSent(ue.imsi);
    }
    run.results = CollectRunResults(scheme, run.records, s->GetClients());
    NoteClosedSessions(run.results, coordinator->GetClosedSessions());
    if (after)
    {
        after(s);
    }
    Simulator::Destroy();
    s->Dispose();
    return run;
}

std::vector<CtHoLineGroupSummary>
CtHoLineExperiment::Summarize(const CtHoLineRun& run)
{
    std::map<uint32_t, std::vector<const HandoverRecord*>> groups;
    for (const HandoverRecord& r : run.records)
    {
        if (r.outcome == HandoverRecord::MIGRATED)
        {
            groups[r.group].push_back(&r);
        }
    }
    std::vector<CtHoLineGroupSummary> out;
    for (const auto& [group, records] : groups)
    {
        CtHoLineGroupSummary g;
        g.group = group;
        g.sessions = records.size();
        CtHoInput input;
        input.backhaulTokensPerSecond = run.plannedTokensPerSecond;
        input.prefillCycle = run.prefillCycleS;
        double sum = 0;
        for (const HandoverRecord* r : records)
        {
            const double delay = (r->kvReady - r->hoStart).GetSeconds();
            g.worstDelayS = std::max(g.worstDelayS, delay);
            sum += delay;
            input.ues.push_back({r->contextTokens, r->hoStart.GetSeconds()});
        }
        g.meanDelayS = sum / records.size();
        g.analytic = SchemeValue(run.scheme, CtHoSolver(input, run.compute));
        g.ratio = g.analytic.worstDelay > 0 ? g.worstDelayS / g.analytic.worstDelay : NOT_MEASURED;
        out.push_back(g);
    }
    return out;
}

} // namespace ns3
