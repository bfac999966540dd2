/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "impact-clairvoyant-bound.h"

#include "input-checks.h"

#include <algorithm>
#include <cmath>
#include <glpk.h>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

void
CheckInput(const ImpactClairvoyantInput& in)
{
    edgellm::RequireNonNegative("capacityBps (B, bit/s)", in.capacityBps);
    edgellm::RequirePositive("slotSeconds (Delta t, s)", in.slotSeconds);
    if (in.windowSlots == 0)
    {
        edgellm::ThrowInvalid("windowSlots (W)", "0", "an integer >= 1");
    }
    if (in.tangentCount < 2)
    {
        edgellm::ThrowInvalid("tangentCount", std::to_string(in.tangentCount), "an integer >= 2");
    }
    for (std::size_t i = 0; i < in.ues.size(); ++i)
    {
        const std::string ue = "ues[" + std::to_string(i) + "].";
        edgellm::RequirePositive(ue + "cacheBits (S, bit)", in.ues[i].cacheBits);
        in.ues[i].accuracy.Check(ue + "accuracy.");
    }
}

/// One piece of the model of env_i from above: u_i <= intercept + slope y_i.
struct Piece
{
    double slope;     //!< accuracy per unit of fraction
    double intercept; //!< accuracy at y = 0
};

/**
 * Tangent points from y_t to 1 that share the tangents' excess evenly. Between neighbours
 * p < q the excess is about (q - p)^2 |A''| / 4, so the points are spread evenly in
 * F(y) = integral from y_t to y of sqrt(|A''|), found on a table of F (the trapezoid rule);
 * where |A''| is large, near the inflection, they crowd. Any spread keeps the bound a bound;
 * this one makes it tight for few tangents.
 */
std::vector<double>
TangentPoints(const ImpactAccuracyModel& a, double yt, uint32_t count)
{
    const int cells = 4096;
    std::vector<double> y(cells + 1);
    std::vector<double> f(cells + 1, 0.0);
    const auto density = [&a](double v) { return std::sqrt(std::max(0.0, -a.Curvature(v))); };
    for (int c = 0; c <= cells; ++c)
    {
        y[c] = yt + (1.0 - yt) * c / cells;
        if (c > 0)
        {
            f[c] = f[c - 1] + 0.5 * (density(y[c - 1]) + density(y[c])) * (y[c] - y[c - 1]);
        }
    }
    std::vector<double> points(count);
    std::size_t c = 0;
    for (uint32_t j = 0; j < count; ++j)
    {
        const double target = f[cells] * j / (count - 1.0);
        while (c + 1 < static_cast<std::size_t>(cells) && f[c + 1] < target)
        {
            ++c;
        }
        const double span = f[c + 1] - f[c];
        const double t = span > 0.0 ? std::clamp((target - f[c]) / span, 0.0, 1.0) : 0.0;
        points[j] = y[c] + t * (y[c + 1] - y[c]);
    }
    points.front() = yt;
    points.back() = 1.0;
    return points;
}

/// The pieces of env from above, and the most they exceed it by.
std::vector<Piece>
EnvelopePieces(const ImpactAccuracyEnvelope& env, uint32_t tangentCount, double& gap)
{
    const ImpactAccuracyModel& a = env.GetModel();
    const double yt = env.TangentPoint();
    std::vector<Piece> pieces;
    if (yt > 0.0)
    {
        pieces.push_back({env.Slope(0.0), a.Accuracy(0.0)});
    }
    gap = 0.0;
    if (yt >= 1.0)
    {
        // The envelope is the chord to (1, A(1)) alone; A's tangent at 1 would cut below it.
        return pieces;
    }
    const std::vector<double> points = TangentPoints(a, yt, tangentCount);
    double previous = yt;
    for (double p : points)
    {
        pieces.push_back({a.Slope(p), a.Accuracy(p) - a.Slope(p) * p});
        gap = std::max(gap, (p - previous) * (a.Slope(previous) - a.Slope(p)) / 4.0);
        previous = p;
    }
    return pieces;
}

/// Deletes a GLPK problem and restores GLPK's terminal output as it was.
class GlpkProblem
{
  public:
    GlpkProblem()
        : m_terminal(glp_term_out(GLP_OFF)),
          m_lp(glp_create_prob())
    {
    }

    ~GlpkProblem()
    {
        glp_delete_prob(m_lp);
        glp_term_out(m_terminal);
    }

    GlpkProblem(const GlpkProblem&) = delete;
    GlpkProblem& operator=(const GlpkProblem&) = delete;

    glp_prob* Get() const
    {
        return m_lp;
    }

  private:
    int m_terminal; //!< GLPK's terminal output before
    glp_prob* m_lp; //!< the problem
};

} // namespace

