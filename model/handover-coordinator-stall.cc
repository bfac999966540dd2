/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A committed migration whose transfer stalls: found by its counters, then waited out or
// given up on (StallPolicy).

#include "handover-coordinator.h"
#include "llm-engine.h"

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
        uint64_t got = 0;
        for (const auto& [first, end] : received.Ranges())
        {
            const uint64_t lo = std::max(first, p.first);
            const uint64_t hi = std::min(end, p.end);
            got += hi > lo ? hi - lo : 0;
        }
        missing += p.end - p.first - got;
    }
    return missing;
}

} // namespace

void
HandoverCoordinator::CheckStall(uint64_t imsi, std::size_t record)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.record != record || it->second.state != COMMITTED ||
        (it->second.kvDone && it->second.tokensIn))
    {
        return; // it ended, resumed, or has nothing more to wait for from the link
    }
    Migration& m = it->second;
    const uint16_t target = m.route.back();
    const uint64_t received = GetCell(target).kv->GetReceiver()->GetCounters(imsi).received;
    const uint64_t sent = GetSender(m.route[0], m.route[1])->GetCounters(imsi).sent;
    // Bytes of it that TCP took and that have not arrived: a transfer still queued behind
    // other sessions' bytes has none, and is not stalled but waiting its turn.
    const bool inFlight = sent - m.sentAtStart > received - m.receivedAtStart;
    // A token handover's TOKENS message is small: not there after a whole timeout, it is
    // held by the link too.
    const bool progress = received != m.stallSeenReceived;
    const bool stalled = !progress && (inFlight || !m.tokensIn);
    m.stallSeenReceived = received;
    if (stalled && !m.stalled)
    {
        HandoverRecord& r = m_records[record];
        ++r.stalls;
        const bool giveUp = m_stallPolicy == STALL_REPREFILL &&
                            m.plan.resume == SessionPlan::ALL_ARRIVED &&
                            r.unit == KvTransferHeader::TOKEN;
        const uint64_t missing =
            MissingUnits(r.transferRanges,
                         GetCell(target).kv->GetReceiver()->GetReceivedRanges(imsi));
        NS_LOG_INFO("imsi " << imsi << ": transfer to cell " << target << " stalled, " << missing
                            << " tokens missing; " << (giveUp ? "re-prefill" : "wait"));
        m_stalledTrace(imsi, m.epoch, missing, giveUp);
        if (giveUp)
        {
            Reprefill(imsi, m);
            return; // nothing more comes from the link
        }
    }
    m.stalled = stalled;
    Simulator::Schedule(m_stallTimeout, &HandoverCoordinator::CheckStall, this, imsi, record);
}

void
HandoverCoordinator::Reprefill(uint64_t imsi, Migration& m)
{
    HandoverRecord& record = m_records[m.record];
    Cell& t = GetCell(m.route.back());
    Ptr<KvTransferReceiver> receiver = t.kv->GetReceiver();
    // What the session resumes with is fixed now, before the epoch is retired.
    const edgellm::RangeSet received = receiver->GetReceivedRanges(imsi);
    for (const auto& [first, end] : received.Ranges())
    {
        record.arrived.push_back({first, end});
    }
    const uint64_t tokens = MissingUnits(record.transferRanges, received);
    const SessionKvProfile kv = GetKvProfile(imsi);
    record.abandonedBytes = std::min(record.kvBytes, tokens * kv.bytesPerToken);
    record.reprefillTokens = tokens;
    RetireEpoch(imsi, m, KvDiscardReason::LINK_DOWN);
    m.reprefilled = true;
    m.kvDone = true;
    // The token IDs (4 bytes each) come with the handover's context over X2, not over the
    // stalled link.
    const bool tokensWereIn = m.tokensIn;
    m.tokensIn = true;
    Ptr<LlmEngine> engine = t.server->GetEngine();
    if (tokens > 0)
    {
        if (m.prefillDone)
        {
            m.prefillDone = false;
            m.prefillSubmitted = true;
            engine->SubmitPrefill(imsi, tokens, true);
        }
        else if (m.prefillSubmitted &&
                 !engine->ResizeQueuedPrefill(imsi, record.prefillTokens + tokens))
        {
            m.pendingReprefill = tokens; // the prefix runs: these go after it
        }
        // Else the prefix is not submitted yet: TryPrefill submits it and these together.
        t.queuedPrefill += tokens;
    }
    if (!tokensWereIn || !m.prefillSubmitted)
    {
        TryPrefill(imsi, record.group);
    }
    TryResume(imsi);
}

} // namespace ns3
