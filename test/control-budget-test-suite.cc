/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ImpactHO's slot budgets on the control plane: set away from the sender, they travel as
// BUDGET messages, built from the PROGRESS each sender reported; a sender spends only what
// reached it. And a controller node: each handover's notice, reservation and plan go through
// it. Counted at the edges: the channels' messages, the devices' frames on the control port,
// the sender's DATA messages, the engines' tokens.

#include "backhaul-frame.h"
#include "handover-record-counts.h"
#include "reset-test-case.h"
#include "test-durations.h"

#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/impactho-road-experiment.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The scheduler's slot.
const Time kSlot = MilliSeconds(100);
/// The backhaul link's one-way delay: a round trip is then far from the slot's edges. (At
/// 5 ms the senders' path-sized TCP buffers reach sizes at which Debian's ns-3.37 TCP crashes
/// in TcpRateLinux::SkbSent; see the manual.)
const Time kLinkDelay = MilliSeconds(2);
/// How long the line bench runs.
const Time kRunTime = Seconds(12);

/// What the control channels and the links carried.
struct ChannelWatch
{
    uint16_t port{7200};     //!< the control port
    uint64_t deviceBytes{0}; //!< its TCP payload at MacTx
    uint64_t sentBytes{0};   //!< what the channels sent, once per link each message crosses
    /// links a message from one node to another crosses; 1 unless set
    std::function<uint32_t(uint16_t from, uint16_t to)> hops;
    std::map<ControlMessage::Type, uint32_t> sent;                           //!< by type
    std::map<ControlMessage::Type, uint32_t> received;                       //!< by type
    std::map<uint16_t, std::map<ControlMessage::Type, uint32_t>> receivedAt; //!< node, type
    /// BUDGET arrivals at a sender: (time, imsi) -> bytes
    std::vector<std::tuple<Time, uint64_t, uint64_t>> budgets;
    /// PROGRESS arrivals, by code (ControlMessage::Progress: whose count)
    std::map<uint8_t, uint32_t> progress;
    /// the coordinator's calls on another node's cell, by its function (CrossNodeCall)
    std::map<std::string, uint32_t> crossNode;
    /// tokens each session's engines emitted: imsi -> index -> count (ImpactLine)
    std::map<uint64_t, std::map<uint64_t, uint32_t>> emitted;

    void MacTx(Ptr<const Packet> frame)
    {
        const edgellm::test::TcpPayload t = edgellm::test::ReadTcpPayload(frame);
        if ((t.sourcePort == port || t.destinationPort == port) && t.bytes > 0)
        {
            deviceBytes += t.bytes;
        }
    }

    void Tx(const ControlMessage& m, uint16_t to)
    {
        ++sent[m.type];
        sentBytes += m.GetSerializedSize() * (hops ? hops(m.fromCell, to) : 1);
    }

    void Rx(uint16_t node, const ControlMessage& m, Time)
    {
        ++received[m.type];
        ++receivedAt[node][m.type];
        if (m.type == ControlMessage::PROGRESS)
        {
            ++progress[m.code];
        }
        if (m.type != ControlMessage::BUDGET)
        {
            return;
        }
        std::map<uint64_t, uint64_t> sums;
        for (const ControlMessage::Item& item : m.items)
        {
            sums[item.imsi] += item.value;
        }
        for (const auto& [imsi, bytes] : sums)
        {
            budgets.emplace_back(Simulator::Now(), imsi, bytes);
        }
    }

