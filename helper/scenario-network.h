/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_SCENARIO_NETWORK_H
#define EDGE_LLM_SCENARIO_NETWORK_H

#include "edge-llm-network.h"
#include "scenario-options.h"

#include "ns3/ptr.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Build the network of edge-llm-scenario from its options: the RAN stack, the cell
 * layout, the backhaul topology, the UEs and their motion (constant velocity, Poisson
 * entries, or random grid routes with their speed and departure spreads), the trigger, the
 * scheme with its serving defaults and the options' attributes, and the faults.
 *
 * The network is built (EdgeLlmNetwork::Build) and its random streams assigned; the run,
 * which the program starts (Simulator::Stop at options.GetSimTime(), Simulator::Run), and
 * its records are left to the caller. Seed and run number are ns-3's (RngSeedManager), as
 * the caller set them. Options that ScenarioOptions::Check refuses stop the program.
 *
 * \param options the options; Check() must return an empty string
 * \return the built network
 */
Ptr<EdgeLlmNetwork> BuildScenarioNetwork(const ScenarioOptions& options);

} // namespace ns3

#endif /* EDGE_LLM_SCENARIO_NETWORK_H */
