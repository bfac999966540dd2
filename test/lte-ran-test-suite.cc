/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the RAN-facing layer on ns-3's LTE stack: the observer's events, local breakout
// into an eNB, its refusals where ns-3 would crash, and the uplink route to an eNB's server.

#include "ns3/boolean.h"
#include "ns3/constant-velocity-mobility-model.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/lte-enb-mac.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-enb-rrc.h"
#include "ns3/lte-epc-routes.h"
#include "ns3/lte-helper.h"
#include "ns3/lte-local-breakout.h"
#include "ns3/lte-measurement-reports.h"
#include "ns3/lte-ran-observer.h"
#include "ns3/lte-ue-net-device.h"
#include "ns3/lte-ue-rrc.h"
#include "ns3/mobility-helper.h"
#include "ns3/point-to-point-epc-helper.h"
#include "ns3/position-allocator.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <functional>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// UDP port of the UE's token socket.
constexpr uint16_t kUePort = 9000;
/// UDP port the server sends from.
constexpr uint16_t kServerPort = 5000;
/// Payload bytes of each test datagram.
constexpr uint32_t kPayload = 100;

/**
 * A small LTE + EPC scenario: eNBs 500 m apart on a line, UEs half-way between the first two
 * unless told otherwise, attached to the first eNB, X2 between the eNBs, no automatic
 * handover.
 */
struct LteScenario
{
    Ptr<LteHelper> lte;                 //!< LTE helper
    Ptr<PointToPointEpcHelper> epc;     //!< EPC helper
    NodeContainer enbNodes;             //!< eNB nodes
    NodeContainer ueNodes;              //!< UE nodes
    NetDeviceContainer enbDevs;         //!< eNB devices
    NetDeviceContainer ueDevs;          //!< UE devices
    Ipv4InterfaceContainer ueAddresses; //!< UE addresses (7.0.0.x)

    /**
     * \param enbs number of eNBs
     * \param ues number of UEs
     * \param idealRrc whether RRC messages are ideal, or sent over the air
     * \param ueStart where the UEs start
     * \param ueVelocity their velocity, m/s
     * \param configure called after the eNB devices are installed, before the UEs attach
     */
    LteScenario(uint32_t enbs,
                uint32_t ues,
                bool idealRrc,
                Vector ueStart = Vector(250.0, 0, 0),
                Vector ueVelocity = Vector(0, 0, 0),
                const std::function<void(const NetDeviceContainer&)>& configure = {})
    {
        epc = CreateObject<PointToPointEpcHelper>();
        lte = CreateObject<LteHelper>();
        lte->SetAttribute("UseIdealRrc", BooleanValue(idealRrc));
        lte->SetEpcHelper(epc);
        lte->SetHandoverAlgorithmType("ns3::NoOpHandoverAlgorithm");
        enbNodes.Create(enbs);
        ueNodes.Create(ues);
        Ptr<ListPositionAllocator> positions = CreateObject<ListPositionAllocator>();
        for (uint32_t i = 0; i < enbs; ++i)
        {
            positions->Add(Vector(500.0 * i, 0, 0));
        }
        for (uint32_t i = 0; i < ues; ++i)
        {
            positions->Add(ueStart);
        }
        MobilityHelper mobility;
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
        mobility.SetPositionAllocator(positions);
        mobility.Install(enbNodes);
        if (ueVelocity.GetLength() > 0)
        {
            mobility.SetMobilityModel("ns3::ConstantVelocityMobilityModel");
        }
        mobility.Install(ueNodes);
        for (uint32_t i = 0; i < ues && ueVelocity.GetLength() > 0; ++i)
        {
            ueNodes.Get(i)->GetObject<ConstantVelocityMobilityModel>()->SetVelocity(ueVelocity);
        }
        enbDevs = lte->InstallEnbDevice(enbNodes);
        if (configure)
        {
            configure(enbDevs);
        }
        ueDevs = lte->InstallUeDevice(ueNodes);
        if (enbs > 1)
        {
            lte->AddX2Interface(enbNodes);
        }
        InternetStackHelper internet;
        internet.Install(ueNodes);
        ueAddresses = epc->AssignUeIpv4Address(ueDevs);
        Ipv4StaticRoutingHelper routing;
        for (uint32_t i = 0; i < ues; ++i)
        {
            routing.GetStaticRouting(ueNodes.Get(i)->GetObject<Ipv4>())
                ->SetDefaultRoute(epc->GetUeDefaultGatewayAddress(), 1);
            lte->Attach(ueDevs.Get(i), enbDevs.Get(0));
        }
    }

    /**
     * \param i UE index
     * \return its IMSI
     */
    uint64_t Imsi(uint32_t i) const
    {
        return DynamicCast<LteUeNetDevice>(ueDevs.Get(i))->GetImsi();
    }

    /**
     * \param i eNB index
     * \return its cell
     */
    uint16_t CellId(uint32_t i) const
    {
        return DynamicCast<LteEnbNetDevice>(enbDevs.Get(i))->GetCellId();
    }

    /**
     * \param i eNB index
     * \return a local breakout bound to it
     */
    Ptr<LteLocalBreakout> Breakout(uint32_t i) const
    {
        Ptr<LteLocalBreakout> b = CreateObject<LteLocalBreakout>();
        b->SetEnbNetDevice(enbDevs.Get(i));
        return b;
    }
};

/// What a UDP socket received.
struct Received
{
    uint32_t packets{0};        //!< datagrams
    uint32_t wrongSize{0};      //!< datagrams whose size is not kPayload
    Ipv4Address lastFrom;       //!< source address of the last one
    uint16_t lastFromPort{0};   //!< source port of the last one
    std::vector<Time> arrivals; //!< arrival times
    std::vector<uint32_t> seqs; //!< sequence numbers, in arrival order

    /**
     * \brief Socket receive callback.
     * \param socket the socket
     */
    void Receive(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> p = socket->RecvFrom(from))
        {
            ++packets;
            wrongSize += p->GetSize() == kPayload ? 0 : 1;
            InetSocketAddress inet = InetSocketAddress::ConvertFrom(from);
            lastFrom = inet.GetIpv4();
            lastFromPort = inet.GetPort();
            arrivals.push_back(Simulator::Now());
            // The first four bytes of a datagram carry its sequence number (0 when unset).
            uint8_t bytes[4] = {0, 0, 0, 0};
            p->CopyData(bytes, std::min<uint32_t>(4, p->GetSize()));
            seqs.push_back(uint32_t(bytes[0]) << 24 | uint32_t(bytes[1]) << 16 |
                           uint32_t(bytes[2]) << 8 | uint32_t(bytes[3]));
        }
    }

    /**
     * \param node where
     * \param local the address and port to bind
     * \return the socket, receiving into this
     */
    Ptr<Socket> Listen(Ptr<Node> node, InetSocketAddress local)
    {
        Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        s->Bind(local);
        s->SetRecvCallback(MakeCallback(&Received::Receive, this));
        return s;
    }
};

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief Sends at the target while a UE hands over to it do not rescan the RRC's UE map each:
 * only a new context, or a context's change of state, calls for a scan.
 */
class LteBreakoutScansDuringHandoverTestCase : public TestCase
{
  public:
    LteBreakoutScansDuringHandoverTestCase()
        : TestCase("LTE local breakout: no UeMap scan per packet during a handover")
    {
    }

