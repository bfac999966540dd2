/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The lifecycle of a handover's migration, in the order a handover meets it: its start, its
// commit if prepared, the cells' events that advance it (token IDs, prefills, KV, an open
// transfer's new blocks, its deadline and stall checks), a re-plan with its online group, its
// resume at the target, and its end before that.

#include "migration-lifecycle.h"

#include "cross-node-audit.h"
#include "range-set.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MigrationLifecycle");

namespace
{

/// Units of the planned ranges that are not in the received set.
uint64_t
MissingUnits(const std::vector<TokenRange>& planned, const edgellm::RangeSet& received)
{
    uint64_t missing = 0;
    for (const TokenRange& p : planned)
    {
        received.ForEachGap(p, [&missing](TokenRange gap) { missing += gap.Count(); });
    }
    return missing;
}

/// What the session resumes with: the ranges the target's receiver counted.
void
RecordArrivals(HandoverRecord& record, const edgellm::RangeSet& received)
{
    for (const TokenRange& r : received.Ranges())
    {
        record.arrived.push_back(r);
    }
}

} // namespace

MigrationLifecycle::MigrationLifecycle(Host* host, Parts parts, Traces traces)
    : m_host(host),
      m_parts(parts),
      m_traces(traces)
{
}

Migration*
MigrationLifecycle::Find(uint64_t imsi)
{
    auto it = m_migrations.find(imsi);
    return it == m_migrations.end() ? nullptr : &it->second;
}

const Migration*
MigrationLifecycle::Find(uint64_t imsi) const
{
    auto it = m_migrations.find(imsi);
    return it == m_migrations.end() ? nullptr : &it->second;
}

const std::map<uint64_t, Migration>&
MigrationLifecycle::GetAll() const
{
    return m_migrations;
}

std::pair<Time, uint64_t>
MigrationLifecycle::GetPrefillForecast(uint16_t cellId) const
{
    auto it = m_forecasts.find(cellId);
    return it == m_forecasts.end() ? std::make_pair(Time(0), uint64_t(0))
                                   : std::make_pair(it->second.freeAt, it->second.queued);
}

std::vector<uint64_t>
MigrationLifecycle::GetUnsubmittedPrefills(uint16_t cellId,
                                           const std::vector<uint64_t>& except) const
{
    std::vector<uint64_t> lengths;
    for (const auto& [imsi, m] : m_migrations)
    {
        if (m.route.back() == cellId && m.prefillTokens > 0 && !m.HasSubmittedPrefill() &&
            !m.PrefillDone() && std::find(except.begin(), except.end(), imsi) == except.end())
        {
            lengths.push_back(m.prefillTokens);
        }
    }
    return lengths;
}

uint32_t
MigrationLifecycle::GetMemoryFallbacks() const
{
    return m_memoryFallbacks;
}

uint32_t
MigrationLifecycle::GetEvictions() const
{
    return m_evictions;
}

Migration
MigrationLifecycle::NewMigration(uint64_t imsi)
{
    return Migration(imsi, m_traces.migration);
}

HandoverRecord&
MigrationLifecycle::Record(std::size_t i)
{
    return (*m_parts.recorder)[i];
}

bool
MigrationLifecycle::HasKvLink(uint16_t from, uint16_t to) const
{
    return m_host->ConfigOf(from)->HasKvPeer(to);
}

Ptr<CellPort>
MigrationLifecycle::From(const Migration& m) const
{
    return m_host->PortOf(m.route[0]);
}

