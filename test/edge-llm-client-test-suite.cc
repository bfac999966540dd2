/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/edge-llm-client.h"
#include "ns3/edge-llm-downlink-header.h"
#include "ns3/edge-llm-uplink-header.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kImsi = 4242;         //!< the session of every test
constexpr uint16_t kCellId = 7;          //!< the cell the fake server claims
const Time kPacing = MilliSeconds(10);   //!< one token every 10 ms
const Time kLinkDelay = MilliSeconds(2); //!< one-way delay of each link
const Time kClientStart = Seconds(1);    //!< the session's start

/// A NACK as the fake server saw it.
struct NackSeen
{
    Ipv4Address to;                 //!< the server address it was sent to
    Time at;                        //!< when it arrived
    std::vector<TokenRange> ranges; //!< what it asked for
};

/**
 * A stand-in for the edge LLM server that speaks the token stream protocol over two addresses
 * of one node, and can be told to misbehave: drop or duplicate tokens, send them out of order,
 * move ownership to its second address, delay a token, mark handovers, ignore or refuse
 * OPEN_SESSION.
 */
class FakeTokenServer : public Application
{
  public:
    // Configuration, set before the run.
    uint32_t tokens{40}; //!< tokens the session generates
    Ipv4Address addrA;   //!< first advertised owner (and OPEN_SESSION target)
    Ipv4Address addrB;   //!< second advertised owner
    uint16_t port{9000}; //!< port on both addresses
    uint32_t switchAt{std::numeric_limits<uint32_t>::max()}; //!< tokens from here name addrB
    std::set<uint32_t> dropFirst;                            //!< originals not sent
    std::set<uint32_t> sendTwice;                            //!< originals sent twice
    std::map<uint32_t, Time> sendAt;        //!< originals sent at this offset from the OPEN
    std::map<uint32_t, Time> pauseBefore;   //!< extra delay before this token and every later one
    std::set<uint32_t> markCopyBefore;      //!< resent alone, marked, just before the next token
    std::map<uint32_t, Time> markCopyAfter; //!< resent alone, marked, this long after its slot
    /// original -> earlier token resent just before it, named addrA: a late resend of the old
    /// owner that a relay delivers after the switch
    std::map<uint32_t, uint32_t> staleCopyBefore;
    uint32_t ignoreOpens{0};     //!< first OPEN_SESSIONs ignored
    uint32_t ignoreNacks{0};     //!< first NACKs recorded but not served
    bool loseFinalAck{false};    //!< the first final ACK is lost: resend the last token
    bool reject{false};          //!< refuse every OPEN_SESSION
    uint32_t rejectSeqOffset{0}; //!< added to the echoed sequence number

    // What happened.
    std::vector<uint32_t> openSeqs;         //!< every OPEN_SESSION received
    std::vector<NackSeen> nacks;            //!< every NACK received
    std::map<Ipv4Address, uint32_t> acksAt; //!< ACKs by address
    uint32_t lastAck{0};                    //!< next expected index of the last ACK
    uint64_t copiesSent{0};                 //!< token copies sent
    std::vector<int64_t> generatedNs;       //!< generation time of each token
    Time openAt;                            //!< when the accepted OPEN_SESSION arrived

    /// \return NACKs sent to an address
    uint32_t NacksAt(Ipv4Address a) const
    {
        return std::count_if(nacks.begin(), nacks.end(), [a](const NackSeen& n) {
            return n.to == a;
        });
    }

    /// Send bytes as they are to the client, from the first address.
    void SendRaw(Ptr<Packet> p)
    {
        m_sockA->SendTo(p, 0, m_client);
    }

  private:
    void StartApplication() override
    {
        m_sockA = Bind(addrA);
        m_sockB = Bind(addrB);
    }

    void StopApplication() override
    {
        m_sockA->Close();
        m_sockB->Close();
    }

    void DoDispose() override
    {
        m_sockA = nullptr;
        m_sockB = nullptr;
        Application::DoDispose();
    }

    Ptr<Socket> Bind(Ipv4Address a)
    {
        Ptr<Socket> s = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        s->Bind(InetSocketAddress(a, port));
        s->SetRecvCallback(MakeBoundCallback(&FakeTokenServer::Read, this, a));
        return s;
    }

    static void Read(FakeTokenServer* self, Ipv4Address local, Ptr<Socket> socket)
    {
        Ptr<Packet> p;
        Address from;
        while ((p = socket->RecvFrom(from)))
        {
            EdgeLlmUplinkHeader h;
            if (!EdgeLlmUplinkHeader::TryRemove(p, h) || h.GetImsi() != kImsi)
            {
                continue;
            }
            self->m_client = InetSocketAddress::ConvertFrom(from);
            self->Handle(local, h);
        }
    }

    void Handle(Ipv4Address local, const EdgeLlmUplinkHeader& h)
    {
        switch (h.GetType())
        {
        case EdgeLlmUplinkHeader::OPEN_SESSION:
            openSeqs.push_back(h.GetRequestSeq());
            if (reject)
            {
                EdgeLlmDownlinkHeader r;
                r.SetRejection(EdgeLlmDownlinkHeader::SERVER_BUSY,
                               h.GetRequestSeq() + rejectSeqOffset);
                Send(r);
            }
            else if (openSeqs.size() > ignoreOpens && generatedNs.empty())
            {
                ScheduleStream();
            }
            break;
        case EdgeLlmUplinkHeader::NACK:
            nacks.push_back({local, Simulator::Now(), h.GetMissingRanges()});
            if (nacks.size() <= ignoreNacks)
            {
                break;
            }
            for (const TokenRange& r : h.GetMissingRanges())
            {
                for (uint64_t i = r.first; i < r.end && i < m_sent; ++i)
                {
                    SendToken(i, true, false);
                }
            }
            break;
        case EdgeLlmUplinkHeader::ACK:
            if (loseFinalAck && h.GetNextExpected() == tokens)
            {
                // As a server does that never heard the end: it resends, later.
                loseFinalAck = false;
                Simulator::Schedule(MilliSeconds(50),
                                    &FakeTokenServer::SendToken,
                                    this,
                                    tokens - 1,
                                    true,
                                    false);
                break;
            }
            ++acksAt[local];
            lastAck = h.GetNextExpected();
            break;
        }
    }

