/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "token-timing-stats.h"

#include "input-checks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace ns3
{
namespace edgellm
{

namespace
{

constexpr double NS = 1e-9;

/// The nearest-rank percentile of samples, reordering them; several calls on the same vector
/// stay correct, since nth_element needs no particular order on entry.
template <typename T>
T
SelectInPlace(std::vector<T>& samples, double p)
{
    const std::size_t rank = NearestRank(samples.size(), p);
    auto nth = samples.begin() + static_cast<std::ptrdiff_t>(rank - 1);
    std::nth_element(samples.begin(), nth, samples.end());
    return *nth;
}

void
RequireNonDecreasing(int64_t startNs, const std::vector<int64_t>& deliveryNs)
{
    for (std::size_t i = 0; i < deliveryNs.size(); ++i)
    {
        const int64_t floor = i == 0 ? startNs : deliveryNs[i - 1];
        if (deliveryNs[i] < floor)
        {
            ThrowInvalid("deliveryNs[" + std::to_string(i) + "]",
                         std::to_string(deliveryNs[i]),
                         i == 0 ? ">= startNs = " + std::to_string(startNs)
                                : ">= deliveryNs[" + std::to_string(i - 1) +
                                      "] = " + std::to_string(floor));
        }
    }
}

} // namespace

std::size_t
NearestRank(std::size_t n, double p)
{
    if (n == 0)
    {
        ThrowInvalid("samples", "empty", "at least one sample");
    }
    if (!(std::isfinite(p) && p > 0.0 && p <= 100.0))
    {
        ThrowInvalid("p", FormatValue(p), "(0, 100]");
    }
    long double r = static_cast<long double>(p) * static_cast<long double>(n) / 100.0L;
    const long double nearest = std::round(r);
    if (std::fabs(r - nearest) <= 1e-9L * std::max(1.0L, r))
    {
        r = nearest;
    }
    const auto rank = static_cast<std::size_t>(std::ceil(r));
    return std::clamp<std::size_t>(rank, 1, n);
}

double
NearestRankPercentile(std::vector<double> samples, double p)
{
    for (std::size_t i = 0; i < samples.size(); ++i)
    {
        if (std::isnan(samples[i]))
        {
            ThrowInvalid("samples[" + std::to_string(i) + "]", "NaN", "a number");
        }
    }
    return SelectInPlace(samples, p);
}

int64_t
NearestRankPercentile(std::vector<int64_t> samples, double p)
{
    return SelectInPlace(samples, p);
}

std::vector<int64_t>
ItlSamplesNs(const std::vector<int64_t>& deliveryNs)
{
    if (!deliveryNs.empty())
    {
        RequireNonDecreasing(deliveryNs.front(), deliveryNs);
    }
    std::vector<int64_t> itl;
    itl.reserve(deliveryNs.empty() ? 0 : deliveryNs.size() - 1);
    for (std::size_t i = 1; i < deliveryNs.size(); ++i)
    {
        itl.push_back(deliveryNs[i] - deliveryNs[i - 1]);
    }
    return itl;
}

TokenTimingSummary
SummarizeTokenTiming(int64_t startNs,
                     const std::vector<int64_t>& deliveryNs,
                     const std::vector<HandoverMark>& handoverMarks)
{
    if (deliveryNs.empty())
    {
        ThrowInvalid("deliveryNs", "empty", "at least one delivered token");
    }
    if (deliveryNs.size() > std::numeric_limits<uint32_t>::max())
    {
        ThrowInvalid("deliveryNs.size()",
                     std::to_string(deliveryNs.size()),
                     "<= " + std::to_string(std::numeric_limits<uint32_t>::max()));
    }
    RequireNonDecreasing(startNs, deliveryNs);

    TokenTimingSummary s;
    s.tokens = static_cast<uint32_t>(deliveryNs.size());
    s.ttftS = (deliveryNs.front() - startNs) * NS;
    s.totalS = (deliveryNs.back() - startNs) * NS;
    s.itlCount = s.tokens - 1;
    if (s.itlCount == 0)
    {
        s.itlMeanS = s.itlP50S = s.itlP90S = s.itlP99S = std::numeric_limits<double>::quiet_NaN();
    }
    else
    {
        // The gaps telescope: their sum is last minus first, exact in ns.
        s.itlMeanS = static_cast<double>(deliveryNs.back() - deliveryNs.front()) /
                     static_cast<double>(s.itlCount) * NS;
        std::vector<int64_t> itl = ItlSamplesNs(deliveryNs);
        s.itlP50S = SelectInPlace(itl, 50) * NS;
        s.itlP90S = SelectInPlace(itl, 90) * NS;
        s.itlP99S = SelectInPlace(itl, 99) * NS;
    }

    for (const HandoverMark& mark : handoverMarks)
    {
        const uint32_t k = mark.deliveredBefore;
        if (k > s.tokens)
        {
            ThrowInvalid("handoverMarks[].deliveredBefore",
                         std::to_string(k),
                         "<= the tokens delivered, " + std::to_string(s.tokens));
        }
        // The marked token may come after the mark (the mark's copy, or a resend, delivers
        // it), but it was generated before the handover: the user waits on for the next one.
        const uint64_t end = mark.EndIndex();
        if (end >= s.tokens)
        {
            ++s.marksWithoutNext;
            continue;
        }
        const int64_t before = k == 0 ? startNs : deliveryNs[k - 1];
        s.sit.push_back({mark.markedIndex, (deliveryNs[end] - before) * NS});
    }
    return s;
}

} // namespace edgellm
} // namespace ns3
