/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// UEs on the air only while their sessions matter (EdgeLlmNetwork::UeAirtime): the events a
// UE's node gets before its attach, during its session and after it leaves, counted by the
// simulator itself, against a run where every UE is on the air; and planned handovers of UEs
// off the air.

#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/default-simulator-impl.h"
#include "ns3/edge-llm-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup edge-llm-tests
 * \brief The default simulator, counting every event by the node it runs for (its context)
 * and by the 100 ms bin of simulated time it runs in.
 */
class EventCountingSimulatorImpl : public DefaultSimulatorImpl
{
  public:
    /// \return the type ID
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::EdgeLlmTestEventCountingSimulatorImpl")
                                .SetParent<DefaultSimulatorImpl>()
                                .SetGroupName("EdgeLlm")
                                .AddConstructor<EventCountingSimulatorImpl>();
        return tid;
    }

    EventId Schedule(const Time& delay, EventImpl* event) override
    {
        Count(GetContext(), delay);
        return DefaultSimulatorImpl::Schedule(delay, event);
    }

    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override
    {
        Count(context, delay);
        DefaultSimulatorImpl::ScheduleWithContext(context, delay, event);
    }

    EventId ScheduleNow(EventImpl* event) override
    {
        Count(GetContext(), Time(0));
        return DefaultSimulatorImpl::ScheduleNow(event);
    }

    /// Events by context, then by 100 ms bin; cleared by each test that installs this.
    static std::map<uint32_t, std::map<int64_t, uint64_t>>& Counts()
    {
        static std::map<uint32_t, std::map<int64_t, uint64_t>> counts;
        return counts;
    }

    /**
     * \param context a node's id
     * \param from start of an interval
     * \param to its end, on a 100 ms boundary as from
     * \return the node's events per simulated second over [from, to)
     */
    static double Rate(uint32_t context, Time from, Time to)
    {
        uint64_t n = 0;
        for (int64_t b = from.GetMilliSeconds() / 100; b < to.GetMilliSeconds() / 100; ++b)
        {
            auto bins = Counts().find(context);
            if (bins != Counts().end())
            {
                auto it = bins->second.find(b);
                n += it != bins->second.end() ? it->second : 0;
            }
        }
        return static_cast<double>(n) / (to - from).GetSeconds();
    }

  private:
    /**
     * \param context the node it runs for
     * \param delay from now
     */
    void Count(uint32_t context, const Time& delay)
    {
        ++Counts()[context][(Now() + delay).GetMilliSeconds() / 100];
    }
};

NS_OBJECT_ENSURE_REGISTERED(EventCountingSimulatorImpl);

/// A session's times, as the network's trace sources tell them.
struct Airtime
{
    std::vector<Time> on;  //!< came on the air
    std::vector<Time> off; //!< went off it
    Time complete{-1};     //!< its session got its last token
};

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief Three UEs on a road, each with a session that hands over by A3 and starts 1.5 s
 * after the previous one. With UeAirtime "session", each comes on the air AttachLead before
 * its session and goes off LeaveDelay after its end; before and after, its node gets no more
 * events than its PHY's own 1 ms subframe clock and 200 ms measurement filter (ns-3 cannot
 * stop them), while on the air it gets at least one per cell per subframe, a control frame
 * delivered from each. With "run" the same intervals get the on-air rate: the control. Every
 * session gets every token once and its KV ledger balances, in both.
 */
