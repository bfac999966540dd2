/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The policy contract's guards: budgets over a link's capacity, a slot hook without per-slot
// KV policies, a plan that misses a session, and an unknown policy attribute all stop the
// run, naming what is wrong.

#include "ns3/edge-llm-helper.h"
#include "ns3/edge-llm-line-scenario.h"
#include "ns3/handover-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace ns3
{

/// A policy with a 10 ms slot hook that hands out what it is told to.
class SlottedTestScheduler : public HandoverScheduler
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::SlottedTestScheduler")
                                .SetParent<HandoverScheduler>()
                                .SetGroupName("EdgeLlm")
                                .AddConstructor<SlottedTestScheduler>();
        return tid;
    }

    std::string GetSchemeName() const override
    {
        return "test-slotted";
    }

    Time GetSlotDuration() const override
    {
        return MilliSeconds(10);
    }

    SlotBudgets give;              //!< what Slot answers
    bool dropOne{false};           //!< Plan leaves the last session out
    bool sendKvWithoutLink{false}; //!< PlanWithoutDirectLink sends KV over the relays

  protected:
    HandoverPlan DoPlan(const HandoverPlanInput& input) override
    {
        HandoverPlan plan;
        for (const HandoverSessionView& s : input.sessions)
        {
            SessionPlan p;
            p.imsi = s.imsi;
            p.transfer.push_back({0, TokenRange::CONTEXT_END});
            plan.sessions.push_back(p);
        }
        if (dropOne)
        {
            plan.sessions.pop_back();
        }
        return plan;
    }

    SlotBudgets DoSlot(const HandoverSlotInput& /* input */) override
    {
        return give;
    }

    SessionPlan DoPlanWithoutDirectLink(const HandoverSessionView& session) override
    {
        SessionPlan p = HandoverScheduler::DoPlanWithoutDirectLink(session);
        if (sendKvWithoutLink)
        {
            p.prefill = {{0, 10}};
            p.transfer = {{10, TokenRange::CONTEXT_END}};
        }
        return p;
    }
};

NS_OBJECT_ENSURE_REGISTERED(SlottedTestScheduler);

} // namespace ns3

namespace
{

/// Two migrations on one 1 Gb/s link, in a 10 ms slot: 1,250,000 bytes of capacity.
HandoverSlotInput
SharedLink()
{
    HandoverSlotInput in;
    in.slot = 7;
    in.slotS = 0.01;
    HandoverLinkView link;
    link.fromCell = 1;
    link.toCell = 2;
    link.rateBps = 1e9;
    link.plannedRateBps = 1e9;
    link.imsis = {1, 2};
    link.bottleneck = true;
    in.links.push_back(link);
    for (uint64_t imsi : {1, 2})
    {
        MigrationView m;
        m.imsi = imsi;
        m.links = {0};
        in.migrations.push_back(m);
    }
    return in;
}

TEST(HandoverContractTest, BudgetsUpToALinksCapacityPass)
{
    Ptr<SlottedTestScheduler> s = CreateObject<SlottedTestScheduler>();
    s->give = {{1, 625000}, {2, 625000}};
    const SlotBudgets b = s->Slot(SharedLink());
    EXPECT_EQ(b.at(1) + b.at(2), 1250000u);
}

class HandoverContractDeathTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        GTEST_FLAG_SET(death_test_style, "threadsafe");
    }
};

TEST_F(HandoverContractDeathTest, BudgetsOverABottleneckStopTheRun)
{
    Ptr<SlottedTestScheduler> s = CreateObject<SlottedTestScheduler>();
    s->give = {{1, 625000}, {2, 625001}};
    EXPECT_DEATH(s->Slot(SharedLink()),
                 "HandoverScheduler test-slotted: slot 7 budgets 1250001 bytes on link 1 -> 2, "
                 "more than its capacity of 1250000 bytes");
    s->give = {{3, 1}};
    EXPECT_DEATH(s->Slot(SharedLink()), "a slot budget for imsi 3, which has no migration");
}

