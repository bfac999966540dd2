/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cell-directory.h"

#include "kv-cache-profile.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

CellDirectory::CellDirectory(Settings settings)
    : m_settings(settings)
{
}

void
CellDirectory::AddCell(uint16_t cellId, Ptr<CellPort> port)
{
    NS_ABORT_MSG_IF(m_cells.count(cellId) > 0,
                    "HandoverCoordinator::AddCell: cell " << cellId << " added twice");
    m_cells[cellId] = port;
}

Ptr<CellPort>
CellDirectory::PortOf(uint16_t cellId) const
{
    Ptr<CellPort> port = FindPort(cellId);
    NS_ABORT_MSG_IF(!port, "HandoverCoordinator: no server in cell " << cellId);
    return port;
}

Ptr<CellPort>
CellDirectory::FindPort(uint16_t cellId) const
{
    auto it = m_cells.find(cellId);
    return it == m_cells.end() ? nullptr : it->second;
}

void
CellDirectory::AddLink(uint16_t cellA, uint16_t cellB, DataRate rate)
{
    m_linkRates[{cellA, cellB}] = rate;
    m_linkRates[{cellB, cellA}] = rate;
}

const std::map<std::pair<uint16_t, uint16_t>, DataRate>&
CellDirectory::GetLinkRates() const
{
    return m_linkRates;
}

double
CellDirectory::GetPlannedRateBps(uint16_t from, uint16_t to) const
{
    if (m_settings.plannedRate->GetBitRate() != 0)
    {
        return static_cast<double>(m_settings.plannedRate->GetBitRate());
    }
    auto it = m_linkRates.find({from, to});
    NS_ABORT_MSG_IF(it == m_linkRates.end(),
                    "HandoverCoordinator: no backhaul link " << from << " -> " << to);
    return static_cast<double>(it->second.GetBitRate());
}

double
CellDirectory::GetPlannedTokensPerSecond(uint16_t cellA, uint16_t cellB) const
{
    double bps = 0;
    if (m_settings.plannedRate->GetBitRate() != 0 || m_linkRates.count({cellA, cellB}) > 0)
    {
        bps = GetPlannedRateBps(cellA, cellB);
    }
    else
    {
        // No direct link: the slowest link is a rate the policy can still decide with.
        NS_ABORT_MSG_IF(m_linkRates.empty(), "HandoverCoordinator: no backhaul link at all");
        bps = std::numeric_limits<double>::max();
        for (const auto& [pair, rate] : m_linkRates)
        {
            bps = std::min(bps, GetPlannedRateBps(pair.first, pair.second));
        }
    }
    return bps / 8.0 / static_cast<double>(KvShapeAt(cellA).bytesPerToken);
}

void
CellDirectory::RecordGoodput(uint16_t from, uint16_t to, double bytesPerSecond)
{
    NS_ABORT_MSG_IF(!(bytesPerSecond > 0),
                    "CellDirectory::RecordGoodput: " << from << " -> " << to << ": goodput "
                                                     << bytesPerSecond
                                                     << " B/s; a measured goodput is > 0");
    m_goodput[{from, to}] = bytesPerSecond;
}

double
CellDirectory::GetMeasuredTokensPerSecond(uint16_t cellA, uint16_t cellB) const
{
    auto it = m_goodput.find({cellA, cellB});
    if (it == m_goodput.end())
    {
        return 0;
    }
    return it->second / static_cast<double>(KvShapeAt(cellA).bytesPerToken);
}

void
CellDirectory::SetSessionKvProfile(uint64_t imsi, const SessionKvProfile& profile)
{
    NS_ABORT_MSG_IF(
        profile.bytesPerToken == 0 || profile.bytesPerEntry == 0 || profile.entriesPerToken == 0,
        "HandoverCoordinator::SetSessionKvProfile: imsi "
            << imsi << ": bytesPerToken, bytesPerEntry and entriesPerToken are integers >= 1");
    m_profiles[imsi] = profile;
}

SessionKvProfile
CellDirectory::GetKvProfile(uint64_t imsi, uint16_t holder) const
{
    auto it = m_profiles.find(imsi);
    if (it != m_profiles.end())
    {
        return it->second;
    }
    NS_ABORT_MSG_IF(holder == 0,
                    "HandoverCoordinator: imsi " << imsi
                                                 << " has no holder cell to take its KV-cache "
                                                    "shape from; call SetFirstCell or "
                                                    "SetSessionKvProfile");
    return KvShapeAt(holder);
}

SessionKvProfile
CellDirectory::KvShapeAt(uint16_t cellId) const
{
    const uint64_t toldBytes = *m_settings.kvBytesPerToken;
    const uint32_t toldEntries = *m_settings.kvEntriesPerToken;
    const uint64_t entryBytes = *m_settings.kvEntryBytes;
    SessionKvProfile p;
    if (toldBytes == 0 || toldEntries == 0)
    {
        const KvCacheProfile model = PortOf(cellId)->GetKvCacheProfile();
        p.bytesPerToken = static_cast<uint64_t>(std::ceil(model.GetBytesPerToken()));
        const uint64_t entries = uint64_t(model.GetLayers()) * model.GetKvHeads();
        // An entry's index within its token must fit the KvEntriesPerToken range.
        NS_ABORT_MSG_IF(toldEntries == 0 && entries > (1u << 16),
                        "ns3::EdgeLlmServer::KvCache of cell "
                            << cellId << " = " << model.GetName()
                            << ": layers x KV heads = " << entries
                            << " entries per token is invalid; allowed: at most 65536, or set "
                               "ns3::HandoverCoordinator::KvEntriesPerToken");
        p.entriesPerToken = static_cast<uint32_t>(entries);
    }
    if (toldBytes != 0)
    {
        p.bytesPerToken = toldBytes;
    }
    if (toldEntries != 0)
    {
        p.entriesPerToken = toldEntries;
    }
    const uint64_t payload = (p.bytesPerToken + p.entriesPerToken - 1) / p.entriesPerToken;
    NS_ABORT_MSG_IF(entryBytes != 0 && entryBytes < payload,
                    "ns3::HandoverCoordinator::KvEntryBytes = "
                        << entryBytes << " is invalid; allowed: 0 or at least an entry's KV, "
                        << p.bytesPerToken << " bytes per token / " << p.entriesPerToken
                        << " entries = " << payload << " bytes");
    p.bytesPerEntry = entryBytes == 0 ? payload : entryBytes;
    return p;
}

void
CellDirectory::Clear()
{
    m_cells.clear();
    m_linkRates.clear();
    m_profiles.clear();
    m_goodput.clear();
}

} // namespace ns3
