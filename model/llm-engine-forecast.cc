/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The engine's forecast of when prefills would run: a replay of its own iterations.

#include "llm-engine.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LlmEngineForecast");

namespace
{

/// Iterations a replay runs at most: far beyond any plan's horizon, and still a bound.
constexpr uint32_t MAX_REPLAYED_ITERATIONS = 1000000;

/// A prefill job in the replay.
struct ReplayJob
{
    std::size_t forecast{0}; //!< index of the forecast job; SIZE_MAX for the engine's own
    uint64_t tokens{0};      //!< its length
    uint64_t done{0};        //!< of them, prefilled by earlier chunks
    uint64_t chunk{0};       //!< of them, in the iteration being replayed
    Time from;               //!< its prefill boundary (Mixed)
    bool urgent{true};       //!< which queue it is in
    bool decodeAfter{false}; //!< it decodes once prefilled
    uint64_t context{0};     //!< its context then
    uint64_t left{0};        //!< tokens it has still to emit then
};

/// A decoding session in the replay.
struct ReplayDecoder
{
    uint64_t context{0}; //!< KV tokens it holds
    uint64_t left{0};    //!< tokens it has still to emit, >= 1
};

/// The replayed engine: its queues, and what the forecast jobs did.
struct Replay
{
    std::deque<ReplayJob> urgent;                          //!< urgent prefills, FIFO
    std::deque<ReplayJob> normal;                          //!< normal prefills, FIFO
    std::deque<ReplayDecoder> decode;                      //!< decode queue, round robin
    std::vector<LlmEngine::PrefillForecast>* out{nullptr}; //!< the forecast jobs' times
    std::size_t remaining{0};                              //!< forecast jobs not ended

    /// A job ended at t: its time, and it decodes or is held, as Dispatch does.
    void Finish(const ReplayJob& j, Time t)
    {
        if (j.forecast != SIZE_MAX)
        {
            (*out)[j.forecast].end = t;
            --remaining;
        }
        else if (j.decodeAfter)
        {
            decode.push_back({j.context, j.left});
        }
    }

    /// A job's first iteration starts at t.
    void Start(const ReplayJob& j, Time t)
    {
        if (j.forecast != SIZE_MAX && j.done == 0)
        {
            (*out)[j.forecast].start = t;
        }
    }

    /// An iteration's prefill jobs, their chunks counted in done, at its end t: those done
    /// finish, the rest go back to their queues' fronts in their order, as EndMixed does.
    void WindUp(const std::vector<ReplayJob>& prefills, Time t)
    {
        std::vector<ReplayJob> unfinished;
        for (const ReplayJob& j : prefills)
        {
            if (j.done < j.tokens)
            {
                unfinished.push_back(j);
            }
            else
            {
                Finish(j, t);
            }
        }
        for (auto it = unfinished.rbegin(); it != unfinished.rend(); ++it)
        {
            (it->urgent ? urgent : normal).push_front(*it);
        }
    }

    /// The decoders of an iteration emit a token each and go to the back, as
    /// EmitDecodedTokens does; the last token's session leaves.
    void Emit(const std::vector<ReplayDecoder>& decoders)
    {
        for (ReplayDecoder d : decoders)
        {
            if (d.left > 1)
            {
                decode.push_back({d.context + 1, d.left - 1});
            }
        }
    }
};

} // namespace

LlmEngine::IterationMode
LlmEngine::GetIterationMode() const
{
    return m_iterationMode;
}

