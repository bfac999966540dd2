/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Handover policies end to end on the ctHO paper's line: an LTE handover starts a plan, the
// plan runs on real packets (TCP over the backhaul) and a real GPU queue, and the delay that
// comes out is counted and compared with the analytic value of the same measured inputs.

#include "backhaul-frame.h"
#include "test-durations.h"

#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/double.h"
#include "ns3/edge-llm-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/token-timing-stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Short runs: the UEs move at 1 s and decode 60 tokens past their handover.
CtHoLineConfig
ShortConfig(uint32_t ues)
{
    CtHoLineConfig c;
    c.numUes = ues;
    c.moveStart = Seconds(1);
    c.tokensAfter = 60;
    c.maxSimTime = Seconds(20);
    return c;
}

/// Every token index each session's engines emitted, and how often.
struct Emissions
{
    std::map<uint64_t, std::map<uint64_t, uint32_t>> count; //!< imsi -> index -> emissions
    std::map<uint64_t, std::map<uint64_t, uint16_t>> cell;  //!< imsi -> index -> emitting cell
    /// imsi -> indices the client's application delivered, in delivery order
    std::map<uint64_t, std::vector<uint32_t>> delivered;

    void Emitted(uint16_t cellId, uint64_t imsi, uint64_t index)
    {
        ++count[imsi][index];
        cell[imsi][index] = cellId;
    }

    void Delivered(uint64_t imsi, uint32_t index, Time, Time, uint16_t, bool)
    {
        delivered[imsi].push_back(index);
    }

    /// Hook every engine of the scenario.
    void Hook(Ptr<EdgeLlmLineScenario> s)
    {
        for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
        {
            Ptr<EdgeLlmServer> server = DynamicCast<EdgeLlmServer>(s->GetServers().Get(i));
            server->GetEngine()->TraceConnectWithoutContext(
                "TokenGenerated",
                MakeCallback(&Emissions::Emitted, this, server->GetCellId()));
        }
        for (uint32_t i = 0; i < s->GetClients().GetN(); ++i)
        {
            s->GetClients().Get(i)->TraceConnectWithoutContext(
                "TokenDelivered",
                MakeCallback(&Emissions::Delivered, this));
        }
    }
};

/// The base: every case destroys the simulator and resets the defaults it touched.
class HandoverTestCase : public TestCase
{
  public:
    explicit HandoverTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    void DoTeardown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /// Each token of each UE emitted once, delivered once, in order, and the run complete.
    void CheckExactlyOnce(const CtHoLineRun& run, const Emissions& e)
    {
        for (const CtHoLineUe& ue : run.ues)
        {
            NS_TEST_ASSERT_MSG_EQ(ue.complete, true, run.scheme << ": imsi " << ue.imsi << " done");
            NS_TEST_ASSERT_MSG_EQ(ue.delivered,
                                  ue.tokensToGenerate,
                                  run.scheme << ": imsi " << ue.imsi << " got every token");
            auto it = e.count.find(ue.imsi);
            NS_TEST_ASSERT_MSG_EQ((it != e.count.end()), true, "imsi " << ue.imsi << " decoded");
            if (it == e.count.end())
            {
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(it->second.size(),
                                  ue.tokensToGenerate,
                                  run.scheme << ": every index emitted, imsi " << ue.imsi);
            uint64_t expected = 0;
            for (const auto& [index, n] : it->second)
            {
                NS_TEST_ASSERT_MSG_EQ(index, expected, run.scheme << ": no index skipped");
                NS_TEST_ASSERT_MSG_EQ(n, 1u, run.scheme << ": token " << index << " emitted once");
                expected = index + 1;
            }
            // At the application: indices 0, 1, ..., N - 1, each once, in that order.
            const std::vector<uint32_t>& got =
                e.delivered.count(ue.imsi) > 0 ? e.delivered.at(ue.imsi) : std::vector<uint32_t>();
            NS_TEST_ASSERT_MSG_EQ(got.size(),
                                  ue.tokensToGenerate,
                                  run.scheme << ": imsi " << ue.imsi << " delivered N tokens");
            NS_TEST_ASSERT_MSG_EQ(std::set<uint32_t>(got.begin(), got.end()).size(),
                                  got.size(),
                                  run.scheme << ": no index delivered twice, imsi " << ue.imsi);
            for (std::size_t k = 0; k < got.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(got[k],
                                      k,
                                      run.scheme << ": imsi " << ue.imsi << " delivery " << k
                                                 << " in order");
                if (k > 0)
                {
                    NS_TEST_ASSERT_MSG_GT(got[k], got[k - 1], "indices increase");
                }
            }
        }
    }

    /// Every token of a session was emitted by one cell.
    void CheckAllFrom(Emissions& e, uint64_t imsi, uint16_t cellId)
    {
        for (const auto& [index, cell] : e.cell[imsi])
        {
            NS_TEST_ASSERT_MSG_EQ(cell, cellId, "token " << index << " of imsi " << imsi);
        }
    }

    /// KV bytes conserve: announced = sent + cancelled; sent = received + dropped as stale.
    void CheckBytes(const CtHoLineRun& run)
    {
        NS_TEST_ASSERT_MSG_EQ(run.sent.announced,
                              run.sent.sent + run.sent.withdrawn,
                              run.scheme << ": announced = sent + cancelled");
        NS_TEST_ASSERT_MSG_EQ(run.sent.sent,
                              run.received.received + run.received.stale,
                              run.scheme << ": sent = received + dropped as stale");
        NS_TEST_ASSERT_MSG_EQ(run.received.droppedInvalid, 0u, "no byte out of range");
        NS_TEST_ASSERT_MSG_EQ(run.streamBytesSent,
                              run.streamBytesReceived,
                              run.scheme << ": the receivers read every stream byte sent");
    }
};

/// eNBs 300 m apart and one UE that starts moving at 1 s; handovers at the midpoints.
Ptr<EdgeLlmLineScenario>
OneUeLine(uint32_t enbs, double startX, double speed)
{
    Ptr<EdgeLlmLineScenario> s = CreateObject<EdgeLlmLineScenario>();
    s->SetAttribute("EnbCount", UintegerValue(enbs));
    s->SetAttribute("EnbSpacing", DoubleValue(300));
    s->SetAttribute("UeCount", UintegerValue(1));
    s->SetAttribute("UeStartX", DoubleValue(startX));
    s->SetAttribute("UeSpeed", DoubleValue(speed));
    s->SetAttribute("MoveStart", TimeValue(Seconds(1)));
    s->SetAttribute("Trigger", StringValue("boundary"));
    return s;
}

/// The one migrated record of a UE, or null.
const HandoverRecord*
Migrated(const CtHoLineRun& run, uint64_t imsi)
{
    for (const HandoverRecord& r : run.records)
    {
        if (r.imsi == imsi && r.outcome == HandoverRecord::MIGRATED)
        {
            return &r;
        }
    }
    return nullptr;
}

class OneUeChoTestCase : public HandoverTestCase
{
  public:
    OneUeChoTestCase()
        : HandoverTestCase("One UE under cHO: its handover delay is at least the time its cache "
                           "takes on the backhaul, and within 5 % of it")
    {
    }

