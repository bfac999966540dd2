/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/kv-transfer-policy.h"
#include "ns3/nstime.h"

#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace ns3;

namespace
{
KvTransferJobInfo
Job(uint64_t imsi, uint64_t arrival, Time deadline, uint32_t priority)
{
    KvTransferJobInfo j;
    j.imsi = imsi;
    j.arrival = arrival;
    j.deadline = deadline;
    j.priority = priority;
    j.bytesPerUnit = 100;
    j.remainingBytes = 1000;
    return j;
}

std::vector<const KvTransferJobInfo*>
Pointers(const std::vector<KvTransferJobInfo>& jobs)
{
    std::vector<const KvTransferJobInfo*> out;
    for (const auto& j : jobs)
    {
        out.push_back(&j);
    }
    return out;
}
} // namespace

TEST(KvTransferPolicy, EachOrderPicksItsOwnFirst)
{
    const std::vector<KvTransferJobInfo> jobs = {
        Job(1, 5, Seconds(3), 2),
        Job(2, 2, Seconds(1), 9),
        Job(3, 7, Seconds(1), 0),
        Job(4, 9, Time::Max(), 0),
    };
    const auto c = Pointers(jobs);
    EXPECT_EQ(CreateObject<FifoKvTransferPolicy>()->Select(c, Seconds(0)), 1u);
    // Deadlines tie between jobs 2 and 3: arrival breaks it.
    EXPECT_EQ(CreateObject<EdfKvTransferPolicy>()->Select(c, Seconds(0)), 1u);
    // Priorities tie between jobs 3 and 4: arrival breaks it.
    EXPECT_EQ(CreateObject<StrictPriorityKvTransferPolicy>()->Select(c, Seconds(0)), 2u);
    EXPECT_EQ(CreateObject<FifoKvTransferPolicy>()->GetAllowance(jobs[0], Seconds(0)),
              std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(CreateObject<EdfKvTransferPolicy>()->GetNextRefill(Seconds(1)), Time::Max());
}

TEST(KvTransferPolicy, SlotBudgetChargesWithinASlotAndRefillsAtTheNext)
{
    Ptr<SlotBudgetKvTransferPolicy> p = CreateObject<SlotBudgetKvTransferPolicy>();
    p->SetAttribute("SlotDuration", TimeValue(MilliSeconds(10)));
    const KvTransferJobInfo a = Job(1, 0, Time::Max(), 0);
    const KvTransferJobInfo b = Job(2, 1, Time::Max(), 0);
    p->SetBudget(1, 0, 500);
    EXPECT_EQ(p->GetAllowance(a, MilliSeconds(3)), 500u);
    EXPECT_EQ(p->GetAllowance(b, MilliSeconds(3)), 0u) << "no budget, default 0";
    p->NotifySent(a, 300, MilliSeconds(3));
    EXPECT_EQ(p->GetAllowance(a, MilliSeconds(9)), 200u);
    p->NotifySent(a, 200, MilliSeconds(9));
    EXPECT_EQ(p->GetAllowance(a, MilliSeconds(9)), 0u);
    EXPECT_EQ(p->GetNextRefill(MilliSeconds(9)), MilliSeconds(10));
    EXPECT_EQ(p->GetAllowance(a, MilliSeconds(10)), 500u) << "a new slot, a new budget";
    EXPECT_EQ(p->GetSlotIndex(MilliSeconds(25)), 2u);
}

TEST(KvTransferPolicy, SlotDurationOfZeroIsRefused)
{
    Ptr<SlotBudgetKvTransferPolicy> p = CreateObject<SlotBudgetKvTransferPolicy>();
    EXPECT_FALSE(p->SetAttributeFailSafe("SlotDuration", TimeValue(Seconds(0))));
}
