/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-local-breakout.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/eps-bearer-tag.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/node.h"
#include "ns3/object-map.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LteLocalBreakout");

NS_OBJECT_ENSURE_REGISTERED(LteLocalBreakout);

namespace
{

/// Size of the IPv4 header built here (no options) plus the UDP header.
constexpr uint32_t kHeaderBytes = 20 + 8;

/**
 * Rank of a context when the eNB holds two of one IMSI (a handover back into a cell whose old
 * context is not released yet): the one the UE is heading to wins.
 * \param state the context's state
 * \return higher for the better one
 */
int
Preference(UeManager::State state)
{
    switch (state)
    {
    case UeManager::CONNECTED_NORMALLY:
        return 6;
    case UeManager::CONNECTION_RECONFIGURATION:
        return 5;
    case UeManager::HANDOVER_PATH_SWITCH:
        return 4;
    case UeManager::HANDOVER_JOINING:
        return 3;
    case UeManager::HANDOVER_PREPARATION:
        return 2;
    case UeManager::HANDOVER_LEAVING:
        return 1;
    default:
        return 0;
    }
}

} // namespace

TypeId
LteLocalBreakout::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LteLocalBreakout")
            .SetParent<RanDownlink>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<LteLocalBreakout>()
            .AddAttribute("Ttl",
                          "IPv4 time to live of the packets built.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&LteLocalBreakout::m_ttl),
                          MakeUintegerChecker<uint8_t>(1))
            .AddAttribute("BearerId",
                          "EPS bearer the packets are tagged with; 1 is the default bearer.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&LteLocalBreakout::m_bearerId),
                          MakeUintegerChecker<uint8_t>(1, 11))
            .AddAttribute("UdpChecksum",
                          "Compute the UDP checksum. It is computed anyway when ns-3's "
                          "ChecksumEnabled global value is true, since the UE then checks it.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&LteLocalBreakout::m_udpChecksum),
                          MakeBooleanChecker())
            .AddTraceSource("SendRefused",
                            "A send was refused: the UE has no context here, or one in a state "
                            "that takes no downlink data.",
                            MakeTraceSourceAccessor(&LteLocalBreakout::m_refusedTrace),
                            "ns3::LteLocalBreakout::SendRefusedTracedCallback")
            .AddTraceSource("Tx",
                            "An IPv4 packet was handed to the eNB.",
                            MakeTraceSourceAccessor(&LteLocalBreakout::m_txTrace),
                            "ns3::LteLocalBreakout::TxTracedCallback");
    return tid;
}

LteLocalBreakout::LteLocalBreakout()
{
    NS_LOG_FUNCTION(this);
}

LteLocalBreakout::~LteLocalBreakout()
{
    NS_LOG_FUNCTION(this);
}

void
LteLocalBreakout::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_contexts.clear();
    m_rrc = nullptr;
    m_enbDev = nullptr;
    RanDownlink::DoDispose();
}

void
LteLocalBreakout::SetEnbNetDevice(Ptr<NetDevice> enbDev)
{
    NS_LOG_FUNCTION(this << enbDev);
    Ptr<LteEnbNetDevice> enb = DynamicCast<LteEnbNetDevice>(enbDev);
    NS_ABORT_MSG_UNLESS(enb,
                        "LteLocalBreakout::SetEnbNetDevice: "
                            << (enbDev ? enbDev->GetInstanceTypeId().GetName() : "null device")
                            << " is not an LteEnbNetDevice");
    NS_ABORT_MSG_UNLESS(enb->GetRrc(), "LteLocalBreakout::SetEnbNetDevice: the eNB has no RRC");
    m_enbDev = enb;
    m_rrc = enb->GetRrc();
    m_contexts.clear();
    WatchContexts();
}

