/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LLM_COMPUTE_MODEL_H
#define LLM_COMPUTE_MODEL_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Prefill time of one sequence of L tokens on one GPU, p(L), in seconds.
 *
 * Two forms:
 * - linear, \f$ p(L) = a L + b \f$ (the ctHO paper's fit);
 * - measured, piecewise linear through (tokens, seconds) points. Below the first point the
 *   curve runs straight to the origin; above the last point it continues with the slope of the
 *   last segment.
 *
 * p(0) = 0 in both forms: a batch with no tokens is no job. The curve is non-decreasing, which
 * the ctHO solver relies on; a measured profile that decreases is rejected.
 */
class PrefillCurve
{
  public:
    /// One measured point: (tokens, seconds).
    using Point = std::pair<uint64_t, double>;

    /**
     * \param a seconds per token, finite and >= 0
     * \param b fixed seconds per prefill, finite and >= 0
     * \return the linear curve a*L + b
     */
    static PrefillCurve Linear(double a, double b);

    /**
     * \param points at least two (tokens, seconds) points; tokens strictly increasing and > 0,
     *        seconds finite, >= 0 and non-decreasing
     * \return the piecewise-linear curve through them
     */
    static PrefillCurve Measured(std::vector<Point> points);

    /**
     * \brief Read a measured profile from text.
     * \param text "tokens:seconds" pairs separated by commas (or spaces), e.g.
     *        "256:0.058,512:0.110"
     * \return the points; the text must hold at least one (Measured() checks the rest)
     */
    static std::vector<Point> ParseProfile(const std::string& text);

    /**
     * \param points (tokens, seconds) points
     * \return them as ParseProfile reads them, e.g. "256:0.058,512:0.11"
     */
    static std::string FormatProfile(const std::vector<Point>& points);

    /**
     * \param tokens sequence length L
     * \return p(L) in seconds; 0 when L = 0
     */
    double operator()(uint64_t tokens) const;

    /// \return whether this is the linear form
    bool IsLinear() const;
    /// \return a of the linear form (0 for a measured curve)
    double GetA() const;
    /// \return b of the linear form (0 for a measured curve)
    double GetB() const;
    /// \return the measured points (empty for the linear form)
    const std::vector<Point>& GetPoints() const;

  private:
    PrefillCurve() = default;
    double m_a{0};               //!< a of the linear form, s/token
    double m_b{0};               //!< b of the linear form, s
    std::vector<Point> m_points; //!< measured points; empty: linear
};

/**
 * \ingroup edge-llm
 * \brief How a batch of sequences prefilled together costs time.
 */
enum class BatchPrefillMode
{
    /// Sequences are padded to the longest: the batch costs p(max length). The ctHO paper.
    PADDED_MAX,
    /// The GPU works on every real token: the batch costs p(sum of lengths). Packed batches.
    TOKEN_COUNT,
};

/**
 * \param mode a batch mode
 * \return its name: "PaddedMax" or "TokenCount"
 */
std::string BatchPrefillModeName(BatchPrefillMode mode);

/**
 * \param name "PaddedMax" or "TokenCount"
 * \return the mode; another name throws std::invalid_argument naming BatchMode
 */
BatchPrefillMode BatchPrefillModeFromName(const std::string& name);

/**
 * \ingroup edge-llm
 * \brief What the compute model needs to know of a prefill batch.
 *
 * Both the ctHO solver and the simulator's engine describe their batches this way and ask the
 * same LlmComputeModel::BatchPrefillTime, so the two can never disagree.
 */
struct PrefillBatch
{
    uint64_t sequences{0};   //!< number of sequences in the batch
    uint64_t maxTokens{0};   //!< length of the longest sequence
    uint64_t totalTokens{0}; //!< sum of the sequence lengths

    /**
     * \param lengths sequence lengths; zero-length entries are not sequences
     * \return the batch they form
     */
    static PrefillBatch FromLengths(const std::vector<uint64_t>& lengths);
};

/**
 * \ingroup edge-llm
 * \brief Decode step time of a batch: base + perSequence * B + perContextToken * (sum of
 * context lengths), in seconds.
 */
struct DecodeStepModel
{
    double baseS{0};            //!< fixed cost of one step, s
    double perSequenceS{0};     //!< cost per sequence in the batch, s
    double perContextTokenS{0}; //!< cost per context token read (attention), s
};

/**
 * \ingroup edge-llm
 * \brief How long compute takes on one GPU: prefill of a batch and one decode step.
 *
 * A pure value type, built directly or from a named preset that states its sources: what the
 * ctHO solver, the schedulers and the engine compute with, and what code outside a simulation
 * (analytic studies, the Python bindings) reaches for. Its ns-3 counterpart is
 * GpuComputeModel, an Object whose attributes describe one of these (command line,
 * Config::SetDefault) and which an LlmEngine holds; GpuComputeModel::GetModel() gives the
 * value.
 */
class LlmComputeModel
{
  public:
    /**
     * \param prefill the prefill curve p(L)
     * \param mode how a batch's prefill is costed
     * \param decode the decode step model; every term finite and >= 0
     * \param prefillSource where the prefill figures come from
     * \param decodeSource where the decode figures come from
     */
    LlmComputeModel(PrefillCurve prefill,
                    BatchPrefillMode mode,
                    DecodeStepModel decode,
                    std::string prefillSource = "user-supplied",
                    std::string decodeSource = "user-supplied");

    /**
     * \param name one of PresetNames()
     * \return the preset
     */
    static LlmComputeModel FromPreset(const std::string& name);
    /// \return the names FromPreset() accepts
    static std::vector<std::string> PresetNames();
    /// \return the default preset's name ("qwen2.5-7b-ctho-paper")
    static std::string DefaultPresetName();

    /**
     * \param tokens length of one sequence
     * \return p(tokens) in seconds
     */
    double PrefillTime(uint64_t tokens) const;

    /**
     * \brief The one interface for "prefill time of this batch".
     * \param batch the batch; sequences, max and total must be consistent
     * \return seconds; 0 for an empty batch
     */
    double BatchPrefillTime(const PrefillBatch& batch) const;

    /**
     * \param sequences batch size B
     * \param contextTokens sum of the context lengths of the batch
     * \return seconds for one decode step; 0 when B = 0
     */
    double DecodeStepTime(uint64_t sequences, uint64_t contextTokens) const;

    /// \return the prefill curve
    const PrefillCurve& GetPrefillCurve() const;
    /// \return the batch mode
    BatchPrefillMode GetBatchMode() const;
    /// \return the decode model
    const DecodeStepModel& GetDecodeModel() const;
    /// \return the prefill source
    const std::string& GetPrefillSource() const;
    /// \return the decode source
    const std::string& GetDecodeSource() const;

  private:
    PrefillCurve m_prefill;      //!< p(L)
    BatchPrefillMode m_mode;     //!< batch costing
    DecodeStepModel m_decode;    //!< decode step
    std::string m_prefillSource; //!< where p(L) comes from
    std::string m_decodeSource;  //!< where the decode figures come from
};

} // namespace ns3

#endif /* LLM_COMPUTE_MODEL_H */
