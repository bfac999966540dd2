/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-engine-test-bench.h"

#include "ns3/enum.h"
#include "ns3/llm-engine.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::edgellm_test;

namespace
{

/// An engine with the tests' GPU, in the given iteration mode.
Ptr<LlmEngine>
MakeModeEngine(LlmEngine::IterationMode mode, uint64_t chunkTokens)
{
    Ptr<LlmEngine> e = MakeEngine(Coefficients{});
    e->SetAttribute("IterationMode", EnumValue(mode));
    e->SetAttribute("ChunkTokens", UintegerValue(chunkTokens));
    return e;
}

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief A session whose cache is ready decodes while another session's long urgent prefill
 * runs, in mixed mode; in separate mode it waits for the whole prefill.
 *
 * Times by hand, with the tests' GPU (prefill 1e-4 s/token + 2 ms; decode 10 ms + 1 ms per
 * sequence + 1 us per context token). Session 1 re-prefills 4000 tokens from t = 0, in chunks
 * of 512; session 2 (context 1000) is ready at 30 ms, during the first chunk (0 to 53.2 ms).
 * - Mixed: it joins the next iteration, which decodes it (12 ms) beside a chunk of 511 tokens
 *   (51.1 ms): its first token at 53.2 + 63.1 = 116.3 ms, no later than the end of the chunk
 *   in flight plus one chunk iteration. The chunks' increments of p telescope to p(4000) =
 *   402 ms, so the prefill ends at 402 ms plus session 2's five decode steps, 12 ms + k us.
 * - Separate: the first token after the prefill (402 ms), in a step of both sessions
 *   (10 + 2 + 5 ms): 419 ms.
 */
class LlmEngineMixedReadyDecodesTestCase : public EngineTestCase
{
  public:
    LlmEngineMixedReadyDecodesTestCase()
        : EngineTestCase("LlmEngine mixed: a ready session decodes beside another's prefill")
    {
    }

  private:
    /// \return what the engine reported, in the given mode
    static std::unique_ptr<Recorder> RunOnce(LlmEngine::IterationMode mode)
    {
        Ptr<LlmEngine> e = MakeModeEngine(mode, 512);
        auto r = std::make_unique<Recorder>(e);
        e->AddResumedSession(1, 4000, 10);
        e->SubmitPrefill(1, 4000, true);
        e->ResumeDecoding(1, 0, 10);
        e->AddResumedSession(2, 1000, 5);
        Simulator::Schedule(MilliSeconds(30), [e]() { e->ResumeDecoding(2, 0, 5); });
        Simulator::Run();
        Simulator::Destroy();
        return r;
    }

    /// \return session 2's first token and session 1's prefill end (-1 s if none)
    static std::pair<Time, Time> Times(const Recorder& r)
    {
        const auto tokens = r.TokensOf(2);
        return {tokens.empty() ? Seconds(-1) : tokens.front().at,
                r.prefillDone.count(1) > 0 ? r.prefillDone.at(1) : Seconds(-1)};
    }

