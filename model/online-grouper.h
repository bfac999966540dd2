/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_ONLINE_GROUPER_H
#define EDGE_LLM_ONLINE_GROUPER_H

#include "cell-port.h"
#include "handover-plan.h"
#include "handover-scheduler.h"
#include "kv-transfer-sender.h"
#include "plan-input-builder.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Forms the online cycle groups: the handovers to one target that one prefill batch of
 * its engine will hold.
 *
 * Each handover planned online (HandoverCoordinator's Batching = online with the scheduler's
 * online grouping on) is planned twice: alone, as a batch of its own after every batch planned
 * at its target, and with the target's open group, the one whose batch has not started yet.
 * The grouper builds the views of both plans and keeps each group's batch: when the target is
 * free of earlier work, the engine's cycle boundary at which the batch starts, and the backlog
 * of the links the members use. It chooses nothing: the scheduler's PlanCycleGroup hook
 * chooses between keeping what members sent and letting their prefixes grow, and its
 * JoinCycleGroup hook chooses between joining and a batch alone, with its GetOnlineTokensSlack
 * as the margin on the token IDs' arrival. It changes no migration either: the coordinator
 * re-plans the members a joined group changes, from the Decision.
 */
class OnlineGrouper
{
  public:
    /// A migration under way in a group, as the plans see it.
    struct Member
    {
        uint64_t imsi{0};          //!< its UE
        uint16_t holder{0};        //!< the cell that holds its cache
        Time handoverStart;        //!< when it handed over
        uint64_t contextTokens{0}; //!< its context then
        uint64_t prefillTokens{0}; //!< the prefix its plan prefills at the target
        uint64_t plannedUnits{0};  //!< the KV units its plan sends
        uint64_t unsentUnits{0};   //!< of those, the units TCP has not taken yet
        uint64_t bytesPerToken{0}; //!< its KV bytes per token
        Time predictedDelay;       //!< its plan's predicted resume delay
    };

    /// What the grouper reads: the coordinator's directory, scheduler and migrations.
    class Host
    {
      public:
        virtual ~Host() = default;
        /// \return the scheduler that plans and chooses
        virtual Ptr<HandoverScheduler> GetScheduler() const = 0;
        /// \param cellId a cell \param site the calling function (CrossNodeAudit)
        /// \return the port the coordinator reaches it by
        virtual Ptr<CellPort> PortOf(uint16_t cellId, const char* site = __builtin_FUNCTION()) = 0;
        /// \param cellId a cell \return its port, only to read its configuration (its compute
        ///        model): not audited (CrossNodeAudit)
        virtual Ptr<const CellPort> ConfigOf(uint16_t cellId) const = 0;
        /// \param from a cell \param to another \return the rate the scheduler plans the link with
        virtual double GetPlannedRateBps(uint16_t from, uint16_t to) const = 0;
        /// \param cellId a cell \return when its planned handover prefills end, and their
        ///        tokens not yet done
        virtual std::pair<Time, uint64_t> GetPrefillForecast(uint16_t cellId) = 0;
        /**
         * \brief The members of a group whose plans a newcomer may still change: committed,
         * with a direct link to the target, and not given up on.
         * \param group a group's number \param target its target
         * \return them, in any order
         */
        virtual std::vector<Member> GetReplannableMembers(uint32_t group, uint16_t target) = 0;
        /// \return the number of a new group, shared with the oracle groups
        virtual uint32_t NewGroupNumber() = 0;
        /**
         * \brief When a target's engine ends its iteration, as the plan knows it: what the
         * target's answer reported where the control plane is on the network, else the engine.
         * \param cellId the target \return the time; now or earlier if it is idle
         */
        virtual Time GetTargetIterationEnd(uint16_t cellId) = 0;
    };

    /// How a handover is grouped.
    struct Decision
    {
        HandoverPlan plan;            //!< the plan of its group, with it
        uint32_t group{0};            //!< its group's number
        bool joined{false};           //!< it joined the open group: the members are re-planned
        bool batchMoved{false};       //!< the batch waits for it: queued prefills come out
        std::vector<uint64_t> others; //!< the group's members before it, by handover start
    };

    /// \param host what it reads; must outlive it \param inputs the view builder
    OnlineGrouper(Host* host, PlanInputBuilder* inputs);

    /**
     * \brief Plan a handover alone and with its target's open group, and take what the
     * scheduler chooses; a new group if it plans it alone.
     * \param imsi the UE \param holder the cell that holds its cache \param target its target
     * \return the plan and its group
     */
    Decision Plan(uint64_t imsi, uint16_t holder, uint16_t target);

    /**
     * \param group a group made here
     * \param prefills the prefix of each member that prefills, tokens
     * \return its target, and when its batch ends on the target's engine
     */
    std::pair<uint16_t, Time> GetBatchEnd(uint32_t group,
                                          const std::vector<uint64_t>& prefills) const;

    /// \param group a group's number \return true if it was made here
    bool IsOnline(uint32_t group) const;

  private:
    /// The batch of one group.
    struct Batch
    {
        uint16_t target{0}; //!< where it runs
        Time freeBefore;    //!< when the target is free of earlier work
        Time boundary;      //!< when it starts: a cycle boundary of the target's engine
        std::map<std::pair<uint16_t, uint16_t>, uint64_t> backlog; //!< bytes ahead, by link
    };

    /**
     * \brief Plan a group: the members under way, and a newcomer.
     * \param members the members, by handover start
     * \param imsi the newcomer \param holder its holder \param target the group's target
     * \param freeBefore when the target can start the batch, before rounding to a boundary
     * \param backlog the backlog of each link when the group formed; links not in it are read
     *        now
     * \param group the group's number; 0 for a batch alone
     * \return the scheduler's plan
     */
    HandoverPlan PlanGroup(const std::vector<Member>& members,
                           uint64_t imsi,
                           uint16_t holder,
                           uint16_t target,
                           Time freeBefore,
                           const std::map<std::pair<uint16_t, uint16_t>, uint64_t>& backlog,
                           uint32_t group);

    /// \param from a cell \param to another \return KV bytes ahead on the link, in TCP or queued
    uint64_t LinkBacklog(uint16_t from, uint16_t to) const;

    Host* m_host;                        //!< what it reads
    PlanInputBuilder* m_inputs;          //!< the view builder
    std::map<uint32_t, Batch> m_groups;  //!< by group number
    std::map<uint16_t, uint32_t> m_open; //!< by target: the group forming there
};

} // namespace ns3

#endif /* EDGE_LLM_ONLINE_GROUPER_H */
