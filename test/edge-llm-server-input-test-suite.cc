/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The edge LLM server does not trust what it receives: malformed uplink and relay packets,
// and an OPEN_SESSION it cannot take, are dropped, counted and traced, and change nothing.
// The server runs on a plain node whose radio is a stand-in that only counts what it is given.

#include "ns3/edge-llm-downlink-header.h"
#include "ns3/edge-llm-relay-header.h"
#include "ns3/edge-llm-server.h"
#include "ns3/edge-llm-uplink-header.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/llm-engine.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/ran-downlink.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kImsi = 77;      //!< the session a valid OPEN_SESSION opens
constexpr uint64_t kMigrating = 88; //!< a session the engine holds for a migration
constexpr uint64_t kRelayed = 99;   //!< a session whose tokens a neighbour relays here
constexpr uint16_t kCellId = 3;     //!< the stand-in's cell

/// A cell that takes every packet and counts them.
class CountingDownlink : public RanDownlink
{
  public:
    bool Send(Ptr<Packet>, uint64_t imsi, Ipv4Address, Ipv4Address, uint16_t, uint16_t) override
    {
        sent.push_back(imsi);
        return true;
    }

    bool CanSend(uint64_t) override
    {
        return true;
    }

    uint16_t GetCellId() const override
    {
        return kCellId;
    }

    std::vector<uint64_t> sent; //!< the IMSI of each packet taken
};

