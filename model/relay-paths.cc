/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "relay-paths.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RelayPaths");

RelayPaths::RelayPaths(ServerLookup servers)
    : m_servers(std::move(servers))
{
}

void
RelayPaths::Reset(uint64_t imsi, uint16_t cellId)
{
    m_paths[imsi] = {cellId};
}

bool
RelayPaths::RouteTo(uint64_t imsi, uint16_t cellId)
{
    std::vector<uint16_t>& path = m_paths[imsi];
    auto on = std::find(path.begin(), path.end(), cellId);
    if (path.empty() || on != path.end())
    {
        // The cells past it stop relaying: no packet reaches them any more, and a cell off the
        // path keeps no relay, so that one the path reaches again (below) relays nothing. The
        // last cell, where the UE was, relays to none.
        const auto from = static_cast<std::size_t>(on - path.begin()) + 1;
        for (std::size_t i = from; i + 1 < path.size(); ++i)
        {
            m_servers(path[i])->StopRelay(imsi);
        }
        path.erase(path.empty() ? path.end() : on + 1, path.end());
        if (path.empty())
        {
            path.push_back(cellId);
        }
        m_servers(cellId)->StopRelay(imsi);
        return true;
    }
    Ptr<CellPort> last = m_servers(path.back());
    if (!last->HasRelayPeer(cellId))
    {
        NS_LOG_WARN(
            "imsi " << imsi << " is in cell " << cellId << ", which has no backhaul link to "
                    << "cell " << path.back() << "; its tokens are refused until it comes back");
        return false;
    }
    last->StartRelay(imsi, cellId);
    path.push_back(cellId);
    return true;
}

void
RelayPaths::StopRelays(uint64_t imsi)
{
    const std::vector<uint16_t>& path = Get(imsi);
    for (std::size_t i = 1; i < path.size(); ++i)
    {
        m_servers(path[i])->StopRelay(imsi);
    }
}

const std::vector<uint16_t>&
RelayPaths::Get(uint64_t imsi) const
{
    static const std::vector<uint16_t> none;
    auto it = m_paths.find(imsi);
    return it == m_paths.end() ? none : it->second;
}

} // namespace ns3