  private:
    void DoRun() override
    {
        LteScenario s(2, 1, true);
        const uint64_t imsi = s.Imsi(0);
        const Ipv4Address ue = s.ueAddresses.GetAddress(0);
        Ptr<LteLocalBreakout> target = s.Breakout(1);
        uint32_t sentDuring = 0;
        bool handingOver = false;
        Ptr<LteRanObserver> observer = CreateObject<LteRanObserver>();
        observer->Install(s.enbDevs);
        observer->TraceConnectWithoutContext(
            "HandoverStarted",
            Callback<void, uint64_t, uint16_t, uint16_t>(
                [&handingOver](uint64_t, uint16_t, uint16_t) { handingOver = true; }));
        observer->TraceConnectWithoutContext(
            "HandoverDone",
            Callback<void, uint64_t, uint16_t>(
                [&handingOver](uint64_t, uint16_t) { handingOver = false; }));
        // A packet every 0.1 ms from the handover request on, counted while it is under way.
        for (int i = 0; i < 200; ++i)
        {
            Simulator::Schedule(Seconds(1) + MicroSeconds(100 * i), [&, target]() {
                if (target->Send(Create<Packet>(kPayload),
                                 imsi,
                                 ue,
                                 Ipv4Address("15.0.0.1"),
                                 kServerPort,
                                 kUePort) &&
                    handingOver)
                {
                    ++sentDuring;
                }
            });
        }
        s.lte->HandoverRequest(Seconds(1), s.ueDevs.Get(0), s.enbDevs.Get(0), s.enbDevs.Get(1));
        Simulator::Stop(Seconds(1.2));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_GT(sentDuring, 20u, "the target took packets while the UE was joining");
        // A scan for the first lookup, and one after each change the traces report: the
        // context's creation and its few state changes, however many packets there were.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(target->GetUeMapScans(),
                                    6u,
                                    "UeMap scans at the target, for "
                                        << sentDuring << " packets in the handover");
        observer = nullptr;
        Simulator::Destroy();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The observer's events of one X2 handover, local breakout at the source before it, at
 * the target from HandoverStarted on, and the source's refusal once the context is released.
 */
class LteHandoverBreakoutTestCase : public TestCase
{
  public:
    /// \param idealRrc whether RRC messages are ideal, or sent over the air
    LteHandoverBreakoutTestCase(bool idealRrc)
        : TestCase(std::string("LTE X2 handover (") + (idealRrc ? "ideal" : "real") +
                   " RRC): observer events in order; breakout at source, then target"),
          m_idealRrc(idealRrc)
    {
    }

