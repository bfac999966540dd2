/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-options.h"

#include "handover-scheme-flag.h"
#include "ran-stack.h"

#include "ns3/abort.h"

#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{

/// \return the value of a numeric flag of the options, by the flag's name
double
NumberOf(const ScenarioOptions& o, const std::string& flag)
{
    const std::map<std::string, double> values{{"cells", o.cells},
                                               {"columns", o.columns},
                                               {"rows", o.rows},
                                               {"spacing", o.spacing},
                                               {"ues", o.ues},
                                               {"arrivalRate", o.arrivalRate},
                                               {"speed", o.speed},
                                               {"speedSpread", o.speedSpread},
                                               {"departureSpread", o.departureSpread},
                                               {"tokens", o.tokens}};
    return values.at(flag);
}

/// \return a number as the flag's refusal shows it
std::string
NumberText(double value)
{
    std::ostringstream os;
    os << value;
    return os.str();
}

} // namespace

void
ScenarioOptions::AddTo(CommandLine& cmd)
{
    cmd.AddValue("ran", "the radio access network: lte, or nr (with 5G-LENA)", ran);
    cmd.AddValue("layout", "line, road or grid", layout);
    cmd.AddValue("cells", "cells of a line or road, [2, 64]", cells);
    cmd.AddValue("columns", "grid columns, [1, 8]", columns);
    cmd.AddValue("rows", "grid rows, [1, 8]", rows);
    cmd.AddValue("spacing", "distance between neighbouring cells, m", spacing);
    cmd.AddValue("backhaul",
                 "pairs (a link per neighbour pair) or star (one shared uplink)",
                 backhaul);
    cmd.AddValue("backhaulRate",
                 "each link's rate (pairs) or the shared uplink's (star)",
                 backhaulRate);
    cmd.AddValue("ues", "moving UEs, [1, 64]", ues);
    cmd.AddValue("mobility", "constant, poisson (entering the road) or routes (grid)", mobility);
    cmd.AddValue("arrivalRate", "poisson: UEs entering per s", arrivalRate);
    cmd.AddValue("speed", "UE speed, m/s", speed);
    cmd.AddValue("speedSpread",
                 "routes: each UE's speed is speed x (1 + u), u uniform in [-speedSpread, "
                 "speedSpread]",
                 speedSpread);
    cmd.AddValue("departureSpread",
                 "routes: each UE leaves its first cell up to this many legs after 1 s",
                 departureSpread);
    cmd.AddValue("trigger", "a3, a2a4, planned or none", trigger);
    cmd.AddValue("ueAirtime",
                 "run (every UE on the air from the start) or session (a UE on the air from "
                 "0.5 s before its session until 0.2 s after it)",
                 ueAirtime);
    cmd.AddValue("tokens", "tokens each session generates, [1, 1000000]", tokens);
    cmd.AddValue("simTime", "when the run stops", simTime);
}

std::vector<edgellm::NumberFlag>
ScenarioOptions::NumberFlags()
{
    return {{"cells", true, "an integer in [2, 64]", 2, 64},
            {"columns", true, "an integer in [1, 8]", 1, 8},
            {"rows", true, "an integer in [1, 8]", 1, 8},
            {"spacing", false, "a distance in [50, 5000] m", 50, 5000},
            {"ues", true, "an integer in [1, 64]", 1, 64},
            {"arrivalRate", false, "(0, 100] UEs/s", 0, 100, true},
            {"speed", false, "(0, 100] m/s", 0, 100, true},
            {"speedSpread", false, "a number in [0, 0.9]", 0, 0.9},
            {"departureSpread", false, "a number of legs in [0, 100]", 0, 100},
            {"tokens", true, "an integer in [1, 1000000]", 1, 1e6}};
}

std::vector<std::pair<std::string, std::string>>
ScenarioOptions::FlagAttributes()
{
    return {{"columns", "ns3::GridCellLayout::Columns"},
            {"rows", "ns3::GridCellLayout::Rows"},
            {"spacing", "ns3::GridCellLayout::Spacing"},
            {"cells", "ns3::RoadCellLayout::Count"},
            {"spacing", "ns3::RoadCellLayout::Spacing"},
            {"cells", "ns3::LineCellLayout::Count"},
            {"spacing", "ns3::LineCellLayout::Spacing"},
            {"backhaulRate", "ns3::BackhaulHelper::DataRate"},
            {"backhaulRate", "ns3::StarBackhaulTopology::SharedRate"},
            {"speed", "ns3::GridRandomRoute::Speed"},
            {"speedSpread", "ns3::GridRandomRoute::SpeedSpread"},
            {"departureSpread", "ns3::GridRandomRoute::DepartureSpread"},
            {"trigger", "ns3::EdgeLlmNetwork::Trigger"},
            {"ueAirtime", "ns3::EdgeLlmNetwork::UeAirtime"},
            {"tokens", "ns3::EdgeLlmClient::TokensToGenerate"}};
}

