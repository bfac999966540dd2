/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_IMPACT_HO_SCHEDULER_H
#define EDGE_LLM_IMPACT_HO_SCHEDULER_H

#include "handover-scheduler.h"
#include "impact-accuracy-model.h"
#include "impact-slot-reference.h"
#include "impact-water-filling.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The fraction of its context a migrated session resumed with, from what its target's
 * receiver counted: for an ENTRY-unit plan, the entries that arrived over those sent; for a
 * TOKEN-unit plan, its re-prefilled prefix, the positions that arrived and those re-prefilled
 * after a stall (HandoverRecord::reprefillTokens) over its context.
 * \param record the session's record, completed
 * \return y in [0, 1]
 */
double ImpactFractionArrived(const HandoverRecord& record);

/**
 * \ingroup edge-llm
 * \brief The accuracy curve a session's y is scored on: a whole cache (y = 1) has the
 * importance curve's A(1) whatever its order; a part of a TOKEN-unit plan, held by position,
 * is worth a random part (the random-order curve); a part of an ENTRY-unit plan is scored on
 * the curve of the order its entries were sent in.
 * \param record the session's record, completed
 * \param y its ImpactFractionArrived
 * \param entryOrder the curve of the ENTRY-unit plan's order
 * \return the curve
 */
ImpactAccuracyParams ImpactCurveOf(const HandoverRecord& record,
                                   double y,
                                   const ImpactAccuracyParams& entryOrder);

/**
 * \ingroup edge-llm
 * \brief The common part of ImpactHO and its baselines: importance-ordered KV transfers in a
 * window, whose backhaul capacity a subclass splits slot by slot.
 *
 * Every handover migrates without a prefill: one ENTRY-unit range [0, entries of the context)
 * in rank order, most important entry first. The order is implicit in rank space (entry r is
 * the r-th most important), so the scheduler keeps no per-entry state. The target resumes
 * Window after the handover with what arrived (AT_DEADLINE), or once everything arrived when
 * Window is 0 (ALL_ARRIVED).
 *
 * At the start of each slot of Slot, the migrations in transfer are grouped by the backhaul
 * link they cross (the slot input's link views), or all into one group when SharedRate is set
 * (a star backhaul whose transfers all cross one shared link). Allocate() gives each member of
 * a group a rate out of the group's capacity B = Goodput x the link's rate (or SharedRate);
 * the rate times the slot, in whole entries, is the session's byte budget for the slot. A
 * migration whose handover started inside the slot gets nothing until the next slot starts,
 * so every allocation sees whole slots.
 *
 * When a handover ends, its record gets, from the entries the target's receiver counted as
 * arrived (never from the plan):
 * - fraction_arrived: y = arrived entries / entries of the context;
 * - accuracy: A(y) of the Order's curve;
 * - compound_accuracy: the session's accuracy after this and all its earlier handovers;
 * - slots, slots_water_filling, slots_not_binding, slots_equalized_bytes: the slots in
 *   which the session had a budget, in all and by the mode of ImpactHO's solver (the
 *   baselines count only "slots").
 *
 * The assumption for a session that resumed with part of its cache: the target's engine
 * holds the whole context (KV payloads are virtual), so the next handover sends the whole
 * context again, and the loss compounds multiplicatively: after handovers with fractions
 * y_1..y_n, the session's accuracy is M prod_k (A(y_k) / M). An entry that did not arrive at
 * one target is taken as lost for good, and what a later handover delivers is relative to
 * what the session had.
 */
class ImpactSlotScheduler : public HandoverScheduler
{
  public:
    /// The order in which a session's entries are sent, which picks the accuracy curve.
    enum EntryOrder
    {
        IMPORTANCE, //!< most important first: ImpactAccuracyParams::ImportanceOrder()
        RANDOM,     //!< a random order, for the ablation: ImpactAccuracyParams::RandomOrder()
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ImpactSlotScheduler();
    ~ImpactSlotScheduler() override;

