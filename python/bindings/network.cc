/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "network.h"

#include "bindings.h"

#include "ns3/attribute-text.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/handover-scheme-registry.h"
#include "ns3/input-checks.h"
#include "ns3/token-log-flag.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <pybind11/stl.h>
#include <stdexcept>
#include <tuple>

namespace py = pybind11;

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
};

/// Every option, in the order of the example's flags; the last ones are its fault flags.
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
    {"trigger", "trigger"},
    {"tokens", "tokens"},
    {"sim_time", "simTime"},
    {"scheme", "scheme"},
    {"seed", "RngSeed"},
    {"run", "RngRun"},
    {"backhaul_loss", "backhaulLoss"},
    {"outage_after", "outageAfter"},
    {"outage_for", "outageFor"},
    {"cross_traffic", "crossTraffic"},
    {"cross_traffic_rate", "crossTrafficRate"},
    {"cross_traffic_start", "crossTrafficStart"},
    {"cross_traffic_for", "crossTrafficFor"},
    {"stall_policy", "stallPolicy"},
    {"stall_timeout", "stallTimeout"},
    {"gpu_load", "gpuLoad"},
};

/// The first option of the fault flags in kOptions.
constexpr std::size_t kFirstFault = 18;

/// The attributes each part takes, by the keyword argument that gives them.
const std::vector<std::pair<std::string, std::string>> kAttributeParts{
    {"scheduler_attributes", ""}, // the scheme's scheduler type
    {"coordinator_attributes", "ns3::HandoverCoordinator"},
    {"client_attributes", "ns3::EdgeLlmClient"},
    {"server_attributes", "ns3::EdgeLlmServer"},
    {"engine_attributes", "ns3::LlmEngine"},
};

/// Whether a network was built in this process: ns-3 has one simulation per process.
bool g_built = false;
/// The network not yet closed, for CloseNetwork at the interpreter's exit.
Network* g_open = nullptr;

[[noreturn]] void
Refuse(const std::string& message)
{
    throw std::invalid_argument(message);
}

/// A refusal of the example's words ("--backhaulLoss = ...") in the options' words.
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

/// The options as checked, with what they were read into.
struct Options
{
    std::map<std::string, std::string> text;  //!< every option, given or default, as text
    std::map<std::string, std::string> given; //!< the options given
    uint32_t cells{0};                        //!< cells
    uint32_t columns{0};                      //!< columns
    uint32_t rows{0};                         //!< rows
    double spacing{0};                        //!< spacing, m
    DataRate backhaulRate;                    //!< backhaul_rate
    uint32_t ues{0};                          //!< ues
    double arrivalRate{0};                    //!< arrival_rate, UEs/s
    double speed{0};                          //!< speed, m/s
    uint32_t tokens{0};                       //!< tokens
    Time simTime;                             //!< sim_time
    std::string scheme;                       //!< the scheme, registered
    uint32_t seed{1};                         //!< seed
    uint32_t run{1};                          //!< run
    FaultConfig faults;                       //!< the fault options, read

    /// \param name an option \return its text
    const std::string& operator[](const std::string& name) const
    {
        return text.at(name);
    }
};

/// \return the count the text holds, checked as an integer option before
uint32_t
Integer(const std::string& text)
{
    return static_cast<uint32_t>(std::stoul(text));
}

/**
 * \brief Read and check the options as edge-llm-scenario checks its flags, with the same
 * ranges and in the same order, naming the options. Throws std::invalid_argument.
 */
