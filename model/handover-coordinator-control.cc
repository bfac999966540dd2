/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The control plane on the network: a RAN event reaches the policy as its cell reports it,
// and a handover is planned once the control messages its plan needs have crossed the
// backhaul. A UE's events are acted on in the order they happened, so an event that needs no
// message waits behind an earlier one that does.

#include "handover-coordinator.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <limits>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorControl");

namespace
{

/// \param event a NOTICE's RAN event \return true if the session's holder acts on it (it
/// withdraws the transfer and tells the target, decodes on, or stops), wherever it is heard
bool
ActsAtHolder(uint8_t event)
{
    return event == ControlMessage::HANDOVER_FAILED || event == ControlMessage::UE_RELEASED ||
           event == ControlMessage::LINK_FAILURE;
}

/// \param end a target engine's iteration end \param sender who reports it, for the error
/// \return the microseconds from now to it, rounded up (a report never says the iteration ends
/// before it does); 0 once it has passed
uint32_t
MicroSecondsTo(Time end, const std::string& sender)
{
    const Time left = end - Simulator::Now();
    if (!left.IsStrictlyPositive())
    {
        return 0;
    }
    const int64_t us = (left.GetNanoSeconds() + 999) / 1000;
    NS_ABORT_MSG_IF(us > std::numeric_limits<uint32_t>::max(),
                    "HandoverCoordinator: " << sender << "'s report of a target's iteration end, "
                                            << us
                                            << " us away, does not fit its item (below 2^32 us)");
    return static_cast<uint32_t>(us);
}

/// \param m an answer or plan that carries a target's report \return the iteration end it says
Time
ReportedEnd(const ControlMessage& m)
{
    return NanoSeconds(m.sentAtNs) + MicroSeconds(m.items.front().value);
}

} // namespace

void
HandoverCoordinator::AddControlChannel(uint16_t cellId, Ptr<ControlChannel> channel)
{
    NS_ABORT_MSG_IF(!channel, "HandoverCoordinator::AddControlChannel: no channel");
    NS_ABORT_MSG_IF(m_channels.count(cellId) > 0,
                    "HandoverCoordinator::AddControlChannel: cell " << cellId
                                                                    << " has a channel already");
    m_channels[cellId] = channel;
    channel->SetReceiveCallback(
        MakeCallback(&HandoverCoordinator::ControlArrived, this).Bind(cellId));
    if (Scheduler()->GetSlotDuration().IsZero())
    {
        return; // no budgets
    }
    NS_ABORT_MSG_IF(m_policyAt != POLICY_AT_CONTROLLER && Scheduler()->GetSlotsCoupleLinks(),
                    "ns3::HandoverCoordinator::PolicyAt = "
                        << (m_policyAt == POLICY_AT_SOURCE ? "source" : "target")
                        << " is invalid with scheduler " << Scheduler()->GetSchemeName()
                        << ", whose slot budgets couple the links (ImpactSlotScheduler::"
                           "SharedRate > 0); allowed: controller, the one node every sender "
                           "reports to");
    m_slotClock.SetRemote([this](uint64_t slot) { return ReportProgress(slot); });
}

HandoverCoordinator::ControlPlaneMode
HandoverCoordinator::GetControlPlane() const
{
    return m_controlPlane;
}

uint32_t
HandoverCoordinator::GetPlanTimeouts() const
{
    return m_planTimeouts;
}

const CrossNodeAudit&
HandoverCoordinator::GetCrossNodeAudit() const
{
    return m_audit;
}

HandoverCoordinator::PolicyPlacement
HandoverCoordinator::GetPolicyAt() const
{
    return m_policyAt;
}

uint32_t
HandoverCoordinator::GetUnroutedControl() const
{
    return m_unroutedControl;
}

void
HandoverCoordinator::NoticeStarted(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell)
{
    Notice(ControlMessage::HANDOVER_STARTED, imsi, sourceCell, targetCell, 0);
}

void
HandoverCoordinator::NoticeReady(uint64_t imsi, uint16_t cellId)
{
    Notice(ControlMessage::UE_READY, imsi, cellId, cellId, 0);
}