  private:
    void DoRun() override
    {
        LteScenario s(2, 1, m_idealRrc);
        m_imsi = s.Imsi(0);
        m_ueAddress = s.ueAddresses.GetAddress(0);
        m_breakout[0] = s.Breakout(0);
        m_breakout[1] = s.Breakout(1);
        m_observer = CreateObject<LteRanObserver>();
        m_observer->Install(s.enbDevs);
        m_observer->Install(s.enbDevs); // a second install must not double the events
        m_observer->TraceConnectWithoutContext(
            "UeReady",
            MakeCallback(&LteHandoverBreakoutTestCase::UeReady, this));
        m_observer->TraceConnectWithoutContext(
            "HandoverStarted",
            MakeCallback(&LteHandoverBreakoutTestCase::HandoverStarted, this));
        m_observer->TraceConnectWithoutContext(
            "HandoverDone",
            MakeCallback(&LteHandoverBreakoutTestCase::HandoverDone, this));
        m_observer->TraceConnectWithoutContext(
            "HandoverFailed",
            MakeCallback(&LteHandoverBreakoutTestCase::HandoverFailed, this));
        Ptr<Socket> sink =
            m_rx.Listen(s.ueNodes.Get(0), InetSocketAddress(Ipv4Address::GetAny(), kUePort));

        // Attached and connected well before 0.3 s; handover requested at 1 s, done by ~1.05 s.
        for (int i = 0; i < 20; ++i)
        {
            Simulator::Schedule(MilliSeconds(300 + 10 * i),
                                &LteHandoverBreakoutTestCase::SendVia,
                                this,
                                0);
            Simulator::Schedule(MilliSeconds(1200 + 10 * i),
                                &LteHandoverBreakoutTestCase::SendVia,
                                this,
                                1);
        }
        s.lte->HandoverRequest(Seconds(1), s.ueDevs.Get(0), s.enbDevs.Get(0), s.enbDevs.Get(1));
        Simulator::Schedule(MilliSeconds(999),
                            [this]() { m_scansBeforeHandover = m_breakout[0]->GetUeMapScans(); });
        Simulator::Schedule(MilliSeconds(1500), &LteHandoverBreakoutTestCase::SendVia, this, 0);
        Simulator::Schedule(MilliSeconds(1500),
                            &LteHandoverBreakoutTestCase::CheckServing,
                            this,
                            s.CellId(1));
        Simulator::Stop(MilliSeconds(1600));
        Simulator::Run();

        std::ostringstream expected;
        expected << "ready " << m_imsi << " " << s.CellId(0) << "; started " << m_imsi << " "
                 << s.CellId(0) << "->" << s.CellId(1) << "; done " << m_imsi << " " << s.CellId(1)
                 << "; ready " << m_imsi << " " << s.CellId(1) << "; ";
        NS_TEST_EXPECT_MSG_EQ(m_events.str(), expected.str(), "observer events of one handover");

        NS_TEST_EXPECT_MSG_EQ(m_accepted[0],
                              21u,
                              "the source takes every packet, the last at HandoverStarted");
        NS_TEST_EXPECT_MSG_EQ(m_scansBeforeHandover,
                              1u,
                              "in the steady state only the first lookup scans the UeMap");
        NS_TEST_EXPECT_MSG_EQ(m_accepted[1],
                              21u,
                              "the target takes every packet, the first at HandoverStarted");
        NS_TEST_EXPECT_MSG_EQ(m_targetAtStart,
                              true,
                              "at HandoverStarted the target holds the UE's context");
        NS_TEST_EXPECT_MSG_EQ(m_breakout[1]->GetSentPackets(), 21u, "20 + 1 sent at the target");
        NS_TEST_EXPECT_MSG_EQ(m_refusedAfterRelease,
                              true,
                              "the source refuses once the UE's context is released");
        NS_TEST_EXPECT_MSG_EQ(m_breakout[0]->GetRefusedPackets(), 1u, "one refusal counted");
        NS_TEST_EXPECT_MSG_EQ(m_rx.packets,
                              42u,
                              "every packet sent reaches the UE's socket, also the one the source "
                              "forwarded over X2");
        // Arrivals are matched to sends by the sequence number each datagram carries.
        NS_TEST_EXPECT_MSG_EQ(m_rx.seqs.size(), m_sendTimes.size(), "one arrival per send");
        std::set<uint32_t> seen;
        for (std::size_t i = 0; i < m_rx.seqs.size(); ++i)
        {
            const uint32_t seq = m_rx.seqs[i];
            NS_TEST_EXPECT_MSG_LT(seq, m_sendTimes.size(), "a sequence number that was sent");
            NS_TEST_EXPECT_MSG_EQ(seen.insert(seq).second, true, "seq " << seq << " once");
            if (i > 0)
            {
                NS_TEST_EXPECT_MSG_GT(seq, m_rx.seqs[i - 1], "arrivals in the order sent");
            }
            if (seq >= m_sendTimes.size())
            {
                continue;
            }
            const Time delay = m_rx.arrivals[i] - m_sendTimes[seq];
            NS_TEST_EXPECT_MSG_EQ(delay.IsStrictlyPositive(), true, "seq " << seq << " delay");
            if (seq == m_handoverSeq || seq == m_handoverSeq + 1)
            {
                // Sent at HandoverStarted (at the target, and at the source, which forwards
                // over X2): they wait for the UE to reach the target. ns-3's own LTE tests
                // bound that interruption by 5 ms (ideal RRC) and 20 ms (real RRC); plus the
                // 5 ms of the cell below.
                const Time bound = MilliSeconds(m_idealRrc ? 10 : 25);
                NS_TEST_EXPECT_MSG_LT_OR_EQ(delay,
                                            bound,
                                            "seq " << seq << " within the handover + 5 ms");
            }
            else
            {
                // In the cell: the S1-U/X2 links have no delay, so one way is the scheduling
                // wait for the next TTI, the 1 ms TTI and 2 ms of PHY/MAC processing: 3 to
                // 4 ms measured; 5 ms leaves one TTI of slack.
                NS_TEST_EXPECT_MSG_LT_OR_EQ(delay,
                                            MilliSeconds(5),
                                            "seq " << seq << " within 5 ms in the cell");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(m_rx.wrongSize, 0u, "payload size as sent");
        NS_TEST_EXPECT_MSG_EQ(m_rx.lastFrom, m_serverAddress, "source address as built");
        NS_TEST_EXPECT_MSG_EQ(m_rx.lastFromPort, kServerPort, "source port as built");
        NS_TEST_EXPECT_MSG_EQ(m_servingAtEnd, true, "serving cell is the target after handover");

        sink->Close();
        m_observer = nullptr;
        m_breakout[0] = m_breakout[1] = nullptr;
        Simulator::Destroy();
    }

    /// \param enb index of the eNB whose breakout sends a datagram
    void SendVia(uint32_t enb)
    {
        // The sequence number of an accepted send is its index in m_sendTimes.
        const uint32_t seq = m_sendTimes.size();
        uint8_t bytes[kPayload] = {};
        bytes[0] = seq >> 24;
        bytes[1] = seq >> 16 & 0xff;
        bytes[2] = seq >> 8 & 0xff;
        bytes[3] = seq & 0xff;
        bool ok = m_breakout[enb]->Send(Create<Packet>(bytes, kPayload),
                                        m_imsi,
                                        m_ueAddress,
                                        m_serverAddress,
                                        kServerPort,
                                        kUePort);
        if (Simulator::Now() >= MilliSeconds(1500))
        {
            m_refusedAfterRelease = !ok && !m_breakout[enb]->CanSend(m_imsi);
        }
        else if (ok)
        {
            ++m_accepted[enb];
            m_sendTimes.push_back(Simulator::Now());
        }
    }

    /// \param cellId the expected serving cell
    void CheckServing(uint16_t cellId)
    {
        m_servingAtEnd = m_observer->GetServingCellId(m_imsi) == cellId;
    }

    /// Observer sink. \param imsi IMSI \param cellId cell
    void UeReady(uint64_t imsi, uint16_t cellId)
    {
        m_events << "ready " << imsi << " " << cellId << "; ";
    }

    /// Observer sink. \param imsi IMSI \param source source cell \param target target cell
    void HandoverStarted(uint64_t imsi, uint16_t source, uint16_t target)
    {
        m_events << "started " << imsi << " " << source << "->" << target << "; ";
        // The stream switches here: the target buffers until the UE arrives.
        m_targetAtStart = m_breakout[1]->CanSend(imsi);
        m_handoverSeq = m_sendTimes.size();
        SendVia(1);
        // The source is HANDOVER_LEAVING now: it forwards over X2 to the target's buffer.
        SendVia(0);
    }

    /// Observer sink. \param imsi IMSI \param target target cell
    void HandoverDone(uint64_t imsi, uint16_t target)
    {
        m_events << "done " << imsi << " " << target << "; ";
    }

    /// Observer sink. \param imsi IMSI \param cellId cell \param reason why
    void HandoverFailed(uint64_t imsi, uint16_t cellId, RanObserver::HandoverFailureReason reason)
    {
        m_events << "failed " << imsi << " " << cellId << " " << RanObserver::ToString(reason)
                 << "; ";
    }

    bool m_idealRrc;                         //!< RRC model
    uint64_t m_imsi{0};                      //!< The UE
    Ipv4Address m_ueAddress;                 //!< Its address
    Ipv4Address m_serverAddress{"15.0.0.1"}; //!< Source address written
    Ptr<LteLocalBreakout> m_breakout[2];     //!< One per eNB
    Ptr<LteRanObserver> m_observer;          //!< The observer
    std::ostringstream m_events;             //!< Events seen
    uint32_t m_accepted[2]{0, 0};            //!< Sends accepted (periodic ones)
    bool m_targetAtStart{false};             //!< CanSend at the target at HO start
    bool m_refusedAfterRelease{false};       //!< The source refused at 1.5 s
    uint64_t m_scansBeforeHandover{0};       //!< UeMap scans of the source's 20 sends
    std::vector<Time> m_sendTimes;           //!< When each accepted packet was sent
    uint32_t m_handoverSeq{0};               //!< Sequence number sent at the target at start
    bool m_servingAtEnd{false};              //!< GetServingCellId was the target
    Received m_rx;                           //!< The UE's socket
};

/**
 * \ingroup edge-llm-tests
 * \brief Sends that would crash ns-3 are refused: before the UE has a context, while it is
 * still attaching (ATTACH_REQUEST), and for an unknown IMSI. Also the uplink route: a datagram
 * from the UE reaches a server bound to the eNB's address, which answers by local breakout.
 */
class LteBreakoutGuardsTestCase : public TestCase
{
  public:
    LteBreakoutGuardsTestCase()
        : TestCase("LTE breakout refuses before attach and unknown IMSIs; uplink route to eNB")
    {
    }

  private:
    void DoRun() override
    {
        LteScenario s(1, 1, false);
        m_imsi = s.Imsi(0);
        m_ueAddress = s.ueAddresses.GetAddress(0);
        m_breakout = s.Breakout(0);
        m_breakout->TraceConnectWithoutContext(
            "SendRefused",
            MakeCallback(&LteBreakoutGuardsTestCase::Refused, this));
        Ptr<LteEnbRrc> rrc = DynamicCast<LteEnbNetDevice>(s.enbDevs.Get(0))->GetRrc();
        rrc->TraceConnectWithoutContext(
            "ConnectionEstablished",
            MakeCallback(&LteBreakoutGuardsTestCase::ConnectionEstablished, this));

        LteEpcRoutes routes;
        Ipv4InterfaceContainer servers = routes.Install(s.epc, s.enbNodes);
        m_serverAddress = servers.GetAddress(0);
        m_server = Socket::CreateSocket(s.enbNodes.Get(0), UdpSocketFactory::GetTypeId());
        m_server->Bind(InetSocketAddress(m_serverAddress, kServerPort));
        m_server->SetRecvCallback(MakeCallback(&LteBreakoutGuardsTestCase::ServerReceive, this));
        Ptr<Socket> ueSink =
            m_ueRx.Listen(s.ueNodes.Get(0), InetSocketAddress(Ipv4Address::GetAny(), kUePort));
        // The prompt: from the UE's token socket to the server, after the UE is connected.
        Simulator::Schedule(MilliSeconds(400), [ueSink, this]() {
            ueSink->SendTo(Create<Packet>(kPayload),
                           0,
                           InetSocketAddress(m_serverAddress, kServerPort));
        });

        Simulator::ScheduleNow(&LteBreakoutGuardsTestCase::SendBeforeAttach, this);
        Simulator::Stop(MilliSeconds(600));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(m_beforeAttachRefused, true, "no context yet: refused");
        NS_TEST_EXPECT_MSG_EQ(m_attachingSeen, true, "ConnectionEstablished fired");
        NS_TEST_EXPECT_MSG_EQ(m_attachingRefused,
                              true,
                              "ATTACH_REQUEST: refused instead of aborting the run");
        NS_TEST_EXPECT_MSG_EQ(m_unknownRefused, true, "unknown IMSI: refused");
        NS_TEST_EXPECT_MSG_EQ(m_noBearerRefused, true, "a bearer the UE lacks: refused");
        NS_TEST_EXPECT_MSG_EQ(m_reasons,
                              "NO_CONTEXT STATE_NOT_ALLOWED NO_CONTEXT NO_CONTEXT NO_BEARER ",
                              "refusal reasons traced in order");
        NS_TEST_EXPECT_MSG_EQ(m_breakout->GetRefusedPackets(), 5u, "refusals counted");
        NS_TEST_EXPECT_MSG_EQ(m_serverRx, 1u, "the UE's datagram reaches the eNB's server");
        NS_TEST_EXPECT_MSG_EQ(m_promptFrom, m_ueAddress, "from the UE's address");
        NS_TEST_EXPECT_MSG_EQ(m_ueRx.packets, 1u, "the server's answer reaches the UE");
        NS_TEST_EXPECT_MSG_EQ(m_ueRx.lastFrom, m_serverAddress, "answer from the server");

        m_server->Close();
        ueSink->Close();
        m_server = nullptr;
        m_breakout = nullptr;
        Simulator::Destroy();
    }

    /// Sends at time 0, before the UE has a context, and to an IMSI nobody has.
    void SendBeforeAttach()
    {
        m_beforeAttachRefused = !m_breakout->CanSend(m_imsi) && !Send(m_imsi);
    }

    /// Fires while the UE is in ATTACH_REQUEST. \param imsi IMSI \param cellId cell \param rnti
    /// RNTI
    void ConnectionEstablished(uint64_t imsi, uint16_t cellId, uint16_t rnti)
    {
        m_attachingSeen = true;
        m_attachingRefused = !m_breakout->CanSend(imsi) && !Send(imsi);
    }

    /// The eNB's server: checks the prompt, refuses an unknown IMSI, answers the UE.
    /// \param socket the server socket
    void ServerReceive(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> p = socket->RecvFrom(from))
        {
            ++m_serverRx;
            m_promptFrom = InetSocketAddress::ConvertFrom(from).GetIpv4();
            m_unknownRefused =
                !m_breakout->CanSend(m_imsi + 1000) && !Send(m_imsi + 1000) && !Send(0);
            // The UE has the default bearer only.
            m_breakout->SetAttribute("BearerId", UintegerValue(5));
            m_noBearerRefused = !Send(m_imsi);
            m_breakout->SetAttribute("BearerId", UintegerValue(1));
            Send(m_imsi);
        }
    }

    /// \param imsi the UE to send to \return whether the breakout took the packet
    bool Send(uint64_t imsi)
    {
        return m_breakout->Send(Create<Packet>(kPayload),
                                imsi,
                                m_ueAddress,
                                m_serverAddress,
                                kServerPort,
                                kUePort);
    }

    /// SendRefused sink. \param imsi IMSI \param reason why
    void Refused(uint64_t imsi, LteLocalBreakout::RefuseReason reason)
    {
        m_reasons += LteLocalBreakout::ToString(reason) + " ";
    }

    uint64_t m_imsi{0};                //!< The UE
    Ipv4Address m_ueAddress;           //!< Its address
    Ipv4Address m_serverAddress;       //!< The eNB's server address
    Ptr<LteLocalBreakout> m_breakout;  //!< Breakout at the eNB
    Ptr<Socket> m_server;              //!< The eNB's server socket
    bool m_beforeAttachRefused{false}; //!< Refused at time 0
    bool m_attachingSeen{false};       //!< ConnectionEstablished fired
    bool m_attachingRefused{false};    //!< Refused in ATTACH_REQUEST
    bool m_unknownRefused{false};      //!< Refused for an unknown IMSI
    bool m_noBearerRefused{false};     //!< Refused for a missing bearer
    std::string m_reasons;             //!< Refusal reasons traced
    uint32_t m_serverRx{0};            //!< Datagrams at the server
    Ipv4Address m_promptFrom;          //!< Their source
    Received m_ueRx;                   //!< The UE's socket
};

/**
 * \ingroup edge-llm-tests
 * \brief Two UEs, one of which hands over 1→2 and back 2→1 while both receive a stream that
 * follows the observer (switched at HandoverStarted): each packet reaches its own UE, and the
 * return to cell 1 finds the UE's new context there, not the released one.
 */
class LteTwoUePingPongTestCase : public TestCase
{
  public:
    LteTwoUePingPongTestCase()
        : TestCase("LTE two UEs, one handing over and back: streams follow, each to its UE")
    {
    }

