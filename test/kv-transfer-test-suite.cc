/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "backhaul-frame.h"
#include "kv-transfer-bench.h"
#include "tcp-accepted-data.h"

#include "ns3/backhaul-helper.h"
#include "ns3/config.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/kv-transfer-header.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <map>
#include <vector>

using namespace ns3;
using namespace ns3::edgellm::test;

namespace
{

/// Stream bytes of one TOKENS message of count token IDs.
uint64_t
TokensMessageBytes(uint32_t count)
{
    return KvTransferHeader::SERIALIZED_SIZE +
           uint64_t(count) * KvTransferHeader::BYTES_PER_TOKEN_ID;
}

/// TOKENS messages reported by a receiver's tokens callback.
struct TokensSeen
{
    std::vector<std::array<uint64_t, 4>> seen; //!< (imsi, epoch, first, count)

    void Record(uint64_t imsi, uint32_t epoch, uint32_t first, uint32_t count)
    {
        seen.push_back({imsi, epoch, first, count});
    }

    std::size_t CountOf(uint64_t imsi) const
    {
        return std::count_if(seen.begin(), seen.end(), [imsi](const auto& t) {
            return t[0] == imsi;
        });
    }
};

/**
 * Time from a transfer's enqueue at t = 0.1 s to its completion at the receiver.
 */
Time
MeasureTransfer(DataRate rate, Time delay, uint64_t tokens, uint32_t bufferBytes = 0)
{
    TransferBench b = MakeBench(rate, delay, bufferBytes);
    Completions c;
    b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &c));
    Simulator::Schedule(Seconds(0.1),
                        &KvTransferSender::Enqueue,
                        b.sender,
                        TokenRequest(1, 0, 0, tokens));
    Simulator::Stop(Seconds(30));
    Simulator::Run();
    Simulator::Destroy();
    return c.Of(1) - Seconds(0.1);
}

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief One transfer arrives complete, no faster than the link allows, and is acknowledged.
 */
class KvTransferCompleteTestCase : public TestCase
{
  public:
    KvTransferCompleteTestCase()
        : TestCase("One transfer of N bytes arrives complete and no faster than the link")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("10Gbps");
        TransferBench b = MakeBench(rate, MicroSeconds(50));
        Completions atReceiver;
        Completions atSender;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &atReceiver));
        b.sender->SetCompletionCallback(MakeCallback(&Completions::Record, &atSender));
        const uint32_t tokens = 1000;
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(7, 0, 100, tokens));
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        const uint64_t bytes = tokens * kTokenBytes;
        const KvTransferSenderCounters s = b.sender->GetCounters(7);
        const KvTransferReceiverCounters r = b.receiver->GetCounters(7);
        NS_TEST_ASSERT_MSG_EQ(s.announced, bytes, "announced bytes");
        NS_TEST_ASSERT_MSG_EQ(s.sent, bytes, "every byte handed to TCP");
        NS_TEST_ASSERT_MSG_EQ(s.acked, bytes, "every byte acknowledged");
        NS_TEST_ASSERT_MSG_EQ(r.announced, bytes, "the receiver saw the announcement");
        NS_TEST_ASSERT_MSG_EQ(r.received, bytes, "every byte received");
        NS_TEST_ASSERT_MSG_EQ(atReceiver.done.size(), 1u, "complete exactly once");
        NS_TEST_ASSERT_MSG_EQ(atSender.done.size(), 1u, "acknowledged exactly once");
        const edgellm::RangeSet got = b.receiver->GetReceivedRanges(7);
        NS_TEST_ASSERT_MSG_EQ(got.RangeCount(), 1u, "one range");
        NS_TEST_ASSERT_MSG_EQ(got.Contains({100, 100 + tokens}), true, "the range announced");

        const Time elapsed = atReceiver.Of(7) - Seconds(0.1);
        const double bound = bytes * 8.0 / rate.GetBitRate() + 50e-6;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(elapsed.GetSeconds(), bound, "faster than the link");
        NS_TEST_ASSERT_MSG_LT(elapsed.GetSeconds(), 1.1 * bound, "goodput below 0.9 of the link");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(atSender.Of(7), atReceiver.Of(7), "acked after received");
        // An ACK delayed by ns-3's default 200 ms would make the sender's completion late.
        NS_TEST_ASSERT_MSG_LT(
            atSender.Of(7) - atReceiver.Of(7),
            MilliSeconds(2),
            "the sender learns of the completion within an RTT and a delayed ACK");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief What the sender counts as delivered follows its peer's TCP acknowledgements, byte by
 * byte: never ahead of what the receiver has, and all of it once the transfers are acked.
 */
class KvTransferDeliveredTestCase : public TestCase
{
  public:
    KvTransferDeliveredTestCase()
        : TestCase("A sender's delivered bytes of each session follow its peer's TCP "
                   "acknowledgements: behind the receiver's arrivals during two interleaved "
                   "transfers, equal to them once both are acknowledged")
    {
    }

  private:
    void DoRun() override
    {
        // 100 Mb/s and 5 ms: two transfers of 60 tokens (3.4 MB each) take about 0.55 s,
        // acknowledgements a link delay behind the bytes.
        TransferBench b = MakeBench(DataRate("100Mbps"), MilliSeconds(5));
        const uint32_t tokens = 60;
        for (uint64_t imsi : {1, 2})
        {
            Simulator::Schedule(Seconds(0.1),
                                &KvTransferSender::Enqueue,
                                b.sender,
                                TokenRequest(imsi, 0, 0, tokens));
        }
        uint32_t samples = 0;
        uint32_t ahead = 0;   // samples where the sender counted more than had arrived
        uint32_t partial = 0; // samples with some, not all, of a transfer delivered
        uint32_t overrun = 0; // samples with more delivered than written
        for (int ms = 101; ms < 1500; ++ms)
        {
            Simulator::Schedule(MilliSeconds(ms), [&]() {
                for (uint64_t imsi : {1, 2})
                {
                    const KvTransferSenderCounters c = b.sender->GetCounters(imsi);
                    const uint64_t received = b.receiver->GetCounters(imsi).received;
                    ++samples;
                    ahead += c.deliveredKv > received ? 1 : 0;
                    overrun += c.delivered > c.written ? 1 : 0;
                    partial += c.deliveredKv > 0 && c.acked == 0 ? 1 : 0;
                }
            });
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(ahead, 0u, "delivered ahead of the receiver's arrivals");
        NS_TEST_EXPECT_MSG_EQ(overrun, 0u, "delivered more than written");
        NS_TEST_EXPECT_MSG_GT(partial, 0u, "counted byte by byte, before a transfer is acked");
        for (uint64_t imsi : {1, 2})
        {
            const KvTransferSenderCounters c = b.sender->GetCounters(imsi);
            const uint64_t bytes = uint64_t(tokens) * kTokenBytes;
            NS_TEST_EXPECT_MSG_EQ(c.acked, bytes, "acknowledged whole");
            NS_TEST_EXPECT_MSG_EQ(c.deliveredKv, bytes, "every KV byte delivered");
            NS_TEST_EXPECT_MSG_EQ(b.receiver->GetCounters(imsi).received, bytes, "and received");
            NS_TEST_EXPECT_MSG_EQ(c.delivered, c.written, "every byte written delivered");
            NS_TEST_EXPECT_MSG_GT(c.written, bytes, "headers too");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Two sessions complete in deadline order under EDF, in arrival order under FIFO.
 */
class KvTransferOrderTestCase : public TestCase
{
  public:
    KvTransferOrderTestCase(bool edf)
        : TestCase(edf ? "Under EDF two sessions complete in deadline order"
                       : "Under FIFO two sessions complete in arrival order"),
          m_edf(edf)
    {
    }

  private:
    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        if (m_edf)
        {
            b.sender->SetAttribute("Policy", PointerValue(CreateObject<EdfKvTransferPolicy>()));
        }
        Completions c;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &c));
        KvTransferRequest late = TokenRequest(1, 0, 0, 400);
        late.deadline = Seconds(0.5);
        KvTransferRequest urgent = TokenRequest(2, 0, 0, 400);
        urgent.deadline = Seconds(0.2);
        Simulator::Schedule(Seconds(0.1), &KvTransferSender::Enqueue, b.sender, late);
        Simulator::Schedule(Seconds(0.1), &KvTransferSender::Enqueue, b.sender, urgent);
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(c.done.size(), 2u, "both complete");
        if (m_edf)
        {
            NS_TEST_ASSERT_MSG_LT(c.Of(2), c.Of(1), "the earlier deadline completes first");
        }
        else
        {
            NS_TEST_ASSERT_MSG_LT(c.Of(1), c.Of(2), "the earlier arrival completes first");
        }
        Simulator::Destroy();
    }

    bool m_edf; //!< EDF, or FIFO
};

/**
 * \ingroup edge-llm-tests
 * \brief Cancelling an epoch mid-transfer: bytes announced = sent + withdrawn, and once
 * drained, sent = received + dropped as stale; the next epoch then completes.
 */
class KvTransferCancelTestCase : public TestCase
{
  public:
    KvTransferCancelTestCase()
        : TestCase("Cancel by epoch mid-transfer: the byte counters add up")
    {
    }

