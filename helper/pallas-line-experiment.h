/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_PALLAS_LINE_EXPERIMENT_H
#define EDGE_LLM_PALLAS_LINE_EXPERIMENT_H

#include "edge-llm-network.h"
#include "edge-llm-results.h"
#include "ue-trajectory.h"

#include "ns3/data-rate.h"
#include "ns3/handover-record.h"
#include "ns3/kv-transfer-receiver.h"
#include "ns3/kv-transfer-sender.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class BackhaulTopology;
class CellLayout;
class PallasController;

/**
 * \ingroup edge-llm
 * \brief The single-handover line of the Pallas study: what one run is made of.
 *
 * Cells stand on a line, Spacing apart, one backhaul link of LinkRate per neighbour pair.
 * ues UEs drive at speed along the line, from the cell of layout index fromCell towards the
 * next one; the first crosses the midpoint at crossing, each next one ueGapM behind (the
 * "planned" trigger requests each handover at its crossing: K handovers to one target).
 * Each session (promptTokens of prompt, or a draw up to promptMaxTokens) opens at 0.2 s and
 * generates as many tokens as it decodes until the crossing plus tokensAfter;
 * residentsPerCell UEs decode at every cell meanwhile. Every engine runs computePreset;
 * every session's KV cache is kvProfile's (bf16).
 */
struct PallasLineConfig
{
    uint32_t cells{2};                      //!< cells of the line, [2, 8]
    uint32_t fromCell{0};                   //!< layout index of the UE's first cell
    double spacingM{200};                   //!< distance between cells, m, [50, 5000]
    double speedMps{20};                    //!< the UE's speed, m/s, (0, 100]
    Time crossing{Seconds(3)};              //!< when it crosses into the next cell, >= 1.5 s
    DataRate linkRate{DataRate("300Mbps")}; //!< each inter-cell link's rate, > 0
    /// Each inter-cell link's one-way delay, [0, 1 s]: the transport network's per hop, which
    /// Detour's relayed tokens and every KV transfer cross
    Time linkDelay{MicroSeconds(50)};
    /// Where the inter-cell traffic goes: x2, a point-to-point link per neighbour pair (the
    /// X2 path through the transport network); or core, a star (StarBackhaulTopology) whose
    /// every path goes up a cell's access link, over the core link from the aggregation to
    /// the core router and down the other cell's access link. Under core, linkRate,
    /// linkRateStdMbps and linkDelay are each access link's (rates drawn per cell), so a
    /// relay hop or a transfer crosses two of them and the core link
    std::string backhaul{"x2"};
    /// core: the core link's one-way delay, [0, 1 s]
    Time coreDelay{MicroSeconds(20)};
    /// core: the core link's rate, which every inter-cell path shares, > 0
    DataRate coreRate{DataRate("10Gbps")};
    std::string computePreset{"qwen3-32b-awq-a6000"}; //!< LlmComputeModel preset
    std::string kvProfile{"Qwen3-32B"};               //!< KvCacheProfile preset
    uint32_t promptTokens{512};                       //!< prompt, tokens, [16, 32768]
    /// If above promptTokens, the prompt is drawn uniformly from [promptTokens, this] per
    /// RngRun (stream PROMPT_STREAM); 0 keeps promptTokens
    uint32_t promptMaxTokens{0};
    uint32_t tokensAfter{40}; //!< tokens after the crossing, >= 1
    /// Handover predictor: oracle (told the handovers: the planned ones, or under a3 those of
    /// PallasLineInputs::knownHandovers), wrong (told each planned one with another neighbour
    /// of the source as its target), trajectory (TrajectoryHandoverPredictor) or none
    std::string predictor{"oracle"};
    /// How handovers happen: planned (each requested at its crossing, as the oracle is told)
    /// or a3 (the RAN's A3 rule, from measurements; wrong then does not apply)
    std::string trigger{"planned"};
    /// The predictor's Lag: added to each predicted time, [-10 s, 10 s]
    Time predictorLag{0};
    /// The trajectory predictor's PositionNoise, m, [0, 100000]
    double positionNoiseM{0};
    /// The trajectory predictor's SpeedNoise, m/s, [0, 1000]
    double speedNoiseMps{0};
    /// The trajectory predictor's HeadingNoise, degrees, [0, 180]
    double headingNoiseDeg{0};
    /// The coordinator's OpenTransferStep: tokens the prepared migration streams at a time,
    /// [1, 16]; 16 leaves the last partial block for the seal
    uint32_t streamStepTokens{1};
    Time horizon{Seconds(5)};              //!< the predictor's Horizon
    Time controlPeriod{MilliSeconds(100)}; //!< the predictor's and Pallas's ControlPeriod
    Time windowLimit{MilliSeconds(1500)};  //!< Pallas's WindowLimit
    Time windowMargin{0};                  //!< Pallas's WindowMargin
    uint32_t ues{1};                       //!< moving UEs, [1, 16]
    double ueGapM{2};             //!< each moving UE this far behind the one before, m, [0, 100]
    uint32_t residentsPerCell{0}; //!< resident UEs decoding at each cell
    std::string iterationMode{"Mixed"}; //!< LlmEngine IterationMode: Separate or Mixed
    Time maxSimTime{Seconds(40)};       //!< the run stops then at the latest
    /// 0: the line; else a gridSide x gridSide grid of cells spacingM apart, the ues UEs on
    /// random routes (GridRandomRoute at speedMps, from random cells) until gridRoute, each
    /// session decoding until then, handovers at every crossing (the line's cells, fromCell,
    /// crossing and ueGapM do not apply)
    uint32_t gridSide{0};
    Time gridRoute{Seconds(20)}; //!< grid: when the routes end, >= 2 s, before maxSimTime
    /// grid: GridRandomRoute's SpeedSpread, [0, 0.9]: each route at speedMps x (1 + u), u
    /// uniform in [-this, this]; 0 moves every UE at speedMps
    double routeSpeedSpread{0};
    /// grid: GridRandomRoute's DepartureSpread, legs, [0, 100]: each UE leaves its first cell
    /// up to this many legs after 0 s; 0 starts every UE at once (their crossings coincide)
    double routeDepartureSpread{0};
    /// If > 0, each link's rate is drawn from N(linkRate, linkRateStdMbps^2) Mb/s (stream
    /// LINK_STREAM), drawn again below linkRateMinMbps
    double linkRateStdMbps{0};
    double linkRateMinMbps{0}; //!< the truncation of the drawn rates, Mb/s
    std::string ran{"lte"};    //!< the RAN: lte, or nr (with 5G-LENA's nr module)
    bool showProgress{false};  //!< print the run's progress on stderr

