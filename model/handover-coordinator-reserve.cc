/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Reservations on the network: a handover's notice (or a prepare) carries the session's size
// from its holder, and the target admits the session when the reservation reaches it, as an LTE
// target's admission control does with a handover request. Its answer says how; the migration
// that starts takes that admission, and one that does not start releases it by message.

#include "handover-coordinator.h"

#include "ns3/log.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverCoordinatorReserve");

std::vector<ControlMessage::Item>
HandoverCoordinator::SizeAt(uint64_t imsi, uint16_t cellId)
{
    if (HolderOf(imsi) != cellId)
    {
        return {}; // held elsewhere (a relayed session): its target is sized at the start
    }
    Ptr<CellPort> holder = PortOf(cellId);
    if (!holder->HasSession(imsi) || holder->GetSessionState(imsi).generated == 0)
    {
        return {};
    }
    const uint64_t next = holder->GetNextTokenIndex(imsi);
    const uint64_t total = holder->GetSessionState(imsi).tokensToGenerate;
    const uint64_t context = holder->GetContextTokens(imsi);
    constexpr uint64_t most = std::numeric_limits<uint32_t>::max();
    if (next >= total || context > most || total - next > most)
    {
        // Nothing left to move, or a size the item cannot carry: no reservation.
        return {};
    }
    return {{imsi, static_cast<uint32_t>(context), static_cast<uint32_t>(total - next)}};
}

uint8_t
HandoverCoordinator::ReserveAt(uint16_t cellId, const ControlMessage& m)
{
    if (m.items.size() != 1 || m.items.front().imsi != m.imsi || m.items.front().sequence == 0 ||
        m.items.front().value == 0 || PortOf(cellId)->HasSession(m.imsi))
    {
        // No size of this session, or the cell holds it already (a copy whose release or
        // cancel is still on its way): it is admitted when the migration starts.
        return ControlMessage::NOT_RESERVED;
    }
    const ControlMessage::Item& size = m.items.front();
    const LlmEngine::Admission admission =
        m_lifecycle.Admit(m.imsi, cellId, size.sequence, size.value);
    if (admission != LlmEngine::Admission::REJECTED)
    {
        m_reserved[{m.imsi, cellId}] = m.sequence;
    }
    NS_LOG_INFO("cell " << cellId << ": imsi " << m.imsi << " reserved with " << size.sequence
                        << " context + " << size.value << " to generate: admission "
                        << static_cast<int>(admission));
    return static_cast<uint8_t>(admission);
}

std::optional<LlmEngine::Admission>
HandoverCoordinator::TakeAdmission(uint64_t imsi, uint16_t target)
{
    // The answer of the handover or prepare being acted on: only its UE starts a migration
    // to its target meanwhile.
    const auto reserved = m_reserved.find({imsi, target});
    const auto answered = m_answered.find(target);
    if (answered != m_answered.end() && answered->second.admission != ControlMessage::NOT_RESERVED)
    {
        const auto admission = static_cast<LlmEngine::Admission>(answered->second.admission);
        answered->second.admission = ControlMessage::NOT_RESERVED; // taken
        if (reserved != m_reserved.end() && reserved->second == m_startingNotice)
        {
            m_reserved.erase(reserved); // the migration's from now on
        }
        return admission;
    }
    if (reserved != m_reserved.end())
    {
        // The reservation reached the target, but its answer did not come back in time
        // (PlanTimeout): the source plans alone, and admits the session afresh.
        NS_LOG_INFO("imsi " << imsi << ": admitted at cell " << target
                            << " by a reservation whose answer did not come; admitted again");
        PortOf(target)->RemoveSession(imsi);
        m_reserved.erase(reserved);
    }
    return std::nullopt;
}

void
HandoverCoordinator::ReleaseUnused(const ControlMessage& m)
{
    const auto answered = m_answered.find(m.aboutCell);
    if (answered != m_answered.end() && answered->second.admission < ControlMessage::REJECTED)
    {
        SendRelease(m.imsi, m.fromCell, m.aboutCell, m.sequence);
    }
}

void
HandoverCoordinator::SendRelease(uint64_t imsi, uint16_t at, uint16_t target, uint32_t notice)
{
    NS_LOG_INFO("imsi " << imsi << ": no migration took its reservation at cell " << target
                        << "; cell " << at << " releases it");
    m_channels.at(at)->Send(target,
                            ControlMessage::ForUe(ControlMessage::RELEASE, imsi, target, notice));
}

void
HandoverCoordinator::ReleaseArrived(uint16_t cellId, const ControlMessage& m)
{
    const auto reserved = m_reserved.find({m.imsi, cellId});
    if (reserved == m_reserved.end() || reserved->second != m.sequence)
    {
        return; // admitted afresh by a source that planned alone, or released already
    }
    m_reserved.erase(reserved);
    PortOf(cellId)->RemoveSession(m.imsi);
}

} // namespace ns3
