/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The migration's state machine, event by event: the states expected here are read off the
// manual's diagram by hand, not computed by the class.

#include "ns3/migration.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Records every transition a migration reports, and checks that none is skipped.
struct Recorder
{
    Migration::TransitionTrace transition;
    Migration::PhaseTrace phase;
    Migration::Traces traces{&transition, &phase};
    std::vector<std::string> states;
    std::vector<std::pair<int, int>> phases;
    std::string last = "none/no-prefill/no-kv/idle";
    int discontinuities = 0;

    Recorder()
    {
        transition.ConnectWithoutContext(MakeCallback(&Recorder::Transition, this));
        phase.ConnectWithoutContext(MakeCallback(&Recorder::Phase, this));
    }

    void Transition(uint64_t, uint32_t, const Migration::State& from, const Migration::State& to)
    {
        discontinuities += from.ToString() != last;
        last = to.ToString();
        states.push_back(last);
    }

    void Phase(uint64_t, uint32_t, int from, int to)
    {
        phases.emplace_back(from, to);
    }
};

std::string
Now(const Migration& m)
{
    return m.GetState().ToString();
}

TEST(Migration, CacheHandoverResumesWhenItsKvHasArrived)
{
    Recorder r;
    Migration m(7, r.traces);
    m.Begin(false, 0, true, false);
    EXPECT_EQ(Now(m), "committed/no-prefill/in-flight/idle");
    EXPECT_FALSE(m.CanResume());
    m.WatchLink();
    m.LinkChecked(true);
    EXPECT_TRUE(m.IsStalled());
    m.LinkChecked(false);
    m.KvArrived();
    EXPECT_EQ(Now(m), "committed/no-prefill/arrived/watching");
    ASSERT_TRUE(m.CanResume());
    m.Resume();
    EXPECT_EQ(Now(m), "resumed/no-prefill/arrived/idle");
    EXPECT_EQ(r.discontinuities, 0);
    EXPECT_EQ(r.states.size(), 6u) << "begin, watch, stalled, watching, arrived, resumed";
    const std::vector<std::pair<int, int>> phases{{Migration::NONE, Migration::COMMITTED},
                                                  {Migration::COMMITTED, Migration::RESUMED}};
    EXPECT_EQ(r.phases, phases);
}

TEST(Migration, PrefillWaitsForItsIdsAndTheResumeForThePrefill)
{
    Recorder r;
    Migration m(7, r.traces);
    m.Begin(false, 100, true, false);
    EXPECT_EQ(Now(m), "committed/awaiting-ids/in-flight/idle");
    EXPECT_FALSE(m.IdsIn());
    EXPECT_FALSE(m.ReadyForBatch());
    m.KvArrived();
    EXPECT_FALSE(m.CanResume()) << "all KV is in, but the prefix is not prefilled";
    m.IdsArrived();
    EXPECT_TRUE(m.ReadyForBatch());
    m.PrefillQueued();
    EXPECT_TRUE(m.IsPrefillQueued());
    EXPECT_FALSE(m.CanResume());
    m.PrefillEnded();
    EXPECT_EQ(Now(m), "committed/prefilled/arrived/idle");
    EXPECT_TRUE(m.CanResume());
    EXPECT_EQ(r.discontinuities, 0);
}

TEST(Migration, AStallGivenUpOnReprefillsAfterThePrefixOnceItsIdsAreIn)
{
    Recorder r;
    Migration m(7, r.traces);
    m.Begin(false, 64, true, false);
    m.IdsArrived();
    m.PrefillQueued();
    m.WatchLink();
    m.GiveUpOnLink(48, true);
    EXPECT_EQ(Now(m), "committed/queued-then-awaiting-ids/given-up/idle");
    EXPECT_TRUE(m.KvDone());
    EXPECT_EQ(m.GetPendingReprefill(), 48u);
    m.PrefillEnded(); // the prefix
    EXPECT_EQ(Now(m), "committed/reprefill-awaiting-ids/given-up/idle");
    EXPECT_EQ(m.TakeReprefill(), 0u) << "its IDs are not in";
    EXPECT_FALSE(m.CanResume());
    m.IdsArrived();
    EXPECT_EQ(m.TakeReprefill(), 48u);
    EXPECT_EQ(m.TakeReprefill(), 0u) << "taken once";
    EXPECT_EQ(Now(m), "committed/queued/given-up/idle");
    EXPECT_FALSE(m.CanResume());
    m.PrefillEnded(); // the re-prefill
    EXPECT_TRUE(m.CanResume());
    EXPECT_TRUE(m.GaveUpOnLink());
    EXPECT_EQ(r.discontinuities, 0);
}

