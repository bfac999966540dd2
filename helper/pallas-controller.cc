/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pallas-controller.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/explaining-checker.h"
#include "ns3/llm-engine.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PallasController");

NS_OBJECT_ENSURE_REGISTERED(PallasController);

TypeId
PallasController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PallasController")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<PallasController>()
            .AddAttribute(
                "MeasuredTelemetry",
                "true: the target's prefill rate is the tokens per second of its engine's latest "
                "prefill iteration (its compute model's C / p(C) until it has run one); T_load "
                "adds its queued prefill tokens at that rate to the end of its current iteration "
                "(under Mixed iterations with the coordinator's EngineForecast, the engine's "
                "replay gives T_load either way, unless the control plane is on the network: "
                "then all of it comes from the target's LOAD reports); the backhaul rate is the "
                "goodput the target's receiver last timed on a transfer from the serving cell "
                "(the planned rate until one). false: C / p(C), the iteration's end and the "
                "planned rate.",
                BooleanValue(true),
                MakeBooleanAccessor(&PallasController::m_measured),
                edgellm::MakeExplainingBooleanChecker("ns3::PallasController::MeasuredTelemetry"))
            .AddTraceSource("Sampled",
                            "The target's telemetry a prediction was sampled with (a session "
                            "decoding at the serving cell, a target with a server): IMSI, "
                            "serving cell, target cell, T_load (s), the target's prefill rate "
                            "(tokens/s).",
                            MakeTraceSourceAccessor(&PallasController::m_sampledTrace),
                            "ns3::PallasController::SampledTracedCallback");
    return tid;
}

PallasController::PallasController() = default;

PallasController::~PallasController()
{
    *m_alive = false;
}

uint64_t
PallasController::GetMeasuredPrefillSamples() const
{
    return m_measuredPrefill;
}

uint64_t
PallasController::GetModelledPrefillSamples() const
{
    return m_modelledPrefill;
}

uint64_t
PallasController::GetMeasuredBackhaulSamples() const
{
    return m_measuredBackhaul;
}

uint64_t
PallasController::GetPlannedBackhaulSamples() const
{
    return m_plannedBackhaul;
}

uint64_t
PallasController::GetForecastLoadSamples() const
{
    return m_forecastLoads;
}

void
PallasController::DoDispose()
{
    m_coordinator = nullptr;
    m_scheduler = nullptr;
    m_pallas = nullptr;
    m_servers.clear();
    m_channels.clear();
    m_loadEvent.Cancel();
    *m_alive = false;
    Object::DoDispose();
}

void
PallasController::SetCoordinator(Ptr<HandoverCoordinator> coordinator)
{
    NS_ABORT_MSG_IF(!coordinator, "PallasController::SetCoordinator: coordinator is null");
    m_coordinator = coordinator;
    m_scheduler = coordinator->GetScheduler();
    m_pallas = DynamicCast<PallasScheduler>(m_scheduler);
}

void
PallasController::SetServers(const std::map<uint16_t, Ptr<EdgeLlmServer>>& servers)
{
    m_servers = servers;
    for (const auto& [cell, server] : servers)
    {
        NS_ABORT_MSG_IF(!server,
                        "PallasController::SetServers: cell " << cell << "'s server is null");
        // What each engine's prefill iterations really took: the measured prefill rate. An
        // engine may outlive the controller: the flag stops the callback from reaching it.
        const uint16_t id = cell;
        const std::shared_ptr<bool> alive = m_alive;
        server->GetEngine()->TraceConnectWithoutContext(
            "IterationStarted",
            Callback<void, LlmEngine::IterationKind, uint32_t, uint64_t, Time>(
                [this,
                 id,
                 alive](LlmEngine::IterationKind kind, uint32_t, uint64_t tokens, Time d) {
                    if (*alive && kind == LlmEngine::IterationKind::PREFILL && tokens > 0 &&
                        d.IsStrictlyPositive())
                    {
                        m_observedPrefill[id] = static_cast<double>(tokens) / d.GetSeconds();
                    }
                }));
    }
}