  private:
    void Cancel(TransferBench* b)
    {
        m_cancelled = b->sender->Cancel(1, 0);
        b->receiver->ExpectEpoch(1, 1);
        b->sender->Enqueue(TokenRequest(1, 1, 0, 200));
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        Completions c;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &c));
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(1, 0, 0, 2000));
        // 2000 tokens take 92 ms at 10 Gb/s; cancel near the middle.
        Simulator::Schedule(Seconds(0.15), &KvTransferCancelTestCase::Cancel, this, &b);
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        const KvTransferSenderCounters s = b.sender->GetCounters(1);
        const KvTransferReceiverCounters r = b.receiver->GetCounters(1);
        const uint64_t announced = (2000 + 200) * kTokenBytes;
        NS_TEST_ASSERT_MSG_EQ(s.announced, announced, "both epochs announced");
        NS_TEST_ASSERT_MSG_GT(m_cancelled, 0u, "the cancel withdrew bytes");
        NS_TEST_ASSERT_MSG_EQ(s.withdrawn, m_cancelled, "counted as withdrawn");
        NS_TEST_ASSERT_MSG_EQ(s.announced, s.sent + s.withdrawn, "announced = sent + withdrawn");
        NS_TEST_ASSERT_MSG_EQ(s.sent, r.received + r.stale, "sent = received + stale");
        NS_TEST_ASSERT_MSG_GT(r.stale, 0u, "bytes in flight at the cancel were stale");
        NS_TEST_ASSERT_MSG_EQ(r.droppedInvalid, 0u, "nothing else was dropped");
        NS_TEST_ASSERT_MSG_EQ(c.done.size(), 1u, "only the new epoch completes");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetReceivedRanges(1).Count(), 200u, "epoch 1's range");
        NS_TEST_ASSERT_MSG_GT(b.receiver->GetDroppedMessages(KvTransferReceiver::STALE_EPOCH),
                              0u,
                              "stale messages counted");
        Simulator::Destroy();
    }

    uint64_t m_cancelled{0}; //!< what Cancel() returned
};

/**
 * \ingroup edge-llm-tests
 * \brief The application's byte counts agree with the point-to-point devices' own traces.
 */
class KvTransferAgainstLinkTestCase : public TestCase
{
  public:
    KvTransferAgainstLinkTestCase()
        : TestCase("Bytes counted by the application match the link's MacTx and MacRx traces")
    {
    }

  private:
    /// TCP payload of a frame seen at a point-to-point device.
    static void Account(uint64_t* payloadBytes, uint64_t* highestEnd, Ptr<const Packet> frame)
    {
        const edgellm::test::TcpPayload tcp = edgellm::test::ReadTcpPayload(frame);
        *payloadBytes += tcp.bytes;
        if (tcp.bytes > 0)
        {
            *highestEnd = std::max(*highestEnd, tcp.seqEnd);
        }
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        uint64_t txPayload = 0;
        uint64_t txEnd = 0;
        uint64_t rxPayload = 0;
        uint64_t rxEnd = 0;
        b.link.devices.Get(0)->TraceConnectWithoutContext(
            "MacTx",
            MakeBoundCallback(&KvTransferAgainstLinkTestCase::Account, &txPayload, &txEnd));
        b.link.devices.Get(1)->TraceConnectWithoutContext(
            "MacRx",
            MakeBoundCallback(&KvTransferAgainstLinkTestCase::Account, &rxPayload, &rxEnd));
        KvTransferRequest r = TokenRequest(3, 0, 0, 300);
        r.forwardedFirst = 0;
        r.forwardedCount = 4096;
        Simulator::Schedule(Seconds(0.1), &KvTransferSender::Enqueue, b.sender, r);
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        const uint64_t stream = b.sender->GetStreamBytesSent();
        // BEGIN, TOKENS (4 bytes per ID), DATA messages of at most 1 MiB, END.
        const uint64_t kv = 300 * kTokenBytes;
        const uint64_t dataMessages = (300 + 17) / 18; // 18 tokens fit in 1 MiB
        const uint64_t expected = KvTransferHeader::SERIALIZED_SIZE * (3 + dataMessages) +
                                  4096 * KvTransferHeader::BYTES_PER_TOKEN_ID + kv;
        NS_TEST_ASSERT_MSG_EQ(stream, expected, "stream = headers + token IDs + KV bytes");
        // The data's sequence numbers start at 1, after the SYN.
        NS_TEST_ASSERT_MSG_EQ(txEnd - 1, stream, "the sender's device carried the whole stream");
        NS_TEST_ASSERT_MSG_EQ(rxEnd - 1, stream, "the receiver's device got the whole stream");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetStreamBytesReceived(), stream, "and the app read it");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(txPayload, stream, "retransmissions only add");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetCounters(3).tokensForwarded, 4096u, "token IDs");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The receiver's goodput of a DATA message is its path's: never above the bottleneck,
 * which the receiving device's frames give (rate x TCP payload / frame), and at it once TCP's
 * window no longer limits the transfer; one sample per DATA message.
 */