void
HandoverCoordinator::NoticeFailed(uint64_t imsi,
                                  uint16_t cellId,
                                  RanObserver::HandoverFailureReason why)
{
    Notice(ControlMessage::HANDOVER_FAILED, imsi, cellId, cellId, static_cast<uint64_t>(why));
}

void
HandoverCoordinator::NoticeReleased(uint64_t imsi, uint16_t cellId)
{
    Notice(ControlMessage::UE_RELEASED, imsi, cellId, cellId, 0);
}

void
HandoverCoordinator::NoticeLinkFailure(uint64_t imsi, uint16_t cellId)
{
    Notice(ControlMessage::LINK_FAILURE, imsi, cellId, cellId, 0);
}

void
HandoverCoordinator::NoticeDone(uint64_t imsi, uint16_t targetCell)
{
    Notice(ControlMessage::HANDOVER_DONE, imsi, targetCell, targetCell, 0);
}

void
HandoverCoordinator::Notice(ControlMessage::RanEvent event,
                            uint64_t imsi,
                            uint16_t cellId,
                            uint16_t about,
                            uint64_t value)
{
    CrossNodeAudit::Scope here(cellId);
    ControlMessage m = NewEvent(ControlMessage::NOTICE, event, imsi, cellId, about, value);
    if (event == ControlMessage::HANDOVER_STARTED && about != cellId &&
        m_controlPlane == NETWORK_CONTROL)
    {
        m.items = SizeAt(imsi, cellId); // what its target reserves
    }
    if (ActsAtHolder(event))
    {
        // Heard away from the holder: it travels there.
        const uint16_t holder = HolderOf(imsi);
        if (holder != 0 && holder != cellId && HasControlPath(cellId, holder))
        {
            m.aboutCell = holder;
            m_channels.at(cellId)->Send(holder, m);
            return;
        }
    }
    if (event != ControlMessage::HANDOVER_STARTED || about == cellId)
    {
        // Heard where it happened: the cell acts on it itself.
        Deliver(m);
        return;
    }
    const Migration* prepared = m_lifecycle.Find(imsi);
    if (m_policyAt != POLICY_AT_TARGET && prepared && prepared->GetPhase() == PREPARED &&
        prepared->route.back() == about && HasControlPath(cellId, about))
    {
        // Prepared for this target: its memory was reserved then, and the source holds the
        // plan it commits.
        Deliver(m);
        return;
    }
    SendToPolicy(m);
}

ControlMessage
HandoverCoordinator::NewEvent(ControlMessage::Type type,
                              uint8_t code,
                              uint64_t imsi,
                              uint16_t cellId,
                              uint16_t about,
                              uint64_t value)
{
    ControlMessage m;
    m.type = type;
    m.code = code;
    m.fromCell = cellId;
    m.aboutCell = about;
    m.sequence = m_noticesMade[imsi]++;
    m.imsi = imsi;
    m.value = value;
    m.sentAtNs = Simulator::Now().GetNanoSeconds();
    m_noticeTimes[{imsi, m.sequence}] = Simulator::Now();
    return m;
}

void
HandoverCoordinator::SendToPolicy(const ControlMessage& m)
{
    const uint16_t cellId = m.fromCell;
    const uint16_t about = m.aboutCell;
    const uint16_t policy = m_policyAt == POLICY_AT_CONTROLLER ? ControlMessage::CONTROLLER
                            : m_policyAt == POLICY_AT_TARGET   ? about
                                                               : cellId;
    if (!HasControlPath(cellId, about) ||
        (policy == ControlMessage::CONTROLLER &&
         (!HasControlPath(cellId, policy) || !HasControlPath(about, policy))))
    {
        // No control connection between the nodes (a relayed handover): planned at once.
        NS_LOG_INFO("imsi " << m.imsi << ": no control connection between cells " << cellId
                            << " and " << about
                            << (policy == ControlMessage::CONTROLLER ? " and the controller" : "")
                            << "; planned at once");
        ++m_unroutedControl;
        Deliver(m);
        return;
    }
    if (m_planTimeout.IsStrictlyPositive())
    {
        Simulator::Schedule(m_planTimeout, &HandoverCoordinator::PlanTimedOut, this, m);
    }
    Ptr<ControlChannel> source = m_channels.at(cellId);
    if (m_policyAt == POLICY_AT_SOURCE)
    {
        // The policy at the source asks the target for memory, and plans with its answer; a
        // PREPARE asks it for a predicted handover.
        source->Send(about, m.type == ControlMessage::PREPARE ? m : ReserveFor(m));
    }
    else
    {
        // The policy's node hears of the handover, and sends its plan back.
        source->Send(policy, m);
    }
}