  private:
    void DoRun() override
    {
        const CtHoLineExperiment experiment(ShortConfig(1));
        const CtHoLineRun run = experiment.Run("cho", experiment.Draw());
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 1u, "one handover");
        const HandoverRecord* r = Migrated(run, run.ues.at(0).imsi);
        NS_TEST_ASSERT_MSG_NE(r, nullptr, "the session migrated");
        if (r == nullptr)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(r->prefillTokens, 0u, "cHO prefills nothing");
        NS_TEST_ASSERT_MSG_EQ(r->transferTokens, r->contextTokens, "cHO sends the whole cache");
        NS_TEST_ASSERT_MSG_EQ(r->kvBytes, r->contextTokens * 57344, "Qwen2.5-7B at 16 bits");
        const double bound = r->kvBytes * 8.0 / 4.5e9 + 50e-6;
        const double delay = (r->kvReady - r->hoStart).GetSeconds();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(delay, bound, "no faster than the link");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(delay, 1.05 * bound, "TCP over MTU 9000 is near the link");
    }
};

class ServerKvShapeTestCase : public HandoverTestCase
{
  public:
    ServerKvShapeTestCase()
        : HandoverTestCase("The coordinator weighs a cache by its servers' model: Qwen3-8B at 8 "
                           "bits moves 36 x 8 x 128 x 2 bytes a token under cHO, the planned R "
                           "follows, and the coordinator's KvBytesPerToken overrides it")
    {
    }

  private:
    void DoRun() override
    {
        // Qwen3-8B's model card: 36 layers, 8 KV heads of dimension 128; K and V at 1 byte.
        const uint64_t modelBytes = 36 * 8 * 128 * 2;
        // 0: the servers' model; else a number the coordinator is told in its place.
        for (const uint64_t told : {uint64_t(0), uint64_t(40000)})
        {
            Config::SetDefault("ns3::HandoverCoordinator::KvBytesPerToken", UintegerValue(told));
            CtHoLineConfig c = ShortConfig(1);
            c.kvProfile = "Qwen3-8B";
            c.kvBits = 8;
            const CtHoLineExperiment experiment(c);
            const CtHoLineRun run = experiment.Run("cho", experiment.Draw());
            const uint64_t bytes = told == 0 ? modelBytes : told;
            const HandoverRecord* r = Migrated(run, run.ues.at(0).imsi);
            NS_TEST_ASSERT_MSG_NE(r, nullptr, told << ": the session migrated");
            NS_TEST_ASSERT_MSG_EQ(r->transferTokens, r->contextTokens, "the whole cache");
            NS_TEST_ASSERT_MSG_EQ(r->kvBytes, r->contextTokens * bytes, told << ": KV announced");
            NS_TEST_ASSERT_MSG_EQ(run.received.received,
                                  r->kvBytes,
                                  told << ": the bytes the target's receiver read");
            NS_TEST_ASSERT_MSG_EQ_TOL(run.plannedTokensPerSecond,
                                      4.5e9 / 8 / static_cast<double>(bytes),
                                      1e-9 * run.plannedTokensPerSecond,
                                      told << ": R = rate / bytes per token");
            const double delay = (r->kvReady - r->hoStart).GetSeconds();
            NS_TEST_ASSERT_MSG_GT_OR_EQ(delay,
                                        r->kvBytes * 8.0 / 4.5e9,
                                        told << ": no faster than the link");
            CheckBytes(run);
            Simulator::Destroy();
        }
    }
};

