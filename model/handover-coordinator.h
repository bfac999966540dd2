/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_COORDINATOR_H
#define EDGE_LLM_HANDOVER_COORDINATOR_H

#include "edge-llm-server.h"
#include "handover-record.h"
#include "handover-scheduler.h"
#include "kv-transfer-application.h"
#include "ran-observer.h"
#include "relay-paths.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Turns handover events into KV-cache recovery plans and carries them out.
 *
 * It listens to a RanObserver. At a source's HandoverStarted it routes the session's packets
 * to the target (relaying over the backhaul while the source still owns the session), asks
 * its HandoverScheduler for a plan and dispatches it: to the source, the forwarded token IDs
 * and then the KV ranges, on the KV-transfer sender of the link to the target, earliest
 * deadline first; to the target, the resumed session in its engine, the batch prefill once
 * every session of the batch has handed over and its tokens have arrived, and the resumption
 * of decoding once the prefill has ended and the last KV byte has arrived. A handover during
 * a migration bumps the session's epoch, cancels the transfer and replans.
 *
 * It is a global object that acts with zero latency: it reads the servers' state and
 * commands them directly, as if the control messages took no time. The data they exchange
 * (tokens, KV bytes) travels as packets.
 */
class HandoverCoordinator : public Object
{
  public:
    /// How sessions are grouped into batch prefills.
    enum Batching
    {
        ORACLE, //!< groups known in advance (AddOracleGroup); one plan per group, fixed at tau_1
        ONLINE, //!< each session planned alone when it hands over
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    HandoverCoordinator();
    ~HandoverCoordinator() override;

    /**
     * \brief Take a cell's server and the KV-transfer endpoints on its node.
     * \param server the cell's server (its engine and RanDownlink set)
     * \param kv the KV-transfer application on the same node
     */
    void AddCell(Ptr<EdgeLlmServer> server, Ptr<KvTransferApplication> kv);

    /**
     * \brief Take a backhaul link between two cells: KV senders both ways.
     * \param cellA a cell added with AddCell
     * \param senderAtoB the sender on A's node towards B
     * \param cellB another cell
     * \param senderBtoA the sender on B's node towards A
     * \param rate the link's rate (what PlannedBackhaulRate = 0 plans with)
     */
    void AddLink(uint16_t cellA,
                 Ptr<KvTransferSender> senderAtoB,
                 uint16_t cellB,
                 Ptr<KvTransferSender> senderBtoA,
                 DataRate rate);

    /**
     * \brief Say which cell a UE's session starts in (where the client opens it).
     * \param imsi the UE
     * \param cellId its first cell
     */
    void SetFirstCell(uint64_t imsi, uint16_t cellId);

    /**
     * \brief Listen to a RAN observer's handover events.
     * \param observer the observer
     */
    void Install(Ptr<RanObserver> observer);

    /**
     * \brief Announce a group of sessions that hand over together (oracle batching).
     *
     * Their first handover is planned as one ctHO group when the first of them hands over:
     * the session lengths are taken as the contexts each will have at its expected handover
     * time, and L is fixed then. The batch prefill waits for every member's handover, but no
     * longer than OracleGrace past the latest expected time: a member that has not handed
     * over by then is planned alone when it does.
     * \param members (IMSI, expected handover time) of each session; each IMSI in one group
     * \return the group's number, from 1
     */
    uint32_t AddOracleGroup(const std::vector<std::pair<uint64_t, Time>>& members);

    /// \return every handover so far, in the order they started
    const std::vector<HandoverRecord>& GetRecords() const;

    /// \return the scheduler in use
    Ptr<HandoverScheduler> GetScheduler() const;

    /**
     * \param cellA a cell
     * \param cellB another cell
     * \return the KV rate R, tokens/s, the scheduler is told for the link A to B
     */
    double GetPlannedTokensPerSecond(uint16_t cellA, uint16_t cellB) const;

    /**
     * TracedCallback signature of HandoverPlanned.
     * \param [in] imsi the UE
     * \param [in] prefillTokens tokens to re-prefill at the target
     * \param [in] transferTokens tokens whose KV cache is sent
     */
    typedef void (*PlannedTracedCallback)(uint64_t imsi,
                                          uint64_t prefillTokens,
                                          uint64_t transferTokens);

    /**
     * TracedCallback signature of SessionResumed.
     * \param [in] imsi the UE
     * \param [in] cellId the cell that decodes it now
     * \param [in] delay time from HandoverStart to the whole cache being ready
     */
    typedef void (*ResumedTracedCallback)(uint64_t imsi, uint16_t cellId, Time delay);

    /**
     * TracedCallback signature of MigrationCancelled.
     * \param [in] imsi the UE
     * \param [in] epoch the cancelled epoch
     * \param [in] bytes KV bytes withdrawn before they reached TCP
     */
    typedef void (*CancelledTracedCallback)(uint64_t imsi, uint32_t epoch, uint64_t bytes);

