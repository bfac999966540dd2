/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_IMPACT_WATER_FILLING_H
#define EDGE_LLM_IMPACT_WATER_FILLING_H

#include "impact-accuracy-model.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One UE of an ImpactHO slot.
 */
struct ImpactWaterFillingUe
{
    double cacheBits{0};           //!< S_i, the UE's whole KV cache, bit, > 0
    double sentFraction{0};        //!< x_i, fraction of the cache already sent, in [0, 1]
    ImpactAccuracyParams accuracy; //!< A_i
};

/**
 * \ingroup edge-llm
 * \brief Inputs of one slot of ImpactHO's allocation.
 */
struct ImpactWaterFillingInput
{
    std::vector<ImpactWaterFillingUe> ues; //!< the UEs in transfer; may be empty
    double capacityBps{0};                 //!< B, bit/s, >= 0 (0: nothing moves)
    double slotSeconds{0};                 //!< Delta t, s, > 0
};

/**
 * \ingroup edge-llm
 * \brief How a slot was allocated.
 */
enum class ImpactWaterFillingMode
{
    WATER_FILLING,  //!< B_min <= B < what brings everyone to 1: the optimum, at lambda*
    NOT_BINDING,    //!< B is enough to bring every UE to 1; lambda* = 0
    EQUALIZED_BYTES //!< B < B_min, the problem has no solution: the Equalized-Bytes fallback
};

/**
 * \param mode a mode
 * \return its name: "water-filling", "not-binding" or "equalized-bytes"
 */
std::string ToString(ImpactWaterFillingMode mode);

/**
 * \ingroup edge-llm
 * \brief What one UE gets in the slot.
 */
struct ImpactWaterFillingUeResult
{
    double fractionRate{0}; //!< b_i, fraction of the cache per second: y_i = x_i + b_i Delta t
    double rateBps{0};      //!< S_i b_i, bit/s
    double fraction{0};     //!< y_i, fraction sent by the slot's end, in [x_i, 1]
};

/**
 * \ingroup edge-llm
 * \brief The allocation of one slot.
 */
struct ImpactWaterFillingResult
{
    ImpactWaterFillingMode mode{ImpactWaterFillingMode::NOT_BINDING}; //!< how it was made
    /// lambda*, the price of capacity, accuracy per bit/s: A_i'(y_i) = lambda* S_i / Delta t for
    /// every UE strictly between its bounds; 0 when NOT_BINDING, NaN for EQUALIZED_BYTES
    double lambda{0};
    double minimumCapacityBps{0}; //!< B_min = (1/Delta t) sum_i S_i [y0_i - x_i]^+, bit/s
    std::vector<ImpactWaterFillingUeResult> ues; //!< one per input UE, in input order
};

/**
 * \ingroup edge-llm
 * \brief One slot of ImpactHO's weighted water-filling.
 *
 * Maximises sum_i [A_i(y_i) - A_i(x_i)] subject to sum_i S_i b_i <= B, y_i = x_i + b_i Delta t,
 * max(x_i, y0_i) <= y_i <= 1. A_i is concave above y0_i, so the KKT point is the optimum:
 * y_i = max(x_i, W_i(lambda*)), W_i(lambda) = (A_i')^{-1}(lambda S_i / Delta t) clipped to
 * [y0_i, 1], and lambda* makes sum_i S_i b_i(lambda) = B. That sum is continuous and
 * non-increasing in lambda, so lambda* is found by a bracketing root finder; the rates are
 * those of the bracket's end that does not exceed B, so the capacity is never overdrawn.
 *
 * When B < B_min not every UE can reach its y0_i, and the slot falls back to Equalized-Bytes:
 * the UEs below their y0_i share B equally in bit/s, each capped at what brings it to y0_i,
 * and what a capped UE leaves is shared again among the others. The paper says "capped at
 * what finishes them" of the set "not yet at y0"; a UE leaves that set at y0_i, so that is
 * where it is finished. Since B < B_min, capping there spends all of B without any UE passing
 * its y0_i while another is still short of it.
 *
 * \param input the slot; validated here (throws std::invalid_argument naming the field)
 * \return the allocation
 */
ImpactWaterFillingResult SolveImpactWaterFilling(const ImpactWaterFillingInput& input);

} // namespace ns3

#endif /* EDGE_LLM_IMPACT_WATER_FILLING_H */
