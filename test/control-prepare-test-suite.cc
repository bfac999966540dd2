/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The control plane on the network, for prepared migrations: Pallas's prepares, cancels and
// load reports are messages, and a prepared migration's commit reads what its source knows.

#include "hook-test-scheduler.h"
#include "one-handover-line.h"
#include "reset-test-case.h"
#include "test-durations.h"

#include "ns3/core-module.h"
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

/// The base: every case destroys the simulator and resets the defaults it set.
using ControlPrepareTestCase = edgellm::ResetTestCase;

/// A Pallas line whose prepares and cancels travel: 5 ms links, so a round trip shows.
/// \param at PolicyAt \return the configuration
PallasLineConfig
PallasOverTheNetwork(const std::string& at)
{
    Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
    Config::SetDefault("ns3::HandoverCoordinator::PolicyAt", StringValue(at));
    PallasLineConfig c;
    c.linkDelay = MilliSeconds(5);
    if (at == "controller")
    {
        c.backhaul = "core"; // the controller sits at its core router
    }
    return c;
}

class PrepareOverTheNetworkTestCase : public ControlPrepareTestCase
{
  public:
    explicit PrepareOverTheNetworkTestCase(const std::string& at)
        : ControlPrepareTestCase("Control plane network, policy at the " + at +
                                 ": Pallas's prepare is a PREPARE message, and the migration is "
                                 "prepared when its answer or plan is back at the holder, no "
                                 "earlier than the links' round trip"),
          m_at(at)
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            const PallasLineConfig c = PallasOverTheNetwork(m_at);
            const PallasLineExperiment experiment(c);
            // The first PREPARE the holder sent, the message that came back for it, and when
            // the migration entered PREPARED.
            Time askedAt{-1};
            uint64_t asker = 0;
            uint16_t holder = 0;
            uint32_t sequence = 0;
            uint32_t arrivedAtPolicy = 0;
            Time backAt{-1};
            Time preparedAt{-1};
            const PallasLineRun run =
                experiment.Run("pallas", experiment.Draw(), [&](Ptr<EdgeLlmNetwork> net) {
                    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
                    for (const auto& [cell, channel] : edge->GetControlChannels())
                    {
                        channel->TraceConnectWithoutContext(
                            "Tx",
                            Callback<void, const ControlMessage&, uint16_t>(
                                [&](const ControlMessage& m, uint16_t) {
                                    if (m.type == ControlMessage::PREPARE && askedAt.IsNegative())
                                    {
                                        askedAt = Simulator::Now();
                                        asker = m.imsi;
                                        holder = m.fromCell;
                                        sequence = m.sequence;
                                    }
                                }));
                        channel->TraceConnectWithoutContext(
                            "Rx",
                            Callback<void, const ControlMessage&, Time>(
                                [&, cell = cell](const ControlMessage& m, Time) {
                                    if (m.type == ControlMessage::PREPARE)
                                    {
                                        ++arrivedAtPolicy;
                                    }
                                    const bool back = m.type == ControlMessage::RESERVE_ANSWER ||
                                                      m.type == ControlMessage::PLAN;
                                    if (back && m.imsi == asker && m.sequence == sequence &&
                                        cell == holder && backAt.IsNegative())
                                    {
                                        backAt = Simulator::Now();
                                    }
                                }));
                    }
                    edge->GetCoordinator()->TraceConnectWithoutContext(
                        "MigrationState",
                        Callback<void, uint64_t, uint32_t, int, int>(
                            [&](uint64_t imsi, uint32_t, int, int to) {
                                if (to == HandoverCoordinator::PREPARED && imsi == asker &&
                                    preparedAt.IsNegative())
                                {
                                    preparedAt = Simulator::Now();
                                }
                            }));
                });
            const std::string what = m_at + ", RngRun " + std::to_string(rngRun);
            NS_TEST_ASSERT_MSG_EQ(askedAt.IsNegative(), false, what << ": a PREPARE was sent");
            NS_TEST_EXPECT_MSG_GT(arrivedAtPolicy, 0u, what << ": it crossed the backhaul");
            NS_TEST_ASSERT_MSG_EQ(backAt.IsNegative(), false, what << ": its answer came back");
            NS_TEST_EXPECT_MSG_EQ(preparedAt, backAt, what << ": prepared when it came back");
            // By hand: a cell-to-cell trip is one 5 ms link over X2 and two access links
            // through the core; a trip between a cell and the controller, one access link.
            const uint32_t links = c.backhaul == "core" ? 4 : 2;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(backAt - askedAt,
                                        c.linkDelay * links,
                                        what << ": no earlier than the links' propagation");
            NS_TEST_EXPECT_MSG_EQ(run.exactlyOnce, true, what << ": every token once");
            NS_TEST_EXPECT_MSG_EQ(KvLedgerBalances(run.kvSent, run.kvReceived),
                                  true,
                                  what << ": the ledger");
            bool migrated = false;
            for (const HandoverRecord& r : run.records)
            {
                migrated = migrated || (r.imsi == asker && !r.preparedAt.IsNegative() &&
                                        r.outcome == HandoverRecord::MIGRATED);
            }
            NS_TEST_EXPECT_MSG_EQ(migrated, true, what << ": the prepared migration committed");
            Config::Reset();
        }
    }

    std::string m_at; //!< PolicyAt
};

