/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-coordinator.h"

#include "ctho-scheduler.h"
#include "enum-accessor.h"
#include "explaining-checker.h"
#include "explaining-enum-checker.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinator");
NS_OBJECT_ENSURE_REGISTERED(HandoverCoordinator);

TypeId
HandoverCoordinator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HandoverCoordinator")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<HandoverCoordinator>()
            .AddAttribute("Scheduler",
                          "The handover policy (a HandoverScheduler); none means a "
                          "CtHoScheduler of this coordinator's own.",
                          PointerValue(),
                          MakePointerAccessor(&HandoverCoordinator::m_scheduler),
                          MakePointerChecker<HandoverScheduler>())
            .AddAttribute("Batching",
                          "Oracle: groups announced with AddOracleGroup share one batch prefill "
                          "and one plan, fixed at the group's first handover. Online: each "
                          "session is planned alone when it hands over, behind the backhaul's "
                          "backlog and the target's planned prefills.",
                          EnumValue(HandoverCoordinator::ONLINE),
                          edgellm::MakeEnumMemberAccessor(&HandoverCoordinator::m_batching),
                          edgellm::MakeExplainingEnumChecker<Batching>(
                              "ns3::HandoverCoordinator::Batching",
                              {{HandoverCoordinator::ORACLE, "oracle"},
                               {HandoverCoordinator::ONLINE, "online"}}))
            .AddAttribute(
                "ControlPlane",
                "Ideal: the policy learns of a handover and its plan reaches the cells at once. "
                "Network: a handover's plan waits for its control messages, each a packet on "
                "the backhaul (ControlChannel on every cell's node, installed by "
                "EdgeLlmHelper): a memory reservation and its answer between the source and "
                "the target (PolicyAt source), the handover notice to the target and the "
                "plan back (PolicyAt target), or the notice to a controller, the reservation "
                "between it and the target, and the plan to both cells (PolicyAt controller). "
                "A slot scheduler's budgets (ImpactHO) are set where the policy runs: away "
                "from the sender, from the PROGRESS each sender reports at a slot's start, "
                "and sent back as BUDGET messages.",
                EnumValue(HandoverCoordinator::IDEAL_CONTROL),
                edgellm::MakeEnumMemberAccessor(&HandoverCoordinator::m_controlPlane),
                edgellm::MakeExplainingEnumChecker<ControlPlaneMode>(
                    "ns3::HandoverCoordinator::ControlPlane",
                    {{HandoverCoordinator::IDEAL_CONTROL, "ideal"},
                     {HandoverCoordinator::NETWORK_CONTROL, "network"}}))
            .AddAttribute("PolicyAt",
                          "Where a handover's policy runs with ControlPlane network: at the "
                          "source cell's node, at the target's, or at a controller node in the "
                          "transport network (EdgeLlmHelper::AddControllerLink; a star backhaul's "
                          "core router).",
                          EnumValue(HandoverCoordinator::POLICY_AT_SOURCE),
                          edgellm::MakeEnumMemberAccessor(&HandoverCoordinator::m_policyAt),
                          edgellm::MakeExplainingEnumChecker<PolicyPlacement>(
                              "ns3::HandoverCoordinator::PolicyAt",
                              {{HandoverCoordinator::POLICY_AT_SOURCE, "source"},
                               {HandoverCoordinator::POLICY_AT_TARGET, "target"},
                               {HandoverCoordinator::POLICY_AT_CONTROLLER, "controller"}}))
            .AddAttribute(
                "PlanTimeout",
                "With ControlPlane network: how long a handover's or a prepare's source waits "
                "for its plan (the answer, or the policy's plan) before it plans alone, with "
                "what it knows, as if it had no control connection; a plan that comes later is "
                "dropped. 0: it waits as long as it takes. Range [0, inf).",
                TimeValue(Time(0)),
                MakeTimeAccessor(&HandoverCoordinator::m_planTimeout),
                edgellm::MakeTimeNotNegativeChecker("ns3::HandoverCoordinator::PlanTimeout", true))
            .AddAttribute(
                "PlannedBackhaulRate",
                "The backhaul rate the scheduler plans with, bit/s; 0 means each "
                "link's own rate. Range [0, inf).",
                DataRateValue(DataRate(0)),
                MakeDataRateAccessor(&HandoverCoordinator::m_plannedRate),
                edgellm::MakeExplainingChecker(MakeDataRateChecker(),
                                               "ns3::HandoverCoordinator::PlannedBackhaulRate",
                                               "a rate >= 0 bit/s (0: each link's own rate)"))
            .AddAttribute(
                "KvBytesPerToken",
                "KV-cache bytes of one token of a session without its own profile "
                "(SetSessionKvProfile), in place of its holder's model. 0 (the "
                "default): the holder server's KvCache, its bytes per token rounded up. "
                "Range 0 or [1, 2^32].",
                UintegerValue(0),
                MakeUintegerAccessor(&HandoverCoordinator::m_kvBytesPerToken),
                edgellm::MakeExplainingChecker(MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 32),
                                               "ns3::HandoverCoordinator::KvBytesPerToken",
                                               "an integer in [0, 4294967296] (0: the "
                                               "holder server's KvCache)"))
            .AddAttribute(
                "KvEntriesPerToken",
                "KV entries (layer x KV head) of one token of a session without its "
                "own profile, in place of its holder's model; an entry is the token's "
                "bytes / KvEntriesPerToken, rounded up. 0 (the default): the holder "
                "server's KvCache, layers x KV heads. Range 0 or [1, 2^16].",
                UintegerValue(0),
                MakeUintegerAccessor(&HandoverCoordinator::m_kvEntriesPerToken),
                edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(0, 1u << 16),
                                               "ns3::HandoverCoordinator::KvEntriesPerToken",
                                               "an integer in [0, 65536] (0: the holder "
                                               "server's KvCache)"))
            .AddAttribute("KvEntryBytes",
                          "Bytes of one KV entry on the wire, in ENTRY-unit transfers, of a "
                          "session without its own profile: its K and V plus the metadata that "
                          "places it (token, layer, head; 3 bytes for ImpactHO). 0 (the "
                          "default): a token's bytes / its entries, rounded up, with no "
                          "metadata. Range 0 or [that quotient, 2^32].",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HandoverCoordinator::m_kvEntryBytes),
                          // The lower bound depends on two other attributes: checked when a
                          // migration is planned, naming all three.
                          edgellm::MakeExplainingChecker(
                              MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 32),
                              "ns3::HandoverCoordinator::KvEntryBytes",
                              "0, or an integer in [a token's KV bytes / its entries rounded "
                              "up, 4294967296]"))
            .AddAttribute(
                "OracleGrace",
                "How long past its latest expected handover an oracle group's batch "
                "waits for members that have not handed over. Range [0, inf).",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&HandoverCoordinator::m_oracleGrace),
                edgellm::MakeTimeNotNegativeChecker("ns3::HandoverCoordinator::OracleGrace", true))
            .AddAttribute("StallPolicy",
                          "What a committed migration does when its transfer stalls: no KV "
                          "byte of it arrives for StallTimeout while TCP holds bytes of it (the "
                          "link is down, or lossy enough to back TCP off). Wait: it waits for "
                          "the link. Reprefill: the KV that has not arrived is abandoned "
                          "(link-down) and re-prefilled at the target, whose token IDs come "
                          "with the handover's context; a transfer in ENTRY units, or one that "
                          "resumes at a deadline, always waits.",
                          EnumValue(HandoverCoordinator::STALL_WAIT),
                          edgellm::MakeEnumMemberAccessor(&HandoverCoordinator::m_stallPolicy),
                          edgellm::MakeExplainingEnumChecker<StallPolicy>(
                              "ns3::HandoverCoordinator::StallPolicy",
                              {{HandoverCoordinator::STALL_WAIT, "Wait"},
                               {HandoverCoordinator::STALL_REPREFILL, "Reprefill"}}))
            .AddAttribute(
                "StallTimeout",
                "How long a committed transfer may go without a KV byte arriving, "
                "while TCP holds bytes of it, before it counts as stalled. Checked "
                "every StallTimeout, so a stall is found between one and two "
                "timeouts after the last byte; keep it above what a message can wait "
                "behind the link's TCP buffer. Range (0, inf).",
                TimeValue(MilliSeconds(200)),
                MakeTimeAccessor(&HandoverCoordinator::m_stallTimeout),
                edgellm::MakeTimeNotNegativeChecker("ns3::HandoverCoordinator::StallTimeout",
                                                    false))
            .AddAttribute(
                "OpenTransferStep",
                "Tokens a prepared migration that keeps decoding (an open transfer, "
                "Pallas's) sends at a time, as the source fills them, the rest going "
                "with the seal at the handover: 1 sends each token's KV as it is "
                "generated, so that the seal carries at most the token of the step in "
                "flight; 16 sends whole 16-token blocks, as Pallas's paper does, and the "
                "last partial block (up to 15 tokens) with the seal. Range [1, 65536].",
                UintegerValue(1),
                MakeUintegerAccessor(&HandoverCoordinator::m_openTransferStep),
                edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 65536),
                                               "ns3::HandoverCoordinator::OpenTransferStep",
                                               "an integer in [1, 65536]"))
            .AddAttribute("TargetMemoryFull",
                          "What a handover does when the target's KV memory cannot hold the "
                          "session now but could once others finish (one larger than the "
                          "whole memory always stays where its cache is). Queue: it waits in "
                          "the target's admission queue, and so does its resume. Fallback: it "
                          "stays at the cell that holds its cache, which relays its tokens. "
                          "Evict: the target preempts its latest-admitted decoding sessions by "
                          "recompute (they free their KV and re-prefill their context when "
                          "admitted again) until the session fits; if even that cannot make "
                          "room, it waits as with Queue.",
                          EnumValue(HandoverCoordinator::MEMORY_QUEUE),
                          edgellm::MakeEnumMemberAccessor(&HandoverCoordinator::m_memoryFull),
                          edgellm::MakeExplainingEnumChecker<MemoryFullPolicy>(
                              "ns3::HandoverCoordinator::TargetMemoryFull",
                              {{HandoverCoordinator::MEMORY_QUEUE, "Queue"},
                               {HandoverCoordinator::MEMORY_FALLBACK, "Fallback"},
                               {HandoverCoordinator::MEMORY_EVICT, "Evict"}}))
            .AddAttribute(
                "LinkFailurePolicy",
                "What a session does when its UE's radio link fails (the RAN "
                "observer's RadioLinkFailure; a migration under way ends as closed). "
                "Continue: its holder decodes on; the tokens the detached UE misses "
                "are recovered by its NACKs once it reconnects. Suspend: it stops "
                "decoding until the UE is ready again; in the holder's cell it "
                "resumes there, in another it moves there as at a handover from the "
                "holder (the scheduler's plan); it is closed if the UE stays away "
                "for LinkFailureTimeout. Close: it is closed at once, its KV memory "
                "freed and its undelivered tokens counted.",
                EnumValue(HandoverCoordinator::LINK_FAILURE_CONTINUE),
                edgellm::MakeEnumMemberAccessor(&HandoverCoordinator::m_linkFailurePolicy),
                edgellm::MakeExplainingEnumChecker<LinkFailurePolicy>(
                    "ns3::HandoverCoordinator::LinkFailurePolicy",
                    {{HandoverCoordinator::LINK_FAILURE_CONTINUE, "Continue"},
                     {HandoverCoordinator::LINK_FAILURE_SUSPEND, "Suspend"},
                     {HandoverCoordinator::LINK_FAILURE_CLOSE, "Close"}}))
            .AddAttribute(
                "LinkFailureTimeout",
                "How long a session suspended by a radio link failure (Suspend) "
                "waits for its UE to reconnect before it is closed; 0: no limit "
                "(it waits until the run ends). Range [0, inf).",
                TimeValue(Seconds(5)),
                MakeTimeAccessor(&HandoverCoordinator::m_linkFailureTimeout),
                edgellm::MakeTimeNotNegativeChecker("ns3::HandoverCoordinator::LinkFailureTimeout",
                                                    true))
            .AddAttribute(
                "EngineForecast",
                "true: under a target engine's Mixed iterations the plans replay them "
                "(LlmEngine::ForecastPrefills): ctHO's solver takes a group's prefill end, and "
                "Pallas's window T_load, from the replay, behind the prefills planned there. "
                "false: the whole-prefill model from the prefills planned before "
                "(prefillFreeAtS), the only one under Separate iterations, and with "
                "ControlPlane network, where a plan has only what the target's messages said.",
                BooleanValue(true),
                MakeBooleanAccessor(&HandoverCoordinator::m_engineForecast),
                edgellm::MakeExplainingBooleanChecker("ns3::HandoverCoordinator::EngineForecast"))
            .AddTraceSource("SessionSuspended",
                            "A session stopped decoding because its UE's radio link failed "
                            "(LinkFailurePolicy Suspend).",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_suspendedTrace),
                            "ns3::HandoverCoordinator::SuspendedTracedCallback")
            .AddTraceSource("SessionReattached",
                            "A suspended session's UE reconnected: the session resumes in "
                            "that cell, or moves there as at a handover.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_reattachedTrace),
                            "ns3::HandoverCoordinator::ReattachedTracedCallback")
            .AddTraceSource("ControlDelay",
                            "A handover's plan, or a prepare's, was applied after its control "
                            "messages crossed the backhaul (ControlPlane network), with the time "
                            "from the RAN's handover start, or from the prepare's request.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_controlDelayTrace),
                            "ns3::HandoverCoordinator::ControlDelayTracedCallback")
            .AddTraceSource("CrossNodeCall",
                            "With ControlPlane network: the coordinator called a cell's server, "
                            "engine or KV applications from another node, a call no control "
                            "message carried (CrossNodeAudit).",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_crossNodeTrace),
                            "ns3::HandoverCoordinator::CrossNodeCallTracedCallback")
            .AddTraceSource("SessionClosed",
                            "A session was closed after its UE's radio link failed, with the "
                            "tokens its application had and those it never got.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_closedTrace),
                            "ns3::HandoverCoordinator::ClosedTracedCallback")
            .AddTraceSource("TransferStalled",
                            "A committed migration's transfer stalled: no KV byte arrived for "
                            "StallTimeout while TCP held bytes of it.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_stalledTrace),
                            "ns3::HandoverCoordinator::StalledTracedCallback")
            .AddTraceSource("HandoverPlanned",
                            "A session's migration was planned: tokens to prefill and to send.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_plannedTrace),
                            "ns3::HandoverCoordinator::PlannedTracedCallback")
            .AddTraceSource("SessionResumed",
                            "A migrated session resumed at its target, which decodes it from "
                            "now on: with its whole cache, or at its deadline with what arrived.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_resumedTrace),
                            "ns3::HandoverCoordinator::ResumedTracedCallback")
            .AddTraceSource("MigrationCancelled",
                            "A migration ended before its resume: a later handover, a wrong "
                            "prediction, a failed handover or the UE's release.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_cancelledTrace),
                            "ns3::HandoverCoordinator::CancelledTracedCallback")
            .AddTraceSource("MigrationReplanned",
                            "A migration's plan was replaced, as its online cycle group grew.",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_replannedTrace),
                            "ns3::HandoverCoordinator::ReplannedTracedCallback")
            .AddTraceSource("MigrationState",
                            "A migration moved from one phase to another (Migration::Phase).",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_stateTrace),
                            "ns3::HandoverCoordinator::StateTracedCallback")
            .AddTraceSource("MigrationTransition",
                            "A migration's state changed in any of its regions: phase, "
                            "prefill, KV transfer or link watch (Migration::State).",
                            MakeTraceSourceAccessor(&HandoverCoordinator::m_transitionTrace),
                            "ns3::Migration::TransitionTracedCallback");
    return tid;
}

