/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-engine-test-bench.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/llm-engine.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::edgellm_test;

/**
 * \ingroup edge-llm-tests
 * \brief The forecast of a prefill queued behind another, against times derived by hand.
 *
 * The tests' GPU (prefill 1e-4 s/token + 2 ms), no decoding. Session 1 re-prefills 4000 tokens
 * from t = 0; at 30 ms the forecast is asked for a 1000-token prefill queued then.
 * - Mixed, chunks of 512: session 1 takes 7 whole chunks (p(3584) = 360.4 ms), then 416 tokens
 *   beside the new job's first 96; the chunks' increments of p telescope, so session 1 ends at
 *   p(4000) = 402 ms, the new job starts at 360.4 ms and ends at 402 + p(96) + (p(608) - p(96))
 *   + (p(1000) - p(608)) = 402 + 100 - 2 + 2 = 504 ms, its own p(1000) after session 1's end
 *   minus the 2 ms fixed cost it shared.
 * - Separate: whole prefills, one after the other: 402 ms to 402 + p(1000) = 504 ms.
 * The engine, run on, must then do what it foresaw.
 */
class LlmEngineForecastByHandTestCase : public EngineTestCase
{
  public:
    LlmEngineForecastByHandTestCase()
        : EngineTestCase("LlmEngine forecast: a prefill queued behind another, by hand")
    {
    }

