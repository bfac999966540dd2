/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "impact-slot-reference.h"

#include "input-checks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Slack on the slot arithmetic: a handover at a slot's start (to rounding) is in that slot.
constexpr double SLOT_EPSILON = 1e-9;

} // namespace

std::string
ImpactSlotWindowName(ImpactSlotWindow window)
{
    switch (window)
    {
    case ImpactSlotWindow::WHOLE_SLOTS:
        return "whole-slots";
    case ImpactSlotWindow::TO_DEADLINE:
        return "to-deadline";
    case ImpactSlotWindow::PRO_RATA:
        return "pro-rata";
    }
    return "unknown";
}

void
ImpactSlotReferenceInput::Check() const
{
    edgellm::RequirePositive("capacityBps (B, bit/s)", capacityBps);
    edgellm::RequirePositive("slotSeconds (Delta t, s)", slotSeconds);
    edgellm::RequirePositive("windowSeconds (T_max, s)", windowSeconds);
    accuracy.Check("accuracy.");
    for (std::size_t i = 0; i < ues.size(); ++i)
    {
        const std::string ue = "ues[" + std::to_string(i) + "].";
        edgellm::RequireNonNegative(ue + "handoverS (s)", ues[i].handoverS);
        edgellm::RequireNonNegative(ue + "cacheBits (S, bit)", ues[i].cacheBits);
        const double p = ues[i].prefixFraction;
        if (!(p >= 0 && p <= 1))
        {
            edgellm::ThrowInvalid(ue + "prefixFraction",
                                  edgellm::FormatValue(p),
                                  "a fraction in [0, 1]");
        }
    }
}

ImpactSlotReferenceResult
RunImpactSlotReference(const ImpactSlotReferenceInput& input, const ImpactSlotAllocator& allocate)
{
    input.Check();
    const std::size_t n = input.ues.size();
    const double dt = input.slotSeconds;
    // Each handover's window as a span of slots [first, end), and the part of each slot it
    // may use: whole slots, or the slot's overlap with its window ([the first slot's start or
    // tau, tau + T_max)).
    std::vector<int64_t> first(n);
    std::vector<int64_t> end(n);
    const auto windowSlots =
        static_cast<int64_t>(std::ceil(input.windowSeconds / dt - SLOT_EPSILON));
    for (std::size_t i = 0; i < n; ++i)
    {
        const double tau = input.ues[i].handoverS;
        first[i] = input.window == ImpactSlotWindow::PRO_RATA
                       ? static_cast<int64_t>(std::floor(tau / dt + SLOT_EPSILON))
                       : static_cast<int64_t>(std::ceil(tau / dt - SLOT_EPSILON));
        end[i] =
            input.window == ImpactSlotWindow::WHOLE_SLOTS
                ? first[i] + windowSlots
                : static_cast<int64_t>(std::ceil((tau + input.windowSeconds) / dt - SLOT_EPSILON));
    }
    auto share = [&](std::size_t i, int64_t k) {
        if (input.window == ImpactSlotWindow::WHOLE_SLOTS)
        {
            return 1.0;
        }
        const double from = std::max(static_cast<double>(k) * dt, input.ues[i].handoverS);
        const double to =
            std::min(static_cast<double>(k + 1) * dt, input.ues[i].handoverS + input.windowSeconds);
        return std::max(0.0, to - from) / dt;
    };

    ImpactSlotReferenceResult result;
    std::vector<double> x(n, 0.0);
    if (n > 0)
    {
        const int64_t from = *std::min_element(first.begin(), first.end());
        const int64_t to = *std::max_element(end.begin(), end.end());
        for (int64_t k = from; k < to; ++k)
        {
            std::vector<std::size_t> who;
            std::vector<ImpactSlotMember> members;
            for (std::size_t i = 0; i < n; ++i)
            {
                if (k >= first[i] && k < end[i] && input.ues[i].cacheBits > 0 && x[i] < 1 &&
                    share(i, k) > 0)
                {
                    ImpactSlotMember m;
                    m.imsi = i + 1;
                    m.cacheBits = input.ues[i].cacheBits;
                    m.sentFraction = x[i];
                    m.handoverStartS = input.ues[i].handoverS;
                    members.push_back(m);
                    who.push_back(i);
                }
            }
            if (members.empty())
            {
                // Skip the idle slots to the next window's first (a sparse run of long gaps, or
                // a tiny Delta t, is not a loop over every slot).
                int64_t next = to;
                for (std::size_t i = 0; i < n; ++i)
                {
                    const bool later = k + 1 < end[i] && x[i] < 1 && input.ues[i].cacheBits > 0;
                    next = std::min(next, first[i] > k ? first[i] : (later ? k + 1 : to));
                }
                k = next - 1;
                continue;
            }
            const std::vector<double> rates = allocate(members, input.capacityBps, dt);
            double sum = 0;
            for (double r : rates)
            {
                if (!(r >= 0))
                {
                    throw std::runtime_error("RunImpactSlotReference: the allocator gave a rate "
                                             "below 0 in slot " +
                                             std::to_string(k));
                }
                sum += r;
            }
            if (rates.size() != members.size() || sum > input.capacityBps * (1 + 1e-9))
            {
                std::ostringstream e;
                e << "RunImpactSlotReference: the allocator gave " << rates.size()
                  << " rates summing to " << sum << " bit/s for " << members.size()
                  << " members and B = " << input.capacityBps << " bit/s in slot " << k;
                throw std::runtime_error(e.str());
            }
            ++result.slots;
            for (std::size_t j = 0; j < who.size(); ++j)
            {
                const std::size_t i = who[j];
                x[i] = std::min(1.0, x[i] + rates[j] * dt * share(i, k) / input.ues[i].cacheBits);
            }
        }
    }
    double total = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        const ImpactSlotReferenceUe& ue = input.ues[i];
        const double sent = ue.cacheBits > 0 ? x[i] : 1.0;
        const double y = std::min(1.0, ue.prefixFraction + (1 - ue.prefixFraction) * sent);
        const double a =
            ImpactAccuracyModel(ImpactCurveFor(y, ue.positional, input.accuracy)).Accuracy(y);
        result.fractions.push_back(y);
        result.accuracies.push_back(a);
        total += a;
    }
    result.meanAccuracy =
        n > 0 ? total / static_cast<double>(n) : std::numeric_limits<double>::quiet_NaN();
    return result;
}

} // namespace ns3
