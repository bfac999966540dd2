/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_BENCH_COMMON_H
#define EDGE_LLM_BENCH_COMMON_H

// What the benchmark programs share: the wall clock they time runs with, and the count of
// the handovers an LTE run completed.

#include "ns3/callback.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-enb-rrc.h"
#include "ns3/net-device-container.h"

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
 * \brief Count every handover the eNBs complete, from their RRCs, which a network without
 * the module has as well.
 * \param enbs the eNB devices
 * \param count incremented at each HandoverEndOk; must outlive the run
 */
template <class Count>
void
CountHandovers(const NetDeviceContainer& enbs, Count& count)
{
    for (uint32_t i = 0; i < enbs.GetN(); ++i)
    {
        DynamicCast<LteEnbNetDevice>(enbs.Get(i))
            ->GetRrc()
            ->TraceConnectWithoutContext("HandoverEndOk",
                                         Callback<void, uint64_t, uint16_t, uint16_t>(
                                             [&count](uint64_t, uint16_t, uint16_t) { ++count; }));
    }
}

} // namespace bench
} // namespace ns3

#endif /* EDGE_LLM_BENCH_COMMON_H */
