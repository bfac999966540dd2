/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// With the control plane on the network, a cell knows its neighbours' GPU load only from
// what they report: a LOAD every ControlPeriod, one way over the control connection, so the
// window loop works on telemetry at least a one-way delay old.

#include "pallas-controller.h"

#include "ns3/abort.h"
#include "ns3/llm-engine.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PallasControllerLoad");

namespace
{

constexpr uint64_t kField = uint64_t{1} << 32; //!< a LOAD value's fields are each below it

} // namespace

void
PallasController::SetControlChannels(const std::map<uint16_t, Ptr<ControlChannel>>& channels)
{
    NS_ABORT_MSG_IF(m_period.IsStrictlyPositive(),
                    "PallasController::SetControlChannels: call it before Install");
    m_channels.clear();
    for (const auto& [cell, channel] : channels)
    {
        NS_ABORT_MSG_IF(!channel,
                        "PallasController::SetControlChannels: cell " << cell
                                                                      << "'s channel is null");
        if (cell == ControlMessage::CONTROLLER)
        {
            continue; // the controller node has no GPU to report
        }
        m_channels[cell] = channel;
        const uint16_t at = cell;
        const std::shared_ptr<bool> alive = m_alive;
        channel->TraceConnectWithoutContext("Rx",
                                            Callback<void, const ControlMessage&, Time>(
                                                [this, at, alive](const ControlMessage& m, Time) {
                                                    if (*alive && m.type == ControlMessage::LOAD)
                                                    {
                                                        LoadArrived(at, m);
                                                    }
                                                }));
    }
}

void
PallasController::SendLoads()
{
    const Time now = Simulator::Now();
    for (const auto& [cell, channel] : m_channels)
    {
        auto server = m_servers.find(cell);
        if (server == m_servers.end())
        {
            continue;
        }
        Ptr<LlmEngine> engine = server->second->GetEngine();
        const Time end = engine->GetIterationEnd();
        const Time busy = end > now ? end - now : Time(0);
        const auto busyUs =
            static_cast<uint64_t>(std::ceil(static_cast<double>(busy.GetNanoSeconds()) / 1000.0));
        const uint64_t queued = engine->GetQueuedPrefillTokens();
        const auto observed = m_observedPrefill.find(cell);
        const double rate = observed == m_observedPrefill.end() ? 0 : observed->second;
        NS_ABORT_MSG_IF(busyUs >= kField || queued >= kField ||
                            rate >= static_cast<double>(std::numeric_limits<uint32_t>::max()),
                        "PallasController: cell " << cell << "'s load does not fit a LOAD ("
                                                  << busyUs << " us to its iteration's end, "
                                                  << queued << " prefill tokens queued, " << rate
                                                  << " tokens/s; each below 2^32)");
        ControlMessage load;
        load.type = ControlMessage::LOAD;
        load.aboutCell = cell;
        load.sequence = static_cast<uint32_t>(std::lround(rate));
        load.value = queued * kField + busyUs;
        for (const auto& [peer, other] : m_servers)
        {
            if (peer != cell && channel->HasPeer(peer))
            {
                channel->Send(peer, load);
                ++m_loadsSent;
            }
        }
    }
    m_loadEvent = Simulator::Schedule(m_period, &PallasController::SendLoads, this);
}

void
PallasController::LoadArrived(uint16_t at, const ControlMessage& m)
{
    ++m_loadsReceived;
    LoadReport r;
    r.sentAt = NanoSeconds(m.sentAtNs);
    r.busy = MicroSeconds(static_cast<int64_t>(m.value % kField));
    r.queuedTokens = m.value / kField;
    r.prefillPerSecond = m.sequence;
    m_loads[{at, m.fromCell}] = r;
}

void
PallasController::SampleReportedLoad(uint16_t serving, uint16_t target, PallasTelemetry& t)
{
    t.loadS = 0; // idle, until the target says otherwise
    const auto report = m_loads.find({serving, target});
    if (report == m_loads.end())
    {
        ++m_modelledPrefill;
        return;
    }
    ++m_reportedLoads;
    const LoadReport& r = report->second;
    const Time end = r.sentAt + r.busy;
    const Time now = Simulator::Now();
    t.loadS = end > now ? (end - now).GetSeconds() : 0.0;
    if (m_measured && r.prefillPerSecond > 0)
    {
        t.prefillTokensPerSecond = r.prefillPerSecond;
        ++m_measuredPrefill;
    }
    else
    {
        ++m_modelledPrefill;
    }
    if (m_measured && t.prefillTokensPerSecond > 0)
    {
        t.loadS += static_cast<double>(r.queuedTokens) / t.prefillTokensPerSecond;
    }
}

uint64_t
PallasController::GetLoadsSent() const
{
    return m_loadsSent;
}

uint64_t
PallasController::GetLoadsReceived() const
{
    return m_loadsReceived;
}

uint64_t
PallasController::GetReportedLoadSamples() const
{
    return m_reportedLoads;
}

} // namespace ns3