    void ScheduleStream()
    {
        openAt = Simulator::Now();
        Time shift;
        for (uint32_t i = 0; i < tokens; ++i)
        {
            auto pause = pauseBefore.find(i);
            if (pause != pauseBefore.end())
            {
                shift += pause->second;
            }
            const Time offset = kPacing * (i + 1) + shift;
            generatedNs.push_back((openAt + offset).GetNanoSeconds());
            auto mark = markCopyAfter.find(i);
            if (mark != markCopyAfter.end())
            {
                Simulator::Schedule(offset + mark->second,
                                    &FakeTokenServer::SendToken,
                                    this,
                                    i,
                                    true,
                                    true);
            }
            auto at = sendAt.find(i);
            Simulator::Schedule(at == sendAt.end() ? offset : at->second,
                                &FakeTokenServer::SendOriginal,
                                this,
                                i);
        }
    }

    void SendOriginal(uint32_t i)
    {
        // As a server does when a handover starts: the last token again, marked, on the path
        // that the next tokens take.
        if (i > 0 && markCopyBefore.count(i - 1) > 0)
        {
            SendToken(i - 1, true, true);
        }
        auto stale = staleCopyBefore.find(i);
        if (stale != staleCopyBefore.end())
        {
            EdgeLlmDownlinkHeader h;
            h.SetTokens(stale->second, {NanoSeconds(generatedNs[stale->second])});
            h.SetResent(true);
            ++copiesSent;
            Send(h, false);
        }
        m_sent = std::max(m_sent, i + 1);
        if (dropFirst.count(i) == 0)
        {
            const int copies = sendTwice.count(i) > 0 ? 2 : 1;
            for (int c = 0; c < copies; ++c)
            {
                SendToken(i, false, false);
            }
        }
    }

    void SendToken(uint32_t i, bool resent, bool mark)
    {
        EdgeLlmDownlinkHeader h;
        h.SetTokens(i, {NanoSeconds(generatedNs[i])});
        h.SetResent(resent);
        h.SetHandoverMark(mark);
        ++copiesSent;
        Send(h, m_sent > switchAt);
    }

    void Send(EdgeLlmDownlinkHeader& h, bool owner = false)
    {
        h.SetImsi(kImsi);
        h.SetCellId(kCellId);
        h.SetServer(owner ? addrB : addrA, port);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        m_sockA->SendTo(p, 0, m_client);
    }

    Ptr<Socket> m_sockA;                                  //!< bound to addrA
    Ptr<Socket> m_sockB;                                  //!< bound to addrB
    InetSocketAddress m_client{Ipv4Address::GetAny(), 0}; //!< source of the latest uplink
    uint32_t m_sent{0};                                   //!< originals whose time has come
};

/// One token as the client's trace reported it.
struct Delivery
{
    uint32_t index;  //!< token index
    Time generated;  //!< generation time
    Time delivered;  //!< delivery time
    uint16_t cellId; //!< cell id
    bool resent;     //!< delivered copy was resent
};

/// What the client's traces reported.
struct Traces
{
    std::vector<Delivery> deliveries;
    std::vector<Time> ttft;
    std::vector<Time> itl;
    std::vector<std::pair<uint32_t, Time>> sit;
    std::vector<uint64_t> sitImsi; //!< the IMSI each SIT came with
    std::vector<Time> sitAt;       //!< when each SIT was traced
    std::vector<std::pair<uint64_t, uint8_t>> rejections;
    uint32_t completions{0};

    void Delivered(uint64_t imsi, uint32_t i, Time g, Time d, uint16_t cell, bool resent)
    {
        if (imsi == kImsi)
        {
            deliveries.push_back({i, g, d, cell, resent});
        }
    }

    void Ttft(Time t)
    {
        ttft.push_back(t);
    }

    void Itl(Time t)
    {
        itl.push_back(t);
    }

    void Sit(uint64_t imsi, uint32_t m, Time t)
    {
        sitImsi.push_back(imsi);
        sit.emplace_back(m, t);
        sitAt.push_back(Simulator::Now());
    }

    void Rejected(uint64_t imsi, uint8_t reason)
    {
        rejections.emplace_back(imsi, reason);
    }

    void Complete(uint64_t)
    {
        ++completions;
    }
};

/// A client and a fake server on two nodes joined by two point-to-point links.
struct Bench
{
    Ptr<EdgeLlmClient> client;
    Ptr<FakeTokenServer> server;
    Traces traces;

    explicit Bench(uint32_t tokens)
    {
        NodeContainer nodes;
        nodes.Create(2);
        InternetStackHelper internet;
        internet.Install(nodes);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", TimeValue(kLinkDelay));
        Ipv4AddressHelper ip;
        ip.SetBase("10.1.1.0", "255.255.255.0");
        const Ipv4InterfaceContainer first = ip.Assign(p2p.Install(nodes));
        ip.SetBase("10.1.2.0", "255.255.255.0");
        const Ipv4InterfaceContainer second = ip.Assign(p2p.Install(nodes));

        server = CreateObject<FakeTokenServer>();
        server->tokens = tokens;
        server->addrA = first.GetAddress(1);
        server->addrB = second.GetAddress(1);
        nodes.Get(1)->AddApplication(server);
        server->SetStartTime(Seconds(0));

        client = CreateObject<EdgeLlmClient>();
        client->SetAttribute("Imsi", UintegerValue(kImsi));
        client->SetAttribute("ServerAddress", Ipv4AddressValue(server->addrA));
        client->SetAttribute("TokensToGenerate", UintegerValue(tokens));
        client->SetAttribute("PromptTokens", UintegerValue(100));
        nodes.Get(0)->AddApplication(client);
        client->SetStartTime(kClientStart);

        client->TraceConnectWithoutContext("TokenDelivered",
                                           MakeCallback(&Traces::Delivered, &traces));
        client->TraceConnectWithoutContext("Ttft", MakeCallback(&Traces::Ttft, &traces));
        client->TraceConnectWithoutContext("InterTokenLatency",
                                           MakeCallback(&Traces::Itl, &traces));
        client->TraceConnectWithoutContext("ServiceInterruption",
                                           MakeCallback(&Traces::Sit, &traces));
        client->TraceConnectWithoutContext("SessionRejected",
                                           MakeCallback(&Traces::Rejected, &traces));
        client->TraceConnectWithoutContext("SessionComplete",
                                           MakeCallback(&Traces::Complete, &traces));
    }

