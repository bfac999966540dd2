/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The KV-transfer receiver does not trust its peers: token IDs outside the epoch's, messages from a
// peer that is not the epoch's source and payload sizes that disagree with the epoch are
// dropped without changing anything, and a stream that loses its framing closes only its
// own connection. Raw messages are written into TCP connections of their own.

#include "kv-transfer-bench.h"

#include "ns3/inet-socket-address.h"
#include "ns3/kv-transfer-header.h"
#include "ns3/kv-transfer-receiver.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/test.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::edgellm::test;

namespace
{

using H = KvTransferHeader;
using R = KvTransferReceiver;

/// What a session looks like from outside the receiver.
struct SessionView
{
    uint32_t epoch{0};
    std::vector<TokenRange> announced;
    std::vector<TokenRange> received;
    bool complete{false};
    uint64_t announcedBytes{0};
    uint64_t receivedBytes{0};
    uint64_t staleBytes{0};
    uint64_t tokensForwarded{0};

    bool operator==(const SessionView& o) const
    {
        return epoch == o.epoch && announced == o.announced && received == o.received &&
               complete == o.complete && announcedBytes == o.announcedBytes &&
               receivedBytes == o.receivedBytes && staleBytes == o.staleBytes &&
               tokensForwarded == o.tokensForwarded;
    }
};

std::ostream&
operator<<(std::ostream& os, const SessionView& v)
{
    os << "epoch " << v.epoch << " announced " << v.announced.size() << " ranges, received "
       << v.received.size() << " ranges, complete " << v.complete << ", bytes " << v.announcedBytes
       << "/" << v.receivedBytes << " stale " << v.staleBytes << ", tokens " << v.tokensForwarded;
    return os;
}

SessionView
View(Ptr<KvTransferReceiver> rx, uint64_t imsi)
{
    SessionView v;
    v.epoch = rx->GetCurrentEpoch(imsi);
    v.announced = rx->GetAnnouncedRanges(imsi).Ranges();
    v.received = rx->GetReceivedRanges(imsi).Ranges();
    v.complete = rx->IsComplete(imsi);
    const KvTransferReceiverCounters c = rx->GetCounters(imsi);
    v.announcedBytes = c.announced;
    v.receivedBytes = c.received;
    v.staleBytes = c.stale;
    v.tokensForwarded = c.tokensForwarded;
    return v;
}

/// A message as it goes on the wire: its header and its (virtual) payload.
Ptr<Packet>
Wire(const H& h)
{
    Ptr<Packet> p = Create<Packet>(static_cast<uint32_t>(h.GetFollowingBytes()));
    p->AddHeader(h);
    return p;
}

/**
 * A receiver and raw connections into it. Each message is sent on its own, 10 ms after the
 * one before, so that the receiver reads them in the order given whatever the connection;
 * the view of one session is taken as each header arrives, before it is acted on.
 */
class RawFeed
{
  public:
    RawFeed(uint64_t imsi, uint32_t peers)
        : m_bench(MakeBench(DataRate("1Gbps"), MicroSeconds(50))),
          m_imsi(imsi)
    {
        for (uint32_t k = 0; k < peers; ++k)
        {
            Ptr<Socket> s =
                Socket::CreateSocket(m_bench.nodes.Get(0), TcpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(m_bench.link.addressA, 0));
            m_peers.push_back(s);
            Simulator::Schedule(Seconds(0.1), [s, this]() {
                s->Connect(InetSocketAddress(m_bench.link.addressB, 7100));
            });
        }
        Ptr<KvTransferReceiver> rx = m_bench.receiver;
        rx->TraceConnectWithoutContext("MessageReceived", MakeCallback(&RawFeed::Received, this));
        rx->TraceConnectWithoutContext("MessageDropped", MakeCallback(&RawFeed::Dropped, this));
        rx->SetCompleteCallback(MakeCallback(&RawFeed::Completed, this));
        rx->SetTokensCallback(MakeCallback(&RawFeed::Tokens, this));
    }

