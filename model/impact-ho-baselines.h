/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_IMPACT_HO_BASELINES_H
#define EDGE_LLM_IMPACT_HO_BASELINES_H

#include "impact-ho-scheduler.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief ImpactHO's hybrid baseline: ctHO's split, first come first served, no importance.
 *
 * Each session is planned as ctHO plans it alone (CtHoFamilyScheduler::MakeCtHoView, the
 * optimal prefix L): the target re-prefills tokens [0, L) and receives the KV of [L, C) in
 * position order (TOKEN unit). Each slot, the sessions on a link take its capacity first come
 * first served: the earliest handover takes all it can use, the next what is left, and so on.
 * The target resumes Window after the handover (or once all arrived, Window 0) with its
 * prefix and the positions that arrived; the rest is abandoned.
 *
 * Accuracy: y = (L + positions arrived) / C. Positions carry no information on importance,
 * so a part of the cache is worth what a random part is: the random-order curve (the Order
 * attribute is not used); the whole cache has A(1) of the importance curve, as in every
 * scheme.
 */
class ImpactHybridScheduler : public ImpactSlotScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ImpactHybridScheduler();
    ~ImpactHybridScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    HandoverPlan DoPlan(const HandoverPlanInput& input) override;
    std::vector<double> Allocate(const std::vector<Member>& members,
                                 double capacityBps,
                                 double slotS) override;
};

/**
 * \ingroup edge-llm
 * \brief ImpactHO's re-prefill baseline: tHO cut at the window.
 *
 * The target re-prefills the longest prefix [0, L_w) whose prefill the plan expects to end
 * within Window of the handover (ctHO's D_pf(L) <= T_max, with the prefills queued there and
 * the target's prefill cycle); the KV of [L_w, C) is announced as a transfer that no slot
 * funds, so the window's end abandons it, and the ledger counts it under WINDOW_END. With
 * Window 0 the whole context is re-prefilled: that is tHO, under ImpactHO's accounting.
 * Accuracy: y = L_w / C on the random-order curve, as for the hybrid.
 *
 * It differs from tHO in two ways only: the prefix stops at the window, and the rest of the
 * context is counted as abandoned.
 */
class ImpactReprefillScheduler : public ImpactSlotScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ImpactReprefillScheduler();
    ~ImpactReprefillScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    HandoverPlan DoPlan(const HandoverPlanInput& input) override;
    std::vector<double> Allocate(const std::vector<Member>& members,
                                 double capacityBps,
                                 double slotS) override;
};

} // namespace ns3

#endif /* EDGE_LLM_IMPACT_HO_BASELINES_H */