    /**
     * TracedCallback signature of a slot budget.
     * \param slot the slot's index
     * \param imsi the session
     * \param bytes its budget for the slot, KV bytes (whole entries)
     */
    typedef void (*BudgetTracedCallback)(uint64_t slot, uint64_t imsi, uint64_t bytes);

    Time GetSlotDuration() const override;
    /// \return true when SharedRate > 0: every link's migrations are one group
    bool GetSlotsCoupleLinks() const override;

    /// \return the accuracy curve of the Order attribute
    ImpactAccuracyParams GetAccuracyParams() const;

    /// \return the Window attribute, T_max; 0 for none
    Time GetWindow() const;

    /**
     * \brief The compound accuracy a session carries out of its handovers so far.
     * \param imsi the session
     * \return M prod_k (A(y_k) / M) over its recorded handovers; M if it has none
     */
    double GetCompoundAccuracy(uint64_t imsi) const;

    /**
     * \brief Split one group's capacity for one slot, as the slot hook does (Allocate), for
     * a model of the same scheme outside the simulation: RunImpactSlotReference.
     * \param members the sessions in transfer, not empty
     * \param capacityBps B, bit/s, > 0
     * \param slotS Delta t, s, > 0
     * \return one rate per member, bit/s, in member order
     */
    std::vector<double> AllocateSlot(const std::vector<ImpactSlotMember>& members,
                                     double capacityBps,
                                     double slotS);

  protected:
    /// One session of an allocation group.
    using Member = ImpactSlotMember;

    /**
     * \brief Split one group's capacity for one slot.
     * \param members the sessions in transfer on the group's link, not empty
     * \param capacityBps B, bit/s, > 0
     * \param slotS Delta t, s, > 0
     * \return one rate per member, bit/s, in member order; their sum must not exceed B
     */
    virtual std::vector<double> Allocate(const std::vector<Member>& members,
                                         double capacityBps,
                                         double slotS) = 0;

    /**
     * \brief Tell the subclass how a session's slot was made, for its record.
     * \param imsi the session
     * \param mode the name of the mode, e.g. "water_filling"; counted as slots_NAME
     */
    void CountMode(uint64_t imsi, const std::string& mode);

    /**
     * \brief Cascading winner-take-all: the member whose accuracy would gain most per bit from
     * the whole capacity left takes all it can use (up to its whole cache), and what it leaves
     * goes to the next best, and so on; ties go to the member listed first.
     * \param members the sessions, not empty
     * \param capacityBps B, bit/s
     * \param slotS Delta t, s
     * \param curve every member's accuracy curve
     * \return one rate per member, bit/s, summing to at most B
     */
    static std::vector<double> CascadeWinnerTakeAll(const std::vector<Member>& members,
                                                    double capacityBps,
                                                    double slotS,
                                                    const ImpactAccuracyParams& curve);

    HandoverPlan DoPlan(const HandoverPlanInput& input) override;
    SlotBudgets DoSlot(const HandoverSlotInput& input) override;
    void DoCompleteRecord(HandoverRecord& record) const override;