HandoverCoordinator::HandoverCoordinator()
    : m_directory({&m_plannedRate, &m_kvBytesPerToken, &m_kvEntriesPerToken, &m_kvEntryBytes}),
      m_paths([this](uint16_t cellId) { return PortOf(cellId, "RelayPaths"); }),
      m_groups(MakeCallback(&HandoverCoordinator::GroupReleased, this)),
      m_linkFailures(this, {&m_suspendedTrace, &m_reattachedTrace, &m_closedTrace}),
      m_slotClock([this]() { return Scheduler()->GetSlotDuration(); },
                  [this](HandoverSlotInput& input, std::map<uint64_t, uint32_t>& epochs) {
                      m_lifecycle.GatherSlot(input, epochs);
                  },
                  [this](const HandoverSlotInput& input) { return Scheduler()->Slot(input); },
                  [this]() { return !m_lifecycle.GetAll().empty(); }),
      m_inputs(this),
      m_online(this, &m_inputs),
      m_lifecycle(this,
                  {&m_recorder, &m_paths, &m_inputs, &m_online, &m_slotClock},
                  {&m_plannedTrace,
                   &m_resumedTrace,
                   &m_cancelledTrace,
                   &m_replannedTrace,
                   &m_stalledTrace,
                   {&m_transitionTrace, &m_stateTrace}})
{
}

