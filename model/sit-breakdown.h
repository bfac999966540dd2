/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_SIT_BREAKDOWN_H
#define EDGE_LLM_SIT_BREAKDOWN_H

#include <array>
#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The milestones of one handover's interruption, in seconds; NaN for one that did not
 * happen (e.g. no HandoverEndOk after a failure).
 */
struct SitMilestones
{
    double lastBeforeS;   //!< the last in-order delivery before the handover (SIT's start)
    double hoStartS;      //!< the RRC's HandoverStart at the source
    double hoEndOkS;      //!< the RRC's HandoverEndOk at the target
    double planAppliedS;  //!< the handover's plan applied (after its control messages)
    double readyS;        //!< the session could go on: KV ready (a migration), else hoEndOkS
    double endGeneratedS; //!< generation of the token whose delivery ends the SIT
    double endS;          //!< that delivery (SIT's end)
};

/**
 * \ingroup edge-llm
 * \brief One SIT split into six consecutive parts, in seconds, that add up to it.
 */
struct SitBreakdown
{
    /// The parts' names, in time order
    static constexpr std::array<const char*, 6> NAMES{"radio_before",
                                                      "execution",
                                                      "control_wait",
                                                      "recovery_wait",
                                                      "gpu_wait",
                                                      "delivery"};

    double radioBeforeS{0};  //!< last delivery to HandoverStart: the radio before the handover
    double executionS{0};    //!< HandoverStart to HandoverEndOk: the RRC's handover
    double controlWaitS{0};  //!< HandoverEndOk to the plan's application: control messages
    double recoveryWaitS{0}; //!< the plan's application to ready: KV transfer and prefill left
    double gpuWaitS{0};      //!< ready to the first token's generation: the target's queue
    double deliveryS{0};     //!< that token's generation to its delivery: the new path

    /// \return the parts in time order
    std::array<double, 6> Parts() const
    {
        return {radioBeforeS, executionS, controlWaitS, recoveryWaitS, gpuWaitS, deliveryS};
    }

    /// \return their sum: the SIT
    double Total() const
    {
        return radioBeforeS + executionS + controlWaitS + recoveryWaitS + gpuWaitS + deliveryS;
    }
};

/**
 * \brief Split a SIT at its milestones.
 *
 * Each milestone is first put inside [lastBeforeS, endS] and after the one before it (a
 * missing one counts as the one before it), so that every part is >= 0 and they add up to
 * endS - lastBeforeS exactly. A milestone that fell before the last delivery (tokens kept
 * coming after HandoverStart) gives its part 0, and the time is counted where it was spent.
 * \param m the milestones; lastBeforeS and endS must be numbers with endS >= lastBeforeS
 * \return the parts
 */
SitBreakdown BreakDownSit(const SitMilestones& m);

} // namespace ns3

#endif /* EDGE_LLM_SIT_BREAKDOWN_H */