bool
MigrationLifecycle::Start(uint64_t imsi,
                          uint16_t holder,
                          uint16_t target,
                          std::size_t recordIndex,
                          const SessionPlan& plan,
                          Time handoverAt,
                          bool prepared)
{
    m_host->SettleRelease(imsi, target);
    HandoverRecord& record = Record(recordIndex);
    const Settings settings = m_host->GetMigrationSettings();
    Ptr<CellPort> source = m_host->PortOf(holder);
    const bool keepDecoding = prepared && plan.keepDecoding;
    const uint64_t next =
        keepDecoding ? source->GetNextTokenIndex(imsi) : source->StopDecoding(imsi);
    const uint64_t remaining = source->GetSessionState(imsi).tokensToGenerate - next;
    const SessionKvProfile kv = m_host->GetKvProfile(imsi);
    record.contextTokens = source->GetContextTokens(imsi);
    record.resumeIndex = static_cast<uint32_t>(next);
    if (!prepared)
    {
        // The mark goes out after the stop, so the marked token is the last one before the
        // handover.
        source->MarkHandover(imsi);
    }

    Migration m = NewMigration(imsi);
    m.record = recordIndex;
    m.group = record.group;
    m.plan = plan;
    m.nextToken = next;
    m.openStep = settings.openStep;
    bool open = keepDecoding;
    const uint64_t context = record.contextTokens;
    const uint64_t units =
        plan.unit == KvTransferHeader::TOKEN ? context : context * kv.entriesPerToken;
    std::vector<TokenRange> prefill = HandoverScheduler::Resolve(plan.prefill, context);
    std::vector<TokenRange> transfer;
    for (std::size_t i = 0; i < plan.transfer.size(); ++i)
    {
        TokenRange r = plan.transfer[i];
        // An open transfer holds whole blocks of its growing tail; the rest goes later, by
        // appends and with the seal.
        const bool tail = open && i + 1 == plan.transfer.size();
        const uint64_t streamed =
            plan.streamOpen ? context / settings.openStep * settings.openStep : 0;
        r.end = std::min(r.end, tail ? streamed : units);
        if (r.first < r.end)
        {
            transfer.push_back(r);
        }
    }
    if (HasKvLink(holder, target))
    {
        m.route = {holder, target};
    }
    else
    {
        NS_LOG_INFO("imsi " << imsi << ": cell " << target << " has no link to cell " << holder
                            << ", which holds the cache; tokens are relayed");
        m.route = m_parts.paths->Get(imsi);
        std::vector<HandoverLinkView> links;
        std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
        const HandoverSessionView view = m_parts.inputs->MakeSessionView(imsi,
                                                                         holder,
                                                                         target,
                                                                         handoverAt.GetSeconds(),
                                                                         context,
                                                                         !prepared,
                                                                         links,
                                                                         index);
        prefill =
            HandoverScheduler::Resolve(m_host->GetScheduler()->PlanWithoutDirectLink(view).prefill,
                                       context);
        transfer.clear();
        open = false;
    }
    if (m.route.size() < 2 || !HasKvLink(m.route[0], m.route[1]))
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
        for (const TokenRange& r : transfer)
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

    // With ControlPlane network the target admitted the session when its reservation arrived,
    // and its answer said how; else it is admitted now.
    const std::optional<LlmEngine::Admission> reserved = m_host->TakeAdmission(imsi, target);
    const LlmEngine::Admission admission =
        reserved ? *reserved : Admit(imsi, target, context, remaining);
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
    Ptr<CellPort> t = m_host->PortOf(target);
    for (std::size_t i = 1; i < m.route.size(); ++i)
    {
        Ptr<CellPort> hop = m.route[i] == target ? t : m_host->PortOf(m.route[i]);
        hop->ExpectEpoch(imsi, m.epoch, KvDiscardReason::NEWER_EPOCH);
    }
    KvTransferRequest request;
    request.imsi = imsi;
    request.epoch = m.epoch;
    request.unit = plan.unit;
    request.bytesPerUnit =
        plan.unit == KvTransferHeader::TOKEN ? kv.bytesPerToken : kv.bytesPerEntry;
    request.forwardedFirst = 0;
    request.forwardedCount = static_cast<uint32_t>(m.prefillTokens);
    request.ranges = transfer;
    request.open = open;
    request.weight = plan.weight;
    request.priority = plan.priority;
    if (plan.transferDeadline != Time::Max())
    {
        // The deadline counts from the handover, the expected one for a prepared migration.
        request.deadline = handoverAt + plan.transferDeadline;
    }
    Ptr<CellPort> from = From(m);
    const KvTransferSenderCounters atStart = from->GetKvCounters(m.route[1], imsi);
    m.sentAtStart = atStart.sent;
    m.deliveredKvAtStart = atStart.deliveredKv;
    m.receivedAtStart = t->GetReceivedBytes(imsi);
    m.expectedS = handoverAt.GetSeconds();
    record.kvBytes = transferUnits * request.bytesPerUnit;
    if (m.prefillTokens > 0)
    {
        // What online plans behind this one wait for: the earliest its prefill can end.
        const LlmComputeModel& model = m_host->ConfigOf(target)->GetComputeModel();
        Forecast& forecast = m_forecasts[target];
        forecast.freeAt = std::max(forecast.freeAt, Simulator::Now()) +
                          Seconds(model.PrefillTime(m.prefillTokens));
        forecast.queued += m.prefillTokens;
    }
    // In the table before the sender hears of it: a slot policy may ask for its budget at once.
    Migration& placed = m_migrations[imsi] = m;
    placed.Begin(prepared, placed.prefillTokens, !request.ranges.empty(), open);
    if (!request.ranges.empty() || request.forwardedCount > 0 || request.open)
    {
        from->EnqueueKv(m.route[1], request);
    }
    if (!prepared)
    {
        ScheduleDeadline(imsi, placed);
    }
    m_parts.slotClock->Arm();
    (*m_traces.planned)(imsi, record.prefillTokens, record.transferTokens);
    return true;
}