HandoverCoordinator::~HandoverCoordinator() = default;

void
HandoverCoordinator::DoDispose()
{
    m_slotClock.Cancel();
    m_linkFailures.Dispose();
    m_scheduler = nullptr;
    m_directory.Clear();
    m_reconnecting.clear();
    Object::DoDispose();
}

uint32_t
HandoverCoordinator::GetMemoryFallbacks() const
{
    return m_lifecycle.GetMemoryFallbacks();
}

uint32_t
HandoverCoordinator::GetEvictions() const
{
    return m_lifecycle.GetEvictions();
}

std::string
HandoverCoordinator::StateName(MigrationState state)
{
    return Migration::PhaseName(state);
}

void
HandoverCoordinator::AddCell(uint16_t cellId, Ptr<CellPort> port)
{
    NS_ABORT_MSG_IF(!port, "HandoverCoordinator::AddCell: cell " << cellId << " has no port");
    NS_ABORT_MSG_IF(port->GetCellId() != cellId,
                    "HandoverCoordinator::AddCell: cell " << cellId << "'s port is cell "
                                                          << port->GetCellId() << "'s");
    m_directory.AddCell(cellId, port);
    CellPort::Listener listener;
    // The cells' events are the migrations' own: they go to the lifecycle directly, acted on
    // at the cell that reported them.
    listener.tokensArrived = Callback<void, uint64_t, uint32_t, uint32_t, uint32_t>(
        [this, cellId](uint64_t imsi, uint32_t epoch, uint32_t first, uint32_t count) {
            CrossNodeAudit::Scope here(cellId);
            m_lifecycle.TokensArrived(cellId, imsi, epoch, first, count);
        });
    listener.kvComplete =
        Callback<void, uint64_t, uint32_t>([this, cellId](uint64_t imsi, uint32_t epoch) {
            CrossNodeAudit::Scope here(cellId);
            m_lifecycle.KvComplete(cellId, imsi, epoch);
        });
    listener.prefillCompleted = Callback<void, uint64_t, uint64_t, bool>(
        [this, cellId](uint64_t imsi, uint64_t tokens, bool urgent) {
            CrossNodeAudit::Scope here(cellId);
            m_lifecycle.PrefillCompleted(cellId, imsi, tokens, urgent);
        });
    // A record's first decode comes before an open transfer's new KV blocks.
    listener.tokenGenerated =
        Callback<void, uint64_t, uint64_t>([this, cellId](uint64_t imsi, uint64_t index) {
            CrossNodeAudit::Scope here(cellId);
            m_recorder.TokenGenerated(imsi, index);
            m_lifecycle.TokenGenerated(cellId, imsi, index);
        });
    listener.kvAnnounced = Callback<void, uint64_t, uint32_t, uint64_t, bool>(
        [this, cellId](uint64_t imsi, uint32_t epoch, uint64_t end, bool open) {
            CrossNodeAudit::Scope here(cellId);
            m_lifecycle.KvAnnounced(cellId, imsi, epoch, end, open);
        });
    listener.kvGoodput = Callback<void, uint64_t, uint32_t, uint64_t, Time>(
        [this, cellId](uint64_t imsi, uint32_t epoch, uint64_t bytes, Time span) {
            CrossNodeAudit::Scope here(cellId);
            KvGoodput(cellId, imsi, epoch, bytes, span);
        });
    port->Listen(listener);
}

