/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Randomised checks of the ctHO solver against independent references: a scan of every L,
// and a general preemptive EDF simulation for the transfer delay.

#include "ns3/ctho-solver.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

struct Instance
{
    CtHoInput input;
    LlmComputeModel compute;
};

Instance
RandomInstance(std::mt19937_64& rng, uint64_t largestCMax = 4000)
{
    std::uniform_int_distribution<int> kDist(1, 12);
    std::uniform_int_distribution<uint64_t> cMaxDist(1, largestCMax);
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    const int k = kDist(rng);
    const uint64_t cMax = cMaxDist(rng);
    std::uniform_int_distribution<uint64_t> cDist(1, cMax);

    CtHoInput in;
    double tau = u01(rng);
    for (int i = 0; i < k; ++i)
    {
        // Mostly close handovers, some ties, some long gaps that leave the backhaul idle.
        const double r = u01(rng);
        tau += r < 0.15 ? 0.0 : (r < 0.85 ? 0.05 * u01(rng) : 2.0 * u01(rng));
        in.ues.push_back({cDist(rng), tau});
    }
    std::shuffle(in.ues.begin(), in.ues.end(), rng);
    in.backhaulTokensPerSecond = std::pow(10.0, 2.0 + 3.0 * u01(rng)); // 1e2 .. 1e5
    const double cycles[] = {0.0, 0.01, 0.05, 0.2};
    in.prefillCycle = cycles[rng() % 4];
    if (u01(rng) < 0.3)
    {
        in.earliestPrefillStart = tau + u01(rng);
    }
    if (u01(rng) < 0.3)
    {
        in.backlogTokens = 2000.0 * u01(rng);
    }
    if (u01(rng) < 0.3)
    {
        in.blockAligned = true;
        in.blockTokens = 1 + rng() % 64;
    }

    const BatchPrefillMode mode =
        u01(rng) < 0.5 ? BatchPrefillMode::PADDED_MAX : BatchPrefillMode::TOKEN_COUNT;
    PrefillCurve curve = PrefillCurve::Linear(1e-5 + 5e-4 * u01(rng), 5e-3 * u01(rng));
    if (u01(rng) < 0.4)
    {
        std::vector<PrefillCurve::Point> pts;
        uint64_t x = 0;
        double y = 0;
        for (int i = 0; i < 5; ++i)
        {
            x += 1 + rng() % 1500;
            y += 0.3 * u01(rng);
            pts.emplace_back(x, y);
        }
        curve = PrefillCurve::Measured(pts);
    }
    return {in, LlmComputeModel(curve, mode, DecodeStepModel{})};
}

/**
 * Whether every transfer meets tau_i + d, by simulating preemptive EDF with release times
 * (tau_i, or the end of the backlog) and no assumption about the order of deadlines.
 */
bool
EdfFeasible(const CtHoInput& in, uint64_t l, double d)
{
    struct Job
    {
        double release;
        double deadline;
        double left;
    };

    std::vector<Job> jobs;
    double tau1 = in.ues.front().handoverTime;
    for (const auto& u : in.ues)
    {
        tau1 = std::min(tau1, u.handoverTime);
    }
    const double linkFree = tau1 + in.backlogTokens / in.backhaulTokensPerSecond;
    for (const auto& u : in.ues)
    {
        if (u.contextTokens > l)
        {
            jobs.push_back({std::max(u.handoverTime, linkFree),
                            u.handoverTime + d,
                            static_cast<double>(u.contextTokens - l) / in.backhaulTokensPerSecond});
        }
    }
    double t = linkFree;
    for (;;)
    {
        Job* next = nullptr;
        double nextRelease = INFINITY;
        for (auto& j : jobs)
        {
            if (j.left <= 0)
            {
                continue;
            }
            if (j.release <= t)
            {
                if (!next || j.deadline < next->deadline)
                {
                    next = &j;
                }
            }
            else
            {
                nextRelease = std::min(nextRelease, j.release);
            }
        }
        if (!next)
        {
            if (nextRelease == INFINITY)
            {
                return true;
            }
            t = nextRelease;
            continue;
        }
        const double run = std::min(next->left, nextRelease - t);
        t += run;
        next->left -= run;
        if (next->left <= 1e-15 * std::max(1.0, t))
        {
            next->left = 0;
            if (t > next->deadline + 1e-9 * std::max(1.0, t))
            {
                return false;
            }
        }
    }
}

double
Tol(double x)
{
    return 1e-9 * std::max(1.0, std::abs(x));
}