LlmEngine::Admission
MigrationLifecycle::Admit(uint64_t imsi, uint16_t target, uint64_t context, uint64_t remaining)
{
    Ptr<CellPort> t = m_host->PortOf(target);
    LlmEngine::Admission admission = t->AdmitMigrated(imsi, context, remaining);
    const MemoryFullPolicy policy = m_host->GetMigrationSettings().memoryFull;
    if (admission == LlmEngine::Admission::WAITING && policy == MEMORY_EVICT)
    {
        // TargetMemoryFull Evict: the target's own decoding sessions make room, and pay with
        // a re-prefill of their context; if they cannot, the session waits as with Queue.
        const uint32_t evicted = t->EvictFor(imsi);
        m_evictions += evicted;
        if (evicted > 0)
        {
            admission = LlmEngine::Admission::ADMITTED;
        }
    }
    if (admission == LlmEngine::Admission::WAITING && policy == MEMORY_FALLBACK)
    {
        // TargetMemoryFull Fallback: no waiting for memory to free up at the target.
        t->RemoveSession(imsi);
        admission = LlmEngine::Admission::REJECTED;
        ++m_memoryFallbacks;
    }
    return admission;
}

void
MigrationLifecycle::End(uint64_t imsi, Migration::Phase state, bool resumeHolder, uint16_t at)
{
    const HandoverRecord::Outcome outcome = state == Migration::CANCELLED
                                                ? HandoverRecord::CANCELLED
                                            : state == Migration::FAILED ? HandoverRecord::FAILED
                                                                         : HandoverRecord::CLOSED;
    auto it = m_migrations.find(imsi);
    Migration m = it->second;
    // The policy hears of a prepared migration's end, with its view as it ends.
    const std::optional<MigrationView> view =
        m.GetPhase() == Migration::PREPARED ? std::optional(MakeView(imsi, m)) : std::nullopt;
    m_migrations.erase(it);
    // An end decided at another cell than the target tells the target by message where the
    // control plane is on the network: the target's part waits for it.
    const bool byMessage = m.route.size() == 2 && at != 0 && at != m.route.back() &&
                           m_host->TellsByMessage(at, m.route.back());
    const uint64_t withdrawn =
        RetireEpoch(imsi, m, KvDiscardReason::NEWER_EPOCH, byMessage ? m.route.back() : 0);
    if (byMessage)
    {
        m_host->SendCancel(imsi, at, m.route.back(), m_epochs[imsi]);
    }
    else
    {
        m_host->PortOf(m.route.back())->RemoveSession(imsi);
    }
    HandoverRecord& record = Record(m.record);
    record.outcome = outcome;
    record.wastedBytes = From(m)->GetKvCounters(m.route[1], imsi).sent - m.sentAtStart;
    if (m.PrefillDone() && m.prefillTokens > 0)
    {
        record.wastedGpuSeconds =
            m_host->ConfigOf(m.route.back())->GetComputeModel().PrefillTime(m.prefillTokens);
    }
    if (!m.PrefillDone() && m.prefillTokens > 0)
    {
        Forecast& forecast = m_forecasts[m.route.back()];
        forecast.queued -= std::min(forecast.queued, m.prefillTokens);
    }
    if (resumeHolder)
    {
        // The session stays where its cache is, and decodes on there.
        Ptr<CellPort> holder = m_host->PortOf(m.route.front());
        if (holder->HasSession(imsi) && !holder->IsDecoding(imsi))
        {
            const uint64_t total = holder->GetSessionState(imsi).tokensToGenerate;
            if (m.nextToken < total)
            {
                holder->ResumeDecoding(imsi, m.nextToken, total - m.nextToken);
            }
        }
    }
    if (state == Migration::FAILED || state == Migration::CLOSED)
    {
        // Back to the cell the UE left; a later UeReady follows it to where it reconnects.
        m_parts.paths->RouteTo(imsi, record.sourceCell);
        m_host->AwaitReconnect(imsi, record.sourceCell);
    }
    m.End(state);
    if (view)
    {
        m_host->GetScheduler()->Cancel(*view);
    }
    m_host->GetScheduler()->CompleteRecord(record);
    (*m_traces.cancelled)(imsi, m.epoch, withdrawn);
    const uint32_t group = m.group;
    if (m_parts.online->IsOnline(group))
    {
        // The rest of its cycle group may have waited only for it.
        TryPrefill(0, group);
    }
    NS_LOG_INFO("imsi " << imsi << ": migration to cell " << m.route.back() << " "
                        << Migration::PhaseName(state) << ", " << withdrawn
                        << " KV bytes withdrawn");
}

uint64_t
MigrationLifecycle::RetireEpoch(uint64_t imsi,
                                const Migration& m,
                                KvDiscardReason reason,
                                uint16_t later)
{
    // A source that withdrew the epoch at its window's end holds nothing of it.
    const uint64_t withdrawn =
        m.withdrawnEpoch == m.epoch ? 0 : From(m)->CancelKv(m.route[1], imsi, m.epoch, reason);
    // Bytes still in flight arrive under an epoch the receivers no longer expect: stale, and
    // counted under the same reason.
    const uint32_t next = ++m_epochs[imsi];
    for (std::size_t i = 1; i < m.route.size(); ++i)
    {
        if (m.route[i] != later)
        {
            m_host->PortOf(m.route[i])->ExpectEpoch(imsi, next, reason);
        }
    }
    return withdrawn;
}

