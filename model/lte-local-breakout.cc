/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-local-breakout.h"

#include "ns3/abort.h"
#include "ns3/eps-bearer-tag.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/lte-enb-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LteLocalBreakout");

NS_OBJECT_ENSURE_REGISTERED(LteLocalBreakout);

TypeId
LteLocalBreakout::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LteLocalBreakout")
                            .SetParent<LocalBreakout>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<LteLocalBreakout>();
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
    m_contexts.Clear();
    m_enbDev = nullptr;
    LocalBreakout::DoDispose();
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
    m_contexts.Bind(enb->GetRrc());
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
LteLocalBreakout::GetUeMapScans() const
{
    return m_contexts.GetScans();
}

bool
LteLocalBreakout::IsSendAllowed(UeManager::State state)
{
    return RrcContextIndex<LteEnbRrc, UeManager>::IsSendAllowed(state);
}

bool
LteLocalBreakout::IsBound() const
{
    return m_enbDev != nullptr;
}

LocalBreakout::Context
LteLocalBreakout::FindContext(uint64_t imsi)
{
    Context c;
    Ptr<UeManager> ue = m_contexts.Lookup(imsi);
    if (ue)
    {
        c.found = true;
        c.sendAllowed = IsSendAllowed(ue->GetState());
        c.rnti = ue->GetRnti();
    }
    return c;
}

bool
LteLocalBreakout::HasBearer(uint64_t imsi, uint8_t bearerId)
{
    return m_contexts.HasBearer(imsi, bearerId);
}

void
LteLocalBreakout::Deliver(Ptr<Packet> ipPacket, uint16_t rnti, uint8_t bearerId)
{
    ipPacket->AddPacketTag(EpsBearerTag(rnti, bearerId));
    m_enbDev->Send(ipPacket, m_enbDev->GetBroadcast(), Ipv4L3Protocol::PROT_NUMBER);
}

} // namespace ns3
