/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_MULTI_SESSION_H
#define EDGE_LLM_KV_TRANSFER_MULTI_SESSION_H

// Several sessions' KV caches on one link: one protocol sender ordering them earliest deadline
// first, against one BulkSendApplication per session.

#include "kv-transfer-bench-link.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace kvtransferbench
{

/// One session's cache to move.
struct SessionSpec
{
    uint64_t tokens{0}; //!< tokens of KV cache
    uint64_t bytes{0};  //!< tokens x bytes per token
    Time announced;     //!< when its transfer is enqueued (simulation time)
    Time deadline;      //!< when it should be whole at the receiver (simulation time)
};

/// The sessions of one comparison.
struct SessionSetSpec
{
    uint32_t sessions{0};   //!< how many
    uint64_t minTokens{0};  //!< tokens of the smallest
    uint64_t maxTokens{0};  //!< tokens of the largest
    uint64_t tokenBytes{0}; //!< KV bytes per token
    double slack{1};        //!< deadline stretch over a tight schedule (>= 1)
    Time start;             //!< when the first is announced
    Time stagger;           //!< between consecutive announcements
};

/**
 * \brief Sizes, announcement times and deadlines of the sessions.
 *
 * Sizes grow geometrically from minTokens to maxTokens, in announcement order. Deadlines come
 * from a tight schedule: the sessions sent one after another at the full link rate, each no
 * earlier than its announcement, in an order that alternates the largest and the smallest
 * left (so neither size nor arrival order is the deadline order). Each deadline is its
 * announcement plus slack times its time to completion in that schedule, so a schedule that
 * meets every deadline exists, and earliest deadline first finds one when slack covers
 * the protocol's overhead.
 *
 * \param set the sessions
 * \param rate the link rate
 * \return one spec per session, in announcement order
 */
std::vector<SessionSpec> MakeSessions(const SessionSetSpec& set, DataRate rate);

/**
 * \param sessions the sessions
 * \param rate the link rate
 * \return the earliest the last byte can arrive, from the first announcement, at the link
 *         rate with no overhead
 */
Time IdealMakespan(const std::vector<SessionSpec>& sessions, DataRate rate);

/// What one multi-session run measured.
struct MultiRun
{
    double wallS{0};           //!< wall time of Simulator::Run
    Time last;                 //!< the last session's completion, from the first announcement
    std::vector<Time> done;    //!< each session's completion (simulation time)
    std::vector<uint64_t> got; //!< bytes each session's receiver took
};

/**
 * \brief One KvTransferSender with the EDF policy sends every session over one connection.
 * \param link the link
 * \param sessions the sessions
 * \param tokenBytes KV bytes per token
 * \return the run; a session is done when the receiver holds all of it
 */
MultiRun RunEdfSender(const LinkSpec& link,
                      const std::vector<SessionSpec>& sessions,
                      uint64_t tokenBytes);

/**
 * \brief One BulkSendApplication per session, each on its own connection, all on the link.
 * \param link the link
 * \param sessions the sessions
 * \return the run; a session is done when its sink has received all its bytes
 */
MultiRun RunParallelBulkSend(const LinkSpec& link, const std::vector<SessionSpec>& sessions);

} // namespace kvtransferbench
} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_MULTI_SESSION_H */
