/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A transfer that could never be sent stops the run, which a TestCase cannot observe.

#include "ns3/backhaul-helper.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Run a one-token transfer under a slot budget of the given size.
void
TransferUnderBudget(uint64_t budgetBytes)
{
    NodeContainer nodes;
    nodes.Create(2);
    InternetStackHelper().Install(nodes);
    const BackhaulLink link = CreateObject<BackhaulHelper>()->Install(nodes.Get(0), nodes.Get(1));
    Ptr<KvTransferApplication> a = CreateObject<KvTransferApplication>();
    Ptr<KvTransferApplication> b = CreateObject<KvTransferApplication>();
    nodes.Get(0)->AddApplication(a);
    nodes.Get(1)->AddApplication(b);
    Ptr<KvTransferSender> sender = a->AddPeer(link.addressA, link.addressB);
    Ptr<SlotBudgetKvTransferPolicy> policy = CreateObject<SlotBudgetKvTransferPolicy>();
    policy->SetBudget(1, 0, budgetBytes);
    sender->SetAttribute("Policy", PointerValue(policy));
    KvTransferRequest r;
    r.imsi = 1;
    r.ranges = {{0, 1}};
    r.bytesPerUnit = 57344;
    Simulator::Schedule(Seconds(0.1), &KvTransferSender::Enqueue, sender, r);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    Simulator::Destroy();
}

TEST(KvTransferSenderDeathTest, ABudgetBelowOneUnitStopsTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(TransferUnderBudget(1000),
                 "allows imsi 1 1000 bytes per refill, less than one unit of 57344 bytes");
}

TEST(KvTransferSenderDeathTest, ABudgetOfOneUnitSends)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            TransferUnderBudget(57344);
            std::exit(0);
        },
        ::testing::ExitedWithCode(0),
        "");
}

TEST(KvTransferSenderDeathTest, NeitherRangesNorTokensStopsTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<KvTransferSender> sender = CreateObject<KvTransferSender>();
    KvTransferRequest r;
    r.imsi = 4;
    r.bytesPerUnit = 57344;
    EXPECT_DEATH(sender->Enqueue(r),
                 "KvTransferRequest::ranges is empty and KvTransferRequest::forwardedCount = 0 "
                 "for imsi 4");
    // The same request with forwarded token IDs is a tokens-only transfer, and queues.
    r.forwardedCount = 16;
    EXPECT_EXIT(
        {
            sender->Enqueue(r);
            std::exit(sender->GetBacklogBytes() == 0 ? 0 : 1);
        },
        ::testing::ExitedWithCode(0),
        "");
    sender->Dispose();
}

} // namespace
