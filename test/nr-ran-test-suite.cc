/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The NR RAN stack (5G-LENA): local breakout, the observer, planned and A3 handovers, and the
// module's invariants over NR; compiled only when the module is built with the nr module.

#include "line-network-cases.h"
#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/nr-gnb-net-device.h"
#include "ns3/nr-gnb-rrc.h"
#include "ns3/nr-local-breakout.h"
#include "ns3/nr-ran-observer.h"
#include "ns3/nr-ran-stack.h"
#include "ns3/nr-ue-net-device.h"
#include "ns3/nr-ue-rrc.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What one run of the NR or LTE line gives the tests.
struct LineRun
{
    std::vector<HandoverRecord> records;   //!< the coordinator's records
    std::map<uint32_t, uint32_t> copies;   //!< deliveries of each token index
    std::map<uint32_t, double> deliveredS; //!< when the application first got each token, s
    uint32_t complete{0};                  //!< sessions complete
    uint32_t started{0};                   //!< HandoverStarted events of the observer
    uint32_t done{0};                      //!< HandoverDone events of the observer
    KvTransferSenderCounters sent;         //!< the UE's KV sender counters
    KvTransferReceiverCounters received;   //!< its receiver counters
    uint64_t streamSent{0};                //!< KV stream bytes written
    uint64_t streamReceived{0};            //!< KV stream bytes read
    uint64_t breakoutSent{0};              //!< packets the local breakouts handed to the RAN
    uint64_t breakoutRefused{0};           //!< sends they refused
};

/// The UE's speed along the line, m/s: it passes the midpoints (150 m, 450 m) at 1 s and 4 s.
constexpr double kSpeed = 100;

/**
 * \brief One UE drives along a line of three cells, 300 m apart, from 100 m at 0.5 s, through
 * two handovers, with a 1024-token prompt and `tokens` tokens to generate.
 * \param ran lte or nr
 * \param scheduler a HandoverScheduler TypeId name
 * \param trigger planned or a3
 * \param tokens tokens to generate
 * \return what the run gave
 */
LineRun
RunLine(const std::string& ran,
        const std::string& scheduler,
        const std::string& trigger,
        uint32_t tokens)
{
    LineRun out;
    Ptr<EdgeLlmNetwork> net = edgellm::MakeLineNetwork(ran, 3, trigger);
    net->SetAttribute("SessionStart", TimeValue(MilliSeconds(300)));
    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
    edge->SetSchedulerType(scheduler);
    edge->SetClientAttribute("PromptTokens", UintegerValue(1024));
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
    EdgeLlmUeSpec ue;
    ue.start = Vector(100, 20, 0);
    ue.velocity = Vector(kSpeed, 0, 0);
    ue.moveStart = Seconds(0.5);
    net->AddUe(ue);
    net->Build();
    net->AssignStreams(1);
    Ptr<Application> client = net->GetClients().Get(0);
    client->TraceConnectWithoutContext(
        "TokenDelivered",
        Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
            [&out](uint64_t, uint32_t index, Time, Time, uint16_t, bool) {
                ++out.copies[index];
                out.deliveredS.emplace(index, Simulator::Now().GetSeconds());
            }));
    client->TraceConnectWithoutContext(
        "SessionComplete",
        Callback<void, uint64_t>([&out](uint64_t) { ++out.complete; }));
    net->GetObserver()->TraceConnectWithoutContext(
        "HandoverStarted",
        Callback<void, uint64_t, uint16_t, uint16_t>(
            [&out](uint64_t, uint16_t, uint16_t) { ++out.started; }));
    net->GetObserver()->TraceConnectWithoutContext(
        "HandoverDone",
        Callback<void, uint64_t, uint16_t>([&out](uint64_t, uint16_t) { ++out.done; }));
    Simulator::Stop(Seconds(8));
    Simulator::Run();
    out.records = edge->GetCoordinator()->GetRecords();
    const uint64_t imsi = net->GetRanStack()->GetImsi(net->GetUeDevices().Get(0));
    out.sent = net->GetKvSent(imsi);
    out.received = net->GetKvReceived(imsi);
    out.streamSent = net->GetKvStreamBytesSent();
    out.streamReceived = net->GetKvStreamBytesReceived();
    for (uint32_t i = 0; i < net->GetServers().GetN(); ++i)
    {
        Ptr<LocalBreakout> b = DynamicCast<LocalBreakout>(
            DynamicCast<EdgeLlmServer>(net->GetServers().Get(i))->GetRanDownlink());
        if (b)
        {
            out.breakoutSent += b->GetSentPackets();
            out.breakoutRefused += b->GetRefusedPackets();
        }
    }
    Simulator::Destroy();
    net->Dispose();
    return out;
}