void
MigrationLifecycle::ScheduleDeadline(uint64_t imsi, Migration& m)
{
    if (m.plan.resume == SessionPlan::AT_DEADLINE)
    {
        // The window counts from the handover, as the slot views' resumeAtS does: a plan
        // applied after it (its control messages on their way) has that much less.
        const Time end = Record(m.record).hoStart + m.plan.resumeAfter;
        m.deadlineTimer = CrossNodeAudit::Schedule(
            std::max(end - Simulator::Now(), Time(0)),
            [this, imsi, epoch = m.epoch]() { DeadlineReached(imsi, epoch); });
    }
    if (!m.KvDone() || !m.IdsIn())
    {
        m.stallSeenReceived = GetLinkProgress(imsi, m).delivered;
        m.WatchLink();
        m.stallTimer = CrossNodeAudit::Schedule(
            m_host->GetMigrationSettings().stallTimeout,
            [this, imsi, record = m.record]() { CheckStall(imsi, record); });
    }
}

void
MigrationLifecycle::TokensArrived(uint16_t cellId,
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
        request.bytesPerUnit = m_host->GetKvProfile(imsi).bytesPerToken;
        request.forwardedFirst = first;
        request.forwardedCount = count;
        m_host->PortOf(cellId)->EnqueueKv(*(at + 1), request);
        return;
    }
    m.IdsArrived();
    TrySubmitReprefill(imsi, m);
    TryPrefill(imsi, m.group);
}

void
MigrationLifecycle::TryPrefill(uint64_t imsi, uint32_t group)
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
        if (!m_host->IsGroupComplete(group))
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
        // The target prefills what it has both the token IDs and the request for.
        if (!m_migrations.at(member).IdsIn() || !m_host->IsPrefillRequested(member))
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
        m_host->PortOf(cell)->SubmitPrefillBatch(list);
    }
}

void
MigrationLifecycle::PrefillCompleted(uint16_t cellId,
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
    Forecast& forecast = m_forecasts[cellId];
    forecast.queued -= std::min(forecast.queued, tokens);
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
MigrationLifecycle::KvComplete(uint16_t cellId, uint64_t imsi, uint32_t epoch)
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
MigrationLifecycle::DeadlineReached(uint64_t imsi, uint32_t epoch)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.epoch != epoch ||
        it->second.GetPhase() != Migration::COMMITTED)
    {
        return;
    }
    Migration& m = it->second;
    const uint16_t source = m.route.front();
    const uint16_t target = m.route.back();
    if (m.route.size() == 2 && m_host->TellsByMessage(source, target))
    {
        if (m.KvDone())
        {
            return; // all it waited for has arrived, or never travelled
        }
        // The source stops sending now; the target resumes on what has arrived when it
        // hears, so the bytes still in flight then count.
        From(m)->CancelKv(m.route[1], imsi, epoch, KvDiscardReason::WINDOW_END);
        m.withdrawnEpoch = epoch;
        m_host->SendWindowEnd(imsi, source, target, epoch);
        return;
    }
    CloseWindow(imsi, m);
}

void
MigrationLifecycle::WindowEndArrived(uint16_t cellId, uint64_t imsi, uint32_t epoch)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.epoch != epoch ||
        it->second.GetPhase() != Migration::COMMITTED || it->second.route.back() != cellId)
    {
        return; // it resumed, ended or was re-planned first
    }
    CloseWindow(imsi, it->second);
}

void
MigrationLifecycle::CloseWindow(uint64_t imsi, Migration& m)
{
    m.DeadlineReached();
    if (m.IsWindowOver() && !m.arrivalsFixed)
    {
        // The window is over: what the session resumes with is what arrived by now, even if a
        // late prefix holds the resume. The slot hook funds it no more (its resumeAtS is past).
        HandoverRecord& record = Record(m.record);
        RecordArrivals(record, m_host->PortOf(m.route.back())->GetReceivedRanges(imsi));
        record.abandonedBytes = AbandonedBytes(imsi, record);
        m.arrivalsFixed = true;
    }
    TryResume(imsi);
}

uint64_t
MigrationLifecycle::AbandonedBytes(uint64_t imsi, const HandoverRecord& record) const
{
    const SessionKvProfile kv = m_host->GetKvProfile(imsi);
    const uint64_t bpu =
        record.unit == KvTransferHeader::TOKEN ? kv.bytesPerToken : kv.bytesPerEntry;
    return record.kvBytes - std::min(record.kvBytes, CountUnits(record.arrived) * bpu);
}

