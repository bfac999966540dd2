/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Open transfers (a transfer that grows while the source decodes) and slot budgets by
// (session, epoch), fixed or from a budget source.

#include "kv-transfer-bench.h"
#include "tcp-accepted-data.h"

#include "ns3/kv-transfer-header.h"
#include "ns3/kv-transfer-policy.h"
#include "ns3/pointer.h"
#include "ns3/range-set.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::edgellm::test;

namespace
{

/// Times at which the receiver read headers of one type, by session.
struct HeadersRead
{
    KvTransferHeader::MessageType type;
    std::map<uint64_t, std::vector<Time>> at;

    void Record(const KvTransferHeader& h)
    {
        if (h.GetMessageType() == type)
        {
            at[h.GetImsi()].push_back(Simulator::Now());
        }
    }
};

/// A block of count tokens from first; 16 by default.
TokenRange
Block(uint64_t first, uint64_t count = 16)
{
    return {first, first + count};
}

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief An open transfer grows by ten appends and a sealed partial block, and arrives whole;
 * it completes once, after its SEAL, at both ends.
 *
 * imsi 5 starts with block [0, 16) and gets block k at [32k, 32k + 16) every 5 ms (k = 1 to
 * 10), then a last partial block [352, 359) with the seal. The gaps make every block its own
 * range. At 10 Gb/s a block takes 0.7 ms, so the receiver holds everything announced long
 * before each append: a receiver that ignored the open state would report completion then.
 * imsi 6 is sealed with no last range after its one range has arrived: it completes right at
 * its SEAL. imsi 7 is cancelled while open.
 */
class KvOpenTransferTestCase : public TestCase
{
  public:
    KvOpenTransferTestCase()
        : TestCase("An open transfer grows by appends, arrives whole, and completes after SEAL")
    {
    }