/**
 * \param r a run
 * \param h one of its handovers
 * \return the service interruption the application saw, s: when it got the first token
 *         generated after the handover minus when it got the last of the tokens before;
 *         negative if either is missing
 */
double
Interruption(const LineRun& r, const HandoverRecord& h)
{
    auto resumed = r.deliveredS.find(h.resumeIndex);
    if (resumed == r.deliveredS.end() || r.deliveredS.begin()->first >= h.resumeIndex)
    {
        return -1;
    }
    double last = -1;
    for (auto it = r.deliveredS.begin(); it != r.deliveredS.end() && it->first < h.resumeIndex;
         ++it)
    {
        last = std::max(last, it->second);
    }
    return resumed->second - last;
}

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief Over NR, a session is handed over twice and resumes each time: every token reaches
 * the application once, the KV ledger balances, every stream byte written is read, the
 * downlink went by the gNBs' local breakout, and each handover's delay is at least its cache's
 * transfer time at the backhaul's rate.
 */
class NrLineServingTestCase : public TestCase
{
  public:
    /**
     * \param scheduler a HandoverScheduler TypeId name
     */
    explicit NrLineServingTestCase(std::string scheduler)
        : TestCase("NR line with " + scheduler + ": two handovers, tokens once, ledger balances"),
          m_scheduler(std::move(scheduler))
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t tokens = 400;
        const LineRun r = RunLine("nr", m_scheduler, "planned", tokens);
        NS_TEST_ASSERT_MSG_EQ(r.started, 2u, "the observer saw two handovers start");
        NS_TEST_ASSERT_MSG_EQ(r.done, 2u, "and both end");
        NS_TEST_ASSERT_MSG_EQ(r.records.size(), 2u, "the coordinator recorded both");
        NS_TEST_ASSERT_MSG_EQ(r.complete, 1u, "the session completed");
        NS_TEST_ASSERT_MSG_EQ(r.copies.size(), tokens, "no index missing");
        for (const auto& [index, n] : r.copies)
        {
            NS_TEST_ASSERT_MSG_LT(index, tokens, "an index the session has");
            NS_TEST_ASSERT_MSG_EQ(n, 1u, "token " << index << " delivered once");
        }
        NS_TEST_ASSERT_MSG_GT(r.breakoutSent, tokens / 2, "the downlink went by local breakout");
        NS_TEST_ASSERT_MSG_EQ(r.sent.announced,
                              r.sent.sent + r.sent.withdrawn,
                              "announced = sent + withdrawn");
        NS_TEST_ASSERT_MSG_EQ(r.sent.sent,
                              r.received.received + r.received.stale,
                              "sent = received + stale, drained");
        NS_TEST_ASSERT_MSG_EQ(r.received.droppedInvalid, 0u, "nothing outside its ranges");
        NS_TEST_ASSERT_MSG_EQ(r.streamSent, r.streamReceived, "every stream byte sent was read");
        // The backhaul's default 10 Gb/s: no cache crosses it faster.
        const double rate = 10e9;
        for (const HandoverRecord& h : r.records)
        {
            const bool detour = m_scheduler == "ns3::DetourScheduler";
            NS_TEST_ASSERT_MSG_EQ(h.outcome,
                                  detour ? HandoverRecord::RELAYED : HandoverRecord::MIGRATED,
                                  "migrated, or relayed by Detour");
            NS_TEST_ASSERT_MSG_EQ(detour && h.kvBytes != 0, false, "Detour moves no cache");
            NS_TEST_ASSERT_MSG_GT(h.firstDecode, h.hoStart, "resumed after the handover");
            const double delayS = (h.firstDecode - h.hoStart).GetSeconds();
            NS_TEST_ASSERT_MSG_GT_OR_EQ(delayS,
                                        h.kvBytes * 8.0 / rate,
                                        "no faster than the cache at the link's rate");
        }
    }

    std::string m_scheduler; //!< policy
};

/**
 * \ingroup edge-llm-tests
 * \brief With the a3 trigger, the NR stack's hand-wired A3 algorithm hands the UE over from
 * measurements: into the second cell after the UE passed the midpoint (the hysteresis
 * delays it), and the session completes with every token once.
 */
