/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_IMPACTHO_ROAD_EXPERIMENT_H
#define EDGE_LLM_IMPACTHO_ROAD_EXPERIMENT_H

#include "edge-llm-network.h"
#include "edge-llm-results.h"

#include "ns3/data-rate.h"
#include "ns3/handover-record.h"
#include "ns3/impact-accuracy-model.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The settings of ImpactHO's road: eNBs beside a road, UEs whose handovers arrive as a
 * Poisson process, KV caches sent in importance order over a star backhaul's shared link.
 *
 * Defaults are the paper's: 8 eNBs 300 m apart, rho = 4 handovers/s, 20 to 30 m/s, contexts
 * uniform over {4K, 8K, 16K} tokens of Qwen3-8B at 16 bits, B = 20 Gb/s, Delta t = 100 ms,
 * T_max = 500 ms, A3 handovers. The paper gives no prefill time; Qwen3-8B's is the ctHO
 * paper's Qwen2.5-7B fit scaled by the models' weights (the qwen3-8b-ctho-scaled preset).
 *
 * The paper's process is one of handovers, not of UEs entering at the road's start (a UE
 * would drive 150 m before its first handover, and one per 300 m after). So that a run of a
 * few seconds sees rho handovers per second, each UE enters at its Poisson arrival t_j
 * LeadTime before a cell boundary drawn uniformly among the road's, and hands over, by A3,
 * shortly after crossing it. Its session's prompt is its context. The paper's UE arrives at
 * its handover with its context: by default that context is in its first cell's prefix cache
 * when the session opens (cachedPrompt = 1), as a conversation's earlier turns would have left
 * it, and the session opens 1 s before its UE reaches its boundary; the cells' GPUs then do
 * not prefill rho contexts of up to 16K tokens a second, which overloads them at rho = 12.
 * With cachedPrompt < 1 the first cell prefills the rest, and the session opens 1 s before t_j
 * so that a 16K-token prefill has ended by the handover. UEs enter from 1.5 s until 8 s before
 * SimTime (with the default lead and window), so that every session ends within the run.
 */
struct ImpactHoRoadConfig
{
    uint32_t cells{8};                                 //!< eNBs, [2, 64]
    double spacing{300};                               //!< m, [50, 5000]
    double rho{4};                                     //!< handovers (UEs entering) per s, (0, 50]
    double minSpeed{20};                               //!< m/s
    double maxSpeed{30};                               //!< m/s, >= minSpeed
    std::vector<uint32_t> contexts{4096, 8192, 16384}; //!< drawn uniformly, tokens
    std::string kvProfile{"Qwen3-8B"};                 //!< a KvCacheProfile preset
    std::string computePreset{"qwen3-8b-ctho-scaled"}; //!< GPUs: an LlmComputeModel preset
    uint32_t kvBits{16};                               //!< bits per KV element
    DataRate backhaulRate{DataRate("20Gbps")};         //!< B, the star's shared link
    Time slot{MilliSeconds(100)};                      //!< Delta t
    Time window{MilliSeconds(500)};                    //!< T_max; 0: no window
    Time leadTime{Seconds(2)};                         //!< from entering to the boundary
    uint32_t tokens{300};                              //!< tokens each session generates
    Time simTime{Seconds(12)};                         //!< the run stops here at the latest
    /// the star's queues hold this long at B, bytes = B x bufferTime, >= 2 packets; [0, 1 s]
    Time bufferTime{MilliSeconds(10)};
    /// IP MTU of the star's devices, bytes, [576, 65000]: one frame a TCP segment, so 65000
    /// carries a transfer in a seventh of 9000's packets, as TSO/GRO batch segments
    uint32_t backhaulMtu{65000};
    std::string order{"importance"}; //!< importance or random
    /// ImpactHO's Overload: equalized-bytes, winner-take-all, admission or no-admission
    std::string overload{"equalized-bytes"};
    /// EdgeLlmNetwork's UeAirtime: session (a UE is on the air from shortly before its
    /// session until shortly after it) or run (every UE from the start)
    std::string ueAirtime{"session"};
    /// The RAN: lte, or nr (with 5G-LENA's nr module)
    std::string ran{"lte"};
    /// the fraction of each prompt already in its first cell's cache when its session opens
    /// (LlmEngine::CachedPromptFraction), [0, 1]; 0: the first cell prefills it whole
    double cachedPrompt{1};
    /// How handovers happen (EdgeLlmNetwork::Trigger): a3 (the RAN's measurements, which
    /// bring them tenths of a second to over a second after the boundary, on the 200 ms grid
    /// of its reports) or planned (requested as each UE crosses its boundary: the Poisson
    /// arrivals, exactly)
    std::string trigger{"a3"};
    /// ImpactSlotScheduler::Goodput: the share of B the slot schedulers plan on, (0, 1]
    double goodput{0.95};