class KvTransferGoodputTestCase : public TestCase
{
  public:
    /// \param rate the link's rate
    explicit KvTransferGoodputTestCase(DataRate rate)
        : TestCase("A DATA message's goodput at the receiver is its link's payload rate (" +
                   std::to_string(rate.GetBitRate() / 1000000) + " Mbps)"),
          m_rate(rate)
    {
    }

  private:
    /// A goodput sample: bytes after the first read over the span.
    struct Sample
    {
        uint64_t bytes;
        Time span;
    };

    /// The largest frame at the receiving device, and its TCP payload.
    struct LargestFrame
    {
        uint32_t frameBytes{0};
        uint32_t payloadBytes{0};
    };

    static void Frame(LargestFrame* largest, Ptr<const Packet> frame)
    {
        if (frame->GetSize() > largest->frameBytes)
        {
            largest->frameBytes = frame->GetSize();
            largest->payloadBytes = edgellm::test::ReadTcpPayload(frame).bytes;
        }
    }

    static void Record(std::vector<Sample>* samples,
                       uint64_t imsi,
                       uint32_t epoch,
                       uint64_t bytes,
                       Time span)
    {
        samples->push_back({bytes, span});
    }

    static void CountData(uint32_t* messages, const KvTransferHeader& h)
    {
        *messages += h.GetMessageType() == KvTransferHeader::DATA ? 1 : 0;
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(m_rate, MilliSeconds(5));
        // One token per message: 57,344 bytes, 6.4 segments of the link's 9,000-byte MTU, so
        // that counting the message's first read too would put a sample 15 % or more too
        // high, and counting only its own payload in its last read up to 15 % too low.
        b.sender->SetAttribute("MaxMessageBytes", UintegerValue(kTokenBytes));
        std::vector<Sample> samples;
        b.receiver->TraceConnectWithoutContext(
            "DataGoodput",
            MakeBoundCallback(&KvTransferGoodputTestCase::Record, &samples));
        std::vector<Sample> called;
        b.receiver->SetGoodputCallback(
            MakeBoundCallback(&KvTransferGoodputTestCase::Record, &called));
        uint32_t dataSent = 0;
        b.sender->TraceConnectWithoutContext(
            "MessageSent",
            MakeBoundCallback(&KvTransferGoodputTestCase::CountData, &dataSent));
        LargestFrame largest;
        b.link.devices.Get(1)->TraceConnectWithoutContext(
            "MacRx",
            MakeBoundCallback(&KvTransferGoodputTestCase::Frame, &largest));
        const uint32_t tokens = 120;
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(1, 0, 0, tokens));
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(dataSent, tokens, "one DATA message per token");
        NS_TEST_ASSERT_MSG_EQ(samples.size(), dataSent, "one sample per DATA message");
        NS_TEST_ASSERT_MSG_EQ(called.size(), samples.size(), "the callback sees each sample");
        NS_TEST_ASSERT_MSG_GT(largest.payloadBytes, 0u, "full-sized segments reached the device");
        // A full frame takes frameBytes * 8 / rate on the wire and brings payloadBytes.
        const double bottleneck = static_cast<double>(m_rate.GetBitRate()) / 8.0 *
                                  largest.payloadBytes / largest.frameBytes;
        std::vector<double> rates;
        for (const Sample& x : samples)
        {
            NS_TEST_ASSERT_MSG_GT(x.bytes, 0u, "bytes after the first read");
            NS_TEST_ASSERT_MSG_LT(x.bytes,
                                  kTokenBytes + largest.payloadBytes,
                                  "the first read is left out");
            rates.push_back(static_cast<double>(x.bytes) / x.span.GetSeconds());
            NS_TEST_ASSERT_MSG_LT_OR_EQ(rates.back(),
                                        bottleneck * 1.001,
                                        "no message arrives faster than the bottleneck");
        }
        // The later half of the transfer runs with a window past the path's bandwidth-delay
        // product: its messages arrive back to back at the bottleneck's rate.
        std::vector<double> later(rates.begin() + rates.size() / 2, rates.end());
        std::sort(later.begin(), later.end());
        const double median = later[(later.size() - 1) / 2];
        NS_TEST_ASSERT_MSG_EQ_TOL(median / bottleneck, 1.0, 0.01, "at the bottleneck's rate");
        // TCP's initial window (10 segments) holds the first message and a half: the second
        // waits a round trip of 10 ms for acknowledgements, and its goodput shows it.
        NS_TEST_ASSERT_MSG_LT(*std::min_element(rates.begin(), rates.begin() + 3),
                              0.6 * bottleneck,
                              "a message that waited for the window is slower");
        Simulator::Destroy();
    }

    DataRate m_rate; //!< the link's
};

/**
 * \ingroup edge-llm-tests
 * \brief The delay comes from the packets: half the rate takes about twice as long, and with
 * small socket buffers over a long link the window limits it as TCP predicts.
 */
class KvTransferDelayTestCase : public TestCase
{
  public:
    KvTransferDelayTestCase()
        : TestCase("Transfer time follows the link rate, and the window over a long link")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t tokens = 400; // 22.9 MB
        const Time full = MeasureTransfer(DataRate("2Gbps"), MicroSeconds(50), tokens);
        const Time half = MeasureTransfer(DataRate("1Gbps"), MicroSeconds(50), tokens);
        const double ratio = half.GetSeconds() / full.GetSeconds();
        NS_TEST_ASSERT_MSG_GT(ratio, 1.9, "half the rate should take about twice as long");
        NS_TEST_ASSERT_MSG_LT(ratio, 2.1, "half the rate should take about twice as long");

        // A 64 KiB window over a 10 ms round trip carries 64 KiB per RTT, far below 1 Gb/s.
        const uint32_t window = 65536;
        const Time delay = MilliSeconds(5);
        const uint64_t smallTokens = 40; // 2.3 MB
        const Time windowed = MeasureTransfer(DataRate("1Gbps"), delay, smallTokens, window);
        const double rtt = 2 * delay.GetSeconds();
        const double predicted = smallTokens * kTokenBytes / (window / rtt);
        NS_TEST_ASSERT_MSG_GT(windowed.GetSeconds(), 0.9 * predicted, "window-limited time");
        NS_TEST_ASSERT_MSG_LT(windowed.GetSeconds(), 1.25 * predicted, "window-limited time");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A per-slot budget caps the bytes a session sends in each slot.
 */
class KvTransferSlotBudgetTestCase : public TestCase
{
  public:
    KvTransferSlotBudgetTestCase()
        : TestCase("Per-slot byte budgets cap what each slot sends")
    {
    }