void
HandoverCoordinator::AddLink(uint16_t cellA,
                             Ptr<KvTransferSender> senderAtoB,
                             uint16_t cellB,
                             Ptr<KvTransferSender> senderBtoA,
                             DataRate rate)
{
    // Setup, not an action of the run: each node is given its own senders.
    m_directory.PortOf(cellA)->SetKvSender(cellB, senderAtoB);
    m_directory.PortOf(cellB)->SetKvSender(cellA, senderBtoA);
    m_directory.AddLink(cellA, cellB, rate);
    if (Scheduler()->GetSlotDuration().IsZero())
    {
        return;
    }
    for (Ptr<KvTransferSender> sender : {senderAtoB, senderBtoA})
    {
        m_slotClock.Attach(sender, Scheduler()->GetSchemeName());
    }
}

void
HandoverCoordinator::SetFirstCell(uint64_t imsi, uint16_t cellId)
{
    m_paths.Reset(imsi, cellId);
}

void
HandoverCoordinator::SetSessionKvProfile(uint64_t imsi, const SessionKvProfile& profile)
{
    m_directory.SetSessionKvProfile(imsi, profile);
}

SessionKvProfile
HandoverCoordinator::GetKvProfile(uint64_t imsi) const
{
    const std::vector<uint16_t>& path = m_paths.Get(imsi);
    return m_directory.GetKvProfile(imsi, path.empty() ? 0 : path.front());
}

