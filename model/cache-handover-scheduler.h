/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CACHE_HANDOVER_SCHEDULER_H
#define EDGE_LLM_CACHE_HANDOVER_SCHEDULER_H

#include "ctho-family-scheduler.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief cHO: send every session's whole KV cache over the backhaul, earliest deadline first (L =
 * 0).
 */
class CacheHandoverScheduler : public CtHoFamilyScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CacheHandoverScheduler();
    ~CacheHandoverScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    CtHoValue ChoosePrefix(const CtHoSolver& solver) const override;
};

} // namespace ns3

#endif /* EDGE_LLM_CACHE_HANDOVER_SCHEDULER_H */