  private:
    void Sent(const KvTransferHeader& h)
    {
        if (h.GetMessageType() == KvTransferHeader::DATA)
        {
            const uint64_t slot = m_policy->GetSlotIndex(Simulator::Now());
            m_perSlot.resize(std::max<std::size_t>(m_perSlot.size(), slot + 1), 0);
            m_perSlot[slot] += h.GetPayloadBytes();
        }
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        m_policy = CreateObject<SlotBudgetKvTransferPolicy>();
        m_policy->SetAttribute("SlotDuration", TimeValue(MilliSeconds(10)));
        const uint64_t budget = 50 * kTokenBytes;
        m_policy->SetBudget(4, 0, budget);
        b.sender->SetAttribute("Policy", PointerValue(m_policy));
        b.sender->TraceConnectWithoutContext(
            "MessageSent",
            MakeCallback(&KvTransferSlotBudgetTestCase::Sent, this));
        Completions c;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &c));
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(4, 0, 0, 500));
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        uint64_t total = 0;
        std::size_t used = 0;
        for (uint64_t bytes : m_perSlot)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(bytes, budget, "a slot sent more than its budget");
            total += bytes;
            used += bytes > 0 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(total, 500 * kTokenBytes, "everything was sent");
        NS_TEST_ASSERT_MSG_EQ(used, 10u, "500 tokens at 50 per slot take 10 slots");
        NS_TEST_ASSERT_MSG_EQ(c.done.size(), 1u, "and arrive");
        // Without the budget the link would carry them in 23 ms.
        NS_TEST_ASSERT_MSG_GT(c.Of(4), Seconds(0.19), "the budget, not the link, set the pace");
        Simulator::Destroy();
    }

    Ptr<SlotBudgetKvTransferPolicy> m_policy; //!< the policy under test
    std::vector<uint64_t> m_perSlot;          //!< KV bytes sent per slot
};

/**
 * \ingroup edge-llm-tests
 * \brief Slot budgets hold for the bytes TCP accepts, also when a message outlasts its slot.
 *
 * Two sessions share one sender whose messages may hold a whole slot's budget and whose small
 * socket buffer takes a message in many writes. Queued near a slot's end, or with budgets that
 * fall from one slot to the next, the last message of a slot is still being written when the
 * next slot starts. The bytes are counted where TCP accepts them (its send buffer's tail at
 * each slot's start), against budgets written here.
 */
class KvTransferSlotBudgetAtTcpTestCase : public TestCase
{
  public:
    /// One configuration of the case.
    struct Setup
    {
        const char* name;     //!< for the messages
        DataRate rate;        //!< the link's rate
        uint32_t bufferBytes; //!< the sockets' buffers
        Time enqueueAt;       //!< when both transfers are queued
        bool schedule;        //!< budgets from a source that changes every slot; else fixed
        Time due;             //!< both complete before: the budgets' pace, or the link's
    };

    KvTransferSlotBudgetAtTcpTestCase()
        : TestCase("Slot budgets bound the DATA bytes TCP accepts in each slot, also when a "
                   "message outlasts its slot")
    {
    }

  private:
    static constexpr uint32_t kTokens = 200; //!< tokens of each session
    static constexpr int64_t kSlotMs = 10;   //!< slot length

    /// The budget of imsi 1 or 2 in a slot, in bytes: fixed, or a schedule that falls from
    /// 24 to 8 tokens (imsi 1) and rises from 8 to 24 (imsi 2) every three slots.
    static uint64_t Budget(bool schedule, uint64_t imsi, uint64_t slot)
    {
        if (!schedule)
        {
            return (imsi == 1 ? 20 : 12) * kTokenBytes;
        }
        const uint64_t phase = slot % 3;
        return (imsi == 1 ? 3 - phase : phase + 1) * 8 * kTokenBytes;
    }

    static uint64_t Source(uint64_t imsi, uint32_t /* epoch */, uint64_t slot)
    {
        return Budget(true, imsi, slot);
    }

    void DoRun() override
    {
        // Due: imsi 2's 200 tokens at 12 a slot end in slot 27; at 16 a slot on average, in
        // slot 23; 23 MB over about 0.8 Gb/s of a 32 KiB window take about 230 ms.
        for (const Setup& setup : {Setup{"fixed budgets, 10 Gbps, 64 KiB buffer",
                                         DataRate("10Gbps"),
                                         65536,
                                         MicroSeconds(109500),
                                         false,
                                         MilliSeconds(300)},
                                   Setup{"changing budgets, 10 Gbps, 64 KiB buffer",
                                         DataRate("10Gbps"),
                                         65536,
                                         MilliSeconds(107),
                                         true,
                                         MilliSeconds(260)},
                                   Setup{"changing budgets, 1 Gbps, 32 KiB buffer",
                                         DataRate("1Gbps"),
                                         32768,
                                         MilliSeconds(103),
                                         true,
                                         MilliSeconds(450)}})
        {
            RunOne(setup);
        }
    }

