/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GPU_COMPUTE_MODEL_H
#define GPU_COMPUTE_MODEL_H

#include "llm-compute-model.h"

#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The compute model of an edge server's GPU, as an ns-3 Object with attributes: the
 * simulation's configurable holder of an LlmComputeModel.
 *
 * Reach for it to set a server's GPU in a simulation (LlmEngine::SetComputeModel, attributes
 * from the command line or Config::SetDefault); for the numbers themselves, outside a
 * simulation, use the value type LlmComputeModel, which GetModel() returns. The attributes
 * describe an LlmComputeModel: the prefill curve (linear, or a measured
 * profile that replaces it when set), the batch mode and the decode step. The defaults are the
 * preset "qwen2.5-7b-ctho-paper". ApplyPreset() takes a named preset on one object,
 * SetDefaultPreset() on every object made afterwards. Coefficients are plain seconds, not
 * ns3::Time, because per-token costs can lie far below a nanosecond.
 */
class GpuComputeModel : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a model with the attributes' defaults (the qwen2.5-7b-ctho-paper preset).
    GpuComputeModel();
    ~GpuComputeModel() override;

    /// \return the compute model the attributes describe
    LlmComputeModel GetModel() const;

    /**
     * \brief Take every value of a named preset, its sources included. An unknown name stops
     * the run with the list of known names.
     * \param name one of LlmComputeModel::PresetNames()
     */
    void ApplyPreset(const std::string& name);

    /**
     * \brief Make a named preset the default of every GpuComputeModel created afterwards.
     * \param name one of LlmComputeModel::PresetNames()
     */
    static void SetDefaultPreset(const std::string& name);

  private:
    /**
     * \param text "tokens:seconds" pairs separated by commas (or spaces), or empty for none;
     *        the attribute's checker has refused invalid text
     */
    void SetPrefillProfile(std::string text);
    /// \return the profile as text (normalised: "256:0.058,512:0.11"), empty when linear
    std::string GetPrefillProfile() const;
    /**
     * \param name "PaddedMax" or "TokenCount"; the attribute's checker has refused others
     */
    void SetBatchMode(std::string name);
    /// \return the batch mode's name
    std::string GetBatchMode() const;

    double m_prefillPerToken;                   //!< a, s/token
    double m_prefillFixed;                      //!< b, s
    std::vector<PrefillCurve::Point> m_profile; //!< its points; empty: linear
    BatchPrefillMode m_batchMode;               //!< BatchMode
    double m_decodeBase;                        //!< decode step base, s
    double m_decodePerSequence;                 //!< per sequence, s
    double m_decodePerContextToken;             //!< per context token, s
    std::string m_prefillSource;                //!< label of the prefill figures
    std::string m_decodeSource;                 //!< label of the decode figures
};

} // namespace ns3

#endif /* GPU_COMPUTE_MODEL_H */