class DelayFromPacketsTestCase : public HandoverTestCase
{
  public:
    DelayFromPacketsTestCase()
        : HandoverTestCase("The delay comes from the packets: a link at half the planned rate "
                           "doubles cHO's delay, and each session's cache is ready within 1 ms "
                           "of the MacRx of its last segment")
    {
    }

  private:
    /// A frame that reached the target's backhaul device.
    struct Frame
    {
        Time at;         //!< when
        uint64_t seqEnd; //!< end of its TCP payload in the stream, sequence numbers from 1
    };

    struct Capture
    {
        std::vector<Frame> frames;
        std::map<uint64_t, std::pair<Time, uint64_t>> complete; //!< imsi -> (when, stream read)
        Ptr<KvTransferReceiver> receiver;

        void Rx(Ptr<const Packet> frame)
        {
            const edgellm::test::TcpPayload tcp = edgellm::test::ReadTcpPayload(frame);
            if (tcp.bytes > 0)
            {
                frames.push_back({Simulator::Now(), tcp.seqEnd});
            }
        }

        void Complete(uint64_t imsi, uint32_t, uint64_t)
        {
            complete[imsi] = {Simulator::Now(), receiver->GetStreamBytesReceived()};
        }
    };

    void DoRun() override
    {
        CtHoLineConfig c = ShortConfig(2);
        c.backhaulRate = DataRate("2.25Gbps");
        c.plannedBackhaulRate = DataRate("4.5Gbps");
        const CtHoLineExperiment experiment(c);
        Capture capture;
        const CtHoLineRun run =
            experiment.Run("cho", experiment.Draw(), [&capture](Ptr<EdgeLlmLineScenario> s) {
                // The line's only link: device 1 is on the second eNB, the target.
                s->GetBackhaulLinks().at(0).devices.Get(1)->TraceConnectWithoutContext(
                    "MacRx",
                    MakeCallback(&Capture::Rx, &capture));
                const uint16_t target =
                    DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))->GetCellId();
                capture.receiver = s->GetEdgeLlmHelper()->GetKvTransfer(target)->GetReceiver();
                capture.receiver->TraceConnectWithoutContext(
                    "SessionComplete",
                    MakeCallback(&Capture::Complete, &capture));
            });
        const std::vector<CtHoLineGroupSummary> groups = CtHoLineExperiment::Summarize(run);
        NS_TEST_ASSERT_MSG_EQ(groups.size(), 1u, "one oracle group");
        if (groups.size() != 1)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(groups[0].sessions, 2u, "both migrated");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(groups[0].ratio, 1.9, "measured / analytic at half the rate");
        // The analytic value at the rate the link really has: its KV bytes through a FIFO of
        // 2.25 Gb/s in handover order, each from its own handover, plus the link's 50 us
        // propagation. TCP over MTU 9000 adds about 0.6 % of headers and its slow start a
        // little more: within 5 % above it.
        std::vector<const HandoverRecord*> byStart;
        for (const HandoverRecord& r : run.records)
        {
            byStart.push_back(&r);
        }
        std::sort(byStart.begin(), byStart.end(), [](auto a, auto b) {
            return a->hoStart < b->hoStart;
        });
        double linkFree = 0;
        double fifoWorst = 0;
        double measuredWorst = 0;
        for (const HandoverRecord* r : byStart)
        {
            linkFree = std::max(linkFree, r->hoStart.GetSeconds()) + r->kvBytes * 8.0 / 2.25e9;
            fifoWorst = std::max(fifoWorst, linkFree + 50e-6 - r->hoStart.GetSeconds());
            measuredWorst = std::max(measuredWorst, (r->kvReady - r->hoStart).GetSeconds());
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(measuredWorst,
                                    fifoWorst - 1e-9,
                                    "no faster than the real link");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(measuredWorst,
                                    1.05 * fifoWorst,
                                    "within 5 % of the analytic value at the real rate");
        for (const HandoverRecord& r : run.records)
        {
            auto done = capture.complete.find(r.imsi);
            NS_TEST_ASSERT_MSG_EQ((done != capture.complete.end()), true, "its cache arrived");
            if (done == capture.complete.end())
            {
                continue;
            }
            // cHO: no prefill, so the cache is ready when its last byte reaches the application.
            NS_TEST_ASSERT_MSG_EQ(r.kvReady, done->second.first, "ready at the last byte");
            const uint64_t streamEnd = done->second.second;
            const Frame* last = nullptr;
            for (const Frame& f : capture.frames)
            {
                if (f.seqEnd - 1 >= streamEnd)
                {
                    last = &f;
                    break;
                }
            }
            NS_TEST_ASSERT_MSG_NE(last, nullptr, "the segment ending the session was received");
            if (last != nullptr)
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(r.kvReady, last->at, "ready after its MacRx");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(r.kvReady - last->at,
                                            MilliSeconds(1),
                                            "within 1 ms of its MacRx");
            }
        }
    }
};

class ExactlyOnceTestCase : public HandoverTestCase
{
  public:
    ExactlyOnceTestCase()
        : HandoverTestCase("Every scheme: each token emitted once, delivered once and in order; "
                           "KV bytes conserve and cover exactly prefill and transfer")
    {
    }

