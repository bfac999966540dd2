/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fault-config.h"

#include "flag-checks.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <sstream>

namespace ns3
{

std::string
FaultConfig::Check() const
{
    std::ostringstream e;
    BackhaulFaults::CrossTrafficKind kind;
    if (!(backhaulLoss >= 0 && backhaulLoss < 1))
    {
        e << "--backhaulLoss = " << backhaulLoss << " is invalid; allowed: a probability in [0, 1)";
    }
    else if (!outageFor.IsStrictlyPositive())
    {
        e << "--outageFor = " << outageFor.As(Time::S)
          << " is invalid; allowed: a time > 0, e.g. 500ms";
    }
    else if (crossTraffic != "none" && !BackhaulFaults::ParseCrossTrafficKind(crossTraffic, kind))
    {
        e << "--crossTraffic = " << crossTraffic << " is invalid; allowed: none, bulk or onoff";
    }
    else if (crossTrafficRate.GetBitRate() == 0)
    {
        e << "--crossTrafficRate = 0bps is invalid; allowed: a rate > 0, e.g. 1Gbps";
    }
    else if (crossTrafficStart.IsStrictlyNegative())
    {
        e << "--crossTrafficStart = " << crossTrafficStart.As(Time::S)
          << " is invalid; allowed: a time >= 0, e.g. 2s";
    }
    else if (!crossTrafficFor.IsStrictlyPositive())
    {
        e << "--crossTrafficFor = " << crossTrafficFor.As(Time::S)
          << " is invalid; allowed: a time > 0, e.g. 3s";
    }
    else if (stallPolicy != "wait" && stallPolicy != "reprefill")
    {
        e << "--stallPolicy = " << stallPolicy << " is invalid; allowed: wait or reprefill";
    }
    else if (!stallTimeout.IsStrictlyPositive())
    {
        e << "--stallTimeout = " << stallTimeout.As(Time::MS)
          << " is invalid; allowed: a time > 0, e.g. 200ms";
    }
    else if (!(gpuLoad > 0 && gpuLoad <= 1000))
    {
        e << "--gpuLoad = " << gpuLoad << " is invalid; allowed: a number in (0, 1000]";
    }
    return e.str();
}

std::vector<std::pair<std::string, std::string>>
FaultConfig::ToParameters() const
{
    auto text = [](const auto& v) {
        std::ostringstream os;
        os << v;
        return os.str();
    };
    return {{"backhaulLoss", text(backhaulLoss)},
            {"outageAfter",
             outageAfter.IsStrictlyNegative() ? "" : text(outageAfter.GetNanoSeconds()) + "ns"},
            {"outageFor", text(outageFor.GetNanoSeconds()) + "ns"},
            {"crossTraffic", crossTraffic},
            {"crossTrafficRate", text(crossTrafficRate.GetBitRate()) + "bps"},
            {"crossTrafficStart", text(crossTrafficStart.GetNanoSeconds()) + "ns"},
            {"crossTrafficFor", text(crossTrafficFor.GetNanoSeconds()) + "ns"},
            {"stallPolicy", stallPolicy},
            {"stallTimeout", text(stallTimeout.GetNanoSeconds()) + "ns"},
            {"gpuLoad", text(gpuLoad)}};
}

std::vector<std::pair<std::string, std::string>>
FaultConfig::FlagAttributes()
{
    return {{"backhaulLoss", "ns3::BackhaulFaultModel::LossRate"},
            {"stallPolicy", "ns3::HandoverCoordinator::StallPolicy"},
            {"stallTimeout", "ns3::HandoverCoordinator::StallTimeout"},
            {"gpuLoad", "ns3::LlmEngine::LoadFactor"}};
}

void
FaultFlags::AddTo(CommandLine& cmd)
{
    cmd.AddValue("backhaulLoss",
                 "probability that a backhaul packet is lost, each way, [0, 1)",
                 m_loss);
    cmd.AddValue("outageAfter",
                 "cut every backhaul link this long after the first migration is committed, "
                 ">= 0 (default: no outage)",
                 m_outageAfter);
    cmd.AddValue("outageFor", "how long the outage lasts, > 0", m_outageFor);
    cmd.AddValue("crossTraffic",
                 "cross traffic on every backhaul link: none, bulk (TCP) or onoff (UDP at "
                 "--crossTrafficRate)",
                 m_crossTraffic);
    cmd.AddValue("crossTrafficRate", "the onoff cross traffic's rate, > 0", m_crossRate);
    cmd.AddValue("crossTrafficStart", "when the cross traffic starts, >= 0", m_crossStart);
    cmd.AddValue("crossTrafficFor", "how long the cross traffic lasts, > 0", m_crossFor);
    cmd.AddValue("stallPolicy",
                 "what a stalled transfer does: wait, or reprefill what did not arrive",
                 m_stallPolicy);
    cmd.AddValue("stallTimeout",
                 "how long a transfer may go without a KV byte before it is stalled, > 0",
                 m_stallTimeout);
    cmd.AddValue("gpuLoad",
                 "the GPUs' iteration times over what the plans assume, (0, 1000]",
                 m_gpuLoad);
}

std::string
FaultFlags::Read(FaultConfig& config) const
{
    std::string error;
    const auto check = [&error](const std::string& e) {
        if (error.empty())
        {
            error = e;
        }
    };
    const auto number = [&check](const std::string& flag,
                                 const std::string& text,
                                 const std::string& allowed,
                                 double& value) {
        if (!edgellm::ParseFiniteNumber(text, value))
        {
            check(edgellm::FlagError(flag, text, allowed));
        }
    };
    number("backhaulLoss", m_loss, "a probability in [0, 1)", config.backhaulLoss);
    number("gpuLoad", m_gpuLoad, "a number in (0, 1000]", config.gpuLoad);
    if (!m_outageAfter.empty())
    {
        check(
            edgellm::ReadTimeFlag("outageAfter", m_outageAfter, config.outageAfter, true, "50ms"));
    }
    check(edgellm::ReadTimeFlag("outageFor", m_outageFor, config.outageFor, false, "500ms"));
    check(edgellm::ReadRateFlag("crossTrafficRate", m_crossRate, config.crossTrafficRate, "1Gbps"));
    check(edgellm::ReadTimeFlag("crossTrafficStart",
                                m_crossStart,
                                config.crossTrafficStart,
                                true,
                                "2s"));
    check(
        edgellm::ReadTimeFlag("crossTrafficFor", m_crossFor, config.crossTrafficFor, false, "3s"));
    check(
        edgellm::ReadTimeFlag("stallTimeout", m_stallTimeout, config.stallTimeout, false, "200ms"));
    config.crossTraffic = m_crossTraffic;
    config.stallPolicy = m_stallPolicy;
    if (error.empty())
    {
        error = config.Check();
    }
    return error;
}

void
FaultInjection::Install(const FaultConfig& config,
                        const std::vector<BackhaulLink>& links,
                        Ptr<HandoverCoordinator> coordinator,
                        const std::vector<Ptr<LlmEngine>>& engines,
                        int64_t stream)
{
    m_config = config;
    m_links = links;
    m_faults = CreateObject<BackhaulFaults>();
    for (const BackhaulLink& link : links)
    {
        if (config.backhaulLoss > 0 || !config.outageAfter.IsStrictlyNegative())
        {
            m_faults->SetLoss(link, config.backhaulLoss);
        }
        BackhaulFaults::CrossTrafficKind kind;
        if (BackhaulFaults::ParseCrossTrafficKind(config.crossTraffic, kind))
        {
            // Both ways, as the KV transfers go.
            const Time start = config.crossTrafficStart - Simulator::Now();
            const Time stop = start + config.crossTrafficFor;
            m_faults->AddCrossTraffic(link, kind, config.crossTrafficRate, start, stop);
            BackhaulLink back = link;
            std::swap(back.nodeA, back.nodeB);
            std::swap(back.addressA, back.addressB);
            m_faults->AddCrossTraffic(back, kind, config.crossTrafficRate, start, stop);
        }
    }
    m_faults->AssignStreams(stream);
    coordinator->SetAttribute("StallPolicy",
                              EnumValue(config.stallPolicy == "reprefill"
                                            ? HandoverCoordinator::STALL_REPREFILL
                                            : HandoverCoordinator::STALL_WAIT));
    coordinator->SetAttribute("StallTimeout", TimeValue(config.stallTimeout));
    coordinator->TraceConnectWithoutContext(
        "TransferStalled",
        Callback<void, uint64_t, uint32_t, uint64_t, bool>(
            [this](uint64_t, uint32_t, uint64_t, bool reprefill) {
                ++m_counts.stalls;
                m_counts.reprefills += reprefill ? 1 : 0;
            }));
    if (!config.outageAfter.IsStrictlyNegative())
    {
        coordinator->TraceConnectWithoutContext("MigrationState",
                                                MakeCallback(&FaultInjection::Committed, this));
    }
    for (Ptr<LlmEngine> engine : engines)
    {
        engine->SetAttribute("LoadFactor", DoubleValue(config.gpuLoad));
    }
}

void
FaultInjection::Committed(uint64_t, uint32_t, int, int to)
{
    if (m_outageScheduled || to != HandoverCoordinator::COMMITTED)
    {
        return;
    }
    m_outageScheduled = true;
    for (const BackhaulLink& link : m_links)
    {
        m_faults->ScheduleOutage(link, m_config.outageAfter, m_config.outageFor);
    }
}

FaultCounts
FaultInjection::GetCounts() const
{
    FaultCounts c = m_counts;
    if (m_faults)
    {
        c.lossDrops = m_faults->GetLossDrops();
        c.outageDrops = m_faults->GetOutageDrops();
        c.outages = m_faults->GetOutagesStarted();
        c.crossTrafficBytes = m_faults->GetCrossTrafficBytes();
    }
    return c;
}

} // namespace ns3
