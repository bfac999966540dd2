/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Starts an EdgeLlmClient with one required attribute missing; the run must stop naming it.
// The argument names the attribute to leave unset: Imsi or ServerAddress.

#include "ns3/core-module.h"
#include "ns3/edge-llm-client.h"
#include "ns3/internet-stack-helper.h"

#include <iostream>
#include <string>

using namespace ns3;

int
main(int argc, char** argv)
{
    const std::string missing = argc > 1 ? argv[1] : "";
    if (missing != "Imsi" && missing != "ServerAddress")
    {
        std::cerr << "usage: edge-llm-client-fatal Imsi|ServerAddress" << std::endl;
        return 2;
    }
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
    std::cout << "the client started without " << missing << std::endl;
    return 0;
}