TEST(Migration, AStallBeforeThePrefixIsSubmittedJoinsItsPrefill)
{
    Migration m(7, Migration::Traces{});
    m.Begin(false, 64, true, false);
    m.IdsArrived();
    m.GiveUpOnLink(48, true);
    EXPECT_EQ(Now(m), "committed/awaiting-ids/given-up/idle");
    EXPECT_EQ(m.GetPendingReprefill(), 0u) << "one prefill holds both";
    m.IdsArrived();
    EXPECT_TRUE(m.ReadyForBatch());
}

TEST(Migration, TheDeadlineEndsTheWindowOnlyWhileKvIsDue)
{
    Migration late(1, Migration::Traces{});
    late.Begin(false, 0, true, false);
    late.DeadlineReached();
    EXPECT_EQ(Now(late), "committed/no-prefill/window-over/idle");
    EXPECT_TRUE(late.CanResume());
    EXPECT_FALSE(late.KvDone());
    late.KvArrived(); // arriving before the resume: all of it counts
    EXPECT_TRUE(late.KvDone());

    Migration early(2, Migration::Traces{});
    early.Begin(false, 0, true, false);
    early.KvArrived();
    early.DeadlineReached();
    EXPECT_EQ(Now(early), "committed/no-prefill/arrived/idle");

    Migration prefixFirst(3, Migration::Traces{});
    prefixFirst.Begin(false, 10, true, false);
    prefixFirst.DeadlineReached();
    EXPECT_FALSE(prefixFirst.CanResume()) << "a prefix is never decoded over unprefilled";
}

TEST(Migration, APreparedOpenTransferIsSealedAtTheCommit)
{
    Recorder r;
    Migration m(7, r.traces);
    m.Begin(true, 0, false, true);
    EXPECT_EQ(Now(m), "prepared/no-prefill/open/idle");
    EXPECT_TRUE(m.IsOpen());
    EXPECT_FALSE(m.CanResume()) << "not handed over yet";
    m.Commit();
    EXPECT_EQ(Now(m), "committed/no-prefill/in-flight/idle");
    m.End(Migration::FAILED);
    EXPECT_EQ(Now(m), "failed/no-prefill/in-flight/idle");
    const std::vector<std::pair<int, int>> phases{{Migration::NONE, Migration::PREPARED},
                                                  {Migration::PREPARED, Migration::COMMITTED},
                                                  {Migration::COMMITTED, Migration::FAILED}};
    EXPECT_EQ(r.phases, phases);
}

TEST(Migration, AReplanResetsThePrefillToWhatTheNewPlanNeeds)
{
    Migration m(7, Migration::Traces{});
    m.Begin(false, 64, true, false);
    m.IdsArrived();
    m.PrefillQueued();
    m.Replanned(128, true, true); // a longer prefix: new IDs, and out of the queue
    EXPECT_EQ(Now(m), "committed/awaiting-ids/in-flight/idle");
    m.IdsArrived();
    m.PrefillQueued();
    m.Replanned(128, false, false); // same prefix, no range left: it stays queued
    EXPECT_EQ(Now(m), "committed/queued/no-kv/idle");
    m.Replanned(0, false, true); // no prefix at all
    EXPECT_EQ(Now(m), "committed/no-prefill/in-flight/idle");
}

TEST(MigrationDeathTest, AnEventThatCannotHappenStopsTheRunNamingTheState)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Migration m(9, Migration::Traces{});
    m.Begin(false, 64, true, false);
    EXPECT_DEATH(m.PrefillQueued(),
                 "imsi 9 epoch 0: PrefillQueued cannot happen in state "
                 "committed/awaiting-ids/in-flight/idle");
    EXPECT_DEATH(m.Resume(), "Resume cannot happen");
    EXPECT_DEATH(m.Commit(), "Commit cannot happen");
    m.End(Migration::CANCELLED);
    EXPECT_DEATH(m.End(Migration::CLOSED), "End cannot happen in state cancelled");
}

} // namespace
