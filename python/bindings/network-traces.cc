/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "network.h"

#include "ns3/migration.h"
#include "ns3/nstime.h"
#include "ns3/ran-observer.h"

namespace py = pybind11;

namespace ns3
{
namespace edgellm
{
namespace python
{

namespace
{

/// A time as Python gets it: seconds.
double
ToPy(Time value)
{
    return value.GetSeconds();
}

/// A count, a cell id or a flag, as it is.
template <typename T>
T
ToPy(T value)
{
    return value;
}

/**
 * \brief The ns-3 callback of a trace source with arguments Ts..., which calls the index-th
 * callable with convert's tuple.
 */
template <typename... Ts, typename Convert>
CallbackBase
MakeTraceCallback(std::shared_ptr<TraceCallables> callables, std::size_t index, Convert convert)
{
    return Callback<void, Ts...>([callables, index, convert](Ts... values) {
        callables->Call(index, [&] { return convert(values...); });
    });
}

/// A trace source whose arguments are numbers, flags and times (in s).
template <typename... Ts>
CallbackBase
Plain(std::shared_ptr<TraceCallables> callables, std::size_t index)
{
    return MakeTraceCallback<Ts...>(callables, index, [](Ts... values) {
        return py::make_tuple(ToPy(values)...);
    });
}

/// HandoverFailed: the reason as its name.
CallbackBase
HandoverFailed(std::shared_ptr<TraceCallables> callables, std::size_t index)
{
    using Reason = RanObserver::HandoverFailureReason;
    return MakeTraceCallback<uint64_t, uint16_t, Reason>(
        callables,
        index,
        [](uint64_t imsi, uint16_t cell, Reason reason) {
            return py::make_tuple(imsi, cell, RanObserver::ToString(reason));
        });
}

/// MigrationState: the phases as their names.
CallbackBase
MigrationState(std::shared_ptr<TraceCallables> callables, std::size_t index)
{
    return MakeTraceCallback<uint64_t, uint32_t, int, int>(
        callables,
        index,
        [](uint64_t imsi, uint32_t epoch, int from, int to) {
            return py::make_tuple(imsi,
                                  epoch,
                                  Migration::PhaseName(static_cast<Migration::Phase>(from)),
                                  Migration::PhaseName(static_cast<Migration::Phase>(to)));
        });
}

} // namespace

const std::vector<NetworkTrace>&
NetworkTraces()
{
    // The signature is checked against the source's before connecting: ns-3 stops the process
    // on a callback of another type, and a source's arguments may change.
    static const std::vector<NetworkTrace> traces{
        {"UeReady",
         "observer",
         "ns3::RanObserver::UeReadyTracedCallback",
         {"imsi", "cell"},
         &Plain<uint64_t, uint16_t>},
        {"HandoverStarted",
         "observer",
         "ns3::RanObserver::HandoverStartedTracedCallback",
         {"imsi", "source_cell", "target_cell"},
         &Plain<uint64_t, uint16_t, uint16_t>},
        {"HandoverDone",
         "observer",
         "ns3::RanObserver::HandoverDoneTracedCallback",
         {"imsi", "target_cell"},
         &Plain<uint64_t, uint16_t>},
        {"HandoverFailed",
         "observer",
         "ns3::RanObserver::HandoverFailedTracedCallback",
         {"imsi", "cell", "reason"},
         &HandoverFailed},
        {"HandoverRefused",
         "observer",
         "ns3::RanObserver::HandoverRefusedTracedCallback",
         {"imsi", "source_cell", "target_cell"},
         &Plain<uint64_t, uint16_t, uint16_t>},
        {"RadioLinkFailure",
         "observer",
         "ns3::RanObserver::RadioLinkTracedCallback",
         {"imsi", "cell"},
         &Plain<uint64_t, uint16_t>},
        {"Reattached",
         "observer",
         "ns3::RanObserver::RadioLinkTracedCallback",
         {"imsi", "cell"},
         &Plain<uint64_t, uint16_t>},
        {"HandoverPlanned",
         "coordinator",
         "ns3::HandoverCoordinator::PlannedTracedCallback",
         {"imsi", "prefill_tokens", "transfer_tokens"},
         &Plain<uint64_t, uint64_t, uint64_t>},
        {"SessionResumed",
         "coordinator",
         "ns3::HandoverCoordinator::ResumedTracedCallback",
         {"imsi", "cell", "delay_s"},
         &Plain<uint64_t, uint16_t, Time>},
        {"MigrationCancelled",
         "coordinator",
         "ns3::HandoverCoordinator::CancelledTracedCallback",
         {"imsi", "epoch", "withdrawn_bytes"},
         &Plain<uint64_t, uint32_t, uint64_t>},
        {"MigrationReplanned",
         "coordinator",
         "ns3::HandoverCoordinator::ReplannedTracedCallback",
         {"imsi", "epoch", "withdrawn_bytes"},
         &Plain<uint64_t, uint32_t, uint64_t>},
        {"MigrationState",
         "coordinator",
         "ns3::HandoverCoordinator::StateTracedCallback",
         {"imsi", "epoch", "from_phase", "to_phase"},
         &MigrationState},
        {"TransferStalled",
         "coordinator",
         "ns3::HandoverCoordinator::StalledTracedCallback",
         {"imsi", "epoch", "missing_tokens", "reprefill"},
         &Plain<uint64_t, uint32_t, uint64_t, bool>},
        {"SessionSuspended",
         "coordinator",
         "ns3::HandoverCoordinator::SuspendedTracedCallback",
         {"imsi", "cell"},
         &Plain<uint64_t, uint16_t>},
        {"SessionReattached",
         "coordinator",
         "ns3::HandoverCoordinator::ReattachedTracedCallback",
         {"imsi", "cell", "detached_s"},
         &Plain<uint64_t, uint16_t, Time>},
        {"SessionClosed",
         "coordinator",
         "ns3::HandoverCoordinator::ClosedTracedCallback",
         {"imsi", "delivered_tokens", "undelivered_tokens"},
         &Plain<uint64_t, uint64_t, uint64_t>},
        {"ServiceInterruption",
         "clients",
         "ns3::EdgeLlmClient::ServiceInterruptionTracedCallback",
         {"imsi", "marked_token", "sit_s"},
         &Plain<uint64_t, uint32_t, Time>},
        {"TokenDelivered",
         "clients",
         "ns3::EdgeLlmClient::TokenDeliveredTracedCallback",
         {"imsi", "token", "generated_s", "delivered_s", "cell", "resent"},
         &Plain<uint64_t, uint32_t, Time, Time, uint16_t, bool>},
        {"SessionComplete",
         "clients",
         "ns3::EdgeLlmClient::CompleteTracedCallback",
         {"imsi"},
         &Plain<uint64_t>},
        {"Budget",
         "scheduler",
         "ns3::ImpactSlotScheduler::BudgetTracedCallback",
         {"slot", "imsi", "bytes"},
         &Plain<uint64_t, uint64_t, uint64_t>},
        {"Window",
         "scheduler",
         "ns3::PallasScheduler::WindowTracedCallback",
         {"window_s", "sit_s"},
         &Plain<Time, Time>},
        {"AirChange",
         "network",
         "ns3::EdgeLlmNetwork::AirChangeCallback",
         {"imsi", "on_air"},
         &Plain<uint64_t, bool>},
    };
    return traces;
}

void
TraceCallables::Clear()
{
    cleared = true;
    functions.clear();
    error = nullptr;
}

} // namespace python
} // namespace edgellm
} // namespace ns3