class CancelOverTheNetworkTestCase : public ControlPrepareTestCase
{
  public:
    CancelOverTheNetworkTestCase()
        : ControlPrepareTestCase("Control plane network: a prepared migration to a wrong target "
                                 "is cancelled by a CANCEL message; the target holds the session's "
                                 "memory until it arrives, and drops it then")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            PallasLineConfig c = PallasOverTheNetwork("source");
            c.cells = 3;
            c.fromCell = 1;
            c.predictor = "wrong";
            c.windowMargin = Seconds(1);
            const PallasLineExperiment experiment(c);
            std::map<uint16_t, Ptr<LlmEngine>> engines;
            uint32_t sent = 0;
            uint32_t arrived = 0;
            Time oneWay{0};
            std::vector<bool> heldAfterSend;
            std::vector<bool> heldAfterArrival;
            const auto heldSoon = [&engines](uint64_t imsi, uint16_t cell, std::vector<bool>* out) {
                Simulator::Schedule(NanoSeconds(1), [&engines, imsi, cell, out]() {
                    out->push_back(engines.at(cell)->HasSession(imsi));
                });
            };
            const PallasLineRun run =
                experiment.Run("pallas", experiment.Draw(), [&](Ptr<EdgeLlmNetwork> net) {
                    for (uint32_t i = 0; i < net->GetServers().GetN(); ++i)
                    {
                        Ptr<EdgeLlmServer> server =
                            DynamicCast<EdgeLlmServer>(net->GetServers().Get(i));
                        engines[server->GetCellId()] = server->GetEngine();
                    }
                    for (const auto& [cell, channel] :
                         net->GetEdgeLlmHelper()->GetControlChannels())
                    {
                        channel->TraceConnectWithoutContext(
                            "Tx",
                            Callback<void, const ControlMessage&, uint16_t>(
                                [&](const ControlMessage& m, uint16_t to) {
                                    if (m.type == ControlMessage::CANCEL)
                                    {
                                        ++sent;
                                        heldSoon(m.imsi, to, &heldAfterSend);
                                    }
                                }));
                        channel->TraceConnectWithoutContext(
                            "Rx",
                            Callback<void, const ControlMessage&, Time>(
                                [&, cell = cell](const ControlMessage& m, Time delay) {
                                    if (m.type == ControlMessage::CANCEL)
                                    {
                                        ++arrived;
                                        oneWay = delay;
                                        heldSoon(m.imsi, cell, &heldAfterArrival);
                                    }
                                }));
                    }
                });
            const std::string what = "RngRun " + std::to_string(rngRun);
            const HandoverRecord* cancelled = nullptr;
            for (const HandoverRecord& r : run.records)
            {
                if (!r.preparedAt.IsNegative() && r.outcome == HandoverRecord::CANCELLED)
                {
                    cancelled = &r;
                }
            }
            NS_TEST_ASSERT_MSG_NE(cancelled, nullptr, what << ": a prepared migration cancelled");
            NS_TEST_EXPECT_MSG_EQ(sent, 1u, what << ": one CANCEL sent");
            NS_TEST_ASSERT_MSG_EQ(arrived, 1u, what << ": and it arrived");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(oneWay, c.linkDelay, what << ": over a 5 ms link");
            NS_TEST_EXPECT_MSG_EQ(heldAfterSend.at(0),
                                  true,
                                  what << ": the wrong target held the session meanwhile");
            NS_TEST_EXPECT_MSG_EQ(heldAfterArrival.at(0),
                                  false,
                                  what << ": and dropped it when the CANCEL arrived");
            NS_TEST_EXPECT_MSG_GT(cancelled->wastedBytes, 0u, what << ": its bytes are waste");
            NS_TEST_EXPECT_MSG_EQ(run.exactlyOnce, true, what << ": every token once");
            NS_TEST_EXPECT_MSG_EQ(run.kvSent.sent,
                                  run.kvReceived.received + run.kvReceived.stale,
                                  what << ": sent = received + stale");
            NS_TEST_EXPECT_MSG_EQ(KvLedgerBalances(run.kvSent, run.kvReceived),
                                  true,
                                  what << ": the ledger");
            Config::Reset();
        }
    }
};

