/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CTHO_SOLVER_H
#define CTHO_SOLVER_H

#include "llm-compute-model.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One UE of a ctHO handover group.
 */
struct CtHoUe
{
    uint64_t contextTokens{0}; //!< C_i, tokens of context at the handover, >= 1
    double handoverTime{0};    //!< tau_i, s, finite and >= 0
};

/**
 * \ingroup edge-llm
 * \brief Inputs of the ctHO problem.
 */
struct CtHoInput
{
    std::vector<CtHoUe> ues;           //!< the group, in any order; not empty
    double backhaulTokensPerSecond{0}; //!< R, tokens of KV cache per second, > 0
    double prefillCycle{0};            //!< T_c, s; 0 means prefill starts at once
    /// t_min, s: earliest prefill start at the target (online use); -infinity means none
    double earliestPrefillStart{-std::numeric_limits<double>::infinity()};
    /// B_0: tokens already queued on the backhaul at tau_1, sent before this group's
    double backlogTokens{0};
    /// L_min: the shortest prefix a re-plan can still carry out (CtHoFamilyScheduler keeps
    /// its choice in [minPrefix, maxPrefix]; the solver itself searches every L)
    uint64_t minPrefix{0};
    /// L_max: the longest prefix a re-plan can still carry out
    uint64_t maxPrefix{std::numeric_limits<uint64_t>::max()};
    bool blockAligned{false}; //!< restrict L to multiples of blockTokens, plus C_max
    uint32_t blockTokens{16}; //!< block size for blockAligned, >= 1
    /**
     * T^pf(L) from the target engine itself (LlmEngine::ForecastPrefills): given every UE's
     * prefill, min(C_i, L), in handover order, when the last of them ends, s. It must not
     * decrease when a length grows. Empty: t_s + p(batch), the paper's one batch.
     */
    std::function<double(const std::vector<uint64_t>& lengths)> prefillEnd;
};

/**
 * \ingroup edge-llm
 * \brief The three delays of one prefix length L.
 */
struct CtHoValue
{
    uint64_t prefixTokens{0}; //!< L
    double prefillDelay{0};   //!< D_pf(L) = T^pf(L) - tau_1, 0 when L = 0, s
    double transferDelay{0};  //!< D_tx*(L), s
    double worstDelay{0};     //!< V(L) = max(D_pf, D_tx*), the worst user's delay, s
};

/**
 * \ingroup edge-llm
 * \brief What one UE does under a plan, and when.
 */
struct CtHoUePlan
{
    std::size_t ue{0};          //!< index into CtHoInput::ues
    uint64_t prefillTokens{0};  //!< n_i^pf = min(C_i, L)
    uint64_t transferTokens{0}; //!< n_i^tx = (C_i - L)^+
    double transferStart{0};    //!< start of its backhaul interval, s (tau_i when no data)
    double transferEnd{0};      //!< end of its backhaul interval, s
    double deadline{0};         //!< tau_i + D_tx*(L), s
    double delay{0};            //!< D_i = its own recovery delay after tau_i, s
};

/**
 * \ingroup edge-llm
 * \brief A complete plan: the value of L and the EDF backhaul schedule that attains D_tx*(L).
 */
struct CtHoPlan
{
    CtHoValue value;             //!< delays of this L
    double prefillStart{0};      //!< t_s, s
    double prefillEnd{0};        //!< T^pf(L) = t_s + p(batch) (or the engine's); t_s if L = 0
    std::vector<CtHoUePlan> ues; //!< one entry per UE, in handover order
};