class UeAirtimeEventsTestCase : public TestCase
{
  public:
    /// \param airtime the network's UeAirtime: session or run
    explicit UeAirtimeEventsTestCase(std::string airtime)
        : TestCase("UeAirtime = " + airtime +
                   ": events of a UE off the air, tokens once, ledgers balance"),
          m_airtime(std::move(airtime))
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t cells = 3;
        const uint32_t ues = 3;
        const uint32_t tokens = 200;
        const Time lead = MilliSeconds(500);
        const Time leave = MilliSeconds(200);
        const Time end = Seconds(12);
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue("ns3::EdgeLlmTestEventCountingSimulatorImpl"));
        EventCountingSimulatorImpl::Counts().clear();

        Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
        net->SetCellLayout(CreateObjectWithAttributes<RoadCellLayout>("Count",
                                                                      UintegerValue(cells),
                                                                      "Spacing",
                                                                      DoubleValue(200),
                                                                      "Offset",
                                                                      DoubleValue(30)));
        net->SetAttribute("Trigger", StringValue("a3"));
        net->SetAttribute("UeAirtime", StringValue(m_airtime));
        net->SetAttribute("AttachLead", TimeValue(lead));
        net->SetAttribute("LeaveDelay", TimeValue(leave));
        Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
        edge->SetSchedulerType("ns3::CtHoScheduler");
        edge->SetClientAttribute("PromptTokens", UintegerValue(1024));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
        std::vector<Time> sessionStart;
        for (uint32_t j = 0; j < ues; ++j)
        {
            // It stands 20 m before the boundary at x = 100 m until 0.3 s into its session,
            // then crosses it at 40 m/s.
            EdgeLlmUeSpec ue;
            ue.sessionStart = Seconds(1.5 + 1.5 * j);
            ue.start = Vector(80, 0, 0);
            ue.velocity = Vector(40, 0, 0);
            ue.moveStart = ue.sessionStart + MilliSeconds(300);
            sessionStart.push_back(ue.sessionStart);
            net->AddUe(ue);
        }
        net->Build();
        net->AssignStreams(1);

        std::map<uint64_t, Airtime> air;
        std::map<uint64_t, std::map<uint32_t, uint32_t>> copies;
        net->TraceConnectWithoutContext(
            "AirChange",
            Callback<void, uint64_t, bool>([&air](uint64_t imsi, bool on) {
                (on ? air[imsi].on : air[imsi].off).push_back(Simulator::Now());
            }));
        for (uint32_t j = 0; j < ues; ++j)
        {
            Ptr<Application> client = net->GetClients().Get(j);
            client->TraceConnectWithoutContext(
                "TokenDelivered",
                Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
                    [&copies](uint64_t imsi, uint32_t index, Time, Time, uint16_t, bool) {
                        ++copies[imsi][index];
                    }));
            client->TraceConnectWithoutContext("SessionComplete",
                                               Callback<void, uint64_t>([&air](uint64_t imsi) {
                                                   air[imsi].complete = Simulator::Now();
                                               }));
        }
        Simulator::Stop(end);
        Simulator::Run();

        const std::vector<HandoverRecord> records = edge->GetCoordinator()->GetRecords();
        // The on-air rate: a control frame from each cell every 1 ms subframe.
        const double onAirRate = 1000.0 * cells;
        // Off the air: the PHY's subframe clock and measurement filter, 10 % over.
        const double offAirRate = 1.1 * (1000.0 + 5.0);
        uint32_t returns = 0;
        for (uint32_t j = 0; j < ues; ++j)
        {
            const uint64_t imsi = net->GetRanStack()->GetImsi(net->GetUeDevices().Get(j));
            const uint32_t node = net->GetUeNodes().Get(j)->GetId();
            const Airtime& a = air[imsi];
            NS_TEST_ASSERT_MSG_EQ(a.complete.IsStrictlyPositive(),
                                  true,
                                  "IMSI " << imsi << ": its session completed");
            const std::map<uint32_t, uint32_t>& seen = copies[imsi];
            NS_TEST_ASSERT_MSG_EQ(seen.size(), tokens, "IMSI " << imsi << ": no index missing");
            for (const auto& [index, n] : seen)
            {
                NS_TEST_ASSERT_MSG_EQ(n, 1u, "IMSI " << imsi << ": token " << index << " once");
            }
            const KvTransferSenderCounters s = net->GetKvSent(imsi);
            const KvTransferReceiverCounters r = net->GetKvReceived(imsi);
            NS_TEST_ASSERT_MSG_GT(s.sent, 0u, "IMSI " << imsi << ": its cache was sent");
            NS_TEST_ASSERT_MSG_EQ(s.announced,
                                  s.sent + s.withdrawn,
                                  "announced = sent + withdrawn");
            NS_TEST_ASSERT_MSG_EQ(s.sent, r.received + r.stale, "sent = received + stale");
            uint32_t handovers = 0;
            for (const HandoverRecord& h : records)
            {
                handovers +=
                    h.imsi == imsi && h.hoStart > sessionStart[j] && h.hoStart < a.complete;
            }
            NS_TEST_ASSERT_MSG_EQ(handovers, 1u, "IMSI " << imsi << ": handed over in session");

            // Whole 100 ms bins, clear of the changes by a bin; "after" is after its last
            // change (a UE that left comes back for a handover its cell had decided).
            const Time before = sessionStart[j] - lead - MilliSeconds(100);
            const Time during = sessionStart[j];
            Time after = a.complete + leave + MilliSeconds(400);
            if (!a.off.empty())
            {
                after = std::max(after,
                                 Seconds(std::ceil(a.off.back().GetSeconds() * 10) / 10) +
                                     MilliSeconds(200));
            }
            NS_TEST_ASSERT_MSG_LT(after + Seconds(1), end, "a second after its leave is run");
            const double rateBefore = EventCountingSimulatorImpl::Rate(node, Seconds(0.2), before);
            const double rateDuring =
                EventCountingSimulatorImpl::Rate(node, during, during + Seconds(1));
            const double rateAfter =
                EventCountingSimulatorImpl::Rate(node, after, after + Seconds(1));
            NS_TEST_ASSERT_MSG_GT(rateDuring, onAirRate, "IMSI " << imsi << " in its session");
            if (m_airtime == "session")
            {
                NS_TEST_ASSERT_MSG_EQ(a.on.size(), a.off.size(), "IMSI " << imsi << " ends off");
                NS_TEST_ASSERT_MSG_GT(a.on.size(), 0u, "IMSI " << imsi << " came on the air");
                NS_TEST_ASSERT_MSG_EQ(a.on[0], sessionStart[j] - lead, "on AttachLead before");
                NS_TEST_ASSERT_MSG_EQ((a.off[0] >= a.complete + leave),
                                      true,
                                      "off LeaveDelay after");
                NS_TEST_ASSERT_MSG_LT(a.off[0],
                                      a.complete + leave + MilliSeconds(200),
                                      "off soon, when in no handover");
                NS_TEST_ASSERT_MSG_LT(rateBefore, offAirRate, "IMSI " << imsi << " before");
                NS_TEST_ASSERT_MSG_LT(rateAfter, offAirRate, "IMSI " << imsi << " after");
                returns += a.on.size() - 1;
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(a.on.size() + a.off.size(), 0u, "no change with run");
                NS_TEST_ASSERT_MSG_GT(rateBefore, onAirRate, "IMSI " << imsi << " before");
                NS_TEST_ASSERT_MSG_GT(rateAfter, onAirRate, "IMSI " << imsi << " after");
            }
        }
        if (m_airtime == "session")
        {
            NS_TEST_ASSERT_MSG_EQ(net->GetUeAirtime()->GetLeft(), ues, "every UE left");
            NS_TEST_ASSERT_MSG_EQ(net->GetUeAirtime()->GetOnAir(),
                                  0u,
                                  "none on the air at the end");
            NS_TEST_ASSERT_MSG_EQ(net->GetUeAirtime()->GetReturns(), returns, "returns counted");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ((net->GetUeAirtime() == nullptr), true, "no airtime kept");
        }
        Simulator::Destroy();
        net->Dispose();
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    }

    std::string m_airtime; //!< UeAirtime
};