void
LteLocalBreakout::WatchContexts()
{
    // A new flag each time: callbacks left on an earlier eNB's RRC set one nobody reads.
    Ptr<ContextsChanged> flag = Create<ContextsChanged>();
    m_contextsChanged = flag;
    Callback<void, uint64_t, uint16_t, uint16_t, UeManager::State, UeManager::State> changed(
        [flag](uint64_t, uint16_t, uint16_t, UeManager::State, UeManager::State) {
            flag->changed = true;
        });
    ObjectMapValue ues;
    m_rrc->GetAttribute("UeMap", ues);
    for (auto it = ues.Begin(); it != ues.End(); ++it)
    {
        it->second->TraceConnectWithoutContext("StateTransition", changed);
    }
    // The RRC holds this callback, so it is alive whenever the callback runs. A context's
    // IMSI is set right after NewUeContext or just before a state change, never alone.
    LteEnbRrc* rrc = PeekPointer(m_rrc);
    m_rrc->TraceConnectWithoutContext(
        "NewUeContext",
        Callback<void, uint16_t, uint16_t>([flag, rrc, changed](uint16_t, uint16_t rnti) {
            flag->changed = true;
            rrc->GetUeManager(rnti)->TraceConnectWithoutContext("StateTransition", changed);
        }));
}

Ptr<NetDevice>
LteLocalBreakout::GetEnbNetDevice() const
{
    return m_enbDev;
}

uint16_t
LteLocalBreakout::GetCellId() const
{
    return m_enbDev ? m_enbDev->GetCellId() : 0;
}

uint64_t
LteLocalBreakout::GetSentPackets() const
{
    return m_sent;
}

uint64_t
LteLocalBreakout::GetRefusedPackets() const
{
    return m_refused;
}

uint64_t
LteLocalBreakout::GetUeMapScans() const
{
    return m_scans;
}

bool
LteLocalBreakout::IsSendAllowed(UeManager::State state)
{
    switch (state)
    {
    case UeManager::CONNECTED_NORMALLY:
    case UeManager::CONNECTION_RECONFIGURATION:
    case UeManager::HANDOVER_PREPARATION:
    case UeManager::HANDOVER_PATH_SWITCH:
    case UeManager::HANDOVER_JOINING:
    case UeManager::HANDOVER_LEAVING:
        return true;
    default:
        // INITIAL_RANDOM_ACCESS and CONNECTION_SETUP drop the packet, ATTACH_REQUEST and
        // CONNECTION_REJECTED abort; CONNECTION_REESTABLISHMENT is never entered in ns-3.
        return false;
    }
}

std::string
LteLocalBreakout::ToString(RefuseReason reason)
{
    switch (reason)
    {
    case NO_DEVICE:
        return "NO_DEVICE";
    case NO_CONTEXT:
        return "NO_CONTEXT";
    case STATE_NOT_ALLOWED:
        return "STATE_NOT_ALLOWED";
    case TOO_LARGE:
        return "TOO_LARGE";
    case NO_BEARER:
        return "NO_BEARER";
    }
    return "UNKNOWN";
}

void
LteLocalBreakout::Rescan()
{
    NS_LOG_FUNCTION(this);
    ++m_scans;
    m_contextsChanged->changed = false;
    m_contexts.clear();
    ObjectMapValue ues;
    m_rrc->GetAttribute("UeMap", ues);
    for (auto it = ues.Begin(); it != ues.End(); ++it)
    {
        Ptr<UeManager> ue = DynamicCast<UeManager>(it->second);
        // A context that has not heard the UE's identity yet has IMSI 0.
        if (!ue || ue->GetImsi() == 0)
        {
            continue;
        }
        auto [entry, inserted] = m_contexts.emplace(ue->GetImsi(), ue);
        if (!inserted && Preference(ue->GetState()) > Preference(entry->second->GetState()))
        {
            entry->second = ue;
        }
    }
}

