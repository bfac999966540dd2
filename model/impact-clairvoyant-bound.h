/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_IMPACT_CLAIRVOYANT_BOUND_H
#define EDGE_LLM_IMPACT_CLAIRVOYANT_BOUND_H

#include "impact-accuracy-model.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One UE of the clairvoyant bound: its cache and when its transfer window opens.
 */
struct ImpactClairvoyantUe
{
    double cacheBits{0};           //!< S_i, bit, > 0
    uint32_t arrivalSlot{0};       //!< a_i: in transfer for the slots [a_i, a_i + W)
    ImpactAccuracyParams accuracy; //!< A_i
};

/**
 * \ingroup edge-llm
 * \brief Inputs of the clairvoyant bound.
 */
struct ImpactClairvoyantInput
{
    std::vector<ImpactClairvoyantUe> ues; //!< every UE of the run; may be empty
    double capacityBps{0};                //!< B, bit/s, >= 0
    double slotSeconds{0};                //!< Delta t, s, > 0
    uint32_t windowSlots{0};              //!< W = T_max / Delta t, slots, >= 1
    /// tangent lines per UE on [y_t, 1], from y_t to 1, spread to share their excess; >= 2
    uint32_t tangentCount{64};
};

/**
 * \ingroup edge-llm
 * \brief The clairvoyant bound and the allocation that attains it.
 */
struct ImpactClairvoyantResult
{
    /// the LP's optimum of sum_i phi_i(y_i), phi_i the tangent-line model of env_i (>= env_i):
    /// no schedule of the same arrivals has sum_i A_i(y_i) above it
    double bound{0};
    /// sum_i env_i(y_i) at the LP's y: the envelope objective of a feasible schedule, so the
    /// envelope optimum lies in [envelopeValue, bound]
    double envelopeValue{0};
    /// a priori bound on what the tangent lines add: bound <= envelope optimum + this
    double approximationGap{0};
    std::vector<double> fractions; //!< y_i, one per input UE, in input order
};

/**
 * \ingroup edge-llm
 * \brief Offline upper bound on ImpactHO's accuracy: every arrival known in advance.
 *
 * Maximises sum_i env_i(y_i) subject to, in every slot t, sum_{i active at t} S_i b_{i,t}
 * Delta t <= B Delta t, y_i = sum_t b_{i,t} Delta t <= 1 and b >= 0, where env_i is the concave
 * envelope of A_i (ImpactAccuracyEnvelope). It leaves out the online problem's floor y >= y0,
 * so every online schedule, water-filling or fallback, is feasible here, and since env_i >= A_i
 * the bound is >= the sum_i A_i(y_i) of any of them.
 *
 * The LP holds env_i from above by its pieces: the line from (0, A_i(0)) up to y_t (exact) and
 * tangents of A_i at tangentCount points of [y_t, 1], spread evenly in the integral of
 * sqrt(|A_i''|), which evens out their excess; each tangent of a concave function lies above it,
 * so the bound stays a bound. Between neighbouring tangent points p < q
 * the tangents exceed env_i by at most (q - p)(A_i'(p) - A_i'(q)) / 4; approximationGap sums
 * the largest such over the UEs. Solved with GLPK's simplex, its terminal output off.
 *
 * \param input the arrivals; validated here (throws std::invalid_argument naming the field)
 * \return the bound; throws std::runtime_error if GLPK fails to find the optimum
 */
ImpactClairvoyantResult SolveImpactClairvoyantBound(const ImpactClairvoyantInput& input);

} // namespace ns3

#endif /* EDGE_LLM_IMPACT_CLAIRVOYANT_BOUND_H */
