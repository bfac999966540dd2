/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Faults in the middle of a handover: the backhaul goes down, loses packets or carries cross
// traffic, the target GPU is slower than planned, the target's memory is full. Each run is
// checked at the edges: the tokens the UE's application saw, the packets the backhaul devices
// dropped, the KV bytes of the ledger, and a delay no shorter than the fault makes possible.

#include "migration-watch.h"
#include "one-handover-line.h"
#include "prefill-token-watch.h"
#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One UE under cHO on the line, at 1 Gb/s so that the transfer (~150 MB) takes ~1.2 s and a
/// fault 50 ms into it falls mid-transfer.
CtHoLineConfig
FaultConfigLine()
{
    CtHoLineConfig c;
    c.numUes = 1;
    c.moveStart = Seconds(1);
    c.tokensAfter = 60;
    c.maxSimTime = Seconds(40);
    c.backhaulRate = DataRate("1Gbps");
    c.plannedBackhaulRate = DataRate("1Gbps");
    return c;
}

/// What the edges saw: token indices the application got, packets the devices dropped.
struct Edges
{
    std::map<uint64_t, std::vector<uint32_t>> delivered; //!< imsi -> indices, in order
    uint64_t deviceDrops{0};                             //!< PhyRxDrop on backhaul devices
    Time firstCommit{-1};                                //!< the first COMMITTED migration
    edgellm::MigrationWatch migrations;                  //!< every migration's transitions

    void Hook(Ptr<EdgeLlmLineScenario> s)
    {
        migrations.Hook(s->GetEdgeLlmHelper());
        for (uint32_t i = 0; i < s->GetClients().GetN(); ++i)
        {
            s->GetClients().Get(i)->TraceConnectWithoutContext(
                "TokenDelivered",
                Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
                    [this](uint64_t imsi, uint32_t index, Time, Time, uint16_t, bool) {
                        delivered[imsi].push_back(index);
                    }));
        }
        for (const BackhaulLink& link : s->GetBackhaulLinks())
        {
            for (uint32_t d = 0; d < link.devices.GetN(); ++d)
            {
                link.devices.Get(d)->TraceConnectWithoutContext(
                    "PhyRxDrop",
                    Callback<void, Ptr<const Packet>>(
                        [this](Ptr<const Packet>) { ++deviceDrops; }));
            }
        }
        s->GetEdgeLlmHelper()->GetCoordinator()->TraceConnectWithoutContext(
            "MigrationState",
            Callback<void, uint64_t, uint32_t, int, int>([this](uint64_t, uint32_t, int, int to) {
                if (to == HandoverCoordinator::COMMITTED && firstCommit.IsStrictlyNegative())
                {
                    firstCommit = Simulator::Now();
                }
            }));
    }
};

/// A test of a fault, with the invariants every faulty run keeps.
class FaultTestCase : public TestCase
{
  public:
    /// \param name the test's name
    explicit FaultTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    void CheckInvariants(const CtHoLineRun& run, const Edges& edges, const std::string& what);
    const HandoverRecord& Migrated(const CtHoLineRun& run);
};

void
FaultTestCase::CheckInvariants(const CtHoLineRun& run, const Edges& edges, const std::string& what)
{
    for (const CtHoLineUe& ue : run.ues)
    {
        auto it = edges.delivered.find(ue.imsi);
        const std::vector<uint32_t> none;
        const std::vector<uint32_t>& got = it == edges.delivered.end() ? none : it->second;
        bool inOrder = got.size() == ue.tokensToGenerate;
        for (std::size_t i = 0; inOrder && i < got.size(); ++i)
        {
            inOrder = got[i] == i;
        }
        NS_TEST_EXPECT_MSG_EQ(inOrder,
                              true,
                              what << ": imsi " << ue.imsi << " got " << got.size() << " of "
                                   << ue.tokensToGenerate << " tokens, each once, in order");
    }
    const KvTransferSenderCounters& s = run.sent;
    const KvTransferReceiverCounters& r = run.received;
    NS_TEST_EXPECT_MSG_EQ(s.announced,
                          s.sent + s.withdrawn,
                          what << ": announced = sent + withdrawn");
    NS_TEST_EXPECT_MSG_EQ(s.sent,
                          r.received + r.stale,
                          what << ": sent = received + stale, drained");
    uint64_t withdrawnBy = 0;
    uint64_t staleBy = 0;
    for (std::size_t i = 0; i < KV_DISCARD_REASONS; ++i)
    {
        withdrawnBy += s.withdrawnBy[i];
        staleBy += r.staleBy[i];
    }
    NS_TEST_EXPECT_MSG_EQ(withdrawnBy, s.withdrawn, what << ": every withdrawn byte has a reason");
    NS_TEST_EXPECT_MSG_EQ(staleBy, r.stale, what << ": every stale byte has a reason");
    NS_TEST_EXPECT_MSG_EQ(run.faults.lossDrops + run.faults.outageDrops,
                          edges.deviceDrops,
                          what << ": the fault counts are the devices' drops");
    NS_TEST_EXPECT_MSG_LT(run.endTime, Seconds(40), what << ": the run ended before its cap");
    for (const std::string& error : edges.migrations.GetErrors())
    {
        NS_TEST_EXPECT_MSG_EQ(error, "", what << ": the migration state machine");
    }
}

/// The one migrated record of a one-UE run.
const HandoverRecord&
FaultTestCase::Migrated(const CtHoLineRun& run)
{
    static const HandoverRecord none;
    for (const HandoverRecord& r : run.records)
    {
        if (r.outcome == HandoverRecord::MIGRATED)
        {
            return r;
        }
    }
    NS_TEST_EXPECT_MSG_EQ(true, false, run.scheme << ": no migrated handover");
    return none;
}

class OutageTestCase : public FaultTestCase
{
  public:
    /// \param reprefill StallPolicy Reprefill, else Wait
    /// \param network ControlPlane network: the source's stall watch counts its TCP's
    ///        acknowledgements, not the target's arrivals
    OutageTestCase(bool reprefill, bool network = false)
        : FaultTestCase(std::string(reprefill
                                        ? "Backhaul outage mid-transfer, StallPolicy Reprefill: "
                                          "the transfer is given up during the outage, and what "
                                          "did not arrive, abandoned under link-down, is "
                                          "re-prefilled once its token IDs have crossed the link"
                                        : "Backhaul outage mid-transfer, StallPolicy Wait: the "
                                          "session resumes after the link is back, with the "
                                          "whole cache") +
                        (network ? "; control plane network, the stall seen by the sender's "
                                   "TCP acknowledgements, within a timeout of the last one"
                                 : "")),
          m_reprefill(reprefill),
          m_network(network)
    {
    }