  private:
    /// Per UE: its stream and what it received.
    struct Ue
    {
        uint64_t imsi{0};      //!< IMSI
        Ipv4Address address;   //!< IPv4 address
        uint32_t payload{0};   //!< payload size of its packets
        uint16_t cell{0};      //!< cell its stream goes to
        uint32_t accepted{0};  //!< sends accepted
        uint32_t refused{0};   //!< sends refused
        uint32_t received{0};  //!< packets received
        uint32_t wrongSize{0}; //!< packets of another UE's size
        std::string events;    //!< observer events
        Ptr<Socket> socket;    //!< its socket
    };

    void DoRun() override
    {
        LteScenario s(2, 2, true);
        for (uint32_t i = 0; i < 2; ++i)
        {
            m_ues[i].imsi = s.Imsi(i);
            m_ues[i].address = s.ueAddresses.GetAddress(i);
            m_ues[i].payload = 100 + 100 * i;
            m_ues[i].socket = Socket::CreateSocket(s.ueNodes.Get(i), UdpSocketFactory::GetTypeId());
            m_ues[i].socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), kUePort));
            m_ues[i].socket->SetRecvCallback(
                MakeBoundCallback(&LteTwoUePingPongTestCase::Receive, &m_ues[i]));
            m_cellIds[i] = s.CellId(i);
            m_breakout[i] = s.Breakout(i);
        }
        m_observer = CreateObject<LteRanObserver>();
        m_observer->Install(s.enbDevs);
        m_observer->TraceConnectWithoutContext(
            "UeReady",
            MakeCallback(&LteTwoUePingPongTestCase::UeReady, this));
        m_observer->TraceConnectWithoutContext(
            "HandoverStarted",
            MakeCallback(&LteTwoUePingPongTestCase::HandoverStarted, this));
        m_observer->TraceConnectWithoutContext(
            "HandoverDone",
            MakeCallback(&LteTwoUePingPongTestCase::HandoverDone, this));

        for (int t = 300; t < 1800; t += 10)
        {
            Simulator::Schedule(MilliSeconds(t), &LteTwoUePingPongTestCase::SendAll, this);
        }
        s.lte->HandoverRequest(MilliSeconds(600),
                               s.ueDevs.Get(0),
                               s.enbDevs.Get(0),
                               s.enbDevs.Get(1));
        s.lte->HandoverRequest(MilliSeconds(1200),
                               s.ueDevs.Get(0),
                               s.enbDevs.Get(1),
                               s.enbDevs.Get(0));
        Simulator::Stop(MilliSeconds(1850));
        Simulator::Run();

