/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The clairvoyant reference of a ctHO line run, in the model and at packet level: what a
// planner that knew every handover in advance could reach, and an online run's regret to it.

#include "ctho-line-experiment.h"

#include "ns3/ctho-solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ns3
{

namespace
{

/// A value that was not measured.
constexpr double NOT_MEASURED = std::numeric_limits<double>::quiet_NaN();

/// A migrated handover, as the clairvoyant partition sees it.
struct Handover
{
    uint64_t imsi; //!< the UE
    Time start;    //!< tau_i
    CtHoUe ue;     //!< its C_i and tau_i, s
};

} // namespace

CtHoLineClairvoyant
CtHoLineExperiment::Clairvoyant(const CtHoLineRun& run)
{
    std::vector<Handover> handovers;
    for (const HandoverRecord& r : run.records)
    {
        if (r.outcome == HandoverRecord::MIGRATED)
        {
            handovers.push_back({r.imsi, r.hoStart, {r.contextTokens, r.hoStart.GetSeconds()}});
        }
    }
    std::stable_sort(handovers.begin(), handovers.end(), [](const Handover& a, const Handover& b) {
        return a.start < b.start;
    });
    CtHoLineClairvoyant best;
    best.sessions = handovers.size();
    if (handovers.empty())
    {
        best.worstDelayS = NOT_MEASURED;
        return best;
    }
    // worst[j]: the best worst delay of the first j handovers; cut[j]: where its last batch
    // starts.
    const std::size_t n = handovers.size();
    std::vector<double> worst(n + 1, std::numeric_limits<double>::infinity());
    std::vector<std::size_t> cut(n + 1, 0);
    worst[0] = 0;
    for (std::size_t j = 1; j <= n; ++j)
    {
        for (std::size_t i = 0; i < j; ++i)
        {
            CtHoInput input;
            input.backhaulTokensPerSecond = run.plannedTokensPerSecond;
            input.prefillCycle = run.prefillCycleS;
            for (std::size_t k = i; k < j; ++k)
            {
                input.ues.push_back(handovers[k].ue);
            }
            const double v =
                std::max(worst[i],
                         SchemeValue(run.scheme, CtHoSolver(input, run.compute)).worstDelay);
            if (v < worst[j])
            {
                worst[j] = v;
                cut[j] = i;
            }
        }
    }
    best.worstDelayS = worst[n];
    for (std::size_t j = n; j > 0; j = cut[j])
    {
        std::vector<std::pair<uint64_t, Time>> batch;
        for (std::size_t k = cut[j]; k < j; ++k)
        {
            batch.emplace_back(handovers[k].imsi, handovers[k].start);
        }
        best.batches.insert(best.batches.begin(), batch);
    }
    best.groups = best.batches.size();
    return best;
}

CtHoValue
CtHoLineExperiment::SchemeValue(const std::string& scheme, const CtHoSolver& solver)
{
    if (scheme == "tho")
    {
        return solver.Evaluate(solver.GetMaxContext());
    }
    if (scheme == "ctho")
    {
        return solver.Evaluate(solver.Solve().prefixTokens);
    }
    return solver.Evaluate(0);
}

double
CtHoLineExperiment::WorstMigratedDelay(const CtHoLineRun& run)
{
    double worst = NOT_MEASURED;
    for (const HandoverRecord& r : run.records)
    {
        if (r.outcome == HandoverRecord::MIGRATED)
        {
            const double d = (r.kvReady - r.hoStart).GetSeconds();
            worst = std::isnan(worst) ? d : std::max(worst, d);
        }
    }
    return worst;
}

CtHoLineRegret
CtHoLineExperiment::MeasureRegret(const CtHoLineRun& online) const
{
    CtHoLineRegret out;
    out.clairvoyant = Clairvoyant(online);
    out.onlineWorstS = WorstMigratedDelay(online);
    out.clairvoyantAnalyticS = out.clairvoyant.worstDelayS;
    if (out.clairvoyant.batches.empty())
    {
        out.clairvoyantMeasuredS = NOT_MEASURED;
        out.regret = NOT_MEASURED;
        out.modelError = NOT_MEASURED;
        return out;
    }
    CtHoLineInputs inputs = online.inputs;
    inputs.batches = out.clairvoyant.batches;
    out.clairvoyantRun = Run(online.scheme, inputs);
    out.clairvoyantMeasuredS = WorstMigratedDelay(out.clairvoyantRun);
    out.regret = out.onlineWorstS / out.clairvoyantMeasuredS;
    out.modelError = out.clairvoyantMeasuredS / out.clairvoyantAnalyticS;
    return out;
}

} // namespace ns3
