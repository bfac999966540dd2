/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A slot scheduler's budgets, set on a node other than the senders' (ControlPlane network,
// PolicyAt target or controller). At a slot's start each sender reports what it has sent
// (PROGRESS); the allocator sets the slot's budgets once every report of that slot is in, or
// at the next slot's start with what it has, and sends each sender its own (BUDGET). So the
// budgets rest on telemetry one round trip old when they apply, and a sender spends its
// newest budget until the next one reaches it.

#include "handover-coordinator.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <iterator>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorBudget");

uint16_t
HandoverCoordinator::AllocatorOf(const Migration& m) const
{
    return m_policyAt == POLICY_AT_CONTROLLER ? ControlMessage::CONTROLLER : m.route.back();
}

bool
HandoverCoordinator::HasControlPath(uint16_t a, uint16_t b) const
{
    auto x = m_channels.find(a);
    auto y = m_channels.find(b);
    return x != m_channels.end() && y != m_channels.end() && x->second->HasPeer(b) &&
           y->second->HasPeer(a);
}

uint32_t
HandoverCoordinator::SendBatch(uint16_t from,
                               uint16_t to,
                               const ControlMessage& head,
                               const ControlBatch& values)
{
    uint32_t sent = 0;
    ControlMessage m = head;
    const auto flush = [&]() {
        if (!m.items.empty())
        {
            m_channels.at(from)->Send(to, m);
            m.items.clear();
            ++sent;
        }
    };
    for (const auto& [imsi, epoch, value] : values)
    {
        // A session's items stay in one message: the receiver adds them up per message.
        std::vector<ControlMessage::Item> parts;
        uint64_t left = value;
        do
        {
            const uint64_t part = std::min<uint64_t>(left, std::numeric_limits<uint32_t>::max());
            parts.push_back({imsi, epoch, static_cast<uint32_t>(part)});
            left -= part;
        } while (left > 0);
        NS_ABORT_MSG_IF(parts.size() > ControlMessage::MAX_ITEMS,
                        "HandoverCoordinator: imsi " << imsi << "'s " << value
                                                     << " bytes need more than one message");
        if (m.items.size() + parts.size() > ControlMessage::MAX_ITEMS)
        {
            flush();
        }
        m.items.insert(m.items.end(), parts.begin(), parts.end());
    }
    flush();
    return sent;
}

bool
HandoverCoordinator::ReportProgress(uint64_t slot)
{
    // A slot whose reports are not all in by the next slot's start is set with what arrived.
    for (auto w = m_reportsAwaited.begin(); w != m_reportsAwaited.end();)
    {
        const auto [allocator, late] = w->first;
        w = m_reportsAwaited.erase(w);
        NS_LOG_INFO("slot " << late << ": reports to " << allocator << " still on their way");
        SetBudgets(allocator, late);
    }

    HandoverSlotInput input;
    std::map<uint64_t, uint32_t> epochs;
    m_lifecycle.GatherSlot(input, epochs);
    // What was counted of migrations that have ended is of no more use.
    for (auto* counts : {&m_progressSent, &m_progressKnown})
    {
        for (auto c = counts->begin(); c != counts->end();)
        {
            const Migration* m = m_lifecycle.Find(c->first.first);
            c = m && m->epoch == c->first.second ? std::next(c) : counts->erase(c);
        }
    }
    // (sender, its peer, allocator) -> its report
    std::map<std::tuple<uint16_t, uint16_t, uint16_t>, ControlBatch> reports;
    std::set<uint16_t> allocators;
    for (const MigrationView& v : input.migrations)
    {
        const Migration& m = *m_lifecycle.Find(v.imsi);
        const uint16_t sender = m.route[0];
        const uint16_t peer = m.route[1];
        const uint16_t allocator = AllocatorOf(m);
        allocators.insert(allocator);
        // The sender counts what it sent of this migration; the allocator learns it from the
        // reports alone.
        const EpochKey key{v.imsi, m.epoch};
        const uint64_t sent = PortOf(sender)->GetKvCounters(peer, v.imsi).sent - m.sentAtStart;
        uint64_t& reported = m_progressSent[key];
        if (!HasControlPath(sender, allocator))
        {
            // No connection to report on: the allocator reads the sender as it is.
            m_progressKnown[key] = sent;
            reported = sent;
            continue;
        }
        reports[{sender, peer, allocator}].emplace_back(v.imsi, m.epoch, sent - reported);
        reported = sent;
    }
    for (const auto& [route, batch] : reports)
    {
        const auto [sender, peer, allocator] = route;
        ControlMessage head;
        head.type = ControlMessage::PROGRESS;
        head.aboutCell = peer;
        head.sequence = static_cast<uint32_t>(slot);
        head.imsi = std::get<0>(batch.front());
        m_reportsAwaited[{allocator, slot}] += SendBatch(sender, allocator, head, batch);
    }
    for (uint16_t allocator : allocators)
    {
        if (m_reportsAwaited.count({allocator, slot}) == 0)
        {
            SetBudgets(allocator, slot); // every sender of its reads at once
        }
    }
    return !input.migrations.empty();
}

void
HandoverCoordinator::ProgressArrived(uint16_t cellId, const ControlMessage& m)
{
    for (const ControlMessage::Item& item : m.items)
    {
        m_progressKnown[{item.imsi, item.sequence}] += item.value;
    }
    auto w = m_reportsAwaited.find({cellId, m.sequence});
    if (w == m_reportsAwaited.end())
    {
        return; // its slot was set already, without it
    }
    if (--w->second == 0)
    {
        m_reportsAwaited.erase(w);
        SetBudgets(cellId, m.sequence);
    }
}

void
HandoverCoordinator::SetBudgets(uint16_t allocator, uint64_t slot)
{
    HandoverSlotInput input;
    input.nowS = Simulator::Now().GetSeconds();
    input.slot = slot;
    input.slotS = Scheduler()->GetSlotDuration().GetSeconds();
    std::map<uint64_t, uint32_t> epochs;
    m_lifecycle.GatherSlot(input, epochs);
    // The allocator budgets its own migrations, with what their senders told it.
    std::vector<MigrationView> mine;
    for (MigrationView& v : input.migrations)
    {
        const Migration& m = *m_lifecycle.Find(v.imsi);
        if (AllocatorOf(m) != allocator)
        {
            continue;
        }
        auto known = m_progressKnown.find({v.imsi, m.epoch});
        v.sentBytes = known == m_progressKnown.end() ? 0 : known->second;
        mine.push_back(v);
    }
    if (mine.empty())
    {
        return;
    }
    input.migrations = std::move(mine);
    const SlotBudgets budgets = Scheduler()->Slot(input);

    std::map<std::pair<uint16_t, uint16_t>, ControlBatch> out; // (sender, its peer)
    for (const MigrationView& v : input.migrations)
    {
        const Migration& m = *m_lifecycle.Find(v.imsi);
        auto b = budgets.find(v.imsi);
        const uint64_t bytes = b == budgets.end() ? 0 : b->second;
        const uint16_t sender = m.route[0];
        if (!HasControlPath(sender, allocator))
        {
            m_slotClock.SetArrivedBudget(v.imsi, m.epoch, bytes);
            PortOf(sender)->RescheduleKv(m.route[1]);
            continue;
        }
        out[{sender, m.route[1]}].emplace_back(v.imsi, m.epoch, bytes);
    }
    for (const auto& [route, batch] : out)
    {
        ControlMessage head;
        head.type = ControlMessage::BUDGET;
        head.aboutCell = route.second;
        head.sequence = static_cast<uint32_t>(slot);
        head.imsi = std::get<0>(batch.front());
        SendBatch(allocator, route.first, head, batch);
    }
}

void
HandoverCoordinator::BudgetArrived(uint16_t cellId, const ControlMessage& m)
{
    // The items of a session add up (SendBatch splits a budget above 32 bits).
    std::map<std::pair<uint64_t, uint32_t>, uint64_t> sums;
    for (const ControlMessage::Item& item : m.items)
    {
        sums[{item.imsi, item.sequence}] += item.value;
    }
    for (const auto& [key, bytes] : sums)
    {
        m_slotClock.SetArrivedBudget(key.first, key.second, bytes);
    }
    if (PortOf(cellId)->HasKvPeer(m.aboutCell))
    {
        PortOf(cellId)->RescheduleKv(m.aboutCell);
    }
}

} // namespace ns3