  private:
    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        Completions atReceiver;
        Completions atSender;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &atReceiver));
        b.sender->SetCompletionCallback(MakeCallback(&Completions::Record, &atSender));
        std::vector<uint64_t> traced;
        b.receiver->TraceConnectWithoutContext(
            "SessionComplete",
            MakeBoundCallback(
                +[](std::vector<uint64_t>* t, uint64_t imsi, uint32_t, uint64_t) {
                    t->push_back(imsi);
                },
                &traced));
        HeadersRead seals{KvTransferHeader::SEAL, {}};
        b.receiver->TraceConnectWithoutContext("MessageReceived",
                                               MakeCallback(&HeadersRead::Record, &seals));
        Ptr<KvTransferSender> tx = b.sender;

        KvTransferRequest open = TokenRequest(5, 0, 0, 16);
        open.open = true;
        Simulator::Schedule(Seconds(0.1), &KvTransferSender::Enqueue, tx, open);
        edgellm::RangeSet expected;
        expected.Add({0, 16});
        uint64_t tokens = 16;
        for (uint32_t k = 1; k <= 10; ++k)
        {
            Simulator::Schedule(Seconds(0.1) + MilliSeconds(5 * k),
                                [tx, k]() { tx->Append(5, 0, {Block(32 * k)}); });
            expected.Add({32 * k, 32 * k + 16});
            tokens += 16;
        }
        const Time sealAt = Seconds(0.1) + MilliSeconds(55);
        Simulator::Schedule(sealAt, [tx]() { tx->Seal(5, 0, {Block(352, 7)}); });
        expected.Add({352, 359});
        tokens += 7;

        // imsi 6: open with no range; one range, then a seal once it is in.
        KvTransferRequest empty;
        empty.imsi = 6;
        empty.epoch = 2;
        empty.open = true;
        empty.bytesPerUnit = kTokenBytes;
        Simulator::Schedule(Seconds(0.3), &KvTransferSender::Enqueue, tx, empty);
        Simulator::Schedule(Seconds(0.31), [tx]() { tx->Append(6, 2, {Block(64)}); });
        Simulator::Schedule(Seconds(0.33), [tx]() { tx->Seal(6, 2); });

        // imsi 7: cancelled while open, 1 ms into a large append (it needs about 19 ms).
        DataSent sent;
        tx->TraceConnectWithoutContext("MessageSent", MakeCallback(&DataSent::Record, &sent));
        KvTransferRequest cut = TokenRequest(7, 0, 0, 16);
        cut.open = true;
        Simulator::Schedule(Seconds(0.4), &KvTransferSender::Enqueue, tx, cut);
        Simulator::Schedule(Seconds(0.41), [tx]() { tx->Append(7, 0, {Block(16, 384)}); });
        Simulator::Schedule(Seconds(0.411),
                            [tx]() { tx->Cancel(7, 0, KvDiscardReason::WINDOW_END); });

        std::vector<bool> openAt;
        for (double t : {0.09, 0.12, 0.154, 0.156, 0.3, 0.32, 0.34, 0.405})
        {
            Simulator::Schedule(Seconds(t), [&openAt, tx]() {
                openAt.push_back(tx->IsOpen(5, 0) || tx->IsOpen(6, 2) || tx->IsOpen(7, 0));
            });
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        const std::vector<bool> openExpected = {false, true, true, false, true, true, false, true};
        NS_TEST_ASSERT_MSG_EQ((openAt == openExpected), true, "IsOpen from enqueue to seal");

        // imsi 5
        const edgellm::RangeSet got = b.receiver->GetReceivedRanges(5);
        NS_TEST_ASSERT_MSG_EQ(got.RangeCount(), 12u, "twelve disjoint ranges");
        NS_TEST_ASSERT_MSG_EQ((got.Ranges() == expected.Ranges()), true, "the union appended");
        const uint64_t bytes = tokens * kTokenBytes;
        NS_TEST_ASSERT_MSG_EQ(tokens, 183u, "11 blocks of 16 and one of 7");
        const KvTransferSenderCounters s = b.sender->GetCounters(5);
        const KvTransferReceiverCounters r = b.receiver->GetCounters(5);
        NS_TEST_ASSERT_MSG_EQ(s.announced, bytes, "announced");
        NS_TEST_ASSERT_MSG_EQ(s.sent, bytes, "sent");
        NS_TEST_ASSERT_MSG_EQ(s.withdrawn, 0u, "nothing withdrawn");
        NS_TEST_ASSERT_MSG_EQ(s.acked, bytes, "acknowledged");
        NS_TEST_ASSERT_MSG_EQ(r.announced, bytes, "the receiver saw every BEGIN");
        NS_TEST_ASSERT_MSG_EQ(r.received, bytes, "received");
        NS_TEST_ASSERT_MSG_EQ(r.stale, 0u, "nothing stale");
        const std::size_t fives = std::count_if(atReceiver.done.begin(),
                                                atReceiver.done.end(),
                                                [](const auto& d) { return d.first == 5; });
        NS_TEST_ASSERT_MSG_EQ(fives, 1u, "complete exactly once at the receiver");
        NS_TEST_ASSERT_MSG_EQ(seals.at[5].size(), 1u, "one SEAL read");
        NS_TEST_ASSERT_MSG_GT(atReceiver.Of(5), seals.at[5].at(0), "complete after its SEAL");
        NS_TEST_ASSERT_MSG_GT(atSender.Of(5), sealAt, "acknowledged only after the seal");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(atSender.Of(5), atReceiver.Of(5), "acked after received");

        // imsi 6: all its data was in before the seal, so the SEAL completes it.
        NS_TEST_ASSERT_MSG_EQ(seals.at[6].size(), 1u, "one SEAL read");
        NS_TEST_ASSERT_MSG_EQ(atReceiver.Of(6), seals.at[6].at(0), "complete at its SEAL");
        NS_TEST_ASSERT_MSG_GT(atSender.Of(6), Seconds(0.33), "acknowledged after the seal");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetCounters(6).received, 16 * kTokenBytes, "its bytes");

        // imsi 7: what had not reached TCP at the cancel is withdrawn, under window-end; the
        // rest precedes the CANCEL in the stream, so it arrives.
        const KvTransferSenderCounters s7 = b.sender->GetCounters(7);
        const KvTransferReceiverCounters r7 = b.receiver->GetCounters(7);
        const uint64_t sent7 = sent.Of(7, 0);
        NS_TEST_ASSERT_MSG_EQ(s7.announced, 400 * kTokenBytes, "16 + 384 tokens announced");
        NS_TEST_ASSERT_MSG_GT(sent7, 16 * kTokenBytes, "part of the append left");
        NS_TEST_ASSERT_MSG_LT(sent7, 400 * kTokenBytes, "not all of it");
        NS_TEST_ASSERT_MSG_EQ(s7.withdrawnBy[static_cast<std::size_t>(KvDiscardReason::WINDOW_END)],
                              400 * kTokenBytes - sent7,
                              "the rest withdrawn, under window-end");
        NS_TEST_ASSERT_MSG_EQ(s7.withdrawn, 400 * kTokenBytes - sent7, "and nothing else");
        NS_TEST_ASSERT_MSG_EQ(s7.sent, sent7, "sent as traced");
        NS_TEST_ASSERT_MSG_EQ(r7.received, sent7, "what left arrived");
        NS_TEST_ASSERT_MSG_EQ(r7.stale, 0u, "nothing stale");
        NS_TEST_ASSERT_MSG_EQ(atReceiver.Of(7), Time::Max(), "never complete at the receiver");
        NS_TEST_ASSERT_MSG_EQ(atSender.Of(7), Time::Max(), "never complete at the sender");
        NS_TEST_ASSERT_MSG_EQ((traced == std::vector<uint64_t>{5, 6}),
                              true,
                              "SessionComplete for 5 and 6");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Slot budgets by (session, epoch), fixed or from a budget source, counted where TCP
 * accepts the DATA bytes (its send buffer at each slot's start), slot = floor(now /
 * SlotDuration).
 */
