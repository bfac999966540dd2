/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The part of KvTransferSender that grows a transfer: the ranges of Enqueue, and the
// Append and Seal of open transfers.

#include "kv-transfer-sender.h"

#include "ns3/abort.h"

#include <algorithm>
#include <limits>

namespace ns3
{

void
KvTransferSender::AddRanges(Job& job,
                            const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                            const char* caller)
{
    const uint64_t imsi = job.info.imsi;
    const uint32_t epoch = job.info.epoch;
    const uint64_t bpu = job.info.bytesPerUnit;
    // Checked in full before anything is queued, so a refused call changes nothing.
    edgellm::RangeSet held = job.held;
    uint64_t units = 0;
    for (const auto& [first, count] : ranges)
    {
        const uint64_t end = uint64_t(first) + count;
        NS_ABORT_MSG_IF(count == 0,
                        caller << ": imsi " << imsi << " epoch " << epoch << ": an empty range at "
                               << first << "; count is >= 1");
        NS_ABORT_MSG_IF(end > (uint64_t(1) << 32),
                        caller << ": imsi " << imsi << " epoch " << epoch << ": range [" << first
                               << ", " << end << ") ends past 2^32");
        NS_ABORT_MSG_IF(held.Overlaps(first, end),
                        caller << ": imsi " << imsi << " epoch " << epoch << ": range [" << first
                               << ", " << end << ") overlaps a range the transfer holds");
        held.Add(first, end);
        units += count;
    }
    NS_ABORT_MSG_IF(bpu > 0 && held.Count() > std::numeric_limits<uint64_t>::max() / bpu,
                    caller << ": imsi " << imsi << " epoch " << epoch << ": " << held.Count()
                           << " units of " << bpu << " bytes overflow 64 bits");
    job.held = std::move(held);
    const uint64_t bytes = units * bpu;
    job.info.remainingBytes += bytes;
    m_counters[imsi].announced += bytes;
    // The order given is the order sent: importance order for entries.
    for (const auto& [first, count] : ranges)
    {
        job.ranges.emplace_back(first, count);
        m_control.push_back(KvTransferHeader::Make(KvTransferHeader::BEGIN,
                                                   imsi,
                                                   epoch,
                                                   job.unit,
                                                   first,
                                                   count,
                                                   uint64_t(count) * bpu));
    }
}

KvTransferSender::Job&
KvTransferSender::OpenJob(uint64_t imsi, uint32_t epoch, const char* caller)
{
    auto it = FindJob(imsi, epoch);
    if (it == m_jobs.end())
    {
        const bool written =
            std::any_of(m_awaitingAck.begin(), m_awaitingAck.end(), [imsi, epoch](const Job& j) {
                return j.info.imsi == imsi && j.info.epoch == epoch;
            });
        NS_ABORT_MSG_IF(written,
                        caller << ": imsi " << imsi << " epoch " << epoch
                               << " is sealed already: all of it has reached TCP");
        NS_FATAL_ERROR(caller << ": imsi " << imsi << " epoch " << epoch
                              << " is not queued (never enqueued, cancelled or superseded)");
    }
    NS_ABORT_MSG_IF(!it->open,
                    caller << ": imsi " << imsi << " epoch " << epoch
                           << " is not open; enqueue it with KvTransferRequest::open = true");
    NS_ABORT_MSG_IF(it->sealed,
                    caller << ": imsi " << imsi << " epoch " << epoch << " is sealed already");
    return *it;
}

void
KvTransferSender::Append(uint64_t imsi,
                         uint32_t epoch,
                         const std::vector<std::pair<uint32_t, uint32_t>>& ranges)
{
    Job& job = OpenJob(imsi, epoch, "KvTransferSender::Append");
    AddRanges(job, ranges, "KvTransferSender::Append");
    Pump();
}

void
KvTransferSender::Seal(uint64_t imsi,
                       uint32_t epoch,
                       const std::vector<std::pair<uint32_t, uint32_t>>& lastRanges)
{
    Job& job = OpenJob(imsi, epoch, "KvTransferSender::Seal");
    AddRanges(job, lastRanges, "KvTransferSender::Seal");
    job.sealed = true;
    m_control.push_back(KvTransferHeader::Make(KvTransferHeader::SEAL,
                                               imsi,
                                               epoch,
                                               KvTransferHeader::TOKEN,
                                               0,
                                               0,
                                               0));
    if (job.ranges.empty())
    {
        // All its data was chosen before the seal: the END can follow the last DATA now.
        m_ends.push_back(KvTransferHeader::Make(KvTransferHeader::END,
                                                imsi,
                                                epoch,
                                                KvTransferHeader::TOKEN,
                                                0,
                                                0,
                                                0));
    }
    Pump();
}

bool
KvTransferSender::IsOpen(uint64_t imsi, uint32_t epoch) const
{
    return std::any_of(m_jobs.begin(), m_jobs.end(), [imsi, epoch](const Job& j) {
        return j.info.imsi == imsi && j.info.epoch == epoch && j.open && !j.sealed;
    });
}

} // namespace ns3
