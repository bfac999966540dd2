/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_ORACLE_GROUPS_H
#define EDGE_LLM_ORACLE_GROUPS_H

#include "handover-plan.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The numbered groups of sessions whose handovers share one batch prefill: the oracle
 * groups announced in advance (HandoverCoordinator::AddOracleGroup), and the numbers of the
 * online cycle groups.
 *
 * An oracle group's batch waits for every member's handover, but no longer than a grace past
 * the latest expected one; then the group is released: it stops waiting for the members that
 * have not handed over, which are planned alone when they do. An online cycle group has a
 * number here and nothing else (its batch is the OnlineGrouper's).
 */
class OracleGroups
{
  public:
    /// An oracle group: the handovers one prefill batch holds.
    struct Group
    {
        std::map<uint64_t, Time> expected; //!< members and their expected handover times
        bool planned{false};               //!< the plan is fixed
        HandoverPlan plan;                 //!< the plan, once fixed
        std::vector<uint64_t> waiting;     //!< members that have not handed over yet
    };

    /// \param released called with a group's number when it stops waiting for members that
    /// never handed over (its batch may go without them)
    explicit OracleGroups(Callback<void, uint32_t> released);

    /**
     * \brief Announce an oracle group.
     * \param members (IMSI, expected handover time) of each session; none in a group already
     * \param grace how long past the latest expected time the batch waits; >= 0
     * \return the group's number, from 1
     */
    uint32_t Add(const std::vector<std::pair<uint64_t, Time>>& members, Time grace);
    /// \return the number of a new group without members (an online cycle group's)
    uint32_t NewNumber();
    /**
     * \brief A member hands over: its group no longer waits for it.
     * \param imsi the UE
     * \return its group, or 0 if it is in none that waits for it
     */
    uint32_t Leave(uint64_t imsi);
    /// \param group a group's number \return true if it waits for no member
    bool IsComplete(uint32_t group) const;
    /// \param group a group's number \return the group
    Group& Get(uint32_t group);

  private:
    /// The grace is over: stop waiting. \param group the group's number
    void Release(uint32_t group);

    Callback<void, uint32_t> m_released;    //!< told when a group is released
    std::vector<Group> m_groups;            //!< by number - 1
    std::map<uint64_t, uint32_t> m_groupOf; //!< IMSI to the group that waits for it
};

} // namespace ns3

#endif /* EDGE_LLM_ORACLE_GROUPS_H */