    /**
     * \brief Check the settings without stopping the program.
     * \return an empty string, or the first invalid field, named with its allowed range
     */
    std::string Check() const;
};

/**
 * \ingroup edge-llm
 * \brief A handover of a moving UE, as the RAN started it.
 */
struct PallasKnownHandover
{
    uint32_t ue{0};     //!< the moving UE's index, in the order of the configuration
    uint16_t source{0}; //!< the cell it left
    uint16_t target{0}; //!< the cell it went to
    Time at;            //!< when the target admitted it (the RAN's HandoverStarted)
};

/**
 * \ingroup edge-llm
 * \brief The inputs of a run drawn once, from the RngRun's own streams, and shared by every
 * scheme of a comparison.
 */
struct PallasLineInputs
{
    uint32_t promptTokens{0}; //!< every moving UE's prompt, tokens
    /// Per neighbour pair of the layout (x2), or per cell (core: its access links), in the
    /// layout's order, the link's rate; empty: every link at linkRate (linkRateStdMbps = 0)
    std::vector<DataRate> linkRates;
    /// Per moving UE on a grid, its route; empty on the line
    std::vector<std::vector<UeWaypoint>> routes;
    /// Under the a3 trigger, the handovers the oracle is told: those of an earlier run of this
    /// draw (PallasLineRun::handovers), which the RAN repeats since no scheme moves a UE or
    /// changes what it measures; unset: not known (set and empty: no handover)
    std::optional<std::vector<PallasKnownHandover>> knownHandovers;
};

