/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nr-ran-stack.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/ideal-beamforming-algorithm.h"
#include "ns3/ideal-beamforming-helper.h"
#include "ns3/isotropic-antenna-model.h"
#include "ns3/log.h"
#include "ns3/nr-channel-helper.h"
#include "ns3/nr-gnb-net-device.h"
#include "ns3/nr-gnb-phy.h"
#include "ns3/nr-gnb-rrc.h"
#include "ns3/nr-local-breakout.h"
#include "ns3/nr-mac-scheduler.h"
#include "ns3/nr-ran-observer.h"
#include "ns3/nr-spectrum-phy.h"
#include "ns3/nr-ue-net-device.h"
#include "ns3/nr-ue-phy.h"
#include "ns3/nr-ue-rrc.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/propagation-loss-model.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NrRanStack");
NS_OBJECT_ENSURE_REGISTERED(NrRanStack);

namespace
{

Ptr<NrGnbNetDevice>
Gnb(Ptr<NetDevice> dev, const char* what)
{
    Ptr<NrGnbNetDevice> gnb = DynamicCast<NrGnbNetDevice>(dev);
    NS_ABORT_MSG_IF(!gnb, "NrRanStack::" << what << ": not an NR gNB device");
    return gnb;
}

Ptr<NrUeNetDevice>
Ue(Ptr<NetDevice> dev, const char* what)
{
    Ptr<NrUeNetDevice> ue = DynamicCast<NrUeNetDevice>(dev);
    NS_ABORT_MSG_IF(!ue, "NrRanStack::" << what << ": not an NR UE device");
    return ue;
}

/// \return a checker of a string attribute that takes one of the names given
Ptr<const AttributeChecker>
OneOf(const std::string& attribute, const std::vector<std::string>& names)
{
    std::string allowed;
    for (const std::string& n : names)
    {
        allowed += (allowed.empty() ? "" : ", ") + n;
    }
    return edgellm::MakeExplainingChecker(MakeStringChecker(),
                                          "ns3::NrRanStack::" + attribute,
                                          "one of " + allowed,
                                          [names](const AttributeValue& v) {
                                              const std::string s =
                                                  static_cast<const StringValue&>(v).Get();
                                              for (const std::string& n : names)
                                              {
                                                  if (n == s)
                                                  {
                                                      return "";
                                                  }
                                              }
                                              return "unknown";
                                          });
}

/// \return why a Scheduler value is refused, or "" if it names a scheduler that can be made
std::string
SchedulerProblem(const AttributeValue& v)
{
    TypeId tid;
    const std::string name = static_cast<const StringValue&>(v).Get();
    if (!TypeId::LookupByNameFailSafe(name, &tid))
    {
        return "no such TypeId";
    }
    return tid.IsChildOf(NrMacScheduler::GetTypeId()) && tid.HasConstructor()
               ? ""
               : "not a scheduler that can be made";
}

} // namespace

