/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-ran-stack.h"

#include "lte-radio-defaults.h"

#include "ns3/boolean.h"
#include "ns3/component-carrier-ue.h"
#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/log.h"
#include "ns3/lte-attribute-checkers.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-enb-rrc.h"
#include "ns3/lte-local-breakout.h"
#include "ns3/lte-measurement-reports.h"
#include "ns3/lte-ran-observer.h"
#include "ns3/lte-spectrum-phy.h"
#include "ns3/lte-ue-net-device.h"
#include "ns3/lte-ue-phy.h"
#include "ns3/lte-ue-rrc.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LteRanStack");
NS_OBJECT_ENSURE_REGISTERED(LteRanStack);

namespace
{

Ptr<LteEnbNetDevice>
Enb(Ptr<NetDevice> dev, const char* what)
{
    Ptr<LteEnbNetDevice> enb = DynamicCast<LteEnbNetDevice>(dev);
    NS_ABORT_MSG_IF(!enb, "LteRanStack::" << what << ": not an LTE eNB device");
    return enb;
}

Ptr<LteUeNetDevice>
Ue(Ptr<NetDevice> dev, const char* what)
{
    Ptr<LteUeNetDevice> ue = DynamicCast<LteUeNetDevice>(dev);
    NS_ABORT_MSG_IF(!ue, "LteRanStack::" << what << ": not an LTE UE device");
    return ue;
}

} // namespace

TypeId
LteRanStack::GetTypeId()
{
    static TypeId tid = AddSharedAttributes(
        TypeId("ns3::LteRanStack")
            .SetParent<RanStack>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<LteRanStack>()
            .AddAttribute("SrsPeriodicity",
                          "SRS periodicity of every eNB: 0 picks one from the number of UEs "
                          "(ns-3 aborts with more than about 32 UEs in a cell at its default "
                          "40), else one of 2, 5, 10, 20, 40, 80, 160, 320.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&LteRanStack::m_srsPeriodicity),
                          edgellm::MakeSrsPeriodicityChecker("ns3::LteRanStack::SrsPeriodicity"))
            .AddAttribute(
                "CqiPeriodicity",
                "How often every UE reports its downlink CQI, [1 ms, 160 ms]. LTE configures "
                "periodic CQI reports between 2 and 160 ms; 1 ms is ns-3's own default, at "
                "which each UE runs the MI error model over every resource block every other "
                "subframe, most of the run time of a small network.",
                TimeValue(MilliSeconds(10)),
                MakeTimeAccessor(&LteRanStack::m_cqiPeriodicity),
                edgellm::MakeCqiPeriodicityChecker("ns3::LteRanStack::CqiPeriodicity"))
            .AddAttribute(
                "MeasurementReportPeriod",
                "Period of the strongest-cells report every eNB asks its UEs for; 0 asks for "
                "none. LTE defines 120, 240, 480, 640, 1024, 2048, 5120 and 10240 ms, and 1, "
                "6, 12, 30 and 60 min.",
                TimeValue(Seconds(0)),
                MakeTimeAccessor(&LteRanStack::m_measurementPeriod),
                edgellm::MakeExplainingChecker(MakeTimeChecker(),
                                               "ns3::LteRanStack::MeasurementReportPeriod",
                                               "0 or " + LteMeasurementReportPeriods(),
                                               [](const AttributeValue& v) {
                                                   const Time t =
                                                       static_cast<const TimeValue&>(v).Get();
                                                   return t.IsZero() ||
                                                                  IsLteMeasurementReportPeriod(t)
                                                              ? ""
                                                              : "not a report interval LTE defines";
                                               }))
            .AddAttribute(
                "S5LinkDelay",
                "One-way delay of the SGW-PGW link (>= 0).",
                TimeValue(Seconds(0)),
                MakeTimeAccessor(&LteRanStack::m_s5Delay),
                edgellm::MakeTimeNotNegativeChecker("ns3::LteRanStack::S5LinkDelay", true))
            .AddAttribute(
                "RlcUmReorderingTimer",
                "t-Reordering of every RLC UM entity, [0, 200 ms] (3GPP TS 36.331's range). "
                "30 ms covers HARQ's retransmissions (3 of them at its 8 ms round trip), "
                "after which a missing PDU will not come; ns-3's own 100 ms holds every "
                "later packet that long after a loss. Not applied if "
                "ns3::LteRlcUm::ReorderingTimer was set.",
                TimeValue(MilliSeconds(30)),
                MakeTimeAccessor(&LteRanStack::m_rlcReordering),
                edgellm::MakeTimeRangeChecker("ns3::LteRanStack::RlcUmReorderingTimer",
                                              MilliSeconds(200),
                                              "a time in [0, 200 ms]"))
            .AddAttribute("A3Preset",
                          "Hysteresis and time to trigger of the a3 trigger: responsive (2 dB, "
                          "40 ms), ns3 (ns-3's 3 dB, 256 ms) or custom (A3Hysteresis and "
                          "A3TimeToTrigger). Attributes of ns3::A3RsrpHandoverAlgorithm that "
                          "were set are kept.",
                          StringValue("responsive"),
                          MakeStringAccessor(&LteRanStack::m_a3Preset),
                          edgellm::MakeExplainingChecker(
                              MakeStringChecker(),
                              "ns3::LteRanStack::A3Preset",
                              "one of " + LteA3PresetNames(),
                              [](const AttributeValue& v) {
                                  const std::string n = static_cast<const StringValue&>(v).Get();
                                  for (const LteA3Preset& p : LteA3Presets())
                                  {
                                      if (p.name == n)
                                      {
                                          return "";
                                      }
                                  }
                                  return n == "custom" ? "" : "unknown preset";
                              }))
            .AddAttribute("PathlossModel",
                          "friis: ns-3's free-space default, optimistic at the cell edge. "
                          "log-distance: 3GPP TR 36.814's macro-cell loss, 128.1 + 37.6 "
                          "log10(R/km) dB, without shadowing. Not applied if "
                          "ns3::LteHelper::PathlossModel was set.",
                          StringValue("friis"),
                          MakeStringAccessor(&LteRanStack::m_pathloss),
                          edgellm::MakeExplainingChecker(
                              MakeStringChecker(),
                              "ns3::LteRanStack::PathlossModel",
                              "one of " + LtePathlossNames(),
                              [](const AttributeValue& v) {
                                  const std::string n = static_cast<const StringValue&>(v).Get();
                                  return n == "friis" || n == "log-distance" ? "" : "unknown model";
                              })),
        {"ns3::LteRanStack", "eNB", "the SGW", "the custom A3Preset", "TS 36.331"});
    return tid;
}

