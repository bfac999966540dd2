/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ctho-solver.h"

#include "input-checks.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ns3
{

namespace
{

/**
 * First multiple of cycle at or after t. A time a few femtoseconds past a boundary because of
 * rounding (0.07 / 0.01 = 7.000000000000001) counts as on it; the result is never below t.
 */
double
NextCycleBoundary(double t, double cycle)
{
    if (cycle == 0.0)
    {
        return t;
    }
    const double k = std::ceil(t / cycle - 1e-9);
    return std::max(k * cycle, t);
}

} // namespace

CtHoSolver::CtHoSolver(CtHoInput input, LlmComputeModel compute)
    : m_input(std::move(input)),
      m_compute(std::move(compute))
{
    const auto& in = m_input;
    if (in.ues.empty())
    {
        edgellm::ThrowInvalid("ues", "an empty set", "at least one UE");
    }
    edgellm::RequirePositive("backhaulTokensPerSecond (R)", in.backhaulTokensPerSecond);
    edgellm::RequireNonNegative("prefillCycle (T_c, s)", in.prefillCycle);
    edgellm::RequireNonNegative("backlogTokens (B_0)", in.backlogTokens);
    const double tMin = in.earliestPrefillStart;
    if (!(std::isfinite(tMin) || tMin == -std::numeric_limits<double>::infinity()))
    {
        edgellm::ThrowInvalid("earliestPrefillStart (t_min, s)",
                              edgellm::FormatValue(in.earliestPrefillStart),
                              "a finite time, or -infinity for none");
    }
    if (in.blockAligned && in.blockTokens == 0)
    {
        edgellm::ThrowInvalid("blockTokens", "0", "an integer >= 1");
    }
    for (std::size_t i = 0; i < in.ues.size(); ++i)
    {
        const std::string ue = "ues[" + std::to_string(i) + "].";
        edgellm::RequireNonNegative(ue + "handoverTime (tau, s)", in.ues[i].handoverTime);
        if (in.ues[i].contextTokens == 0)
        {
            edgellm::ThrowInvalid(ue + "contextTokens (C)", "0", "an integer >= 1");
        }
    }

    const std::size_t k = in.ues.size();
    m_order.resize(k);
    std::iota(m_order.begin(), m_order.end(), 0);
    std::stable_sort(m_order.begin(), m_order.end(), [&in](std::size_t a, std::size_t b) {
        return in.ues[a].handoverTime < in.ues[b].handoverTime;
    });
    m_tau.reserve(k);
    m_context.reserve(k);
    for (std::size_t i : m_order)
    {
        m_tau.push_back(in.ues[i].handoverTime);
        m_context.push_back(in.ues[i].contextTokens);
    }
    m_sortedContext = m_context;
    std::sort(m_sortedContext.begin(), m_sortedContext.end());
    m_contextPrefix.assign(k + 1, 0);
    for (std::size_t j = 0; j < k; ++j)
    {
        if (m_sortedContext[j] > std::numeric_limits<uint64_t>::max() - m_contextPrefix[j])
        {
            edgellm::ThrowInvalid("ues[].contextTokens (C)",
                                  "contexts whose sum passes 2^64 tokens",
                                  "contexts whose sum is below 2^64 tokens");
        }
        m_contextPrefix[j + 1] = m_contextPrefix[j] + m_sortedContext[j];
    }
    m_maxContext = m_sortedContext.back();
    m_prefillStart =
        NextCycleBoundary(std::max(m_tau.back(), in.earliestPrefillStart), in.prefillCycle);
    m_linkFree = m_tau.front() + in.backlogTokens / in.backhaulTokensPerSecond;
}

double
CtHoSolver::GetPrefillStart() const
{
    return m_prefillStart;
}

uint64_t
CtHoSolver::GetMaxContext() const
{
    return m_maxContext;
}

std::size_t
CtHoSolver::GetUeCount() const
{
    return m_context.size();
}

double
CtHoSolver::BatchPrefill(uint64_t prefixTokens) const
{
    const uint64_t l = std::min(prefixTokens, m_maxContext);
    if (l == 0)
    {
        return 0.0;
    }
    // Contexts up to l are prefilled whole, longer ones contribute l tokens each.
    const auto shortEnd = std::upper_bound(m_sortedContext.begin(), m_sortedContext.end(), l);
    const auto shortCount = static_cast<std::size_t>(shortEnd - m_sortedContext.begin());
    PrefillBatch batch;
    batch.sequences = m_sortedContext.size();
    batch.maxTokens = l;
    batch.totalTokens = m_contextPrefix[shortCount] + l * (m_sortedContext.size() - shortCount);
    return m_compute.BatchPrefillTime(batch);
}

double
CtHoSolver::PrefillDelay(uint64_t prefixTokens) const
{
    if (std::min(prefixTokens, m_maxContext) == 0)
    {
        return 0.0;
    }
    return PrefillEnd(prefixTokens) - m_tau.front();
}

double
CtHoSolver::PrefillEnd(uint64_t prefixTokens) const
{
    if (!m_input.prefillEnd)
    {
        return m_prefillStart + BatchPrefill(prefixTokens);
    }
    const uint64_t l = std::min(prefixTokens, m_maxContext);
    std::vector<uint64_t> lengths;
    lengths.reserve(m_context.size());
    for (uint64_t c : m_context)
    {
        lengths.push_back(std::min(c, l));
    }
    return m_input.prefillEnd(lengths);
}

double
CtHoSolver::TransferDelay(uint64_t prefixTokens) const
{
    const double r = m_input.backhaulTokensPerSecond;
    double linkFree = m_linkFree;
    double worst = 0.0;
    for (std::size_t k = 0; k < m_context.size(); ++k)
    {
        if (m_context[k] <= prefixTokens)
        {
            continue;
        }
        const double n = static_cast<double>(m_context[k] - prefixTokens);
        linkFree = std::max(linkFree, m_tau[k]) + n / r;
        worst = std::max(worst, linkFree - m_tau[k]);
    }
    return worst;
}

CtHoValue
CtHoSolver::Evaluate(uint64_t prefixTokens) const
{
    CtHoValue v;
    v.prefixTokens = std::min(prefixTokens, m_maxContext);
    v.prefillDelay = PrefillDelay(v.prefixTokens);
    v.transferDelay = TransferDelay(v.prefixTokens);
    v.worstDelay = std::max(v.prefillDelay, v.transferDelay);
    return v;
}

uint64_t
CtHoSolver::CandidateCount() const
{
    if (!m_input.blockAligned)
    {
        return m_maxContext + 1;
    }
    const uint64_t b = m_input.blockTokens;
    return m_maxContext / b + 1 + (m_maxContext % b != 0 ? 1 : 0);
}

uint64_t
CtHoSolver::Candidate(uint64_t m) const
{
    if (!m_input.blockAligned)
    {
        return m;
    }
    const uint64_t b = m_input.blockTokens;
    return m >= m_maxContext / b + 1 ? m_maxContext : m * b;
}

CtHoValue
CtHoSolver::Solve() const
{
    // First candidate where prefill delay has caught up with transfer delay. It exists: at
    // L = C_max nothing is sent, so D_tx* = 0 <= D_pf.
    uint64_t lo = 0;
    uint64_t hi = CandidateCount() - 1;
    while (lo < hi)
    {
        const uint64_t mid = lo + (hi - lo) / 2;
        const uint64_t l = Candidate(mid);
        if (PrefillDelay(l) >= TransferDelay(l))
        {
            hi = mid;
        }
        else
        {
            lo = mid + 1;
        }
    }
    CtHoValue best = Evaluate(Candidate(lo));
    if (lo > 0)
    {
        CtHoValue before = Evaluate(Candidate(lo - 1));
        if (before.worstDelay <= best.worstDelay)
        {
            best = before;
        }
    }
    return best;
}

CtHoValue
CtHoSolver::SolveByScan() const
{
    CtHoValue best = Evaluate(Candidate(0));
    const uint64_t n = CandidateCount();
    for (uint64_t m = 1; m < n; ++m)
    {
        CtHoValue v = Evaluate(Candidate(m));
        if (v.worstDelay < best.worstDelay)
        {
            best = v;
        }
    }
    return best;
}

CtHoValue
CtHoSolver::Tho() const
{
    return Evaluate(m_maxContext);
}

CtHoValue
CtHoSolver::Cho() const
{
    return Evaluate(0);
}

CtHoPlan
CtHoSolver::MakePlan(uint64_t prefixTokens) const
{
    CtHoPlan plan;
    plan.value = Evaluate(prefixTokens);
    const uint64_t l = plan.value.prefixTokens;
    plan.prefillStart = m_prefillStart;
    plan.prefillEnd = l == 0 ? m_prefillStart : PrefillEnd(l);
    const double r = m_input.backhaulTokensPerSecond;
    double linkFree = m_linkFree;
    plan.ues.reserve(m_context.size());
    for (std::size_t k = 0; k < m_context.size(); ++k)
    {
        CtHoUePlan u;
        u.ue = m_order[k];
        u.prefillTokens = std::min(m_context[k], l);
        u.transferTokens = m_context[k] - u.prefillTokens;
        u.deadline = m_tau[k] + plan.value.transferDelay;
        u.transferStart = m_tau[k];
        u.transferEnd = m_tau[k];
        if (u.transferTokens > 0)
        {
            u.transferStart = std::max(linkFree, m_tau[k]);
            u.transferEnd = u.transferStart + static_cast<double>(u.transferTokens) / r;
            linkFree = u.transferEnd;
            u.delay = u.transferEnd - m_tau[k];
        }
        if (u.prefillTokens > 0)
        {
            u.delay = std::max(u.delay, plan.prefillEnd - m_tau[k]);
        }
        plan.ues.push_back(u);
    }
    return plan;
}

} // namespace ns3