  private:
    void DoRun() override
    {
        const Time after = MilliSeconds(50);
        const Time outage = MilliSeconds(800);
        const Time timeout = MilliSeconds(100);
        for (uint32_t rngRun = 1; rngRun <= 3; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            CtHoLineConfig c = FaultConfigLine();
            c.faults.outageAfter = after;
            c.faults.outageFor = outage;
            c.faults.stallTimeout = timeout;
            c.faults.stallPolicy = m_reprefill ? "reprefill" : "wait";
            if (m_network)
            {
                Config::SetDefault("ns3::HandoverCoordinator::ControlPlane",
                                   StringValue("network"));
            }
            const CtHoLineExperiment experiment(c);
            Edges edges;
            edgellm::PrefillTokenWatch watch;
            Time stalledAt{-1};                    // when the stall was first seen
            std::vector<std::string> watchReached; // calls of the stall watch on another cell
            Time gaveUp{-1};                       // when the stall was given up on
            uint64_t idsAfter = 0;                 // token IDs that reached the target after it
            Time idsIn{-1};                        // when the last of them arrived
            const CtHoLineRun run =
                experiment.Run("cho", experiment.Draw(), [&](Ptr<EdgeLlmLineScenario> s) {
                    edges.Hook(s);
                    watch.Hook(s->GetEdgeLlmHelper());
                    s->GetEdgeLlmHelper()->GetCoordinator()->TraceConnectWithoutContext(
                        "TransferStalled",
                        Callback<void, uint64_t, uint32_t, uint64_t, bool>(
                            [&gaveUp, &stalledAt](uint64_t, uint32_t, uint64_t, bool reprefill) {
                                if (stalledAt.IsStrictlyNegative())
                                {
                                    stalledAt = Simulator::Now();
                                }
                                if (reprefill)
                                {
                                    gaveUp = Simulator::Now();
                                }
                            }));
                    s->GetEdgeLlmHelper()->GetCoordinator()->TraceConnectWithoutContext(
                        "CrossNodeCall",
                        Callback<void, const std::string&, uint16_t, uint16_t>(
                            [&watchReached](const std::string& site, uint16_t, uint16_t) {
                                if (site == "CheckStall" || site == "ScheduleDeadline")
                                {
                                    watchReached.push_back(site);
                                }
                            }));
                    const uint16_t target =
                        DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))->GetCellId();
                    s->GetEdgeLlmHelper()
                        ->GetKvTransfer(target)
                        ->GetReceiver()
                        ->TraceConnectWithoutContext(
                            "TokensArrived",
                            Callback<void, const KvTransferHeader&>([&](const KvTransferHeader& h) {
                                if (!gaveUp.IsStrictlyNegative())
                                {
                                    idsAfter += h.GetCount();
                                    idsIn = Simulator::Now();
                                }
                            }));
                });
            Config::Reset();
            const std::string what = "RngRun " + std::to_string(rngRun);
            for (const std::string& early : watch.GetEarly())
            {
                NS_TEST_EXPECT_MSG_EQ(early, "", what << ": a prefill before its token IDs");
            }
            CheckInvariants(run, edges, what);
            const HandoverRecord& r = Migrated(run);
            const Time outageStart = edges.firstCommit + after;
            const Time outageEnd = outageStart + outage;
            NS_TEST_EXPECT_MSG_EQ(run.faults.outages, 1u, what << ": one outage");
            NS_TEST_EXPECT_MSG_GT(run.faults.outageDrops, 0u, what << ": it lost packets");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.stalls, 1u, what << ": the stall was found");
            // By hand: checks come a timeout apart, and one finds the stall once a whole
            // interval passed without a byte delivered. Bytes (and, on the network, their
            // acknowledgements) stop at the cut, or a link delay after it for those on the
            // wire then; so the first check that finds it is at least a timeout after the
            // cut, and less than two after the last byte.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(stalledAt,
                                        outageStart + timeout - MilliSeconds(1),
                                        what << ": a whole timeout after the cut");
            NS_TEST_EXPECT_MSG_LT(stalledAt,
                                  outageStart + c.backhaulDelay + 2 * timeout,
                                  what << ": within two of it");
            NS_TEST_EXPECT_MSG_EQ(watchReached.size(),
                                  0u,
                                  what << ": the stall watch read only its own cell");
            // By hand: 50 ms of a 1 Gb/s link carry at most 6.25 MB, far less than the cache.
            NS_TEST_EXPECT_MSG_GT(r.kvBytes, 1e9 / 8 * 0.05, what << ": the cut is mid-transfer");
            NS_TEST_EXPECT_MSG_GT(edges.migrations.GetEntered(m_reprefill ? "given-up" : "stalled"),
                                  0u,
                                  what << ": the stall is a state of the migration");
            if (!m_reprefill)
            {
                NS_TEST_EXPECT_MSG_GT(r.kvReady, outageEnd, what << ": it waited for the link");
                NS_TEST_EXPECT_MSG_EQ(r.reprefillTokens, 0u, what << ": nothing re-prefilled");
                NS_TEST_EXPECT_MSG_EQ(r.abandonedBytes, 0u, what << ": nothing abandoned");
                NS_TEST_EXPECT_MSG_EQ(run.sent.withdrawn, 0u, what << ": nothing withdrawn");
                continue;
            }
            // It gave up at the first check that saw no byte arrive: no earlier than one
            // timeout into the outage, and it re-prefilled what did not arrive, once the
            // token IDs of those tokens had crossed the link as a message of their own.
            NS_TEST_EXPECT_MSG_LT(gaveUp, outageEnd, what << ": gave up during the outage");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(idsAfter,
                                        r.reprefillTokens,
                                        what << ": the re-prefilled tokens' IDs were sent");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(idsIn, outageEnd, what << ": over the link, once back");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.kvReady,
                                        idsIn + Seconds(run.compute.PrefillTime(r.reprefillTokens)),
                                        what << ": resumed after the IDs and the re-prefill");
            NS_TEST_EXPECT_MSG_GT(watch.GetPrefills(), 0u, what << ": the re-prefill ran");
            uint64_t arrived = 0;
            for (const TokenRange& a : r.arrived)
            {
                arrived += a.end - a.first;
            }
            NS_TEST_EXPECT_MSG_GT(arrived, 0u, what << ": some KV arrived before the cut");
            NS_TEST_EXPECT_MSG_EQ(r.reprefillTokens,
                                  r.transferTokens - arrived,
                                  what << ": what did not arrive is re-prefilled");
            const uint64_t bytesPerToken = r.kvBytes / r.transferTokens;
            NS_TEST_EXPECT_MSG_EQ(r.abandonedBytes,
                                  r.reprefillTokens * bytesPerToken,
                                  what << ": and abandoned");
            const double prefillS = run.compute.PrefillTime(r.reprefillTokens);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.kvReady,
                                        outageStart + timeout + Seconds(prefillS),
                                        what << ": no earlier than a timeout and the re-prefill");
            const auto link = static_cast<std::size_t>(KvDiscardReason::LINK_DOWN);
            NS_TEST_EXPECT_MSG_EQ(run.sent.withdrawnBy[link],
                                  run.sent.withdrawn,
                                  what << ": every withdrawn byte under link-down");
            NS_TEST_EXPECT_MSG_EQ(run.received.staleBy[link],
                                  run.received.stale,
                                  what << ": every stale byte under link-down");
            // The receiver counts a DATA message's bytes as they come, and its range once it
            // is whole: the message the cut split counts as received, not arrived.
            const uint64_t split = run.received.received - arrived * bytesPerToken;
            NS_TEST_EXPECT_MSG_LT(split, 1048576u, what << ": less than one message (1 MiB)");
            NS_TEST_EXPECT_MSG_EQ(run.sent.withdrawn + run.received.stale + split,
                                  r.abandonedBytes,
                                  what << ": the abandoned bytes: withdrawn, stale, or in the "
                                          "split message");
        }
    }

    bool m_reprefill; //!< StallPolicy Reprefill
    bool m_network;   //!< ControlPlane network
};

