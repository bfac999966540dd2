/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ue-mobility.h"

#include "ns3/abort.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/waypoint-mobility-model.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GridRandomRoute);

namespace
{

bool
IsFinite(const Vector& v)
{
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

} // namespace

UeTrajectory
ConstantVelocityTrajectory(Vector start, Vector velocity, double moveStartS, double endS)
{
    NS_ABORT_MSG_IF(!IsFinite(start),
                    "ConstantVelocityTrajectory: start is " << start
                                                            << "; each coordinate must be finite");
    NS_ABORT_MSG_IF(!IsFinite(velocity),
                    "ConstantVelocityTrajectory: velocity is "
                        << velocity << "; each component must be finite");
    NS_ABORT_MSG_IF(!std::isfinite(moveStartS),
                    "ConstantVelocityTrajectory: moveStartS is " << moveStartS
                                                                 << "; it must be finite");
    NS_ABORT_MSG_IF(!std::isfinite(endS) || endS < moveStartS,
                    "ConstantVelocityTrajectory: endS is "
                        << endS << "; it must be finite and >= moveStartS (" << moveStartS << ")");
    const double d = endS - moveStartS;
    const Vector end(start.x + velocity.x * d, start.y + velocity.y * d, start.z + velocity.z * d);
    if (d == 0)
    {
        return UeTrajectory({{moveStartS, start}});
    }
    return UeTrajectory({{moveStartS, start}, {endS, end}});
}

std::vector<double>
DrawPoissonArrivals(Ptr<ExponentialRandomVariable> gap,
                    double ratePerS,
                    double startS,
                    double endS,
                    uint32_t maxCount)
{
    NS_ABORT_MSG_IF(!gap, "DrawPoissonArrivals: no random variable for the gaps");
    NS_ABORT_MSG_IF(!std::isfinite(ratePerS) || ratePerS <= 0,
                    "DrawPoissonArrivals: ratePerS is " << ratePerS
                                                        << "; it must be finite and > 0, in 1/s");
    NS_ABORT_MSG_IF(!std::isfinite(startS),
                    "DrawPoissonArrivals: startS is " << startS << "; it must be finite");
    NS_ABORT_MSG_IF(!std::isfinite(endS) || endS < startS,
                    "DrawPoissonArrivals: endS is " << endS << "; it must be finite and >= "
                                                    << "startS (" << startS << ")");
    std::vector<double> arrivals;
    double t = startS;
    while (arrivals.size() < maxCount)
    {
        // Bound 0: no bound, so the gaps are exponential and the arrivals Poisson.
        t += gap->GetValue(1 / ratePerS, 0);
        if (t > endS)
        {
            break;
        }
        arrivals.push_back(t);
    }
    return arrivals;
}

TypeId
GridRandomRoute::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GridRandomRoute")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<GridRandomRoute>()
            .AddAttribute(
                "Speed",
                "The UE's speed along its route, in m/s (> 0).",
                DoubleValue(10),
                MakeDoubleAccessor(&GridRandomRoute::m_speed),
                edgellm::MakeFiniteNotNegativeChecker("ns3::GridRandomRoute::Speed", false))
            .AddAttribute(
                "SpeedSpread",
                "Each route's speed is Speed x (1 + u), u drawn uniformly in [-SpeedSpread, "
                "SpeedSpread] once per route; 0 (the default) gives every route Speed. "
                "Range [0, 0.9].",
                DoubleValue(0),
                MakeDoubleAccessor(&GridRandomRoute::m_speedSpread),
                edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(0, 0.9),
                                               "ns3::GridRandomRoute::SpeedSpread",
                                               "a number in [0, 0.9]"))
            .AddAttribute(
                "DepartureSpread",
                "A route leaves its start cell's centre at its start time plus a uniform "
                "draw in [0, DepartureSpread legs], a leg being Spacing / the route's speed; "
                "the UE waits at the centre until then. 0 (the default) leaves at the start "
                "time. Range [0, 100] legs.",
                DoubleValue(0),
                MakeDoubleAccessor(&GridRandomRoute::m_departureSpread),
                edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(0, 100),
                                               "ns3::GridRandomRoute::DepartureSpread",
                                               "a number of legs in [0, 100]"));
    return tid;
}

GridRandomRoute::GridRandomRoute()
    : m_speed(10),
      m_speedSpread(0),
      m_departureSpread(0),
      m_choice(CreateObject<UniformRandomVariable>())
{
}

void
GridRandomRoute::DoDispose()
{
    m_choice = nullptr;
    Object::DoDispose();
}

int64_t
GridRandomRoute::AssignStreams(int64_t stream)
{
    m_choice->SetStream(stream);
    return 1;
}

