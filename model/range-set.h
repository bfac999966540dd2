/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_RANGE_SET_H
#define EDGE_LLM_RANGE_SET_H

#include "token-range.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

namespace ns3
{
namespace edgellm
{

/**
 * \brief A set of integers kept as disjoint half-open ranges (TokenRange).
 *
 * Adjacent ranges merge, so its size grows with the gaps, not with the integers held: a
 * transfer's received tokens take one entry however many there are.
 */
class RangeSet
{
  public:
    /**
     * \brief Add a range; it may touch or overlap what is held.
     * \param range the range; an empty one adds nothing
     */
    void Add(TokenRange range);

    /**
     * \param range a range
     * \return true if some integer of it is held (false for an empty range)
     */
    bool Overlaps(TokenRange range) const;

    /**
     * \param range a range
     * \return true if every integer of it is held (true for an empty range)
     */
    bool Contains(TokenRange range) const;

    /// \return how many integers are held
    uint64_t Count() const;

    /// \return how many disjoint ranges hold them
    std::size_t RangeCount() const;

    /// \return the ranges held, ascending, disjoint and never adjacent
    std::vector<TokenRange> Ranges() const;

    /**
     * \brief Call out(gap) for each part of a range that is not held, in order.
     * \param range the range
     * \param out called with each gap, a TokenRange
     */
    template <class Out>
    void ForEachGap(TokenRange range, Out out) const
    {
        const uint64_t end = range.end;
        uint64_t at = range.first;
        auto it = m_ranges.upper_bound(at);
        if (it != m_ranges.begin())
        {
            // The held range that starts at or before range.first may cover its start.
            at = std::max(at, std::min(std::prev(it)->second, end));
        }
        for (; it != m_ranges.end() && it->first < end; ++it)
        {
            if (it->first > at)
            {
                out(TokenRange{at, it->first});
            }
            at = std::max(at, std::min(it->second, end));
        }
        if (at < end)
        {
            out(TokenRange{at, end});
        }
    }

    /// Forget everything.
    void Clear();

  private:
    std::map<uint64_t, uint64_t> m_ranges; //!< first → end, disjoint and not adjacent
    uint64_t m_count{0};                   //!< integers held
};

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_RANGE_SET_H */