Options
ReadOptions(const std::map<std::string, std::string>& given)
{
    Options o;
    o.given = given;
    o.text = {{"ran", "lte"},
              {"layout", "road"},
              {"cells", "4"},
              {"columns", "3"},
              {"rows", "3"},
              {"spacing", "300"},
              {"backhaul", "pairs"},
              {"backhaul_rate", "4.5Gbps"},
              {"ues", "3"},
              {"arrival_rate", "1"},
              {"speed", "20"},
              {"trigger", "planned"},
              {"tokens", "400"},
              {"sim_time", "12s"},
              {"scheme", "ctho"},
              {"seed", "1"},
              {"run", "1"}};
    for (const auto& [name, value] : given)
    {
        const bool known = std::any_of(kOptions.begin(), kOptions.end(), [&](const auto& n) {
            return n.option == name;
        });
        if (!known)
        {
            Refuse("edgellm.Network has no option " + name);
        }
        o.text[name] = value;
    }
    // Routes are the grid's mobility, constant velocity the line's and the road's.
    if (!given.count("mobility"))
    {
        o.text["mobility"] = o["layout"] == "grid" ? "routes" : "constant";
    }

    // The numbers first, as typed: the example's own check of its numeric flags.
    const std::vector<NumberFlag> numbers{
        {"cells", true, "an integer in [2, 64]", 2, 64},
        {"columns", true, "an integer in [1, 8]", 1, 8},
        {"rows", true, "an integer in [1, 8]", 1, 8},
        {"spacing", false, "a distance in [50, 5000] m", 50, 5000},
        {"ues", true, "an integer in [1, 64]", 1, 64},
        {"arrival_rate", false, "(0, 100] UEs/s", 0, 100, true},
        {"speed", false, "(0, 100] m/s", 0, 100, true},
        {"tokens", true, "an integer in [1, 1000000]", 1, 1e6},
        {"seed", true, "an integer in [1, 4294967295]", 1, 4294967295.0},
        {"run", true, "an integer in [0, 4294967295]", 0, 4294967295.0}};
    std::vector<std::string> args{"edgellm.Network"};
    for (const NumberFlag& n : numbers)
    {
        args.push_back("--" + n.flag + "=" + o[n.flag]);
    }
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    if (const std::string bad = CheckNumberFlags(numbers, argv.size(), argv.data()); !bad.empty())
    {
        Refuse(bad.substr(2)); // without the dashes of a flag
    }
    o.cells = Integer(o["cells"]);
    o.columns = Integer(o["columns"]);
    o.rows = Integer(o["rows"]);
    o.spacing = std::stod(o["spacing"]);
    o.ues = Integer(o["ues"]);
    o.arrivalRate = std::stod(o["arrival_rate"]);
    o.speed = std::stod(o["speed"]);
    o.tokens = Integer(o["tokens"]);
    o.seed = Integer(o["seed"]);
    o.run = Integer(o["run"]);

    const std::string& layout = o["layout"];
    const std::string& mobility = o["mobility"];
    if (o["ran"] != "lte" && o["ran"] != "nr")
    {
        ThrowInvalid("ran", o["ran"], "lte or nr");
    }
    if (!IsRanStackAvailable(o["ran"]))
    {
        Refuse("ran = nr is invalid here: this build of edge-llm has no NR support (it needs "
               "5G-LENA's nr module in the ns-3 tree); allowed: lte");
    }
    if (layout != "line" && layout != "road" && layout != "grid")
    {
        ThrowInvalid("layout", layout, "line, road or grid");
    }
    if (layout == "grid" && o.columns * o.rows < 2)
    {
        Refuse("columns = " + o["columns"] + " and rows = " + o["rows"] +
               " are invalid; allowed: integers in [1, 8], at least 2 cells");
    }
    if (o["backhaul"] != "pairs" && o["backhaul"] != "star")
    {
        ThrowInvalid("backhaul", o["backhaul"], "pairs or star");
    }
    if (const std::string bad = ReadRateFlag("backhaul_rate", o["backhaul_rate"], o.backhaulRate);
        !bad.empty())
    {
        Refuse(bad.substr(2));
    }
    if (mobility != "constant" && mobility != "poisson" && mobility != "routes")
    {
        ThrowInvalid("mobility", mobility, "constant, poisson or routes");
    }
    if ((mobility == "routes") != (layout == "grid"))
    {
        Refuse("mobility = " + mobility + " with layout = " + layout +
               " is invalid; allowed: routes on the grid, constant or poisson on a line or road");
    }
    const std::string& trigger = o["trigger"];
    if (trigger != "a3" && trigger != "a2a4" && trigger != "planned" && trigger != "none")
    {
        ThrowInvalid("trigger", trigger, "a3, a2a4, planned or none");
    }
    if (!ParseTime(o["sim_time"], o.simTime) || !(o.simTime > Seconds(1)))
    {
        ThrowInvalid("sim_time", o["sim_time"], "a time > 1 s, e.g. \"12s\"");
    }
    // An option that the layout or mobility does not use would be ignored without a word.
    for (const auto& [option, applies, where] :
         {std::make_tuple("cells", layout != "grid", "layout = line or road"),
          std::make_tuple("columns", layout == "grid", "layout = grid"),
          std::make_tuple("rows", layout == "grid", "layout = grid"),
          std::make_tuple("arrival_rate", mobility == "poisson", "mobility = poisson")})
    {
        if (!applies && given.count(option))
        {
            Refuse(std::string(option) + " = " + o[option] + " is invalid with layout = " + layout +
                   " and mobility = " + mobility + "; allowed: " + option + " only with " + where);
        }
    }

    // The scheme and the faults through the example's own flags, which read them as text.
    HandoverSchemeFlag scheme({}, "ctho");
    FaultFlags faultFlags;
    CommandLine cmd("edgellm.Network");
    scheme.AddTo(cmd);
    faultFlags.AddTo(cmd);
    std::vector<std::string> flagArgs{"edgellm.Network", "--scheme=" + o["scheme"]};
    for (std::size_t i = kFirstFault; i < kOptions.size(); ++i)
    {
        if (given.count(kOptions[i].option))
        {
            flagArgs.push_back("--" + kOptions[i].flag + "=" + given.at(kOptions[i].option));
        }
    }
    std::vector<char*> flagArgv;
    for (std::string& a : flagArgs)
    {
        flagArgv.push_back(a.data());
    }
    cmd.Parse(flagArgv.size(), flagArgv.data());
    try
    {
        o.scheme = scheme.GetSchemes().at(0);
    }
    catch (const std::invalid_argument& e)
    {
        Refuse(InOptionWords(e.what()));
    }
    if (const std::string bad = faultFlags.Read(o.faults); !bad.empty())
    {
        Refuse(InOptionWords(bad));
    }
    return o;
}

