/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LINE_NETWORK_CASES_H
#define EDGE_LLM_LINE_NETWORK_CASES_H

// What the suites of both RANs build alike: a line network on a RAN by name, and the test of
// a handover its target refuses.

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/test.h"

#include <functional>
#include <string>

namespace ns3
{
namespace edgellm
{

/**
 * \param ran lte or nr
 * \param cells cells on the line, 300 m apart
 * \param trigger the network's Trigger
 * \return a network not yet built, its RAN stack, layout and trigger set
 */
inline Ptr<EdgeLlmNetwork>
MakeLineNetwork(const std::string& ran, uint32_t cells, const std::string& trigger)
{
    Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
    net->SetRanStack(CreateRanStack(ran));
    Ptr<LineCellLayout> line = CreateObject<LineCellLayout>();
    line->SetAttribute("Count", UintegerValue(cells));
    line->SetAttribute("Spacing", DoubleValue(300));
    net->SetCellLayout(line);
    net->SetAttribute("Trigger", StringValue(trigger));
    return net;
}

/**
 * \ingroup edge-llm-tests
 * \brief A handover the target refuses is reported as refused, and the session stays at the
 * source: every token arrives, and nothing migrates. One UE crosses from the first to the
 * second cell of a line (the planned trigger); the second admits no handover.
 */
class RefusedHandoverTestCase : public TestCase
{
  public:
    /// Makes a built network's target cell admit no handover.
    using Refuse = std::function<void(Ptr<EdgeLlmNetwork>, Ptr<NetDevice> target)>;

    /**
     * \param name the case's name
     * \param ran lte or nr
     * \param refuse makes the target refuse, the RAN's way
     */
    RefusedHandoverTestCase(const std::string& name, const std::string& ran, Refuse refuse)
        : TestCase(name),
          m_ran(ran),
          m_refuse(std::move(refuse))
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t tokens = 200;
        Ptr<EdgeLlmNetwork> net = MakeLineNetwork(m_ran, 2, "planned");
        Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
        EdgeLlmUeSpec ue;
        ue.start = Vector(130, 20, 0);
        ue.velocity = Vector(20, 0, 0);
        ue.moveStart = Seconds(0.5);
        net->AddUe(ue);
        net->Build();
        net->AssignStreams(1);
        m_refuse(net, net->GetCellDevices().Get(1));
        uint32_t refused = 0;
        uint32_t started = 0;
        net->GetObserver()->TraceConnectWithoutContext(
            "HandoverRefused",
            Callback<void, uint64_t, uint16_t, uint16_t>(
                [&refused](uint64_t, uint16_t, uint16_t) { ++refused; }));
        net->GetObserver()->TraceConnectWithoutContext(
            "HandoverStarted",
            Callback<void, uint64_t, uint16_t, uint16_t>(
                [&started](uint64_t, uint16_t, uint16_t) { ++started; }));
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(net->GetClients().Get(0));
        Simulator::Stop(Seconds(4));
        Simulator::Run();
        const uint64_t imsi = client->GetImsi();
        NS_TEST_EXPECT_MSG_EQ(net->GetPlannedHandovers().size(), 1u, "one crossing");
        NS_TEST_EXPECT_MSG_EQ(refused, 1u, "reported as refused");
        NS_TEST_EXPECT_MSG_EQ(started, 0u, "never started");
        NS_TEST_EXPECT_MSG_EQ(net->GetObserver()->GetServingCellId(imsi),
                              net->GetCellIds()[0],
                              "still served by the source");
        NS_TEST_EXPECT_MSG_EQ(client->IsComplete(), true, "the session completed");
        NS_TEST_EXPECT_MSG_EQ(client->GetDeliveredTokens(), tokens, "every token");
        NS_TEST_EXPECT_MSG_EQ(edge->GetCoordinator()->GetRecords().size(), 0u, "no migration");
        Simulator::Destroy();
        net->Dispose();
    }

    std::string m_ran; //!< the RAN
    Refuse m_refuse;   //!< makes the target refuse
};

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_LINE_NETWORK_CASES_H */
