/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_SCENARIO_OPTIONS_H
#define EDGE_LLM_SCENARIO_OPTIONS_H

#include "fault-config.h"
#include "flag-checks.h"

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The options of one network of the scenario layer: the flags of edge-llm-scenario,
 * with its defaults, and the attributes a program sets on the serving parts.
 *
 * Each field is named after its flag. Check() refuses a bad value in the flag's words, so a
 * program of one's own, edge-llm-scenario and the Python package's Network refuse alike;
 * BuildScenarioNetwork (scenario-network.h) builds the network of options that Check takes.
 */
struct ScenarioOptions
{
    /// attributes of one part, each as its name (without a class) and its value as text
    using AttributeTexts = std::vector<std::pair<std::string, std::string>>;

    std::string ran{"lte"};              //!< --ran: lte, or nr where NR support is built
    std::string layout{"road"};          //!< --layout: line, road or grid
    uint32_t cells{4};                   //!< --cells: of a line or road, [2, 64]
    uint32_t columns{3};                 //!< --columns: of the grid, [1, 8]
    uint32_t rows{3};                    //!< --rows: of the grid, [1, 8]
    double spacing{300};                 //!< --spacing: between neighbouring cells, m
    std::string backhaul{"pairs"};       //!< --backhaul: pairs or star
    std::string backhaulRate{"4.5Gbps"}; //!< --backhaulRate: text, so an error names the flag
    uint32_t ues{3};                     //!< --ues: moving UEs, [1, 64]
    std::string mobility{"constant"};    //!< --mobility: constant, poisson or routes (grid)
    double arrivalRate{1};               //!< --arrivalRate: poisson's UEs per s
    double speed{20};                    //!< --speed: m/s
    /// --speedSpread: on routes, each UE's speed is speed x (1 + u), u uniform in [-s, s];
    /// random routes that start together would cross every boundary at the same instants
    double speedSpread{0.25};
    double departureSpread{1};       //!< --departureSpread: on routes, legs after 1 s
    std::string trigger{"planned"};  //!< --trigger: a3, a2a4, planned or none
    std::string ueAirtime{"run"};    //!< --ueAirtime: run or session (EdgeLlmNetwork)
    uint32_t tokens{400};            //!< --tokens: each session generates
    std::string simTime{"12s"};      //!< --simTime: text, so an error names the flag
    std::string scheme{"ctho"};      //!< --scheme: one registered scheme
    FaultConfig faults;              //!< the fault flags, read
    AttributeTexts schedulerAttrs;   //!< of the scheme's scheduler, set after the scheme
    AttributeTexts coordinatorAttrs; //!< of the handover coordinator
    AttributeTexts clientAttrs;      //!< of every client (not TokensToGenerate: tokens)
    AttributeTexts serverAttrs;      //!< of every server
    AttributeTexts engineAttrs;      //!< of every engine

    /**
     * \brief Add the flags of the fields from ran to simTime to a command line, bound to the
     * fields (the scheme and the faults have flags of their own: HandoverSchemeFlag,
     * FaultFlags).
     * \param cmd the command line
     */
    void AddTo(CommandLine& cmd);

    /**
     * \return the numeric flags with their ranges, for CheckArguments or CheckNumberFlags
     *         before the flags are read
     */
    static std::vector<edgellm::NumberFlag> NumberFlags();

    /**
     * \return pairs of a flag and an attribute default the network sets from it, for
     *         CheckFlagAttributes (the faults' are FaultConfig::FlagAttributes)
     */
    static std::vector<std::pair<std::string, std::string>> FlagAttributes();

    /**
     * \brief Check every field without stopping the program: the numeric ranges of
     * NumberFlags, the words, the rate, the time, the layout and mobility together, the
     * scheme and the faults. The attributes are not checked here (AttributeSettingRefusal
     * does, by their owners' names).
     * \return an empty string, or the first problem in the flag's words:
     *         "--flag = value is invalid; allowed: ..."
     */
    std::string Check() const;

    /**
     * \brief Refuse a flag that was given but that the layout or the mobility does not use,
     * and that would otherwise be ignored without a word.
     * \param given flags given, without dashes, each with its value as typed; any others
     *        are not looked at
     * \return an empty string, or the first such flag's refusal
     */
    std::string CheckUsed(const std::map<std::string, std::string>& given) const;

    /**
     * \brief CheckUsed for the flags of a command line.
     * \param argc the program's argc
     * \param argv the program's argv
     * \return an empty string, or the first such flag's refusal
     */
    std::string CheckUsed(int argc, char* argv[]) const;

    /// \return backhaulRate, read; Check() must have taken it
    DataRate GetBackhaulRate() const;
    /// \return simTime, read; Check() must have taken it
    Time GetSimTime() const;

    /**
     * \return every field from layout to scheme by its flag's name, with its value as text,
     *         for a run's sidecar (EdgeLlmRunMetadata::parameters)
     */
    std::vector<std::pair<std::string, std::string>> ToParameters() const;
};

} // namespace ns3

#endif /* EDGE_LLM_SCENARIO_OPTIONS_H */
