/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The control plane on the network: a handover's control messages are packets on the
// backhaul's devices, its plan waits for them, and every token still arrives once.

#include "backhaul-frame.h"
#include "control-test-case.h"
#include "handover-record-counts.h"
#include "one-handover-line.h"
#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What a run's devices, channels, engines and clients saw.
struct Watch : edgellm::TokenEdges
{
    uint16_t port{0};                              //!< the control plane's TCP port
    uint64_t deviceBytes{0};                       //!< TCP payload bytes to or from it, at MacTx
    uint64_t deviceFrames{0};                      //!< frames carrying them
    uint64_t sentBytes{0};                         //!< what the channels handed to TCP
    std::map<ControlMessage::Type, uint32_t> sent; //!< messages, by type
    std::map<ControlMessage::Type, uint32_t> received; //!< messages, by type
    std::vector<Time> oneWay;                          //!< each message's delay
    std::map<uint64_t, Time> controlDelay;             //!< per UE: its last ControlDelay
    std::map<uint64_t, Time> requestIn;                //!< per UE: its prefill request's arrival
    std::map<uint64_t, Time> prefillStart;             //!< per UE: its urgent prefill's start
    Ptr<HandoverCoordinator> coordinator;              //!< the run's
    std::map<uint16_t, Ptr<LlmEngine>> engines;        //!< by cell
    /// per UE: whether its old holder's engine still had it just after the resume, and just
    /// after the resume notice arrived there
    std::map<uint64_t, bool> heldAfterResume;
    std::map<uint64_t, bool> heldAfterNotice; //!< see heldAfterResume
    std::map<uint64_t, uint16_t> holder;      //!< per UE: the cell it left, at its resume
    uint32_t controllerLinks{0};              //!< the controller's links watched

    /// Whether a cell's engine holds a UE's session, a nanosecond from now (after the
    /// events of this instant). \param imsi the UE \param cell the cell \param out where
    void HeldSoon(uint64_t imsi, uint16_t cell, std::map<uint64_t, bool>* out)
    {
        Simulator::Schedule(NanoSeconds(1), [this, imsi, cell, out]() {
            (*out)[imsi] = engines.at(cell)->HasSession(imsi);
        });
    }

    void Resumed(uint64_t imsi, uint16_t, Time)
    {
        for (const HandoverRecord& r : coordinator->GetRecords())
        {
            if (r.imsi == imsi && r.outcome == HandoverRecord::MIGRATED)
            {
                holder[imsi] = r.holderCell;
            }
        }
        HeldSoon(imsi, holder.at(imsi), &heldAfterResume);
    }

    void MacTx(Ptr<const Packet> frame)
    {
        const edgellm::test::TcpPayload t = edgellm::test::ReadTcpPayload(frame);
        if ((t.sourcePort == port || t.destinationPort == port) && t.bytes > 0)
        {
            deviceBytes += t.bytes;
            ++deviceFrames;
        }
    }

    void Tx(const ControlMessage& m, uint16_t)
    {
        ++sent[m.type];
        sentBytes += m.GetSerializedSize();
    }

    void Rx(const ControlMessage& m, Time delay)
    {
        ++received[m.type];
        oneWay.push_back(delay);
        if (m.type == ControlMessage::PREFILL_REQUEST)
        {
            requestIn[m.imsi] = Simulator::Now();
        }
        if (m.type == ControlMessage::RESUME_NOTICE)
        {
            HeldSoon(m.imsi, holder.at(m.imsi), &heldAfterNotice);
        }
    }

    void PrefillStarted(uint64_t imsi, uint64_t, bool urgent)
    {
        if (urgent && prefillStart.count(imsi) == 0)
        {
            prefillStart[imsi] = Simulator::Now();
        }
    }

    void Delay(uint64_t imsi, uint16_t, uint16_t, Time delay)
    {
        controlDelay[imsi] = delay;
    }

    void Hook(Ptr<EdgeLlmLineScenario> s)
    {
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        for (const auto& [cell, channel] : edge->GetControlChannels())
        {
            UintegerValue p;
            channel->GetAttribute("Port", p);
            port = static_cast<uint16_t>(p.Get());
            channel->TraceConnectWithoutContext("Tx", MakeCallback(&Watch::Tx, this));
            channel->TraceConnectWithoutContext("Rx", MakeCallback(&Watch::Rx, this));
        }
        if (port == 0)
        {
            port = 7200; // none installed: watch the port they would use
        }
        std::vector<NetDeviceContainer> links;
        for (const BackhaulLink& link : s->GetBackhaulLinks())
        {
            links.push_back(link.devices);
        }
        if (Ptr<PerPairBackhaulTopology> pairs =
                DynamicCast<PerPairBackhaulTopology>(s->GetNetwork()->GetBackhaulTopology()))
        {
            for (const NetDeviceContainer& link : pairs->GetControllerLinks())
            {
                links.push_back(link);
                ++controllerLinks;
            }
        }
        for (const NetDeviceContainer& link : links)
        {
            for (uint32_t d = 0; d < link.GetN(); ++d)
            {
                link.Get(d)->TraceConnectWithoutContext("MacTx", MakeCallback(&Watch::MacTx, this));
            }
        }
        coordinator = edge->GetCoordinator();
        coordinator->TraceConnectWithoutContext("ControlDelay", MakeCallback(&Watch::Delay, this));
        coordinator->TraceConnectWithoutContext("SessionResumed",
                                                MakeCallback(&Watch::Resumed, this));
        for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
        {
            Ptr<EdgeLlmServer> server = DynamicCast<EdgeLlmServer>(s->GetServers().Get(i));
            engines[server->GetCellId()] = server->GetEngine();
            server->GetEngine()->TraceConnectWithoutContext(
                "PrefillStarted",
                MakeCallback(&Watch::PrefillStarted, this));
        }
        HookTokens(s);
    }
};

