/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Preemption by recompute: a session waiting for memory takes it from decoding sessions, which
// wait in turn and re-prefill their context when they are admitted again.

#include "llm-engine.h"

#include "ns3/log.h"

#include <algorithm>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LlmEngineEvict");

uint32_t
LlmEngine::EvictFor(uint64_t imsi)
{
    NS_LOG_FUNCTION(this << imsi);
    auto in = m_sessions.find(imsi);
    if (in == m_sessions.end() || in->second.phase != Phase::WAITING_ADMISSION)
    {
        NS_FATAL_ERROR("ns3::LlmEngine::EvictFor: imsi = "
                       << imsi << " is invalid; allowed: a session waiting for admission");
    }
    const uint64_t need = in->second.reservedTokens;
    if (m_kvTokensInUse + need <= m_kvCapacityTokens)
    {
        return 0; // it fits already; only the FIFO order holds it back
    }
    // Only sessions that decode give their memory: one held for a transfer or a prefill in
    // flight would lose work that another cell or the GPU is doing for it. The latest
    // admitted go first (as vLLM preempts), so the oldest sessions keep their progress.
    std::vector<std::pair<uint64_t, uint64_t>> candidates; // (admission order, imsi)
    for (const auto& [other, s] : m_sessions)
    {
        if (other != imsi && s.decodeWanted && s.prefillTokens == 0 &&
            (s.phase == Phase::DECODE_READY || s.phase == Phase::DECODING))
        {
            candidates.emplace_back(s.admissionOrder, other);
        }
    }
    std::sort(candidates.rbegin(), candidates.rend());
    uint64_t free = m_kvCapacityTokens - m_kvTokensInUse;
    std::size_t victims = 0;
    while (free < need && victims < candidates.size())
    {
        free += m_sessions.at(candidates[victims].second).reservedTokens;
        ++victims;
    }
    if (free < need)
    {
        NS_LOG_INFO("imsi " << imsi << ": evicting every decoding session frees " << free << " of "
                            << need << " KV tokens; it keeps waiting");
        return 0;
    }
    // Victims wait at the front of the admission queue, the earliest admitted first, so that
    // they are the next to get memory back.
    for (std::size_t v = victims; v-- > 0;)
    {
        const uint64_t victim = candidates[v].second;
        Session& s = m_sessions.at(victim);
        Unqueue(victim, s);
        // A decode step in flight skips it: the token it was computing is computed again.
        s.phase = Phase::WAITING_ADMISSION;
        s.prefillTokens = s.contextTokens;
        s.prefillDone = 0;
        s.chunkTokens = 0;
        s.prefillUrgent = false;
        m_admissionQueue.push_front(victim);
        m_kvTokensInUse = m_kvTokensInUse - s.reservedTokens;
        ++m_evictions;
        NS_LOG_INFO("imsi " << victim << " evicted for imsi " << imsi << ": " << s.reservedTokens
                            << " KV tokens freed, " << s.contextTokens << " to re-prefill");
    }
    Session& s = in->second;
    m_admissionQueue.erase(std::remove(m_admissionQueue.begin(), m_admissionQueue.end(), imsi),
                           m_admissionQueue.end());
    OnAdmitted(imsi, s);
    // Traces last: their sinks may call back into the engine.
    for (std::size_t v = 0; v < victims; ++v)
    {
        const uint64_t victim = candidates[v].second;
        auto it = m_sessions.find(victim);
        if (it != m_sessions.end())
        {
            m_evictedTrace(victim, it->second.contextTokens, imsi);
        }
    }
    if (!m_busy)
    {
        Schedule();
    }
    return static_cast<uint32_t>(victims);
}

uint64_t
LlmEngine::GetEvictions() const
{
    return m_evictions;
}

} // namespace ns3
