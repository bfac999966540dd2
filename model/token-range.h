/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TOKEN_RANGE_H
#define TOKEN_RANGE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A run of consecutive token indices of one session: [first, first + count).
 *
 * Used for the gaps a client asks the server to resend. Token indices are 32-bit on the wire;
 * the end is computed in 64 bits so that a range ending at the last index cannot overflow.
 */
struct TokenRange
{
    uint32_t first{0}; //!< index of the first token
    uint32_t count{0}; //!< number of tokens

    /// \return one past the last index, in 64 bits
    uint64_t End() const
    {
        return static_cast<uint64_t>(first) + count;
    }

    /**
     * \param other the range to compare with
     * \return true if both ranges hold the same tokens
     */
    bool operator==(const TokenRange& other) const
    {
        return first == other.first && count == other.count;
    }
};

} // namespace ns3

#endif /* TOKEN_RANGE_H */
