/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The scenario layer: every cell layout with every trigger, serving on a road and a grid, the
// star backhaul's shared uplink, and a refused handover.

#include "line-network-cases.h"
#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/mobility-model.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A handover start the network's own observer saw.
struct Seen
{
    uint64_t imsi;
    uint16_t source;
    uint16_t target;
    double timeS;
};

/// The layouts the tests build, small enough to run in a second or two each.
Ptr<CellLayout>
MakeLayout(const std::string& name)
{
    if (name == "line")
    {
        Ptr<LineCellLayout> l = CreateObject<LineCellLayout>();
        l->SetAttribute("Count", UintegerValue(3));
        l->SetAttribute("Spacing", DoubleValue(300));
        return l;
    }
    if (name == "road")
    {
        Ptr<RoadCellLayout> l = CreateObject<RoadCellLayout>();
        l->SetAttribute("Count", UintegerValue(3));
        l->SetAttribute("Spacing", DoubleValue(200));
        l->SetAttribute("Offset", DoubleValue(30));
        return l;
    }
    Ptr<GridCellLayout> l = CreateObject<GridCellLayout>();
    l->SetAttribute("Columns", UintegerValue(2));
    l->SetAttribute("Rows", UintegerValue(2));
    l->SetAttribute("Spacing", DoubleValue(200));
    return l;
}

/// One moving UE per layout: along the line and the road, or a random route on the grid.
EdgeLlmUeSpec
MakeUe(const std::string& layout, Ptr<CellLayout> cells, double endS, int64_t stream)
{
    EdgeLlmUeSpec ue;
    ue.moveStart = Seconds(0.5);
    if (layout == "line")
    {
        ue.start = Vector(100, 20, 0);
        ue.velocity = Vector(50, 0, 0);
    }
    else if (layout == "road")
    {
        ue.start = Vector(20, 0, 0);
        ue.velocity = Vector(40, 0, 0);
    }
    else
    {
        Ptr<GridRandomRoute> routes = CreateObject<GridRandomRoute>();
        routes->SetAttribute("Speed", DoubleValue(40));
        routes->AssignStreams(stream);
        ue.route =
            routes->GetRoute(*DynamicCast<GridCellLayout>(cells), 0, 0.5, endS).GetWaypoints();
    }
    return ue;
}

/// The nearest-cell changes of the network's moving UE j, by cell id, up to endS.
std::vector<EdgeLlmPlannedHandover>
Crossings(Ptr<EdgeLlmNetwork> net, uint32_t j, const EdgeLlmUeSpec& ue, double endS)
{
    std::vector<UeWaypoint> w = ue.route;
    if (w.empty())
    {
        w = ConstantVelocityTrajectory(ue.start, ue.velocity, ue.moveStart.GetSeconds(), endS)
                .GetWaypoints();
    }
    std::vector<EdgeLlmPlannedHandover> out;
    const uint64_t imsi = net->GetRanStack()->GetImsi(net->GetUeDevices().Get(j));
    for (const PlannedCrossing& c :
         FindNearestCellChanges(UeTrajectory(w), *net->GetCellLayout(), 0, endS))
    {
        out.push_back({j,
                       imsi,
                       Seconds(c.timeS),
                       net->GetCellIds()[c.fromCell],
                       net->GetCellIds()[c.toCell]});
    }
    return out;
}

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief One layout with one trigger builds and runs, and hands over where it should: "none"
 * never, "planned" at each crossing within a few ms, "a3" and "a2a4" into each cell the UE
 * crossed into, after the crossing and before the next.
 */
class LayoutTriggerTestCase : public TestCase
{
  public:
    /**
     * \param layout line, road or grid
     * \param trigger none, planned, a3 or a2a4
     */
    LayoutTriggerTestCase(std::string layout, std::string trigger)
        : TestCase("The " + layout + " layout with the " + trigger + " trigger"),
          m_layout(std::move(layout)),
          m_trigger(std::move(trigger))
    {
    }

