/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Serving over a real LTE network: tokens as radio packets, handovers from ns-3, Detour over
// the backhaul. Each case builds an EdgeLlmLineScenario, runs it, and counts.

#include "ns3/applications-module.h"
#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// Everything one client delivered, and what reached the UE at all.
struct ClientRecord
{
    uint64_t imsi{0};
    uint32_t nextIndex{0};   //!< the index the next delivery must have
    bool orderBroken{false}; //!< a delivery skipped or repeated an index
    std::vector<double> generatedS;
    std::vector<double> deliveredS;
    std::vector<uint16_t> cell;
    std::vector<bool> resent;
    std::vector<uint32_t> indices;       //!< delivered indices, in delivery order
    std::set<uint32_t> originalsArrived; //!< indices whose first (not resent) copy reached the UE

    void Delivered(uint64_t,
                   uint32_t index,
                   Time generated,
                   Time delivered,
                   uint16_t cellId,
                   bool wasResent)
    {
        orderBroken = orderBroken || index != nextIndex;
        nextIndex = index + 1;
        indices.push_back(index);
        generatedS.push_back(generated.GetSeconds());
        deliveredS.push_back(delivered.GetSeconds());
        cell.push_back(cellId);
        resent.push_back(wasResent);
    }

    /// Every token packet that reaches the UE's IP stack, before any reordering.
    void Arrived(const Ipv4Header&, Ptr<const Packet> packet, uint32_t)
    {
        Ptr<Packet> p = packet->Copy();
        UdpHeader udp;
        if (p->GetSize() < udp.GetSerializedSize())
        {
            return;
        }
        p->RemoveHeader(udp);
        EdgeLlmDownlinkHeader h;
        if (!EdgeLlmDownlinkHeader::TryRemove(p, h) ||
            h.GetType() != EdgeLlmDownlinkHeader::TOKENS || h.IsResent())
        {
            return;
        }
        for (uint32_t i = h.GetFirstIndex(); i <= h.GetLastIndex(); ++i)
        {
            originalsArrived.insert(i);
        }
    }
};

/**
 * \param r what a client's application delivered
 * \param n the tokens of its answer
 * \return "" when indices 0 to n - 1 were each delivered once, in increasing order; else the
 *         first fault
 */
std::string
DeliveredOnceInOrder(const ClientRecord& r, uint32_t n)
{
    std::set<uint32_t> seen;
    for (std::size_t k = 0; k < r.indices.size(); ++k)
    {
        if (!seen.insert(r.indices[k]).second)
        {
            return "index " + std::to_string(r.indices[k]) + " delivered twice";
        }
        if (k > 0 && r.indices[k] <= r.indices[k - 1])
        {
            return "index " + std::to_string(r.indices[k]) + " after " +
                   std::to_string(r.indices[k - 1]);
        }
    }
    if (seen.size() != n || (n > 0 && (*seen.begin() != 0 || *seen.rbegin() != n - 1)))
    {
        return std::to_string(seen.size()) + " distinct indices, not 0 to " + std::to_string(n) +
               " - 1";
    }
    return "";
}

/// A scenario with a record per client.
struct ServingRun
{
    Ptr<EdgeLlmLineScenario> scenario;
    std::vector<ClientRecord> records;
    uint32_t handovers{0};

    Ptr<EdgeLlmClient> Client(uint32_t i) const
    {
        return DynamicCast<EdgeLlmClient>(scenario->GetClients().Get(i));
    }

    void Handover(uint64_t, uint16_t, uint16_t)
    {
        ++handovers;
    }
};

/// Build the scenario's parts, hook the records, run, and leave the results in run.
void
Execute(ServingRun& run, Time stop)
{
    run.scenario->Build();
    run.scenario->AssignStreams(1);
    const ApplicationContainer& clients = run.scenario->GetClients();
    run.records.resize(clients.GetN());
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        ClientRecord& r = run.records[i];
        r.imsi = run.Client(i)->GetImsi();
        run.Client(i)->TraceConnectWithoutContext("TokenDelivered",
                                                  MakeCallback(&ClientRecord::Delivered, &r));
        run.scenario->GetUeNodes().Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "LocalDeliver",
            MakeCallback(&ClientRecord::Arrived, &r));
    }
    run.scenario->GetObserver()->TraceConnectWithoutContext(
        "HandoverStarted",
        MakeCallback(&ServingRun::Handover, &run));
    Simulator::Stop(stop);
    Simulator::Run();
}

double
Median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[(v.size() - 1) / 2];
}

/// A line scenario whose handovers keep the session at its source and relay (Detour).
Ptr<EdgeLlmLineScenario>
DetourLine()
{
    Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
    scenario->GetEdgeLlmHelper()->SetSchedulerType("ns3::DetourScheduler");
    return scenario;
}

/// Two eNBs 300 m apart and one UE crossing from the first to the second at 30 m/s, with a
/// 400-token answer: one handover at about 1.7 s.
Ptr<EdgeLlmLineScenario>
OneCrossing()
{
    Ptr<EdgeLlmLineScenario> scenario = DetourLine();
    scenario->SetAttribute("EnbCount", UintegerValue(2));
    scenario->SetAttribute("EnbSpacing", DoubleValue(300));
    scenario->SetAttribute("UeStartX", DoubleValue(100));
    scenario->SetAttribute("UeSpeed", DoubleValue(30));
    scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate", UintegerValue(400));
    return scenario;
}

/// A test case that leaves ns-3 clean for the next, also when it stops at a failed check.
class ServingTestCase : public TestCase
{
  public:
    /// \param name the test's name
    explicit ServingTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  private:
    void DoTeardown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief Every generated token reaches the client's application exactly once and in order,
 * across several handovers, under a load at which ns-3 drops packets; some only a resend
 * delivered.
 */
class ServingExactlyOnceTestCase : public ServingTestCase
{
  public:
    ServingExactlyOnceTestCase()
        : ServingTestCase("Exactly once and in order across handovers, with real RLC drops")
    {
    }

