/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-compute-model.h"

#include "input-checks.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

PrefillCurve
PrefillCurve::Linear(double a, double b)
{
    PrefillCurve c;
    c.m_a = edgellm::RequireNonNegative("PrefillA (s/token)", a);
    c.m_b = edgellm::RequireNonNegative("PrefillB (s)", b);
    return c;
}

PrefillCurve
PrefillCurve::Measured(std::vector<Point> points)
{
    if (points.size() < 2)
    {
        edgellm::ThrowInvalid("PrefillProfile",
                              std::to_string(points.size()) + " point(s)",
                              "at least 2 (tokens, seconds) points");
    }
    for (std::size_t i = 0; i < points.size(); ++i)
    {
        const std::string where = "PrefillProfile point " + std::to_string(i);
        edgellm::RequireNonNegative(where + " seconds", points[i].second);
        if (points[i].first == 0)
        {
            edgellm::ThrowInvalid(where + " tokens",
                                  "0",
                                  "an integer > 0 (p(0) is 0 by definition)");
        }
        if (i > 0 && points[i].first <= points[i - 1].first)
        {
            edgellm::ThrowInvalid(where + " tokens",
                                  std::to_string(points[i].first),
                                  "strictly more than the previous point's " +
                                      std::to_string(points[i - 1].first));
        }
        if (i > 0 && points[i].second < points[i - 1].second)
        {
            edgellm::ThrowInvalid(where + " seconds",
                                  edgellm::FormatValue(points[i].second),
                                  "at least the previous point's " +
                                      edgellm::FormatValue(points[i - 1].second) +
                                      " (prefill time must not decrease with length)");
        }
    }
    PrefillCurve c;
    c.m_points = std::move(points);
    return c;
}

std::vector<PrefillCurve::Point>
PrefillCurve::ParseProfile(const std::string& text)
{
    std::string spaced = text;
    std::replace(spaced.begin(), spaced.end(), ',', ' ');
    std::istringstream in(spaced);
    std::vector<Point> points;
    std::string item;
    while (in >> item)
    {
        const auto colon = item.find(':');
        bool ok = colon != std::string::npos && colon > 0 &&
                  item.find_first_not_of("0123456789") == colon;
        Point p;
        if (ok)
        {
            const std::string seconds = item.substr(colon + 1);
            std::size_t used = 0;
            try
            {
                p.first = std::stoull(item.substr(0, colon));
                p.second = std::stod(seconds, &used);
                ok = used == seconds.size();
            }
            catch (const std::logic_error&)
            {
                ok = false; // no number, or out of range
            }
        }
        if (!ok)
        {
            edgellm::ThrowInvalid("PrefillProfile item",
                                  "\"" + item + "\"",
                                  "tokens:seconds, e.g. 256:0.058");
        }
        points.push_back(p);
    }
    if (points.empty())
    {
        edgellm::ThrowInvalid("PrefillProfile",
                              "\"" + text + "\"",
                              "at least one tokens:seconds item");
    }
    return points;
}

std::string
PrefillCurve::FormatProfile(const std::vector<Point>& points)
{
    std::string out;
    for (const auto& p : points)
    {
        out += (out.empty() ? "" : ",") + std::to_string(p.first) + ":" +
               edgellm::FormatValue(p.second);
    }
    return out;
}

double
PrefillCurve::operator()(uint64_t tokens) const
{
    if (tokens == 0)
    {
        return 0.0;
    }
    if (m_points.empty())
    {
        return m_a * static_cast<double>(tokens) + m_b;
    }
    const auto& p = m_points;
    const double t = static_cast<double>(tokens);
    // Each piece is kept within the values of its end points, so that rounding can never make
    // the curve decrease (the ctHO solver's search relies on it), and each knot evaluates to
    // its own value exactly.
    if (tokens < p.front().first)
    {
        return std::min(p.front().second * t / static_cast<double>(p.front().first),
                        p.front().second);
    }
    if (tokens >= p.back().first)
    {
        const auto& a = p[p.size() - 2];
        const auto& b = p.back();
        const double slope = (b.second - a.second) / static_cast<double>(b.first - a.first);
        return b.second + slope * static_cast<double>(tokens - b.first);
    }
    // The segment [lo, hi] with lo <= tokens < hi.
    const auto it = std::upper_bound(p.begin(), p.end(), tokens, [](uint64_t x, const Point& q) {
        return x < q.first;
    });
    const Point& lo = *(it - 1);
    const Point& hi = *it;
    const double fraction =
        static_cast<double>(tokens - lo.first) / static_cast<double>(hi.first - lo.first);
    return std::min(lo.second + (hi.second - lo.second) * fraction, hi.second);
}