/**
 * \brief Check the attributes of every part as ns-3 would take them, so that setting them
 * cannot stop the process. Throws std::invalid_argument.
 * \return each part's attributes, as the names ns-3 sets them by
 */
std::map<std::string, std::vector<std::pair<std::string, std::string>>>
ReadAttributes(const std::map<std::string, std::map<std::string, std::string>>& attributes,
               const std::string& scheme)
{
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> read;
    for (const auto& [part, values] : attributes)
    {
        auto at = std::find_if(kAttributeParts.begin(), kAttributeParts.end(), [&](auto& p) {
            return p.first == part;
        });
        if (at == kAttributeParts.end())
        {
            Refuse("edgellm.Network has no option " + part);
        }
        const std::string typeName =
            at->second.empty() ? HandoverSchedulerTypeOf(scheme) : at->second;
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
            read[part].emplace_back(name, text);
        }
    }
    return read;
}

/// The example's [scenario] block, with the options read.
Ptr<EdgeLlmNetwork>
BuildNetwork(
    const Options& o,
    const std::map<std::string, std::vector<std::pair<std::string, std::string>>>& attributes)
{
    RngSeedManager::SetSeed(o.seed);
    RngSeedManager::SetRun(o.run);
    Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
    net->SetRanStack(CreateRanStack(o["ran"], "ran"));
    Ptr<CellLayout> layout;
    if (o["layout"] == "grid")
    {
        layout = CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                            UintegerValue(o.columns),
                                                            "Rows",
                                                            UintegerValue(o.rows),
                                                            "Spacing",
                                                            DoubleValue(o.spacing));
    }
    else if (o["layout"] == "road")
    {
        layout = CreateObjectWithAttributes<RoadCellLayout>("Count",
                                                            UintegerValue(o.cells),
                                                            "Spacing",
                                                            DoubleValue(o.spacing),
                                                            "Offset",
                                                            DoubleValue(30));
    }
    else
    {
        layout = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                            UintegerValue(o.cells),
                                                            "Spacing",
                                                            DoubleValue(o.spacing));
    }
    net->SetCellLayout(layout);
    if (o["backhaul"] == "star")
    {
        net->SetBackhaulTopology(CreateObjectWithAttributes<StarBackhaulTopology>(
            "SharedRate",
            DataRateValue(o.backhaulRate),
            "AccessRate",
            DataRateValue(std::max(o.backhaulRate, DataRate("10Gbps")))));
    }
    else
    {
        Ptr<PerPairBackhaulTopology> pairs = CreateObject<PerPairBackhaulTopology>();
        pairs->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(o.backhaulRate));
        net->SetBackhaulTopology(pairs);
    }
    const double end = o.simTime.GetSeconds();
    if (o["mobility"] == "routes")
    {
        Ptr<GridRandomRoute> routes = CreateObject<GridRandomRoute>();
        routes->SetAttribute("Speed", DoubleValue(o.speed));
        routes->AssignStreams(10);
        Ptr<UniformRandomVariable> startCell = CreateObject<UniformRandomVariable>();
        startCell->SetStream(11);
        for (uint32_t j = 0; j < o.ues; ++j)
        {
            const uint32_t cell = startCell->GetInteger(0, layout->GetCellCount() - 1);
            EdgeLlmUeSpec ue;
            ue.route =
                routes->GetRoute(*DynamicCast<GridCellLayout>(layout), cell, 1, end).GetWaypoints();
            net->AddUe(ue);
        }
    }
    else
    {
        const bool poisson = o["mobility"] == "poisson";
        const double y = o["layout"] == "road" ? 0 : 20;
        std::vector<double> entries;
        if (poisson)
        {
            Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
            gap->SetStream(12);
            entries = DrawPoissonArrivals(gap, o.arrivalRate, 0.5, end, o.ues);
        }
        for (uint32_t j = 0; j < o.ues && (!poisson || j < entries.size()); ++j)
        {
            EdgeLlmUeSpec ue;
            ue.velocity = Vector(o.speed, 0, 0);
            if (poisson)
            {
                ue.start = Vector(0, y, 0);
                ue.moveStart = Seconds(entries[j]);
                ue.sessionStart = Seconds(entries[j]);
            }
            else
            {
                ue.start = Vector(o.spacing / 3 + 10 * j, y, 0);
                ue.moveStart = Seconds(1);
            }
            net->AddUe(ue);
        }
    }
    net->SetAttribute("Trigger", StringValue(o["trigger"]));
    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
    edge->SetScheme(o.scheme);
    auto set = [&attributes](const std::string& part, auto setter) {
        if (auto at = attributes.find(part); at != attributes.end())
        {
            for (const auto& [name, text] : at->second)
            {
                setter(name, StringValue(text));
            }
        }
    };
    // After the scheme, which drops scheduler attributes set before it; before the policy is
    // matched to the scheduler's slot, which they may set.
    set("scheduler_attributes",
        [&](const std::string& n, const StringValue& v) { edge->SetSchedulerAttribute(n, v); });
    edge->MatchKvTransferPolicyToScheduler();
    edge->SetCoordinatorAttribute("Batching", StringValue("online"));
    edge->SetClientAttribute("PromptTokens", UintegerValue(1024));
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(o.tokens));
    set("coordinator_attributes",
        [&](const std::string& n, const StringValue& v) { edge->SetCoordinatorAttribute(n, v); });
    set("client_attributes",
        [&](const std::string& n, const StringValue& v) { edge->SetClientAttribute(n, v); });
    set("server_attributes",
        [&](const std::string& n, const StringValue& v) { edge->SetServerAttribute(n, v); });
    set("engine_attributes",
        [&](const std::string& n, const StringValue& v) { edge->SetEngineAttribute(n, v); });
    net->SetFaults(o.faults);
    net->Build();
    net->AssignStreams(1);
    return net;
}

} // namespace

