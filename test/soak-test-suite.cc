/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A soak: many UEs on random routes over the grid for minutes of simulated time, faults at
// random on the backhaul, the GPUs and the KV memory, for every scheme. What it checks is
// counted at the edges: the token indices each client application got, the drops the backhaul
// devices saw, the bytes of every sender and receiver, the token IDs at every handover prefill.
//
// The EXTENSIVE case is the full size (100 UEs, 300 s); it runs only when asked for:
//   ./build/edge-llm-test-runner --suite=edge-llm-soak --fullness=EXTENSIVE
// EDGE_LLM_SOAK_SCHEMES (a comma-separated list of scheme names, or "all") chooses the
// schemes of either case; by default the full case runs every registered one. The QUICK case
// keeps the same code path tested by default, small.

#include "prefill-token-watch.h"
#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The size of a soak.
struct SoakSize
{
    uint32_t ues;                     //!< moving UEs, each with one session
    double simTimeS;                  //!< the scenario's length: routes and session starts, s
    uint32_t columns;                 //!< grid columns
    uint32_t rows;                    //!< grid rows
    double spacingM;                  //!< distance between neighbouring cells, m
    double speed;                     //!< the UEs' speed, m/s
    uint32_t outages;                 //!< outages, each on a random link at a random time
    uint32_t crossFlows;              //!< cross-traffic flows, each on a random link
    std::vector<std::string> schemes; //!< the schemes run, each on the same inputs; none: all
    bool fromEnvironment{false};      //!< EDGE_LLM_SOAK_SCHEMES may name the schemes instead
};

/// A fault drawn once, before any scheme runs, so that every scheme meets the same ones.
struct DrawnFaults
{
    std::vector<double> lossRate;      //!< per link slot: loss probability
    std::vector<double> outageLink;    //!< per outage: a link, as a fraction of the links
    std::vector<double> outageStartS;  //!< per outage: when, s
    std::vector<double> outageForS;    //!< per outage: how long, s
    std::vector<double> crossLink;     //!< per flow: a link, as a fraction of the links
    std::vector<double> crossStartS;   //!< per flow: when, s
    std::vector<double> crossForS;     //!< per flow: how long, s
    std::vector<double> crossRateMbps; //!< per flow: its rate
    std::vector<double> gpuLoad;       //!< per cell: the engine's LoadFactor
    std::vector<bool> memoryTight;     //!< per cell: its KV memory holds only a few sessions
};

/// The UEs' inputs, drawn once.
struct DrawnUes
{
    std::vector<EdgeLlmUeSpec> specs; //!< routes and session starts
    std::vector<uint32_t> prompts;    //!< prompt tokens
    std::vector<uint32_t> tokens;     //!< tokens to generate
};

/// Links drawn for: no grid of the tests has more neighbour pairs.
constexpr uint32_t MAX_LINKS = 64;
/// The largest prompt, tokens.
constexpr uint32_t MAX_PROMPT = 2048;

/**
 * \param simTimeS the scenario's length, s
 * \return the most tokens a session generates: at 13.3 ms a token (the default decode step)
 *         and a GPU load up to 1.6, a third of the scenario's length at most, so that a
 *         session opened by 55 % of it ends before it
 */
uint32_t
MaxTokens(double simTimeS)
{
    return static_cast<uint32_t>(18 * simTimeS);
}

/// What one scheme's run saw and did.
struct SoakRun
{
    std::string scheme;
    uint32_t sessions{0};
    uint64_t tokens{0};
    uint32_t handovers{0};   //!< records of handovers of a session
    uint32_t completed{0};   //!< of them migrated, relayed or reused
    uint32_t failed{0};      //!< of them failed at the RAN
    uint64_t lossDrops{0};   //!< backhaul packets lost at random (the fault models' count)
    uint64_t outageDrops{0}; //!< backhaul packets lost in outages
    uint64_t deviceDrops{0}; //!< PhyRxDrop on the backhaul devices
    uint64_t crossBytes{0};  //!< cross-traffic bytes received
    uint32_t outages{0};     //!< outages started
    uint32_t stalls{0};      //!< transfers found stalled
    uint32_t reprefills{0};  //!< of them re-prefilled
    KvTransferSenderCounters sent;
    KvTransferReceiverCounters received;
    double endS{0};  //!< simulated time when the run ended
    double wallS{0}; //!< wall time of the run
};