bool
PrefillCurve::IsLinear() const
{
    return m_points.empty();
}

double
PrefillCurve::GetA() const
{
    return m_a;
}

double
PrefillCurve::GetB() const
{
    return m_b;
}

const std::vector<PrefillCurve::Point>&
PrefillCurve::GetPoints() const
{
    return m_points;
}

std::string
BatchPrefillModeName(BatchPrefillMode mode)
{
    return mode == BatchPrefillMode::PADDED_MAX ? "PaddedMax" : "TokenCount";
}

BatchPrefillMode
BatchPrefillModeFromName(const std::string& name)
{
    if (name == "PaddedMax")
    {
        return BatchPrefillMode::PADDED_MAX;
    }
    if (name == "TokenCount")
    {
        return BatchPrefillMode::TOKEN_COUNT;
    }
    edgellm::ThrowInvalid("BatchMode", "\"" + name + "\"", "PaddedMax or TokenCount");
}

PrefillBatch
PrefillBatch::FromLengths(const std::vector<uint64_t>& lengths)
{
    PrefillBatch b;
    for (uint64_t n : lengths)
    {
        if (n == 0)
        {
            continue;
        }
        ++b.sequences;
        b.maxTokens = std::max(b.maxTokens, n);
        b.totalTokens += n;
    }
    return b;
}

LlmComputeModel::LlmComputeModel(PrefillCurve prefill,
                                 BatchPrefillMode mode,
                                 DecodeStepModel decode,
                                 std::string prefillSource,
                                 std::string decodeSource)
    : m_prefill(std::move(prefill)),
      m_mode(mode),
      m_decode(decode),
      m_prefillSource(std::move(prefillSource)),
      m_decodeSource(std::move(decodeSource))
{
    edgellm::RequireNonNegative("DecodeBase (s)", decode.baseS);
    edgellm::RequireNonNegative("DecodePerSequence (s)", decode.perSequenceS);
    edgellm::RequireNonNegative("DecodePerContextToken (s)", decode.perContextTokenS);
}

