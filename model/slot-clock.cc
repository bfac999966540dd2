/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slot-clock.h"

#include "kv-transfer-policy.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

SlotClock::SlotClock(Length length, Gather gather, Ask ask, Busy busy)
    : m_length(std::move(length)),
      m_gather(std::move(gather)),
      m_ask(std::move(ask)),
      m_busy(std::move(busy))
{
}

void
SlotClock::Attach(Ptr<KvTransferSender> sender, const std::string& scheme)
{
    Ptr<SlotBudgetKvTransferPolicy> policy =
        DynamicCast<SlotBudgetKvTransferPolicy>(sender->GetPolicy());
    NS_ABORT_MSG_IF(!policy,
                    "HandoverCoordinator: scheduler "
                        << scheme
                        << " budgets the backhaul per slot; its KV-transfer policy must be "
                           "ns3::SlotBudgetKvTransferPolicy (EdgeLlmHelper::"
                           "SetKvTransferPolicyType)");
    TimeValue policySlot;
    policy->GetAttribute("SlotDuration", policySlot);
    const Time slot = m_length();
    NS_ABORT_MSG_IF(policySlot.Get() != slot,
                    "ns3::SlotBudgetKvTransferPolicy::SlotDuration = "
                        << policySlot.Get().As(Time::MS) << " is invalid; allowed: "
                        << slot.As(Time::MS) << ", the slot of scheduler " << scheme);
    policy->SetBudgetSource(MakeCallback(&SlotClock::GetBudget, this));
}

void
SlotClock::Compute(uint64_t slot)
{
    HandoverSlotInput input;
    input.nowS = Simulator::Now().GetSeconds();
    input.slot = slot;
    input.slotS = m_length().GetSeconds();
    m_epochs.clear();
    m_gather(input, m_epochs);
    m_budgets = input.migrations.empty() ? SlotBudgets{} : m_ask(input);
    m_slot = slot;
    m_valid = true;
}

uint64_t
SlotClock::GetBudget(uint64_t imsi, uint32_t epoch, uint64_t slot)
{
    if (m_report)
    {
        auto a = m_arrived.find({imsi, epoch});
        return a == m_arrived.end() ? 0 : a->second;
    }
    if (!m_valid || m_slot != slot)
    {
        Compute(slot);
    }
    auto e = m_epochs.find(imsi);
    auto b = m_budgets.find(imsi);
    return e == m_epochs.end() || e->second != epoch || b == m_budgets.end() ? 0 : b->second;
}

void
SlotClock::Arm()
{
    const Time slot = m_length();
    if (slot.IsZero() || !m_tick.IsExpired() || !m_busy())
    {
        return;
    }
    const Time now = Simulator::Now();
    const int64_t k = now.GetTimeStep() / slot.GetTimeStep() + 1;
    m_tick = Simulator::Schedule(slot * k - now, &SlotClock::Tick, this);
}

void
SlotClock::Cancel()
{
    m_tick.Cancel();
    m_arrived.clear();
}

void
SlotClock::SetRemote(Report report)
{
    m_report = std::move(report);
}

void
SlotClock::SetArrivedBudget(uint64_t imsi, uint32_t epoch, uint64_t bytes)
{
    // A newer epoch replaces the session's older ones at its sender.
    auto older = m_arrived.lower_bound({imsi, 0});
    while (older != m_arrived.end() && older->first.first == imsi && older->first.second < epoch)
    {
        older = m_arrived.erase(older);
    }
    m_arrived[{imsi, epoch}] = bytes;
}

void
SlotClock::Tick()
{
    const Time slot = m_length();
    const auto k = static_cast<uint64_t>(Simulator::Now().GetTimeStep() / slot.GetTimeStep());
    if (m_report)
    {
        if (m_report(k))
        {
            Arm();
        }
        return;
    }
    // The senders' refills at this instant may have asked already: one answer per slot.
    if (!m_valid || m_slot != k)
    {
        Compute(k);
    }
    // Only while a transfer is open.
    if (!m_epochs.empty())
    {
        Arm();
    }
}

} // namespace ns3