class NrA3TestCase : public TestCase
{
  public:
    NrA3TestCase()
        : TestCase("NR a3: the hand-wired A3 algorithm hands the UE over from measurements")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t tokens = 300;
        const LineRun r = RunLine("nr", "ns3::CtHoScheduler", "a3", tokens);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.started, 1u, "A3 started a handover");
        NS_TEST_ASSERT_MSG_EQ(r.started, r.done, "every handover started ended");
        NS_TEST_ASSERT_MSG_EQ(r.complete, 1u, "the session completed");
        NS_TEST_ASSERT_MSG_EQ(r.copies.size(), tokens, "no index missing");
        for (const HandoverRecord& h : r.records)
        {
            // The UE passes the first midpoint (150 m) at 0.5 s + 50 m / kSpeed.
            NS_TEST_ASSERT_MSG_GT(h.hoStart.GetSeconds(), 0.5 + 50 / kSpeed, "after the midpoint");
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The same line under LTE and NR: each handover starts at its midpoint crossing, and
 * its HO delay, the server side's, is the same on both RANs (to 1 us); the delays of the two
 * RANs are printed side by side (the manual's comparison).
 */
class NrAgainstLteTestCase : public TestCase
{
  public:
    NrAgainstLteTestCase()
        : TestCase("NR against LTE on the same line: handovers at the crossings, the same "
                   "server-side delay")
    {
    }

  private:
    void DoRun() override
    {
        const LineRun lte = RunLine("lte", "ns3::CtHoScheduler", "planned", 400);
        const LineRun nr = RunLine("nr", "ns3::CtHoScheduler", "planned", 400);
        NS_TEST_ASSERT_MSG_EQ(nr.records.size(), lte.records.size(), "the same handovers");
        for (size_t i = 0; i < nr.records.size() && i < lte.records.size(); ++i)
        {
            const HandoverRecord& a = lte.records[i];
            const HandoverRecord& b = nr.records[i];
            NS_TEST_ASSERT_MSG_EQ(b.contextTokens > 0, true, "NR: a context was handed over");
            const double lteMs = (a.firstDecode - a.hoStart).GetSeconds() * 1e3;
            const double nrMs = (b.firstDecode - b.hoStart).GetSeconds() * 1e3;
            const double lteRadioMs = (a.hoEndOk - a.hoStart).GetSeconds() * 1e3;
            const double nrRadioMs = (b.hoEndOk - b.hoStart).GetSeconds() * 1e3;
            const double lteSitMs = Interruption(lte, a) * 1e3;
            const double nrSitMs = Interruption(nr, b) * 1e3;
            std::cout << "handover " << i + 1 << ": HO delay LTE " << lteMs << " ms, NR " << nrMs
                      << " ms; HandoverStart to HandoverDone LTE " << lteRadioMs << " ms, NR "
                      << nrRadioMs << " ms; SIT LTE " << lteSitMs << " ms, NR " << nrSitMs
                      << " ms; context LTE " << a.contextTokens << ", NR " << b.contextTokens
                      << " tokens\n";
            NS_TEST_ASSERT_MSG_GT(lteSitMs, 0.0, "LTE: the UE saw the resume");
            NS_TEST_ASSERT_MSG_GT(nrSitMs, 0.0, "NR: the UE saw the resume");
            // No token reaches the UE before it is generated.
            NS_TEST_ASSERT_MSG_GT_OR_EQ(nr.deliveredS.at(b.resumeIndex),
                                        b.firstDecode.GetSeconds(),
                                        "NR: the first token after the handover, once made");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(lte.deliveredS.at(a.resumeIndex),
                                        a.firstDecode.GetSeconds(),
                                        "LTE: the first token after the handover, once made");
            NS_TEST_ASSERT_MSG_GT(nrMs, 0.0, "NR resumed after its handover");
            NS_TEST_ASSERT_MSG_GT(lteMs, 0.0, "LTE resumed after its handover");
            // The planned trigger asks at the midpoint crossing (150 m at 1 s, 450 m at 4 s);
            // the source's HandoverStart follows by the target's acknowledgement over X2,
            // a few ms on either RAN.
            const double crossingS = 1.0 + 3.0 * i;
            for (const HandoverRecord* r : {&a, &b})
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(r->hoStart.GetSeconds(),
                                            crossingS,
                                            "no handover before its crossing");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(r->hoStart.GetSeconds(),
                                            crossingS + 0.02,
                                            "the handover within 20 ms of its crossing");
            }
            // The HO delay is the server side's: the plan's prefill at the target and the
            // cache over the backhaul, the same contexts on both RANs.
            NS_TEST_EXPECT_MSG_EQ(b.contextTokens, a.contextTokens, "the same context");
            NS_TEST_EXPECT_MSG_EQ_TOL(nrMs, lteMs, 1e-3, "the same server-side delay");
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The NR local breakout refuses, counts and traces a send to an IMSI its gNB holds no
 * context of, and a send before any device is bound, without stopping the run.
 */
class NrBreakoutRefusalTestCase : public TestCase
{
  public:
    NrBreakoutRefusalTestCase()
        : TestCase("NR local breakout: sends it cannot make are refused and counted")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NrLocalBreakout> unbound = CreateObject<NrLocalBreakout>();
        std::vector<LocalBreakout::RefuseReason> reasons;
        unbound->TraceConnectWithoutContext(
            "SendRefused",
            Callback<void, uint64_t, LocalBreakout::RefuseReason>(
                [&reasons](uint64_t, LocalBreakout::RefuseReason r) { reasons.push_back(r); }));
        NS_TEST_ASSERT_MSG_EQ(unbound->Send(Create<Packet>(100),
                                            7,
                                            Ipv4Address("7.0.0.2"),
                                            Ipv4Address("15.0.0.1"),
                                            1,
                                            2),
                              false,
                              "no device: refused");

        Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
        net->SetRanStack(CreateRanStack("nr"));
        net->SetAttribute("Trigger", StringValue("none"));
        net->SetAttribute("InstallServing", BooleanValue(false));
        EdgeLlmUeSpec ue;
        ue.start = Vector(100, 20, 0);
        net->AddUe(ue);
        net->Build();
        Ptr<RanDownlink> dl = net->GetRanStack()->CreateLocalBreakout(net->GetCellDevices().Get(0));
        Ptr<LocalBreakout> breakout = DynamicCast<LocalBreakout>(dl);
        NS_TEST_ASSERT_MSG_NE(breakout, nullptr, "the stack's breakout is a LocalBreakout");
        breakout->TraceConnectWithoutContext(
            "SendRefused",
            Callback<void, uint64_t, LocalBreakout::RefuseReason>(
                [&reasons](uint64_t, LocalBreakout::RefuseReason r) { reasons.push_back(r); }));
        const uint64_t imsi = net->GetRanStack()->GetImsi(net->GetUeDevices().Get(0));
        bool before = true;
        bool after = false;
        Simulator::Schedule(MilliSeconds(1), [&]() { before = breakout->CanSend(imsi); });
        Simulator::Schedule(MilliSeconds(500), [&]() {
            after = breakout->CanSend(imsi);
            breakout->Send(Create<Packet>(100),
                           imsi + 100,
                           Ipv4Address("7.0.0.2"),
                           Ipv4Address("15.0.0.1"),
                           1,
                           2);
        });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(before, false, "not while the UE attaches");
        NS_TEST_ASSERT_MSG_EQ(after, true, "once it is connected");
        NS_TEST_ASSERT_MSG_EQ(reasons.size(), 2u, "two refusals traced");
        NS_TEST_ASSERT_MSG_EQ(reasons.size() == 2 && reasons[0] == LocalBreakout::NO_DEVICE,
                              true,
                              "the first for want of a device");
        NS_TEST_ASSERT_MSG_EQ(reasons.size() == 2 && reasons[1] == LocalBreakout::NO_CONTEXT,
                              true,
                              "the second for want of a context");
        NS_TEST_ASSERT_MSG_EQ(breakout->GetRefusedPackets(), 1u, "counted");
        Simulator::Destroy();
        net->Dispose();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The RNTI collision NrRanObserver watches for, provoked and counted.
 *
 * A gNB gives each UE that joins it the RNTI after the last it gave. Four UEs stand by the
 * first cell and one by the second; a sixth drives from the first to the second. The second
 * cell gives the mover RNTI 2 (its one UE has 1), and the first has given 1 to 5, so unless
 * the mover itself had 2, its new RNTI is another UE's at the cell it left. The expected count
 * comes from the UEs' own RRC traces (each UE's cell and RNTI), not from the gNBs' maps the
 * observer reads.
 */
class NrRntiCollisionTestCase : public TestCase
{
  public:
    NrRntiCollisionTestCase()
        : TestCase("NR RNTI collision: provoked, and counted as the UEs' own RNTIs predict")
    {
    }

  private:
    /// A UE's cell and RNTI, from its RRC's traces.
    struct Where
    {
        uint16_t cell{0}; //!< its cell
        uint16_t rnti{0}; //!< its RNTI there
    };

    void DoRun() override
    {
        Ptr<EdgeLlmNetwork> net = edgellm::MakeLineNetwork("nr", 2, "planned");
        net->SetAttribute("SessionStart", TimeValue(MilliSeconds(300)));
        Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
        edge->SetClientAttribute("PromptTokens", UintegerValue(256));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(200));
        EdgeLlmUeSpec mover;
        mover.start = Vector(100, 20, 0);
        mover.velocity = Vector(50, 0, 0);
        mover.moveStart = Seconds(0.5);
        net->AddUe(mover);
        for (double x : {10.0, 20.0, 30.0, 40.0, 310.0})
        {
            EdgeLlmUeSpec standing;
            standing.start = Vector(x, 20, 0);
            net->AddUe(standing);
        }
        net->Build();
        net->AssignStreams(1);

        std::map<uint64_t, Where> where;
        std::map<uint64_t, uint16_t> leaving;
        uint32_t handovers = 0;
        uint32_t predicted = 0;
        for (uint32_t i = 0; i < net->GetUeDevices().GetN(); ++i)
        {
            Ptr<NrUeRrc> rrc = DynamicCast<NrUeNetDevice>(net->GetUeDevices().Get(i))->GetRrc();
            rrc->TraceConnectWithoutContext(
                "ConnectionEstablished",
                Callback<void, uint64_t, uint16_t, uint16_t>(
                    [&where](uint64_t imsi, uint16_t cell, uint16_t rnti) {
                        where[imsi] = {cell, rnti};
                    }));
            rrc->TraceConnectWithoutContext(
                "HandoverStart",
                Callback<void, uint64_t, uint16_t, uint16_t, uint16_t>(
                    [&leaving](uint64_t imsi, uint16_t source, uint16_t, uint16_t) {
                        leaving[imsi] = source;
                    }));
            rrc->TraceConnectWithoutContext(
                "HandoverEndOk",
                Callback<void, uint64_t, uint16_t, uint16_t>(
                    [&](uint64_t imsi, uint16_t cell, uint16_t rnti) {
                        ++handovers;
                        for (const auto& [other, w] : where)
                        {
                            if (other != imsi && w.cell == leaving[imsi] && w.rnti == rnti)
                            {
                                ++predicted;
                            }
                        }
                        where[imsi] = {cell, rnti};
                    }));
        }
        Ptr<NrRanObserver> observer = DynamicCast<NrRanObserver>(net->GetObserver());
        NS_TEST_ASSERT_MSG_NE(observer, nullptr, "the NR stack's observer");
        uint32_t traced = 0;
        observer->TraceConnectWithoutContext(
            "RntiCollision",
            Callback<void, uint64_t, uint16_t, uint16_t, uint64_t>(
                [&traced](uint64_t, uint16_t, uint16_t, uint64_t) { ++traced; }));
        Simulator::Stop(Seconds(4));
        Simulator::Run();
        std::cout << "RNTI collisions: " << handovers << " handover(s), " << predicted
                  << " predicted from the UEs' RNTIs, " << observer->GetRntiCollisions()
                  << " counted by the observer\n";
        NS_TEST_EXPECT_MSG_EQ(where.size(), 6u, "every UE connected");
        NS_TEST_EXPECT_MSG_EQ(handovers, 1u, "the mover handed over once");
        NS_TEST_EXPECT_MSG_EQ(predicted, 1u, "the layout provokes a collision");
        NS_TEST_EXPECT_MSG_EQ(observer->GetRntiCollisions(), predicted, "counted as predicted");
        NS_TEST_EXPECT_MSG_EQ(traced, predicted, "traced as counted");
        Simulator::Destroy();
        net->Dispose();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The NR RAN stack under the module's tests.
 */
class NrRanTestSuite : public TestSuite
{
  public:
    NrRanTestSuite()
        : TestSuite("edge-llm-nr", TestSuite::Type::SYSTEM)
    {
        AddTestCase(new NrBreakoutRefusalTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new NrLineServingTestCase("ns3::CtHoScheduler"), edgellm::TEST_QUICK);
        AddTestCase(new NrLineServingTestCase("ns3::DetourScheduler"), edgellm::TEST_QUICK);
        AddTestCase(new NrA3TestCase(), edgellm::TEST_QUICK);
        AddTestCase(new NrAgainstLteTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new NrRntiCollisionTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new edgellm::RefusedHandoverTestCase(
                        "NR handover refused by the target: reported, and the session stays",
                        "nr",
                        [](Ptr<EdgeLlmNetwork>, Ptr<NetDevice> target) {
                            DynamicCast<NrGnbNetDevice>(target)->GetRrc()->SetAttribute(
                                "AdmitHandoverRequest",
                                BooleanValue(false));
                        }),
                    edgellm::TEST_QUICK);
    }
};

/// The suite's one instance.
static NrRanTestSuite g_nrRanTestSuite;
