/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-cache-model.h"

#include "fatal-on-invalid.h"

#include "ns3/config.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <iostream>
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

TypeId
KvCacheModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::KvCacheModel")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<KvCacheModel>()
            .AddAttribute("ModelName",
                          "Label of the model; ApplyPreset sets it to the preset's name.",
                          StringValue("Qwen2.5-7B-Instruct"),
                          MakeStringAccessor(&KvCacheModel::m_name),
                          MakeStringChecker())
            .AddAttribute("Layers",
                          "Transformer layers. Range [1, 4096].",
                          UintegerValue(28),
                          MakeUintegerAccessor(&KvCacheModel::m_layers),
                          MakeUintegerChecker<uint32_t>(1, KvCacheProfile::MAX_LAYERS))
            .AddAttribute("KvHeads",
                          "KV heads per layer, after grouped-query sharing. Range [1, 4096].",
                          UintegerValue(4),
                          MakeUintegerAccessor(&KvCacheModel::m_kvHeads),
                          MakeUintegerChecker<uint32_t>(1, KvCacheProfile::MAX_KV_HEADS))
            .AddAttribute("HeadDim",
                          "Dimension of one attention head. Range [1, 65536].",
                          UintegerValue(128),
                          MakeUintegerAccessor(&KvCacheModel::m_headDim),
                          MakeUintegerChecker<uint32_t>(1, KvCacheProfile::MAX_HEAD_DIM))
            .AddAttribute("BitsPerElement",
                          "Bits per cached element: 16 (bf16/fp16), 8, 4 or 2 (quantised).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&KvCacheModel::SetBitsPerElement,
                                               &KvCacheModel::GetBitsPerElement),
                          MakeUintegerChecker<uint32_t>(2, 16))
            .AddAttribute("BlockTokens",
                          "Tokens per KV cache block (vLLM pages the cache in blocks of 16). "
                          "Range [1, 65536].",
                          UintegerValue(KvCacheProfile::DEFAULT_BLOCK_TOKENS),
                          MakeUintegerAccessor(&KvCacheModel::m_blockTokens),
                          MakeUintegerChecker<uint32_t>(1, KvCacheProfile::MAX_BLOCK_TOKENS));
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

bool
KvCacheModel::SetBitsPerElement(uint32_t bits)
{
    if (!KvCacheProfile::IsAllowedBits(bits))
    {
        // ns-3 names only the attribute when a setter refuses; say what is allowed.
        std::cerr << "ns3::KvCacheModel: BitsPerElement = " << bits
                  << " is invalid; allowed: 16, 8, 4 or 2" << std::endl;
        return false;
    }
    m_bits = bits;
    return true;
}

uint32_t
KvCacheModel::GetBitsPerElement() const
{
    return m_bits;
}

void
KvCacheModel::ApplyPreset(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    const KvCacheProfile p = PresetOrFatal(name);
    m_name = p.GetName();
    m_layers = p.GetLayers();
    m_kvHeads = p.GetKvHeads();
    m_headDim = p.GetHeadDim();
}

void
KvCacheModel::SetDefaultPreset(const std::string& name)
{
    const KvCacheProfile p = PresetOrFatal(name);
    Config::SetDefault("ns3::KvCacheModel::ModelName", StringValue(p.GetName()));
    Config::SetDefault("ns3::KvCacheModel::Layers", UintegerValue(p.GetLayers()));
    Config::SetDefault("ns3::KvCacheModel::KvHeads", UintegerValue(p.GetKvHeads()));
    Config::SetDefault("ns3::KvCacheModel::HeadDim", UintegerValue(p.GetHeadDim()));
}

KvCacheProfile
KvCacheModel::GetProfile() const
{
    // The attribute checkers keep every field in range, so this cannot throw.
    return KvCacheProfile(m_name, m_layers, m_kvHeads, m_headDim, m_bits, m_blockTokens);
}

} // namespace ns3
