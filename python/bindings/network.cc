/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "network.h"

#include "bindings.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/input-checks.h"
#include "ns3/token-log-flag.h"

#include <algorithm>
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

/// Whether a network was built in this process: ns-3 has one simulation per process.
bool g_built = false;
/// The network not yet closed, for CloseNetwork at the interpreter's exit.
Network* g_open = nullptr;

[[noreturn]] void
Refuse(const std::string& message)
{
    throw std::invalid_argument(message);
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
    m_options = ReadNetworkOptions(options, attributes);
    g_built = true;
    RngSeedManager::SetSeed(m_options.seed);
    RngSeedManager::SetRun(m_options.run);
    m_net = BuildScenarioNetwork(m_options.scenario);
    m_callables = std::make_shared<TraceCallables>();
    m_tokenLog = Create<TokenLog>(m_tokens);
    LogTokensOf(m_tokenLog, m_options.scenario.scheme, m_net->GetClients());
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
    if (part == "network")
    {
        return {m_net};
    }
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
            Refuse("trace = " + trace + " is invalid with scheme = " + m_options.scenario.scheme +
                   ": its " + spec->part + ", " + tid.GetName() +
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
    EdgeLlmRunResults results = CollectRunResults(m_options.scenario.scheme,
                                                  coordinator->GetRecords(),
                                                  m_net->GetClients());
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
    meta.arguments.insert(meta.arguments.end(),
                          m_options.arguments.begin(),
                          m_options.arguments.end());
    meta.parameters = m_options.parameters;
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
