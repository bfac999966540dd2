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
                          edgellm::MakeExplainingChecker(
                              MakeUintegerChecker<uint64_t>(),
                              "ns3::SlotBudgetKvTransferPolicy::DefaultBudgetBytes",
                              "an integer in [0, 18446744073709551615]"));
    return tid;
}

SlotBudgetKvTransferPolicy::SlotBudgetKvTransferPolicy() = default;

void
SlotBudgetKvTransferPolicy::SetBudget(uint64_t imsi, uint32_t epoch, uint64_t bytesPerSlot)
{
    Usage& u = m_usage[{imsi, epoch}];
    u.hasBudget = true;
    u.budget = bytesPerSlot;
}

void
SlotBudgetKvTransferPolicy::SetBudgetSource(BudgetSource source)
{
    m_source = source;
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
SlotBudgetKvTransferPolicy::FixedBudget(const Key& key) const
{
    auto it = m_usage.find(key);
    return it != m_usage.end() && it->second.hasBudget ? it->second.budget : m_defaultBudget;
}

uint64_t
SlotBudgetKvTransferPolicy::GetAllowance(const KvTransferJobInfo& job, Time now) const
{
    const Key key{job.imsi, job.epoch};
    const uint64_t slot = GetSlotIndex(now);
    const uint64_t budget =
        m_source.IsNull() ? FixedBudget(key) : m_source(job.imsi, job.epoch, slot);
    auto it = m_usage.find(key);
    const uint64_t used = it != m_usage.end() && it->second.slot == slot ? it->second.used : 0;
    return budget > used ? budget - used : 0;
}

uint64_t
SlotBudgetKvTransferPolicy::GetAllowancePerRefill(const KvTransferJobInfo& job) const
{
    if (!m_source.IsNull())
    {
        return std::numeric_limits<uint64_t>::max();
    }
    return FixedBudget({job.imsi, job.epoch});
}

Time
SlotBudgetKvTransferPolicy::GetNextRefill(Time now) const
{
    return m_slot * static_cast<int64_t>(GetSlotIndex(now) + 1);
}

void
SlotBudgetKvTransferPolicy::NotifySent(const KvTransferJobInfo& job, uint64_t bytes, Time now)
{
    // The sender cancels a session's older epochs when it queues a newer one, so once the
    // newer one sends, their entries are of no more use; dropping them keeps one per session.
    auto older = m_usage.lower_bound({job.imsi, 0});
    while (older != m_usage.end() && older->first.first == job.imsi &&
           older->first.second < job.epoch)
    {
        older = m_usage.erase(older);
    }
    Usage& u = m_usage[{job.imsi, job.epoch}];
    const uint64_t slot = GetSlotIndex(now);
    if (u.slot != slot)
    {
        u.slot = slot;
        u.used = 0;
    }
    u.used += bytes;
}

} // namespace ns3
