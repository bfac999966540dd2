/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Online cycle groups: the handovers to one target that one prefill batch will hold are
// planned together, and a migration under way is re-planned when its group grows.

#include "handover-coordinator.h"
#include "range-set.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorOnline");

namespace
{

/// \return the units of ranges
uint64_t
Units(const std::vector<std::pair<uint32_t, uint32_t>>& ranges)
{
    uint64_t n = 0;
    for (const auto& [first, count] : ranges)
    {
        n += count;
    }
    return n;
}

} // namespace

HandoverPlan
HandoverCoordinator::PlanCycleGroup(
    const std::vector<uint64_t>& members,
    uint64_t imsi,
    uint16_t holder,
    uint16_t target,
    Time freeBefore,
    const std::map<std::pair<uint16_t, uint16_t>, uint64_t>& backlog,
    uint32_t group)
{
    const Time now = Simulator::Now();
    HandoverPlanInput input;
    input.nowS = now.GetSeconds();
    input.group = group;
    HandoverTargetView view = m_inputs.MakeTargetView(target);
    view.prefillFreeAtS = freeBefore.GetSeconds();
    input.targets.push_back(view);
    std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
    // KV bytes each link has carried for the members from their old prefixes on: of no use
    // if their prefixes grow.
    std::map<std::pair<uint16_t, uint16_t>, uint64_t> sentBytes;
    std::vector<std::pair<std::size_t, uint64_t>> keepBounds; // session index, its old prefix
    for (uint64_t other : members)
    {
        const Migration& m = m_migrations.at(other);
        const HandoverRecord& r = m_recorder[m.record];
        HandoverSessionView v = m_inputs.MakeSessionView(other,
                                                         m.route.front(),
                                                         target,
                                                         r.hoStart.GetSeconds(),
                                                         r.contextTokens,
                                                         true,
                                                         input.links,
                                                         index);
        v.inProgress = true;
        const uint64_t unsent =
            Units(GetSender(m.route[0], m.route[1])->GetUnsentRanges(other, m.epoch));
        const uint64_t planned = CountUnits(r.transferRanges);
        // Once all its KV is in TCP, its transfer may be complete at the target already:
        // its plan stands.
        if (planned > 0 && unsent == 0)
        {
            v.prefixMin = r.prefillTokens;
            v.prefixMax = r.prefillTokens;
        }
        else if (planned > unsent)
        {
            keepBounds.emplace_back(input.sessions.size(), r.prefillTokens);
            sentBytes[{m.route[0], m.route[1]}] +=
                (planned - unsent) * GetKvProfile(other).bytesPerToken;
        }
        input.sessions.push_back(v);
    }
    input.sessions.push_back(m_inputs.MakeSessionView(imsi,
                                                      holder,
                                                      target,
                                                      now.GetSeconds(),
                                                      GetCell(holder).port->GetContextTokens(imsi),
                                                      true,
                                                      input.links,
                                                      index));
    for (HandoverLinkView& link : input.links)
    {
        auto b = backlog.find({link.fromCell, link.toCell});
        link.backlogBytes =
            b != backlog.end() ? b->second : LinkBacklog(link.fromCell, link.toCell);
    }
    // Two views, each true to what its prefixes cost: one keeps what the members sent (no
    // prefix grows past its old one), the other lets them grow and counts those bytes, which
    // the link carries all the same. The policy chooses.
    HandoverPlanInput keep = input;
    for (const auto& [session, prefix] : keepBounds)
    {
        HandoverSessionView& v = keep.sessions[session];
        v.prefixMax = std::min(v.prefixMax, prefix);
    }
    HandoverPlanInput grow = input;
    for (HandoverLinkView& link : grow.links)
    {
        auto sent = sentBytes.find({link.fromCell, link.toCell});
        if (sent != sentBytes.end())
        {
            link.backlogBytes += sent->second;
        }
    }
    const HandoverPlan plan =
        Scheduler()->PlanCycleGroup(keep, keepBounds.empty() ? nullptr : &grow);
    return plan;
}

uint64_t
HandoverCoordinator::LinkBacklog(uint16_t from, uint16_t to) const
{
    Ptr<KvTransferSender> sender = GetSender(from, to);
    return sender ? sender->GetBacklogBytes() + sender->GetSocketBufferedBytes() : 0;
}

