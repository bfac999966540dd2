/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TOKEN_RANGE_H
#define TOKEN_RANGE_H

#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A half-open run of consecutive indices of one session, [first, end): token
 * positions or, for a plan in entry units, KV entries.
 *
 * Indices are 64-bit here, so an end one past the last index never overflows; the wire
 * formats carry them in 32 bits and refuse to serialize a value that does not fit.
 *
 * Only a plan (SessionPlan) uses CONTEXT_END: it is resolved to a number at the handover
 * (HandoverScheduler::Resolve), and every other range has a finite end.
 */
struct TokenRange
{
    /// An end that stands for the context's end at the handover: a plan made on an expected
    /// context still covers every token the source ends with.
    static constexpr uint64_t CONTEXT_END = std::numeric_limits<uint64_t>::max();

    uint64_t first{0}; //!< the first index
    uint64_t end{0};   //!< one past the last index, or CONTEXT_END

    /**
     * \brief The indices the range holds.
     *
     * A range ending at CONTEXT_END holds a number not known before its plan is resolved;
     * resolve it first.
     *
     * \return end - first; 0 if end <= first
     */
    uint64_t Count() const
    {
        return end > first ? end - first : 0;
    }

    /// \return true if the range holds no index (end <= first)
    bool Empty() const
    {
        return end <= first;
    }

    /**
     * \param other the range to compare with
     * \return true if both have the same first and end
     */
    bool operator==(const TokenRange& other) const
    {
        return first == other.first && end == other.end;
    }
};

/**
 * \param ranges resolved ranges (no CONTEXT_END)
 * \return the positions or entries they hold, in all
 */
inline uint64_t
CountUnits(const std::vector<TokenRange>& ranges)
{
    uint64_t n = 0;
    for (const TokenRange& r : ranges)
    {
        n += r.Count();
    }
    return n;
}

} // namespace ns3

#endif /* TOKEN_RANGE_H */
