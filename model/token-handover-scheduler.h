/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_TOKEN_HANDOVER_SCHEDULER_H
#define EDGE_LLM_TOKEN_HANDOVER_SCHEDULER_H

#include "ctho-family-scheduler.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief tHO: forward every session's tokens and re-prefill its whole context at the target, in one
 * batch for the group (L = C_max).
 */
class TokenHandoverScheduler : public CtHoFamilyScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TokenHandoverScheduler();
    ~TokenHandoverScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    CtHoValue ChoosePrefix(const CtHoSolver& solver) const override;
};

} // namespace ns3

#endif /* EDGE_LLM_TOKEN_HANDOVER_SCHEDULER_H */
