/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_PALLAS_SCHEDULER_H
#define EDGE_LLM_PALLAS_SCHEDULER_H

#include "handover-scheduler.h"
#include "pallas-window-model.h"

#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One sample of the telemetry Pallas chooses its window with.
 *
 * A rate <= 0, a context of 0 or a negative load is not measured, and leaves its average as
 * it is.
 */
struct PallasTelemetry
{
    uint64_t contextTokens{0};           //!< L_hist: the session's context, tokens
    double decodeTokensPerSecond{0};     //!< r_d: its decode rate at the source, tokens/s
    double prefillTokensPerSecond{0};    //!< r_p: the target's prefill rate, tokens/s
    double loadS{-1};                    //!< T_load: the target's wait before it prefills, s
    double backhaulKvTokensPerSecond{0}; //!< B / s_KV: KV tokens/s the backhaul carries
};

/**
 * \ingroup edge-llm
 * \brief Pallas (Ding, Liu, Xu): proactive KV migration before a predicted handover.
 *
 * **When to prepare** (DoShouldPrepare, asked by a PallasController for each prediction): a
 * predicted handover is prepared once its time is within the window, t_HO - now <= T_w +
 * queued + PrepareLeadPeriods x the predictor's period. T_w is GetWindowFor the predicted
 * target (which adds the prefills already prepared there); queued is the prefix prefills of
 * the other UEs predicted, and not yet prepared, to hand over there no later, so that a group
 * of handovers to one target starts early enough for its prefills to queue one after
 * another; the periods stand for the predictions still to come (with 1, the last prediction
 * at or before T_w prepares). **When to cancel** is the default (HandoverScheduler::
 * DoShouldCancel): a withdrawn prediction, or one to a new target that is not yet within the
 * window; a new target within the window moves the preparation there instead.
 *
 * **Prepare** (DoPrepare, called by HandoverCoordinator::PrepareHandover): the session is split at
 * the last full 16-token block of its context at that moment, P = floor(C / 16) x 16. The predicted
 * target re-prefills the stable prefix [0, P) from forwarded token IDs, queued on its GPU behind
 * its resident work, and the suffix [P, CONTEXT_END) goes as an open transfer
 * (SessionPlan::keepDecoding): the source decodes on, each 16-token block it fills is streamed to
 * the target, and the last partial block goes with the seal at the handover. At the real handover
 * to the prepared target the coordinator commits the migration: the UE waits only for what is
 * unfinished (the prefix prefill, the suffix's last blocks). If the target's free KV memory
 * (HandoverTargetView::freeKvTokens) cannot hold the session (context + tokens left) nothing is
 * prepared, and the refusal is counted (GetAdmissionRefusals).
 *
 * **Reactive fallback** (DoPlan): a handover that was not prepared, that goes to another
 * target than the prepared one (the coordinator cancels the prepared migration, counting its
 * waste, then asks for a plan), or whose preparation was refused, is planned as ctHO plans it
 * (CtHoFamilyScheduler::PlanWithPrefix with CtHoSolver::Solve): the best reactive plan.
 *
 * **Window loop.** Every telemetry sample (Observe) updates exponentially weighted averages
 * (weight EwmaWeight on the new sample) of L_hist, r_d, r_p, T_load and the backhaul's KV
 * rate; at most once per ControlPeriod the window T_w is chosen anew by
 * PallasWindowModel::Choose() over the grid {0, WindowStep, ..., WindowLimit} with weight
 * Alpha, and the Window trace fires. The samples come from what the scheduler sees: every
 * session of every DoPrepare and DoPlan input (its context, its measured decode rate, the
 * target's prefill rate C / p(C) from its compute model, the target's queue
 * prefillFreeAtS - now, and the planned rate of the session's first link over its KV bytes per
 * token), and from Observe() calls of a controller, which samples the same quantities for
 * each prediction. Before any sample the window is WindowLimit (prepare as early as allowed).
 * In the scheduler's own samples the backhaul rate is the rate the coordinator plans with
 * (PlannedBackhaulRate, or the link's rate); a controller may observe the receivers' measured
 * goodput instead (PallasController::MeasuredTelemetry).
 *
 * **Ablations** (Ablation): NO_RECOMPUTE prefills nothing at the target and streams the whole
 * context from the prepare on (its reactive fallback sends the whole cache, ctHO's plan at
 * L = 0), and its window model sends the history ahead of the suffix (L_hist = 0, S_0 = the
 * context's KV). NO_STREAMING prefills the prefix as Pallas does but holds the suffix for the
 * seal (SessionPlan::streamOpen false), and its window model sends it after the handover.
 * Each reports its own scheme name, pallas-no-recompute or pallas-no-streaming.
 *
 * The scheduler holds no simulator object: the loop runs on the times of its inputs.
 */
class PallasScheduler : public HandoverScheduler
{
  public:
    /// Which part of Pallas is switched off.
    enum Ablation
    {
        NONE,         //!< Pallas: the prefix recomputed at the target, the suffix streamed
        NO_RECOMPUTE, //!< the whole context streamed over the backhaul, nothing recomputed
        NO_STREAMING, //!< the prefix recomputed, the suffix sent only at the handover
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PallasScheduler();
    ~PallasScheduler() override;

    std::string GetSchemeName() const override;