class LoadReportsTestCase : public ControlPrepareTestCase
{
  public:
    LoadReportsTestCase()
        : ControlPrepareTestCase("Control plane network: each cell reports its GPU load to its "
                                 "neighbours as LOAD messages, and Pallas's telemetry of a "
                                 "target is its last report, aged, not the target's engine")
    {
    }

  private:
    /// A LOAD as the test read it off the wire.
    struct Seen
    {
        Time sentAt;        //!< the sender's clock
        uint64_t busyUs{0}; //!< to the end of its iteration
        uint64_t queued{0}; //!< prefill tokens queued
        uint32_t rate{0};   //!< its latest prefill rate
    };

    void DoRun() override
    {
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            const PallasLineConfig c = PallasOverTheNetwork("source");
            const PallasLineExperiment experiment(c);
            std::map<std::pair<uint16_t, uint16_t>, uint32_t> sent; // (from, to)
            std::map<std::pair<uint16_t, uint16_t>, Time> lastSent;
            uint32_t arrived = 0;
            Time shortest = Time::Max();
            std::map<std::pair<uint16_t, uint16_t>, Seen> last; // (at, from)
            uint32_t samples = 0;
            uint32_t busySamples = 0;
            uint32_t unreported = 0;
            double worst = 0;
            const auto onSample =
                [&](uint64_t, uint16_t serving, uint16_t target, double loadS, double rate) {
                    ++samples;
                    const auto r = last.find({serving, target});
                    if (r == last.end())
                    {
                        ++unreported;
                        worst = std::max(worst, std::abs(loadS)); // idle until a report
                        return;
                    }
                    const Seen& s = r->second;
                    // By hand: the iteration's end the cell reported, from when it sent it, then
                    // its queue at the rate it reported (if any; else the compute model's).
                    const double end =
                        (s.sentAt + MicroSeconds(s.busyUs) - Simulator::Now()).GetNanoSeconds() *
                        1e-9;
                    const double perSecond = s.rate > 0 ? s.rate : rate;
                    const double expected =
                        std::max(0.0, end) + static_cast<double>(s.queued) / perSecond;
                    worst = std::max(worst, std::abs(loadS - expected));
                    if (s.rate > 0)
                    {
                        worst = std::max(worst, std::abs(rate - s.rate) * 1e-9);
                    }
                    busySamples += expected > 0 ? 1 : 0;
                };
            const PallasLineRun run = experiment.Run(
                "pallas",
                experiment.Draw(),
                [&](Ptr<EdgeLlmNetwork> net) {
                    for (const auto& [cell, channel] :
                         net->GetEdgeLlmHelper()->GetControlChannels())
                    {
                        channel->TraceConnectWithoutContext(
                            "Tx",
                            Callback<void, const ControlMessage&, uint16_t>(
                                [&, cell = cell](const ControlMessage& m, uint16_t to) {
                                    if (m.type == ControlMessage::LOAD)
                                    {
                                        ++sent[{cell, to}];
                                        lastSent[{cell, to}] = Simulator::Now();
                                    }
                                }));
                        channel->TraceConnectWithoutContext(
                            "Rx",
                            Callback<void, const ControlMessage&, Time>(
                                [&, cell = cell](const ControlMessage& m, Time delay) {
                                    if (m.type != ControlMessage::LOAD)
                                    {
                                        return;
                                    }
                                    ++arrived;
                                    shortest = std::min(shortest, delay);
                                    last[{cell, m.fromCell}] = {NanoSeconds(m.sentAtNs),
                                                                m.value & 0xFFFFFFFFU,
                                                                m.value >> 32,
                                                                m.sequence};
                                }));
                    }
                },
                [&](Ptr<PallasController> controller) {
                    controller->TraceConnectWithoutContext(
                        "Sampled",
                        Callback<void, uint64_t, uint16_t, uint16_t, double, double>(onSample));
                });
            const std::string what = "RngRun " + std::to_string(rngRun);
            // The line's two cells, each to the other: one report per ControlPeriod from 0,
            // so the last one sent at t is report t / period + 1.
            NS_TEST_EXPECT_MSG_EQ(sent.size(), 2u, what << ": each cell to its neighbour");
            uint64_t total = 0;
            for (const auto& [pair, n] : sent)
            {
                total += n;
                const int64_t k =
                    lastSent[pair].GetNanoSeconds() / c.controlPeriod.GetNanoSeconds();
                NS_TEST_EXPECT_MSG_EQ(lastSent[pair],
                                      c.controlPeriod * k,
                                      what << ": sent on the period's grid");
                NS_TEST_EXPECT_MSG_EQ(n, k + 1, what << ": one per period");
            }
            NS_TEST_EXPECT_MSG_EQ(run.loadsSent, total, what << ": the controller's count");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(total - arrived, 2u, what << ": all arrived but the last");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(shortest, c.linkDelay, what << ": over a 5 ms link");
            NS_TEST_ASSERT_MSG_GT(samples, 0u, what << ": Pallas sampled telemetry");
            NS_TEST_EXPECT_MSG_EQ(run.loadReported, samples - unreported, what << ": reported");
            NS_TEST_EXPECT_MSG_GT(busySamples, 0u, what << ": some with the target busy");
            NS_TEST_EXPECT_MSG_LT(worst, 1e-9, what << ": each sample the report's, aged");
            NS_TEST_EXPECT_MSG_EQ(run.loadForecast, 0u, what << ": no engine replay");
            NS_TEST_EXPECT_MSG_EQ(run.exactlyOnce, true, what << ": every token once");
            Config::Reset();
        }
    }
};