    void DoRun() override
    {
        const std::unique_ptr<Recorder> mixed = RunOnce(LlmEngine::MIXED);
        const std::unique_ptr<Recorder> separate = RunOnce(LlmEngine::SEPARATE);
        const auto [mixedFirst, mixedPrefillEnd] = Times(*mixed);
        const auto [separateFirst, separatePrefillEnd] = Times(*separate);

        NS_TEST_ASSERT_MSG_EQ(mixedFirst, MicroSeconds(116300), "end of the next iteration");
        Time decodeSteps;
        for (int k = 0; k < 5; ++k)
        {
            decodeSteps += MicroSeconds(12000 + k);
        }
        NS_TEST_ASSERT_MSG_EQ(mixedPrefillEnd,
                              MilliSeconds(402) + decodeSteps,
                              "the chunks add up to the job's p(4000)");
        NS_TEST_ASSERT_MSG_EQ(separatePrefillEnd, MilliSeconds(402), "one prefill iteration");
        NS_TEST_ASSERT_MSG_EQ(separateFirst, MilliSeconds(419), "after the whole prefill");

        uint64_t chunkTokens = 0;
        uint32_t mixedIterations = 0;
        for (const auto& it : mixed->iterations)
        {
            if (it.kind != LlmEngine::IterationKind::DECODE)
            {
                chunkTokens += it.tokens;
                NS_TEST_ASSERT_MSG_LT_OR_EQ(it.tokens, 512u, "no chunk beyond ChunkTokens");
            }
            if (it.kind == LlmEngine::IterationKind::MIXED)
            {
                ++mixedIterations;
                NS_TEST_ASSERT_MSG_EQ(it.sequences, 2u, "one decoding, one chunk");
                NS_TEST_ASSERT_MSG_EQ(it.tokens, 511u, "the decoding session takes one token");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(chunkTokens, 4000u, "every prefill token once");
        NS_TEST_ASSERT_MSG_EQ(mixedIterations, 5u, "one per token of session 2");
        NS_TEST_ASSERT_MSG_EQ(mixed->prefillStarts.size(), 1u, "PrefillStarted once");
        NS_TEST_ASSERT_MSG_EQ(mixed->prefillStarts.front().at, Seconds(0), "with its first chunk");
        NS_TEST_ASSERT_MSG_EQ(mixed->TokensOf(1).size(), 10u, "session 1 decodes after it");
        NS_TEST_ASSERT_MSG_EQ(mixed->TokensOf(2).size(), 5u, "session 2 in full");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The budget: each decoding session takes one token of ChunkTokens, urgent chunks go
 * first, and a job that has started goes on at every iteration and cannot be resized.
 *
 * Three sessions decode; a normal job of 1000 tokens and an urgent one of 150 come at 1 ms,
 * during the first decode step.
 * With ChunkTokens = 100 an iteration carries 97 prefill tokens: urgent 97, then urgent 53 with
 * normal 44, then normal 97 at a time, until the last 1000 - 44 - 9 * 97 = 83.
 */
class LlmEngineMixedBudgetTestCase : public EngineTestCase
{
  public:
    LlmEngineMixedBudgetTestCase()
        : EngineTestCase("LlmEngine mixed: decoding sessions share ChunkTokens, urgent first")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LlmEngine> e = MakeModeEngine(LlmEngine::MIXED, 100);
        Recorder r(e);
        for (uint64_t imsi = 1; imsi <= 3; ++imsi)
        {
            e->AddResumedSession(imsi, 100, 200);
            e->ResumeDecoding(imsi, 0, 200);
        }
        // Session 1 decodes alone first (11.1 ms); the jobs queue behind that step.
        e->AddResumedSession(4, 1000, 1);
        e->AddResumedSession(5, 150, 1);
        Simulator::Schedule(MilliSeconds(1), [e]() {
            e->SubmitPrefill(4, 1000, false);
            e->SubmitPrefill(5, 150, true);
        });
        bool resizedRunning = true;
        bool resizedStarted = true;
        Simulator::Schedule(MilliSeconds(12), [&]() {
            resizedRunning = e->ResizeQueuedPrefill(5, 10); // in the running iteration
        });
        Simulator::Schedule(MilliSeconds(100), [&]() {
            resizedStarted = e->ResizeQueuedPrefill(4, 10); // between two of its chunks
        });
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        std::vector<uint64_t> chunks;
        for (const auto& it : r.iterations)
        {
            if (it.kind == LlmEngine::IterationKind::MIXED)
            {
                chunks.push_back(it.tokens);
                NS_TEST_ASSERT_MSG_EQ(it.sequences,
                                      (chunks.size() == 2 ? 5u : 4u),
                                      "three decoding, and one chunk (two in the second)");
            }
        }
        std::vector<uint64_t> expected{97, 97};
        expected.insert(expected.end(), 9, 97);
        expected.push_back(83);
        NS_TEST_ASSERT_MSG_EQ(chunks.size(), expected.size(), "iterations with a chunk");
        NS_TEST_ASSERT_MSG_EQ((chunks == expected), true, "97 a time, the last 83");
        NS_TEST_ASSERT_MSG_EQ(r.prefillStarts.size(), 2u, "both jobs started");
        if (r.prefillStarts.size() == 2)
        {
            NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[0].imsi, 5u, "the urgent one first");
            NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[1].imsi, 4u, "then the normal one");
            NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[1].at,
                                  r.iterations[2].at,
                                  "in the second iteration, beside the urgent one's end");
        }
        NS_TEST_ASSERT_MSG_EQ(r.prefillDone.count(4) + r.prefillDone.count(5), 2u, "both end");
        NS_TEST_ASSERT_MSG_EQ(resizedRunning, false, "a running chunk is not resized");
        NS_TEST_ASSERT_MSG_EQ(resizedStarted, false, "a started job is not resized");
        for (uint64_t imsi = 1; imsi <= 3; ++imsi)
        {
            NS_TEST_ASSERT_MSG_EQ(r.TokensOf(imsi).size(), 200u, "decoding went on throughout");
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief PrefillCycle in mixed mode: a job starts only at its boundary, and a decode step that
 * would run past that boundary waits for it, as in separate mode.
 *
 * One session decodes in steps of 11.1 ms (10 + 1 + 100 us), from t = 0. A job comes at 3 ms
 * with a 20 ms cycle: the step at 11.1 ms would end at 22.2 ms, so the GPU waits until 20 ms,
 * where the job's first chunk and the next decode step start together.
 */
class LlmEngineMixedCycleTestCase : public EngineTestCase
{
  public:
    LlmEngineMixedCycleTestCase()
        : EngineTestCase("LlmEngine mixed: a job starts at its PrefillCycle boundary")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LlmEngine> e = MakeModeEngine(LlmEngine::MIXED, 512);
        e->SetAttribute("PrefillCycle", TimeValue(MilliSeconds(20)));
        Recorder r(e);
        e->AddResumedSession(1, 100, 20);
        e->ResumeDecoding(1, 0, 20);
        e->AddResumedSession(2, 300, 1);
        Simulator::Schedule(MilliSeconds(3), [e]() { e->SubmitPrefill(2, 300, true); });
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(r.prefillStarts.size(), 1u, "one job");
        if (r.prefillStarts.empty() || r.iterations.size() < 2 || r.TokensOf(1).empty())
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[0].at, MilliSeconds(20), "at the boundary");
        const auto tokens = r.TokensOf(1);
        NS_TEST_ASSERT_MSG_EQ(tokens.front().at, MicroSeconds(11100), "the first step ended");
        NS_TEST_ASSERT_MSG_EQ(r.iterations[1].at, MilliSeconds(20), "then the GPU waited");
        NS_TEST_ASSERT_MSG_EQ(IterationKindName(r.iterations[1].kind),
                              std::string("Mixed"),
                              "the chunk beside the next decode step");
        NS_TEST_ASSERT_MSG_EQ(r.TokensOf(1).size(), 20u, "every token");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The engine's mixed iterations.
 */
class LlmEngineMixedTestSuite : public TestSuite
{
  public:
    LlmEngineMixedTestSuite()
        : TestSuite("edge-llm-engine-mixed", TestSuite::Type::UNIT)
    {
        AddTestCase(new LlmEngineMixedReadyDecodesTestCase);
        AddTestCase(new LlmEngineMixedBudgetTestCase);
        AddTestCase(new LlmEngineMixedCycleTestCase);
    }
};

/// The suite's instance.
static LlmEngineMixedTestSuite g_llmEngineMixedTestSuite;
