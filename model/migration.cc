/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "migration.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <ostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Migration");

bool
Migration::State::operator==(const State& o) const
{
    return phase == o.phase && prefill == o.prefill && kv == o.kv && link == o.link;
}

bool
Migration::State::operator!=(const State& o) const
{
    return !(*this == o);
}

std::string
Migration::State::ToString() const
{
    return PhaseName(phase) + "/" + StepName(prefill) + "/" + StepName(kv) + "/" + StepName(link);
}

std::ostream&
operator<<(std::ostream& os, const Migration::State& state)
{
    return os << state.ToString();
}

std::string
Migration::PhaseName(Phase phase)
{
    switch (phase)
    {
    case NONE:
        return "none";
    case PREPARED:
        return "prepared";
    case COMMITTED:
        return "committed";
    case RESUMED:
        return "resumed";
    case CANCELLED:
        return "cancelled";
    case FAILED:
        return "failed";
    case CLOSED:
        return "closed";
    }
    return "unknown";
}

std::string
Migration::StepName(PrefillStep step)
{
    switch (step)
    {
    case PrefillStep::NOT_NEEDED:
        return "no-prefill";
    case PrefillStep::AWAITING_IDS:
        return "awaiting-ids";
    case PrefillStep::READY:
        return "ready";
    case PrefillStep::QUEUED:
        return "queued";
    case PrefillStep::QUEUED_THEN_AWAITING_IDS:
        return "queued-then-awaiting-ids";
    case PrefillStep::QUEUED_THEN_READY:
        return "queued-then-ready";
    case PrefillStep::REPREFILL_AWAITING_IDS:
        return "reprefill-awaiting-ids";
    case PrefillStep::REPREFILL_READY:
        return "reprefill-ready";
    case PrefillStep::DONE:
        return "prefilled";
    }
    return "unknown";
}

std::string
Migration::StepName(KvStep step)
{
    switch (step)
    {
    case KvStep::NOTHING_TO_SEND:
        return "no-kv";
    case KvStep::OPEN:
        return "open";
    case KvStep::IN_FLIGHT:
        return "in-flight";
    case KvStep::WINDOW_OVER:
        return "window-over";
    case KvStep::ARRIVED:
        return "arrived";
    case KvStep::GIVEN_UP:
        return "given-up";
    }
    return "unknown";
}

std::string
Migration::StepName(LinkWatch watch)
{
    switch (watch)
    {
    case LinkWatch::IDLE:
        return "idle";
    case LinkWatch::WATCHING:
        return "watching";
    case LinkWatch::STALLED:
        return "stalled";
    }
    return "unknown";
}

Migration::Migration() = default;

Migration::Migration(uint64_t imsi, Traces traces)
    : m_imsi(imsi),
      m_traces(traces)
{
}

void
Migration::SwitchToState(const State& next)
{
    if (next == m_state)
    {
        return;
    }
    const State from = m_state;
    m_state = next;
    NS_LOG_INFO("imsi " << m_imsi << " epoch " << epoch << ": " << from << " -> " << next);
    if (m_traces.transition)
    {
        (*m_traces.transition)(m_imsi, epoch, from, next);
    }
    if (m_traces.phase && from.phase != next.phase)
    {
        (*m_traces.phase)(m_imsi, epoch, from.phase, next.phase);
    }
}

void
Migration::Refuse(const char* event) const
{
    NS_FATAL_ERROR("Migration of imsi " << m_imsi << " epoch " << epoch << ": " << event
                                        << " cannot happen in state " << m_state);
}

void
Migration::Begin(bool prepared, uint64_t prefillTokens, bool kvToSend, bool open)
{
    if (m_state.phase != NONE)
    {
        Refuse("Begin");
    }
    State next;
    next.phase = prepared ? PREPARED : COMMITTED;
    next.prefill = prefillTokens == 0 ? PrefillStep::NOT_NEEDED : PrefillStep::AWAITING_IDS;
    next.kv = open ? KvStep::OPEN : kvToSend ? KvStep::IN_FLIGHT : KvStep::NOTHING_TO_SEND;
    SwitchToState(next);
}

void
Migration::Commit()
{
    if (m_state.phase != PREPARED)
    {
        Refuse("Commit");
    }
    State next = m_state;
    next.phase = COMMITTED;
    if (next.kv == KvStep::OPEN)
    {
        next.kv = KvStep::IN_FLIGHT; // sealed: its last blocks are on their way
    }
    SwitchToState(next);
}

