/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_IMPACT_SLOT_REFERENCE_H
#define EDGE_LLM_IMPACT_SLOT_REFERENCE_H

#include "impact-accuracy-model.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One session of a slot's allocation group, as an ImpactHO allocator sees it.
 */
struct ImpactSlotMember
{
    uint64_t imsi{0};         //!< the session
    double cacheBits{0};      //!< S_i, its whole transfer, bit
    double sentFraction{0};   //!< x_i, fraction handed over so far, in [0, 1]
    double handoverStartS{0}; //!< tau_i, its handover start, s
};

/**
 * \ingroup edge-llm
 * \brief An allocation of one slot: (members, B in bit/s, Delta t in s) -> one rate per member,
 * bit/s, summing to at most B. ImpactSlotScheduler::AllocateSlot is one.
 */
using ImpactSlotAllocator = std::function<
    std::vector<double>(const std::vector<ImpactSlotMember>&, double capacityBps, double slotS)>;

/**
 * \ingroup edge-llm
 * \brief One handover of the slot reference.
 */
struct ImpactSlotReferenceUe
{
    double handoverS{0};      //!< tau_i, when the handover starts, s, >= 0
    double cacheBits{0};      //!< S_i, the transfer, bit, >= 0 (0: nothing to send)
    double prefixFraction{0}; //!< of the context held without the transfer (a re-prefilled
                              //!< prefix), in [0, 1]; y = prefix + (1 - prefix) x
    bool positional{false};   //!< the transfer is by position: a part is worth a random part
};

/**
 * \ingroup edge-llm
 * \brief Which slots a handover's window covers in the slot reference, and how much of each.
 */
enum class ImpactSlotWindow
{
    /// ceil(T_max / Delta t) whole slots from the first that starts at or after the handover:
    /// the paper's model (and the clairvoyant bound's)
    WHOLE_SLOTS,
    /// from the first slot that starts at or after the handover until it resumes, T_max after
    /// it, the last slot in part: the slot hook's timing in the simulation
    TO_DEADLINE,
    /// from the handover's instant to T_max after it, the first and last slots in part: a
    /// budget from the handover on
    PRO_RATA,
};

/**
 * \param window a window timing
 * \return its name: whole-slots, to-deadline or pro-rata
 */
std::string ImpactSlotWindowName(ImpactSlotWindow window);

/**
 * \ingroup edge-llm
 * \brief Inputs of the slot reference: the paper's model of a run's handovers.
 */
struct ImpactSlotReferenceInput
{
    std::vector<ImpactSlotReferenceUe> ues; //!< the handovers, in any order; may be empty
    double capacityBps{0};                  //!< B, bit/s, > 0
    double slotSeconds{0.1};                //!< Delta t, s, > 0
    double windowSeconds{0.5};              //!< T_max, s, > 0
    /// the slots of each handover's window, and the part of each it may use
    ImpactSlotWindow window{ImpactSlotWindow::WHOLE_SLOTS};
    ImpactAccuracyParams accuracy; //!< the curve of the entries' order

    /// \brief Check every field; throws std::invalid_argument naming the field and its range.
    void Check() const;
};

/**
 * \ingroup edge-llm
 * \brief What the slot reference gives, per handover in input order.
 */
struct ImpactSlotReferenceResult
{
    std::vector<double> fractions;  //!< y_i at the window's end
    std::vector<double> accuracies; //!< A(y_i), on the curve a record of it would use
    double meanAccuracy{0};         //!< their mean; NaN for no handover
    uint32_t slots{0};              //!< slots in which some handover was served
};

/**
 * \ingroup edge-llm
 * \brief The slot-level reference of ImpactHO: the paper's model on a run's own handovers.
 *
 * Slots of Delta t start at t = 0. In every slot, the handovers whose window covers it and
 * whose transfer is not whole are the members; the allocator splits B among them, and each
 * moves exactly its rate x Delta t x the part of the slot its window may use: no
 * network, no TCP, no goodput factor, no radio. After its window a handover has y_i =
 * prefix_i + (1 - prefix_i) x_i and A(y_i): the curve's, a whole cache the importance curve's
 * A(1), a positional part the random-order curve's (ImpactCurveFor).
 *
 * \param input the handovers; checked here (std::invalid_argument naming the field)
 * \param allocate the allocator of the scheme; a rate below 0, or rates above B, throw
 * std::runtime_error
 * \return each handover's y and A(y)
 */
ImpactSlotReferenceResult RunImpactSlotReference(const ImpactSlotReferenceInput& input,
                                                 const ImpactSlotAllocator& allocate);

} // namespace ns3

#endif /* EDGE_LLM_IMPACT_SLOT_REFERENCE_H */