    ~RawFeed()
    {
        Simulator::Destroy();
    }

    RawFeed(const RawFeed&) = delete;
    RawFeed& operator=(const RawFeed&) = delete;

    /// Queue a message on a peer's connection; returns its index among all sent.
    std::size_t Send(uint32_t peer, const H& h)
    {
        const Time at = Seconds(0.2) + MilliSeconds(10) * static_cast<int64_t>(m_sent.size());
        Ptr<Socket> s = m_peers.at(peer);
        Ptr<Packet> p = Wire(h);
        m_bytesSent += p->GetSize();
        Simulator::Schedule(at, [s, p]() { s->Send(p); });
        m_sent.push_back(h);
        return m_sent.size() - 1;
    }

    void Run()
    {
        Simulator::Stop(Seconds(0.3) + MilliSeconds(10) * static_cast<int64_t>(m_sent.size()));
        Simulator::Run();
        m_views.push_back(View(m_bench.receiver, m_imsi));
    }

    /// The view before message i and the one after it (before the next, or at the end).
    std::pair<SessionView, SessionView> Around(std::size_t i) const
    {
        return {m_views.at(i), m_views.at(i + 1)};
    }

    Ptr<KvTransferReceiver> Receiver() const
    {
        return m_bench.receiver;
    }

    uint64_t BytesSent() const
    {
        return m_bytesSent;
    }

    std::vector<std::pair<H, int>> drops;                 //!< MessageDropped, in order
    std::vector<std::pair<uint64_t, uint32_t>> completed; //!< completion callback
    std::vector<std::pair<uint32_t, uint32_t>> tokens;    //!< tokens callback: first, count

  private:
    void Received(const H&)
    {
        m_views.push_back(View(m_bench.receiver, m_imsi));
    }

    void Dropped(const H& h, int reason)
    {
        drops.emplace_back(h, reason);
    }

    void Completed(uint64_t imsi, uint32_t epoch)
    {
        completed.emplace_back(imsi, epoch);
    }

    void Tokens(uint64_t, uint32_t, uint32_t first, uint32_t count)
    {
        tokens.emplace_back(first, count);
    }

    TransferBench m_bench;
    uint64_t m_imsi;
    std::vector<Ptr<Socket>> m_peers;
    std::vector<H> m_sent;
    std::vector<SessionView> m_views;
    uint64_t m_bytesSent{0};
};

/// Whether a drop is of the message expected: same type, epoch and range, and the reason.
bool
IsDrop(const std::pair<H, int>& drop, const H& sent, R::DropReason reason)
{
    const H& h = drop.first;
    return drop.second == reason && h.GetMessageType() == sent.GetMessageType() &&
           h.GetImsi() == sent.GetImsi() && h.GetEpoch() == sent.GetEpoch() &&
           h.GetFirst() == sent.GetFirst() && h.GetCount() == sent.GetCount() &&
           h.GetPayloadBytes() == sent.GetPayloadBytes();
}

/// A test case whose every drop must leave the session as it was.
class HardeningTestCase : public TestCase
{
  public:
    explicit HardeningTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /// Message i was dropped for reason, as the k-th drop, and changed nothing.
    void ExpectDropped(const RawFeed& feed,
                       std::size_t k,
                       std::size_t i,
                       const H& sent,
                       R::DropReason reason)
    {
        NS_TEST_ASSERT_MSG_LT(k, feed.drops.size(), "drop " << k << " was traced");
        if (k >= feed.drops.size())
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(IsDrop(feed.drops[k], sent, reason),
                              true,
                              "drop " << k << " is message " << i << " (" << sent << "), as "
                                      << R::ReasonName(reason) << "; traced " << feed.drops[k].first
                                      << " as "
                                      << R::ReasonName(R::DropReason(feed.drops[k].second)));
        const auto [before, after] = feed.Around(i);
        NS_TEST_ASSERT_MSG_EQ(after, before, "message " << i << " changed nothing");
    }