HandoverPlan
HandoverCoordinator::PlanOnline(uint64_t imsi, uint16_t holder, uint16_t target, uint32_t* group)
{
    const Time now = Simulator::Now();
    Cell& t = GetCell(target);
    // The target can prefill only once it has the token IDs, which queue behind what the
    // link's TCP holds already.
    Ptr<KvTransferSender> sender = GetSender(holder, target);
    const uint64_t context = GetCell(holder).port->GetContextTokens(imsi);
    const uint64_t ahead = sender->GetSocketBufferedBytes() + sender->GetWritingBytesLeft() +
                           KvTransferHeader::SERIALIZED_SIZE +
                           context * KvTransferHeader::BYTES_PER_TOKEN_ID;
    const Time tokensIn = now + Seconds(ahead * 8.0 / GetPlannedRateBps(holder, target)) +
                          sender->GetLinkDelay() + Scheduler()->GetOnlineTokensSlack();

    // Alone: a batch of its own, after every batch planned here.
    const Time aloneFree = std::max({t.prefillFreeAt, t.port->GetIterationEnd(), tokensIn});
    const std::map<std::pair<uint16_t, uint16_t>, uint64_t> live{
        {{holder, target}, LinkBacklog(holder, target)}};
    HandoverPlan plan = PlanCycleGroup({}, imsi, holder, target, aloneFree, live, 0);

    // With the group whose batch has not started, which waits for this one's tokens if it
    // must: taken if that makes the worst of them no worse.
    const uint32_t open = t.openGroup;
    if (open != 0 && now < m_groups[open - 1].boundary)
    {
        Group& g = m_groups[open - 1];
        std::vector<std::pair<Time, uint64_t>> byStart;
        Time worst{0};
        for (const auto& [other, m] : m_migrations)
        {
            const HandoverRecord& r = m_recorder[m.record];
            // A transfer given up on has nothing left to re-plan: its prefill is fixed.
            if (m.GetPhase() == COMMITTED && r.group == open && !m.IsOpen() && !m.GaveUpOnLink() &&
                m.route.size() == 2 && m.route.back() == target)
            {
                byStart.emplace_back(r.hoStart, other);
                worst = std::max(worst, r.predictedDelay);
            }
        }
        std::sort(byStart.begin(), byStart.end());
        std::vector<uint64_t> members;
        for (const auto& [start, other] : byStart)
        {
            members.push_back(other);
        }
        std::map<std::pair<uint16_t, uint16_t>, uint64_t> backlog = g.backlog;
        backlog.try_emplace({holder, target}, LinkBacklog(holder, target));
        const Time joinFree = std::max(g.freeBefore, tokensIn);
        const HandoverPlan joint =
            PlanCycleGroup(members, imsi, holder, target, joinFree, backlog, open);
        if (!members.empty() && Scheduler()->JoinCycleGroup(joint, worst, plan))
        {
            g.backlog = backlog;
            const Time boundary = t.port->GetPrefillBoundary(joinFree);
            if (boundary != g.boundary)
            {
                // The batch waits for the newcomer's tokens: what is queued for the earlier
                // boundary comes out, to go in with the rest.
                for (uint64_t other : members)
                {
                    Migration& m = m_migrations.at(other);
                    if (m.IsPrefillQueued() && t.port->ResizeQueuedPrefill(other, 0))
                    {
                        m.PrefillUnqueued();
                    }
                }
            }
            g.freeBefore = joinFree;
            g.boundary = boundary;
            const Time predicted =
                joint.predictedDelay.IsStrictlyNegative() ? Time(0) : joint.predictedDelay;
            for (uint64_t other : members)
            {
                const SessionPlan* p = joint.Find(other);
                if (p && p->action == SessionPlan::MIGRATE)
                {
                    HandoverRecord& r = m_recorder[m_migrations.at(other).record];
                    r.prefixTokens = std::min(joint.prefixTokens, r.contextTokens);
                    ReplanMigration(other, *p, predicted);
                }
            }
            *group = open;
            return joint;
        }
    }
    Group g;
    g.online = true;
    g.target = target;
    g.freeBefore = aloneFree;
    g.boundary = t.port->GetPrefillBoundary(aloneFree);
    g.backlog = live;
    m_groups.push_back(g);
    t.openGroup = m_groups.size();
    *group = t.openGroup;
    return plan;
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
    bool same = prefix == r.prefillTokens && ranges.size() == r.transferRanges.size();
    for (std::size_t i = 0; same && i < ranges.size(); ++i)
    {
        same = ranges[i].first == r.transferRanges[i].first &&
               ranges[i].end == r.transferRanges[i].end;
    }
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
    for (const PlanRange& old : r.transferRanges)
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
        !m.IdsIn() && r.prefillTokens > 0 && !sender->HasPendingControl(imsi, m.epoch);
    const uint32_t oldEpoch = m.epoch;
    const uint64_t withdrawn = sender->Cancel(imsi, m.epoch, KvDiscardReason::REPLAN);
    m.epoch = ++m_epochs[imsi];
    r.epoch = m.epoch;
    r.replans += 1;
    if (prefix > r.prefillTokens)
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
    const bool covered = prefix <= r.prefillTokens && (m.IdsIn() || tokensOnTheWay);
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
    t.queuedPrefill = t.queuedPrefill - std::min(t.queuedPrefill, r.prefillTokens) + prefix;
    // With no range left to send, nothing is kept either (a kept range is one it still
    // needs): the cache needs only its prefill.
    m.Replanned(prefix, forward, !request.ranges.empty());
    m.plan = plan;
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
    const Group& g = m_groups[group - 1];
    Cell& t = GetCell(g.target);
    std::vector<uint64_t> lengths;
    for (const auto& [imsi, m] : m_migrations)
    {
        const HandoverRecord& r = m_recorder[m.record];
        if (r.group == group && r.prefillTokens > 0)
        {
            lengths.push_back(r.prefillTokens);
        }
    }
    const LlmComputeModel& model = t.port->GetComputeModel();
    t.prefillFreeAt =
        lengths.empty()
            ? g.freeBefore
            : g.boundary + Seconds(model.BatchPrefillTime(PrefillBatch::FromLengths(lengths)));
}

} // namespace ns3
