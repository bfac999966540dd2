/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-engine-test-bench.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/gpu-compute-model.h"
#include "ns3/llm-compute-model.h"
#include "ns3/llm-engine.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

using namespace ns3::edgellm_test;

/**
 * \ingroup edge-llm-tests
 * \brief One session: the first token comes one prefill and one decode step after the
 * request, then one token per decode step of one sequence with a growing context.
 */
class LlmEngineSingleSessionTestCase : public EngineTestCase
{
  public:
    LlmEngineSingleSessionTestCase()
        : EngineTestCase("LlmEngine: one session's token times are the model's, to the ns")
    {
    }

  private:
    void DoRun() override
    {
        const Coefficients c;
        const LlmComputeModel m = MakeGpu(c)->GetModel();
        Ptr<LlmEngine> e = MakeEngine(c);
        Recorder r(e);
        const uint64_t prompt = 500;
        const uint64_t n = 6;
        const Time start = MilliSeconds(7);
        Simulator::Schedule(start, [e, prompt, n]() { e->AddSession(1, prompt, n); });
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(r.tokens.size(), n, "every token is emitted once");
        NS_TEST_ASSERT_MSG_EQ(r.tokenTraces.size(), n, "and traced once");
        if (r.tokens.size() != n || r.tokenTraces.size() != n)
        {
            return; // the checks below index them
        }
        NS_TEST_ASSERT_MSG_EQ(r.PrefillStartOf(1), start, "an idle GPU prefills at once");
        const Time prefillEnd = start + PrefillTime(m, {prompt});
        NS_TEST_ASSERT_MSG_EQ(r.prefillDone[1], prefillEnd, "prefill takes p(prompt)");
        Time expected = prefillEnd;
        for (uint64_t k = 0; k < n; ++k)
        {
            expected += StepTime(m, 1, prompt + k);
            NS_TEST_ASSERT_MSG_EQ(r.tokens[k].index, k, "tokens are indexed 0, 1, ... in order");
            NS_TEST_ASSERT_MSG_EQ(r.tokens[k].at,
                                  expected,
                                  "token " << k << " comes one decode step of context "
                                           << prompt + k << " after the previous one");
            NS_TEST_ASSERT_MSG_EQ(r.tokenTraces[k].at, r.tokens[k].at, "trace and callback agree");
        }
        NS_TEST_ASSERT_MSG_EQ(r.finished[1], expected, "finished with its last token");
        NS_TEST_ASSERT_MSG_EQ(Simulator::Now(), expected, "an idle engine schedules no event");
        NS_TEST_ASSERT_MSG_EQ(e->HasSession(1), false, "a finished session is forgotten");
        NS_TEST_ASSERT_MSG_EQ(r.maxKv, prompt + n, "prompt and generation are reserved");
        NS_TEST_ASSERT_MSG_EQ(e->GetKvTokensInUse(), 0u, "and freed at the end");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Sessions that queue while the GPU is busy are prefilled in one batch before any
 * decode step, then decode together: inter-token time is the decode step of the whole batch.
 */
class LlmEngineBatchTestCase : public EngineTestCase
{
  public:
    LlmEngineBatchTestCase()
        : EngineTestCase("LlmEngine: batch prefill and batch decode follow the batch model")
    {
    }

  private:
    void DoRun() override
    {
        const Coefficients c;
        const LlmComputeModel m = MakeGpu(c)->GetModel();
        Ptr<LlmEngine> e = MakeEngine(c);
        Recorder r(e);
        const uint64_t n = 4;
        // The first request finds the GPU idle; the other two wait for its prefill.
        NS_TEST_ASSERT_MSG_EQ((e->AddSession(1, 100, n) == LlmEngine::Admission::ADMITTED),
                              true,
                              "admitted");
        e->AddSession(2, 200, n);
        e->AddSession(3, 300, n);
        // The prompts of 2 and 3 wait while 1's prefills, then run as one batch: queued work
        // is 200 + 300 tokens during the first prefill and none once the batch has started.
        const Time firstEnd = PrefillTime(m, {100});
        uint64_t queuedDuring = 0;
        uint64_t queuedAfter = 1;
        Simulator::Schedule(firstEnd / 2,
                            [&queuedDuring, e]() { queuedDuring = e->GetQueuedPrefillTokens(); });
        Simulator::Schedule(firstEnd + NanoSeconds(1),
                            [&queuedAfter, e]() { queuedAfter = e->GetQueuedPrefillTokens(); });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(queuedDuring, 500u, "two prompts queued behind the first");
        NS_TEST_EXPECT_MSG_EQ(queuedAfter, 0u, "the batch took them out of the queue");

        NS_TEST_ASSERT_MSG_EQ((r.iterations.size() >= 3), true, "iterations were traced");
        NS_TEST_ASSERT_MSG_EQ(r.stepSizes.size(), n, "all sessions decode in the same steps");
        if (r.iterations.size() < 3 || r.stepSizes.size() != n)
        {
            return; // the checks below index them
        }
        NS_TEST_ASSERT_MSG_EQ(r.PrefillStartOf(2),
                              firstEnd,
                              "prefill goes before the first session's decode step");
        NS_TEST_ASSERT_MSG_EQ(r.PrefillStartOf(3), firstEnd, "queued prefills form one batch");
        NS_TEST_ASSERT_MSG_EQ(r.iterations[1].sequences, 2u, "a batch of two");
        NS_TEST_ASSERT_MSG_EQ(r.iterations[1].tokens, 500u, "of 500 prompt tokens");
        const Time batchEnd = firstEnd + PrefillTime(m, {200, 300});
        NS_TEST_ASSERT_MSG_EQ(r.prefillDone[3], batchEnd, "the batch costs the batch model");
        NS_TEST_ASSERT_MSG_EQ(r.iterations[1].duration,
                              PrefillTime(m, {200, 300}),
                              "IterationStarted shows the batch's duration");
        Time expected = batchEnd;
        for (uint64_t k = 0; k < n; ++k)
        {
            expected += StepTime(m, 3, 600 + 3 * k);
            NS_TEST_ASSERT_MSG_EQ(r.stepSizes[k], 3u, "one token per session per step");
            for (uint64_t imsi = 1; imsi <= 3; ++imsi)
            {
                const auto mine = r.TokensOf(imsi);
                NS_TEST_ASSERT_MSG_EQ(mine.size(), n, "every token of " << imsi);
                if (mine.size() != n)
                {
                    return;
                }
                NS_TEST_ASSERT_MSG_EQ(mine[k].index, k, "indices in order");
                NS_TEST_ASSERT_MSG_EQ(mine[k].at,
                                      expected,
                                      "token " << k << " of " << imsi
                                               << " after a decode step of 3 sequences");
            }
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Decode steps beyond MaxBatchSequences take turns.
 */
class LlmEngineMaxBatchTestCase : public EngineTestCase
{
  public:
    LlmEngineMaxBatchTestCase()
        : EngineTestCase("LlmEngine: decode steps hold at most MaxBatchSequences sessions")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LlmEngine> e = MakeEngine(Coefficients{});
        e->SetAttribute("MaxBatchSequences", UintegerValue(2));
        Recorder r(e);
        for (uint64_t imsi = 1; imsi <= 5; ++imsi)
        {
            e->AddSession(imsi, 50, 7);
        }
        Simulator::Run();
        uint32_t most = 0;
        for (const auto& it : r.iterations)
        {
            most = std::max(most, it.sequences);
        }
        NS_TEST_ASSERT_MSG_EQ(most, 2u, "no iteration holds more than two sequences");
        for (uint64_t imsi = 1; imsi <= 5; ++imsi)
        {
            const auto mine = r.TokensOf(imsi);
            NS_TEST_ASSERT_MSG_EQ(mine.size(), 7u, "every session gets all its tokens");
            for (uint64_t k = 0; k < mine.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(mine[k].index, k, "in order");
            }
        }
        if (r.TokensOf(3).empty() || r.TokensOf(1).empty())
        {
            return;
        }
        // Taking turns, the third session's first token comes before the first one's last.
        NS_TEST_ASSERT_MSG_LT(r.TokensOf(3).front().at,
                              r.TokensOf(1).back().at,
                              "sessions beyond the batch limit are not starved");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief With PrefillCycle, a prefill starts at the next multiple of the cycle; decode steps
 * that end by then still run.
 */
class LlmEngineCycleTestCase : public EngineTestCase
{
  public:
    LlmEngineCycleTestCase()
        : EngineTestCase("LlmEngine: a prefill starts at the next PrefillCycle boundary")
    {
    }

  private:
    void DoRun() override
    {
        Coefficients c;
        c.prefillPerToken = 1e-5;
        c.prefillFixed = 1e-3; // p(100) = 2 ms
        c.decodeBase = 3e-3;   // 3 ms per step whatever the batch
        c.decodePerSequence = 0;
        c.decodePerContextToken = 0;
        Ptr<LlmEngine> e = MakeEngine(c);
        const Time cycle = MilliSeconds(10);
        e->SetAttribute("PrefillCycle", TimeValue(cycle));
        Recorder r(e);

        // Alone and idle at 4 ms: waits until 10 ms.
        Simulator::Schedule(MilliSeconds(4), [e]() { e->AddSession(1, 100, 20); });
        // Submitted at 13.5 ms while session 1 decodes in 3 ms steps from 12 ms.
        Simulator::Schedule(MicroSeconds(13500), [e]() { e->AddSession(2, 100, 2); });
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(r.PrefillStartOf(1), MilliSeconds(10), "idle GPU waits for 10 ms");
        NS_TEST_ASSERT_MSG_EQ(r.PrefillStartOf(2),
                              MilliSeconds(20),
                              "a prefill asked for at 13.5 ms starts at 20 ms");
        // Session 1 decodes at 12-15, 15-18; a step 18-21 would pass the boundary.
        const auto first = r.TokensOf(1);
        NS_TEST_ASSERT_MSG_EQ(first.size(), 20u, "session 1 gets all its tokens");
        if (first.size() < 3)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(first[0].at, MilliSeconds(15), "decoding continues while waiting");
        NS_TEST_ASSERT_MSG_EQ(first[1].at, MilliSeconds(18), "a step that fits still runs");
        NS_TEST_ASSERT_MSG_EQ(first[2].at,
                              MilliSeconds(25),
                              "no step crosses the boundary; decoding resumes after prefill");
        for (const auto& it : r.iterations)
        {
            if (it.kind == LlmEngine::IterationKind::PREFILL)
            {
                NS_TEST_ASSERT_MSG_EQ(it.at.GetTimeStep() % cycle.GetTimeStep(),
                                      0,
                                      "every prefill starts on a boundary");
            }
            else if (it.at < MilliSeconds(20))
            {
                NS_TEST_ASSERT_MSG_LT_OR_EQ(it.at + it.duration,
                                            MilliSeconds(20),
                                            "no decode step delays the waiting prefill");
            }
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief An urgent prefill goes before queued normal prefills and decode steps, in a batch of
 * its own; a resumed session continues at the token index it was given.
 */
class LlmEngineUrgentTestCase : public EngineTestCase
{
  public:
    LlmEngineUrgentTestCase()
        : EngineTestCase("LlmEngine: urgent prefill goes ahead of normal prefill and decode")
    {
    }

  private:
    void DoRun() override
    {
        const Coefficients c;
        const LlmComputeModel m = MakeGpu(c)->GetModel();
        Ptr<LlmEngine> e = MakeEngine(c);
        Recorder r(e);
        e->AddSession(1, 100, 10); // prefills now; then waits to decode
        e->AddSession(2, 100, 5);  // normal prefill, queued
        NS_TEST_ASSERT_MSG_EQ((e->AddResumedSession(3, 300, 5) == LlmEngine::Admission::ADMITTED),
                              true,
                              "a resumed session is admitted");
        e->SubmitPrefill(3, 300, true);
        e->ResumeDecoding(3, 7, 5);
        Simulator::Run();

        const Time firstEnd = PrefillTime(m, {100});
        NS_TEST_ASSERT_MSG_EQ(r.prefillStarts.size(), 3u, "three prefill jobs");
        if (r.prefillStarts.size() != 3 || r.iterations.size() < 2 || r.TokensOf(1).empty() ||
            r.TokensOf(3).empty())
        {
            return; // the checks below index them
        }
        NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[1].imsi, 3u, "the urgent job goes first");
        NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[1].at, firstEnd, "as soon as the GPU is free");
        NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[1].urgent, true, "traced as urgent");
        NS_TEST_ASSERT_MSG_EQ(r.iterations[1].sequences, 1u, "urgent jobs batch on their own");
        const Time urgentEnd = firstEnd + PrefillTime(m, {300});
        NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[2].imsi, 2u, "then the normal job");
        NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[2].at, urgentEnd, "right after the urgent one");
        NS_TEST_ASSERT_MSG_EQ((r.TokensOf(1).front().at > urgentEnd),
                              true,
                              "decoding waits for both prefills");
        const auto resumed = r.TokensOf(3);
        NS_TEST_ASSERT_MSG_EQ(resumed.size(), 5u, "the resumed session emits its remaining tokens");
        NS_TEST_ASSERT_MSG_EQ(resumed.front().index, 7u, "from the index it was given");
        NS_TEST_ASSERT_MSG_EQ(resumed.back().index, 11u, "to its last one");
        NS_TEST_ASSERT_MSG_EQ(r.finished.count(3), 1u, "and finishes");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Admission: a session larger than the memory is rejected with a reason that names
 * KvCapacityTokens; sessions that fit wait in FIFO order; memory never exceeds capacity.
 */
class LlmEngineAdmissionTestCase : public EngineTestCase
{
  public:
    LlmEngineAdmissionTestCase()
        : EngineTestCase(
              "LlmEngine: admission rejects, queues in FIFO order, never overruns memory")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LlmEngine> e = MakeEngine(Coefficients{});
        e->SetAttribute("KvCapacityTokens", UintegerValue(1000));
        Recorder r(e);

        NS_TEST_ASSERT_MSG_EQ((e->AddSession(9, 900, 101) == LlmEngine::Admission::REJECTED),
                              true,
                              "1001 tokens never fit in 1000");
        NS_TEST_ASSERT_MSG_EQ(e->HasSession(9), false, "a rejected session is not kept");
        NS_TEST_ASSERT_MSG_EQ(r.rejected.count(9), 1u, "the rejection callback is called");
        NS_TEST_ASSERT_MSG_EQ((r.rejected[9].find("KvCapacityTokens = 1000") != std::string::npos),
                              true,
                              "the reason names the attribute: " << r.rejected[9]);
        NS_TEST_ASSERT_MSG_EQ(
            (r.rejected[9].find("900 prompt + 101 to generate = 1001 KV tokens") !=
             std::string::npos),
            true,
            "and the session's sizes: " << r.rejected[9]);
        NS_TEST_ASSERT_MSG_EQ(r.rejectedTrace[9], r.rejected[9], "the trace gives the same reason");

        // 600 + 400 fill the memory exactly.
        NS_TEST_ASSERT_MSG_EQ((e->AddSession(1, 400, 200) == LlmEngine::Admission::ADMITTED),
                              true,
                              "600 tokens fit");
        NS_TEST_ASSERT_MSG_EQ((e->AddSession(2, 300, 100) == LlmEngine::Admission::ADMITTED),
                              true,
                              "400 more fit exactly");
        NS_TEST_ASSERT_MSG_EQ((e->AddSession(3, 100, 100) == LlmEngine::Admission::WAITING),
                              true,
                              "a full memory makes a session wait");
        NS_TEST_ASSERT_MSG_EQ(e->IsWaitingForAdmission(3), true, "it is held as waiting");
        e->AddSession(4, 500, 100); // 600: waits behind 3
        e->AddSession(5, 50, 50);   // 100: would fit beside 3, but waits behind 4
        NS_TEST_ASSERT_MSG_EQ(e->GetKvTokensInUse(), 1000u, "waiting sessions hold no memory");
        Simulator::Run();

        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.maxKv, 1000u, "memory never exceeds the capacity");
        NS_TEST_ASSERT_MSG_EQ(r.maxKv, 1000u, "and it was full");
        NS_TEST_ASSERT_MSG_EQ(r.admitted[3],
                              r.finished[2],
                              "the waiting session starts when a running one finishes");
        NS_TEST_ASSERT_MSG_EQ(r.PrefillStartOf(3), r.finished[2], "and is prefilled at once");
        NS_TEST_ASSERT_MSG_EQ(r.admitted[4], r.finished[1], "the next one when memory allows");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.admitted[4],
                                    r.admitted[5],
                                    "FIFO: a small session does not overtake a large one");
        for (uint64_t imsi = 1; imsi <= 5; ++imsi)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished.count(imsi), 1u, "session " << imsi << " finishes");
        }
        NS_TEST_ASSERT_MSG_EQ(r.lastKv, 0u, "all memory is freed");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief StopDecoding keeps memory and stops tokens; ResumeDecoding continues; RemoveSession
 * frees memory for a waiting session and drops a token in flight.
 */
class LlmEngineStopRemoveTestCase : public EngineTestCase
{
  public:
    LlmEngineStopRemoveTestCase()
        : EngineTestCase("LlmEngine: stop, resume and remove sessions")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LlmEngine> e = MakeEngine(Coefficients{});
        e->SetAttribute("KvCapacityTokens", UintegerValue(1000));
        Recorder r(e);
        e->AddSession(1, 100, 50);
        e->AddSession(2, 350, 400); // 750: with session 1, no room for session 3
        e->AddSession(3, 100, 10);
        NS_TEST_ASSERT_MSG_EQ(e->GetContextTokens(1), 100u, "the prompt, before its prefill");
        uint64_t stoppedAt = 0;
        uint64_t contextAtStop = 0;
        // Mid-step for both: their tokens in flight are dropped.
        Simulator::Schedule(MilliSeconds(200), [e, &stoppedAt, &contextAtStop]() {
            stoppedAt = e->StopDecoding(1);
            contextAtStop = e->GetContextTokens(1);
            e->RemoveSession(2);
        });
        Simulator::Schedule(MilliSeconds(400),
                            [e, &stoppedAt]() { e->ResumeDecoding(1, stoppedAt, 50 - stoppedAt); });
        Simulator::Run();

        const auto one = r.TokensOf(1);
        NS_TEST_ASSERT_MSG_EQ(one.size(), 50u, "session 1 emits each token once in all");
        for (uint64_t k = 0; k < one.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(one[k].index, k, "with no gap or repeat across the stop");
            NS_TEST_ASSERT_MSG_EQ((one[k].at <= MilliSeconds(200) || one[k].at > MilliSeconds(400)),
                                  true,
                                  "and none while stopped");
        }
        NS_TEST_ASSERT_MSG_GT(stoppedAt, 0u, "it had emitted tokens before the stop");
        NS_TEST_ASSERT_MSG_EQ(contextAtStop,
                              100 + stoppedAt,
                              "the context is the prompt and every token emitted");
        const auto two = r.TokensOf(2);
        NS_TEST_ASSERT_MSG_EQ(two.empty(), false, "session 2 emitted before its removal");
        if (two.empty())
        {
            return;
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(two.back().at, MilliSeconds(200), "and nothing after");
        NS_TEST_ASSERT_MSG_EQ(r.finished.count(2), 0u, "a removed session does not finish");
        NS_TEST_ASSERT_MSG_EQ(r.admitted[3], MilliSeconds(200), "its memory admits session 3");
        NS_TEST_ASSERT_MSG_EQ(r.TokensOf(3).size(), 10u, "which runs to the end");
        NS_TEST_ASSERT_MSG_EQ(e->RemoveSession(42), false, "an unknown IMSI is no session");
        NS_TEST_ASSERT_MSG_EQ(r.lastKv, 0u, "all memory is freed");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Callbacks may call back into the engine: a client that asks again when served, and
 * a server that drops a session from within the tokens callback.
 */
class LlmEngineReentrantTestCase : public EngineTestCase
{
  public:
    LlmEngineReentrantTestCase()
        : EngineTestCase("LlmEngine: callbacks may add and remove sessions")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LlmEngine> e = MakeEngine(Coefficients{});
        e->SetAttribute("KvCapacityTokens", UintegerValue(300));
        // The callbacks reach the engine by a plain pointer: a Ptr held in the engine's own
        // callback would keep the engine, and what it holds, alive for ever.
        LlmEngine* engine = PeekPointer(e);
        std::map<uint64_t, Time> finished;
        std::map<uint64_t, uint64_t> tokens;
        std::map<uint64_t, Time> prefillStart;
        e->TraceConnectWithoutContext("PrefillStarted",
                                      Callback<void, uint64_t, uint64_t, bool>(
                                          [&prefillStart](uint64_t imsi, uint64_t, bool) {
                                              prefillStart[imsi] = Simulator::Now();
                                          }));
        // Sessions 1 and 2 fill the memory; 3 waits. When 1 finishes, its client asks again
        // (11), which waits behind 3.
        e->SetSessionFinishedCallback(
            LlmEngine::SessionCallback([engine, &finished](uint64_t imsi) {
                finished[imsi] = Simulator::Now();
                if (imsi < 10)
                {
                    engine->AddSession(imsi + 10, 50, 50);
                }
            }));
        // The server drops session 2 after its third token.
        e->SetTokensCallback(LlmEngine::TokensCallback(
            [engine, &tokens](const std::vector<LlmEngine::EmittedToken>& step) {
                for (const auto& t : step)
                {
                    ++tokens[t.imsi];
                    if (t.imsi == 2 && t.tokenIndex == 2)
                    {
                        engine->RemoveSession(2);
                    }
                }
            }));
        e->AddSession(1, 100, 50);
        e->AddSession(2, 100, 50);
        e->AddSession(3, 100, 50);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(tokens[2], 3u, "a session removed in the callback emits no more");
        NS_TEST_ASSERT_MSG_EQ(finished.count(2), 0u, "and does not finish");
        NS_TEST_ASSERT_MSG_EQ(tokens[1], 50u, "session 1 runs to the end");
        NS_TEST_ASSERT_MSG_EQ(tokens[3], 50u, "session 3 runs once 2 is removed");
        NS_TEST_ASSERT_MSG_EQ(tokens[11], 50u, "a session added in a callback runs");
        NS_TEST_ASSERT_MSG_EQ(tokens[13], 50u, "so does the next one");
        NS_TEST_ASSERT_MSG_EQ(prefillStart[11],
                              finished[1],
                              "added at the end of a step, it is prefilled at once");
        NS_TEST_ASSERT_MSG_EQ(e->GetKvTokensInUse(), 0u, "all memory is freed");

        // A TokenGenerated sink removes sessions as they emit their last token, its own and
        // another one's finished in the same step: the step ends cleanly.
        Ptr<LlmEngine> f = MakeEngine(Coefficients{});
        LlmEngine* second = PeekPointer(f);
        uint64_t removed = 0;
        f->TraceConnectWithoutContext(
            "TokenGenerated",
            Callback<void, uint64_t, uint64_t>([second, &removed](uint64_t imsi, uint64_t index) {
                // 21 finished earlier in this step; 22 finishes with this token.
                if (imsi == 22 && index == 9)
                {
                    removed += second->RemoveSession(21) ? 1 : 0;
                    removed += second->RemoveSession(22) ? 1 : 0;
                }
            }));
        f->AddSession(21, 10, 10);
        f->AddSession(22, 10, 10);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(removed, 2u, "both removed from the sink, once each");
        NS_TEST_ASSERT_MSG_EQ(f->GetSessionCount(), 0u, "no session left");
        NS_TEST_ASSERT_MSG_EQ(f->GetKvTokensInUse(), 0u, "their memory freed once");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief Random requests, handovers in and out, stops and removals: memory stays within
 * capacity and every session's tokens come once each, in order, with no gap.
 */
class LlmEngineRandomTestCase : public EngineTestCase
{
  public:
    /// \param cycle the PrefillCycle of the run
    /// \param mode the IterationMode of the run
    LlmEngineRandomTestCase(Time cycle, LlmEngine::IterationMode mode)
        : EngineTestCase("LlmEngine: random load keeps its invariants, PrefillCycle " +
                         std::to_string(cycle.GetMilliSeconds()) + " ms, " +
                         (mode == LlmEngine::MIXED ? "mixed" : "separate") + " iterations"),
          m_cycle(cycle),
          m_mode(mode)
    {
    }

  private:
    /// What the test knows of a session.
    struct Expected
    {
        uint64_t firstIndex{0}; //!< index of its first token
        uint64_t end{0};        //!< one past its last token
        uint64_t next{0};       //!< next index expected
        bool gap{false};        //!< a token out of order came
        bool finished{false};   //!< the finished callback came
        bool removed{false};    //!< the test removed it
        bool stopped{false};    //!< stopped, its resumption pending
    };

    void DoRun() override
    {
        const uint64_t capacity = 5000;
        Ptr<LlmEngine> e = MakeEngine(Coefficients{});
        e->SetAttribute("KvCapacityTokens", UintegerValue(capacity));
        e->SetAttribute("MaxBatchSequences", UintegerValue(8));
        e->SetAttribute("PrefillCycle", TimeValue(m_cycle));
        e->SetAttribute("IterationMode", EnumValue(m_mode));
        // Small chunks, so that most prefills take several iterations.
        e->SetAttribute("ChunkTokens", UintegerValue(300));
        std::map<uint64_t, Expected> sessions;
        uint64_t maxKv = 0;
        uint64_t rejected = 0;
        e->TraceConnectWithoutContext(
            "KvTokensInUse",
            Callback<void, uint64_t, uint64_t>(
                [&maxKv](uint64_t, uint64_t now) { maxKv = std::max(maxKv, now); }));
        e->SetTokensCallback(LlmEngine::TokensCallback(
            [&sessions](const std::vector<LlmEngine::EmittedToken>& step) {
                for (const auto& t : step)
                {
                    Expected& x = sessions[t.imsi];
                    x.gap = x.gap || t.tokenIndex != x.next;
                    x.next = t.tokenIndex + 1;
                }
            }));
        e->SetSessionFinishedCallback(LlmEngine::SessionCallback(
            [&sessions](uint64_t imsi) { sessions[imsi].finished = true; }));
        e->SetSessionRejectedCallback(
            LlmEngine::RejectedCallback([&rejected](uint64_t, const std::string&) { ++rejected; }));

        std::mt19937_64 rng(m_cycle.GetTimeStep() + 12345);
        auto uniform = [&rng](uint64_t lo, uint64_t hi) {
            return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
        };
        uint64_t nextImsi = 1;
        for (int op = 0; op < 400; ++op)
        {
            const Time at = MicroSeconds(uniform(0, 5000000));
            const uint64_t kind = uniform(0, 9);
            const uint64_t pick = uniform(1, 200);
            const uint64_t imsi = nextImsi++;
            const uint64_t a = uniform(1, 1500);
            const uint64_t b = uniform(1, 300);
            const bool urgent = uniform(0, 1) == 1;
            Simulator::Schedule(at, [=, &sessions]() {
                if (kind < 5)
                {
                    if (e->AddSession(imsi, a * 4, b) != LlmEngine::Admission::REJECTED)
                    {
                        sessions[imsi] = Expected{0, b, 0, false, false, false, false};
                    }
                }
                else if (kind < 7)
                {
                    // A handover in: recover by prefill, then decode from index 1000.
                    if (e->AddResumedSession(imsi, a, b) != LlmEngine::Admission::REJECTED)
                    {
                        sessions[imsi] = Expected{1000, 1000 + b, 1000, false, false, false, false};
                        e->SubmitPrefill(imsi, uniform_like(a, pick), urgent);
                        e->ResumeDecoding(imsi, 1000, b);
                    }
                }
                else if (kind < 9)
                {
                    // A handover out and back: stop, then resume where it stopped.
                    if (e->HasSession(pick) && !e->IsWaitingForAdmission(pick) &&
                        !sessions[pick].stopped)
                    {
                        const uint64_t next = e->StopDecoding(pick);
                        sessions[pick].stopped = true;
                        Simulator::Schedule(MilliSeconds(30), [e, pick, next, &sessions]() {
                            sessions[pick].stopped = false;
                            if (e->HasSession(pick) && next < sessions[pick].end)
                            {
                                e->ResumeDecoding(pick, next, sessions[pick].end - next);
                            }
                        });
                    }
                }
                else if (e->RemoveSession(pick))
                {
                    sessions[pick].removed = true;
                }
            });
        }
        Simulator::Run();

        NS_TEST_ASSERT_MSG_LT_OR_EQ(maxKv, capacity, "memory never exceeds the capacity");
        NS_TEST_ASSERT_MSG_GT(maxKv, capacity * 8 / 10, "the load filled the memory");
        NS_TEST_ASSERT_MSG_GT(rejected, 0u, "some sessions were too large");
        uint64_t finished = 0;
        for (const auto& [imsi, x] : sessions)
        {
            NS_TEST_ASSERT_MSG_EQ(x.gap, false, "imsi " << imsi << ": tokens in order, no gap");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(x.next, x.end, "imsi " << imsi << ": none beyond its end");
            if (x.finished)
            {
                ++finished;
                NS_TEST_ASSERT_MSG_EQ(x.next, x.end, "imsi " << imsi << ": finished means all");
                NS_TEST_ASSERT_MSG_EQ(x.removed, false, "a removed session does not finish");
            }
            else if (!x.removed)
            {
                // Only a session left stopped (its resumption found it finished or removed)
                // may remain.
                NS_TEST_ASSERT_MSG_EQ(e->HasSession(imsi), true, "imsi " << imsi << " is held");
                e->RemoveSession(imsi);
            }
        }
        NS_TEST_ASSERT_MSG_GT(finished, 100u, "most sessions ran to the end");
        NS_TEST_ASSERT_MSG_EQ(e->GetKvTokensInUse(), 0u, "all memory comes back");
    }

    /// \return a prefill length in [1, context], from a draw in [1, 200]
    static uint64_t uniform_like(uint64_t context, uint64_t pick)
    {
        return std::max<uint64_t>(1, context * pick / 200);
    }

    Time m_cycle;                    //!< PrefillCycle
    LlmEngine::IterationMode m_mode; //!< IterationMode
};

/**
 * \ingroup edge-llm-tests
 * \brief A prompt cached in part or whole: only the rest is prefilled (and always the last
 * token), while decoding costs, and memory holds, the whole prompt.
 *
 * Expected by hand from the bench's coefficients: p(L) = 1e-4 L + 2e-3 s for one sequence, a
 * decode step of one sequence with context c = 10e-3 + 1e-3 + 1e-6 c s.
 */
class LlmEngineCachedPromptTestCase : public EngineTestCase
{
  public:
    LlmEngineCachedPromptTestCase()
        : EngineTestCase("LlmEngine: CachedPromptFraction leaves the cached part unprefilled")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            double fraction;
            uint64_t prompt;
            uint64_t prefilled; // by hand: prompt - min(floor(fraction x prompt), prompt - 1)
            double firstTokenS; // by hand: p(prefilled) + one step of context prompt
        };

        const std::vector<Case> cases{
            {0.0, 1000, 1000, 0.102 + 0.012},
            {0.5, 1000, 500, 0.052 + 0.012},
            {0.999, 1000, 1, 0.0021 + 0.012},
            {1.0, 1000, 1, 0.0021 + 0.012},
            {0.25, 3, 3, 0.0023 + 0.011003},
            {1.0, 1, 1, 0.0021 + 0.011001},
        };
        for (const Case& k : cases)
        {
            Ptr<LlmEngine> e = MakeEngine(Coefficients());
            e->SetAttribute("CachedPromptFraction", DoubleValue(k.fraction));
            Recorder r(e);
            const uint64_t n = 3;
            e->AddSession(1, k.prompt, n);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(r.prefillStarts.size(), 1u, "one prefill, at f = " << k.fraction);
            if (r.prefillStarts.size() == 1)
            {
                NS_TEST_ASSERT_MSG_EQ(r.prefillStarts[0].tokens,
                                      k.prefilled,
                                      "prefilled tokens at f = " << k.fraction << ", prompt "
                                                                 << k.prompt);
            }
            NS_TEST_ASSERT_MSG_EQ(r.tokens.size(), n, "every token once at f = " << k.fraction);
            if (!r.tokens.empty())
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(r.tokens[0].at.GetSeconds(),
                                          k.firstTokenS,
                                          2e-9,
                                          "first token at f = " << k.fraction << ", prompt "
                                                                << k.prompt);
            }
            NS_TEST_ASSERT_MSG_EQ(r.maxKv, k.prompt + n, "the whole prompt is held in memory");
            Simulator::Destroy();
        }
        Ptr<LlmEngine> e = CreateObject<LlmEngine>();
        NS_TEST_ASSERT_MSG_EQ(e->SetAttributeFailSafe("CachedPromptFraction", DoubleValue(1.01)),
                              false,
                              "a fraction above 1 is refused");
        NS_TEST_ASSERT_MSG_EQ(e->SetAttributeFailSafe("CachedPromptFraction", DoubleValue(-0.1)),
                              false,
                              "a negative fraction is refused");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The engine's attributes refuse values outside their ranges.
 */
class LlmEngineAttributeTestCase : public EngineTestCase
{
  public:
    LlmEngineAttributeTestCase()
        : EngineTestCase("LlmEngine attributes are validated")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LlmEngine> e = CreateObject<LlmEngine>();
        NS_TEST_ASSERT_MSG_EQ(e->GetKvCapacityTokens(), 990000u, "documented default");
        NS_TEST_ASSERT_MSG_EQ(e->SetAttributeFailSafe("KvCapacityTokens", UintegerValue(0)),
                              false,
                              "an empty memory is refused");
        NS_TEST_ASSERT_MSG_EQ(e->SetAttributeFailSafe("MaxBatchSequences", UintegerValue(0)),
                              false,
                              "an empty batch is refused");
        NS_TEST_ASSERT_MSG_EQ(e->SetAttributeFailSafe("PrefillCycle", TimeValue(MilliSeconds(-1))),
                              false,
                              "a negative cycle is refused");
        NS_TEST_ASSERT_MSG_EQ(e->GetKvCapacityTokens(), 990000u, "refused values change nothing");
        NS_TEST_ASSERT_MSG_EQ(e->SetAttributeFailSafe("KvCapacityTokens", UintegerValue(1)),
                              true,
                              "one token is a memory");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The LLM engine's TestSuite.
 */
class LlmEngineTestSuite : public TestSuite
{
  public:
    LlmEngineTestSuite()
        : TestSuite("edge-llm-engine")
    {
        AddTestCase(new LlmEngineSingleSessionTestCase);
        AddTestCase(new LlmEngineBatchTestCase);
        AddTestCase(new LlmEngineMaxBatchTestCase);
        AddTestCase(new LlmEngineCycleTestCase);
        AddTestCase(new LlmEngineUrgentTestCase);
        AddTestCase(new LlmEngineAdmissionTestCase);
        AddTestCase(new LlmEngineStopRemoveTestCase);
        AddTestCase(new LlmEngineReentrantTestCase);
        AddTestCase(new LlmEngineRandomTestCase(Seconds(0), LlmEngine::SEPARATE));
        AddTestCase(new LlmEngineRandomTestCase(MilliSeconds(10), LlmEngine::SEPARATE));
        AddTestCase(new LlmEngineRandomTestCase(Seconds(0), LlmEngine::MIXED));
        AddTestCase(new LlmEngineRandomTestCase(MilliSeconds(10), LlmEngine::MIXED));
        AddTestCase(new LlmEngineCachedPromptTestCase);
        AddTestCase(new LlmEngineAttributeTestCase);
    }
};

/// The suite's instance.
static LlmEngineTestSuite g_llmEngineTestSuite;
