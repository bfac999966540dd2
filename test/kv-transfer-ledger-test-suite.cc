/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The byte ledger of the KV transfer (announced = sent + withdrawn, sent = received + stale,
// every discarded byte under a reason) and the arrival time of forwarded token IDs.

#include "kv-transfer-bench.h"

#include "ns3/inet-socket-address.h"
#include "ns3/kv-transfer-header.h"
#include "ns3/kv-transfer-ledger.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/test.h"

#include <array>
#include <map>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::edgellm::test;

namespace
{

constexpr auto NEWER = static_cast<std::size_t>(KvDiscardReason::NEWER_EPOCH);
constexpr auto WINDOW = static_cast<std::size_t>(KvDiscardReason::WINDOW_END);
constexpr auto LINK = static_cast<std::size_t>(KvDiscardReason::LINK_DOWN);

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief A cancel under each reason, over a real link: the bytes withdrawn and the bytes
 * dropped as stale are counted under that reason, and the ledger balances.
 *
 * Three sessions of 200 tokens, one after the other, each cut 20 ms into its transfer (it
 * needs about 92 ms at 1 Gb/s):
 * - imsi 3, LINK_DOWN: the receiver retired epoch 0 with LINK_DOWN before any byte arrived,
 *   so every byte sent is stale under it, and the sender withdraws the rest under it;
 * - imsi 1, NEWER_EPOCH: likewise with the default reason, then epoch 1 (50 tokens)
 *   supersedes epoch 0 at the sender and arrives whole;
 * - imsi 2, WINDOW_END: the receiver is told only by the CANCEL, which follows every byte
 *   sent in the stream, so nothing is stale and the rest is withdrawn under WINDOW_END.
 * What was sent is counted independently, at MessageSent.
 */
class KvLedgerReasonsTestCase : public TestCase
{
  public:
    KvLedgerReasonsTestCase()
        : TestCase("A cancel under each reason: withdrawnBy and staleBy, and the ledger balances")
    {
    }

  private:
    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("1Gbps"), MicroSeconds(50));
        DataSent sent;
        b.sender->TraceConnectWithoutContext("MessageSent", MakeCallback(&DataSent::Record, &sent));
        Completions done;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &done));
        Ptr<KvTransferSender> tx = b.sender;
        Ptr<KvTransferReceiver> rx = b.receiver;
        const uint32_t tokens = 200;

        Simulator::Schedule(Seconds(0.1), [tx, rx]() {
            rx->ExpectEpoch(3, 0);
            rx->ExpectEpoch(3, 1, KvDiscardReason::LINK_DOWN);
            tx->Enqueue(TokenRequest(3, 0, 0, tokens));
        });
        Simulator::Schedule(Seconds(0.12),
                            [tx]() { tx->Cancel(3, 0, KvDiscardReason::LINK_DOWN); });

        Simulator::Schedule(Seconds(0.3), [tx, rx]() {
            rx->ExpectEpoch(1, 0);
            rx->ExpectEpoch(1, 1); // NEWER_EPOCH by default
            tx->Enqueue(TokenRequest(1, 0, 0, tokens));
        });
        Simulator::Schedule(Seconds(0.32), [tx]() { tx->Enqueue(TokenRequest(1, 1, 0, 50)); });

        Simulator::Schedule(Seconds(0.5), [tx]() { tx->Enqueue(TokenRequest(2, 0, 0, tokens)); });
        Simulator::Schedule(Seconds(0.52),
                            [tx]() { tx->Cancel(2, 0, KvDiscardReason::WINDOW_END); });
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        const uint64_t epochBytes = tokens * kTokenBytes;

        struct Expect
        {
            uint64_t imsi;
            std::size_t reason;
            uint64_t sent;     //!< of epoch 0, counted at MessageSent
            uint64_t stale;    //!< expected stale bytes
            uint64_t received; //!< expected received bytes
            uint64_t announced;
        };

        const uint64_t sent3 = sent.Of(3, 0);
        const uint64_t sent1 = sent.Of(1, 0);
        const uint64_t sent2 = sent.Of(2, 0);
        const std::vector<Expect> expect = {
            {3, LINK, sent3, sent3, 0, epochBytes},
            {1, NEWER, sent1, sent1, 50 * kTokenBytes, epochBytes + 50 * kTokenBytes},
            {2, WINDOW, sent2, 0, sent2, epochBytes},
        };
        NS_TEST_ASSERT_MSG_EQ(sent.Of(1, 1), 50 * kTokenBytes, "epoch 1 of imsi 1 sent whole");
        for (const Expect& e : expect)
        {
            NS_TEST_ASSERT_MSG_GT(e.sent, 0u, "imsi " << e.imsi << " was cut mid-transfer");
            NS_TEST_ASSERT_MSG_LT(e.sent, epochBytes, "imsi " << e.imsi << " was cut short");
            const KvTransferSenderCounters s = tx->GetCounters(e.imsi);
            const KvTransferReceiverCounters r = rx->GetCounters(e.imsi);
            for (std::size_t k = 0; k < KV_DISCARD_REASONS; ++k)
            {
                // Epoch 0 had 200 tokens; what did not reach TCP of it is withdrawn.
                const uint64_t withdrawn = (k == e.reason ? epochBytes - e.sent : 0);
                NS_TEST_ASSERT_MSG_EQ(s.withdrawnBy[k],
                                      withdrawn,
                                      "imsi " << e.imsi << " withdrawnBy["
                                              << KvDiscardReasonName(KvDiscardReason(k)) << "]");
                NS_TEST_ASSERT_MSG_EQ(r.staleBy[k],
                                      (k == e.reason ? e.stale : 0),
                                      "imsi " << e.imsi << " staleBy["
                                              << KvDiscardReasonName(KvDiscardReason(k)) << "]");
            }
            NS_TEST_ASSERT_MSG_EQ(s.announced, e.announced, "imsi " << e.imsi << " announced");
            NS_TEST_ASSERT_MSG_EQ(s.withdrawn, epochBytes - e.sent, "withdrawn total");
            NS_TEST_ASSERT_MSG_EQ(r.stale, e.stale, "stale total");
            NS_TEST_ASSERT_MSG_EQ(r.received, e.received, "imsi " << e.imsi << " received");
            NS_TEST_ASSERT_MSG_EQ(s.announced,
                                  s.sent + s.withdrawn,
                                  "imsi " << e.imsi << ": announced = sent + withdrawn");
            NS_TEST_ASSERT_MSG_EQ(s.sent,
                                  r.received + r.stale,
                                  "imsi " << e.imsi << ": sent = received + stale");
            NS_TEST_ASSERT_MSG_EQ(r.droppedInvalid, 0u, "no protocol error");
        }
        NS_TEST_ASSERT_MSG_EQ(done.done.size(), 1u, "only imsi 1's epoch 1 completes");
        NS_TEST_ASSERT_MSG_EQ((done.Of(1) < Seconds(2)), true, "imsi 1 completes");
        NS_TEST_ASSERT_MSG_EQ(rx->IsComplete(2), false, "a cancelled epoch is not complete");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The receiver's reasons from a hand-made stream: a CANCEL retires its epoch with
 * the reason it carries, and keeps it when a newer epoch comes; data of an epoch the
 * receiver never saw is stale as NEWER_EPOCH.
 */
