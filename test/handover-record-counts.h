/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_RECORD_COUNTS_H
#define EDGE_LLM_HANDOVER_RECORD_COUNTS_H

#include "ns3/handover-record.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace edgellm
{

/// \param records a run's handovers \return how many migrated
inline uint32_t
CountMigrated(const std::vector<HandoverRecord>& records)
{
    return static_cast<uint32_t>(std::count_if(records.begin(), records.end(), [](const auto& r) {
        return r.outcome == HandoverRecord::MIGRATED;
    }));
}

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_RECORD_COUNTS_H */
