/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The migration itself: its start, its transfer and prefill, its resume, and its end before the
// resume.

#include "handover-coordinator.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorMigration");

bool
HandoverCoordinator::StartMigration(uint64_t imsi,
                                    uint16_t holder,
                                    uint16_t target,
                                    std::size_t recordIndex,
                                    const SessionPlan& plan,
                                    Time handoverAt,
                                    bool prepared)
{
    HandoverRecord& record = m_recorder[recordIndex];
    Cell& h = GetCell(holder);
    Cell& t = GetCell(target);
    Ptr<CellPort> source = h.port;
    const bool keepDecoding = prepared && plan.keepDecoding;
    const uint64_t next =
        keepDecoding ? source->GetNextTokenIndex(imsi) : source->StopDecoding(imsi);
    const uint64_t remaining = h.port->GetSessionState(imsi).tokensToGenerate - next;
    const SessionKvProfile kv = GetKvProfile(imsi);
    record.contextTokens = source->GetContextTokens(imsi);
    record.resumeIndex = static_cast<uint32_t>(next);
    if (!prepared)
    {
        // The mark goes out after the stop, so the marked token is the last one before the
        // handover.
        h.port->MarkHandover(imsi);
    }

    Migration m = NewMigration(imsi);
    m.record = recordIndex;
    m.group = record.group;
    m.plan = plan;
    m.nextToken = next;
    bool open = keepDecoding;
    const uint64_t context = record.contextTokens;
    const uint64_t units =
        plan.unit == KvTransferHeader::TOKEN ? context : context * kv.entriesPerToken;
    std::vector<PlanRange> prefill = HandoverScheduler::Resolve(plan.prefill, context);
    std::vector<PlanRange> transfer;
    for (std::size_t i = 0; i < plan.transfer.size(); ++i)
    {
        PlanRange r = plan.transfer[i];
        // An open transfer holds whole blocks of its growing tail; the rest goes later, by
        // appends and with the seal.
        const bool tail = open && i + 1 == plan.transfer.size();
        r.end = std::min(r.end, tail ? context / BLOCK_TOKENS * BLOCK_TOKENS : units);
        if (r.first < r.end)
        {
            transfer.push_back(r);
        }
    }
    if (GetSender(holder, target))
    {
        m.route = {holder, target};
    }
    else
    {
        NS_LOG_INFO("imsi " << imsi << ": cell " << target << " has no link to cell " << holder
                            << ", which holds the cache; tokens are relayed");
        m.route = m_paths.Get(imsi);
        std::vector<HandoverLinkView> links;
        std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
        const HandoverSessionView view = m_inputs.MakeSessionView(imsi,
                                                                  holder,
                                                                  target,
                                                                  handoverAt.GetSeconds(),
                                                                  context,
                                                                  !prepared,
                                                                  links,
                                                                  index);
        prefill =
            HandoverScheduler::Resolve(Scheduler()->PlanWithoutDirectLink(view).prefill, context);
        transfer.clear();
        open = false;
    }
    if (m.route.size() < 2 || !GetSender(m.route[0], m.route[1]))
    {
        NS_LOG_INFO("imsi " << imsi << ": no KV sender on the way to cell " << target);
        if (!keepDecoding)
        {
            source->ResumeDecoding(imsi, next, remaining);
        }
        return false;
    }
    if (open)
    {
        // The tail grows from the end of what the plan covers now, so no token is skipped
        // whatever the plan's ranges were cut to.
        m.openEnd = prefill.empty() ? 0 : prefill.front().end;
        for (const PlanRange& r : transfer)
        {
            m.openEnd = std::max(m.openEnd, r.end);
        }
    }
    m.prefillTokens = prefill.empty() ? 0 : prefill.front().end;
    m.transferRanges = transfer;
    record.prefillTokens = m.prefillTokens;
    record.unit = plan.unit;
    record.transferRanges = transfer;
    const uint64_t transferUnits = CountUnits(transfer);
    record.transferTokens = plan.unit == KvTransferHeader::TOKEN
                                ? transferUnits
                                : (transferUnits + kv.entriesPerToken - 1) / kv.entriesPerToken;

    LlmEngine::Admission admission = t.port->AdmitMigrated(imsi, context, remaining);
    if (admission == LlmEngine::Admission::WAITING && m_memoryFull == MEMORY_EVICT)
    {
        // TargetMemoryFull Evict: the target's own decoding sessions make room, and pay with
        // a re-prefill of their context; if they cannot, the session waits as with Queue.
        const uint32_t evicted = t.port->EvictFor(imsi);
        m_evictions += evicted;
        if (evicted > 0)
        {
            admission = LlmEngine::Admission::ADMITTED;
        }
    }
    if (admission == LlmEngine::Admission::WAITING && m_memoryFull == MEMORY_FALLBACK)
    {
        // TargetMemoryFull Fallback: no waiting for memory to free up at the target.
        t.port->RemoveSession(imsi);
        admission = LlmEngine::Admission::REJECTED;
        ++m_memoryFallbacks;
    }
    if (admission == LlmEngine::Admission::REJECTED)
    {
        // An admission outcome, not an error: the session stays where its cache is.
        NS_LOG_INFO("imsi " << imsi << ": cell " << target << " cannot hold " << context
                            << " tokens now; it stays at cell " << holder);
        record.prefillTokens = 0;
        record.transferTokens = 0;
        record.transferRanges.clear();
        if (!keepDecoding)
        {
            source->ResumeDecoding(imsi, next, remaining);
        }
        return false;
    }
    m.epoch = ++m_epochs[imsi];
    record.epoch = m.epoch;
    for (std::size_t i = 1; i < m.route.size(); ++i)
    {
        GetCell(m.route[i]).port->ExpectEpoch(imsi, m.epoch, KvDiscardReason::NEWER_EPOCH);
    }
    KvTransferRequest request;
    request.imsi = imsi;
    request.epoch = m.epoch;
    request.unit = plan.unit;
    request.bytesPerUnit =
        plan.unit == KvTransferHeader::TOKEN ? kv.bytesPerToken : kv.bytesPerEntry;
    request.forwardedFirst = 0;
    request.forwardedCount = static_cast<uint32_t>(m.prefillTokens);
    for (const PlanRange& r : transfer)
    {
        request.ranges.emplace_back(static_cast<uint32_t>(r.first),
                                    static_cast<uint32_t>(r.end - r.first));
    }
    request.open = open;
    request.weight = plan.weight;
    request.priority = plan.priority;
    if (plan.transferDeadline != Time::Max())
    {
        // The deadline counts from the handover, the expected one for a prepared migration.
        request.deadline = handoverAt + plan.transferDeadline;
    }
    Ptr<KvTransferSender> sender = GetSender(m.route[0], m.route[1]);
    m.sentAtStart = sender->GetCounters(imsi).sent;
    m.receivedAtStart = t.port->GetReceivedBytes(imsi);
    m.expectedS = handoverAt.GetSeconds();
    record.kvBytes = transferUnits * request.bytesPerUnit;
    if (m.prefillTokens > 0)
    {
        // What online plans behind this one wait for: the earliest its prefill can end.
        const LlmComputeModel& model = t.port->GetComputeModel();
        t.prefillFreeAt = std::max(t.prefillFreeAt, Simulator::Now()) +
                          Seconds(model.PrefillTime(m.prefillTokens));
        t.queuedPrefill += m.prefillTokens;
    }
    // In the table before the sender hears of it: a slot policy may ask for its budget at once.
    Migration& placed = m_migrations[imsi] = m;
    placed.Begin(prepared, placed.prefillTokens, !request.ranges.empty(), open);
    if (!request.ranges.empty() || request.forwardedCount > 0 || request.open)
    {
        sender->Enqueue(request);
    }
    if (!prepared)
    {
        ScheduleDeadline(imsi, placed);
    }
    m_slotClock.Arm();
    m_plannedTrace(imsi, record.prefillTokens, record.transferTokens);
    return true;
}