        std::ostringstream a;
        a << "ready " << m_cellIds[0] << "; started " << m_cellIds[0] << "->" << m_cellIds[1]
          << "; done " << m_cellIds[1] << "; ready " << m_cellIds[1] << "; started " << m_cellIds[1]
          << "->" << m_cellIds[0] << "; done " << m_cellIds[0] << "; ready " << m_cellIds[0]
          << "; ";
        NS_TEST_EXPECT_MSG_EQ(m_ues[0].events, a.str(), "UE A: out and back");
        std::ostringstream b;
        b << "ready " << m_cellIds[0] << "; ";
        NS_TEST_EXPECT_MSG_EQ(m_ues[1].events, b.str(), "UE B: stays");
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_ues[i].refused, 0u, "a stream that follows is never refused");
            NS_TEST_EXPECT_MSG_EQ(m_ues[i].accepted, 150u, "one packet per 10 ms for 1.5 s");
            NS_TEST_EXPECT_MSG_EQ(m_ues[i].wrongSize, 0u, "no packet of the other UE");
        }
        NS_TEST_EXPECT_MSG_EQ(m_ues[1].received, 150u, "the UE that stays gets every packet");
        // ns-3 loses what sits in the source's queues when the UE leaves, and here, with both
        // cells loaded and the UE at the edge, a few transport blocks right after the handover
        // (4 packets of 150 with ns-3.37); the bound leaves room for the radio, not for the
        // breakout.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(m_ues[0].received,
                                    140u,
                                    "the UE that hands over twice loses only a few packets");
        NS_TEST_EXPECT_MSG_EQ(m_breakout[0]->CanSend(m_ues[0].imsi), true, "A is back in cell 1");
        NS_TEST_EXPECT_MSG_EQ(m_breakout[1]->CanSend(m_ues[0].imsi), false, "and gone from 2");
        NS_TEST_EXPECT_MSG_EQ(m_breakout[1]->CanSend(m_ues[1].imsi), false, "B was never in 2");

        for (auto& ue : m_ues)
        {
            ue.socket->Close();
            ue.socket = nullptr;
        }
        m_observer = nullptr;
        m_breakout[0] = m_breakout[1] = nullptr;
        Simulator::Destroy();
    }

    /// Sends one packet to each UE, into the cell its stream goes to.
    void SendAll()
    {
        for (auto& ue : m_ues)
        {
            uint32_t enb = ue.cell == m_cellIds[1] ? 1 : 0;
            bool ok = m_breakout[enb]->Send(Create<Packet>(ue.payload),
                                            ue.imsi,
                                            ue.address,
                                            Ipv4Address("15.0.0.1"),
                                            kServerPort,
                                            kUePort);
            ++(ok ? ue.accepted : ue.refused);
        }
    }

    /// \param ue the receiving UE \param socket its socket
    static void Receive(Ue* ue, Ptr<Socket> socket)
    {
        while (Ptr<Packet> p = socket->Recv())
        {
            ++ue->received;
            ue->wrongSize += p->GetSize() == ue->payload ? 0 : 1;
        }
    }

    /// \param imsi IMSI \return that UE
    Ue& Find(uint64_t imsi)
    {
        return m_ues[0].imsi == imsi ? m_ues[0] : m_ues[1];
    }

    /// Observer sink. \param imsi IMSI \param cellId cell
    void UeReady(uint64_t imsi, uint16_t cellId)
    {
        Find(imsi).cell = cellId;
        Find(imsi).events += "ready " + std::to_string(cellId) + "; ";
    }

    /// Observer sink. \param imsi IMSI \param source source \param target target
    void HandoverStarted(uint64_t imsi, uint16_t source, uint16_t target)
    {
        Find(imsi).cell = target;
        Find(imsi).events +=
            "started " + std::to_string(source) + "->" + std::to_string(target) + "; ";
    }

    /// Observer sink. \param imsi IMSI \param target target
    void HandoverDone(uint64_t imsi, uint16_t target)
    {
        Find(imsi).events += "done " + std::to_string(target) + "; ";
    }

    Ue m_ues[2];                         //!< The UEs
    uint16_t m_cellIds[2]{0, 0};         //!< Cells of the eNBs
    Ptr<LteLocalBreakout> m_breakout[2]; //!< One per eNB
    Ptr<LteRanObserver> m_observer;      //!< The observer
};

/**
 * \ingroup edge-llm-tests
 * \brief A real handover failure: the target has no dedicated RACH preamble left, fires
 * HandoverFailureNoPreamble (imsi, rnti, cellId) and refuses, which the source sees as
 * HandoverRefused; the UE stays at the source, where local breakout keeps working.
 */
class LteHandoverNoPreambleTestCase : public TestCase
{
  public:
    LteHandoverNoPreambleTestCase()
        : TestCase("LTE handover refused by the target (no preamble): HandoverFailed, UE stays")
    {
    }

  private:
    void DoRun() override
    {
        LteScenario s(2, 1, true);
        // Every preamble for contention-based access: none is left to reserve for a handover.
        DynamicCast<LteEnbNetDevice>(s.enbDevs.Get(1))
            ->GetMac()
            ->SetAttribute("NumberOfRaPreambles", UintegerValue(64));
        m_imsi = s.Imsi(0);
        m_ueAddress = s.ueAddresses.GetAddress(0);
        Ptr<LteLocalBreakout> source = s.Breakout(0);
        Ptr<LteLocalBreakout> target = s.Breakout(1);
        Ptr<LteRanObserver> observer = CreateObject<LteRanObserver>();
        observer->Install(s.enbDevs);
        observer->TraceConnectWithoutContext(
            "HandoverStarted",
            MakeCallback(&LteHandoverNoPreambleTestCase::HandoverStarted, this));
        observer->TraceConnectWithoutContext(
            "HandoverFailed",
            MakeCallback(&LteHandoverNoPreambleTestCase::HandoverFailed, this));
        observer->TraceConnectWithoutContext(
            "HandoverRefused",
            MakeCallback(&LteHandoverNoPreambleTestCase::HandoverRefused, this));
        Ptr<Socket> sink =
            m_rx.Listen(s.ueNodes.Get(0), InetSocketAddress(Ipv4Address::GetAny(), kUePort));

        s.lte->HandoverRequest(MilliSeconds(500),
                               s.ueDevs.Get(0),
                               s.enbDevs.Get(0),
                               s.enbDevs.Get(1));
        bool sourceSent = false;
        bool targetRefused = false;
        uint16_t serving = 0;
        Simulator::Schedule(MilliSeconds(700), [&]() {
            sourceSent = source->Send(Create<Packet>(kPayload),
                                      m_imsi,
                                      m_ueAddress,
                                      Ipv4Address("15.0.0.1"),
                                      kServerPort,
                                      kUePort);
            targetRefused = !target->CanSend(m_imsi);
            serving = observer->GetServingCellId(m_imsi);
        });
        Simulator::Stop(MilliSeconds(800));
        Simulator::Run();

        std::ostringstream expected;
        // The target's failure answers the request with a HANDOVER PREPARATION FAILURE, which
        // the source takes as a refusal.
        expected << "failed " << m_imsi << " " << s.CellId(1) << " NO_PREAMBLE; refused " << m_imsi
                 << " " << s.CellId(0) << "->" << s.CellId(1) << "; ";
        NS_TEST_EXPECT_MSG_EQ(m_events, expected.str(), "a failure at the target, no start");
        NS_TEST_EXPECT_MSG_EQ(serving, s.CellId(0), "the source still serves");
        NS_TEST_EXPECT_MSG_EQ(sourceSent, true, "the source still takes packets");
        NS_TEST_EXPECT_MSG_EQ(targetRefused, true, "the target dropped the context");
        NS_TEST_EXPECT_MSG_EQ(m_rx.packets, 1u, "the packet reaches the UE");

        sink->Close();
        Simulator::Destroy();
    }

    /// Observer sink. \param imsi IMSI \param source source cell \param target target cell
    void HandoverStarted(uint64_t imsi, uint16_t source, uint16_t target)
    {
        m_events += "started; ";
    }

    /// Observer sink. \param imsi IMSI \param cellId cell \param reason why
    void HandoverFailed(uint64_t imsi, uint16_t cellId, RanObserver::HandoverFailureReason reason)
    {
        m_events += "failed " + std::to_string(imsi) + " " + std::to_string(cellId) + " " +
                    RanObserver::ToString(reason) + "; ";
    }

    /// Observer sink. \param imsi IMSI \param source source cell \param target target cell
    void HandoverRefused(uint64_t imsi, uint16_t source, uint16_t target)
    {
        m_events += "refused " + std::to_string(imsi) + " " + std::to_string(source) + "->" +
                    std::to_string(target) + "; ";
    }

    uint64_t m_imsi{0};      //!< The UE
    Ipv4Address m_ueAddress; //!< Its address
    std::string m_events;    //!< Events seen
    Received m_rx;           //!< The UE's socket
};

/**
 * \ingroup edge-llm-tests
 * \brief The LTE failure traces pass (imsi, rnti, cellId), the other traces (imsi, cellId,
 * rnti): each maps to the right event, cell and reason, and a failure at the serving cell
 * forgets it.
 */
class LteRanObserverMappingTestCase : public TestCase
{
  public:
    LteRanObserverMappingTestCase()
        : TestCase("LteRanObserver maps each LTE trace's argument order to its event")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LteRanObserver> o = CreateObject<LteRanObserver>();
        o->TraceConnectWithoutContext("UeReady",
                                      MakeCallback(&LteRanObserverMappingTestCase::UeReady, this));
        o->TraceConnectWithoutContext(
            "HandoverStarted",
            MakeCallback(&LteRanObserverMappingTestCase::HandoverStarted, this));
        o->TraceConnectWithoutContext(
            "HandoverDone",
            MakeCallback(&LteRanObserverMappingTestCase::HandoverDone, this));
        o->TraceConnectWithoutContext(
            "HandoverFailed",
            MakeCallback(&LteRanObserverMappingTestCase::HandoverFailed, this));

