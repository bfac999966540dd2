/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "impact-water-filling.h"

#include "input-checks.h"

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

namespace ns3
{

namespace
{

/// A UE of the slot with the quantities every step needs.
struct SlotUe
{
    ImpactAccuracyModel model; //!< A_i
    double bits;               //!< S_i
    double sent;               //!< x_i
    double floor;              //!< max(x_i, y0_i), the least y_i allowed
};

void
CheckInput(const ImpactWaterFillingInput& in)
{
    edgellm::RequireNonNegative("capacityBps (B, bit/s)", in.capacityBps);
    edgellm::RequirePositive("slotSeconds (Delta t, s)", in.slotSeconds);
    for (std::size_t i = 0; i < in.ues.size(); ++i)
    {
        const std::string ue = "ues[" + std::to_string(i) + "].";
        const auto& u = in.ues[i];
        edgellm::RequirePositive(ue + "cacheBits (S, bit)", u.cacheBits);
        if (!(u.sentFraction >= 0.0 && u.sentFraction <= 1.0))
        {
            edgellm::ThrowInvalid(ue + "sentFraction (x)",
                                  edgellm::FormatValue(u.sentFraction),
                                  "a fraction in [0, 1]");
        }
        u.accuracy.Check(ue + "accuracy.");
    }
}

/// y_i at the price lambda.
double
FractionAt(const SlotUe& u, double lambda, double slotSeconds)
{
    const double w = u.model.InverseSlope(lambda * u.bits / slotSeconds);
    return std::max(u.floor, std::min(w, 1.0));
}

/// sum_i S_i b_i at the price lambda, bit/s.
double
DemandAt(const std::vector<SlotUe>& ues, double lambda, double slotSeconds)
{
    double rate = 0.0;
    for (const auto& u : ues)
    {
        rate += u.bits * (FractionAt(u, lambda, slotSeconds) - u.sent) / slotSeconds;
    }
    return rate;
}

/// Equalized-Bytes: bit/s per UE, sharing B equally up to each UE's need to reach y0_i.
std::vector<double>
EqualizedBytes(const std::vector<SlotUe>& ues, double capacityBps, double slotSeconds)
{
    std::vector<double> need(ues.size(), 0.0);
    std::vector<std::size_t> short_;
    for (std::size_t i = 0; i < ues.size(); ++i)
    {
        const double y0 = ues[i].model.GetParams().inflection;
        if (ues[i].sent < y0)
        {
            need[i] = ues[i].bits * (y0 - ues[i].sent) / slotSeconds;
            short_.push_back(i);
        }
    }
    // Smallest need first: a UE capped at its need leaves the rest to those still sharing.
    std::sort(short_.begin(), short_.end(), [&need](std::size_t a, std::size_t b) {
        return need[a] < need[b];
    });
    std::vector<double> rate(ues.size(), 0.0);
    double left = capacityBps;
    for (std::size_t n = 0; n < short_.size(); ++n)
    {
        const std::size_t i = short_[n];
        const double share = left / static_cast<double>(short_.size() - n);
        rate[i] = std::min(need[i], share);
        left -= rate[i];
    }
    return rate;
}

} // namespace

std::string
ToString(ImpactWaterFillingMode mode)
{
    switch (mode)
    {
    case ImpactWaterFillingMode::WATER_FILLING:
        return "water-filling";
    case ImpactWaterFillingMode::NOT_BINDING:
        return "not-binding";
    case ImpactWaterFillingMode::EQUALIZED_BYTES:
        return "equalized-bytes";
    }
    return "unknown";
}

ImpactWaterFillingResult
SolveImpactWaterFilling(const ImpactWaterFillingInput& input)
{
    CheckInput(input);
    const double dt = input.slotSeconds;
    const double capacity = input.capacityBps;

    std::vector<SlotUe> ues;
    ues.reserve(input.ues.size());
    double minimum = 0.0;
    double everything = 0.0;
    for (const auto& u : input.ues)
    {
        SlotUe s{ImpactAccuracyModel(u.accuracy),
                 u.cacheBits,
                 u.sentFraction,
                 std::max(u.sentFraction, u.accuracy.inflection)};
        minimum += s.bits * (s.floor - s.sent) / dt;
        everything += s.bits * (1.0 - s.sent) / dt;
        ues.push_back(std::move(s));
    }

    ImpactWaterFillingResult result;
    result.minimumCapacityBps = minimum;
    std::vector<double> fraction(ues.size(), 1.0);

    if (capacity >= everything)
    {
        result.mode = ImpactWaterFillingMode::NOT_BINDING;
        result.lambda = 0.0;
    }
    else if (capacity < minimum)
    {
        result.mode = ImpactWaterFillingMode::EQUALIZED_BYTES;
        result.lambda = std::numeric_limits<double>::quiet_NaN();
        const std::vector<double> rate = EqualizedBytes(ues, capacity, dt);
        for (std::size_t i = 0; i < ues.size(); ++i)
        {
            fraction[i] = std::min(1.0, ues[i].sent + rate[i] * dt / ues[i].bits);
        }
    }
    else
    {
        result.mode = ImpactWaterFillingMode::WATER_FILLING;
        // Below lowPrice every UE that still has data goes to 1; from highPrice on every UE
        // stays at its floor. UEs already complete take no part.
        double lowPrice = std::numeric_limits<double>::infinity();
        double highPrice = 0.0;
        for (const auto& u : ues)
        {
            if (u.sent < 1.0)
            {
                lowPrice = std::min(lowPrice, dt * u.model.Slope(1.0) / u.bits);
                highPrice = std::max(highPrice, dt * u.model.Slope(u.floor) / u.bits);
            }
        }
        const auto excess = [&ues, dt, capacity](double lambda) {
            return DemandAt(ues, lambda, dt) - capacity;
        };
        // The ends are evaluated rather than taken as B_min and the demand of everyone at 1,
        // so that rounding in (A')^{-1} cannot hand the root finder two ends of one sign.
        const double atLow = excess(lowPrice);
        const double atHigh = excess(highPrice);
        double price = highPrice;
        bool atFloors = false;
        if (atLow <= 0.0)
        {
            price = lowPrice;
        }
        else if (atHigh >= 0.0)
        {
            // B = B_min: set the floors themselves, which (A')^{-1} would return only to
            // within rounding, so that a UE past its y0 at B = 0 moves no bit at all.
            atFloors = true;
        }
        else
        {
            std::uintmax_t iterations = 200;
            const auto bracket =
                boost::math::tools::toms748_solve(excess,
                                                  lowPrice,
                                                  highPrice,
                                                  atLow,
                                                  atHigh,
                                                  boost::math::tools::eps_tolerance<double>(50),
                                                  iterations);
            // The higher price of the bracket demands no more than B.
            price = bracket.second;
        }
        result.lambda = price;
        for (std::size_t i = 0; i < ues.size(); ++i)
        {
            fraction[i] = ues[i].sent >= 1.0 ? 1.0
                          : atFloors         ? ues[i].floor
                                             : FractionAt(ues[i], price, dt);
        }
    }

    result.ues.reserve(ues.size());
    for (std::size_t i = 0; i < ues.size(); ++i)
    {
        ImpactWaterFillingUeResult r;
        r.fraction = fraction[i];
        r.fractionRate = (fraction[i] - ues[i].sent) / dt;
        r.rateBps = ues[i].bits * r.fractionRate;
        result.ues.push_back(r);
    }
    return result;
}

} // namespace ns3