void
HandoverCoordinator::EndMigration(uint64_t imsi, MigrationState state, bool resumeHolder)
{
    const HandoverRecord::Outcome outcome = state == CANCELLED ? HandoverRecord::CANCELLED
                                            : state == FAILED  ? HandoverRecord::FAILED
                                                               : HandoverRecord::CLOSED;
    auto it = m_migrations.find(imsi);
    Migration m = it->second;
    const MigrationView view = m_inputs.MakeMigrationView(imsi, m, nullptr, nullptr);
    m_migrations.erase(it);
    Ptr<KvTransferSender> sender = GetSender(m.route[0], m.route[1]);
    const uint64_t withdrawn = RetireEpoch(imsi, m, KvDiscardReason::NEWER_EPOCH);
    Cell& t = GetCell(m.route.back());
    t.port->RemoveSession(imsi);
    HandoverRecord& record = m_recorder[m.record];
    record.outcome = outcome;
    record.wastedBytes = sender->GetCounters(imsi).sent - m.sentAtStart;
    if (m.PrefillDone() && m.prefillTokens > 0)
    {
        record.wastedGpuSeconds = t.port->GetComputeModel().PrefillTime(m.prefillTokens);
    }
    if (!m.PrefillDone() && m.prefillTokens > 0)
    {
        t.queuedPrefill -= std::min(t.queuedPrefill, m.prefillTokens);
    }
    if (resumeHolder)
    {
        // The session stays where its cache is, and decodes on there.
        Ptr<CellPort> holder = GetCell(m.route.front()).port;
        if (holder->HasSession(imsi) && !holder->IsDecoding(imsi))
        {
            const uint64_t total = holder->GetSessionState(imsi).tokensToGenerate;
            if (m.nextToken < total)
            {
                holder->ResumeDecoding(imsi, m.nextToken, total - m.nextToken);
            }
        }
    }
    if (state == FAILED || state == CLOSED)
    {
        // Back to the cell the UE left; a later UeReady follows it to where it reconnects.
        m_paths.RouteTo(imsi, record.sourceCell);
        m_reconnecting[imsi] = record.sourceCell;
    }
    const MigrationState from = m.GetPhase();
    m.End(state);
    if (from == PREPARED)
    {
        Scheduler()->Cancel(view);
    }
    Scheduler()->CompleteRecord(record);
    m_cancelledTrace(imsi, m.epoch, withdrawn);
    const uint32_t group = m.group;
    if (m_online.IsOnline(group))
    {
        // The rest of its cycle group may have waited only for it.
        TryPrefill(0, group);
    }
    NS_LOG_INFO("imsi " << imsi << ": migration to cell " << m.route.back() << " "
                        << StateName(state) << ", " << withdrawn << " KV bytes withdrawn");
}

