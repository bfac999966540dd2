/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/kv-transfer-policy.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <limits>
#include <tuple>
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

TEST(KvTransferPolicy, SlotBudgetsAreKeptPerSessionAndEpoch)
{
    Ptr<SlotBudgetKvTransferPolicy> p = CreateObject<SlotBudgetKvTransferPolicy>();
    p->SetAttribute("SlotDuration", TimeValue(MilliSeconds(10)));
    KvTransferJobInfo old = Job(1, 0, Time::Max(), 0);
    KvTransferJobInfo next = Job(1, 1, Time::Max(), 0);
    next.epoch = 1;
    const KvTransferJobInfo other = Job(2, 2, Time::Max(), 0);
    p->SetBudget(1, 0, 500);
    p->SetBudget(1, 1, 300);
    EXPECT_EQ(p->GetAllowance(old, MilliSeconds(1)), 500u);
    EXPECT_EQ(p->GetAllowance(next, MilliSeconds(1)), 300u);
    EXPECT_EQ(p->GetAllowance(other, MilliSeconds(1)), 0u) << "imsi 2 has no budget";
    EXPECT_EQ(p->GetAllowancePerRefill(old), 500u);
    EXPECT_EQ(p->GetAllowancePerRefill(next), 300u);
    p->NotifySent(old, 500, MilliSeconds(1));
    EXPECT_EQ(p->GetAllowance(old, MilliSeconds(2)), 0u);
    EXPECT_EQ(p->GetAllowance(next, MilliSeconds(2)), 300u) << "epoch 1 uses its own budget";
    p->NotifySent(next, 100, MilliSeconds(2));
    EXPECT_EQ(p->GetAllowance(next, MilliSeconds(3)), 200u);
    p->SetAttribute("DefaultBudgetBytes", UintegerValue(700));
    EXPECT_EQ(p->GetAllowance(other, MilliSeconds(3)), 700u) << "the default, read now";
}

TEST(KvTransferPolicy, ABudgetSourceSetsEachSlotAndReplacesFixedBudgets)
{
    Ptr<SlotBudgetKvTransferPolicy> p = CreateObject<SlotBudgetKvTransferPolicy>();
    p->SetAttribute("SlotDuration", TimeValue(MilliSeconds(10)));
    p->SetAttribute("DefaultBudgetBytes", UintegerValue(100000));
    p->SetBudget(1, 0, 100000);

    struct Calls
    {
        std::vector<std::tuple<uint64_t, uint32_t, uint64_t>> seen;

        uint64_t Budget(uint64_t imsi, uint32_t epoch, uint64_t slot)
        {
            seen.emplace_back(imsi, epoch, slot);
            // 0 in even slots, 250 bytes per slot index in odd ones, and 40 for epoch 3.
            return epoch == 3 ? 40 : (slot % 2 == 0 ? 0 : 250 * slot);
        }
    } calls;

    p->SetBudgetSource(MakeCallback(&Calls::Budget, &calls));
    KvTransferJobInfo a = Job(1, 0, Time::Max(), 0);
    KvTransferJobInfo b = Job(1, 1, Time::Max(), 0);
    b.epoch = 3;
    EXPECT_EQ(p->GetAllowance(a, MilliSeconds(5)), 0u) << "slot 0: the source says 0";
    EXPECT_EQ(p->GetAllowance(a, MilliSeconds(15)), 250u) << "slot 1";
    p->NotifySent(a, 200, MilliSeconds(15));
    EXPECT_EQ(p->GetAllowance(a, MilliSeconds(19)), 50u) << "slot 1, 200 used";
    EXPECT_EQ(p->GetAllowance(a, MilliSeconds(25)), 0u) << "slot 2";
    EXPECT_EQ(p->GetAllowance(a, MilliSeconds(35)), 750u) << "slot 3, nothing used yet";
    EXPECT_EQ(p->GetAllowance(b, MilliSeconds(35)), 40u) << "another epoch, its own budget";
    ASSERT_FALSE(calls.seen.empty());
    EXPECT_EQ(calls.seen.back(), std::make_tuple(uint64_t(1), uint32_t(3), uint64_t(3)));
    EXPECT_EQ(calls.seen.front(), std::make_tuple(uint64_t(1), uint32_t(0), uint64_t(0)));
    // A budget of 0 now says nothing of the next slot: never "below one unit per refill".
    EXPECT_EQ(p->GetAllowancePerRefill(a), std::numeric_limits<uint64_t>::max());

    p->SetBudgetSource(SlotBudgetKvTransferPolicy::BudgetSource());
    EXPECT_EQ(p->GetAllowance(b, MilliSeconds(45)), 100000u) << "back to the default";
    EXPECT_EQ(p->GetAllowancePerRefill(a), 100000u) << "and to the fixed budget";
}

TEST(KvTransferPolicy, SlotDurationOfZeroIsRefused)
{
    Ptr<SlotBudgetKvTransferPolicy> p = CreateObject<SlotBudgetKvTransferPolicy>();
    EXPECT_FALSE(p->SetAttributeFailSafe("SlotDuration", TimeValue(Seconds(0))));
}