    void Hook(Ptr<EdgeLlmHelper> edge, const std::vector<NetDeviceContainer>& links)
    {
        edge->GetCoordinator()->TraceConnectWithoutContext(
            "CrossNodeCall",
            Callback<void, const std::string&, uint16_t, uint16_t>(
                [this](const std::string& site, uint16_t, uint16_t) { ++crossNode[site]; }));
        for (const auto& [node, channel] : edge->GetControlChannels())
        {
            channel->TraceConnectWithoutContext("Tx", MakeCallback(&ChannelWatch::Tx, this));
            channel->TraceConnectWithoutContext(
                "Rx",
                Callback<void, const ControlMessage&, Time>(
                    [this, node = node](const ControlMessage& m, Time d) { Rx(node, m, d); }));
        }
        for (const NetDeviceContainer& devices : links)
        {
            for (uint32_t d = 0; d < devices.GetN(); ++d)
            {
                devices.Get(d)->TraceConnectWithoutContext(
                    "MacTx",
                    MakeCallback(&ChannelWatch::MacTx, this));
            }
        }
    }

    /// \return the calls on another node's cell made in setting a slot's budgets: none, if
    /// the allocator works on its reports alone and each cell reads only itself
    uint32_t SlotCrossNodeCalls() const
    {
        uint32_t n = 0;
        for (const char* site : {"ReportProgress",
                                 "ProgressArrived",
                                 "SetBudgets",
                                 "BudgetArrived",
                                 "MakeMigrationView",
                                 "AddLinkView"})
        {
            const auto it = crossNode.find(site);
            n += it == crossNode.end() ? 0 : it->second;
        }
        return n;
    }
};

/**
 * \brief Three UEs hand over from cell 1 to cell 2 under ImpactHO's slots, over 2 Gb/s links
 * of kLinkDelay, with the control plane on the network.
 * \param at PolicyAt \param run the RngRun \param w the watch, hooked on its links
 * \return the scenario, built
 */
Ptr<EdgeLlmLineScenario>
ImpactLine(const std::string& at, uint32_t run, ChannelWatch& w)
{
    Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
    Config::SetDefault("ns3::HandoverCoordinator::PolicyAt", StringValue(at));
    RngSeedManager::SetRun(run);
    Ptr<EdgeLlmLineScenario> s = CreateObject<EdgeLlmLineScenario>();
    s->SetAttribute("EnbCount", UintegerValue(2));
    s->SetAttribute("EnbSpacing", DoubleValue(300));
    s->SetAttribute("UeCount", UintegerValue(3));
    s->SetAttribute("UeStartSpacing", DoubleValue(1));
    s->SetAttribute("UeStartX", DoubleValue(125));
    s->SetAttribute("UeSpeed", DoubleValue(20));
    s->SetAttribute("MoveStart", TimeValue(Seconds(1)));
    s->SetAttribute("Trigger", StringValue("boundary"));
    s->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(DataRate("2Gbps")));
    s->GetBackhaulHelper()->SetAttribute("Delay", TimeValue(kLinkDelay));
    Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
    edge->SetSchedulerType("ns3::ImpactHoScheduler");
    edge->SetSchedulerAttribute("Slot", TimeValue(kSlot));
    edge->SetSchedulerAttribute("Window", TimeValue(MilliSeconds(500)));
    edge->SetKvTransferPolicyType("ns3::SlotBudgetKvTransferPolicy");
    edge->SetKvTransferPolicyAttribute("SlotDuration", TimeValue(kSlot));
    edge->SetClientAttribute("PromptTokens", UintegerValue(1000));
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(200));
    s->Build();
    s->AssignStreams(1);
    std::vector<NetDeviceContainer> links;
    for (const BackhaulLink& link : s->GetBackhaulLinks())
    {
        links.push_back(link.devices);
    }
    w.Hook(edge, links);
    for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
    {
        DynamicCast<EdgeLlmServer>(s->GetServers().Get(i))
            ->GetEngine()
            ->TraceConnectWithoutContext(
                "TokenGenerated",
                Callback<void, uint64_t, uint64_t>(
                    [&w](uint64_t imsi, uint64_t index) { ++w.emitted[imsi][index]; }));
    }
    return s;
}

/// The base: every case destroys the simulator and resets the defaults it set.
using ControlBudgetTestCase = edgellm::ResetTestCase;