void
MigrationLifecycle::TryResume(uint64_t imsi)
{
    auto it = m_migrations.find(imsi);
    if (!it->second.CanResume())
    {
        return;
    }
    Migration m = it->second;
    HandoverRecord& record = Record(m.record);
    Ptr<CellPort> h = m_host->PortOf(record.holderCell);
    Ptr<CellPort> t = m_host->PortOf(record.targetCell);
    // What the session resumes with is what the target's receiver counted, not the plan.
    // A stalled transfer given up on fixed its arrived ranges then (Reprefill), and a window
    // at its end (DeadlineReached).
    if (!m.GaveUpOnLink() && !m.arrivalsFixed)
    {
        RecordArrivals(record, t->GetReceivedRanges(imsi));
    }
    if (!m.KvDone())
    {
        // The window is over: the rest of the transfer is abandoned.
        if (!m.arrivalsFixed)
        {
            record.abandonedBytes = AbandonedBytes(imsi, record);
        }
        RetireEpoch(imsi, m, KvDiscardReason::WINDOW_END);
    }
    m_migrations.erase(it);
    m_parts.paths->StopRelays(imsi);
    if (m_host->GetMigrationSettings().network && t->GetContextTokens(imsi) < record.contextTokens)
    {
        // Admitted at the reservation with the context its holder had then: the rest it decoded
        // while the plan travelled comes with the session's state.
        t->GrowContext(imsi, record.contextTokens);
    }
    EdgeLlmServer::SessionState state = h->ExportSession(imsi);
    const uint64_t remaining = state.tokensToGenerate - record.resumeIndex;
    t->ImportSession(imsi, std::move(state));
    m_host->ReleaseHolder(imsi, record.holderCell, record.targetCell);
    m_parts.paths->Reset(imsi, record.targetCell);
    t->ResumeDecoding(imsi, record.resumeIndex, remaining);
    record.kvReady = Simulator::Now();
    record.outcome = HandoverRecord::MIGRATED;
    m.Resume();
    m_host->GetScheduler()->CompleteRecord(record);
    NS_LOG_INFO("imsi " << imsi << ": resumed at cell " << record.targetCell << " after "
                        << (record.kvReady - record.hoStart).As(Time::MS));
    (*m_traces.resumed)(imsi, record.targetCell, record.kvReady - record.hoStart);
}

bool
MigrationLifecycle::Commit(uint64_t imsi, Time handoverAt)
{
    Migration& m = m_migrations.at(imsi);
    HandoverRecord& record = Record(m.record);
    Ptr<CellPort> h = m_host->PortOf(m.route.front());
    if (!m_parts.paths->RouteTo(imsi, record.targetCell))
    {
        return false; // the caller ends it, and plans the handover as any other
    }
    record.hoStart = handoverAt;
    record.planApplied = Simulator::Now();
    if (m.IsOpen())
    {
        m.nextToken = h->StopDecoding(imsi);
        const uint64_t context = h->GetContextTokens(imsi);
        record.contextTokens = context;
        record.resumeIndex = static_cast<uint32_t>(m.nextToken);
        // The last partial block goes with the seal.
        GrowOpenTransfer(imsi, m, context, true);
    }
    h->MarkHandover(imsi);
    m.Commit();
    ScheduleDeadline(imsi, m);
    m_host->GetScheduler()->Commit(MakeView(imsi, m));
    TryResume(imsi);
    return true;
}

void
MigrationLifecycle::TokenGenerated(uint16_t cellId, uint64_t imsi, uint64_t index)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || !it->second.IsOpen() || it->second.route.front() != cellId)
    {
        return;
    }
    Migration& m = it->second;
    if (index + 1 >= m_host->PortOf(cellId)->GetSessionState(imsi).tokensToGenerate)
    {
        // The session ends at its source before the predicted handover: nothing is left to
        // move, and what was prepared is waste.
        End(imsi, Migration::CANCELLED, false, cellId);
        return;
    }
    if (!m.plan.streamOpen)
    {
        return; // the tail waits for the seal
    }
    const uint64_t context = m_host->PortOf(cellId)->GetContextTokens(imsi);
    const uint64_t full = context / m.openStep * m.openStep;
    if (full <= m.openEnd)
    {
        return;
    }
    // A step is sent once the source has filled it: its KV no longer changes.
    GrowOpenTransfer(imsi, m, full, false);
}

void
MigrationLifecycle::GrowOpenTransfer(uint64_t imsi, Migration& m, uint64_t end, bool seal)
{
    std::vector<TokenRange> ranges;
    if (end > m.openEnd)
    {
        const TokenRange grown{m.openEnd, end};
        ranges.push_back(grown);
        m.transferRanges.push_back(grown);
        HandoverRecord& record = Record(m.record);
        record.transferRanges.push_back(grown);
        record.transferTokens += end - m.openEnd;
        record.kvBytes += (end - m.openEnd) * m_host->GetKvProfile(imsi).bytesPerToken;
        m.openEnd = end;
    }
    From(m)->AppendKv(m.route[1], imsi, m.epoch, ranges, seal);
    if (!m_host->GetMigrationSettings().network)
    {
        m_host->PortOf(m.route.back())->GrowContext(imsi, end);
    }
}