LteRanStack::LteRanStack()
    : m_lte(CreateObject<LteHelper>())
{
}

LteRanStack::~LteRanStack() = default;

void
LteRanStack::DoDispose()
{
    m_lte = nullptr;
    m_epc = nullptr;
    RanStack::DoDispose();
}

std::string
LteRanStack::GetName() const
{
    return "lte";
}

LteRadioDefaults
LteRanStack::RadioDefaults() const
{
    return {m_rlcReordering, m_a3Preset, m_a3Hysteresis, m_a3TimeToTrigger, m_pathloss};
}

void
LteRanStack::DoSetTrigger(HandoverTrigger trigger)
{
    // The EPC makes its core nodes when it is made: before any base station, as a builder
    // calls this first.
    GetEpcHelper();
    switch (trigger)
    {
    case HandoverTrigger::A3:
        m_lte->SetHandoverAlgorithmType("ns3::A3RsrpHandoverAlgorithm");
        ApplyLteA3Preset(m_lte, RadioDefaults());
        break;
    case HandoverTrigger::A2A4:
        m_lte->SetHandoverAlgorithmType("ns3::A2A4RsrqHandoverAlgorithm");
        break;
    case HandoverTrigger::PLANNED:
    case HandoverTrigger::NONE:
        m_lte->SetHandoverAlgorithmType("ns3::NoOpHandoverAlgorithm");
        break;
    }
}

NetDeviceContainer
LteRanStack::InstallCells(const NodeContainer& nodes)
{
    GetEpcHelper();
    if (GetCells().GetN() == 0)
    {
        ApplyLteRadioDefaults(m_lte, RadioDefaults());
    }
    NetDeviceContainer devices = m_lte->InstallEnbDevice(nodes);
    AddCells(devices);
    ConfigureSrs();
    if (!m_measurementPeriod.IsZero())
    {
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            ConfigurePeriodicMeasurementReports(devices.Get(i), m_measurementPeriod);
        }
    }
    return devices;
}

NetDeviceContainer
LteRanStack::InstallUes(const NodeContainer& nodes)
{
    NetDeviceContainer devices = m_lte->InstallUeDevice(nodes);
    m_ues += devices.GetN();
    ConfigureSrs();
    const bool rlf = IsRanTriggered();
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<LteUePhy> phy = Ue(devices.Get(i), "InstallUes")->GetPhy();
        phy->SetAttribute("DownlinkCqiPeriodicity", TimeValue(m_cqiPeriodicity));
        if (!rlf)
        {
            // Without an algorithm to hand it over, a UE that dropped off would reattach
            // wherever it could, not where its next planned handover starts from.
            phy->SetAttribute("EnableRlfDetection", BooleanValue(false));
        }
    }
    return devices;
}

void
LteRanStack::ConfigureSrs()
{
    uint16_t srs = m_srsPeriodicity;
    if (srs == 0)
    {
        // Every UE may end up in one cell.
        srs = m_ues <= 30 ? 40 : m_ues <= 60 ? 80 : m_ues <= 120 ? 160 : 320;
    }
    for (uint32_t i = 0; i < GetCells().GetN(); ++i)
    {
        Enb(GetCells().Get(i), "InstallCells")
            ->GetRrc()
            ->SetAttribute("SrsPeriodicity", UintegerValue(srs));
    }
}

void
LteRanStack::AddX2(Ptr<Node> a, Ptr<Node> b)
{
    m_lte->AddX2Interface(a, b);
}