class KvSlotBudgetKeyTestCase : public TestCase
{
  public:
    /// \param source budgets from a source rather than SetBudget
    explicit KvSlotBudgetKeyTestCase(bool source)
        : TestCase(source ? "A budget source sets each slot's budget per session"
                          : "Two epochs of one session do not share a slot budget"),
          m_source(source)
    {
    }

  private:
    /// A budget unit: one token.
    static constexpr uint64_t UNIT = kTokenBytes;

    /// The schedule of the source test, in bytes.
    static uint64_t Budget(uint64_t imsi, uint32_t epoch, uint64_t slot)
    {
        if (imsi == 1 && epoch == 0)
        {
            return (slot % 3 + 1) * 2 * UNIT;
        }
        if (imsi == 2 && epoch == 7)
        {
            return slot % 2 == 1 ? 0 : 3 * UNIT;
        }
        return 0; // a mis-keyed lookup gets nothing, and the test sees it
    }

    uint64_t SentIn(uint64_t imsi, uint32_t epoch, uint64_t slot) const
    {
        auto it = m_perSlot.find({imsi, epoch, slot});
        return it == m_perSlot.end() ? 0 : it->second;
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        m_policy = CreateObject<SlotBudgetKvTransferPolicy>();
        m_policy->SetAttribute("SlotDuration", TimeValue(MilliSeconds(10)));
        b.sender->SetAttribute("Policy", PointerValue(m_policy));
        UintegerValue port;
        b.appB->GetAttribute("Port", port);
        m_accepted.Watch(b.sender,
                         b.nodes.Get(0),
                         InetSocketAddress(b.link.addressB, static_cast<uint16_t>(port.Get())),
                         MilliSeconds(10),
                         Seconds(1));
        Ptr<KvTransferSender> tx = b.sender;
        if (m_source)
        {
            RunSource(tx);
        }
        else
        {
            RunEpochs(tx);
        }
        Simulator::Destroy();
    }