/**
 * V(L) computed from the model's definition, sharing no code with the solver but the compute
 * model: t_s by stepping over cycle boundaries, the batch from its sequence lengths, and the
 * transfer delay from the busy windows, max over j <= k of r_j + sum_{i=j..k} n_i / R - tau_k.
 */
double
ReferenceWorstDelay(const CtHoInput& in, const LlmComputeModel& gpu, uint64_t l)
{
    std::vector<CtHoUe> ues = in.ues;
    std::stable_sort(ues.begin(), ues.end(), [](const CtHoUe& a, const CtHoUe& b) {
        return a.handoverTime < b.handoverTime;
    });
    const double tau1 = ues.front().handoverTime;
    const double ready = std::max(ues.back().handoverTime, in.earliestPrefillStart);
    double ts = ready;
    if (in.prefillCycle > 0)
    {
        double k = std::floor(ready / in.prefillCycle) - 1;
        while (k * in.prefillCycle < ready - 1e-9 * in.prefillCycle)
        {
            k += 1;
        }
        ts = std::max(k * in.prefillCycle, ready);
    }
    std::vector<uint64_t> lengths;
    for (const auto& u : ues)
    {
        lengths.push_back(std::min(u.contextTokens, l));
    }
    const PrefillBatch batch = PrefillBatch::FromLengths(lengths);
    const double prefill = batch.sequences == 0 ? 0.0 : ts + gpu.BatchPrefillTime(batch) - tau1;

    const double r = in.backhaulTokensPerSecond;
    const double linkFree = tau1 + in.backlogTokens / r;
    double transfer = 0;
    for (std::size_t k = 0; k < ues.size(); ++k)
    {
        if (ues[k].contextTokens <= l)
        {
            continue;
        }
        for (std::size_t j = 0; j <= k; ++j)
        {
            double work = 0;
            for (std::size_t i = j; i <= k; ++i)
            {
                work += ues[i].contextTokens > l ? (ues[i].contextTokens - l) / r : 0.0;
            }
            transfer =
                std::max(transfer,
                         std::max(ues[j].handoverTime, linkFree) + work - ues[k].handoverTime);
        }
    }
    return std::max(prefill, transfer);
}

TEST(CtHoSolverRandom, SolveEqualsAnIndependentBruteForce)
{
    std::mt19937_64 rng(11);
    for (int n = 0; n < 1500; ++n)
    {
        const Instance inst = RandomInstance(rng, 1500);
        const CtHoSolver s(inst.input, inst.compute);
        uint64_t cMax = 0;
        for (const auto& u : inst.input.ues)
        {
            cMax = std::max(cMax, u.contextTokens);
        }
        std::vector<uint64_t> allowed;
        const uint64_t step = inst.input.blockAligned ? inst.input.blockTokens : 1;
        for (uint64_t l = 0; l <= cMax; l += step)
        {
            allowed.push_back(l);
        }
        if (allowed.back() != cMax)
        {
            allowed.push_back(cMax);
        }
        double best = INFINITY;
        for (uint64_t l : allowed)
        {
            best = std::min(best, ReferenceWorstDelay(inst.input, inst.compute, l));
        }
        const CtHoValue v = s.Solve();
        ASSERT_NEAR(v.worstDelay, best, Tol(best)) << "instance " << n;
        ASSERT_NEAR(ReferenceWorstDelay(inst.input, inst.compute, v.prefixTokens), best, Tol(best))
            << "instance " << n << ": L* does not attain the optimum";
        ASSERT_TRUE(std::find(allowed.begin(), allowed.end(), v.prefixTokens) != allowed.end());
    }
}

TEST(CtHoSolverRandom, SolveEqualsTheScanOfEveryL)
{
    std::mt19937_64 rng(20261129);
    for (int n = 0; n < 3000; ++n)
    {
        const Instance inst = RandomInstance(rng);
        const CtHoSolver s(inst.input, inst.compute);
        const CtHoValue fast = s.Solve();
        const CtHoValue scan = s.SolveByScan();
        ASSERT_NEAR(fast.worstDelay, scan.worstDelay, Tol(scan.worstDelay)) << "instance " << n;
        if (inst.input.blockAligned)
        {
            const uint64_t b = inst.input.blockTokens;
            ASSERT_TRUE(fast.prefixTokens % b == 0 || fast.prefixTokens == s.GetMaxContext());
        }
    }
}

