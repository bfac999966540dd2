/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The engine's mixed iterations (IterationMode Mixed): chunked prefill beside decoding.

#include "llm-engine.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LlmEngineMixed");

double
LlmEngine::PlanChunks(std::deque<uint64_t>& queue, uint64_t& budget, uint64_t& seats)
{
    const Time now = Simulator::Now();
    double seconds = 0;
    std::size_t taken = 0;
    for (uint64_t imsi : queue)
    {
        Session& s = m_sessions.at(imsi);
        // A job that has not started waits for its prefill boundary; one that has keeps its
        // place at the front and goes on at every iteration.
        if (budget == 0 || seats == 0 || (s.prefillDone == 0 && s.prefillFrom > now))
        {
            break;
        }
        const uint64_t chunk = std::min(s.prefillTokens - s.prefillDone, budget);
        // A chunk costs what it adds to the job's prefill curve, so the chunks of a job add up
        // to the job's own p(L): chunking moves the work, it does not add to it.
        seconds += Model().PrefillTime(s.prefillDone + chunk) - Model().PrefillTime(s.prefillDone);
        s.chunkTokens = chunk;
        s.phase = Phase::PREFILLING;
        budget -= chunk;
        --seats;
        m_batch.push_back(imsi);
        ++taken;
    }
    queue.erase(queue.begin(), queue.begin() + taken);
    return m_loadFactor * seconds;
}

void
LlmEngine::ScheduleMixed()
{
    const Time now = Simulator::Now();
    // What a queue can give now, and when its first job that cannot start yet may.
    bool prefillNow = false;
    Time nextStart = Time::Max();
    for (const std::deque<uint64_t>* queue : {&m_urgentPrefills, &m_prefills})
    {
        if (queue->empty())
        {
            continue;
        }
        const Session& front = m_sessions.at(queue->front());
        if (front.prefillDone > 0 || front.prefillFrom <= now)
        {
            prefillNow = true;
        }
        else
        {
            nextStart = std::min(nextStart, front.prefillFrom);
        }
    }

    uint64_t context = 0;
    double decodeS = 0;
    m_batch.clear();
    m_decodeInBatch = 0;
    if (!m_decodeQueue.empty())
    {
        decodeS = PlanDecodeStep(context).GetSeconds();
        m_decodeInBatch = m_batch.size();
    }
    // With nothing to prefill yet, a decode step runs only if it ends by the next boundary a
    // job waits for, as in Separate mode: the boundary is the plans' promise.
    const bool decodeFits = m_decodeInBatch > 0 && now + Seconds(decodeS) <= nextStart;
    if (!prefillNow && !decodeFits)
    {
        m_batch.clear();
        m_decodeInBatch = 0;
        if (nextStart != Time::Max())
        {
            NS_LOG_LOGIC("GPU waits for the prefill boundary at " << nextStart.As(Time::S));
            m_wake = Simulator::Schedule(nextStart - now, &LlmEngine::Schedule, this);
        }
        return;
    }

    m_decodeQueue.erase(m_decodeQueue.begin(), m_decodeQueue.begin() + m_decodeInBatch);
    for (std::size_t i = 0; i < m_decodeInBatch; ++i)
    {
        m_sessions.at(m_batch[i]).phase = Phase::DECODING;
    }
    // Each decoding session is one token of the budget, as in vLLM.
    uint64_t budget = m_chunkTokens > m_decodeInBatch ? m_chunkTokens - m_decodeInBatch : 0;
    uint64_t seats = m_maxBatchSequences - m_decodeInBatch;
    double prefillS = PlanChunks(m_urgentPrefills, budget, seats);
    prefillS += PlanChunks(m_prefills, budget, seats);

    uint64_t chunkTokens = 0;
    for (std::size_t i = m_decodeInBatch; i < m_batch.size(); ++i)
    {
        const Session& s = m_sessions.at(m_batch[i]);
        chunkTokens += s.chunkTokens;
        if (s.prefillDone == 0)
        {
            m_prefillStartedTrace(m_batch[i], s.prefillTokens, s.prefillUrgent);
        }
    }
    const std::size_t chunks = m_batch.size() - m_decodeInBatch;
    // Decoding and prefill chunks share the GPU's time; they are costed one after the other,
    // an upper estimate of a fused kernel's time.
    const Time duration = Seconds(decodeS + prefillS);
    const IterationKind kind = chunks == 0            ? IterationKind::DECODE
                               : m_decodeInBatch == 0 ? IterationKind::PREFILL
                                                      : IterationKind::MIXED;
    NS_LOG_LOGIC("mixed iteration: " << m_decodeInBatch << " decoding, " << chunks << " chunks of "
                                     << chunkTokens << " tokens, " << duration.As(Time::MS));
    m_busy = true;
    m_iterationStartedTrace(kind,
                            m_batch.size(),
                            kind == IterationKind::DECODE ? context : chunkTokens,
                            duration);
    m_iterationEnd = Simulator::Schedule(duration, &LlmEngine::EndMixed, this);
}

void
LlmEngine::EndMixed()
{
    NS_LOG_FUNCTION(this);
    EmitDecodedTokens();
    m_prefillsEnded.clear();
    // At most the last chunk of a queue is a job's part; it goes back to its queue's front,
    // in the order the chunks had.
    std::vector<uint64_t> unfinished;
    for (std::size_t i = m_decodeInBatch; i < m_batch.size(); ++i)
    {
        const uint64_t imsi = m_batch[i];
        auto it = m_sessions.find(imsi);
        if (it == m_sessions.end() || it->second.phase != Phase::PREFILLING)
        {
            continue; // removed while it ran
        }
        Session& s = it->second;
        s.prefillDone += s.chunkTokens;
        s.chunkTokens = 0;
        if (s.prefillDone < s.prefillTokens)
        {
            s.phase = Phase::PREFILL_QUEUED;
            unfinished.push_back(imsi);
            continue;
        }
        const uint64_t tokens = s.prefillTokens;
        const bool urgent = s.prefillUrgent;
        s.prefillTokens = 0;
        s.prefillDone = 0;
        s.prefillUrgent = false;
        Dispatch(imsi, s);
        m_prefillCompletedTrace(imsi, tokens, urgent);
        m_prefillsEnded.push_back(imsi);
    }
    for (auto it = unfinished.rbegin(); it != unfinished.rend(); ++it)
    {
        const Session& s = m_sessions.at(*it);
        (s.prefillUrgent ? m_urgentPrefills : m_prefills).push_front(*it);
    }
    // Callbacks may call back into the engine; m_busy keeps it from starting an iteration
    // until this one is wound up.
    NotifyDecoded();
    if (!m_prefillDoneCallback.IsNull())
    {
        for (uint64_t imsi : m_prefillsEnded)
        {
            m_prefillDoneCallback(imsi);
        }
    }
    m_busy = false;
    AdmitWaiting();
    Schedule();
}

} // namespace ns3
