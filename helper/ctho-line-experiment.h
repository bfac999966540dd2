/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CTHO_LINE_EXPERIMENT_H
#define EDGE_LLM_CTHO_LINE_EXPERIMENT_H

#include "edge-llm-line-scenario.h"
#include "edge-llm-results.h"
#include "fault-config.h"

#include "ns3/ctho-solver.h"
#include "ns3/data-rate.h"
#include "ns3/handover-coordinator.h"
#include "ns3/kv-transfer-receiver.h"
#include "ns3/kv-transfer-sender.h"
#include "ns3/llm-compute-model.h"
#include "ns3/nstime.h"

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The settings of a run on the ctHO paper's line: two eNBs, K UEs driving across the
 * boundary, LLM sessions on the eNBs, KV caches moved over a point-to-point backhaul.
 *
 * Defaults are the paper's (Qwen2.5-7B at 16 bits, p(L) = a L + b, T_c = 10 ms, 20 m/s,
 * eNBs 300 m apart, R_bh = 4.5 Gb/s from its second study).
 */
struct CtHoLineConfig
{
    uint32_t numUes{4};                           //!< K, moving UEs, [1, 64]
    uint32_t minPrompt{1024};                     //!< smallest prompt, tokens
    uint32_t cMax{3072};                          //!< largest prompt, tokens (>= minPrompt)
    DataRate backhaulRate{DataRate("4.5Gbps")};   //!< the link's rate
    DataRate plannedBackhaulRate{DataRate(0)};    //!< what the scheduler is told; 0: same
    Time backhaulDelay{MicroSeconds(50)};         //!< one-way delay of the link
    double prefillA{9.4267e-5};                   //!< a, s/token
    double prefillB{2.4e-3};                      //!< b, s
    Time prefillCycle{MilliSeconds(10)};          //!< T_c
    double bsDistance{300};                       //!< D_bs, m
    double minStartX{120};                        //!< UEs start at U[minStartX, maxStartX]
    double maxStartX{130};                        //!< m
    double speed{20};                             //!< m/s
    Time moveStart{Seconds(2)};                   //!< when the UEs start moving
    std::string trigger{"boundary"};              //!< boundary, a3 or none
    std::string batching{"oracle"};               //!< oracle (needs boundary) or online
    std::string ran{"lte"};                       //!< the RAN: lte, or nr (with 5G-LENA)
    std::string kvProfile{"Qwen2.5-7B-Instruct"}; //!< a KvCacheProfile preset
    uint32_t kvBits{16};                          //!< bits per KV element
    uint32_t tokensAfter{1024};                   //!< tokens to decode after the handover
    uint32_t residentUes{0};                      //!< stationary sessions per eNB
    Time maxSimTime{Seconds(120)};                //!< the run stops here at the latest
    FaultConfig faults;                           //!< backhaul faults, GPU load, stall policy

    /**
     * \brief Check the settings without stopping the program.
     * \return an empty string, or the first problem, naming the flag:
     *         "--flag = value is invalid; allowed: ..."
     */
    std::string Check() const;

    /// Stop the run with Check()'s message if a setting is out of range or two clash.
    void Validate() const;

    /// \return every setting, by its flag's name, with its value as the flag takes it
    std::vector<std::pair<std::string, std::string>> ToParameters() const;
    /**
     * \return pairs of a flag and the attribute a run sets from it, for
     *         edgellm::CheckFlagAttributes: a default the user gave for one of these attributes
     *         would be overridden by the run
     */
    static std::vector<std::pair<std::string, std::string>> FlagAttributes();
};

/**
 * \ingroup edge-llm
 * \brief Scenario inputs drawn once and shared by every scheme of a comparison.
 */
struct CtHoLineInputs
{
    std::vector<double> startX;    //!< per moving UE, m
    std::vector<uint32_t> prompts; //!< per moving UE, tokens
    /**
     * Batches fixed in hindsight, each a list of (IMSI, expected handover time): when not
     * empty, the run batches its handovers by them (oracle batching, whatever the trigger),
     * as CtHoLineExperiment::MeasureRegret does with the clairvoyant partition of an online
     * run.
     */
    std::vector<std::vector<std::pair<uint64_t, Time>>> batches;