TypeId
NrRanStack::GetTypeId()
{
    static TypeId tid = AddSharedAttributes(
        TypeId("ns3::NrRanStack")
            .SetParent<RanStack>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<NrRanStack>()
            .AddAttribute("CentralFrequency",
                          "Central frequency of the one band every gNB shares, Hz, [410 MHz, "
                          "100 GHz] (3GPP TR 38.901's channel models hold from 0.5 to 100 GHz).",
                          DoubleValue(3.5e9),
                          MakeDoubleAccessor(&NrRanStack::m_frequency),
                          edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(410e6, 100e9),
                                                         "ns3::NrRanStack::CentralFrequency",
                                                         "a frequency in [410e6, 100e9] Hz"))
            .AddAttribute("Bandwidth",
                          "Bandwidth of the band (one carrier, one bandwidth part), Hz, [5 MHz, "
                          "400 MHz].",
                          DoubleValue(20e6),
                          MakeDoubleAccessor(&NrRanStack::m_bandwidth),
                          edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(5e6, 400e6),
                                                         "ns3::NrRanStack::Bandwidth",
                                                         "a bandwidth in [5e6, 400e6] Hz"))
            .AddAttribute("Numerology",
                          "NR numerology mu of the bandwidth part, [0, 4]: subcarrier spacing "
                          "15 * 2^mu kHz, slot 1 / 2^mu ms.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NrRanStack::m_numerology),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint16_t>(0, 4),
                                                         "ns3::NrRanStack::Numerology",
                                                         "an integer in [0, 4]"))
            .AddAttribute("GnbTxPower",
                          "Transmit power of every gNB, dBm, [0, 60].",
                          DoubleValue(35),
                          MakeDoubleAccessor(&NrRanStack::m_gnbTxPower),
                          edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(0, 60),
                                                         "ns3::NrRanStack::GnbTxPower",
                                                         "a power in [0, 60] dBm"))
            .AddAttribute("UeTxPower",
                          "Transmit power of every UE, dBm, [-40, 30].",
                          DoubleValue(23),
                          MakeDoubleAccessor(&NrRanStack::m_ueTxPower),
                          edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(-40, 30),
                                                         "ns3::NrRanStack::UeTxPower",
                                                         "a power in [-40, 30] dBm"))
            .AddAttribute("Scenario",
                          "3GPP TR 38.901 deployment scenario of the propagation model.",
                          StringValue("UMa"),
                          MakeStringAccessor(&NrRanStack::m_scenario),
                          OneOf("Scenario", {"RMa", "UMa", "UMi", "InH-OfficeOpen"}))
            .AddAttribute("ChannelCondition",
                          "Line of sight between gNBs and UEs: LOS, NLOS, or Default (38.901's "
                          "probability of it with distance, which makes the run depend on the "
                          "draw).",
                          StringValue("LOS"),
                          MakeStringAccessor(&NrRanStack::m_condition),
                          OneOf("ChannelCondition", {"LOS", "NLOS", "Default"}))
            .AddAttribute("PathlossModel",
                          "3gpp: TR 38.901's path loss of Scenario and ChannelCondition (5G-LENA's "
                          "ThreeGpp channel model). friis: free space. log-distance: TR 36.814's "
                          "macro-cell loss, 128.1 + 37.6 log10(R/km) dB, the LTE stack's; with "
                          "the same loss on both RANs, a comparison of them is one of their "
                          "protocols. Shadowing is off in all three.",
                          StringValue("3gpp"),
                          MakeStringAccessor(&NrRanStack::m_pathloss),
                          OneOf("PathlossModel", {"3gpp", "friis", "log-distance"}))
            .AddAttribute("Scheduler",
                          "The gNBs' MAC scheduler, the TypeId of an ns3::NrMacScheduler: "
                          "ns3::NrMacSchedulerTdmaRR (5G-LENA's default, NrHelper's), or "
                          "another of 5G-LENA's, such as ns3::NrMacSchedulerOfdmaPF or "
                          "ns3::NrMacSchedulerTdmaPF.",
                          StringValue("ns3::NrMacSchedulerTdmaRR"),
                          MakeStringAccessor(&NrRanStack::m_scheduler),
                          edgellm::MakeExplainingChecker(
                              MakeStringChecker(),
                              "ns3::NrRanStack::Scheduler",
                              "the TypeId name of an ns3::NrMacScheduler, e.g. "
                              "ns3::NrMacSchedulerTdmaRR or ns3::NrMacSchedulerOfdmaPF",
                              &SchedulerProblem))
            .AddAttribute("Fading",
                          "Use 38.901's fast fading and its beamforming gain (the 3GPP "
                          "spectrum propagation model); false keeps the path loss alone, much "
                          "faster to simulate.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NrRanStack::m_fading),
                          edgellm::MakeExplainingBooleanChecker("ns3::NrRanStack::Fading"))
            .AddAttribute("GnbAntennaRows",
                          "Rows of every gNB's uniform planar array of isotropic elements, "
                          "[1, 16].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&NrRanStack::m_gnbAntennaRows),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 16),
                                                         "ns3::NrRanStack::GnbAntennaRows",
                                                         "an integer in [1, 16]"))
            .AddAttribute("GnbAntennaColumns",
                          "Columns of every gNB's array, [1, 16].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&NrRanStack::m_gnbAntennaCols),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 16),
                                                         "ns3::NrRanStack::GnbAntennaColumns",
                                                         "an integer in [1, 16]")),
        {"ns3::NrRanStack", "gNB", "the core's user plane", "the a3 trigger", "TS 38.331"});
    return tid;
}