  private:
    void DoRun() override
    {
        for (const auto mode :
             {LlmEngine::IterationMode::MIXED, LlmEngine::IterationMode::SEPARATE})
        {
            const bool mixed = mode == LlmEngine::IterationMode::MIXED;
            Ptr<LlmEngine> e = MakeEngine(Coefficients{});
            e->SetAttribute("IterationMode", EnumValue(mode));
            e->SetAttribute("ChunkTokens", UintegerValue(512));
            Recorder r(e);
            e->AddResumedSession(1, 4000, 10);
            e->SubmitPrefill(1, 4000, true);
            e->AddResumedSession(2, 1000, 10);
            std::vector<LlmEngine::PrefillForecast> f;
            Simulator::Schedule(MilliSeconds(30), [&]() {
                f = e->ForecastPrefills({1000}, Simulator::Now());
                e->SubmitPrefill(2, 1000, true);
            });
            Simulator::Run();
            const std::string name = mixed ? "Mixed: " : "Separate: ";
            NS_TEST_ASSERT_MSG_EQ(f.size(), 1u, name + "one forecast per job");
            if (f.size() != 1)
            {
                return;
            }
            const Time start = mixed ? MicroSeconds(360400) : MilliSeconds(402);
            NS_TEST_ASSERT_MSG_EQ_TOL(f[0].start, start, NanoSeconds(1), name + "start by hand");
            NS_TEST_ASSERT_MSG_EQ_TOL(f[0].end,
                                      MilliSeconds(504),
                                      NanoSeconds(1),
                                      name + "end by hand");
            NS_TEST_ASSERT_MSG_EQ(r.PrefillStartOf(2), f[0].start, name + "the engine's start");
            NS_TEST_ASSERT_MSG_EQ(r.prefillDone[2], f[0].end, name + "the engine's end");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The forecast equals what the engine then does, on random states of both modes.
 *
 * Each of 48 seeds draws an engine (iteration mode, ChunkTokens, MaxBatchSequences,
 * PrefillCycle, LoadFactor, batch costing) and a history: new sessions with prompts to
 * prefill and tokens to generate, handed-over sessions with urgent prefills that decode after
 * them, arriving over the first 0.4 s. At a drawn instant, with iterations running and jobs
 * queued, the forecast is asked for 1 to 3 urgent prefills submitted then or up to 40 ms
 * later; nothing else arrives after it. The expected times are the engine's own: its
 * PrefillStarted trace and prefill-done callback for those jobs, run on in the event
 * scheduler. A replay that missed a rule (the urgent queue first, the chunk budget, seats,
 * the cycle boundary, a decoder's last token, a chunk left in flight) would be off in some of
 * the draws.
 */
class LlmEngineForecastReplayTestCase : public EngineTestCase
{
  public:
    LlmEngineForecastReplayTestCase()
        : EngineTestCase("LlmEngine forecast: equal to the engine's own run, 48 random states")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t sharedIterations = 0;
        for (uint32_t seed = 1; seed <= 48; ++seed)
        {
            std::mt19937_64 rng(seed);
            auto uniform = [&rng](uint64_t lo, uint64_t hi) {
                return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
            };
            const bool mixed = seed % 2 == 1;
            Coefficients c;
            c.batchMode = uniform(0, 1) == 0 ? "PaddedMax" : "TokenCount";
            Ptr<LlmEngine> e = MakeEngine(c);
            e->SetAttribute("IterationMode",
                            EnumValue(mixed ? LlmEngine::IterationMode::MIXED
                                            : LlmEngine::IterationMode::SEPARATE));
            e->SetAttribute("ChunkTokens",
                            UintegerValue(std::vector<uint64_t>{64, 256, 512}[uniform(0, 2)]));
            e->SetAttribute("MaxBatchSequences", UintegerValue(uniform(0, 1) == 0 ? 3 : 256));
            e->SetAttribute("PrefillCycle",
                            TimeValue(MilliSeconds(std::vector<int>{0, 0, 20, 50}[uniform(0, 3)])));
            e->SetAttribute("LoadFactor", DoubleValue(uniform(0, 1) == 0 ? 1.0 : 1.3));
            Recorder r(e);

            uint64_t imsi = 0;
            const uint32_t arrivals = static_cast<uint32_t>(uniform(2, 8));
            for (uint32_t i = 0; i < arrivals; ++i)
            {
                const uint64_t id = ++imsi;
                const Time at = MicroSeconds(uniform(0, 400000));
                const uint64_t context = uniform(50, 3000);
                const uint64_t generate = uniform(1, 60);
                if (uniform(0, 2) == 0)
                {
                    // A handed-over session: an urgent re-prefill, then it decodes.
                    Simulator::Schedule(at, [e, id, context, generate]() {
                        e->AddResumedSession(id, context, generate);
                        e->SubmitPrefill(id, context, true);
                        e->ResumeDecoding(id, 0, generate);
                    });
                }
                else
                {
                    Simulator::Schedule(at, [e, id, context, generate]() {
                        e->AddSession(id, context, generate);
                    });
                }
            }
            // The forecast jobs' sessions are there from the start, holding memory, idle.
            const uint32_t jobs = static_cast<uint32_t>(uniform(1, 3));
            std::vector<uint64_t> ids;
            std::vector<uint64_t> lengths;
            for (uint32_t i = 0; i < jobs; ++i)
            {
                ids.push_back(1000 + i);
                lengths.push_back(uniform(1, 2500));
                e->AddResumedSession(ids.back(), lengths.back(), 5);
            }
            const Time at = MicroSeconds(uniform(400001, 600000)) + NanoSeconds(uniform(1, 999));
            const Time delay = uniform(0, 1) == 0 ? Time(0) : MicroSeconds(uniform(1, 40000));
            std::vector<LlmEngine::PrefillForecast> forecast;
            Simulator::Schedule(at, [&, e]() {
                forecast = e->ForecastPrefills(lengths, Simulator::Now() + delay);
                std::vector<std::pair<uint64_t, uint64_t>> batch;
                for (uint32_t i = 0; i < jobs; ++i)
                {
                    batch.emplace_back(ids[i], lengths[i]);
                }
                Simulator::Schedule(delay, [e, batch]() { e->SubmitPrefillBatch(batch, true); });
            });
            Simulator::Run();

            std::ostringstream what;
            what << "seed " << seed << (mixed ? " Mixed" : " Separate") << ", job ";
            NS_TEST_ASSERT_MSG_EQ(forecast.size(), lengths.size(), what.str() + "count");
            for (uint32_t i = 0; i < jobs && i < forecast.size(); ++i)
            {
                const std::string job = what.str() + std::to_string(i);
                NS_TEST_ASSERT_MSG_EQ(forecast[i].start,
                                      r.PrefillStartOf(ids[i]),
                                      job + ": start as the engine's PrefillStarted");
                NS_TEST_ASSERT_MSG_EQ(forecast[i].end,
                                      r.prefillDone[ids[i]],
                                      job + ": end as the engine's prefill-done callback");
            }
            for (const auto& it : r.iterations)
            {
                sharedIterations += it.kind == LlmEngine::IterationKind::MIXED ? 1 : 0;
            }
            Simulator::Destroy();
        }
        // The draws exercised what they are for: chunks beside decoding.
        NS_TEST_ASSERT_MSG_GT(sharedIterations, 0u, "mixed iterations ran");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The forecast leaves a re-planned session's queued prefill out, and refuses bad input.
 */
class LlmEngineForecastReplacingTestCase : public EngineTestCase
{
  public:
    LlmEngineForecastReplacingTestCase()
        : EngineTestCase("LlmEngine forecast: a replaced job is left out")
    {
    }

  private:
    void DoRun() override
    {
        // A cycle of 100 ms holds session 1's 1000-token job, queued at 1 ms, until 100 ms; a
        // forecast at 2 ms for 500 tokens starts at 100 ms behind it (Separate: one batch of
        // both, PaddedMax: p(1000) = 102 ms) or, with session 1 replaced, alone (p(500)).
        Ptr<LlmEngine> e = MakeEngine(Coefficients{});
        e->SetAttribute("PrefillCycle", TimeValue(MilliSeconds(100)));
        e->AddResumedSession(1, 1000, 5);
        Simulator::Schedule(MilliSeconds(1), [e]() { e->SubmitPrefill(1, 1000, true); });
        Simulator::Schedule(MilliSeconds(2), [e, this]() {
            const auto behind = e->ForecastPrefills({500}, Simulator::Now());
            const auto alone = e->ForecastPrefills({500}, Simulator::Now(), {1});
            NS_TEST_EXPECT_MSG_EQ(behind.at(0).start, MilliSeconds(100), "at the boundary");
            NS_TEST_EXPECT_MSG_EQ(behind.at(0).end, MilliSeconds(202), "in one batch with 1");
            NS_TEST_EXPECT_MSG_EQ(alone.at(0).end, MilliSeconds(152), "alone: p(500)");
            NS_TEST_EXPECT_MSG_EQ(e->ForecastPrefills({}, Simulator::Now()).size(), 0u, "none");
        });
        Simulator::Run();
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The engine's forecast of its own iterations.
 */
class LlmEngineForecastTestSuite : public TestSuite
{
  public:
    LlmEngineForecastTestSuite()
        : TestSuite("edge-llm-engine-forecast", TestSuite::Type::UNIT)
    {
        AddTestCase(new LlmEngineForecastByHandTestCase);
        AddTestCase(new LlmEngineForecastReplayTestCase);
        AddTestCase(new LlmEngineForecastReplacingTestCase);
    }
};

/// The suite's instance.
static LlmEngineForecastTestSuite g_llmEngineForecastTestSuite;