        // (imsi, cellId, rnti): IMSI 7 in cell 2 as RNTI 3.
        o->ConnectionReconfigurationSink(7, 2, 3);
        NS_TEST_EXPECT_MSG_EQ(o->GetServingCellId(7), 2, "serving cell from UeReady");
        NS_TEST_EXPECT_MSG_EQ(o->GetServingCellId(8), 0, "an IMSI never seen has no cell");
        o->HandoverStartSink(7, 2, 3, 5);
        NS_TEST_EXPECT_MSG_EQ(o->GetServingCellId(7), 2, "source serves until the end");
        // (imsi, rnti, cellId): the target 5 reports with the new RNTI 9.
        o->HandoverFailureNoPreambleSink(7, 9, 5);
        o->HandoverFailureMaxRachSink(7, 9, 5);
        o->HandoverFailureJoiningSink(7, 9, 5);
        NS_TEST_EXPECT_MSG_EQ(o->GetServingCellId(7), 2, "failures at the target keep it");
        o->HandoverFailureLeavingSink(7, 3, 2);
        NS_TEST_EXPECT_MSG_EQ(o->GetServingCellId(7), 0, "failure at the source forgets it");
        o->HandoverEndOkSink(7, 5, 9);
        NS_TEST_EXPECT_MSG_EQ(o->GetServingCellId(7), 5, "serving cell from HandoverDone");
        o->ConnectionReconfigurationSink(7, 5, 9); // no news: already served there
        o->ConnectionReleaseSink(7, 2, 3);         // the old source lets go
        NS_TEST_EXPECT_MSG_EQ(o->GetServingCellId(7), 5, "a former cell's release is ignored");
        o->ConnectionReleaseSink(7, 5, 9);
        NS_TEST_EXPECT_MSG_EQ(o->GetServingCellId(7), 0, "the serving cell's release forgets");
        o->ConnectionReconfigurationSink(7, 5, 4);

        NS_TEST_EXPECT_MSG_EQ(m_events,
                              "ready 7 2; started 7 2->5; failed 7 5 NO_PREAMBLE; "
                              "failed 7 5 MAX_RACH; failed 7 5 JOINING_TIMEOUT; "
                              "failed 7 2 LEAVING_TIMEOUT; done 7 5; ready 7 5; ready 7 5; ",
                              "events, cells and reasons");
    }

    /// Sink. \param imsi IMSI \param cellId cell
    void UeReady(uint64_t imsi, uint16_t cellId)
    {
        m_events += "ready " + std::to_string(imsi) + " " + std::to_string(cellId) + "; ";
    }

    /// Sink. \param imsi IMSI \param source source \param target target
    void HandoverStarted(uint64_t imsi, uint16_t source, uint16_t target)
    {
        m_events += "started " + std::to_string(imsi) + " " + std::to_string(source) + "->" +
                    std::to_string(target) + "; ";
    }

    /// Sink. \param imsi IMSI \param target target
    void HandoverDone(uint64_t imsi, uint16_t target)
    {
        m_events += "done " + std::to_string(imsi) + " " + std::to_string(target) + "; ";
    }

    /// Sink. \param imsi IMSI \param cellId cell \param reason why
    void HandoverFailed(uint64_t imsi, uint16_t cellId, RanObserver::HandoverFailureReason reason)
    {
        m_events += "failed " + std::to_string(imsi) + " " + std::to_string(cellId) + " " +
                    RanObserver::ToString(reason) + "; ";
    }

    std::string m_events; //!< Events seen
};

/**
 * \ingroup edge-llm-tests
 * \brief The LTE measurement report sink converts the RRC range indices to dBm and dB, keeps
 * the neighbours in the report's order, and a context going back from HANDOVER_PREPARATION to
 * CONNECTED_NORMALLY (and only that) is a refused handover.
 */
class LteMeasurementReportMappingTestCase : public TestCase
{
  public:
    LteMeasurementReportMappingTestCase()
        : TestCase("LteRanObserver converts measurement reports and derives refused handovers")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LteRanObserver> o = CreateObject<LteRanObserver>();
        o->TraceConnectWithoutContext(
            "MeasurementReport",
            MakeCallback(&LteMeasurementReportMappingTestCase::Report, this));
        o->TraceConnectWithoutContext(
            "HandoverRefused",
            MakeCallback(&LteMeasurementReportMappingTestCase::Refused, this));

        LteRrcSap::MeasurementReport report;
        report.measResults.measId = 4;
        report.measResults.measResultPCell.rsrpResult = 57;
        report.measResults.measResultPCell.rsrqResult = 20;
        report.measResults.haveMeasResultNeighCells = true;
        report.measResults.haveMeasResultServFreqList = false;
        report.measResults.measResultListEutra.push_back(Neighbour(3, true, 40, true, 10));
        report.measResults.measResultListEutra.push_back(Neighbour(5, true, 97, false, 0));
        report.measResults.measResultListEutra.push_back(Neighbour(6, false, 0, true, 34));
        o->MeasurementReportSink(7, 2, 3, report);

