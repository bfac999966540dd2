/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_SLOT_CLOCK_H
#define EDGE_LLM_SLOT_CLOCK_H

#include "handover-plan.h"
#include "kv-transfer-sender.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The clock of a scheduler's slot hook: one answer per slot, pulled by the KV senders.
 *
 * The per-slot KV policies of the senders ask for a session's budget as they refill; the
 * first request of a slot, or the tick at its start, asks the scheduler once for every
 * transferring migration's budget. The clock ticks only while migrations are under way, so a
 * stuck one does not keep the simulator running.
 */
class SlotClock
{
  public:
    /// \return the slot's length; zero when the scheduler has no slot hook
    using Length = std::function<Time()>;
    /// Fill a slot's input with the migrations it budgets, and the epoch of each.
    using Gather =
        std::function<void(HandoverSlotInput& input, std::map<uint64_t, uint32_t>& epochs)>;
    /// \return the scheduler's budgets for a slot's input
    using Ask = std::function<SlotBudgets(const HandoverSlotInput& input)>;
    /// \return true while a migration is under way
    using Busy = std::function<bool()>;
    /// Report a slot's progress to an allocator on another node. \param slot the slot's
    /// number \return true while a transfer is open
    using Report = std::function<bool(uint64_t slot)>;

    /**
     * \param length the slot's length
     * \param gather what a slot budgets
     * \param ask the scheduler's hook
     * \param busy whether to keep ticking
     */
    SlotClock(Length length, Gather gather, Ask ask, Busy busy);

    /**
     * \brief The budget of a session in a slot.
     * \param imsi the UE
     * \param epoch its transfer's epoch
     * \param slot the slot's number since time 0
     * \return its bytes; 0 for a migration that began inside the slot
     */
    uint64_t GetBudget(uint64_t imsi, uint32_t epoch, uint64_t slot);

    /**
     * \brief Let a KV sender's per-slot policy draw its budgets from this clock. A sender
     * whose policy is not a SlotBudgetKvTransferPolicy of this clock's slot stops the run.
     * \param sender a sender of a link the scheduler budgets
     * \param scheme the scheduler's scheme, named when the run stops
     */
    void Attach(Ptr<KvTransferSender> sender, const std::string& scheme);

    /// Tick at the next slot boundary, if the scheduler has slots and a migration is under way.
    void Arm();

    /**
     * \brief Let an allocator on another node set the budgets (a ControlPlane network): each
     * tick reports the senders' progress instead of asking the scheduler, and a sender's
     * budget is the newest that reached it (SetArrivedBudget), kept from slot to slot until
     * the next one arrives; 0 until the first.
     * \param report what a tick does
     */
    void SetRemote(Report report);

    /**
     * \brief A budget reached its sender (SetRemote).
     * \param imsi the UE \param epoch its transfer's epoch \param bytes its bytes per slot
     */
    void SetArrivedBudget(uint64_t imsi, uint32_t epoch, uint64_t bytes);

    /// Stop ticking, and forget the budgets that arrived.
    void Cancel();

  private:
    /// Ask the scheduler for a slot's budgets.
    void Compute(uint64_t slot);
    /// A slot begins.
    void Tick();

    Length m_length;                       //!< the slot's length
    Gather m_gather;                       //!< what a slot budgets
    Ask m_ask;                             //!< the scheduler's hook
    Busy m_busy;                           //!< whether to keep ticking
    uint64_t m_slot{0};                    //!< the slot of m_budgets
    bool m_valid{false};                   //!< m_budgets holds m_slot's
    SlotBudgets m_budgets;                 //!< the hook's last answer
    std::map<uint64_t, uint32_t> m_epochs; //!< epoch of each budgeted session
    EventId m_tick;                        //!< the next tick
    Report m_report;                       //!< SetRemote's; empty when budgets are local
    std::map<std::pair<uint64_t, uint32_t>, uint64_t> m_arrived; //!< (imsi, epoch): bytes
};

} // namespace ns3

#endif /* EDGE_LLM_SLOT_CLOCK_H */
