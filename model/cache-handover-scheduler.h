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
 *
 * It also implements the schemes "pallas-full-copy" (Pallas's Full-Copy baseline) and
 * "impact-full" (ImpactHO's full-cache ceiling), registry aliases that set SchemeName and,
 * for impact-full, RecordAccuracy: with it, each record also holds fraction_arrived (the KV
 * positions that arrived over those sent, 1 once resumed) and accuracy (A(y) of ImpactHO's
 * importance-order curve), so that ImpactHO's tables read it like their other schemes.
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
    void DoCompleteRecord(HandoverRecord& record) const override;

  private:
    bool m_recordAccuracy; //!< RecordAccuracy
};

} // namespace ns3

#endif /* EDGE_LLM_CACHE_HANDOVER_SCHEDULER_H */