/// The base: every case destroys the simulator and resets the defaults it set.
using ControlPlaneTestCase = edgellm::ControlTestCase;

/// The bound on a message's one-way delay: the link's propagation and the frame's
/// serialization (PPP 2, IPv4 20, TCP 20 with no options, the message's 40).
Time
OneWayBound(const CtHoLineConfig& c)
{
    const uint32_t frameBytes = 2 + 20 + 20 + ControlMessage::HEAD_SIZE;
    return c.backhaulDelay + c.backhaulRate.CalculateBytesTxTime(frameBytes);
}

class PacketsOnTheDevicesTestCase : public ControlPlaneTestCase
{
  public:
    explicit PacketsOnTheDevicesTestCase(const std::string& at)
        : ControlPlaneTestCase(
              "Control plane network, policy at the " + at +
              ": each handover's control messages are packets on the backhaul, the "
              "plan waits for them, and every token arrives once"),
          m_at(at)
    {
    }

  private:
    void DoRun() override
    {
        // A slower link than the default, so that a round trip is not lost in the noise; no
        // prefill cycle, so that a prefill starts as soon as the target may start it.
        m_config.backhaulDelay = MilliSeconds(5);
        m_config.prefillCycle = Time(0);
        Watch w;
        const CtHoLineRun run = RunWith("network", m_at, w);
        NS_TEST_ASSERT_MSG_EQ(edgellm::CountMigrated(run.records),
                              m_config.numUes,
                              "every UE migrated");
        // The messages per handover: a reservation, its answer and the prefill request; or a
        // notice and the plan; or a notice to the controller, its reservation and the answer,
        // and the plan to both cells. And the resume notice to the cell the session left.
        using T = ControlMessage;
        const std::map<T::Type, uint32_t> types =
            m_at == "source" ? std::map<T::Type, uint32_t>{{T::RESERVE, 1},
                                                           {T::RESERVE_ANSWER, 1},
                                                           {T::PREFILL_REQUEST, 1},
                                                           {T::RESUME_NOTICE, 1}}
            : m_at == "target"
                ? std::map<T::Type, uint32_t>{{T::NOTICE, 1}, {T::PLAN, 1}, {T::RESUME_NOTICE, 1}}
                : std::map<T::Type, uint32_t>{{T::NOTICE, 1},
                                              {T::RESERVE, 1},
                                              {T::RESERVE_ANSWER, 1},
                                              {T::PLAN, 2},
                                              {T::RESUME_NOTICE, 1}};
        const uint32_t controllerLinks = m_at == "controller" ? 2 : 0;
        NS_TEST_EXPECT_MSG_EQ(w.controllerLinks,
                              controllerLinks,
                              "a controller link per cell, with the policy there only");
        uint32_t sent = 0;
        for (const auto& [type, each] : types)
        {
            NS_TEST_EXPECT_MSG_EQ(w.sent[type],
                                  each * run.records.size(),
                                  ControlMessage::TypeName(type)
                                      << ": " << each << " per handover");
            NS_TEST_EXPECT_MSG_EQ(w.received[type], w.sent[type], "every one arrived");
            sent += w.sent[type];
        }
        NS_TEST_EXPECT_MSG_EQ(w.sent.size(), types.size(), "and nothing else");
        // At the devices: the control port's TCP payload is exactly what the channels sent
        // (no loss, so no retransmission), each message a frame of its own.
        NS_TEST_EXPECT_MSG_EQ(w.deviceBytes, w.sentBytes, "the messages' bytes on the links");
        NS_TEST_EXPECT_MSG_EQ(w.deviceFrames, sent, "one frame each");
        const Time bound = OneWayBound(m_config);
        for (const Time& d : w.oneWay)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(d, bound, "a message takes at least the link's delay");
        }
        // The plan waited for both messages; the handover delay counts from the RAN's start.
        NS_TEST_EXPECT_MSG_EQ(w.controlDelay.size(), run.ues.size(), "one delay per UE");
        for (const HandoverRecord& r : run.records)
        {
            const auto c = w.controlDelay.find(r.imsi);
            NS_TEST_ASSERT_MSG_EQ((c != w.controlDelay.end()), true, "its control delay");
            // Two trips between the cells, or four through the controller, each a link.
            const uint32_t trips = m_at == "controller" ? 4 : 2;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(c->second, bound * trips, trips << " trips at least");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.kvReady - r.hoStart,
                                        c->second,
                                        "resumed after the plan was applied");
            NS_TEST_EXPECT_MSG_EQ((r.hoEndOk >= r.hoStart), true, "the RAN's end is kept");
        }
        // The target prefills what the plan asked of it: with the policy at the source, not
        // before the request arrives.
        for (const auto& [imsi, start] : w.prefillStart)
        {
            if (m_at == "source")
            {
                const auto in = w.requestIn.find(imsi);
                NS_TEST_ASSERT_MSG_EQ((in != w.requestIn.end()), true, "its request arrived");
                NS_TEST_EXPECT_MSG_GT_OR_EQ(start, in->second, "prefilled after its request");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(w.prefillStart.size(), run.ues.size(), "every UE prefilled");
        // The cell a session left frees it when the target's resume notice arrives, a link's
        // delay after the resume, not at the resume.
        NS_TEST_EXPECT_MSG_EQ(w.heldAfterResume.size(), run.ues.size(), "every UE resumed");
        for (const auto& [imsi, held] : w.heldAfterResume)
        {
            NS_TEST_EXPECT_MSG_EQ(held, true, "imsi " << imsi << ": kept after its resume");
            NS_TEST_ASSERT_MSG_EQ(w.heldAfterNotice.count(imsi), 1u, "its notice arrived");
            NS_TEST_EXPECT_MSG_EQ(w.heldAfterNotice[imsi], false, "and freed then");
        }
        CheckTokens(run, w, "network at the " + m_at);
    }

    std::string m_at; //!< PolicyAt
};

