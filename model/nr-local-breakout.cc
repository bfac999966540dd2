/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nr-local-breakout.h"

#include "ns3/abort.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/nr-eps-bearer-tag.h"
#include "ns3/nr-gnb-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NrLocalBreakout");

NS_OBJECT_ENSURE_REGISTERED(NrLocalBreakout);

TypeId
NrLocalBreakout::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NrLocalBreakout")
                            .SetParent<LocalBreakout>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<NrLocalBreakout>();
    return tid;
}

NrLocalBreakout::NrLocalBreakout() = default;

NrLocalBreakout::~NrLocalBreakout() = default;

void
NrLocalBreakout::DoDispose()
{
    m_contexts.Clear();
    m_gnbDev = nullptr;
    LocalBreakout::DoDispose();
}

void
NrLocalBreakout::SetGnbNetDevice(Ptr<NetDevice> gnbDev)
{
    NS_LOG_FUNCTION(this << gnbDev);
    Ptr<NrGnbNetDevice> gnb = DynamicCast<NrGnbNetDevice>(gnbDev);
    NS_ABORT_MSG_UNLESS(gnb,
                        "NrLocalBreakout::SetGnbNetDevice: "
                            << (gnbDev ? gnbDev->GetInstanceTypeId().GetName() : "null device")
                            << " is not an NrGnbNetDevice");
    NS_ABORT_MSG_UNLESS(gnb->GetRrc(), "NrLocalBreakout::SetGnbNetDevice: the gNB has no RRC");
    m_gnbDev = gnb;
    m_contexts.Bind(gnb->GetRrc());
}

Ptr<NetDevice>
NrLocalBreakout::GetGnbNetDevice() const
{
    return m_gnbDev;
}

uint16_t
NrLocalBreakout::GetCellId() const
{
    return m_gnbDev ? m_gnbDev->GetCellId() : 0;
}

uint64_t
NrLocalBreakout::GetUeMapScans() const
{
    return m_contexts.GetScans();
}

bool
NrLocalBreakout::IsBound() const
{
    return m_gnbDev != nullptr;
}

LocalBreakout::Context
NrLocalBreakout::FindContext(uint64_t imsi)
{
    Context c;
    Ptr<NrUeManager> ue = m_contexts.Lookup(imsi);
    if (ue)
    {
        c.found = true;
        c.sendAllowed = RrcContextIndex<NrGnbRrc, NrUeManager>::IsSendAllowed(ue->GetState());
        c.rnti = ue->GetRnti();
    }
    return c;
}

bool
NrLocalBreakout::HasBearer(uint64_t imsi, uint8_t bearerId)
{
    return m_contexts.HasBearer(imsi, bearerId);
}

void
NrLocalBreakout::Deliver(Ptr<Packet> ipPacket, uint16_t rnti, uint8_t bearerId)
{
    ipPacket->AddPacketTag(NrEpsBearerTag(rnti, bearerId));
    m_gnbDev->Send(ipPacket, m_gnbDev->GetBroadcast(), Ipv4L3Protocol::PROT_NUMBER);
}

} // namespace ns3