class LossTestCase : public FaultTestCase
{
  public:
    LossTestCase()
        : FaultTestCase("Backhaul packet loss: TCP recovers, every token once, and the delay is "
                        "never shorter than the lossless one")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t rngRun = 1; rngRun <= 3; ++rngRun)
        {
            double lossless = 0;
            for (double loss : {0.0, 1e-3, 5e-3})
            {
                RngSeedManager::SetRun(rngRun);
                CtHoLineConfig c = FaultConfigLine();
                c.faults.backhaulLoss = loss;
                const CtHoLineExperiment experiment(c);
                Edges edges;
                const CtHoLineRun run =
                    experiment.Run("cho", experiment.Draw(), [&edges](Ptr<EdgeLlmLineScenario> s) {
                        edges.Hook(s);
                    });
                const std::string what =
                    "RngRun " + std::to_string(rngRun) + ", loss " + std::to_string(loss);
                CheckInvariants(run, edges, what);
                const HandoverRecord& r = Migrated(run);
                const double delay = (r.kvReady - r.hoStart).GetSeconds();
                if (loss == 0)
                {
                    lossless = delay;
                    NS_TEST_EXPECT_MSG_EQ(run.faults.lossDrops, 0u, what);
                    // By hand: the cache cannot cross 1 Gb/s faster than its bytes allow.
                    NS_TEST_EXPECT_MSG_GT_OR_EQ(delay, r.kvBytes * 8 / 1e9, what);
                    continue;
                }
                // By hand: ~150 MB in 9000-byte frames is ~16,000 packets; at 1e-3 some are lost.
                NS_TEST_EXPECT_MSG_GT(run.faults.lossDrops, 0u, what << ": packets were lost");
                NS_TEST_EXPECT_MSG_GT_OR_EQ(delay, lossless, what << ": no faster than lossless");
            }
        }
    }
};

class CrossTrafficTestCase : public FaultTestCase
{
  public:
    CrossTrafficTestCase()
        : FaultTestCase("Cross traffic on the backhaul: the plan is the lossless one, the delay is "
                        "at least the bytes over the rate left to them")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            Time planned[2];
            for (int cross = 0; cross < 2; ++cross)
            {
                RngSeedManager::SetRun(rngRun);
                CtHoLineConfig c = FaultConfigLine();
                if (cross == 1)
                {
                    c.faults.crossTraffic = "onoff";
                    c.faults.crossTrafficRate = DataRate("500Mbps");
                    c.faults.crossTrafficStart = Seconds(1);
                    c.faults.crossTrafficFor = Seconds(10);
                }
                const CtHoLineExperiment experiment(c);
                Edges edges;
                const CtHoLineRun run =
                    experiment.Run("cho", experiment.Draw(), [&edges](Ptr<EdgeLlmLineScenario> s) {
                        edges.Hook(s);
                    });
                const std::string what =
                    "RngRun " + std::to_string(rngRun) + (cross ? ", cross" : ", none");
                CheckInvariants(run, edges, what);
                const HandoverRecord& r = Migrated(run);
                planned[cross] = r.predictedDelay;
                if (cross == 1)
                {
                    NS_TEST_EXPECT_MSG_GT(run.faults.crossTrafficBytes, 0u, what);
                    // By hand: 500 Mb/s of the 1 Gb/s are taken; the KV bytes get the rest.
                    const double bound = r.kvBytes * 8 / 0.5e9;
                    NS_TEST_EXPECT_MSG_GT_OR_EQ((r.kvReady - r.hoStart).GetSeconds(),
                                                bound,
                                                what << ": no faster than the rate left");
                    NS_TEST_EXPECT_MSG_EQ(planned[1],
                                          planned[0],
                                          what << ": the plan did not see the cross traffic");
                }
            }
        }
    }
};

class GpuLoadTestCase : public FaultTestCase
{
  public:
    GpuLoadTestCase()
        : FaultTestCase(
              "A target GPU slower than planned (LoadFactor 2): tHO's prefill takes twice "
              "the model's time, and the plan is the nominal one")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t rngRun = 1; rngRun <= 3; ++rngRun)
        {
            Time planned[2];
            Time delay[2];
            for (int slow = 0; slow < 2; ++slow)
            {
                RngSeedManager::SetRun(rngRun);
                CtHoLineConfig c = FaultConfigLine();
                const CtHoLineExperiment experiment(c);
                Edges edges;
                std::vector<Time> prefillStart;
                std::vector<Time> prefillEnd;
                const CtHoLineRun run =
                    experiment.Run("tho", experiment.Draw(), [&](Ptr<EdgeLlmLineScenario> s) {
                        edges.Hook(s);
                        // The target alone is slow, so the source decodes the same context.
                        Ptr<EdgeLlmServer> target =
                            DynamicCast<EdgeLlmServer>(s->GetServers().Get(1));
                        target->GetEngine()->SetAttribute("LoadFactor",
                                                          DoubleValue(slow ? 2.0 : 1.0));
                        target->GetEngine()->TraceConnectWithoutContext(
                            "PrefillStarted",
                            Callback<void, uint64_t, uint64_t, bool>(
                                [&prefillStart](uint64_t, uint64_t, bool urgent) {
                                    if (urgent)
                                    {
                                        prefillStart.push_back(Simulator::Now());
                                    }
                                }));
                        target->GetEngine()->TraceConnectWithoutContext(
                            "PrefillCompleted",
                            Callback<void, uint64_t, uint64_t, bool>(
                                [&prefillEnd](uint64_t, uint64_t, bool urgent) {
                                    if (urgent)
                                    {
                                        prefillEnd.push_back(Simulator::Now());
                                    }
                                }));
                    });
                const std::string what =
                    "RngRun " + std::to_string(rngRun) + (slow ? ", load 2" : ", load 1");
                CheckInvariants(run, edges, what);
                const HandoverRecord& r = Migrated(run);
                planned[slow] = r.predictedDelay;
                delay[slow] = r.kvReady - r.hoStart;
                NS_TEST_ASSERT_MSG_EQ(prefillStart.size(), 1u, what << ": one recovery prefill");
                NS_TEST_ASSERT_MSG_EQ(prefillEnd.size(), 1u, what);
                // By hand, from the model the plans use: p(C) = a C + b, times the load.
                const double expected =
                    (slow ? 2.0 : 1.0) * (c.prefillA * r.prefillTokens + c.prefillB);
                NS_TEST_EXPECT_MSG_EQ_TOL((prefillEnd[0] - prefillStart[0]).GetSeconds(),
                                          expected,
                                          1e-6,
                                          what << ": the prefill's duration");
            }
            NS_TEST_EXPECT_MSG_EQ(planned[1], planned[0], "the plan assumed the nominal GPU");
            NS_TEST_EXPECT_MSG_GT(delay[1], delay[0], "and the delay grew");
        }
    }
};

