/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-prediction.h"

#include "input-checks.h"

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

namespace ns3
{

namespace
{

std::string
FormatVector(const Vector& v)
{
    return "(" + edgellm::FormatValue(v.x) + ", " + edgellm::FormatValue(v.y) + ", " +
           edgellm::FormatValue(v.z) + ")";
}

void
RequireFiniteVector(const std::string& field, const Vector& v)
{
    if (!(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z)))
    {
        edgellm::ThrowInvalid(field, FormatVector(v), "finite coordinates");
    }
}

void
RequireFinite(const std::string& field, double value)
{
    if (!std::isfinite(value))
    {
        edgellm::ThrowInvalid(field, edgellm::FormatValue(value), "a finite number");
    }
}

void
CheckRule(const HandoverA3Rule& rule)
{
    edgellm::RequireNonNegative("rule.hysteresisDb (H, dB)", rule.hysteresisDb);
    edgellm::RequireNonNegative("rule.timeToTriggerS (TTT, s)", rule.timeToTriggerS);
}

/// The number of sampling intervals over the horizon; throws if there are too many.
uint64_t
CheckTrajectoryInput(const TrajectoryPredictionInput& in)
{
    RequireFinite("nowS (s)", in.nowS);
    RequireFiniteVector("position (m)", in.position);
    RequireFiniteVector("velocity (m/s)", in.velocity);
    std::vector<std::string> ids;
    for (const auto& [id, where] : in.cells)
    {
        RequireFiniteVector("cells[" + std::to_string(id) + "] (m)", where);
        ids.push_back(std::to_string(id));
    }
    if (in.cells.count(in.servingCell) == 0)
    {
        edgellm::ThrowInvalid("servingCell",
                              std::to_string(in.servingCell),
                              ids.empty()
                                  ? "the id of a cell in cells, which is empty"
                                  : "the id of a cell in cells (" + edgellm::JoinNames(ids) + ")");
    }
    CheckRule(in.rule);
    edgellm::RequirePositive("pathLossExponent (n)", in.pathLossExponent);
    edgellm::RequireNonNegative("horizonS (s)", in.horizonS);
    edgellm::RequirePositive("sampleStepS (s)", in.sampleStepS);
    const double intervals = std::ceil(in.horizonS / in.sampleStepS);
    if (!(intervals + 1.0 <= static_cast<double>(MAX_TRAJECTORY_SAMPLES)))
    {
        edgellm::ThrowInvalid("sampleStepS (s)",
                              edgellm::FormatValue(in.sampleStepS) +
                                  " with horizonS (s) = " + edgellm::FormatValue(in.horizonS) +
                                  " (" + edgellm::FormatValue(intervals + 1.0) + " samples)",
                              "at most " + std::to_string(MAX_TRAJECTORY_SAMPLES) +
                                  " samples per neighbour: a larger step or a shorter horizon");
    }
    return static_cast<uint64_t>(intervals);
}

/// |a + b t - c|^2
double
SquaredDistance(const Vector& a, const Vector& b, double t, const Vector& c)
{
    const double x = a.x + b.x * t - c.x;
    const double y = a.y + b.y * t - c.y;
    const double z = a.z + b.z * t - c.z;
    return x * x + y * y + z * z;
}

void
CheckMeasurementInput(const MeasurementPredictionInput& in)
{
    CheckRule(in.rule);
    edgellm::RequirePositive("windowS (s)", in.windowS);
    if (in.minSamples < 2)
    {
        edgellm::ThrowInvalid("minSamples",
                              std::to_string(in.minSamples),
                              "an integer >= 2 (a line needs two points)");
    }
    edgellm::RequireNonNegative("horizonS (s)", in.horizonS);
    for (std::size_t i = 0; i < in.samples.size(); ++i)
    {
        const std::string name = "samples[" + std::to_string(i) + "].";
        const MeasurementSample& s = in.samples[i];
        RequireFinite(name + "timeS (s)", s.timeS);
        if (i > 0 && !(s.timeS > in.samples[i - 1].timeS))
        {
            edgellm::ThrowInvalid(name + "timeS (s)",
                                  edgellm::FormatValue(s.timeS),
                                  "a time after samples[" + std::to_string(i - 1) +
                                      "].timeS = " + edgellm::FormatValue(in.samples[i - 1].timeS));
        }
        RequireFinite(name + "servingRsrpDbm (dBm)", s.servingRsrpDbm);
        for (const auto& [id, rsrp] : s.neighbourRsrpDbm)
        {
            RequireFinite(name + "neighbourRsrpDbm[" + std::to_string(id) + "] (dBm)", rsrp);
        }
    }
}

/// Keeps the earliest prediction; of equal times, the lowest cell id, which comes first.
void
KeepEarliest(HandoverPrediction& best, uint16_t cell, double timeS)
{
    if (!best.found || timeS < best.handoverTimeS)
    {
        best = {true, cell, timeS};
    }
}

/**
 * \brief Where a condition changes sign along the extrapolated path: walking from now in
 * steps of sampleStepS, forwards (direction 1) or backwards (-1) over the horizon, the first
 * sample on the other side of 0 than now's, the change bracketed between it and the sample
 * before and refined by Boost.Math's TOMS 748 solver (a sample outside at exactly 0 is the
 * change itself).
 * \param condition the A3 condition's sign, at t s from now; > 0 inside
 * \param in the input
 * \param intervals sampling intervals of the horizon
 * \param direction 1 or -1
 * \return the change, s from now; none within the horizon
 */
template <typename Condition>
std::optional<double>
SignChange(const Condition& condition,
           const TrajectoryPredictionInput& in,
           uint64_t intervals,
           double direction)
{
    double previous = 0.0;
    double valuePrevious = condition(0.0);
    const bool insideNow = valuePrevious > 0.0;
    for (uint64_t j = 1; j <= intervals; ++j)
    {
        const double t = direction * std::min(static_cast<double>(j) * in.sampleStepS, in.horizonS);
        const double value = condition(t);
        if ((value > 0.0) != insideNow)
        {
            // The bracket, in time order: [earlier, later] with their values.
            const double outside = insideNow ? t : previous;
            const double valueOutside = insideNow ? value : valuePrevious;
            if (valueOutside == 0.0)
            {
                return outside;
            }
            const bool forwards = direction > 0;
            std::uintmax_t iterations = 100;
            const auto bracket =
                boost::math::tools::toms748_solve(condition,
                                                  forwards ? previous : t,
                                                  forwards ? t : previous,
                                                  forwards ? valuePrevious : value,
                                                  forwards ? value : valuePrevious,
                                                  boost::math::tools::eps_tolerance<double>(50),
                                                  iterations);
            return 0.5 * (bracket.first + bracket.second);
        }
        previous = t;
        valuePrevious = value;
    }
    return std::nullopt;
}

} // namespace

