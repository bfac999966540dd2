/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_UE_MOBILITY_H
#define EDGE_LLM_UE_MOBILITY_H

#include "grid-cell-layout.h"
#include "ue-trajectory.h"

#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/vector.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A UE that stands at \p start until \p moveStartS and then drives at \p velocity
 * until \p endS, where it stops.
 *
 * A UE entering a road at a Poisson arrival t (DrawPoissonArrivals) is
 * ConstantVelocityTrajectory(entry, velocity, t, endS). Stops the run unless all values are
 * finite and moveStartS <= endS.
 *
 * \param start the position until moveStartS, m
 * \param velocity the velocity after it, m/s
 * \param moveStartS when the UE starts, s
 * \param endS when it stops, s
 * \return the trajectory
 */
UeTrajectory ConstantVelocityTrajectory(Vector start,
                                        Vector velocity,
                                        double moveStartS,
                                        double endS);

/**
 * \ingroup edge-llm
 * \brief Arrival times of a Poisson process of rate \p ratePerS in (startS, endS].
 *
 * The gaps are drawn from \p gap with mean 1 / ratePerS (the variable's own Mean attribute is
 * not used), so its stream fixes the draws. Stops the run unless \p gap is set, ratePerS is
 * finite and > 0, and startS <= endS are finite.
 *
 * \param gap the variable the gaps are drawn from
 * \param ratePerS arrivals per s
 * \param startS the start of the window, s
 * \param endS the end of the window, s
 * \param maxCount at most this many arrivals, the first ones
 * \return the arrival times, s, ascending
 */
std::vector<double> DrawPoissonArrivals(Ptr<ExponentialRandomVariable> gap,
                                        double ratePerS,
                                        double startS,
                                        double endS,
                                        uint32_t maxCount);

/**
 * \ingroup edge-llm
 * \brief Random routes on a GridCellLayout: from cell centre to cell centre, at Speed.
 *
 * SpeedSpread gives each route a speed of its own and DepartureSpread a departure of its own,
 * so that UEs that start together do not cross their boundaries at the same instants.
 *
 * Each leg goes from the current cell's centre to one of its 4-neighbours' in the grid, drawn
 * uniformly; the cell the UE just came from is drawn only when it is the only neighbour (the
 * end of a one-row or one-column grid). A leg thus crosses one cell boundary, at its
 * midpoint.
 */
class GridRandomRoute : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    GridRandomRoute();

    /**
     * \brief Fix the stream the legs are drawn from.
     * \param stream the stream number
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief A route from \p startCell's centre at \p startS until \p endS.
     *
     * The last waypoint is at endS, partway along its leg if the leg would end later. A 1 x 1
     * grid gives a UE standing at its cell. Stops the run unless startCell is a cell of the
     * layout and startS <= endS are finite.
     *
     * \param layout the grid
     * \param startCell where the UE starts, by layout index
     * \param startS when it is at the start cell's centre, s; it leaves then, or a
     *        DepartureSpread draw later
     * \param endS when the route ends, s
     * \return the trajectory
     */
    UeTrajectory GetRoute(const GridCellLayout& layout,
                          uint32_t startCell,
                          double startS,
                          double endS);

  protected:
    /// Drops the random variable that picks each leg.
    void DoDispose() override;

  private:
    double m_speed;                      //!< Speed, m/s
    double m_speedSpread;                //!< SpeedSpread, a fraction of Speed
    double m_departureSpread;            //!< DepartureSpread, legs
    Ptr<UniformRandomVariable> m_choice; //!< draws each leg's neighbour
};

/**
 * \ingroup edge-llm
 * \brief Give a node a mobility model that follows a trajectory.
 *
 * The model is an ns3::WaypointMobilityModel with the trajectory's waypoints, or an
 * ns3::ConstantPositionMobilityModel if the UE never moves from now on. Installed at time T,
 * the node is at trajectory.GetPosition(t) for every t >= T (to the nanosecond resolution of
 * ns-3 times). Stops the run if the node is null or already has a mobility model.
 *
 * \param node the node
 * \param trajectory its path
 */
void InstallTrajectory(Ptr<Node> node, const UeTrajectory& trajectory);

} // namespace ns3

#endif /* EDGE_LLM_UE_MOBILITY_H */
