/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "impact-accuracy-model.h"

#include "input-checks.h"

#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace ns3
{

ImpactAccuracyParams
ImpactAccuracyParams::ImportanceOrder()
{
    return ImpactAccuracyParams{0.941, 30.0, 0.065};
}

ImpactAccuracyParams
ImpactAccuracyParams::RandomOrder()
{
    return ImpactAccuracyParams{0.941, 6.0, 0.5};
}

ImpactAccuracyParams
ImpactCurveFor(double y, bool positional, const ImpactAccuracyParams& entryOrder)
{
    if (y >= 1)
    {
        return ImpactAccuracyParams::ImportanceOrder();
    }
    return positional ? ImpactAccuracyParams::RandomOrder() : entryOrder;
}

void
ImpactAccuracyParams::Check(const std::string& prefix) const
{
    // Each test is written so that NaN fails it too.
    if (!(fullAccuracy > 0.0 && fullAccuracy <= 1.0))
    {
        edgellm::ThrowInvalid(prefix + "fullAccuracy (M)",
                              edgellm::FormatValue(fullAccuracy),
                              "an accuracy in (0, 1]");
    }
    edgellm::RequirePositive(prefix + "steepness (k)", steepness);
    if (!(inflection >= 0.0 && inflection < 1.0))
    {
        edgellm::ThrowInvalid(prefix + "inflection (y0)",
                              edgellm::FormatValue(inflection),
                              "a fraction in [0, 1)");
    }
}

ImpactAccuracyModel::ImpactAccuracyModel(ImpactAccuracyParams params)
    : m_params(params)
{
    m_params.Check();
}

const ImpactAccuracyParams&
ImpactAccuracyModel::GetParams() const
{
    return m_params;
}

double
ImpactAccuracyModel::Accuracy(double fraction) const
{
    const double u = m_params.steepness * (fraction - m_params.inflection);
    return 0.5 * m_params.fullAccuracy * (1.0 + u / std::sqrt(1.0 + u * u));
}

double
ImpactAccuracyModel::Slope(double fraction) const
{
    const double u = m_params.steepness * (fraction - m_params.inflection);
    const double w = 1.0 + u * u;
    return PeakSlope() / (w * std::sqrt(w));
}

double
ImpactAccuracyModel::Curvature(double fraction) const
{
    const double u = m_params.steepness * (fraction - m_params.inflection);
    const double w = 1.0 + u * u;
    return -3.0 * PeakSlope() * m_params.steepness * u / (w * w * std::sqrt(w));
}

double
ImpactAccuracyModel::PeakSlope() const
{
    return 0.5 * m_params.fullAccuracy * m_params.steepness;
}

double
ImpactAccuracyModel::InverseAccuracy(double accuracy) const
{
    const double w = 2.0 * accuracy / m_params.fullAccuracy - 1.0;
    if (w <= -1.0)
    {
        return -std::numeric_limits<double>::infinity();
    }
    if (w >= 1.0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return m_params.inflection + w / std::sqrt(1.0 - w * w) / m_params.steepness;
}

double
ImpactAccuracyModel::InverseSlope(double slope) const
{
    if (!(slope > 0.0))
    {
        return std::numeric_limits<double>::infinity();
    }
    const double ratio = PeakSlope() / slope;
    if (ratio <= 1.0)
    {
        return m_params.inflection;
    }
    return m_params.inflection + std::sqrt(std::cbrt(ratio * ratio) - 1.0) / m_params.steepness;
}

ImpactAccuracyEnvelope::ImpactAccuracyEnvelope(const ImpactAccuracyModel& model)
    : m_model(model)
{
    const double y0 = m_model.GetParams().inflection;
    const double a0 = m_model.Accuracy(0.0);
    if (y0 == 0.0)
    {
        // Concave from the start: the envelope is A itself.
        m_tangentPoint = 0.0;
        m_lineSlope = m_model.Slope(0.0);
        return;
    }
    const auto gap = [this, a0](double y) {
        return m_model.Accuracy(y) - a0 - y * m_model.Slope(y);
    };
    const double atOne = gap(1.0);
    if (atOne <= 0.0)
    {
        m_tangentPoint = 1.0;
        m_lineSlope = m_model.Accuracy(1.0) - a0;
        return;
    }
    std::uintmax_t iterations = 200;
    const auto bracket =
        boost::math::tools::toms748_solve(gap,
                                          y0,
                                          1.0,
                                          gap(y0),
                                          atOne,
                                          boost::math::tools::eps_tolerance<double>(50),
                                          iterations);
    // The upper end has g >= 0: the line through it lies on or above A on [0, y_t].
    m_tangentPoint = bracket.second;
    m_lineSlope = (m_model.Accuracy(m_tangentPoint) - a0) / m_tangentPoint;
}

const ImpactAccuracyModel&
ImpactAccuracyEnvelope::GetModel() const
{
    return m_model;
}

double
ImpactAccuracyEnvelope::TangentPoint() const
{
    return m_tangentPoint;
}

double
ImpactAccuracyEnvelope::Value(double fraction) const
{
    if (fraction < m_tangentPoint)
    {
        return m_model.Accuracy(0.0) + m_lineSlope * fraction;
    }
    return m_model.Accuracy(fraction);
}

double
ImpactAccuracyEnvelope::Slope(double fraction) const
{
    if (fraction < m_tangentPoint)
    {
        return m_lineSlope;
    }
    return m_model.Slope(fraction);
}

} // namespace ns3