void
HandoverCoordinator::Install(Ptr<RanObserver> observer)
{
    if (m_controlPlane == NETWORK_CONTROL)
    {
        // The policy hears of each event as its cell reports it, the end of a handover too:
        // its record may wait for control messages.
        observer->TraceConnectWithoutContext("HandoverDone",
                                             MakeCallback(&HandoverCoordinator::NoticeDone, this));
        observer->TraceConnectWithoutContext(
            "HandoverStarted",
            MakeCallback(&HandoverCoordinator::NoticeStarted, this));
        observer->TraceConnectWithoutContext("UeReady",
                                             MakeCallback(&HandoverCoordinator::NoticeReady, this));
        observer->TraceConnectWithoutContext(
            "HandoverFailed",
            MakeCallback(&HandoverCoordinator::NoticeFailed, this));
        observer->TraceConnectWithoutContext(
            "UeReleased",
            MakeCallback(&HandoverCoordinator::NoticeReleased, this));
        observer->TraceConnectWithoutContext(
            "RadioLinkFailure",
            MakeCallback(&HandoverCoordinator::NoticeLinkFailure, this));
        return;
    }
    observer->TraceConnectWithoutContext("HandoverStarted",
                                         MakeCallback(&HandoverCoordinator::HandoverStarted, this));
    observer->TraceConnectWithoutContext("UeReady",
                                         MakeCallback(&HandoverCoordinator::UeReady, this));
    m_recorder.Install(observer);
    observer->TraceConnectWithoutContext("HandoverFailed",
                                         MakeCallback(&HandoverCoordinator::HandoverFailed, this));
    observer->TraceConnectWithoutContext("UeReleased",
                                         MakeCallback(&HandoverCoordinator::UeReleased, this));
    observer->TraceConnectWithoutContext(
        "RadioLinkFailure",
        MakeCallback(&HandoverCoordinator::RadioLinkFailure, this));
}

