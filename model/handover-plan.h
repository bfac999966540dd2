/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_PLAN_H
#define EDGE_LLM_HANDOVER_PLAN_H

#include "kv-transfer-header.h"
#include "llm-compute-model.h"
#include "token-range.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The KV-cache shape of one session's model: what its cache weighs on the wire.
 *
 * A run may mix models, so each session carries its own.
 */
struct SessionKvProfile
{
    uint64_t bytesPerToken{57344}; //!< KV bytes of one token, all layers and heads, >= 1
    uint64_t bytesPerEntry{512};   //!< KV bytes of one entry (token x layer x KV head), >= 1
    uint32_t entriesPerToken{112}; //!< entries of one token (layers x KV heads), >= 1
};

/**
 * \ingroup edge-llm
 * \brief One backhaul link as a plan sees it: a direction between two cells.
 */
struct HandoverLinkView
{
    uint16_t fromCell{0};        //!< where it leaves
    uint16_t toCell{0};          //!< where it arrives
    double rateBps{0};           //!< its rate, bit/s
    double plannedRateBps{0};    //!< the rate the scheduler is told to plan with, bit/s
    uint64_t backlogBytes{0};    //!< KV bytes queued on it that TCP has not taken yet
    std::vector<uint64_t> imsis; //!< sessions whose transfers it carries, in flight or planned
    bool bottleneck{false};      //!< it carries the transfers of more than one session
};

/**
 * \ingroup edge-llm
 * \brief A target cell's engine as a plan sees it.
 */
struct HandoverTargetView
{
    uint16_t cell{0};                //!< the cell
    double prefillCycleS{0};         //!< T_c of its engine, s
    double prefillFreeAtS{0};        //!< when the handover prefills already planned there end, s
    uint64_t queuedPrefillTokens{0}; //!< tokens of handover prefills planned and not yet done
    uint64_t freeKvTokens{0};        //!< KV capacity not reserved by its sessions, tokens
    uint64_t kvCapacityTokens{0};    //!< its whole KV capacity, tokens
    /// its compute model: p(L) and the batch prefill
    LlmComputeModel compute{LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName())};
    /**
     * When its engine runs Mixed iterations (and the coordinator's EngineForecast is true):
     * when urgent prefills of these lengths, queued at
     * fromS behind the handover prefills planned there (sessions in replacing left out, as a
     * re-plan of them replaces theirs), would all have ended, s, by the engine's own replay of
     * its iterations (LlmEngine::ForecastPrefills). Empty under Separate iterations, whose
     * plans keep the whole-prefill model from prefillFreeAtS.
     */
    std::function<double(const std::vector<uint64_t>& lengths,
                         double fromS,
                         const std::vector<uint64_t>& replacing)>
        prefillEndS;
};

/**
 * \ingroup edge-llm
 * \brief One session of a handover group, as the coordinator sees it when it asks for a plan.
 */
struct HandoverSessionView
{
    uint64_t imsi{0};                //!< the UE
    uint16_t holderCell{0};          //!< the cell whose server holds its session and cache
    uint16_t targetCell{0};          //!< the cell it hands over (or is predicted to) to
    uint64_t contextTokens{0};       //!< C_i: KV tokens it has (or is expected to have), >= 1
    uint64_t nextTokenIndex{0};      //!< index of the next token it will generate
    uint64_t tokensLeft{0};          //!< tokens it has still to generate
    double decodeTokensPerSecond{0}; //!< its measured decode rate; 0 before two tokens
    double handoverStartS{0};        //!< tau_i: its handover start (or the expected one), s
    SessionKvProfile kv;             //!< its KV-cache shape
    std::vector<std::size_t> links;  //!< indices into HandoverPlanInput::links, holder first
    bool handedOver{true};           //!< false for an expected handover (oracle, prediction)
    /// Planned before and migrating already: this plan replaces its current one (a re-plan
    /// of its group; see HandoverScheduler::GetOnlineGrouping)
    bool inProgress{false};
    /// The shortest prefill its plan may have: tokens it must prefill already, because their
    /// KV will not come (a re-plan whose transfer has all reached TCP)
    uint64_t prefixMin{0};
    /// The longest prefill its plan may have: the KV from there on is on its way (a re-plan
    /// whose transfer has begun); the context, when nothing limits it
    uint64_t prefixMax{std::numeric_limits<uint64_t>::max()};
};

/**
 * \ingroup edge-llm
 * \brief Everything a HandoverScheduler is told about one handover group.
 *
 * The group is one session (online batching), the sessions one batch prefill serves together
 * (oracle batching), or a session whose handover is predicted (a prepare call).
 */
struct HandoverPlanInput
{
    double nowS{0};                            //!< the current time, s
    uint32_t group{0};                         //!< oracle group from 1; 0 for none
    std::vector<HandoverSessionView> sessions; //!< the group, in handover order; not empty
    std::vector<HandoverLinkView> links;       //!< every link on the sessions' paths
    std::vector<HandoverTargetView> targets;   //!< every target engine of the group

