/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HOOK_TEST_SCHEDULER_H
#define EDGE_LLM_HOOK_TEST_SCHEDULER_H

// A stateful policy that uses every hook of the contract, for the tests: a whole-cache
// transfer (or, prepared, a prefix prefill and an open transfer of the rest), per-slot budgets
// that follow a schedule, a resume at a deadline, and its own value in each record.

#include "ns3/boolean.h"
#include "ns3/handover-scheduler.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm-tests
 * \brief A test policy: cHO with optional slot budgets, deadline and prepared work.
 */
class HookTestScheduler : public HandoverScheduler
{
  public:
    /// One answer of the slot hook.
    struct SlotCall
    {
        uint64_t slot;   //!< the slot
        uint64_t imsi;   //!< a session
        uint32_t epoch;  //!< its epoch
        uint64_t budget; //!< the bytes it was given
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::HookTestScheduler")
                .SetParent<HandoverScheduler>()
                .SetGroupName("EdgeLlm")
                .AddConstructor<HookTestScheduler>()
                .AddAttribute("Slot",
                              "The slot of the budget hook; 0 for none.",
                              TimeValue(Time(0)),
                              MakeTimeAccessor(&HookTestScheduler::m_slot),
                              MakeTimeChecker(Time(0)))
                .AddAttribute("UnitBytes",
                              "Slot k gives (k mod 3 + 1) x UnitBytes.",
                              UintegerValue(57344),
                              MakeUintegerAccessor(&HookTestScheduler::m_unit),
                              MakeUintegerChecker<uint64_t>(1))
                .AddAttribute("Window",
                              "Resume this long after the handover, with what arrived; 0 "
                              "waits for everything.",
                              TimeValue(Time(0)),
                              MakeTimeAccessor(&HookTestScheduler::m_window),
                              MakeTimeChecker(Time(0)))
                .AddAttribute("KeepDecoding",
                              "A prepared plan lets the source decode on (an open transfer).",
                              BooleanValue(true),
                              MakeBooleanAccessor(&HookTestScheduler::m_keepDecoding),
                              MakeBooleanChecker());
        return tid;
    }

    std::string GetSchemeName() const override
    {
        return "test-hooks";
    }

    Time GetSlotDuration() const override
    {
        return m_slot;
    }

    /// \return the budget the schedule gives a slot
    uint64_t BudgetOf(uint64_t slot) const
    {
        return (slot % 3 + 1) * m_unit;
    }

    std::vector<SlotCall> slotCalls;         //!< every budget handed out
    uint32_t sharedSlots{0};                 //!< slots with a link marked as a bottleneck
    std::vector<MigrationView> commits;      //!< every commit
    std::vector<MigrationView> cancels;      //!< every cancel
    std::vector<HandoverPlanInput> prepares; //!< every prepare
    std::vector<HandoverPlanInput> plans;    //!< every plan
    mutable uint32_t records{0};             //!< records completed

  protected:
    HandoverPlan DoPlan(const HandoverPlanInput& input) override
    {
        plans.push_back(input);
        HandoverPlan plan;
        for (const HandoverSessionView& s : input.sessions)
        {
            SessionPlan p;
            p.imsi = s.imsi;
            p.transfer.push_back({0, TokenRange::CONTEXT_END});
            p.weight = 2;
            if (!m_window.IsZero())
            {
                p.resume = SessionPlan::AT_DEADLINE;
                p.resumeAfter = m_window;
            }
            plan.sessions.push_back(p);
        }
        return plan;
    }

    HandoverPlan DoPrepare(const HandoverPlanInput& input) override
    {
        prepares.push_back(input);
        const HandoverSessionView& s = input.sessions.front();
        // The stable prefix: the whole blocks of the first half of the context.
        const uint64_t prefix = s.contextTokens / 2 / 16 * 16;
        HandoverPlan plan;
        plan.prefixTokens = prefix;
        SessionPlan p;
        p.imsi = s.imsi;
        if (prefix > 0)
        {
            p.prefill.push_back({0, prefix});
        }
        p.transfer.push_back({prefix, TokenRange::CONTEXT_END});
        p.keepDecoding = m_keepDecoding;
        plan.sessions.push_back(p);
        return plan;
    }

    void DoCommit(const MigrationView& migration) override
    {
        commits.push_back(migration);
    }

    void DoCancel(const MigrationView& migration) override
    {
        cancels.push_back(migration);
    }

    SlotBudgets DoSlot(const HandoverSlotInput& input) override
    {
        SlotBudgets budgets;
        for (const HandoverLinkView& l : input.links)
        {
            sharedSlots += l.bottleneck && l.imsis.size() > 1 ? 1 : 0;
        }
        for (const MigrationView& m : input.migrations)
        {
            budgets[m.imsi] = BudgetOf(input.slot);
            slotCalls.push_back({input.slot, m.imsi, m.epoch, budgets[m.imsi]});
        }
        return budgets;
    }

    void DoCompleteRecord(HandoverRecord& record) const override
    {
        record.policyValues["hook-records"] = ++records;
    }

  private:
    Time m_slot;         //!< Slot
    uint64_t m_unit;     //!< UnitBytes
    Time m_window;       //!< Window
    bool m_keepDecoding; //!< KeepDecoding
};

} // namespace ns3

#endif /* EDGE_LLM_HOOK_TEST_SCHEDULER_H */