class LostPrefillRequestTestCase : public ControlPlaneTestCase
{
  public:
    LostPrefillRequestTestCase()
        : ControlPlaneTestCase("Control plane network, policy at the source: a lost prefill "
                               "request is resent by TCP, the target prefills only once it is "
                               "in, and every token still arrives once")
    {
    }

  private:
    void DoRun() override
    {
        m_config.numUes = 1;
        m_config.prefillCycle = Time(0);
        Ptr<edgellm::DropFirstControlMessage> loss =
            CreateObject<edgellm::DropFirstControlMessage>();
        Watch w;
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
        const CtHoLineExperiment experiment(m_config);
        const CtHoLineRun run =
            experiment.Run("ctho", experiment.Draw(), [&w, loss](Ptr<EdgeLlmLineScenario> s) {
                w.Hook(s);
                for (const BackhaulLink& link : s->GetBackhaulLinks())
                {
                    for (uint32_t d = 0; d < link.devices.GetN(); ++d)
                    {
                        DynamicCast<PointToPointNetDevice>(link.devices.Get(d))
                            ->SetReceiveErrorModel(loss);
                    }
                }
            });
        NS_TEST_ASSERT_MSG_EQ(loss->dropped.IsPositive(), true, "the request was dropped");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 1u, "one handover");
        const uint64_t imsi = run.records[0].imsi;
        NS_TEST_ASSERT_MSG_EQ(w.requestIn.count(imsi), 1u, "the request arrived in the end");
        NS_TEST_ASSERT_MSG_EQ(w.prefillStart.count(imsi), 1u, "and the target prefilled");
        // TCP resends after its retransmission timeout (ns-3's minimum is 200 ms or more);
        // the token IDs crossed the link long before.
        NS_TEST_EXPECT_MSG_GT(w.requestIn[imsi] - loss->dropped,
                              MilliSeconds(100),
                              "the request came with TCP's retransmission");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(w.prefillStart[imsi],
                                    w.requestIn[imsi],
                                    "the prefill waited for it");
        NS_TEST_EXPECT_MSG_EQ(run.records[0].outcome, HandoverRecord::MIGRATED, "it migrated");
        CheckTokens(run, w, "a lost prefill request");
    }
};

class IdealSendsNothingTestCase : public ControlPlaneTestCase
{
  public:
    IdealSendsNothingTestCase()
        : ControlPlaneTestCase("Control plane ideal: no channel and no packet on its port; on "
                               "the network the same handover takes its plan's wait longer")
    {
    }

