/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gpu-compute-model.h"

#include "fatal-on-invalid.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <iostream>
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

/// Seconds >= 0 and finite: the checker refuses NaN and infinity as well.
Ptr<const AttributeChecker>
MakeSecondsChecker()
{
    return MakeDoubleChecker<double>(0.0, std::numeric_limits<double>::max());
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
                          MakeSecondsChecker())
            .AddAttribute("PrefillFixedSeconds",
                          "b of the linear prefill time p(L) = a L + b, s. Range [0, inf).",
                          DoubleValue(d.GetPrefillCurve().GetB()),
                          MakeDoubleAccessor(&GpuComputeModel::m_prefillFixed),
                          MakeSecondsChecker())
            .AddAttribute("PrefillProfile",
                          "Measured prefill profile, \"tokens:seconds\" pairs separated by "
                          "spaces or commas (e.g. \"256:0.058 512:0.110\"); tokens strictly "
                          "increasing, seconds non-decreasing. When set, it replaces the "
                          "linear form. Empty: use the linear form.",
                          StringValue(""),
                          MakeStringAccessor(&GpuComputeModel::SetPrefillProfile,
                                             &GpuComputeModel::GetPrefillProfile),
                          MakeStringChecker())
            .AddAttribute(
                "BatchMode",
                "Cost of a batch prefill: PaddedMax = p(longest sequence), as in the "
                "ctHO paper; TokenCount = p(sum of the sequence lengths).",
                StringValue(BatchPrefillModeName(d.GetBatchMode())),
                MakeStringAccessor(&GpuComputeModel::SetBatchMode, &GpuComputeModel::GetBatchMode),
                MakeStringChecker())
            .AddAttribute("DecodeBaseSeconds",
                          "Fixed time of one decode step, s. Range [0, inf).",
                          DoubleValue(d.GetDecodeModel().baseS),
                          MakeDoubleAccessor(&GpuComputeModel::m_decodeBase),
                          MakeSecondsChecker())
            .AddAttribute("DecodeSecondsPerSequence",
                          "Decode step time per sequence in the batch, s. Range [0, inf).",
                          DoubleValue(d.GetDecodeModel().perSequenceS),
                          MakeDoubleAccessor(&GpuComputeModel::m_decodePerSequence),
                          MakeSecondsChecker())
            .AddAttribute("DecodeSecondsPerContextToken",
                          "Decode step time per context token of the batch (attention reads), "
                          "s. Range [0, inf).",
                          DoubleValue(d.GetDecodeModel().perContextTokenS),
                          MakeDoubleAccessor(&GpuComputeModel::m_decodePerContextToken),
                          MakeSecondsChecker())
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

bool
GpuComputeModel::SetPrefillProfile(std::string text)
{
    if (text.find_first_not_of(" ,") == std::string::npos)
    {
        m_profile.clear();
        return true;
    }
    try
    {
        auto points = PrefillCurve::ParseProfile(text);
        PrefillCurve::Measured(points); // validates
        m_profile = std::move(points);
    }
    catch (const std::invalid_argument& e)
    {
        // ns-3 names only the attribute when a setter refuses; say what is wrong.
        std::cerr << "ns3::GpuComputeModel: " << e.what() << std::endl;
        return false;
    }
    return true;
}

std::string
GpuComputeModel::GetPrefillProfile() const
{
    return PrefillCurve::FormatProfile(m_profile);
}

bool
GpuComputeModel::SetBatchMode(std::string name)
{
    try
    {
        m_batchMode = BatchPrefillModeFromName(name);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "ns3::GpuComputeModel: " << e.what() << std::endl;
        return false;
    }
    return true;
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