  private:
    void DoRun() override
    {
        const double endS = 8;
        Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
        Ptr<CellLayout> layout = MakeLayout(m_layout);
        net->SetCellLayout(layout);
        net->SetAttribute("Trigger", StringValue(m_trigger));
        net->SetAttribute("InstallServing", BooleanValue(false));
        const EdgeLlmUeSpec ue = MakeUe(m_layout, layout, endS, 7);
        net->AddUe(ue);
        net->Build();
        net->AssignStreams(1);
        NS_TEST_ASSERT_MSG_EQ(net->GetCellNodes().GetN(), layout->GetCellCount(), "every cell");

        std::vector<Seen> seen;
        Ptr<RanObserver> observer = net->GetRanStack()->CreateObserver();
        observer->Install(net->GetCellDevices());
        observer->TraceConnectWithoutContext(
            "HandoverStarted",
            Callback<void, uint64_t, uint16_t, uint16_t>(
                [&seen](uint64_t imsi, uint16_t source, uint16_t target) {
                    seen.push_back({imsi, source, target, Simulator::Now().GetSeconds()});
                }));
        Simulator::Stop(Seconds(endS));
        Simulator::Run();

        const std::vector<EdgeLlmPlannedHandover> crossed = Crossings(net, 0, ue, endS);
        NS_TEST_ASSERT_MSG_GT(crossed.size(), 0u, "the UE crosses into another cell");
        if (m_trigger == "none")
        {
            NS_TEST_ASSERT_MSG_EQ(seen.size(), 0u, "no handover without a trigger");
        }
        else if (m_trigger == "planned")
        {
            const std::vector<EdgeLlmPlannedHandover>& plan = net->GetPlannedHandovers();
            NS_TEST_ASSERT_MSG_EQ(plan.size(), crossed.size(), "one planned per crossing");
            NS_TEST_ASSERT_MSG_EQ(seen.size(), crossed.size(), "a handover at each crossing");
            for (std::size_t k = 0; k < std::min(seen.size(), crossed.size()); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(seen[k].target, crossed[k].targetCell, "target " << k);
                NS_TEST_ASSERT_MSG_EQ(seen[k].source, crossed[k].sourceCell, "source " << k);
                NS_TEST_ASSERT_MSG_EQ_TOL(plan[k].time.GetSeconds(),
                                          crossed[k].time.GetSeconds(),
                                          1e-6,
                                          "planned at the crossing");
                // The source starts once the target has acknowledged over X2.
                NS_TEST_ASSERT_MSG_GT_OR_EQ(seen[k].timeS,
                                            crossed[k].time.GetSeconds(),
                                            "not before the crossing");
                NS_TEST_ASSERT_MSG_LT(seen[k].timeS,
                                      crossed[k].time.GetSeconds() + 0.05,
                                      "within 50 ms of it");
            }
        }
        else
        {
            // Measurement-driven: each handover goes into a cell crossed into, after that
            // crossing; the last crossing may be too close to the end to be acted on.
            NS_TEST_ASSERT_MSG_GT(seen.size(), 0u, "the algorithm hands over");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(seen.size(), crossed.size(), "no extra handover");
            for (std::size_t k = 0; k < std::min(seen.size(), crossed.size()); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(seen[k].target, crossed[k].targetCell, "target " << k);
                NS_TEST_ASSERT_MSG_GT(seen[k].timeS,
                                      crossed[k].time.GetSeconds(),
                                      "after the crossing");
                const double next =
                    k + 1 < crossed.size() ? crossed[k + 1].time.GetSeconds() : endS;
                NS_TEST_ASSERT_MSG_LT(seen[k].timeS, next, "before the next crossing");
            }
        }
        Simulator::Destroy();
        net->Dispose();
    }

    std::string m_layout;  //!< layout
    std::string m_trigger; //!< trigger
};