Network::Network(const std::map<std::string, std::string>& options,
                 const std::map<std::string, std::map<std::string, std::string>>& attributes)
{
    if (g_built)
    {
        throw std::runtime_error(
            "edgellm.Network: this process already built a network, and ns-3 runs one "
            "simulation per process; build each further network in a child process of its own "
            "(edgellm.run, edgellm.run_scenario, edgellm.sweep)");
    }
    const Options o = ReadOptions(options);
    const auto read = ReadAttributes(attributes, o.scheme);
    g_built = true;
    m_scheme = o.scheme;
    for (const OptionName& name : kOptions)
    {
        if (o.text.count(name.option))
        {
            m_given.emplace_back(name.flag, o[name.option]);
        }
    }
    for (const auto& [part, values] : read)
    {
        for (const auto& [name, text] : values)
        {
            m_given.emplace_back(part + "." + name, text);
        }
    }
    m_net = BuildNetwork(o, read);
    m_callables = std::make_shared<TraceCallables>();
    m_tokenLog = Create<TokenLog>(m_tokens);
    LogTokensOf(m_tokenLog, m_scheme, m_net->GetClients());
    g_open = this;
}

Network::~Network()
{
    if (!m_running) // never inside a run: the bound call holds the object until it returns
    {
        Close();
    }
}