class CommitViewTestCase : public ControlPrepareTestCase
{
  public:
    CommitViewTestCase()
        : ControlPrepareTestCase("Control plane network: a prepared migration's commit shows the "
                                 "policy what arrived as the target's TCP acknowledged it to the "
                                 "source's sender, read at the source")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
        // One UE hands over from cell 1 to cell 2 over 20 ms links of 300 Mb/s, prepared 1 s
        // before: its open transfer is under way when it commits.
        Ptr<EdgeLlmLineScenario> s = edgellm::OneHandoverLine();
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        edge->SetSchedulerType("ns3::HookTestScheduler");
        s->Build();
        s->AssignStreams(1);
        Ptr<HandoverCoordinator> coordinator = edge->GetCoordinator();
        Ptr<HookTestScheduler> policy = DynamicCast<HookTestScheduler>(coordinator->GetScheduler());
        const uint64_t imsi = DynamicCast<EdgeLlmClient>(s->GetClients().Get(0))->GetImsi();
        const Time crossing = s->GetBoundaryCrossings().at(0).time;
        Simulator::Schedule(crossing - Seconds(1), [coordinator, imsi, crossing]() {
            coordinator->PrepareHandover(imsi, 2, crossing);
        });
        // What the target's receiver had taken when the migration committed.
        Ptr<KvTransferReceiver> receiver = edge->GetKvTransfer(2)->GetReceiver();
        uint64_t receivedAtCommit = 0;
        coordinator->TraceConnectWithoutContext(
            "MigrationState",
            Callback<void, uint64_t, uint32_t, int, int>([&](uint64_t who, uint32_t, int, int to) {
                if (who == imsi && to == HandoverCoordinator::COMMITTED)
                {
                    receivedAtCommit = receiver->GetCounters(imsi).received;
                }
            }));
        Simulator::Stop(Seconds(8));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(policy->commits.size(), 1u, "one commit");
        const MigrationView& v = policy->commits.front();
        NS_TEST_ASSERT_MSG_GT(receivedAtCommit, 0u, "the open transfer was under way");
        // The sender's acknowledged bytes trail the receiver by what one way of the link
        // holds at most: 300 Mb/s for 20 ms, and a frame.
        const uint64_t oneWayBytes = 300'000'000 / 8 / 50 + 1500;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(v.receivedBytes, receivedAtCommit, "no more than arrived");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(v.receivedBytes + oneWayBytes,
                                    receivedAtCommit,
                                    "no older than a one-way delay");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(v.receivedBytes, v.sentBytes, "within what was sent");
        for (const auto& [call, n] : coordinator->GetCrossNodeAudit().GetCalls())
        {
            NS_TEST_EXPECT_MSG_EQ(call.rfind("MakeMigrationView", 0),
                                  std::string::npos,
                                  "the view read the target: " << call);
        }
    }
};

class ControlPrepareTestSuite : public TestSuite
{
  public:
    ControlPrepareTestSuite()
        : TestSuite("edge-llm-control-prepare", TestSuite::Type::UNIT)
    {
        AddTestCase(new PrepareOverTheNetworkTestCase("source"), edgellm::TEST_QUICK);
        AddTestCase(new PrepareOverTheNetworkTestCase("target"), edgellm::TEST_QUICK);
        AddTestCase(new PrepareOverTheNetworkTestCase("controller"), edgellm::TEST_QUICK);
        AddTestCase(new CancelOverTheNetworkTestCase, edgellm::TEST_QUICK);
        AddTestCase(new LoadReportsTestCase, edgellm::TEST_QUICK);
        AddTestCase(new CommitViewTestCase, edgellm::TEST_QUICK);
    }
};

/// The suite's one instance
ControlPrepareTestSuite g_controlPrepareTestSuite;

} // namespace