/**
 * \ingroup edge-llm-tests
 * \brief Serving on a road and on a grid: every token reaches each application exactly once,
 * and the KV byte ledger balances over every path and cell.
 */
class ServingInvariantsTestCase : public TestCase
{
  public:
    /**
     * \param layout road or grid
     * \param scheduler a HandoverScheduler TypeId name
     * \param backhaul pairs or star
     */
    ServingInvariantsTestCase(std::string layout, std::string scheduler, std::string backhaul)
        : TestCase("Serving on the " + layout + " with " + scheduler + " over a " + backhaul +
                   " backhaul: tokens once, the ledger balances"),
          m_layout(std::move(layout)),
          m_scheduler(std::move(scheduler)),
          m_backhaul(std::move(backhaul))
    {
    }

  private:
    void DoRun() override
    {
        const double endS = 10;
        const uint32_t ues = 3;
        const uint32_t tokens = 300;
        Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
        Ptr<CellLayout> layout = MakeLayout(m_layout);
        net->SetCellLayout(layout);
        if (m_backhaul == "star")
        {
            net->SetBackhaulTopology(CreateObject<StarBackhaulTopology>());
        }
        net->SetAttribute("Trigger", StringValue("planned"));
        net->SetAttribute("SessionStart", TimeValue(MilliSeconds(300)));
        Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
        edge->SetSchedulerType(m_scheduler);
        edge->SetClientAttribute("PromptTokens", UintegerValue(1024));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
        for (uint32_t j = 0; j < ues; ++j)
        {
            EdgeLlmUeSpec ue = MakeUe(m_layout, layout, endS, 11 + j);
            ue.start.x += 7 * j;
            net->AddUe(ue);
        }
        net->Build();
        net->AssignStreams(1);

        std::map<uint64_t, std::map<uint32_t, uint32_t>> copies;
        uint32_t complete = 0;
        for (uint32_t j = 0; j < ues; ++j)
        {
            Ptr<Application> client = net->GetClients().Get(j);
            client->TraceConnectWithoutContext(
                "TokenDelivered",
                Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
                    [&copies](uint64_t imsi, uint32_t index, Time, Time, uint16_t, bool) {
                        ++copies[imsi][index];
                    }));
            client->TraceConnectWithoutContext(
                "SessionComplete",
                Callback<void, uint64_t>([&complete](uint64_t) { ++complete; }));
        }
        Simulator::Stop(Seconds(endS));
        Simulator::Run();

        const std::vector<HandoverRecord> records = edge->GetCoordinator()->GetRecords();
        NS_TEST_ASSERT_MSG_GT(records.size(), 0u, "sessions were handed over");
        NS_TEST_ASSERT_MSG_EQ(complete, ues, "every session completed");
        for (uint32_t j = 0; j < ues; ++j)
        {
            const uint64_t imsi = net->GetRanStack()->GetImsi(net->GetUeDevices().Get(j));
            const std::map<uint32_t, uint32_t>& seen = copies[imsi];
            NS_TEST_ASSERT_MSG_EQ(seen.size(), tokens, "IMSI " << imsi << ": no index missing");
            uint32_t twice = 0;
            for (const auto& [index, n] : seen)
            {
                twice += n > 1;
                NS_TEST_ASSERT_MSG_LT(index, tokens, "an index the session has");
            }
            NS_TEST_ASSERT_MSG_EQ(twice, 0u, "IMSI " << imsi << ": no index twice");
            const KvTransferSenderCounters s = net->GetKvSent(imsi);
            const KvTransferReceiverCounters r = net->GetKvReceived(imsi);
            NS_TEST_ASSERT_MSG_EQ(s.announced,
                                  s.sent + s.withdrawn,
                                  "announced = sent + withdrawn");
            uint64_t withdrawn = 0;
            for (uint64_t w : s.withdrawnBy)
            {
                withdrawn += w;
            }
            NS_TEST_ASSERT_MSG_EQ(withdrawn, s.withdrawn, "each withdrawn byte has a reason");
            NS_TEST_ASSERT_MSG_EQ(s.sent, r.received + r.stale, "sent = received + stale, drained");
            NS_TEST_ASSERT_MSG_EQ(r.droppedInvalid, 0u, "nothing outside its ranges");
        }
        NS_TEST_ASSERT_MSG_EQ(net->GetKvStreamBytesSent(),
                              net->GetKvStreamBytesReceived(),
                              "every stream byte sent was read");
        Simulator::Destroy();
        net->Dispose();
    }

    std::string m_layout;    //!< layout
    std::string m_scheduler; //!< policy
    std::string m_backhaul;  //!< topology
};