    /// \return the OnlineGrouping attribute (for the reactive fallback's ctHO plans)
    bool GetOnlineGrouping() const override;

    /**
     * \brief Take one telemetry sample, and choose the window anew if ControlPeriod has
     * passed since the last choice.
     * \param sample the sample; fields not measured are skipped
     * \param nowS the sample's time, s
     */
    void Observe(const PallasTelemetry& sample, double nowS);

    /// \return T_w, the window now, plus WindowMargin: prepare once the predicted handover is
    /// this close
    Time GetWindow() const;

    /**
     * \brief The window for a handover to one target: GetWindow() plus the time the prefix
     * prefills this scheduler has prepared there still need (from the target's queue when each
     * was prepared, HandoverTargetView::prefillFreeAtS, plus its own p(P)). A session
     * predicted for a target that is still busy with earlier preparations is prepared that
     * much earlier, so that its prefill, queued behind theirs, ends by its handover. A
     * cancelled preparation stays counted until its time has passed.
     * \param targetCell the predicted target
     * \param nowS now, s
     * \return the window
     */
    Time GetWindowFor(uint16_t targetCell, double nowS) const;

    /**
     * \brief Where a prepared session is split: the end of its last full KV block (the
     * coordinator's open transfers grow by the same 16-token blocks).
     * \param contextTokens its context
     * \return the prefix, tokens
     */
    static uint64_t SplitPoint(uint64_t contextTokens);

    /**
     * \param contextTokens a session's context
     * \return the prefix a prepare of it re-prefills at the target: SplitPoint, or 0 without
     *         recompute (Ablation no-recompute)
     */
    uint64_t PrefixFor(uint64_t contextTokens) const;

    /// \return the averaged telemetry (fields never sampled hold their defaults)
    PallasTelemetry GetTelemetry() const;

    /// \return the window model of the averaged telemetry, as the last choice used it
    PallasWindowInput GetWindowInput() const;

    /// \return windows chosen so far (Window traces fired)
    uint64_t GetWindowChoices() const;
    /// \return prepares answered with a plan
    uint64_t GetPrepared() const;
    /// \return prepares refused because the target's free KV memory cannot hold the session
    uint64_t GetAdmissionRefusals() const;
    /// \return reactive plans (DoPlan calls)
    uint64_t GetReactivePlans() const;

    /**
     * TracedCallback signature of Window.
     * \param [in] window the window chosen, T_w
     * \param [in] sit the SIT the model predicts for it
     */
    typedef void (*WindowTracedCallback)(Time window, Time sit);

  protected:
    HandoverPlan DoPlan(const HandoverPlanInput& input) override;
    bool DoShouldPrepare(const HandoverPredictionView& prediction) const override;
    HandoverPlan DoPrepare(const HandoverPlanInput& input) override;
    void DoCompleteRecord(HandoverRecord& record) const override;

  private:
    /// Take a sample from each session of an input.
    void ObserveInput(const HandoverPlanInput& input);
    /// Choose the window from the averages. \param nowS now, s
    void ChooseWindow(double nowS);
    /// Fold a sample into an average. \param avg the average \param seen sampled before
    /// \param value the sample
    void Fold(double& avg, bool& seen, double value) const;

    Time m_controlPeriod;   //!< ControlPeriod
    double m_alpha;         //!< Alpha
    Time m_windowLimit;     //!< WindowLimit
    Time m_windowStep;      //!< WindowStep
    double m_ewmaWeight;    //!< EwmaWeight
    Time m_radioFloor;      //!< RadioInterruption
    Time m_windowMargin;    //!< WindowMargin
    uint32_t m_leadPeriods; //!< PrepareLeadPeriods
    bool m_onlineGrouping;  //!< OnlineGrouping
    Ablation m_ablation;    //!< Ablation

    double m_context{0};        //!< averaged L_hist, tokens
    double m_decode{0};         //!< averaged r_d, tokens/s
    double m_prefill{0};        //!< averaged r_p, tokens/s
    double m_load{0};           //!< averaged T_load, s
    double m_backhaul{0};       //!< averaged KV tokens/s of the backhaul
    bool m_seenContext{false};  //!< m_context sampled
    bool m_seenDecode{false};   //!< m_decode sampled
    bool m_seenPrefill{false};  //!< m_prefill sampled
    bool m_seenLoad{false};     //!< m_load sampled
    bool m_seenBackhaul{false}; //!< m_backhaul sampled
    double m_lastChoiceS{-1};   //!< when the window was last chosen, s; negative: never

    Time m_window;                               //!< T_w now
    Time m_windowSit;                            //!< its modelled SIT
    PallasWindowInput m_lastInput;               //!< the model's input at the last choice
    uint64_t m_windowChoices{0};                 //!< windows chosen
    uint64_t m_prepared{0};                      //!< prepares answered
    uint64_t m_refusals{0};                      //!< prepares refused for memory
    uint64_t m_reactive{0};                      //!< DoPlan calls
    std::map<uint64_t, double> m_preparedWindow; //!< per prepared session: its window, s
    std::map<uint16_t, double> m_busyUntilS;     //!< per target: end of the prefills prepared, s

    TracedCallback<Time, Time> m_windowTrace; //!< Window
};

} // namespace ns3

#endif /* EDGE_LLM_PALLAS_SCHEDULER_H */
