/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_FAULT_CONFIG_H
#define EDGE_LLM_FAULT_CONFIG_H

#include "backhaul-faults.h"

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/handover-coordinator.h"
#include "ns3/llm-engine.h"
#include "ns3/nstime.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The faults of a run, and the policies that meet them, as an example's flags set them.
 *
 * Backhaul faults act on every backhaul link: random loss, an outage that starts a while after
 * the run's first committed migration (so that it falls in the middle of a transfer), and
 * cross traffic. The GPU load factor slows every engine below what the plans assume.
 */
struct FaultConfig
{
    double backhaulLoss{0};                       //!< --backhaulLoss: per packet, [0, 1)
    Time outageAfter{-1};                         //!< --outageAfter: negative for none
    Time outageFor{Seconds(1)};                   //!< --outageFor: > 0
    std::string crossTraffic{"none"};             //!< --crossTraffic: none, bulk or onoff
    DataRate crossTrafficRate{DataRate("1Gbps")}; //!< --crossTrafficRate: onoff's rate, > 0
    Time crossTrafficStart{Seconds(2)};           //!< --crossTrafficStart: >= 0
    Time crossTrafficFor{Seconds(3)};             //!< --crossTrafficFor: > 0
    std::string stallPolicy{"wait"};              //!< --stallPolicy: wait or reprefill
    Time stallTimeout{MilliSeconds(200)};         //!< --stallTimeout: > 0
    double gpuLoad{1};                            //!< --gpuLoad: (0, 1000]

    /**
     * \brief Check the settings without stopping the program.
     * \return an empty string, or the first problem: "--flag = value is invalid; allowed: ..."
     */
    std::string Check() const;
    /// \return every setting, by its flag's name, with its value as the flag takes it
    std::vector<std::pair<std::string, std::string>> ToParameters() const;
    /// \return pairs of a flag and the attribute a run sets from it (CheckFlagAttributes)
    static std::vector<std::pair<std::string, std::string>> FlagAttributes();
};

/**
 * \ingroup edge-llm
 * \brief An example's fault flags: text first, so that a bad value is refused by its flag's
 * name.
 */
class FaultFlags
{
  public:
    /**
     * \brief Add the flags to a command line.
     * \param cmd the command line
     */
    void AddTo(CommandLine& cmd);
    /**
     * \brief Read the flags' text into a configuration, and check it.
     * \param [out] config the faults
     * \return an empty string, or the first flag's error
     */
    std::string Read(FaultConfig& config) const;

  private:
    std::string m_loss{"0"};             //!< --backhaulLoss
    std::string m_outageAfter;           //!< --outageAfter; empty for none
    std::string m_outageFor{"1s"};       //!< --outageFor
    std::string m_crossTraffic{"none"};  //!< --crossTraffic
    std::string m_crossRate{"1Gbps"};    //!< --crossTrafficRate
    std::string m_crossStart{"2s"};      //!< --crossTrafficStart
    std::string m_crossFor{"3s"};        //!< --crossTrafficFor
    std::string m_stallPolicy{"wait"};   //!< --stallPolicy
    std::string m_stallTimeout{"200ms"}; //!< --stallTimeout
    std::string m_gpuLoad{"1"};          //!< --gpuLoad
};

/**
 * \ingroup edge-llm
 * \brief What the faults of a run did.
 */
struct FaultCounts
{
    uint64_t lossDrops{0};         //!< backhaul packets lost at random
    uint64_t outageDrops{0};       //!< backhaul packets lost in outages
    uint32_t outages{0};           //!< outages started
    uint64_t crossTrafficBytes{0}; //!< cross-traffic bytes received
    uint32_t stalls{0};            //!< transfers found stalled (TransferStalled)
    uint32_t reprefills{0};        //!< of them, given up on and re-prefilled
};

/**
 * \ingroup edge-llm
 * \brief Puts a FaultConfig into a built network: the backhaul faults on its links, the
 * policies on its coordinator, the load on its engines.
 */
class FaultInjection
{
  public:
    /**
     * \brief Install the faults. Call after the network is built, before the run.
     * \param config the faults
     * \param links the backhaul links
     * \param coordinator the handover coordinator
     * \param engines every cell's engine
     * \param stream the first random stream index of the loss draws
     */
    void Install(const FaultConfig& config,
                 const std::vector<BackhaulLink>& links,
                 Ptr<HandoverCoordinator> coordinator,
                 const std::vector<Ptr<LlmEngine>>& engines,
                 int64_t stream);
    /// \return what the faults did so far
    FaultCounts GetCounts() const;

  private:
    /// The first committed migration: the outage's clock starts.
    void Committed(uint64_t imsi, uint32_t epoch, int from, int to);

    FaultConfig m_config;              //!< the faults
    std::vector<BackhaulLink> m_links; //!< the links they act on
    Ptr<BackhaulFaults> m_faults;      //!< the links' faults
    bool m_outageScheduled{false};     //!< the outage's start is scheduled
    FaultCounts m_counts;              //!< the coordinator's share of the counts
};

} // namespace ns3

#endif /* EDGE_LLM_FAULT_CONFIG_H */
