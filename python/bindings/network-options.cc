/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The options of edgellm.Network: the keyword arguments read into edge-llm-scenario's
// ScenarioOptions and checked by its own checks, the refusals in the options' words.

#include "network.h"

#include "ns3/attribute-text.h"
#include "ns3/core-module.h"
#include "ns3/fault-config.h"
#include "ns3/flag-checks.h"
#include "ns3/handover-scheme-registry.h"
#include "ns3/input-checks.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <tuple>

namespace ns3
{
namespace edgellm
{
namespace python
{

namespace
{

/// A Python option and the flag of edge-llm-scenario it stands for.
struct OptionName
{
    std::string option; //!< the keyword argument, e.g. backhaul_rate
    std::string flag;   //!< the example's flag, e.g. backhaulRate
    bool fault{false};  //!< a fault flag (FaultFlags)
};

/// Every option, in the order of the example's flags.
const std::vector<OptionName> kOptions{
    {"ran", "ran"},
    {"layout", "layout"},
    {"cells", "cells"},
    {"columns", "columns"},
    {"rows", "rows"},
    {"spacing", "spacing"},
    {"backhaul", "backhaul"},
    {"backhaul_rate", "backhaulRate"},
    {"ues", "ues"},
    {"mobility", "mobility"},
    {"arrival_rate", "arrivalRate"},
    {"speed", "speed"},
    {"speed_spread", "speedSpread"},
    {"departure_spread", "departureSpread"},
    {"trigger", "trigger"},
    {"ue_airtime", "ueAirtime"},
    {"tokens", "tokens"},
    {"sim_time", "simTime"},
    {"scheme", "scheme"},
    {"seed", "RngSeed"},
    {"run", "RngRun"},
    {"backhaul_loss", "backhaulLoss", true},
    {"outage_after", "outageAfter", true},
    {"outage_for", "outageFor", true},
    {"cross_traffic", "crossTraffic", true},
    {"cross_traffic_rate", "crossTrafficRate", true},
    {"cross_traffic_start", "crossTrafficStart", true},
    {"cross_traffic_for", "crossTrafficFor", true},
    {"stall_policy", "stallPolicy", true},
    {"stall_timeout", "stallTimeout", true},
    {"gpu_load", "gpuLoad", true},
};

/// A part that takes attributes: its keyword argument, its type, and its options' field.
using AttributePart = std::tuple<std::string, std::string, ScenarioOptions::AttributeTexts*>;

/// \return the parts that take attributes, with the options' fields they go to
std::vector<AttributePart>
AttributeParts(ScenarioOptions& o)
{
    return {
        {"scheduler_attributes", "", &o.schedulerAttrs}, // the scheme's scheduler type
        {"coordinator_attributes", "ns3::HandoverCoordinator", &o.coordinatorAttrs},
        {"client_attributes", "ns3::EdgeLlmClient", &o.clientAttrs},
        {"server_attributes", "ns3::EdgeLlmServer", &o.serverAttrs},
        {"engine_attributes", "ns3::LlmEngine", &o.engineAttrs},
    };
}

[[noreturn]] void
Refuse(const std::string& message)
{
    throw std::invalid_argument(message);
}

/// Refuse a problem the example words for its flags, in the options' words.
void
RefuseIf(const std::string& problem)
{
    if (!problem.empty())
    {
        Refuse(InOptionWords(problem));
    }
}

/// \return an argv of the program name and "--flag=value" arguments
std::vector<char*>
Argv(std::vector<std::string>& args)
{
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    return argv;
}

/**
 * \brief Check the attributes of every part as ns-3 would take them, so that setting them
 * cannot stop the process, and put them into the options. Throws std::invalid_argument.
 */
void
ReadAttributes(const std::map<std::string, std::map<std::string, std::string>>& attributes,
               ScenarioOptions& o,
               std::vector<std::pair<std::string, std::string>>& parameters)
{
    const std::vector<AttributePart> parts = AttributeParts(o);
    for (const auto& [part, values] : attributes)
    {
        auto at = std::find_if(parts.begin(), parts.end(), [&](auto& p) {
            return std::get<0>(p) == part;
        });
        if (at == parts.end())
        {
            Refuse("edgellm.Network has no option " + part);
        }
        const std::string typeName =
            std::get<1>(*at).empty() ? HandoverSchedulerTypeOf(o.scheme) : std::get<1>(*at);
        const TypeId tid = TypeId::LookupByName(typeName);
        for (const auto& [name, text] : values)
        {
            TypeId owner;
            if (name.find("::") != std::string::npos || !FindAttributeOwner(tid, name, owner))
            {
                std::vector<std::string> names;
                for (TypeId t = tid;; t = t.GetParent())
                {
                    for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
                    {
                        names.push_back(t.GetAttribute(i).name);
                    }
                    if (t == t.GetParent())
                    {
                        break;
                    }
                }
                std::sort(names.begin(), names.end());
                Refuse(part + ": " + name + " = " + text +
                       " is invalid; allowed: an attribute of " + typeName + ": " +
                       JoinNames(names));
            }
            if (part == "client_attributes" && name == "TokensToGenerate")
            {
                Refuse(part + ": TokensToGenerate = " + text +
                       " is invalid; allowed: the option tokens, which sets it");
            }
            const std::string full = owner.GetName() + "::" + name;
            if (const std::string bad = AttributeSettingRefusal(full, text); !bad.empty())
            {
                Refuse(part + ": " + bad);
            }
            std::get<2>(*at)->emplace_back(name, text);
            parameters.emplace_back(part + "." + name, text);
        }
    }
}

} // namespace

std::string
InOptionWords(std::string message)
{
    for (const OptionName& name : kOptions)
    {
        const std::string flag = "--" + name.flag;
        for (auto at = message.find(flag); at != std::string::npos; at = message.find(flag, at))
        {
            const std::size_t end = at + flag.size();
            if (end < message.size() && std::isalnum(static_cast<unsigned char>(message[end])))
            {
                at = end; // a longer flag, e.g. --crossTrafficRate for --crossTraffic
                continue;
            }
            message.replace(at, flag.size(), name.option);
            at += name.option.size();
        }
    }
    return message;
}

NetworkOptions
ReadNetworkOptions(const std::map<std::string, std::string>& given,
                   const std::map<std::string, std::map<std::string, std::string>>& attributes)
{
    NetworkOptions n;
    ScenarioOptions& o = n.scenario;
    std::map<std::string, std::string> flags; // the options given, by the example's flags
    std::vector<std::string> args{"edgellm.Network"};
    for (const auto& [option, value] : given)
    {
        if (std::none_of(kOptions.begin(), kOptions.end(), [&](const OptionName& k) {
                return k.option == option;
            }))
        {
            Refuse("edgellm.Network has no option " + option);
        }
    }
    for (const OptionName& k : kOptions)
    {
        if (auto at = given.find(k.option); at != given.end())
        {
            flags[k.flag] = at->second;
            args.push_back("--" + k.flag + "=" + at->second);
        }
    }

    // The numbers first, as typed: the example's own check of its numeric flags, and ns-3's
    // ranges of RngSeed and RngRun.
    std::vector<NumberFlag> numbers = ScenarioOptions::NumberFlags();
    numbers.push_back({"RngSeed", true, "an integer in [1, 4294967295]", 1, 4294967295.0});
    numbers.push_back({"RngRun", true, "an integer in [0, 4294967295]", 0, 4294967295.0});
    std::vector<char*> argv = Argv(args);
    RefuseIf(CheckNumberFlags(numbers, argv.size(), argv.data()));
    auto word = [&flags](const std::string& flag, std::string& field) {
        if (auto at = flags.find(flag); at != flags.end())
        {
            field = at->second;
        }
    };
    auto count = [&flags](const std::string& flag, uint32_t& field) {
        if (auto at = flags.find(flag); at != flags.end())
        {
            field = static_cast<uint32_t>(std::stoul(at->second));
        }
    };
    auto number = [&flags](const std::string& flag, double& field) {
        if (auto at = flags.find(flag); at != flags.end())
        {
            field = std::stod(at->second);
        }
    };
    for (const auto& [flag, field] : {std::make_pair("ran", &o.ran),
                                      std::make_pair("layout", &o.layout),
                                      std::make_pair("backhaul", &o.backhaul),
                                      std::make_pair("backhaulRate", &o.backhaulRate),
                                      std::make_pair("mobility", &o.mobility),
                                      std::make_pair("trigger", &o.trigger),
                                      std::make_pair("ueAirtime", &o.ueAirtime),
                                      std::make_pair("simTime", &o.simTime),
                                      std::make_pair("scheme", &o.scheme)})
    {
        word(flag, *field);
    }
    for (const auto& [flag, field] : {std::make_pair("cells", &o.cells),
                                      std::make_pair("columns", &o.columns),
                                      std::make_pair("rows", &o.rows),
                                      std::make_pair("ues", &o.ues),
                                      std::make_pair("tokens", &o.tokens),
                                      std::make_pair("RngSeed", &n.seed),
                                      std::make_pair("RngRun", &n.run)})
    {
        count(flag, *field);
    }
    for (const auto& [flag, field] : {std::make_pair("spacing", &o.spacing),
                                      std::make_pair("arrivalRate", &o.arrivalRate),
                                      std::make_pair("speed", &o.speed),
                                      std::make_pair("speedSpread", &o.speedSpread),
                                      std::make_pair("departureSpread", &o.departureSpread)})
    {
        number(flag, *field);
    }
    // Routes are the grid's mobility, constant velocity the line's and the road's.
    if (!flags.count("mobility"))
    {
        o.mobility = o.layout == "grid" ? "routes" : "constant";
    }

    // The faults through the example's own flags, which read them as text.
    FaultFlags faultFlags;
    CommandLine cmd("edgellm.Network");
    faultFlags.AddTo(cmd);
    std::vector<std::string> faultArgs{"edgellm.Network"};
    for (const OptionName& k : kOptions)
    {
        if (k.fault && flags.count(k.flag))
        {
            faultArgs.push_back("--" + k.flag + "=" + flags.at(k.flag));
        }
    }
    std::vector<char*> faultArgv = Argv(faultArgs);
    cmd.Parse(faultArgv.size(), faultArgv.data());
    RefuseIf(faultFlags.Read(o.faults));
    RefuseIf(o.Check());
    // An option that the layout or mobility does not use would be ignored without a word.
    RefuseIf(o.CheckUsed(flags));

    n.arguments.assign(args.begin() + 1, args.end());
    n.parameters = o.ToParameters();
    for (const auto& pair : o.faults.ToParameters())
    {
        n.parameters.push_back(pair);
    }
    n.parameters.emplace_back("RngSeed", std::to_string(n.seed));
    n.parameters.emplace_back("RngRun", std::to_string(n.run));
    ReadAttributes(attributes, o, n.parameters);
    return n;
}

} // namespace python
} // namespace edgellm
} // namespace ns3