class KvLedgerCancelReasonTestCase : public TestCase
{
  public:
    KvLedgerCancelReasonTestCase()
        : TestCase("A CANCEL's reason decides how later bytes of its epoch count as stale")
    {
    }

  private:
    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("1Gbps"), MicroSeconds(50));
        using H = KvTransferHeader;
        Ptr<Packet> stream = Create<Packet>();
        auto append = [&stream](const H& h) {
            Ptr<Packet> p = Create<Packet>(static_cast<uint32_t>(h.GetFollowingBytes()));
            p->AddHeader(h);
            stream->AddAtEnd(p);
        };
        append(H::Make(H::BEGIN, 6, 0, H::TOKEN, 0, 10, 100));
        append(H::Make(H::DATA, 6, 0, H::TOKEN, 0, 4, 40)); // received
        append(H::MakeCancel(6, 0, KvDiscardReason::WINDOW_END));
        append(H::Make(H::DATA, 6, 0, H::TOKEN, 4, 2, 20)); // stale, window-end
        append(H::Make(H::BEGIN, 6, 2, H::TOKEN, 0, 3, 30));
        append(H::Make(H::DATA, 6, 0, H::TOKEN, 6, 2, 20)); // stale, still window-end
        append(H::Make(H::DATA, 6, 1, H::TOKEN, 0, 3, 30)); // never seen: newer-epoch
        append(H::Make(H::DATA, 6, 2, H::TOKEN, 0, 3, 30)); // received, completes epoch 2

        Completions done;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &done));
        Ptr<Socket> raw = Socket::CreateSocket(b.nodes.Get(0), TcpSocketFactory::GetTypeId());
        raw->Bind(InetSocketAddress(b.link.addressA, 0));
        const Ipv4Address peer = b.link.addressB;
        Simulator::Schedule(Seconds(0.1),
                            [raw, peer]() { raw->Connect(InetSocketAddress(peer, 7100)); });
        Simulator::Schedule(Seconds(0.2), [raw, stream]() { raw->Send(stream); });
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        const KvTransferReceiverCounters r = b.receiver->GetCounters(6);
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetStreamBytesReceived(), stream->GetSize(), "all read");
        NS_TEST_ASSERT_MSG_EQ(r.received, 40u + 30u, "4 tokens of epoch 0, 3 of epoch 2");
        NS_TEST_ASSERT_MSG_EQ(r.staleBy[WINDOW], 20u + 20u, "after the CANCEL, window-end");
        NS_TEST_ASSERT_MSG_EQ(r.staleBy[NEWER], 30u, "an epoch never seen, newer-epoch");
        NS_TEST_ASSERT_MSG_EQ(r.staleBy[LINK], 0u, "nothing went down");
        NS_TEST_ASSERT_MSG_EQ(r.stale, 70u, "stale = sum of staleBy");
        NS_TEST_ASSERT_MSG_EQ(r.droppedInvalid, 0u, "no protocol error");
        NS_TEST_ASSERT_MSG_EQ(done.done.size(), 1u, "epoch 2 completes");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Forwarded token IDs are reported once their payload is in, not at their header.
 *
 * 131,072 IDs are 524,288 bytes; with the 36-byte header the message is 524,324 stream
 * bytes. When the receiver reads the header, it holds at most the first segment (MSS =
 * 9000 - 52 = 8948 bytes), and at most rate x delay = 100 Mb/s x 100 us = 1250 bytes more
 * are on the wire; everything else must still be serialised at 100 Mb/s. So the report
 * comes at least (524,324 - 8948 - 1250) x 8 / 100 Mb/s = 41.13 ms after the header.
 */
