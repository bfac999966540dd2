/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What RanStack decides for both RANs from the two reads each stack makes (a UE's RRC state,
// and whether a cell holds its context connected): a UE's readiness for a handover,
// IsUeConnected, the fate of a requested handover, and the uplink routes' links to the core,
// against tables written out by hand, on a stack whose reads are scripted.

#include "ns3/channel.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/ran-stack.h"
#include "ns3/simple-net-device.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// A RanStack whose devices are SimpleNetDevices and whose RRC reads are set by the test.
class ScriptedRanStack : public RanStack
{
  public:
    std::map<Ptr<NetDevice>, UeRrcState> ues;       //!< each UE's RRC state
    std::map<Ptr<NetDevice>, uint16_t> cellIds;     //!< each cell's id
    std::set<std::pair<uint16_t, uint16_t>> joined; //!< (cell id, RNTI) held connected
    std::vector<uint16_t> requested;                //!< targets DoRequestHandover was asked
    std::vector<HandoverTrigger> applied;           //!< triggers DoSetTrigger applied

    /// \return a cell with this id, remembered as the stack's
    Ptr<NetDevice> MakeCell(uint16_t id)
    {
        Ptr<NetDevice> cell = CreateObject<SimpleNetDevice>();
        cellIds[cell] = id;
        NetDeviceContainer made(cell);
        AddCells(made);
        return cell;
    }

    /// \return a cell with this id as device 0 of the node, remembered as the stack's
    Ptr<NetDevice> MakeCellOn(Ptr<Node> node, uint16_t id)
    {
        Ptr<NetDevice> cell = MakeCell(id);
        node->AddDevice(cell);
        return cell;
    }

    /// \param delay the UplinkLinkDelay (the attribute of each RAN's stack)
    void SetUplinkDelay(Time delay)
    {
        m_uplinkDelay = delay;
    }

    Ptr<Node> pgw; //!< the core's gateway node

    /// \return a cell id unknown to the stack's cells
    Ptr<NetDevice> MakeForeignCell(uint16_t id)
    {
        Ptr<NetDevice> cell = CreateObject<SimpleNetDevice>();
        cellIds[cell] = id;
        return cell;
    }

    using RanStack::GetReadiness;
    using RanStack::IsRanTriggered;
    using RanStack::Readiness;
    using RanStack::UeRrcState;

    std::string GetName() const override
    {
        return "scripted";
    }

    NetDeviceContainer InstallCells(const NodeContainer&) override
    {
        return {};
    }

    NetDeviceContainer InstallUes(const NodeContainer&) override
    {
        return {};
    }

    void AddX2(Ptr<Node>, Ptr<Node>) override
    {
    }

    void Attach(Ptr<NetDevice>, Ptr<NetDevice>) override
    {
    }

    void SetUeOnAir(Ptr<NetDevice>, bool) override
    {
    }

    Ptr<RanDownlink> CreateLocalBreakout(Ptr<NetDevice>) override
    {
        return nullptr;
    }

    Ptr<RanObserver> CreateObserver() override
    {
        return nullptr;
    }

    uint16_t GetCellId(Ptr<NetDevice> cell) const override
    {
        return cellIds.at(cell);
    }

    uint64_t GetImsi(Ptr<NetDevice>) const override
    {
        return 1;
    }

    int64_t AssignStreams(const NetDeviceContainer&, int64_t) override
    {
        return 0;
    }

  protected:
    UeRrcState GetUeRrcState(Ptr<NetDevice> ue) const override
    {
        return ues.at(ue);
    }

    bool IsContextConnected(Ptr<NetDevice> cell, uint16_t rnti) const override
    {
        return joined.count({cellIds.at(cell), rnti}) > 0;
    }

    void AssignUeAddresses(const NetDeviceContainer&) override
    {
    }

    Ipv4Address GetUeGateway() override
    {
        return Ipv4Address("7.0.0.1");
    }

    Ptr<Node> GetPgwNode() override
    {
        return pgw;
    }

    void DoSetTrigger(HandoverTrigger trigger) override
    {
        applied.push_back(trigger);
    }

    void DoRequestHandover(Ptr<NetDevice>, Ptr<NetDevice>, uint16_t targetCellId) override
    {
        requested.push_back(targetCellId);
    }
};

} // namespace