/**
 * \ingroup edge-llm-tests
 * \brief Four cHO transfers at once over a star backhaul share its uplink: the last one ends
 * no earlier than their bytes over the shared rate, and within 5 % of it.
 */
class StarChoTransfersTestCase : public TestCase
{
  public:
    StarChoTransfersTestCase()
        : TestCase("Four simultaneous cHO transfers over a star share its uplink")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t pairs = 4;
        const double spacing = 300;
        const DataRate shared("1Gbps");
        Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
        Ptr<LineCellLayout> line = CreateObject<LineCellLayout>();
        line->SetAttribute("Count", UintegerValue(2 * pairs));
        line->SetAttribute("Spacing", DoubleValue(spacing));
        net->SetCellLayout(line);
        Ptr<StarBackhaulTopology> star = CreateObject<StarBackhaulTopology>();
        star->SetAttribute("SharedRate", DataRateValue(shared));
        star->SetAttribute("AccessRate", DataRateValue(DataRate("10Gbps")));
        net->SetBackhaulTopology(star);
        net->SetAttribute("Trigger", StringValue("planned"));
        net->SetAttribute("SessionStart", TimeValue(MilliSeconds(300)));
        net->SetAttribute("SessionStagger", TimeValue(Seconds(0)));
        Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
        edge->SetSchedulerType("ns3::CacheHandoverScheduler");
        edge->SetCoordinatorAttribute("Batching", StringValue("online"));
        edge->SetClientAttribute("PromptTokens", UintegerValue(1024));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(400));
        // UE k crosses the midpoint of cells 2k and 2k + 1 at 2 s, all four at once.
        for (uint32_t k = 0; k < pairs; ++k)
        {
            EdgeLlmUeSpec ue;
            const double midpoint = (2 * k + 0.5) * spacing;
            ue.start = Vector(midpoint - 30, 20, 0);
            ue.velocity = Vector(20, 0, 0);
            ue.moveStart = Seconds(0.5);
            net->AddUe(ue);
        }
        net->Build();
        net->AssignStreams(1);
        Simulator::Stop(Seconds(12));
        Simulator::Run();

        const std::vector<HandoverRecord> records = edge->GetCoordinator()->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), pairs, "one handover per UE");
        double firstStart = 1e9;
        double lastReady = 0;
        uint64_t bytes = 0;
        for (const HandoverRecord& r : records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "migrated");
            NS_TEST_ASSERT_MSG_EQ(r.prefillTokens, 0u, "cHO sends the whole cache");
            firstStart = std::min(firstStart, r.hoStart.GetSeconds());
            lastReady = std::max(lastReady, r.kvReady.GetSeconds());
            bytes += r.kvBytes;
        }
        // Every byte crosses the one uplink, which carries nothing else.
        const double bound = bytes * 8.0 / shared.GetBitRate();
        const double measured = lastReady - firstStart;
        NS_TEST_ASSERT_MSG_GT(bytes, 0u, "KV bytes moved");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(measured, bound, "no faster than the shared uplink");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(measured, 1.05 * bound, "within 5 % of it");
        Simulator::Destroy();
        net->Dispose();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief On the grid, a cHO transfer cancelled by the next handover (a newer epoch), the
 * session then relayed hop by hop to a cell its holder has no link to, and resumed there from
 * a whole re-prefill: every token once and in order, every cancelled byte under its reason.
 */