void
HandoverCoordinator::ControlArrived(uint16_t cellId, const ControlMessage& m, Time delay)
{
    NS_LOG_FUNCTION(this << cellId << m.ToString() << delay.As(Time::MS));
    CrossNodeAudit::Scope here(cellId);
    switch (m.type)
    {
    case ControlMessage::NOTICE:
    case ControlMessage::PREPARE:
        if (m.type == ControlMessage::NOTICE && m.code != ControlMessage::HANDOVER_STARTED)
        {
            Deliver(m); // at the session's holder, which acts on it
            break;
        }
        if (cellId == ControlMessage::CONTROLLER)
        {
            ControllerNoticed(m);
            break;
        }
        [[fallthrough]];
    case ControlMessage::RESERVE: {
        // At the target: the answer to a reservation, or the plan it decided, reports what the
        // source's plan reads of it: its free KV memory and its iteration's end. A PREPARE is
        // a reservation where the policy is at the source, else a notice.
        ControlMessage back = m;
        back.type = m.type == ControlMessage::RESERVE ||
                            (m.type == ControlMessage::PREPARE && m_policyAt == POLICY_AT_SOURCE)
                        ? ControlMessage::RESERVE_ANSWER
                        : ControlMessage::PLAN;
        back.aboutCell = cellId;
        Ptr<CellPort> port = PortOf(cellId);
        const uint64_t capacity = port->GetKvCapacityTokens();
        const uint64_t used = port->GetKvTokensInUse();
        back.value = capacity > used ? capacity - used : 0; // as the plan reads it: before
        back.code = ReserveAt(cellId, m);
        back.items = {TargetReport(cellId, m)};
        m_channels.at(cellId)->Send(m.fromCell, back);
        break;
    }
    case ControlMessage::PREFILL_REQUEST:
        PrefillRequestArrived(cellId, m);
        break;
    case ControlMessage::RESERVE_ANSWER:
        if (cellId == ControlMessage::CONTROLLER)
        {
            ControllerAnswered(m);
            break;
        }
        [[fallthrough]];
    case ControlMessage::PLAN: {
        if (m_plannedAlone.count({m.imsi, m.sequence}) > 0)
        {
            // Planned alone at its source when it did not come in time. The source releases
            // what the target's reservation admitted.
            NS_LOG_INFO("cell " << cellId
                                << ": a plan after its timeout, dropped: " << m.ToString());
            if (cellId != m.aboutCell && m.code < ControlMessage::REJECTED)
            {
                SendRelease(m.imsi, cellId, m.aboutCell, m.sequence);
            }
            break;
        }
        if (cellId == m.aboutCell)
        {
            // The controller's plan, at the target: its part is the prefill.
            PlanArrivedAtTarget(m);
            break;
        }
        // Back at the source: the plan is applied now, with the target's free KV memory and
        // iteration end as its answer, or its plan, reported them (the controller passes the
        // answer's on).
        m_answers[{m.imsi, m.sequence}] = {m.value,
                                           m.items.empty() ? std::nullopt
                                                           : std::optional<Time>(ReportedEnd(m)),
                                           m.code};
        const auto asked = m_preparesAsked.find(m.imsi);
        if (asked != m_preparesAsked.end() && asked->second.notice == m.sequence)
        {
            // The answer to a prepare this source asked for.
            ControlMessage prepare = m;
            prepare.type = ControlMessage::PREPARE;
            prepare.fromCell = cellId;
            prepare.value = 0;
            Deliver(prepare);
            break;
        }
        ControlMessage started;
        started.type = ControlMessage::NOTICE;
        started.code = ControlMessage::HANDOVER_STARTED;
        started.fromCell = cellId;
        started.aboutCell = m.aboutCell;
        started.sequence = m.sequence;
        started.imsi = m.imsi;
        Deliver(started);
        break;
    }
    case ControlMessage::PROGRESS:
        ProgressArrived(cellId, m);
        break;
    case ControlMessage::RESUME_NOTICE:
        ResumeNoticeArrived(cellId, m);
        break;
    case ControlMessage::BUDGET:
        BudgetArrived(cellId, m);
        break;
    case ControlMessage::CANCEL:
        CancelArrived(cellId, m);
        break;
    case ControlMessage::WINDOW_END:
        m_lifecycle.WindowEndArrived(cellId, m.imsi, m.sequence);
        break;
    case ControlMessage::RELEASE:
        ReleaseArrived(cellId, m);
        break;
    case ControlMessage::LOAD:
        break; // a cell's load, for the PallasController that listens to the channel

    default:
        NS_LOG_WARN("cell " << cellId << ": a control message this coordinator does not act on: "
                            << m.ToString());
        break;
    }
}

