/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gpu-compute-model.h"

#include "explaining-checker.h"
#include "fatal-on-invalid.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GpuComputeModel");

NS_OBJECT_ENSURE_REGISTERED(GpuComputeModel);

namespace
{

LlmComputeModel
PresetOrFatal(const std::string& name)
{
    return edgellm::CallOrFatal("ns3::GpuComputeModel",
                                [&name] { return LlmComputeModel::FromPreset(name); });
}

/// The attribute values that describe a compute model; one list serves the TypeId's initial
/// values, ApplyPreset and SetDefaultPreset.
std::vector<std::pair<std::string, Ptr<AttributeValue>>>
AttributesOf(const LlmComputeModel& m)
{
    const PrefillCurve& c = m.GetPrefillCurve();
    const DecodeStepModel& d = m.GetDecodeModel();
    return {
        {"PrefillSecondsPerToken", Create<DoubleValue>(c.GetA())},
        {"PrefillFixedSeconds", Create<DoubleValue>(c.GetB())},
        {"PrefillProfile", Create<StringValue>(PrefillCurve::FormatProfile(c.GetPoints()))},
        {"BatchMode", Create<StringValue>(BatchPrefillModeName(m.GetBatchMode()))},
        {"DecodeBaseSeconds", Create<DoubleValue>(d.baseS)},
        {"DecodeSecondsPerSequence", Create<DoubleValue>(d.perSequenceS)},
        {"DecodeSecondsPerContextToken", Create<DoubleValue>(d.perContextTokenS)},
        {"PrefillSource", Create<StringValue>(m.GetPrefillSource())},
        {"DecodeSource", Create<StringValue>(m.GetDecodeSource())},
    };
}

/// A measured profile's points from the attribute's text; blank text means none.
std::vector<PrefillCurve::Point>
ReadProfile(const std::string& text)
{
    return text.find_first_not_of(" ,") == std::string::npos ? std::vector<PrefillCurve::Point>{}
                                                             : PrefillCurve::ParseProfile(text);
}

/// Seconds >= 0 and finite (the double checker refuses NaN and infinity too), explained.
Ptr<const AttributeChecker>
SecondsChecker(const std::string& name)
{
    return edgellm::MakeExplainingChecker(
        MakeDoubleChecker<double>(0.0, std::numeric_limits<double>::max()),
        "ns3::GpuComputeModel::" + name,
        "a finite number of seconds >= 0");
}

/// The reason a measured profile's text is refused, or "" when it is valid.
std::string
ProfileProblem(const AttributeValue& value)
{
    try
    {
        const auto points = ReadProfile(static_cast<const StringValue&>(value).Get());
        if (!points.empty())
        {
            PrefillCurve::Measured(points);
        }
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// The reason a batch mode's name is refused, or "" when it is known.
std::string
BatchModeProblem(const AttributeValue& value)
{
    try
    {
        BatchPrefillModeFromName(static_cast<const StringValue&>(value).Get());
    }
    catch (const std::invalid_argument&)
    {
        return "no such batch mode";
    }
    return "";
}

} // namespace

TypeId
GpuComputeModel::GetTypeId()
{
    static const auto defaults =
        AttributesOf(LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName()));
    auto initial = [](const std::string& name) -> const AttributeValue& {
        for (const auto& [attribute, value] : defaults)
        {
            if (attribute == name)
            {
                return *value;
            }
        }
        NS_FATAL_ERROR("ns3::GpuComputeModel: no default for " << name);
    };
    static TypeId tid =
        TypeId("ns3::GpuComputeModel")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<GpuComputeModel>()
            .AddAttribute("PrefillSecondsPerToken",
                          "a of the linear prefill time p(L) = a L + b, s/token. Range [0, inf).",
                          initial("PrefillSecondsPerToken"),
                          MakeDoubleAccessor(&GpuComputeModel::m_prefillPerToken),
                          SecondsChecker("PrefillSecondsPerToken"))
            .AddAttribute("PrefillFixedSeconds",
                          "b of the linear prefill time p(L) = a L + b, s. Range [0, inf).",
                          initial("PrefillFixedSeconds"),
                          MakeDoubleAccessor(&GpuComputeModel::m_prefillFixed),
                          SecondsChecker("PrefillFixedSeconds"))
            .AddAttribute("PrefillProfile",
                          "Measured prefill profile: \"tokens:seconds\" items separated by commas, "
                          "e.g. \"256:0.058,512:0.110\"; tokens strictly increasing, seconds "
                          "not decreasing. When set it replaces the linear form; empty: use the "
                          "linear form. Separate items with commas only: ns-3 stops the run on a "
                          "refused value that holds spaces.",
                          initial("PrefillProfile"),
                          MakeStringAccessor(&GpuComputeModel::SetPrefillProfile,
                                             &GpuComputeModel::GetPrefillProfile),
                          edgellm::MakeExplainingChecker(
                              MakeStringChecker(),
                              "ns3::GpuComputeModel::PrefillProfile",
                              "empty, or two or more tokens:seconds items with tokens "
                              "increasing and seconds not decreasing",
                              ProfileProblem))
            .AddAttribute(
                "BatchMode",
                "Cost of a batch prefill: PaddedMax = p(longest sequence), as in the "
                "ctHO paper; TokenCount = p(sum of the sequence lengths).",
                initial("BatchMode"),
                MakeStringAccessor(&GpuComputeModel::SetBatchMode, &GpuComputeModel::GetBatchMode),
                edgellm::MakeExplainingChecker(MakeStringChecker(),
                                               "ns3::GpuComputeModel::BatchMode",
                                               "PaddedMax or TokenCount",
                                               BatchModeProblem))
            .AddAttribute("DecodeBaseSeconds",
                          "Fixed time of one decode step, s. Range [0, inf).",
                          initial("DecodeBaseSeconds"),
                          MakeDoubleAccessor(&GpuComputeModel::m_decodeBase),
                          SecondsChecker("DecodeBaseSeconds"))
            .AddAttribute("DecodeSecondsPerSequence",
                          "Decode step time per sequence in the batch, s. Range [0, inf).",
                          initial("DecodeSecondsPerSequence"),
                          MakeDoubleAccessor(&GpuComputeModel::m_decodePerSequence),
                          SecondsChecker("DecodeSecondsPerSequence"))
            .AddAttribute("DecodeSecondsPerContextToken",
                          "Decode step time per context token of the batch (attention reads), "
                          "s. Range [0, inf).",
                          initial("DecodeSecondsPerContextToken"),
                          MakeDoubleAccessor(&GpuComputeModel::m_decodePerContextToken),
                          SecondsChecker("DecodeSecondsPerContextToken"))
            .AddAttribute("PrefillSource",
                          "Where the prefill figures come from (a label; ApplyPreset sets it).",
                          initial("PrefillSource"),
                          MakeStringAccessor(&GpuComputeModel::m_prefillSource),
                          MakeStringChecker())
            .AddAttribute("DecodeSource",
                          "Where the decode figures come from (a label; ApplyPreset sets it).",
                          initial("DecodeSource"),
                          MakeStringAccessor(&GpuComputeModel::m_decodeSource),
                          MakeStringChecker());
    return tid;
}

GpuComputeModel::GpuComputeModel()
    : m_prefillPerToken(0),
      m_prefillFixed(0),
      m_batchMode(BatchPrefillMode::PADDED_MAX),
      m_decodeBase(0),
      m_decodePerSequence(0),
      m_decodePerContextToken(0)
{
    NS_LOG_FUNCTION(this);
}

GpuComputeModel::~GpuComputeModel()
{
    NS_LOG_FUNCTION(this);
}

void
GpuComputeModel::SetPrefillProfile(std::string text)
{
    // The checker has refused every text that would not parse.
    m_profile = edgellm::CallOrFatal("ns3::GpuComputeModel::PrefillProfile",
                                     [&text] { return ReadProfile(text); });
}

std::string
GpuComputeModel::GetPrefillProfile() const
{
    return PrefillCurve::FormatProfile(m_profile);
}

void
GpuComputeModel::SetBatchMode(std::string name)
{
    m_batchMode = edgellm::CallOrFatal("ns3::GpuComputeModel::BatchMode",
                                       [&name] { return BatchPrefillModeFromName(name); });
}

std::string
GpuComputeModel::GetBatchMode() const
{
    return BatchPrefillModeName(m_batchMode);
}

void
GpuComputeModel::ApplyPreset(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    for (const auto& [attribute, value] : AttributesOf(PresetOrFatal(name)))
    {
        SetAttribute(attribute, *value);
    }
}

void
GpuComputeModel::SetDefaultPreset(const std::string& name)
{
    for (const auto& [attribute, value] : AttributesOf(PresetOrFatal(name)))
    {
        Config::SetDefault("ns3::GpuComputeModel::" + attribute, *value);
    }
}

LlmComputeModel
GpuComputeModel::GetModel() const
{
    // The checkers and setters keep every value valid, so this cannot throw.
    return LlmComputeModel(
        m_profile.empty() ? PrefillCurve::Linear(m_prefillPerToken, m_prefillFixed)
                          : PrefillCurve::Measured(m_profile),
        static_cast<BatchPrefillMode>(m_batchMode),
        DecodeStepModel{m_decodeBase, m_decodePerSequence, m_decodePerContextToken},
        m_prefillSource,
        m_decodeSource);
}

} // namespace ns3
