/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CELL_DIRECTORY_H
#define EDGE_LLM_CELL_DIRECTORY_H

#include "cell-port.h"
#include "handover-plan.h"

#include "ns3/data-rate.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <utility>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief What the coordinator knows of the network: each cell's port, each backhaul link's
 * rate, the rate a scheduler plans with, and what a session's KV cache weighs.
 *
 * The rate planned and the KV overrides are the coordinator's attributes; the directory reads
 * them where they live, so that a change of an attribute before the run is seen here.
 */
class CellDirectory
{
  public:
    /// The coordinator's attributes the directory reads; each 0 means "not told".
    struct Settings
    {
        const DataRate* plannedRate;       //!< PlannedBackhaulRate; 0: each link's own
        const uint64_t* kvBytesPerToken;   //!< KvBytesPerToken; 0: the server's model
        const uint32_t* kvEntriesPerToken; //!< KvEntriesPerToken; 0: the server's model
        const uint64_t* kvEntryBytes;      //!< KvEntryBytes; 0: a token's bytes / entries
    };

    /// \param settings the coordinator's attributes; none may be null, each outlives this
    explicit CellDirectory(Settings settings);

    /**
     * \brief Add a cell; a cell added twice stops the run.
     * \param cellId the cell
     * \param port how the coordinator reaches its server, engine and KV applications
     */
    void AddCell(uint16_t cellId, Ptr<CellPort> port);

    /// \param cellId a cell \return its port; an unknown cell stops the run
    Ptr<CellPort> PortOf(uint16_t cellId) const;

    /// \param cellId a cell \return its port, or null if it was never added
    Ptr<CellPort> FindPort(uint16_t cellId) const;

    /**
     * \brief Add a backhaul link, both directions at one rate.
     * \param cellA a cell \param cellB another \param rate the link's rate
     */
    void AddLink(uint16_t cellA, uint16_t cellB, DataRate rate);

    /// \return every link direction's rate, by (from, to)
    const std::map<std::pair<uint16_t, uint16_t>, DataRate>& GetLinkRates() const;

    /// \param from a cell \param to another \return the rate planned on that link, bit/s
    double GetPlannedRateBps(uint16_t from, uint16_t to) const;

    /**
     * \param cellA the sending cell \param cellB the receiving cell
     * \return the KV rate R, tokens/s, planned from A to B at the KV bytes of a token of A's
     *         server; the slowest link's rate if A and B share none
     */
    double GetPlannedTokensPerSecond(uint16_t cellA, uint16_t cellB) const;

    /**
     * \brief Keep the goodput a receiver measured on the path from one cell to another (its
     * latest DATA message's dispersion: KvTransferReceiver::SetGoodputCallback).
     * \param from the sending cell \param to the receiving cell
     * \param bytesPerSecond the goodput, bytes/s, > 0
     */
    void RecordGoodput(uint16_t from, uint16_t to, double bytesPerSecond);

    /**
     * \param cellA the sending cell \param cellB the receiving cell
     * \return the latest goodput measured from A to B as a KV rate, tokens/s at the KV bytes of
     *         a token of A's server (as GetPlannedTokensPerSecond), or 0 if none was measured
     */
    double GetMeasuredTokensPerSecond(uint16_t cellA, uint16_t cellB) const;

    /**
     * \param imsi a session \param profile its own KV shape; each field >= 1
     */
    void SetSessionKvProfile(uint64_t imsi, const SessionKvProfile& profile);

    /**
     * \param imsi a session
     * \param holder the cell whose server holds it, 0 if none is known
     * \return its own KV shape, or that of its holder's model
     */
    SessionKvProfile GetKvProfile(uint64_t imsi, uint16_t holder) const;

    /// \param cellId a cell \return the KV shape of a session served there, without its own
    SessionKvProfile KvShapeAt(uint16_t cellId) const;

    /// Forget every cell, link and profile.
    void Clear();

  private:
    Settings m_settings;                                           //!< the coordinator's
    std::map<uint16_t, Ptr<CellPort>> m_cells;                     //!< by cell id
    std::map<std::pair<uint16_t, uint16_t>, DataRate> m_linkRates; //!< (from, to)
    std::map<uint64_t, SessionKvProfile> m_profiles;               //!< sessions with their own
    std::map<std::pair<uint16_t, uint16_t>, double> m_goodput;     //!< (from, to): bytes/s
};

} // namespace ns3

#endif /* EDGE_LLM_CELL_DIRECTORY_H */