  private:
    void DoRun() override
    {
        // One UE and no prefill cycle: the network's run is the ideal one shifted by the
        // plan's wait, with the few tokens the source decoded meanwhile.
        m_config.numUes = 1;
        m_config.prefillCycle = Time(0);
        m_config.backhaulDelay = MilliSeconds(5);
        Watch ideal;
        const CtHoLineRun a = RunWith("ideal", "source", ideal);
        NS_TEST_EXPECT_MSG_EQ(ideal.sent.size(), 0u, "no message");
        NS_TEST_EXPECT_MSG_EQ(ideal.deviceFrames, 0u, "no frame on the control port");
        NS_TEST_EXPECT_MSG_EQ(ideal.controlDelay.size(), 0u, "no control delay");
        NS_TEST_ASSERT_MSG_EQ(ideal.heldAfterResume.size(), 1u, "resumed");
        NS_TEST_EXPECT_MSG_EQ(ideal.heldAfterResume.begin()->second,
                              false,
                              "the cell it left freed it at its resume");
        CheckTokens(a, ideal, "ideal");
        Simulator::Destroy();
        for (const std::string at : {"source", "target"})
        {
            Watch network;
            const CtHoLineRun b = RunWith("network", at, network);
            CheckTokens(b, network, "network");
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(a.records.size(), 1u, "one handover");
            NS_TEST_ASSERT_MSG_EQ(b.records.size(), 1u, "one handover");
            const HandoverRecord& ri = a.records[0];
            const HandoverRecord& rn = b.records[0];
            NS_TEST_EXPECT_MSG_EQ(rn.hoStart, ri.hoStart, "the RAN started both at once");
            const Time wait = network.controlDelay.at(rn.imsi);
            const Time grown = (rn.kvReady - rn.hoStart) - (ri.kvReady - ri.hoStart);
            // The source decodes at most one more step during the wait: a token's transfer,
            // far below a millisecond at 4.5 Gb/s.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(grown, wait, at << ": the delay grew by the wait");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(grown,
                                        wait + MilliSeconds(1),
                                        at << ": and by little more");
        }
    }
};

/// ctHO, recording what each plan saw of its target.
class RecordingScheduler : public HandoverScheduler
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::ControlPlaneTestRecordingScheduler")
                                .SetParent<HandoverScheduler>()
                                .SetGroupName("EdgeLlm")
                                .AddConstructor<RecordingScheduler>();
        return tid;
    }

    std::string GetSchemeName() const override
    {
        return "recording-ctho";
    }

    /// per plan: (imsi, its target's free KV memory as the plan saw it)
    static std::vector<std::pair<uint64_t, uint64_t>>& Seen()
    {
        static std::vector<std::pair<uint64_t, uint64_t>> seen;
        return seen;
    }

  private:
    HandoverPlan DoPlan(const HandoverPlanInput& input) override
    {
        for (const HandoverSessionView& session : input.sessions)
        {
            Seen().emplace_back(session.imsi, input.targets.at(0).freeKvTokens);
        }
        return m_inner->Plan(input);
    }

    Ptr<HandoverScheduler> m_inner{CreateObject<CtHoScheduler>()}; //!< plans
};

NS_OBJECT_ENSURE_REGISTERED(RecordingScheduler);

class PlanWithTheAnswerTestCase : public ControlPlaneTestCase
{
  public:
    PlanWithTheAnswerTestCase()
        : ControlPlaneTestCase("Control plane network, policy at the source: the plan sees the "
                               "target's free KV memory as its answer reported it, a round trip "
                               "old, not as it is when the plan is made")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
        RecordingScheduler::Seen().clear();
        // One UE hands over from cell 1 to cell 2 over 20 ms links; while the target's answer
        // travels, a session of another user is admitted there.
        Ptr<EdgeLlmLineScenario> s = edgellm::OneHandoverLine();
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        edge->SetSchedulerType("ns3::ControlPlaneTestRecordingScheduler");
        s->Build();
        s->AssignStreams(1);
        std::map<uint16_t, Ptr<LlmEngine>> engines;
        for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
        {
            Ptr<EdgeLlmServer> server = DynamicCast<EdgeLlmServer>(s->GetServers().Get(i));
            engines[server->GetCellId()] = server->GetEngine();
        }
        // What the target had free when the reservation reached it, what it answered, and
        // what it had when the answer reached the source (the plan's time).
        std::map<uint64_t, uint64_t> freeAtReserve;
        std::map<uint64_t, uint64_t> answered;
        std::map<uint64_t, uint64_t> freeAtPlan;
        const auto freeOf = [&engines](uint16_t cell) {
            Ptr<LlmEngine> e = engines.at(cell);
            return e->GetKvCapacityTokens() - e->GetKvTokensInUse();
        };
        for (const auto& [cell, channel] : edge->GetControlChannels())
        {
            channel->TraceConnectWithoutContext(
                "Rx",
                Callback<void, const ControlMessage&, Time>(
                    [&, cell = cell](const ControlMessage& m, Time) {
                        if (m.type == ControlMessage::RESERVE)
                        {
                            freeAtReserve[m.imsi] = freeOf(cell);
                            Simulator::Schedule(MilliSeconds(1), [&engines, cell]() {
                                engines.at(cell)->AddResumedSession(9999, 1000, 1000);
                            });
                        }
                        else if (m.type == ControlMessage::RESERVE_ANSWER)
                        {
                            answered[m.imsi] = m.value;
                            freeAtPlan[m.imsi] = freeOf(m.fromCell);
                        }
                    }));
        }
        Simulator::Stop(Seconds(8));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(RecordingScheduler::Seen().size(), 1u, "one plan");
        const auto [imsi, seen] = RecordingScheduler::Seen().front();
        NS_TEST_ASSERT_MSG_EQ(answered.count(imsi), 1u, "its reservation was answered");
        NS_TEST_EXPECT_MSG_EQ(answered[imsi], freeAtReserve[imsi], "the target's memory then");
        NS_TEST_ASSERT_MSG_NE(freeAtPlan[imsi],
                              answered[imsi],
                              "the target's memory moved while the answer travelled");
        NS_TEST_EXPECT_MSG_EQ(seen, answered[imsi], "the plan saw the answer's");
        // The target's view takes its configuration, and its free memory from the answer: no
        // action on the target's engine from the source.
        for (const auto& [call, n] : edge->GetCoordinator()->GetCrossNodeAudit().GetCalls())
        {
            NS_TEST_EXPECT_MSG_EQ(call.rfind("MakeTargetView", 0),
                                  std::string::npos,
                                  "the plan's view of the target read it directly: " << call);
        }
    }
};