std::vector<Ptr<Object>>
Network::Part(const std::string& part) const
{
    Ptr<HandoverCoordinator> coordinator = m_net->GetEdgeLlmHelper()->GetCoordinator();
    if (part == "observer")
    {
        return {m_net->GetObserver()};
    }
    if (part == "coordinator")
    {
        return {coordinator};
    }
    if (part == "scheduler")
    {
        Ptr<HandoverScheduler> scheduler = coordinator->GetScheduler();
        return scheduler ? std::vector<Ptr<Object>>{scheduler} : std::vector<Ptr<Object>>{};
    }
    std::vector<Ptr<Object>> clients;
    for (uint32_t i = 0; i < m_net->GetClients().GetN(); ++i)
    {
        clients.push_back(m_net->GetClients().Get(i));
    }
    return clients;
}

void
Network::Connect(const std::string& trace, py::function function)
{
    if (m_closed)
    {
        throw std::runtime_error("edgellm.Network: the network is closed");
    }
    const auto& traces = NetworkTraces();
    auto spec = std::find_if(traces.begin(), traces.end(), [&](const NetworkTrace& t) {
        return t.name == trace;
    });
    if (spec == traces.end())
    {
        std::vector<std::string> names;
        for (const NetworkTrace& t : traces)
        {
            names.push_back(t.name);
        }
        ThrowInvalid("trace", trace, JoinNames(names));
    }
    const std::vector<Ptr<Object>> objects = Part(spec->part);
    for (const Ptr<Object>& object : objects)
    {
        const TypeId tid = object->GetInstanceTypeId();
        TypeId::TraceSourceInformation info;
        if (!tid.LookupTraceSourceByName(trace, &info))
        {
            Refuse("trace = " + trace + " is invalid with scheme = " + m_scheme + ": its " +
                   spec->part + ", " + tid.GetName() +
                   ", has no such trace source; allowed: the traces of its scheme's parts");
        }
        if (info.callback != spec->signature)
        {
            throw std::runtime_error("edgellm.Network: the trace source " + tid.GetName() +
                                     "::" + trace + " now has the signature " + info.callback +
                                     ", not " + spec->signature + "; the bindings need updating");
        }
    }
    if (objects.empty())
    {
        Refuse("trace = " + trace + " is invalid: this network has no " + spec->part);
    }
    const std::size_t index = m_callables->functions.size();
    m_callables->functions.push_back(std::move(function));
    for (const Ptr<Object>& object : objects)
    {
        object->TraceConnectWithoutContext(trace, spec->make(m_callables, index));
    }
}

void
Network::Run(const std::string& until)
{
    if (m_closed)
    {
        throw std::runtime_error("edgellm.Network: the network is closed");
    }
    if (m_running)
    {
        throw std::runtime_error("edgellm.Network: run() was called from a callback of the run");
    }
    Time stop;
    if (!ParseTime(until, stop) || !(stop > Simulator::Now()))
    {
        ThrowInvalid("until",
                     until,
                     "a time after the simulation's now, " + Repr(Simulator::Now().GetSeconds()) +
                         " s, e.g. \"20s\"");
    }
    // An event of its own rather than Simulator::Stop(delay): a run that a callable's
    // exception stopped early leaves it pending, and it is cancelled, not left to stop the
    // next run.
    const EventId stopEvent =
        Simulator::Schedule(stop - Simulator::Now(), static_cast<void (*)()>(&Simulator::Stop));
    m_running = true;
    Simulator::Run();
    m_running = false;
    Simulator::Cancel(stopEvent);
    if (std::exception_ptr error = m_callables->error)
    {
        m_callables->error = nullptr;
        std::rethrow_exception(error);
    }
}