    /**
     * Epoch 0 (budget 10 units) sends its 10 in slot 10 (from t = 0.1 s), then epoch 1
     * (budget 3 units, 9 units of data) supersedes it at 0.105 s, in the same slot: it sends
     * 3 units in slots 10, 11 and 12. Keyed by IMSI, epoch 1 would find slot 10 used up.
     */
    void RunEpochs(Ptr<KvTransferSender> tx)
    {
        m_policy->SetBudget(4, 0, 10 * UNIT);
        m_policy->SetBudget(4, 1, 3 * UNIT);
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            tx,
                            TokenRequest(4, 0, 0, 100));
        Simulator::Schedule(Seconds(0.105),
                            &KvTransferSender::Enqueue,
                            tx,
                            TokenRequest(4, 1, 0, 9));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        m_perSlot = m_accepted.PerSlot();
        NS_TEST_ASSERT_MSG_EQ(SentIn(4, 0, 10), 10 * UNIT, "epoch 0 used its own budget");
        for (uint64_t slot = 10; slot <= 12; ++slot)
        {
            NS_TEST_ASSERT_MSG_EQ(SentIn(4, 1, slot), 3 * UNIT, "epoch 1 in slot " << slot);
        }
        uint64_t total = 0;
        for (const auto& [key, bytes] : m_perSlot)
        {
            total += bytes;
        }
        NS_TEST_ASSERT_MSG_EQ(total, 19 * UNIT, "nothing else was sent");
        const KvTransferSenderCounters c = tx->GetCounters(4);
        NS_TEST_ASSERT_MSG_EQ(c.withdrawn, 90 * UNIT, "epoch 0's rest was withdrawn");
    }

    /**
     * imsi 1 (epoch 0, 60 tokens) gets (k mod 3 + 1) x 2 units in slot k; imsi 2 (epoch 7,
     * 30 tokens) 3 units in even slots and none in odd ones. Both start at 0.1 s, slot 10.
     */
    void RunSource(Ptr<KvTransferSender> tx)
    {
        m_policy->SetBudget(1, 0, 1000 * UNIT); // ignored while a source is set
        m_policy->SetBudgetSource(MakeCallback(&KvSlotBudgetKeyTestCase::Budget));
        KvTransferRequest b2 = TokenRequest(2, 7, 0, 30);
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            tx,
                            TokenRequest(1, 0, 0, 60));
        Simulator::Schedule(Seconds(0.1), &KvTransferSender::Enqueue, tx, b2);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        m_perSlot = m_accepted.PerSlot();

        const std::map<uint64_t, std::pair<uint32_t, uint64_t>> sessions = {
            {1, {0, 60 * UNIT}},
            {2, {7, 30 * UNIT}},
        };
        for (const auto& [imsi, spec] : sessions)
        {
            const auto [epoch, total] = spec;
            uint64_t left = total;
            uint64_t slotsAtBudget = 0;
            for (uint64_t slot = 0; slot < 100; ++slot)
            {
                const uint64_t budget = Budget(imsi, epoch, slot);
                const uint64_t got = SentIn(imsi, epoch, slot);
                NS_TEST_ASSERT_MSG_LT_OR_EQ(got, budget, "imsi " << imsi << " slot " << slot);
                if (slot >= 10 && left >= budget)
                {
                    NS_TEST_ASSERT_MSG_EQ(got, budget, "imsi " << imsi << " slot " << slot);
                    slotsAtBudget += budget > 0 ? 1 : 0;
                }
                left -= std::min(left, got);
            }
            NS_TEST_ASSERT_MSG_EQ(left, 0u, "imsi " << imsi << " sent everything");
            NS_TEST_ASSERT_MSG_GT(slotsAtBudget, 5u, "imsi " << imsi << " was rationed");
        }
        // Hand count: imsi 1 gets 4, 6, 2, ... units from slot 10: 12 units per 3 slots, so
        // 60 tokens end in slot 24; imsi 2 gets 3 units in slots 10, 12, ..., 28.
        NS_TEST_ASSERT_MSG_EQ(SentIn(1, 0, 24), 2 * UNIT, "imsi 1's last slot");
        NS_TEST_ASSERT_MSG_EQ(SentIn(1, 0, 25), 0u, "and nothing after");
        NS_TEST_ASSERT_MSG_EQ(SentIn(2, 7, 28), 3 * UNIT, "imsi 2's last slot");
        NS_TEST_ASSERT_MSG_EQ(SentIn(2, 7, 29) + SentIn(2, 7, 30), 0u, "and nothing after");
    }

    bool m_source;                             //!< budgets from a source
    Ptr<SlotBudgetKvTransferPolicy> m_policy;  //!< the policy under test
    edgellm::test::TcpAcceptedData m_accepted; //!< DATA bytes TCP accepted, per slot
    std::map<std::tuple<uint64_t, uint32_t, uint64_t>, uint64_t> m_perSlot; //!< bytes sent by
                                                                            //!< (imsi, epoch,
                                                                            //!< slot)
};

/**
 * \ingroup edge-llm-tests
 * \brief Open transfers and slot budgets by (session, epoch).
 */
class KvTransferOpenTestSuite : public TestSuite
{
  public:
    KvTransferOpenTestSuite()
        : TestSuite("edge-llm-kv-transfer-open")
    {
        AddTestCase(new KvOpenTransferTestCase());
        AddTestCase(new KvSlotBudgetKeyTestCase(false));
        AddTestCase(new KvSlotBudgetKeyTestCase(true));
    }
};

/// The suite's single instance.
static KvTransferOpenTestSuite g_kvTransferOpenTestSuite;
