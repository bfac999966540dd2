/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-ran-observer.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-enb-rrc.h"
#include "ns3/node.h"
#include "ns3/object-map.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LteRanObserver");

NS_OBJECT_ENSURE_REGISTERED(LteRanObserver);

TypeId
LteRanObserver::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LteRanObserver")
                            .SetParent<RanObserver>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<LteRanObserver>();
    return tid;
}

namespace
{

/// Connects one trace source of an eNB RRC, stopping the run if the name or signature is wrong.
template <typename... Args>
void
ConnectOrAbort(Ptr<LteEnbRrc> rrc, const std::string& name, Callback<void, Args...> cb)
{
    NS_ABORT_MSG_UNLESS(rrc->TraceConnectWithoutContext(name, cb),
                        "LteRanObserver: cannot connect to LteEnbRrc/" << name);
}

} // namespace

void
LteRanObserver::Install(const NetDeviceContainer& enbDevs)
{
    NS_LOG_FUNCTION(this);
    for (auto it = enbDevs.Begin(); it != enbDevs.End(); ++it)
    {
        Ptr<LteEnbNetDevice> enb = DynamicCast<LteEnbNetDevice>(*it);
        NS_ABORT_MSG_UNLESS(enb,
                            "LteRanObserver::Install: device "
                                << (*it)->GetIfIndex() << " of node " << (*it)->GetNode()->GetId()
                                << " is a " << (*it)->GetInstanceTypeId().GetName()
                                << ", not an LteEnbNetDevice");
        Ptr<LteEnbRrc> rrc = enb->GetRrc();
        NS_ABORT_MSG_UNLESS(rrc, "LteRanObserver::Install: the eNB has no RRC yet");
        if (!m_observed.insert(PeekPointer(rrc)).second)
        {
            continue;
        }
        m_rrcByCell[enb->GetCellId()] = rrc;
        // The callbacks hold a reference, so that an observer the script dropped cannot be
        // called after it is gone.
        Ptr<LteRanObserver> self(this);
        ConnectOrAbort(rrc,
                       "ConnectionReconfiguration",
                       MakeCallback(&LteRanObserver::ConnectionReconfigurationSink, self));
        ConnectOrAbort(rrc,
                       "HandoverStart",
                       MakeCallback(&LteRanObserver::HandoverStartSink, self));
        ConnectOrAbort(rrc,
                       "HandoverEndOk",
                       MakeCallback(&LteRanObserver::HandoverEndOkSink, self));
        ConnectOrAbort(rrc,
                       "NotifyConnectionRelease",
                       MakeCallback(&LteRanObserver::ConnectionReleaseSink, self));
        ConnectOrAbort(rrc,
                       "HandoverFailureNoPreamble",
                       MakeCallback(&LteRanObserver::HandoverFailureNoPreambleSink, self));
        ConnectOrAbort(rrc,
                       "HandoverFailureMaxRach",
                       MakeCallback(&LteRanObserver::HandoverFailureMaxRachSink, self));
        ConnectOrAbort(rrc,
                       "HandoverFailureLeaving",
                       MakeCallback(&LteRanObserver::HandoverFailureLeavingSink, self));
        ConnectOrAbort(rrc,
                       "HandoverFailureJoining",
                       MakeCallback(&LteRanObserver::HandoverFailureJoiningSink, self));
    }
}

void
LteRanObserver::ConnectionReconfigurationSink(uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
    NS_LOG_FUNCTION(this << imsi << cellId << rnti);
    WatchBearers(cellId, imsi);
    NotifyUeReady(imsi, cellId);
}

void
LteRanObserver::HandoverStartSink(uint64_t imsi,
                                  uint16_t cellId,
                                  uint16_t rnti,
                                  uint16_t targetCellId)
{
    NS_LOG_FUNCTION(this << imsi << cellId << rnti << targetCellId);
    WatchBearers(targetCellId, imsi);
    NotifyHandoverStarted(imsi, cellId, targetCellId);
}

void
LteRanObserver::HandoverEndOkSink(uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
    NS_LOG_FUNCTION(this << imsi << cellId << rnti);
    NotifyHandoverDone(imsi, cellId);
}

void
LteRanObserver::ConnectionReleaseSink(uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
    NS_LOG_FUNCTION(this << imsi << cellId << rnti);
    NotifyUeReleased(imsi, cellId);
}

void
LteRanObserver::HandoverFailureNoPreambleSink(uint64_t imsi, uint16_t rnti, uint16_t cellId)
{
    NS_LOG_FUNCTION(this << imsi << rnti << cellId);
    NotifyHandoverFailed(imsi, cellId, NO_PREAMBLE);
}

void
LteRanObserver::HandoverFailureMaxRachSink(uint64_t imsi, uint16_t rnti, uint16_t cellId)
{
    NS_LOG_FUNCTION(this << imsi << rnti << cellId);
    NotifyHandoverFailed(imsi, cellId, MAX_RACH);
}

void
LteRanObserver::HandoverFailureLeavingSink(uint64_t imsi, uint16_t rnti, uint16_t cellId)
{
    NS_LOG_FUNCTION(this << imsi << rnti << cellId);
    NotifyHandoverFailed(imsi, cellId, LEAVING_TIMEOUT);
}

void
LteRanObserver::HandoverFailureJoiningSink(uint64_t imsi, uint16_t rnti, uint16_t cellId)
{
    NS_LOG_FUNCTION(this << imsi << rnti << cellId);
    NotifyHandoverFailed(imsi, cellId, JOINING_TIMEOUT);
}

void
LteRanObserver::WatchBearers(uint16_t cellId, uint64_t imsi)
{
    auto cell = m_rrcByCell.find(cellId);
    if (cell == m_rrcByCell.end())
    {
        return;
    }
    ObjectMapValue ues;
    cell->second->GetAttribute("UeMap", ues);
    for (auto u = ues.Begin(); u != ues.End(); ++u)
    {
        Ptr<UeManager> ue = DynamicCast<UeManager>(u->second);
        if (!ue || ue->GetImsi() != imsi)
        {
            continue;
        }
        ObjectMapValue bearers;
        ue->GetAttribute("DataRadioBearerMap", bearers);
        for (auto b = bearers.Begin(); b != bearers.End(); ++b)
        {
            PointerValue rlc;
            b->second->GetAttribute("LteRlc", rlc);
            Ptr<Object> entity = rlc.Get<Object>();
            if (entity && m_watchedRlc.insert(PeekPointer(entity)).second)
            {
                entity->TraceConnectWithoutContext("TxDrop",
                                                   MakeBoundCallback(&LteRanObserver::RlcDropSink,
                                                                     Ptr<LteRanObserver>(this),
                                                                     imsi,
                                                                     cellId));
            }
        }
    }
}

void
LteRanObserver::RlcDropSink(Ptr<LteRanObserver> self,
                            uint64_t imsi,
                            uint16_t cellId,
                            Ptr<const Packet> /* packet */)
{
    self->NotifyRadioDrop(imsi, cellId);
}

} // namespace ns3