HandoverPrediction
PredictByTrajectory(const TrajectoryPredictionInput& in)
{
    const uint64_t intervals = CheckTrajectoryInput(in);
    const Vector& serving = in.cells.at(in.servingCell);
    const double k = std::pow(10.0, in.rule.hysteresisDb / (5.0 * in.pathLossExponent));
    const double ttt = in.rule.timeToTriggerS;
    HandoverPrediction best;
    for (const auto& [id, cell] : in.cells)
    {
        if (id == in.servingCell)
        {
            continue;
        }
        // The sign of the A3 margin, finite even at a cell's own position, where the margin
        // in dB is infinite.
        const auto condition = [&in, &serving, &neighbour = cell, k](double t) {
            return SquaredDistance(in.position, in.velocity, t, serving) -
                   k * SquaredDistance(in.position, in.velocity, t, neighbour);
        };
        // Inside now, the condition began where the path entered it backwards (a UE standing
        // still, or inside for the whole horizon back: now); else it begins ahead, if at all.
        double entry = 0.0;
        if (condition(0.0) > 0.0)
        {
            if (in.velocity.GetLength() != 0.0)
            {
                entry = SignChange(condition, in, intervals, -1.0).value_or(0.0);
            }
        }
        else if (const auto ahead = SignChange(condition, in, intervals, 1.0))
        {
            entry = *ahead;
        }
        else
        {
            continue;
        }
        const double fire = entry + ttt;
        // The condition is concave in t: holding just after the entry and again at the
        // firing time, it holds in between; failing there, it never comes back.
        if (fire > in.horizonS || (ttt > 0.0 && !(condition(fire) > 0.0)))
        {
            continue;
        }
        KeepEarliest(best, id, in.nowS + fire);
    }
    return best;
}

HandoverPrediction
PredictByMeasurements(const MeasurementPredictionInput& in)
{
    CheckMeasurementInput(in);
    HandoverPrediction best;
    if (in.samples.empty())
    {
        return best;
    }
    const double newest = in.samples.back().timeS;
    const double from = newest - in.windowS;
    const auto first =
        std::lower_bound(in.samples.begin(),
                         in.samples.end(),
                         from,
                         [](const MeasurementSample& s, double time) { return s.timeS < time; });
    // Times relative to the newest sample, so that a long run's clock does not eat the
    // precision of the fit.
    std::map<uint16_t, std::vector<std::pair<double, double>>> points;
    for (auto s = first; s != in.samples.end(); ++s)
    {
        for (const auto& [id, rsrp] : s->neighbourRsrpDbm)
        {
            points[id].emplace_back(s->timeS - newest, rsrp - s->servingRsrpDbm);
        }
    }
    const double h = in.rule.hysteresisDb;
    for (const auto& [id, line] : points)
    {
        if (line.size() < in.minSamples)
        {
            continue;
        }
        double meanT = 0.0;
        double meanY = 0.0;
        for (const auto& [t, y] : line)
        {
            meanT += t;
            meanY += y;
        }
        meanT /= static_cast<double>(line.size());
        meanY /= static_cast<double>(line.size());
        double stt = 0.0;
        double sty = 0.0;
        for (const auto& [t, y] : line)
        {
            stt += (t - meanT) * (t - meanT);
            sty += (t - meanT) * (y - meanY);
        }
        const double slope = sty / stt;
        if (!(slope > 0.0))
        {
            continue;
        }
        const double crossing = meanT + (h - meanY) / slope;
        const double fire = std::max(crossing + in.rule.timeToTriggerS, 0.0);
        if (fire > in.horizonS)
        {
            continue;
        }
        KeepEarliest(best, id, newest + fire);
    }
    return best;
}

} // namespace ns3