/**
 * \ingroup edge-llm
 * \brief What one run of a PallasLineExperiment gave.
 */
struct PallasLineRun
{
    std::string scheme;                  //!< the scheme
    uint32_t promptTokens{0};            //!< the prompt it ran with, tokens
    EdgeLlmRunResults results;           //!< records and sessions, as the writers take them
    std::vector<HandoverRecord> records; //!< the coordinator's records
    /// The first moving UE's handover with a session: its SIT, s (NaN if not measured)
    double sitS{0};
    std::vector<double> allSitsS; //!< every measured SIT of the moving UEs, s, record order
    std::vector<double> sitsS;    //!< each moving UE's SIT, s (NaN if not measured)
    std::vector<double> itlS;     //!< the moving UEs' inter-token latencies, s
    /// Of the moving UEs whose every handover was relayed (Detour), each token's delivery
    /// minus its generation, s, by the links of the relay path when it was generated (0
    /// before the first handover; HandoverRecord::relayHops after each); resent copies aside
    std::map<uint32_t, std::vector<double>> relayedLatencyByHopsS;
    uint32_t tokensExpected{0};      //!< tokens their sessions asked for, in all
    uint32_t tokensDelivered{0};     //!< distinct token indices delivered to their applications
    uint32_t tokensRepeated{0};      //!< deliveries of an index delivered before
    bool exactlyOnce{false};         //!< each UE: indices 0 .. its tokens - 1, each once, in order
    KvTransferSenderCounters kvSent; //!< their KV, summed over the senders
    KvTransferReceiverCounters kvReceived; //!< their KV, summed over the receivers
    uint64_t prepares{0};                  //!< the controller's prepares (pallas only)
    uint64_t controllerCancels{0};         //!< the controller's cancels (pallas only)
    uint64_t prefillMeasured{0};  //!< the controller's samples with an observed prefill rate
    uint64_t prefillModelled{0};  //!< its samples with the compute model's prefill rate
    uint64_t loadForecast{0};     //!< its samples whose T_load the engine's replay gave
    uint64_t backhaulMeasured{0}; //!< its samples with the receiver's measured goodput
    uint64_t backhaulPlanned{0};  //!< its samples with the link's planned rate
    uint64_t loadReported{0};     //!< its samples whose target load a LOAD report gave
    uint64_t loadsSent{0};        //!< the cells' LOAD reports sent (ControlPlane network)
    /// the goodput the first handover's target last measured from its source, KV tokens/s
    /// (HandoverCoordinator::GetMeasuredTokensPerSecond; 0 if none)
    double measuredKvTokensPerSecond{0};
    /// the rate the coordinator plans that path with, KV tokens/s
    double plannedKvTokensPerSecond{0};
    uint64_t admissionRefusals{0};  //!< Pallas's refusals for memory
    double windowS{0};              //!< Pallas's window at the end, s
    uint64_t windowChoices{0};      //!< Pallas's window choices
    uint64_t handoversScored{0};    //!< the prediction meter's handovers
    uint64_t handoversPredicted{0}; //!< of those, predicted
    double targetAccuracy{0};       //!< the meter's target accuracy, [0, 1]
    double absTimeErrorP50S{0};     //!< the meter's median |time error|, s; NaN if none
    /// the meter's time errors, predicted minus real, s, one per predicted handover
    std::vector<double> timeErrorsS;
    /// the moving UEs' handovers as the RAN started them, in time order
    std::vector<PallasKnownHandover> handovers;
};

/**
 * \ingroup edge-llm
 * \brief What PallasLineExperiment::CalibrateLag found.
 */
struct PallasLagCalibration
{
    Time lag;              //!< the predictor's Lag to use
    double residualS{0};   //!< the median time error with it on the calibration draws, s
    uint32_t rounds{0};    //!< rounds of runs it took
    uint32_t handovers{0}; //!< handovers scored in its last round
    bool converged{false}; //!< |residualS| <= the tolerance
};

