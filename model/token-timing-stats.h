/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TOKEN_TIMING_STATS_H
#define TOKEN_TIMING_STATS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The service interruption of one handover.
 */
struct SitSample
{
    uint32_t markedIndex{0}; //!< the token the server marked as its last before the handover
    double sitS{0};          //!< the silence around the handover, s (see HandoverMark)
};

/**
 * \ingroup edge-llm
 * \brief A handover mark as the client received it.
 *
 * The server sends the mark when a handover starts: a copy of its last generated token m, on
 * the path its next tokens take, so the mark arrives when that path works. The user waits
 * from the last in-order delivery before the mark's arrival (or the session start) until a
 * token generated after the handover began arrives: token m + 1, or, if the mark arrived
 * after m + 1 had been delivered, the first delivery after the mark. So with k tokens
 * delivered in order before the arrival, SIT = deliveryNs[max(k, m + 1)] - deliveryNs[k - 1]
 * (the session start if k = 0). Ending at m + 1 matters when the session migrates: the target
 * generates m + 1 only after its prefill or the KV cache transfer, while the mark, or a resend
 * of m that the handover lost, arrives soon and delivers nothing new from the user's point of
 * view. Counting the deliveries before the arrival, rather than taking its time, keeps this
 * exact when a delivery and the mark share a timestamp.
 */
struct HandoverMark
{
    uint32_t markedIndex{0};     //!< the token the mark came on
    uint32_t deliveredBefore{0}; //!< tokens delivered in order before the mark arrived

    /// \return the index of the delivery that ends the handover's silence: max(k, m + 1)
    uint64_t EndIndex() const
    {
        return std::max<uint64_t>(deliveredBefore, uint64_t(markedIndex) + 1);
    }
};

/**
 * \ingroup edge-llm
 * \brief Token timing of one session, as the UE's application saw it.
 *
 * TTFT is the first token's delivery minus the session start. The ITL samples are the gaps
 * between the deliveries of consecutive tokens (tokens delivered together give a gap of 0),
 * so a session of n tokens has n - 1 of them; their percentiles are nearest-rank, and exact.
 * SIT is, per handover mark, the silence from the last delivery before the mark arrived to the
 * delivery of the first token generated after the marked one (see HandoverMark).
 */
struct TokenTimingSummary
{
    uint32_t tokens{0};           //!< tokens delivered
    double ttftS{0};              //!< time to first token, s
    double totalS{0};             //!< the last token's delivery minus the session start, s
    uint32_t itlCount{0};         //!< ITL samples: tokens - 1
    double itlMeanS{0};           //!< mean ITL, s; NaN without ITL samples
    double itlP50S{0};            //!< median ITL, s; NaN without ITL samples
    double itlP90S{0};            //!< 90th percentile ITL, s; NaN without ITL samples
    double itlP99S{0};            //!< 99th percentile ITL, s; NaN without ITL samples
    std::vector<SitSample> sit;   //!< one per mark whose SIT has ended, in mark order
    uint32_t marksWithoutNext{0}; //!< marks whose SIT has not ended: the token after the
                                  //!< marked one, or any after the mark, not yet delivered
};

namespace edgellm
{

/**
 * \brief The 1-based nearest rank of percentile p among n samples: ceil(p / 100 * n).
 *
 * p / 100 * n within a relative 1e-9 of an integer counts as that integer, so that a decimal
 * p such as 99.9, which a double cannot hold exactly, gives the textbook rank.
 *
 * \param n number of samples, >= 1
 * \param p the percentile, in (0, 100]
 * \return the rank, in [1, n]
 */
std::size_t NearestRank(std::size_t n, double p);

/**
 * \brief Nearest-rank percentile: the sample of rank ceil(p / 100 * n) in ascending order.
 *
 * Always one of the samples, never an interpolation. O(n) on the copy it takes.
 *
 * \param samples the samples, not empty, no NaN
 * \param p the percentile, in (0, 100]
 * \return the percentile
 */
double NearestRankPercentile(std::vector<double> samples, double p);

/**
 * \brief Nearest-rank percentile of integer samples (for example times in ns), exact.
 * \param samples the samples, not empty
 * \param p the percentile, in (0, 100]
 * \return the percentile
 */
int64_t NearestRankPercentile(std::vector<int64_t> samples, double p);

/**
 * \brief The ITL samples of a session: deliveryNs[i] - deliveryNs[i - 1] for i >= 1.
 *
 * Kept separate from SummarizeTokenTiming so that samples of many sessions can be pooled
 * before taking percentiles.
 *
 * \param deliveryNs delivery time of each token, in index order, non-decreasing
 * \return the n - 1 gaps, in ns
 */
std::vector<int64_t> ItlSamplesNs(const std::vector<int64_t>& deliveryNs);

/**
 * \brief TTFT, ITL mean and percentiles, and SIT of one session.
 *
 * \param startNs when the session started (the request was made), ns
 * \param deliveryNs delivery time of each token in index order, ns; not empty, the first
 *        >= startNs, non-decreasing
 * \param handoverMarks the handover marks, each with deliveredBefore <= deliveryNs.size();
 *        a mark has no SIT yet while fewer than max(deliveredBefore, markedIndex + 1) + 1
 *        tokens are delivered
 * \return the summary
 */
TokenTimingSummary SummarizeTokenTiming(int64_t startNs,
                                        const std::vector<int64_t>& deliveryNs,
                                        const std::vector<HandoverMark>& handoverMarks = {});

} // namespace edgellm
} // namespace ns3

#endif /* TOKEN_TIMING_STATS_H */