/// A case on ImpactLine, run with RngRuns 1 and 2.
class LineBudgetTestCase : public ControlBudgetTestCase
{
  public:
    using ControlBudgetTestCase::ControlBudgetTestCase;

  protected:
    /// Run and check one draw. \param run the RngRun
    virtual void Check(uint32_t run) = 0;

    /// Each of the three sessions' 200 tokens emitted once. \param w the run's watch
    /// \param what the run, for the messages
    void CheckEveryToken(const ChannelWatch& w, const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(w.emitted.size(), 3u, what << ": every session decoded");
        for (const auto& [imsi, indices] : w.emitted)
        {
            NS_TEST_EXPECT_MSG_EQ(indices.size(), 200u, what << ": imsi " << imsi);
            for (const auto& [index, n] : indices)
            {
                NS_TEST_EXPECT_MSG_EQ(n, 1u, what << ": imsi " << imsi << " token " << index);
            }
        }
    }

  private:
    void DoRun() override
    {
        for (uint32_t run : {1u, 2u})
        {
            Check(run);
            Simulator::Destroy();
        }
    }
};

class BudgetsTravelTestCase : public LineBudgetTestCase
{
  public:
    BudgetsTravelTestCase()
        : LineBudgetTestCase("Control plane network, policy at the target: ImpactHO's "
                             "budgets are messages built from the sender's reports, and the "
                             "sender spends only budgets that reached it")
    {
    }