/**
 * \ingroup edge-llm
 * \brief Exact solver of the joint token-prefill / KV-transfer problem (ctHO).
 *
 * K UEs hand over at tau_1 <= ... <= tau_K. The target prefills a common prefix of L tokens of
 * every UE in one batch that starts at t_s, the first prefill-cycle boundary at or after
 * max(tau_K, t_min), and ends at T^pf(L) = t_s + p(batch). Meanwhile the source sends the
 * remaining (C_i - L)^+ tokens of each UE's KV cache over a backhaul of R tokens/s; UE i's
 * data can leave from tau_i, and B_0 tokens already queued go first.
 *
 * D_tx*(L) is the smallest D for which every UE's transfer can finish by tau_i + D. Deadlines
 * share the offset D, so their order is the handover order, and earliest-deadline-first is a
 * FIFO by tau: with F_0 = tau_1 + B_0/R and F_k = max(F_{k-1}, tau_k) + n_k^tx/R, D_tx*(L) =
 * max(0, max_k (F_k - tau_k)). When the backhaul never idles this equals the paper's closed
 * form max_k [S_k(L)/R - (tau_k - tau_1)]^+; when it does idle, the recursion is the exact
 * value and the closed form underestimates it.
 *
 * D_pf(L) is non-decreasing in L and D_tx*(L) non-increasing, so V(L) = max of the two is
 * minimised at their crossing: a binary search over L finds the first L with D_pf >= D_tx*,
 * and the optimum is that L or the one before. Cost O(K log C_max) after an O(K log K) sort.
 */
class CtHoSolver
{
  public:
    /**
     * \brief Validate the problem and prepare it for solving: O(K log K).
     * \param input the problem; validated here (throws std::invalid_argument naming the field)
     * \param compute the compute model whose BatchPrefillTime gives p(batch)
     */
    CtHoSolver(CtHoInput input, LlmComputeModel compute);

    /// \return t_s, the prefill start
    double GetPrefillStart() const;
    /// \return C_max, the largest context
    uint64_t GetMaxContext() const;
    /// \return the number of UEs
    std::size_t GetUeCount() const;

    /**
     * \param prefixTokens L; values above C_max are treated as C_max
     * \return D_pf(L)
     */
    double PrefillDelay(uint64_t prefixTokens) const;
    /**
     * \param prefixTokens L
     * \return D_tx*(L)
     */
    double TransferDelay(uint64_t prefixTokens) const;
    /**
     * \param prefixTokens L
     * \return D_pf, D_tx* and V of L
     */
    CtHoValue Evaluate(uint64_t prefixTokens) const;

    /// \return the optimum over the allowed L (all integers in [0, C_max], or block-aligned)
    CtHoValue Solve() const;
    /// \return the same optimum value, by scanning every allowed L: O(K C_max), for reference
    CtHoValue SolveByScan() const;
    /// \return tHO, L = C_max
    CtHoValue Tho() const;
    /// \return cHO, L = 0
    CtHoValue Cho() const;

    /**
     * \param prefixTokens L; any value (block alignment restricts only Solve), above C_max
     *        taken as C_max
     * \return the plan of L, with the EDF schedule attaining D_tx*(L); when L = 0 there is no
     *         prefill and prefillEnd = prefillStart
     */
    CtHoPlan MakePlan(uint64_t prefixTokens) const;

  private:
    /// \return the number of allowed L values
    uint64_t CandidateCount() const;
    /// \return the m-th allowed L, increasing in m
    uint64_t Candidate(uint64_t m) const;
    /// \return p of the batch that prefills a prefix of L tokens of every UE
    double BatchPrefill(uint64_t prefixTokens) const;
    /// \return T^pf(L) for L >= 1: CtHoInput::prefillEnd's, or t_s + p(batch)
    double PrefillEnd(uint64_t prefixTokens) const;

    CtHoInput m_input;                     //!< the problem, as given
    LlmComputeModel m_compute;             //!< gives p(batch)
    std::vector<std::size_t> m_order;      //!< UE indices by handover time (stable)
    std::vector<double> m_tau;             //!< tau in handover order
    std::vector<uint64_t> m_context;       //!< C in handover order
    std::vector<uint64_t> m_sortedContext; //!< C ascending
    std::vector<uint64_t> m_contextPrefix; //!< m_contextPrefix[j] = sum of the j smallest C
    uint64_t m_maxContext{0};              //!< C_max
    double m_prefillStart{0};              //!< t_s
    double m_linkFree{0};                  //!< tau_1 + B_0 / R
};

} // namespace ns3

#endif /* CTHO_SOLVER_H */
