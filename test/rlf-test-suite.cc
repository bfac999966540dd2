/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A radio link failure of a UE with a live session. The UE is moved out of every cell's
// coverage mid-session, and its link fails by the radio stack's own detection; when the
// failure is reported it is moved back, next to its cell or to the other one, or left out.
// Each run is checked at the edges: the token indices the UE's application got, the tokens
// each engine generated and when, the KV memory the holder still uses, and the KV ledger.

#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Where the UE goes once its link has failed.
enum class Back
{
    SAME_CELL,  //!< next to the cell it failed in
    OTHER_CELL, //!< next to the other cell
    NEVER,      //!< nowhere: it stays out of coverage
};

/// Tokens of the session: about 5 s of decoding, so that the failure falls mid-session.
constexpr uint32_t TOKENS = 400;
/// When the UE leaves coverage.
const Time LEAVE = Seconds(1.5);
/// The run's cap.
const Time CAP = Seconds(30);

/// One UE, still (it never starts moving in the run), on the two-cell line with A3
/// handovers, which is what turns on the UE's radio link failure detection.
CtHoLineConfig
RlfLine()
{
    CtHoLineConfig c;
    c.numUes = 1;
    c.moveStart = Seconds(100);
    c.trigger = "a3";
    c.batching = "online";
    c.tokensAfter = 60;
    c.maxSimTime = CAP;
    return c;
}

/// What the edges saw.
struct Edges
{
    std::vector<uint32_t> delivered;        //!< token indices the application got, in order
    Time lastDelivery{-1};                  //!< when the last of them came
    std::map<uint16_t, uint64_t> generated; //!< tokens generated per cell
    uint64_t generatedWhileAway{0};         //!< tokens generated while suspended or closed
    uint64_t generatedDetached{0};          //!< tokens generated from the failure to Reattached
    Time failed{-1};                        //!< RadioLinkFailure, when
    Time reattached{-1};                    //!< Reattached, when
    std::vector<uint16_t> failedIn;         //!< RadioLinkFailure cells
    std::vector<uint16_t> reattachedIn;     //!< Reattached cells
    std::vector<uint16_t> suspendedAt;      //!< SessionSuspended cells
    Time suspended{-1};                     //!< when
    Time resumed{-1};                       //!< SessionReattached, when
    uint16_t resumedIn{0};                  //!< and where
    Time closed{-1};                        //!< SessionClosed, when
    uint64_t closedDelivered{0};            //!< its delivered count
    uint64_t closedUndelivered{0};          //!< its undelivered count
    uint32_t closes{0};                     //!< SessionClosed calls
    bool holderFreedAtClose{false};         //!< the holder's engine held nothing of it then
};

/// The cells of the line, first the UE's.
struct Cells
{
    uint16_t first{0};          //!< where the UE starts
    uint16_t other{0};          //!< the other one
    Ptr<LlmEngine> firstEngine; //!< the first cell's engine
};

class RlfTestCase : public TestCase
{
  public:
    /// \param policy Suspend or Close \param back where the UE goes \param scheme the policy
    /// \param timeout LinkFailureTimeout
    RlfTestCase(const std::string& policy, Back back, const std::string& scheme, Time timeout)
        : TestCase(Name(policy, back, scheme, timeout)),
          m_policy(policy),
          m_back(back),
          m_scheme(scheme),
          m_timeout(timeout)
    {
    }

  private:
    static std::string Name(const std::string& policy,
                            Back back,
                            const std::string& scheme,
                            Time timeout)
    {
        std::string where = back == Back::SAME_CELL    ? "back in its cell"
                            : back == Back::OTHER_CELL ? "back in the other cell"
                                                       : "never back";
        return "Radio link failure, LinkFailurePolicy " + policy + " (" + scheme + ", timeout " +
               std::to_string(timeout.GetMilliSeconds()) + " ms), UE " + where;
    }

