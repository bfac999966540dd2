/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TOKEN_REORDER_BUFFER_H
#define TOKEN_REORDER_BUFFER_H

#include "token-range.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A token handed to the application: in index order, exactly once.
 */
struct DeliveredToken
{
    uint32_t index{0};      //!< index of the token in the session
    int64_t generatedNs{0}; //!< when the server generated it, in ns
    bool resent{false};     //!< the copy delivered came in a resent packet
};

/**
 * \ingroup edge-llm
 * \brief Turns the token packets of one session, lost, duplicated and reordered as they may
 * be, into the in-order, exactly-once stream the application sees, and says which tokens to
 * ask for again.
 *
 * Tokens below GetNextExpected() have been delivered and are forgotten: a later copy is
 * counted as a duplicate and dropped. Tokens above it that arrived early are held, as runs of
 * consecutive indices with the generation time of each token, until the gap before them is
 * filled. Memory is therefore bounded by the tokens held, which is at most the distance from
 * the next expected token to the highest token received; nothing grows with the tokens
 * delivered.
 *
 * Counters: received = duplicates + delivered + held, at every moment.
 *
 * A pure model: no simulator state. Invalid input throws std::invalid_argument naming the
 * field and its allowed range.
 */
class TokenReorderBuffer
{
  public:
    /// The largest session: token indices are 32-bit on the wire.
    static constexpr uint32_t MAX_TOTAL_TOKENS = std::numeric_limits<uint32_t>::max();

    /**
     * \param totalTokens tokens the session will generate, [1, MAX_TOTAL_TOKENS]; indices
     *        run from 0 to totalTokens - 1
     */
    explicit TokenReorderBuffer(uint32_t totalTokens);

    /**
     * \brief Take the tokens of one packet.
     *
     * \param firstIndex index of the first token of the packet
     * \param generatedNs generation time of each token, in index order; its size is the
     *        token count, [1, ...], and firstIndex + count must be <= totalTokens
     * \param resent true if the packet is a resend
     * \return the tokens that this packet makes deliverable, in index order (possibly
     *         including held tokens released by it; empty if it fills no gap at the front)
     */
    std::vector<DeliveredToken> Receive(uint32_t firstIndex,
                                        const std::vector<int64_t>& generatedNs,
                                        bool resent = false);

    /**
     * \brief The gaps below the highest token received, lowest first: what a NACK asks for.
     * \param maxRanges at most this many ranges are returned (the lowest ones)
     * \return the missing ranges, ascending, disjoint and never adjacent
     */
    std::vector<TokenRange> MissingRanges(
        std::size_t maxRanges = std::numeric_limits<std::size_t>::max()) const;

    /**
     * \brief The tokens above the highest received, up to the end of the session.
     *
     * They may simply not be generated yet; a client asks for them only after a silence
     * (for example when the packets after a handover were all lost).
     *
     * \return the range; empty if every token up to the last one has been received
     */
    TokenRange UnreceivedTail() const;

    /// \return true if every token of the session has been delivered
    bool IsComplete() const;
    /// \return the session's number of tokens
    uint32_t GetTotalTokens() const;
    /// \return the index of the next token to deliver: every token below it was delivered
    uint32_t GetNextExpected() const;
    /// \return tokens received, duplicates included
    uint64_t GetReceivedCount() const;
    /// \return tokens received and dropped because they were delivered or held already
    uint64_t GetDuplicateCount() const;
    /// \return tokens delivered
    uint64_t GetDeliveredCount() const;
    /// \return tokens delivered from a resent packet
    uint64_t GetDeliveredByResendCount() const;
    /// \return tokens held, waiting for a gap before them to be filled
    uint64_t GetHeldCount() const;
    /// \return runs of consecutive tokens held
    std::size_t GetHeldRunCount() const;

  private:
    /// Consecutive tokens held, all from packets with the same resent flag.
    struct Run
    {
        std::vector<int64_t> generatedNs; //!< generation time of each token
        bool resent;                      //!< came in a resent packet
    };

    /// Hold the new tokens [first, first + generatedNs.size()), merging with neighbour runs.
    /// \param first index of the first token
    /// \param generatedNs their generation times
    /// \param resent they came in a resent packet
    void Hold(uint64_t first, std::vector<int64_t> generatedNs, bool resent);

    /// Append to out the held runs that now continue the delivered tokens, and release them.
    void DeliverHeld(std::vector<DeliveredToken>& out);

    uint32_t m_total;                //!< tokens in the session
    uint64_t m_next{0};              //!< next index to deliver
    std::map<uint64_t, Run> m_held;  //!< runs held, by first index
    uint64_t m_received{0};          //!< tokens received
    uint64_t m_duplicates{0};        //!< tokens dropped as duplicates
    uint64_t m_deliveredByResend{0}; //!< tokens delivered from resent packets
    uint64_t m_heldCount{0};         //!< tokens held
};

} // namespace ns3

#endif /* TOKEN_REORDER_BUFFER_H */
