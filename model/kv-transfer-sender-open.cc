/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The part of KvTransferSender that grows a transfer: the ranges of Enqueue, and the
// Append and Seal of open transfers.

#include "kv-transfer-sender.h"
#include "wire-format.h"

#include "ns3/abort.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace ns3
{

void
KvTransferSender::AddRanges(Job& job, const std::vector<TokenRange>& ranges, const char* caller)
{
    const uint64_t imsi = job.info.imsi;
    const uint32_t epoch = job.info.epoch;
    const uint64_t bpu = job.info.bytesPerUnit;
    // Checked in full before anything is queued, so a refused call changes nothing.
    edgellm::RangeSet held = job.held;
    uint64_t units = 0;
    for (const TokenRange& r : ranges)
    {
        NS_ABORT_MSG_IF(r.Empty(),
                        caller << ": imsi " << imsi << " epoch " << epoch << ": an empty range ["
                               << r.first << ", " << r.end << "); end is > first");
        NS_ABORT_MSG_IF(r.end > (uint64_t(1) << 32),
                        caller << ": imsi " << imsi << " epoch " << epoch << ": range [" << r.first
                               << ", " << r.end << ") ends past 2^32");
        NS_ABORT_MSG_IF(held.Overlaps(r),
                        caller << ": imsi " << imsi << " epoch " << epoch << ": range [" << r.first
                               << ", " << r.end << ") overlaps a range the transfer holds");
        held.Add(r);
        units += r.Count();
    }
    NS_ABORT_MSG_IF(bpu > 0 && held.Count() > std::numeric_limits<uint64_t>::max() / bpu,
                    caller << ": imsi " << imsi << " epoch " << epoch << ": " << held.Count()
                           << " units of " << bpu << " bytes overflow 64 bits");
    job.held = std::move(held);
    const uint64_t bytes = units * bpu;
    job.info.remainingBytes += bytes;
    m_counters[imsi].announced += bytes;
    // The order given is the order sent: importance order for entries.
    for (const TokenRange& r : ranges)
    {
        job.ranges.push_back(r);
        const uint32_t first = edgellm::WireU32(r.first, "KvTransferHeader first");
        const uint32_t count = edgellm::WireU32(r.Count(), "KvTransferHeader count");
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
KvTransferSender::Append(uint64_t imsi, uint32_t epoch, const std::vector<TokenRange>& ranges)
{
    Job& job = OpenJob(imsi, epoch, "KvTransferSender::Append");
    AddRanges(job, ranges, "KvTransferSender::Append");
    Pump();
}

void
KvTransferSender::Seal(uint64_t imsi, uint32_t epoch, const std::vector<TokenRange>& lastRanges)
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