class GridCancelRelayResumeTestCase : public TestCase
{
  public:
    GridCancelRelayResumeTestCase()
        : TestCase("Grid: a transfer cancelled by a second handover, the session relayed to a "
                   "cell with no link to its holder, and resumed there; tokens exactly once")
    {
    }

  private:
    void DoRun() override
    {
        constexpr uint32_t tokens = 250;
        // A link slow enough that the first transfer is still under way at the second
        // handover: 1000 tokens of KV take seconds at 100 Mb/s.
        Config::SetDefault("ns3::BackhaulHelper::DataRate", DataRateValue(DataRate("100Mbps")));
        // Cells 0 (0, 0), 1 (300, 0), 2 (0, 300), 3 (300, 300); links 0-1, 0-2, 1-3, 2-3.
        Ptr<GridCellLayout> grid = CreateObject<GridCellLayout>();
        grid->SetAttribute("Columns", UintegerValue(2));
        grid->SetAttribute("Rows", UintegerValue(2));
        grid->SetAttribute("Spacing", DoubleValue(300));
        Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
        net->SetCellLayout(grid);
        net->SetAttribute("Trigger", StringValue("planned"));
        Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
        edge->SetSchedulerType("ns3::CacheHandoverScheduler");
        edge->SetEngineAttribute("PrefillCycle", TimeValue(MilliSeconds(10)));
        edge->SetClientAttribute("PromptTokens", UintegerValue(1000));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
        // Into cell 1's area at 1.05 s, into cell 3's at 1.95 s, then it stays.
        EdgeLlmUeSpec ue;
        ue.start = Vector(140, 20, 0);
        ue.moveStart = Seconds(1);
        ue.route = {{1.0, Vector(140, 20, 0)},
                    {1.3, Vector(200, 20, 0)},
                    {2.2, Vector(200, 200, 0)}};
        net->AddUe(ue);
        net->Build();
        net->AssignStreams(1);
        const std::vector<uint16_t>& cells = net->GetCellIds();

        std::map<uint64_t, uint32_t> emitted;
        std::map<uint64_t, uint16_t> emittedBy;
        for (uint32_t i = 0; i < net->GetServers().GetN(); ++i)
        {
            Ptr<EdgeLlmServer> server = DynamicCast<EdgeLlmServer>(net->GetServers().Get(i));
            const uint16_t cell = server->GetCellId();
            server->GetEngine()->TraceConnectWithoutContext(
                "TokenGenerated",
                Callback<void, uint64_t, uint64_t>([&, cell](uint64_t, uint64_t index) {
                    ++emitted[index];
                    emittedBy[index] = cell;
                }));
        }
        std::vector<uint32_t> delivered;
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(net->GetClients().Get(0));
        client->TraceConnectWithoutContext(
            "TokenDelivered",
            Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
                [&delivered](uint64_t, uint32_t index, Time, Time, uint16_t, bool) {
                    delivered.push_back(index);
                }));
        uint32_t resumed = 0;
        edge->GetCoordinator()->TraceConnectWithoutContext(
            "SessionResumed",
            Callback<void, uint64_t, uint16_t, Time>(
                [&resumed, &cells](uint64_t, uint16_t cell, Time) {
                    resumed += cell == cells[3] ? 1 : 0;
                }));
        client->TraceConnectWithoutContext(
            "SessionComplete",
            Callback<void, uint64_t>([](uint64_t) { Simulator::Stop(MilliSeconds(500)); }));
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        const Time end = Simulator::Now();

