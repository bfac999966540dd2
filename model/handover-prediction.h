/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_PREDICTION_H
#define EDGE_LLM_HANDOVER_PREDICTION_H

#include "ns3/vector.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The A3-like rule a handover is predicted under: a neighbour whose RSRP exceeds the
 * serving cell's by more than the hysteresis, continuously for the time to trigger. The
 * defaults are those of ns-3's A3RsrpHandoverAlgorithm.
 */
struct HandoverA3Rule
{
    double hysteresisDb{3.0};     //!< H, dB, finite and >= 0
    double timeToTriggerS{0.256}; //!< TTT, s, finite and >= 0
};

/**
 * \ingroup edge-llm
 * \brief A predicted handover.
 */
struct HandoverPrediction
{
    bool found{false};       //!< whether a handover is predicted within the horizon
    uint16_t targetCell{0};  //!< the target's cell id (valid if found)
    double handoverTimeS{0}; //!< when the rule fires, s, on the input's clock (valid if found)
};

/// The most samples PredictByTrajectory takes per neighbour; a finer step is refused.
constexpr uint64_t MAX_TRAJECTORY_SAMPLES = 10'000'000;

/**
 * \ingroup edge-llm
 * \brief Inputs of the trajectory predictor.
 *
 * Every cell transmits the same power through the same log-distance path loss, so RSRP
 * differences are 10 n log10(d_serving / d_neighbour) dB.
 */
struct TrajectoryPredictionInput
{
    double nowS{0};                   //!< the time of the position, s, finite
    Vector position;                  //!< the UE's position at nowS, m
    Vector velocity;                  //!< the UE's velocity, m/s, held constant
    uint16_t servingCell{0};          //!< the serving cell's id; a key of cells
    std::map<uint16_t, Vector> cells; //!< every cell's id and position, m
    HandoverA3Rule rule;              //!< when a handover fires
    /// n, finite and > 0; 3.76 is the log-distance exponent of the module's LTE radio
    double pathLossExponent{3.76};
    double horizonS{10.0}; //!< how far ahead to extrapolate, s, finite and >= 0
    /// The sampling step that brackets the crossings, s, finite and > 0, at most
    /// MAX_TRAJECTORY_SAMPLES per horizon. The condition holds on one interval at most (see
    /// PredictByTrajectory), so only an interval shorter than the step can fall between two
    /// samples, and that cannot change the prediction while sampleStepS <= TTT.
    double sampleStepS{0.05};
};

/**
 * \ingroup edge-llm
 * \brief Predict the next handover by extrapolating the UE's position at constant velocity.
 *
 * For each neighbour, the A3 condition at time t, 10 n log10(d_s(t) / d_n(t)) > H, is
 * d_s(t)^2 - k d_n(t)^2 > 0 with k = 10^(H / (5 n)) >= 1: both squared distances are
 * quadratics in t with the same leading coefficient |v|^2, so the difference is concave, and
 * the condition holds on one interval at most. Its start is bracketed by sampling at
 * sampleStepS over [nowS, nowS + horizonS] and refined by Boost.Math's TOMS 748 solver. The
 * handover fires TTT after the start if the condition still holds then and that is within the
 * horizon. A condition already holding at nowS started where the path extrapolated backwards
 * left it, up to horizonS before nowS (refined as the forward start is), and the handover is
 * predicted TTT after that start: before nowS if it is overdue (HandoverPredictor makes such a
 * time now, after its Lag, so that a calibrated lag keeps its reference). A UE standing still,
 * or one inside for the whole horizon back, is taken to start at nowS.
 *
 * The target is the neighbour that fires first; of neighbours firing at the same time, the
 * lowest id. The function is deterministic: a caller modelling position errors adds its noise
 * to the position before the call.
 *
 * \param input the UE and the cells; validated here (throws std::invalid_argument naming the
 *        field and its allowed range)
 * \return the handover, or found = false when none fires within the horizon
 */
HandoverPrediction PredictByTrajectory(const TrajectoryPredictionInput& input);

/**
 * \ingroup edge-llm
 * \brief One measurement of a UE: its serving cell's RSRP and its neighbours'.
 */
struct MeasurementSample
{
    double timeS{0};                             //!< when it was measured, s, finite
    double servingRsrpDbm{0};                    //!< the serving cell's RSRP, dBm, finite
    std::map<uint16_t, double> neighbourRsrpDbm; //!< neighbour id to RSRP, dBm, finite
};

/**
 * \ingroup edge-llm
 * \brief Inputs of the measurement predictor.
 *
 * The predictor keeps nothing between calls: the caller keeps the recent samples (those of
 * the last windowS suffice, the older ones are ignored), so its memory is what it keeps.
 */
struct MeasurementPredictionInput
{
    std::vector<MeasurementSample> samples; //!< in increasing time order; may be empty
    HandoverA3Rule rule;                    //!< when a handover fires
    /// The fit's window, s, finite and > 0: the samples at or after the newest one's time
    /// minus windowS
    double windowS{1.0};
    /// The fewest samples in the window that carry a neighbour for its trend to count, >= 2
    std::size_t minSamples{3};
    /// How far past the newest sample a handover may be predicted, s, finite and >= 0
    double horizonS{10.0};
};

/**
 * \ingroup edge-llm
 * \brief Predict the next handover from the trend of the RSRP differences.
 *
 * For each neighbour, a least-squares line is fitted to its RSRP minus the serving cell's,
 * over the window's samples that carry it. A line rising towards H crosses it at t_c, and
 * the handover is predicted at t_c + TTT; one that does not rise predicts none, even if it is
 * above H now, since the trend then says the condition is fading, not building. A crossing
 * the line puts in the past still counts from t_c, as the TTT timer would, and a handover
 * that would then be overdue is predicted at the newest sample's time. The target is the
 * neighbour predicted first; of equal times, the lowest id.
 *
 * \param input the samples and the rule; validated here (throws std::invalid_argument naming
 *        the field and its allowed range)
 * \return the handover, or found = false when no neighbour's trend crosses H within the
 *         horizon
 */
HandoverPrediction PredictByMeasurements(const MeasurementPredictionInput& input);

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_PREDICTION_H */