double
Network::Now() const
{
    return Simulator::Now().GetSeconds();
}

EdgeLlmRunResults
Network::Results() const
{
    if (m_closed)
    {
        throw std::runtime_error("edgellm.Network: the network is closed");
    }
    Ptr<HandoverCoordinator> coordinator = m_net->GetEdgeLlmHelper()->GetCoordinator();
    EdgeLlmRunResults results =
        CollectRunResults(m_scheme, coordinator->GetRecords(), m_net->GetClients());
    NoteClosedSessions(results, coordinator->GetClosedSessions());
    return results;
}

std::string
Network::HandoversCsv() const
{
    std::ostringstream os;
    WriteHandoversCsv(os, {Results()});
    return os.str();
}

std::string
Network::SessionsCsv() const
{
    std::ostringstream os;
    WriteSessionsCsv(os, {Results()});
    return os.str();
}

std::string
Network::TokensCsv() const
{
    return m_tokens.str();
}

void
Network::WriteCsv(const std::string& dir) const
{
    const EdgeLlmRunResults results = Results();
    if (const std::string bad = PrepareOutDir("out_dir", dir); !bad.empty())
    {
        Refuse(InOptionWords(bad));
    }
    EdgeLlmRunMetadata meta;
    meta.program = "edgellm.Network";
    meta.arguments.push_back(meta.program);
    for (const auto& [flag, value] : m_given)
    {
        meta.arguments.push_back("--" + flag + "=" + value);
    }
    meta.parameters = m_given;
    meta.parameters.emplace_back("outDir", dir);
    std::ofstream tokens(dir + "/tokens.csv");
    tokens << m_tokens.str();
    tokens.close();
    if (!tokens || !WriteRunResults(dir, {results}, meta))
    {
        throw std::runtime_error("out_dir = " + dir + ": cannot write the results there");
    }
}

void
Network::Close()
{
    if (m_closed)
    {
        return;
    }
    if (m_running)
    {
        // Destroying the simulator under its own Run would crash the process.
        throw std::runtime_error("edgellm.Network: close() was called from a callback of the run");
    }
    m_closed = true;
    m_callables->Clear();
    Simulator::Destroy();
    m_net->Dispose();
    if (g_open == this)
    {
        g_open = nullptr;
    }
}

void
BindNetwork(py::module_& m)
{
    py::class_<Network>(m, "_Network")
        .def(py::init<const std::map<std::string, std::string>&,
                      const std::map<std::string, std::map<std::string, std::string>>&>(),
             py::arg("options"),
             py::arg("attributes"))
        .def("connect", &Network::Connect, py::arg("trace"), py::arg("function"))
        .def("run", &Network::Run, py::arg("until"))
        .def("now", &Network::Now)
        .def("handovers_csv", &Network::HandoversCsv)
        .def("sessions_csv", &Network::SessionsCsv)
        .def("tokens_csv", &Network::TokensCsv)
        .def("write_csv", &Network::WriteCsv, py::arg("out_dir"))
        .def("close", &Network::Close);
    m.def(
        "network_traces",
        [] {
            std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> traces;
            for (const NetworkTrace& t : NetworkTraces())
            {
                traces.emplace_back(t.name, t.part, t.arguments);
            }
            return traces;
        },
        "The traces edgellm.Network connects: (name, part, arguments).");
    m.def(
        "close_network",
        [] {
            if (g_open)
            {
                g_open->Close();
            }
        },
        "Close the open network, if any: its callables are dropped while the interpreter "
        "still runs.");
}

} // namespace python
} // namespace edgellm
} // namespace ns3
