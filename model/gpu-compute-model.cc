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
    const std::string text = static_cast<const StringValue&>(value).Get();
    if (text.find_first_not_of(" ,") == std::string::npos)
    {
        return "";
    }
    try
    {
        PrefillCurve::Measured(PrefillCurve::ParseProfile(text));
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
    const std::string name = static_cast<const StringValue&>(value).Get();
    return name == "PaddedMax" || name == "TokenCount" ? "" : "no such batch mode";
}

} // namespace

TypeId
GpuComputeModel::GetTypeId()
{
    static const LlmComputeModel d =
        LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName());
    static TypeId tid =
        TypeId("ns3::GpuComputeModel")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<GpuComputeModel>()
            .AddAttribute("PrefillSecondsPerToken",
                          "a of the linear prefill time p(L) = a L + b, s/token. Range [0, inf).",
                          DoubleValue(d.GetPrefillCurve().GetA()),
                          MakeDoubleAccessor(&GpuComputeModel::m_prefillPerToken),
                          SecondsChecker("PrefillSecondsPerToken"))
            .AddAttribute("PrefillFixedSeconds",
                          "b of the linear prefill time p(L) = a L + b, s. Range [0, inf).",
                          DoubleValue(d.GetPrefillCurve().GetB()),
                          MakeDoubleAccessor(&GpuComputeModel::m_prefillFixed),
                          SecondsChecker("PrefillFixedSeconds"))
            .AddAttribute("PrefillProfile",
                          "Measured prefill profile: \"tokens:seconds\" items separated by commas, "
                          "e.g. \"256:0.058,512:0.110\"; tokens strictly increasing, seconds "
                          "not decreasing. When set it replaces the linear form; empty: use the "
                          "linear form. Separate items with commas only: ns-3 stops the run on a "
                          "refused value that holds spaces.",
                          StringValue(""),
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
                StringValue(BatchPrefillModeName(d.GetBatchMode())),
                MakeStringAccessor(&GpuComputeModel::SetBatchMode, &GpuComputeModel::GetBatchMode),
                edgellm::MakeExplainingChecker(MakeStringChecker(),
                                               "ns3::GpuComputeModel::BatchMode",
                                               "PaddedMax or TokenCount",
                                               BatchModeProblem))
            .AddAttribute("DecodeBaseSeconds",
                          "Fixed time of one decode step, s. Range [0, inf).",
                          DoubleValue(d.GetDecodeModel().baseS),
                          MakeDoubleAccessor(&GpuComputeModel::m_decodeBase),
                          SecondsChecker("DecodeBaseSeconds"))
            .AddAttribute("DecodeSecondsPerSequence",
                          "Decode step time per sequence in the batch, s. Range [0, inf).",
                          DoubleValue(d.GetDecodeModel().perSequenceS),
                          MakeDoubleAccessor(&GpuComputeModel::m_decodePerSequence),
                          SecondsChecker("DecodeSecondsPerSequence"))
            .AddAttribute("DecodeSecondsPerContextToken",
                          "Decode step time per context token of the batch (attention reads), "
                          "s. Range [0, inf).",
                          DoubleValue(d.GetDecodeModel().perContextTokenS),
                          MakeDoubleAccessor(&GpuComputeModel::m_decodePerContextToken),
                          SecondsChecker("DecodeSecondsPerContextToken"))
            .AddAttribute("PrefillSource",
                          "Where the prefill figures come from (a label; ApplyPreset sets it).",
                          StringValue(d.GetPrefillSource()),
                          MakeStringAccessor(&GpuComputeModel::m_prefillSource),
                          MakeStringChecker())
            .AddAttribute("DecodeSource",
                          "Where the decode figures come from (a label; ApplyPreset sets it).",
                          StringValue(d.GetDecodeSource()),
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
    m_profile = text.find_first_not_of(" ,") == std::string::npos
                    ? std::vector<PrefillCurve::Point>{}
                    : edgellm::CallOrFatal("ns3::GpuComputeModel::PrefillProfile",
                                           [&text] { return PrefillCurve::ParseProfile(text); });
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
    const LlmComputeModel m = PresetOrFatal(name);
    const PrefillCurve& c = m.GetPrefillCurve();
    m_prefillPerToken = c.GetA();
    m_prefillFixed = c.GetB();
    m_profile = c.GetPoints();
    m_batchMode = m.GetBatchMode();
    m_decodeBase = m.GetDecodeModel().baseS;
    m_decodePerSequence = m.GetDecodeModel().perSequenceS;
    m_decodePerContextToken = m.GetDecodeModel().perContextTokenS;
    m_prefillSource = m.GetPrefillSource();
    m_decodeSource = m.GetDecodeSource();
}

void
GpuComputeModel::SetDefaultPreset(const std::string& name)
{
    const LlmComputeModel m = PresetOrFatal(name);
    const PrefillCurve& c = m.GetPrefillCurve();
    const std::string p = "ns3::GpuComputeModel::";
    Config::SetDefault(p + "PrefillSecondsPerToken", DoubleValue(c.GetA()));
    Config::SetDefault(p + "PrefillFixedSeconds", DoubleValue(c.GetB()));
    Config::SetDefault(p + "PrefillProfile",
                       StringValue(PrefillCurve::FormatProfile(c.GetPoints())));
    Config::SetDefault(p + "BatchMode", StringValue(BatchPrefillModeName(m.GetBatchMode())));
    Config::SetDefault(p + "DecodeBaseSeconds", DoubleValue(m.GetDecodeModel().baseS));
    Config::SetDefault(p + "DecodeSecondsPerSequence",
                       DoubleValue(m.GetDecodeModel().perSequenceS));
    Config::SetDefault(p + "DecodeSecondsPerContextToken",
                       DoubleValue(m.GetDecodeModel().perContextTokenS));
    Config::SetDefault(p + "PrefillSource", StringValue(m.GetPrefillSource()));
    Config::SetDefault(p + "DecodeSource", StringValue(m.GetDecodeSource()));
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
