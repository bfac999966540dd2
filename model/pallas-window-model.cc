/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pallas-window-model.h"

#include "input-checks.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

namespace
{

/// A ratio T_limit / Delta T this close to an integer, relative to it, is that integer: 0.3 /
/// 0.1 is 2.9999999999999996 in double precision, and the point 0.3 must not be lost to it.
constexpr double GRID_ROUNDING = 1e-9;

void
CheckInput(const PallasWindowInput& in)
{
    edgellm::RequireNonNegative("radioInterruptionS (T_0, s)", in.radioInterruptionS);
    edgellm::RequireNonNegative("loadS (T_load, s)", in.loadS);
    edgellm::RequirePositive("prefillTokensPerSecond (r_p, tokens/s)", in.prefillTokensPerSecond);
    edgellm::RequirePositive("decodeTokensPerSecond (r_d, tokens/s)", in.decodeTokensPerSecond);
    edgellm::RequirePositive("kvBytesPerToken (s_KV, bytes/token)", in.kvBytesPerToken);
    edgellm::RequirePositive("backhaulBps (B, bit/s)", in.backhaulBps);
    if (!(in.alpha >= 0.0 && in.alpha <= 1.0))
    {
        edgellm::ThrowInvalid("alpha", edgellm::FormatValue(in.alpha), "a weight in [0, 1]");
    }
    edgellm::RequirePositive("gridStepS (Delta T, s)", in.gridStepS);
    edgellm::RequireNonNegative("windowLimitS (T_limit, s)", in.windowLimitS);
    edgellm::RequireNonNegative("historyBytes (S_0, bytes)", in.historyBytes);
}

/// K, the last grid index; throws when the grid has more than MAX_GRID_POINTS points.
uint64_t
LastStep(const PallasWindowInput& in)
{
    const double ratio = in.windowLimitS / in.gridStepS;
    const auto tooFine = [&in](const std::string& points) {
        edgellm::ThrowInvalid(
            "gridStepS (Delta T, s)",
            edgellm::FormatValue(in.gridStepS) + " with windowLimitS (T_limit, s) = " +
                edgellm::FormatValue(in.windowLimitS) + " (" + points + " grid points)",
            "at most " + std::to_string(PallasWindowModel::MAX_GRID_POINTS) +
                " grid points: a larger Delta T or a smaller T_limit");
    };
    // Compared as doubles first, since the ratio may not fit an integer.
    if (!(ratio < static_cast<double>(PallasWindowModel::MAX_GRID_POINTS)))
    {
        tooFine(edgellm::FormatValue(std::floor(ratio) + 1.0));
    }
    const double nearest = std::round(ratio);
    const auto last = static_cast<uint64_t>(
        std::abs(ratio - nearest) <= GRID_ROUNDING * std::max(1.0, nearest) ? nearest
                                                                            : std::floor(ratio));
    if (last + 1 > PallasWindowModel::MAX_GRID_POINTS)
    {
        tooFine(std::to_string(last + 1));
    }
    return last;
}

} // namespace

std::string
ToString(PallasSitRegime regime)
{
    switch (regime)
    {
    case PallasSitRegime::FLOOR:
        return "floor";
    case PallasSitRegime::PREFIX:
        return "prefix";
    case PallasSitRegime::STREAM:
        return "stream";
    }
    return "unknown";
}

PallasWindowModel::PallasWindowModel(PallasWindowInput input)
    : m_input(input)
{
    CheckInput(m_input);
    m_historyS =
        m_input.loadS + static_cast<double>(m_input.prefixTokens) / m_input.prefillTokensPerSecond;
    m_lastStep = LastStep(m_input);
}

const PallasWindowInput&
PallasWindowModel::GetInput() const
{
    return m_input;
}

double
PallasWindowModel::CheckWindow(double windowS)
{
    return edgellm::RequireNonNegative("windowS (T_w, s)", windowS);
}

double
PallasWindowModel::HistoryTime() const
{
    return m_historyS;
}

double
PallasWindowModel::IncrementBytes(double windowS) const
{
    return m_input.decodeTokensPerSecond * CheckWindow(windowS) * m_input.kvBytesPerToken;
}

double
PallasWindowModel::ResidualTime(double windowS) const
{
    // Streamed, the bytes cross during the window and only what the window could not carry
    // is left at the handover; held back, all of them cross after it.
    const double carried = m_input.streaming ? windowS : 0.0;
    return std::max(0.0,
                    8.0 * (m_input.historyBytes + IncrementBytes(windowS)) / m_input.backhaulBps -
                        carried);
}

double
PallasWindowModel::Sit(double windowS) const
{
    return m_input.radioInterruptionS +
           std::max({0.0, m_historyS - CheckWindow(windowS), ResidualTime(windowS)});
}

double
PallasWindowModel::EarlyTime(double windowS) const
{
    return std::max(0.0, CheckWindow(windowS) - m_historyS);
}

double
PallasWindowModel::Cost(double windowS) const
{
    return m_input.alpha * Sit(windowS) + (1.0 - m_input.alpha) * EarlyTime(windowS);
}

PallasSitRegime
PallasWindowModel::Regime(double windowS) const
{
    const double prefix = m_historyS - CheckWindow(windowS);
    const double stream = ResidualTime(windowS);
    if (prefix <= 0.0 && stream <= 0.0)
    {
        return PallasSitRegime::FLOOR;
    }
    return prefix >= stream ? PallasSitRegime::PREFIX : PallasSitRegime::STREAM;
}

PallasWindowChoice
PallasWindowModel::Choose() const
{
    PallasWindowChoice best;
    best.cost = Cost(0.0);
    for (uint64_t k = 1; k <= m_lastStep; ++k)
    {
        // Rounding the ratio to an integer may put K Delta T a hair past T_limit.
        const double window =
            std::min(static_cast<double>(k) * m_input.gridStepS, m_input.windowLimitS);
        const double cost = Cost(window);
        if (cost < best.cost)
        {
            best.cost = cost;
            best.windowS = window;
        }
    }
    best.sitS = Sit(best.windowS);
    best.earlyS = EarlyTime(best.windowS);
    best.gridPoints = m_lastStep + 1;
    return best;
}

double
PallasWindowLimit(double maxWindowS, double remainingS)
{
    return std::min(edgellm::RequireNonNegative("maxWindowS (T_max, s)", maxWindowS),
                    edgellm::RequireNonNegative("remainingS (T_remain, s)", remainingS));
}

} // namespace ns3