void
PallasController::Install(Ptr<HandoverPredictor> predictor)
{
    NS_ABORT_MSG_IF(!predictor, "PallasController::Install: predictor is null");
    NS_ABORT_MSG_IF(!m_coordinator, "PallasController::Install: no coordinator (SetCoordinator)");
    m_period = predictor->GetControlPeriod();
    predictor->TraceConnectWithoutContext("Prediction",
                                          MakeCallback(&PallasController::OnPrediction, this));
    if (!m_channels.empty())
    {
        m_loadEvent = Simulator::ScheduleNow(&PallasController::SendLoads, this);
    }
}

uint64_t
PallasController::GetPrepares() const
{
    return m_prepares;
}

uint64_t
PallasController::GetCancels() const
{
    return m_cancels;
}

double
PallasController::QueuedAhead(uint64_t imsi, uint16_t target, double atS) const
{
    double ahead = 0;
    for (const auto& [other, p] : m_predicted)
    {
        if (other != imsi && p.target == target && p.atS <= atS)
        {
            ahead += p.prefillS;
        }
    }
    return ahead;
}

void
PallasController::Sample(uint64_t imsi, uint16_t serving, uint16_t target)
{
    if (!m_pallas)
    {
        return; // only Pallas's window loop reads telemetry
    }
    const double now = Simulator::Now().GetSeconds();
    PallasTelemetry t;
    auto source = m_servers.find(serving);
    if (source != m_servers.end())
    {
        Ptr<LlmEngine> engine = source->second->GetEngine();
        if (engine->HasSession(imsi))
        {
            t.contextTokens = engine->GetContextTokens(imsi);
            const uint64_t generated = engine->GetGeneratedTokens(imsi);
            Progress& p = m_progress[imsi];
            if (p.cell == serving && p.atS >= 0 && now > p.atS && generated > p.generated)
            {
                t.decodeTokensPerSecond =
                    static_cast<double>(generated - p.generated) / (now - p.atS);
            }
            p = {now, generated, serving};
        }
    }
    auto dest = m_servers.find(target);
    const bool sampled = dest != m_servers.end() && t.contextTokens > 0;
    if (sampled)
    {
        // The target's compute model is its configuration, known beforehand like a datasheet:
        // its rate until a measured one replaces it.
        const double p =
            dest->second->GetEngine()->GetLlmComputeModel().PrefillTime(t.contextTokens);
        t.prefillTokensPerSecond = p > 0 ? static_cast<double>(t.contextTokens) / p : 0;
    }
    if (sampled && !m_channels.empty() && target != serving)
    {
        SampleReportedLoad(serving, target, t);
    }
    else if (sampled)
    {
        Ptr<LlmEngine> engine = dest->second->GetEngine();
        t.loadS = std::max(0.0, engine->GetIterationEnd().GetSeconds() - now);
        const auto observed = m_observedPrefill.find(target);
        if (m_measured && observed != m_observedPrefill.end())
        {
            t.prefillTokensPerSecond = observed->second;
            ++m_measuredPrefill;
        }
        else
        {
            ++m_modelledPrefill;
        }
        const std::vector<LlmEngine::PrefillForecast> f =
            m_coordinator->ReplaysEngine(target)
                ? m_coordinator->ForecastPrefills(target,
                                                  {t.contextTokens},
                                                  Simulator::Now(),
                                                  {imsi})
                : std::vector<LlmEngine::PrefillForecast>{};
        if (!f.empty() && f.front().start != Time::Max())
        {
            // Under Mixed iterations the engine's replay of them says when the prefill's first
            // chunk would run, behind what is queued and beside what decodes there.
            t.loadS = (f.front().start - Simulator::Now()).GetSeconds();
            ++m_forecastLoads;
        }
        else if (m_measured && t.prefillTokensPerSecond > 0)
        {
            // The prefills queued there run before this one would.
            t.loadS +=
                static_cast<double>(engine->GetQueuedPrefillTokens()) / t.prefillTokensPerSecond;
        }
    }
    if (target != 0 && target != serving)
    {
        // What the target's receiver last timed on a transfer from here, once there was one;
        // before, the rate the coordinator plans the link with.
        const double measured =
            m_measured ? m_coordinator->GetMeasuredTokensPerSecond(serving, target) : 0;
        if (measured > 0)
        {
            t.backhaulKvTokensPerSecond = measured;
            ++m_measuredBackhaul;
        }
        else
        {
            t.backhaulKvTokensPerSecond = m_coordinator->GetPlannedTokensPerSecond(serving, target);
            ++m_plannedBackhaul;
        }
    }
    if (sampled)
    {
        m_sampledTrace(imsi, serving, target, t.loadS, t.prefillTokensPerSecond);
    }
    m_pallas->Observe(t, now);
}