class KvTokensArrivalTestCase : public TestCase
{
  public:
    KvTokensArrivalTestCase()
        : TestCase("Token IDs are reported when their payload has arrived, not at the header")
    {
    }

  private:
    void HeaderRead(const KvTransferHeader& h)
    {
        if (h.GetMessageType() == KvTransferHeader::TOKENS)
        {
            m_header.push_back(Simulator::Now());
        }
    }

    void Tokens(uint64_t imsi, uint32_t epoch, uint32_t first, uint32_t count)
    {
        m_reported.push_back(Simulator::Now());
        m_count = count;
        m_first = first;
        m_imsi = imsi;
        m_epoch = epoch;
    }

    void DoRun() override
    {
        const DataRate rate("100Mbps");
        const Time delay = MicroSeconds(100);
        TransferBench b = MakeBench(rate, delay);
        b.receiver->TraceConnectWithoutContext(
            "MessageReceived",
            MakeCallback(&KvTokensArrivalTestCase::HeaderRead, this));
        b.receiver->SetTokensCallback(MakeCallback(&KvTokensArrivalTestCase::Tokens, this));
        const uint32_t ids = 131072;
        Ptr<KvTransferSender> tx = b.sender;
        Ptr<KvTransferReceiver> rx = b.receiver;
        Simulator::Schedule(Seconds(0.1), [tx, rx]() {
            rx->ExpectEpoch(8, 3); // a TOKENS message opens no epoch
            tx->Enqueue(ForwardRequest(8, 3, 1000, ids));
        });
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_header.size(), 1u, "one TOKENS header read");
        NS_TEST_ASSERT_MSG_EQ(m_reported.size(), 1u, "reported once");
        NS_TEST_ASSERT_MSG_EQ(m_imsi, 8u, "its session");
        NS_TEST_ASSERT_MSG_EQ(m_epoch, 3u, "its epoch");
        NS_TEST_ASSERT_MSG_EQ(m_first, 1000u, "its first ID");
        NS_TEST_ASSERT_MSG_EQ(m_count, ids, "every ID");
        NS_TEST_ASSERT_MSG_EQ(rx->GetCounters(8).tokensForwarded, ids, "counted");
        const double stream = KvTransferHeader::SERIALIZED_SIZE + 4.0 * ids;
        const double inFlight = rate.GetBitRate() * delay.GetSeconds() / 8;
        const double minGap = (stream - (9000 - 52) - inFlight) * 8 / rate.GetBitRate();
        const double gap = (m_reported.at(0) - m_header.at(0)).GetSeconds();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(gap, minGap, "reported before the IDs could have arrived");
        // Slow start costs a few round trips of 0.2 ms more than the serialisation.
        NS_TEST_ASSERT_MSG_LT(gap, 2 * minGap, "reported long after the last ID");
        Simulator::Destroy();
    }

    std::vector<Time> m_header;   //!< when TOKENS headers were read
    std::vector<Time> m_reported; //!< when the tokens callback fired
    uint64_t m_imsi{0};           //!< reported session
    uint32_t m_epoch{0};          //!< reported epoch
    uint32_t m_first{0};          //!< reported first ID
    uint32_t m_count{0};          //!< reported count
};

/**
 * \ingroup edge-llm-tests
 * \brief The byte ledger and the arrival of forwarded token IDs.
 */
class KvTransferLedgerTestSuite : public TestSuite
{
  public:
    KvTransferLedgerTestSuite()
        : TestSuite("edge-llm-kv-transfer-ledger")
    {
        AddTestCase(new KvLedgerReasonsTestCase());
        AddTestCase(new KvLedgerCancelReasonTestCase());
        AddTestCase(new KvTokensArrivalTestCase());
    }
};

/// The suite's single instance.
static KvTransferLedgerTestSuite g_kvTransferLedgerTestSuite;