    /// Run one configuration and check it.
    void RunOne(const Setup& setup)
    {
        const Time slot = MilliSeconds(kSlotMs);
        const Time end = Seconds(1);
        TransferBench b = MakeBench(setup.rate, MicroSeconds(50), setup.bufferBytes);
        Ptr<SlotBudgetKvTransferPolicy> policy = CreateObject<SlotBudgetKvTransferPolicy>();
        policy->SetAttribute("SlotDuration", TimeValue(slot));
        if (setup.schedule)
        {
            policy->SetBudgetSource(MakeCallback(&KvTransferSlotBudgetAtTcpTestCase::Source));
        }
        else
        {
            policy->SetBudget(1, 0, Budget(false, 1, 0));
            policy->SetBudget(2, 0, Budget(false, 2, 0));
        }
        b.sender->SetAttribute("Policy", PointerValue(policy));
        // A message may hold a slot's whole budget.
        b.sender->SetAttribute("MaxMessageBytes", UintegerValue(32 * kTokenBytes));
        UintegerValue port;
        b.appB->GetAttribute("Port", port);
        TcpAcceptedData accepted;
        accepted.Watch(b.sender,
                       b.nodes.Get(0),
                       InetSocketAddress(b.link.addressB, static_cast<uint16_t>(port.Get())),
                       slot,
                       end);
        Completions c;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &c));
        Simulator::Schedule(setup.enqueueAt,
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(1, 0, 0, kTokens));
        Simulator::Schedule(setup.enqueueAt,
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(2, 0, 0, kTokens));
        Simulator::Stop(end);
        Simulator::Run();
        // Before any check, so that a failed one leaves no simulation to the next setup.
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(accepted.FoundSocket(), true, "the sender's socket");
        NS_TEST_ASSERT_MSG_EQ(accepted.GetAcceptedBytes(),
                              accepted.GetStreamBytes(),
                              "every message is whole in TCP");
        std::map<uint64_t, uint64_t> total;
        std::map<uint64_t, uint64_t> slotsUsed;
        for (const auto& [key, bytes] : accepted.PerSlot())
        {
            const auto [imsi, epoch, k] = key;
            const uint64_t budget = Budget(setup.schedule, imsi, k);
            // Every slot over its budget is reported, not only the first.
            NS_TEST_EXPECT_MSG_LT_OR_EQ(bytes,
                                        budget,
                                        setup.name << ": imsi " << imsi << " slot " << k
                                                   << ": TCP accepted " << bytes
                                                   << " DATA bytes, over its budget");
            total[imsi] += bytes;
            ++slotsUsed[imsi];
        }
        for (uint64_t imsi : {1u, 2u})
        {
            NS_TEST_ASSERT_MSG_EQ(total[imsi], kTokens * kTokenBytes, "imsi " << imsi << " whole");
            NS_TEST_ASSERT_MSG_GT(slotsUsed[imsi], 6u, "imsi " << imsi << " over many slots");
            // Rationed, not stalled.
            NS_TEST_ASSERT_MSG_LT(c.Of(imsi), setup.due, "imsi " << imsi << " complete in time");
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Ranges in importance order (ENTRY units), forwarded token IDs and small messages:
 * every range arrives, the tokens callback reports the IDs, and messages respect their cap.
 */
class KvTransferRangesTestCase : public TestCase
{
  public:
    KvTransferRangesTestCase()
        : TestCase("Several entry ranges, forwarded token IDs and a message cap")
    {
    }

  private:
    void Tokens(uint64_t imsi, uint32_t epoch, uint32_t first, uint32_t count)
    {
        m_tokens.push_back({imsi, epoch, first, count});
    }

    void Sent(const KvTransferHeader& h)
    {
        if (h.GetMessageType() == KvTransferHeader::DATA)
        {
            m_largest = std::max(m_largest, h.GetPayloadBytes());
            m_order.push_back(h.GetFirst());
        }
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        b.sender->SetAttribute("MaxMessageBytes", UintegerValue(10000));
        b.sender->TraceConnectWithoutContext("MessageSent",
                                             MakeCallback(&KvTransferRangesTestCase::Sent, this));
        b.receiver->SetTokensCallback(MakeCallback(&KvTransferRangesTestCase::Tokens, this));
        Completions c;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &c));
        KvTransferRequest r;
        r.imsi = 9;
        r.epoch = 3;
        r.unit = KvTransferHeader::ENTRY;
        r.ranges = {{500, 520}, {0, 7}, {100, 101}}; // the most important first
        r.bytesPerUnit = 4096;
        r.forwardedFirst = 40;
        r.forwardedCount = 60;
        Simulator::Schedule(Seconds(0.1), &KvTransferSender::Enqueue, b.sender, r);
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(c.done.size(), 1u, "complete once");
        const edgellm::RangeSet got = b.receiver->GetReceivedRanges(9);
        NS_TEST_ASSERT_MSG_EQ(got.Count(), 28u, "every entry");
        NS_TEST_ASSERT_MSG_EQ(got.Contains({500, 520}), true, "the first range");
        NS_TEST_ASSERT_MSG_EQ(got.Contains({0, 7}), true, "the second range");
        NS_TEST_ASSERT_MSG_EQ(got.Contains({100, 101}), true, "the third range");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetCounters(9).received, 28u * 4096, "bytes");
        NS_TEST_ASSERT_MSG_EQ(m_tokens.size(), 1u, "one TOKENS message");
        if (!m_tokens.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(m_tokens[0][2], 40u, "first token ID");
            NS_TEST_ASSERT_MSG_EQ(m_tokens[0][3], 60u, "token IDs");
            NS_TEST_ASSERT_MSG_EQ(m_tokens[0][1], 3u, "epoch");
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(m_largest, 8192u, "two 4096-byte entries fit 10000 bytes");
        // Two entries a message, nothing rationed: ceil(20/2) + ceil(7/2) + ceil(1/2) = 15.
        NS_TEST_ASSERT_MSG_EQ(m_order.size(), 15u, "DATA messages on the wire");
        NS_TEST_ASSERT_MSG_EQ(b.sender->GetCounters(9).messages, 15u, "DATA messages counted");
        NS_TEST_ASSERT_MSG_EQ(!m_order.empty() && m_order.front() == 500u,
                              true,
                              "the given order, not sorted");
        Simulator::Destroy();
    }

    std::vector<std::array<uint64_t, 4>> m_tokens; //!< TOKENS reported
    uint64_t m_largest{0};                         //!< largest DATA payload sent
    std::vector<uint32_t> m_order;                 //!< first entry of each DATA, in order
};

/**
 * \ingroup edge-llm-tests
 * \brief What the peer never heard of is withdrawn silently; a CANCEL the receiver gets stops
 * the epoch without an epoch change; a newer epoch supersedes a queued older one.
 */
class KvTransferWithdrawTestCase : public TestCase
{
  public:
    KvTransferWithdrawTestCase()
        : TestCase("Withdrawn before the peer heard; CANCEL at the receiver; newer epochs")
    {
    }

  private:
    void Heard(const KvTransferHeader& h)
    {
        ++m_heard[h.GetImsi()];
    }

    /// Queue session 2 behind session 1's data, and cancel it at once.
    void QueueAndCancel(TransferBench* b)
    {
        KvTransferRequest r = TokenRequest(2, 0, 0, 50);
        r.forwardedCount = 30000;
        b->sender->Enqueue(r);
        m_withdrawn = b->sender->Cancel(2, 0);
    }

    /// Cancel session 3 after its BEGIN and some data went, without a new epoch.
    void CancelThree(TransferBench* b)
    {
        b->sender->Cancel(3, 0);
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        b.receiver->TraceConnectWithoutContext(
            "MessageReceived",
            MakeCallback(&KvTransferWithdrawTestCase::Heard, this));
        Completions c;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &c));
        // Session 1 fills the socket; session 2 waits behind it and is withdrawn.
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(1, 0, 0, 200));
        Simulator::Schedule(Seconds(0.1) + MicroSeconds(1),
                            &KvTransferWithdrawTestCase::QueueAndCancel,
                            this,
                            &b);
        // Session 3 is cancelled mid-transfer with no new epoch at the receiver.
        Simulator::Schedule(Seconds(0.2),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(3, 0, 0, 1000));
        Simulator::Schedule(Seconds(0.22), &KvTransferWithdrawTestCase::CancelThree, this, &b);
        // Session 4's epoch 1 supersedes its epoch 0 while epoch 0 still waits.
        Simulator::Schedule(Seconds(0.3),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(4, 0, 0, 1000));
        Simulator::Schedule(Seconds(0.3) + MicroSeconds(50),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(4, 1, 0, 10));
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_withdrawn, 50u * kTokenBytes, "all of session 2 withdrawn");
        NS_TEST_ASSERT_MSG_EQ(m_heard.count(2), 0u, "the peer never heard of session 2");
        NS_TEST_ASSERT_MSG_EQ(b.sender->GetCounters(2).sent, 0u, "nothing of it sent");

        const KvTransferSenderCounters s3 = b.sender->GetCounters(3);
        const KvTransferReceiverCounters r3 = b.receiver->GetCounters(3);
        NS_TEST_ASSERT_MSG_GT(s3.withdrawn, 0u, "session 3 was cut short");
        NS_TEST_ASSERT_MSG_EQ(s3.announced, s3.sent + s3.withdrawn, "announced = sent + withdrawn");
        NS_TEST_ASSERT_MSG_EQ(s3.sent, r3.received + r3.stale, "sent = received + stale");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->IsComplete(3),
                              false,
                              "a cancelled epoch is not complete");

        const KvTransferSenderCounters s4 = b.sender->GetCounters(4);
        NS_TEST_ASSERT_MSG_GT(s4.withdrawn, 0u, "epoch 0 was superseded");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->IsComplete(4), true, "epoch 1 completes");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetReceivedRanges(4).Count(), 10u, "epoch 1's range");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetCounters(4).received +
                                  b.receiver->GetCounters(4).stale,
                              s4.sent,
                              "sent = received + stale for the superseded session too");
        uint32_t completions1 = 0;
        for (const auto& [imsi, t] : c.done)
        {
            completions1 += imsi == 1 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(completions1, 1u, "session 1 is unaffected");
        Simulator::Destroy();
    }

    uint64_t m_withdrawn{0};              //!< what Cancel(2, 0) returned
    std::map<uint64_t, uint32_t> m_heard; //!< messages the receiver read, by session
};

