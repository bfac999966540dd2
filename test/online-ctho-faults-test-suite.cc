/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Online ctHO with several UEs whose transfers queue on one backhaul link, while the link
// loses packets and goes down for a while. Checked at the edges: the token indices each
// client application got, the KV bytes of the ledger, and the DATA messages the target's
// receiver read, in the order the link carried them.

#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A DATA message's header, as the target's receiver read it.
struct DataRead
{
    Time at;        //!< when its header was read
    uint64_t imsi;  //!< its session
    uint32_t epoch; //!< its epoch
    uint64_t bytes; //!< its payload
};

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief Four UEs cross within half a second, so their ctHO transfers share the link's
 * backlog; the link loses 1 packet in 1000 and is cut for 400 ms mid-transfer. For every UE:
 * each token once, in order; its KV ledger balances with a reason for every withdrawn or stale
 * byte; every DATA message of the epoch it resumed with was read before it resumed; and its
 * handover delay is at least the KV bytes the link carried from its handover start to its own
 * last DATA message (its own and every other UE's queued ahead of it) over the link's rate.
 */
class SharedBacklogFaultsTestCase : public TestCase
{
  public:
    SharedBacklogFaultsTestCase()
        : TestCase("Online ctHO, four UEs on one link under loss and an outage: tokens once and "
                   "in order, ledgers balance, no delay below the shared backlog's bound")
    {
    }

  private:
    void DoTeardown() override
    {
        Simulator::Destroy();
        Config::Reset();
        RngSeedManager::SetRun(1);
    }

    void DoRun() override
    {
        uint32_t behindOthers = 0;
        for (uint32_t rngRun = 1; rngRun <= 3; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            CtHoLineConfig c;
            c.numUes = 4;
            c.batching = "online";
            c.tokensAfter = 80;
            c.maxSimTime = Seconds(40);
            c.backhaulRate = DataRate("2Gbps");
            c.faults.backhaulLoss = 1e-3;
            c.faults.outageAfter = MilliSeconds(100);
            c.faults.outageFor = MilliSeconds(400);
            c.faults.stallPolicy = "wait";
            c.faults.stallTimeout = MilliSeconds(100);
            const CtHoLineExperiment experiment(c);

            std::map<uint64_t, std::vector<uint32_t>> delivered;
            std::vector<DataRead> reads;
            std::map<uint64_t, KvTransferSenderCounters> sent;
            std::map<uint64_t, KvTransferReceiverCounters> received;
            uint64_t deviceDrops = 0;
            const CtHoLineRun run = experiment.Run(
                "ctho",
                experiment.Draw(),
                [&](Ptr<EdgeLlmLineScenario> s) {
                    for (uint32_t i = 0; i < s->GetClients().GetN(); ++i)
                    {
                        s->GetClients().Get(i)->TraceConnectWithoutContext(
                            "TokenDelivered",
                            Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
                                [&delivered](uint64_t imsi,
                                             uint32_t index,
                                             Time,
                                             Time,
                                             uint16_t,
                                             bool) { delivered[imsi].push_back(index); }));
                    }
                    const uint16_t target =
                        DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))->GetCellId();
                    s->GetEdgeLlmHelper()
                        ->GetKvTransfer(target)
                        ->GetReceiver()
                        ->TraceConnectWithoutContext(
                            "MessageReceived",
                            Callback<void, const KvTransferHeader&>(
                                [&reads](const KvTransferHeader& h) {
                                    if (h.GetMessageType() == KvTransferHeader::DATA)
                                    {
                                        reads.push_back({Simulator::Now(),
                                                         h.GetImsi(),
                                                         h.GetEpoch(),
                                                         h.GetPayloadBytes()});
                                    }
                                }));
                    NS_TEST_ASSERT_MSG_EQ(s->GetBackhaulLinks().size(), 1u, "one shared link");
                    for (const BackhaulLink& link : s->GetBackhaulLinks())
                    {
                        for (uint32_t d = 0; d < link.devices.GetN(); ++d)
                        {
                            link.devices.Get(d)->TraceConnectWithoutContext(
                                "PhyRxDrop",
                                Callback<void, Ptr<const Packet>>(
                                    [&deviceDrops](Ptr<const Packet>) { ++deviceDrops; }));
                        }
                    }
                },
                [&](Ptr<EdgeLlmLineScenario> s) {
                    for (uint32_t j = 0; j < c.numUes; ++j)
                    {
                        const uint64_t imsi =
                            DynamicCast<EdgeLlmClient>(s->GetClients().Get(j))->GetImsi();
                        sent[imsi] = s->GetNetwork()->GetKvSent(imsi);
                        received[imsi] = s->GetNetwork()->GetKvReceived(imsi);
                    }
                });
            const std::string what = "RngRun " + std::to_string(rngRun);
            NS_TEST_EXPECT_MSG_LT(run.endTime, c.maxSimTime, what << ": the run ended by itself");
            NS_TEST_EXPECT_MSG_EQ(run.faults.outages, 1u, what << ": the link went down");
            NS_TEST_EXPECT_MSG_GT(run.faults.outageDrops, 0u, what << ": mid-transfer");
            NS_TEST_EXPECT_MSG_GT(run.faults.lossDrops, 0u, what << ": and lost packets");
            NS_TEST_EXPECT_MSG_EQ(run.faults.lossDrops + run.faults.outageDrops,
                                  deviceDrops,
                                  what << ": as the devices counted");

            for (const CtHoLineUe& ue : run.ues)
            {
                const std::vector<uint32_t>& got = delivered[ue.imsi];
                bool inOrder = got.size() == ue.tokensToGenerate;
                for (std::size_t i = 0; inOrder && i < got.size(); ++i)
                {
                    inOrder = got[i] == i;
                }
                NS_TEST_EXPECT_MSG_EQ(inOrder,
                                      true,
                                      what << ": imsi " << ue.imsi << " got " << got.size()
                                           << " of " << ue.tokensToGenerate
                                           << " tokens, each once, in order");
                const KvTransferSenderCounters& s = sent[ue.imsi];
                const KvTransferReceiverCounters& r = received[ue.imsi];
                NS_TEST_EXPECT_MSG_GT(s.announced, 0u, what << ": imsi " << ue.imsi << " sent KV");
                NS_TEST_EXPECT_MSG_EQ(s.announced,
                                      s.sent + s.withdrawn,
                                      what << ": imsi " << ue.imsi
                                           << ": announced = sent + withdrawn");
                NS_TEST_EXPECT_MSG_EQ(s.sent,
                                      r.received + r.stale,
                                      what << ": imsi " << ue.imsi
                                           << ": sent = received + stale, drained");
                uint64_t withdrawnBy = 0;
                uint64_t staleBy = 0;
                for (std::size_t k = 0; k < KV_DISCARD_REASONS; ++k)
                {
                    withdrawnBy += s.withdrawnBy[k];
                    staleBy += r.staleBy[k];
                }
                NS_TEST_EXPECT_MSG_EQ(withdrawnBy,
                                      s.withdrawn,
                                      what << ": imsi " << ue.imsi << ": withdrawn, by reason");
                NS_TEST_EXPECT_MSG_EQ(staleBy,
                                      r.stale,
                                      what << ": imsi " << ue.imsi << ": stale, by reason");
                NS_TEST_EXPECT_MSG_EQ(r.droppedInvalid, 0u, what << ": no DATA out of range");
            }

            // The bound, from the receiver's reads: one TCP stream carries every UE's DATA
            // in order, so every message read from the handover start up to the UE's own last
            // one crossed the link before the UE's cache was whole. A message read within one
            // frame's time and the propagation delay of the start may have left before it.
            const double rateBps = c.backhaulRate.GetBitRate();
            const Time slack = c.backhaulDelay + Seconds(9000 * 8 / rateBps);
            uint32_t migrated = 0;
            for (const HandoverRecord& r : run.records)
            {
                if (r.outcome != HandoverRecord::MIGRATED || r.transferTokens == 0)
                {
                    continue;
                }
                ++migrated;
                Time last(-1);
                for (const DataRead& d : reads)
                {
                    if (d.imsi == r.imsi && d.epoch == r.epoch)
                    {
                        last = d.at;
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(last.IsStrictlyPositive(),
                                      true,
                                      what << ": imsi " << r.imsi << "'s DATA was read");
                if (!last.IsStrictlyPositive())
                {
                    continue;
                }
                // With StallPolicy Wait the whole cache arrives: no DATA message of the epoch
                // the session resumed with may start after it resumed.
                uint64_t epochBytes = 0;
                uint64_t byResume = 0;
                for (const DataRead& d : reads)
                {
                    if (d.imsi == r.imsi && d.epoch == r.epoch)
                    {
                        epochBytes += d.bytes;
                        byResume += d.at <= r.kvReady ? d.bytes : 0;
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(byResume,
                                      epochBytes,
                                      what << ": imsi " << r.imsi
                                           << " resumed with every DATA byte of its epoch read");
                uint64_t own = 0;
                uint64_t others = 0;
                for (const DataRead& d : reads)
                {
                    if (d.at >= r.hoStart + slack && d.at <= last)
                    {
                        (d.imsi == r.imsi ? own : others) += d.bytes;
                    }
                }
                const double bound = (own + others) * 8 / rateBps;
                NS_TEST_EXPECT_MSG_GT_OR_EQ((r.kvReady - r.hoStart).GetSeconds(),
                                            bound,
                                            what << ": imsi " << r.imsi << "'s delay against "
                                                 << own << " own and " << others
                                                 << " queued bytes over the link's rate");
                behindOthers += others > 0 ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(migrated, c.numUes, what << ": every UE migrated with KV");
        }
        NS_TEST_EXPECT_MSG_GT(behindOthers, 0u, "some UE's transfer queued behind others'");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Online ctHO under backhaul faults, with a shared link.
 */
class OnlineCtHoFaultsTestSuite : public TestSuite
{
  public:
    OnlineCtHoFaultsTestSuite()
        : TestSuite("edge-llm-online-faults", TestSuite::Type::UNIT)
    {
        AddTestCase(new SharedBacklogFaultsTestCase(), edgellm::TEST_QUICK);
    }
};

/// The suite's one instance.
static OnlineCtHoFaultsTestSuite g_onlineCtHoFaultsTestSuite;