class MemoryFullTestCase : public FaultTestCase
{
  public:
    /// \param fallback TargetMemoryFull Fallback, else Queue
    /// \param network ControlPlane network (the target decides when the reservation arrives)
    MemoryFullTestCase(bool fallback, bool network)
        : FaultTestCase(std::string(network ? "Control plane network, t" : "T") +
                        (fallback ? "arget KV memory full, TargetMemoryFull Fallback: the session "
                                    "stays at its holder and is relayed; the memory never overruns"
                                  : "arget KV memory full, TargetMemoryFull Queue: the session "
                                    "decodes at the target only once a resident has freed its "
                                    "memory; the memory never overruns")),
          m_fallback(fallback),
          m_network(network)
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            Config::SetDefault("ns3::HandoverCoordinator::ControlPlane",
                               StringValue(m_network ? "network" : "ideal"));
            CtHoLineConfig c = FaultConfigLine();
            c.residentUes = 1;
            const CtHoLineExperiment experiment(c);
            Edges edges;
            std::vector<uint8_t> answers; // the target's answers, as they reached the source
            uint64_t capacity = 0;
            uint64_t peak = 0;
            Time residentDone(-1);
            Ptr<HandoverCoordinator> coordinator;
            uint32_t fallbacks = 0;
            const CtHoLineRun run = experiment.Run(
                "cho",
                experiment.Draw(),
                [&](Ptr<EdgeLlmLineScenario> s) {
                    edges.Hook(s);
                    for (const auto& [cell, ch] : s->GetEdgeLlmHelper()->GetControlChannels())
                    {
                        ch->TraceConnectWithoutContext(
                            "Rx",
                            Callback<void, const ControlMessage&, Time>(
                                [&answers](const ControlMessage& m, Time) {
                                    if (m.type == ControlMessage::RESERVE_ANSWER)
                                    {
                                        answers.push_back(m.code);
                                    }
                                }));
                    }
                    coordinator = s->GetEdgeLlmHelper()->GetCoordinator();
                    coordinator->SetAttribute("TargetMemoryFull",
                                              StringValue(m_fallback ? "Fallback" : "Queue"));
                    // Clients: the moving UE, then cell 1's resident, then cell 2's.
                    Ptr<Application> moving = s->GetClients().Get(0);
                    Ptr<Application> resident = s->GetClients().Get(2);
                    // The target's resident ends about 1.5 s after the handover.
                    resident->SetAttribute("TokensToGenerate", UintegerValue(350));
                    UintegerValue p;
                    UintegerValue g;
                    resident->GetAttribute("PromptTokens", p);
                    resident->GetAttribute("TokensToGenerate", g);
                    const uint64_t residentTokens = p.Get() + g.Get();
                    moving->GetAttribute("PromptTokens", p);
                    moving->GetAttribute("TokensToGenerate", g);
                    // By hand: room for the resident, and one token short of the mover too.
                    capacity = residentTokens + p.Get() + g.Get() - 1;
                    Ptr<LlmEngine> target =
                        DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))->GetEngine();
                    target->SetAttribute("KvCapacityTokens", UintegerValue(capacity));
                    target->TraceConnectWithoutContext(
                        "KvTokensInUse",
                        Callback<void, uint64_t, uint64_t>(
                            [&peak](uint64_t, uint64_t now) { peak = std::max(peak, now); }));
                    const uint64_t residentImsi = DynamicCast<EdgeLlmClient>(resident)->GetImsi();
                    target->TraceConnectWithoutContext(
                        "SessionFinished",
                        Callback<void, uint64_t>([&residentDone, residentImsi](uint64_t imsi) {
                            if (imsi == residentImsi)
                            {
                                residentDone = Simulator::Now();
                            }
                        }));
                },
                [&](Ptr<EdgeLlmLineScenario>) { fallbacks = coordinator->GetMemoryFallbacks(); });
            Config::Reset();
            const std::string what = "RngRun " + std::to_string(rngRun);
            CheckInvariants(run, edges, what);
            // On the network the target decided when the reservation arrived, and its answer
            // said how: it waits for memory (Queue), or it is not admitted (Fallback).
            NS_TEST_EXPECT_MSG_EQ(answers.size(), m_network ? 1u : 0u, what << ": answers");
            for (uint8_t code : answers)
            {
                NS_TEST_EXPECT_MSG_EQ(
                    unsigned(code),
                    unsigned(m_fallback ? ControlMessage::REJECTED : ControlMessage::WAITING),
                    what << ": the target's answer");
            }
            NS_TEST_EXPECT_MSG_GT(peak, 0u, what << ": the target held sessions");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(peak, capacity, what << ": and never more than it can");
            NS_TEST_ASSERT_MSG_EQ(run.records.empty(), false, what << ": a handover");
            const HandoverRecord& r = run.records.front();
            // The resident, admitted at the start, still held its memory at the handover (a
            // fallback's run may end before the resident does).
            NS_TEST_EXPECT_MSG_EQ(residentDone.IsStrictlyNegative() || r.hoStart < residentDone,
                                  true,
                                  what << ": memory was full then");
            if (m_fallback)
            {
                NS_TEST_EXPECT_MSG_EQ(r.outcome, HandoverRecord::RELAYED, what << ": relayed");
                NS_TEST_EXPECT_MSG_EQ(fallbacks, 1u, what << ": one fallback counted");
                NS_TEST_EXPECT_MSG_EQ(run.sent.announced, 0u, what << ": no KV byte moved");
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, what << ": migrated");
            NS_TEST_EXPECT_MSG_EQ(residentDone.IsStrictlyPositive(), true, what);
            NS_TEST_EXPECT_MSG_EQ(fallbacks, 0u, what);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.firstDecode,
                                        residentDone,
                                        what << ": it decoded at the target only after the "
                                                "resident freed its memory");
        }
    }

    bool m_fallback; //!< TargetMemoryFull Fallback, else Queue
    bool m_network;  //!< ControlPlane network
};

class MemoryEvictTestCase : public FaultTestCase
{
  public:
    /// \param network ControlPlane network: the target evicts when the reservation arrives
    explicit MemoryEvictTestCase(bool network)
        : FaultTestCase(std::string(network ? "Control plane network, t" : "T") +
                        "arget KV memory full, TargetMemoryFull Evict: the target's resident "
                        "is preempted by recompute, the mover decodes at once, the resident "
                        "re-prefills its context in the model's time; tokens exactly once"),
          m_network(network)
    {
    }

  private:
    void DoRun() override;

    bool m_network; //!< ControlPlane network
};

