/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_SCHEDULED_HANDOVER_PREDICTOR_H
#define EDGE_LLM_SCHEDULED_HANDOVER_PREDICTOR_H

#include "handover-predictor.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief An oracle: predicts the handovers it is told (AddHandover), exactly.
 *
 * For a test or a scenario that knows its handovers in advance (EdgeLlmNetwork's "planned"
 * trigger, GetPlannedHandovers), it gives a perfect predictor with any lead time; told a
 * wrong target, it gives a wrong one. A UE's prediction is its first handover told whose
 * source is the UE's serving cell now, whose time is at most Horizon ahead and at most
 * Lateness behind now (a handover that comes a little after its time is still predicted);
 * there is none otherwise. It needs no node and draws no random number.
 */
class ScheduledHandoverPredictor : public HandoverPredictor
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ScheduledHandoverPredictor();
    ~ScheduledHandoverPredictor() override;

    /**
     * \brief Tell a handover to predict.
     * \param imsi the UE
     * \param sourceCell the cell it leaves (not 0)
     * \param targetCell the cell it is predicted to join (not 0, not sourceCell)
     * \param at when, on the simulator's clock (>= 0)
     */
    void AddHandover(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell, Time at);

  protected:
    HandoverPrediction DoPredict(uint64_t imsi, Ptr<Node> node, uint16_t servingCellId) override;

  private:
    /// One handover told.
    struct Entry
    {
        uint16_t source; //!< the cell it leaves
        uint16_t target; //!< the cell predicted
        Time at;         //!< when
    };

    Time m_lateness;                                //!< Lateness
    std::map<uint64_t, std::vector<Entry>> m_table; //!< per UE, by time
};

} // namespace ns3

#endif /* EDGE_LLM_SCHEDULED_HANDOVER_PREDICTOR_H */