TEST(RanStack, ReadinessAndConnectionFromTheTwoReads)
{
    Ptr<ScriptedRanStack> stack = CreateObject<ScriptedRanStack>();
    Ptr<NetDevice> a = stack->MakeCell(1);
    Ptr<NetDevice> b = stack->MakeCell(2);
    Ptr<NetDevice> ue = CreateObject<SimpleNetDevice>();
    using R = ScriptedRanStack::Readiness;

    struct Row
    {
        ScriptedRanStack::UeRrcState state; // the UE's RRC
        bool contextAtA;                    // cell 1 holds its RNTI connected
        bool contextAtB;                    // cell 2 holds its RNTI connected
        R fromA;                            // readiness for a handover out of cell 1
        bool connected;                     // IsUeConnected
    };

    const std::vector<Row> rows{
        // Connected at both ends to cell 1.
        {{1, 7, true}, true, false, R::READY, true},
        // Cell 1 prepares a handover: its context is not connected normally.
        {{1, 7, true}, false, false, R::NOT_YET, false},
        // The UE is in a handover (or attaching) at cell 1.
        {{1, 7, false}, true, false, R::NOT_YET, false},
        // Served by cell 2 at both ends: elsewhere for cell 1, connected.
        {{2, 7, true}, false, true, R::ELSEWHERE, true},
        // Its RRC is at cell 2, whose context is not connected yet.
        {{2, 7, true}, false, false, R::ELSEWHERE, false},
        // Still joining cell 2.
        {{2, 7, false}, false, true, R::NOT_YET, false},
        // A context of another RNTI at cell 1 is not this UE's.
        {{1, 8, true}, false, false, R::NOT_YET, false},
    };
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        const Row& row = rows[i];
        stack->ues[ue] = row.state;
        stack->joined.clear();
        if (row.contextAtA)
        {
            stack->joined.insert({1, 7});
        }
        if (row.contextAtB)
        {
            stack->joined.insert({2, 7});
        }
        EXPECT_EQ(stack->GetReadiness(ue, a), row.fromA) << "row " << i;
        EXPECT_EQ(stack->IsUeConnected(ue), row.connected) << "row " << i;
    }
    // A cell of another stack is none of this one's: the UE connected to it is not.
    Ptr<NetDevice> foreign = stack->MakeForeignCell(3);
    stack->ues[ue] = {3, 7, true};
    stack->joined = {{3, 7}};
    EXPECT_EQ(stack->GetReadiness(ue, foreign), R::READY);
    EXPECT_FALSE(stack->IsUeConnected(ue));
    (void)b;
    stack->Dispose();
}

TEST(RanStack, RequestedHandoverFollowsTheReadiness)
{
    Ptr<ScriptedRanStack> stack = CreateObject<ScriptedRanStack>();
    Ptr<NetDevice> a = stack->MakeCell(1);
    stack->MakeCell(2);
    Ptr<NetDevice> ue = CreateObject<SimpleNetDevice>();
    std::vector<RanStack::RequestOutcome> outcomes;
    auto done = [&outcomes](RanStack::RequestOutcome o) { outcomes.push_back(o); };

    // Ready at once: requested, no retry.
    stack->ues[ue] = {1, 7, true};
    stack->joined = {{1, 7}};
    stack->RequestHandover(ue, a, 2, Seconds(1), Callback<void, RanStack::RequestOutcome>(done));
    Simulator::Run();
    ASSERT_EQ(outcomes.size(), 1u);
    EXPECT_EQ(outcomes[0], RanStack::REQUESTED);
    EXPECT_EQ(stack->requested, std::vector<uint16_t>{2});
    EXPECT_EQ(stack->GetRequestRetries(), 0u);

    // Served by cell 2 already: dropped at once.
    stack->ues[ue] = {2, 7, true};
    stack->joined = {{2, 7}};
    stack->RequestHandover(ue, a, 2, Seconds(1), Callback<void, RanStack::RequestOutcome>(done));
    Simulator::Run();
    ASSERT_EQ(outcomes.size(), 2u);
    EXPECT_EQ(outcomes[1], RanStack::SERVED_ELSEWHERE);
    EXPECT_EQ(stack->requested.size(), 1u);
    EXPECT_EQ(stack->GetRequestsDropped(), 1u);

    // Never ready: retried until the give-up time, then dropped, never requested.
    stack->ues[ue] = {1, 7, false};
    stack->RequestHandover(ue,
                           a,
                           2,
                           Simulator::Now() + MilliSeconds(200),
                           Callback<void, RanStack::RequestOutcome>(done));
    Simulator::Run();
    ASSERT_EQ(outcomes.size(), 3u);
    EXPECT_EQ(outcomes[2], RanStack::NOT_READY);
    EXPECT_EQ(stack->requested.size(), 1u);
    EXPECT_GT(stack->GetRequestRetries(), 0u);
    EXPECT_EQ(stack->GetRequestsDropped(), 2u);
    stack->Dispose();
    Simulator::Destroy();
}

