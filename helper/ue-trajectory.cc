/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ue-trajectory.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

namespace
{

bool
IsFinite(const Vector& v)
{
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

double
Dot(const Vector& u, const Vector& w)
{
    return u.x * w.x + u.y * w.y + u.z * w.z;
}

/// Changes closer than this, s, are one change (three cells meeting at a point).
constexpr double SAME_CHANGE_S = 1e-9;

} // namespace

UeTrajectory::UeTrajectory(std::vector<UeWaypoint> waypoints)
    : m_waypoints(std::move(waypoints))
{
    NS_ABORT_MSG_IF(m_waypoints.empty(), "UeTrajectory: no waypoints; give at least one");
    for (std::size_t k = 0; k < m_waypoints.size(); ++k)
    {
        const UeWaypoint& w = m_waypoints[k];
        NS_ABORT_MSG_IF(!std::isfinite(w.timeS),
                        "UeTrajectory: waypoint " << k << " has timeS " << w.timeS
                                                  << "; each must be a finite time in s");
        NS_ABORT_MSG_IF(!IsFinite(w.position),
                        "UeTrajectory: waypoint " << k << " has position " << w.position
                                                  << "; each coordinate must be finite, in m");
        if (k == 0)
        {
            continue;
        }
        const UeWaypoint& before = m_waypoints[k - 1];
        NS_ABORT_MSG_IF(w.timeS < before.timeS,
                        "UeTrajectory: waypoint " << k << " has timeS " << w.timeS << " < waypoint "
                                                  << k - 1 << "'s " << before.timeS
                                                  << "; times must be nondecreasing");
        NS_ABORT_MSG_IF(w.timeS == before.timeS && !(w.position == before.position),
                        "UeTrajectory: waypoints " << k - 1 << " and " << k << " share timeS "
                                                   << w.timeS << " but not the position ("
                                                   << before.position << " and " << w.position
                                                   << "); a UE cannot jump");
    }
}

Vector
UeTrajectory::GetPosition(double t) const
{
    NS_ABORT_MSG_IF(std::isnan(t), "UeTrajectory::GetPosition: the time is NaN");
    if (t <= m_waypoints.front().timeS)
    {
        return m_waypoints.front().position;
    }
    if (t >= m_waypoints.back().timeS)
    {
        return m_waypoints.back().position;
    }
    // The first waypoint after t; the one before it is at or before t, so the segment between
    // them has a positive duration.
    const auto next =
        std::upper_bound(m_waypoints.begin(),
                         m_waypoints.end(),
                         t,
                         [](double time, const UeWaypoint& w) { return time < w.timeS; });
    const UeWaypoint& b = *next;
    const UeWaypoint& a = *(next - 1);
    const double f = (t - a.timeS) / (b.timeS - a.timeS);
    return Vector(a.position.x + (b.position.x - a.position.x) * f,
                  a.position.y + (b.position.y - a.position.y) * f,
                  a.position.z + (b.position.z - a.position.z) * f);
}

const std::vector<UeWaypoint>&
UeTrajectory::GetWaypoints() const
{
    return m_waypoints;
}

std::vector<PlannedCrossing>
FindNearestCellChanges(const UeTrajectory& trajectory,
                       const CellLayout& layout,
                       double startS,
                       double endS)
{
    NS_ABORT_MSG_IF(!std::isfinite(startS),
                    "FindNearestCellChanges: startS is " << startS << "; it must be finite");
    NS_ABORT_MSG_IF(!std::isfinite(endS) || endS < startS,
                    "FindNearestCellChanges: endS is " << endS << "; it must be finite and >= "
                                                       << "startS (" << startS << ")");
    const std::vector<Vector> cells = layout.GetCellPositions();
    const std::vector<UeWaypoint>& waypoints = trajectory.GetWaypoints();
    std::vector<PlannedCrossing> changes;
    uint32_t current = layout.GetNearestCell(trajectory.GetPosition(startS));
    // a[i], g[i]: along a segment from p0 at t0 with velocity v, |p(t) - c_i|^2 =
    // |v|^2 (t - t0)^2 + a[i] - 2 (t - t0) g[i], with a[i] = |c_i - p0|^2 and g[i] = v.(c_i - p0).
    // The quadratic term is common to all cells, so cell i overtakes cell k, if g[i] > g[k],
    // at t0 + (a[i] - a[k]) / (2 (g[i] - g[k])).
    std::vector<double> a(cells.size());
    std::vector<double> g(cells.size());
    for (std::size_t k = 0; k + 1 < waypoints.size(); ++k)
    {
        const UeWaypoint& w0 = waypoints[k];
        const UeWaypoint& w1 = waypoints[k + 1];
        const double lo = std::max(w0.timeS, startS);
        const double hi = std::min(w1.timeS, endS);
        if (w1.timeS <= w0.timeS || lo >= hi)
        {
            continue;
        }
        const double span = w1.timeS - w0.timeS;
        const Vector v((w1.position.x - w0.position.x) / span,
                       (w1.position.y - w0.position.y) / span,
                       (w1.position.z - w0.position.z) / span);
        for (std::size_t i = 0; i < cells.size(); ++i)
        {
            const Vector d = cells[i] - w0.position;
            a[i] = Dot(d, d);
            g[i] = Dot(v, d);
        }
        double now = lo;
        while (true)
        {
            // The earliest overtaking: before it no cell is nearer than the current one, and
            // only a cell approaching faster (larger g) can overtake, so it is a real change.
            double first = std::numeric_limits<double>::infinity();
            std::vector<std::pair<double, uint32_t>> overtakes;
            for (uint32_t i = 0; i < cells.size(); ++i)
            {
                if (g[i] <= g[current])
                {
                    continue;
                }
                // A root before now is a rounding of a tie at now.
                const double t =
                    std::max(now, w0.timeS + (a[i] - a[current]) / (2 * (g[i] - g[current])));
                if (t < hi)
                {
                    overtakes.emplace_back(t, i);
                    first = std::min(first, t);
                }
            }
            if (overtakes.empty())
            {
                break;
            }
            // Of the cells that overtake together, the nearest after is the fastest
            // approaching; of equally fast ones (mirror images about the path), the lowest.
            uint32_t next = current;
            for (const auto& [t, i] : overtakes)
            {
                if (t <= first + SAME_CHANGE_S && (next == current || g[i] > g[next]))
                {
                    next = i;
                }
            }
            changes.push_back({first, current, next});
            current = next;
            now = first;
        }
    }
    return changes;
}

} // namespace ns3