    /// Every byte read is under a heading, and the payload bytes under their sessions.
    void ExpectLedger(Ptr<KvTransferReceiver> rx, const std::vector<uint64_t>& imsis)
    {
        const KvTransferStreamCounters s = rx->GetStreamCounters();
        NS_TEST_ASSERT_MSG_EQ(s.bytes,
                              s.headerBytes + s.payloadBytes + s.unframedBytes + s.heldBytes,
                              "bytes = header + payload + unframed + held");
        uint64_t payload = 0;
        for (uint64_t imsi : imsis)
        {
            const KvTransferReceiverCounters c = rx->GetCounters(imsi);
            uint64_t invalid = 0;
            uint64_t tokens = 0;
            for (std::size_t r = 0; r < KV_RECEIVER_DROP_REASONS; ++r)
            {
                invalid += c.droppedInvalidBy[r];
                tokens += c.tokensDroppedBy[r];
            }
            NS_TEST_ASSERT_MSG_EQ(c.droppedInvalid, invalid, "droppedInvalid, by reason");
            NS_TEST_ASSERT_MSG_EQ(c.tokensDropped, tokens, "tokensDropped, by reason");
            payload += c.received + c.stale + c.droppedInvalid +
                       H::BYTES_PER_TOKEN_ID * (c.tokensForwarded + c.tokensDropped);
        }
        NS_TEST_ASSERT_MSG_EQ(s.payloadBytes, payload, "every payload byte has a session");
    }

    void DoTeardown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief A TOKENS message after the epoch's one, overlapping it or past it, is dropped as
 * TOKENS_OUT_OF_RANGE: no tokens callback, no count, no change; its IDs count as dropped.
 */
class KvTokensOutOfRangeTestCase : public HardeningTestCase
{
  public:
    KvTokensOutOfRangeTestCase()
        : HardeningTestCase("TOKENS outside the epoch's: dropped, traced, nothing changes")
    {
    }

