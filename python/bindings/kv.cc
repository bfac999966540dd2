/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bindings.h"

#include "ns3/attribute-text.h"
#include "ns3/data-rate.h"
#include "ns3/flag-checks.h"
#include "ns3/input-checks.h"
#include "ns3/kv-cache-profile.h"

#include <cmath>
#include <pybind11/stl.h>
#include <sstream>
#include <string>
#include <variant>

namespace py = pybind11;

namespace ns3
{
namespace edgellm
{
namespace python
{

namespace
{

/// A rate given as a number of bit/s, or as ns-3 reads a rate: "4.5Gbps".
double
RateBps(const std::variant<double, std::string>& rate)
{
    if (const auto* text = std::get_if<std::string>(&rate))
    {
        // As the examples' rate flags read one.
        DataRate parsed;
        if (!ParseDataRate(*text, parsed))
        {
            const std::string problem = DataRateTextProblem(*text);
            ThrowInvalid("rate",
                         "\"" + *text + "\"",
                         "a rate > 0 with a unit, e.g. \"4.5Gbps\", or a number of bit/s" +
                             (problem.empty() ? "" : " (" + problem + ")"));
        }
        return static_cast<double>(parsed.GetBitRate());
    }
    return std::get<double>(rate);
}

} // namespace

void
BindKv(py::module_& m)
{
    py::class_<KvCacheProfile>(m,
                               "KvCacheProfile",
                               "The KV-cache shape of a model: layers, KV heads, head "
                               "dimension, bits per element, block size.")
        .def_static("from_preset",
                    &KvCacheProfile::FromPreset,
                    py::arg("name"),
                    py::arg("bits") = 16,
                    py::arg("block_tokens") = KvCacheProfile::DEFAULT_BLOCK_TOKENS,
                    "A named model's profile (preset_names()), at 16, 8, 4 or 2 bits.")
        .def_static("preset_names", &KvCacheProfile::PresetNames)
        .def_property_readonly("name", &KvCacheProfile::GetName)
        .def_property_readonly("layers", &KvCacheProfile::GetLayers)
        .def_property_readonly("kv_heads", &KvCacheProfile::GetKvHeads)
        .def_property_readonly("head_dim", &KvCacheProfile::GetHeadDim)
        .def_property_readonly("bits", &KvCacheProfile::GetBitsPerElement)
        .def_property_readonly("block_tokens", &KvCacheProfile::GetBlockTokens)
        .def_property_readonly("bytes_per_token", &KvCacheProfile::GetBytesPerToken)
        .def("__repr__", [](const KvCacheProfile& p) {
            std::ostringstream s;
            s << "KvCacheProfile(name='" << p.GetName() << "', layers=" << p.GetLayers()
              << ", kv_heads=" << p.GetKvHeads() << ", head_dim=" << p.GetHeadDim()
              << ", bits=" << p.GetBitsPerElement() << ")";
            return s.str();
        });
    m.def(
        "backhaul_tokens_per_second",
        [](const std::variant<double, std::string>& rate, const KvCacheProfile& profile) {
            const double bps = RateBps(rate);
            if (!(bps > 0) || !std::isfinite(bps))
            {
                ThrowInvalid("rate", FormatValue(bps), "a rate > 0 bit/s");
            }
            return bps / 8.0 / profile.GetBytesPerToken();
        },
        py::arg("rate"),
        py::arg("profile"),
        "R, the tokens of KV cache a backhaul carries per second: rate / 8 / the profile's "
        "bytes per token (what ctho_plan's backhaul_tokens_per_second is). rate: bit/s, or a "
        "text with a unit, \"4.5Gbps\".");
}

} // namespace python
} // namespace edgellm
} // namespace ns3