ControlMessage::Item
HandoverCoordinator::TargetReport(uint16_t cellId, const ControlMessage& m)
{
    return {m.imsi,
            m.sequence,
            MicroSecondsTo(PortOf(cellId)->GetIterationEnd(), "cell " + std::to_string(cellId))};
}

ControlMessage
HandoverCoordinator::ReserveFor(const ControlMessage& notice)
{
    ControlMessage reserve = notice;
    reserve.type = ControlMessage::RESERVE;
    reserve.code = 0;
    reserve.value = 0;
    return reserve;
}

void
HandoverCoordinator::ControllerNoticed(const ControlMessage& m)
{
    m_controllerPending[{m.imsi, m.sequence}] = {m.fromCell, m.aboutCell};
    m_channels.at(ControlMessage::CONTROLLER)->Send(m.aboutCell, ReserveFor(m));
}

void
HandoverCoordinator::ControllerAnswered(const ControlMessage& m)
{
    const auto pending = m_controllerPending.find({m.imsi, m.sequence});
    NS_ABORT_MSG_IF(pending == m_controllerPending.end(),
                    "HandoverCoordinator: the controller got an answer for imsi "
                        << m.imsi << "'s notice " << m.sequence << ", which it never sent on");
    const auto [source, target] = pending->second;
    m_controllerPending.erase(pending);
    // The plan to both cells at once: the source applies it, the target prefills its part.
    // The value passes the target's answer on.
    ControlMessage plan = m;
    plan.type = ControlMessage::PLAN;
    plan.aboutCell = target; // its code passes the target's admission on
    // The target's report, counted from the plan's sending: the iteration it reported may
    // have ended on the way.
    plan.items.front().value = MicroSecondsTo(ReportedEnd(m), "the controller");
    Ptr<ControlChannel> controller = m_channels.at(ControlMessage::CONTROLLER);
    controller->Send(source, plan);
    controller->Send(target, plan);
}

void
HandoverCoordinator::PlanArrivedAtTarget(const ControlMessage& m)
{
    auto pending = m_prefillPending.find(m.imsi);
    const Migration* migration = m_lifecycle.Find(m.imsi);
    if (pending != m_prefillPending.end() && pending->second.notice == m.sequence)
    {
        // The source applied the plan first: the prefill was waiting for this.
        m_prefillPending.erase(pending);
        if (migration && migration->route.back() == m.aboutCell)
        {
            m_lifecycle.TryPrefill(m.imsi, migration->group);
        }
        return;
    }
    m_planAtTarget.insert({m.imsi, m.sequence});
}

