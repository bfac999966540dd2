/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Online cycle groups, as the coordinator carries them out: OnlineGrouper plans a handover
// with its target's open group, and the members under way are re-planned when it joins.

#include "handover-coordinator.h"
#include "range-set.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorOnline");

HandoverPlan
HandoverCoordinator::PlanOnline(uint64_t imsi, uint16_t holder, uint16_t target, uint32_t* group)
{
    const OnlineGrouper::Decision d = m_online.Plan(imsi, holder, target);
    *group = d.group;
    if (!d.joined)
    {
        return d.plan;
    }
    Ptr<CellPort> t = GetCell(target).port;
    if (d.batchMoved)
    {
        // The batch waits for the newcomer's tokens: what is queued for the earlier boundary
        // comes out, to go in with the rest.
        for (uint64_t other : d.others)
        {
            Migration& m = m_migrations.at(other);
            if (m.IsPrefillQueued() && t->ResizeQueuedPrefill(other, 0))
            {
                m.PrefillUnqueued();
            }
        }
    }
    const Time predicted =
        d.plan.predictedDelay.IsStrictlyNegative() ? Time(0) : d.plan.predictedDelay;
    for (uint64_t other : d.others)
    {
        const SessionPlan* p = d.plan.Find(other);
        if (p && p->action == SessionPlan::MIGRATE)
        {
            HandoverRecord& r = m_recorder[m_migrations.at(other).record];
            r.prefixTokens = std::min(d.plan.prefixTokens, r.contextTokens);
            ReplanMigration(other, *p, predicted);
        }
    }
    return d.plan;
}

std::vector<OnlineGrouper::Member>
HandoverCoordinator::GetReplannableMembers(uint32_t group, uint16_t target)
{
    std::vector<OnlineGrouper::Member> members;
    for (const auto& [imsi, m] : m_migrations)
    {
        const HandoverRecord& r = m_recorder[m.record];
        // A transfer given up on has nothing left to re-plan: its prefill is fixed.
        if (m.GetPhase() != COMMITTED || m.group != group || m.IsOpen() || m.GaveUpOnLink() ||
            m.route.size() != 2 || m.route.back() != target)
        {
            continue;
        }
        OnlineGrouper::Member member;
        member.imsi = imsi;
        member.holder = m.route.front();
        member.handoverStart = r.hoStart;
        member.contextTokens = r.contextTokens;
        member.prefillTokens = m.prefillTokens;
        member.plannedUnits = CountUnits(m.transferRanges);
        for (const auto& [first, count] :
             GetSender(m.route[0], m.route[1])->GetUnsentRanges(imsi, m.epoch))
        {
            member.unsentUnits += count;
        }
        member.bytesPerToken = GetKvProfile(imsi).bytesPerToken;
        member.predictedDelay = r.predictedDelay;
        members.push_back(member);
    }
    return members;
}

uint32_t
HandoverCoordinator::NewGroupNumber()
{
    m_groups.emplace_back();
    return static_cast<uint32_t>(m_groups.size());
}