uint64_t
HandoverCoordinator::RetireEpoch(uint64_t imsi, const Migration& m, KvDiscardReason reason)
{
    const uint64_t withdrawn = GetSender(m.route[0], m.route[1])->Cancel(imsi, m.epoch, reason);
    // Bytes still in flight arrive under an epoch the receivers no longer expect: stale, and
    // counted under the same reason.
    const uint32_t next = ++m_epochs[imsi];
    for (std::size_t i = 1; i < m.route.size(); ++i)
    {
        GetCell(m.route[i]).port->ExpectEpoch(imsi, next, reason);
    }
    return withdrawn;
}

void
HandoverCoordinator::ScheduleDeadline(uint64_t imsi, Migration& m)
{
    if (m.plan.resume == SessionPlan::AT_DEADLINE)
    {
        m.deadlineTimer = Simulator::Schedule(m.plan.resumeAfter,
                                              &HandoverCoordinator::DeadlineReached,
                                              this,
                                              imsi,
                                              m.epoch);
    }
    if (!m.KvDone() || !m.IdsIn())
    {
        m.stallSeenReceived = GetCell(m.route.back()).port->GetReceivedBytes(imsi);
        m.WatchLink();
        m.stallTimer = Simulator::Schedule(m_stallTimeout,
                                           &HandoverCoordinator::CheckStall,
                                           this,
                                           imsi,
                                           m.record);
    }
}

void
HandoverCoordinator::TokensArrived(uint16_t cellId,
                                   uint64_t imsi,
                                   uint32_t epoch,
                                   uint32_t first,
                                   uint32_t count)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() ||
        (it->second.epoch != epoch &&
         (it->second.tokensEpoch == 0 || it->second.tokensEpoch != epoch)))
    {
        return;
    }
    Migration& m = it->second;
    auto at = std::find(m.route.begin(), m.route.end(), cellId);
    if (at == m.route.end() || at == m.route.begin())
    {
        return;
    }
    if (cellId != m.route.back())
    {
        // A hop on the way: pass the token IDs on to the next cell.
        KvTransferRequest request;
        request.imsi = imsi;
        request.epoch = epoch;
        request.bytesPerUnit = GetKvProfile(imsi).bytesPerToken;
        request.forwardedFirst = first;
        request.forwardedCount = count;
        GetSender(cellId, *(at + 1))->Enqueue(request);
        return;
    }
    m.IdsArrived();
    TrySubmitReprefill(imsi, m);
    TryPrefill(imsi, m.group);
}

