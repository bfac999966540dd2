/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_LEDGER_H
#define EDGE_LLM_KV_TRANSFER_LEDGER_H

// The byte ledger of a KV transfer, over all epochs of one session:
//   sender:   announced = sent + withdrawn     (withdrawn: never handed to TCP)
//   link:     sent = received + stale + in flight, with in flight = 0 once drained
//   reasons:  withdrawn = sum of withdrawnBy, stale = sum of staleBy

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Why KV bytes were withdrawn (never handed to TCP) or dropped as stale at the
 * receiver.
 *
 * The value is also the reason code a CANCEL message carries in its first field, so the
 * numbers are part of the wire format.
 */
enum class KvDiscardReason : uint8_t
{
    NEWER_EPOCH = 0, //!< a newer epoch of the session replaced this one
    WINDOW_END = 1,  //!< the time window the transfer had to fit in closed
    LINK_DOWN = 2,   //!< the link to the peer went away
    /// the transfer was planned anew with others: its unsent bytes are withdrawn, and what
    /// was sent is kept by the next epoch
    REPLAN = 3,
};

/// Number of KvDiscardReason values: the size of the per-reason counter arrays.
constexpr std::size_t KV_DISCARD_REASONS = 4;

/**
 * \param r a reason
 * \return its short name: "newer-epoch", "window-end", "link-down" or "re-plan"
 */
inline const char*
KvDiscardReasonName(KvDiscardReason r)
{
    switch (r)
    {
    case KvDiscardReason::NEWER_EPOCH:
        return "newer-epoch";
    case KvDiscardReason::WINDOW_END:
        return "window-end";
    case KvDiscardReason::LINK_DOWN:
        return "link-down";
    case KvDiscardReason::REPLAN:
        return "re-plan";
    }
    return "unknown";
}

} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_LEDGER_H */
