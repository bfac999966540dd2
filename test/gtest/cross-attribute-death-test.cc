/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Constraints between two attributes, which no checker of one can hold: the object that uses
// them stops the run, naming both.

#include "ns3/core-module.h"
#include "ns3/edge-llm-server.h"
#include "ns3/node.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

TEST(CrossAttributeDeathTest, ServerPortAndRelayPortMustDiffer)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<Node> node = CreateObject<Node>();
    Ptr<EdgeLlmServer> server = CreateObject<EdgeLlmServer>();
    server->SetAttribute("Port", UintegerValue(9000));
    server->SetAttribute("RelayPort", UintegerValue(9000));
    node->AddApplication(server);
    EXPECT_DEATH(Simulator::Run(),
                 "ns3::EdgeLlmServer::RelayPort = 9000 is invalid; allowed: a port other than "
                 "ns3::EdgeLlmServer::Port = 9000");
    Simulator::Destroy();
}

} // namespace