    /// Also when an assertion returns early, so that the next test starts clean.
    ~Bench()
    {
        Simulator::Destroy();
    }

    Bench(const Bench&) = delete;
    Bench& operator=(const Bench&) = delete;

    void Run(Time until = Seconds(5))
    {
        Simulator::Stop(until);
        Simulator::Run();
    }

    /// \return true if the deliveries are 0, 1, ..., n - 1
    bool InOrderOnce(uint32_t n) const
    {
        if (traces.deliveries.size() != n)
        {
            return false;
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            if (traces.deliveries[i].index != i)
            {
                return false;
            }
        }
        return true;
    }

    /// \return true if some NACK asked for token i
    bool Nacked(uint32_t i) const
    {
        for (const NackSeen& n : server->nacks)
        {
            for (const TokenRange& r : n.ranges)
            {
                if (r.first <= i && i < r.end)
                {
                    return true;
                }
            }
        }
        return false;
    }
};

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief Losses, duplicates and reordering: every token once, in order; lost ones by resend,
 * the lost tail through the idle NACK; reordering within NackDelay is not NACKed.
 */
class EdgeLlmClientRecoveryTestCase : public TestCase
{
  public:
    EdgeLlmClientRecoveryTestCase()
        : TestCase("Drops, duplicates, reordering and a lost tail: every token once, in order")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 40;
        Bench b(n);
        b.server->dropFirst = {5, 6, 7, n - 2, n - 1};
        b.server->sendTwice = {3, 20};
        // Token 12 goes in 11's slot, and 11 follows 5 ms later, within NackDelay.
        b.server->sendAt[12] = kPacing * 12;
        b.server->sendAt[11] = kPacing * 12 + MilliSeconds(5);
        b.Run();

        NS_TEST_ASSERT_MSG_EQ(b.client->IsComplete(), true, "the session completes");
        NS_TEST_ASSERT_MSG_EQ(b.InOrderOnce(n), true, "tokens 0..n-1, each once, in order");
        if (!b.InOrderOnce(n))
        {
            return; // the checks below index the deliveries
        }
        NS_TEST_ASSERT_MSG_EQ(b.client->GetDeliveredTokens(), n, "delivered count");
        NS_TEST_ASSERT_MSG_EQ(b.traces.completions, 1u, "complete once");
        const uint64_t received = b.server->copiesSent; // the links lose nothing
        NS_TEST_ASSERT_MSG_EQ(b.client->GetDuplicates(), received - n, "every extra copy");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(b.client->GetDuplicates(), 2u, "the two sent twice at least");
        for (uint32_t i : b.server->dropFirst)
        {
            NS_TEST_ASSERT_MSG_EQ(b.traces.deliveries[i].resent,
                                  true,
                                  "token " << i << " whose original was lost came by resend");
        }
        NS_TEST_ASSERT_MSG_EQ(b.client->GetDeliveredByResend(), 5u, "five delivered by resend");
        NS_TEST_ASSERT_MSG_EQ(b.Nacked(11), false, "reordering within NackDelay is not NACKed");
        NS_TEST_ASSERT_MSG_EQ(b.traces.deliveries[11].resent, false, "11 came as sent");
        NS_TEST_ASSERT_MSG_GT(b.client->GetNacksSent(), 0u, "NACKs counted");
        NS_TEST_ASSERT_MSG_EQ(b.client->GetNacksSent(), b.server->nacks.size(), "all arrived");

        // The tail: nothing after token n - 3 reveals the loss, so only the idle NACK can.
        const Time lastOriginal = b.server->openAt + kPacing * (n - 2);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(b.traces.deliveries[n - 1].delivered,
                                    lastOriginal + MilliSeconds(100),
                                    "the tail came after the idle timeout");
        NS_TEST_ASSERT_MSG_EQ(b.Nacked(n - 1), true, "the tail was NACKed");
        NS_TEST_ASSERT_MSG_EQ(b.server->lastAck, n, "the final ACK covers the session");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief NACKs and ACKs follow the owner named in the latest TOKENS packet.
 */
class EdgeLlmClientOwnerTestCase : public TestCase
{
  public:
    EdgeLlmClientOwnerTestCase()
        : TestCase("NACKs and ACKs go to the owner's address after an ownership switch")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 40;
        Bench b(n);
        b.server->switchAt = 20;
        b.server->dropFirst = {10, 25};
        b.Run();