class ResumeEndsRelayTestCase : public ControlPlaneTestCase
{
  public:
    ResumeEndsRelayTestCase()
        : ControlPlaneTestCase("A resumed session's old holder relays it from the handover to "
                               "its export, which ends the relay; the target stops no relay of "
                               "the holder's")
    {
    }

  private:
    void DoRun() override
    {
        for (const bool network : {false, true})
        {
            Run(network);
        }
    }

    void Run(bool network)
    {
        const std::string what = network ? "network" : "ideal";
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane",
                           StringValue(network ? "network" : "ideal"));
        // One UE hands over from cell 1 to cell 2 over 20 ms links.
        Ptr<EdgeLlmLineScenario> s = edgellm::OneHandoverLine();
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        s->Build();
        s->AssignStreams(1);
        Ptr<EdgeLlmServer> holder;
        for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
        {
            Ptr<EdgeLlmServer> server = DynamicCast<EdgeLlmServer>(s->GetServers().Get(i));
            holder = server->GetCellId() == 1 ? server : holder;
        }
        // The holder's relay once the migration is planned, and once the resume is done.
        int relayAtPlan = -1;
        int relayAtResume = -1;
        Ptr<HandoverCoordinator> coordinator = edge->GetCoordinator();
        coordinator->TraceConnectWithoutContext(
            "HandoverPlanned",
            Callback<void, uint64_t, uint64_t, uint64_t>([&](uint64_t imsi, uint64_t, uint64_t) {
                relayAtPlan = holder->GetRelayNext(imsi);
            }));
        coordinator->TraceConnectWithoutContext(
            "SessionResumed",
            Callback<void, uint64_t, uint16_t, Time>([&](uint64_t imsi, uint16_t, Time) {
                Simulator::ScheduleNow([&, imsi]() { relayAtResume = holder->GetRelayNext(imsi); });
            }));
        std::vector<std::string> holderReached; // what the target's actions did on cell 1
        coordinator->TraceConnectWithoutContext(
            "CrossNodeCall",
            Callback<void, const std::string&, uint16_t, uint16_t>(
                [&holderReached](const std::string& site, uint16_t acting, uint16_t cell) {
                    if (acting == 2 && cell == 1)
                    {
                        holderReached.push_back(site);
                    }
                }));
        Simulator::Stop(Seconds(8));
        Simulator::Run();
        Simulator::Destroy();
        Config::Reset();

        NS_TEST_EXPECT_MSG_EQ(relayAtPlan, 2, what << ": the holder relays to the target");
        NS_TEST_EXPECT_MSG_EQ(relayAtResume, 0, what << ": not once the session resumed");
        NS_TEST_EXPECT_MSG_EQ(std::count(holderReached.begin(), holderReached.end(), "RelayPaths"),
                              0,
                              what << ": the target stopped a relay of the holder's");
        NS_TEST_EXPECT_MSG_EQ(holderReached.empty(),
                              !network,
                              what << ": the audit counts (network only) the export");
    }
};

class PlanTimeoutTestCase : public ControlPlaneTestCase
{
  public:
    PlanTimeoutTestCase()
        : ControlPlaneTestCase("Control plane network, policy at an unreachable controller: "
                               "after PlanTimeout each source plans alone, the target prefills "
                               "on its request, and every token arrives once")
    {
    }

