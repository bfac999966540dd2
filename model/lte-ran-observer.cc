/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-ran-observer.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/lte-common.h"
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
        ConnectOrAbort(rrc,
                       "RecvMeasurementReport",
                       MakeCallback(&LteRanObserver::MeasurementReportSink, self));
        ConnectOrAbort(
            rrc,
            "NewUeContext",
            MakeBoundCallback(&LteRanObserver::NewUeContextSink, self, PeekPointer(rrc)));
        // Contexts made before this Install (an observer installed during the run).
        ObjectMapValue ues;
        rrc->GetAttribute("UeMap", ues);
        for (auto u = ues.Begin(); u != ues.End(); ++u)
        {
            Ptr<UeManager> ue = DynamicCast<UeManager>(u->second);
            if (ue)
            {
                WatchContext(rrc, ue->GetRnti());
            }
        }
    }
}

void
LteRanObserver::NewUeContextSink(Ptr<LteRanObserver> self,
                                 LteEnbRrc* rrc,
                                 uint16_t /* cellId */,
                                 uint16_t rnti)
{
    self->WatchContext(Ptr<LteEnbRrc>(rrc), rnti);
}

void
LteRanObserver::WatchContext(Ptr<LteEnbRrc> rrc, uint16_t rnti)
{
    NS_LOG_FUNCTION(this << rnti);
    // A new context of an RNTI replaces the old one, and with it the old one's callbacks, so
    // each context is connected once.
    NS_ABORT_MSG_UNLESS(
        rrc->GetUeManager(rnti)->TraceConnectWithoutContext(
            "StateTransition",
            MakeCallback(&LteRanObserver::UeStateTransitionSink, Ptr<LteRanObserver>(this))),
        "LteRanObserver: cannot connect to UeManager/StateTransition");
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

namespace
{

/**
 * \param cellId the measured cell
 * \param hasRsrp whether the report carries its RSRP
 * \param rsrp its RSRP range index, 0..97
 * \param hasRsrq whether the report carries its RSRQ
 * \param rsrq its RSRQ range index, 0..34
 * \return the cell's measurement in dBm and dB
 */
RanCellMeasurement
ToCellMeasurement(uint16_t cellId, bool hasRsrp, uint8_t rsrp, bool hasRsrq, uint8_t rsrq)
{
    RanCellMeasurement m;
    m.cellId = cellId;
    m.hasRsrp = hasRsrp;
    m.rsrpDbm = hasRsrp ? EutranMeasurementMapping::RsrpRange2Dbm(rsrp) : 0.0;
    m.hasRsrq = hasRsrq;
    m.rsrqDb = hasRsrq ? EutranMeasurementMapping::RsrqRange2Db(rsrq) : 0.0;
    return m;
}

} // namespace

void
LteRanObserver::MeasurementReportSink(uint64_t imsi,
                                      uint16_t cellId,
                                      uint16_t rnti,
                                      LteRrcSap::MeasurementReport report)
{
    NS_LOG_FUNCTION(this << imsi << cellId << rnti);
    const LteRrcSap::MeasResults& results = report.measResults;
    RanMeasurementReport r;
    r.imsi = imsi;
    r.servingCellId = cellId;
    r.measId = results.measId;
    // The primary cell's quantities are mandatory in an LTE report.
    r.serving = ToCellMeasurement(cellId,
                                  true,
                                  results.measResultPCell.rsrpResult,
                                  true,
                                  results.measResultPCell.rsrqResult);
    if (results.haveMeasResultNeighCells)
    {
        for (const auto& n : results.measResultListEutra)
        {
            r.neighbours.push_back(ToCellMeasurement(n.physCellId,
                                                     n.haveRsrpResult,
                                                     n.rsrpResult,
                                                     n.haveRsrqResult,
                                                     n.rsrqResult));
        }
    }
    NotifyMeasurementReport(r);
}

void
LteRanObserver::UeStateTransitionSink(uint64_t imsi,
                                      uint16_t cellId,
                                      uint16_t rnti,
                                      UeManager::State oldState,
                                      UeManager::State newState)
{
    if (oldState != UeManager::HANDOVER_PREPARATION || newState != UeManager::CONNECTED_NORMALLY)
    {
        return;
    }
    NS_LOG_FUNCTION(this << imsi << cellId << rnti);
    uint16_t target = 0;
    auto cell = m_rrcByCell.find(cellId);
    if (cell != m_rrcByCell.end() && cell->second->HasUeManager(rnti))
    {
        target = cell->second->GetUeManager(rnti)->BuildHoCancelMsg().targetCellId;
    }
    NotifyHandoverRefused(imsi, cellId, target);
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