  private:
    void DoRun() override
    {
        // A small RLC buffer makes the handover bursts overflow, as under heavy load, and
        // ns-3's own A3 settings hand over late, deep in the neighbour's interference.
        Config::SetDefault("ns3::LteRlcUm::MaxTxBufferSize", UintegerValue(400));
        Config::SetDefault("ns3::LteRanStack::A3Preset", StringValue("ns3"));
        ServingRun run;
        run.scenario = DetourLine();
        run.scenario->SetAttribute("EnbCount", UintegerValue(4));
        run.scenario->SetAttribute("EnbSpacing", DoubleValue(200));
        run.scenario->SetAttribute("UeCount", UintegerValue(4));
        run.scenario->SetAttribute("UeStartX", DoubleValue(20));
        run.scenario->SetAttribute("UeSpeed", DoubleValue(40));
        const uint32_t tokens = 800;
        run.scenario->GetEdgeLlmHelper()->SetClientAttribute("PromptTokens", UintegerValue(512));
        run.scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate",
                                                             UintegerValue(tokens));
        std::map<uint64_t, uint32_t> generated;
        Execute(run, Seconds(16));

        uint64_t resentDeliveries = 0;
        uint64_t onlyByResend = 0;
        for (uint32_t i = 0; i < run.records.size(); ++i)
        {
            const ClientRecord& r = run.records[i];
            NS_TEST_ASSERT_MSG_EQ(run.Client(i)->IsComplete(), true, "session " << r.imsi);
            NS_TEST_ASSERT_MSG_EQ(r.deliveredS.size(), tokens, "each token once, imsi " << r.imsi);
            NS_TEST_ASSERT_MSG_EQ(r.orderBroken, false, "in order, imsi " << r.imsi);
            NS_TEST_ASSERT_MSG_EQ(DeliveredOnceInOrder(r, tokens),
                                  "",
                                  "at the application, imsi " << r.imsi);
            for (uint32_t k = 0; k < r.resent.size(); ++k)
            {
                if (r.resent[k])
                {
                    ++resentDeliveries;
                    onlyByResend += r.originalsArrived.count(k) == 0 ? 1 : 0;
                }
            }
        }
        std::cout << "exactly-once run: " << run.handovers << " handovers, RLC TxDrop "
                  << run.scenario->GetObserver()->GetRadioDrops()
                  << ", tokens delivered by a resend " << resentDeliveries
                  << ", of which the original never arrived " << onlyByResend << std::endl;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(run.handovers, 8u, "several handovers per UE");
        NS_TEST_ASSERT_MSG_GT(run.scenario->GetObserver()->GetRadioDrops(),
                              0u,
                              "ns-3 dropped packets in RLC");
        NS_TEST_ASSERT_MSG_GT(onlyByResend, 0u, "a token whose original never arrived");
        // Sessions are owned by cell 1's server. Every cell between it and the farthest cell
        // a UE received tokens in passed tokens on, hop by hop.
        uint16_t farthest = 0;
        for (const ClientRecord& r : run.records)
        {
            if (!r.cell.empty())
            {
                farthest = std::max(farthest, *std::max_element(r.cell.begin(), r.cell.end()));
            }
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(farthest, 3, "UEs went at least two cells away");
        for (uint16_t cell = 2; cell < farthest; ++cell)
        {
            NS_TEST_ASSERT_MSG_GT(
                run.scenario->GetEdgeLlmHelper()->GetServer(cell)->GetRelayedPackets(),
                0u,
                "hop by hop through cell " << cell);
        }
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Detour's cost comes from the backhaul: Δ more link delay adds Δ to the relayed
 * tokens' latency and to the interruption.
 */
class DetourDelayTestCase : public ServingTestCase
{
  public:
    DetourDelayTestCase()
        : ServingTestCase("Detour: relay-link delay adds to relayed latency and SIT")
    {
    }

  private:
    /// Median latency of tokens injected by the target, and the SIT of the handover.
    static std::pair<double, double> Measure(Time linkDelay)
    {
        ServingRun run;
        run.scenario = OneCrossing();
        run.scenario->GetBackhaulHelper()->SetAttribute("Delay", TimeValue(linkDelay));
        Execute(run, Seconds(7));
        const ClientRecord& r = run.records[0];
        const uint16_t first = r.cell.empty() ? 0 : r.cell.front();
        std::vector<double> relayed;
        for (std::size_t k = 0; k < r.cell.size(); ++k)
        {
            if (r.cell[k] != first && !r.resent[k])
            {
                relayed.push_back(r.deliveredS[k] - r.generatedS[k]);
            }
        }
        const TokenTimingSummary s = run.Client(0)->GetSummary();
        const double sit = s.sit.empty() ? -1 : s.sit.front().sitS;
        Simulator::Destroy();
        return {relayed.empty() ? -1 : Median(relayed), sit};
    }

    void DoRun() override
    {
        const Time delta = MilliSeconds(20);
        const auto [latency0, sit0] = Measure(MicroSeconds(50));
        const auto [latency1, sit1] = Measure(MicroSeconds(50) + delta);
        std::cout << "detour: relayed latency " << latency0 << " -> " << latency1 << " s, SIT "
                  << sit0 << " -> " << sit1 << " s" << std::endl;
        NS_TEST_ASSERT_MSG_GT(latency0, 0, "tokens were relayed");
        NS_TEST_ASSERT_MSG_GT(sit0, 0, "the handover was marked and measured");
        NS_TEST_ASSERT_MSG_EQ_TOL(latency1 - latency0, delta.GetSeconds(), 1e-3, "latency + Δ");
        NS_TEST_ASSERT_MSG_EQ_TOL(sit1 - sit0, delta.GetSeconds(), 1e-3, "SIT + Δ");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Detour costs little over the radio: its SIT is within twice the interruption that a
 * stream without the module measures on the same run.
 */
class DetourRadioBaselineTestCase : public ServingTestCase
{
  public:
    DetourRadioBaselineTestCase()
        : ServingTestCase("Detour: SIT from the handover within 2x the handover gap of a UDP "
                          "stream through the EPC on the same run, 5 runs")
    {
    }

  private:
    void DoRun() override
    {
        const Time interval = MilliSeconds(5);
        uint32_t within = 0;
        for (uint32_t rngRun = 1; rngRun <= 5; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            ServingRun run;
            run.scenario = OneCrossing();
            run.scenario->Build();
            // The baseline: ns-3's UdpClient on the first eNB, through the EPC to the UE,
            // a small packet every 5 ms, with no module in its path (the servers' uplink
            // routes give the eNB its way to the PGW).
            Ptr<Node> ue = run.scenario->GetUeNodes().Get(0);
            const Ipv4Address address = ue->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
            ApplicationContainer sink = UdpServerHelper(5000).Install(ue);
            UdpClientHelper probe(address, 5000);
            probe.SetAttribute("MaxPackets", UintegerValue(1000000));
            probe.SetAttribute("Interval", TimeValue(interval));
            probe.SetAttribute("PacketSize", UintegerValue(64));
            ApplicationContainer source = probe.Install(run.scenario->GetEnbNodes().Get(0));
            source.Start(Seconds(0.5));
            std::vector<double> arrivals;
            sink.Get(0)->TraceConnectWithoutContext(
                "Rx",
                Callback<void, Ptr<const Packet>>([&arrivals](Ptr<const Packet>) {
                    arrivals.push_back(Simulator::Now().GetSeconds());
                }));
            double hoStart = -1;
            run.scenario->GetObserver()->TraceConnectWithoutContext(
                "HandoverStarted",
                Callback<void, uint64_t, uint16_t, uint16_t>(
                    [&hoStart](uint64_t, uint16_t, uint16_t) {
                        hoStart = Simulator::Now().GetSeconds();
                    }));
            run.scenario->AssignStreams(1);
            Simulator::Stop(Seconds(8));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_GT(hoStart, 0, "run " << rngRun << ": a handover");
            // The radio's interruption as the stream saw it: its longest gap from 0.2 s
            // before the handover to 1 s after.
            double gap = 0;
            for (std::size_t k = 1; k < arrivals.size(); ++k)
            {
                if (arrivals[k] > hoStart - 0.2 && arrivals[k - 1] < hoStart + 1)
                {
                    gap = std::max(gap, arrivals[k] - arrivals[k - 1]);
                }
            }
            const TokenTimingSummary summary = run.Client(0)->GetSummary();
            NS_TEST_ASSERT_MSG_EQ(summary.sit.empty(), false, "run " << rngRun << ": a SIT");
            const double sit = summary.sit.front().sitS;
            // A token lost before the handover holds in-order delivery until the module
            // recovers it; the stream only skips its lost packet. So the part of the SIT
            // before the handover's start (SitBreakdown's radio_before) is radio loss the
            // stream does not show as a gap, and is held apart.
            const auto interruptions = run.Client(0)->GetInterruptions();
            NS_TEST_ASSERT_MSG_EQ(interruptions.size(), 1u, "one interruption");
            const double before =
                std::max(0.0, hoStart - interruptions.front().lastBefore.GetSeconds());
            std::cout << "run " << rngRun << ": Detour SIT " << sit * 1e3 << " ms (" << before * 1e3
                      << " before the handover), the UDP stream's gap " << gap * 1e3 << " ms"
                      << std::endl;
            NS_TEST_ASSERT_MSG_GT(gap, 2 * interval.GetSeconds(), "the stream saw the handover");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(sit - before,
                                        2 * gap,
                                        "run " << rngRun << ": SIT from the handover <= 2 x gap");
            within += sit <= 2 * gap ? 1 : 0;
            NS_TEST_ASSERT_MSG_EQ(run.Client(0)->IsComplete(), true, "every token");
            Simulator::Destroy();
        }
        // The whole SIT, radio loss before the handover included, in most runs (4 of 5 when
        // written; run 2 lost a token 64 ms before it).
        NS_TEST_ASSERT_MSG_GT_OR_EQ(within, 4u, "the whole SIT within 2 x the gap");
        RngSeedManager::SetRun(1);
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A saturating TCP flow on the relay link raises the post-handover ITL P99.
 */
class DetourCongestionTestCase : public ServingTestCase
{
  public:
    DetourCongestionTestCase()
        : ServingTestCase("Detour: a saturating TCP flow on the relay link raises the ITL P99")
    {
    }

  private:
    static double PostHandoverItlP99(bool congested)
    {
        ServingRun run;
        run.scenario = OneCrossing();
        run.scenario->GetBackhaulHelper()->SetAttribute("DataRate",
                                                        DataRateValue(DataRate("50Mbps")));
        // A short queue: the flow's losses come often, and take relay packets with them.
        run.scenario->GetBackhaulHelper()->SetAttribute("QueueSize",
                                                        QueueSizeValue(QueueSize("20p")));
        run.scenario->Build();
        run.scenario->AssignStreams(1);
        if (congested)
        {
            // Full-size segments and a window far above the link's BDP: the flow keeps the
            // device queue full, and its sawtooth makes the relay's queueing delay vary.
            Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(8948));
            Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
            Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
            const BackhaulLink& link = run.scenario->GetBackhaulLinks().front();
            BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(link.addressB, 5000));
            ApplicationContainer src = bulk.Install(link.nodeA);
            src.Start(Seconds(0.5));
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), 5000));
            sink.Install(link.nodeB).Start(Seconds(0));
        }
        ClientRecord r;
        run.Client(0)->TraceConnectWithoutContext("TokenDelivered",
                                                  MakeCallback(&ClientRecord::Delivered, &r));
        Simulator::Stop(Seconds(7));
        Simulator::Run();
        std::vector<double> itl;
        const uint16_t first = r.cell.empty() ? 0 : r.cell.front();
        for (std::size_t k = 1; k < r.deliveredS.size(); ++k)
        {
            if (r.cell[k] != first)
            {
                itl.push_back(r.deliveredS[k] - r.deliveredS[k - 1]);
            }
        }
        Simulator::Destroy();
        Config::Reset();
        return itl.empty() ? -1 : edgellm::NearestRankPercentile(itl, 99);
    }

    void DoRun() override
    {
        const double idle = PostHandoverItlP99(false);
        const double busy = PostHandoverItlP99(true);
        std::cout << "detour: post-handover ITL P99 " << idle << " s idle, " << busy
                  << " s with a saturating TCP flow" << std::endl;
        NS_TEST_ASSERT_MSG_GT(idle, 0, "tokens after the handover");
        NS_TEST_ASSERT_MSG_GT(busy, idle + 0.01, "queueing behind TCP shows in the ITL tail");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Without handovers, latency and resends rise with distance, and the serving cell
 * never changes.
 */
class NoHandoverTestCase : public ServingTestCase
{
  public:
    NoHandoverTestCase()
        : ServingTestCase("No handover: latency and resends rise with distance, one serving cell")
    {
    }

  private:
    void DoRun() override
    {
        ServingRun run;
        run.scenario = DetourLine();
        run.scenario->SetAttribute("Trigger", StringValue("none"));
        run.scenario->SetAttribute("EnbCount", UintegerValue(3));
        run.scenario->SetAttribute("EnbSpacing", DoubleValue(300));
        run.scenario->SetAttribute("UeStartX", DoubleValue(0));
        run.scenario->SetAttribute("UeSpeed", DoubleValue(40));
        const double speed = 40;
        run.scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate",
                                                             UintegerValue(1100));
        Execute(run, Seconds(17));
        const ClientRecord& r = run.records[0];
        const Ptr<MobilityModel> m = run.scenario->GetUeNodes().Get(0)->GetObject<MobilityModel>();
        // Distance from the serving eNB (at x = 0) when each token was generated.
        double latency[3] = {0, 0, 0};
        uint32_t count[3] = {0, 0, 0};
        uint32_t resends[3] = {0, 0, 0};
        // Tokens whose original copy never reached the UE's IP stack (seen below the client,
        // at Ipv4L3Protocol LocalDeliver): each must have been delivered by a resend.
        uint32_t lost[3] = {0, 0, 0};
        std::set<uint16_t> cells(r.cell.begin(), r.cell.end());
        for (std::size_t k = 0; k < r.deliveredS.size(); ++k)
        {
            const double x = speed * r.generatedS[k];
            const int bin = static_cast<int>(x / 150);
            if (bin > 2)
            {
                continue;
            }
            latency[bin] += r.deliveredS[k] - r.generatedS[k];
            ++count[bin];
            resends[bin] += r.resent[k] ? 1 : 0;
            lost[bin] += r.originalsArrived.count(r.indices[k]) == 0 ? 1 : 0;
        }
        for (int b = 0; b < 3; ++b)
        {
            NS_TEST_ASSERT_MSG_GT(count[b], 0u, "tokens in distance bin " << b);
            latency[b] /= count[b];
        }
        std::cout << "no handover: mean latency per 150 m bin " << latency[0] << ", " << latency[1]
                  << ", " << latency[2] << " s; resends " << resends[0] << ", " << resends[1]
                  << ", " << resends[2] << "; originals lost " << lost[0] << ", " << lost[1] << ", "
                  << lost[2] << "; RLC TxDrop " << run.scenario->GetObserver()->GetRadioDrops()
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(run.handovers, 0u, "no handover");
        NS_TEST_ASSERT_MSG_EQ(cells.size(), 1u, "one serving cell");
        NS_TEST_ASSERT_MSG_LT(latency[0], latency[1], "latency rises with distance");
        NS_TEST_ASSERT_MSG_LT(latency[1], latency[2], "latency rises with distance");
        NS_TEST_ASSERT_MSG_EQ(DeliveredOnceInOrder(r, 1100), "", "every token, once, in order");
        for (int b = 0; b < 3; ++b)
        {
            // Without a handover an original is delivered in time or dropped for good (RLC UM
            // does not retransmit), so the resends are exactly the lost originals.
            NS_TEST_ASSERT_MSG_EQ(resends[b],
                                  lost[b],
                                  "each resend replaced a lost original, bin " << b);
        }
        // Near the eNB (under 150 m, 3.5 ms mean latency) nothing is lost and nothing resent;
        // farther out the radio loses originals, more the farther, and resends make up for
        // every one of them.
        NS_TEST_ASSERT_MSG_EQ(lost[0], 0u, "no original lost near the eNB");
        NS_TEST_ASSERT_MSG_EQ(resends[0], 0u, "no resend near the eNB");
        NS_TEST_ASSERT_MSG_GT(lost[1], 0u, "originals lost at 150 to 300 m");
        NS_TEST_ASSERT_MSG_GT(lost[2], lost[1], "more lost farther out");
        NS_TEST_ASSERT_MSG_LT(resends[0], resends[1], "resends rise with distance");
        NS_TEST_ASSERT_MSG_LT(resends[1], resends[2], "resends rise with distance");
        (void)m;
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Without Detour a source keeps sending after its UE left: the sends are refused and
 * counted, and nothing crashes.
 */
class ReleasedContextTestCase : public ServingTestCase
{
  public:
    ReleasedContextTestCase()
        : ServingTestCase("Sending to a UE whose context was released is refused, not a crash")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EdgeLlmLineScenario> scenario = OneCrossing();
        scenario->Build();
        // Undo Detour: the source injects as if the UE were still there.
        Ptr<EdgeLlmServer> source = DynamicCast<EdgeLlmServer>(scenario->GetServers().Get(0));
        scenario->GetObserver()->TraceConnectWithoutContext(
            "HandoverStarted",
            Callback<void, uint64_t, uint16_t, uint16_t>(
                [source](uint64_t imsi, uint16_t, uint16_t) { source->StopRelay(imsi); }));
        Simulator::Stop(Seconds(6));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(source->GetInjectedPackets(), 0u, "the source served first");
        NS_TEST_ASSERT_MSG_GT(source->GetRefusedPackets(), 0u, "then its sends were refused");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A session larger than the server's KV memory is rejected with a reason naming
 * KvCapacityTokens, and the client learns it.
 */
class OversizedSessionTestCase : public ServingTestCase
{
  public:
    OversizedSessionTestCase()
        : ServingTestCase("An oversized session fires SessionRejected and the client learns it")
    {
    }

  private:
    void Rejected(uint64_t imsi, const std::string& reason)
    {
        m_imsi = imsi;
        m_reason = reason;
    }

    void DoRun() override
    {
        Ptr<EdgeLlmLineScenario> scenario = DetourLine();
        scenario->SetAttribute("EnbCount", UintegerValue(1));
        scenario->SetAttribute("UeSpeed", DoubleValue(0));
        scenario->GetEdgeLlmHelper()->SetEngineAttribute("KvCapacityTokens", UintegerValue(1000));
        scenario->GetEdgeLlmHelper()->SetClientAttribute("PromptTokens", UintegerValue(900));
        scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate", UintegerValue(200));
        scenario->Build();
        Ptr<EdgeLlmServer> server = DynamicCast<EdgeLlmServer>(scenario->GetServers().Get(0));
        server->TraceConnectWithoutContext("SessionRejected",
                                           MakeCallback(&OversizedSessionTestCase::Rejected, this));
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(scenario->GetClients().Get(0));
        NS_TEST_ASSERT_MSG_EQ(m_imsi, client->GetImsi(), "the server rejected the session");
        NS_TEST_ASSERT_MSG_NE(m_reason.find("KvCapacityTokens"),
                              std::string::npos,
                              "the reason names the limit: " << m_reason);
        NS_TEST_ASSERT_MSG_EQ(client->IsRejected(), true, "the client learned it");
        NS_TEST_ASSERT_MSG_EQ(client->GetDeliveredTokens(), 0u, "and got no token");
        Simulator::Destroy();
    }

    uint64_t m_imsi{0};   //!< rejected session
    std::string m_reason; //!< its reason
};

/**
 * \ingroup edge-llm-tests
 * \brief The scenario's and the server's attributes refuse values outside their ranges.
 */
class ServingAttributesTestCase : public ServingTestCase
{
  public:
    ServingAttributesTestCase()
        : ServingTestCase("Scenario and server attributes refuse out-of-range values")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EdgeLlmLineScenario> s = DetourLine();
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("EnbCount", UintegerValue(0)),
                              false,
                              "0 eNBs");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("EnbSpacing", DoubleValue(0)),
                              false,
                              "spacing 0");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("UeSpeed", DoubleValue(-1)),
                              false,
                              "speed < 0");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("UeY", DoubleValue(std::nan(""))),
                              false,
                              "NaN");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("Trigger", StringValue("a5")),
                              false,
                              "trigger");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("Trigger", StringValue("a2a4")),
                              true,
                              "the A2-A4 trigger");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("SessionStart", TimeValue(Seconds(-1))),
                              false,
                              "a negative start");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("SrsPeriodicity", UintegerValue(30)),
                              false,
                              "30 is no SRS periodicity");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("MoveStart", TimeValue(Seconds(-1))),
                              false,
                              "a negative MoveStart");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("ResidentUesPerEnb", UintegerValue(1001)),
                              false,
                              "1001 residents per eNB");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("Trigger", StringValue("boundary")),
                              true,
                              "the boundary trigger");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("UeSpeed", DoubleValue(0)), true, "standing");
        Ptr<EdgeLlmServer> server = CreateObject<EdgeLlmServer>();
        NS_TEST_ASSERT_MSG_EQ(server->SetAttributeFailSafe("Port", UintegerValue(2152)),
                              false,
                              "GTP-U's port");
        NS_TEST_ASSERT_MSG_EQ(server->SetAttributeFailSafe("RelayPort", UintegerValue(0)),
                              false,
                              "port 0");
        // The scenario's EPC helper numbered its gateway already; ns-3 forgets that here.
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A handover that fails after it started sends the UE back to its cell: the path of
 * its tokens follows it back, and the session completes.
 */