  private:
    void DoRun() override
    {
        const CtHoLineExperiment experiment(ShortConfig(2));
        const CtHoLineInputs inputs = experiment.Draw();
        for (const std::string scheme : {"tho", "cho", "ctho", "detour"})
        {
            Emissions e;
            std::map<uint64_t, edgellm::RangeSet> ranges;
            std::map<uint64_t, uint64_t> forwarded;
            const CtHoLineRun run = experiment.Run(
                scheme,
                inputs,
                [&e](Ptr<EdgeLlmLineScenario> s) { e.Hook(s); },
                [&ranges, &forwarded](Ptr<EdgeLlmLineScenario> s) {
                    const uint16_t target =
                        DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))->GetCellId();
                    Ptr<KvTransferReceiver> rx =
                        s->GetEdgeLlmHelper()->GetKvTransfer(target)->GetReceiver();
                    for (uint32_t j = 0; j < 2; ++j)
                    {
                        const uint64_t imsi =
                            DynamicCast<EdgeLlmClient>(s->GetClients().Get(j))->GetImsi();
                        ranges[imsi] = rx->GetReceivedRanges(imsi);
                        forwarded[imsi] = rx->GetCounters(imsi).tokensForwarded;
                    }
                });
            NS_TEST_ASSERT_MSG_EQ((run.inputs == inputs), true, "the same inputs");
            CheckExactlyOnce(run, e);
            CheckBytes(run);
            for (const CtHoLineUe& ue : run.ues)
            {
                const HandoverRecord* r = Migrated(run, ue.imsi);
                if (std::string(scheme) == "detour")
                {
                    NS_TEST_ASSERT_MSG_EQ(r, nullptr, "Detour migrates nothing");
                    NS_TEST_ASSERT_MSG_EQ(ranges[ue.imsi].Count(), 0u, "and sends no KV");
                    continue;
                }
                NS_TEST_ASSERT_MSG_NE(r, nullptr, scheme << ": imsi " << ue.imsi << " migrated");
                if (r == nullptr)
                {
                    continue;
                }
                // prefill is [0, p), forwarded as token IDs; transfer is [p, C) as KV.
                NS_TEST_ASSERT_MSG_EQ(r->prefillTokens + r->transferTokens,
                                      r->contextTokens,
                                      "prefill and transfer make the context");
                NS_TEST_ASSERT_MSG_EQ(forwarded[ue.imsi], r->prefillTokens, "prefix forwarded");
                NS_TEST_ASSERT_MSG_EQ(ranges[ue.imsi].Count(), r->transferTokens, "KV received");
                NS_TEST_ASSERT_MSG_EQ(ranges[ue.imsi].RangeCount(),
                                      (r->transferTokens > 0 ? 1u : 0u),
                                      "in one piece");
                NS_TEST_ASSERT_MSG_EQ(
                    ranges[ue.imsi].Contains({r->prefillTokens, r->contextTokens}),
                    true,
                    "exactly [prefill, C)");
                // The target's first token is the one after the source's last.
                NS_TEST_ASSERT_MSG_EQ(e.cell[ue.imsi][r->resumeIndex],
                                      r->targetCell,
                                      "the target decodes from the resume index");
                NS_TEST_ASSERT_MSG_EQ(e.cell[ue.imsi][r->resumeIndex - 1],
                                      r->sourceCell,
                                      "the source decoded up to it");
            }
        }
    }
};

class PingPongTestCase : public HandoverTestCase
{
  public:
    PingPongTestCase()
        : HandoverTestCase("Ping-pong during a cHO migration: the transfer is cancelled, the "
                           "source's cache is reused, tokens stay exactly once, bytes conserve")
    {
    }

  private:
    void DoRun() override
    {
        CtHoLineConfig c = ShortConfig(1);
        c.batching = "online";
        const CtHoLineExperiment experiment(c);
        Emissions e;
        uint32_t cancelled = 0;
        uint64_t cancelledBytes = 0;
        const CtHoLineRun run = experiment.Run(
            "cho",
            experiment.Draw(),
            [&e, &cancelled, &cancelledBytes](Ptr<EdgeLlmLineScenario> s) {
                e.Hook(s);
                s->GetEdgeLlmHelper()->GetCoordinator()->TraceConnectWithoutContext(
                    "MigrationCancelled",
                    Callback<void, uint64_t, uint32_t, uint64_t>(
                        [&cancelled, &cancelledBytes](uint64_t, uint32_t, uint64_t bytes) {
                            ++cancelled;
                            cancelledBytes += bytes;
                        }));
                Ptr<NetDevice> source = s->GetEnbDevices().Get(0);
                const uint16_t sourceCell = s->GetNetwork()->GetCellIds()[0];
                Ptr<NetDevice> target = s->GetEnbDevices().Get(1);
                Ptr<NetDevice> ue = s->GetUeDevices().Get(0);
                Ptr<RanStack> stack = s->GetRanStack();
                auto back = std::make_shared<bool>(false);
                // The return is asked for 20 ms past the arrival at the target.
                s->GetObserver()->TraceConnectWithoutContext(
                    "HandoverDone",
                    Callback<void, uint64_t, uint16_t>(
                        [back, stack, ue, sourceCell, target](uint64_t, uint16_t) {
                            if (!*back)
                            {
                                *back = true;
                                Simulator::Schedule(MilliSeconds(20),
                                                    [stack, ue, target, sourceCell]() {
                                                        stack->RequestHandover(ue,
                                                                               target,
                                                                               sourceCell,
                                                                               Simulator::Now() +
                                                                                   Seconds(1));
                                                    });
                            }
                        }));
            });
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 2u, "there and back");
        if (run.records.size() != 2)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(run.records[0].outcome,
                              HandoverRecord::CANCELLED,
                              "the migration was cut short");
        NS_TEST_ASSERT_MSG_EQ(run.records[1].outcome,
                              HandoverRecord::REUSED,
                              "back at the source, which still holds the cache");
        NS_TEST_ASSERT_MSG_EQ(run.records[1].targetCell,
                              run.records[0].sourceCell,
                              "the return goes to the source");
        NS_TEST_ASSERT_MSG_EQ(cancelled, 1u, "one cancellation traced");
        NS_TEST_ASSERT_MSG_GT(run.sent.withdrawn + run.received.stale,
                              0u,
                              "part of the cache never arrived");
        NS_TEST_ASSERT_MSG_EQ(run.sent.withdrawn, cancelledBytes, "the trace counts it");
        NS_TEST_ASSERT_MSG_EQ((run.received.received < run.sent.announced),
                              true,
                              "the target did not get the whole cache");
        CheckExactlyOnce(run, e);
        CheckBytes(run);
        // Every token came from the source: the target never decoded.
        CheckAllFrom(e, run.ues.at(0).imsi, run.records[0].sourceCell);
    }
};