  private:
    void DoRun() override
    {
        m_config.backhaulDelay = MilliSeconds(5);
        const Time timeout = MilliSeconds(100);
        Config::SetDefault("ns3::HandoverCoordinator::PlanTimeout", TimeValue(timeout));
        Watch w;
        uint64_t drops = 0;
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue("network"));
        Config::SetDefault("ns3::HandoverCoordinator::PolicyAt", StringValue("controller"));
        Config::SetDefault("ns3::PerPairBackhaulTopology::Controller", BooleanValue(true));
        const CtHoLineExperiment experiment(m_config);
        const CtHoLineRun run =
            experiment.Run("ctho", experiment.Draw(), [&](Ptr<EdgeLlmLineScenario> s) {
                w.Hook(s);
                // The controller's links are cut for good from the start.
                Ptr<PerPairBackhaulTopology> pairs =
                    DynamicCast<PerPairBackhaulTopology>(s->GetNetwork()->GetBackhaulTopology());
                for (const NetDeviceContainer& link : pairs->GetControllerLinks())
                {
                    Ptr<BackhaulFaultModel> cut = CreateObject<BackhaulFaultModel>();
                    cut->StartOutage();
                    cut->TraceConnectWithoutContext(
                        "Dropped",
                        Callback<void, Ptr<const Packet>, bool>(
                            [&drops](Ptr<const Packet>, bool) { ++drops; }));
                    for (uint32_t d = 0; d < link.GetN(); ++d)
                    {
                        link.Get(d)->SetAttribute("ReceiveErrorModel", PointerValue(cut));
                    }
                }
            });
        NS_TEST_EXPECT_MSG_GT(drops, 0u, "the controller's links dropped packets");
        NS_TEST_EXPECT_MSG_EQ(w.received[ControlMessage::NOTICE], 0u, "no notice got through");
        NS_TEST_EXPECT_MSG_EQ(w.coordinator->GetPlanTimeouts(),
                              run.records.size(),
                              "every handover's plan timed out");
        NS_TEST_EXPECT_MSG_EQ(w.received[ControlMessage::PREFILL_REQUEST],
                              run.records.size(),
                              "each source sent its target the prefill request itself");
        for (const HandoverRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ((r.outcome == HandoverRecord::MIGRATED),
                                  true,
                                  "imsi " << r.imsi << " migrated");
            const auto c = w.controlDelay.find(r.imsi);
            const auto start = w.prefillStart.find(r.imsi);
            const auto in = w.requestIn.find(r.imsi);
            const bool applied = c != w.controlDelay.end();
            const bool prefilled = start != w.prefillStart.end() && in != w.requestIn.end();
            NS_TEST_EXPECT_MSG_EQ(applied, true, "its plan was applied");
            NS_TEST_EXPECT_MSG_EQ(prefilled, true, "its request arrived, and it prefilled");
            if (applied)
            {
                NS_TEST_EXPECT_MSG_EQ(c->second, timeout, "planned alone at the timeout");
            }
            if (prefilled)
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(start->second, in->second, "after its request");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(run.records.size(), run.ues.size(), "one handover per UE");
        CheckTokens(run, w, "controller unreachable");
    }
};

/// The audit's place of an action, and what it counts: each expected value by hand.
class CrossNodeAuditTestCase : public ControlPlaneTestCase
{
  public:
    CrossNodeAuditTestCase()
        : ControlPlaneTestCase("CrossNodeAudit: an action runs at the cell its scope names, a "
                               "timer where it was set; a call on another cell is counted by "
                               "its function and place")
    {
    }

  private:
    void DoRun() override
    {
        CrossNodeAudit audit;
        NS_TEST_EXPECT_MSG_EQ(CrossNodeAudit::Acting(), CrossNodeAudit::NOWHERE, "no action");
        NS_TEST_EXPECT_MSG_EQ(audit.Check("Setup", 1), true, "from nowhere: not known local");
        uint16_t timerAt = 0;
        uint16_t plainAt = 7;
        {
            CrossNodeAudit::Scope at1(1);
            NS_TEST_EXPECT_MSG_EQ(audit.Check("Own", 1), false, "its own cell");
            NS_TEST_EXPECT_MSG_EQ(audit.Check("Other", 2), true, "another cell");
            {
                CrossNodeAudit::Scope controller(ControlMessage::CONTROLLER);
                NS_TEST_EXPECT_MSG_EQ(audit.Check("Controller", 1), true, "from the controller");
            }
            NS_TEST_EXPECT_MSG_EQ(CrossNodeAudit::Acting(), 1, "back at cell 1");
            CrossNodeAudit::Schedule(MilliSeconds(1), [&]() {
                timerAt = CrossNodeAudit::Acting();
                audit.Check("Timer", 2);
            });
            Simulator::Schedule(MilliSeconds(2),
                                [&plainAt]() { plainAt = CrossNodeAudit::Acting(); });
        }
        NS_TEST_EXPECT_MSG_EQ(CrossNodeAudit::Acting(), CrossNodeAudit::NOWHERE, "left");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(timerAt, 1, "the timer ran where it was set");
        NS_TEST_EXPECT_MSG_EQ(plainAt, CrossNodeAudit::NOWHERE, "a plain event has no place");
        NS_TEST_EXPECT_MSG_EQ(audit.GetTotal(), 4u, "Setup, Other, Controller, Timer");
        NS_TEST_EXPECT_MSG_EQ(audit.GetUnplaced(), 1u, "Setup");
        const std::map<std::string, uint64_t> expected{{"Controller: controller -> cell", 1},
                                                       {"Other: cell -> cell", 1},
                                                       {"Setup: ? -> cell", 1},
                                                       {"Timer: cell -> cell", 1}};
        NS_TEST_EXPECT_MSG_EQ((audit.GetCalls() == expected), true, "by function and place");
        audit.Clear();
        NS_TEST_EXPECT_MSG_EQ(audit.GetTotal() + audit.GetCalls().size(), 0u, "cleared");
    }
};

