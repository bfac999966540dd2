/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CONTROL_PLANE_FLAG_H
#define EDGE_LLM_CONTROL_PLANE_FLAG_H

#include "ns3/command-line.h"
#include "ns3/control-message.h"
#include "ns3/handover-coordinator.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The --controlPlane and --policyAt flags every example takes: how the handover
 * policy's decisions reach the cells (HandoverCoordinator::ControlPlane) and where it runs
 * (HandoverCoordinator::PolicyAt).
 */
class ControlPlaneFlags
{
  public:
    /// Add the flags to a command line. \param cmd the command line
    void AddTo(CommandLine& cmd);

    /**
     * \brief Only a controller can hold the program's policy (its slot budgets couple every
     * link): --policyAt defaults to controller, and source or target is refused. Call before
     * the command line is parsed.
     * \param why the reason, named in the refusal
     */
    void RequireController(const std::string& why);

    /**
     * \brief Check the flags, and make them the HandoverCoordinator's defaults.
     *
     * --policyAt=target or controller needs --controlPlane=network; controller also sets
     * PerPairBackhaulTopology::Controller, so that per-pair links get a controller node (a
     * star has its own); and a flag's attribute given beside it
     * (--ns3::HandoverCoordinator::ControlPlane) is refused, naming the flag.
     * \param argc the program's argc \param argv the program's argv
     * \return the first refusal, one line, or an empty string
     */
    std::string Apply(int argc, char* argv[]) const;

    /// \return --controlPlane's value
    const std::string& GetControlPlane() const;

    /// \return --policyAt's value
    const std::string& GetPolicyAt() const;

    /// \return true for --controlPlane=network
    bool IsNetwork() const;

    /// \return what a run's header line ends with: nothing for an ideal control plane (its
    /// headers stay as they were), else ", " and Describe()
    std::string HeaderSuffix() const;

    /// \return for a run's header: "control plane ideal", or "... network (policy at the
    /// source)"
    std::string Describe() const;

  private:
    std::string m_controlPlane{"ideal"}; //!< --controlPlane
    std::string m_policyAt{"source"};    //!< --policyAt
    std::string m_controllerRequired;    //!< RequireController's reason
};

class EdgeLlmHelper;

/**
 * \ingroup edge-llm
 * \brief What a run's control plane carried, for a program's summary line: the messages'
 * one-way delays (ControlChannel::Rx) and how long each handover's plan waited for them
 * (HandoverCoordinator::ControlDelay).
 */
class ControlPlaneTally
{
  public:
    /// Listen to a helper's channels and coordinator (if it has one), after InstallObserver.
    /// \param edge the helper
    void Watch(Ptr<EdgeLlmHelper> edge);

    /// \return "control plane: N messages, one-way mean / max ms, plans applied mean / max ms
    /// after the handover start", and "K plans timed out" when some did
    /// (HandoverCoordinator::PlanTimeout), or "control plane: no message" when none arrived
    std::string Summary() const;

    /// \return each message's one-way delay, in arrival order
    const std::vector<Time>& GetOneWayDelays() const;

    /// \return each handover's wait for its plan, in order
    const std::vector<Time>& GetPlanWaits() const;

  private:
    /// ControlChannel::Rx. \param message the message \param delay its one-way delay
    void Rx(const ControlMessage& message, Time delay);
    /// HandoverCoordinator::ControlDelay. \param imsi the UE \param sourceCell its source
    /// \param targetCell its target \param delay the plan's wait
    void Waited(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell, Time delay);

    std::vector<Time> m_oneWay;             //!< per message
    std::vector<Time> m_waits;              //!< per handover
    Ptr<HandoverCoordinator> m_coordinator; //!< the helper's, for its plan timeouts
};

} // namespace ns3

#endif /* EDGE_LLM_CONTROL_PLANE_FLAG_H */
