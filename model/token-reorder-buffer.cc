/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "token-reorder-buffer.h"

#include "input-checks.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace ns3
{

TokenReorderBuffer::TokenReorderBuffer(uint32_t totalTokens)
    : m_total(totalTokens)
{
    if (totalTokens == 0)
    {
        edgellm::ThrowInvalid("totalTokens", "0", "[1, " + std::to_string(MAX_TOTAL_TOKENS) + "]");
    }
}

std::vector<DeliveredToken>
TokenReorderBuffer::Receive(uint32_t firstIndex,
                            const std::vector<int64_t>& generatedNs,
                            bool resent)
{
    if (generatedNs.empty())
    {
        edgellm::ThrowInvalid("count", "0", ">= 1");
    }
    const uint64_t end = static_cast<uint64_t>(firstIndex) + generatedNs.size();
    if (end > m_total)
    {
        edgellm::ThrowInvalid("firstIndex + count",
                              std::to_string(end),
                              "<= totalTokens = " + std::to_string(m_total));
    }
    m_received += generatedNs.size();

    if (firstIndex == m_next && (m_held.empty() || m_held.begin()->first >= end))
    {
        // In order, and overlapping nothing held: the common case needs no holding.
        std::vector<DeliveredToken> out;
        out.reserve(generatedNs.size());
        for (int64_t t : generatedNs)
        {
            out.push_back({static_cast<uint32_t>(m_next++), t, resent});
        }
        if (resent)
        {
            m_deliveredByResend += generatedNs.size();
        }
        DeliverHeld(out);
        return out;
    }

    // Everything below m_next was delivered: duplicates.
    uint64_t cursor = std::min(std::max<uint64_t>(firstIndex, m_next), end);
    m_duplicates += cursor - firstIndex;

    // Split [cursor, end) into the parts no held run covers (new) and the rest (duplicates).
    std::vector<TokenRange> fresh;
    auto it = m_held.upper_bound(cursor);
    if (it != m_held.begin())
    {
        --it;
    }
    for (; it != m_held.end() && it->first < end && cursor < end; ++it)
    {
        const uint64_t runFirst = it->first;
        const uint64_t runEnd = runFirst + it->second.generatedNs.size();
        if (runEnd <= cursor)
        {
            continue;
        }
        if (runFirst > cursor)
        {
            fresh.push_back({cursor, std::min(runFirst, end)});
            cursor = std::min(runFirst, end);
        }
        const uint64_t covered = std::min(runEnd, end);
        m_duplicates += covered - cursor;
        cursor = covered;
    }
    if (cursor < end)
    {
        fresh.push_back({cursor, end});
    }
    for (const TokenRange& r : fresh)
    {
        Hold(r.first,
             std::vector<int64_t>(generatedNs.begin() + (r.first - firstIndex),
                                  generatedNs.begin() + (r.end - firstIndex)),
             resent);
    }

    std::vector<DeliveredToken> out;
    DeliverHeld(out);
    return out;
}

void
TokenReorderBuffer::DeliverHeld(std::vector<DeliveredToken>& out)
{
    while (!m_held.empty() && m_held.begin()->first == m_next)
    {
        Run run = std::move(m_held.begin()->second);
        m_held.erase(m_held.begin());
        for (int64_t t : run.generatedNs)
        {
            out.push_back({static_cast<uint32_t>(m_next++), t, run.resent});
        }
        m_heldCount -= run.generatedNs.size();
        if (run.resent)
        {
            m_deliveredByResend += run.generatedNs.size();
        }
    }
}

void
TokenReorderBuffer::Hold(uint64_t first, std::vector<int64_t> generatedNs, bool resent)
{
    // Merging neighbours with the same flag keeps one run per burst of consecutive arrivals,
    // so the map stays as small as the gaps allow.
    m_heldCount += generatedNs.size();
    auto next = m_held.find(first + generatedNs.size());
    if (next != m_held.end() && next->second.resent == resent)
    {
        generatedNs.insert(generatedNs.end(),
                           next->second.generatedNs.begin(),
                           next->second.generatedNs.end());
        m_held.erase(next);
    }
    auto after = m_held.lower_bound(first);
    if (after != m_held.begin())
    {
        auto prev = std::prev(after);
        if (prev->first + prev->second.generatedNs.size() == first && prev->second.resent == resent)
        {
            prev->second.generatedNs.insert(prev->second.generatedNs.end(),
                                            generatedNs.begin(),
                                            generatedNs.end());
            return;
        }
    }
    m_held.emplace(first, Run{std::move(generatedNs), resent});
}

std::vector<TokenRange>
TokenReorderBuffer::MissingRanges(std::size_t maxRanges) const
{
    std::vector<TokenRange> gaps;
    uint64_t cursor = m_next;
    for (const auto& [first, run] : m_held)
    {
        if (gaps.size() >= maxRanges)
        {
            break;
        }
        if (first > cursor)
        {
            gaps.push_back({cursor, first});
        }
        cursor = first + run.generatedNs.size();
    }
    return gaps;
}

TokenRange
TokenReorderBuffer::UnreceivedTail() const
{
    uint64_t start = m_next;
    if (!m_held.empty())
    {
        const auto& last = *m_held.rbegin();
        start = last.first + last.second.generatedNs.size();
    }
    return {std::min<uint64_t>(start, m_total), m_total};
}

bool
TokenReorderBuffer::IsComplete() const
{
    return m_next == m_total;
}

uint32_t
TokenReorderBuffer::GetTotalTokens() const
{
    return m_total;
}

uint32_t
TokenReorderBuffer::GetNextExpected() const
{
    return static_cast<uint32_t>(m_next);
}

uint64_t
TokenReorderBuffer::GetReceivedCount() const
{
    return m_received;
}

uint64_t
TokenReorderBuffer::GetDuplicateCount() const
{
    return m_duplicates;
}

uint64_t
TokenReorderBuffer::GetDeliveredCount() const
{
    return m_next;
}

uint64_t
TokenReorderBuffer::GetDeliveredByResendCount() const
{
    return m_deliveredByResend;
}

uint64_t
TokenReorderBuffer::GetHeldCount() const
{
    return m_heldCount;
}

std::size_t
TokenReorderBuffer::GetHeldRunCount() const
{
    return m_held.size();
}

} // namespace ns3
