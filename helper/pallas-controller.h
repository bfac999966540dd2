/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_PALLAS_CONTROLLER_H
#define EDGE_LLM_PALLAS_CONTROLLER_H

#include "ns3/control-channel.h"
#include "ns3/edge-llm-server.h"
#include "ns3/handover-coordinator.h"
#include "ns3/handover-predictor.h"
#include "ns3/object.h"
#include "ns3/pallas-scheduler.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <memory>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Connects a HandoverPredictor to the HandoverCoordinator: it relays each prediction to
 * the coordinator's scheduler, whose hooks decide, and carries out their decisions.
 *
 * The controller lives outside the scheduler (which holds no simulator object) and outside
 * the coordinator (which holds no scheme): it listens to the predictor's Prediction trace,
 * so that it runs on the predictor's own periodic driver (HandoverPredictor::Start, every
 * ControlPeriod) or on any direct Predict() call. For each prediction of a UE in its serving
 * cell it
 * 1. samples telemetry, if the scheduler is a PallasScheduler, for its window loop
 *    (PallasScheduler::Observe): the session's context at its serving cell's engine, its
 *    decode rate measured between two predictions (tokens generated / time), the predicted
 *    target's prefill rate and its queue, and the backhaul's KV rate. With MeasuredTelemetry
 *    (the default) the prefill rate is the tokens per second of the target engine's latest
 *    prefill iteration (LlmEngine's IterationStarted), its compute model's C / p(C) until it
 *    has run one; the queue T_load is the rest of its current iteration plus its queued
 *    prefill tokens (LlmEngine::GetQueuedPrefillTokens) at that rate; the backhaul rate is the
 *    goodput the target's receiver last timed on a migration's transfer from the serving cell
 *    (HandoverCoordinator::GetMeasuredTokensPerSecond), the planned rate
 *    (GetPlannedTokensPerSecond) until there is one. Without, C / p(C), the iteration's end
 *    alone and the planned rate. Under Mixed iterations with the coordinator's
 *    EngineForecast, T_load is the engine's replay's (LlmEngine::ForecastPrefills) either way;
 * 2. fills a HandoverPredictionView: the predicted target and time (clamped to now), the
 *    predictor's ControlPeriod, the migration prepared, and the prefix prefills
 *    (PallasScheduler::SplitPoint) of the other UEs predicted, and not yet prepared, to hand
 *    over to the same target no later;
 * 3. asks HandoverScheduler::ShouldCancel when the UE has a prepared migration (true:
 *    CancelPrepared), then, for a handover to another target than the prepared one,
 *    HandoverScheduler::ShouldPrepare (true: PrepareHandover, which also moves a migration
 *    prepared for another target to the new one; the coordinator cancels the old one by
 *    epoch).
 *
 * With the control plane on the network (SetControlChannels), the target's load is not read
 * from its engine: every cell reports its engine's load to each neighbour it has a control
 * connection to, every ControlPeriod (a LOAD message: its queued prefill tokens, the time to
 * its current iteration's end, its latest prefill rate), and a sample reads the last report
 * that reached the serving cell from the target, its iteration's end counted from when it was
 * sent. Before the first report the target counts as idle, at its compute model's rate. The
 * engine's replay of Mixed iterations is not used then, and the backhaul rate is still read
 * from the coordinator.
 *
 * Predictions keep coming after a prepare: one to the same target only updates the expected
 * time. The handover itself (to the prepared target: commit; elsewhere: cancel, then a
 * reactive plan) is the coordinator's business.
 */
class PallasController : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PallasController();
    ~PallasController() override;

    /**
     * \brief Drive this coordinator; its scheduler's hooks decide.
     * \param coordinator the coordinator
     */
    void SetCoordinator(Ptr<HandoverCoordinator> coordinator);

    /**
     * \brief Read telemetry from these servers, by their cell ids.
     * \param servers every cell's server
     */
    void SetServers(const std::map<uint16_t, Ptr<EdgeLlmServer>>& servers);

    /**
     * \brief Report each cell's load over these control channels (ControlPlane network), and
     * read the target's from the reports. Call before Install; an empty map (ideal) changes
     * nothing.
     * \param channels the cells' channels, by cell (EdgeLlmHelper::GetControlChannels)
     */
    void SetControlChannels(const std::map<uint16_t, Ptr<ControlChannel>>& channels);

    /**
     * \brief Listen to a predictor's Prediction trace. Call after SetCoordinator.
     * \param predictor the predictor (its observer set)
     */
    void Install(Ptr<HandoverPredictor> predictor);

    /// \return PrepareHandover calls that prepared a migration (ControlPlane network: that
    ///         asked for one, which its answer may still refuse)
    uint64_t GetPrepares() const;
    /// \return prepared migrations the controller cancelled (prediction withdrawn or moved)
    uint64_t GetCancels() const;
    /// \return telemetry samples whose prefill rate was the target's observed iterations'
    uint64_t GetMeasuredPrefillSamples() const;
    /// \return telemetry samples whose prefill rate was the compute model's (none observed
    ///         yet at the target, or MeasuredTelemetry false)
    uint64_t GetModelledPrefillSamples() const;
    /// \return telemetry samples whose T_load was the target engine's replay of its Mixed
    ///         iterations (LlmEngine::ForecastPrefills)
    uint64_t GetForecastLoadSamples() const;
    /// \return telemetry samples whose backhaul rate the target's receiver measured
    uint64_t GetMeasuredBackhaulSamples() const;
    /// \return telemetry samples whose backhaul rate was the planned one (none measured yet
    ///         on that path, or MeasuredTelemetry false)
    uint64_t GetPlannedBackhaulSamples() const;
    /// \return LOAD messages sent (SetControlChannels)
    uint64_t GetLoadsSent() const;
    /// \return LOAD messages that arrived
    uint64_t GetLoadsReceived() const;
    /// \return telemetry samples whose target load was a LOAD report's
    uint64_t GetReportedLoadSamples() const;

    /**
     * TracedCallback signature of Sampled.
     * \param imsi the UE \param serving its serving cell \param target the predicted target
     * \param loadS T_load, s \param prefillTokensPerSecond the target's prefill rate
     */
    typedef void (*SampledTracedCallback)(uint64_t imsi,
                                          uint16_t serving,
                                          uint16_t target,
                                          double loadS,
                                          double prefillTokensPerSecond);

    /**
     * \brief Handle one prediction (what the trace calls).
     * \param imsi the UE
     * \param servingCellId its serving cell
     * \param prediction the prediction
     */
    void OnPrediction(uint64_t imsi, uint16_t servingCellId, const HandoverPrediction& prediction);

  protected:
    /// Drops the coordinator, the scheduler and the servers.
    void DoDispose() override;

  private:
    /// Sample telemetry for a prediction.
    void Sample(uint64_t imsi, uint16_t serving, uint16_t target);

    /// A cell's load as its LOAD reported it.
    struct LoadReport
    {
        Time sentAt;                //!< when the cell sent it
        Time busy;                  //!< from then to its engine's iteration's end
        uint64_t queuedTokens{0};   //!< prefill tokens queued there
        double prefillPerSecond{0}; //!< its latest prefill rate, tokens/s (0: none yet)
    };

    /// Every cell reports its load to its neighbours; again one ControlPeriod later.
    void SendLoads();
    /// A LOAD arrived. \param at the cell it reached \param m the message
    void LoadArrived(uint16_t at, const ControlMessage& m);
    /**
     * \brief The target's load and measured prefill rate from the last LOAD that reached the
     * serving cell.
     * \param serving where the sample is taken \param target the predicted target
     * \param [in,out] t the sample, with the compute model's prefill rate
     */
    void SampleReportedLoad(uint16_t serving, uint16_t target, PallasTelemetry& t);

    /**
     * \param imsi a UE
     * \param target its predicted target
     * \param atS its predicted time, s
     * \return the prefill time of the other UEs predicted, not yet prepared, to hand over to
     *         the same target no later: they queue there ahead of it, s
     */
    double QueuedAhead(uint64_t imsi, uint16_t target, double atS) const;

    /// One UE's decode progress at the last prediction.
    struct Progress
    {
        double atS{-1};        //!< when, s
        uint64_t generated{0}; //!< tokens generated by then
        uint16_t cell{0};      //!< where
    };

    Ptr<HandoverCoordinator> m_coordinator;           //!< what it drives
    Ptr<HandoverScheduler> m_scheduler;               //!< the coordinator's scheduler
    Ptr<PallasScheduler> m_pallas;                    //!< the same, if Pallas; or null
    std::map<uint16_t, Ptr<EdgeLlmServer>> m_servers; //!< by cell
    std::map<uint64_t, uint16_t> m_prepared;          //!< per UE: the target it prepared
    std::map<uint64_t, Progress> m_progress;          //!< per UE

    /// One UE's latest predicted handover, while it is not yet prepared.
    struct Predicted
    {
        uint16_t target{0}; //!< predicted target
        double atS{0};      //!< predicted time, s
        double prefillS{0}; //!< its prefix prefill at the target, s
    };

    std::map<uint64_t, Predicted> m_predicted; //!< per UE not yet prepared
    uint64_t m_prepares{0};                    //!< prepares made
    uint64_t m_cancels{0};                     //!< cancels made
    Time m_period{0};                          //!< the predictor's ControlPeriod
    bool m_measured{true};                     //!< MeasuredTelemetry
    /// per cell: tokens per second of its engine's latest prefill iteration
    std::map<uint16_t, double> m_observedPrefill;
    uint64_t m_measuredPrefill{0};  //!< samples with an observed prefill rate
    uint64_t m_modelledPrefill{0};  //!< samples with the compute model's
    uint64_t m_forecastLoads{0};    //!< samples whose T_load the engine's replay gave
    uint64_t m_measuredBackhaul{0}; //!< samples with a measured backhaul goodput
    uint64_t m_plannedBackhaul{0};  //!< samples with the planned rate
    std::map<uint16_t, Ptr<ControlChannel>> m_channels; //!< the cells', ControlPlane network
    /// per (cell reached, reporting cell): the last LOAD
    std::map<std::pair<uint16_t, uint16_t>, LoadReport> m_loads;
    EventId m_loadEvent;         //!< the next SendLoads
    uint64_t m_loadsSent{0};     //!< LOADs sent
    uint64_t m_loadsReceived{0}; //!< LOADs arrived
    uint64_t m_reportedLoads{0}; //!< samples from a LOAD
    /// Sampled: each prediction's telemetry of its target
    TracedCallback<uint64_t, uint16_t, uint16_t, double, double> m_sampledTrace;
    /// false once disposed: the engines' trace callbacks hold it, not the controller
    std::shared_ptr<bool> m_alive{std::make_shared<bool>(true)};
};

} // namespace ns3

#endif /* EDGE_LLM_PALLAS_CONTROLLER_H */