/// The bytes of a header.
template <typename Hdr>
std::vector<uint8_t>
BytesOf(const Hdr& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/// Every proper, non-empty prefix of the bytes, as packets.
std::vector<Ptr<Packet>>
Prefixes(const std::vector<uint8_t>& b, std::size_t from = 1)
{
    std::vector<Ptr<Packet>> out;
    for (std::size_t n = from; n < b.size(); ++n)
    {
        out.push_back(Create<Packet>(b.data(), n));
    }
    return out;
}

EdgeLlmUplinkHeader
Open(uint64_t imsi)
{
    EdgeLlmUplinkHeader h;
    h.SetOpenSession(100, 20, Seconds(0));
    h.SetImsi(imsi);
    h.SetRequestSeq(0);
    return h;
}

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief Every truncation of a valid OPEN_SESSION, NACK, relay header and relayed message,
 * garbage, and an OPEN_SESSION of a session the engine holds for a migration not resumed yet,
 * are dropped by the server, counted and traced; none opens a session or reaches the cell.
 * Valid messages sent after them still work.
 */
class EdgeLlmServerMalformedTestCase : public TestCase
{
  public:
    EdgeLlmServerMalformedTestCase()
        : TestCase("Malformed uplink and relay packets: dropped, counted, traced; nothing changes")
    {
    }

  private:
    void Dropped(const std::string& port, const std::string& why)
    {
        m_drops.emplace_back(port, why);
    }

    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        InternetStackHelper internet;
        internet.Install(nodes);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        Ipv4AddressHelper ip;
        ip.SetBase("10.1.1.0", "255.255.255.0");
        const Ipv4InterfaceContainer ifs = ip.Assign(p2p.Install(nodes));
        const Ipv4Address serverAddress = ifs.GetAddress(1);

        Ptr<CountingDownlink> cell = CreateObject<CountingDownlink>();
        Ptr<LlmEngine> engine = CreateObject<LlmEngine>();
        Ptr<EdgeLlmServer> server = CreateObject<EdgeLlmServer>();
        server->SetAttribute("Engine", PointerValue(engine));
        server->SetRanDownlink(cell);
        server->SetUplinkAddress(serverAddress);
        nodes.Get(1)->AddApplication(server);
        server->TraceConnectWithoutContext(
            "PacketDropped",
            MakeCallback(&EdgeLlmServerMalformedTestCase::Dropped, this));

        std::vector<Ptr<Packet>> uplink = Prefixes(BytesOf(Open(kImsi)));
        EdgeLlmUplinkHeader nack;
        nack.SetNack(0, {{2, 5}, {9, 10}});
        nack.SetImsi(kImsi);
        for (Ptr<Packet> p : Prefixes(BytesOf(nack)))
        {
            uplink.push_back(p);
        }
        std::vector<uint8_t> garbage(40, 0xed);
        uplink.push_back(Create<Packet>(garbage.data(), garbage.size()));
        const std::size_t malformedUplink = uplink.size();

        EdgeLlmDownlinkHeader tokens;
        tokens.SetTokens(0, {Seconds(1)});
        tokens.SetImsi(kRelayed);
        tokens.SetCellId(1);
        tokens.SetServer(serverAddress, 9000);
        std::vector<uint8_t> relayed = BytesOf(EdgeLlmRelayHeader(kRelayed, ifs.GetAddress(0), 5));
        const std::size_t relaySize = relayed.size();
        for (uint8_t b : BytesOf(tokens))
        {
            relayed.push_back(b);
        }
        // The relay header cut, then whole with the relayed message cut.
        const std::vector<Ptr<Packet>> relay = Prefixes(relayed);

        Ptr<Socket> peer = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        peer->Bind();
        const InetSocketAddress uplinkTo(serverAddress, 9000);
        const InetSocketAddress relayTo(serverAddress, 9001);
        // One packet a millisecond, so that no queue drops any.
        Time at = Seconds(0.1);
        for (Ptr<Packet> p : uplink)
        {
            Simulator::Schedule(at, [=]() { peer->SendTo(p, 0, uplinkTo); });
            at += MilliSeconds(1);
        }
        for (Ptr<Packet> p : relay)
        {
            Simulator::Schedule(at, [=]() { peer->SendTo(p, 0, relayTo); });
            at += MilliSeconds(1);
        }
        // The engine holds a session migrating here; its OPEN_SESSION is not the server's to
        // take until the migration resumes.
        const std::vector<uint8_t> migrating = BytesOf(Open(kMigrating));
        Simulator::Schedule(Seconds(0.25), [=]() {
            engine->AddResumedSession(kMigrating, 100, 20);
            peer->SendTo(Create<Packet>(migrating.data(), migrating.size()), 0, uplinkTo);
        });
        bool ownedBefore = true;
        std::size_t sentBefore = 1;
        Simulator::Schedule(Seconds(0.3), [&]() {
            ownedBefore = server->OwnsSession(kImsi) || server->OwnsSession(kMigrating) ||
                          engine->HasSession(kImsi);
            sentBefore = cell->sent.size();
            const std::vector<uint8_t> open = BytesOf(Open(kImsi));
            peer->SendTo(Create<Packet>(open.data(), open.size()), 0, uplinkTo);
            peer->SendTo(Create<Packet>(relayed.data(), relayed.size()), 0, relayTo);
        });
        Simulator::Stop(Seconds(0.4));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(ownedBefore, false, "no dropped packet opened a session");
        NS_TEST_ASSERT_MSG_EQ(sentBefore, 0u, "nor reached the cell");
        NS_TEST_ASSERT_MSG_EQ(server->GetDroppedUplinkPackets(),
                              malformedUplink + 1,
                              "every bad uplink message counted, and the migrating OPEN");
        NS_TEST_ASSERT_MSG_EQ(server->GetDroppedRelayPackets(), relay.size(), "and relay");
        NS_TEST_ASSERT_MSG_EQ(m_drops.size(), malformedUplink + 1 + relay.size(), "all traced");
        std::size_t uplinkTraced = 0;
        std::size_t relayTraced = 0;
        std::size_t migratingTraced = 0;
        for (std::size_t k = 0; k < m_drops.size(); ++k)
        {
            const auto& [port, why] = m_drops[k];
            if (port == "uplink" && why.rfind("malformed: ", 0) == 0)
            {
                ++uplinkTraced;
            }
            else if (port == "uplink" && why.find("migrating here") != std::string::npos)
            {
                ++migratingTraced;
            }
            else if (port == "relay" && why.find("malformed") != std::string::npos)
            {
                ++relayTraced;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(uplinkTraced, malformedUplink, "uplink drops, as malformed");
        NS_TEST_ASSERT_MSG_EQ(migratingTraced, 1u, "the migrating session's OPEN_SESSION");
        NS_TEST_ASSERT_MSG_EQ(relayTraced, relay.size(), "relay drops, as malformed");
        std::size_t relayCut = 0;
        for (const auto& [port, why] : m_drops)
        {
            relayCut += port == "relay" && why == "malformed relay header" ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(relayCut, relaySize - 1, "a cut relay header, as such");

        NS_TEST_ASSERT_MSG_EQ(server->OwnsSession(kImsi), true, "a valid OPEN_SESSION still opens");
        NS_TEST_ASSERT_MSG_EQ(std::count(cell->sent.begin(), cell->sent.end(), kRelayed),
                              1,
                              "a valid relayed message reaches the cell, once");
        NS_TEST_ASSERT_MSG_EQ(server->OwnsSession(kMigrating), false, "not the migrating one");
        Simulator::Destroy();
    }

    std::vector<std::pair<std::string, std::string>> m_drops; //!< PacketDropped
};

/**
 * \ingroup edge-llm-tests
 * \brief An OPEN_SESSION retry that reaches the holder after it exported the session (its
 * migration resumed elsewhere) opens nothing there: the session lives on at its new owner,
 * whose tokens tell the client where it is. With the engine's copy freed, as after a
 * resumption, and with it still held, as while the transfer runs.
 */
class EdgeLlmServerOpenAfterExportTestCase : public TestCase
{
  public:
    /// \param engineFreed whether the holder's engine freed its copy before the OPEN_SESSION
    explicit EdgeLlmServerOpenAfterExportTestCase(bool engineFreed)
        : TestCase(engineFreed ? "OPEN_SESSION at the holder after the export, engine copy "
                                 "freed: ignored, nothing opens, nothing sent"
                               : "OPEN_SESSION at the holder after the export, engine copy "
                                 "held: ignored, nothing opens, nothing sent"),
          m_engineFreed(engineFreed)
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        InternetStackHelper internet;
        internet.Install(nodes);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        Ipv4AddressHelper ip;
        ip.SetBase("10.1.2.0", "255.255.255.0");
        const Ipv4InterfaceContainer ifs = ip.Assign(p2p.Install(nodes));
        const Ipv4Address serverAddress = ifs.GetAddress(1);

        Ptr<CountingDownlink> cell = CreateObject<CountingDownlink>();
        Ptr<LlmEngine> engine = CreateObject<LlmEngine>();
        Ptr<EdgeLlmServer> server = CreateObject<EdgeLlmServer>();
        server->SetAttribute("Engine", PointerValue(engine));
        server->SetRanDownlink(cell);
        server->SetUplinkAddress(serverAddress);
        nodes.Get(1)->AddApplication(server);
        uint32_t opened = 0;
        uint32_t drops = 0;
        server->TraceConnectWithoutContext(
            "SessionOpened",
            Callback<void, uint64_t>([&opened](uint64_t) { ++opened; }));
        server->TraceConnectWithoutContext(
            "PacketDropped",
            Callback<void, const std::string&, const std::string&>(
                [&drops](const std::string&, const std::string&) { ++drops; }));

        Ptr<Socket> peer = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        peer->Bind();
        const InetSocketAddress uplinkTo(serverAddress, 9000);
        // A long answer, so that the session still streams at the export.
        EdgeLlmUplinkHeader request;
        request.SetOpenSession(100, 2000, Seconds(0));
        request.SetImsi(kImsi);
        request.SetRequestSeq(0);
        const std::vector<uint8_t> open = BytesOf(request);
        Simulator::Schedule(Seconds(0.1), [=]() {
            peer->SendTo(Create<Packet>(open.data(), open.size()), 0, uplinkTo);
        });
        // Once it has streamed a while, the session migrates away: the holder stops decoding
        // and exports it, as the coordinator does at a handover.
        uint64_t generatedAtExport = 0;
        std::size_t sentAtExport = 0;
        Simulator::Schedule(Seconds(1), [&]() {
            generatedAtExport = engine->GetGeneratedTokens(kImsi);
            engine->StopDecoding(kImsi);
            server->ExportSession(kImsi);
            if (m_engineFreed)
            {
                engine->RemoveSession(kImsi);
            }
            sentAtExport = cell->sent.size();
        });
        // The client's retry, delayed in the uplink, arrives after the export.
        Simulator::Schedule(Seconds(1.1), [=]() {
            peer->SendTo(Create<Packet>(open.data(), open.size()), 0, uplinkTo);
        });
        Simulator::Stop(Seconds(1.5));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(opened, 1u, "the session opened once, before the export");
        NS_TEST_ASSERT_MSG_GT(generatedAtExport, 0u, "and streamed");
        NS_TEST_ASSERT_MSG_GT(sentAtExport, 0u, "to the cell");
        NS_TEST_ASSERT_MSG_EQ(server->OwnsSession(kImsi), false, "the retry opened nothing");
        NS_TEST_ASSERT_MSG_EQ(engine->HasSession(kImsi),
                              !m_engineFreed,
                              "the engine got no new session, and kept what it held");
        if (!m_engineFreed)
        {
            NS_TEST_ASSERT_MSG_EQ(engine->IsDecoding(kImsi), false, "nor decodes it again");
            NS_TEST_ASSERT_MSG_EQ(engine->GetGeneratedTokens(kImsi),
                                  generatedAtExport,
                                  "no token generated after the export");
        }
        NS_TEST_ASSERT_MSG_EQ(cell->sent.size(), sentAtExport, "no token resent to the UE");
        NS_TEST_ASSERT_MSG_EQ(drops, 0u, "a retry, not a malformed packet");
        NS_TEST_ASSERT_MSG_EQ(server->GetDroppedUplinkPackets(), 0u, "nothing counted as bad");
        Simulator::Destroy();
    }

    bool m_engineFreed; //!< the engine freed its copy before the retry
};

/**
 * \ingroup edge-llm-tests
 * \brief The edge LLM server against packets that break the protocol.
 */
class EdgeLlmServerInputTestSuite : public TestSuite
{
  public:
    EdgeLlmServerInputTestSuite()
        : TestSuite("edge-llm-server-input")
    {
        AddTestCase(new EdgeLlmServerMalformedTestCase());
        AddTestCase(new EdgeLlmServerOpenAfterExportTestCase(true));
        AddTestCase(new EdgeLlmServerOpenAfterExportTestCase(false));
    }
};

/// The suite's one instance.
static EdgeLlmServerInputTestSuite g_edgeLlmServerInputTestSuite;
