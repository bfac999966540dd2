/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sit-breakdown.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

SitBreakdown
BreakDownSit(const SitMilestones& m)
{
    NS_ABORT_MSG_IF(std::isnan(m.lastBeforeS) || std::isnan(m.endS) || m.endS < m.lastBeforeS,
                    "BreakDownSit: endS = " << m.endS << " is invalid; allowed: a number >= "
                                            << "lastBeforeS = " << m.lastBeforeS);
    double previous = m.lastBeforeS;
    auto clamp = [&previous, &m](double t) {
        if (!std::isnan(t))
        {
            previous = std::min(m.endS, std::max(previous, t));
        }
        return previous;
    };
    const double start = clamp(m.hoStartS);
    const double endOk = clamp(m.hoEndOkS);
    // A plan applied before the radio's handover ended waited for nothing the user saw.
    const double applied = clamp(m.planAppliedS);
    const double ready = clamp(m.readyS);
    const double generated = clamp(m.endGeneratedS);
    SitBreakdown b;
    b.radioBeforeS = start - m.lastBeforeS;
    b.executionS = endOk - start;
    b.controlWaitS = applied - endOk;
    b.recoveryWaitS = ready - applied;
    b.gpuWaitS = generated - ready;
    b.deliveryS = m.endS - generated;
    return b;
}

} // namespace ns3
