/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef KV_CACHE_MODEL_H
#define KV_CACHE_MODEL_H

#include "kv-cache-profile.h"

#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The KV cache profile of the served model, as an ns-3 Object with attributes: the
 * simulation's configurable holder of a KvCacheProfile.
 *
 * Reach for it to set the served model from the command line or Config::SetDefault; for the
 * sizes themselves use the value type KvCacheProfile, which GetProfile() returns.
 *
 * The attributes are the model's shape, with Qwen2.5-7B-Instruct at 16 bits as the default. A
 * named model is chosen with ApplyPreset() on one object, or SetDefaultPreset() for every
 * object made afterwards. A value outside an attribute's range is refused where it is given
 * (command line, Config::SetDefault, SetAttribute), with the attribute, the value and the
 * allowed range printed; SetAttributeFailSafe returns false instead of stopping the run.
 */
class KvCacheModel : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a model with the attributes' defaults (Qwen2.5-7B-Instruct, 16 bits).
    KvCacheModel();
    ~KvCacheModel() override;

    /// \return the profile the attributes describe
    KvCacheProfile GetProfile() const;

    /**
     * \brief Take the shape (layers, KV heads, head dimension) of a named model.
     *
     * Bits per element and block size are left as they are. An unknown name stops the run
     * with the list of known names.
     *
     * \param name one of KvCacheProfile::PresetNames()
     */
    void ApplyPreset(const std::string& name);

    /**
     * \brief A model object that describes a profile: shape, bits and block size.
     * \param profile the value to describe, e.g. KvCacheProfile::FromPreset(name, bits)
     * \return a new KvCacheModel whose GetProfile() equals it
     */
    static Ptr<KvCacheModel> FromProfile(const KvCacheProfile& profile);

    /**
     * \brief Make a named model's shape the default of every KvCacheModel created afterwards.
     * \param name one of KvCacheProfile::PresetNames()
     */
    static void SetDefaultPreset(const std::string& name);

  private:
    std::string m_name;     //!< ModelName
    uint32_t m_layers;      //!< Layers
    uint32_t m_kvHeads;     //!< KvHeads
    uint32_t m_headDim;     //!< HeadDim
    uint32_t m_bits;        //!< BitsPerElement
    uint32_t m_blockTokens; //!< BlockTokens
};

} // namespace ns3

#endif /* KV_CACHE_MODEL_H */