class AgainstAnalyticTestCase : public HandoverTestCase
{
  public:
    AgainstAnalyticTestCase()
        : HandoverTestCase("The paper's setting (boundary trigger, oracle batching, ideal RRC, "
                           "no load), five draws: tHO, cHO and ctHO within [1, 1.05] of the "
                           "analytic value, and ctHO's worst user no worse than tHO's or cHO's")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t savedRun = RngSeedManager::GetRun();
        // Each run number draws other contexts and start positions (the paper scenario takes
        // its streams from the global run).
        for (uint64_t rngRun = 1; rngRun <= 5; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            const CtHoLineExperiment experiment(ShortConfig(4));
            const CtHoLineInputs inputs = experiment.Draw();
            std::map<std::string, double> worst;
            for (const std::string scheme : {"tho", "cho", "ctho"})
            {
                const CtHoLineRun run = experiment.Run(scheme, inputs);
                NS_TEST_EXPECT_MSG_EQ((run.inputs == inputs), true, "the same inputs");
                const std::vector<CtHoLineGroupSummary> groups = CtHoLineExperiment::Summarize(run);
                NS_TEST_EXPECT_MSG_EQ(groups.size(), 1u, "run " << rngRun << ": one group");
                if (groups.size() != 1)
                {
                    continue;
                }
                const CtHoLineGroupSummary& g = groups[0];
                NS_TEST_EXPECT_MSG_EQ(g.sessions,
                                      4u,
                                      "run " << rngRun << ", " << scheme << ": all migrated");
                // Both are rounded to the simulator's 1 ns.
                NS_TEST_EXPECT_MSG_GT_OR_EQ(g.worstDelayS,
                                            g.analytic.worstDelay - 1e-9,
                                            "run " << rngRun << ", " << scheme
                                                   << ": no faster than the analytic optimum");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(g.ratio,
                                            1.05,
                                            "run " << rngRun << ", " << scheme
                                                   << ": within 5 % of it");
                worst[scheme] = g.worstDelayS;
            }
            NS_TEST_EXPECT_MSG_EQ(worst.size(), 3u, "run " << rngRun << ": three measurements");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(worst["ctho"],
                                        worst["tho"],
                                        "run " << rngRun << ": ctHO <= tHO");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(worst["ctho"],
                                        worst["cho"],
                                        "run " << rngRun << ": ctHO <= cHO");
            std::cout << "against analytic, run " << rngRun << ": worst tHO " << worst["tho"]
                      << " s, cHO " << worst["cho"] << " s, ctHO " << worst["ctho"] << " s"
                      << std::endl;
        }
        RngSeedManager::SetRun(savedRun);
    }
};

class TriggerTestCase : public HandoverTestCase
{
  public:
    explicit TriggerTestCase(const std::string& trigger)
        : HandoverTestCase(trigger == "a3"
                               ? "An a3 run hands over by itself and the session resumes"
                               : "A none run never hands over, and the session completes"),
          m_trigger(trigger)
    {
    }