TEST(CtHoSolverRandom, PrefillDelayRisesTransferDelayFalls)
{
    std::mt19937_64 rng(7);
    for (int n = 0; n < 500; ++n)
    {
        const Instance inst = RandomInstance(rng);
        const CtHoSolver s(inst.input, inst.compute);
        double f = s.PrefillDelay(0);
        double g = s.TransferDelay(0);
        for (uint64_t l = 1; l <= s.GetMaxContext(); ++l)
        {
            const double f1 = s.PrefillDelay(l);
            const double g1 = s.TransferDelay(l);
            ASSERT_GE(f1, f - Tol(f)) << "instance " << n << " L " << l;
            ASSERT_LE(g1, g + Tol(g)) << "instance " << n << " L " << l;
            f = f1;
            g = g1;
        }
        ASSERT_EQ(s.TransferDelay(s.GetMaxContext()), 0.0);
    }
}

TEST(CtHoSolverRandom, CtHoNeverWorseThanTHoOrCHo)
{
    std::mt19937_64 rng(99);
    int strictlyBetter = 0;
    for (int n = 0; n < 2000; ++n)
    {
        const Instance inst = RandomInstance(rng);
        const CtHoSolver s(inst.input, inst.compute);
        const double best = std::min(s.Tho().worstDelay, s.Cho().worstDelay);
        ASSERT_LE(s.Solve().worstDelay, best) << "instance " << n;
        strictlyBetter += s.Solve().worstDelay < best - 1e-9 ? 1 : 0;
    }
    // Not an assertion of ctHO's merit on these inputs, only that the search is not stuck at
    // the end points.
    EXPECT_GT(strictlyBetter, 100);
}

TEST(CtHoSolverRandom, TransferDelayIsTheSmallestFeasibleForEdf)
{
    std::mt19937_64 rng(4242);
    for (int n = 0; n < 1000; ++n)
    {
        const Instance inst = RandomInstance(rng);
        const CtHoSolver s(inst.input, inst.compute);
        const uint64_t l = rng() % (s.GetMaxContext() + 1);
        const double d = s.TransferDelay(l);
        ASSERT_TRUE(EdfFeasible(inst.input, l, d)) << "instance " << n;
        if (d > 0)
        {
            ASSERT_FALSE(EdfFeasible(inst.input, l, d * (1 - 1e-4) - 1e-7))
                << "instance " << n << ": a smaller delay was feasible";
        }
    }
}

TEST(CtHoSolverRandom, ScheduleMeetsDeadlinesWithinTheLinkRate)
{
    std::mt19937_64 rng(31337);
    for (int n = 0; n < 1000; ++n)
    {
        const Instance inst = RandomInstance(rng);
        const CtHoSolver s(inst.input, inst.compute);
        const double r = inst.input.backhaulTokensPerSecond;
        for (uint64_t l : {s.Solve().prefixTokens, uint64_t{0}, rng() % (s.GetMaxContext() + 1)})
        {
            const CtHoPlan plan = s.MakePlan(l);
            ASSERT_EQ(plan.ues.size(), inst.input.ues.size());
            double tau1 = INFINITY;
            for (const auto& ue : inst.input.ues)
            {
                tau1 = std::min(tau1, ue.handoverTime);
            }
            double busyUntil = tau1 + inst.input.backlogTokens / r;
            double latest = 0; // the largest transferEnd - tau of the schedule
            uint64_t sent = 0;
            for (const auto& u : plan.ues)
            {
                const auto& ue = inst.input.ues[u.ue];
                ASSERT_EQ(u.prefillTokens + u.transferTokens, ue.contextTokens);
                ASSERT_LE(u.delay, plan.value.worstDelay + Tol(plan.value.worstDelay));
                if (u.transferTokens == 0)
                {
                    continue;
                }
                sent += u.transferTokens;
                ASSERT_GE(u.transferStart, ue.handoverTime);
                // Intervals are disjoint and each runs at exactly R: the sum never exceeds R.
                ASSERT_GE(u.transferStart, busyUntil - Tol(busyUntil));
                ASSERT_NEAR((u.transferEnd - u.transferStart) * r,
                            static_cast<double>(u.transferTokens),
                            1e-6 * static_cast<double>(u.transferTokens));
                ASSERT_LE(u.transferEnd, u.deadline + Tol(u.deadline)) << "instance " << n;
                busyUntil = u.transferEnd;
                latest = std::max(latest, u.transferEnd - ue.handoverTime);
            }
            uint64_t expected = 0;
            for (const auto& ue : inst.input.ues)
            {
                expected += ue.contextTokens > plan.value.prefixTokens
                                ? ue.contextTokens - plan.value.prefixTokens
                                : 0;
            }
            ASSERT_EQ(sent, expected);
            ASSERT_NEAR(latest, plan.value.transferDelay, Tol(latest))
                << "instance " << n << ": the schedule does not attain D_tx*";
        }
    }
}

} // namespace