  protected:
    void DoDispose() override;

  private:
    /// A cell's pieces.
    struct Cell
    {
        Ptr<EdgeLlmServer> server;     //!< its server
        Ptr<KvTransferApplication> kv; //!< its KV-transfer endpoints
        Time prefillFreeAt{0};         //!< end of the handover prefills planned here
    };

    /// A migration under way; what it moves (contexts, prefill, transfer, the cells, the
    /// resume index) is in its HandoverRecord.
    struct Migration
    {
        uint32_t epoch{0};            //!< its epoch
        std::vector<uint16_t> route;  //!< cells the tokens cross, holder first, target last
        bool tokensIn{false};         //!< forwarded tokens have arrived (or none are needed)
        bool prefillSubmitted{false}; //!< its prefill is in the target's engine
        bool prefillDone{false};      //!< its prefill has ended (or none is needed)
        bool kvDone{false};           //!< its KV ranges have arrived (or none are sent)
        std::size_t record{0};        //!< index of its HandoverRecord
    };

    /// An oracle group.
    struct Group
    {
        std::map<uint64_t, Time> expected; //!< members and their expected handover times
        bool planned{false};               //!< the plan is fixed
        HandoverPlan plan;                 //!< the plan, once fixed
        std::vector<uint64_t> waiting;     //!< members that have not handed over yet
    };

    void HandoverStarted(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell);
    void UeReady(uint64_t imsi, uint16_t cellId);
    void TokensArrived(uint16_t cellId,
                       uint64_t imsi,
                       uint32_t epoch,
                       uint32_t first,
                       uint32_t count);
    void KvComplete(uint16_t cellId, uint64_t imsi, uint32_t epoch);
    void PrefillCompleted(uint16_t cellId, uint64_t imsi, uint64_t tokens, bool urgent);

    /// Start a migration of a session held at holder to target. \return false if impossible
    bool StartMigration(uint64_t imsi,
                        uint16_t holder,
                        uint16_t target,
                        std::size_t record,
                        const HandoverPlan& plan);
    /// Cancel a migration under way: withdraw its transfer and free the target's engine.
    void CancelMigration(uint64_t imsi);
    /// Stop waiting for the members of an oracle group that have not handed over.
    void ReleaseGroup(uint32_t group);
    /// Take a session out of its oracle group's waiting list. \return the group, 0 if none
    uint32_t LeaveGroup(uint64_t imsi);
    /// Plan a session alone (group 0), or fix its oracle group's plan. \return the plan
    HandoverPlan PlanFor(uint64_t imsi, uint16_t holder, uint16_t target, uint32_t group);
    /// Submit the prefills of a session (group 0) or of a group once all are ready for it.
    void TryPrefill(uint64_t imsi, uint32_t group);
    /// Resume a migrated session at its target if its whole cache is there.
    void TryResume(uint64_t imsi);
    /// \return the cell that owns a session, 0 if none
    uint16_t OwnerOf(uint64_t imsi) const;
    /// \return a cell, or stop the run
    Cell& GetCell(uint16_t cellId);
    /// \return the sender from one cell to another, or null
    Ptr<KvTransferSender> GetSender(uint16_t from, uint16_t to) const;
    /// \return the ctHO inputs common to every plan towards target from holder
    CtHoInput MakeProblem(uint16_t holder, uint16_t target);

    Ptr<HandoverScheduler> m_scheduler; //!< Scheduler
    Batching m_batching;                //!< Batching
    DataRate m_plannedRate;             //!< PlannedBackhaulRate
    uint64_t m_kvBytesPerToken;         //!< KvBytesPerToken
    Time m_oracleGrace;                 //!< OracleGrace

    std::map<uint16_t, Cell> m_cells;                                         //!< by cell id
    std::map<std::pair<uint16_t, uint16_t>, Ptr<KvTransferSender>> m_senders; //!< (from, to)
    std::map<std::pair<uint16_t, uint16_t>, DataRate> m_linkRates;            //!< (from, to)
    RelayPaths m_paths;                         //!< per session: owner, then relays
    std::map<uint64_t, uint32_t> m_epochs;      //!< per session: last epoch used
    std::map<uint64_t, Migration> m_migrations; //!< under way, by IMSI
    std::vector<Group> m_groups;                //!< oracle groups, number - 1
    std::map<uint64_t, uint32_t> m_groupOf;     //!< IMSI to its unplanned group number
    std::vector<HandoverRecord> m_records;      //!< every handover

    TracedCallback<uint64_t, uint64_t, uint64_t> m_plannedTrace;   //!< HandoverPlanned
    TracedCallback<uint64_t, uint16_t, Time> m_resumedTrace;       //!< SessionResumed
    TracedCallback<uint64_t, uint32_t, uint64_t> m_cancelledTrace; //!< MigrationCancelled
};

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_COORDINATOR_H */