/**
 * \ingroup edge-llm-tests
 * \brief A tokens-only transfer is one TOKENS message: the tokens callback reports it, no KV
 * byte is counted, the sender's completion follows its acknowledgement, and the receiver's
 * completion never fires. A TOKENS message of an older epoch than expected is dropped.
 */
class KvTransferTokensOnlyTestCase : public TestCase
{
  public:
    KvTransferTokensOnlyTestCase()
        : TestCase("A tokens-only transfer arrives as one TOKENS message, with no KV byte")
    {
    }

  private:
    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        TokensSeen tokens;
        b.receiver->SetTokensCallback(MakeCallback(&TokensSeen::Record, &tokens));
        Completions atReceiver;
        Completions atSender;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &atReceiver));
        b.sender->SetCompletionCallback(MakeCallback(&Completions::Record, &atSender));
        // The host of the target expects the handover's epoch before the sender sends.
        b.receiver->ExpectEpoch(5, 2);
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            ForwardRequest(5, 2, 1000, 3000));
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(tokens.seen.size(), 1u, "one TOKENS message reported");
        if (!tokens.seen.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(tokens.seen[0][0], 5u, "imsi");
            NS_TEST_ASSERT_MSG_EQ(tokens.seen[0][1], 2u, "the expected epoch");
            NS_TEST_ASSERT_MSG_EQ(tokens.seen[0][2], 1000u, "first token ID");
            NS_TEST_ASSERT_MSG_EQ(tokens.seen[0][3], 3000u, "token IDs");
        }
        const uint64_t stream = TokensMessageBytes(3000);
        NS_TEST_ASSERT_MSG_EQ(b.sender->GetStreamBytesSent(),
                              stream,
                              "no BEGIN, DATA or END: one header and the IDs");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetStreamBytesReceived(), stream, "all read");
        const KvTransferSenderCounters s = b.sender->GetCounters(5);
        NS_TEST_ASSERT_MSG_EQ(s.announced, 0u, "no KV byte announced");
        NS_TEST_ASSERT_MSG_EQ(s.sent, 0u, "no KV byte sent");
        NS_TEST_ASSERT_MSG_EQ(s.withdrawn, 0u, "nothing cancelled");
        const KvTransferReceiverCounters r = b.receiver->GetCounters(5);
        NS_TEST_ASSERT_MSG_EQ(r.announced, 0u, "the receiver saw no announcement");
        NS_TEST_ASSERT_MSG_EQ(r.received, 0u, "nor KV bytes");
        NS_TEST_ASSERT_MSG_EQ(r.tokensForwarded, 3000u, "token IDs counted");
        NS_TEST_ASSERT_MSG_EQ(atSender.done.size(), 1u, "the sender completes once");
        NS_TEST_ASSERT_MSG_GT(atSender.Of(5), Seconds(0.1), "after the acknowledgement");
        NS_TEST_ASSERT_MSG_EQ(atReceiver.done.size(), 0u, "nothing announced, nothing completes");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->IsComplete(5), false, "not complete");
        Simulator::Destroy();

        // The host has moved on to epoch 5: a tokens-only transfer of epoch 4 is stale.
        TransferBench c = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        TokensSeen late;
        c.receiver->SetTokensCallback(MakeCallback(&TokensSeen::Record, &late));
        c.receiver->ExpectEpoch(6, 5);
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            c.sender,
                            ForwardRequest(6, 4, 0, 100));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(c.receiver->GetStreamBytesReceived(),
                              TokensMessageBytes(100),
                              "the message arrived");
        NS_TEST_ASSERT_MSG_EQ(late.seen.size(), 0u, "a stale TOKENS is not reported");
        NS_TEST_ASSERT_MSG_EQ(c.receiver->GetDroppedMessages(KvTransferReceiver::STALE_EPOCH),
                              1u,
                              "it is dropped as stale");
        NS_TEST_ASSERT_MSG_EQ(c.receiver->GetCounters(6).tokensForwarded, 0u, "and not counted");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A tokens-only transfer that has not reached TCP is withdrawn without a trace, by
 * Cancel or by a newer epoch of its session.
 */
class KvTransferTokensOnlyCancelTestCase : public TestCase
{
  public:
    KvTransferTokensOnlyCancelTestCase()
        : TestCase("A tokens-only transfer cancelled before TCP took it sends nothing")
    {
    }

  private:
    void Heard(const KvTransferHeader& h)
    {
        ++m_heard[h.GetImsi()];
    }

    void Cancelled(uint64_t imsi, uint32_t epoch, uint64_t bytes)
    {
        m_cancelled.push_back({imsi, epoch, bytes});
    }

    /// Behind session 1's data: session 2 is cancelled, session 3's epoch 0 superseded.
    void QueueAndWithdraw(TransferBench* b)
    {
        b->sender->Enqueue(ForwardRequest(2, 0, 0, 5000));
        m_withdrawn = b->sender->Cancel(2, 0);
        b->sender->Enqueue(ForwardRequest(3, 0, 0, 700));
        b->receiver->ExpectEpoch(3, 1);
        b->sender->Enqueue(ForwardRequest(3, 1, 0, 800));
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        b.receiver->TraceConnectWithoutContext(
            "MessageReceived",
            MakeCallback(&KvTransferTokensOnlyCancelTestCase::Heard, this));
        b.sender->TraceConnectWithoutContext(
            "TransferCancelled",
            MakeCallback(&KvTransferTokensOnlyCancelTestCase::Cancelled, this));
        TokensSeen tokens;
        b.receiver->SetTokensCallback(MakeCallback(&TokensSeen::Record, &tokens));
        Completions atSender;
        b.sender->SetCompletionCallback(MakeCallback(&Completions::Record, &atSender));
        // Session 1's 1 MiB messages fill the socket, so what follows waits out of TCP.
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(1, 0, 0, 200));
        Simulator::Schedule(Seconds(0.1) + MicroSeconds(1),
                            &KvTransferTokensOnlyCancelTestCase::QueueAndWithdraw,
                            this,
                            &b);
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_withdrawn, 0u, "a tokens-only transfer withdraws no KV byte");
        NS_TEST_ASSERT_MSG_EQ(m_heard.count(2), 0u, "the peer never heard of session 2");
        NS_TEST_ASSERT_MSG_EQ(tokens.CountOf(2), 0u, "nor of its token IDs");
        NS_TEST_ASSERT_MSG_EQ(atSender.Of(2), Time::Max(), "a cancelled transfer never completes");
        NS_TEST_ASSERT_MSG_EQ(m_heard[3], 1u, "session 3: only its newer epoch's TOKENS");
        NS_TEST_ASSERT_MSG_EQ(tokens.CountOf(3), 1u, "reported once");
        if (tokens.CountOf(3) == 1)
        {
            const auto three = *std::find_if(tokens.seen.begin(),
                                             tokens.seen.end(),
                                             [](const auto& t) { return t[0] == 3; });
            NS_TEST_ASSERT_MSG_EQ(three[1], 1u, "epoch 1");
            NS_TEST_ASSERT_MSG_EQ(three[3], 800u, "its token IDs");
        }
        NS_TEST_ASSERT_MSG_EQ(m_cancelled.size(), 2u, "two transfers withdrawn");
        for (const auto& c : m_cancelled)
        {
            NS_TEST_ASSERT_MSG_EQ(c[2], 0u, "of no KV byte");
        }
        // Session 1 in full, then session 3's epoch 1; none of session 2, no CANCEL.
        const uint64_t dataMessages = (200 + 17) / 18; // 18 tokens fit in 1 MiB
        const uint64_t expected = KvTransferHeader::SERIALIZED_SIZE * (2 + dataMessages) +
                                  200 * kTokenBytes + TokensMessageBytes(800);
        NS_TEST_ASSERT_MSG_EQ(b.sender->GetStreamBytesSent(), expected, "nothing else was sent");
        Simulator::Destroy();
    }

    uint64_t m_withdrawn{1};                          //!< what Cancel(2, 0) returned
    std::map<uint64_t, uint32_t> m_heard;             //!< messages read, by session
    std::vector<std::array<uint64_t, 3>> m_cancelled; //!< TransferCancelled traces
};

