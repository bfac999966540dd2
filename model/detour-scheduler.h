/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_DETOUR_SCHEDULER_H
#define EDGE_LLM_DETOUR_SCHEDULER_H

#include "handover-scheduler.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Detour: no migration. The source keeps the session and relays its tokens over the
 * backhaul, hop by hop, to the server of the cell that serves the UE, which injects them there (the
 * coordinator calls EdgeLlmServer::StartRelay).
 */
class DetourScheduler : public HandoverScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DetourScheduler();
    ~DetourScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    HandoverPlan DoPlan(const HandoverPlanInput& input) override;
};

} // namespace ns3

#endif /* EDGE_LLM_DETOUR_SCHEDULER_H */