  private:
    Time m_slot;        //!< Slot
    Time m_window;      //!< Window
    EntryOrder m_order; //!< Order
    double m_goodput;   //!< Goodput
    DataRate m_shared;  //!< SharedRate; 0 for none
    /// Budget: every budget > 0 of every slot
    TracedCallback<uint64_t, uint64_t, uint64_t> m_budgetTrace;
    // The record hook is const in the contract, but it ends a handover: it writes and
    // clears the session's slot counts and folds its accuracy into the compound, hence
    // mutable.
    /// Per session: slots with a budget, by mode ("" for all), since its last record
    mutable std::map<uint64_t, std::map<std::string, uint64_t>> m_slotCounts;
    /// Per session: M prod_k (A(y_k) / M) over its recorded handovers
    mutable std::map<uint64_t, double> m_compound;
};

/**
 * \ingroup edge-llm
 * \brief ImpactHO: each slot, weighted water-filling over the sessions' accuracy curves
 * (SolveImpactWaterFilling), to maximise the sum of the accuracy gains of the slot.
 *
 * S_i is the session's whole transfer in bits and x_i the fraction of it handed to TCP so
 * far; the solver's fallback (Equalized-Bytes) takes over when the link cannot bring every
 * session to the inflection y0 in the slot.
 */
class ImpactHoScheduler : public ImpactSlotScheduler
{
  public:
    /// What a slot does when the link cannot bring every session to y0 (B < B_min).
    enum Overload
    {
        EQUALIZED_BYTES, //!< the paper's fallback: equal shares up to y0, nobody refused
        WINNER_TAKE_ALL, //!< cascading winner-take-all over every session, nobody refused
        /// admission control: the sessions with the smallest need S_i [y0 - x_i]^+ are
        /// admitted while their needs fit in B Delta t, and water-fill among themselves; the
        /// others get nothing in the slot (the cheapest one gets all, if none fits)
        ADMISSION,
        /// no admission control and no fallback: every session keeps the share of B that its
        /// need S_i [y0 - x_i]^+ is of B_min (the water-filling's floors scaled down to fit
        /// B), so nobody is refused and nobody reaches y0 in the slot
        NO_ADMISSION,
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ImpactHoScheduler();
    ~ImpactHoScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    std::vector<double> Allocate(const std::vector<Member>& members,
                                 double capacityBps,
                                 double slotS) override;

  private:
    Overload m_overload; //!< Overload
};

/**
 * \ingroup edge-llm
 * \brief ImpactHO's equal-allocation baseline: each slot, B / |N| to each of the N sessions
 * in transfer on a link, whatever their curves. A session that needs less leaves the rest
 * unused (the baseline does not re-share).
 */
class ImpactEqualScheduler : public ImpactSlotScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ImpactEqualScheduler();
    ~ImpactEqualScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    std::vector<double> Allocate(const std::vector<Member>& members,
                                 double capacityBps,
                                 double slotS) override;
};

/**
 * \ingroup edge-llm
 * \brief ImpactHO's proportional-fairness baseline: each slot, maximise sum_i log(S_i y_i)
 * over the sessions on a link, whatever their accuracy curves.
 *
 * The KKT point is y_i = clip(mu / S_i, x_i, 1): every session is topped up to the same
 * number of bits mu of its cache sent (the water level), none past its whole cache, none
 * below what it has sent; mu makes the slot's bits sum to B Delta t (or every cache whole).
 */
class ImpactPfScheduler : public ImpactSlotScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ImpactPfScheduler();
    ~ImpactPfScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    std::vector<double> Allocate(const std::vector<Member>& members,
                                 double capacityBps,
                                 double slotS) override;
};

/**
 * \ingroup edge-llm
 * \brief ImpactHO's cascading winner-take-all baseline, a greedy one: each slot, the
 * session whose accuracy would gain most per bit from the whole slot's capacity takes all it
 * can use (up to its whole cache), and what it leaves cascades to the next best, and so on.
 *
 * The gain of session i from c bits is A(min(1, x_i + c / S_i)) - A(x_i); its rate is that per
 * bit of what it would take. This is this module's reading of the paper's "cascading
 * winner-take-all (greedy)"; ties go to the session listed first.
 */
class ImpactWtaScheduler : public ImpactSlotScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ImpactWtaScheduler();
    ~ImpactWtaScheduler() override;

    std::string GetSchemeName() const override;

  protected:
    std::vector<double> Allocate(const std::vector<Member>& members,
                                 double capacityBps,
                                 double slotS) override;
};

} // namespace ns3

#endif /* EDGE_LLM_IMPACT_HO_SCHEDULER_H */