void
Migration::Resume()
{
    if (!CanResume())
    {
        Refuse("Resume");
    }
    CancelTimers();
    State next = m_state;
    next.phase = RESUMED;
    next.link = LinkWatch::IDLE;
    SwitchToState(next);
}

void
Migration::End(Phase phase)
{
    if ((phase != CANCELLED && phase != FAILED && phase != CLOSED) ||
        (m_state.phase != PREPARED && m_state.phase != COMMITTED))
    {
        Refuse("End");
    }
    CancelTimers();
    State next = m_state;
    next.phase = phase;
    next.link = LinkWatch::IDLE;
    SwitchToState(next);
}

void
Migration::IdsArrived()
{
    State next = m_state;
    switch (m_state.prefill)
    {
    case PrefillStep::AWAITING_IDS:
        next.prefill = PrefillStep::READY;
        break;
    case PrefillStep::QUEUED_THEN_AWAITING_IDS:
        next.prefill = PrefillStep::QUEUED_THEN_READY;
        break;
    case PrefillStep::REPREFILL_AWAITING_IDS:
        next.prefill = PrefillStep::REPREFILL_READY;
        break;
    default:
        return; // IDs it had already, arriving again under an older epoch
    }
    SwitchToState(next);
}

void
Migration::PrefillQueued()
{
    if (m_state.prefill != PrefillStep::READY)
    {
        Refuse("PrefillQueued");
    }
    State next = m_state;
    next.prefill = PrefillStep::QUEUED;
    SwitchToState(next);
}

void
Migration::PrefillUnqueued()
{
    if (m_state.prefill != PrefillStep::QUEUED)
    {
        Refuse("PrefillUnqueued");
    }
    State next = m_state;
    next.prefill = PrefillStep::READY;
    SwitchToState(next);
}

void
Migration::PrefillEnded()
{
    State next = m_state;
    switch (m_state.prefill)
    {
    case PrefillStep::QUEUED:
        next.prefill = PrefillStep::DONE;
        break;
    case PrefillStep::QUEUED_THEN_READY:
        next.prefill = PrefillStep::REPREFILL_READY;
        break;
    case PrefillStep::QUEUED_THEN_AWAITING_IDS:
        next.prefill = PrefillStep::REPREFILL_AWAITING_IDS;
        break;
    case PrefillStep::REPREFILL_AWAITING_IDS:
    case PrefillStep::REPREFILL_READY:
    case PrefillStep::DONE:
        return; // another prefill of the session at that engine: not one of this migration's
    default:
        Refuse("PrefillEnded");
    }
    SwitchToState(next);
}

void
Migration::GiveUpOnLink(uint64_t tokens, bool idsSent)
{
    m_reprefillTokens = tokens;
    State next = m_state;
    next.kv = KvStep::GIVEN_UP;
    next.link = LinkWatch::IDLE;
    switch (m_state.prefill)
    {
    case PrefillStep::NOT_NEEDED:
    case PrefillStep::DONE:
        // Its own prefill, once its IDs are in; the GPU has nothing of this session before it.
        if (tokens > 0)
        {
            next.prefill =
                idsSent ? PrefillStep::REPREFILL_AWAITING_IDS : PrefillStep::REPREFILL_READY;
            m_pendingReprefill = tokens;
        }
        break;
    case PrefillStep::AWAITING_IDS:
    case PrefillStep::READY:
        // Not submitted yet: the prefix and the missing tokens go in one prefill.
        next.prefill = idsSent ? PrefillStep::AWAITING_IDS : m_state.prefill;
        break;
    case PrefillStep::QUEUED:
        // After the prefix the GPU has: a prefill of their own.
        if (tokens > 0)
        {
            next.prefill =
                idsSent ? PrefillStep::QUEUED_THEN_AWAITING_IDS : PrefillStep::QUEUED_THEN_READY;
            m_pendingReprefill = tokens;
        }
        break;
    default:
        Refuse("GiveUpOnLink");
    }
    SwitchToState(next);
}

uint64_t
Migration::TakeReprefill()
{
    if (m_state.prefill != PrefillStep::REPREFILL_READY)
    {
        return 0;
    }
    const uint64_t tokens = m_pendingReprefill;
    m_pendingReprefill = 0;
    State next = m_state;
    next.prefill = PrefillStep::QUEUED;
    SwitchToState(next);
    return tokens;
}