NrRanStack::NrRanStack()
    : m_nr(CreateObject<NrHelper>())
{
}

NrRanStack::~NrRanStack() = default;

void
NrRanStack::DoDispose()
{
    m_algorithms.clear();
    m_nr = nullptr;
    m_epc = nullptr;
    RanStack::DoDispose();
}

std::string
NrRanStack::GetName() const
{
    return "nr";
}

void
NrRanStack::DoSetTrigger(HandoverTrigger /* trigger */)
{
    // The core makes its nodes when it is made: before any base station, as a builder calls
    // this first. The algorithms are made with the gNBs.
    GetEpcHelper();
}

Ptr<NrHelper>
NrRanStack::GetNrHelper() const
{
    return m_nr;
}

Ptr<NrPointToPointEpcHelper>
NrRanStack::GetEpcHelper()
{
    if (!m_epc)
    {
        ObjectFactory factory;
        factory.SetTypeId(NrPointToPointEpcHelper::GetTypeId());
        factory.Set("S1uLinkDelay", TimeValue(m_s1uDelay));
        factory.Set("X2LinkDelay", TimeValue(m_x2Delay));
        m_epc = factory.Create<NrPointToPointEpcHelper>();
        m_nr->SetEpcHelper(m_epc);
    }
    return m_epc;
}

void
NrRanStack::MakeBand()
{
    if (m_bandMade)
    {
        return;
    }
    m_bandMade = true;
    CcBwpCreator creator;
    CcBwpCreator::SimpleOperationBandConf conf(m_frequency, m_bandwidth, 1);
    m_band = creator.CreateOperationBandContiguousCc(conf);
    Ptr<NrChannelHelper> channel = CreateObject<NrChannelHelper>();
    channel->ConfigureFactories(m_scenario, m_condition, "ThreeGpp");
    // A channel condition drawn once per pair (LOS and NLOS are fixed anyway), and no
    // shadowing: the radio changes with the UE's position only.
    if (m_condition == "Default")
    {
        channel->SetChannelConditionModelAttribute("UpdatePeriod", TimeValue(MilliSeconds(0)));
    }
    if (m_pathloss == "3gpp")
    {
        channel->SetPathlossAttribute("ShadowingEnabled", BooleanValue(false));
    }
    else if (m_pathloss == "friis")
    {
        channel->ConfigurePropagationFactory(FriisPropagationLossModel::GetTypeId());
    }
    else
    {
        channel->ConfigurePropagationFactory(LogDistancePropagationLossModel::GetTypeId());
        channel->SetPathlossAttribute("Exponent", DoubleValue(MACRO_LOSS_EXPONENT));
        channel->SetPathlossAttribute("ReferenceDistance", DoubleValue(1.0));
        channel->SetPathlossAttribute("ReferenceLoss", DoubleValue(MACRO_LOSS_AT_1M_DB));
    }
    channel->AssignChannelsToBands({m_band},
                                   m_fading ? NrChannelHelper::INIT_PROPAGATION |
                                                  NrChannelHelper::INIT_FADING
                                            : NrChannelHelper::INIT_PROPAGATION);
    m_bwps = CcBwpCreator::GetAllBwps({m_band});

    Ptr<IdealBeamformingHelper> beamforming = CreateObject<IdealBeamformingHelper>();
    beamforming->SetAttribute("BeamformingMethod", TypeIdValue(DirectPathBeamforming::GetTypeId()));
    m_nr->SetBeamformingHelper(beamforming);
    m_nr->SetGnbAntennaAttribute("NumRows", UintegerValue(m_gnbAntennaRows));
    m_nr->SetGnbAntennaAttribute("NumColumns", UintegerValue(m_gnbAntennaCols));
    m_nr->SetGnbAntennaAttribute("AntennaElement",
                                 PointerValue(CreateObject<IsotropicAntennaModel>()));
    m_nr->SetUeAntennaAttribute("NumRows", UintegerValue(1));
    m_nr->SetUeAntennaAttribute("NumColumns", UintegerValue(1));
    m_nr->SetUeAntennaAttribute("AntennaElement",
                                PointerValue(CreateObject<IsotropicAntennaModel>()));
    m_nr->SetSchedulerTypeId(TypeId::LookupByName(m_scheduler));
    m_nr->SetGnbPhyAttribute("Numerology", UintegerValue(m_numerology));
    m_nr->SetGnbPhyAttribute("TxPower", DoubleValue(m_gnbTxPower));
    m_nr->SetUePhyAttribute("TxPower", DoubleValue(m_ueTxPower));
}

