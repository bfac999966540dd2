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
    switch (m_policyAt)
    {
    case POLICY_AT_CONTROLLER:
        return ControlMessage::CONTROLLER;
    case POLICY_AT_SOURCE:
        return m.route.front(); // beside its sender, which it reads at once
    default:
        return m.route.back();
    }
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
        CrossNodeAudit::Scope here(allocator);
        SetBudgets(allocator, late);
    }

    const std::vector<uint64_t> imsis = m_lifecycle.GetSlotMigrations();
    // What was counted of migrations that have ended is of no more use.
    for (auto* counts : {&m_progressSent, &m_progressKnown, &m_receivedSent, &m_receivedKnown})
    {
        for (auto c = counts->begin(); c != counts->end();)
        {
            const Migration* m = m_lifecycle.Find(c->first.first);
            c = m && m->epoch == c->first.second ? std::next(c) : counts->erase(c);
        }
    }
    // (reporting cell, the sender's peer, allocator, code) -> its report
    std::map<std::tuple<uint16_t, uint16_t, uint16_t, uint8_t>, ControlBatch> reports;
    std::set<uint16_t> allocators;
    // Each link's KV backlog at its sender now, by (allocator, sender, peer), for its report
    std::map<std::tuple<uint16_t, uint16_t, uint16_t>, uint64_t> backlogs;
    for (uint64_t imsi : imsis)
    {
        const Migration& m = *m_lifecycle.Find(imsi);
        const uint16_t sender = m.route[0];
        const uint16_t peer = m.route[1];
        const uint16_t target = m.route.back();
        const uint16_t allocator = AllocatorOf(m);
        allocators.insert(allocator);
        const EpochKey key{imsi, m.epoch};
        // Each sender counts what it sent of this migration at its own slot start, and the
        // load of its link; the allocator learns them from the reports alone.
        {
            CrossNodeAudit::Scope atSender(sender);
            Ptr<CellPort> port = PortOf(sender);
            const uint64_t sent = port->GetKvCounters(peer, imsi).sent - m.sentAtStart;
            const uint64_t backlog = port->GetKvLinkLoad(peer).backlogBytes;
            uint64_t& reported = m_progressSent[key];
            if (!HasControlPath(sender, allocator))
            {
                // No connection to report on: the allocator reads the sender as it is.
                m_progressKnown[key] = sent;
                m_backlogKnown[{allocator, sender, peer}] = backlog;
            }
            else
            {
                reports[{sender, peer, allocator, ControlMessage::SENT}].emplace_back(imsi,
                                                                                      m.epoch,
                                                                                      sent -
                                                                                          reported);
                backlogs[{allocator, sender, peer}] = backlog;
            }
            reported = sent;
        }
        if (target == allocator)
        {
            continue; // the target reads its own receiver
        }
        // Each target away from the allocator counts what arrived, at its own slot start.
        CrossNodeAudit::Scope atTarget(target);
        const uint64_t received = PortOf(target)->GetReceivedBytes(imsi) - m.receivedAtStart;
        uint64_t& reported = m_receivedSent[key];
        if (!HasControlPath(target, allocator))
        {
            m_receivedKnown[key] = received;
        }
        else
        {
            reports[{target, peer, allocator, ControlMessage::RECEIVED}].emplace_back(imsi,
                                                                                      m.epoch,
                                                                                      received -
                                                                                          reported);
        }
        reported = received;
    }
    for (const auto& [route, batch] : reports)
    {
        const auto [from, peer, allocator, code] = route;
        ControlMessage head;
        head.type = ControlMessage::PROGRESS;
        head.code = code;
        head.aboutCell = peer;
        head.sequence = static_cast<uint32_t>(slot);
        head.imsi = std::get<0>(batch.front());
        if (code == ControlMessage::SENT)
        {
            head.value = backlogs.at({allocator, from, peer});
        }
        m_reportsAwaited[{allocator, slot}] += SendBatch(from, allocator, head, batch);
    }
    for (uint16_t allocator : allocators)
    {
        if (m_reportsAwaited.count({allocator, slot}) == 0)
        {
            CrossNodeAudit::Scope here(allocator);
            SetBudgets(allocator, slot); // every sender of its reads at once
        }
    }
    return !imsis.empty();
}

void
HandoverCoordinator::ProgressArrived(uint16_t cellId, const ControlMessage& m)
{
    auto& known = m.code == ControlMessage::RECEIVED ? m_receivedKnown : m_progressKnown;
    for (const ControlMessage::Item& item : m.items)
    {
        known[{item.imsi, item.sequence}] += item.value;
    }
    if (m.code == ControlMessage::SENT)
    {
        m_backlogKnown[{cellId, m.fromCell, m.aboutCell}] = m.value;
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
    // The allocator budgets its own migrations, with what their senders (and targets) told it.
    std::map<std::pair<uint16_t, uint16_t>, uint64_t> backlog;
    for (const auto& [link, bytes] : m_backlogKnown)
    {
        if (std::get<0>(link) == allocator)
        {
            backlog[{std::get<1>(link), std::get<2>(link)}] = bytes;
        }
    }
    PlanInputBuilder::Reported reported;
    reported.sent = &m_progressKnown;
    // A target allocator reads its own receiver; any other learns arrivals from reports.
    reported.received = m_policyAt == POLICY_AT_TARGET ? nullptr : &m_receivedKnown;
    reported.backlog = &backlog;
    PlanInputBuilder::LinkIndex index;
    for (uint64_t imsi : m_lifecycle.GetSlotMigrations())
    {
        const Migration& m = *m_lifecycle.Find(imsi);
        if (AllocatorOf(m) == allocator)
        {
            input.migrations.push_back(
                m_inputs.MakeMigrationView(imsi, m, &input.links, &index, &reported));
        }
    }
    if (input.migrations.empty())
    {
        return;
    }
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
