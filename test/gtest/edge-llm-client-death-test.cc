/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A client started without a required attribute stops the run, which a TestCase cannot
// observe; these death tests check that it stops, naming the attribute.

#include "ns3/edge-llm-client.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

/// Start a client with one of its required attributes left unset, and run.
void
StartWithout(const std::string& missing)
{
    Ptr<Node> ue = CreateObject<Node>();
    InternetStackHelper().Install(ue);
    Ptr<EdgeLlmClient> client = CreateObject<EdgeLlmClient>();
    if (missing != "Imsi")
    {
        client->SetAttribute("Imsi", UintegerValue(1));
    }
    if (missing != "ServerAddress")
    {
        client->SetAttribute("ServerAddress", Ipv4AddressValue("10.0.0.1"));
    }
    ue->AddApplication(client);
    client->SetStartTime(Seconds(0.1));
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    Simulator::Destroy();
}

TEST(EdgeLlmClientDeathTest, StartingWithoutTheImsiNamesIt)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(StartWithout("Imsi"), "ns3::EdgeLlmClient::Imsi is not set");
}

TEST(EdgeLlmClientDeathTest, StartingWithoutTheServerAddressNamesIt)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(StartWithout("ServerAddress"), "ns3::EdgeLlmClient::ServerAddress is not set");
}

} // namespace