  private:
    void DoRun() override
    {
        CtHoLineConfig c = ShortConfig(1);
        c.trigger = m_trigger;
        c.batching = "online";
        // A3 values of neither preset, so that they must reach the algorithm to pass.
        Config::SetDefault("ns3::LteRanStack::A3Preset", StringValue("custom"));
        Config::SetDefault("ns3::LteRanStack::A3Hysteresis", DoubleValue(kHysteresisDb));
        Config::SetDefault("ns3::LteRanStack::A3TimeToTrigger", TimeValue(kTimeToTrigger));
        // A3 hands over past the midpoint (hysteresis, time to trigger): more tokens after.
        c.tokensAfter = 200;
        const CtHoLineExperiment experiment(c);
        Emissions e;
        const CtHoLineRun run =
            experiment.Run("ctho", experiment.Draw(), [&e](auto s) { e.Hook(s); });
        CheckExactlyOnce(run, e);
        const uint64_t imsi = run.ues.at(0).imsi;
        std::set<uint16_t> cells;
        for (const auto& [index, cell] : e.cell[imsi])
        {
            cells.insert(cell);
        }
        if (m_trigger == "none")
        {
            NS_TEST_ASSERT_MSG_EQ(run.records.size(), 0u, "no handover");
            NS_TEST_ASSERT_MSG_EQ(cells.size(), 1u, "one cell decoded everything");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 1u, "one handover, from measurements");
        const HandoverRecord* r = Migrated(run, imsi);
        NS_TEST_ASSERT_MSG_NE(r, nullptr, "the session migrated");
        NS_TEST_ASSERT_MSG_EQ(cells.size(), 2u, "both cells decoded");
        if (r != nullptr)
        {
            const double x0 = run.inputs.startX[0];
            NS_TEST_ASSERT_MSG_GT(r->hoStart.GetSeconds(),
                                  1 + (150 - x0) / 20,
                                  "after the midpoint, as A3 decides");
            const double hysteresisDb = kHysteresisDb;
            const double ttt = kTimeToTrigger.GetSeconds();
            // Friis: RSRP falls as 1/d^2 with d the 3-D distance; the eNBs are at x = 0 and
            // 300 m, the UE 20 m off the line. The target is the hysteresis above the source
            // where (x^2 + 400) / ((300 - x)^2 + 400) = 10^(H/10): bisection below (175.6 m
            // for 3 dB), reached at t_a3 = 1 + (x_a3 - x0) / 20 s.
            double lo = 150;
            double hi = 300;
            for (int i = 0; i < 60; ++i)
            {
                const double x = (lo + hi) / 2;
                const double gainDb =
                    10 * std::log10((x * x + 400) / ((300 - x) * (300 - x) + 400));
                (gainDb < hysteresisDb ? lo : hi) = x;
            }
            const double tA3 = 1 + (lo - x0) / 20;
            // The measurements are 200 ms averages, L3-filtered with a = 0.5 (coefficient 4)
            // before A3 sees them: on a rising difference the filtered value lags, so the
            // condition is met no earlier than t_a3 and the report no earlier than the time
            // to trigger later.
            NS_TEST_ASSERT_MSG_GT_OR_EQ(r->hoStart.GetSeconds(),
                                        tA3 + ttt,
                                        "no earlier than the hysteresis point + time to trigger");
            // At the latest: up to one 200 ms period until the next sample, one period of lag
            // of the filter on a ramp ((1 - a) / a samples), the time to trigger, and slack of
            // one more period plus 44 ms for the report and the X2 preparation (ideal RRC,
            // a few ms): 0.644 s + TTT. A run without hysteresis, or with the time to trigger
            // ignored, or measurements at a far longer period would fall outside.
            NS_TEST_ASSERT_MSG_LT_OR_EQ(r->hoStart.GetSeconds(),
                                        tA3 + 0.644 + ttt,
                                        "within a measurement chain of the hysteresis point");
            std::cout << "a3: hysteresis point " << lo << " m at " << tA3 << " s, handover at "
                      << r->hoStart.GetSeconds() << " s" << std::endl;
        }
    }

    static constexpr double kHysteresisDb = 3.0;                //!< A3 hysteresis of the run
    static inline const Time kTimeToTrigger{MilliSeconds(100)}; //!< its time to trigger
    std::string m_trigger;                                      //!< a3 or none
};

class ThirdCellTestCase : public HandoverTestCase
{
  public:
    ThirdCellTestCase()
        : HandoverTestCase("A handover to a third cell during a migration: the transfer is "
                           "cancelled and the session is re-prefilled there from tokens "
                           "relayed hop by hop; tokens stay exactly once")
    {
    }

  private:
    void DoRun() override
    {
        // Three eNBs 300 m apart; one UE crosses both boundaries fast, while its cHO migration
        // to the second cell crawls over a 100 Mb/s link.
        Ptr<EdgeLlmLineScenario> s = OneUeLine(3, 140, 200);
        s->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        edge->SetSchedulerType("ns3::CacheHandoverScheduler");
        edge->SetEngineAttribute("PrefillCycle", TimeValue(MilliSeconds(10)));
        edge->SetClientAttribute("PromptTokens", UintegerValue(1000));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(250));
        s->Build();
        s->AssignStreams(1);
        Emissions e;
        e.Hook(s);
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(s->GetClients().Get(0));
        Simulator::Stop(Seconds(12));
        Simulator::Run();

