/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CTHO_FAMILY_SCHEDULER_H
#define EDGE_LLM_CTHO_FAMILY_SCHEDULER_H

#include "ctho-solver.h"
#include "handover-scheduler.h"

#include <functional>
#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The schedulers that answer with one prefix length L for a group: tHO (L = C_max), cHO
 * (L = 0) and ctHO (the optimum).
 *
 * The group's input is seen as a ctHO problem (MakeCtHoView): C_i and tau_i of each session,
 * the backhaul in tokens per second, the target's prefill cycle, the prefills already queued
 * there (t_min) and the link's backlog (B_0). Each session then re-prefills tokens
 * [0, min(C_i, L)) at the target and receives the KV cache of [L, C_i) over the backhaul,
 * earliest deadline first with deadline tau_i + D_tx*(L), and resumes when all has arrived.
 */
class CtHoFamilyScheduler : public HandoverScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CtHoFamilyScheduler();
    ~CtHoFamilyScheduler() override;

    /**
     * \brief The ctHO problem of a group.
     *
     * R is the slowest planned rate on the sessions' paths over the largest bytes per token
     * among them: the solver counts tokens, so a group that mixes models is planned as if each
     * token were the heaviest (a conservative plan). The prefill cycle and the compute model
     * are those of the first session's target. Throws std::invalid_argument naming the field
     * when the input cannot make a problem.
     * \param input the group
     * \return the problem
     */
    static CtHoInput MakeCtHoView(const HandoverPlanInput& input);

    /**
     * \brief The plan of a ctHO-family scheduler for a group: each session re-prefills
     * [0, min(C_i, L)) and receives the KV cache of [L, CONTEXT_END), EDF with deadline
     * tau_i + D_tx*(L), L being what choose returns (clamped to the sessions' prefix bounds).
     *
     * A scheduler that is not a CtHoFamilyScheduler (Pallas's reactive fallback) plans with it.
     * \param input the group, checked
     * \param choose picks L from the group's ctHO problem
     * \return one plan per session
     */
    static HandoverPlan PlanWithPrefix(const HandoverPlanInput& input,
                                       const std::function<CtHoValue(const CtHoSolver&)>& choose);

    /// \return the OnlineGrouping attribute
    bool GetOnlineGrouping() const override;

  protected:
    /**
     * \param own the scheme name of the type itself, e.g. "cho"
     * \return the SchemeName attribute, or own when it is empty
     */
    std::string SchemeNameOr(const std::string& own) const;

    /**
     * \brief Choose L.
     * \param solver the group's ctHO problem, validated
     * \return L and the delays it predicts; an L above every context re-prefills all
     */
    virtual CtHoValue ChoosePrefix(const CtHoSolver& solver) const = 0;

  private:
    HandoverPlan DoPlan(const HandoverPlanInput& input) final;

    bool m_onlineGrouping;    //!< OnlineGrouping
    std::string m_schemeName; //!< SchemeName
};

} // namespace ns3

#endif /* EDGE_LLM_CTHO_FAMILY_SCHEDULER_H */
