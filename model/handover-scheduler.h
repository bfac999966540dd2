/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_SCHEDULER_H
#define EDGE_LLM_HANDOVER_SCHEDULER_H

#include "handover-plan.h"
#include "handover-record.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One handover prediction for a UE, as the prediction hooks (ShouldPrepare,
 * ShouldCancel) see it.
 *
 * A controller that listens to a HandoverPredictor (PallasController) fills it for every
 * prediction and carries out what the hooks decide through the coordinator.
 */
struct HandoverPredictionView
{
    uint64_t imsi{0};           //!< the UE
    uint16_t servingCell{0};    //!< its serving cell
    uint16_t targetCell{0};     //!< the predicted target; 0 when no handover is predicted
    Time now;                   //!< when the prediction was made
    Time handoverAt;            //!< the predicted handover time, never before now
    Time period;                //!< the next prediction comes this much later
    Time queuedAhead;           //!< prefix prefills of the other UEs predicted, not yet
                                //!< prepared, to hand over to the same target no later
    bool prepared{false};       //!< the UE has a prepared migration
    uint16_t preparedTarget{0}; //!< its target, when the controller prepared it; 0 otherwise
};

/**
 * \ingroup edge-llm
 * \brief The object that implements a handover scheme: given a handover group, it says how
 * each of its sessions is recovered.
 *
 * Words: a *scheme* is the name a user types and reads in result files ("ctho",
 * "pallas-full-copy"; see handover-scheme-registry.h); a *scheduler* is the HandoverScheduler
 * object that implements it (one class may implement several schemes, told apart by
 * attributes); *policy* names only the smaller per-transfer choices (KvTransferPolicy, the
 * coordinator's StallPolicy, MemoryFullPolicy and LinkFailurePolicy).
 *
 * The HandoverCoordinator gathers the inputs from the RAN, the servers and the backhaul, asks
 * the scheduler, and carries out the plan; the scheduler itself holds no simulator object.
 * Plan() is the one call every scheduler answers. A stateful scheduler may implement the
 * optional hooks:
 * - ShouldPrepare() and ShouldCancel(), for each prediction a controller relays: whether to
 *   prepare a migration now, and whether to throw away the one prepared;
 * - Prepare(), when a handover is predicted: work to start before it (a prefill at the
 *   predicted target, an open transfer that grows while the source decodes);
 * - Commit() and Cancel(), when the predicted handover happens or turns out wrong;
 * - Slot(), at the start of every slot of GetSlotDuration() while migrations are under way:
 *   each session's KV-byte budget for the slot;
 * - CompleteRecord(), when a handover ends: the scheduler's own results in its record.
 *
 * A scheduler is chosen by its scheme name (EdgeLlmHelper::SetScheme) or by its TypeId name
 * (HandoverCoordinator's Scheduler attribute, or EdgeLlmHelper::SetSchedulerType), and its
 * attributes are set through the helper (EdgeLlmHelper::SetSchedulerAttribute). Every
 * registered subclass with a constructor is a scheme under its GetSchemeName(), and the
 * registry adds aliases: a type with attributes set (see handover-scheme-registry.h).
 */