namespace
{

const char* const BORROWED_DECODE =
    "borrowed: Llama-3.1-8B bf16 on A100-40GB, 13.3 ms per step at batch 1 (memory-bound); "
    "no figure for this model is published";

DecodeStepModel
BorrowedDecode()
{
    return DecodeStepModel{13.3e-3, 0.0, 0.0};
}

// --- The Pallas prototype's models on an RTX A6000 (48 GB) ---------------------------------
//
// Calibration, every step an assumption with its source:
// - Prefill of Qwen3-32B-AWQ is the prototype's Recompute time (Pallas, Ding, Liu, Xu, arXiv
//   2608.16477; vLLM on the RTX A6000): 581 / 1,208 / 2,103 ms at 1K / 2K / 4K tokens, taken
//   as 1,024 / 2,048 / 4,096 tokens, since the same paper's Full-Copy times (7,165 / 14,310 /
//   29,066 ms) are 1,024 / 2,048 / 4,096 tokens of bf16 KV over 300 Mb/s to within 1.5 %.
// - Prefill of Llama-3-8B and Qwen3-14B on the same GPU and stack: the same points scaled by
//   the models' non-embedding parameters (the weights of the linear layers, 2 FLOPs per
//   weight and token), relative to Qwen3-32B's. Attention, the rest, scales by layers x query
//   width in nearly the same ratio (0.25 and 0.39 against 0.224 and 0.423). AWQ's 4-bit
//   weights are dequantised for prefill GEMMs in vLLM, so its prefill is taken as compute-bound
//   as a bf16 model's.
// - Decode at batch 1 is memory-bound: the weights read per step (the non-embedding weights
//   and the untied LM head; the embedding lookup reads one row) over an effective bandwidth.
//   That bandwidth is the A6000's 768 GB/s (NVIDIA RTX A6000 datasheet) at the efficiency of
//   the one measured point, Llama-3.1-8B bf16 on A100-40GB, 13.3 ms per step: 15.009 GB read
//   over 1,555 GB/s would take 9.65 ms, an efficiency of 0.7257, so 557.4 GB/s on the A6000.
// - Each decode step also reads every context token's KV cache, bf16 (AWQ quantises weights,
//   not the cache), at the same bandwidth: perContextTokenS = bytes per token / 557.4 GB/s.
//
// Parameter counts from the models' configurations (Hugging Face): Llama-3-8B 32 layers of
// hidden 4096 (query 4096, KV 1024) and MLP 14336, vocabulary 128,256; Qwen3-14B 40 layers of
// hidden 5120 (query 5120, KV 1024) and MLP 17408, vocabulary 151,936; Qwen3-32B 64 layers of
// hidden 5120 (query 8192, KV 1024) and MLP 25600, vocabulary 151,936; none ties its LM head.

/// A decoder-only model's weights that a step reads.
struct A6000Model
{
    double nonEmbeddingParams; //!< weights of the transformer layers' linear maps
    double lmHeadParams;       //!< the LM head's weights (vocabulary x hidden)
    double bytesPerWeight;     //!< of the layers' weights: 2 for bf16, AWQ's 4 bits + scales
    double kvBytesPerToken;    //!< bf16 KV cache per token
};

/// Linear weights of one layer: query and output (hidden x query), K and V (hidden x KV),
/// and the gated MLP's three matrices (hidden x MLP).
constexpr double
LayerWeights(double hidden, double query, double kv, double mlp)
{
    return 2 * hidden * query + 2 * hidden * kv + 3 * hidden * mlp;
}

/// Linear weights of the ctHO paper's model and of ImpactHO's, which is scaled from it (the same
/// GPU and stack): Qwen2.5-7B 28 layers of hidden 3584 (query 3584, KV 512) and MLP 18944;
/// Qwen3-8B 36 layers of hidden 4096 (query 4096, KV 1024) and MLP 12288.
constexpr double QWEN2_5_7B_LAYERS = 28 * LayerWeights(3584, 3584, 512, 18944);
constexpr double QWEN3_8B_LAYERS = 36 * LayerWeights(4096, 4096, 1024, 12288);

/// AWQ, 4-bit weights in groups of 128, each group with an fp16 scale and a 4-bit zero.
constexpr double AWQ_BYTES_PER_WEIGHT = 0.5 + (2.0 + 0.5) / 128;

const A6000Model LLAMA_3_8B{32 * LayerWeights(4096, 4096, 1024, 14336), 128256.0 * 4096, 2, 131072};
const A6000Model QWEN3_14B{40 * LayerWeights(5120, 5120, 1024, 17408), 151936.0 * 5120, 2, 163840};
const A6000Model QWEN3_32B_AWQ{64 * LayerWeights(5120, 8192, 1024, 25600),
                               151936.0 * 5120,
                               AWQ_BYTES_PER_WEIGHT,
                               262144};

/// The prototype's Recompute of Qwen3-32B-AWQ on the A6000: (tokens, s).
const std::vector<PrefillCurve::Point> PALLAS_RECOMPUTE{{1024, 0.581},
                                                        {2048, 1.208},
                                                        {4096, 2.103}};

/// Effective decode bandwidth on the A6000, B/s: 768 GB/s at the A100 point's efficiency.
double
A6000DecodeBandwidth()
{
    const double referenceBytes = 2 * (LLAMA_3_8B.nonEmbeddingParams + LLAMA_3_8B.lmHeadParams);
    const double efficiency = referenceBytes / 13.3e-3 / 1555e9;
    return efficiency * 768e9;
}

PrefillCurve
A6000Prefill(const A6000Model& m)
{
    const double scale = m.nonEmbeddingParams / QWEN3_32B_AWQ.nonEmbeddingParams;
    std::vector<PrefillCurve::Point> points;
    for (const auto& [tokens, seconds] : PALLAS_RECOMPUTE)
    {
        points.emplace_back(tokens, seconds * scale);
    }
    return PrefillCurve::Measured(points);
}

DecodeStepModel
A6000Decode(const A6000Model& m)
{
    const double bandwidth = A6000DecodeBandwidth();
    const double bytes = m.nonEmbeddingParams * m.bytesPerWeight + 2 * m.lmHeadParams;
    return DecodeStepModel{bytes / bandwidth, 0.0, m.kvBytesPerToken / bandwidth};
}

const char* const A6000_DECODE =
    "memory-bound estimate: weights read per step over the RTX A6000's 768 GB/s at the "
    "efficiency of Llama-3.1-8B bf16 on A100-40GB (13.3 ms per step at batch 1 over 1,555 "
    "GB/s: 0.726), plus each context token's bf16 KV at that bandwidth";

} // namespace

