/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Online ctHO: handovers of one prefill cycle are planned together, a re-plan keeps what is
// in TCP and withdraws the rest, plans predict what the packets measure, and ctHO keeps its
// promise when ns-3's A3 handovers drive it.

#include "migration-watch.h"
#include "prefill-token-watch.h"
#include "reset-test-case.h"
#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The settings every case starts from: the paper's line, online batching.
CtHoLineConfig
OnlineConfig()
{
    CtHoLineConfig c;
    c.batching = "online";
    c.tokensAfter = 200;
    c.maxSimTime = Seconds(30);
    return c;
}

/// \return the largest measured delay of a run's migrated handovers, s; NaN if none
double
WorstDelay(const CtHoLineRun& run)
{
    double worst = std::nan("");
    for (const HandoverRecord& r : run.records)
    {
        if (r.outcome == HandoverRecord::MIGRATED)
        {
            const double d = (r.kvReady - r.hoStart).GetSeconds();
            worst = std::isnan(worst) ? d : std::max(worst, d);
        }
    }
    return worst;
}

/// Two UEs 2 cm apart: they cross the boundary 1 ms apart, inside one prefill cycle or two.
CtHoLineInputs
Pair(double x, uint32_t promptA, uint32_t promptB)
{
    CtHoLineInputs in;
    in.startX = {x, x - 0.02};
    in.prompts = {promptA, promptB};
    return in;
}

/// Two UEs, 2 Gb/s: the first's transfer has begun, but is far from done, when the second
/// hands over.
CtHoLineConfig
PairConfig()
{
    CtHoLineConfig c = OnlineConfig();
    c.numUes = 2;
    c.backhaulRate = DataRate("2Gbps");
    return c;
}

/// Start points of the pair, so that it falls inside one cycle for some and not others.
const double PAIR_STARTS[] = {125.0, 125.07, 125.13, 125.19};

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief ctHO that never lets an online handover join an open cycle group, and counts how
 * often the coordinator asked it.
 */
class NeverJoinCtHoScheduler : public CtHoScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::NeverJoinCtHoScheduler")
                                .SetParent<CtHoScheduler>()
                                .SetGroupName("EdgeLlm")
                                .AddConstructor<NeverJoinCtHoScheduler>();
        return tid;
    }

    std::string GetSchemeName() const override
    {
        return "ctho-never-join";
    }

    static uint32_t asked; //!< JoinCycleGroup calls, over every instance

  protected:
    bool DoJoinCycleGroup(const HandoverPlan&, Time, const HandoverPlan&) override
    {
        ++asked;
        return false;
    }
};

uint32_t NeverJoinCtHoScheduler::asked = 0;
NS_OBJECT_ENSURE_REGISTERED(NeverJoinCtHoScheduler);

/**
 * \ingroup edge-llm-tests
 * \brief The base: every case destroys the simulator and resets the defaults and the run
 * number it touched.
 */
using OnlineTestCase = edgellm::ResetTestCase;

/**
 * \ingroup edge-llm-tests
 * \brief With ns-3's A3 handovers and online batching, ctHO's worst-user delay is at most
 * 1.02 x the better of tHO and cHO, at each of the given rates, on each of the given seeds.
 */
class A3PromiseTestCase : public OnlineTestCase
{
  public:
    /// \param rates backhaul rates, as DataRate takes them
    /// \param seeds the RngRuns of each rate
    /// \param draw what the case name says of the rates and seeds
    A3PromiseTestCase(std::vector<std::string> rates,
                      std::vector<uint32_t> seeds,
                      const std::string& draw)
        : OnlineTestCase("A3 handovers, online: ctHO <= 1.02 min(tHO, cHO) on every seed (" + draw +
                         ")"),
          m_rates(std::move(rates)),
          m_seeds(std::move(seeds))
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string& rate : m_rates)
        {
            for (uint32_t seed : m_seeds)
            {
                RngSeedManager::SetRun(seed);
                CtHoLineConfig c = OnlineConfig();
                c.trigger = "a3";
                c.backhaulRate = DataRate(rate);
                const CtHoLineExperiment experiment(c);
                const CtHoLineInputs inputs = experiment.Draw();
                std::map<std::string, double> worst;
                for (const char* scheme : {"tho", "cho", "ctho"})
                {
                    const CtHoLineRun run = experiment.Run(scheme, inputs);
                    for (const CtHoLineUe& ue : run.ues)
                    {
                        NS_TEST_ASSERT_MSG_EQ(ue.complete,
                                              true,
                                              rate << " seed " << seed << " " << scheme << ": imsi "
                                                   << ue.imsi << " finished");
                    }
                    worst[scheme] = WorstDelay(run);
                    NS_TEST_ASSERT_MSG_EQ(std::isnan(worst[scheme]),
                                          false,
                                          rate << " seed " << seed << " " << scheme
                                               << ": sessions were migrated");
                }
                NS_TEST_ASSERT_MSG_LT_OR_EQ(worst["ctho"],
                                            1.02 * std::min(worst["tho"], worst["cho"]),
                                            rate << " seed " << seed << ": ctHO " << worst["ctho"]
                                                 << " s, tHO " << worst["tho"] << " s, cHO "
                                                 << worst["cho"] << " s");
            }
        }
    }

    std::vector<std::string> m_rates; //!< backhaul rates
    std::vector<uint32_t> m_seeds;    //!< RngRuns
};