    /**
     * \param other another draw
     * \return true if both draws are the same
     */
    bool operator==(const CtHoLineInputs& other) const;
};

/**
 * \ingroup edge-llm
 * \brief What one moving UE's client saw.
 */
struct CtHoLineUe
{
    uint64_t imsi{0};                     //!< the UE
    uint32_t tokensToGenerate{0};         //!< tokens its session asked for
    uint64_t delivered{0};                //!< tokens delivered to the application
    uint64_t duplicates{0};               //!< copies the client discarded
    bool complete{false};                 //!< every token arrived
    std::vector<int64_t> deliveryNs;      //!< delivery time per token index
    std::map<uint32_t, double> sitByMark; //!< SIT, s, by the marked token's index
};

/**
 * \ingroup edge-llm
 * \brief Everything one scheme's run produced.
 */
struct CtHoLineRun
{
    std::string scheme;                   //!< ctho, tho, cho or detour
    CtHoLineInputs inputs;                //!< the inputs it ran on
    std::vector<HandoverRecord> records;  //!< every handover, in order
    std::vector<double> firstTokenAfterS; //!< per record: the target's first token, or NaN
    std::vector<double> sitS;             //!< per record: its SIT, or NaN
    std::vector<CtHoLineUe> ues;          //!< per moving UE
    KvTransferSenderCounters sent;        //!< KV bytes of the moving UEs, every sender
    KvTransferReceiverCounters received;  //!< KV bytes of the moving UEs, every receiver
    uint64_t streamBytesSent{0};          //!< every KV-transfer stream byte sent
    uint64_t streamBytesReceived{0};      //!< every KV-transfer stream byte read
    double plannedTokensPerSecond{0};     //!< R the scheduler was told
    double prefillCycleS{0};              //!< T_c, s
    LlmComputeModel compute{LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName())};
    //!< the engines' compute model
    Time endTime;       //!< when the run stopped
    FaultCounts faults; //!< what the faults did
    /// One row per handover and per session (residents included), for the CSV writers
    EdgeLlmRunResults results;
};

/**
 * \ingroup edge-llm
 * \brief A group's delays, measured and analytic.
 */
struct CtHoLineGroupSummary
{
    uint32_t group{0};       //!< the group
    std::size_t sessions{0}; //!< migrated sessions in it
    double worstDelayS{0};   //!< the largest ho_delay_s
    double meanDelayS{0};    //!< their mean
    CtHoValue analytic;      //!< V at the scheme's own L, from the measured C_i and tau_i
    double ratio{0};         //!< worstDelayS / analytic.worstDelay
};

/**
 * \ingroup edge-llm
 * \brief The clairvoyant reference of a run: the best worst-user delay of its migrated
 * handovers had every tau_i and C_i been known in advance.
 */
struct CtHoLineClairvoyant
{
    std::size_t sessions{0}; //!< migrated handovers
    std::size_t groups{0};   //!< batches of the best partition
    double worstDelayS{0};   //!< its worst-user delay, s; NaN without a migrated handover
    /// The batches of the best partition, by handover time: (IMSI, measured tau_i) each
    std::vector<std::vector<std::pair<uint64_t, Time>>> batches;
};

/**
 * \ingroup edge-llm
 * \brief An online run's regret, measured against measured: the same draw run again at
 * packet level with the clairvoyant partition of its handovers as oracle batches.
 *
 * The regret is what planning online costs; the model error is how far the packets are from
 * the model on the clairvoyant batches. Their product is the online run's worst delay over
 * the analytic clairvoyant optimum.
 */
struct CtHoLineRegret
{
    double onlineWorstS{0};          //!< the online run's worst measured delay, s
    double clairvoyantMeasuredS{0};  //!< the clairvoyant batches' worst measured delay, s
    double clairvoyantAnalyticS{0};  //!< the same batches' worst delay in the model, s
    double regret{0};                //!< onlineWorstS / clairvoyantMeasuredS
    double modelError{0};            //!< clairvoyantMeasuredS / clairvoyantAnalyticS
    CtHoLineClairvoyant clairvoyant; //!< the partition
    CtHoLineRun clairvoyantRun;      //!< the packet-level run of the clairvoyant batches
};