/**
 * \ingroup edge-llm-tests
 * \brief GetBacklogBytes is the KV bytes queued and not yet in TCP: all of them before the
 * connection opens, announced - sent while data flows, and 0 once TCP has taken everything.
 */
class KvTransferBacklogTestCase : public TestCase
{
  public:
    KvTransferBacklogTestCase()
        : TestCase("GetBacklogBytes counts the KV bytes queued and not yet in TCP")
    {
    }

  private:
    /// Check the backlog against the counters, while data is still queued.
    void Sample(Ptr<KvTransferSender> sender)
    {
        uint64_t pending = 0;
        for (uint64_t imsi : {1, 2, 3})
        {
            const KvTransferSenderCounters c = sender->GetCounters(imsi);
            pending += c.announced - c.sent - c.withdrawn;
        }
        m_samples.push_back({sender->GetBacklogBytes(), pending});
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        // Before the simulator runs there is no connection, so everything waits.
        b.sender->Enqueue(TokenRequest(1, 0, 0, 100));
        NS_TEST_ASSERT_MSG_EQ(b.sender->GetBacklogBytes(), 100 * kTokenBytes, "the first");
        b.sender->Enqueue(TokenRequest(2, 0, 0, 50));
        b.sender->Enqueue(ForwardRequest(3, 0, 0, 4000));
        NS_TEST_ASSERT_MSG_EQ(b.sender->GetBacklogBytes(),
                              150 * kTokenBytes,
                              "both KV transfers; token IDs are not KV bytes");
        // 150 tokens take 6.9 ms at 10 Gb/s once the connection is open.
        for (int us = 100; us <= 3000; us += 97)
        {
            Simulator::Schedule(MicroSeconds(us),
                                &KvTransferBacklogTestCase::Sample,
                                this,
                                b.sender);
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        bool partial = false;
        for (const auto& [backlog, pending] : m_samples)
        {
            NS_TEST_ASSERT_MSG_EQ(backlog, pending, "backlog = announced - sent - withdrawn");
            partial = partial || (backlog > 0 && backlog < 150 * kTokenBytes);
        }
        NS_TEST_ASSERT_MSG_EQ(partial, true, "a sample fell while data was flowing");
        NS_TEST_ASSERT_MSG_EQ(b.sender->GetBacklogBytes(), 0u, "everything is in TCP");
        NS_TEST_ASSERT_MSG_EQ(b.sender->GetCounters(1).sent + b.sender->GetCounters(2).sent,
                              150 * kTokenBytes,
                              "and was sent");
        Simulator::Destroy();
    }

    std::vector<std::pair<uint64_t, uint64_t>> m_samples; //!< (backlog, announced - sent)
};

/**
 * \ingroup edge-llm-tests
 * \brief A receiver stopped from its own completion callback stops cleanly: no callback
 * after the stop, and no crash.
 */
class KvTransferStopInCallbackTestCase : public TestCase
{
  public:
    KvTransferStopInCallbackTestCase()
        : TestCase("A receiver stopped from its completion callback stops cleanly")
    {
    }

  private:
    void Complete(uint64_t imsi, uint32_t /* epoch */)
    {
        ++m_completions;
        m_receiver->Stop();
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("10Gbps"), MicroSeconds(50));
        m_receiver = b.receiver;
        b.receiver->SetCompleteCallback(
            MakeCallback(&KvTransferStopInCallbackTestCase::Complete, this));
        // Two small sessions whose messages reach the receiver in one read.
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(1, 0, 0, 1));
        Simulator::Schedule(Seconds(0.1),
                            &KvTransferSender::Enqueue,
                            b.sender,
                            TokenRequest(2, 0, 0, 1));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_completions, 1u, "nothing after the stop");
        m_receiver = nullptr;
        Simulator::Destroy();
    }

    Ptr<KvTransferReceiver> m_receiver; //!< the receiver under test
    uint32_t m_completions{0};          //!< completions seen
};

/**
 * \ingroup edge-llm-tests
 * \brief Bad messages are dropped and counted, their bytes consumed, and the stream keeps its
 * framing even when headers straddle reads.
 */
class KvTransferDropTestCase : public TestCase
{
  public:
    KvTransferDropTestCase()
        : TestCase("Unknown, stale and out-of-range messages are dropped; framing survives")
    {
    }

  private:
    /// Append a message (header and virtual payload) to the raw stream.
    void Append(const KvTransferHeader& h)
    {
        Ptr<Packet> p = Create<Packet>(static_cast<uint32_t>(h.GetFollowingBytes()));
        p->AddHeader(h);
        m_stream->AddAtEnd(p);
    }

    /// Send the raw stream in 7-byte pieces, 1 ms apart, so headers straddle reads.
    void SendPiece(Ptr<Socket> socket, uint32_t offset)
    {
        const uint32_t k = std::min<uint32_t>(7, m_stream->GetSize() - offset);
        socket->Send(m_stream->CreateFragment(offset, k));
        if (offset + k < m_stream->GetSize())
        {
            Simulator::Schedule(MilliSeconds(1),
                                &KvTransferDropTestCase::SendPiece,
                                this,
                                socket,
                                offset + k);
        }
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("1Gbps"), MicroSeconds(50));
        using H = KvTransferHeader;
        m_stream = Create<Packet>();
        Append(H::Make(H::DATA, 9, 0, H::TOKEN, 0, 2, 20)); // unknown session
        Append(H::Make(H::BEGIN, 5, 2, H::TOKEN, 0, 10, 100));
        Append(H::Make(H::DATA, 5, 2, H::TOKEN, 5, 10, 100)); // beyond the announced range
        Append(H::Make(H::DATA, 5, 1, H::TOKEN, 0, 2, 20));   // older epoch
        Append(H::Make(H::DATA, 5, 2, H::TOKEN, 0, 4, 40));
        Append(H::Make(H::DATA, 5, 2, H::TOKEN, 2, 2, 20)); // received already
        Append(H::Make(H::DATA, 5, 2, H::TOKEN, 4, 6, 60));
        Append(H::Make(H::END, 5, 2, H::TOKEN, 0, 0, 0));