void
HandoverCoordinator::TryPrefill(uint64_t imsi, uint32_t group)
{
    std::vector<uint64_t> batch;
    if (group == 0)
    {
        if (m_migrations.count(imsi) == 0)
        {
            return;
        }
        batch.push_back(imsi);
    }
    else
    {
        if (!m_groups[group - 1].waiting.empty())
        {
            return; // the batch starts after the group's last handover
        }
        for (const auto& [member, m] : m_migrations)
        {
            if (m.group == group)
            {
                batch.push_back(member);
            }
        }
    }
    for (uint64_t member : batch)
    {
        if (!m_migrations.at(member).IdsIn())
        {
            return;
        }
    }
    // Every session of the batch is in: the engine starts them together at its next cycle.
    std::map<uint16_t, std::vector<std::pair<uint64_t, uint64_t>>> jobs; // by target
    for (uint64_t member : batch)
    {
        Migration& m = m_migrations.at(member);
        // A stalled transfer given up on re-prefills what did not arrive with the prefix.
        const uint64_t tokens = m.prefillTokens + (m.GaveUpOnLink() ? m.GetReprefillTokens() : 0);
        if (tokens > 0 && m.ReadyForBatch())
        {
            m.PrefillQueued();
            jobs[m.route.back()].emplace_back(member, tokens);
        }
    }
    for (const auto& [cell, list] : jobs)
    {
        GetCell(cell).port->SubmitPrefillBatch(list);
    }
}

void
HandoverCoordinator::PrefillCompleted(uint16_t cellId,
                                      uint64_t imsi,
                                      uint64_t tokens,
                                      bool /* urgent */)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.route.back() != cellId ||
        !it->second.HasSubmittedPrefill())
    {
        return;
    }
    Cell& t = GetCell(cellId);
    t.queuedPrefill -= std::min(t.queuedPrefill, tokens);
    Migration& m = it->second;
    m.PrefillEnded();
    if (m.GetPendingReprefill() > 0)
    {
        // The KV that a stalled link did not bring, after the prefix that was queued or
        // running, once its IDs are in.
        TrySubmitReprefill(imsi, m);
        return;
    }
    TryResume(imsi);
}

void
HandoverCoordinator::KvComplete(uint16_t cellId, uint64_t imsi, uint32_t epoch)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.route.back() != cellId || it->second.epoch != epoch)
    {
        return;
    }
    it->second.KvArrived();
    TryResume(imsi);
}

void
HandoverCoordinator::DeadlineReached(uint64_t imsi, uint32_t epoch)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.epoch != epoch || it->second.GetPhase() != COMMITTED)
    {
        return;
    }
    it->second.DeadlineReached();
    TryResume(imsi);
}

void
HandoverCoordinator::TryResume(uint64_t imsi)
{
    auto it = m_migrations.find(imsi);
    Migration m = it->second;
    if (!m.CanResume())
    {
        return;
    }
    HandoverRecord& record = m_recorder[m.record];
    Cell& h = GetCell(record.holderCell);
    Cell& t = GetCell(record.targetCell);
    // What the session resumes with is what the target's receiver counted, not the plan.
    if (!m.GaveUpOnLink())
    {
        // A stalled transfer given up on fixed its arrived ranges then (Reprefill).
        const edgellm::RangeSet received = t.port->GetReceivedRanges(imsi);
        for (const auto& [first, end] : received.Ranges())
        {
            record.arrived.push_back({first, end});
        }
    }
    if (!m.KvDone())
    {
        // The window is over: the rest of the transfer is abandoned.
        const uint64_t arrivedUnits = CountUnits(record.arrived);
        const SessionKvProfile kv = GetKvProfile(imsi);
        const uint64_t bpu =
            record.unit == KvTransferHeader::TOKEN ? kv.bytesPerToken : kv.bytesPerEntry;
        record.abandonedBytes = record.kvBytes - std::min(record.kvBytes, arrivedUnits * bpu);
        RetireEpoch(imsi, m, KvDiscardReason::WINDOW_END);
    }
    m_migrations.erase(it);
    m_paths.StopRelays(imsi);
    EdgeLlmServer::SessionState state = h.port->ExportSession(imsi);
    const uint64_t remaining = state.tokensToGenerate - record.resumeIndex;
    t.port->ImportSession(imsi, std::move(state));
    h.port->RemoveSession(imsi);
    m_paths.Reset(imsi, record.targetCell);
    t.port->ResumeDecoding(imsi, record.resumeIndex, remaining);
    record.kvReady = Simulator::Now();
    record.outcome = HandoverRecord::MIGRATED;
    m.Resume();
    Scheduler()->CompleteRecord(record);
    NS_LOG_INFO("imsi " << imsi << ": resumed at cell " << record.targetCell << " after "
                        << (record.kvReady - record.hoStart).As(Time::MS));
    m_resumedTrace(imsi, record.targetCell, record.kvReady - record.hoStart);
}

} // namespace ns3
