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
#include <limits>

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

/// An open request of imsi 3, epoch 1, holding [0, 16).
KvTransferRequest
OpenRequest()
{
    KvTransferRequest r;
    r.imsi = 3;
    r.epoch = 1;
    r.open = true;
    r.ranges = {{0, 16}};
    r.bytesPerUnit = 57344;
    return r;
}

TEST(KvTransferSenderDeathTest, AppendAndSealMisuseStopsTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // The sender is never connected, so everything stays queued.
    Ptr<KvTransferSender> sender = CreateObject<KvTransferSender>();
    sender->Enqueue(OpenRequest());
    KvTransferRequest closed = OpenRequest();
    closed.imsi = 4;
    closed.open = false;
    sender->Enqueue(closed);
    EXPECT_TRUE(sender->IsOpen(3, 1));
    EXPECT_FALSE(sender->IsOpen(4, 1)) << "enqueued closed";
    EXPECT_FALSE(sender->IsOpen(3, 0)) << "another epoch";

    EXPECT_DEATH(sender->Append(9, 1, {{16, 32}}),
                 "KvTransferSender::Append: imsi 9 epoch 1 is not queued");
    EXPECT_DEATH(sender->Append(3, 2, {{16, 32}}),
                 "KvTransferSender::Append: imsi 3 epoch 2 is not queued");
    EXPECT_DEATH(sender->Append(4, 1, {{16, 32}}),
                 "KvTransferSender::Append: imsi 4 epoch 1 is not open");
    EXPECT_DEATH(sender->Seal(4, 1), "KvTransferSender::Seal: imsi 4 epoch 1 is not open");
    EXPECT_DEATH(sender->Append(3, 1, {{16, 16}}), "an empty range \\[16, 16\\); end is > first");
    EXPECT_DEATH(sender->Append(3, 1, {{20, 10}}), "an empty range \\[20, 10\\); end is > first");
    EXPECT_DEATH(sender->Append(3, 1, {{8, 24}}),
                 "range \\[8, 24\\) overlaps a range the transfer holds");
    EXPECT_DEATH(sender->Append(3, 1, {{16, 32}, {20, 24}}),
                 "range \\[20, 24\\) overlaps a range the transfer holds");
    EXPECT_DEATH(sender->Append(3, 1, {{0xFFFFFFF0u, 0x100000010u}}), "ends past 2\\^32");
    EXPECT_DEATH(sender->Seal(3, 1, {{0, 1}}),
                 "KvTransferSender::Seal: imsi 3 epoch 1: range \\[0, 1\\) overlaps");
    // [0, 2^32) ends at 2^32, but holds one unit more than a message's 32-bit count carries.
    KvTransferRequest whole = OpenRequest();
    whole.imsi = 5;
    whole.ranges = {{0, uint64_t(1) << 32}};
    EXPECT_DEATH(sender->Enqueue(whole), "KvTransferHeader count = 4294967296 does not fit");

    // Valid use, then misuse of the sealed transfer.
    sender->Append(3, 1, {{32, 48}, {16, 32}});
    sender->Seal(3, 1, {{48, 53}});
    EXPECT_FALSE(sender->IsOpen(3, 1)) << "sealed";
    EXPECT_EQ(sender->GetBacklogBytes(), (16 + 16 + 16 + 5 + 16) * 57344u);
    EXPECT_EQ(sender->GetCounters(3).announced, (16 + 16 + 16 + 5) * 57344u);
    EXPECT_DEATH(sender->Append(3, 1, {{64, 80}}),
                 "KvTransferSender::Append: imsi 3 epoch 1 is sealed already");
    EXPECT_DEATH(sender->Seal(3, 1), "KvTransferSender::Seal: imsi 3 epoch 1 is sealed already");

    // A cancelled open transfer is gone, and its withdrawn bytes are counted by reason.
    EXPECT_EQ(sender->Cancel(3, 1, KvDiscardReason::LINK_DOWN), 53 * 57344u);
    EXPECT_EQ(sender->GetCounters(3).withdrawnBy[2], 53 * 57344u);
    EXPECT_DEATH(sender->Append(3, 1, {{64, 80}}), "imsi 3 epoch 1 is not queued");
    sender->Dispose();
}

TEST(KvTransferSenderDeathTest, AWeightThatIsNotPositiveAndFiniteStopsTheRun)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<KvTransferSender> sender = CreateObject<KvTransferSender>();
    KvTransferRequest r = OpenRequest();
    for (double w : {0.0,
                     -1.0,
                     std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()})
    {
        r.weight = w;
        EXPECT_DEATH(sender->Enqueue(r),
                     "KvTransferRequest::weight = .* for imsi 3; it is > 0 "
                     "and finite")
            << w;
    }
    sender->Dispose();
}

TEST(KvTransferSenderDeathTest, AnOpenTransferNeedsBytesPerUnitButNoRange)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Ptr<KvTransferSender> sender = CreateObject<KvTransferSender>();
    KvTransferRequest r = OpenRequest();
    r.ranges.clear();
    r.bytesPerUnit = 0;
    EXPECT_DEATH(sender->Enqueue(r), "KvTransferRequest::bytesPerUnit = 0 for imsi 3");
    r.bytesPerUnit = 100;
    r.weight = 2.5;
    sender->Enqueue(r); // open with no range: not tokens-only, and nothing to send yet
    EXPECT_TRUE(sender->IsOpen(3, 1));
    EXPECT_EQ(sender->GetBacklogBytes(), 0u);
    sender->Seal(3, 1, {{0, 3}});
    EXPECT_EQ(sender->GetBacklogBytes(), 300u);
    sender->Dispose();
}

} // namespace