void
MemoryEvictTestCase::DoRun()
{
    constexpr uint32_t prompt = 1000;
    constexpr uint32_t tokens = 250;
    for (uint32_t rngRun = 1; rngRun <= 3; ++rngRun)
    {
        RngSeedManager::SetRun(rngRun);
        const std::string what = "RngRun " + std::to_string(rngRun);
        // Two eNBs 300 m apart, a resident at each; the mover crosses the midpoint at 2 s.
        Ptr<EdgeLlmLineScenario> s = CreateObject<EdgeLlmLineScenario>();
        s->SetAttribute("EnbCount", UintegerValue(2));
        s->SetAttribute("EnbSpacing", DoubleValue(300));
        s->SetAttribute("UeCount", UintegerValue(1));
        s->SetAttribute("UeStartX", DoubleValue(100));
        s->SetAttribute("UeSpeed", DoubleValue(50));
        s->SetAttribute("MoveStart", TimeValue(Seconds(1)));
        s->SetAttribute("Trigger", StringValue("boundary"));
        s->SetAttribute("ResidentUesPerEnb", UintegerValue(1));
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        edge->SetSchedulerType("ns3::CacheHandoverScheduler");
        edge->SetCoordinatorAttribute("TargetMemoryFull", StringValue("Evict"));
        edge->SetCoordinatorAttribute("ControlPlane", StringValue(m_network ? "network" : "ideal"));
        edge->SetClientAttribute("PromptTokens", UintegerValue(prompt));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
        s->Build();
        s->AssignStreams(1);
        Edges edges;
        edges.Hook(s);
        Time reserveIn(-1); // when the mover's reservation reached the target (network)
        for (const auto& [cell, ch] : edge->GetControlChannels())
        {
            ch->TraceConnectWithoutContext("Rx",
                                           Callback<void, const ControlMessage&, Time>(
                                               [&reserveIn](const ControlMessage& m, Time) {
                                                   if (m.type == ControlMessage::RESERVE)
                                                   {
                                                       reserveIn = Simulator::Now();
                                                   }
                                               }));
        }
        // Clients: the mover, then the source's resident, then the target's.
        const uint64_t moverImsi = DynamicCast<EdgeLlmClient>(s->GetClients().Get(0))->GetImsi();
        const uint64_t residentImsi = DynamicCast<EdgeLlmClient>(s->GetClients().Get(2))->GetImsi();
        Ptr<LlmEngine> target = DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))->GetEngine();
        // By hand: room for the resident, and one token short of the mover too, so that the
        // two never fit together and the resident can come back only once the mover is done.
        const uint64_t capacity = 2 * (prompt + tokens) - 1;
        target->SetAttribute("KvCapacityTokens", UintegerValue(capacity));

        uint64_t peak = 0;
        uint64_t residentEmitted = 0;
        uint64_t emittedAtEviction = 0;
        uint64_t evictedContext = 0;
        uint32_t evictedTraces = 0;
        Time evictedAt(-1);
        Time recomputeStart(-1);
        Time recomputeEnd(-1);
        uint64_t recomputeTokens = 0;
        Time moverDone(-1);
        uint32_t complete = 0;
        target->TraceConnectWithoutContext(
            "KvTokensInUse",
            Callback<void, uint64_t, uint64_t>(
                [&peak](uint64_t, uint64_t now) { peak = std::max(peak, now); }));
        target->TraceConnectWithoutContext(
            "TokenGenerated",
            Callback<void, uint64_t, uint64_t>(
                [&](uint64_t imsi, uint64_t) { residentEmitted += imsi == residentImsi ? 1 : 0; }));
        target->TraceConnectWithoutContext(
            "SessionEvicted",
            Callback<void, uint64_t, uint64_t, uint64_t>(
                [&](uint64_t imsi, uint64_t context, uint64_t forImsi) {
                    ++evictedTraces;
                    if (imsi == residentImsi && forImsi == moverImsi)
                    {
                        evictedContext = context;
                        emittedAtEviction = residentEmitted;
                        evictedAt = Simulator::Now();
                    }
                }));
        target->TraceConnectWithoutContext(
            "PrefillStarted",
            Callback<void, uint64_t, uint64_t, bool>([&](uint64_t imsi, uint64_t n, bool) {
                if (imsi == residentImsi && evictedAt.IsPositive())
                {
                    recomputeStart = Simulator::Now();
                    recomputeTokens = n;
                }
            }));
        target->TraceConnectWithoutContext(
            "PrefillCompleted",
            Callback<void, uint64_t, uint64_t, bool>([&](uint64_t imsi, uint64_t, bool) {
                if (imsi == residentImsi && recomputeStart.IsPositive())
                {
                    recomputeEnd = Simulator::Now();
                }
            }));
        target->TraceConnectWithoutContext("SessionFinished",
                                           Callback<void, uint64_t>([&](uint64_t imsi) {
                                               if (imsi == moverImsi)
                                               {
                                                   moverDone = Simulator::Now();
                                               }
                                           }));
        for (uint32_t j = 0; j < s->GetClients().GetN(); ++j)
        {
            s->GetClients().Get(j)->TraceConnectWithoutContext(
                "SessionComplete",
                Callback<void, uint64_t>([&complete, &s](uint64_t) {
                    if (++complete == s->GetClients().GetN())
                    {
                        Simulator::Stop(MilliSeconds(500)); // the backhaul drains
                    }
                }));
        }
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        const Time end = Simulator::Now();

        // Every session, the evicted one too: every token once, in order.
        for (uint32_t j = 0; j < s->GetClients().GetN(); ++j)
        {
            const uint64_t imsi = DynamicCast<EdgeLlmClient>(s->GetClients().Get(j))->GetImsi();
            const std::vector<uint32_t>& got = edges.delivered[imsi];
            bool inOrder = got.size() == tokens;
            for (std::size_t i = 0; inOrder && i < got.size(); ++i)
            {
                inOrder = got[i] == i;
            }
            NS_TEST_EXPECT_MSG_EQ(inOrder,
                                  true,
                                  what << ": imsi " << imsi << " got " << got.size() << " of "
                                       << tokens << " tokens, each once, in order");
        }
        NS_TEST_EXPECT_MSG_LT(end, Seconds(30), what << ": the run ended before its cap");
        // The ledger of the mover's transfer.
        const KvTransferSenderCounters k = s->GetNetwork()->GetKvSent(moverImsi);
        const KvTransferReceiverCounters r = s->GetNetwork()->GetKvReceived(moverImsi);
        NS_TEST_EXPECT_MSG_GT(k.announced, 0u, what << ": a cHO transfer");
        NS_TEST_EXPECT_MSG_EQ(k.announced, k.sent + k.withdrawn, what << ": announced");
        NS_TEST_EXPECT_MSG_EQ(k.sent, r.received + r.stale, what << ": sent, drained");
        NS_TEST_EXPECT_MSG_EQ(k.withdrawn + r.stale, 0u, what << ": nothing cancelled");

        const std::vector<HandoverRecord>& records = edge->GetCoordinator()->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1u, what << ": one handover");
        const HandoverRecord& h = records.front();
        NS_TEST_EXPECT_MSG_EQ(h.outcome, HandoverRecord::MIGRATED, what << ": migrated");
        NS_TEST_EXPECT_MSG_EQ(edge->GetCoordinator()->GetMemoryFallbacks(), 0u, what);
        NS_TEST_EXPECT_MSG_EQ(edge->GetCoordinator()->GetEvictions(), 1u, what << ": 1 evicted");
        NS_TEST_EXPECT_MSG_EQ(target->GetEvictions(), 1u, what << ": by the target's engine");
        NS_TEST_EXPECT_MSG_EQ(evictedTraces, 1u, what << ": which fired SessionEvicted");
        // At the handover with the ideal plane; on the network when the reservation arrived.
        NS_TEST_EXPECT_MSG_EQ(reserveIn.IsStrictlyPositive(), m_network, what << ": a RESERVE");
        NS_TEST_EXPECT_MSG_EQ(evictedAt,
                              m_network ? reserveIn : h.hoStart,
                              what << ": at the handover, or its reservation's arrival");
        if (m_network)
        {
            NS_TEST_EXPECT_MSG_GT(evictedAt, h.hoStart, what << ": a one-way delay after it");
            NS_TEST_EXPECT_MSG_LT(evictedAt, h.planApplied, what << ": before the plan");
        }
        NS_TEST_EXPECT_MSG_GT(peak, 0u, what << ": the target held sessions");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(peak, capacity, what << ": and never more than it can");
        // The resident was decoding, and its context then was its prompt and the tokens it
        // had generated.
        NS_TEST_EXPECT_MSG_GT(emittedAtEviction, 0u, what << ": it was decoding");
        NS_TEST_EXPECT_MSG_LT(emittedAtEviction, uint64_t(tokens), what << ": and not done");
        NS_TEST_EXPECT_MSG_EQ(evictedContext,
                              prompt + emittedAtEviction,
                              what << ": evicted with prompt + generated tokens");
        // The mover did not wait: it decoded at the target from the handover's resume on.
        NS_TEST_EXPECT_MSG_EQ(h.firstDecode.IsStrictlyPositive(), true, what << ": resumed");
        NS_TEST_ASSERT_MSG_EQ(recomputeEnd.IsStrictlyPositive(), true, what << ": recomputed");
        NS_TEST_EXPECT_MSG_LT(h.firstDecode, recomputeStart, what << ": the mover went first");
        // The resident came back only once the mover freed its memory, and recomputed exactly
        // its context, in p(C): the compute model's prefill time of C tokens (load factor 1).
        NS_TEST_EXPECT_MSG_GT_OR_EQ(recomputeStart, moverDone, what << ": after the mover");
        NS_TEST_EXPECT_MSG_EQ(recomputeTokens, evictedContext, what << ": its whole context");
        const Time p = Seconds(target->GetLlmComputeModel().PrefillTime(evictedContext));
        NS_TEST_EXPECT_MSG_LT_OR_EQ(std::abs((recomputeEnd - recomputeStart - p).GetNanoSeconds()),
                                    1,
                                    what << ": the recompute took p(C) = " << p.As(Time::MS)
                                         << ", took "
                                         << (recomputeEnd - recomputeStart).As(Time::MS));
        std::cout << what << ": resident evicted at " << evictedAt.As(Time::S)
                  << " with C = " << evictedContext << ", recomputed in "
                  << (recomputeEnd - recomputeStart).As(Time::MS) << ", run ended at "
                  << end.As(Time::S) << std::endl;
        s->Dispose();
        Simulator::Destroy();
    }
}

