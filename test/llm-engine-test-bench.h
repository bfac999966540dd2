/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LLM_ENGINE_TEST_BENCH_H
#define EDGE_LLM_LLM_ENGINE_TEST_BENCH_H

// What the engine's test suites share: a GPU with known coefficients, and a recorder of
// everything an engine reports.

#include "ns3/double.h"
#include "ns3/gpu-compute-model.h"
#include "ns3/llm-compute-model.h"
#include "ns3/llm-engine.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace edgellm_test
{
/// Compute model coefficients of the tests: every term non-zero, so that a wrong batch size
/// or context length shows in the times.
struct Coefficients
{
    double prefillPerToken{1e-4};
    double prefillFixed{2e-3};
    std::string batchMode{"PaddedMax"};
    double decodeBase{10e-3};
    double decodePerSequence{1e-3};
    double decodePerContextToken{1e-6};
};

inline Ptr<GpuComputeModel>
MakeGpu(const Coefficients& c)
{
    Ptr<GpuComputeModel> g = CreateObject<GpuComputeModel>();
    g->SetAttribute("PrefillSecondsPerToken", DoubleValue(c.prefillPerToken));
    g->SetAttribute("PrefillFixedSeconds", DoubleValue(c.prefillFixed));
    g->SetAttribute("BatchMode", StringValue(c.batchMode));
    g->SetAttribute("DecodeBaseSeconds", DoubleValue(c.decodeBase));
    g->SetAttribute("DecodeSecondsPerSequence", DoubleValue(c.decodePerSequence));
    g->SetAttribute("DecodeSecondsPerContextToken", DoubleValue(c.decodePerContextToken));
    return g;
}

/// Prefill time of a batch, as the engine must schedule it.
inline Time
PrefillTime(const LlmComputeModel& m, const std::vector<uint64_t>& lengths)
{
    return Seconds(m.BatchPrefillTime(PrefillBatch::FromLengths(lengths)));
}

/// Decode step time, as the engine must schedule it.
inline Time
StepTime(const LlmComputeModel& m, uint64_t sequences, uint64_t context)
{
    return Seconds(m.DecodeStepTime(sequences, context));
}

/// Everything an engine reports, with the time it was reported.
class Recorder
{
  public:
    struct Token
    {
        Time at;
        uint64_t imsi;
        uint64_t index;
    };

    struct Iteration
    {
        Time at;
        LlmEngine::IterationKind kind;
        uint32_t sequences;
        uint64_t tokens;
        Time duration;
    };

    struct Prefill
    {
        Time at;
        uint64_t imsi;
        uint64_t tokens;
        bool urgent;
    };

    explicit Recorder(Ptr<LlmEngine> engine)
    {
        engine->SetTokensCallback(MakeCallback(&Recorder::OnTokens, this));
        engine->SetPrefillDoneCallback(MakeCallback(&Recorder::OnPrefillDone, this));
        engine->SetSessionFinishedCallback(MakeCallback(&Recorder::OnFinished, this));
        engine->SetSessionRejectedCallback(MakeCallback(&Recorder::OnRejected, this));
        engine->TraceConnectWithoutContext("TokenGenerated",
                                           MakeCallback(&Recorder::OnTokenTrace, this));
        engine->TraceConnectWithoutContext("IterationStarted",
                                           MakeCallback(&Recorder::OnIteration, this));
        engine->TraceConnectWithoutContext("PrefillStarted",
                                           MakeCallback(&Recorder::OnPrefillStarted, this));
        engine->TraceConnectWithoutContext("SessionAdmitted",
                                           MakeCallback(&Recorder::OnAdmitted, this));
        engine->TraceConnectWithoutContext("SessionRejected",
                                           MakeCallback(&Recorder::OnRejectedTrace, this));
        engine->TraceConnectWithoutContext("KvTokensInUse", MakeCallback(&Recorder::OnKv, this));
    }

    /// \return the tokens of one session
    std::vector<Token> TokensOf(uint64_t imsi) const
    {
        std::vector<Token> out;
        std::copy_if(tokens.begin(), tokens.end(), std::back_inserter(out), [imsi](const Token& t) {
            return t.imsi == imsi;
        });
        return out;
    }

    /// \return the prefill start of a session, or -1 s
    Time PrefillStartOf(uint64_t imsi) const
    {
        for (const auto& p : prefillStarts)
        {
            if (p.imsi == imsi)
            {
                return p.at;
            }
        }
        return Seconds(-1);
    }

    std::vector<Token> tokens;                     //!< from the tokens callback
    std::vector<Token> tokenTraces;                //!< from TokenGenerated
    std::vector<std::size_t> stepSizes;            //!< entries per tokens callback
    std::vector<Iteration> iterations;             //!< IterationStarted
    std::vector<Prefill> prefillStarts;            //!< PrefillStarted
    std::map<uint64_t, Time> prefillDone;          //!< prefill-done callback, last per session
    std::map<uint64_t, Time> finished;             //!< finished callback
    std::map<uint64_t, Time> admitted;             //!< SessionAdmitted
    std::map<uint64_t, std::string> rejected;      //!< rejected callback
    std::map<uint64_t, std::string> rejectedTrace; //!< SessionRejected
    uint64_t maxKv{0};                             //!< highest KvTokensInUse
    uint64_t lastKv{0};                            //!< last KvTokensInUse

  private:
    void OnTokens(const std::vector<LlmEngine::EmittedToken>& step)
    {
        stepSizes.push_back(step.size());
        for (const auto& t : step)
        {
            tokens.push_back({Simulator::Now(), t.imsi, t.tokenIndex});
        }
    }

    void OnTokenTrace(uint64_t imsi, uint64_t index)
    {
        tokenTraces.push_back({Simulator::Now(), imsi, index});
    }

    void OnPrefillDone(uint64_t imsi)
    {
        prefillDone[imsi] = Simulator::Now();
    }

    void OnFinished(uint64_t imsi)
    {
        finished[imsi] = Simulator::Now();
    }

    void OnRejected(uint64_t imsi, const std::string& reason)
    {
        rejected[imsi] = reason;
    }

    void OnRejectedTrace(uint64_t imsi, const std::string& reason)
    {
        rejectedTrace[imsi] = reason;
    }

    void OnIteration(LlmEngine::IterationKind kind, uint32_t sequences, uint64_t tokens, Time d)
    {
        iterations.push_back({Simulator::Now(), kind, sequences, tokens, d});
    }

    void OnPrefillStarted(uint64_t imsi, uint64_t tokens, bool urgent)
    {
        prefillStarts.push_back({Simulator::Now(), imsi, tokens, urgent});
    }

    void OnAdmitted(uint64_t imsi, uint64_t /* reserved */)
    {
        admitted[imsi] = Simulator::Now();
    }

    void OnKv(uint64_t /* old */, uint64_t now)
    {
        maxKv = std::max(maxKv, now);
        lastKv = now;
    }
};

/// An engine on a GPU with the given coefficients.
inline Ptr<LlmEngine>
MakeEngine(const Coefficients& c)
{
    Ptr<LlmEngine> e = CreateObject<LlmEngine>();
    e->SetAttribute("ComputeModel", PointerValue(MakeGpu(c)));
    return e;
}

/// A test case that leaves the simulator clean, also when it stops at a failed check.
class EngineTestCase : public TestCase
{
  public:
    /// \param name the test's name
    explicit EngineTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  private:
    void DoTeardown() override
    {
        Simulator::Destroy();
    }
};

} // namespace edgellm_test
} // namespace ns3

#endif /* EDGE_LLM_LLM_ENGINE_TEST_BENCH_H */
