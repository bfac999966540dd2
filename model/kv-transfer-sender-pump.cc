/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The part of KvTransferSender that writes to TCP: the choice of the next message (control
// first, then the policy's pick of a DATA message), the wait for the policy's next refill,
// and the pump that writes messages in chunks that fit the socket.

#include "kv-transfer-sender.h"
#include "wire-format.h"

#include "ns3/abort.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

bool
KvTransferSender::NextMessage()
{
    if (!m_control.empty())
    {
        Begin(m_control.front());
        m_control.pop_front();
        return true;
    }
    if (!m_ends.empty())
    {
        Begin(m_ends.front());
        m_ends.pop_front();
        return true;
    }

    const Time now = Simulator::Now();
    std::vector<const KvTransferJobInfo*> candidates;
    std::vector<Job*> jobs;
    std::vector<uint64_t> allowances;
    bool rationed = false;
    for (Job& j : m_jobs)
    {
        if (j.info.remainingBytes == 0)
        {
            continue;
        }
        const uint64_t allowance = m_policy->GetAllowance(j.info, now);
        if (allowance < j.info.bytesPerUnit)
        {
            // A job held back (no allowance at all) waits for Reschedule(); one whose every
            // refill is smaller than a unit would wait forever.
            const uint64_t perRefill = m_policy->GetAllowancePerRefill(j.info);
            NS_ABORT_MSG_IF(perRefill > 0 && perRefill < j.info.bytesPerUnit,
                            "KvTransferSender: the policy allows imsi "
                                << j.info.imsi << " " << perRefill
                                << " bytes per refill, less than one unit of "
                                << j.info.bytesPerUnit << " bytes; it could never send");
            rationed = rationed || perRefill > 0;
            continue;
        }
        candidates.push_back(&j.info);
        jobs.push_back(&j);
        allowances.push_back(allowance);
    }
    if (candidates.empty())
    {
        if (rationed)
        {
            WaitForRefill(now);
        }
        return false;
    }

    const std::size_t pick = m_policy->Select(candidates, now);
    NS_ABORT_MSG_IF(pick >= candidates.size(),
                    "KvTransferPolicy::Select returned " << pick << " of " << candidates.size()
                                                         << " candidates");
    Job& job = *jobs[pick];
    const uint64_t bpu = job.info.bytesPerUnit;
    TokenRange& next = job.ranges.front();
    uint64_t units = std::min<uint64_t>(
        {next.Count(), std::max<uint64_t>(1, m_maxMessageBytes / bpu), allowances[pick] / bpu});
    if (allowances[pick] != std::numeric_limits<uint64_t>::max())
    {
        // A rationed message is sized to enter TCP whole, now: one that waited in the socket's
        // path for the next slot's allowance would hold every other transfer on the
        // connection behind it. Only a unit larger than TCP's whole buffer is split.
        const uint64_t available = m_socket->GetTxAvailable();
        const uint64_t header = KvTransferHeader::SERIALIZED_SIZE;
        const uint64_t room = available > header ? (available - header) / bpu : 0;
        const bool unitFits = bpu + header <= available + GetSocketBufferedBytes();
        if (room == 0 && unitFits)
        {
            return false; // SendSpace pumps again once TCP has room
        }
        units = std::min(units, std::max<uint64_t>(room, 1));
    }
    const uint64_t bytes = units * bpu;
    const KvTransferHeader data =
        KvTransferHeader::Make(KvTransferHeader::DATA,
                               job.info.imsi,
                               job.info.epoch,
                               job.unit,
                               edgellm::WireU32(next.first, "KvTransferHeader first"),
                               edgellm::WireU32(units, "KvTransferHeader count"),
                               bytes);
    job.info.remainingBytes -= bytes;
    job.info.sentBytes += bytes;
    ++m_counters[job.info.imsi].messages;
    next.first += units;
    if (next.Empty())
    {
        job.ranges.pop_front();
    }
    // An open transfer's END waits for its seal, since more ranges may come.
    if (job.ranges.empty() && (!job.open || job.sealed))
    {
        m_ends.push_back(KvTransferHeader::Make(KvTransferHeader::END,
                                                job.info.imsi,
                                                job.info.epoch,
                                                KvTransferHeader::TOKEN,
                                                0,
                                                0,
                                                0));
    }
    Begin(data);
    return true;
}

void
KvTransferSender::WaitForRefill(Time now)
{
    if (!m_refill.IsExpired())
    {
        return;
    }
    const Time refill = m_policy->GetNextRefill(now);
    if (refill != Time::Max())
    {
        NS_ABORT_MSG_IF(refill <= now,
                        "KvTransferPolicy::GetNextRefill returned " << refill.As(Time::S)
                                                                    << ", not after now");
        m_refill = Simulator::Schedule(refill - now, &KvTransferSender::Pump, this);
    }
}

void
KvTransferSender::Begin(const KvTransferHeader& header)
{
    m_writing.header = header;
    m_writing.headerWritten = false;
    m_writing.payloadLeft = header.GetFollowingBytes();
    m_writing.active = true;
}

void
KvTransferSender::Pump()
{
    if (!m_connected || m_pumping)
    {
        return;
    }
    m_pumping = true;
    while (m_writing.active || NextMessage())
    {
        const uint32_t available = m_socket->GetTxAvailable();
        const uint32_t headerBytes =
            m_writing.headerWritten ? 0 : KvTransferHeader::SERIALIZED_SIZE;
        // A header is never split, so the receiver reads it whole at its place in the stream.
        if (available < std::max<uint32_t>(headerBytes, 1))
        {
            break;
        }
        const KvTransferHeader& h = m_writing.header;
        uint64_t chunk = std::min<uint64_t>(m_writing.payloadLeft, available - headerBytes);
        // The policy rations what enters TCP. A rationed message is sized to enter TCP whole
        // (NextMessage), so only one whose single unit exceeds TCP's free buffer is split; its
        // rest goes on under the allowance of the slot TCP takes it in. A cancelled transfer
        // has no allowance any more; the rest of its message goes unrationed.
        Job* charged = nullptr;
        if (h.GetMessageType() == KvTransferHeader::DATA && m_writing.payloadLeft > 0)
        {
            auto it = FindJob(h.GetImsi(), h.GetEpoch());
            if (it != m_jobs.end())
            {
                const Time now = Simulator::Now();
                const uint64_t allowance = m_policy->GetAllowance(it->info, now);
                if (allowance == 0)
                {
                    // As in NextMessage: a job held back waits for Reschedule().
                    if (m_policy->GetAllowancePerRefill(it->info) > 0)
                    {
                        WaitForRefill(now);
                    }
                    break;
                }
                chunk = std::min(chunk, allowance);
                charged = &*it;
            }
        }
        Ptr<Packet> p = Create<Packet>(static_cast<uint32_t>(chunk));
        if (headerBytes > 0)
        {
            p->AddHeader(m_writing.header);
        }
        const int accepted = m_socket->Send(p);
        NS_ABORT_MSG_IF(accepted != static_cast<int>(p->GetSize()),
                        "KvTransferSender: TCP took " << accepted << " of " << p->GetSize()
                                                      << " bytes it said it had room for");
        m_streamSent += p->GetSize();
        const uint64_t kvBytes = h.GetMessageType() == KvTransferHeader::DATA ? chunk : 0;
        m_unacked.push_back({h.GetImsi(), m_streamSent, p->GetSize(), kvBytes});
        m_counters[h.GetImsi()].written += p->GetSize();
        if (charged != nullptr && chunk > 0)
        {
            m_policy->NotifySent(charged->info, chunk, Simulator::Now());
        }
        if (headerBytes > 0)
        {
            m_writing.headerWritten = true;
            if (h.GetMessageType() == KvTransferHeader::BEGIN ||
                h.GetMessageType() == KvTransferHeader::TOKENS ||
                h.GetMessageType() == KvTransferHeader::OPEN)
            {
                auto job = FindJob(h.GetImsi(), h.GetEpoch());
                if (job != m_jobs.end())
                {
                    job->peerKnows = true;
                }
            }
            m_messageSent(h);
        }
        if (h.GetMessageType() == KvTransferHeader::DATA)
        {
            m_counters[h.GetImsi()].sent += chunk;
        }
        m_writing.payloadLeft -= chunk;
        if (m_writing.payloadLeft > 0)
        {
            continue;
        }
        m_writing.active = false;
        if (h.GetMessageType() == KvTransferHeader::END ||
            h.GetMessageType() == KvTransferHeader::TOKENS)
        {
            // A transfer is whole in TCP after its END, or a tokens-only one after its TOKENS;
            // not found means it was cancelled while this message was being written.
            auto it = FindJob(h.GetImsi(), h.GetEpoch());
            if (it != m_jobs.end() &&
                (h.GetMessageType() == KvTransferHeader::END || it->tokensOnly))
            {
                it->streamEnd = m_streamSent;
                m_awaitingAck.push_back(*it);
                m_jobs.erase(it);
            }
        }
    }
    m_pumping = false;
}

} // namespace ns3