void
MigrationLifecycle::KvAnnounced(uint16_t cellId,
                                uint64_t imsi,
                                uint32_t epoch,
                                uint64_t end,
                                bool open)
{
    if (!open || !m_host->GetMigrationSettings().network)
    {
        return;
    }
    // The target's own view: the session it holds for the transfer, and its context so far.
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.epoch != epoch || it->second.route.back() != cellId)
    {
        return;
    }
    Ptr<CellPort> t = m_host->PortOf(cellId);
    if (t->HasSession(imsi) && !t->IsDecoding(imsi) && end > t->GetContextTokens(imsi))
    {
        t->GrowContext(imsi, end);
    }
}

void
MigrationLifecycle::CheckStall(uint64_t imsi, std::size_t record)
{
    auto it = m_migrations.find(imsi);
    if (it == m_migrations.end() || it->second.record != record ||
        it->second.GetPhase() != Migration::COMMITTED)
    {
        return; // it ended or resumed
    }
    const Settings settings = m_host->GetMigrationSettings();
    Migration& m = it->second;
    if (m.KvDone() && m.IdsIn())
    {
        m.StopWatchingLink(); // nothing more to wait for from the link
        return;
    }
    const uint16_t target = m.route.back();
    const bool bySender = CountsBySender(m);
    const LinkProgress link = GetLinkProgress(imsi, m);
    // A token handover's TOKENS message is small: not there after a whole timeout, it is
    // held by the link too (the sender sees it among the bytes in flight).
    const bool progress = link.delivered != m.stallSeenReceived;
    const bool stalled = !progress && (link.inFlight || (!bySender && !m.IdsIn()));
    m.stallSeenReceived = link.delivered;
    if (stalled && !m.IsStalled())
    {
        HandoverRecord& r = Record(record);
        ++r.stalls;
        const bool giveUp = settings.stallPolicy == STALL_REPREFILL &&
                            m.plan.resume == SessionPlan::ALL_ARRIVED &&
                            r.unit == KvTransferHeader::TOKEN;
        const uint64_t missing =
            bySender
                ? UndeliveredUnits(imsi, m)
                : MissingUnits(m.transferRanges, m_host->PortOf(target)->GetReceivedRanges(imsi));
        NS_LOG_INFO("imsi " << imsi << ": transfer to cell " << target << " stalled, " << missing
                            << " tokens missing; " << (giveUp ? "re-prefill" : "wait"));
        (*m_traces.stalled)(imsi, m.epoch, missing, giveUp);
        if (giveUp)
        {
            Reprefill(imsi, m);
            return; // nothing more comes from the link
        }
    }
    m.LinkChecked(stalled);
    m.stallTimer = CrossNodeAudit::Schedule(settings.stallTimeout,
                                            [this, imsi, record]() { CheckStall(imsi, record); });
}

bool
MigrationLifecycle::CountsBySender(const Migration& m) const
{
    // A relayed route's next hop is not its target: the target's receiver tells.
    return m_host->GetMigrationSettings().network && m.route.size() == 2;
}

MigrationLifecycle::LinkProgress
MigrationLifecycle::GetLinkProgress(uint64_t imsi, const Migration& m)
{
    const KvTransferSenderCounters c = From(m)->GetKvCounters(m.route[1], imsi);
    if (CountsBySender(m))
    {
        // Bytes of it in TCP that the target's TCP has not acknowledged; a transfer whose
        // messages all wait at the sender, its token IDs too, is waiting its turn.
        return {c.delivered, c.written > c.delivered};
    }
    // Bytes of it that TCP took and that have not arrived: a transfer still queued behind
    // other sessions' bytes has none, and is not stalled but waiting its turn.
    const uint64_t received = m_host->PortOf(m.route.back())->GetReceivedBytes(imsi);
    return {received, c.sent - m.sentAtStart > received - m.receivedAtStart};
}

MigrationView
MigrationLifecycle::MakeView(uint64_t imsi, const Migration& m)
{
    if (!CountsBySender(m))
    {
        return m_parts.inputs->MakeMigrationView(imsi, m, nullptr, nullptr);
    }
    // On the network the source knows what arrived from its own sender: what the target's TCP
    // acknowledged. One read of the sender gives both counts.
    const KvTransferSenderCounters c = From(m)->GetKvCounters(m.route[1], imsi);
    const std::pair<uint64_t, uint32_t> key{imsi, m.epoch};
    const std::map<std::pair<uint64_t, uint32_t>, uint64_t> sent{{key, c.sent - m.sentAtStart}};
    const std::map<std::pair<uint64_t, uint32_t>, uint64_t> acknowledged{
        {key, c.deliveredKv - m.deliveredKvAtStart}};
    PlanInputBuilder::Reported reported;
    reported.sent = &sent;
    reported.received = &acknowledged;
    return m_parts.inputs->MakeMigrationView(imsi, m, nullptr, nullptr, &reported);
}