void
PallasController::OnPrediction(uint64_t imsi,
                               uint16_t servingCellId,
                               const HandoverPrediction& prediction)
{
    NS_LOG_FUNCTION(this << imsi << servingCellId << prediction.found << prediction.targetCell
                         << prediction.handoverTimeS);
    const bool handover =
        prediction.found && prediction.targetCell != 0 && prediction.targetCell != servingCellId;
    Sample(imsi, servingCellId, handover ? prediction.targetCell : 0);
    const bool prepared = m_coordinator->GetMigrationState(imsi) == HandoverCoordinator::PREPARED;
    auto it = m_prepared.find(imsi);
    const uint16_t preparedTarget = prepared && it != m_prepared.end() ? it->second : 0;
    if (!handover || prepared)
    {
        m_predicted.erase(imsi);
    }
    const Time now = Simulator::Now();
    HandoverPredictionView view;
    view.imsi = imsi;
    view.servingCell = servingCellId;
    view.targetCell = handover ? prediction.targetCell : 0;
    view.now = now;
    view.handoverAt = handover ? std::max(now, Seconds(prediction.handoverTimeS)) : now;
    view.period = m_period;
    view.prepared = prepared;
    view.preparedTarget = preparedTarget;
    if (!handover)
    {
        if (m_scheduler->ShouldCancel(view) && m_coordinator->CancelPrepared(imsi))
        {
            ++m_cancels;
            NS_LOG_INFO("imsi " << imsi << ": prediction withdrawn, prepared migration cancelled");
        }
        m_prepared.erase(imsi);
        return;
    }
    const Time expected = view.handoverAt;
    if (!prepared)
    {
        Predicted& p = m_predicted[imsi];
        p.target = prediction.targetCell;
        p.atS = expected.GetSeconds();
        auto source = m_servers.find(servingCellId);
        auto dest = m_servers.find(prediction.targetCell);
        if (source != m_servers.end() && dest != m_servers.end() &&
            source->second->GetEngine()->HasSession(imsi))
        {
            const uint64_t context = source->second->GetEngine()->GetContextTokens(imsi);
            // Pallas's own prefix when it schedules (none without recompute), else its split.
            Ptr<PallasScheduler> pallas = DynamicCast<PallasScheduler>(m_scheduler);
            const uint64_t prefix =
                pallas ? pallas->PrefixFor(context) : PallasScheduler::SplitPoint(context);
            p.prefillS = prefix > 0
                             ? dest->second->GetEngine()->GetLlmComputeModel().PrefillTime(prefix)
                             : 0;
        }
    }
    view.queuedAhead = Seconds(QueuedAhead(imsi, prediction.targetCell, expected.GetSeconds()));
    if (m_scheduler->ShouldCancel(view))
    {
        if (m_coordinator->CancelPrepared(imsi))
        {
            ++m_cancels;
            m_prepared.erase(imsi);
            NS_LOG_INFO("imsi " << imsi << ": prepared migration for cell " << preparedTarget
                                << " cancelled at a prediction for cell " << prediction.targetCell);
        }
        return;
    }
    if (prepared && preparedTarget == prediction.targetCell)
    {
        m_coordinator->PrepareHandover(imsi, prediction.targetCell, expected); // time only
        return;
    }
    if (!m_scheduler->ShouldPrepare(view))
    {
        return;
    }
    if (m_coordinator->PrepareHandover(imsi, prediction.targetCell, expected))
    {
        ++m_prepares;
        m_predicted.erase(imsi);
        m_prepared[imsi] = prediction.targetCell;
        NS_LOG_INFO("imsi " << imsi << ": prepared for cell " << prediction.targetCell << ", "
                            << (expected - now).As(Time::MS) << " before the predicted handover");
    }
    else if (prepared)
    {
        // The coordinator cancelled the old target's migration and could not prepare the new.
        m_prepared.erase(imsi);
    }
}

} // namespace ns3
