/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LTE_RADIO_DEFAULTS_H
#define EDGE_LLM_LTE_RADIO_DEFAULTS_H

#include "ns3/lte-helper.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One A3 configuration: the values an operator sets for event A3 (3GPP TS 36.331
 * ReportConfigEUTRA), with where they come from.
 */
struct LteA3Preset
{
    std::string name;    //!< its name, as the A3Preset attribute takes it
    double hysteresisDb; //!< hysteresis, dB (36.331: 0 to 15 in steps of 0.5)
    Time timeToTrigger;  //!< time to trigger (36.331: one of 0, 40, 64, ..., 5120 ms)
    std::string source;  //!< where the values come from
};

/// \return the A3 presets: "responsive" (the scenarios' default) and "ns3"
const std::vector<LteA3Preset>& LteA3Presets();

/**
 * \param name a preset's name
 * \return it; stops the run naming A3Preset and the known names otherwise
 */
const LteA3Preset& FindLteA3Preset(const std::string& name);

/// \return the preset names, comma separated, and "custom"
std::string LteA3PresetNames();

/// \return the path-loss choices of the LTE stack, comma separated
std::string LtePathlossNames();

/**
 * \brief Whether the program or its command line changed an attribute's default away from
 * ns-3's own, as --ns3::LteRlcUm::ReorderingTimer=... does: the RAN stack then leaves it be.
 * \param typeId the TypeId's name, e.g. "ns3::LteRlcUm"
 * \param attribute the attribute's name
 * \return true if its default is no longer ns-3's initial value
 */
bool IsNs3DefaultChanged(const std::string& typeId, const std::string& attribute);

/**
 * \ingroup edge-llm
 * \brief The radio settings the LTE RAN stack applies before its first cell is installed.
 */
struct LteRadioDefaults
{
    Time rlcUmReorderingTimer; //!< t-Reordering of every RLC UM entity
    std::string a3Preset;      //!< a preset's name, or "custom"
    double a3HysteresisDb{0};  //!< custom hysteresis, dB
    Time a3TimeToTrigger;      //!< custom time to trigger
    std::string pathloss;      //!< one of LtePathlossNames()
};

/**
 * \brief Apply the settings of the RLC and of the path-loss model. A setting whose ns-3
 * attribute the user changed (IsNs3DefaultChanged) is left as the user set it.
 * \param lte the helper, before its first eNB is installed
 * \param settings the settings
 */
void ApplyLteRadioDefaults(Ptr<LteHelper> lte, const LteRadioDefaults& settings);

/**
 * \brief Set the A3 algorithm's hysteresis and time to trigger from the settings' preset (or
 * their custom values), on the helper's handover-algorithm factory; an attribute of
 * ns3::A3RsrpHandoverAlgorithm the user changed is left as the user set it.
 * \param lte the helper, right after SetHandoverAlgorithmType("ns3::A3RsrpHandoverAlgorithm")
 * \param settings the settings
 */
void ApplyLteA3Preset(Ptr<LteHelper> lte, const LteRadioDefaults& settings);

} // namespace ns3

#endif /* EDGE_LLM_LTE_RADIO_DEFAULTS_H */
