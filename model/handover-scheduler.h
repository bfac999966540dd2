/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_SCHEDULER_H
#define EDGE_LLM_HANDOVER_SCHEDULER_H

#include "ctho-solver.h"
#include "llm-compute-model.h"

#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief What a HandoverScheduler is told about one handover group.
 *
 * The group is one session (online batching) or the sessions a batch prefill serves together
 * (oracle batching). Times are seconds of simulation time.
 */
struct HandoverPlanInput
{
    /// The group as the ctHO problem sees it: C_i, tau_i, the planned backhaul rate R in tokens
    /// per second, the prefill cycle, the earliest prefill start and the backhaul backlog.
    CtHoInput problem;
    /// The target engine's compute model: p(batch) of the batch prefill.
    LlmComputeModel compute{LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName())};
};

/**
 * \ingroup edge-llm
 * \brief A scheduler's answer for a handover group.
 *
 * A MIGRATE plan gives one prefix length L for the group: each session re-prefills its tokens
 * [0, min(C_i, L)) at the target and receives the KV cache of [L, C_i) over the backhaul,
 * earliest deadline first, with deadline tau_i + predicted.transferDelay. A RELAY plan moves
 * nothing: the source keeps decoding and relays its tokens to the serving cell (Detour).
 */
struct HandoverPlan
{
    /// What happens to the sessions of the group.
    enum Action
    {
        MIGRATE, //!< move the session to the target: prefill and/or KV transfer
        RELAY,   //!< keep it at the source and relay its tokens over the backhaul
    };

    Action action{MIGRATE}; //!< what to do
    /// L, tokens; meaningful for MIGRATE. A value at least every context (tHO uses 2^64 - 1)
    /// re-prefills every session whole.
    uint64_t prefixTokens{0};
    CtHoValue predicted; //!< the delays the inputs predict at L (MIGRATE)
};

/**
 * \ingroup edge-llm
 * \brief A handover policy: given a handover group, say how its sessions are recovered.
 *
 * Policies are pure logic with no simulator state: the HandoverCoordinator gathers the
 * inputs from the RAN and the servers, asks the policy, and carries the plan out. A policy
 * is chosen by its TypeId name (HandoverCoordinator's Scheduler attribute, or
 * EdgeLlmHelper::SetSchedulerType), so a new one is one new file with a subclass.
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
     * \brief Plan a handover group.
     *
     * Invalid inputs (no session, a context of 0 tokens, a rate <= 0, ...) stop the run with
     * the field's name and its allowed range.
     * \param input the group
     * \return the plan
     */
    HandoverPlan Plan(const HandoverPlanInput& input) const;

    /// \return the scheme's short name, e.g. "ctho", as written in result files
    virtual std::string GetSchemeName() const = 0;

  protected:
    /**
     * \brief The policy itself.
     * \param solver the group's ctHO problem, validated
     * \return the plan
     */
    virtual HandoverPlan DoPlan(const CtHoSolver& solver) const = 0;
};

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_SCHEDULER_H */