        NS_TEST_ASSERT_MSG_EQ(b.client->IsComplete(), true, "the session completes");
        NS_TEST_ASSERT_MSG_EQ(b.InOrderOnce(n), true, "in order, once");
        if (!b.InOrderOnce(n))
        {
            return; // the checks below index the deliveries
        }
        const Ipv4Address a = b.server->addrA;
        const Ipv4Address bb = b.server->addrB;
        NS_TEST_ASSERT_MSG_GT(b.server->NacksAt(a), 0u, "the loss before the switch NACKed to A");
        NS_TEST_ASSERT_MSG_GT(b.server->NacksAt(bb), 0u, "the loss after it NACKed to B");
        for (const NackSeen& nack : b.server->nacks)
        {
            const uint32_t asked = nack.ranges.front().first;
            const Ipv4Address owner = asked == 10 ? a : bb;
            NS_TEST_ASSERT_MSG_EQ(nack.to,
                                  owner,
                                  "the NACK for " << asked << " went to the owner of the time");
        }
        NS_TEST_ASSERT_MSG_EQ(b.server->acksAt[a], 0u, "no ACK to the old owner");
        NS_TEST_ASSERT_MSG_EQ(b.server->acksAt[bb], 2u, "the ACKs at 32 tokens and at the end");
        NS_TEST_ASSERT_MSG_EQ(b.client->GetOwnerAddress(), bb, "the owner is B");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A late resend of the old owner, relayed after the ownership switch, does not take
 * the client's feedback back to the old owner: the newest token names the owner.
 */
class EdgeLlmClientStaleOwnerTestCase : public TestCase
{
  public:
    EdgeLlmClientStaleOwnerTestCase()
        : TestCase("A late resend relayed from the old owner leaves NACKs and ACKs at the "
                   "current owner")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 40;
        Bench b(n);
        b.server->switchAt = 20;
        // Token 15, resent by the old owner A, arrives after B's token 37, the last one
        // before a lost tail: only the tail's NACK can tell where feedback goes.
        b.server->staleCopyBefore = {{38, 15}};
        b.server->dropFirst = {38, 39};
        b.Run();

        NS_TEST_ASSERT_MSG_EQ(b.client->IsComplete(), true, "the session completes");
        NS_TEST_ASSERT_MSG_EQ(b.InOrderOnce(n), true, "in order, once");
        const Ipv4Address a = b.server->addrA;
        const Ipv4Address bb = b.server->addrB;
        NS_TEST_ASSERT_MSG_GT(b.server->NacksAt(bb), 0u, "the loss after the switch NACKed");
        NS_TEST_ASSERT_MSG_EQ(b.server->NacksAt(a), 0u, "never to the old owner");
        NS_TEST_ASSERT_MSG_EQ(b.server->acksAt[a], 0u, "no ACK to the old owner");
        NS_TEST_ASSERT_MSG_EQ(b.client->GetOwnerAddress(), bb, "the owner is B");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A gap is NACKed NackDelay after it shows, and again every NackInterval until filled.
 */
class EdgeLlmClientNackTimingTestCase : public TestCase
{
  public:
    EdgeLlmClientNackTimingTestCase()
        : TestCase("A gap is NACKed after NackDelay, then every NackInterval while it remains")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 20;
        Bench b(n);
        b.server->dropFirst = {5};
        b.server->ignoreNacks = 2;
        b.Run();

        NS_TEST_ASSERT_MSG_EQ(b.InOrderOnce(n), true, "in order, once");

        if (!b.InOrderOnce(n))

        {
            return; // the checks below index the deliveries
        }
        NS_TEST_ASSERT_MSG_EQ(b.server->nacks.size(), 3u, "two unanswered NACKs, one answered");
        if (b.server->nacks.size() != 3)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(b.client->GetNacksSent(), 3u, "three counted");
        // Token 6 shows the gap one link delay after it left; the NACK takes another one back.
        const Time shown = NanoSeconds(b.server->generatedNs[6]) + kLinkDelay;
        const Time first = b.server->nacks[0].at;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(first, shown + MilliSeconds(10) + kLinkDelay, "NackDelay");
        NS_TEST_ASSERT_MSG_LT(first,
                              shown + MilliSeconds(10) + kLinkDelay + MicroSeconds(100),
                              "NackDelay, plus transmission");
        NS_TEST_ASSERT_MSG_EQ(b.server->nacks[1].at - first, MilliSeconds(30), "NackInterval");
        NS_TEST_ASSERT_MSG_EQ(b.server->nacks[2].at - first, MilliSeconds(60), "NackInterval");
        for (const NackSeen& nack : b.server->nacks)
        {
            NS_TEST_ASSERT_MSG_EQ(nack.ranges.size(), 1u, "one range");
            NS_TEST_ASSERT_MSG_EQ(nack.ranges[0].first, 5u, "token 5");
            NS_TEST_ASSERT_MSG_EQ(nack.ranges[0].Count(), 1u, "only");
        }
        NS_TEST_ASSERT_MSG_EQ(b.traces.deliveries[5].resent, true, "5 came by resend");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A TOKENS packet after completion means the final ACK was lost: the client repeats it.
 */
class EdgeLlmClientFinalAckTestCase : public TestCase
{
  public:
    EdgeLlmClientFinalAckTestCase()
        : TestCase("A resend after completion is answered with the final ACK again")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 10;
        Bench b(n);
        b.server->loseFinalAck = true;
        b.Run();

        NS_TEST_ASSERT_MSG_EQ(b.InOrderOnce(n), true, "in order, once");
        NS_TEST_ASSERT_MSG_EQ(b.client->GetAcksSent(), 2u, "the final ACK, and its repeat");
        NS_TEST_ASSERT_MSG_EQ(b.server->lastAck, n, "the repeat reached the server");
        NS_TEST_ASSERT_MSG_EQ(b.client->GetDuplicates(), 1u, "the resend was a duplicate");
        NS_TEST_ASSERT_MSG_EQ(b.traces.completions, 1u, "completion is reported once");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A lost OPEN_SESSION is retried with the next sequence number, until tokens come.
 */
class EdgeLlmClientOpenRetryTestCase : public TestCase
{
  public:
    EdgeLlmClientOpenRetryTestCase()
        : TestCase("OPEN_SESSION is retried when the first is lost, and only until tokens come")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(10);
        b.server->ignoreOpens = 1;
        b.Run();

        NS_TEST_ASSERT_MSG_EQ(b.server->openSeqs.size(), 2u, "one retry, then no more");
        if (b.server->openSeqs.size() != 2)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(b.server->openSeqs[1], b.server->openSeqs[0] + 1, "seq + 1");
        NS_TEST_ASSERT_MSG_EQ(b.client->GetOpensSent(), 2u, "the client counts two");
        NS_TEST_ASSERT_MSG_EQ(b.client->IsComplete(), true, "the session completes");
        const Time retryArrives = kClientStart + MilliSeconds(100) + kLinkDelay;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(b.server->openAt, retryArrives, "served from the retry");
        NS_TEST_ASSERT_MSG_LT(b.server->openAt,
                              retryArrives + MilliSeconds(1),
                              "the retry left OpenRetryInterval after the start");
        NS_TEST_ASSERT_MSG_EQ(b.traces.ttft.size(), 1u, "one TTFT");
        if (b.traces.ttft.size() != 1)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(b.traces.ttft[0], MilliSeconds(100), "TTFT counts the wait");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief TTFT from the session start; n - 1 ITL samples whose mean is the server's pacing.
 */
class EdgeLlmClientTimingTestCase : public TestCase
{
  public:
    EdgeLlmClientTimingTestCase()
        : TestCase("TTFT from the session start; n - 1 ITL samples, mean = the pacing")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 30;
        Bench b(n);
        b.Run();

