/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LINK_FAILURE_HANDLER_H
#define EDGE_LLM_LINK_FAILURE_HANDLER_H

#include "cell-port.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief What a session does when its UE's radio link fails: suspend it until the UE is
 * back, close it, or let it decode on.
 *
 * The HandoverCoordinator routes the RAN's RadioLinkFailure and UeReady here. The handler
 * keeps the suspended and the closed sessions; what it needs of the coordinator (the cell that
 * owns a session, its migration, a handover from the holder, the session's packet path) it asks
 * through its Host.
 */
class LinkFailureHandler
{
  public:
    /// What a session does when its UE's radio link fails.
    enum Policy
    {
        /// Nothing changes: the holder decodes on, the cell refuses the packets while the UE is
        /// detached, and the client's NACKs recover them once it reconnects.
        LINK_FAILURE_CONTINUE,
        /// The session stops decoding while the UE is detached, and resumes where the UE
        /// reconnects; it is closed if that takes longer than the timeout.
        LINK_FAILURE_SUSPEND,
        /// The session is closed: its KV memory is freed and its undelivered tokens counted.
        LINK_FAILURE_CLOSE,
    };

    /// A session closed before its end, after a radio link failure.
    struct ClosedSession
    {
        uint16_t cellId{0};           //!< the cell that held it, whose memory was freed
        Time at;                      //!< when it was closed
        uint32_t tokensToGenerate{0}; //!< tokens it was to generate
        uint32_t generated{0};        //!< tokens generated before the close
        uint64_t delivered{0};        //!< tokens its UE's application had then
        uint64_t undelivered{0};      //!< tokensToGenerate - delivered: never reached it
    };

    /// What the handler asks of the coordinator it serves.
    class Host
    {
      public:
        virtual ~Host() = default;
        /// \param imsi a UE \return the cell that holds its session (whose server owns it), 0 if
        /// none
        virtual uint16_t HolderOf(uint64_t imsi) const = 0;
        /// \param cellId a cell \param site the calling function (CrossNodeAudit)
        /// \return the port the coordinator reaches it by
        virtual Ptr<CellPort> PortOf(uint16_t cellId, const char* site = __builtin_FUNCTION()) = 0;
        /// \param imsi a UE \return true if its session has a migration under way
        virtual bool HasMigration(uint64_t imsi) const = 0;
        /// End a session's migration as closed; the holder keeps the whole cache.
        /// \param imsi the UE \param at the cell that acts on the failure
        virtual void CloseMigration(uint64_t imsi, uint16_t at) = 0;
        /// Move a session as at a handover. \param imsi the UE \param from the cell it
        /// leaves \param to the cell it is in now
        virtual void Handover(uint64_t imsi, uint16_t from, uint16_t to) = 0;
        /// Send a session's packets to a cell. \param imsi the UE \param cellId the cell
        virtual void RouteTo(uint64_t imsi, uint16_t cellId) = 0;
        /// A session was closed. \param imsi the UE
        virtual void SessionClosed(uint64_t imsi) = 0;
    };

    /// The traces it fires: the coordinator's trace sources.
    struct Traces
    {
        TracedCallback<uint64_t, uint16_t>* suspended{nullptr};        //!< SessionSuspended
        TracedCallback<uint64_t, uint16_t, Time>* reattached{nullptr}; //!< SessionReattached
        TracedCallback<uint64_t, uint64_t, uint64_t>* closed{nullptr}; //!< SessionClosed
    };

    /**
     * \param host the coordinator it serves; must outlive it
     * \param traces where it reports; each must outlive it
     */
    LinkFailureHandler(Host* host, Traces traces);

    /**
     * \brief Set the policy.
     * \param policy what a session does
     * \param timeout how long a suspended session waits for its UE (0: no limit)
     */
    void Configure(Policy policy, Time timeout);

    /// \param delivered the tokens delivered to the application of a UE, by IMSI
    void SetDeliveredTokensProbe(Callback<uint64_t, uint64_t> delivered);

    /// A UE's radio link failed. \param imsi the UE \param cellId the cell it was in
    /// \param at the cell that acts on it: cellId, or the session's holder once the cell's
    /// notice reached it
    void RadioLinkFailure(uint64_t imsi, uint16_t cellId, uint16_t at);

    /**
     * \brief A UE is ready in a cell.
     * \param imsi the UE
     * \param cellId the cell
     * \return true if the handler dealt with it: a suspended session resumed or moved, or a
     *         closed one that nothing follows any more
     */
    bool UeReady(uint64_t imsi, uint16_t cellId);

    /// Close a session at the cell that owns it, counting what it did not deliver.
    /// \param imsi the UE
    void CloseSession(uint64_t imsi);

    /// \param imsi a UE \return true if its session is suspended
    bool IsSuspended(uint64_t imsi) const;

    /// \return the sessions closed after a radio link failure, by IMSI
    const std::map<uint64_t, ClosedSession>& GetClosedSessions() const;

    /// \return the tokens the closed sessions never delivered, summed over them
    uint64_t GetUndeliveredTokens() const;

    /// Cancel the timeouts and drop the probe.
    void Dispose();

  private:
    /// A session whose UE's link failed, waiting for the UE to reconnect.
    struct Suspension
    {
        uint16_t holder{0}; //!< the cell that holds its cache
        Time since;         //!< when it was suspended
        EventId timeout;    //!< its close at the timeout
    };

    Host* m_host;                                       //!< the coordinator
    Traces m_traces;                                    //!< where it reports
    Policy m_policy{LINK_FAILURE_CONTINUE};             //!< the policy
    Time m_timeout;                                     //!< the suspension timeout
    Callback<uint64_t, uint64_t> m_deliveredProbe;      //!< tokens delivered to a UE's app
    std::map<uint64_t, Suspension> m_suspended;         //!< suspended sessions, by IMSI
    std::map<uint64_t, ClosedSession> m_closedSessions; //!< closed sessions, by IMSI
};

} // namespace ns3

#endif /* EDGE_LLM_LINK_FAILURE_HANDLER_H */