std::vector<std::string>
LlmComputeModel::PresetNames()
{
    return {"qwen2.5-7b-ctho-paper",
            "qwen3-8b-ctho-scaled",
            "llama-7b-llumnix",
            "llama-30b-llumnix",
            "llama-3.1-8b-a100",
            "llama-3-8b-a6000",
            "qwen3-14b-a6000",
            "qwen3-32b-awq-a6000"};
}

std::string
LlmComputeModel::DefaultPresetName()
{
    return "qwen2.5-7b-ctho-paper";
}

LlmComputeModel
LlmComputeModel::FromPreset(const std::string& name)
{
    if (name == "qwen2.5-7b-ctho-paper")
    {
        return LlmComputeModel(PrefillCurve::Linear(9.4267e-5, 2.4e-3),
                               BatchPrefillMode::PADDED_MAX,
                               BorrowedDecode(),
                               "ctHO paper (Lee, Park, Zheng, Park, arXiv 2603.28018): "
                               "Qwen2.5-7B-Instruct, p(L) = 9.4267e-5 L + 2.4e-3 s",
                               BORROWED_DECODE);
    }
    if (name == "qwen3-8b-ctho-scaled")
    {
        const double scale = QWEN3_8B_LAYERS / QWEN2_5_7B_LAYERS;
        return LlmComputeModel(PrefillCurve::Linear(9.4267e-5 * scale, 2.4e-3 * scale),
                               BatchPrefillMode::PADDED_MAX,
                               BorrowedDecode(),
                               "scaled: the ctHO paper's Qwen2.5-7B-Instruct fit (Lee, Park, "
                               "Zheng, Park, arXiv 2603.28018), p(L) = 9.4267e-5 L + 2.4e-3 s, "
                               "times Qwen3-8B's non-embedding parameters over Qwen2.5-7B's "
                               "(6.946e9 / 6.525e9)",
                               BORROWED_DECODE);
    }
    if (name == "llama-7b-llumnix")
    {
        return LlmComputeModel(
            PrefillCurve::Measured({{256, 0.058},
                                    {512, 0.110},
                                    {1024, 0.220},
                                    {2048, 0.436},
                                    {4096, 0.940},
                                    {8192, 1.995}}),
            BatchPrefillMode::TOKEN_COUNT,
            BorrowedDecode(),
            "Llumnix artifact (Sun et al., OSDI 2024): LLaMA-7B recompute time, 256 to "
            "8192 tokens",
            BORROWED_DECODE);
    }
    if (name == "llama-30b-llumnix")
    {
        return LlmComputeModel(
            PrefillCurve::Measured({{256, 0.115},
                                    {512, 0.235},
                                    {1024, 0.443},
                                    {2048, 0.829},
                                    {4096, 1.712},
                                    {8192, 3.546}}),
            BatchPrefillMode::TOKEN_COUNT,
            BorrowedDecode(),
            "Llumnix artifact (Sun et al., OSDI 2024): LLaMA-30B recompute time, 256 to "
            "8192 tokens",
            BORROWED_DECODE);
    }
    if (name == "llama-3.1-8b-a100")
    {
        return LlmComputeModel(PrefillCurve::Linear(66e-6, 0.0),
                               BatchPrefillMode::TOKEN_COUNT,
                               DecodeStepModel{13.3e-3, 0.0, 0.0},
                               "Llama-3-8B linear layers on A100, about 66 us per token; "
                               "attention is left out, so this is a lower bound",
                               "Llama-3.1-8B bf16 on A100-40GB, 13.3 ms per step at batch 1");
    }
    if (name == "qwen3-32b-awq-a6000")
    {
        return LlmComputeModel(PrefillCurve::Measured(PALLAS_RECOMPUTE),
                               BatchPrefillMode::TOKEN_COUNT,
                               A6000Decode(QWEN3_32B_AWQ),
                               "Pallas prototype (Ding, Liu, Xu, arXiv 2608.16477): Qwen3-32B-AWQ "
                               "Recompute on the RTX A6000 (vLLM), 581 / 1208 / 2103 ms at 1K / "
                               "2K / 4K tokens",
                               A6000_DECODE);
    }
    if (name == "qwen3-14b-a6000")
    {
        return LlmComputeModel(A6000Prefill(QWEN3_14B),
                               BatchPrefillMode::TOKEN_COUNT,
                               A6000Decode(QWEN3_14B),
                               "scaled: the Pallas prototype's Qwen3-32B-AWQ Recompute on the "
                               "RTX A6000 (arXiv 2608.16477) times Qwen3-14B's non-embedding "
                               "parameters over Qwen3-32B's (13.21e9 / 31.21e9)",
                               A6000_DECODE);
    }
    if (name == "llama-3-8b-a6000")
    {
        return LlmComputeModel(A6000Prefill(LLAMA_3_8B),
                               BatchPrefillMode::TOKEN_COUNT,
                               A6000Decode(LLAMA_3_8B),
                               "scaled: the Pallas prototype's Qwen3-32B-AWQ Recompute on the "
                               "RTX A6000 (arXiv 2608.16477) times Llama-3-8B's non-embedding "
                               "parameters over Qwen3-32B's (6.98e9 / 31.21e9)",
                               A6000_DECODE);
    }
    edgellm::ThrowInvalid("ComputePreset",
                          "\"" + name + "\"",
                          "one of " + edgellm::JoinNames(PresetNames()));
}

