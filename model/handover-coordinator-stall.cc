/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A committed migration whose transfer stalls: found by its counters, then waited out or
// given up on (StallPolicy).

#include "handover-coordinator.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorStall");

namespace
{

/// Units of the planned ranges that are not in the received set.
uint64_t
MissingUnits(const std::vector<PlanRange>& planned, const edgellm::RangeSet& received)
{
    uint64_t missing = 0;
    for (const PlanRange& p : planned)
    {
        received.ForEachGap(p.first, p.end, [&missing](uint64_t a, uint64_t b) {
            missing += b - a;
        });
    }
    return missing;
}

} // namespace

void
HandoverCoordinator::CheckStall(uint64_t imsi, std::size_t record)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.record != record ||
        it->second.GetPhase() != COMMITTED)
    {
        return; // it ended or resumed
    }
    Migration& m = it->second;
    if (m.KvDone() && m.IdsIn())
    {
        m.StopWatchingLink(); // nothing more to wait for from the link
        return;
    }
    const uint16_t target = m.route.back();
    const uint64_t received = GetCell(target).port->GetReceivedBytes(imsi);
    const uint64_t sent = GetSender(m.route[0], m.route[1])->GetCounters(imsi).sent;
    // Bytes of it that TCP took and that have not arrived: a transfer still queued behind
    // other sessions' bytes has none, and is not stalled but waiting its turn.
    const bool inFlight = sent - m.sentAtStart > received - m.receivedAtStart;
    // A token handover's TOKENS message is small: not there after a whole timeout, it is
    // held by the link too.
    const bool progress = received != m.stallSeenReceived;
    const bool stalled = !progress && (inFlight || !m.IdsIn());
    m.stallSeenReceived = received;
    if (stalled && !m.IsStalled())
    {
        HandoverRecord& r = m_recorder[record];
        ++r.stalls;
        const bool giveUp = m_stallPolicy == STALL_REPREFILL &&
                            m.plan.resume == SessionPlan::ALL_ARRIVED &&
                            r.unit == KvTransferHeader::TOKEN;
        const uint64_t missing =
            MissingUnits(m.transferRanges, GetCell(target).port->GetReceivedRanges(imsi));
        NS_LOG_INFO("imsi " << imsi << ": transfer to cell " << target << " stalled, " << missing
                            << " tokens missing; " << (giveUp ? "re-prefill" : "wait"));
        m_stalledTrace(imsi, m.epoch, missing, giveUp);
        if (giveUp)
        {
            Reprefill(imsi, m);
            return; // nothing more comes from the link
        }
    }
    m.LinkChecked(stalled);
    m.stallTimer =
        Simulator::Schedule(m_stallTimeout, &HandoverCoordinator::CheckStall, this, imsi, record);
}

void
HandoverCoordinator::Reprefill(uint64_t imsi, Migration& m)
{
    HandoverRecord& record = m_recorder[m.record];
    Cell& t = GetCell(m.route.back());
    // What the session resumes with is fixed now, before the epoch is retired.
    const edgellm::RangeSet received = t.port->GetReceivedRanges(imsi);
    for (const auto& [first, end] : received.Ranges())
    {
        record.arrived.push_back({first, end});
    }
    const uint64_t tokens = MissingUnits(m.transferRanges, received);
    const SessionKvProfile kv = GetKvProfile(imsi);
    record.abandonedBytes = std::min(record.kvBytes, tokens * kv.bytesPerToken);
    record.reprefillTokens = tokens;
    const bool prefixIdsIn = m.IdsIn();
    RetireEpoch(imsi, m, KvDiscardReason::LINK_DOWN);
    // The token IDs to re-prefill travel as a message of the epoch the receivers expect now:
    // those of what did not arrive, and the prefix's too if its message was lost with the
    // old epoch. They share the stalled link, but are a few bytes per token, not a KV entry.
    m.epoch = m_epochs[imsi];
    m.tokensEpoch = 0;
    record.epoch = m.epoch;
    uint64_t idFirst = UINT64_MAX;
    uint64_t idEnd = 0;
    for (const PlanRange& p : m.transferRanges)
    {
        received.ForEachGap(p.first, p.end, [&idFirst, &idEnd](uint64_t a, uint64_t b) {
            idFirst = std::min(idFirst, a);
            idEnd = std::max(idEnd, b);
        });
    }
    if (!prefixIdsIn && m.prefillTokens > 0)
    {
        idFirst = 0;
        idEnd = std::max(idEnd, m.prefillTokens);
    }
    const bool idsSent = idEnd > idFirst;
    if (idsSent)
    {
        KvTransferRequest request;
        request.imsi = imsi;
        request.epoch = m.epoch;
        request.bytesPerUnit = kv.bytesPerToken;
        request.forwardedFirst = static_cast<uint32_t>(idFirst);
        request.forwardedCount = static_cast<uint32_t>(idEnd - idFirst);
        GetSender(m.route[0], m.route[1])->Enqueue(request);
    }
    t.queuedPrefill += tokens;
    // A prefix submitted, running or done: the missing tokens are a prefill of their own, once
    // their IDs are in and the GPU is done with the prefix. A prefix not submitted yet goes
    // with them, in one prefill (TryPrefill).
    m.GiveUpOnLink(tokens, idsSent);
    TrySubmitReprefill(imsi, m);
    TryPrefill(imsi, m.group);
    TryResume(imsi);
}

void
HandoverCoordinator::TrySubmitReprefill(uint64_t imsi, Migration& m)
{
    const uint64_t tokens = m.TakeReprefill();
    if (tokens == 0)
    {
        return;
    }
    GetCell(m.route.back()).port->SubmitPrefill(imsi, tokens);
}

} // namespace ns3