  private:
    void Check(uint32_t run) override
    {
        ChannelWatch w;
        Ptr<EdgeLlmLineScenario> s = ImpactLine("target", run, w);
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        const uint16_t cell1 = DynamicCast<EdgeLlmServer>(s->GetServers().Get(0))->GetCellId();
        const BackhaulLink& link = s->GetBackhaulLinks().at(0);
        Ptr<KvTransferSender> sender = edge->GetKvTransfer(cell1)->GetSender(link.addressB);
        // (time, imsi, payload bytes) of each DATA message the sender hands to TCP.
        std::vector<std::tuple<Time, uint64_t, uint64_t>> data;
        sender->TraceConnectWithoutContext(
            "MessageSent",
            Callback<void, const KvTransferHeader&>([&data](const KvTransferHeader& h) {
                if (h.GetMessageType() == KvTransferHeader::DATA)
                {
                    data.emplace_back(Simulator::Now(), h.GetImsi(), h.GetPayloadBytes());
                }
            }));
        Simulator::Stop(kRunTime);
        Simulator::Run();

        const std::vector<HandoverRecord>& records = edge->GetCoordinator()->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(edgellm::CountMigrated(records),
                              3u,
                              "run " << run << ": every UE migrated");
        // Reports go to the allocator at the target, budgets back to the sender.
        NS_TEST_ASSERT_MSG_GT(w.sent[ControlMessage::PROGRESS], 3u, "reports were sent");
        NS_TEST_ASSERT_MSG_GT(w.sent[ControlMessage::BUDGET], 3u, "budgets were sent");
        for (auto type : {ControlMessage::PROGRESS, ControlMessage::BUDGET})
        {
            NS_TEST_EXPECT_MSG_EQ(w.received[type], w.sent[type], "every one arrived");
        }
        NS_TEST_EXPECT_MSG_EQ(w.receivedAt[cell1][ControlMessage::BUDGET],
                              w.sent[ControlMessage::BUDGET],
                              "budgets go to the sender's cell");
        NS_TEST_EXPECT_MSG_EQ(w.receivedAt[cell1][ControlMessage::PROGRESS],
                              0u,
                              "reports leave it");
        NS_TEST_EXPECT_MSG_EQ(w.deviceBytes, w.sentBytes, "the messages are on the link");
        // The allocator is the target: it reads its own receiver, and the sender's counters
        // and link load only from the sender's reports.
        NS_TEST_EXPECT_MSG_EQ(w.progress[ControlMessage::RECEIVED], 0u, "no arrivals report");
        NS_TEST_EXPECT_MSG_EQ(w.progress[ControlMessage::SENT],
                              w.received[ControlMessage::PROGRESS],
                              "the sender's reports");
        NS_TEST_EXPECT_MSG_EQ(w.SlotCrossNodeCalls(), 0u, "no slot read another node's cell");

        // No DATA of a session before a positive budget of it reached the sender; its first
        // budget answers a report made at a slot's start after the handover: a round trip
        // of the link later at least.
        for (const HandoverRecord& r : records)
        {
            Time firstBudget = Time::Max();
            for (const auto& [at, imsi, bytes] : w.budgets)
            {
                if (imsi == r.imsi && bytes > 0)
                {
                    firstBudget = std::min(firstBudget, at);
                }
            }
            NS_TEST_ASSERT_MSG_NE(firstBudget, Time::Max(), "imsi " << r.imsi << " got a budget");
            const int64_t hoSlot = r.hoStart.GetTimeStep() / kSlot.GetTimeStep();
            NS_TEST_EXPECT_MSG_GT_OR_EQ(firstBudget,
                                        kSlot * (hoSlot + 1) + kLinkDelay + kLinkDelay,
                                        "imsi " << r.imsi << ": a report and its answer");
            for (const auto& [at, imsi, bytes] : data)
            {
                if (imsi == r.imsi)
                {
                    NS_TEST_EXPECT_MSG_GT_OR_EQ(at,
                                                firstBudget,
                                                "imsi " << r.imsi << ": DATA only once its "
                                                        << "budget is in");
                    break;
                }
            }
        }
        // Per slot, a session sends no more than the largest budget it held in that slot:
        // the one in force at the slot's start and those that arrived during it.
        std::map<std::pair<uint64_t, int64_t>, uint64_t> sent; // (imsi, slot)
        for (const auto& [at, imsi, bytes] : data)
        {
            sent[{imsi, at.GetTimeStep() / kSlot.GetTimeStep()}] += bytes;
        }
        uint32_t slotsChecked = 0;
        for (const auto& [key, bytes] : sent)
        {
            const auto [imsi, k] = key;
            const Time start = kSlot * k;
            const Time end = kSlot * (k + 1);
            uint64_t held = 0;
            uint64_t inForce = 0;
            for (const auto& [at, who, budget] : w.budgets)
            {
                if (who != imsi || at >= end)
                {
                    continue;
                }
                if (at <= start)
                {
                    inForce = budget; // in arrival order: the newest before the slot
                }
                else
                {
                    held = std::max(held, budget);
                }
            }
            held = std::max(held, inForce);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(bytes,
                                        held,
                                        "imsi " << imsi << " slot " << k << ": within a budget "
                                                << "that reached it");
            ++slotsChecked;
        }
        NS_TEST_ASSERT_MSG_GT(slotsChecked, 3u, "slots checked");
        CheckEveryToken(w, "run " + std::to_string(run));
        s->Dispose();
    }
};

class SourceAllocatorTestCase : public LineBudgetTestCase
{
  public:
    SourceAllocatorTestCase()
        : LineBudgetTestCase("Control plane network, policy at the source: each sender's "
                             "node sets its own sessions' budgets, from its own counters and "
                             "the target's reports of what arrived, a one-way delay old")
    {
    }