/**
 * \ingroup edge-llm-tests
 * \brief Two UEs whose handovers reach the target in one prefill cycle are one group: one
 * batch prefill holds both, and their plan is the solver's joint optimum for the pair.
 */
class SameCycleTestCase : public OnlineTestCase
{
  public:
    SameCycleTestCase()
        : OnlineTestCase("Two handovers in one cycle: one batch, the pair's joint optimum")
    {
    }

  private:
    void DoRun() override
    {
        const CtHoLineExperiment experiment(PairConfig());
        uint32_t grouped = 0;
        for (double x : PAIR_STARTS)
        {
            std::vector<std::pair<uint32_t, uint32_t>> prefills;    // (sequences, tokens)
            std::vector<double> prefillStarts;                      // s
            std::map<uint64_t, uint64_t> firstPrefix;               // the first plan's L
            std::map<std::pair<uint64_t, uint32_t>, uint64_t> data; // DATA bytes at the target
            std::map<uint64_t, uint32_t> firstEpoch;
            auto hook = [&](Ptr<EdgeLlmLineScenario> s) {
                Ptr<EdgeLlmServer> target = DynamicCast<EdgeLlmServer>(s->GetServers().Get(1));
                target->GetEngine()->TraceConnectWithoutContext(
                    "IterationStarted",
                    Callback<void, LlmEngine::IterationKind, uint32_t, uint64_t, Time>(
                        [&prefills, &prefillStarts](LlmEngine::IterationKind kind,
                                                    uint32_t sequences,
                                                    uint64_t tokens,
                                                    Time) {
                            if (kind == LlmEngine::IterationKind::PREFILL)
                            {
                                prefills.emplace_back(sequences, tokens);
                                prefillStarts.push_back(Simulator::Now().GetSeconds());
                            }
                        }));
                Ptr<HandoverCoordinator> coordinator = s->GetEdgeLlmHelper()->GetCoordinator();
                coordinator->TraceConnectWithoutContext(
                    "HandoverPlanned",
                    Callback<void, uint64_t, uint64_t, uint64_t>(
                        [&firstPrefix](uint64_t imsi, uint64_t prefill, uint64_t) {
                            firstPrefix.try_emplace(imsi, prefill);
                        }));
                coordinator->TraceConnectWithoutContext(
                    "MigrationState",
                    Callback<void, uint64_t, uint32_t, int, int>(
                        [&firstEpoch](uint64_t imsi, uint32_t epoch, int from, int) {
                            if (from == HandoverCoordinator::NONE)
                            {
                                firstEpoch.try_emplace(imsi, epoch);
                            }
                        }));
                s->GetEdgeLlmHelper()
                    ->GetKvTransfer(target->GetCellId())
                    ->GetReceiver()
                    ->TraceConnectWithoutContext(
                        "MessageReceived",
                        Callback<void, const KvTransferHeader&>([&data](const KvTransferHeader& h) {
                            if (h.GetMessageType() == KvTransferHeader::DATA)
                            {
                                data[{h.GetImsi(), h.GetEpoch()}] += h.GetPayloadBytes();
                            }
                        }));
            };
            const CtHoLineRun run = experiment.Run("ctho", Pair(x, 2400, 2000), hook);
            std::vector<const HandoverRecord*> migrated;
            for (const HandoverRecord& r : run.records)
            {
                if (r.outcome == HandoverRecord::MIGRATED)
                {
                    migrated.push_back(&r);
                }
            }
            NS_TEST_ASSERT_MSG_EQ(migrated.size(), 2u, "both migrated");
            if (migrated.size() != 2 || migrated[0]->group != migrated[1]->group)
            {
                continue;
            }
            ++grouped;
            const HandoverRecord& a = *migrated[0];
            const HandoverRecord& b = *migrated[1];
            CtHoInput pair;
            pair.backhaulTokensPerSecond = run.plannedTokensPerSecond;
            pair.prefillCycle = run.prefillCycleS;
            pair.ues = {{a.contextTokens, a.hoStart.GetSeconds()},
                        {b.contextTokens, b.hoStart.GetSeconds()}};
            // The batch cannot start before the newcomer's token IDs are in; where the engine
            // did start it is measured.
            NS_TEST_ASSERT_MSG_EQ(prefillStarts.empty(), false, "a batch ran");
            pair.earliestPrefillStart = prefillStarts.empty() ? 0 : prefillStarts.front();
            // The first had sent some KV from its own L on when the second came: a common L
            // up to that one keeps those bytes; a longer one wastes them, and they have
            // taken the link all the same. The joint optimum is the better of the two.
            const CtHoSolver keep(pair, run.compute);
            const uint64_t firstL = firstPrefix[a.imsi];
            CtHoValue best = keep.Evaluate(std::min(keep.Solve().prefixTokens, firstL));
            CtHoInput wasted = pair;
            const uint64_t bytesPerToken = a.kvBytes / std::max<uint64_t>(a.transferTokens, 1);
            wasted.backlogTokens =
                double(data[{a.imsi, firstEpoch[a.imsi]}]) / double(bytesPerToken);
            const CtHoValue grown = CtHoSolver(wasted, run.compute).Solve();
            if (grown.worstDelay < best.worstDelay)
            {
                best = grown;
            }
            NS_TEST_ASSERT_MSG_EQ(a.prefillTokens,
                                  std::min(best.prefixTokens, a.contextTokens),
                                  "x " << x << ": the first at the pair's L*");
            NS_TEST_ASSERT_MSG_EQ(b.prefillTokens,
                                  std::min(best.prefixTokens, b.contextTokens),
                                  "x " << x << ": the second at the pair's L*");
            NS_TEST_ASSERT_MSG_EQ_TOL(a.predictedDelay.GetSeconds(),
                                      best.worstDelay,
                                      1e-9,
                                      "the pair's predicted delay");
            NS_TEST_ASSERT_MSG_EQ(prefills.size(), 1u, "x " << x << ": one prefill iteration");
            if (!prefills.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(prefills[0].first, 2u, "of both sessions");
                NS_TEST_ASSERT_MSG_EQ(prefills[0].second,
                                      a.prefillTokens + b.prefillTokens,
                                      "of both prefixes");
            }
        }
        NS_TEST_ASSERT_MSG_GT(grouped, 0u, "some start point put the pair in one cycle");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief A re-plan withdraws exactly the bytes of the old plan that had not reached TCP,
 * counted at the receiver from the old epoch's BEGIN and DATA messages, and the ledger
 * balances.
 */
class ReplanLedgerTestCase : public OnlineTestCase
{
  public:
    ReplanLedgerTestCase()
        : OnlineTestCase("A re-plan withdraws exactly the old plan's unsent bytes")
    {
    }

  private:
    void DoRun() override
    {
        const CtHoLineExperiment experiment(PairConfig());
        uint32_t replanned = 0;
        for (double x : PAIR_STARTS)
        {
            // Per (imsi, epoch), at the target: BEGIN payload (announced) and DATA (arrived).
            std::map<std::pair<uint64_t, uint32_t>, uint64_t> begun;
            std::map<std::pair<uint64_t, uint32_t>, uint64_t> data;
            std::map<uint64_t, uint32_t> firstEpoch;
            auto hook = [&](Ptr<EdgeLlmLineScenario> s) {
                Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
                const uint16_t target =
                    DynamicCast<EdgeLlmServer>(s->GetServers().Get(1))->GetCellId();
                edge->GetKvTransfer(target)->GetReceiver()->TraceConnectWithoutContext(
                    "MessageReceived",
                    Callback<void, const KvTransferHeader&>([&](const KvTransferHeader& h) {
                        const auto key = std::make_pair(h.GetImsi(), h.GetEpoch());
                        if (h.GetMessageType() == KvTransferHeader::BEGIN)
                        {
                            begun[key] += h.GetPayloadBytes();
                        }
                        else if (h.GetMessageType() == KvTransferHeader::DATA)
                        {
                            data[key] += h.GetPayloadBytes();
                        }
                    }));
                edge->GetCoordinator()->TraceConnectWithoutContext(
                    "MigrationState",
                    Callback<void, uint64_t, uint32_t, int, int>(
                        [&firstEpoch](uint64_t imsi, uint32_t epoch, int from, int) {
                            if (from == HandoverCoordinator::NONE)
                            {
                                firstEpoch.try_emplace(imsi, epoch);
                            }
                        }));
            };
            const CtHoLineRun run = experiment.Run("ctho", Pair(x, 2400, 2000), hook);
            NS_TEST_ASSERT_MSG_EQ(run.sent.announced,
                                  run.sent.sent + run.sent.withdrawn,
                                  "announced = sent + withdrawn");
            NS_TEST_ASSERT_MSG_EQ(run.sent.sent,
                                  run.received.received + run.received.stale,
                                  "sent = received + stale");
            NS_TEST_ASSERT_MSG_EQ(run.received.droppedInvalid, 0u, "no byte out of range");
            for (const HandoverRecord& r : run.records)
            {
                if (r.replans == 0)
                {
                    continue;
                }
                ++replanned;
                NS_TEST_ASSERT_MSG_EQ(r.replans, 1u, "one re-plan: the pair's second handover");
                NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "still migrated");
                const auto old = std::make_pair(r.imsi, firstEpoch[r.imsi]);
                NS_TEST_ASSERT_MSG_GT(begun[old], 0u, "the old plan announced its transfer");
                const uint64_t unsent = begun[old] - data[old];
                const uint64_t withdrawn =
                    run.sent.withdrawnBy[static_cast<std::size_t>(KvDiscardReason::REPLAN)];
                NS_TEST_ASSERT_MSG_EQ(withdrawn, unsent, "withdrawn = announced - sent, old plan");
                NS_TEST_ASSERT_MSG_EQ(run.sent.withdrawn, withdrawn, "all under re-plan");
                // What the target holds: its prefix, and the KV that arrived, once each.
                uint64_t arrived = 0;
                for (const TokenRange& a : r.arrived)
                {
                    NS_TEST_ASSERT_MSG_GT_OR_EQ(a.first,
                                                r.prefillTokens,
                                                "no arrived KV prefilled");
                    arrived += a.end - a.first;
                }
                NS_TEST_ASSERT_MSG_EQ(r.prefillTokens + arrived,
                                      r.contextTokens,
                                      "prefix and arrived KV make the context");
            }
        }
        NS_TEST_ASSERT_MSG_GT(replanned, 0u, "some start point re-planned a migration");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Each online plan predicts its group's measured worst delay within 2 %, for groups
 * of one and of two, on the given seeds.
 */
class PredictionTestCase : public OnlineTestCase
{
  public:
    /// \param seeds the RngRuns
    /// \param draw what the case name says of the seeds
    PredictionTestCase(std::vector<uint32_t> seeds, const std::string& draw)
        : OnlineTestCase("Online plans predict the measured delay within 2 % (" + draw + ")"),
          m_seeds(std::move(seeds))
    {
    }

  private:
    void DoRun() override
    {
        uint32_t singles = 0;
        uint32_t pairs = 0;
        for (uint32_t seed : m_seeds)
        {
            RngSeedManager::SetRun(seed);
            CtHoLineConfig c = OnlineConfig();
            c.backhaulRate = DataRate("2Gbps");
            const CtHoLineExperiment experiment(c);
            std::vector<CtHoLineRun> runs;
            runs.push_back(experiment.Run("ctho", experiment.Draw()));
            CtHoLineConfig two = c;
            two.numUes = 2;
            runs.push_back(
                CtHoLineExperiment(two).Run("ctho", Pair(125.0 + 0.05 * seed, 2400, 2000)));
            for (const CtHoLineRun& run : runs)
            {
                std::map<uint32_t, std::vector<const HandoverRecord*>> groups;
                for (const HandoverRecord& r : run.records)
                {
                    if (r.outcome == HandoverRecord::MIGRATED)
                    {
                        groups[r.group].push_back(&r);
                    }
                }
                for (const auto& [group, members] : groups)
                {
                    double worst = 0;
                    for (const HandoverRecord* r : members)
                    {
                        worst = std::max(worst, (r->kvReady - r->hoStart).GetSeconds());
                    }
                    const double predicted = members.front()->predictedDelay.GetSeconds();
                    (members.size() == 1 ? singles : pairs) += 1;
                    NS_TEST_ASSERT_MSG_EQ_TOL(worst / predicted,
                                              1.0,
                                              0.02,
                                              "seed " << seed << ", group of " << members.size()
                                                      << ": measured " << worst << " s, predicted "
                                                      << predicted << " s");
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(singles, 0u, "groups of one were seen");
        NS_TEST_ASSERT_MSG_GT(pairs, 0u, "groups of two were seen");
    }

    std::vector<uint32_t> m_seeds; //!< RngRuns
};

/**
 * \ingroup edge-llm-tests
 * \brief No handover prefill starts before its token IDs have arrived at the target: online
 * ctHO whose re-plans grow an earlier member's prefix (whose new IDs are then on their way),
 * and, as controls, ctHO's oracle batching and tHO.
 */
class PrefillAfterTokensTestCase : public OnlineTestCase
{
  public:
    /// \param starts the pair's start points, m, for every scheme and rate
    /// \param draw what the case name says of the start points
    PrefillAfterTokensTestCase(std::vector<double> starts, const std::string& draw)
        : OnlineTestCase("Every handover prefill starts after its token IDs arrived, re-plans "
                         "that grow a prefix included (" +
                         draw + ")"),
          m_starts(std::move(starts))
    {
    }

  private:
    void DoRun() override
    {
        uint32_t grown = 0;
        uint32_t prefills = 0;
        uint64_t transitions = 0;

        // ctHO online on slower links and without the slack, where a grown prefix's new IDs
        // take longest to cross; tHO and oracle batching as controls.
        struct Case
        {
            const char* scheme;
            const char* batching;
            const char* rate;
            const char* planned; //!< the rate the policy plans with
        };

        std::vector<Case> cases;
        for (const char* rate : {"2Gbps", "500Mbps"})
        {
            cases.push_back({"ctho", "online", rate, rate});
        }
        // A policy that plans with four times the real rate expects the newcomer's IDs too
        // early, so its batch boundary can come before an earlier member's new IDs.
        cases.push_back({"ctho", "online", "500Mbps", "2Gbps"});
        cases.push_back({"ctho", "online", "1Gbps", "4Gbps"});
        cases.push_back({"tho", "online", "2Gbps", "2Gbps"});
        cases.push_back({"ctho", "oracle", "2Gbps", "2Gbps"});
        for (const Case& k : cases)
        {
            CtHoLineConfig c = PairConfig();
            c.batching = k.batching;
            c.backhaulRate = DataRate(k.rate);
            c.plannedBackhaulRate = DataRate(k.planned);
            const CtHoLineExperiment experiment(c);
            for (double x : m_starts)
            {
                edgellm::PrefillTokenWatch watch;
                edgellm::MigrationWatch migrations;
                std::map<uint64_t, uint64_t> firstPrefix;
                auto hook = [&](Ptr<EdgeLlmLineScenario> s) {
                    watch.Hook(s->GetEdgeLlmHelper());
                    migrations.Hook(s->GetEdgeLlmHelper());
                    s->GetEdgeLlmHelper()->GetCoordinator()->TraceConnectWithoutContext(
                        "HandoverPlanned",
                        Callback<void, uint64_t, uint64_t, uint64_t>(
                            [&](uint64_t imsi, uint64_t prefill, uint64_t) {
                                auto [it, first] = firstPrefix.try_emplace(imsi, prefill);
                                grown += !first && prefill > it->second;
                            }));
                };
                const CtHoLineRun run = experiment.Run(k.scheme, Pair(x, 2400, 2000), hook);
                std::ostringstream what;
                what << k.scheme << " " << k.batching << " " << k.rate << " (planned " << k.planned
                     << ") x " << x;
                for (const std::string& early : watch.GetEarly())
                {
                    NS_TEST_EXPECT_MSG_EQ(early, "", what.str() << ": a prefill before its IDs");
                }
                for (const std::string& error : migrations.GetErrors())
                {
                    NS_TEST_EXPECT_MSG_EQ(error, "", what.str() << ": the migration state machine");
                }
                transitions += migrations.GetTransitions();
                for (const CtHoLineUe& ue : run.ues)
                {
                    NS_TEST_EXPECT_MSG_EQ(ue.complete, true, what.str() << ": finished");
                }
                prefills += watch.GetPrefills();
            }
        }
        NS_TEST_ASSERT_MSG_GT(prefills, 8u, "handover prefills were watched");
        NS_TEST_ASSERT_MSG_GT(grown, 0u, "some re-plan grew a prefix");
        NS_TEST_ASSERT_MSG_GT(transitions, 0u, "migrations were traced");
    }

    std::vector<double> m_starts; //!< the pair's start points, m
};

/**
 * \ingroup edge-llm-tests
 * \brief An online run's regret is measured against measured: the clairvoyant partition of its
 * handovers runs again at packet level, as oracle batches on the same draw, and the model
 * error of those batches is reported apart.
 */
class MeasuredRegretTestCase : public OnlineTestCase
{
  public:
    /// \param seeds the RngRuns
    /// \param draw what the case name says of the seeds
    MeasuredRegretTestCase(std::vector<uint32_t> seeds, const std::string& draw)
        : OnlineTestCase("Regret: online and clairvoyant batches, both measured at packet "
                         "level (" +
                         draw + ")"),
          m_seeds(std::move(seeds))
    {
    }

  private:
    void DoRun() override
    {
        uint32_t multiBatch = 0;
        for (uint32_t seed : m_seeds)
        {
            RngSeedManager::SetRun(seed);
            CtHoLineConfig c = OnlineConfig();
            c.trigger = "a3";
            const CtHoLineExperiment experiment(c);
            const CtHoLineRun online = experiment.Run("ctho", experiment.Draw());
            const CtHoLineRegret regret = experiment.MeasureRegret(online);
            const std::string what = "seed " + std::to_string(seed);
            // The replay's batches are the partition's: one group per batch, none shared.
            std::map<uint64_t, uint32_t> groupOf;
            for (const HandoverRecord& r : regret.clairvoyantRun.records)
            {
                if (r.outcome == HandoverRecord::MIGRATED)
                {
                    groupOf[r.imsi] = r.group;
                }
            }
            std::set<uint32_t> groups;
            std::size_t members = 0;
            for (const auto& batch : regret.clairvoyant.batches)
            {
                std::set<uint32_t> its;
                for (const auto& [imsi, start] : batch)
                {
                    NS_TEST_ASSERT_MSG_EQ(groupOf.count(imsi), 1u, what << ": replay migrated");
                    its.insert(groupOf[imsi]);
                    ++members;
                }
                NS_TEST_EXPECT_MSG_EQ(its.size(), 1u, what << ": a batch is one group");
                NS_TEST_EXPECT_MSG_EQ(groups.count(*its.begin()), 0u, what << ": of its own");
                groups.insert(*its.begin());
            }
            NS_TEST_EXPECT_MSG_EQ(members, groupOf.size(), what << ": every handover batched");
            multiBatch += regret.clairvoyant.batches.size() > 1;
            // Both sides of the regret are measured delays of the records.
            const double onlineWorst = WorstDelay(online);
            const double replayWorst = WorstDelay(regret.clairvoyantRun);
            NS_TEST_EXPECT_MSG_EQ_TOL(regret.regret,
                                      onlineWorst / replayWorst,
                                      1e-12,
                                      what << ": regret = online / clairvoyant, measured");
            NS_TEST_EXPECT_MSG_EQ_TOL(regret.modelError,
                                      replayWorst / regret.clairvoyant.worstDelayS,
                                      1e-12,
                                      what << ": model error = measured / analytic");
            // No policy beats physics: the packets take at least the model's time, up to the
            // radio's shift of the handover times between the two runs.
            NS_TEST_EXPECT_MSG_GT(regret.modelError, 0.98, what << ": measured >= analytic");
            for (const CtHoLineUe& ue : regret.clairvoyantRun.ues)
            {
                NS_TEST_EXPECT_MSG_EQ(ue.complete, true, what << ": replay finished");
            }
        }
        NS_TEST_EXPECT_MSG_GT(multiBatch, 0u, "some partition cut the handovers");
    }

    std::vector<uint32_t> m_seeds; //!< RngRuns
};

/**
 * \ingroup edge-llm-tests
 * \brief Whether an online handover joins its target's open cycle group is the policy's
 * choice: a ctHO that refuses every time is asked, and every group then holds one handover,
 * on the start points where ctHO groups the pair.
 */
class JoinHookTestCase : public OnlineTestCase
{
  public:
    JoinHookTestCase()
        : OnlineTestCase("Joining a cycle group is the policy's choice (JoinCycleGroup)")
    {
    }

  private:
    void DoRun() override
    {
        const CtHoLineExperiment experiment(PairConfig());
        uint32_t grouped = 0;
        NeverJoinCtHoScheduler::asked = 0;
        for (double x : PAIR_STARTS)
        {
            for (const char* scheme : {"ctho", "ctho-never-join"})
            {
                const CtHoLineRun run = experiment.Run(scheme, Pair(x, 2400, 2000));
                std::map<uint32_t, uint32_t> members;
                for (const HandoverRecord& r : run.records)
                {
                    if (r.outcome == HandoverRecord::MIGRATED)
                    {
                        ++members[r.group];
                    }
                }
                for (const auto& [group, n] : members)
                {
                    if (std::string(scheme) == "ctho")
                    {
                        grouped += n > 1;
                    }
                    else
                    {
                        NS_TEST_EXPECT_MSG_EQ(n, 1u, "x " << x << ": no handover joined");
                    }
                }
                for (const CtHoLineUe& ue : run.ues)
                {
                    NS_TEST_EXPECT_MSG_EQ(ue.complete, true, scheme << " x " << x << ": done");
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(grouped, 0u, "ctHO grouped the pair somewhere");
        NS_TEST_ASSERT_MSG_GT(NeverJoinCtHoScheduler::asked, 0u, "the policy was asked");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Online ctHO's test suite.
 */
class OnlineCtHoTestSuite : public TestSuite
{
  public:
    OnlineCtHoTestSuite()
        : TestSuite("edge-llm-online", TestSuite::Type::UNIT)
    {
        AddTestCase(new SameCycleTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new ReplanLedgerTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new JoinHookTestCase(), edgellm::TEST_QUICK);
        // A smaller draw of each long case below, on which what those cases require to have
        // happened (groups of one and of two, a re-plan that grew a prefix, a partition that
        // cut the handovers) does happen.
        AddTestCase(new PredictionTestCase({1}, "RngRun 1"), edgellm::TEST_QUICK);
        AddTestCase(new A3PromiseTestCase({"2Gbps", "4.5Gbps", "10Gbps"},
                                          {1},
                                          "2, 4.5 and 10 Gbps, RngRun 1"),
                    edgellm::TEST_QUICK);
        AddTestCase(new PrefillAfterTokensTestCase({125.07, 125.13}, "2 start points"),
                    edgellm::TEST_QUICK);
        AddTestCase(new MeasuredRegretTestCase({1}, "RngRun 1"), edgellm::TEST_QUICK);
        // The same checks on every seed, rate and start point: minutes.
        AddTestCase(new PredictionTestCase({1, 2, 3, 4, 5}, "RngRun 1 to 5"),
                    edgellm::TEST_EXTENSIVE);
        AddTestCase(new A3PromiseTestCase({"2Gbps", "4.5Gbps", "10Gbps"},
                                          {1, 2, 3, 4, 5},
                                          "2, 4.5 and 10 Gbps, RngRun 1 to 5"),
                    edgellm::TEST_EXTENSIVE);
        AddTestCase(new PrefillAfterTokensTestCase(
                        {125.0, 125.03, 125.07, 125.1, 125.13, 125.16, 125.19, 125.22},
                        "8 start points"),
                    edgellm::TEST_EXTENSIVE);
        AddTestCase(new MeasuredRegretTestCase({1, 2, 3}, "RngRun 1 to 3"),
                    edgellm::TEST_EXTENSIVE);
    }
};

/// The suite's one instance.
static OnlineCtHoTestSuite g_onlineCtHoTestSuite;