/**
 * \ingroup edge-llm-tests
 * \brief With the planned trigger, a UE crosses a boundary at 0.5 s, before its attach at
 * 2.5 s: that handover is not requested but counted off the air, and the UE attaches to the
 * cell it is nearest then, where its session runs to its end without a handover.
 */
class UeAirtimePlannedTestCase : public TestCase
{
  public:
    UeAirtimePlannedTestCase()
        : TestCase("UeAirtime = session with planned handovers: none asked for off the air")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t tokens = 60;
        Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
        Ptr<LineCellLayout> line = CreateObjectWithAttributes<LineCellLayout>("Count",
                                                                              UintegerValue(3),
                                                                              "Spacing",
                                                                              DoubleValue(300));
        net->SetCellLayout(line);
        net->SetAttribute("Trigger", StringValue("planned"));
        net->SetAttribute("UeAirtime", StringValue("session"));
        Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
        edge->SetClientAttribute("PromptTokens", UintegerValue(512));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
        // It crosses x = 150 m, the boundary of cells 0 and 1, at 0.5 s; the next, 450 m, at
        // 15.5 s.
        EdgeLlmUeSpec ue;
        ue.start = Vector(140, 20, 0);
        ue.velocity = Vector(20, 0, 0);
        ue.moveStart = Seconds(0);
        ue.sessionStart = Seconds(3);
        net->AddUe(ue);
        net->Build();
        net->AssignStreams(1);
        bool complete = false;
        net->GetClients().Get(0)->TraceConnectWithoutContext(
            "SessionComplete",
            Callback<void, uint64_t>([&complete](uint64_t) { complete = true; }));
        Simulator::Stop(Seconds(8));
        Simulator::Run();