/**
 * \ingroup edge-llm
 * \brief Runs the ctHO paper's line with the module's LTE or NR network, servers and
 * coordinator.
 */
class CtHoLineExperiment
{
  public:
    /// Called with the scenario around the simulation (to hook traces, or inspect the state).
    using Hook = std::function<void(Ptr<EdgeLlmLineScenario>)>;

    /**
     * \param config the settings; validated here
     */
    explicit CtHoLineExperiment(CtHoLineConfig config);

    /**
     * \brief Draw the prompts and start positions, from the RngRun's own streams.
     * \return the draw
     */
    CtHoLineInputs Draw() const;

    /**
     * \brief Run one scheme. The simulator is destroyed at the end.
     * \param scheme a registered scheme: ctho, tho, cho, detour, or one of the program's own
     * \param inputs the scenario's inputs
     * \param before called before the simulation runs; may be empty
     * \param after called after it ran, before the simulator is destroyed; may be empty
     * \return what happened
     */
    CtHoLineRun Run(const std::string& scheme,
                    const CtHoLineInputs& inputs,
                    Hook before = {},
                    Hook after = {}) const;

    /**
     * \param scheme a registered scheme name; another stops the run naming --scheme
     * \return the TypeId name of its HandoverScheduler
     */
    static std::string SchedulerTypeOf(const std::string& scheme);

    /// \return the schemes the paper compares, in the order its table lists them
    static std::vector<std::string> PaperSchemes();

    /**
     * \brief The measured and analytic delays of each group of a run.
     *
     * The analytic value is V(L) of the ctHO problem made of the group's migrated sessions,
     * with their measured C_i and tau_i and the planned R, at the scheme's own L: C_max for
     * tHO, 0 for cHO, the optimum for ctHO. Detour has none (its group is empty).
     * \param run a run
     * \return one summary per group with migrated sessions, by group
     */
    static std::vector<CtHoLineGroupSummary> Summarize(const CtHoLineRun& run);

    /**
     * \brief V(L) of a ctHO problem at a scheme's own L: C_max for tho, the optimum for ctho,
     * 0 for cho and every other scheme.
     * \param scheme a scheme name
     * \param solver the problem
     * \return the value
     */
    static CtHoValue SchemeValue(const std::string& scheme, const CtHoSolver& solver);

    /**
     * \brief The clairvoyant optimum of a run's measured inputs: the migrated handovers, by
     * tau_i, cut into consecutive batches, each at the run's scheme's own L (SchemeValue: the
     * optimal L for ctHO), so that the worst delay over all is the smallest (an exact dynamic
     * programme over the cuts, with the exact solver for each batch).
     *
     * Batches are taken apart: none waits for the GPU or the backhaul behind another. So no
     * online scheduler, which must plan before it knows the next handover, can do better on
     * these inputs in the model, and measured / clairvoyant is its regret.
     * \param run a run
     * \return the reference
     */
    static CtHoLineClairvoyant Clairvoyant(const CtHoLineRun& run);

    /**
     * \brief The regret of an online run, against the packet-level run of its clairvoyant
     * batches on the same draw (run here, at the RngRun in force, which should be the online
     * run's).
     * \param online a run with online batching
     * \return the regret, the model error, and the clairvoyant run; NaN ratios without a
     *         migrated handover
     */
    CtHoLineRegret MeasureRegret(const CtHoLineRun& online) const;

    /**
     * \param run a run
     * \return the largest measured delay of its migrated handovers, s; NaN without one
     */
    static double WorstMigratedDelay(const CtHoLineRun& run);

  private:
    CtHoLineConfig m_config; //!< the settings
};

} // namespace ns3

#endif /* EDGE_LLM_CTHO_LINE_EXPERIMENT_H */
