/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_RELAY_PATHS_H
#define EDGE_LLM_RELAY_PATHS_H

#include "cell-port.h"

#include <functional>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Per session, the cells its downlink packets pass through: the holder's first, then
 * each server that relays them on over a backhaul link, the last one injecting them into its
 * cell (Detour, and a source that still owns a session while it migrates).
 *
 * When the UE turns up in a cell, the path is cut back to that cell if it is on it, or
 * extended to it over a backhaul link from its last cell; the servers' relay entries follow.
 */
class RelayPaths
{
  public:
    /// Finds the port of a cell (stops the run if there is none).
    using ServerLookup = std::function<Ptr<CellPort>(uint16_t)>;

    /**
     * \param servers how to reach the server of a cell
     */
    explicit RelayPaths(ServerLookup servers);

    /**
     * \brief Make a session's path one cell: its holder, which injects locally.
     * \param imsi the session
     * \param cellId the cell
     */
    void Reset(uint64_t imsi, uint16_t cellId);

    /**
     * \brief Make a session's packets reach a cell.
     * \param imsi the session
     * \param cellId where the UE is, or is about to be
     * \return false if no backhaul link leads there from the path's last cell; the path is
     *         then unchanged
     */
    bool RouteTo(uint64_t imsi, uint16_t cellId);

    /**
     * \brief Stop the relays of a session's path past its holder (before its holder changes:
     * the holder's own relay ends with its export of the session, EdgeLlmServer::ExportSession).
     * \param imsi the session; one without a path has nothing to stop
     */
    void StopRelays(uint64_t imsi);

    /**
     * \param imsi a session
     * \return its path, holder first; empty if it has none
     */
    const std::vector<uint16_t>& Get(uint64_t imsi) const;

  private:
    ServerLookup m_servers;                            //!< servers by cell
    std::map<uint64_t, std::vector<uint16_t>> m_paths; //!< per session
};

} // namespace ns3

#endif /* EDGE_LLM_RELAY_PATHS_H */