    /**
     * \param cell a target cell
     * \return its view; throws std::invalid_argument if the input has none
     */
    const HandoverTargetView& GetTarget(uint16_t cell) const;
};

/**
 * \ingroup edge-llm
 * \brief What one session does at its handover.
 */
struct SessionPlan
{
    /// What happens to the session.
    enum Action
    {
        MIGRATE, //!< move it to the target: re-prefill and/or KV transfer
        RELAY,   //!< keep it at its holder and relay its tokens over the backhaul (Detour)
    };

    /// When the target resumes decoding.
    enum Resume
    {
        ALL_ARRIVED, //!< once every prefill has ended and every KV range has arrived
        AT_DEADLINE, //!< at the deadline (or earlier, once all arrived), with what arrived
    };

    uint64_t imsi{0};       //!< the session
    Action action{MIGRATE}; //!< what to do
    /// Token ranges the target re-prefills from forwarded token IDs; they start at 0 and, with
    /// the transfer, tile the context.
    std::vector<TokenRange> prefill;
    /// The unit of transfer: TOKEN positions, or ENTRY indices in importance order.
    KvTransferHeader::RangeUnit unit{KvTransferHeader::TOKEN};
    /// KV ranges to send, in the order given. Token ranges start on a 16-token block unless
    /// they start where a prefill range ends.
    std::vector<TokenRange> transfer;
    double weight{1};           //!< the session's weight in a shared allocation, > 0
    Resume resume{ALL_ARRIVED}; //!< the resume rule
    /// AT_DEADLINE: how long after the handover the target resumes, >= 0
    Time resumeAfter{Time(0)};
    /// The EDF deadline of its transfer, after the handover; Time::Max() for none
    Time transferDeadline{Time::Max()};
    uint32_t priority{0}; //!< strict priority of its transfer; lower first
    /// A prepared plan: the source decodes on until the handover, and the blocks it fills go
    /// to the target as they are made (an open transfer, sealed at the handover)
    bool keepDecoding{false};
    /// With keepDecoding: false holds the open transfer's tail, from the context at the
    /// prepare on, for the seal, so none of it crosses before the handover (Pallas without
    /// streaming)
    bool streamOpen{true};
};

/**
 * \ingroup edge-llm
 * \brief A scheduler's answer: one plan per session of the group.
 */
struct HandoverPlan
{
    std::vector<SessionPlan> sessions; //!< one per session of the input, any order
    /// The prefix length L of a ctHO-family plan, written to the records; 0 otherwise
    uint64_t prefixTokens{0};
    /// The delay the scheduler expects for the group's worst session; negative when it has none
    Time predictedDelay{Time(-1)};

    /**
     * \param imsi a session
     * \return its plan, or null if the plan has none
     */
    const SessionPlan* Find(uint64_t imsi) const;
};

/**
 * \ingroup edge-llm
 * \brief One migration under way, as the per-slot hook sees it.
 */
struct MigrationView
{
    uint64_t imsi{0};           //!< the session
    uint32_t epoch{0};          //!< its transfer's epoch
    uint16_t holderCell{0};     //!< where its cache comes from
    uint16_t targetCell{0};     //!< where it goes
    bool committed{false};      //!< the handover has happened (false: prepared)
    uint64_t announcedBytes{0}; //!< KV bytes of its transfer so far
    uint64_t sentBytes{0};      //!< of those, handed to TCP
    /// of those, arrived at the target (ControlPlane network: as the viewing node knows it,
    /// from reports or from its sender's acknowledged bytes)
    uint64_t receivedBytes{0};
    double weight{1};         //!< the plan's weight
    double handoverStartS{0}; //!< its handover start, s (the expected one while prepared)
    double resumeAtS{-1};     //!< AT_DEADLINE: its resume deadline, s; negative otherwise
    SessionKvProfile kv;      //!< its KV-cache shape
    /// the unit its plan sends in: a budget is best a whole number of them
    KvTransferHeader::RangeUnit unit{KvTransferHeader::TOKEN};
    std::vector<std::size_t> links; //!< indices into HandoverSlotInput::links
};

/**
 * \ingroup edge-llm
 * \brief What the per-slot hook is told at the start of a slot.
 */
struct HandoverSlotInput
{
    double nowS{0};                        //!< the slot's start, s
    uint64_t slot{0};                      //!< its index: floor(now / slot duration)
    double slotS{0};                       //!< the slot's duration, s
    std::vector<MigrationView> migrations; //!< every migration whose transfer is open
    std::vector<HandoverLinkView> links;   //!< every link they cross
};

/// Per session: KV bytes it may hand to TCP in the slot.
using SlotBudgets = std::map<uint64_t, uint64_t>;

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_PLAN_H */