/// \return every scheme of the module's registry (the runner's own test policies left out)
std::vector<std::string> ModuleSchemes();

/**
 * \param fallback the case's own schemes
 * \return the schemes named in EDGE_LLM_SOAK_SCHEMES ("all": every scheme), or \p fallback if
 *         it is unset or empty
 */
std::vector<std::string>
SchemesFromEnvironment(const std::vector<std::string>& fallback)
{
    const char* text = std::getenv("EDGE_LLM_SOAK_SCHEMES");
    if (!text || !*text)
    {
        return fallback;
    }
    if (std::string(text) == "all")
    {
        return ModuleSchemes();
    }
    std::vector<std::string> names;
    std::istringstream in(text);
    for (std::string name; std::getline(in, name, ',');)
    {
        if (!name.empty())
        {
            names.push_back(name);
        }
    }
    return names;
}

std::vector<std::string>
ModuleSchemes()
{
    std::vector<std::string> names;
    for (const edgellm::HandoverScheme& s : edgellm::ListHandoverSchemes())
    {
        // The tests' own schedulers ("test-...") are no schemes of the module.
        if (s.name.rfind("test-", 0) != 0)
        {
            names.push_back(s.name);
        }
    }
    return names;
}

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief Every scheme on the same random grid, routes and faults: each UE's tokens arrive
 * exactly once and in order, every KV byte is in the ledger under its reason, sessions are
 * handed over, and the run ends before its cap.
 */
class SoakTestCase : public TestCase
{
  public:
    /**
     * \param name the case's name
     * \param size its size and schemes
     */
    SoakTestCase(const std::string& name, SoakSize size)
        : TestCase(name),
          m_size(std::move(size))
    {
    }

  private:
    void DoRun() override;
    void DoTeardown() override;

    /// Draw the UEs' routes, sessions and the faults, once for every scheme.
    void Draw(DrawnUes& ues, DrawnFaults& faults) const;
    /// Run one scheme and check its invariants.
    SoakRun RunScheme(const std::string& scheme,
                      uint32_t index,
                      const DrawnUes& ues,
                      const DrawnFaults& faults);

    SoakSize m_size; //!< the soak's size
};

void
SoakTestCase::DoTeardown()
{
    Simulator::Destroy();
    Config::Reset();
    RngSeedManager::SetRun(1);
}

void
SoakTestCase::Draw(DrawnUes& ues, DrawnFaults& faults) const
{
    Ptr<GridCellLayout> layout =
        CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                   UintegerValue(m_size.columns),
                                                   "Rows",
                                                   UintegerValue(m_size.rows),
                                                   "Spacing",
                                                   DoubleValue(m_size.spacingM));
    Ptr<GridRandomRoute> routes = CreateObject<GridRandomRoute>();
    routes->SetAttribute("Speed", DoubleValue(m_size.speed));
    routes->AssignStreams(30);
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(31);
    const double end = m_size.simTimeS;
    for (uint32_t j = 0; j < m_size.ues; ++j)
    {
        EdgeLlmUeSpec ue;
        const uint32_t cell = u->GetInteger(0, layout->GetCellCount() - 1);
        ue.route = routes->GetRoute(*layout, cell, 0.5, end).GetWaypoints();
        // Sessions open over the first 55 %, so that the last can finish in the rest.
        ue.sessionStart = Seconds(u->GetValue(0.2, end * 0.55));
        ues.specs.push_back(ue);
        ues.prompts.push_back(u->GetInteger(512, MAX_PROMPT));
        ues.tokens.push_back(u->GetInteger(MaxTokens(end) / 3, MaxTokens(end)));
    }
    for (uint32_t l = 0; l < MAX_LINKS; ++l)
    {
        // A third of the links are clean; the others lose up to 2 packets in 1000.
        faults.lossRate.push_back(u->GetValue() < 1.0 / 3 ? 0 : u->GetValue(0, 2e-3));
    }
    for (uint32_t o = 0; o < m_size.outages; ++o)
    {
        faults.outageLink.push_back(u->GetValue());
        faults.outageStartS.push_back(u->GetValue(2, end * 0.75));
        faults.outageForS.push_back(u->GetValue(0.1, 1.5));
    }
    for (uint32_t f = 0; f < m_size.crossFlows; ++f)
    {
        faults.crossLink.push_back(u->GetValue());
        faults.crossStartS.push_back(u->GetValue(1, end * 0.75));
        // Every cross-traffic packet is simulated: rates and lengths are kept moderate.
        faults.crossForS.push_back(u->GetValue(1, 5));
        faults.crossRateMbps.push_back(u->GetValue(100, 1000));
    }
    for (uint32_t c = 0; c < layout->GetCellCount(); ++c)
    {
        faults.gpuLoad.push_back(u->GetValue(1, 1.6));
        faults.memoryTight.push_back(u->GetValue() < 0.3);
    }
}