        // ns-3.37 lte-common.cc: RsrpRange2Dbm(r) = r - 141 (TS 36.133 9.1.4) and
        // RsrqRange2Db(q) = (q - 40) * 0.5 = q / 2 - 20 (TS 36.133 9.1.7); the values below
        // are worked out from those by hand.
        NS_TEST_ASSERT_MSG_EQ(m_reports.size(), 1, "one report");
        const RanMeasurementReport& r = m_reports[0];
        NS_TEST_EXPECT_MSG_EQ(r.imsi, 7, "IMSI");
        NS_TEST_EXPECT_MSG_EQ(r.servingCellId, 2, "serving cell");
        NS_TEST_EXPECT_MSG_EQ(+r.measId, 4, "measId");
        NS_TEST_EXPECT_MSG_EQ(r.serving.cellId, 2, "the serving cell's own entry");
        NS_TEST_EXPECT_MSG_EQ(r.serving.hasRsrp && r.serving.hasRsrq, true, "PCell has both");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.serving.rsrpDbm, -84.0, 1e-9, "57 - 141 dBm");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.serving.rsrqDb, -10.0, 1e-9, "20 / 2 - 20 dB");
        NS_TEST_ASSERT_MSG_EQ(r.neighbours.size(), 3, "three neighbours");
        NS_TEST_EXPECT_MSG_EQ(r.neighbours[0].cellId, 3, "report order kept");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.neighbours[0].rsrpDbm, -101.0, 1e-9, "40 - 141 dBm");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.neighbours[0].rsrqDb, -15.0, 1e-9, "10 / 2 - 20 dB");
        NS_TEST_EXPECT_MSG_EQ(r.neighbours[1].cellId, 5, "second neighbour");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.neighbours[1].rsrpDbm, -44.0, 1e-9, "top of the range");
        NS_TEST_EXPECT_MSG_EQ(r.neighbours[1].hasRsrq, false, "RSRQ absent");
        NS_TEST_EXPECT_MSG_EQ(r.neighbours[2].cellId, 6, "third neighbour");
        NS_TEST_EXPECT_MSG_EQ(r.neighbours[2].hasRsrp, false, "RSRP absent");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.neighbours[2].rsrqDb, -3.0, 1e-9, "top of the range");

        // A list that the report says it does not carry is not read.
        report.measResults.haveMeasResultNeighCells = false;
        report.measResults.measResultPCell.rsrpResult = 0;
        report.measResults.measResultPCell.rsrqResult = 0;
        o->MeasurementReportSink(7, 2, 3, report);
        NS_TEST_ASSERT_MSG_EQ(m_reports.size(), 2, "two reports");
        NS_TEST_EXPECT_MSG_EQ(m_reports[1].neighbours.empty(), true, "no neighbours");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_reports[1].serving.rsrpDbm, -141.0, 1e-9, "bottom");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_reports[1].serving.rsrqDb, -20.0, 1e-9, "bottom");
        NS_TEST_EXPECT_MSG_EQ(o->GetMeasurementReports(), 2, "counted");

        o->ConnectionReconfigurationSink(7, 2, 3);
        o->UeStateTransitionSink(7,
                                 2,
                                 3,
                                 UeManager::CONNECTED_NORMALLY,
                                 UeManager::HANDOVER_PREPARATION);
        o->UeStateTransitionSink(7,
                                 2,
                                 3,
                                 UeManager::HANDOVER_PREPARATION,
                                 UeManager::HANDOVER_LEAVING);
        o->UeStateTransitionSink(7,
                                 2,
                                 3,
                                 UeManager::CONNECTION_RECONFIGURATION,
                                 UeManager::CONNECTED_NORMALLY);
        NS_TEST_EXPECT_MSG_EQ(m_refused, "", "an admitted handover is no refusal");
        // No RRC of cell 2 is known to this observer: the target is unknown.
        o->UeStateTransitionSink(7,
                                 2,
                                 3,
                                 UeManager::HANDOVER_PREPARATION,
                                 UeManager::CONNECTED_NORMALLY);
        NS_TEST_EXPECT_MSG_EQ(m_refused, "refused 7 2->0; ", "a refusal, target unknown");
        NS_TEST_EXPECT_MSG_EQ(o->GetHandoverRefusals(), 1, "counted");
        NS_TEST_EXPECT_MSG_EQ(o->GetServingCellId(7), 2, "the source still serves");

        NS_TEST_EXPECT_MSG_EQ(IsLteMeasurementReportPeriod(MilliSeconds(120)), true, "120 ms");
        NS_TEST_EXPECT_MSG_EQ(IsLteMeasurementReportPeriod(Minutes(6)), true, "6 min");
        NS_TEST_EXPECT_MSG_EQ(IsLteMeasurementReportPeriod(MilliSeconds(100)), false, "100 ms");
        NS_TEST_EXPECT_MSG_EQ(IsLteMeasurementReportPeriod(Time(0)), false, "zero");
        NS_TEST_EXPECT_MSG_EQ(LteMeasurementReportPeriods(),
                              "120 ms, 240 ms, 480 ms, 640 ms, 1024 ms, 2048 ms, 5120 ms, "
                              "10240 ms, 1 min, 6 min, 12 min, 30 min, 60 min",
                              "the allowed periods");
    }

    /**
     * \param cellId physical cell ID
     * \param hasRsrp whether RSRP is there \param rsrp its index
     * \param hasRsrq whether RSRQ is there \param rsrq its index
     * \return a neighbour entry of a report
     */
    static LteRrcSap::MeasResultEutra Neighbour(uint16_t cellId,
                                                bool hasRsrp,
                                                uint8_t rsrp,
                                                bool hasRsrq,
                                                uint8_t rsrq)
    {
        LteRrcSap::MeasResultEutra n;
        n.physCellId = cellId;
        n.haveCgiInfo = false;
        n.haveRsrpResult = hasRsrp;
        n.rsrpResult = rsrp;
        n.haveRsrqResult = hasRsrq;
        n.rsrqResult = rsrq;
        return n;
    }

    /// Sink. \param report the report
    void Report(const RanMeasurementReport& report)
    {
        m_reports.push_back(report);
    }

    /// Sink. \param imsi IMSI \param source source \param target target
    void Refused(uint64_t imsi, uint16_t source, uint16_t target)
    {
        m_refused += "refused " + std::to_string(imsi) + " " + std::to_string(source) + "->" +
                     std::to_string(target) + "; ";
    }

    std::vector<RanMeasurementReport> m_reports; //!< Reports seen
    std::string m_refused;                       //!< Refusals seen
};

/**
 * \ingroup edge-llm-tests
 * \brief A UE drives away from its serving eNB towards the other (no automatic handover),
 * with periodic reports configured on both eNBs: the serving cell's reports come once per
 * period and their RSRP falls; the neighbour reports name the other cell.
 */
class LtePeriodicReportTrendTestCase : public TestCase
{
  public:
    LtePeriodicReportTrendTestCase()
        : TestCase("LTE periodic measurement reports: one per period, serving RSRP falls")
    {
    }

  private:
    void DoRun() override
    {
        const Time period = MilliSeconds(120);
        const Time simTime = Seconds(3);
        // 20 m to 110 m from the serving eNB in 3 s: about 15 dB more path loss (Friis,
        // LteHelper's default), while the neighbour 500 m away comes 90 m closer.
        LteScenario s(2,
                      1,
                      false,
                      Vector(20.0, 0, 0),
                      Vector(30.0, 0, 0),
                      [this, period](const NetDeviceContainer& enbs) {
                          m_ids = ConfigurePeriodicMeasurementReports(enbs.Get(0), period);
                          ConfigurePeriodicMeasurementReports(enbs.Get(1), period);
                      });
        m_imsi = s.Imsi(0);
        m_cell0 = s.CellId(0);
        m_cell1 = s.CellId(1);
        Ptr<LteRanObserver> observer = CreateObject<LteRanObserver>();
        observer->Install(s.enbDevs);
        observer->TraceConnectWithoutContext(
            "MeasurementReport",
            MakeCallback(&LtePeriodicReportTrendTestCase::Report, this));
        Simulator::Stop(simTime);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.serving.empty() || m_ids.neighbours.empty(),
                              false,
                              "both configurations have an id");
        NS_TEST_EXPECT_MSG_EQ(m_ids.Contains(m_ids.serving[0]), true, "Contains");
        NS_TEST_EXPECT_MSG_EQ(m_ids.Contains(0), false, "no measId 0");
        NS_TEST_EXPECT_MSG_EQ(m_foreign, 0, "every report is of the UE, at its serving cell");

        // The first report waits for attach and the first measurement (every 200 ms), well
        // under 500 ms; from then on one per period.
        const auto n = static_cast<int64_t>(m_servingTimes.size());
        const int64_t most = simTime.GetMilliSeconds() / period.GetMilliSeconds() + 1;
        const int64_t least =
            (simTime - MilliSeconds(500)).GetMilliSeconds() / period.GetMilliSeconds();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(n, least, "reports of the serving cell");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(n, most, "reports of the serving cell");
        for (size_t i = 1; i < m_servingTimes.size(); ++i)
        {
            // The RRC message's own delay over the air varies by a few HARQ rounds at most.
            Time gap = m_servingTimes[i] - m_servingTimes[i - 1];
            NS_TEST_EXPECT_MSG_EQ_TOL(gap, period, period / 4, "one report per period");
        }

        const size_t third = m_servingRsrp.size() / 3;
        double first =
            std::accumulate(m_servingRsrp.begin(), m_servingRsrp.begin() + third, 0.0) / third;
        double last =
            std::accumulate(m_servingRsrp.end() - third, m_servingRsrp.end(), 0.0) / third;
        // About 8.5 dB between the thirds' mean distances (36 m and 96 m).
        NS_TEST_EXPECT_MSG_LT(last, first - 5.0, "the serving RSRP falls while driving away");
        for (size_t i = 1; i < m_servingRsrp.size(); ++i)
        {
            // No fading: the filtered RSRP only falls, give or take its 1 dB quantisation.
            NS_TEST_EXPECT_MSG_LT_OR_EQ(m_servingRsrp[i],
                                        m_servingRsrp[i - 1] + 1.0,
                                        "no report rises against the trend");
        }
        NS_TEST_EXPECT_MSG_GT(m_neighbourReports, 0u, "neighbour reports come too");
        NS_TEST_EXPECT_MSG_EQ(m_neighbourNamed, m_neighbourReports, "they name the other cell");
        NS_TEST_EXPECT_MSG_EQ(observer->GetServingCellId(m_imsi), s.CellId(0), "no handover");

