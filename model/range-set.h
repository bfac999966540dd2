/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_RANGE_SET_H
#define EDGE_LLM_RANGE_SET_H

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>

namespace ns3
{
namespace edgellm
{

/**
 * \brief A set of integers kept as disjoint half-open ranges [first, end).
 *
 * Adjacent ranges merge, so its size grows with the gaps, not with the integers held: a
 * transfer's received tokens take one entry however many there are.
 */
class RangeSet
{
  public:
    /**
     * \brief Add [first, end); it may touch or overlap what is held.
     * \param first first integer; an empty range (first >= end) adds nothing
     * \param end one past the last
     */
    void Add(uint64_t first, uint64_t end);

    /**
     * \param first first integer of the range
     * \param end one past its last
     * \return true if some integer of [first, end) is held (false for an empty range)
     */
    bool Overlaps(uint64_t first, uint64_t end) const;

    /**
     * \param first first integer of the range
     * \param end one past its last
     * \return true if every integer of [first, end) is held (true for an empty range)
     */
    bool Contains(uint64_t first, uint64_t end) const;

    /// \return how many integers are held
    uint64_t Count() const;

    /// \return how many disjoint ranges hold them
    std::size_t RangeCount() const;

    /// \return the ranges, first → end
    const std::map<uint64_t, uint64_t>& Ranges() const;

    /**
     * \brief Call out(a, b) for each part [a, b) of [first, end) that is not held, in order.
     * \param first first integer of the range
     * \param end one past its last
     * \param out called with each gap's first and end
     */
    template <class Out>
    void ForEachGap(uint64_t first, uint64_t end, Out out) const
    {
        uint64_t at = first;
        auto it = m_ranges.upper_bound(first);
        if (it != m_ranges.begin())
        {
            // The range that starts at or before first may cover its start.
            at = std::max(at, std::min(std::prev(it)->second, end));
        }
        for (; it != m_ranges.end() && it->first < end; ++it)
        {
            if (it->first > at)
            {
                out(at, it->first);
            }
            at = std::max(at, std::min(it->second, end));
        }
        if (at < end)
        {
            out(at, end);
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