class HandoverScheduler : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    HandoverScheduler();
    ~HandoverScheduler() override;

    /**
     * \brief Plan a handover group whose handovers have started (or, for oracle groups, are
     * expected).
     *
     * The input and the plan are checked: an input with no session, a context of 0 tokens,
     * a rate <= 0, ...; a plan that misses a session of the group, re-prefills anything but a
     * prefix, or does not tile the context with its prefill and token transfer stops the run
     * with the field's name and its allowed range.
     * \param input the group
     * \return one plan per session
     */
    HandoverPlan Plan(const HandoverPlanInput& input);

    /**
     * \brief A handover of one session is predicted: plan the work to start now.
     * \param input the session, with its predicted target and its expected handover time
     * \return a plan for it, or a plan with no session to prepare nothing; checked as Plan()'s
     */
    HandoverPlan Prepare(const HandoverPlanInput& input);

    /**
     * \brief A handover prediction: should a migration be prepared for it now?
     *
     * Asked for a prediction of a handover (targetCell not 0, not the serving cell) that has
     * no migration prepared for its target. true makes the controller call
     * HandoverCoordinator::PrepareHandover, which asks Prepare() for the plan (and moves a
     * migration prepared for another target).
     * \param prediction the prediction
     * \return whether to prepare now; the default never prepares
     */
    bool ShouldPrepare(const HandoverPredictionView& prediction) const;

    /**
     * \brief A prediction for a UE with a prepared migration: should it be cancelled?
     *
     * Asked before ShouldPrepare when the UE has a prepared migration; true makes the
     * controller call HandoverCoordinator::CancelPrepared.
     * \param prediction the prediction (targetCell 0: the prediction was withdrawn)
     * \return whether to cancel; the default cancels when no handover is predicted any more,
     *         or one to another target than the prepared one that ShouldPrepare() does not
     *         prepare now
     */
    bool ShouldCancel(const HandoverPredictionView& prediction) const;

    /**
     * \brief A prepared migration's handover has started, towards its prepared target.
     * \param migration the migration, committed now
     */
    void Commit(const MigrationView& migration);

    /**
     * \brief A prepared migration was thrown away: the handover went elsewhere, or the
     * prediction was withdrawn.
     * \param migration the migration, as it stood
     */
    void Cancel(const MigrationView& migration);

    /**
     * \brief A slot starts: give each migration its KV-byte budget for the slot.
     *
     * Called once per slot of GetSlotDuration() while migrations are under way, from the
     * first of the senders' refills and the coordinator's own slot tick, so every sender sees
     * the same budgets. The budgets of the sessions that cross one link must fit its capacity
     * for the slot (rate x slot / 8 bytes); more stops the run, naming the link.
     * \param input the migrations and their links
     * \return bytes per session; a session not named gets 0
     */
    SlotBudgets Slot(const HandoverSlotInput& input);

    /**
     * \brief Complete a handover's record with the scheduler's own results.
     * \param record the record, as the coordinator filled it
     */
    void CompleteRecord(HandoverRecord& record) const;

    /// \return the scheme's short name, e.g. "ctho", as written in result files
    virtual std::string GetSchemeName() const = 0;

    /// \return the slot of the Slot() hook; 0 (the default) when the scheduler has none
    virtual Time GetSlotDuration() const;

    /**
     * \brief Whether one slot's budgets on one link depend on the migrations of others.
     *
     * With a ControlPlane network, a slot's budgets are set where the policy runs; when they
     * couple links, only one node that hears from every sender (a controller) can set them.
     * \return false (the default): each link's budgets depend on its own migrations only
     */
    virtual bool GetSlotsCoupleLinks() const;

    /**
     * \brief Whether online handovers are planned in cycle groups.
     *
     * If true, the coordinator plans the online handovers to one target that one prefill
     * batch will hold together: a handover that arrives while that batch has not started
     * comes with every migration of the batch (HandoverSessionView::inProgress, with the
     * prefixMin and prefixMax its transfer so far allows), and the plan replaces theirs.
     * \return false (the default): each online handover is planned alone
     */
    virtual bool GetOnlineGrouping() const;

    /**
     * \brief Plan an online cycle group with a newcomer.
     *
     * A member whose transfer has handed bytes to TCP can be planned two ways, each true to
     * what its prefix costs: keep, where no member's prefix grows past its old one (those
     * bytes stay of use), and grow, where prefixes may grow and those bytes count in their
     * links' backlog (the link carries them, and the target drops them). The default plans
     * both and takes the one that predicts the smaller delay. Both plans are checked.
     * \param keep the group, each prefix at most the member's old one
     * \param grow the group with free prefixes and the members' sent bytes as backlog; null
     *        when no member has sent bytes that a longer prefix would waste
     * \return the group's plan
     */
    HandoverPlan PlanCycleGroup(const HandoverPlanInput& keep, const HandoverPlanInput* grow);

    /**
     * \brief Whether an online handover joins its target's open cycle group.
     * \param joint the group's plan with the newcomer, from PlanCycleGroup
     * \param groupWorst the worst predicted delay of the group's members before
     * \param alone the newcomer's plan in a group of its own, after this one
     * \return true to join: by default, if the joint plan predicts no worse than the worse of
     *         the group's and the newcomer's alone
     */
    bool JoinCycleGroup(const HandoverPlan& joint, Time groupWorst, const HandoverPlan& alone);

    /**
     * \brief The plan of a session whose target has no direct link to the cell that holds its
     * cache: its tokens are relayed hop by hop, and no KV crosses the relays.
     * \param session the session, as planned at its handover
     * \return its plan; checked to re-prefill the whole context and send no KV (the
     *         default does exactly that)
     */
    SessionPlan PlanWithoutDirectLink(const HandoverSessionView& session);

    /// \return the OnlineTokensSlack attribute: slack on when a newcomer's token IDs reach
    /// its target, which a cycle group's batch planned with it must not start before
    Time GetOnlineTokensSlack() const;

    /**
     * \brief Check a plan against its input, and resolve CONTEXT_END.
     * \param input the input
     * \param plan the plan
     * \param who the caller, for the message
     * \return the empty string, or the first rule the plan breaks
     */
    static std::string CheckPlan(const HandoverPlanInput& input,
                                 const HandoverPlan& plan,
                                 const std::string& who);

    /**
     * \brief The ranges of a plan resolved against a context: CONTEXT_END becomes the
     * context's end, token ranges are cut at it, and empty ranges are dropped.
     * \param ranges the plan's ranges
     * \param end the context's end (tokens) or the entries of the context (entries)
     * \return the resolved ranges, in the same order
     */
    static std::vector<TokenRange> Resolve(const std::vector<TokenRange>& ranges, uint64_t end);

  protected:
    /**
     * \brief The scheme itself.
     * \param input the group, checked
     * \return one plan per session
     */
    virtual HandoverPlan DoPlan(const HandoverPlanInput& input) = 0;

    /**
     * \brief The prepare hook; by default nothing is prepared.
     * \param input the session, checked
     * \return its plan, or none
     */
    virtual HandoverPlan DoPrepare(const HandoverPlanInput& input);

    /**
     * \brief The prepare-decision hook (see ShouldPrepare).
     * \param prediction the prediction
     * \return whether to prepare now; false by default
     */
    virtual bool DoShouldPrepare(const HandoverPredictionView& prediction) const;

    /**
     * \brief The cancel-decision hook (see ShouldCancel).
     * \param prediction the prediction
     * \return whether to cancel the prepared migration
     */
    virtual bool DoShouldCancel(const HandoverPredictionView& prediction) const;

    /// \brief The commit hook; does nothing by default. \param migration the migration
    virtual void DoCommit(const MigrationView& migration);

    /// \brief The cancel hook; does nothing by default. \param migration the migration
    virtual void DoCancel(const MigrationView& migration);

    /**
     * \brief The slot hook; called only when GetSlotDuration() > 0.
     * \param input the migrations
     * \return bytes per session
     */
    virtual SlotBudgets DoSlot(const HandoverSlotInput& input);

    /// \brief The record hook; does nothing by default. \param record the record
    virtual void DoCompleteRecord(HandoverRecord& record) const;

    /**
     * \brief The cycle-group hook (see PlanCycleGroup); calls Plan() for its plans.
     * \param keep the group, prefixes kept
     * \param grow the group, prefixes free; may be null
     * \return the plan
     */
    virtual HandoverPlan DoPlanCycleGroup(const HandoverPlanInput& keep,
                                          const HandoverPlanInput* grow);

    /**
     * \brief The join hook (see JoinCycleGroup).
     * \param joint the joint plan
     * \param groupWorst the group's worst predicted delay before
     * \param alone the newcomer's plan alone
     * \return true to join
     */
    virtual bool DoJoinCycleGroup(const HandoverPlan& joint,
                                  Time groupWorst,
                                  const HandoverPlan& alone);

    /**
     * \brief The no-direct-link hook (see PlanWithoutDirectLink).
     * \param session the session
     * \return its plan
     */
    virtual SessionPlan DoPlanWithoutDirectLink(const HandoverSessionView& session);

  private:
    /// Check the input, ask DoPlan (or DoPrepare), and check its answer; stops the run on a
    /// bad input or plan. \return the plan
    HandoverPlan Checked(const HandoverPlanInput& input, bool prepare);

    Time m_onlineTokensSlack; //!< OnlineTokensSlack
};

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_SCHEDULER_H */