        Simulator::Destroy();
    }

    /// Observer sink. \param report the report
    void Report(const RanMeasurementReport& report)
    {
        if (report.imsi != m_imsi || report.servingCellId != m_cell0)
        {
            ++m_foreign;
            return;
        }
        if (!m_ids.Contains(report.measId))
        {
            // LteHelper's default ANR function asks for event A4 reports of its own.
            return;
        }
        if (report.measId == m_ids.serving[0])
        {
            m_servingTimes.push_back(Simulator::Now());
            m_servingRsrp.push_back(report.serving.rsrpDbm);
            return;
        }
        ++m_neighbourReports;
        if (!report.neighbours.empty() && report.neighbours[0].cellId == m_cell1 &&
            report.neighbours[0].hasRsrp)
        {
            ++m_neighbourNamed;
        }
    }

    LtePeriodicReportIds m_ids;        //!< The serving eNB's report ids
    uint64_t m_imsi{0};                //!< The UE
    uint16_t m_cell0{0};               //!< The serving cell
    uint16_t m_cell1{0};               //!< The other cell
    uint32_t m_foreign{0};             //!< Reports of another UE, cell or configuration
    std::vector<Time> m_servingTimes;  //!< When each serving-cell report came
    std::vector<double> m_servingRsrp; //!< Its serving RSRP, dBm
    uint32_t m_neighbourReports{0};    //!< Reports with neighbours
    uint32_t m_neighbourNamed{0};      //!< Of those, naming the other cell first
};

/**
 * \ingroup edge-llm-tests
 * \brief A handover requested to a target that admits none: HandoverRefused (once, source and
 * target cells), no HandoverStarted or HandoverFailed, and the source keeps serving.
 */
class LteHandoverRefusedTestCase : public TestCase
{
  public:
    LteHandoverRefusedTestCase()
        : TestCase("LTE handover refused by the target (AdmitHandoverRequest false): refused")
    {
    }

  private:
    void DoRun() override
    {
        LteScenario s(2, 1, true);
        DynamicCast<LteEnbNetDevice>(s.enbDevs.Get(1))
            ->GetRrc()
            ->SetAttribute("AdmitHandoverRequest", BooleanValue(false));
        m_imsi = s.Imsi(0);
        Ptr<LteRanObserver> observer = CreateObject<LteRanObserver>();
        observer->Install(s.enbDevs);
        observer->TraceConnectWithoutContext(
            "HandoverStarted",
            MakeCallback(&LteHandoverRefusedTestCase::HandoverStarted, this));
        observer->TraceConnectWithoutContext(
            "HandoverFailed",
            MakeCallback(&LteHandoverRefusedTestCase::HandoverFailed, this));
        observer->TraceConnectWithoutContext(
            "HandoverRefused",
            MakeCallback(&LteHandoverRefusedTestCase::HandoverRefused, this));

        s.lte->HandoverRequest(MilliSeconds(500),
                               s.ueDevs.Get(0),
                               s.enbDevs.Get(0),
                               s.enbDevs.Get(1));
        uint16_t servingBefore = 0;
        uint16_t servingAfter = 0;
        Simulator::Schedule(MilliSeconds(499),
                            [&]() { servingBefore = observer->GetServingCellId(m_imsi); });
        Simulator::Schedule(MilliSeconds(700),
                            [&]() { servingAfter = observer->GetServingCellId(m_imsi); });
        Simulator::Stop(MilliSeconds(800));
        Simulator::Run();

        std::ostringstream expected;
        expected << "refused " << m_imsi << " " << s.CellId(0) << "->" << s.CellId(1) << "; ";
        NS_TEST_EXPECT_MSG_EQ(m_events, expected.str(), "one refusal, nothing else");
        NS_TEST_EXPECT_MSG_EQ(observer->GetHandoverRefusals(), 1, "counted once");
        NS_TEST_EXPECT_MSG_EQ(servingBefore, s.CellId(0), "served by the source before");
        NS_TEST_EXPECT_MSG_EQ(servingAfter, s.CellId(0), "and after");
        Ptr<LteEnbRrc> source = DynamicCast<LteEnbNetDevice>(s.enbDevs.Get(0))->GetRrc();
        uint16_t rnti = DynamicCast<LteUeNetDevice>(s.ueDevs.Get(0))->GetRrc()->GetRnti();
        NS_TEST_EXPECT_MSG_EQ(source->HasUeManager(rnti) &&
                                  source->GetUeManager(rnti)->GetState() ==
                                      UeManager::CONNECTED_NORMALLY,
                              true,
                              "the source's context is back to normal");

        Simulator::Destroy();
    }

    /// Observer sink. \param imsi IMSI \param source source cell \param target target cell
    void HandoverStarted(uint64_t imsi, uint16_t source, uint16_t target)
    {
        m_events += "started; ";
    }

    /// Observer sink. \param imsi IMSI \param cellId cell \param reason why
    void HandoverFailed(uint64_t imsi, uint16_t cellId, RanObserver::HandoverFailureReason reason)
    {
        m_events += "failed " + RanObserver::ToString(reason) + "; ";
    }

    /// Observer sink. \param imsi IMSI \param source source cell \param target target cell
    void HandoverRefused(uint64_t imsi, uint16_t source, uint16_t target)
    {
        m_events += "refused " + std::to_string(imsi) + " " + std::to_string(source) + "->" +
                    std::to_string(target) + "; ";
    }

    uint64_t m_imsi{0};   //!< The UE
    std::string m_events; //!< Events seen
};

/**
 * \ingroup edge-llm-tests
 * \brief The RRCs' callbacks hold the observer and it holds the RRCs while the simulation
 * runs; after Simulator::Destroy neither holds the other, so both can be freed.
 */
class LteRanObserverReleasedTestCase : public TestCase
{
  public:
    LteRanObserverReleasedTestCase()
        : TestCase("LteRanObserver: after Simulator::Destroy only the script holds it")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LteRanObserver> observer = CreateObject<LteRanObserver>();
        uint32_t heldDuringRun = 0;
        {
            LteScenario s(2, 1, true);
            observer->Install(s.enbDevs);
            Simulator::Stop(MilliSeconds(300));
            Simulator::Run();
            heldDuringRun = observer->GetReferenceCount();
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_GT(heldDuringRun, 1u, "the RRCs' callbacks hold the observer");
        NS_TEST_ASSERT_MSG_EQ(observer->GetReferenceCount(),
                              1u,
                              "after Simulator::Destroy the script's is the only reference");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The RAN-facing layer's TestSuite.
 */
class EdgeLlmRanTestSuite : public TestSuite
{
  public:
    EdgeLlmRanTestSuite()
        : TestSuite("edge-llm-ran")
    {
        AddTestCase(new LteRanObserverMappingTestCase);
        AddTestCase(new LteMeasurementReportMappingTestCase);
        AddTestCase(new LteBreakoutGuardsTestCase);
        AddTestCase(new LteHandoverBreakoutTestCase(true));
        AddTestCase(new LteBreakoutScansDuringHandoverTestCase);
#ifndef NS3_ASSERT_ENABLE
        // ns-3.37 keeps the source's SRB1 RLC AM timer running after the UE's context is
        // released; when the handover command was not acknowledged by then, the timer's
        // buffer status report looks the released UE up, which an assert-enabled build (an
        // ns-3 tree's default) stops on. The case runs where asserts are off, as in Debian's.
        AddTestCase(new LteHandoverBreakoutTestCase(false));
#endif
        AddTestCase(new LteHandoverNoPreambleTestCase);
        AddTestCase(new LteTwoUePingPongTestCase);
        AddTestCase(new LteHandoverRefusedTestCase);
        AddTestCase(new LtePeriodicReportTrendTestCase);
        AddTestCase(new LteRanObserverReleasedTestCase);
    }
};

/// The one instance, registered with ns-3's TestRunner.
static EdgeLlmRanTestSuite g_edgeLlmRanTestSuite;
