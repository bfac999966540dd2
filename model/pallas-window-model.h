/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_PALLAS_WINDOW_MODEL_H
#define EDGE_LLM_PALLAS_WINDOW_MODEL_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Inputs of Pallas's prefetch-window model for one session.
 *
 * The rates are the session's smoothed telemetry at the time the window is chosen.
 */
struct PallasWindowInput
{
    double radioInterruptionS{0};     //!< T_0, the radio interruption floor, s, >= 0
    double loadS{0};                  //!< T_load, the target's start-up before it prefills, s, >= 0
    uint64_t prefixTokens{0};         //!< L_hist, tokens of the stable prefix, >= 0
    double prefillTokensPerSecond{0}; //!< r_p, the target's prefill rate, tokens/s, > 0
    double decodeTokensPerSecond{0};  //!< r_d, the source's decode rate, tokens/s, > 0
    double kvBytesPerToken{0};        //!< s_KV, bytes of KV cache per token, > 0
    double backhaulBps{0};            //!< B, the backhaul goodput, bit/s, > 0
    double alpha{0.8};                //!< alpha, the weight of T_SIT in J, in [0, 1]
    double gridStepS{0};              //!< Delta T, the step of the window grid, s, > 0
    double windowLimitS{0};           //!< T_limit, the longest window allowed, s, >= 0
    /// S_0, bytes of KV that cross the backhaul from the window's start, ahead of the
    /// suffix's: 0 for Pallas; the whole history's when the target recomputes none of it
    double historyBytes{0};
    /// whether the suffix streams during the window (Pallas) or crosses only after the
    /// handover (the ablation without streaming)
    bool streaming{true};
};

/**
 * \ingroup edge-llm
 * \brief Which term sets T_SIT above its floor T_0.
 */
enum class PallasSitRegime
{
    FLOOR,  //!< the prefix is ready and the suffix streamed by the handover: T_SIT = T_0
    PREFIX, //!< the target is still prefilling the prefix: T_hist - T_w is the largest term
    STREAM  //!< the suffix's KV is still on the backhaul: T_res(T_w) is the largest term
};

/**
 * \param regime a regime
 * \return its name: "floor", "prefix" or "stream"
 */
std::string ToString(PallasSitRegime regime);

/**
 * \ingroup edge-llm
 * \brief The window chosen, and what it costs.
 */
struct PallasWindowChoice
{
    double windowS{0};      //!< T_w*, s
    double sitS{0};         //!< T_SIT(T_w*), s
    double earlyS{0};       //!< T_early(T_w*), s
    double cost{0};         //!< J(T_w*), s
    uint64_t gridPoints{0}; //!< how many windows the search evaluated
};

/**
 * \ingroup edge-llm
 * \brief Pallas's model of the service interruption of a proactive migration started T_w
 * before the predicted handover, and its choice of T_w.
 *
 * At T_w before the handover the target starts loading and prefilling the stable prefix,
 * ready T_hist = T_load + L_hist / r_p later; meanwhile the source keeps decoding and streams
 * the suffix's KV, S_inc(T_w) = r_d T_w s_KV bytes, which the backhaul finishes
 * T_res(T_w) = max{0, 8 (S_0 + S_inc) / B - T_w} after the handover, S_0 the bytes sent
 * ahead of the suffix (0 for Pallas). Without streaming nothing crosses before the handover,
 * and T_res(T_w) = 8 (S_0 + S_inc) / B. The UE waits
 * T_SIT(T_w) = T_0 + max{0, T_hist - T_w, T_res(T_w)}, and a window longer than T_hist ties
 * up the target for T_early(T_w) = max{0, T_w - T_hist} before it is needed. The window
 * minimises J = alpha T_SIT + (1 - alpha) T_early.
 *
 * Pure and cheap to copy; every function of T_w accepts any finite T_w >= 0.
 */
class PallasWindowModel
{
  public:
    /// The most grid points Choose() evaluates; a finer grid is refused.
    static constexpr uint64_t MAX_GRID_POINTS = 10'000'000;

    /**
     * \param input the session; validated here (throws std::invalid_argument naming the
     *        field and its allowed range, also when the grid would exceed MAX_GRID_POINTS)
     */
    explicit PallasWindowModel(PallasWindowInput input);

    /// \return the inputs
    const PallasWindowInput& GetInput() const;

    /// \return T_hist = T_load + L_hist / r_p, s
    double HistoryTime() const;

    /**
     * \param windowS T_w, s, finite and >= 0
     * \return S_inc(T_w) = r_d T_w s_KV, bytes
     */
    double IncrementBytes(double windowS) const;

    /**
     * \param windowS T_w, s, finite and >= 0
     * \return T_res(T_w) = max{0, 8 (S_0 + S_inc(T_w)) / B - T_w}, s; without streaming
     *         8 (S_0 + S_inc(T_w)) / B
     */
    double ResidualTime(double windowS) const;

    /**
     * \param windowS T_w, s, finite and >= 0
     * \return T_SIT(T_w) = T_0 + max{0, T_hist - T_w, T_res(T_w)}, s
     */
    double Sit(double windowS) const;

    /**
     * \param windowS T_w, s, finite and >= 0
     * \return T_early(T_w) = max{0, T_w - T_hist}, s
     */
    double EarlyTime(double windowS) const;

    /**
     * \param windowS T_w, s, finite and >= 0
     * \return J(T_w) = alpha T_SIT(T_w) + (1 - alpha) T_early(T_w), s
     */
    double Cost(double windowS) const;

    /**
     * \param windowS T_w, s, finite and >= 0
     * \return the term that sets T_SIT(T_w); PREFIX when T_hist - T_w and T_res tie above 0
     */
    PallasSitRegime Regime(double windowS) const;

    /**
     * \brief Pallas's grid search for the window.
     *
     * Evaluates J at T_w = k Delta T for k = 0, 1, ..., K, K the largest integer with
     * K Delta T <= T_limit; T_limit itself is a point only when it is a multiple of Delta T
     * (T_limit / Delta T within a relative 1e-9 of an integer counts as one, so that 0.3 / 0.1
     * gives the points 0, 0.1, 0.2 and 0.3; the last is then capped at T_limit). Of windows with
     * equal J the smallest wins: with alpha = 0 every window up to T_hist costs nothing, and
     * starting later wastes nothing. O(K).
     *
     * \return T_w* and its T_SIT, T_early and J
     */
    PallasWindowChoice Choose() const;

  private:
    /// \return windowS, or throws if it is not a finite number >= 0
    static double CheckWindow(double windowS);

    PallasWindowInput m_input; //!< validated
    double m_historyS{0};      //!< T_hist
    uint64_t m_lastStep{0};    //!< K, the last grid index
};

/**
 * \ingroup edge-llm
 * \brief T_limit = min(T_max, T^_remain): no window longer than allowed, nor one that would
 * have had to open before now.
 * \param maxWindowS T_max, the longest window allowed, s, finite and >= 0
 * \param remainingS T^_remain, the predicted time left until the handover, s, finite and >= 0
 * \return T_limit, s
 */
double PallasWindowLimit(double maxWindowS, double remainingS);

} // namespace ns3

#endif /* EDGE_LLM_PALLAS_WINDOW_MODEL_H */