    /**
     * \brief Check the settings without stopping the program.
     * \return an empty string, or the first problem, naming the flag
     */
    std::string Check() const;

    /// \return the accuracy curve of the order: ImportanceOrder() or RandomOrder()
    ImpactAccuracyParams Curve() const;

    /// \return every setting, by its flag's name, as the flag takes it
    std::vector<std::pair<std::string, std::string>> ToParameters() const;

    /// \return pairs of a flag and the attribute a run sets from it (CheckFlagAttributes);
    /// a run also sets ns3::KvTransferSender::SocketBufferBytes, from the star's path
    static std::vector<std::pair<std::string, std::string>> FlagAttributes();
};

/**
 * \ingroup edge-llm
 * \brief The inputs drawn once and shared by every scheme of a comparison.
 */
struct ImpactHoRoadInputs
{
    std::vector<double> arrivalS;   //!< per UE, when it enters, s
    std::vector<double> speed;      //!< per UE, m/s
    std::vector<uint32_t> boundary; //!< per UE, the boundary it crosses: between cells b, b+1
    std::vector<uint32_t> context;  //!< per UE, prompt tokens
};

/**
 * \ingroup edge-llm
 * \brief What one scheme's run on the road gave.
 */
struct ImpactHoRoadRun
{
    std::string scheme;                  //!< its name
    std::vector<HandoverRecord> records; //!< the coordinator's records
    EdgeLlmRunResults results;           //!< for the CSV writers
    uint32_t sessions{0};                //!< sessions opened
    uint32_t complete{0};                //!< sessions that got every token once
    bool ledgerBalances{true};           //!< every session's KV ledger balances
    /// per migrated handover, the accuracy it resumed with: A(y) for the impact schemes;
    /// A(1) for tho (after its whole re-prefill) and cho (the whole cache)
    std::vector<double> accuracy;
    uint64_t abandonedBytes{0}; //!< KV bytes left behind by windows
    uint64_t budgetBytes{0};    //!< the impact schemes: the sum of every slot budget given
    uint64_t sentBytes{0};      //!< KV bytes handed to TCP, all sessions
    uint64_t dataMessages{0};   //!< the DATA messages that carried them
    double worstDelayS{0};      //!< the longest handover delay, hoStart to resume, s
    uint32_t onAirPeak{0};      //!< most UEs on the air at once; every UE with ueAirtime run
    /// per migrated handover (as accuracy): from its start until the fraction that had
    /// arrived (and its prefix) gave A >= 0.99 M, s; NaN if that never happened. For the
    /// entry-unit schemes it is read from the target receiver's DataArrived; the others need
    /// their whole context (the random-order curve never reaches 0.99 M), so it is their
    /// resume, if they resumed with all of it
    std::vector<double> timeTo99S;
    /// the clairvoyant bound (SolveImpactClairvoyantBound) on the sum of A over the migrated
    /// handovers, with every one's arrival, cache and window known: NaN with no window
    double clairvoyantBound{0};
    /// per migrated handover (as accuracy): A(y) of the slot reference (ImpactHoSlotReference)
    /// on the run's own handovers, also its record's policyValues["reference_accuracy"]; empty
    /// for a scheme that is not a slot scheduler, or with no window
    std::vector<double> referenceAccuracy;
    Time endTime; //!< when the run stopped
};