    void DoRun() override
    {
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            RunOnce("RngRun " + std::to_string(rngRun));
        }
    }

    void RunOnce(const std::string& what);

    std::string m_policy;
    Back m_back;
    std::string m_scheme;
    Time m_timeout;
};

void
RlfTestCase::RunOnce(const std::string& what)
{
    const CtHoLineExperiment experiment(RlfLine());
    Edges e;
    Cells cells;
    Ptr<RanObserver> observer;
    const Back back = m_back;
    auto hook = [&](Ptr<EdgeLlmLineScenario> s) {
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(s->GetClients().Get(0));
        // The experiment sized the session for a crossing that never comes in this run.
        client->SetAttribute("TokensToGenerate", UintegerValue(TOKENS));
        client->TraceConnectWithoutContext(
            "TokenDelivered",
            Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
                [&e](uint64_t, uint32_t index, Time, Time, uint16_t, bool) {
                    e.delivered.push_back(index);
                    e.lastDelivery = Simulator::Now();
                }));
        Ptr<HandoverCoordinator> coordinator = s->GetEdgeLlmHelper()->GetCoordinator();
        coordinator->SetAttribute("LinkFailurePolicy", StringValue(m_policy));
        coordinator->SetAttribute("LinkFailureTimeout", TimeValue(m_timeout));
        Ptr<EdgeLlmServer> first = DynamicCast<EdgeLlmServer>(s->GetServers().Get(0));
        cells.first = first->GetCellId();
        cells.firstEngine = first->GetEngine();
        cells.other = DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))->GetCellId();
        for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
        {
            Ptr<EdgeLlmServer> server = DynamicCast<EdgeLlmServer>(s->GetServers().Get(i));
            const uint16_t cell = server->GetCellId();
            server->GetEngine()->TraceConnectWithoutContext(
                "TokenGenerated",
                Callback<void, uint64_t, uint64_t>([&e, cell](uint64_t, uint64_t) {
                    ++e.generated[cell];
                    const bool away =
                        !e.suspended.IsStrictlyNegative() && e.resumed.IsStrictlyNegative();
                    e.generatedWhileAway += away || !e.closed.IsStrictlyNegative() ? 1 : 0;
                    e.generatedDetached +=
                        !e.failed.IsStrictlyNegative() && e.reattached.IsStrictlyNegative() ? 1 : 0;
                }));
        }
        coordinator->TraceConnectWithoutContext(
            "SessionSuspended",
            Callback<void, uint64_t, uint16_t>([&e](uint64_t, uint16_t cell) {
                e.suspendedAt.push_back(cell);
                e.suspended = Simulator::Now();
            }));
        coordinator->TraceConnectWithoutContext(
            "SessionReattached",
            Callback<void, uint64_t, uint16_t, Time>([&e](uint64_t, uint16_t cell, Time) {
                e.resumed = Simulator::Now();
                e.resumedIn = cell;
            }));
        Ptr<LlmEngine> holder = first->GetEngine();
        coordinator->TraceConnectWithoutContext(
            "SessionClosed",
            Callback<void, uint64_t, uint64_t, uint64_t>(
                [&e, holder, first](uint64_t imsi, uint64_t delivered, uint64_t undelivered) {
                    ++e.closes;
                    e.closed = Simulator::Now();
                    e.closedDelivered = delivered;
                    e.closedUndelivered = undelivered;
                    e.holderFreedAtClose = !holder->HasSession(imsi) &&
                                           holder->GetKvTokensInUse() == 0 &&
                                           !first->OwnsSession(imsi);
                }));
        observer = s->GetObserver();
        Ptr<MobilityModel> mobility = s->GetUeNodes().Get(0)->GetObject<MobilityModel>();
        const Vector home = mobility->GetPosition();
        // Thousands of kilometres from both cells: the downlink's SINR is far below Qout.
        Simulator::Schedule(LEAVE, [mobility, home]() {
            mobility->SetPosition(Vector(1e7, home.y, home.z));
        });
        observer->TraceConnectWithoutContext(
            "RadioLinkFailure",
            Callback<void, uint64_t, uint16_t>([&e, mobility, home, back](uint64_t, uint16_t cell) {
                e.failedIn.push_back(cell);
                e.failed = Simulator::Now();
                // Back before the cell search measures anything, so that it finds the cell
                // the test chose as the strongest.
                if (back == Back::SAME_CELL)
                {
                    mobility->SetPosition(Vector(20, home.y, home.z));
                }
                else if (back == Back::OTHER_CELL)
                {
                    mobility->SetPosition(Vector(280, home.y, home.z));
                }
            }));
        observer->TraceConnectWithoutContext(
            "Reattached",
            Callback<void, uint64_t, uint16_t>([&e](uint64_t, uint16_t cell) {
                e.reattachedIn.push_back(cell);
                e.reattached = Simulator::Now();
            }));
    };
    const CtHoLineRun run = experiment.Run(m_scheme, experiment.Draw(), hook);

    NS_TEST_EXPECT_MSG_LT(run.endTime, CAP, what << ": the run ended before its cap");
    NS_TEST_ASSERT_MSG_EQ(e.failedIn.size(), 1u, what << ": one radio link failure");
    NS_TEST_EXPECT_MSG_EQ(e.failedIn[0], cells.first, what << ": in the UE's first cell");
    NS_TEST_EXPECT_MSG_EQ(observer->GetRadioLinkFailures(), 1u, what << ": counted");
    // By hand, from ns-3.37's defaults: N310 = 6 out-of-sync indications, one per 200 ms
    // window (LteUePhy NumQoutEvalSf), start T310, which runs 1 s: 2.2 s after leaving.
    NS_TEST_EXPECT_MSG_GT_OR_EQ(e.failed, LEAVE + Seconds(2.2), what << ": N310 x 200 ms + T310");
    NS_TEST_EXPECT_MSG_LT(e.failed, LEAVE + Seconds(2.3), what << ": and not much later");

    // Exactly once, in order: index i is the i-th delivered.
    bool inOrder = true;
    for (std::size_t i = 0; inOrder && i < e.delivered.size(); ++i)
    {
        inOrder = e.delivered[i] == i;
    }
    NS_TEST_EXPECT_MSG_EQ(inOrder, true, what << ": each token once, in order");
    const KvTransferSenderCounters& sent = run.sent;
    const KvTransferReceiverCounters& received = run.received;
    NS_TEST_EXPECT_MSG_EQ(sent.announced, sent.sent + sent.withdrawn, what << ": ledger");
    NS_TEST_EXPECT_MSG_EQ(sent.sent, received.received + received.stale, what << ": drained");
    NS_TEST_EXPECT_MSG_EQ(e.generatedWhileAway, 0u, what << ": nothing generated while away");
    if (m_policy == "Continue")
    {
        // The holder decoded on while the UE was detached; the client's NACKs recovered it.
        NS_TEST_EXPECT_MSG_GT(e.generatedDetached, 0u, what << ": decoded on while detached");
        NS_TEST_EXPECT_MSG_EQ(e.delivered.size(), TOKENS, what << ": every token arrived");
        NS_TEST_EXPECT_MSG_EQ(e.suspendedAt.size() + e.closes, 0u, what << ": no policy acted");
        NS_TEST_EXPECT_MSG_EQ(e.reattachedIn.size(), 1u, what << ": reattached once");
        return;
    }
    NS_TEST_EXPECT_MSG_EQ(e.generatedDetached, 0u, what << ": nothing generated while detached");

    if (m_policy == "Close" || m_back == Back::NEVER)
    {
        NS_TEST_ASSERT_MSG_EQ(e.closes, 1u, what << ": the session was closed once");
        NS_TEST_EXPECT_MSG_EQ(e.delivered.size() + e.closedUndelivered,
                              TOKENS,
                              what << ": delivered + undelivered = the tokens it was to make");
        NS_TEST_EXPECT_MSG_EQ(e.closedDelivered, e.delivered.size(), what << ": delivered");
        NS_TEST_EXPECT_MSG_GT(e.closedUndelivered, 0u, what << ": it closed mid-session");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(e.lastDelivery, e.closed, what << ": none after the close");
        NS_TEST_EXPECT_MSG_EQ(e.holderFreedAtClose, true, what << ": its KV memory was freed");
        NS_TEST_EXPECT_MSG_EQ(run.results.sessions.at(0).closed, true, what << ": a closed row");
        NS_TEST_EXPECT_MSG_EQ(run.results.sessions.at(0).undelivered,
                              e.closedUndelivered,
                              what << ": with its count");
        if (m_policy == "Suspend")
        {
            NS_TEST_EXPECT_MSG_EQ(e.closed - e.suspended,
                                  m_timeout,
                                  what << ": closed when the wait ran out");
        }
        return;
    }
    NS_TEST_EXPECT_MSG_EQ(e.closes, 0u, what << ": nothing closed");
    NS_TEST_EXPECT_MSG_EQ(e.delivered.size(), TOKENS, what << ": every token arrived");
    NS_TEST_ASSERT_MSG_EQ(e.suspendedAt.size(), 1u, what << ": suspended once");
    NS_TEST_EXPECT_MSG_EQ(e.suspendedAt[0], cells.first, what << ": at its holder");
    NS_TEST_ASSERT_MSG_EQ(e.reattachedIn.size(), 1u, what << ": reattached once");
    const uint16_t expected = m_back == Back::SAME_CELL ? cells.first : cells.other;
    NS_TEST_EXPECT_MSG_EQ(e.reattachedIn[0], expected, what << ": where the UE went");
    NS_TEST_EXPECT_MSG_EQ(e.resumedIn, expected, what << ": the session followed it");
    NS_TEST_EXPECT_MSG_EQ(e.generated[cells.first] + e.generated[cells.other],
                          TOKENS,
                          what << ": each token generated once");
    if (m_back == Back::OTHER_CELL)
    {
        NS_TEST_EXPECT_MSG_GT(e.generated[cells.other], 0u, what << ": decoded at the other cell");
        bool migrated = false;
        for (const HandoverRecord& r : run.records)
        {
            migrated = migrated || (r.outcome == HandoverRecord::MIGRATED &&
                                    r.sourceCell == cells.first && r.targetCell == cells.other);
        }
        NS_TEST_EXPECT_MSG_EQ(migrated, true, what << ": migrated as at a handover");
        NS_TEST_EXPECT_MSG_EQ(cells.firstEngine->GetKvTokensInUse(),
                              0u,
                              what << ": the old holder freed its memory");
    }
    else
    {
        NS_TEST_EXPECT_MSG_EQ(e.generated[cells.other], 0u, what << ": decoded at its cell only");
    }
}

class RlfTestSuite : public TestSuite
{
  public:
    RlfTestSuite()
        : TestSuite("edge-llm-rlf", TestSuite::Type::UNIT)
    {
        AddTestCase(new RlfTestCase("Continue", Back::SAME_CELL, "cho", Seconds(5)),
                    edgellm::TEST_QUICK);
        AddTestCase(new RlfTestCase("Suspend", Back::SAME_CELL, "cho", Seconds(5)),
                    edgellm::TEST_QUICK);
        AddTestCase(new RlfTestCase("Suspend", Back::OTHER_CELL, "cho", Seconds(5)),
                    edgellm::TEST_QUICK);
        AddTestCase(new RlfTestCase("Suspend", Back::NEVER, "cho", MilliSeconds(500)),
                    edgellm::TEST_QUICK);
        AddTestCase(new RlfTestCase("Close", Back::SAME_CELL, "cho", Seconds(5)),
                    edgellm::TEST_QUICK);
    }
};

/// The suite's one instance.
RlfTestSuite g_rlfTestSuite;

} // namespace