std::vector<LlmEngine::PrefillForecast>
LlmEngine::ForecastPrefills(const std::vector<uint64_t>& jobs,
                            Time from,
                            const std::vector<uint64_t>& replacing)
{
    const Time now = Simulator::Now();
    NS_ABORT_MSG_IF(from < now,
                    "ns3::LlmEngine::ForecastPrefills: from = "
                        << from.GetTimeStep() << " ns is invalid; allowed: a time >= now ("
                        << now.GetTimeStep() << " ns)");
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        NS_ABORT_MSG_IF(jobs[i] == 0,
                        "ns3::LlmEngine::ForecastPrefills: jobs[" << i
                                                                  << "] = 0 is invalid; allowed: "
                                                                     "an integer >= 1");
    }
    std::vector<PrefillForecast> out(jobs.size(), PrefillForecast{Time::Max(), Time::Max()});
    if (jobs.empty())
    {
        return out;
    }
    const LlmComputeModel& model = Model();
    Replay r;
    r.out = &out;
    r.remaining = jobs.size();

    auto own = [this](uint64_t imsi) {
        const Session& s = m_sessions.at(imsi);
        ReplayJob j;
        j.forecast = SIZE_MAX;
        j.tokens = s.prefillTokens;
        j.done = s.prefillDone;
        j.from = s.prefillFrom;
        j.urgent = s.prefillUrgent;
        j.decodeAfter = s.decodeWanted && s.nextTokenIndex < s.endTokenIndex;
        j.context = s.contextTokens;
        j.left = s.endTokenIndex - std::min(s.endTokenIndex, s.nextTokenIndex);
        return j;
    };
    auto decoder = [](const Session& s) {
        return ReplayDecoder{s.contextTokens, s.endTokenIndex - s.nextTokenIndex};
    };
    auto replaced = [&replacing](uint64_t imsi, const Session& s) {
        return s.prefillDone == 0 &&
               std::find(replacing.begin(), replacing.end(), imsi) != replacing.end();
    };
    for (auto [queue, into] :
         {std::make_pair(&m_urgentPrefills, &r.urgent), std::make_pair(&m_prefills, &r.normal)})
    {
        for (uint64_t imsi : *queue)
        {
            if (!replaced(imsi, m_sessions.at(imsi)))
            {
                into->push_back(own(imsi));
            }
        }
    }
    for (uint64_t imsi : m_decodeQueue)
    {
        r.decode.push_back(decoder(m_sessions.at(imsi)));
    }

    Time t = now;
    if (m_busy)
    {
        // The running iteration ends as planned: its decoders first, then its prefills, as
        // EndDecode, EndPrefill and EndMixed wind it up.
        t = GetIterationEnd();
        std::vector<ReplayDecoder> decoders;
        std::vector<ReplayJob> prefills;
        for (uint64_t imsi : m_batch)
        {
            auto it = m_sessions.find(imsi);
            if (it == m_sessions.end())
            {
                continue;
            }
            const Session& s = it->second;
            if (s.phase == Phase::DECODING)
            {
                decoders.push_back(decoder(s));
            }
            else if (s.phase == Phase::PREFILLING)
            {
                ReplayJob j = own(imsi);
                j.done = m_iterationMode == IterationMode::MIXED ? s.prefillDone + s.chunkTokens
                                                                 : s.prefillTokens;
                prefills.push_back(j);
            }
        }
        r.Emit(decoders);
        r.WindUp(prefills, t);
    }

    bool submitted = false;
    auto submit = [&]() {
        for (std::size_t i = 0; i < jobs.size(); ++i)
        {
            ReplayJob j;
            j.forecast = i;
            j.tokens = jobs[i];
            j.from = GetPrefillBoundary(from);
            r.urgent.push_back(j);
        }
        submitted = true;
    };
    // The decode step of the decode queue's front, as PlanDecodeStep plans it.
    auto planDecode = [&](std::size_t& n) {
        n = std::min<std::size_t>(r.decode.size(), m_maxBatchSequences);
        uint64_t context = 0;
        for (std::size_t i = 0; i < n; ++i)
        {
            context = SaturatingAdd(context, r.decode[i].context);
        }
        return Seconds(m_loadFactor * model.DecodeStepTime(n, context));
    };
    auto takeDecoders = [&r](std::size_t n) {
        std::vector<ReplayDecoder> taken(r.decode.begin(), r.decode.begin() + n);
        r.decode.erase(r.decode.begin(), r.decode.begin() + n);
        return taken;
    };

    for (uint32_t iteration = 0; iteration < MAX_REPLAYED_ITERATIONS && r.remaining > 0;
         ++iteration)
    {
        if (!submitted && from <= t)
        {
            submit();
        }
        Time wait = Time::Max(); // when the GPU would look again, idle until then
        if (m_iterationMode == IterationMode::MIXED)
        {
            bool prefillNow = false;
            Time nextStart = Time::Max();
            for (const std::deque<ReplayJob>* queue : {&r.urgent, &r.normal})
            {
                if (queue->empty())
                {
                    continue;
                }
                const ReplayJob& front = queue->front();
                if (front.done > 0 || front.from <= t)
                {
                    prefillNow = true;
                }
                else
                {
                    nextStart = std::min(nextStart, front.from);
                }
            }
            std::size_t n = 0;
            const double decodeS = r.decode.empty() ? 0 : planDecode(n).GetSeconds();
            const bool decodeFits = n > 0 && t + Seconds(decodeS) <= nextStart;
            if (prefillNow || decodeFits)
            {
                const std::vector<ReplayDecoder> decoders = takeDecoders(n);
                uint64_t budget = m_chunkTokens > n ? m_chunkTokens - n : 0;
                uint64_t seats = m_maxBatchSequences - n;
                // Chunks of each queue, as PlanChunks takes them.
                std::vector<ReplayJob> chunks;
                double prefillS = 0;
                for (std::deque<ReplayJob>* queue : {&r.urgent, &r.normal})
                {
                    double seconds = 0;
                    std::size_t taken = 0;
                    for (ReplayJob& j : *queue)
                    {
                        if (budget == 0 || seats == 0 || (j.done == 0 && j.from > t))
                        {
                            break;
                        }
                        j.chunk = std::min(j.tokens - j.done, budget);
                        seconds += model.PrefillTime(j.done + j.chunk) - model.PrefillTime(j.done);
                        budget -= j.chunk;
                        --seats;
                        r.Start(j, t);
                        chunks.push_back(j);
                        ++taken;
                    }
                    queue->erase(queue->begin(), queue->begin() + taken);
                    prefillS += m_loadFactor * seconds;
                }
                t += Seconds(decodeS + prefillS);
                r.Emit(decoders);
                for (ReplayJob& j : chunks)
                {
                    j.done += j.chunk;
                    j.chunk = 0;
                }
                r.WindUp(chunks, t);
                continue;
            }
            wait = nextStart;
        }
        else if (!r.urgent.empty() || !r.normal.empty())
        {
            const Time boundary = GetPrefillBoundary(t);
            if (boundary == t)
            {
                // Whole jobs of one queue in one batch, as StartPrefill forms it.
                std::deque<ReplayJob>& queue = r.urgent.empty() ? r.normal : r.urgent;
                const std::size_t n = std::min<std::size_t>(queue.size(), m_maxBatchSequences);
                std::vector<uint64_t> lengths;
                for (std::size_t i = 0; i < n; ++i)
                {
                    lengths.push_back(queue[i].tokens);
                    r.Start(queue[i], t);
                }
                const std::vector<ReplayJob> batch(queue.begin(), queue.begin() + n);
                queue.erase(queue.begin(), queue.begin() + n);
                t += Seconds(m_loadFactor *
                             model.BatchPrefillTime(PrefillBatch::FromLengths(lengths)));
                for (const ReplayJob& j : batch)
                {
                    r.Finish(j, t);
                }
                continue;
            }
            std::size_t n = 0;
            const Time step = r.decode.empty() ? Time::Max() : planDecode(n);
            if (n > 0 && t + step <= boundary)
            {
                const std::vector<ReplayDecoder> decoders = takeDecoders(n);
                t += step;
                r.Emit(decoders);
                continue;
            }
            wait = boundary;
        }
        else if (!r.decode.empty())
        {
            std::size_t n = 0;
            const Time step = planDecode(n);
            const std::vector<ReplayDecoder> decoders = takeDecoders(n);
            t += step;
            r.Emit(decoders);
            continue;
        }
        // Nothing to run now: the GPU waits for a boundary, or for the jobs to be submitted,
        // which wakes it at once.
        if (!submitted && from < wait)
        {
            t = from;
        }
        else if (wait != Time::Max())
        {
            t = wait;
        }
        else
        {
            break; // cannot happen once the jobs are in: they are work
        }
    }
    for (PrefillForecast& f : out)
    {
        if (f.end == Time::Max())
        {
            f.start = Time::Max();
        }
    }
    NS_LOG_LOGIC(
        "forecast of " << jobs.size() << " prefills from " << from.As(Time::S)
                       << ": the last ends at "
                       << (out.back().end == Time::Max() ? -1 : out.back().end.GetSeconds())
                       << " s");
    return out;
}

} // namespace ns3