void
HandoverCoordinator::ReplanMigration(uint64_t imsi, const SessionPlan& plan, Time predicted)
{
    Migration& m = m_migrations.at(imsi);
    HandoverRecord& r = m_recorder[m.record];
    const uint64_t context = r.contextTokens;
    const std::vector<PlanRange> prefill = HandoverScheduler::Resolve(plan.prefill, context);
    const uint64_t prefix = prefill.empty() ? 0 : prefill.front().end;
    const std::vector<PlanRange> ranges = HandoverScheduler::Resolve(plan.transfer, context);
    const Time deadline =
        plan.transferDeadline == Time::Max() ? Time::Max() : r.hoStart + plan.transferDeadline;
    Ptr<KvTransferSender> sender = GetSender(m.route[0], m.route[1]);
    r.predictedDelay = predicted;
    const bool same = prefix == m.prefillTokens && ranges == m.transferRanges;
    m.plan.transferDeadline = plan.transferDeadline;
    if (same)
    {
        // The same ranges: only the deadline moves, so earliest-deadline-first keeps the
        // group's order.
        sender->SetDeadline(imsi, m.epoch, deadline);
        return;
    }

    // What this transfer has handed to TCP: the old ranges but those still unsent.
    edgellm::RangeSet sent;
    for (const PlanRange& old : m.transferRanges)
    {
        sent.Add(old.first, old.end);
    }
    edgellm::RangeSet unsent;
    for (const auto& [first, count] : sender->GetUnsentRanges(imsi, m.epoch))
    {
        unsent.Add(first, uint64_t(first) + count);
    }
    edgellm::RangeSet kept;
    for (const auto& [first, end] : sent.Ranges())
    {
        unsent.ForEachGap(first, end, [&kept](uint64_t a, uint64_t b) { kept.Add(a, b); });
    }
    // A TOKENS message in TCP already will arrive, under the old epoch.
    const bool tokensOnTheWay =
        !m.IdsIn() && m.prefillTokens > 0 && !sender->HasPendingControl(imsi, m.epoch);
    const uint32_t oldEpoch = m.epoch;
    const uint64_t withdrawn = sender->Cancel(imsi, m.epoch, KvDiscardReason::REPLAN);
    m.epoch = ++m_epochs[imsi];
    r.epoch = m.epoch;
    r.replans += 1;
    if (prefix > m.prefillTokens)
    {
        // A longer prefix prefills what was sent from the old one on: those bytes are of no
        // use, and the target drops them as stale, under the re-plan.
        kept.Clear();
        for (std::size_t i = 1; i < m.route.size(); ++i)
        {
            GetCell(m.route[i]).port->ExpectEpoch(imsi, m.epoch, KvDiscardReason::REPLAN);
        }
    }
    // Otherwise the new epoch reaches the target behind the CANCEL, on the same stream, so
    // the target keeps what the old one delivered; it is not told of the epoch any sooner.

    const SessionKvProfile kv = GetKvProfile(imsi);
    KvTransferRequest request;
    request.imsi = imsi;
    request.epoch = m.epoch;
    request.unit = KvTransferHeader::TOKEN;
    request.bytesPerUnit = kv.bytesPerToken;
    for (const PlanRange& range : ranges)
    {
        kept.ForEachGap(range.first, range.end, [&request](uint64_t a, uint64_t b) {
            request.ranges.emplace_back(static_cast<uint32_t>(a), static_cast<uint32_t>(b - a));
        });
    }
    // The IDs of the old prefix serve a prefix no longer, whether in or on the way; a longer
    // one needs them again, and so does one whose TOKENS message the cancel withdrew.
    const bool covered = prefix <= m.prefillTokens && (m.IdsIn() || tokensOnTheWay);
    const bool forward = prefix > 0 && !covered;
    m.tokensEpoch = 0;
    if (forward)
    {
        request.forwardedFirst = 0;
        request.forwardedCount = static_cast<uint32_t>(prefix);
    }
    else if (prefix > 0 && !m.IdsIn())
    {
        m.tokensEpoch = oldEpoch;
    }
    NS_ABORT_MSG_IF(request.ranges.empty() && !forward,
                    "HandoverCoordinator: imsi " << imsi
                                                 << "'s re-plan changes nothing the target "
                                                    "would hear of (prefixMin and prefixMax "
                                                    "keep such a plan out)");
    request.weight = plan.weight;
    request.priority = plan.priority;
    request.deadline = deadline;

    // The prefill: resized in the engine's queue, or submitted when its tokens are in.
    Cell& t = GetCell(m.route.back());
    if (m.HasSubmittedPrefill())
    {
        // A prefix whose new IDs are on their way leaves the queue: the GPU cannot prefill
        // tokens it does not have, so TryPrefill submits it again once they are in.
        const bool resized = t.port->ResizeQueuedPrefill(imsi, forward ? 0 : prefix);
        NS_ABORT_MSG_IF(!resized,
                        "HandoverCoordinator: imsi " << imsi
                                                     << "'s prefill started before its "
                                                        "group's batch");
    }
    t.queuedPrefill = t.queuedPrefill - std::min(t.queuedPrefill, m.prefillTokens) + prefix;
    // With no range left to send, nothing is kept either (a kept range is one it still
    // needs): the cache needs only its prefill.
    m.Replanned(prefix, forward, !request.ranges.empty());
    m.plan = plan;
    m.prefillTokens = prefix;
    m.transferRanges = ranges;
    r.prefillTokens = prefix;
    r.transferRanges = ranges;
    r.transferTokens = CountUnits(ranges);
    r.kvBytes = r.transferTokens * kv.bytesPerToken;
    sender->Enqueue(request);
    m_replannedTrace(imsi, m.epoch, withdrawn);
    m_plannedTrace(imsi, r.prefillTokens, r.transferTokens);
    NS_LOG_INFO("imsi " << imsi << ": re-planned with its cycle group, prefix " << prefix << ", "
                        << withdrawn << " KV bytes withdrawn");
}

void
HandoverCoordinator::SetGroupPrefillEnd(uint32_t group)
{
    std::vector<uint64_t> prefills;
    for (const auto& [imsi, m] : m_migrations)
    {
        if (m.group == group && m.prefillTokens > 0)
        {
            prefills.push_back(m.prefillTokens);
        }
    }
    const auto [target, end] = m_online.GetBatchEnd(group, prefills);
    GetCell(target).prefillFreeAt = end;
}

} // namespace ns3
