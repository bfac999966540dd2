/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CTHO_SCHEDULER_H
#define EDGE_LLM_CTHO_SCHEDULER_H

#include "ctho-family-scheduler.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief ctHO: batch-prefill a common prefix of L tokens at the target while the rest of every
 * session's KV cache is sent, with L chosen by CtHoSolver to minimise the worst session's delay.
 */
class CtHoScheduler : public CtHoFamilyScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CtHoScheduler();
    ~CtHoScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    CtHoValue ChoosePrefix(const CtHoSolver& solver) const override;
};

} // namespace ns3

#endif /* EDGE_LLM_CTHO_SCHEDULER_H */