Ptr<UeManager>
LteLocalBreakout::Lookup(uint64_t imsi)
{
    auto it = m_contexts.find(imsi);
    if (it != m_contexts.end())
    {
        Ptr<UeManager> ue = it->second;
        uint16_t rnti = ue->GetRnti();
        // Trusted only while the RRC still holds this very object, and while a scan would
        // pick it again: in the steady state, or when no context appeared or changed state
        // since the last scan (one that went cannot make another better).
        if ((ue->GetState() == UeManager::CONNECTED_NORMALLY || !m_contextsChanged->changed) &&
            m_rrc->HasUeManager(rnti) && m_rrc->GetUeManager(rnti) == ue)
        {
            return ue;
        }
    }
    else if (!m_contextsChanged->changed)
    {
        // No context appeared, and none learnt an IMSI, since the scan that did not find it.
        return nullptr;
    }
    Rescan();
    it = m_contexts.find(imsi);
    return it == m_contexts.end() ? nullptr : it->second;
}

bool
LteLocalBreakout::CanSend(uint64_t imsi)
{
    if (!m_rrc || imsi == 0)
    {
        return false;
    }
    Ptr<UeManager> ue = Lookup(imsi);
    return ue && IsSendAllowed(ue->GetState());
}

bool
LteLocalBreakout::Refuse(uint64_t imsi, RefuseReason reason)
{
    NS_LOG_LOGIC("cell " << GetCellId() << " refuses a packet to IMSI " << imsi << ": "
                         << ToString(reason));
    ++m_refused;
    m_refusedTrace(imsi, reason);
    return false;
}

bool
LteLocalBreakout::Send(Ptr<Packet> udpPayload,
                       uint64_t imsi,
                       Ipv4Address ueAddress,
                       Ipv4Address srcAddress,
                       uint16_t srcPort,
                       uint16_t dstPort)
{
    NS_LOG_FUNCTION(this << udpPayload << imsi << ueAddress << srcAddress << srcPort << dstPort);
    if (!m_rrc)
    {
        return Refuse(imsi, NO_DEVICE);
    }
    if (udpPayload->GetSize() > 0xffff - kHeaderBytes)
    {
        return Refuse(imsi, TOO_LARGE);
    }
    Ptr<UeManager> ue = imsi == 0 ? nullptr : Lookup(imsi);
    if (!ue)
    {
        return Refuse(imsi, NO_CONTEXT);
    }
    if (!IsSendAllowed(ue->GetState()))
    {
        return Refuse(imsi, STATE_NOT_ALLOWED);
    }
    if (m_bearerId != 1)
    {
        // A missing bearer is dropped silently by a connected UE's context, but aborts the
        // run in HANDOVER_LEAVING. The default bearer exists in every allowed state.
        ObjectMapValue drbs;
        ue->GetAttribute("DataRadioBearerMap", drbs);
        if (!drbs.Get(m_bearerId))
        {
            return Refuse(imsi, NO_BEARER);
        }
    }

    Ptr<Packet> p = udpPayload->Copy();
    bool checksums = Node::ChecksumEnabled();
    UdpHeader udp;
    udp.SetSourcePort(srcPort);
    udp.SetDestinationPort(dstPort);
    if (m_udpChecksum || checksums)
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(srcAddress, ueAddress, UdpL4Protocol::PROT_NUMBER);
    }
    p->AddHeader(udp);

    Ipv4Header ip;
    ip.SetSource(srcAddress);
    ip.SetDestination(ueAddress);
    ip.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(m_ttl);
    ip.SetIdentification(m_identification++);
    if (checksums)
    {
        // The UE's IPv4 checks the header checksum exactly when checksums are enabled.
        ip.EnableChecksum();
    }
    p->AddHeader(ip);

    uint16_t rnti = ue->GetRnti();
    p->AddPacketTag(EpsBearerTag(rnti, m_bearerId));
    m_txTrace(imsi, rnti, p);
    m_enbDev->Send(p, m_enbDev->GetBroadcast(), Ipv4L3Protocol::PROT_NUMBER);
    ++m_sent;
    return true;
}

} // namespace ns3