uint64_t
MigrationLifecycle::UndeliveredUnits(uint64_t imsi, const Migration& m) const
{
    const SessionKvProfile kv = m_host->GetKvProfile(imsi);
    const uint64_t bpu =
        m.plan.unit == KvTransferHeader::TOKEN ? kv.bytesPerToken : kv.bytesPerEntry;
    const uint64_t delivered =
        (From(m)->GetKvCounters(m.route[1], imsi).deliveredKv - m.deliveredKvAtStart) / bpu;
    const uint64_t units = CountUnits(m.transferRanges);
    return units - std::min(units, delivered);
}

void
MigrationLifecycle::Reprefill(uint64_t imsi, Migration& m)
{
    HandoverRecord& record = Record(m.record);
    Ptr<CellPort> t = m_host->PortOf(m.route.back());
    // What the session resumes with is fixed now, before the epoch is retired.
    const edgellm::RangeSet received = t->GetReceivedRanges(imsi);
    RecordArrivals(record, received);
    const uint64_t tokens = MissingUnits(m.transferRanges, received);
    const SessionKvProfile kv = m_host->GetKvProfile(imsi);
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
    for (const TokenRange& p : m.transferRanges)
    {
        received.ForEachGap(p, [&idFirst, &idEnd](TokenRange gap) {
            idFirst = std::min(idFirst, gap.first);
            idEnd = std::max(idEnd, gap.end);
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
        From(m)->EnqueueKv(m.route[1], request);
    }
    m_forecasts[m.route.back()].queued += tokens;
    // A prefix submitted, running or done: the missing tokens are a prefill of their own, once
    // their IDs are in and the GPU is done with the prefix. A prefix not submitted yet goes
    // with them, in one prefill (TryPrefill).
    m.GiveUpOnLink(tokens, idsSent);
    TrySubmitReprefill(imsi, m);
    TryPrefill(imsi, m.group);
    TryResume(imsi);
}

void
MigrationLifecycle::TrySubmitReprefill(uint64_t imsi, Migration& m)
{
    const uint64_t tokens = m.TakeReprefill();
    if (tokens == 0)
    {
        return;
    }
    m_host->PortOf(m.route.back())->SubmitPrefill(imsi, tokens);
}

void
MigrationLifecycle::Regroup(const OnlineGrouper::Decision& d, uint16_t target)
{
    if (!d.joined)
    {
        return;
    }
    Ptr<CellPort> t = m_host->PortOf(target);
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
            HandoverRecord& r = Record(m_migrations.at(other).record);
            r.prefixTokens = std::min(d.plan.prefixTokens, r.contextTokens);
            Replan(other, *p, predicted);
        }
    }
}

std::vector<OnlineGrouper::Member>
MigrationLifecycle::GetReplannableMembers(uint32_t group, uint16_t target)
{
    std::vector<OnlineGrouper::Member> members;
    for (const auto& [imsi, m] : m_migrations)
    {
        // A transfer given up on has nothing left to re-plan: its prefill is fixed. So is a
        // prefill the target's engine has started (it took it while the GPU was free).
        if (m.GetPhase() != Migration::COMMITTED || m.group != group || m.IsOpen() ||
            m.GaveUpOnLink() || m.route.size() != 2 || m.route.back() != target ||
            (m.HasSubmittedPrefill() && !m_host->PortOf(target)->IsPrefillWaiting(imsi)))
        {
            continue;
        }
        const HandoverRecord& r = Record(m.record);
        OnlineGrouper::Member member;
        member.imsi = imsi;
        member.holder = m.route.front();
        member.handoverStart = r.hoStart;
        member.contextTokens = r.contextTokens;
        member.prefillTokens = m.prefillTokens;
        member.plannedUnits = CountUnits(m.transferRanges);
        member.unsentUnits = CountUnits(From(m)->GetUnsentKvRanges(m.route[1], imsi, m.epoch));
        member.bytesPerToken = m_host->GetKvProfile(imsi).bytesPerToken;
        member.predictedDelay = r.predictedDelay;
        members.push_back(member);
    }
    return members;
}