UeTrajectory
GridRandomRoute::GetRoute(const GridCellLayout& layout,
                          uint32_t startCell,
                          double startS,
                          double endS)
{
    UintegerValue columnsValue;
    UintegerValue rowsValue;
    layout.GetAttribute("Columns", columnsValue);
    layout.GetAttribute("Rows", rowsValue);
    const auto columns = static_cast<uint32_t>(columnsValue.Get());
    const auto rows = static_cast<uint32_t>(rowsValue.Get());
    const std::vector<Vector> cells = layout.GetCellPositions();
    NS_ABORT_MSG_IF(startCell >= cells.size(),
                    "GridRandomRoute::GetRoute: startCell is "
                        << startCell << "; the grid's cells are [0, " << cells.size() - 1 << "]");
    NS_ABORT_MSG_IF(!std::isfinite(startS),
                    "GridRandomRoute::GetRoute: startS is " << startS << "; it must be finite");
    NS_ABORT_MSG_IF(!std::isfinite(endS) || endS < startS,
                    "GridRandomRoute::GetRoute: endS is "
                        << endS << "; it must be finite and >= startS (" << startS << ")");

    DoubleValue spacing;
    layout.GetAttribute("Spacing", spacing);
    // The spreads draw only when set, from the legs' own stream, so that routes without them
    // are the ones drawn before they existed.
    const double speed = m_speedSpread > 0
                             ? m_speed * (1 + m_choice->GetValue(-m_speedSpread, m_speedSpread))
                             : m_speed;
    const double legS = spacing.Get() / speed;
    std::vector<UeWaypoint> waypoints{{startS, cells[startCell]}};
    if (m_departureSpread > 0)
    {
        startS = std::min(endS, startS + m_choice->GetValue(0, m_departureSpread * legS));
        if (startS > waypoints.front().timeS)
        {
            waypoints.push_back({startS, cells[startCell]});
        }
    }
    uint32_t current = startCell;
    // No cell yet: the first leg may go anywhere.
    auto previous = static_cast<uint32_t>(cells.size());
    // A 1 x 1 grid has nowhere to go: the UE stands at its cell.
    const bool canMove = cells.size() > 1;
    for (uint64_t leg = 0; canMove; ++leg)
    {
        // Times from the start rather than summed leg by leg, so that they do not drift.
        const double legStart = startS + leg * legS;
        if (legStart >= endS)
        {
            break;
        }
        const uint32_t c = current % columns;
        const uint32_t r = current / columns;
        std::vector<uint32_t> moves;
        if (c + 1 < columns)
        {
            moves.push_back(current + 1);
        }
        if (r + 1 < rows)
        {
            moves.push_back(current + columns);
        }
        if (c > 0)
        {
            moves.push_back(current - 1);
        }
        if (r > 0)
        {
            moves.push_back(current - columns);
        }
        if (moves.size() > 1)
        {
            moves.erase(std::remove(moves.begin(), moves.end(), previous), moves.end());
        }
        const uint32_t next =
            moves[m_choice->GetInteger(0, static_cast<uint32_t>(moves.size()) - 1)];
        const double legEnd = startS + (leg + 1) * legS;
        if (legEnd > endS)
        {
            const double f = (endS - legStart) / legS;
            const Vector& p = cells[current];
            const Vector& q = cells[next];
            waypoints.push_back(
                {endS,
                 Vector(p.x + (q.x - p.x) * f, p.y + (q.y - p.y) * f, p.z + (q.z - p.z) * f)});
            break;
        }
        waypoints.push_back({legEnd, cells[next]});
        previous = current;
        current = next;
    }
    if (waypoints.back().timeS < endS)
    {
        waypoints.push_back({endS, waypoints.back().position});
    }
    return UeTrajectory(std::move(waypoints));
}

void
InstallTrajectory(Ptr<Node> node, const UeTrajectory& trajectory)
{
    NS_ABORT_MSG_IF(!node, "InstallTrajectory: the node is null");
    NS_ABORT_MSG_IF(node->GetObject<MobilityModel>(),
                    "InstallTrajectory: node " << node->GetId() << " already has a mobility model");
    // WaypointMobilityModel takes only strictly increasing times, from now on, and counts in
    // ns-3 time steps: waypoints in the past give way to the position now, and of waypoints that
    // round to the same step the last is kept (they are less than a step apart, so a step's
    // motion at most is lost).
    const Time now = Simulator::Now();
    std::vector<Waypoint> waypoints;
    for (const UeWaypoint& w : trajectory.GetWaypoints())
    {
        const Time t = Seconds(w.timeS);
        if (t <= now)
        {
            continue;
        }
        if (waypoints.empty())
        {
            waypoints.emplace_back(now, trajectory.GetPosition(now.GetSeconds()));
        }
        if (waypoints.back().time == t)
        {
            waypoints.back().position = w.position;
            continue;
        }
        waypoints.emplace_back(t, w.position);
    }
    const Vector here =
        waypoints.empty() ? trajectory.GetWaypoints().back().position : waypoints.front().position;
    if (std::all_of(waypoints.begin(), waypoints.end(), [&here](const Waypoint& w) {
            return w.position == here;
        }))
    {
        Ptr<ConstantPositionMobilityModel> still = CreateObject<ConstantPositionMobilityModel>();
        still->SetPosition(here);
        node->AggregateObject(still);
        return;
    }
    // LazyNotify stays off: the model updates its velocity only when it updates its position,
    // so lazily it would report a past leg's velocity, and its course changes late.
    Ptr<WaypointMobilityModel> model = CreateObject<WaypointMobilityModel>();
    for (const Waypoint& w : waypoints)
    {
        model->AddWaypoint(w);
    }
    node->AggregateObject(model);
}

} // namespace ns3