class ControlMessageOutageTestCase : public FaultTestCase
{
  public:
    explicit ControlMessageOutageTestCase(const std::string& at)
        : FaultTestCase("Control plane network, policy at the " + at +
                        ": a handover's control messages lost in a backhaul outage are resent by "
                        "TCP, its plan waits for them, and every token still arrives once"),
          m_at(at)
    {
    }

  private:
    void DoRun() override
    {
        // Two UEs that hand over 0 to 0.5 s apart; the outage starts 1 ms after the first
        // migration commits and lasts 800 ms, so the second handover's messages, sent during
        // it, are lost and resent.
        uint32_t crossed = 0;
        for (uint32_t rngRun = 1; rngRun <= 3; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
            Config::SetDefault("ns3::HandoverCoordinator::PolicyAt", StringValue(m_at));
            CtHoLineConfig c = FaultConfigLine();
            c.numUes = 2;
            c.faults.outageAfter = MilliSeconds(1);
            c.faults.outageFor = MilliSeconds(800);
            const CtHoLineExperiment experiment(c);
            Edges edges;
            std::vector<Time> oneWay;
            std::map<uint64_t, Time> waited;
            const CtHoLineRun run =
                experiment.Run("cho", experiment.Draw(), [&](Ptr<EdgeLlmLineScenario> s) {
                    edges.Hook(s);
                    for (const auto& [cell, ch] : s->GetEdgeLlmHelper()->GetControlChannels())
                    {
                        ch->TraceConnectWithoutContext(
                            "Rx",
                            Callback<void, const ControlMessage&, Time>(
                                [&oneWay](const ControlMessage&, Time d) { oneWay.push_back(d); }));
                    }
                    s->GetEdgeLlmHelper()->GetCoordinator()->TraceConnectWithoutContext(
                        "ControlDelay",
                        Callback<void, uint64_t, uint16_t, uint16_t, Time>(
                            [&waited](uint64_t imsi, uint16_t, uint16_t, Time d) {
                                waited[imsi] = d;
                            }));
                });
            Config::Reset();
            const std::string what = m_at + ", RngRun " + std::to_string(rngRun);
            CheckInvariants(run, edges, what);
            NS_TEST_EXPECT_MSG_EQ(run.faults.outages, 1u, what << ": one outage");
            // A reservation, its answer and the prefill request; or a notice and the plan;
            // and the resume notice.
            const std::size_t each = m_at == "source" ? 4 : 3;
            NS_TEST_EXPECT_MSG_EQ(oneWay.size(),
                                  each * run.records.size(),
                                  what << ": all arrived");
            NS_TEST_EXPECT_MSG_EQ(waited.size(), run.ues.size(), what << ": every plan applied");
            for (const HandoverRecord& r : run.records)
            {
                NS_TEST_EXPECT_MSG_EQ((r.outcome == HandoverRecord::MIGRATED),
                                      true,
                                      what << ": imsi " << r.imsi << " migrated");
                NS_TEST_EXPECT_MSG_GT_OR_EQ(r.kvReady - r.hoStart,
                                            waited[r.imsi],
                                            what << ": resumed after its plan");
            }
            // A message sent during the outage waits at least for the link to come back.
            const bool late = std::any_of(oneWay.begin(), oneWay.end(), [](Time d) {
                return d > MilliSeconds(100);
            });
            crossed += late ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_GT(crossed, 0u, "in some run a control message was lost and resent");
    }

    std::string m_at; //!< PolicyAt
};

/**
 * Pallas's prepare and cancel messages caught by an outage of the link they take: TCP resends
 * them once the link is back, and the session still gets every token once.
 */
class PallasControlOutageTestCase : public FaultTestCase
{
  public:
    /// \param what PREPARE or CANCEL: the message the outage catches
    explicit PallasControlOutageTestCase(ControlMessage::Type what)
        : FaultTestCase(std::string("Control plane network, Pallas: a ") +
                        ControlMessage::TypeName(what) +
                        " lost in a backhaul outage is resent by TCP after it, what it asks "
                        "for waits for it, and every token still arrives once"),
          m_what(what)
    {
    }