void
MigrationLifecycle::Replan(uint64_t imsi, const SessionPlan& plan, Time predicted)
{
    Migration& m = m_migrations.at(imsi);
    HandoverRecord& r = Record(m.record);
    const uint64_t context = r.contextTokens;
    const std::vector<TokenRange> prefill = HandoverScheduler::Resolve(plan.prefill, context);
    const uint64_t prefix = prefill.empty() ? 0 : prefill.front().end;
    const std::vector<TokenRange> ranges = HandoverScheduler::Resolve(plan.transfer, context);
    const Time deadline =
        plan.transferDeadline == Time::Max() ? Time::Max() : r.hoStart + plan.transferDeadline;
    Ptr<CellPort> from = From(m);
    const uint16_t peer = m.route[1];
    r.predictedDelay = predicted;
    const bool same = prefix == m.prefillTokens && ranges == m.transferRanges;
    m.plan.transferDeadline = plan.transferDeadline;
    if (same)
    {
        // The same ranges: only the deadline moves, so earliest-deadline-first keeps the
        // group's order.
        from->SetKvDeadline(peer, imsi, m.epoch, deadline);
        return;
    }

    // What this transfer has handed to TCP: the old ranges but those still unsent.
    edgellm::RangeSet sent;
    for (const TokenRange& old : m.transferRanges)
    {
        sent.Add(old);
    }
    edgellm::RangeSet unsent;
    for (const TokenRange& r : from->GetUnsentKvRanges(peer, imsi, m.epoch))
    {
        unsent.Add(r);
    }
    edgellm::RangeSet kept;
    for (const TokenRange& r : sent.Ranges())
    {
        unsent.ForEachGap(r, [&kept](TokenRange gap) { kept.Add(gap); });
    }
    // A TOKENS message in TCP already will arrive, under the old epoch.
    const bool tokensOnTheWay =
        !m.IdsIn() && m.prefillTokens > 0 && !from->HasPendingKvControl(peer, imsi, m.epoch);
    const uint32_t oldEpoch = m.epoch;
    const uint64_t withdrawn = from->CancelKv(peer, imsi, m.epoch, KvDiscardReason::REPLAN);
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
            m_host->PortOf(m.route[i])->ExpectEpoch(imsi, m.epoch, KvDiscardReason::REPLAN);
        }
    }
    // Otherwise the new epoch reaches the target behind the CANCEL, on the same stream, so
    // the target keeps what the old one delivered; it is not told of the epoch any sooner.

    const SessionKvProfile kv = m_host->GetKvProfile(imsi);
    KvTransferRequest request;
    request.imsi = imsi;
    request.epoch = m.epoch;
    request.unit = KvTransferHeader::TOKEN;
    request.bytesPerUnit = kv.bytesPerToken;
    for (const TokenRange& range : ranges)
    {
        kept.ForEachGap(range, [&request](TokenRange gap) { request.ranges.push_back(gap); });
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
    Ptr<CellPort> t = m_host->PortOf(m.route.back());
    if (m.HasSubmittedPrefill())
    {
        // A prefix whose new IDs are on their way leaves the queue: the GPU cannot prefill
        // tokens it does not have, so TryPrefill submits it again once they are in.
        const bool resized = t->ResizeQueuedPrefill(imsi, forward ? 0 : prefix);
        NS_ABORT_MSG_IF(!resized,
                        "HandoverCoordinator: imsi " << imsi
                                                     << "'s prefill started before its "
                                                        "group's batch");
    }
    Forecast& forecast = m_forecasts[m.route.back()];
    forecast.queued = forecast.queued - std::min(forecast.queued, m.prefillTokens) + prefix;
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
    from->EnqueueKv(peer, request);
    (*m_traces.replanned)(imsi, m.epoch, withdrawn);
    (*m_traces.planned)(imsi, r.prefillTokens, r.transferTokens);
    NS_LOG_INFO("imsi " << imsi << ": re-planned with its cycle group, prefix " << prefix << ", "
                        << withdrawn << " KV bytes withdrawn");
}

void
MigrationLifecycle::SetGroupPrefillEnd(uint32_t group)
{
    std::vector<uint64_t> prefills;
    for (const auto& [imsi, m] : m_migrations)
    {
        if (m.group == group && m.prefillTokens > 0)
        {
            prefills.push_back(m.prefillTokens);
        }
    }
    const auto [target, end] = m_parts.online->GetBatchEnd(group, prefills);
    m_forecasts[target].freeAt = end;
}

void
MigrationLifecycle::GatherSlot(HandoverSlotInput& input, std::map<uint64_t, uint32_t>& epochs)
{
    std::map<std::pair<uint16_t, uint16_t>, std::size_t> index;
    for (uint64_t imsi : GetSlotMigrations())
    {
        const Migration& m = m_migrations.at(imsi);
        input.migrations.push_back(
            m_parts.inputs->MakeMigrationView(imsi, m, &input.links, &index));
        epochs[imsi] = m.epoch;
    }
}

std::vector<uint64_t>
MigrationLifecycle::GetSlotMigrations() const
{
    std::vector<uint64_t> in;
    for (const auto& [imsi, m] : m_migrations)
    {
        const bool transferring = !m.KvDone() && (m.IsOpen() || CountUnits(m.transferRanges) > 0);
        if ((m.GetPhase() == Migration::PREPARED || m.GetPhase() == Migration::COMMITTED) &&
            transferring)
        {
            in.push_back(imsi);
        }
    }
    return in;
}

} // namespace ns3