class WindowEndTestCase : public ControlPlaneTestCase
{
  public:
    WindowEndTestCase()
        : ControlPlaneTestCase("A resume deadline counts from the handover; on the network the "
                               "source stops sending then and tells the target (WINDOW_END), "
                               "which resumes on what has arrived when it hears")
    {
    }

  private:
    void DoRun() override
    {
        for (const bool network : {false, true})
        {
            Run(network);
        }
    }

    void Run(bool network)
    {
        const std::string what = network ? "network" : "ideal";
        const Time window = MilliSeconds(400);
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane",
                           StringValue(network ? "network" : "ideal"));
        // One UE hands over from cell 1 to cell 2 over 20 ms links of 1 Gb/s: of its 37 MB
        // cache about 14 MB cross in the 400 ms window, and DATA messages are still in flight
        // when it ends.
        Ptr<EdgeLlmLineScenario> s = edgellm::WindowLine(window);
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        Watch w;
        w.Hook(s);
        edgellm::DataArrivals arrivals;
        arrivals.Hook(edge, 2);
        edgellm::MessageTimes windowEnd;
        windowEnd.Hook(edge, ControlMessage::WINDOW_END);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        const std::vector<HandoverRecord> records = w.coordinator->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1u, what << ": one handover");
        const HandoverRecord& r = records.front();
        NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, what << ": migrated");
        const Time deadline = r.hoStart + window;
        // Where the window's end is known: at the source's deadline (ideal), or where its
        // message reaches the target (network).
        Time known = deadline;
        if (network)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(r.planApplied,
                                        r.hoStart + MilliSeconds(40),
                                        what << ": the plan waited a round trip");
            NS_TEST_EXPECT_MSG_EQ(windowEnd.sent,
                                  deadline,
                                  what << ": sent at the handover plus the window");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(windowEnd.arrived - windowEnd.sent,
                                        MilliSeconds(20),
                                        what << ": a link's delay one way");
            known = windowEnd.arrived;
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(windowEnd.sent.IsNegative(), true, what << ": no message");
        }
        NS_TEST_EXPECT_MSG_EQ(r.kvReady, known, what << ": resumed then");
        // What it resumed with: every DATA message in by then, none after.
        NS_TEST_EXPECT_MSG_EQ(CountUnits(r.arrived),
                              arrivals.Units(Time(-1), known),
                              what << ": the units in by then");
        NS_TEST_EXPECT_MSG_GT(r.abandonedBytes, 0u, what << ": the window left some behind");
        if (network)
        {
            NS_TEST_EXPECT_MSG_GT(arrivals.Units(deadline, known),
                                  0u,
                                  what << ": units in flight at the deadline count");
        }
        Ptr<EdgeLlmNetwork> net = s->GetNetwork();
        const KvTransferSenderCounters sent = net->GetKvSent(r.imsi);
        NS_TEST_EXPECT_MSG_EQ(KvLedgerBalances(sent, net->GetKvReceived(r.imsi)),
                              true,
                              what << ": the ledger");
        NS_TEST_EXPECT_MSG_GT(
            sent.withdrawnBy[static_cast<std::size_t>(KvDiscardReason::WINDOW_END)],
            0u,
            what << ": withdrawn at the window's end");
        CheckSessionTokens(w, r.imsi, 200, what);
        // The deadline acts at the source, the resume at the target: only the resume's
        // export reaches another node.
        for (const auto& [call, n] : w.coordinator->GetCrossNodeAudit().GetCalls())
        {
            const bool allowed = call.rfind("TryResume", 0) == 0 || call.rfind("Start", 0) == 0;
            NS_TEST_EXPECT_MSG_EQ(allowed, true, what << ": " << call << " (" << n << ")");
        }
        Simulator::Destroy();
        Config::Reset();
    }
};

/// Microseconds from now to a time, rounded up; 0 once it has passed.
/// \param end the time \return them, as a target's report carries them
uint64_t
MicroSecondsTo(Time end)
{
    const Time left = end - Simulator::Now();
    return left.IsStrictlyPositive() ? static_cast<uint64_t>(std::ceil(left.GetNanoSeconds() / 1e3))
                                     : 0;
}

class TargetReportTestCase : public ControlPlaneTestCase
{
  public:
    /// \param at PolicyAt
    explicit TargetReportTestCase(const std::string& at)
        : ControlPlaneTestCase("Control plane network, policy at the " + at +
                               ": a target's answer reports when its engine's iteration ends, the "
                               "controller passes it on, and no online plan reads a target's "
                               "engine"),
          m_at(at)
    {
    }