class FailedHandoverTestCase : public ServingTestCase
{
  public:
    FailedHandoverTestCase()
        : ServingTestCase("After a failed handover the tokens follow the UE back; exactly once")
    {
    }

  private:
    void Failed(uint64_t, uint16_t, RanObserver::HandoverFailureReason)
    {
        ++m_failures;
    }

    void DoRun() override
    {
        // As ns-3's own handover-failure test: a target so far away that the UE's random
        // access there fails.
        Config::SetDefault("ns3::LteEnbMac::NumberOfRaPreambles", UintegerValue(52));
        Config::SetDefault("ns3::LteEnbMac::PreambleTransMax", UintegerValue(3));
        Config::SetDefault("ns3::LteEnbMac::RaResponseWindowSize", UintegerValue(3));
        Config::SetDefault("ns3::LteEnbRrc::HandoverJoiningTimeoutDuration",
                           TimeValue(MilliSeconds(200)));
        Config::SetDefault("ns3::LteEnbRrc::HandoverLeavingTimeoutDuration",
                           TimeValue(MilliSeconds(500)));
        Config::SetDefault("ns3::LteHelper::PathlossModel",
                           StringValue("ns3::LogDistancePropagationLossModel"));
        Config::SetDefault("ns3::LogDistancePropagationLossModel::Exponent", DoubleValue(3.5));
        Config::SetDefault("ns3::LogDistancePropagationLossModel::ReferenceLoss", DoubleValue(35));
        ServingRun run;
        run.scenario = DetourLine();
        run.scenario->SetAttribute("EnbCount", UintegerValue(2));
        run.scenario->SetAttribute("EnbSpacing", DoubleValue(2500));
        run.scenario->SetAttribute("UeStartX", DoubleValue(200));
        run.scenario->SetAttribute("UeY", DoubleValue(0));
        run.scenario->SetAttribute("UeSpeed", DoubleValue(0));
        run.scenario->SetAttribute("Trigger", StringValue("none"));
        const uint32_t tokens = 200;
        run.scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate",
                                                             UintegerValue(tokens));
        run.scenario->Build();
        run.scenario->AssignStreams(1);
        Ptr<EdgeLlmLineScenario> scenario = run.scenario;
        Simulator::Schedule(Seconds(1), [scenario]() {
            scenario->GetRanStack()->RequestHandover(scenario->GetUeDevices().Get(0),
                                                     scenario->GetEnbDevices().Get(0),
                                                     scenario->GetNetwork()->GetCellIds()[1],
                                                     Simulator::Now());
        });
        run.scenario->GetObserver()->TraceConnectWithoutContext(
            "HandoverFailed",
            MakeCallback(&FailedHandoverTestCase::Failed, this));
        ClientRecord r;
        run.Client(0)->TraceConnectWithoutContext("TokenDelivered",
                                                  MakeCallback(&ClientRecord::Delivered, &r));
        Simulator::Stop(Seconds(6));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(m_failures, 0u, "the handover failed");
        NS_TEST_ASSERT_MSG_EQ(run.Client(0)->IsComplete(), true, "the session completed");
        NS_TEST_ASSERT_MSG_EQ(r.deliveredS.size(), tokens, "every token once");
        NS_TEST_ASSERT_MSG_EQ(r.orderBroken, false, "in order");
        NS_TEST_ASSERT_MSG_EQ(DeliveredOnceInOrder(r, tokens), "", "at the application");
        Simulator::Destroy();
        Config::Reset();
    }

    uint32_t m_failures{0}; //!< HandoverFailed events
};