  private:
    void DoRun() override
    {
        RawFeed feed(5, 1);
        feed.Send(0, H::Make(H::BEGIN, 5, 0, H::TOKEN, 4, 6, 60));
        feed.Send(0, H::Make(H::TOKENS, 5, 0, H::TOKEN, 0, 4, 16));
        const H again = H::Make(H::TOKENS, 5, 0, H::TOKEN, 3, 2, 8); // overlaps [0, 4) at 3
        const std::size_t i0 = feed.Send(0, again);
        feed.Send(0, H::Make(H::DATA, 5, 0, H::TOKEN, 4, 6, 60));
        const H more = H::Make(H::TOKENS, 5, 0, H::TOKEN, 20, 2, 8); // past the epoch's [0, 4)
        const std::size_t i1 = feed.Send(0, more);
        feed.Send(0, H::Make(H::END, 5, 0, H::TOKEN, 0, 0, 0));
        feed.Run();

        Ptr<KvTransferReceiver> rx = feed.Receiver();
        NS_TEST_ASSERT_MSG_EQ(rx->GetDroppedMessages(R::TOKENS_OUT_OF_RANGE), 2u, "counted");
        NS_TEST_ASSERT_MSG_EQ(feed.drops.size(), 2u, "both drops traced");
        ExpectDropped(feed, 0, i0, again, R::TOKENS_OUT_OF_RANGE);
        ExpectDropped(feed, 1, i1, more, R::TOKENS_OUT_OF_RANGE);
        NS_TEST_ASSERT_MSG_EQ(feed.tokens.size(), 1u, "the tokens callback fired once");
        NS_TEST_ASSERT_MSG_EQ((feed.tokens.at(0) == std::make_pair(0u, 4u)), true, "for [0, 4)");
        const KvTransferReceiverCounters c = rx->GetCounters(5);
        NS_TEST_ASSERT_MSG_EQ(c.tokensForwarded, 4u, "the first message's IDs");
        NS_TEST_ASSERT_MSG_EQ(c.tokensDroppedBy[R::TOKENS_OUT_OF_RANGE], 4u, "the others'");
        NS_TEST_ASSERT_MSG_EQ(c.received, 60u, "the KV bytes");
        NS_TEST_ASSERT_MSG_EQ(feed.completed.size(), 1u, "the session completes");
        NS_TEST_ASSERT_MSG_EQ(rx->GetStreamBytesReceived(), feed.BytesSent(), "all read");
        ExpectLedger(rx, {5});
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A message of the current epoch from a peer that is not the epoch's source is
 * dropped as WRONG_SOURCE, even a BEGIN; a newer epoch from another peer is taken, and then
 * the first peer is the stranger.
 */
class KvWrongSourceTestCase : public HardeningTestCase
{
  public:
    KvWrongSourceTestCase()
        : HardeningTestCase("Another peer's message of the current epoch: dropped, traced")
    {
    }

  private:
    void DoRun() override
    {
        RawFeed feed(5, 2);
        feed.Send(0, H::Make(H::BEGIN, 5, 1, H::TOKEN, 0, 10, 100));
        const H data = H::Make(H::DATA, 5, 1, H::TOKEN, 0, 4, 40);
        const std::size_t i0 = feed.Send(1, data);
        const H begin = H::Make(H::BEGIN, 5, 1, H::TOKEN, 10, 10, 100);
        const std::size_t i1 = feed.Send(1, begin);
        const H cancel = H::MakeCancel(5, 1, KvDiscardReason::WINDOW_END);
        const std::size_t i2 = feed.Send(1, cancel);
        feed.Send(0, H::Make(H::DATA, 5, 1, H::TOKEN, 0, 10, 100)); // completes epoch 1
        // A handover: epoch 2 comes from the other peer, which is now its source.
        feed.Send(1, H::Make(H::BEGIN, 5, 2, H::TOKEN, 0, 5, 50));
        const H old = H::Make(H::DATA, 5, 2, H::TOKEN, 0, 5, 50);
        const std::size_t i3 = feed.Send(0, old);
        feed.Send(1, H::Make(H::DATA, 5, 2, H::TOKEN, 0, 5, 50));
        feed.Run();

        Ptr<KvTransferReceiver> rx = feed.Receiver();
        NS_TEST_ASSERT_MSG_EQ(rx->GetDroppedMessages(R::WRONG_SOURCE), 4u, "counted");
        NS_TEST_ASSERT_MSG_EQ(feed.drops.size(), 4u, "four drops traced");
        ExpectDropped(feed, 0, i0, data, R::WRONG_SOURCE);
        ExpectDropped(feed, 1, i1, begin, R::WRONG_SOURCE);
        ExpectDropped(feed, 2, i2, cancel, R::WRONG_SOURCE);
        ExpectDropped(feed, 3, i3, old, R::WRONG_SOURCE);
        NS_TEST_ASSERT_MSG_EQ(feed.completed.size(), 2u, "both epochs complete");
        if (feed.completed.size() == 2)
        {
            NS_TEST_ASSERT_MSG_EQ(feed.completed[0].second, 1u, "epoch 1 from its source");
            NS_TEST_ASSERT_MSG_EQ(feed.completed[1].second, 2u, "epoch 2 from the new peer");
        }
        const KvTransferReceiverCounters c = rx->GetCounters(5);
        NS_TEST_ASSERT_MSG_EQ(c.announced, 150u, "epoch 1's first BEGIN and epoch 2's");
        NS_TEST_ASSERT_MSG_EQ(c.received, 150u, "what the sources sent");
        NS_TEST_ASSERT_MSG_EQ(c.droppedInvalidBy[R::WRONG_SOURCE], 90u, "the strangers' DATA");
        NS_TEST_ASSERT_MSG_EQ(c.stale, 0u, "nothing stale");
        ExpectLedger(rx, {5});
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Payload sizes that disagree with the epoch's bytes per unit are dropped as
 * PAYLOAD_MISMATCH: a DATA that is not count x the unit of the epoch's first BEGIN, a BEGIN
 * whose bytes do not divide by its count or that sets another unit, even of a newer epoch,
 * which then does not open.
 */
class KvPayloadMismatchTestCase : public HardeningTestCase
{
  public:
    KvPayloadMismatchTestCase()
        : HardeningTestCase("A payload size the epoch's unit does not give: dropped, traced")
    {
    }

  private:
    void DoRun() override
    {
        RawFeed feed(5, 1);
        feed.Send(0, H::Make(H::BEGIN, 5, 0, H::TOKEN, 0, 10, 100)); // 10 bytes per token
        const std::vector<H> bad = {
            H::Make(H::DATA, 5, 0, H::TOKEN, 0, 4, 41),
            H::Make(H::BEGIN, 5, 0, H::TOKEN, 10, 3, 31),
            H::Make(H::BEGIN, 5, 0, H::TOKEN, 10, 3, 60),
            H::Make(H::BEGIN, 5, 1, H::TOKEN, 0, 3, 10),
            H::Make(H::DATA, 5, 0, H::TOKEN, 4, 2, 10),
        };
        std::vector<std::size_t> at;
        for (const H& h : bad)
        {
            at.push_back(feed.Send(0, h));
        }
        feed.Send(0, H::Make(H::DATA, 5, 0, H::TOKEN, 0, 10, 100));
        feed.Run();

        Ptr<KvTransferReceiver> rx = feed.Receiver();
        NS_TEST_ASSERT_MSG_EQ(rx->GetDroppedMessages(R::PAYLOAD_MISMATCH), bad.size(), "counted");
        NS_TEST_ASSERT_MSG_EQ(feed.drops.size(), bad.size(), "each drop traced");
        for (std::size_t k = 0; k < bad.size(); ++k)
        {
            ExpectDropped(feed, k, at[k], bad[k], R::PAYLOAD_MISMATCH);
        }
        NS_TEST_ASSERT_MSG_EQ(rx->GetCurrentEpoch(5), 0u, "the refused BEGIN opened no epoch");
        NS_TEST_ASSERT_MSG_EQ(feed.completed.size(), 1u, "epoch 0 completes");
        const KvTransferReceiverCounters c = rx->GetCounters(5);
        NS_TEST_ASSERT_MSG_EQ(c.announced, 100u, "only the first BEGIN");
        NS_TEST_ASSERT_MSG_EQ(c.received, 100u, "only the right DATA");
        NS_TEST_ASSERT_MSG_EQ(c.droppedInvalidBy[R::PAYLOAD_MISMATCH], 51u, "41 + 10 bytes");
        NS_TEST_ASSERT_MSG_EQ(rx->GetStreamBytesReceived(), feed.BytesSent(), "all read");
        ExpectLedger(rx, {5});
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief One of two peers sends a malformed header in the middle of its stream: its
 * connection is closed and traced, every byte it sent from that header on counts as unframed,
 * and the other peer's transfer completes.
 */
class KvFramingLossTestCase : public HardeningTestCase
{
  public:
    KvFramingLossTestCase()
        : HardeningTestCase("A stream that loses its framing closes; the other peer goes on")
    {
    }

  private:
    void Closed(const Address& peer, const std::string& reason)
    {
        m_closed.emplace_back(peer, reason);
    }

    void DoRun() override
    {
        TransferBench b = MakeBench(DataRate("1Gbps"), MicroSeconds(50));
        Ptr<KvTransferReceiver> rx = b.receiver;
        rx->TraceConnectWithoutContext("StreamClosed",
                                       MakeCallback(&KvFramingLossTestCase::Closed, this));
        Completions done;
        rx->SetCompleteCallback(MakeCallback(&Completions::Record, &done));

        // The good peer: a 200-token transfer, about 92 ms at 1 Gb/s.
        Ptr<KvTransferSender> tx = b.sender;
        Simulator::Schedule(Seconds(0.1), [tx]() { tx->Enqueue(TokenRequest(1, 0, 0, 200)); });

        // The bad peer, in the middle of it: a valid BEGIN, then 36 bytes of zeros where a
        // header should be, 50 more bytes in the same write, and 100 bytes a little later.
        Ptr<Socket> bad = Socket::CreateSocket(b.nodes.Get(0), TcpSocketFactory::GetTypeId());
        bad->Bind(InetSocketAddress(b.link.addressA, 0));
        Simulator::Schedule(Seconds(0.1), [bad, &b]() {
            bad->Connect(InetSocketAddress(b.link.addressB, 7100));
        });
        const H begin = H::Make(H::BEGIN, 7, 0, H::TOKEN, 0, 2, 20);
        Ptr<Packet> first = Wire(begin);
        first->AddAtEnd(Create<Packet>(H::SERIALIZED_SIZE + 50));
        const uint64_t badBytes = first->GetSize() + 100;
        Simulator::Schedule(Seconds(0.12), [bad, first]() { bad->Send(first); });
        Simulator::Schedule(Seconds(0.14), [bad]() { bad->Send(Create<Packet>(100)); });
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(rx->GetStreamsClosed(), 1u, "one connection closed");
        NS_TEST_ASSERT_MSG_EQ(m_closed.size(), 1u, "and traced");
        if (m_closed.size() == 1)
        {
            Address local;
            bad->GetSockName(local);
            NS_TEST_ASSERT_MSG_EQ((m_closed[0].first == local), true, "with the bad peer");
            NS_TEST_ASSERT_MSG_NE(m_closed[0].second.find("framing lost: magic = 0"),
                                  std::string::npos,
                                  "and the reason: " << m_closed[0].second);
        }
        NS_TEST_ASSERT_MSG_EQ((done.Of(1) < Seconds(1)),
                              true,
                              "the good peer's transfer completes");
        const KvTransferReceiverCounters good = rx->GetCounters(1);
        NS_TEST_ASSERT_MSG_EQ(good.received, 200 * kTokenBytes, "whole");
        NS_TEST_ASSERT_MSG_EQ(rx->GetAnnouncedRanges(7).Count(), 2u, "the BEGIN before counts");
        NS_TEST_ASSERT_MSG_EQ(rx->IsComplete(7), false, "and nothing after it");

        const KvTransferStreamCounters s = rx->GetStreamCounters();
        NS_TEST_ASSERT_MSG_EQ(s.unframedBytes,
                              badBytes - H::SERIALIZED_SIZE,
                              "everything from the bad header on is unframed");
        NS_TEST_ASSERT_MSG_EQ(s.heldBytes, 0u, "no header left half-read");
        const uint64_t goodBytes = tx->GetStreamBytesSent();
        NS_TEST_ASSERT_MSG_EQ(s.bytes, goodBytes + badBytes, "every byte of both peers read");
        ExpectLedger(rx, {1, 7});
    }

    std::vector<std::pair<Address, std::string>> m_closed; //!< StreamClosed
};

/**
 * \ingroup edge-llm-tests
 * \brief The KV-transfer receiver against messages that break the protocol.
 */
class KvTransferHardeningTestSuite : public TestSuite
{
  public:
    KvTransferHardeningTestSuite()
        : TestSuite("edge-llm-kv-transfer-hardening")
    {
        AddTestCase(new KvTokensOutOfRangeTestCase());
        AddTestCase(new KvWrongSourceTestCase());
        AddTestCase(new KvPayloadMismatchTestCase());
        AddTestCase(new KvFramingLossTestCase());
    }
};

/// The suite's one instance.
static KvTransferHardeningTestSuite g_kvTransferHardeningTestSuite;