        const std::vector<HandoverRecord>& records = edge->GetCoordinator()->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2u, "two boundary crossings");
        if (records.size() != 2)
        {
            return;
        }
        const uint16_t cell1 = records[0].sourceCell;
        const uint16_t cell2 = records[0].targetCell;
        const uint16_t cell3 = records[1].targetCell;
        NS_TEST_ASSERT_MSG_EQ(records[0].outcome, HandoverRecord::CANCELLED, "first cut short");
        NS_TEST_ASSERT_MSG_EQ(records[0].transferTokens,
                              records[0].contextTokens,
                              "it was a cHO transfer");
        const HandoverRecord& r = records[1];
        NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "the third cell took it");
        NS_TEST_ASSERT_MSG_EQ(r.holderCell, cell1, "from the first cell's whole cache");
        NS_TEST_ASSERT_MSG_EQ(r.sourceCell, cell2, "while the UE left the second");
        NS_TEST_ASSERT_MSG_EQ(r.prefillTokens, r.contextTokens, "no link: re-prefilled whole");
        NS_TEST_ASSERT_MSG_EQ(r.transferTokens, 0u, "nothing sent as KV");

        Ptr<KvTransferReceiver> hop = edge->GetKvTransfer(cell2)->GetReceiver();
        Ptr<KvTransferReceiver> end = edge->GetKvTransfer(cell3)->GetReceiver();
        const uint64_t imsi = client->GetImsi();
        NS_TEST_ASSERT_MSG_EQ(hop->GetCounters(imsi).tokensForwarded,
                              r.contextTokens,
                              "the token IDs crossed the second cell");
        NS_TEST_ASSERT_MSG_EQ(end->GetCounters(imsi).tokensForwarded,
                              r.contextTokens,
                              "and reached the third");
        NS_TEST_ASSERT_MSG_EQ(end->GetCounters(imsi).received, 0u, "no KV at the third");

        // The cancelled transfer: what left the first cell either was withdrawn, or arrived
        // at the second under a stale epoch, or arrived before the cancel.
        Ptr<KvTransferSender> out =
            edge->GetKvTransfer(cell1)->GetSender(s->GetBackhaulLinks().at(0).addressB);
        const KvTransferSenderCounters k = out->GetCounters(imsi);
        const KvTransferReceiverCounters h = hop->GetCounters(imsi);
        NS_TEST_ASSERT_MSG_EQ(k.announced, k.sent + k.withdrawn, "announced = sent + withdrawn");
        NS_TEST_ASSERT_MSG_EQ(k.sent, h.received + h.stale, "sent = received + stale");
        NS_TEST_ASSERT_MSG_GT(k.withdrawn, 0u, "most of it never left");

        NS_TEST_ASSERT_MSG_EQ(client->IsComplete(), true, "the session completed");
        NS_TEST_ASSERT_MSG_EQ(client->GetDeliveredTokens(), 250u, "every token delivered");
        const std::map<uint64_t, uint32_t>& counts = e.count[imsi];
        NS_TEST_ASSERT_MSG_EQ(counts.size(), 250u, "every index emitted");
        for (const auto& [index, n] : counts)
        {
            NS_TEST_ASSERT_MSG_EQ(n, 1u, "token " << index << " emitted once");
            const uint16_t expected = index < r.resumeIndex ? cell1 : cell3;
            NS_TEST_ASSERT_MSG_EQ(e.cell[imsi][index], expected, "token " << index << "'s cell");
        }
        s->Dispose();
    }
};

class DetourChainTestCase : public HandoverTestCase
{
  public:
    DetourChainTestCase()
        : HandoverTestCase("Detour across two boundaries: the relay chain grows a hop, the "
                           "records count the hops, and the second hop adds its link's delay")
    {
    }

  private:
    void DoRun() override
    {
        // Three eNBs 300 m apart, backhaul links between neighbours only: after the second
        // crossing the first cell can reach the third only through the second.
        const Time linkDelay = MilliSeconds(20);
        Ptr<EdgeLlmLineScenario> s = OneUeLine(3, 140, 200);
        s->GetBackhaulHelper()->SetAttribute("Delay", TimeValue(linkDelay));
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        edge->SetSchedulerType("ns3::DetourScheduler");
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(250));
        s->Build();
        s->AssignStreams(1);
        Emissions e;
        e.Hook(s);
        // Each delivered token's generation and delivery time.
        std::vector<std::pair<double, double>> times;
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(s->GetClients().Get(0));
        client->TraceConnectWithoutContext(
            "TokenDelivered",
            Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>([&times](uint64_t,
                                                                                    uint32_t,
                                                                                    Time generated,
                                                                                    Time delivered,
                                                                                    uint16_t,
                                                                                    bool resent) {
                if (!resent)
                {
                    times.emplace_back(generated.GetSeconds(), delivered.GetSeconds());
                }
            }));
        Simulator::Stop(Seconds(12));
        Simulator::Run();