NetDeviceContainer
NrRanStack::InstallCells(const NodeContainer& nodes)
{
    GetEpcHelper();
    MakeBand();
    NetDeviceContainer devices = m_nr->InstallGnbDevice(nodes, m_bwps);
    AddCells(devices);
    if (IsRanTriggered())
    {
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            InstallHandoverAlgorithm(devices.Get(i));
        }
    }
    return devices;
}

void
NrRanStack::InstallHandoverAlgorithm(Ptr<NetDevice> gnb)
{
    ObjectFactory factory;
    if (GetTrigger() == HandoverTrigger::A3)
    {
        factory.SetTypeId("ns3::NrA3RsrpHandoverAlgorithm");
        factory.Set("Hysteresis", DoubleValue(m_a3Hysteresis));
        factory.Set("TimeToTrigger", TimeValue(m_a3TimeToTrigger));
    }
    else
    {
        factory.SetTypeId("ns3::NrA2A4RsrqHandoverAlgorithm");
    }
    Ptr<NrHandoverAlgorithm> algorithm = factory.Create<NrHandoverAlgorithm>();
    Ptr<NrGnbRrc> rrc = Gnb(gnb, "InstallCells")->GetRrc();
    algorithm->SetNrHandoverManagementSapUser(rrc->GetNrHandoverManagementSapUser());
    rrc->SetNrHandoverManagementSapProvider(algorithm->GetNrHandoverManagementSapProvider());
    // Asks the RRC for its measurement configuration, which the RRC takes only at time 0.
    algorithm->Initialize();
    m_algorithms.push_back(algorithm);
}

NetDeviceContainer
NrRanStack::InstallUes(const NodeContainer& nodes)
{
    NS_ABORT_MSG_IF(GetCells().GetN() == 0, "NrRanStack::InstallUes: install the gNBs first");
    MakeBand();
    NetDeviceContainer devices = m_nr->InstallUeDevice(nodes, m_bwps);
    const bool rlf = IsRanTriggered();
    Ptr<NrGnbNetDevice> gnb = Gnb(GetCells().Get(0), "InstallUes");
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<NrUeNetDevice> ue = Ue(devices.Get(i), "InstallUes");
        for (uint32_t cc = 0; cc < ue->GetCcMapSize(); ++cc)
        {
            // A UE's PHY runs its slots from time 0 at numerology 0 until it attaches, when
            // NrHelper::AttachToGnb gives it the gNB's slot. A UE attached later (UeAirtime
            // "session") would change its slot length in the middle of a slot, and schedule
            // the next one in the past; with the gNBs' slot from the start it changes nothing.
            Ptr<NrUePhy> phy = ue->GetPhy(cc);
            Ptr<NrGnbPhy> cell = gnb->GetPhy(cc);
            phy->SetSymbolsPerSlot(cell->GetSymbolsPerSlot());
            phy->SetNumerology(cell->GetNumerology());
            phy->SetPattern(cell->GetPattern());
        }
        if (!rlf)
        {
            // Without an algorithm to hand it over, a UE that dropped off would reattach
            // wherever it could, not where its next planned handover starts from.
            ue->GetPhy(0)->SetAttribute("EnableRlfDetection", BooleanValue(false));
        }
    }
    return devices;
}