        const std::vector<HandoverRecord>& records = edge->GetCoordinator()->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2u, "two crossings");
        const HandoverRecord& first = records[0];
        NS_TEST_ASSERT_MSG_EQ(first.targetCell, cells[1], "first into cell 1");
        NS_TEST_ASSERT_MSG_EQ(first.outcome, HandoverRecord::CANCELLED, "cut short");
        NS_TEST_ASSERT_MSG_EQ(first.transferTokens, first.contextTokens, "a cHO transfer");
        const HandoverRecord& r = records[1];
        NS_TEST_ASSERT_MSG_EQ(r.sourceCell, cells[1], "then out of cell 1");
        NS_TEST_ASSERT_MSG_EQ(r.targetCell, cells[3], "into cell 3");
        NS_TEST_ASSERT_MSG_EQ(r.holderCell, cells[0], "from cell 0's whole cache");
        NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "resumed there");
        NS_TEST_ASSERT_MSG_EQ(r.prefillTokens, r.contextTokens, "no link 0-3: re-prefilled");
        NS_TEST_ASSERT_MSG_EQ(r.transferTokens, 0u, "nothing as KV");
        NS_TEST_ASSERT_MSG_EQ(resumed, 1u, "SessionResumed in cell 3, once");

        const uint64_t imsi = client->GetImsi();
        // The relay: the token IDs crossed cell 1 and reached cell 3.
        NS_TEST_ASSERT_MSG_EQ(
            edge->GetKvTransfer(cells[1])->GetReceiver()->GetCounters(imsi).tokensForwarded,
            r.contextTokens,
            "relayed through cell 1");
        NS_TEST_ASSERT_MSG_EQ(
            edge->GetKvTransfer(cells[3])->GetReceiver()->GetCounters(imsi).tokensForwarded,
            r.contextTokens,
            "to cell 3");
        // The ledger: the cancelled epoch's bytes were withdrawn, or arrived stale, under the
        // newer epoch's reason; nothing else was sent.
        const KvTransferSenderCounters k = net->GetKvSent(imsi);
        const KvTransferReceiverCounters h = net->GetKvReceived(imsi);
        NS_TEST_ASSERT_MSG_EQ(k.announced, k.sent + k.withdrawn, "announced = sent + withdrawn");
        NS_TEST_ASSERT_MSG_EQ(k.sent, h.received + h.stale, "sent = received + stale");
        NS_TEST_ASSERT_MSG_GT(k.withdrawn, 0u, "most of it never left");
        const auto epoch = static_cast<std::size_t>(KvDiscardReason::NEWER_EPOCH);
        NS_TEST_ASSERT_MSG_EQ(k.withdrawnBy[epoch], k.withdrawn, "withdrawn: a newer epoch");
        NS_TEST_ASSERT_MSG_EQ(h.staleBy[epoch], h.stale, "stale: a newer epoch");

        // Every token generated once, by cell 0 before the resume index and cell 3 after it;
        // delivered once, in order.
        NS_TEST_ASSERT_MSG_EQ(emitted.size(), tokens, "every index generated");
        for (const auto& [index, n] : emitted)
        {
            NS_TEST_ASSERT_MSG_EQ(n, 1u, "token " << index << " generated once");
            const uint16_t by = index < r.resumeIndex ? cells[0] : cells[3];
            NS_TEST_ASSERT_MSG_EQ(emittedBy[index], by, "token " << index << "'s cell");
        }
        NS_TEST_ASSERT_MSG_EQ(delivered.size(), tokens, "every token delivered");
        for (std::size_t i = 0; i < delivered.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(delivered[i], i, "delivery " << i << " in order");
        }
        NS_TEST_ASSERT_MSG_LT(end, Seconds(30), "the run ended before its cap");
        Simulator::Destroy();
        net->Dispose();
        Config::Reset();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The RAN stack asked for periodic measurement reports delivers them through the
 * network's observer: about one per period per kind, and the serving cell's RSRP falls as the
 * UE drives away from it.
 */