uint32_t
HandoverCoordinator::AddOracleGroup(const std::vector<std::pair<uint64_t, Time>>& members)
{
    NS_ABORT_MSG_IF(m_batching != ORACLE,
                    "HandoverCoordinator::AddOracleGroup: Batching is online; oracle groups "
                    "need Batching=oracle");
    return m_groups.Add(members, m_oracleGrace);
}

const std::vector<HandoverRecord>&
HandoverCoordinator::GetRecords() const
{
    return m_recorder.GetAll();
}

HandoverCoordinator::MigrationState
HandoverCoordinator::GetMigrationState(uint64_t imsi) const
{
    const Migration* m = m_lifecycle.Find(imsi);
    return m ? m->GetPhase() : NONE;
}

Ptr<HandoverScheduler>
HandoverCoordinator::GetScheduler() const
{
    return Scheduler();
}

Ptr<HandoverScheduler>
HandoverCoordinator::Scheduler() const
{
    if (!m_scheduler)
    {
        // Made here, not as the attribute's default: a default object would be one shared
        // by every coordinator, and a stateful policy must not be.
        m_scheduler = CreateObject<CtHoScheduler>();
    }
    return m_scheduler;
}

uint16_t
HandoverCoordinator::HolderOf(uint64_t imsi) const
{
    const std::vector<uint16_t>& path = m_paths.Get(imsi);
    if (path.empty())
    {
        return 0;
    }
    const uint16_t cell = path.front();
    Ptr<CellPort> port = m_directory.FindPort(cell);
    return port && port->OwnsSession(imsi) ? cell : 0;
}