TEST_F(HandoverContractDeathTest, APlanMustCoverEverySession)
{
    HandoverPlanInput in;
    for (uint64_t imsi : {1, 2})
    {
        HandoverSessionView v;
        v.imsi = imsi;
        v.targetCell = 2;
        v.contextTokens = 100;
        in.sessions.push_back(v);
    }
    HandoverTargetView t;
    t.cell = 2;
    in.targets.push_back(t);
    Ptr<SlottedTestScheduler> s = CreateObject<SlottedTestScheduler>();
    s->dropOne = true;
    EXPECT_DEATH(s->Plan(in), "test-slotted: the plan has no SessionPlan for imsi 2");
}

/// Build a line whose policy has a slot hook, with the given KV policy and slot.
void
BuildSlotted(const std::string& kvPolicy, Time slot)
{
    Ptr<EdgeLlmLineScenario> s = CreateObject<EdgeLlmLineScenario>();
    s->SetAttribute("EnbCount", UintegerValue(2));
    Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
    edge->SetSchedulerType("ns3::SlottedTestScheduler");
    edge->SetKvTransferPolicyType(kvPolicy);
    if (kvPolicy == "ns3::SlotBudgetKvTransferPolicy")
    {
        edge->SetKvTransferPolicyAttribute("SlotDuration", TimeValue(slot));
    }
    s->Build();
    Simulator::Destroy();
}

TEST_F(HandoverContractDeathTest, ASlotHookNeedsPerSlotKvPoliciesOfItsSlot)
{
    EXPECT_DEATH(BuildSlotted("ns3::EdfKvTransferPolicy", MilliSeconds(10)),
                 "scheduler test-slotted budgets the backhaul per slot; its KV-transfer policy "
                 "must be ns3::SlotBudgetKvTransferPolicy");
    EXPECT_DEATH(BuildSlotted("ns3::SlotBudgetKvTransferPolicy", MilliSeconds(20)),
                 "SlotBudgetKvTransferPolicy::SlotDuration = \\+20ms is invalid; allowed: "
                 "\\+10ms, the slot of scheduler test-slotted");
}

TEST_F(HandoverContractDeathTest, AnUnknownPolicyAttributeIsNsThreesError)
{
    Ptr<EdgeLlmHelper> edge = CreateObject<EdgeLlmHelper>();
    EXPECT_DEATH(edge->SetSchedulerAttribute("Nope", UintegerValue(1)),
                 "Invalid attribute set \\(Nope\\) on ns3::CtHoScheduler");
    EXPECT_DEATH(edge->SetKvTransferPolicyAttribute("Nope", UintegerValue(1)),
                 "Invalid attribute set \\(Nope\\) on ns3::EdfKvTransferPolicy");
}

} // namespace

// Without a direct link only a whole re-prefill can cross the relays: the default answers it,
// and a plan that sends KV stops the run, naming the policy and the session.
TEST_F(HandoverContractDeathTest, WithoutADirectLinkOnlyAWholeReprefill)
{
    Ptr<SlottedTestScheduler> s = CreateObject<SlottedTestScheduler>();
    HandoverSessionView v;
    v.imsi = 5;
    v.contextTokens = 300;
    const SessionPlan p = s->PlanWithoutDirectLink(v);
    const std::vector<TokenRange> prefill = HandoverScheduler::Resolve(p.prefill, 300);
    ASSERT_EQ(prefill.size(), 1u);
    EXPECT_EQ(prefill[0].first, 0u);
    EXPECT_EQ(prefill[0].end, 300u);
    EXPECT_TRUE(p.transfer.empty());
    s->sendKvWithoutLink = true;
    EXPECT_DEATH(s->PlanWithoutDirectLink(v),
                 "HandoverScheduler test-slotted: the plan of imsi 5 without a direct link is "
                 "invalid; allowed: a prefill of \\[0, CONTEXT_END\\) and no transfer");
}

// The default join rule: no worse than the worse of the group's and the newcomer's alone.
TEST(HandoverContractTest, TheDefaultJoinRule)
{
    Ptr<SlottedTestScheduler> s = CreateObject<SlottedTestScheduler>();
    HandoverPlan joint;
    HandoverPlan alone;
    joint.predictedDelay = MilliSeconds(300);
    alone.predictedDelay = MilliSeconds(250);
    EXPECT_TRUE(s->JoinCycleGroup(joint, MilliSeconds(300), alone));
    EXPECT_FALSE(s->JoinCycleGroup(joint, MilliSeconds(299), alone));
    alone.predictedDelay = MilliSeconds(301);
    EXPECT_TRUE(s->JoinCycleGroup(joint, MilliSeconds(100), alone));
}
