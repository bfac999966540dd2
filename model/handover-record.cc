/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-record.h"

namespace ns3
{

std::string
HandoverOutcomeName(HandoverRecord::Outcome outcome)
{
    switch (outcome)
    {
    case HandoverRecord::PENDING:
        return "pending";
    case HandoverRecord::MIGRATED:
        return "migrated";
    case HandoverRecord::RELAYED:
        return "relayed";
    case HandoverRecord::REUSED:
        return "reused";
    case HandoverRecord::CANCELLED:
        return "cancelled";
    case HandoverRecord::NO_SESSION:
        return "no-session";
    case HandoverRecord::FAILED:
        return "failed";
    case HandoverRecord::CLOSED:
        return "closed";
    }
    return "unknown";
}

} // namespace ns3