  private:
    void Check(uint32_t run) override
    {
        ChannelWatch w;
        Ptr<EdgeLlmLineScenario> s = ImpactLine("source", run, w);
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        const uint16_t cell1 = DynamicCast<EdgeLlmServer>(s->GetServers().Get(0))->GetCellId();
        // (time, slot) of each budget the policy set.
        std::vector<std::pair<Time, uint64_t>> set;
        edge->GetCoordinator()->GetScheduler()->TraceConnectWithoutContext(
            "Budget",
            Callback<void, uint64_t, uint64_t, uint64_t>([&set](uint64_t slot, uint64_t, uint64_t) {
                set.emplace_back(Simulator::Now(), slot);
            }));
        Simulator::Stop(kRunTime);
        Simulator::Run();

        const std::string what = "run " + std::to_string(run);
        NS_TEST_ASSERT_MSG_EQ(edgellm::CountMigrated(edge->GetCoordinator()->GetRecords()),
                              3u,
                              what << ": every UE migrated");
        // The target reports what arrived to the sender's cell; the sender reports nothing
        // and gets no budget message: its allocator is beside it.
        NS_TEST_ASSERT_MSG_GT(w.progress[ControlMessage::RECEIVED], 3u, what << ": reports");
        NS_TEST_EXPECT_MSG_EQ(w.progress[ControlMessage::SENT], 0u, what << ": none of the sender");
        NS_TEST_EXPECT_MSG_EQ(w.receivedAt[cell1][ControlMessage::PROGRESS],
                              w.received[ControlMessage::PROGRESS],
                              what << ": the reports go to the sender's cell");
        NS_TEST_EXPECT_MSG_EQ(w.sent[ControlMessage::BUDGET], 0u, what << ": no budget travels");
        NS_TEST_EXPECT_MSG_EQ(w.deviceBytes, w.sentBytes, what << ": the messages are on the link");
        NS_TEST_EXPECT_MSG_EQ(w.SlotCrossNodeCalls(), 0u, what << ": no slot read another cell");
        NS_TEST_EXPECT_MSG_EQ(edge->GetCoordinator()->GetCrossNodeAudit().GetUnplaced(),
                              0u,
                              what << ": every call has a place");
        // Each slot's budgets wait for the target's report made at the slot's start: a
        // link's delay one way at least, and within the slot.
        NS_TEST_ASSERT_MSG_GT(set.size(), 3u, what << ": budgets set");
        for (const auto& [at, slot] : set)
        {
            const Time start = kSlot * static_cast<int64_t>(slot);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(at,
                                        start + kLinkDelay,
                                        what << ": slot " << slot << " set after the report");
            NS_TEST_EXPECT_MSG_LT(at, start + kSlot, what << ": slot " << slot << " set in it");
        }
        CheckEveryToken(w, what);
        s->Dispose();
    }
};

class ControllerTestCase : public ControlBudgetTestCase
{
  public:
    ControllerTestCase()
        : ControlBudgetTestCase("Control plane network, policy at the controller (a star's "
                                "core router): each handover's notice, reservation and plan "
                                "go through it, the budgets come from it, and every session "
                                "gets every token once")
    {
    }

