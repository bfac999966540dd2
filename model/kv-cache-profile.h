/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef KV_CACHE_PROFILE_H
#define KV_CACHE_PROFILE_H

#include <cstdint>
#include <string>
#include <vector>

/**
 * \defgroup edge-llm Edge LLM serving and handover
 *
 * LLM servers on base stations stream tokens to mobile UEs; at a handover the target rebuilds
 * the UE's KV cache by re-prefill (tHO), transfer over the backhaul (cHO), or both (ctHO).
 * This group holds the KV cache and compute models, the ctHO solver and the ns-3 objects
 * built on them.
 */

/**
 * \defgroup edge-llm-tests Tests of edge-llm
 * \ingroup edge-llm
 */

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Size of a transformer's KV cache, from the model's shape.
 *
 * The value type: what the planners and the Python bindings compute with. Its ns-3
 * counterpart is KvCacheModel, an Object whose attributes describe one profile (command line,
 * Config::SetDefault); KvCacheModel::GetProfile() gives the value.
 *
 * Every token stores one key and one value vector per layer and per KV head:
 * \f$ s_{KV} = 2 \cdot N_{layers} \cdot N_{kv\_heads} \cdot d_{head} \cdot q \f$ bits, with q the
 * bits per element (16 for bf16/fp16, 8, 4 or 2 for quantised caches). The cache is paged in
 * blocks of a fixed number of tokens (16 in vLLM).
 *
 * A pure value type: no simulator state. Invalid input throws std::invalid_argument with a
 * message that names the field and its allowed range.
 */
class KvCacheProfile
{
  public:
    static constexpr uint32_t DEFAULT_BLOCK_TOKENS = 16; //!< vLLM's default block size
    static constexpr uint32_t MAX_LAYERS = 4096;         //!< upper bound on layers
    static constexpr uint32_t MAX_KV_HEADS = 4096;       //!< upper bound on KV heads
    static constexpr uint32_t MAX_HEAD_DIM = 65536;      //!< upper bound on head dimension
    static constexpr uint32_t MAX_BLOCK_TOKENS = 65536;  //!< upper bound on block size

    /**
     * \brief Build a profile from a model shape.
     * \param name label of the model (free text)
     * \param layers number of transformer layers, [1, 4096]
     * \param kvHeads number of KV heads (after grouped-query sharing), [1, 4096]
     * \param headDim dimension of one head, [1, 65536]
     * \param bitsPerElement bits per stored element: 16, 8, 4 or 2
     * \param blockTokens tokens per cache block, [1, 65536]
     */
    KvCacheProfile(std::string name,
                   uint32_t layers,
                   uint32_t kvHeads,
                   uint32_t headDim,
                   uint32_t bitsPerElement = 16,
                   uint32_t blockTokens = DEFAULT_BLOCK_TOKENS);

    /**
     * \brief A profile for a named model.
     * \param name one of PresetNames()
     * \param bitsPerElement 16, 8, 4 or 2
     * \param blockTokens tokens per cache block, [1, 65536]
     * \return the profile
     */
    static KvCacheProfile FromPreset(const std::string& name,
                                     uint32_t bitsPerElement = 16,
                                     uint32_t blockTokens = DEFAULT_BLOCK_TOKENS);

    /// \return the names FromPreset() accepts
    static std::vector<std::string> PresetNames();

    /**
     * \param bits bits per element of the cache
     * \return whether bits is an allowed element width (16, 8, 4 or 2)
     */
    static bool IsAllowedBits(uint32_t bits);

    /// \return the model label
    const std::string& GetName() const;
    /// \return number of layers
    uint32_t GetLayers() const;
    /// \return number of KV heads
    uint32_t GetKvHeads() const;
    /// \return head dimension
    uint32_t GetHeadDim() const;
    /// \return bits per element
    uint32_t GetBitsPerElement() const;
    /// \return tokens per block
    uint32_t GetBlockTokens() const;

    /// \return bits of KV cache per token (K and V, every layer and KV head)
    uint64_t GetBitsPerToken() const;
    /// \return bytes per token; fractional only for odd shapes at 2 or 4 bits
    double GetBytesPerToken() const;
    /**
     * \param tokens number of tokens
     * \return bytes needed to hold them, rounded up to a whole byte
     */
    uint64_t GetBytesForTokens(uint64_t tokens) const;
    /// \return bytes of one full block
    uint64_t GetBytesPerBlock() const;
    /**
     * \param tokens number of tokens
     * \return number of blocks they occupy (the last one may be partly filled)
     */
    uint64_t GetBlocksForTokens(uint64_t tokens) const;
    /**
     * \brief Convert a link rate into a token rate: R = R_bh / s_KV.
     * \param bitsPerSecond link rate in bit/s, > 0
     * \return tokens of KV cache per second
     */
    double GetTokensPerSecond(double bitsPerSecond) const;

  private:
    std::string m_name;     //!< model label
    uint32_t m_layers;      //!< N_layers
    uint32_t m_kvHeads;     //!< N_kv_heads
    uint32_t m_headDim;     //!< d_head
    uint32_t m_bits;        //!< q, bits per element
    uint32_t m_blockTokens; //!< tokens per block
};

} // namespace ns3

#endif /* KV_CACHE_PROFILE_H */