/**
 * \ingroup edge-llm
 * \brief The accuracy statistics of a run.
 */
struct ImpactHoAccuracySummary
{
    double mean{0};      //!< mean over the migrated handovers; NaN for none
    double p5{0};        //!< 5th percentile, exact nearest rank; NaN for none
    uint32_t starved{0}; //!< handovers that resumed below A(y0) = M / 2
    uint32_t count{0};   //!< migrated handovers
};

/**
 * \ingroup edge-llm
 * \brief The clairvoyant bound on a run's handovers, from its records.
 *
 * Each migrated handover is a UE of the bound: S_i its whole cache in entries on the wire
 * (context x entries per token x entry bytes, x 8), in transfer for the slots from the first
 * one that starts at or after its handover, for ceil(T_max / Delta t) slots; the capacity is
 * B itself, not its goodput, so that no schedule on the real link can beat it.
 * \param config the road
 * \param records the run's records
 * \param entryBytes bytes of one entry on the wire
 * \return the bound on the sum of A over the migrated handovers; NaN with no window, 0
 * with no migrated handover
 */
double ImpactHoClairvoyantBound(const ImpactHoRoadConfig& config,
                                const std::vector<HandoverRecord>& records,
                                uint64_t entryBytes);

/**
 * \ingroup edge-llm
 * \brief The slot reference of a run (RunImpactSlotReference): its migrated handovers, at the
 * instants they started, moved by the scheme's own allocator in the paper's slots, at B itself
 * (no goodput factor, no network).
 *
 * Each migrated handover's transfer is its record's kvBytes; a TOKEN-unit plan (the hybrid,
 * re-prefill) holds its re-prefilled prefix over its context and is positional.
 * \param config the road
 * \param scheme a registered slot-scheduler scheme (impactho, impact-equal, ...)
 * \param records the run's records
 * \return A(y) per migrated handover, in record order; empty with no window or for a scheme
 * that is not a slot scheduler
 */
std::vector<double> ImpactHoSlotReference(const ImpactHoRoadConfig& config,
                                          const std::string& scheme,
                                          const std::vector<HandoverRecord>& records);

/**
 * \param accuracy per handover
 * \param curve the curve whose A(y0) marks a starved user
 * \return mean, P5 by nearest rank (the ceil(0.05 n)-th smallest), starved count
 */
ImpactHoAccuracySummary SummariseImpactHoAccuracy(const std::vector<double>& accuracy,
                                                  const ImpactAccuracyParams& curve);

/**
 * \ingroup edge-llm
 * \brief ImpactHO's road: draw the inputs once, run each scheme on them.
 */
class ImpactHoRoadExperiment
{
  public:
    /// \param config the settings; checked (NS_FATAL_ERROR with Check()'s message)
    explicit ImpactHoRoadExperiment(const ImpactHoRoadConfig& config);

    /// \return the settings
    const ImpactHoRoadConfig& GetConfig() const;

    /**
     * \brief Draw the UEs from the run's RNG (RngSeedManager's seed and run, stream 12 on).
     * \return the inputs
     */
    ImpactHoRoadInputs Draw() const;

    /// Called once the network is built, before the simulation runs: to watch it.
    using Hook = std::function<void(Ptr<EdgeLlmNetwork> network)>;

    /**
     * \brief Run one scheme on the inputs. The simulator is destroyed afterwards.
     * \param scheme a registered scheme name: impactho, impact-equal, tho, cho, ...
     * \param inputs from Draw()
     * \param hook what to connect before the run, if anything
     * \return what it gave
     */
    ImpactHoRoadRun Run(const std::string& scheme,
                        const ImpactHoRoadInputs& inputs,
                        const Hook& hook = {}) const;

  private:
    ImpactHoRoadConfig m_config; //!< the settings
};

} // namespace ns3

#endif /* EDGE_LLM_IMPACTHO_ROAD_EXPERIMENT_H */
