/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "oracle-groups.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OracleGroups");

OracleGroups::OracleGroups(Callback<void, uint32_t> released)
    : m_released(released)
{
}

uint32_t
OracleGroups::Add(const std::vector<std::pair<uint64_t, Time>>& members, Time grace)
{
    NS_ABORT_MSG_IF(members.empty(), "HandoverCoordinator::AddOracleGroup: no member");
    Group g;
    const auto number = static_cast<uint32_t>(m_groups.size() + 1);
    Time latest = Time(0);
    for (const auto& [imsi, time] : members)
    {
        NS_ABORT_MSG_IF(m_groupOf.count(imsi) > 0 || g.expected.count(imsi) > 0,
                        "HandoverCoordinator::AddOracleGroup: imsi " << imsi
                                                                     << " is in a group already");
        g.expected[imsi] = time;
        g.waiting.push_back(imsi);
        m_groupOf[imsi] = number;
        latest = std::max(latest, time);
    }
    m_groups.push_back(g);
    Simulator::Schedule(std::max(latest + grace - Simulator::Now(), Time(0)),
                        &OracleGroups::Release,
                        this,
                        number);
    return number;
}

uint32_t
OracleGroups::NewNumber()
{
    m_groups.emplace_back();
    return static_cast<uint32_t>(m_groups.size());
}

uint32_t
OracleGroups::Leave(uint64_t imsi)
{
    auto member = m_groupOf.find(imsi);
    if (member == m_groupOf.end())
    {
        return 0;
    }
    const uint32_t group = member->second;
    m_groupOf.erase(member);
    Group& g = m_groups[group - 1];
    g.waiting.erase(std::remove(g.waiting.begin(), g.waiting.end(), imsi), g.waiting.end());
    return group;
}

bool
OracleGroups::IsComplete(uint32_t group) const
{
    return m_groups.at(group - 1).waiting.empty();
}

OracleGroups::Group&
OracleGroups::Get(uint32_t group)
{
    return m_groups.at(group - 1);
}

void
OracleGroups::Release(uint32_t group)
{
    Group& g = m_groups[group - 1];
    if (g.waiting.empty())
    {
        return;
    }
    NS_LOG_WARN("oracle group " << group << ": " << g.waiting.size()
                                << " members never handed over; its batch goes without them");
    for (uint64_t imsi : g.waiting)
    {
        m_groupOf.erase(imsi);
    }
    g.waiting.clear();
    m_released(group);
}

} // namespace ns3
