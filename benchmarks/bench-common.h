/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_BENCH_COMMON_H
#define EDGE_LLM_BENCH_COMMON_H

// What the benchmark programs share: the wall clock they time runs with, and the count of
// the handovers a run completed.

#include "ns3/callback.h"
#include "ns3/net-device-container.h"
#include "ns3/ran-stack.h"

#include <chrono>

namespace ns3
{
namespace bench
{

/**
 * \param start a point on the steady clock
 * \return seconds since then
 */
inline double
WallSeconds(const std::chrono::steady_clock::time_point& start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/**
 * \brief Count every handover the base stations complete, with an observer of their own,
 * which a network without the module's serving parts has as well.
 * \param stack the network's RAN stack
 * \param cells the base-station devices
 * \param count incremented at each completed handover; must outlive the run
 */
template <class Count>
void
CountHandovers(Ptr<RanStack> stack, const NetDeviceContainer& cells, Count& count)
{
    Ptr<RanObserver> observer = stack->CreateObserver();
    observer->Install(cells);
    observer->TraceConnectWithoutContext(
        "HandoverDone",
        Callback<void, uint64_t, uint16_t>([&count, observer](uint64_t, uint16_t) { ++count; }));
}

} // namespace bench
} // namespace ns3

#endif /* EDGE_LLM_BENCH_COMMON_H */