SoakRun
SoakTestCase::RunScheme(const std::string& scheme,
                        uint32_t index,
                        const DrawnUes& ues,
                        const DrawnFaults& drawn)
{
    const auto wallStart = std::chrono::steady_clock::now();
    RngSeedManager::SetRun(7);
    Config::Reset();
    // Above ~32 UEs on one eNB, ns-3's default SRS periodicity runs out of SRS slots.
    Config::SetDefault("ns3::LteEnbRrc::SrsPeriodicity", UintegerValue(160));

    Ptr<EdgeLlmNetwork> net = CreateObject<EdgeLlmNetwork>();
    net->SetCellLayout(CreateObjectWithAttributes<GridCellLayout>("Columns",
                                                                  UintegerValue(m_size.columns),
                                                                  "Rows",
                                                                  UintegerValue(m_size.rows),
                                                                  "Spacing",
                                                                  DoubleValue(m_size.spacingM)));
    net->SetAttribute("Trigger", StringValue("planned"));
    for (const EdgeLlmUeSpec& spec : ues.specs)
    {
        net->AddUe(spec);
    }
    Ptr<EdgeLlmHelper> edge = net->GetEdgeLlmHelper();
    edge->SetScheme(scheme);
    edge->MatchKvTransferPolicyToScheduler();
    edge->SetCoordinatorAttribute("Batching", StringValue("online"));
    // Both stall policies are met, by alternate schemes.
    edge->SetCoordinatorAttribute("StallPolicy", StringValue(index % 2 ? "Reprefill" : "Wait"));
    edge->SetCoordinatorAttribute("StallTimeout", TimeValue(MilliSeconds(200)));
    net->Build();
    net->AssignStreams(1);
    // No handover prefill may start before its token IDs are at the target.
    edgellm::PrefillTokenWatch prefillWatch;
    prefillWatch.Hook(edge);

    // The clients' sessions, as drawn.
    const ApplicationContainer& clients = net->GetClients();
    std::map<uint64_t, std::vector<uint32_t>> delivered;
    uint32_t complete = 0;
    for (uint32_t j = 0; j < clients.GetN(); ++j)
    {
        clients.Get(j)->SetAttribute("PromptTokens", UintegerValue(ues.prompts[j]));
        clients.Get(j)->SetAttribute("TokensToGenerate", UintegerValue(ues.tokens[j]));
        clients.Get(j)->TraceConnectWithoutContext(
            "TokenDelivered",
            Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
                [&delivered](uint64_t imsi, uint32_t i, Time, Time, uint16_t, bool) {
                    delivered[imsi].push_back(i);
                }));
        clients.Get(j)->TraceConnectWithoutContext(
            "SessionComplete",
            Callback<void, uint64_t>([&complete, &clients](uint64_t) {
                // The run ends when the last session does; the cap is only a safety net.
                if (++complete == clients.GetN())
                {
                    Simulator::Stop();
                }
            }));
    }

    // The faults, as drawn, on the links this grid has.
    const std::vector<BackhaulLink> links = net->GetBackhaulLinks();
    NS_TEST_EXPECT_MSG_EQ(links.empty(), false, "the grid has backhaul links");
    NS_ABORT_MSG_IF(links.size() > MAX_LINKS, "the draws cover " << MAX_LINKS << " links");
    Ptr<BackhaulFaults> faults = CreateObject<BackhaulFaults>();
    uint64_t deviceDrops = 0;
    for (std::size_t l = 0; l < links.size(); ++l)
    {
        faults->SetLoss(links[l], drawn.lossRate[l]);
        for (uint32_t d = 0; d < links[l].devices.GetN(); ++d)
        {
            links[l].devices.Get(d)->TraceConnectWithoutContext(
                "PhyRxDrop",
                Callback<void, Ptr<const Packet>>(
                    [&deviceDrops](Ptr<const Packet>) { ++deviceDrops; }));
        }
    }
    const auto pick = [&links](double fraction) {
        return links[std::min<std::size_t>(fraction * links.size(), links.size() - 1)];
    };
    for (std::size_t o = 0; o < drawn.outageLink.size(); ++o)
    {
        faults->ScheduleOutage(pick(drawn.outageLink[o]),
                               Seconds(drawn.outageStartS[o]),
                               Seconds(drawn.outageForS[o]));
    }
    for (std::size_t f = 0; f < drawn.crossLink.size(); ++f)
    {
        const Time start = Seconds(drawn.crossStartS[f]);
        faults->AddCrossTraffic(pick(drawn.crossLink[f]),
                                BackhaulFaults::ON_OFF,
                                DataRate(static_cast<uint64_t>(drawn.crossRateMbps[f] * 1e6)),
                                start,
                                start + Seconds(drawn.crossForS[f]));
    }
    faults->AssignStreams(40);
    uint32_t stalls = 0;
    uint32_t reprefills = 0;
    edge->GetCoordinator()->TraceConnectWithoutContext(
        "TransferStalled",
        Callback<void, uint64_t, uint32_t, uint64_t, bool>(
            [&stalls, &reprefills](uint64_t, uint32_t, uint64_t, bool reprefill) {
                ++stalls;
                reprefills += reprefill ? 1 : 0;
            }));
    // The GPUs are slower than the plans assume, and some hold only a few sessions: room
    // for four of the largest, so that admission and handovers meet a full memory.
    for (uint32_t i = 0; i < net->GetServers().GetN(); ++i)
    {
        Ptr<LlmEngine> engine = DynamicCast<EdgeLlmServer>(net->GetServers().Get(i))->GetEngine();
        engine->SetAttribute("LoadFactor", DoubleValue(drawn.gpuLoad[i]));
        if (drawn.memoryTight[i])
        {
            engine->SetAttribute("KvCapacityTokens",
                                 UintegerValue(4 * (MAX_PROMPT + MaxTokens(m_size.simTimeS))));
        }
    }

    // A run that stops making progress in wall time is a hang: it is stopped and fails.
    const double wallLimitS = [] {
        const char* text = std::getenv("EDGE_LLM_SOAK_WALL_LIMIT_S");
        return text && *text ? std::atof(text) : 4 * 3600.0;
    }();
    bool hung = false;
    std::function<void()> watch = [&]() {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
        if (wall > wallLimitS)
        {
            hung = true;
            Simulator::Stop();
            return;
        }
        // A long soak says how far it is, so that its pace can be judged while it runs.
        const int64_t now = Simulator::Now().GetSeconds();
        if (now > 0 && now % 30 == 0)
        {
            std::clog << "soak: " << scheme << " at " << Simulator::Now().GetSeconds()
                      << " s simulated, " << complete << " sessions done, wall " << wall << " s"
                      << std::endl;
        }
        Simulator::Schedule(Seconds(1), watch);
    };
    Simulator::Schedule(Seconds(1), watch);

    // The cap: the scenario's length and a margin for the last sessions to drain.
    const Time cap = Seconds(m_size.simTimeS * 1.1);
    Simulator::Stop(cap);
    Simulator::Run();

    SoakRun run;
    run.scheme = scheme;
    run.endS = Simulator::Now().GetSeconds();
    const std::string what = scheme;
    NS_TEST_EXPECT_MSG_EQ(hung,
                          false,
                          what << ": the run hung (wall limit " << wallLimitS << " s)");
    NS_TEST_EXPECT_MSG_LT(Simulator::Now(), cap, what << ": the run ended before its cap");
    NS_TEST_EXPECT_MSG_EQ(complete, clients.GetN(), what << ": every session completed");

    // Invariant 1: each UE's tokens, once each and in order, counted by its application.
    for (uint32_t j = 0; j < clients.GetN(); ++j)
    {
        Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(clients.Get(j));
        const uint64_t imsi = client->GetImsi();
        const std::vector<uint32_t>& got = delivered[imsi];
        bool inOrder = got.size() == ues.tokens[j];
        for (std::size_t i = 0; inOrder && i < got.size(); ++i)
        {
            inOrder = got[i] == i;
        }
        NS_TEST_EXPECT_MSG_EQ(inOrder,
                              true,
                              what << ": imsi " << imsi << " got " << got.size() << " of "
                                   << ues.tokens[j] << " tokens, each once, in order");
        run.tokens += got.size();
        run.sessions += got.empty() ? 0 : 1;

        // Invariant 2: its KV bytes, in the ledger of every sender and receiver.
        const KvTransferSenderCounters s = net->GetKvSent(imsi);
        const KvTransferReceiverCounters r = net->GetKvReceived(imsi);
        NS_TEST_EXPECT_MSG_EQ(s.announced,
                              s.sent + s.withdrawn,
                              what << ": imsi " << imsi << ": announced = sent + withdrawn");
        NS_TEST_EXPECT_MSG_EQ(s.sent,
                              r.received + r.stale,
                              what << ": imsi " << imsi << ": sent = received + stale, drained");
        uint64_t withdrawnBy = 0;
        uint64_t staleBy = 0;
        for (std::size_t k = 0; k < KV_DISCARD_REASONS; ++k)
        {
            withdrawnBy += s.withdrawnBy[k];
            staleBy += r.staleBy[k];
        }
        NS_TEST_EXPECT_MSG_EQ(withdrawnBy,
                              s.withdrawn,
                              what << ": imsi " << imsi << ": every withdrawn byte has a reason");
        NS_TEST_EXPECT_MSG_EQ(staleBy,
                              r.stale,
                              what << ": imsi " << imsi << ": every stale byte has a reason");
        NS_TEST_EXPECT_MSG_EQ(r.droppedInvalid, 0u, what << ": imsi " << imsi << ": no bad DATA");
        run.sent += s;
        run.received.announced += r.announced;
        run.received.received += r.received;
        run.received.stale += r.stale;
    }
    NS_TEST_EXPECT_MSG_EQ(net->GetKvStreamBytesSent(),
                          net->GetKvStreamBytesReceived(),
                          what << ": every stream byte sent was read");

    // Handovers happened: a soak in which no session moved proves nothing.
    for (const HandoverRecord& r : edge->GetCoordinator()->GetRecords())
    {
        if (r.outcome == HandoverRecord::NO_SESSION)
        {
            continue;
        }
        ++run.handovers;
        run.completed += r.outcome == HandoverRecord::MIGRATED ||
                                 r.outcome == HandoverRecord::RELAYED ||
                                 r.outcome == HandoverRecord::REUSED
                             ? 1
                             : 0;
        run.failed += r.outcome == HandoverRecord::FAILED ? 1 : 0;
    }
    NS_TEST_EXPECT_MSG_GT(run.handovers, 0u, what << ": sessions were handed over");
    for (const std::string& early : prefillWatch.GetEarly())
    {
        NS_TEST_EXPECT_MSG_EQ(early, "", what << ": a prefill before its token IDs");
    }
    NS_TEST_EXPECT_MSG_GT(run.completed, 0u, what << ": and some handovers completed");

    // The faults did act, and what their models count is what the devices dropped.
    run.lossDrops = faults->GetLossDrops();
    run.outageDrops = faults->GetOutageDrops();
    run.crossBytes = faults->GetCrossTrafficBytes();
    run.deviceDrops = deviceDrops;
    run.stalls = stalls;
    run.reprefills = reprefills;
    NS_TEST_EXPECT_MSG_EQ(run.lossDrops + run.outageDrops,
                          deviceDrops,
                          what << ": the fault counts are the devices' drops");
    // The run ends with its last session: faults drawn for later never came.
    uint32_t due = 0;
    for (double start : drawn.outageStartS)
    {
        due += start < run.endS ? 1 : 0;
    }
    NS_TEST_EXPECT_MSG_EQ(faults->GetOutagesStarted(), due, what << ": every outage due started");
    run.outages = due;
    bool crossDue = false;
    for (double start : drawn.crossStartS)
    {
        crossDue = crossDue || start + 0.1 < run.endS;
    }
    if (crossDue)
    {
        NS_TEST_EXPECT_MSG_GT(run.crossBytes, 0u, what << ": cross traffic flowed");
    }

    Simulator::Destroy();
    net->Dispose();
    faults->Dispose();
    run.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return run;
}