/**
 * \ingroup edge-llm-tests
 * \brief A session whose every token was lost is recovered: the client's OPEN_SESSION
 * retries make the server resend, since the client NACKs nothing before its first token.
 */
class AllTokensLostTestCase : public ServingTestCase
{
  public:
    AllTokensLostTestCase()
        : ServingTestCase("A session that lost every token is recovered through OPEN retries")
    {
    }

  private:
    void DoRun() override
    {
        ServingRun lossy;
        lossy.scenario = DetourLine();
        lossy.scenario->SetAttribute("EnbCount", UintegerValue(2));
        lossy.scenario->SetAttribute("UeSpeed", DoubleValue(0));
        lossy.scenario->GetEdgeLlmHelper()->SetClientAttribute("PromptTokens", UintegerValue(64));
        lossy.scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate",
                                                               UintegerValue(3));
        lossy.scenario->Build();
        lossy.scenario->AssignStreams(1);
        // Every token the owner generates before 0.6 s goes to the other cell, where the UE
        // is not: all three are lost.
        Ptr<EdgeLlmServer> owner = DynamicCast<EdgeLlmServer>(lossy.scenario->GetServers().Get(0));
        const uint64_t imsi = lossy.Client(0)->GetImsi();
        const uint16_t other =
            DynamicCast<EdgeLlmServer>(lossy.scenario->GetServers().Get(1))->GetCellId();
        Simulator::Schedule(Seconds(0.1), &EdgeLlmServer::StartRelay, owner, imsi, other);
        Simulator::Schedule(Seconds(0.6), &EdgeLlmServer::StopRelay, owner, imsi);
        ClientRecord r;
        lossy.Client(0)->TraceConnectWithoutContext("TokenDelivered",
                                                    MakeCallback(&ClientRecord::Delivered, &r));
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(lossy.Client(0)->IsComplete(), true, "the session completed");
        NS_TEST_ASSERT_MSG_EQ(r.deliveredS.size(), 3u, "all three tokens");
        // The runner goes on after a failed check: nothing below may read past the records.
        if (r.deliveredS.size() == 3)
        {
            NS_TEST_ASSERT_MSG_EQ(r.resent[0] && r.resent[1] && r.resent[2],
                                  true,
                                  "all by resends");
            NS_TEST_ASSERT_MSG_GT(r.deliveredS.front(), 0.6, "after the path came back");
        }
        NS_TEST_ASSERT_MSG_EQ(lossy.Client(0)->GetNacksSent(), 0u, "with no NACK");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief ResendHoldoff damps resends under loss: fewer tokens sent again, the same ones
 * delivered once each.
 */
class ResendHoldoffTestCase : public ServingTestCase
{
  public:
    ResendHoldoffTestCase()
        : ServingTestCase("ResendHoldoff sends fewer copies under loss, and delivery stays exact")
    {
    }

