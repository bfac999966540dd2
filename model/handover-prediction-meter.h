/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_PREDICTION_METER_H
#define EDGE_LLM_HANDOVER_PREDICTION_METER_H

#include "handover-prediction.h"
#include "handover-predictor.h"
#include "ran-observer.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Scores handover predictions against the handovers that really happen.
 *
 * The meter records every prediction made for a UE (RecordPrediction, or a predictor's
 * Prediction trace through Install) and, when the RAN reports the UE's real handover
 * (RecordHandover, or the observer's HandoverStarted through Install), scores the latest
 * prediction made at least MinLead before it while the UE was served by the handover's
 * source cell:
 * - none such, or one that predicted no handover: the handover is *unpredicted*;
 * - otherwise it is *predicted*; its target is correct or not, and its time error,
 *   predicted time minus real time (s; negative: predicted early), is one sample.
 *
 * Target accuracy is correct targets / handovers, unpredicted ones counting as wrong. A time
 * error is kept for every predicted handover, whether its target was right or not (the
 * prediction's time is that of a handover out of the same cell either way). Percentiles of
 * |error| are exact nearest-rank ones.
 *
 * Memory: per UE, the predictions of the last MinLead and the one before them, and one time
 * error per handover; nothing per token or per KV entry. A prediction made in another serving
 * cell than the UE's previous one drops those (they are about a handover that is past).
 * Predictions of handovers that never come (false alarms) are not counted.
 */
class HandoverPredictionMeter : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    HandoverPredictionMeter();
    ~HandoverPredictionMeter() override;

    /**
     * \brief Score this predictor's predictions against its observer's handovers: connect
     * to its Prediction trace and to the observer's HandoverStarted. The meter must then live
     * as long as both can fire (the connections hold a plain pointer to it).
     * \param predictor a predictor whose observer is set
     */
    void Install(Ptr<HandoverPredictor> predictor);

    /**
     * \brief Record a prediction made now.
     * \param imsi the UE
     * \param servingCellId its serving cell now
     * \param prediction the prediction, handoverTimeS on the simulator's clock
     */
    void RecordPrediction(uint64_t imsi,
                          uint16_t servingCellId,
                          const HandoverPrediction& prediction);

    /**
     * \brief Score the UE's handover that starts now.
     * \param imsi the UE
     * \param sourceCellId the cell it leaves
     * \param targetCellId the cell it goes to
     */
    void RecordHandover(uint64_t imsi, uint16_t sourceCellId, uint16_t targetCellId);

    /// \return handovers scored
    uint64_t GetHandovers() const;
    /// \return handovers with a prediction (of some handover) made MinLead before
    uint64_t GetPredicted() const;
    /// \return handovers without one: GetHandovers() - GetPredicted()
    uint64_t GetUnpredicted() const;
    /// \return handovers whose target was predicted right
    uint64_t GetCorrectTargets() const;
    /// \return correct targets / handovers, in [0, 1]; 0 before any handover
    double GetTargetAccuracy() const;
    /// \return the time errors, predicted minus real, s, one per predicted handover in order
    const std::vector<double>& GetTimeErrors() const;

    /**
     * \param p the percentile, in (0, 100]
     * \return the nearest-rank p-th percentile of |time error|, s; the run stops if there is
     *         no time error yet or p is out of range
     */
    double GetAbsTimeErrorPercentile(double p) const;

    /**
     * TracedCallback signature of Scored.
     * \param [in] imsi the UE
     * \param [in] sourceCellId the cell it left
     * \param [in] targetCellId the real target
     * \param [in] prediction the prediction scored (found = false: unpredicted)
     * \param [in] madeAt when the prediction was made (-1 s if there was none)
     */
    typedef void (*ScoredTracedCallback)(uint64_t imsi,
                                         uint16_t sourceCellId,
                                         uint16_t targetCellId,
                                         const HandoverPrediction& prediction,
                                         Time madeAt);

  protected:
    /// Forgets the predictions still waiting for their handover.
    void DoDispose() override;

  private:
    /// A prediction recorded.
    struct Made
    {
        Time at;                       //!< when it was made
        HandoverPrediction prediction; //!< what it said
    };

    /// A UE's recent predictions, all made in one serving cell.
    struct Recent
    {
        uint16_t servingCellId{0}; //!< where they were made
        std::deque<Made> made;     //!< oldest first
    };

    Time m_minLead;                                //!< MinLead
    std::unordered_map<uint64_t, Recent> m_recent; //!< by IMSI
    uint64_t m_handovers{0};                       //!< scored
    uint64_t m_predicted{0};                       //!< with a prediction
    uint64_t m_correct{0};                         //!< with the right target
    std::vector<double> m_timeErrors;              //!< predicted - real, s
    /// The Scored trace source.
    TracedCallback<uint64_t, uint16_t, uint16_t, const HandoverPrediction&, Time> m_scoredTrace;
};

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_PREDICTION_METER_H */
