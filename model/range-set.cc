/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "range-set.h"

#include <algorithm>
#include <iterator>

namespace ns3
{
namespace edgellm
{

void
RangeSet::Add(TokenRange range)
{
    uint64_t first = range.first;
    uint64_t end = range.end;
    if (first >= end)
    {
        return;
    }
    // Start from the last range that begins at or before `first`, so one that reaches it
    // merges too.
    auto it = m_ranges.upper_bound(first);
    if (it != m_ranges.begin() && std::prev(it)->second >= first)
    {
        --it;
    }
    while (it != m_ranges.end() && it->first <= end)
    {
        first = std::min(first, it->first);
        end = std::max(end, it->second);
        m_count -= it->second - it->first;
        it = m_ranges.erase(it);
    }
    m_ranges.emplace(first, end);
    m_count += end - first;
}

bool
RangeSet::Overlaps(TokenRange range) const
{
    const uint64_t first = range.first;
    const uint64_t end = range.end;
    if (first >= end)
    {
        return false;
    }
    auto it = m_ranges.lower_bound(end);
    if (it == m_ranges.begin())
    {
        return false;
    }
    --it;
    return it->second > first;
}

bool
RangeSet::Contains(TokenRange range) const
{
    const uint64_t first = range.first;
    const uint64_t end = range.end;
    if (first >= end)
    {
        return true;
    }
    auto it = m_ranges.upper_bound(first);
    if (it == m_ranges.begin())
    {
        return false;
    }
    --it;
    return it->first <= first && it->second >= end;
}

uint64_t
RangeSet::Count() const
{
    return m_count;
}

std::size_t
RangeSet::RangeCount() const
{
    return m_ranges.size();
}

std::vector<TokenRange>
RangeSet::Ranges() const
{
    std::vector<TokenRange> out;
    out.reserve(m_ranges.size());
    for (const auto& [first, end] : m_ranges)
    {
        out.push_back({first, end});
    }
    return out;
}

void
RangeSet::Clear()
{
    m_ranges.clear();
    m_count = 0;
}

} // namespace edgellm
} // namespace ns3