  private:
    static std::pair<uint64_t, bool> Resends(Time holdoff)
    {
        ServingRun run;
        run.scenario = DetourLine();
        run.scenario->SetAttribute("Trigger", StringValue("none"));
        run.scenario->SetAttribute("EnbCount", UintegerValue(3));
        run.scenario->SetAttribute("EnbSpacing", DoubleValue(300));
        run.scenario->SetAttribute("UeStartX", DoubleValue(100));
        run.scenario->SetAttribute("UeSpeed", DoubleValue(40));
        run.scenario->GetEdgeLlmHelper()->SetServerAttribute("ResendHoldoff", TimeValue(holdoff));
        run.scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate",
                                                             UintegerValue(500));
        Execute(run, Seconds(9));
        const ClientRecord& r = run.records[0];
        const uint64_t resent =
            DynamicCast<EdgeLlmServer>(run.scenario->GetServers().Get(0))->GetResentTokens();
        const bool exact = !r.orderBroken && r.deliveredS.size() == r.nextIndex;
        Simulator::Destroy();
        return {resent, exact};
    }

    void DoRun() override
    {
        const auto [every, exactEvery] = Resends(Seconds(0));
        const auto [damped, exactDamped] = Resends(MilliSeconds(50));
        std::cout << "resent tokens: " << every << " on every NACK, " << damped
                  << " with a 50 ms holdoff" << std::endl;
        NS_TEST_ASSERT_MSG_GT(every, 0u, "the link lost tokens");
        NS_TEST_ASSERT_MSG_LT(damped, every, "the holdoff sends fewer copies");
        NS_TEST_ASSERT_MSG_EQ(exactEvery && exactDamped, true, "in order, once, either way");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The boundary trigger hands each UE over when it crosses the midpoint between two
 * eNBs, as planned, and only then.
 */
class BoundaryTriggerTestCase : public ServingTestCase
{
  public:
    BoundaryTriggerTestCase()
        : ServingTestCase("Boundary trigger: one handover per planned midpoint crossing, on time")
    {
    }

  private:
    /// One HandoverStarted event.
    struct Started
    {
        uint64_t imsi;
        uint16_t source;
        uint16_t target;
        Time time;
    };

    void HandoverStarted(uint64_t imsi, uint16_t source, uint16_t target)
    {
        m_started.push_back({imsi, source, target, Simulator::Now()});
    }

    void DoRun() override
    {
        // The ctHO paper's layout: two eNBs D_bs = 300 m apart, UEs starting before D_bs/2.
        Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
        scenario->SetAttribute("Trigger", StringValue("boundary"));
        scenario->SetAttribute("EnbCount", UintegerValue(2));
        scenario->SetAttribute("EnbSpacing", DoubleValue(300));
        scenario->SetAttribute("UeCount", UintegerValue(2));
        scenario->SetAttribute("UeSpeed", DoubleValue(20));
        scenario->SetAttribute("MoveStart", TimeValue(Seconds(0.5)));
        scenario->SetUeStartPositions({120, 128});
        scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate", UintegerValue(50));
        scenario->Build();
        scenario->AssignStreams(1);
        scenario->GetObserver()->TraceConnectWithoutContext(
            "HandoverStarted",
            MakeCallback(&BoundaryTriggerTestCase::HandoverStarted, this));

        // Crossing x = 150 m: 30 m and 22 m at 20 m/s after 0.5 s.
        const std::vector<EdgeLlmBoundaryCrossing>& plan = scenario->GetBoundaryCrossings();
        NS_TEST_ASSERT_MSG_EQ(plan.size(), 2u, "one crossing per UE");
        const double expected[] = {2.0, 1.6};
        const uint16_t firstCell =
            scenario->GetRanStack()->GetCellId(scenario->GetEnbDevices().Get(0));
        const uint16_t secondCell =
            scenario->GetRanStack()->GetCellId(scenario->GetEnbDevices().Get(1));
        for (uint32_t k = 0; k < plan.size(); ++k)
        {
            const Ptr<EdgeLlmClient> client =
                DynamicCast<EdgeLlmClient>(scenario->GetClients().Get(plan[k].ue));
            NS_TEST_ASSERT_MSG_EQ(plan[k].ue, k, "crossing " << k << "'s UE");
            NS_TEST_ASSERT_MSG_EQ(plan[k].imsi, client->GetImsi(), "crossing " << k << "'s IMSI");
            NS_TEST_ASSERT_MSG_EQ_TOL(plan[k].time.GetSeconds(),
                                      expected[k],
                                      1e-6,
                                      "crossing " << k << "'s time");
            NS_TEST_ASSERT_MSG_EQ(plan[k].sourceCell, firstCell, "crossing " << k << "'s source");
            NS_TEST_ASSERT_MSG_EQ(plan[k].targetCell, secondCell, "crossing " << k << "'s target");
        }

        Simulator::Stop(Seconds(2.2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_started.size(), plan.size(), "no handover but the planned ones");
        for (const EdgeLlmBoundaryCrossing& c : plan)
        {
            uint32_t matches = 0;
            for (const Started& s : m_started)
            {
                if (s.imsi != c.imsi)
                {
                    continue;
                }
                ++matches;
                NS_TEST_ASSERT_MSG_EQ(s.source, c.sourceCell, "source, imsi " << c.imsi);
                NS_TEST_ASSERT_MSG_EQ(s.target, c.targetCell, "target, imsi " << c.imsi);
                NS_TEST_ASSERT_MSG_GT_OR_EQ(s.time, c.time, "not before the crossing");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(s.time,
                                            c.time + MilliSeconds(30),
                                            "within 30 ms of the crossing");
            }
            NS_TEST_ASSERT_MSG_EQ(matches, 1u, "one handover for imsi " << c.imsi);
        }
        Simulator::Destroy();
    }

    std::vector<Started> m_started; //!< every HandoverStarted
};

/**
 * \ingroup edge-llm-tests
 * \brief A crossing that comes while its UE is still attaching is put off until the UE is
 * connected, then handed over, where ns-3 would crash on the request.
 */
class EarlyCrossingTestCase : public ServingTestCase
{
  public:
    EarlyCrossingTestCase()
        : ServingTestCase("Boundary trigger: a crossing during the attach waits for it")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
        scenario->SetAttribute("Trigger", StringValue("boundary"));
        scenario->SetAttribute("EnbCount", UintegerValue(2));
        scenario->SetAttribute("EnbSpacing", DoubleValue(300));
        scenario->SetAttribute("UeCount", UintegerValue(1));
        scenario->SetAttribute("UeSpeed", DoubleValue(20));
        // 0.1 m before the midpoint: the crossing comes 5 ms in, long before the attach ends.
        scenario->SetUeStartPositions({149.9});
        scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate", UintegerValue(20));
        scenario->Build();
        scenario->AssignStreams(1);
        std::vector<std::pair<Time, uint16_t>> started;
        std::vector<uint16_t> done;
        scenario->GetObserver()->TraceConnectWithoutContext(
            "HandoverStarted",
            Callback<void, uint64_t, uint16_t, uint16_t>(
                [&started](uint64_t, uint16_t source, uint16_t) {
                    started.emplace_back(Simulator::Now(), source);
                }));
        scenario->GetObserver()->TraceConnectWithoutContext(
            "HandoverDone",
            Callback<void, uint64_t, uint16_t>(
                [&done](uint64_t, uint16_t target) { done.push_back(target); }));

        const std::vector<EdgeLlmBoundaryCrossing>& plan = scenario->GetBoundaryCrossings();
        NS_TEST_ASSERT_MSG_EQ(plan.size(), 1u, "one crossing");
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_GT(scenario->GetCrossingRetries(), 0u, "put off at least once");
        NS_TEST_ASSERT_MSG_EQ(scenario->GetSkippedCrossings(), 0u, "not given up");
        NS_TEST_ASSERT_MSG_EQ(started.size(), 1u, "handed over once");
        NS_TEST_ASSERT_MSG_EQ(done.size(), 1u, "and the handover completed");
        if (plan.size() == 1 && started.size() == 1 && done.size() == 1)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(plan[0].time.GetSeconds(), 0.005, 1e-9, "planned at 5 ms");
            NS_TEST_ASSERT_MSG_GT(started[0].first, plan[0].time, "after the planned time");
            NS_TEST_ASSERT_MSG_EQ(started[0].second, plan[0].sourceCell, "from the source");
            NS_TEST_ASSERT_MSG_EQ(done[0], plan[0].targetCell, "to the target");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Crossings that cannot be made are given up, not retried for ever: the first is put
 * off until the UE's next crossing, and the next one finds the UE still in its first cell.
 */
class GivenUpCrossingTestCase : public ServingTestCase
{
  public:
    GivenUpCrossingTestCase()
        : ServingTestCase("Boundary trigger: a crossing not ready by the next one is given up")
    {
    }

  private:
    void DoRun() override
    {
        // Three eNBs 20 cm apart: the midpoints come 5 us and 10 ms after the start, both
        // before the UE has attached to its first cell.
        Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
        scenario->SetAttribute("Trigger", StringValue("boundary"));
        scenario->SetAttribute("EnbCount", UintegerValue(3));
        scenario->SetAttribute("EnbSpacing", DoubleValue(0.2));
        scenario->SetAttribute("UeCount", UintegerValue(1));
        scenario->SetAttribute("UeSpeed", DoubleValue(20));
        scenario->SetUeStartPositions({0.0999});
        scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate", UintegerValue(20));
        scenario->Build();
        scenario->AssignStreams(1);
        uint32_t started = 0;
        scenario->GetObserver()->TraceConnectWithoutContext(
            "HandoverStarted",
            Callback<void, uint64_t, uint16_t, uint16_t>(
                [&started](uint64_t, uint16_t, uint16_t) { ++started; }));
        uint32_t ready = 0;
        Time readyAt;
        scenario->GetObserver()->TraceConnectWithoutContext(
            "UeReady",
            Callback<void, uint64_t, uint16_t>([&ready, &readyAt](uint64_t, uint16_t) {
                ++ready;
                readyAt = Simulator::Now();
            }));

        const std::vector<EdgeLlmBoundaryCrossing>& plan = scenario->GetBoundaryCrossings();
        NS_TEST_ASSERT_MSG_EQ(plan.size(), 2u, "two crossings");
        Simulator::Stop(Seconds(0.5));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(ready, 1u, "the UE attached once");
        if (plan.size() == 2)
        {
            NS_TEST_ASSERT_MSG_GT(readyAt, plan[1].time, "attached after both crossings");
        }
        NS_TEST_ASSERT_MSG_EQ(started, 0u, "no handover requested");
        NS_TEST_ASSERT_MSG_EQ(scenario->GetSkippedCrossings(), 2u, "both crossings given up");
        NS_TEST_ASSERT_MSG_GT(scenario->GetCrossingRetries(), 0u, "after being put off");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief MoveStart: the UEs stand still until then, and drive at UeSpeed after.
 */
class MoveStartTestCase : public ServingTestCase
{
  public:
    MoveStartTestCase()
        : ServingTestCase("MoveStart: UEs stand still until it, then drive at UeSpeed")
    {
    }

  private:
    void Record(Ptr<MobilityModel> m)
    {
        m_positions.push_back(m->GetPosition());
    }

    void DoRun() override
    {
        Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
        scenario->SetAttribute("EnbCount", UintegerValue(1));
        scenario->SetAttribute("UeStartX", DoubleValue(120));
        scenario->SetAttribute("UeSpeed", DoubleValue(20));
        scenario->SetAttribute("MoveStart", TimeValue(Seconds(0.4)));
        scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate", UintegerValue(5));
        scenario->Build();
        Ptr<MobilityModel> m = scenario->GetUeNodes().Get(0)->GetObject<MobilityModel>();
        for (double t : {0.0, 0.399, 0.5, 0.7})
        {
            Simulator::Schedule(Seconds(t), &MoveStartTestCase::Record, this, m);
        }
        Simulator::Stop(Seconds(0.75));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_positions.size(), 4u, "four samples");
        if (m_positions.size() == 4)
        {
            NS_TEST_ASSERT_MSG_EQ(m_positions[0].x, 120, "at the start");
            NS_TEST_ASSERT_MSG_EQ(m_positions[1].x, 120, "still there just before MoveStart");
            NS_TEST_ASSERT_MSG_EQ_TOL(m_positions[2].x, 122, 1e-9, "0.1 s at 20 m/s");
            NS_TEST_ASSERT_MSG_EQ_TOL(m_positions[3].x, 126, 1e-9, "0.3 s at 20 m/s");
            NS_TEST_ASSERT_MSG_EQ(m_positions[3].y, 20, "along the line");
        }
        Simulator::Destroy();
    }

    std::vector<Vector> m_positions; //!< the UE's samples
};

/**
 * \ingroup edge-llm-tests
 * \brief ResidentUesPerEnb: UEs standing at each eNB, attached to it, with sessions there,
 * after the moving UEs in every container.
 */
class ResidentUesTestCase : public ServingTestCase
{
  public:
    ResidentUesTestCase()
        : ServingTestCase("ResidentUesPerEnb: one UE per eNB, served by it and staying there")
    {
    }

  private:
    void DoRun() override
    {
        ServingRun run;
        run.scenario = CreateObject<EdgeLlmLineScenario>();
        run.scenario->SetAttribute("EnbCount", UintegerValue(2));
        run.scenario->SetAttribute("EnbSpacing", DoubleValue(300));
        // The moving UE stays well inside the first cell: any handover would be a resident's.
        run.scenario->SetAttribute("UeStartX", DoubleValue(20));
        run.scenario->SetAttribute("ResidentUesPerEnb", UintegerValue(1));
        run.scenario->GetEdgeLlmHelper()->SetClientAttribute("TokensToGenerate", UintegerValue(30));
        Execute(run, Seconds(1.5));
        const EdgeLlmLineScenario& s = *run.scenario;
        NS_TEST_ASSERT_MSG_EQ(s.GetMovingUeCount(), 1u, "one moving UE");
        NS_TEST_ASSERT_MSG_EQ(s.GetUeNodes().GetN(), 3u, "and two residents");
        NS_TEST_ASSERT_MSG_EQ(s.GetUeDevices().GetN(), 3u, "each with a device");
        NS_TEST_ASSERT_MSG_EQ(s.GetClients().GetN(), 3u, "and a client");
        for (uint32_t e = 0; e < 2; ++e)
        {
            const uint32_t j = 1 + e;
            const uint16_t cell = s.GetRanStack()->GetCellId(s.GetEnbDevices().Get(e));
            const ClientRecord& r = run.records[j];
            NS_TEST_ASSERT_MSG_EQ(s.GetRanStack()->GetImsi(s.GetUeDevices().Get(j)),
                                  r.imsi,
                                  "devices and clients in one order");
            const Vector p = s.GetUeNodes().Get(j)->GetObject<MobilityModel>()->GetPosition();
            NS_TEST_ASSERT_MSG_EQ(p.x, e * 300.0, "resident " << j << " stands at its eNB");
            NS_TEST_ASSERT_MSG_EQ(p.y, 20, "UeY off the line");
            NS_TEST_ASSERT_MSG_EQ(run.Client(j)->IsComplete(), true, "resident " << j << " served");
            NS_TEST_ASSERT_MSG_EQ(r.cell.empty(), false, "resident " << j << " got tokens");
            if (!r.cell.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(r.cell.front(), cell, "first cell of resident " << j);
                NS_TEST_ASSERT_MSG_EQ(std::count(r.cell.begin(), r.cell.end(), cell),
                                      static_cast<long>(r.cell.size()),
                                      "every token from that cell");
            }
            NS_TEST_ASSERT_MSG_EQ(s.GetObserver()->GetServingCellId(r.imsi),
                                  cell,
                                  "resident " << j << " is still there");
        }
        NS_TEST_ASSERT_MSG_EQ(run.handovers, 0u, "no handover");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief LLM serving over LTE: token streaming, recovery, Detour, no handover.
 */
class EdgeLlmServingTestSuite : public TestSuite
{
  public:
    EdgeLlmServingTestSuite()
        : TestSuite("edge-llm-serving")
    {
        AddTestCase(new ServingAttributesTestCase());
        AddTestCase(new OversizedSessionTestCase());
        AddTestCase(new ReleasedContextTestCase());
        AddTestCase(new DetourDelayTestCase());
        AddTestCase(new DetourCongestionTestCase());
        AddTestCase(new DetourRadioBaselineTestCase());
        AddTestCase(new NoHandoverTestCase());
        AddTestCase(new ServingExactlyOnceTestCase());
        AddTestCase(new FailedHandoverTestCase());
        AddTestCase(new AllTokensLostTestCase());
        AddTestCase(new ResendHoldoffTestCase());
        AddTestCase(new BoundaryTriggerTestCase());
        AddTestCase(new EarlyCrossingTestCase());
        AddTestCase(new GivenUpCrossingTestCase());
        AddTestCase(new MoveStartTestCase());
        AddTestCase(new ResidentUesTestCase());
    }
};

/// The suite's one instance.
static EdgeLlmServingTestSuite g_edgeLlmServingTestSuite;