void
HandoverCoordinator::RequestPrefill(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell)
{
    const Migration* m = m_lifecycle.Find(imsi);
    const bool alone = m_plannedAlone.count({imsi, m_startingNotice}) > 0;
    if ((m_policyAt == POLICY_AT_TARGET && !alone) || !m || !HasControlPath(sourceCell, targetCell))
    {
        return; // planned at the target, or no connection to it: the target has the plan
    }
    if (m_policyAt == POLICY_AT_CONTROLLER && !alone)
    {
        // The controller sent the target its copy of the plan with the source's.
        if (!HasControlPath(sourceCell, ControlMessage::CONTROLLER) ||
            !HasControlPath(targetCell, ControlMessage::CONTROLLER) ||
            m_planAtTarget.erase({imsi, m_startingNotice}) > 0)
        {
            return;
        }
        m_prefillPending[imsi] = {m->record, m_startingNotice};
        return;
    }
    // The target's part of the plan: what it prefills. It starts once both this and the
    // token IDs are in.
    ControlMessage request = ControlMessage::ForUe(ControlMessage::PREFILL_REQUEST,
                                                   imsi,
                                                   targetCell,
                                                   static_cast<uint32_t>(m->record));
    request.value = m->prefillTokens;
    request.items.push_back(
        {imsi, static_cast<uint32_t>(m->record), static_cast<uint32_t>(m->prefillTokens)});
    m_prefillPending[imsi] = {m->record, 0};
    m_channels.at(sourceCell)->Send(targetCell, request);
}

void
HandoverCoordinator::PrefillRequestArrived(uint16_t cellId, const ControlMessage& request)
{
    for (const ControlMessage::Item& item : request.items)
    {
        auto pending = m_prefillPending.find(item.imsi);
        if (pending == m_prefillPending.end() || pending->second.record != item.sequence)
        {
            continue; // a request of a migration that has ended
        }
        m_prefillPending.erase(pending);
        const Migration* m = m_lifecycle.Find(item.imsi);
        if (m && m->record == item.sequence && m->route.back() == cellId)
        {
            m_lifecycle.TryPrefill(item.imsi, m->group);
        }
    }
}

void
HandoverCoordinator::ReleaseHolder(uint64_t imsi, uint16_t holder, uint16_t target)
{
    if (m_controlPlane == IDEAL_CONTROL || !HasControlPath(target, holder))
    {
        PortOf(holder)->RemoveSession(imsi);
        return;
    }
    // The holder frees the session's KV memory when it hears that the target resumed it.
    const ControlMessage notice =
        ControlMessage::ForUe(ControlMessage::RESUME_NOTICE, imsi, target, ++m_releasesMade[imsi]);
    m_releasePending[imsi] = {holder, notice.sequence};
    m_channels.at(target)->Send(holder, notice);
}

void
HandoverCoordinator::SettleRelease(uint64_t imsi, uint16_t target)
{
    SettleCancel(imsi, target);
    auto pending = m_releasePending.find(imsi);
    if (pending == m_releasePending.end())
    {
        return;
    }
    NS_LOG_INFO("imsi " << imsi << ": migrates again before its resume notice reached cell "
                        << pending->second.first << "; released there now");
    PortOf(pending->second.first)->RemoveSession(imsi);
    m_releasePending.erase(pending);
}

void
HandoverCoordinator::ResumeNoticeArrived(uint16_t cellId, const ControlMessage& m)
{
    auto pending = m_releasePending.find(m.imsi);
    if (pending == m_releasePending.end() || pending->second.first != cellId ||
        pending->second.second != m.sequence)
    {
        return; // released already: the UE migrated again first
    }
    m_releasePending.erase(pending);
    PortOf(cellId)->RemoveSession(m.imsi);
}

bool
HandoverCoordinator::GetReportedFreeKv(uint16_t cellId, uint64_t& tokens) const
{
    auto a = m_answered.find(cellId);
    if (a == m_answered.end())
    {
        return false;
    }
    tokens = a->second.freeKvTokens;
    return true;
}

bool
HandoverCoordinator::IsPrefillRequested(uint64_t imsi) const
{
    auto pending = m_prefillPending.find(imsi);
    if (pending == m_prefillPending.end())
    {
        return true;
    }
    const Migration* m = m_lifecycle.Find(imsi);
    return !m || m->record != pending->second.record;
}