        const std::vector<HandoverRecord>& records = edge->GetCoordinator()->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2u, "two boundary crossings");
        if (records.size() != 2)
        {
            return;
        }
        const uint16_t cell1 = records[0].sourceCell;
        const uint16_t cell2 = records[0].targetCell;
        const uint16_t cell3 = records[1].targetCell;
        for (const HandoverRecord& r : records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::RELAYED, "Detour relays");
            NS_TEST_ASSERT_MSG_EQ(r.holderCell, cell1, "the first cell keeps the session");
        }
        NS_TEST_ASSERT_MSG_EQ(records[0].relayHops, 1u, "a neighbour: one link");
        NS_TEST_ASSERT_MSG_EQ(records[1].relayHops, 2u, "the third cell: through the second");
        NS_TEST_ASSERT_MSG_GT(edge->GetServer(cell1)->GetRelayedPackets(), 0u, "cell 1 relays");
        NS_TEST_ASSERT_MSG_GT(edge->GetServer(cell2)->GetRelayedPackets(),
                              0u,
                              "cell 2 relays the first's packets on");
        NS_TEST_ASSERT_MSG_EQ(edge->GetServer(cell3)->GetRelayedPackets(), 0u, "cell 3 injects");

        // Latency of tokens made well inside each span: one link, then two.
        const double ho1 = records[0].hoStart.GetSeconds();
        const double ho2 = records[1].hoStart.GetSeconds();
        std::vector<double> oneHop;
        std::vector<double> twoHops;
        for (const auto& [generated, delivered] : times)
        {
            if (generated > ho1 + 0.3 && generated < ho2 - 0.1)
            {
                oneHop.push_back(delivered - generated);
            }
            else if (generated > ho2 + 0.3)
            {
                twoHops.push_back(delivered - generated);
            }
        }
        NS_TEST_ASSERT_MSG_GT(oneHop.size(), 10u, "tokens over one hop");
        NS_TEST_ASSERT_MSG_GT(twoHops.size(), 10u, "tokens over two hops");
        if (oneHop.empty() || twoHops.empty())
        {
            return;
        }
        const double oneMedian = edgellm::NearestRankPercentile(oneHop, 50);
        const double twoMedian = edgellm::NearestRankPercentile(twoHops, 50);
        const double added = twoMedian - oneMedian;
        std::cout << "detour chain: median latency over one hop " << oneMedian << " s, over two "
                  << twoMedian << " s" << std::endl;
        // The second link's delay, within the radio's 1 ms TTI either way.
        NS_TEST_ASSERT_MSG_EQ_TOL(added, linkDelay.GetSeconds(), 1.5e-3, "one more link");

        NS_TEST_ASSERT_MSG_EQ(client->IsComplete(), true, "the session completed");
        const std::map<uint64_t, uint32_t>& counts = e.count[client->GetImsi()];
        NS_TEST_ASSERT_MSG_EQ(counts.size(), 250u, "every index emitted");
        for (const auto& [index, n] : counts)
        {
            NS_TEST_ASSERT_MSG_EQ(n, 1u, "token " << index << " emitted once");
            NS_TEST_ASSERT_MSG_EQ(e.cell[client->GetImsi()][index], cell1, "all at cell 1");
        }
        s->Dispose();
    }
};

class TargetFullTestCase : public HandoverTestCase
{
  public:
    TargetFullTestCase()
        : HandoverTestCase("A target whose memory can never hold the session: it stays at the "
                           "source, relayed, and every token still arrives exactly once")
    {
    }

  private:
    void DoRun() override
    {
        const CtHoLineExperiment experiment(ShortConfig(1));
        Emissions e;
        const CtHoLineRun run =
            experiment.Run("ctho", experiment.Draw(), [&e](Ptr<EdgeLlmLineScenario> s) {
                e.Hook(s);
                // Smaller than any prompt the draw can make.
                DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))
                    ->GetEngine()
                    ->SetAttribute("KvCapacityTokens", UintegerValue(1000));
            });
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 1u, "one handover");
        if (run.records.size() != 1)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(run.records[0].outcome,
                              HandoverRecord::RELAYED,
                              "admission refused: the source keeps it");
        CheckExactlyOnce(run, e);
        CheckAllFrom(e, run.ues.at(0).imsi, run.records[0].sourceCell);
    }
};

class OracleGraceTestCase : public HandoverTestCase
{
  public:
    OracleGraceTestCase()
        : HandoverTestCase("An oracle group whose member never hands over: the batch waits "
                           "OracleGrace past the latest expected handover, then goes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EdgeLlmLineScenario> s = OneUeLine(2, 125, 20);
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        edge->SetSchedulerType("ns3::TokenHandoverScheduler");
        edge->SetCoordinatorAttribute("Batching", StringValue("oracle"));
        edge->SetCoordinatorAttribute("OracleGrace", TimeValue(MilliSeconds(300)));
        edge->SetClientAttribute("PromptTokens", UintegerValue(1000));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(250));
        s->Build();
        s->AssignStreams(1);
        Emissions e;
        e.Hook(s);
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(s->GetClients().Get(0));
        const Time expected = s->GetBoundaryCrossings().at(0).time;
        // A second member, expected as early, that no UE will ever be.
        edge->GetCoordinator()->AddOracleGroup({{client->GetImsi(), expected}, {999, expected}});
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        const std::vector<HandoverRecord>& records = edge->GetCoordinator()->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1u, "one handover");
        if (records.size() != 1)
        {
            return;
        }
        const HandoverRecord& r = records[0];
        NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "the session resumed");
        NS_TEST_ASSERT_MSG_EQ(r.group, 1u, "in its group");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.kvReady,
                                    expected + MilliSeconds(300),
                                    "the batch waited out the grace");
        NS_TEST_ASSERT_MSG_LT(r.kvReady,
                              expected + MilliSeconds(300) + Seconds(0.2),
                              "and then went at once (10 ms cycle, ~0.1 s prefill)");
        NS_TEST_ASSERT_MSG_EQ(client->IsComplete(), true, "the session completed");
        NS_TEST_ASSERT_MSG_EQ(e.count[client->GetImsi()].size(), 250u, "every index emitted");
        s->Dispose();
    }
};

class HandoverTestSuite : public TestSuite
{
  public:
    HandoverTestSuite()
        : TestSuite("edge-llm-handover", TestSuite::Type::UNIT)
    {
        AddTestCase(new OneUeChoTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new ServerKvShapeTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new DelayFromPacketsTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new ExactlyOnceTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new PingPongTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new ThirdCellTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new DetourChainTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new TargetFullTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new OracleGraceTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new AgainstAnalyticTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new TriggerTestCase("a3"), edgellm::TEST_QUICK);
        AddTestCase(new TriggerTestCase("none"), edgellm::TEST_QUICK);
    }
};

HandoverTestSuite g_handoverTestSuite;

} // namespace
