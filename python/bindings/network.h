/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_PYTHON_NETWORK_H
#define EDGE_LLM_PYTHON_NETWORK_H

#include "ns3/edge-llm-network.h"
#include "ns3/edge-llm-results.h"
#include "ns3/scenario-options.h"
#include "ns3/simulator.h"
#include "ns3/token-log.h"

#include <cstddef>
#include <exception>
#include <map>
#include <memory>
#include <pybind11/pybind11.h>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace edgellm
{
namespace python
{

/**
 * \brief The Python callables connected to a network's traces, and the first exception one
 * of them raised.
 *
 * The ns-3 callbacks hold this by a shared pointer and an index, never a Python object: ns-3
 * may destroy them after the interpreter is gone, when dropping a Python object would crash.
 * Clear() drops the callables while the interpreter still runs.
 */
struct TraceCallables
{
    std::vector<pybind11::function> functions; //!< by index
    std::exception_ptr error;                  //!< the first exception a callable raised
    bool cleared{false};                       //!< Clear was called: the traces call nothing

    /**
     * \brief Call a callable from inside Simulator::Run, with the GIL held (Run is called from
     * Python). An exception stops the run, to be raised again by Network.run(); the callables
     * are not called again until then.
     * \param index the callable
     * \param args its arguments, made only if it is called
     */
    template <typename MakeArgs>
    void Call(std::size_t index, MakeArgs args);

    /// Drop the callables; they are called no more.
    void Clear();
};

/**
 * \brief One trace source a Python callable can be connected to: which part of the network
 * fires it, and how its arguments become Python values.
 */
struct NetworkTrace
{
    std::string name;                   //!< the ns-3 trace source's name, e.g. HandoverStarted
    std::string part;                   //!< network, observer, coordinator, clients or scheduler
    std::string signature;              //!< the callback type the source declares
    std::vector<std::string> arguments; //!< what the callable gets, in order, with units
    /// the callback for the index-th callable of a set
    CallbackBase (*make)(std::shared_ptr<TraceCallables> callables, std::size_t index);
};

/// \return every trace source the network can connect, by name
const std::vector<NetworkTrace>& NetworkTraces();

/**
 * \brief The options of a Network, read and checked.
 */
struct NetworkOptions
{
    ScenarioOptions scenario; //!< edge-llm-scenario's options, with the attributes
    uint32_t seed{1};         //!< ns-3's RngSeed
    uint32_t run{1};          //!< ns-3's RngRun
    /// the options given, as the example's arguments ("--backhaulRate=4.5Gbps")
    std::vector<std::string> arguments;
    /// every option, given or default, by the example's flag, for the sidecars
    std::vector<std::pair<std::string, std::string>> parameters;
};

/**
 * \brief Read and check a Network's options with edge-llm-scenario's own checks
 * (ScenarioOptions, FaultFlags) and its attributes as ns-3 would take them. Throws
 * std::invalid_argument with the refusal in the options' words.
 * \param options the scalar options, by Python name, as text
 * \param attributes attributes by part (scheduler_attributes, ...), each by name, as text
 * \return the options read
 */
NetworkOptions ReadNetworkOptions(
    const std::map<std::string, std::string>& options,
    const std::map<std::string, std::map<std::string, std::string>>& attributes);

/**
 * \param message a refusal in the example's words ("--backhaulRate = ...")
 * \return the refusal in the options' words ("backhaul_rate = ...")
 */
std::string InOptionWords(std::string message);

/**
 * \brief The scenario of edge-llm-scenario, built in this process: checked options, the
 * network, its traces, runs that continue one another, and its results.
 */
class Network
{
  public:
    /**
     * \brief Check every option, then build the network.
     * \param options the scalar options, by Python name, as text
     * \param attributes attributes by part (scheduler, coordinator, client, server, engine),
     *        each by name, as text
     */
    Network(const std::map<std::string, std::string>& options,
            const std::map<std::string, std::map<std::string, std::string>>& attributes);
    ~Network();

    Network(const Network&) = delete;
    Network& operator=(const Network&) = delete;

    /**
     * \brief Call a Python callable whenever a trace source of the network fires.
     * \param trace a name of NetworkTraces()
     * \param function the callable
     */
    void Connect(const std::string& trace, pybind11::function function);

    /**
     * \brief Run on to a time, from where the last run stopped.
     * \param until the time, as text ("20s")
     */
    void Run(const std::string& until);

    /// \return the simulation's time, s
    double Now() const;

    /// \return handovers.csv's text, as the example writes it
    std::string HandoversCsv() const;
    /// \return sessions.csv's text, as the example writes it
    std::string SessionsCsv() const;
    /// \return the token log's text, as the example's --tokensCsv writes it
    std::string TokensCsv() const;

    /**
     * \brief Write handovers.csv and sessions.csv (each with its JSON sidecar) and tokens.csv.
     * \param dir the directory; made when missing
     */
    void WriteCsv(const std::string& dir) const;

    /// Drop the Python callables and end the simulation; nothing runs after it.
    void Close();

  private:
    /// \return the results so far
    EdgeLlmRunResults Results() const;
    /// \return the objects of a part that fire traces (none if the network has none)
    std::vector<Ptr<Object>> Part(const std::string& part) const;

    NetworkOptions m_options;                    //!< the options, read
    Ptr<EdgeLlmNetwork> m_net;                   //!< the network
    std::shared_ptr<TraceCallables> m_callables; //!< the connected callables
    std::ostringstream m_tokens;                 //!< the token log's text
    Ptr<TokenLog> m_tokenLog;                    //!< writes m_tokens
    bool m_closed{false};                        //!< Close was called
    bool m_running{false};                       //!< inside Simulator::Run
};

template <typename MakeArgs>
void
TraceCallables::Call(std::size_t index, MakeArgs args)
{
    if (cleared || error || index >= functions.size())
    {
        return;
    }
    try
    {
        pybind11::tuple values = args();
        // A copy: the callable may connect another, and the vector grow under the call.
        pybind11::function function = functions[index];
        function(*values);
    }
    catch (...)
    {
        error = std::current_exception();
        Simulator::Stop();
    }
}

} // namespace python
} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_PYTHON_NETWORK_H */