        Completions c;
        b.receiver->SetCompleteCallback(MakeCallback(&Completions::Record, &c));
        Ptr<Socket> raw = Socket::CreateSocket(b.nodes.Get(0), TcpSocketFactory::GetTypeId());
        raw->Bind(InetSocketAddress(b.link.addressA, 0));
        Simulator::Schedule(Seconds(0.1), [raw, &b]() {
            raw->Connect(InetSocketAddress(b.link.addressB, 7100));
        });
        Simulator::Schedule(Seconds(0.2), &KvTransferDropTestCase::SendPiece, this, raw, 0);
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        using R = KvTransferReceiver;
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetStreamBytesReceived(),
                              m_stream->GetSize(),
                              "all read");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetDroppedMessages(R::UNKNOWN_SESSION), 1u, "unknown");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetDroppedMessages(R::STALE_EPOCH), 1u, "stale");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetDroppedMessages(R::OUT_OF_RANGE), 2u, "out of range");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetCounters(9).droppedInvalid, 20u, "unknown bytes");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetCounters(5).stale, 20u, "stale bytes");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetCounters(5).droppedInvalid, 120u, "invalid bytes");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetCounters(5).received, 100u, "valid bytes");
        NS_TEST_ASSERT_MSG_EQ(c.done.size(), 1u, "the valid messages complete the session");
        Simulator::Destroy();
    }

    Ptr<Packet> m_stream; //!< the raw byte stream
};

/**
 * \ingroup edge-llm-tests
 * \brief BackhaulHelper links neighbours only, each on its own /30, with the MTU asked for,
 * and no queue disc unless one is named.
 */
class BackhaulHelperTestCase : public TestCase
{
  public:
    BackhaulHelperTestCase()
        : TestCase("BackhaulHelper: neighbour links, one subnet each, MTU, queue disc")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer line;
        line.Create(4);
        InternetStackHelper internet;
        internet.Install(line);
        Ptr<BackhaulHelper> helper = CreateObject<BackhaulHelper>();
        const std::vector<BackhaulLink> links = helper->InstallLine(line);
        NS_TEST_ASSERT_MSG_EQ(links.size(), 3u, "n - 1 links for n nodes, not a mesh");
        NS_TEST_ASSERT_MSG_EQ(helper->Find(line.Get(0), line.Get(2)), nullptr, "no 0-2 link");
        NS_TEST_ASSERT_MSG_NE(helper->Find(line.Get(2), line.Get(1)), nullptr, "either order");
        for (std::size_t i = 0; i < links.size(); ++i)
        {
            const BackhaulLink& l = links[i];
            NS_TEST_ASSERT_MSG_EQ(l.addressA.CombineMask(Ipv4Mask("/30")),
                                  l.addressB.CombineMask(Ipv4Mask("/30")),
                                  "both ends on one /30");
            for (std::size_t j = 0; j < i; ++j)
            {
                NS_TEST_ASSERT_MSG_NE(l.addressA.CombineMask(Ipv4Mask("/30")),
                                      links[j].addressA.CombineMask(Ipv4Mask("/30")),
                                      "each link has its own /30");
            }
            for (uint32_t d = 0; d < 2; ++d)
            {
                Ptr<NetDevice> dev = l.devices.Get(d);
                NS_TEST_ASSERT_MSG_EQ(dev->GetMtu(), 9000u, "jumbo frames by default");
                Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
                NS_TEST_ASSERT_MSG_EQ(tc->GetRootQueueDiscOnDevice(dev),
                                      nullptr,
                                      "the queue disc Assign installs is removed");
            }
        }

        NodeContainer pair;
        pair.Create(2);
        internet.Install(pair);
        Ptr<BackhaulHelper> withQdisc = CreateObject<BackhaulHelper>();
        withQdisc->SetAttribute("QueueDisc", StringValue("ns3::PfifoFastQueueDisc"));
        withQdisc->SetAttribute("Mtu", UintegerValue(1500));
        withQdisc->SetAttribute("BaseNetwork", Ipv4AddressValue("172.17.0.0"));
        const BackhaulLink l = withQdisc->Install(pair.Get(0), pair.Get(1));
        Ptr<TrafficControlLayer> tc = pair.Get(0)->GetObject<TrafficControlLayer>();
        NS_TEST_ASSERT_MSG_NE(tc->GetRootQueueDiscOnDevice(l.devices.Get(0)),
                              nullptr,
                              "a named queue disc is installed");
        NS_TEST_ASSERT_MSG_EQ(l.devices.Get(0)->GetMtu(), 1500u, "the MTU asked for");

        NS_TEST_ASSERT_MSG_EQ(
            withQdisc->SetAttributeFailSafe("QueueDisc", StringValue("ns3::Node")),
            false,
            "a type that is not a queue disc is refused");
        NS_TEST_ASSERT_MSG_EQ(withQdisc->SetAttributeFailSafe("Mtu", UintegerValue(100)),
                              false,
                              "an MTU below 576 is refused");
        NS_TEST_ASSERT_MSG_EQ(
            withQdisc->SetAttributeFailSafe("DataRate", DataRateValue(DataRate(0))),
            false,
            "a rate of 0 is refused");
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The KV-transfer protocol over a point-to-point backhaul link.
 */
class KvTransferTestSuite : public TestSuite
{
  public:
    KvTransferTestSuite()
        : TestSuite("edge-llm-kv-transfer")
    {
        AddTestCase(new BackhaulHelperTestCase());
        AddTestCase(new KvTransferCompleteTestCase());
        AddTestCase(new KvTransferDeliveredTestCase());
        AddTestCase(new KvTransferOrderTestCase(true));
        AddTestCase(new KvTransferOrderTestCase(false));
        AddTestCase(new KvTransferCancelTestCase());
        AddTestCase(new KvTransferAgainstLinkTestCase());
        AddTestCase(new KvTransferDelayTestCase());
        AddTestCase(new KvTransferGoodputTestCase(DataRate("100Mbps")));
        AddTestCase(new KvTransferGoodputTestCase(DataRate("300Mbps")));
        AddTestCase(new KvTransferSlotBudgetTestCase());
        AddTestCase(new KvTransferSlotBudgetAtTcpTestCase());
        AddTestCase(new KvTransferDropTestCase());
        AddTestCase(new KvTransferRangesTestCase());
        AddTestCase(new KvTransferWithdrawTestCase());
        AddTestCase(new KvTransferStopInCallbackTestCase());
        AddTestCase(new KvTransferTokensOnlyTestCase());
        AddTestCase(new KvTransferTokensOnlyCancelTestCase());
        AddTestCase(new KvTransferBacklogTestCase());
    }
};

/// The suite's one instance.
static KvTransferTestSuite g_kvTransferTestSuite;
