/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-cache-model.h"

#include "explaining-checker.h"
#include "fatal-on-invalid.h"

#include "ns3/config.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("KvCacheModel");

NS_OBJECT_ENSURE_REGISTERED(KvCacheModel);

namespace
{

KvCacheProfile
PresetOrFatal(const std::string& name)
{
    return edgellm::CallOrFatal("ns3::KvCacheModel",
                                [&name] { return KvCacheProfile::FromPreset(name); });
}

} // namespace

namespace
{

/// The attribute values of a model's shape; one list serves the TypeId's initial values,
/// ApplyPreset and SetDefaultPreset.
std::vector<std::pair<std::string, Ptr<AttributeValue>>>
ShapeAttributesOf(const KvCacheProfile& p)
{
    return {
        {"ModelName", Create<StringValue>(p.GetName())},
        {"Layers", Create<UintegerValue>(p.GetLayers())},
        {"KvHeads", Create<UintegerValue>(p.GetKvHeads())},
        {"HeadDim", Create<UintegerValue>(p.GetHeadDim())},
    };
}

/// An integer attribute of KvCacheModel in [lo, hi], explained when refused.
Ptr<const AttributeChecker>
ShapeChecker(const std::string& name, uint32_t lo, uint32_t hi)
{
    return edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(lo, hi),
                                          "ns3::KvCacheModel::" + name,
                                          "an integer in [" + std::to_string(lo) + ", " +
                                              std::to_string(hi) + "]");
}

} // namespace

TypeId
KvCacheModel::GetTypeId()
{
    // The default shape is Qwen2.5-7B-Instruct's.
    static const auto defaults =
        ShapeAttributesOf(KvCacheProfile::FromPreset("Qwen2.5-7B-Instruct"));
    auto initial = [](const std::string& name) -> const AttributeValue& {
        for (const auto& [attribute, value] : defaults)
        {
            if (attribute == name)
            {
                return *value;
            }
        }
        NS_FATAL_ERROR("ns3::KvCacheModel: no default for " << name);
    };
    static TypeId tid =
        TypeId("ns3::KvCacheModel")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<KvCacheModel>()
            .AddAttribute("ModelName",
                          "Label of the model; ApplyPreset sets it to the preset's name.",
                          initial("ModelName"),
                          MakeStringAccessor(&KvCacheModel::m_name),
                          MakeStringChecker())
            .AddAttribute("Layers",
                          "Transformer layers. Range [1, 4096].",
                          initial("Layers"),
                          MakeUintegerAccessor(&KvCacheModel::m_layers),
                          ShapeChecker("Layers", 1, KvCacheProfile::MAX_LAYERS))
            .AddAttribute("KvHeads",
                          "KV heads per layer, after grouped-query sharing. Range [1, 4096].",
                          initial("KvHeads"),
                          MakeUintegerAccessor(&KvCacheModel::m_kvHeads),
                          ShapeChecker("KvHeads", 1, KvCacheProfile::MAX_KV_HEADS))
            .AddAttribute("HeadDim",
                          "Dimension of one attention head. Range [1, 65536].",
                          initial("HeadDim"),
                          MakeUintegerAccessor(&KvCacheModel::m_headDim),
                          ShapeChecker("HeadDim", 1, KvCacheProfile::MAX_HEAD_DIM))
            .AddAttribute("BitsPerElement",
                          "Bits per cached element: 16 (bf16/fp16), 8, 4 or 2 (quantised).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&KvCacheModel::m_bits),
                          edgellm::MakeExplainingChecker(
                              MakeUintegerChecker<uint32_t>(),
                              "ns3::KvCacheModel::BitsPerElement",
                              "16, 8, 4 or 2",
                              [](const AttributeValue& v) {
                                  const auto& bits = static_cast<const UintegerValue&>(v);
                                  return KvCacheProfile::IsAllowedBits(bits.Get())
                                             ? ""
                                             : "no such cache width";
                              }))
            .AddAttribute("BlockTokens",
                          "Tokens per KV cache block (vLLM pages the cache in blocks of 16). "
                          "Range [1, 65536].",
                          UintegerValue(KvCacheProfile::DEFAULT_BLOCK_TOKENS),
                          MakeUintegerAccessor(&KvCacheModel::m_blockTokens),
                          ShapeChecker("BlockTokens", 1, KvCacheProfile::MAX_BLOCK_TOKENS));
    return tid;
}

KvCacheModel::KvCacheModel()
    : m_layers(1),
      m_kvHeads(1),
      m_headDim(1),
      m_bits(16),
      m_blockTokens(KvCacheProfile::DEFAULT_BLOCK_TOKENS)
{
    NS_LOG_FUNCTION(this);
}

KvCacheModel::~KvCacheModel()
{
    NS_LOG_FUNCTION(this);
}

Ptr<KvCacheModel>
KvCacheModel::FromProfile(const KvCacheProfile& profile)
{
    Ptr<KvCacheModel> model = CreateObject<KvCacheModel>();
    for (const auto& [attribute, value] : ShapeAttributesOf(profile))
    {
        model->SetAttribute(attribute, *value);
    }
    model->SetAttribute("BitsPerElement", UintegerValue(profile.GetBitsPerElement()));
    model->SetAttribute("BlockTokens", UintegerValue(profile.GetBlockTokens()));
    return model;
}

void
KvCacheModel::ApplyPreset(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    for (const auto& [attribute, value] : ShapeAttributesOf(PresetOrFatal(name)))
    {
        SetAttribute(attribute, *value);
    }
}

void
KvCacheModel::SetDefaultPreset(const std::string& name)
{
    for (const auto& [attribute, value] : ShapeAttributesOf(PresetOrFatal(name)))
    {
        Config::SetDefault("ns3::KvCacheModel::" + attribute, *value);
    }
}

KvCacheProfile
KvCacheModel::GetProfile() const
{
    // The attribute checkers keep every field in range, so this cannot throw.
    return KvCacheProfile(m_name, m_layers, m_kvHeads, m_headDim, m_bits, m_blockTokens);
}

} // namespace ns3