double
LlmComputeModel::PrefillTime(uint64_t tokens) const
{
    return m_prefill(tokens);
}

double
LlmComputeModel::BatchPrefillTime(const PrefillBatch& batch) const
{
    const bool empty = batch.sequences == 0;
    // total > sequences * max, without forming the product
    const bool overPadded =
        batch.maxTokens != 0 && (batch.totalTokens / batch.maxTokens > batch.sequences ||
                                 (batch.totalTokens / batch.maxTokens == batch.sequences &&
                                  batch.totalTokens % batch.maxTokens != 0));
    if (empty != (batch.maxTokens == 0) || batch.totalTokens < batch.maxTokens ||
        batch.totalTokens < batch.sequences || overPadded)
    {
        edgellm::ThrowInvalid(
            "PrefillBatch",
            "{sequences " + std::to_string(batch.sequences) + ", max " +
                std::to_string(batch.maxTokens) + ", total " + std::to_string(batch.totalTokens) +
                "}",
            "max <= total <= sequences * max, total >= sequences, and max = 0 only when empty");
    }
    if (empty)
    {
        return 0.0;
    }
    return m_prefill(m_mode == BatchPrefillMode::PADDED_MAX ? batch.maxTokens : batch.totalTokens);
}

double
LlmComputeModel::DecodeStepTime(uint64_t sequences, uint64_t contextTokens) const
{
    if (sequences == 0)
    {
        return 0.0;
    }
    return m_decode.baseS + m_decode.perSequenceS * static_cast<double>(sequences) +
           m_decode.perContextTokenS * static_cast<double>(contextTokens);
}

const PrefillCurve&
LlmComputeModel::GetPrefillCurve() const
{
    return m_prefill;
}

BatchPrefillMode
LlmComputeModel::GetBatchMode() const
{
    return m_mode;
}

const DecodeStepModel&
LlmComputeModel::GetDecodeModel() const
{
    return m_decode;
}

const std::string&
LlmComputeModel::GetPrefillSource() const
{
    return m_prefillSource;
}

const std::string&
LlmComputeModel::GetDecodeSource() const
{
    return m_decodeSource;
}

} // namespace ns3