  private:
    void DoRun() override
    {
        const Time outage = MilliSeconds(300);
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
            PallasLineConfig c;
            c.linkDelay = MilliSeconds(5);
            if (m_what == ControlMessage::CANCEL)
            {
                // A prediction of the wrong neighbour, prepared long before the handover to the
                // other one cancels it.
                c.cells = 3;
                c.fromCell = 1;
                c.predictor = "wrong";
                c.windowMargin = Seconds(1);
            }
            const PallasLineExperiment experiment(c);
            std::map<uint32_t, Ptr<BackhaulFaultModel>> cuts; // per node: its link's faults
            std::map<uint16_t, Ptr<LlmEngine>> engines;
            Time cutAt{-1};
            Time arrivedAt{-1};
            Time preparedAt{-1};
            uint64_t drops = 0;
            bool heldAtArrival = false;
            bool heldAfter = true;
            const PallasLineRun run =
                experiment.Run("pallas", experiment.Draw(), [&](Ptr<EdgeLlmNetwork> net) {
                    std::map<uint32_t, uint16_t> cellOfNode;
                    for (uint32_t i = 0; i < net->GetServers().GetN(); ++i)
                    {
                        Ptr<EdgeLlmServer> server =
                            DynamicCast<EdgeLlmServer>(net->GetServers().Get(i));
                        engines[server->GetCellId()] = server->GetEngine();
                        cellOfNode[server->GetNode()->GetId()] = server->GetCellId();
                    }
                    // A fault model on both ends of every neighbour link, keyed by the pair's
                    // cells, quiet until the message is sent.
                    for (const BackhaulSegment& link : net->GetBackhaulTopology()->GetSegments())
                    {
                        Ptr<BackhaulFaultModel> f = CreateObject<BackhaulFaultModel>();
                        f->TraceConnectWithoutContext(
                            "Dropped",
                            Callback<void, Ptr<const Packet>, bool>(
                                [&drops](Ptr<const Packet>, bool) { ++drops; }));
                        const uint16_t a = cellOfNode.at(link.devices.Get(0)->GetNode()->GetId());
                        const uint16_t b = cellOfNode.at(link.devices.Get(1)->GetNode()->GetId());
                        cuts[a * 1000U + b] = f;
                        cuts[b * 1000U + a] = f;
                        for (uint32_t d = 0; d < 2; ++d)
                        {
                            link.devices.Get(d)->SetAttribute("ReceiveErrorModel", PointerValue(f));
                        }
                    }
                    for (const auto& [cell, channel] :
                         net->GetEdgeLlmHelper()->GetControlChannels())
                    {
                        channel->TraceConnectWithoutContext(
                            "Tx",
                            Callback<void, const ControlMessage&, uint16_t>(
                                [&](const ControlMessage& m, uint16_t to) {
                                    if (m.type != m_what || !cutAt.IsNegative())
                                    {
                                        return;
                                    }
                                    // The link goes down as the message leaves.
                                    cutAt = Simulator::Now();
                                    Ptr<BackhaulFaultModel> f = cuts.at(m.fromCell * 1000U + to);
                                    f->StartOutage();
                                    Simulator::Schedule(outage, [f]() { f->EndOutage(); });
                                }));
                        channel->TraceConnectWithoutContext(
                            "Rx",
                            Callback<void, const ControlMessage&, Time>([&, cell = cell](
                                                                            const ControlMessage& m,
                                                                            Time) {
                                if (m.type != m_what || !arrivedAt.IsNegative())
                                {
                                    return;
                                }
                                arrivedAt = Simulator::Now();
                                if (m_what == ControlMessage::CANCEL)
                                {
                                    heldAtArrival = engines.at(cell)->HasSession(m.imsi);
                                    Simulator::Schedule(NanoSeconds(1), [&, cell, imsi = m.imsi]() {
                                        heldAfter = engines.at(cell)->HasSession(imsi);
                                    });
                                }
                            }));
                    }
                    net->GetEdgeLlmHelper()->GetCoordinator()->TraceConnectWithoutContext(
                        "MigrationState",
                        Callback<void, uint64_t, uint32_t, int, int>(
                            [&](uint64_t, uint32_t, int, int to) {
                                if (to == HandoverCoordinator::PREPARED && preparedAt.IsNegative())
                                {
                                    preparedAt = Simulator::Now();
                                }
                            }));
                });
            Config::Reset();
            const std::string what = std::string(ControlMessage::TypeName(m_what)) + ", RngRun " +
                                     std::to_string(rngRun);
            NS_TEST_ASSERT_MSG_EQ(cutAt.IsNegative(), false, what << ": the message was sent");
            NS_TEST_EXPECT_MSG_GT(drops, 0u, what << ": the outage lost packets");
            NS_TEST_ASSERT_MSG_EQ(arrivedAt.IsNegative(), false, what << ": it arrived");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(arrivedAt,
                                        cutAt + outage,
                                        what << ": no sooner than the link came back");
            if (m_what == ControlMessage::PREPARE)
            {
                NS_TEST_EXPECT_MSG_GT(preparedAt, arrivedAt, what << ": prepared after it");
                // The handover started while the PREPARE was held up; its notice waited
                // behind it, and committed what it prepared.
                bool committed = false;
                for (const HandoverRecord& r : run.records)
                {
                    committed = committed || (!r.preparedAt.IsNegative() && r.hoStart < arrivedAt &&
                                              r.outcome == HandoverRecord::MIGRATED);
                }
                NS_TEST_EXPECT_MSG_EQ(committed,
                                      true,
                                      what << ": the handover, started before it arrived, "
                                              "committed the prepared migration");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(heldAtArrival,
                                      true,
                                      what << ": the wrong target held the session until then");
                NS_TEST_EXPECT_MSG_EQ(heldAfter, false, what << ": and dropped it then");
            }
            NS_TEST_EXPECT_MSG_EQ(run.exactlyOnce, true, what << ": every token once");
            NS_TEST_EXPECT_MSG_EQ(std::isnan(run.sitS), false, what << ": the session resumed");
            NS_TEST_EXPECT_MSG_EQ(KvLedgerBalances(run.kvSent, run.kvReceived),
                                  true,
                                  what << ": the ledger");
        }
    }

    ControlMessage::Type m_what; //!< the message the outage catches
};

/**
 * A resume deadline's WINDOW_END caught by an outage of the link it takes: the target hears
 * of the window's end only once TCP resends it, and resumes then with what has arrived.
 */