void
HandoverCoordinator::Deliver(const ControlMessage& m)
{
    m_noticesHeld[m.imsi][m.sequence] = m;
    std::map<uint32_t, ControlMessage>& held = m_noticesHeld[m.imsi];
    uint32_t& done = m_noticesDone[m.imsi];
    for (auto next = held.find(done); next != held.end(); next = held.find(done))
    {
        const ControlMessage event = next->second;
        held.erase(next);
        ++done;
        Dispatch(event);
    }
}

void
HandoverCoordinator::PlanTimedOut(const ControlMessage& m)
{
    CrossNodeAudit::Scope here(m.fromCell); // the source's timer
    const uint32_t done = m_noticesDone[m.imsi];
    if (m.sequence < done || m_noticesHeld[m.imsi].count(m.sequence) > 0)
    {
        return; // its plan came back in time
    }
    ++m_planTimeouts;
    m_plannedAlone.insert({m.imsi, m.sequence});
    NS_LOG_WARN("imsi " << m.imsi << ": no plan from the policy for cell " << m.aboutCell
                        << " within " << m_planTimeout.As(Time::MS) << "; cell " << m.fromCell
                        << " plans alone");
    Deliver(m);
}

void
HandoverCoordinator::UseAnswer(const ControlMessage& m)
{
    m_startingNotice = m.sequence;
    if (auto a = m_answers.find({m.imsi, m.sequence}); a != m_answers.end())
    {
        m_answered[m.aboutCell] = a->second;
        m_answers.erase(a);
    }
}

Time
HandoverCoordinator::GetTargetIterationEnd(uint16_t cellId)
{
    auto a = m_answered.find(cellId);
    return a != m_answered.end() && a->second.iterationEnd ? *a->second.iterationEnd
                                                           : PortOf(cellId)->GetIterationEnd();
}

void
HandoverCoordinator::Dispatch(const ControlMessage& m)
{
    const auto at = m_noticeTimes.find({m.imsi, m.sequence});
    const Time happened = at->second;
    m_noticeTimes.erase(at);
    // A notice held behind an earlier one is acted on where it was heard (or, sent to the
    // session's holder, there), not where the earlier one's plan arrived.
    CrossNodeAudit::Scope here(
        m.type == ControlMessage::NOTICE && ActsAtHolder(m.code) ? m.aboutCell : m.fromCell);
    if (m.type == ControlMessage::PREPARE)
    {
        m_controlDelayTrace(m.imsi, m.fromCell, m.aboutCell, Simulator::Now() - happened);
        UseAnswer(m);
        PrepareArrived(m);
        ReleaseUnused(m);
        m_answered.clear();
        return;
    }
    switch (static_cast<ControlMessage::RanEvent>(m.code))
    {
    case ControlMessage::HANDOVER_STARTED:
        m_controlDelayTrace(m.imsi, m.fromCell, m.aboutCell, Simulator::Now() - happened);
        UseAnswer(m);
        StartHandover(m.imsi, m.fromCell, m.aboutCell, happened);
        ReleaseUnused(m);
        m_answered.clear();
        break;
    case ControlMessage::UE_READY:
        UeReady(m.imsi, m.fromCell);
        break;
    // aboutCell: where it is acted on, where it happened or the holder it was sent to.
    case ControlMessage::HANDOVER_FAILED:
        HandoverFailedAt(m.imsi,
                         m.fromCell,
                         static_cast<RanObserver::HandoverFailureReason>(m.value),
                         m.aboutCell);
        break;
    case ControlMessage::UE_RELEASED:
        UeReleased(m.imsi, m.aboutCell);
        break;
    case ControlMessage::LINK_FAILURE:
        RadioLinkFailureAt(m.imsi, m.fromCell, m.aboutCell);
        break;
    case ControlMessage::HANDOVER_DONE:
        m_recorder.HandoverDoneAt(m.imsi, m.fromCell, happened);
        break;
    }
}

} // namespace ns3
