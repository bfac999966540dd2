/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_PREDICTOR_H
#define EDGE_LLM_HANDOVER_PREDICTOR_H

#include "handover-prediction.h"
#include "ran-observer.h"

#include "ns3/event-id.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "ns3/vector.h"

#include <cstdint>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Predicts each UE's next handover (target cell and time) from what the RAN shows.
 *
 * A predictor is given the RanObserver (SetObserver), which tells it each UE's serving cell
 * and, for predictors that use them, the UEs' measurement reports; the cells' positions
 * (SetCells), by cell id; and the UEs to predict for (AddUe: IMSI and node). Predict(imsi)
 * then gives the UE's next handover as the predictor sees it now, under the A3-like rule of
 * the attributes Hysteresis and TimeToTrigger, within Horizon; HandoverPrediction's
 * handoverTimeS is on the simulator's clock, in seconds.
 *
 * Subclasses implement DoPredict, and DoObserve if they subscribe to the observer's traces.
 * Any subclass is made by its TypeId name, so that a trace-driven or learned predictor can be
 * swapped in without touching its users:
 * \code
 *   ObjectFactory f("ns3::TrajectoryHandoverPredictor");
 *   f.Set("PositionNoise", DoubleValue(50));
 *   Ptr<HandoverPredictor> p = f.Create<HandoverPredictor>();
 * \endcode
 *
 * **The periodic driver.** Start() asks for every UE's prediction once every ControlPeriod,
 * from now on, until Stop(): each UE whose serving cell is known, in the order AddUe gave
 * them. Every prediction, the driver's or a direct Predict() call's, fires the Prediction
 * trace; that is where its users hook in: a HandoverPredictionMeter scores it against the
 * handover that really happens, and a scheduler prepares a migration for it (for example by
 * calling HandoverCoordinator::PrepareHandover when the target or the time changes).
 *
 * The predictor keeps nothing per token or per KV entry: the base keeps the UEs' nodes, a
 * subclass at most a bounded window of samples per UE.
 */
class HandoverPredictor : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    HandoverPredictor();
    ~HandoverPredictor() override;

    /**
     * \brief Observe the RAN through this observer; call once, before predicting.
     * \param observer the observer, installed on the cells (not null)
     */
    void SetObserver(Ptr<RanObserver> observer);
    /// \return the observer, or null before SetObserver
    Ptr<RanObserver> GetObserver() const;

    /**
     * \brief Where the cells stand.
     * \param cells every cell's id and position, m
     */
    void SetCells(const std::map<uint16_t, Vector>& cells);
    /// \return every cell's id and position, m
    const std::map<uint16_t, Vector>& GetCells() const;

    /**
     * \brief Predict for a UE from now on.
     * \param imsi the UE's IMSI, not added before
     * \param node its node; predictors that need its position (TrajectoryHandoverPredictor)
     *        require it to have a MobilityModel, others accept null
     */
    void AddUe(uint64_t imsi, Ptr<Node> node);
    /// \return the UEs added, in the order AddUe gave them
    const std::vector<uint64_t>& GetUes() const;

    /**
     * \brief The UE's next handover as the predictor sees it now; fires Prediction.
     * \param imsi a UE given to AddUe
     * \return the prediction; found = false (and no Prediction trace) while the UE's serving
     *         cell is unknown
     */
    HandoverPrediction Predict(uint64_t imsi);

    /**
     * \brief Start the periodic driver: Predict for every UE now, then every ControlPeriod.
     * A second Start restarts the period from now.
     */
    void Start();
    /// Stop the periodic driver.
    void Stop();
    /// \return whether the periodic driver runs
    bool IsRunning() const;

    /**
     * \brief Fix the random streams the predictor draws from.
     * \param stream the first stream number
     * \return the number of streams used (0 for a deterministic predictor)
     */
    virtual int64_t AssignStreams(int64_t stream);

    /// \return the rule of the attributes Hysteresis and TimeToTrigger
    HandoverA3Rule GetRule() const;
    /// \return the attribute Horizon
    Time GetHorizon() const;
    /// \return the attribute ControlPeriod
    Time GetControlPeriod() const;
    /// \return predictions made (Prediction traces fired)
    uint64_t GetPredictions() const;

    /**
     * TracedCallback signature of Prediction.
     * \param [in] imsi the UE
     * \param [in] servingCellId its serving cell when the prediction was made
     * \param [in] prediction the prediction; handoverTimeS on the simulator's clock, s
     */
    typedef void (*PredictionTracedCallback)(uint64_t imsi,
                                             uint16_t servingCellId,
                                             const HandoverPrediction& prediction);

  protected:
    /// Cancels the next prediction round and drops the RAN observer and the UEs' nodes.
    void DoDispose() override;

    /**
     * \param imsi a UE
     * \return whether it was given to AddUe
     */
    bool HasUe(uint64_t imsi) const;

    /**
     * \brief Predict the UE's next handover.
     * \param imsi the UE
     * \param node its node, as AddUe gave it (may be null)
     * \param servingCellId its serving cell, known (not 0)
     * \return the prediction, handoverTimeS on the simulator's clock
     */
    virtual HandoverPrediction DoPredict(uint64_t imsi, Ptr<Node> node, uint16_t servingCellId) = 0;

    /**
     * \brief The observer was given; a subclass connects to its traces here.
     * \param observer the observer
     */
    virtual void DoObserve(Ptr<RanObserver> observer);

    /**
     * \brief Check a UE given to AddUe; a subclass stops the run for a node it cannot use.
     * \param imsi the UE
     * \param node its node
     */
    virtual void DoAddUe(uint64_t imsi, Ptr<Node> node);

  private:
    /// One round of the periodic driver.
    void Tick();

    double m_hysteresisDb;                           //!< Hysteresis, dB
    Time m_timeToTrigger;                            //!< TimeToTrigger
    Time m_lag;                                      //!< Lag
    Time m_horizon;                                  //!< Horizon
    Time m_controlPeriod;                            //!< ControlPeriod
    Ptr<RanObserver> m_observer;                     //!< the RAN
    std::map<uint16_t, Vector> m_cells;              //!< cell positions, m
    std::vector<uint64_t> m_ues;                     //!< AddUe order
    std::unordered_map<uint64_t, Ptr<Node>> m_nodes; //!< UE nodes by IMSI
    EventId m_tick;                                  //!< the driver's next round
    uint64_t m_predictions{0};                       //!< Prediction traces fired
    /// The Prediction trace source.
    TracedCallback<uint64_t, uint16_t, const HandoverPrediction&> m_predictionTrace;
};