void
NrRanStack::AddX2(Ptr<Node> a, Ptr<Node> b)
{
    m_nr->AddX2Interface(a, b);
}

void
NrRanStack::AssignUeAddresses(const NetDeviceContainer& devices)
{
    GetEpcHelper()->AssignUeIpv4Address(devices);
}

Ipv4Address
NrRanStack::GetUeGateway()
{
    return GetEpcHelper()->GetUeDefaultGatewayAddress();
}

void
NrRanStack::Attach(Ptr<NetDevice> ue, Ptr<NetDevice> cell)
{
    m_nr->AttachToGnb(Ue(ue, "Attach"), Gnb(cell, "Attach"));
}

void
NrRanStack::SetUeOnAir(Ptr<NetDevice> ue, bool on)
{
    Ptr<NrUeNetDevice> dev = Ue(ue, "SetUeOnAir");
    for (uint32_t i = 0; i < dev->GetCcMapSize(); ++i)
    {
        Ptr<NrSpectrumPhy> phy = dev->GetPhy(i)->GetSpectrumPhy();
        if (on)
        {
            phy->GetSpectrumChannel()->AddRx(phy);
        }
        else
        {
            phy->GetSpectrumChannel()->RemoveRx(phy);
        }
    }
}

Ptr<Node>
NrRanStack::GetPgwNode()
{
    return GetEpcHelper()->GetPgwNode();
}

Ptr<RanDownlink>
NrRanStack::CreateLocalBreakout(Ptr<NetDevice> cell)
{
    Ptr<NrLocalBreakout> breakout = CreateObject<NrLocalBreakout>();
    breakout->SetGnbNetDevice(Gnb(cell, "CreateLocalBreakout"));
    return breakout;
}

Ptr<RanObserver>
NrRanStack::CreateObserver()
{
    return CreateObject<NrRanObserver>();
}

uint16_t
NrRanStack::GetCellId(Ptr<NetDevice> cell) const
{
    return Gnb(cell, "GetCellId")->GetCellId();
}

uint64_t
NrRanStack::GetImsi(Ptr<NetDevice> ue) const
{
    return Ue(ue, "GetImsi")->GetImsi();
}

int64_t
NrRanStack::AssignStreams(const NetDeviceContainer& devices, int64_t stream)
{
    return m_nr->AssignStreams(devices, stream);
}

RanStack::UeRrcState
NrRanStack::GetUeRrcState(Ptr<NetDevice> ue) const
{
    Ptr<NrUeRrc> rrc = Ue(ue, "GetUeRrcState")->GetRrc();
    return {rrc->GetCellId(), rrc->GetRnti(), rrc->GetState() == NrUeRrc::CONNECTED_NORMALLY};
}

bool
NrRanStack::IsContextConnected(Ptr<NetDevice> cell, uint16_t rnti) const
{
    Ptr<NrGnbRrc> rrc = Gnb(cell, "IsContextConnected")->GetRrc();
    return rrc->HasUeManager(rnti) &&
           rrc->GetUeManager(rnti)->GetState() == NrUeManager::CONNECTED_NORMALLY;
}

void
NrRanStack::DoRequestHandover(Ptr<NetDevice> ue, Ptr<NetDevice> source, uint16_t targetCellId)
{
    const uint16_t rnti = Ue(ue, "RequestHandover")->GetRrc()->GetRnti();
    Gnb(source, "RequestHandover")->GetRrc()->SendHandoverRequest(rnti, targetCellId);
}

} // namespace ns3