  private:
    void DoRun() override
    {
        // Online groups and Mixed iterations: the plans that read the target's iteration end
        // and could replay its engine. A resident session keeps each target's engine busy.
        m_config.backhaulDelay = MilliSeconds(5);
        m_config.batching = "online";
        m_config.residentUes = 1;
        Config::SetDefault("ns3::LlmEngine::IterationMode", StringValue("Mixed"));
        Watch w;
        // Each report as sent, and what the test derives for it: from the target's engine when
        // the target sends it, from the answer's end when the controller passes it on.
        std::vector<std::pair<uint64_t, uint64_t>> reports;
        std::vector<std::pair<uint64_t, uint64_t>> passedOn;
        std::map<std::pair<uint64_t, uint32_t>, Time> answeredEnd;
        std::vector<std::string> reached;
        const CtHoLineRun run = RunWith("network", m_at, w, [&](Ptr<EdgeLlmLineScenario> s) {
            for (const auto& [cell, channel] : s->GetEdgeLlmHelper()->GetControlChannels())
            {
                channel->TraceConnectWithoutContext(
                    "Tx",
                    Callback<void, const ControlMessage&, uint16_t>(
                        [&, cell = cell](const ControlMessage& m, uint16_t) {
                            if (m.items.empty() || (m.type != ControlMessage::RESERVE_ANSWER &&
                                                    m.type != ControlMessage::PLAN))
                            {
                                return;
                            }
                            const uint64_t carried = m.items.front().value;
                            if (cell == ControlMessage::CONTROLLER)
                            {
                                passedOn.emplace_back(
                                    carried,
                                    MicroSecondsTo(answeredEnd.at({m.imsi, m.sequence})));
                                return;
                            }
                            reports.emplace_back(
                                carried,
                                MicroSecondsTo(w.engines.at(cell)->GetIterationEnd()));
                            answeredEnd[{m.imsi, m.sequence}] =
                                NanoSeconds(m.sentAtNs) + MicroSeconds(carried);
                        }));
            }
            s->GetEdgeLlmHelper()->GetCoordinator()->TraceConnectWithoutContext(
                "CrossNodeCall",
                Callback<void, const std::string&, uint16_t, uint16_t>(
                    [&reached](const std::string& site, uint16_t, uint16_t) {
                        reached.push_back(site);
                    }));
        });

        NS_TEST_EXPECT_MSG_EQ(edgellm::CountMigrated(run.records),
                              m_config.numUes,
                              "every moving UE migrated");
        NS_TEST_ASSERT_MSG_EQ(reports.size(), m_config.numUes, "a report per handover");
        uint32_t busy = 0;
        for (const auto& [carried, derived] : reports)
        {
            NS_TEST_EXPECT_MSG_EQ(carried, derived, "the target's iteration end, in us up");
            busy += carried > 0 ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_GT(busy, 0u, "a report found its target's engine busy");
        const std::size_t plans = m_at == "controller" ? 2 * m_config.numUes : 0;
        NS_TEST_EXPECT_MSG_EQ(passedOn.size(),
                              plans,
                              "the controller's plans, to the source and the target");
        for (const auto& [carried, derived] : passedOn)
        {
            NS_TEST_EXPECT_MSG_EQ(carried, derived, "the answer's end, from the plan's sending");
        }
        for (const std::string& site : reached)
        {
            NS_TEST_EXPECT_MSG_EQ((site == "Plan" || site == "GetTargetIterationEnd" ||
                                   site == "ForecastPrefills" || site == "MakeTargetView"),
                                  false,
                                  "a plan read a target's engine: " << site);
        }
        CheckTokens(run, w, "reports");
    }

    std::string m_at; //!< PolicyAt
};

class ControlPlaneTestSuite : public TestSuite
{
  public:
    ControlPlaneTestSuite()
        : TestSuite("edge-llm-control-plane", TestSuite::Type::UNIT)
    {
        AddTestCase(new PacketsOnTheDevicesTestCase("source"), edgellm::TEST_QUICK);
        AddTestCase(new PacketsOnTheDevicesTestCase("target"), edgellm::TEST_QUICK);
        AddTestCase(new PacketsOnTheDevicesTestCase("controller"), edgellm::TEST_QUICK);
        AddTestCase(new LostPrefillRequestTestCase, edgellm::TEST_QUICK);
        AddTestCase(new IdealSendsNothingTestCase, edgellm::TEST_QUICK);
        AddTestCase(new PlanWithTheAnswerTestCase, edgellm::TEST_QUICK);
        AddTestCase(new PlanTimeoutTestCase, edgellm::TEST_QUICK);
        AddTestCase(new CrossNodeAuditTestCase, edgellm::TEST_QUICK);
        AddTestCase(new ResumeEndsRelayTestCase, edgellm::TEST_QUICK);
        AddTestCase(new WindowEndTestCase, edgellm::TEST_QUICK);
        for (const std::string at : {"source", "target", "controller"})
        {
            AddTestCase(new TargetReportTestCase(at), edgellm::TEST_QUICK);
        }
    }
};

/// The suite's one instance
ControlPlaneTestSuite g_controlPlaneTestSuite;

} // namespace