void
SoakTestCase::DoRun()
{
    DrawnUes ues;
    DrawnFaults faults;
    Draw(ues, faults);
    // The registry is read here, not when the suite is made: a program's own schemes
    // register while static objects are still being made.
    std::vector<std::string> schemes = m_size.schemes.empty() ? ModuleSchemes() : m_size.schemes;
    if (m_size.fromEnvironment)
    {
        schemes = SchemesFromEnvironment(schemes);
    }
    const std::vector<std::string> known = edgellm::HandoverSchemeNames();
    std::cout
        << "soak: " << m_size.ues << " UEs, " << m_size.columns << "x" << m_size.rows << " grid, "
        << m_size.simTimeS << " s, " << m_size.outages << " outages, " << m_size.crossFlows
        << " cross-traffic flows\n"
        << "scheme              sessions   tokens  handovers  done  failed  loss-drops"
           "  outages  outage-drops  stalls  reprefills  KV-sent[MB]  withdrawn[MB]  stale[MB]"
           "  end[s]  wall[s]\n";
    double total = 0;
    for (uint32_t k = 0; k < schemes.size(); ++k)
    {
        const std::string& scheme = schemes[k];
        const bool registered = std::find(known.begin(), known.end(), scheme) != known.end();
        NS_TEST_ASSERT_MSG_EQ(registered, true, "scheme " << scheme << " is registered");
        const SoakRun run = RunScheme(scheme, k, ues, faults);
        total += run.wallS;
        std::cout << std::left << std::setw(18) << run.scheme << std::right << std::setw(10)
                  << run.sessions << std::setw(9) << run.tokens << std::setw(11) << run.handovers
                  << std::setw(6) << run.completed << std::setw(8) << run.failed << std::setw(12)
                  << run.lossDrops << std::setw(9) << run.outages << std::setw(14)
                  << run.outageDrops << std::setw(8) << run.stalls << std::setw(12)
                  << run.reprefills << std::fixed << std::setprecision(1) << std::setw(13)
                  << run.sent.sent / 1e6 << std::setw(15) << run.sent.withdrawn / 1e6
                  << std::setw(11) << run.received.stale / 1e6 << std::setw(8) << run.endS
                  << std::setw(9) << run.wallS << std::defaultfloat << std::setprecision(6) << "\n"
                  << std::flush;
    }
    std::cout << "soak: " << schemes.size() << " scheme(s), wall " << std::fixed
              << std::setprecision(1) << total << " s\n"
              << std::defaultfloat << std::setprecision(6);
}

/**
 * \ingroup edge-llm-tests
 * \brief The soak suite: a small soak by default, the full one at EXTENSIVE.
 */
class SoakTestSuite : public TestSuite
{
  public:
    SoakTestSuite()
        : TestSuite("edge-llm-soak", TestSuite::Type::SYSTEM)
    {
        AddTestCase(new SoakTestCase("Soak, small: 10 UEs on a 2x2 grid for 20 s, faults at "
                                     "random, ctHO and cHO (EDGE_LLM_SOAK_SCHEMES changes them)",
                                     {10, 20, 2, 2, 200, 40, 2, 1, {"ctho", "cho"}, true}),
                    edgellm::TEST_QUICK);
        AddTestCase(new SoakTestCase("Soak: 100 UEs on a 3x3 grid for 300 s, faults at random, "
                                     "every scheme (EDGE_LLM_SOAK_SCHEMES narrows it)",
                                     {100, 300, 3, 3, 300, 20, 12, 6, {}, true}),
                    edgellm::TEST_EXTENSIVE);
    }
};

/// The suite's one instance.
static SoakTestSuite g_soakTestSuite;