class WindowEndOutageTestCase : public FaultTestCase
{
  public:
    WindowEndOutageTestCase()
        : FaultTestCase("Control plane network: a WINDOW_END caught by a 300 ms outage arrives "
                        "after it; the session resumes then, on what arrived by then, with every "
                        "token once and the ledger balanced")
    {
    }

  private:
    void DoRun() override
    {
        const Time window = MilliSeconds(400);
        const Time outage = MilliSeconds(300);
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            const std::string what = "RngRun " + std::to_string(rngRun);
            RngSeedManager::SetRun(rngRun);
            Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
            // A 400 ms window over 20 ms links of 1 Gb/s: the cache does not all cross in it.
            Ptr<EdgeLlmLineScenario> s = edgellm::WindowLine(window);
            Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
            Edges edges;
            edges.Hook(s);
            // The line's one link, quiet until the WINDOW_END leaves.
            Ptr<BackhaulFaultModel> cut = CreateObject<BackhaulFaultModel>();
            const BackhaulLink& link = s->GetBackhaulLinks().at(0);
            for (uint32_t d = 0; d < link.devices.GetN(); ++d)
            {
                link.devices.Get(d)->SetAttribute("ReceiveErrorModel", PointerValue(cut));
            }
            edgellm::DataArrivals arrivals;
            arrivals.Hook(edge, 2);
            edgellm::MessageTimes windowEnd;
            windowEnd.onSent = [cut, outage]() {
                cut->StartOutage();
                Simulator::Schedule(outage, [cut]() { cut->EndOutage(); });
            };
            windowEnd.Hook(edge, ControlMessage::WINDOW_END);
            Simulator::Stop(Seconds(15));
            Simulator::Run();
            const std::vector<HandoverRecord> records = edge->GetCoordinator()->GetRecords();
            const Ptr<EdgeLlmNetwork> net = s->GetNetwork();

            NS_TEST_ASSERT_MSG_EQ(records.size(), 1u, what << ": one handover");
            const HandoverRecord& r = records.front();
            NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, what << ": migrated");
            NS_TEST_ASSERT_MSG_EQ(windowEnd.sent,
                                  r.hoStart + window,
                                  what << ": sent at the deadline");
            NS_TEST_EXPECT_MSG_GT(edges.deviceDrops, 0u, what << ": the outage lost packets");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(windowEnd.arrived,
                                        windowEnd.sent + outage,
                                        what << ": no sooner than the link came back");
            NS_TEST_EXPECT_MSG_EQ(r.kvReady,
                                  windowEnd.arrived,
                                  what << ": resumed when it arrived");
            NS_TEST_EXPECT_MSG_EQ(CountUnits(r.arrived),
                                  arrivals.Units(Time(-1), windowEnd.arrived),
                                  what << ": what arrived by then");
            const std::vector<uint32_t>& got = edges.delivered[r.imsi];
            NS_TEST_EXPECT_MSG_EQ(got.size(), 200u, what << ": every token");
            for (std::size_t i = 0; i < got.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(got[i], i, what << ": once, in order");
            }
            NS_TEST_EXPECT_MSG_EQ(
                KvLedgerBalances(net->GetKvSent(r.imsi), net->GetKvReceived(r.imsi)),
                true,
                what << ": the ledger");
            for (const std::string& error : edges.migrations.GetErrors())
            {
                NS_TEST_EXPECT_MSG_EQ(error, "", what << ": the migration state machine");
            }
            Simulator::Destroy();
            Config::Reset();
        }
    }
};

class EarlyHandoverTestCase : public FaultTestCase
{
  public:
    EarlyHandoverTestCase()
        : FaultTestCase("A handover before the session's first token: every scheme delivers "
                        "every token once, in order, and the ledger balances")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string scheme : {"tho", "cho", "ctho", "detour"})
        {
            for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
            {
                RngSeedManager::SetRun(rngRun);
                CtHoLineConfig c = FaultConfigLine();
                // The UE starts 2 m short of the boundary and moves at once: it crosses while
                // its prompt (>= 1024 tokens, ~0.1 s and more) is still being prefilled.
                c.minStartX = 148;
                c.maxStartX = 148;
                c.moveStart = Seconds(0);
                const CtHoLineExperiment experiment(c);
                Edges edges;
                Time firstToken(-1);
                const CtHoLineRun run = experiment.Run(
                    scheme,
                    experiment.Draw(),
                    [&edges, &firstToken](Ptr<EdgeLlmLineScenario> s) {
                        edges.Hook(s);
                        s->GetClients().Get(0)->TraceConnectWithoutContext(
                            "TokenDelivered",
                            Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
                                [&firstToken](uint64_t,
                                              uint32_t,
                                              Time generated,
                                              Time,
                                              uint16_t,
                                              bool) {
                                    if (firstToken.IsStrictlyNegative())
                                    {
                                        firstToken = generated;
                                    }
                                }));
                    });
                const std::string what = scheme + ", RngRun " + std::to_string(rngRun);
                CheckInvariants(run, edges, what);
                NS_TEST_ASSERT_MSG_EQ(run.records.empty(), false, what << ": a handover");
                NS_TEST_EXPECT_MSG_LT(run.records.front().hoStart,
                                      firstToken,
                                      what << ": it started before the first token");
            }
        }
    }
};

} // namespace

/// The fault suite.
class EdgeLlmFaultTestSuite : public TestSuite
{
  public:
    EdgeLlmFaultTestSuite()
        : TestSuite("edge-llm-faults", TestSuite::Type::UNIT)
    {
        AddTestCase(new OutageTestCase(false), edgellm::TEST_QUICK);
        AddTestCase(new OutageTestCase(true), edgellm::TEST_QUICK);
        AddTestCase(new OutageTestCase(false, true), edgellm::TEST_QUICK);
        AddTestCase(new OutageTestCase(true, true), edgellm::TEST_QUICK);
        AddTestCase(new LossTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new CrossTrafficTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new GpuLoadTestCase(), edgellm::TEST_QUICK);
        for (bool network : {false, true})
        {
            AddTestCase(new MemoryFullTestCase(false, network), edgellm::TEST_QUICK);
            AddTestCase(new MemoryFullTestCase(true, network), edgellm::TEST_QUICK);
        }
        AddTestCase(new MemoryEvictTestCase(false), edgellm::TEST_QUICK);
        AddTestCase(new MemoryEvictTestCase(true), edgellm::TEST_QUICK);
        AddTestCase(new EarlyHandoverTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new ControlMessageOutageTestCase("source"), edgellm::TEST_QUICK);
        AddTestCase(new ControlMessageOutageTestCase("target"), edgellm::TEST_QUICK);
        AddTestCase(new PallasControlOutageTestCase(ControlMessage::PREPARE), edgellm::TEST_QUICK);
        AddTestCase(new PallasControlOutageTestCase(ControlMessage::CANCEL), edgellm::TEST_QUICK);
        AddTestCase(new WindowEndOutageTestCase(), edgellm::TEST_QUICK);
    }
};

/// The suite's instance.
static EdgeLlmFaultTestSuite g_edgeLlmFaultTestSuite;