class ScenarioMeasurementReportTestCase : public TestCase
{
  public:
    ScenarioMeasurementReportTestCase()
        : TestCase("Periodic measurement reports through the stack: serving RSRP falls")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
        Ptr<LineCellLayout> line = CreateObject<LineCellLayout>();
        line->SetAttribute("Count", UintegerValue(2));
        line->SetAttribute("Spacing", DoubleValue(1000));
        net->SetCellLayout(line);
        net->SetAttribute("Trigger", StringValue("none"));
        net->GetRanStack()->SetAttribute("MeasurementReportPeriod", TimeValue(MilliSeconds(240)));
        EdgeLlmUeSpec ue;
        ue.start = Vector(20, 0, 0);
        ue.velocity = Vector(40, 0, 0); // away from cell 0, towards cell 1
        ue.moveStart = Seconds(0.5);
        net->AddUe(ue);
        net->Build();
        net->AssignStreams(1);
        std::vector<std::pair<double, double>> serving; // (time, RSRP dBm)
        net->GetObserver()->TraceConnectWithoutContext(
            "MeasurementReport",
            Callback<void, const RanMeasurementReport&>(
                [&serving, &net](const RanMeasurementReport& r) {
                    if (r.serving.hasRsrp && r.servingCellId == net->GetCellIds()[0])
                    {
                        serving.emplace_back(Simulator::Now().GetSeconds(), r.serving.rsrpDbm);
                    }
                }));
        Simulator::Stop(Seconds(6));
        Simulator::Run();
        // 6 s at 240 ms, from the UE's attachment (~0.1 s) on: about 24 of each kind (the
        // serving cell's, and with the neighbours'), and the ones ns-3's ANR asks for.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(serving.size(), 20u, "reports flow at the period");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(serving.size(), 3 * 26u, "not more often");
        if (serving.size() >= 6)
        {
            const std::size_t third = serving.size() / 3;
            double first = 0;
            double last = 0;
            for (std::size_t k = 0; k < third; ++k)
            {
                first += serving[k].second / third;
                last += serving[serving.size() - 1 - k].second / third;
            }
            // 20 m to 240 m from the cell: Friis loses 20 log10(240 / 20) = 21.6 dB.
            NS_TEST_ASSERT_MSG_LT(last, first - 10, "the serving RSRP falls by over 10 dB");
        }
        Simulator::Destroy();
        net->Dispose();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The scenario layer's test suite.
 */
class ScenarioTestSuite : public TestSuite
{
  public:
    ScenarioTestSuite()
        : TestSuite("edge-llm-scenario", TestSuite::Type::UNIT)
    {
        for (const char* layout : {"line", "road", "grid"})
        {
            for (const char* trigger : {"none", "planned", "a3", "a2a4"})
            {
                AddTestCase(new LayoutTriggerTestCase(layout, trigger), edgellm::TEST_QUICK);
            }
        }
        for (const char* layout : {"road", "grid"})
        {
            for (const char* scheduler : {"ns3::CtHoScheduler", "ns3::DetourScheduler"})
            {
                AddTestCase(new ServingInvariantsTestCase(layout, scheduler, "pairs"),
                            edgellm::TEST_QUICK);
            }
        }
        AddTestCase(new ServingInvariantsTestCase("road", "ns3::CtHoScheduler", "star"),
                    edgellm::TEST_QUICK);
        AddTestCase(new StarChoTransfersTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new edgellm::RefusedHandoverTestCase(
                        "A refused handover is reported, and the session stays at the source",
                        "lte",
                        [](Ptr<EdgeLlmNetwork>, Ptr<NetDevice> target) {
                            Config::Set("/NodeList/" + std::to_string(target->GetNode()->GetId()) +
                                            "/DeviceList/0/LteEnbRrc/AdmitHandoverRequest",
                                        BooleanValue(false));
                        }),
                    edgellm::TEST_QUICK);
        AddTestCase(new GridCancelRelayResumeTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new ScenarioMeasurementReportTestCase(), edgellm::TEST_QUICK);
    }
};

/// The suite's one instance.
static ScenarioTestSuite g_scenarioTestSuite;
