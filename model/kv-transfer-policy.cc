/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-transfer-policy.h"

#include "ns3/explaining-checker.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(KvTransferPolicy);
NS_OBJECT_ENSURE_REGISTERED(FifoKvTransferPolicy);
NS_OBJECT_ENSURE_REGISTERED(EdfKvTransferPolicy);
NS_OBJECT_ENSURE_REGISTERED(StrictPriorityKvTransferPolicy);
NS_OBJECT_ENSURE_REGISTERED(SlotBudgetKvTransferPolicy);

namespace
{
/// Index of the smallest candidate under a key; ties cannot happen, arrival is unique.
template <typename Key>
std::size_t
ArgMin(const std::vector<const KvTransferJobInfo*>& candidates, Key key)
{
    NS_ABORT_MSG_IF(candidates.empty(), "KvTransferPolicy::Select: no candidates");
    std::size_t best = 0;
    for (std::size_t i = 1; i < candidates.size(); ++i)
    {
        if (key(*candidates[i]) < key(*candidates[best]))
        {
            best = i;
        }
    }
    return best;
}
} // namespace

TypeId
KvTransferPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::KvTransferPolicy").SetParent<Object>().SetGroupName("EdgeLlm");
    return tid;
}

KvTransferPolicy::~KvTransferPolicy() = default;

uint64_t
KvTransferPolicy::GetAllowance(const KvTransferJobInfo& /* job */, Time /* now */) const
{
    return std::numeric_limits<uint64_t>::max();
}

Time
KvTransferPolicy::GetNextRefill(Time /* now */) const
{
    return Time::Max();
}

uint64_t
KvTransferPolicy::GetAllowancePerRefill(const KvTransferJobInfo& /* job */) const
{
    return std::numeric_limits<uint64_t>::max();
}

void
KvTransferPolicy::NotifySent(const KvTransferJobInfo& /* job */,
                             uint64_t /* bytes */,
                             Time /* now */)
{
}

TypeId
FifoKvTransferPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FifoKvTransferPolicy")
                            .SetParent<KvTransferPolicy>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<FifoKvTransferPolicy>();
    return tid;
}

std::size_t
FifoKvTransferPolicy::Select(const std::vector<const KvTransferJobInfo*>& candidates,
                             Time /* now */) const
{
    return ArgMin(candidates, [](const KvTransferJobInfo& j) { return j.arrival; });
}

TypeId
EdfKvTransferPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EdfKvTransferPolicy")
                            .SetParent<KvTransferPolicy>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<EdfKvTransferPolicy>();
    return tid;
}

std::size_t
EdfKvTransferPolicy::Select(const std::vector<const KvTransferJobInfo*>& candidates,
                            Time /* now */) const
{
    return ArgMin(candidates, [](const KvTransferJobInfo& j) {
        return std::make_tuple(j.deadline, j.arrival);
    });
}

TypeId
StrictPriorityKvTransferPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StrictPriorityKvTransferPolicy")
                            .SetParent<KvTransferPolicy>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<StrictPriorityKvTransferPolicy>();
    return tid;
}

std::size_t
StrictPriorityKvTransferPolicy::Select(const std::vector<const KvTransferJobInfo*>& candidates,
                                       Time /* now */) const
{
    return ArgMin(candidates, [](const KvTransferJobInfo& j) {
        return std::make_tuple(j.priority, j.arrival);
    });
}

TypeId
SlotBudgetKvTransferPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SlotBudgetKvTransferPolicy")
            .SetParent<KvTransferPolicy>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<SlotBudgetKvTransferPolicy>()
            .AddAttribute(
                "SlotDuration",
                "Length of a budget slot (> 0); slots start at t = 0.",
                TimeValue(MilliSeconds(10)),
                MakeTimeAccessor(&SlotBudgetKvTransferPolicy::m_slot),
                edgellm::MakeTimeNotNegativeChecker("ns3::SlotBudgetKvTransferPolicy::SlotDuration",
                                                    false))
            .AddAttribute("DefaultBudgetBytes",
                          "Bytes per slot of a session without its own budget (>= 0; 0 holds "
                          "such sessions back until SetBudget is called).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SlotBudgetKvTransferPolicy::m_defaultBudget),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

SlotBudgetKvTransferPolicy::SlotBudgetKvTransferPolicy() = default;

void
SlotBudgetKvTransferPolicy::SetBudget(uint64_t imsi, uint64_t bytesPerSlot)
{
    m_usage[imsi].budget = bytesPerSlot;
}

uint64_t
SlotBudgetKvTransferPolicy::GetSlotIndex(Time now) const
{
    return static_cast<uint64_t>(now.GetTimeStep() / m_slot.GetTimeStep());
}

std::size_t
SlotBudgetKvTransferPolicy::Select(const std::vector<const KvTransferJobInfo*>& candidates,
                                   Time /* now */) const
{
    return ArgMin(candidates, [](const KvTransferJobInfo& j) { return j.arrival; });
}

uint64_t
SlotBudgetKvTransferPolicy::GetAllowance(const KvTransferJobInfo& job, Time now) const
{
    auto it = m_usage.find(job.imsi);
    if (it == m_usage.end())
    {
        return m_defaultBudget;
    }
    const Usage& u = it->second;
    const uint64_t used = u.slot == GetSlotIndex(now) ? u.used : 0;
    return u.budget > used ? u.budget - used : 0;
}

uint64_t
SlotBudgetKvTransferPolicy::GetAllowancePerRefill(const KvTransferJobInfo& job) const
{
    auto it = m_usage.find(job.imsi);
    return it == m_usage.end() ? m_defaultBudget : it->second.budget;
}

Time
SlotBudgetKvTransferPolicy::GetNextRefill(Time now) const
{
    return m_slot * static_cast<int64_t>(GetSlotIndex(now) + 1);
}

void
SlotBudgetKvTransferPolicy::NotifySent(const KvTransferJobInfo& job, uint64_t bytes, Time now)
{
    auto [it, inserted] = m_usage.try_emplace(job.imsi);
    if (inserted)
    {
        it->second.budget = m_defaultBudget;
    }
    Usage& u = it->second;
    const uint64_t slot = GetSlotIndex(now);
    if (u.slot != slot)
    {
        u.slot = slot;
        u.used = 0;
    }
    u.used += bytes;
}

} // namespace ns3