/**
 * \ingroup edge-llm
 * \brief Runs the single-handover line for any scheme; pallas gets a PallasController fed
 * by the configured predictor. The predictor (and its HandoverPredictionMeter) runs for every
 * scheme, so that its accuracy is reported alike.
 */
class PallasLineExperiment
{
  public:
    /// The random stream of the prompt draw.
    static constexpr int64_t PROMPT_STREAM = 7;
    /// The random stream of the link-rate draws.
    static constexpr int64_t LINK_STREAM = 8;
    /// The random streams of the grid's routes (and the next, of their start cells).
    static constexpr int64_t ROUTE_STREAM = 10;

    /// \param config the run; checked (stops with Check()'s message)
    explicit PallasLineExperiment(const PallasLineConfig& config);

    /// \return the settings
    const PallasLineConfig& GetConfig() const;

    /**
     * \brief Draw the prompt (stream PROMPT_STREAM), the links' rates (LINK_STREAM) and the
     * grid's routes (ROUTE_STREAM on), from the RngRun set now.
     * \return the draw
     */
    PallasLineInputs Draw() const;

    /// Called once the network, its predictor and its controller are built, before the
    /// simulation runs: to watch it.
    using Hook = std::function<void(Ptr<EdgeLlmNetwork> network)>;
    /// Called with the PallasController (pallas only) once it is built, before the run.
    using ControllerHook = std::function<void(Ptr<PallasController> controller)>;

    /**
     * \brief Run one scheme on the inputs. Leaves the simulator destroyed.
     * \param scheme a registered scheme name
     * \param inputs from Draw(); inputs of another configuration stop the run
     * \param hook what to connect before the run, if anything
     * \param controllerHook what to connect to the controller, if anything
     * \return what it gave
     */
    PallasLineRun Run(const std::string& scheme,
                      const PallasLineInputs& inputs,
                      const Hook& hook = {},
                      const ControllerHook& controllerHook = {}) const;

    /**
     * \brief Train the predictor's Lag on draws of their own: what lies between the
     * predictor's estimate and the RAN's trigger (the UE's L3 filtering, its measurement
     * period, the report's way to the cell) and the predictor does not model.
     *
     * Each round runs scheme on RngRuns firstRun to firstRun + runs - 1 with the current lag
     * (predictorLag first) and moves the lag by minus the median (nearest rank) of the
     * HandoverPredictionMeter's time errors, predicted minus real, over every handover scored,
     * until that median is within tolerance or after maxRounds. An early prediction that the
     * meter scores is already due, so its error shows smaller than it is; the next round
     * corrects the rest. The predictor's noise is off while it trains (the lag corrects the
     * model's bias; the noise is zero-mean, and would keep a median of few draws from
     * settling). The RngRun is left at firstRun + runs - 1; the caller sets its own.
     * \param firstRun the first calibration RngRun; pick runs the study does not use
     * \param runs how many, [1, 100]
     * \param scheme the scheme the calibration runs (the prediction does not depend on it)
     * \param tolerance the largest |median error| accepted, > 0
     * \param maxRounds rounds at most, [1, 20]
     * \return the lag, its residual and how it got there
     */
    PallasLagCalibration CalibrateLag(uint64_t firstRun,
                                      uint32_t runs,
                                      const std::string& scheme,
                                      Time tolerance = MilliSeconds(1),
                                      uint32_t maxRounds = 8) const;

  private:
    /// \return the cells' layout: the line, or the grid
    Ptr<CellLayout> MakeLayout() const;

    /**
     * \param layout the run's layout
     * \return the links whose rates are drawn: one per neighbour pair (x2), per cell (core)
     */
    std::size_t LinkCount(const CellLayout& layout) const;

    /**
     * \param inputs the draw, with its link rates
     * \return the backhaul the config names, with the draw's rates
     */
    Ptr<BackhaulTopology> MakeBackhaul(const PallasLineInputs& inputs) const;

    PallasLineConfig m_config; //!< the run
};

} // namespace ns3

#endif /* EDGE_LLM_PALLAS_LINE_EXPERIMENT_H */
