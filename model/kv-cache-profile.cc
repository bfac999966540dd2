/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-cache-profile.h"

#include "input-checks.h"

#include <array>
#include <limits>

namespace ns3
{

namespace
{

struct KvPreset
{
    const char* name;
    uint32_t layers;
    uint32_t kvHeads;
    uint32_t headDim;
};

// Shapes from each model's published config.json (num_hidden_layers, num_key_value_heads,
// head_dim or hidden_size / num_attention_heads).
constexpr std::array<KvPreset, 6> KV_PRESETS{{
    {"Qwen2.5-7B-Instruct", 28, 4, 128},
    {"Llama-3-8B", 32, 8, 128},
    {"Llama-3.1-8B", 32, 8, 128},
    {"Qwen3-8B", 36, 8, 128},
    {"Qwen3-14B", 40, 8, 128},
    {"Qwen3-32B", 64, 8, 128},
}};

void
CheckRange(const char* field, uint32_t value, uint32_t lo, uint32_t hi)
{
    if (value < lo || value > hi)
    {
        edgellm::ThrowInvalid(field,
                              std::to_string(value),
                              "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                  "]");
    }
}

} // namespace

KvCacheProfile::KvCacheProfile(std::string name,
                               uint32_t layers,
                               uint32_t kvHeads,
                               uint32_t headDim,
                               uint32_t bitsPerElement,
                               uint32_t blockTokens)
    : m_name(std::move(name)),
      m_layers(layers),
      m_kvHeads(kvHeads),
      m_headDim(headDim),
      m_bits(bitsPerElement),
      m_blockTokens(blockTokens)
{
    CheckRange("Layers", layers, 1, MAX_LAYERS);
    CheckRange("KvHeads", kvHeads, 1, MAX_KV_HEADS);
    CheckRange("HeadDim", headDim, 1, MAX_HEAD_DIM);
    CheckRange("BlockTokens", blockTokens, 1, MAX_BLOCK_TOKENS);
    if (!IsAllowedBits(bitsPerElement))
    {
        edgellm::ThrowInvalid("BitsPerElement", std::to_string(bitsPerElement), "16, 8, 4 or 2");
    }
}

KvCacheProfile
KvCacheProfile::FromPreset(const std::string& name, uint32_t bitsPerElement, uint32_t blockTokens)
{
    for (const auto& p : KV_PRESETS)
    {
        if (name == p.name)
        {
            return KvCacheProfile(p.name,
                                  p.layers,
                                  p.kvHeads,
                                  p.headDim,
                                  bitsPerElement,
                                  blockTokens);
        }
    }
    edgellm::ThrowInvalid("Preset",
                          "\"" + name + "\"",
                          "one of " + edgellm::JoinNames(PresetNames()));
}

std::vector<std::string>
KvCacheProfile::PresetNames()
{
    std::vector<std::string> names;
    for (const auto& p : KV_PRESETS)
    {
        names.emplace_back(p.name);
    }
    return names;
}

bool
KvCacheProfile::IsAllowedBits(uint32_t bits)
{
    return bits == 16 || bits == 8 || bits == 4 || bits == 2;
}

const std::string&
KvCacheProfile::GetName() const
{
    return m_name;
}

uint32_t
KvCacheProfile::GetLayers() const
{
    return m_layers;
}

uint32_t
KvCacheProfile::GetKvHeads() const
{
    return m_kvHeads;
}

uint32_t
KvCacheProfile::GetHeadDim() const
{
    return m_headDim;
}

uint32_t
KvCacheProfile::GetBitsPerElement() const
{
    return m_bits;
}

uint32_t
KvCacheProfile::GetBlockTokens() const
{
    return m_blockTokens;
}

uint64_t
KvCacheProfile::GetBitsPerToken() const
{
    // At most 2 * 4096 * 4096 * 65536 * 16, well inside 64 bits.
    return 2ULL * m_layers * m_kvHeads * m_headDim * m_bits;
}

double
KvCacheProfile::GetBytesPerToken() const
{
    return static_cast<double>(GetBitsPerToken()) / 8.0;
}

uint64_t
KvCacheProfile::GetBytesForTokens(uint64_t tokens) const
{
    // tokens * bits / 8, rounded up, without a product that can pass 2^64: split the bits per
    // token into whole bytes and a remainder below 8.
    const uint64_t bits = GetBitsPerToken();
    const uint64_t wholeBytes = bits / 8;
    const uint64_t restBits = bits % 8;
    const uint64_t restBytes = (tokens / 8) * restBits + ((tokens % 8) * restBits + 7) / 8;
    const uint64_t max = std::numeric_limits<uint64_t>::max();
    if ((wholeBytes != 0 && tokens > (max - restBytes) / wholeBytes))
    {
        edgellm::ThrowInvalid("tokens",
                              std::to_string(tokens),
                              "a count whose KV cache fits in 2^64 bytes");
    }
    return tokens * wholeBytes + restBytes;
}

uint64_t
KvCacheProfile::GetBytesPerBlock() const
{
    return GetBytesForTokens(m_blockTokens);
}

uint64_t
KvCacheProfile::GetBlocksForTokens(uint64_t tokens) const
{
    return tokens / m_blockTokens + (tokens % m_blockTokens != 0 ? 1 : 0);
}

double
KvCacheProfile::GetTokensPerSecond(double bitsPerSecond) const
{
    edgellm::RequirePositive("bitsPerSecond", bitsPerSecond);
    return bitsPerSecond / static_cast<double>(GetBitsPerToken());
}

} // namespace ns3