  private:
    void DoRun() override
    {
        ImpactHoRoadConfig c;
        c.cells = 3;
        c.rho = 4;
        c.simTime = Seconds(11);
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
        Config::SetDefault("ns3::HandoverCoordinator::PolicyAt", StringValue("controller"));
        const ImpactHoRoadExperiment experiment(c);
        ChannelWatch w;
        // The controller is one link from each cell; a cell's message to another crosses its
        // up link, the shared link and the other's down link.
        w.hops = [](uint16_t from, uint16_t to) {
            return from == ControlMessage::CONTROLLER || to == ControlMessage::CONTROLLER ? 1u : 3u;
        };
        Ptr<HandoverCoordinator> coordinator;
        std::map<uint64_t, Time> waits;
        const ImpactHoRoadRun run =
            experiment.Run("impactho", experiment.Draw(), [&](Ptr<EdgeLlmNetwork> net) {
                std::vector<NetDeviceContainer> links;
                for (const BackhaulSegment& segment : net->GetBackhaulTopology()->GetSegments())
                {
                    links.push_back(segment.devices);
                }
                w.Hook(net->GetEdgeLlmHelper(), links);
                coordinator = net->GetEdgeLlmHelper()->GetCoordinator();
                coordinator->TraceConnectWithoutContext(
                    "ControlDelay",
                    Callback<void, uint64_t, uint16_t, uint16_t, Time>(
                        [&waits](uint64_t imsi, uint16_t, uint16_t, Time d) { waits[imsi] = d; }));
            });
        const uint32_t migrated = edgellm::CountMigrated(run.records);
        NS_TEST_ASSERT_MSG_GT(migrated,
                              1u,
                              "handovers migrated of " << run.records.size() << " sessions "
                                                       << run.sessions << " end "
                                                       << run.endTime.As(Time::S));
        const auto handovers = static_cast<uint32_t>(run.records.size());
        const uint16_t controller = ControlMessage::CONTROLLER;
        // The notice to the controller, its reservation at the target and the answer, and its
        // plan to the source and to the target.
        NS_TEST_EXPECT_MSG_EQ(w.receivedAt[controller][ControlMessage::NOTICE],
                              handovers,
                              "each notice at the controller");
        NS_TEST_EXPECT_MSG_EQ(w.sent[ControlMessage::RESERVE], handovers, "one reservation each");
        NS_TEST_EXPECT_MSG_EQ(w.receivedAt[controller][ControlMessage::RESERVE_ANSWER],
                              handovers,
                              "answered to the controller");
        NS_TEST_EXPECT_MSG_EQ(w.sent[ControlMessage::PLAN], 2 * handovers, "a plan to each cell");
        NS_TEST_EXPECT_MSG_EQ(w.sent[ControlMessage::RESUME_NOTICE],
                              migrated,
                              "a resume notice from each target to the cell it relieves");
        NS_TEST_EXPECT_MSG_EQ(w.receivedAt[controller][ControlMessage::PROGRESS],
                              w.sent[ControlMessage::PROGRESS],
                              "every report to the controller");
        NS_TEST_EXPECT_MSG_GT(w.sent[ControlMessage::BUDGET], 0u, "budgets from it");
        // Both ends report to it: the senders what they sent, the targets what arrived.
        NS_TEST_EXPECT_MSG_GT(w.progress[ControlMessage::SENT], 0u, "senders' reports");
        NS_TEST_EXPECT_MSG_GT(w.progress[ControlMessage::RECEIVED], 0u, "targets' reports");
        NS_TEST_EXPECT_MSG_EQ(w.SlotCrossNodeCalls(), 0u, "no slot read another node's cell");
        for (const auto& [type, n] : w.sent)
        {
            NS_TEST_EXPECT_MSG_EQ(w.received[type], n, "every message arrived");
        }
        NS_TEST_EXPECT_MSG_EQ(w.deviceBytes, w.sentBytes, "the messages are on the star's links");
        // A plan waits for four one-way trips: notice, reservation, answer, plan; each crosses
        // the access link between the cell and the core router.
        const Time oneWay = MicroSeconds(15);
        NS_TEST_EXPECT_MSG_EQ(waits.size(), handovers, "each handover waited");
        for (const auto& [imsi, wait] : waits)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(wait, oneWay * 4, "imsi " << imsi << ": four trips");
        }
        NS_TEST_EXPECT_MSG_EQ(run.complete, run.sessions, "every session got every token once");
        NS_TEST_EXPECT_MSG_EQ(run.ledgerBalances, true, "every KV ledger balances");
    }
};

class ControlBudgetTestSuite : public TestSuite
{
  public:
    ControlBudgetTestSuite()
        : TestSuite("edge-llm-control-budget", TestSuite::Type::UNIT)
    {
        AddTestCase(new BudgetsTravelTestCase, edgellm::TEST_QUICK);
        AddTestCase(new SourceAllocatorTestCase, edgellm::TEST_QUICK);
        AddTestCase(new ControllerTestCase, edgellm::TEST_QUICK);
    }
};

/// The suite's one instance
ControlBudgetTestSuite g_controlBudgetTestSuite;

} // namespace