TEST(RanStack, TriggerIsSetBeforeTheCellsAndDecidesRlf)
{
    for (HandoverTrigger t : {HandoverTrigger::NONE,
                              HandoverTrigger::A3,
                              HandoverTrigger::A2A4,
                              HandoverTrigger::PLANNED})
    {
        Ptr<ScriptedRanStack> stack = CreateObject<ScriptedRanStack>();
        EXPECT_EQ(stack->GetTrigger(), HandoverTrigger::NONE);
        stack->SetTrigger(t);
        EXPECT_EQ(stack->GetTrigger(), t);
        EXPECT_EQ(stack->applied, std::vector<HandoverTrigger>{t});
        // The RAN's own algorithm hands over for a3 and a2a4 only.
        EXPECT_EQ(stack->IsRanTriggered(), t == HandoverTrigger::A3 || t == HandoverTrigger::A2A4)
            << ToString(t);
        stack->Dispose();
    }
}

TEST(RanStackDeathTest, TriggerAfterTheCellsStopsTheRun)
{
    Ptr<ScriptedRanStack> stack = CreateObject<ScriptedRanStack>();
    stack->MakeCell(1);
    EXPECT_DEATH(stack->SetTrigger(HandoverTrigger::A3), "SetTrigger: call it before InstallCells");
}

TEST(RanStack, UplinkRoutesLinkEachCellToTheGateway)
{
    Ptr<ScriptedRanStack> stack = CreateObject<ScriptedRanStack>();
    NodeContainer cells(2);
    stack->pgw = CreateObject<Node>();
    // The cells first, as a RAN's helper makes them: the Internet stack adds a loopback device.
    stack->MakeCellOn(cells.Get(0), 1);
    stack->MakeCellOn(cells.Get(1), 2);
    InternetStackHelper internet;
    internet.Install(cells);
    internet.Install(stack->pgw);
    stack->SetUplinkDelay(MilliSeconds(3));

    Ipv4InterfaceContainer servers = stack->InstallUplinkRoutes(cells);
    ASSERT_EQ(servers.GetN(), 2u);
    Ipv4StaticRoutingHelper routing;
    for (uint32_t i = 0; i < 2; ++i)
    {
        // The server's interface is the cell node's end of a link of UplinkLinkDelay to the
        // gateway node.
        Ptr<Ipv4> ip = servers.Get(i).first;
        EXPECT_EQ(ip->GetObject<Node>(), cells.Get(i)) << "cell " << i;
        Ptr<NetDevice> end = ip->GetNetDevice(servers.Get(i).second);
        Ptr<Channel> link = end->GetChannel();
        ASSERT_TRUE(link) << "cell " << i;
        ASSERT_EQ(link->GetNDevices(), 2u);
        EXPECT_EQ(link->GetDevice(1)->GetNode(), stack->pgw) << "cell " << i;
        TimeValue delay;
        link->GetAttribute("Delay", delay);
        EXPECT_EQ(delay.Get(), MilliSeconds(3)) << "cell " << i;
        // The cell's node routes the UEs' /8 (of the gateway 7.0.0.1) over that link.
        Ptr<Ipv4StaticRouting> table = routing.GetStaticRouting(ip);
        bool routed = false;
        for (uint32_t r = 0; r < table->GetNRoutes(); ++r)
        {
            const Ipv4RoutingTableEntry route = table->GetRoute(r);
            routed = routed || (route.GetDest() == Ipv4Address("7.0.0.0") &&
                                route.GetDestNetworkMask() == Ipv4Mask("255.0.0.0") &&
                                route.GetInterface() == servers.Get(i).second);
        }
        EXPECT_TRUE(routed) << "cell " << i;
    }
    stack->Dispose();
    Simulator::Destroy();
}

TEST(RanStackDeathTest, UplinkRoutesNeedTheStacksCellAsDeviceZero)
{
    Ptr<ScriptedRanStack> stack = CreateObject<ScriptedRanStack>();
    stack->pgw = CreateObject<Node>();
    Ptr<Node> bare = CreateObject<Node>();
    Ptr<Node> foreign = CreateObject<Node>();
    foreign->AddDevice(CreateObject<SimpleNetDevice>());
    stack->MakeCellOn(CreateObject<Node>(), 1);
    EXPECT_DEATH(stack->InstallUplinkRoutes(NodeContainer(bare)),
                 "InstallUplinkRoutes: node [0-9]+ has no cell of this stack as device 0");
    EXPECT_DEATH(stack->InstallUplinkRoutes(NodeContainer(foreign)),
                 "InstallUplinkRoutes: node [0-9]+ has no cell of this stack as device 0");
}