/**
 * \ingroup edge-llm
 * \brief Constant-velocity-and-heading extrapolation of the UE's position (Pallas's
 * predictor), through PredictByTrajectory, with optional measurement noise.
 *
 * The position and velocity are read from the UE node's MobilityModel at the time of the
 * prediction. Noise models a positioning error drawn independently for each prediction: the
 * position gets N(0, PositionNoise^2) on x and on y; the speed (in the x-y plane) gets
 * N(0, SpeedNoise^2), and the heading N(0, HeadingNoise^2). The four normal draws are made for
 * every prediction, whatever the noise levels, so that predictors with different levels and
 * the same stream see the same draws, scaled (common random numbers).
 *
 * Every cell is taken to transmit the same power through a log-distance path loss of
 * exponent PathLossExponent, so that RSRP differences follow from distances.
 */
class TrajectoryHandoverPredictor : public HandoverPredictor
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TrajectoryHandoverPredictor();
    ~TrajectoryHandoverPredictor() override;

    int64_t AssignStreams(int64_t stream) override;

  protected:
    /// Drops the normal variable of the prediction error; then as HandoverPredictor.
    void DoDispose() override;
    HandoverPrediction DoPredict(uint64_t imsi, Ptr<Node> node, uint16_t servingCellId) override;
    void DoAddUe(uint64_t imsi, Ptr<Node> node) override;

  private:
    double m_pathLossExponent;          //!< PathLossExponent
    Time m_sampleStep;                  //!< SampleStep
    double m_positionNoiseM;            //!< PositionNoise, m
    double m_speedNoiseMps;             //!< SpeedNoise, m/s
    double m_headingNoiseDeg;           //!< HeadingNoise, degrees
    Ptr<NormalRandomVariable> m_normal; //!< N(0, 1)
};

/**
 * \ingroup edge-llm
 * \brief The trend of the RSRP differences in the UE's recent measurement reports, through
 * PredictByMeasurements.
 *
 * Each MeasurementReport of the observer that carries the serving cell's RSRP becomes a
 * sample of its UE (the neighbours with an RSRP); two reports at the same instant (LTE sends
 * a serving-only and a with-neighbours report together) are merged into one sample. A UE keeps
 * the samples of the last Window behind its newest one, and at most MaxSamples; a report from
 * another serving cell than the kept samples' starts afresh. Predicting needs no node.
 *
 * The radio must send reports: for LTE, LteRanStack's MeasurementReportPeriod.
 */
class MeasurementHandoverPredictor : public HandoverPredictor
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    MeasurementHandoverPredictor();
    ~MeasurementHandoverPredictor() override;

    /**
     * \param imsi a UE
     * \return the samples it keeps, oldest first
     */
    std::vector<MeasurementSample> GetSamples(uint64_t imsi) const;

  protected:
    /// Forgets the UEs' measurement histories; then as HandoverPredictor.
    void DoDispose() override;
    HandoverPrediction DoPredict(uint64_t imsi, Ptr<Node> node, uint16_t servingCellId) override;
    void DoObserve(Ptr<RanObserver> observer) override;

  private:
    /**
     * \brief Keep a report as a sample of its UE.
     * \param report the report
     */
    void OnReport(const RanMeasurementReport& report);

    /// A UE's recent samples.
    struct History
    {
        uint16_t servingCellId{0};             //!< the cell the samples were reported to
        std::deque<MeasurementSample> samples; //!< oldest first
    };

    Time m_window;                                   //!< Window
    uint32_t m_minSamples;                           //!< MinSamples
    uint32_t m_maxSamples;                           //!< MaxSamples
    std::unordered_map<uint64_t, History> m_history; //!< by IMSI
};

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_PREDICTOR_H */