void
HandoverCoordinator::GroupReleased(uint32_t group)
{
    m_lifecycle.TryPrefill(0, group);
}

void
HandoverCoordinator::RadioLinkFailure(uint64_t imsi, uint16_t cellId)
{
    RadioLinkFailureAt(imsi, cellId, cellId);
}

void
HandoverCoordinator::RadioLinkFailureAt(uint64_t imsi, uint16_t cellId, uint16_t at)
{
    // Read here, not at construction: the attributes may change until the failure.
    m_linkFailures.Configure(m_linkFailurePolicy, m_linkFailureTimeout);
    m_linkFailures.RadioLinkFailure(imsi, cellId, at);
}

void
HandoverCoordinator::SetDeliveredTokensProbe(Callback<uint64_t, uint64_t> delivered)
{
    m_linkFailures.SetDeliveredTokensProbe(delivered);
}

const std::map<uint64_t, HandoverCoordinator::ClosedSession>&
HandoverCoordinator::GetClosedSessions() const
{
    return m_linkFailures.GetClosedSessions();
}

uint64_t
HandoverCoordinator::GetUndeliveredTokens() const
{
    return m_linkFailures.GetUndeliveredTokens();
}

bool
HandoverCoordinator::IsSuspended(uint64_t imsi) const
{
    return m_linkFailures.IsSuspended(imsi);
}

Ptr<CellPort>
HandoverCoordinator::PortOf(uint16_t cellId, const char* site)
{
    Ptr<CellPort> port = m_directory.PortOf(cellId);
    if (m_controlPlane == NETWORK_CONTROL && m_audit.Check(site, cellId))
    {
        NS_LOG_INFO("a direct call from " << site << " at cell " << CrossNodeAudit::Acting()
                                          << " to cell " << cellId);
        m_crossNodeTrace(site, CrossNodeAudit::Acting(), cellId);
    }
    return port;
}

Ptr<const CellPort>
HandoverCoordinator::ConfigOf(uint16_t cellId) const
{
    return m_directory.PortOf(cellId);
}

bool
HandoverCoordinator::HasMigration(uint64_t imsi) const
{
    return m_lifecycle.Find(imsi) != nullptr;
}

void
HandoverCoordinator::CloseMigration(uint64_t imsi, uint16_t at)
{
    m_lifecycle.End(imsi, CLOSED, false, at);
}

void
HandoverCoordinator::Handover(uint64_t imsi, uint16_t from, uint16_t to)
{
    HandoverStarted(imsi, from, to);
}

void
HandoverCoordinator::RouteTo(uint64_t imsi, uint16_t cellId)
{
    m_paths.RouteTo(imsi, cellId);
}

void
HandoverCoordinator::SessionClosed(uint64_t imsi)
{
    m_recorder.AwaitFirstDecode(imsi, m_recorder.Size()); // nothing more to await
}

MigrationLifecycle::Settings
HandoverCoordinator::GetMigrationSettings() const
{
    return {m_stallPolicy,
            m_stallTimeout,
            m_memoryFull,
            m_openTransferStep,
            m_controlPlane == NETWORK_CONTROL};
}

bool
HandoverCoordinator::IsGroupComplete(uint32_t group) const
{
    return m_groups.IsComplete(group);
}

void
HandoverCoordinator::AwaitReconnect(uint64_t imsi, uint16_t cellId)
{
    m_reconnecting[imsi] = cellId;
}

} // namespace ns3