ImpactClairvoyantResult
SolveImpactClairvoyantBound(const ImpactClairvoyantInput& input)
{
    CheckInput(input);
    ImpactClairvoyantResult result;
    const std::size_t n = input.ues.size();
    if (n == 0)
    {
        return result;
    }
    const uint32_t w = input.windowSlots;

    // Bits are scaled by the largest cache, so that the capacity rows have coefficients <= 1.
    double scale = 0.0;
    for (const auto& u : input.ues)
    {
        scale = std::max(scale, u.cacheBits);
    }

    std::vector<ImpactAccuracyEnvelope> envelopes;
    std::vector<std::vector<Piece>> pieces;
    envelopes.reserve(n);
    for (const auto& u : input.ues)
    {
        envelopes.emplace_back(ImpactAccuracyModel(u.accuracy));
        double gap = 0.0;
        pieces.push_back(EnvelopePieces(envelopes.back(), input.tangentCount, gap));
        result.approximationGap += gap;
    }

    GlpkProblem problem;
    glp_prob* lp = problem.Get();
    glp_set_obj_dir(lp, GLP_MAX);

    // Columns: z_{i,t} = b_{i,t} Delta t (fraction sent in the window's slot t) for t < W,
    // then y_i, then u_i (the modelled envelope value), for UE i in blocks.
    const int perUe = static_cast<int>(w) + 2;
    glp_add_cols(lp, static_cast<int>(n) * perUe);
    const auto zCol = [perUe](std::size_t i, uint32_t t) {
        return static_cast<int>(i) * perUe + static_cast<int>(t) + 1;
    };
    const auto yCol = [perUe, w](std::size_t i) {
        return static_cast<int>(i) * perUe + static_cast<int>(w) + 1;
    };
    const auto uCol = [perUe, w](std::size_t i) {
        return static_cast<int>(i) * perUe + static_cast<int>(w) + 2;
    };

    // GLPK's arrays are 1-based; element 0 is unused.
    std::vector<int> rowIndex{0};
    std::vector<int> colIndex{0};
    std::vector<double> value{0.0};
    const auto put = [&](int row, int col, double v) {
        rowIndex.push_back(row);
        colIndex.push_back(col);
        value.push_back(v);
    };

    std::map<uint64_t, int> slotRow;
    for (std::size_t i = 0; i < n; ++i)
    {
        for (uint32_t t = 0; t < w; ++t)
        {
            const uint64_t slot = static_cast<uint64_t>(input.ues[i].arrivalSlot) + t;
            auto it = slotRow.find(slot);
            if (it == slotRow.end())
            {
                const int row = glp_add_rows(lp, 1);
                glp_set_row_bnds(lp,
                                 row,
                                 GLP_UP,
                                 0.0,
                                 input.capacityBps * input.slotSeconds / scale);
                it = slotRow.emplace(slot, row).first;
            }
            put(it->second, zCol(i, t), input.ues[i].cacheBits / scale);
            glp_set_col_bnds(lp, zCol(i, t), GLP_DB, 0.0, 1.0);
        }

        const int link = glp_add_rows(lp, 1);
        glp_set_row_bnds(lp, link, GLP_FX, 0.0, 0.0);
        for (uint32_t t = 0; t < w; ++t)
        {
            put(link, zCol(i, t), -1.0);
        }
        put(link, yCol(i), 1.0);
        glp_set_col_bnds(lp, yCol(i), GLP_DB, 0.0, 1.0);

        glp_set_col_bnds(lp, uCol(i), GLP_FR, 0.0, 0.0);
        glp_set_obj_coef(lp, uCol(i), 1.0);
        for (const Piece& p : pieces[i])
        {
            const int row = glp_add_rows(lp, 1);
            glp_set_row_bnds(lp, row, GLP_UP, 0.0, p.intercept);
            put(row, uCol(i), 1.0);
            put(row, yCol(i), -p.slope);
        }
    }
    glp_load_matrix(lp,
                    static_cast<int>(value.size()) - 1,
                    rowIndex.data(),
                    colIndex.data(),
                    value.data());

    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    glp_scale_prob(lp, GLP_SF_AUTO);
    const int rc = glp_simplex(lp, &parm);
    if (rc != 0 || glp_get_status(lp) != GLP_OPT)
    {
        throw std::runtime_error("ImpactClairvoyantBound: GLPK's simplex did not reach the "
                                 "optimum (return code " +
                                 std::to_string(rc) + ", status " +
                                 std::to_string(glp_get_status(lp)) + ")");
    }

    result.bound = glp_get_obj_val(lp);
    result.fractions.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        // Within GLPK's feasibility tolerance y may stray past its bounds by ~1e-9.
        const double y = std::clamp(glp_get_col_prim(lp, yCol(i)), 0.0, 1.0);
        result.fractions.push_back(y);
        result.envelopeValue += envelopes[i].Value(y);
    }
    return result;
}

} // namespace ns3