std::string
ScenarioOptions::Check() const
{
    for (const edgellm::NumberFlag& n : NumberFlags())
    {
        const double value = NumberOf(*this, n.flag);
        if (!(value >= n.min && value <= n.max) || (n.aboveMin && value == n.min))
        {
            return edgellm::FlagError(n.flag, NumberText(value), n.allowed);
        }
    }
    std::ostringstream e;
    DataRate rate;
    Time time;
    if (const std::string problem = edgellm::CheckRanFlag("ran", ran); !problem.empty())
    {
        e << problem;
    }
    else if (layout != "line" && layout != "road" && layout != "grid")
    {
        e << "--layout = " << layout << " is invalid; allowed: line, road or grid";
    }
    else if (layout == "grid" && columns * rows < 2)
    {
        e << "--columns = " << columns << " and --rows = " << rows
          << " are invalid; allowed: integers in [1, 8], at least 2 cells";
    }
    else if (backhaul != "pairs" && backhaul != "star")
    {
        e << "--backhaul = " << backhaul << " is invalid; allowed: pairs or star";
    }
    else if (const std::string bad = edgellm::ReadRateFlag("backhaulRate", backhaulRate, rate);
             !bad.empty())
    {
        e << bad;
    }
    else if (mobility != "constant" && mobility != "poisson" && mobility != "routes")
    {
        e << "--mobility = " << mobility << " is invalid; allowed: constant, poisson or routes";
    }
    else if ((mobility == "routes") != (layout == "grid"))
    {
        e << "--mobility = " << mobility << " with --layout = " << layout
          << " is invalid; allowed: routes on the grid, constant or poisson on a line or road";
    }
    else if (trigger != "a3" && trigger != "a2a4" && trigger != "planned" && trigger != "none")
    {
        e << "--trigger = " << trigger << " is invalid; allowed: a3, a2a4, planned or none";
    }
    else if (ueAirtime != "run" && ueAirtime != "session")
    {
        e << "--ueAirtime = " << ueAirtime << " is invalid; allowed: run or session";
    }
    else if (!edgellm::ParseTime(simTime, time) || !(time > Seconds(1)))
    {
        e << "--simTime = " << simTime << " is invalid; allowed: a time > 1 s, e.g. 12s";
    }
    else
    {
        try
        {
            HandoverSchemeFlag({}, scheme).GetSchemes();
        }
        catch (const std::invalid_argument& error)
        {
            return error.what();
        }
        return faults.Check();
    }
    return e.str();
}

std::string
ScenarioOptions::CheckUsed(const std::map<std::string, std::string>& given) const
{
    for (const auto& [flag, applies, where] :
         {std::make_tuple("cells", layout != "grid", "--layout=line or road"),
          std::make_tuple("columns", layout == "grid", "--layout=grid"),
          std::make_tuple("rows", layout == "grid", "--layout=grid"),
          std::make_tuple("arrivalRate", mobility == "poisson", "--mobility=poisson")})
    {
        if (auto at = given.find(flag); !applies && at != given.end())
        {
            return "--" + std::string(flag) + " = " + at->second +
                   " is invalid with --layout = " + layout + " and --mobility = " + mobility +
                   "; allowed: --" + flag + " only with " + where;
        }
    }
    return "";
}

std::string
ScenarioOptions::CheckUsed(int argc, char* argv[]) const
{
    std::map<std::string, std::string> given;
    for (const edgellm::NumberFlag& n : NumberFlags())
    {
        if (edgellm::IsFlagGiven(n.flag, argc, argv))
        {
            given[n.flag] = edgellm::GivenValue(n.flag, argc, argv);
        }
    }
    return CheckUsed(given);
}

DataRate
ScenarioOptions::GetBackhaulRate() const
{
    DataRate rate;
    const std::string bad = edgellm::ReadRateFlag("backhaulRate", backhaulRate, rate);
    NS_ABORT_MSG_UNLESS(bad.empty(), bad);
    return rate;
}

Time
ScenarioOptions::GetSimTime() const
{
    Time time;
    NS_ABORT_MSG_UNLESS(edgellm::ParseTime(simTime, time), "--simTime = " << simTime);
    return time;
}

std::vector<std::pair<std::string, std::string>>
ScenarioOptions::ToParameters() const
{
    return {{"layout", layout},
            {"cells", std::to_string(cells)},
            {"columns", std::to_string(columns)},
            {"rows", std::to_string(rows)},
            {"spacing", std::to_string(spacing)},
            {"backhaul", backhaul},
            {"backhaulRate", backhaulRate},
            {"ues", std::to_string(ues)},
            {"ran", ran},
            {"mobility", mobility},
            {"arrivalRate", std::to_string(arrivalRate)},
            {"speed", std::to_string(speed)},
            {"speedSpread", std::to_string(speedSpread)},
            {"departureSpread", std::to_string(departureSpread)},
            {"trigger", trigger},
            {"ueAirtime", ueAirtime},
            {"tokens", std::to_string(tokens)},
            {"simTime", simTime},
            {"scheme", scheme}};
}

} // namespace ns3