        NS_TEST_ASSERT_MSG_EQ(b.InOrderOnce(n), true, "in order, once");

        if (!b.InOrderOnce(n))

        {
            return; // the checks below index the deliveries
        }
        NS_TEST_ASSERT_MSG_EQ(b.traces.ttft.size(), 1u, "one TTFT");
        if (b.traces.ttft.size() != 1)
        {
            return;
        }
        const Time ttft = b.traces.ttft[0];
        NS_TEST_ASSERT_MSG_EQ(ttft, b.traces.deliveries[0].delivered - kClientStart, "from start");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(ttft, kPacing + 2 * kLinkDelay, "at least pacing + a RTT");
        NS_TEST_ASSERT_MSG_LT(ttft, kPacing + 2 * kLinkDelay + MilliSeconds(1), "and no more");
        NS_TEST_ASSERT_MSG_EQ(b.traces.itl.size(), n - 1, "n - 1 ITL samples traced");
        for (const Time& gap : b.traces.itl)
        {
            NS_TEST_ASSERT_MSG_EQ(gap, kPacing, "every gap is the pacing");
        }
        const TokenTimingSummary s = b.client->GetSummary();
        NS_TEST_ASSERT_MSG_EQ(s.tokens, n, "summary tokens");
        NS_TEST_ASSERT_MSG_EQ(s.itlCount, n - 1, "summary ITL count");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.itlMeanS, kPacing.GetSeconds(), 1e-12, "mean ITL = pacing");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.ttftS, ttft.GetSeconds(), 1e-12, "summary TTFT");
        NS_TEST_ASSERT_MSG_EQ(s.sit.size(), 0u, "no handover, no SIT");
        NS_TEST_ASSERT_MSG_EQ(b.traces.sit.size(), 0u, "no SIT traced");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A handover mark NACKs every open gap at once, without waiting for the gap timer
 * that started before it.
 */
class EdgeLlmClientMarkNacksTestCase : public TestCase
{
  public:
    EdgeLlmClientMarkNacksTestCase()
        : TestCase("A handover mark NACKs the open gaps within 1 ms of its arrival")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 20;
        Bench b(n);
        // A long NackDelay, so that the gap timer started by token 7 cannot be what NACKs.
        b.client->SetAttribute("NackDelay", TimeValue(MilliSeconds(80)));
        b.server->dropFirst = {4, 6};
        // The mark: token 8 again, 3 ms after its slot, while the gaps at 4 and 6 are open.
        b.server->markCopyAfter[8] = MilliSeconds(3);
        b.Run();