        const std::vector<EdgeLlmPlannedHandover>& planned = net->GetPlannedHandovers();
        NS_TEST_ASSERT_MSG_EQ(planned.size(), 2u, "two crossings planned");
        NS_TEST_ASSERT_MSG_EQ(planned[0].time, Seconds(0.5), "the first at 0.5 s");
        NS_TEST_ASSERT_MSG_EQ(planned[1].time, Seconds(15.5), "the second after the run");
        NS_TEST_ASSERT_MSG_EQ(net->GetPlannedOffAir(), 1u, "not asked for, off the air");
        NS_TEST_ASSERT_MSG_EQ(net->GetPlannedDropped(), 0u, "none dropped otherwise");
        NS_TEST_ASSERT_MSG_EQ(complete, true, "its session completed");
        NS_TEST_ASSERT_MSG_EQ(edge->GetCoordinator()->GetRecords().size(), 0u, "no handover");
        const uint64_t imsi = net->GetRanStack()->GetImsi(net->GetUeDevices().Get(0));
        NS_TEST_ASSERT_MSG_EQ(DynamicCast<EdgeLlmClient>(net->GetClients().Get(0))->GetImsi(),
                              imsi,
                              "the client is the UE's");
        NS_TEST_ASSERT_MSG_EQ(net->GetObserver()->GetServingCellId(imsi),
                              net->GetCellIds()[1],
                              "attached where it stood at its attach, cell 1");
        Simulator::Destroy();
        net->Dispose();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The UE-airtime test suite.
 */
class UeAirtimeTestSuite : public TestSuite
{
  public:
    UeAirtimeTestSuite()
        : TestSuite("edge-llm-ue-airtime", TestSuite::Type::UNIT)
    {
        AddTestCase(new UeAirtimeEventsTestCase("session"), edgellm::TEST_QUICK);
        AddTestCase(new UeAirtimeEventsTestCase("run"), edgellm::TEST_QUICK);
        AddTestCase(new UeAirtimePlannedTestCase(), edgellm::TEST_QUICK);
    }
};

/// The suite's one instance.
static UeAirtimeTestSuite g_ueAirtimeTestSuite;
