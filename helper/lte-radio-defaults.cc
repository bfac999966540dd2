/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-radio-defaults.h"

#include "ran-stack.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LteRadioDefaults");

namespace
{

/// What the stack itself last set, by "TypeId::attribute": not a user's choice.
std::map<std::string, std::string>&
SetByStack()
{
    static std::map<std::string, std::string> values;
    return values;
}

/// The current default of an attribute, serialized; stops the run if it does not exist.
std::string
CurrentDefault(const std::string& typeId, const std::string& attribute, bool original)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByName(typeId).LookupAttributeByName(attribute, &info),
                        "no attribute " << typeId << "::" << attribute);
    const Ptr<const AttributeValue> v = original ? info.originalInitialValue : info.initialValue;
    return v->SerializeToString(info.checker);
}

/// Set a default, unless the user changed it; remember it as the stack's.
void
SetDefaultUnlessUserSet(const std::string& typeId,
                        const std::string& attribute,
                        const AttributeValue& value)
{
    if (IsNs3DefaultChanged(typeId, attribute))
    {
        NS_LOG_INFO(typeId << "::" << attribute << " was set by the user: kept at "
                           << CurrentDefault(typeId, attribute, false));
        return;
    }
    Config::SetDefault(typeId + "::" + attribute, value);
    SetByStack()[typeId + "::" + attribute] = CurrentDefault(typeId, attribute, false);
}

} // namespace

const std::vector<LteA3Preset>&
LteA3Presets()
{
    static const std::vector<LteA3Preset> presets{
        {"responsive",
         2.0,
         MilliSeconds(40),
         "a short time to trigger, the 36.331 minimum above 0, with a 2 dB hysteresis: values "
         "of the range 3GPP's HetNet mobility study (TR 36.839) evaluates. It fires near the "
         "cell border, before the neighbour's interference takes the UE's transport blocks."},
        {"ns3",
         3.0,
         MilliSeconds(256),
         "ns-3's A3RsrpHandoverAlgorithm defaults. With its 200 ms measurement filter it fires "
         "about 40 m past the midpoint of 300 m cells at 30 m/s."},
    };
    return presets;
}

std::string
LteA3PresetNames()
{
    std::ostringstream os;
    for (const LteA3Preset& p : LteA3Presets())
    {
        os << p.name << ", ";
    }
    os << "custom";
    return os.str();
}

const LteA3Preset&
FindLteA3Preset(const std::string& name)
{
    for (const LteA3Preset& p : LteA3Presets())
    {
        if (p.name == name)
        {
            return p;
        }
    }
    NS_FATAL_ERROR(
        "ns3::LteRanStack::A3Preset = " << name << " is invalid; allowed: " << LteA3PresetNames());
}

std::string
LtePathlossNames()
{
    return "friis, log-distance";
}

bool
IsNs3DefaultChanged(const std::string& typeId, const std::string& attribute)
{
    const std::string now = CurrentDefault(typeId, attribute, false);
    if (now == CurrentDefault(typeId, attribute, true))
    {
        return false;
    }
    auto ours = SetByStack().find(typeId + "::" + attribute);
    return ours == SetByStack().end() || ours->second != now;
}

void
ApplyLteRadioDefaults(Ptr<LteHelper> lte, const LteRadioDefaults& settings)
{
    SetDefaultUnlessUserSet("ns3::LteRlcUm",
                            "ReorderingTimer",
                            TimeValue(settings.rlcUmReorderingTimer));

    if (settings.pathloss == "friis" || IsNs3DefaultChanged("ns3::LteHelper", "PathlossModel"))
    {
        return; // the helper was made with ns-3's Friis model, or with the user's choice
    }
    NS_ABORT_MSG_UNLESS(settings.pathloss == "log-distance",
                        "ns3::LteRanStack::PathlossModel = "
                            << settings.pathloss << " is invalid; allowed: " << LtePathlossNames());
    lte->SetAttribute("PathlossModel", StringValue("ns3::LogDistancePropagationLossModel"));
    lte->SetPathlossModelAttribute("Exponent", DoubleValue(MACRO_LOSS_EXPONENT));
    lte->SetPathlossModelAttribute("ReferenceDistance", DoubleValue(1.0));
    lte->SetPathlossModelAttribute("ReferenceLoss", DoubleValue(MACRO_LOSS_AT_1M_DB));
}

void
ApplyLteA3Preset(Ptr<LteHelper> lte, const LteRadioDefaults& settings)
{
    double hysteresis = settings.a3HysteresisDb;
    Time ttt = settings.a3TimeToTrigger;
    if (settings.a3Preset != "custom")
    {
        const LteA3Preset& preset = FindLteA3Preset(settings.a3Preset);
        hysteresis = preset.hysteresisDb;
        ttt = preset.timeToTrigger;
    }
    // The algorithm is made from the helper's factory, whose attributes override the global
    // defaults: set them there only where the user did not set the global one.
    if (!IsNs3DefaultChanged("ns3::A3RsrpHandoverAlgorithm", "Hysteresis"))
    {
        lte->SetHandoverAlgorithmAttribute("Hysteresis", DoubleValue(hysteresis));
    }
    if (!IsNs3DefaultChanged("ns3::A3RsrpHandoverAlgorithm", "TimeToTrigger"))
    {
        lte->SetHandoverAlgorithmAttribute("TimeToTrigger", TimeValue(ttt));
    }
}

} // namespace ns3