        NS_TEST_ASSERT_MSG_EQ(b.InOrderOnce(n), true, "in order, once");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(b.server->nacks.size(), 1u, "a NACK");
        if (b.server->nacks.empty())
        {
            return;
        }
        const NackSeen& first = b.server->nacks[0];
        // The mark left 3 ms after token 8's slot and took one link delay; the NACK takes one
        // back. Between the two, the client may take at most 1 ms.
        const Time markArrives =
            NanoSeconds(b.server->generatedNs[8]) + MilliSeconds(3) + kLinkDelay;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(first.at, markArrives + kLinkDelay, "after the mark");
        NS_TEST_ASSERT_MSG_LT(first.at,
                              markArrives + kLinkDelay + MilliSeconds(1),
                              "within 1 ms of the mark");
        NS_TEST_ASSERT_MSG_EQ(first.ranges.size(), 2u, "both gaps in one NACK");
        if (first.ranges.size() == 2)
        {
            NS_TEST_ASSERT_MSG_EQ(first.ranges[0].first, 4u, "token 4");
            NS_TEST_ASSERT_MSG_EQ(first.ranges[0].Count(), 1u, "only");
            NS_TEST_ASSERT_MSG_EQ(first.ranges[1].first, 6u, "token 6");
            NS_TEST_ASSERT_MSG_EQ(first.ranges[1].Count(), 1u, "only");
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief SIT runs from the last delivery before the mark's arrival to the delivery of the token
 * after the marked one: the next delivery when the marked token came before the mark, the
 * token after it when the marked copy itself fills the gap of a lost token, also when that
 * token comes long after the mark.
 */
class EdgeLlmClientSitTestCase : public TestCase
{
  public:
    EdgeLlmClientSitTestCase()
        : TestCase("SIT from the last delivery before the mark to the token after the marked one")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 30;
        Bench b(n);
        // A pause with nothing lost: 15 came before its mark, so the silence ends with 16, the
        // next delivery: the pause plus one pacing interval.
        b.server->markCopyBefore = {15};
        b.server->pauseBefore[16] = MilliSeconds(50);
        // A handover that lost token 20: the marked copy of 20, sent just before 21, fills the
        // gap; the silence runs from the delivery of 19 to that of 21, one packet later.
        b.server->dropFirst = {20, 25};
        b.server->markCopyBefore.insert(20);
        b.server->pauseBefore[21] = MilliSeconds(40);
        // A migration that lost token 25: the marked copy delivers 25 soon (5 ms after its
        // slot), but 26 comes only after the target's 100 ms prefill. The user waits from 24
        // to 26: 25's slot, the pause and 26's slot; the silence up to the mark is only 15 ms.
        b.server->markCopyAfter[25] = MilliSeconds(5);
        b.server->pauseBefore[26] = MilliSeconds(100);
        b.Run();

        NS_TEST_ASSERT_MSG_EQ(b.InOrderOnce(n), true, "in order, once");
        if (!b.InOrderOnce(n))
        {
            return; // the checks below index the deliveries
        }
        const auto& d = b.traces.deliveries;
        NS_TEST_ASSERT_MSG_EQ(b.traces.sit.size(), 3u, "three SITs traced");
        if (b.traces.sit.size() != 3)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(b.traces.sit[0].first, 15u, "the first at the marked token");
        for (uint64_t imsi : b.traces.sitImsi)
        {
            NS_TEST_ASSERT_MSG_EQ(imsi, kImsi, "each SIT names its session");
        }
        // The marked copy goes first on the link, so the next token lands one packet's
        // transmission time later.
        const Time slack = MicroSeconds(100);
        NS_TEST_ASSERT_MSG_EQ_TOL(b.traces.sit[0].second,
                                  kPacing + MilliSeconds(50),
                                  slack,
                                  "pause + pace");
        NS_TEST_ASSERT_MSG_EQ(b.traces.sit[0].second,
                              d[16].delivered - d[15].delivered,
                              "from 15's delivery to 16's");
        NS_TEST_ASSERT_MSG_EQ(b.traces.sitAt[0], d[16].delivered, "traced when 16 arrives");

        NS_TEST_ASSERT_MSG_EQ(b.traces.sit[1].first, 20u, "the second at the lost token");
        NS_TEST_ASSERT_MSG_EQ(d[20].resent, true, "the marked copy delivered 20");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.traces.sit[1].second,
                                  kPacing * 2 + MilliSeconds(40),
                                  slack,
                                  "from token 19's delivery: 20's slot, the pause, 21's slot");
        NS_TEST_ASSERT_MSG_EQ(b.traces.sit[1].second,
                              d[21].delivered - d[19].delivered,
                              "ends with 21, not with the copy of 20 a packet earlier");
        NS_TEST_ASSERT_MSG_GT(d[21].delivered, d[20].delivered, "21 came in its own packet");
        NS_TEST_ASSERT_MSG_EQ(b.traces.sitAt[1], d[21].delivered, "traced when 21 arrives");

        NS_TEST_ASSERT_MSG_EQ(b.traces.sit[2].first, 25u, "the third at the lost token");
        NS_TEST_ASSERT_MSG_EQ(d[25].resent, true, "the marked copy delivered 25");
        NS_TEST_ASSERT_MSG_EQ(d[25].delivered - d[24].delivered,
                              kPacing + MilliSeconds(5),
                              "the mark arrived 15 ms after 24");
        NS_TEST_ASSERT_MSG_EQ(b.traces.sit[2].second,
                              kPacing * 2 + MilliSeconds(100),
                              "from 24's delivery to 26's, both single-token packets");
        NS_TEST_ASSERT_MSG_EQ(b.traces.sitAt[2], d[26].delivered, "traced when 26 arrives");

        const TokenTimingSummary s = b.client->GetSummary();
        NS_TEST_ASSERT_MSG_EQ(s.sit.size(), 3u, "three SITs summarised");
        NS_TEST_ASSERT_MSG_EQ(s.marksWithoutNext, 0u, "every SIT ended");
        if (s.sit.size() != 3)
        {
            return;
        }
        for (std::size_t k = 0; k < 3; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(s.sit[k].markedIndex, b.traces.sit[k].first, "same marks");
            NS_TEST_ASSERT_MSG_EQ_TOL(s.sit[k].sitS,
                                      b.traces.sit[k].second.GetSeconds(),
                                      1e-12,
                                      "the summary agrees with the trace");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(s.sit[0].sitS, 0.060, 1e-4, "SIT of the first handover");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.sit[2].sitS, 0.120, 1e-12, "SIT of the migration");
        NS_TEST_ASSERT_MSG_EQ(s.itlCount, n - 1, "still n - 1 ITL samples");
        NS_TEST_ASSERT_MSG_EQ(b.client->GetHandoverMarks().size(), 3u, "three marks");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A rejection stops the retries and fires the trace; one that echoes no OPEN_SESSION is
 * ignored.
 */
class EdgeLlmClientRejectTestCase : public TestCase
{
  public:
    EdgeLlmClientRejectTestCase()
        : TestCase("SESSION_REJECTED: trace, no retries; a wrong sequence number is ignored")
    {
    }

  private:
    void DoRun() override
    {
        {
            Bench b(10);
            b.server->reject = true;
            b.Run(Seconds(3));
            NS_TEST_ASSERT_MSG_EQ(b.client->IsRejected(), true, "rejected");
            NS_TEST_ASSERT_MSG_EQ(b.traces.rejections.size(), 1u, "trace fired once");
            if (b.traces.rejections.size() != 1)
            {
                return;
            }
            NS_TEST_ASSERT_MSG_EQ(b.traces.rejections[0].first, kImsi, "with the IMSI");
            NS_TEST_ASSERT_MSG_EQ(static_cast<int>(b.traces.rejections[0].second),
                                  static_cast<int>(EdgeLlmDownlinkHeader::SERVER_BUSY),
                                  "and the reason");
            NS_TEST_ASSERT_MSG_EQ(b.server->openSeqs.size(), 1u, "no retry in 2 s");
            NS_TEST_ASSERT_MSG_EQ(b.client->GetOpensSent(), 1u, "one OPEN_SESSION sent");
            NS_TEST_ASSERT_MSG_EQ(b.client->GetDeliveredTokens(), 0u, "nothing delivered");
            NS_TEST_ASSERT_MSG_EQ(b.client->GetSummary().tokens, 0u, "an empty summary");
            NS_TEST_ASSERT_MSG_EQ(std::isnan(b.client->GetSummary().ttftS), true, "TTFT NaN");
        }
        {
            Bench b(10);
            b.server->reject = true;
            b.server->rejectSeqOffset = 1000;
            b.Run(Seconds(1.55));
            NS_TEST_ASSERT_MSG_EQ(b.client->IsRejected(), false, "not this session's refusal");
            NS_TEST_ASSERT_MSG_EQ(b.traces.rejections.size(), 0u, "no trace");
            NS_TEST_ASSERT_MSG_EQ(b.server->openSeqs.size(), 6u, "retries every 100 ms go on");
            NS_TEST_ASSERT_MSG_EQ(b.client->GetInvalidPackets(), 6u, "each refusal ignored");
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Malformed downlink packets, every truncation of a valid one and garbage, sent in the
 * middle of a session, are dropped, counted and traced, and change nothing: the session
 * delivers exactly what it delivers without them.
 */
class EdgeLlmClientMalformedTestCase : public TestCase
{
  public:
    EdgeLlmClientMalformedTestCase()
        : TestCase("Malformed downlink packets: dropped, counted, traced; nothing changes")
    {
    }

  private:
    void Dropped(uint64_t imsi, const std::string& why)
    {
        m_drops.emplace_back(imsi, why);
    }

    void DoRun() override
    {
        std::vector<Delivery> clean;
        {
            Bench b(10);
            b.Run(Seconds(3));
            clean = b.traces.deliveries;
        }
        Bench b(10);
        b.client->TraceConnectWithoutContext(
            "PacketDropped",
            MakeCallback(&EdgeLlmClientMalformedTestCase::Dropped, this));
        // A valid copy of token 5, with another generation time, whose every proper prefix
        // is sent: if any were taken, token 5 would be delivered with that time.
        EdgeLlmDownlinkHeader h;
        h.SetTokens(5, {Seconds(7)});
        h.SetImsi(kImsi);
        h.SetCellId(kCellId);
        h.SetServer(b.server->addrA, b.server->port);
        Ptr<Packet> valid = Create<Packet>();
        valid->AddHeader(h);
        std::vector<uint8_t> bytes(valid->GetSize());
        valid->CopyData(bytes.data(), bytes.size());
        std::vector<Ptr<Packet>> bad;
        for (std::size_t n = 1; n < bytes.size(); ++n)
        {
            bad.push_back(Create<Packet>(bytes.data(), n));
        }
        std::vector<uint8_t> garbage(64, 0xff);
        bad.push_back(Create<Packet>(garbage.data(), garbage.size()));
        bytes[2] = 2; // version 2
        bad.push_back(Create<Packet>(bytes.data(), bytes.size()));
        Ptr<FakeTokenServer> server = b.server;
        // Tokens 0 to 2 are in by then, 3 to 9 still to come.
        Simulator::Schedule(kClientStart + MilliSeconds(35), [server, bad]() {
            for (Ptr<Packet> p : bad)
            {
                server->SendRaw(p);
            }
        });
        b.Run(Seconds(3));

        NS_TEST_ASSERT_MSG_EQ(b.client->GetInvalidPackets(), bad.size(), "each one counted");
        NS_TEST_ASSERT_MSG_EQ(m_drops.size(), bad.size(), "and traced");
        for (const auto& [imsi, why] : m_drops)
        {
            NS_TEST_ASSERT_MSG_EQ(imsi, kImsi, "with the session");
            NS_TEST_ASSERT_MSG_EQ(why.rfind("malformed: ", 0), 0u, "as malformed: " << why);
        }
        NS_TEST_ASSERT_MSG_EQ(b.client->IsComplete(), true, "the session completes");
        NS_TEST_ASSERT_MSG_EQ(b.traces.deliveries.size(), clean.size(), "as many deliveries");
        for (std::size_t k = 0; k < std::min(clean.size(), b.traces.deliveries.size()); ++k)
        {
            const Delivery& d = b.traces.deliveries[k];
            NS_TEST_ASSERT_MSG_EQ(d.index, clean[k].index, "the same token " << k);
            NS_TEST_ASSERT_MSG_EQ(d.generated, clean[k].generated, "generated " << k);
            NS_TEST_ASSERT_MSG_EQ(d.delivered, clean[k].delivered, "delivered " << k);
        }
    }

    std::vector<std::pair<uint64_t, std::string>> m_drops; //!< PacketDropped
};

/**
 * \ingroup edge-llm-tests
 * \brief The token log: its header, and one row per token delivered with the right columns.
 */
class EdgeLlmClientTokenLogTestCase : public TestCase
{
  public:
    EdgeLlmClientTokenLogTestCase()
        : TestCase("Token log: CSV header and one exact row per token delivered")
    {
    }

  private:
    static std::vector<std::string> Split(const std::string& line)
    {
        std::vector<std::string> fields;
        std::stringstream ss(line);
        std::string f;
        while (std::getline(ss, f, ','))
        {
            fields.push_back(f);
        }
        return fields;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(TokenLog::FormatSeconds(1250000000), "1.250000000", "s.ns");
        NS_TEST_ASSERT_MSG_EQ(TokenLog::FormatSeconds(7), "0.000000007", "leading zeros");
        NS_TEST_ASSERT_MSG_EQ(TokenLog::FormatSeconds(-1500000000), "-1.500000000", "negative");
        std::ostringstream dummy;
        TokenLog refusing(dummy);
        bool refused = false;
        try
        {
            refusing.SetScheme("a,b");
        }
        catch (const std::invalid_argument&)
        {
            refused = true;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "a scheme with a comma is refused");
        {
            const std::string path = CreateTempDirFilename("tokens.csv");
            {
                Ptr<TokenLog> file = Create<TokenLog>(path);
                file->SetScheme("tHO");
                file->Write(3, 1, MilliSeconds(5), MilliSeconds(9), 2, true);
            }
            std::ifstream in(path);
            std::string header;
            std::string row;
            std::getline(in, header);
            std::getline(in, row);
            NS_TEST_ASSERT_MSG_EQ(header, TokenLog::HEADER, "the file's header");
            NS_TEST_ASSERT_MSG_EQ(row, "tHO,3,1,0.005000000,0.009000000,2,1", "the file's row");
        }

        const uint32_t n = 20;
        std::ostringstream os;
        Ptr<TokenLog> log = Create<TokenLog>(os);
        log->SetScheme("ctHO");
        Bench b(n);
        b.server->dropFirst = {5};
        b.client->SetTokenLog(log);
        b.Run();
        NS_TEST_ASSERT_MSG_EQ(b.InOrderOnce(n), true, "in order, once");
        if (!b.InOrderOnce(n))
        {
            return; // the checks below index the deliveries
        }

        std::istringstream in(os.str());
        std::string line;
        std::getline(in, line);
        NS_TEST_ASSERT_MSG_EQ(line,
                              "scheme,imsi,token_index,generated_s,delivered_s,cell_id,resent",
                              "the header line");
        uint32_t rows = 0;
        while (std::getline(in, line))
        {
            const std::vector<std::string> f = Split(line);
            NS_TEST_ASSERT_MSG_EQ(f.size(), 7u, "seven columns in " << line);
            NS_TEST_ASSERT_MSG_LT(rows, n, "no more rows than tokens");
            const Delivery& d = b.traces.deliveries[rows];
            NS_TEST_ASSERT_MSG_EQ(f[0], "ctHO", "scheme");
            NS_TEST_ASSERT_MSG_EQ(f[1], std::to_string(kImsi), "imsi");
            NS_TEST_ASSERT_MSG_EQ(f[2], std::to_string(rows), "token_index in order");
            NS_TEST_ASSERT_MSG_EQ(f[3],
                                  TokenLog::FormatSeconds(b.server->generatedNs[rows]),
                                  "generated_s is the server's generation time");
            NS_TEST_ASSERT_MSG_EQ(f[4],
                                  TokenLog::FormatSeconds(d.delivered.GetNanoSeconds()),
                                  "delivered_s");
            NS_TEST_ASSERT_MSG_EQ(f[5], std::to_string(kCellId), "cell_id");
            const std::string resent = rows == 5 ? "1" : "0";
            NS_TEST_ASSERT_MSG_EQ(f[6], resent, "resent");
            ++rows;
        }
        NS_TEST_ASSERT_MSG_EQ(rows, n, "one row per token");
        NS_TEST_ASSERT_MSG_EQ(log->GetRows(), n, "rows counted");
        NS_TEST_ASSERT_MSG_EQ(log->IsGood(), true, "no write failed");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Bad attribute values are refused where they are given.
 */
class EdgeLlmClientAttributeTestCase : public TestCase
{
  public:
    EdgeLlmClientAttributeTestCase()
        : TestCase("Bad attribute values are refused: IMSI 0, no tokens, zero intervals")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EdgeLlmClient> c = CreateObject<EdgeLlmClient>();
        NS_TEST_ASSERT_MSG_EQ(c->GetImsi(), 0u, "the IMSI starts unset");
        const std::vector<std::pair<std::string, Ptr<AttributeValue>>> bad = {
            {"Imsi", Create<UintegerValue>(0)},
            {"TokensToGenerate", Create<UintegerValue>(0)},
            {"PromptTokens", Create<UintegerValue>(0)},
            {"AckEveryTokens", Create<UintegerValue>(0)},
            {"Port", Create<UintegerValue>(0)},
            {"ServerPort", Create<UintegerValue>(0)},
            {"OpenRetryInterval", Create<TimeValue>(Seconds(0))},
            {"NackInterval", Create<TimeValue>(Seconds(0))},
            {"IdleTimeout", Create<TimeValue>(Seconds(0))},
            {"NackDelay", Create<TimeValue>(MilliSeconds(-1))},
            {"ServerAddress", Create<Ipv4AddressValue>(Ipv4Address::GetAny())},
            {"ServerAddress", Create<Ipv4AddressValue>(Ipv4Address::GetBroadcast())},
        };
        for (const auto& [name, value] : bad)
        {
            NS_TEST_ASSERT_MSG_EQ(c->SetAttributeFailSafe(name, *value),
                                  false,
                                  name << " = " << value->SerializeToString(nullptr)
                                       << " is refused");
        }
        NS_TEST_ASSERT_MSG_EQ(c->SetAttributeFailSafe("Imsi", UintegerValue(1)), true, "IMSI 1");
        NS_TEST_ASSERT_MSG_EQ(c->SetAttributeFailSafe("NackDelay", TimeValue(Seconds(0))),
                              true,
                              "a NackDelay of 0 NACKs at once");
        NS_TEST_ASSERT_MSG_EQ(
            c->SetAttributeFailSafe("ServerAddress", Ipv4AddressValue("10.0.0.1")),
            true,
            "a unicast address");
        UintegerValue port;
        c->GetAttribute("Port", port);
        NS_TEST_ASSERT_MSG_EQ(port.Get(), 9100u, "default Port");
        c->GetAttribute("ServerPort", port);
        NS_TEST_ASSERT_MSG_EQ(port.Get(), 9000u, "default ServerPort");
        c->Dispose();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The UE's token stream client against a fake server over point-to-point links.
 */
class EdgeLlmClientTestSuite : public TestSuite
{
  public:
    EdgeLlmClientTestSuite()
        : TestSuite("edge-llm-client")
    {
        AddTestCase(new EdgeLlmClientAttributeTestCase());
        AddTestCase(new EdgeLlmClientRecoveryTestCase());
        AddTestCase(new EdgeLlmClientNackTimingTestCase());
        AddTestCase(new EdgeLlmClientMarkNacksTestCase());
        AddTestCase(new EdgeLlmClientOwnerTestCase());
        AddTestCase(new EdgeLlmClientStaleOwnerTestCase());
        AddTestCase(new EdgeLlmClientFinalAckTestCase());
        AddTestCase(new EdgeLlmClientOpenRetryTestCase());
        AddTestCase(new EdgeLlmClientTimingTestCase());
        AddTestCase(new EdgeLlmClientSitTestCase());
        AddTestCase(new EdgeLlmClientRejectTestCase());
        AddTestCase(new EdgeLlmClientMalformedTestCase());
        AddTestCase(new EdgeLlmClientTokenLogTestCase());
    }
};

/// The suite's one instance.
static EdgeLlmClientTestSuite g_edgeLlmClientTestSuite;
