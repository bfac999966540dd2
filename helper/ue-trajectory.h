/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_UE_TRAJECTORY_H
#define EDGE_LLM_UE_TRAJECTORY_H

#include "cell-layout.h"

#include "ns3/vector.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Where a UE is at one time.
 */
struct UeWaypoint
{
    double timeS;    //!< the time, s
    Vector position; //!< the position, m
};

/**
 * \ingroup edge-llm
 * \brief A UE's path: waypoints joined by straight segments, each at constant velocity.
 *
 * The UE stands at the first waypoint's position before its time, and at the last one's after
 * its time. Two waypoints may share a time only if they share the position too: a UE does
 * not jump, and ns-3's WaypointMobilityModel could not follow it if it did.
 */
class UeTrajectory
{
  public:
    /**
     * \brief Make a trajectory; stops the run unless there is at least one waypoint, every
     * time and coordinate is finite, times are nondecreasing, and waypoints of the same time
     * are at the same position.
     * \param waypoints the waypoints, in time order
     */
    explicit UeTrajectory(std::vector<UeWaypoint> waypoints);

    /**
     * \param t a time, s (not NaN)
     * \return the position at \p t, m
     */
    Vector GetPosition(double t) const;

    /// \return the waypoints, as given
    const std::vector<UeWaypoint>& GetWaypoints() const;

  private:
    std::vector<UeWaypoint> m_waypoints; //!< in time order, at least one
};

/**
 * \ingroup edge-llm
 * \brief A change of the UE's nearest cell.
 */
struct PlannedCrossing
{
    double timeS;      //!< when it changes, s
    uint32_t fromCell; //!< the nearest cell just before, by layout index
    uint32_t toCell;   //!< the nearest cell just after, by layout index
};

/**
 * \ingroup edge-llm
 * \brief The times at which a UE's nearest cell (CellLayout::GetNearestCell) changes.
 *
 * Along a straight segment, the squared distances to two cells differ by a linear function of
 * time, so each change is the root of one such function: the times are solved for, not
 * sampled, and are exact up to rounding (far below a microsecond). Two changes less than a
 * nanosecond apart, as when the UE passes a point equidistant from three cells, count as one,
 * to the cell nearest after both. A UE standing exactly on a boundary at \p startS starts in
 * the cell GetNearestCell gives there (the lower index), and leaves it at once if it moves
 * towards the other.
 *
 * \param trajectory the UE's path
 * \param layout the cells
 * \param startS the start of the window, s (finite)
 * \param endS the end of the window, s (finite, >= startS)
 * \return the changes at times in [startS, endS), in time order; fromCell of the first is the
 *         nearest cell at startS, and each fromCell is the previous toCell
 */
std::vector<PlannedCrossing> FindNearestCellChanges(const UeTrajectory& trajectory,
                                                    const CellLayout& layout,
                                                    double startS,
                                                    double endS);

} // namespace ns3

#endif /* EDGE_LLM_UE_TRAJECTORY_H */