void
LteRanStack::AssignUeAddresses(const NetDeviceContainer& devices)
{
    GetEpcHelper()->AssignUeIpv4Address(devices);
}

Ipv4Address
LteRanStack::GetUeGateway()
{
    return GetEpcHelper()->GetUeDefaultGatewayAddress();
}

void
LteRanStack::Attach(Ptr<NetDevice> ue, Ptr<NetDevice> cell)
{
    m_lte->Attach(Ue(ue, "Attach"), Enb(cell, "Attach"));
}

void
LteRanStack::SetUeOnAir(Ptr<NetDevice> ue, bool on)
{
    // Only the downlink PHYs receive; a UE's uplink PHY transmits.
    for (const auto& [id, carrier] : Ue(ue, "SetUeOnAir")->GetCcMap())
    {
        Ptr<LteSpectrumPhy> dl = carrier->GetPhy()->GetDownlinkSpectrumPhy();
        if (on)
        {
            // A UE that never synchronised with a cell is on no channel yet: it joins the
            // downlink's, with its bandwidth's spectrum model, when it first does.
            if (dl->GetRxSpectrumModel())
            {
                dl->GetChannel()->AddRx(dl);
            }
        }
        else
        {
            dl->GetChannel()->RemoveRx(dl);
        }
    }
}

Ptr<Node>
LteRanStack::GetPgwNode()
{
    return GetEpcHelper()->GetPgwNode();
}

Ptr<RanDownlink>
LteRanStack::CreateLocalBreakout(Ptr<NetDevice> cell)
{
    Ptr<LteLocalBreakout> breakout = CreateObject<LteLocalBreakout>();
    breakout->SetEnbNetDevice(Enb(cell, "CreateLocalBreakout"));
    return breakout;
}

Ptr<RanObserver>
LteRanStack::CreateObserver()
{
    return CreateObject<LteRanObserver>();
}

uint16_t
LteRanStack::GetCellId(Ptr<NetDevice> cell) const
{
    return Enb(cell, "GetCellId")->GetCellId();
}

uint64_t
LteRanStack::GetImsi(Ptr<NetDevice> ue) const
{
    return Ue(ue, "GetImsi")->GetImsi();
}

int64_t
LteRanStack::AssignStreams(const NetDeviceContainer& devices, int64_t stream)
{
    return m_lte->AssignStreams(devices, stream);
}

Ptr<LteHelper>
LteRanStack::GetLteHelper() const
{
    return m_lte;
}

Ptr<PointToPointEpcHelper>
LteRanStack::GetEpcHelper()
{
    if (!m_epc)
    {
        ObjectFactory factory;
        factory.SetTypeId(PointToPointEpcHelper::GetTypeId());
        factory.Set("S1uLinkDelay", TimeValue(m_s1uDelay));
        factory.Set("X2LinkDelay", TimeValue(m_x2Delay));
        m_epc = factory.Create<PointToPointEpcHelper>();
        m_lte->SetEpcHelper(m_epc);
        // The EPC makes its SGW-PGW link in its constructor, before any attribute of its own
        // applies, so the delay is set on that link's channel.
        Ptr<Node> sgw = m_epc->GetSgwNode();
        Ptr<Node> pgw = m_epc->GetPgwNode();
        uint32_t s5 = 0;
        for (uint32_t d = 0; d < sgw->GetNDevices(); ++d)
        {
            Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(sgw->GetDevice(d));
            Ptr<Channel> channel = dev ? dev->GetChannel() : nullptr;
            if (channel && channel->GetNDevices() == 2 &&
                (channel->GetDevice(0)->GetNode() == pgw ||
                 channel->GetDevice(1)->GetNode() == pgw))
            {
                channel->SetAttribute("Delay", TimeValue(m_s5Delay));
                ++s5;
            }
        }
        NS_ABORT_MSG_IF(s5 != 1, "LteRanStack: found " << s5 << " SGW-PGW links, not 1");
    }
    return m_epc;
}

RanStack::UeRrcState
LteRanStack::GetUeRrcState(Ptr<NetDevice> ue) const
{
    Ptr<LteUeRrc> rrc = Ue(ue, "GetUeRrcState")->GetRrc();
    return {rrc->GetCellId(), rrc->GetRnti(), rrc->GetState() == LteUeRrc::CONNECTED_NORMALLY};
}

bool
LteRanStack::IsContextConnected(Ptr<NetDevice> cell, uint16_t rnti) const
{
    Ptr<LteEnbRrc> rrc = Enb(cell, "IsContextConnected")->GetRrc();
    return rrc->HasUeManager(rnti) &&
           rrc->GetUeManager(rnti)->GetState() == UeManager::CONNECTED_NORMALLY;
}

void
LteRanStack::DoRequestHandover(Ptr<NetDevice> ue, Ptr<NetDevice> source, uint16_t targetCellId)
{
    const uint16_t rnti = Ue(ue, "RequestHandover")->GetRrc()->GetRnti();
    Enb(source, "RequestHandover")->GetRrc()->SendHandoverRequest(rnti, targetCellId);
}

} // namespace ns3