void
Migration::Replanned(uint64_t prefix, bool idsSent, bool kvToSend)
{
    State next = m_state;
    switch (m_state.prefill)
    {
    case PrefillStep::NOT_NEEDED:
    case PrefillStep::AWAITING_IDS:
    case PrefillStep::READY:
    case PrefillStep::QUEUED:
        break;
    default:
        Refuse("Replanned");
    }
    if (prefix == 0)
    {
        next.prefill = PrefillStep::NOT_NEEDED;
    }
    else if (idsSent)
    {
        next.prefill = PrefillStep::AWAITING_IDS;
    }
    else if (m_state.prefill == PrefillStep::NOT_NEEDED)
    {
        Refuse("Replanned (a prefix with no IDs)");
    }
    if (!kvToSend)
    {
        next.kv = KvStep::NOTHING_TO_SEND;
    }
    else if (next.kv != KvStep::WINDOW_OVER)
    {
        next.kv = KvStep::IN_FLIGHT;
    }
    SwitchToState(next);
}

void
Migration::KvArrived()
{
    switch (m_state.kv)
    {
    case KvStep::OPEN:
    case KvStep::IN_FLIGHT:
    case KvStep::WINDOW_OVER: {
        State next = m_state;
        next.kv = KvStep::ARRIVED;
        SwitchToState(next);
        return;
    }
    default:
        return; // nothing was due
    }
}

void
Migration::DeadlineReached()
{
    if (m_state.kv != KvStep::IN_FLIGHT)
    {
        return; // all it waits for has arrived, or never travelled
    }
    State next = m_state;
    next.kv = KvStep::WINDOW_OVER;
    SwitchToState(next);
}

void
Migration::WatchLink()
{
    if (m_state.link != LinkWatch::IDLE)
    {
        return;
    }
    State next = m_state;
    next.link = LinkWatch::WATCHING;
    SwitchToState(next);
}

void
Migration::StopWatchingLink()
{
    State next = m_state;
    next.link = LinkWatch::IDLE;
    SwitchToState(next);
}

void
Migration::LinkChecked(bool stalled)
{
    if (m_state.link == LinkWatch::IDLE)
    {
        Refuse("LinkChecked");
    }
    State next = m_state;
    next.link = stalled ? LinkWatch::STALLED : LinkWatch::WATCHING;
    SwitchToState(next);
}

const Migration::State&
Migration::GetState() const
{
    return m_state;
}

Migration::Phase
Migration::GetPhase() const
{
    return m_state.phase;
}

bool
Migration::IdsIn() const
{
    switch (m_state.prefill)
    {
    case PrefillStep::AWAITING_IDS:
    case PrefillStep::QUEUED_THEN_AWAITING_IDS:
    case PrefillStep::REPREFILL_AWAITING_IDS:
        return false;
    default:
        return true;
    }
}

bool
Migration::PrefillDone() const
{
    return m_state.prefill == PrefillStep::NOT_NEEDED || m_state.prefill == PrefillStep::DONE;
}

bool
Migration::HasSubmittedPrefill() const
{
    switch (m_state.prefill)
    {
    case PrefillStep::NOT_NEEDED:
    case PrefillStep::AWAITING_IDS:
    case PrefillStep::READY:
        return false;
    default:
        return true;
    }
}

bool
Migration::ReadyForBatch() const
{
    return m_state.prefill == PrefillStep::READY;
}

bool
Migration::IsPrefillQueued() const
{
    return m_state.prefill == PrefillStep::QUEUED;
}

bool
Migration::KvDone() const
{
    return m_state.kv == KvStep::NOTHING_TO_SEND || m_state.kv == KvStep::ARRIVED ||
           m_state.kv == KvStep::GIVEN_UP;
}

bool
Migration::IsOpen() const
{
    return m_state.kv == KvStep::OPEN;
}

bool
Migration::GaveUpOnLink() const
{
    return m_state.kv == KvStep::GIVEN_UP;
}

bool
Migration::IsWindowOver() const
{
    return m_state.kv == KvStep::WINDOW_OVER;
}

bool
Migration::IsStalled() const
{
    return m_state.link == LinkWatch::STALLED;
}

bool
Migration::CanResume() const
{
    // A prefix cannot be decoded over before it is prefilled, even at a deadline.
    return m_state.phase == COMMITTED && PrefillDone() &&
           (KvDone() || m_state.kv == KvStep::WINDOW_OVER);
}

uint64_t
Migration::GetPendingReprefill() const
{
    return m_pendingReprefill;
}

uint64_t
Migration::GetReprefillTokens() const
{
    return m_reprefillTokens;
}

uint64_t
Migration::GetImsi() const
{
    return m_imsi;
}

void
Migration::CancelTimers()
{
    deadlineTimer.Cancel();
    stallTimer.Cancel();
}

} // namespace ns3
