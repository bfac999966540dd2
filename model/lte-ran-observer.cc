/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-ran-observer.h"

#include "ns3/log.h"
#include "ns3/lte-common.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-ue-net-device.h"
#include "ns3/lte-ue-rrc.h"

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

Ptr<LteEnbRrc>
LteRanObserver::RrcOf(Ptr<NetDevice> dev) const
{
    Ptr<LteEnbNetDevice> enb = DynamicCast<LteEnbNetDevice>(dev);
    return enb ? enb->GetRrc() : nullptr;
}

uint16_t
LteRanObserver::CellOf(Ptr<NetDevice> dev) const
{
    return DynamicCast<LteEnbNetDevice>(dev)->GetCellId();
}

void
LteRanObserver::ConnectRanTraces(Ptr<LteEnbRrc> rrc)
{
    Connect(rrc,
            "RecvMeasurementReport",
            MakeCallback(&LteRanObserver::MeasurementReportSink, Ptr<LteRanObserver>(this)));
}

void
LteRanObserver::InstallUes(const NetDeviceContainer& ueDevs)
{
    for (auto it = ueDevs.Begin(); it != ueDevs.End(); ++it)
    {
        Ptr<LteUeNetDevice> ue = DynamicCast<LteUeNetDevice>(*it);
        NS_ABORT_MSG_UNLESS(ue && ue->GetRrc(),
                            "LteRanObserver::InstallUes: device "
                                << (*it)->GetIfIndex() << " of node " << (*it)->GetNode()->GetId()
                                << " is a " << (*it)->GetInstanceTypeId().GetName()
                                << ", not an LTE UE with its RRC");
        Ptr<LteUeRrc> rrc = ue->GetRrc();
        if (!m_observedUes.insert(PeekPointer(rrc)).second)
        {
            continue;
        }
        NS_ABORT_MSG_UNLESS(
            rrc->TraceConnectWithoutContext(
                "RadioLinkFailure",
                MakeCallback(&LteRanObserver::RadioLinkFailureSink, Ptr<LteRanObserver>(this))),
            "LteRanObserver: cannot connect to the UE RRC's RadioLinkFailure");
    }
}

void
LteRanObserver::RadioLinkFailureSink(uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
    NS_LOG_FUNCTION(this << imsi << cellId << rnti);
    NotifyRadioLinkFailure(imsi, cellId);
}

void
LteRanObserver::DoDispose()
{
    m_observedUes.clear();
    RrcRanObserver<LteEnbRrc, UeManager>::DoDispose();
}

std::string
LteRanObserver::RlcAttribute() const
{
    return "LteRlc";
}

void
LteRanObserver::MeasurementReportSink(uint64_t imsi,
                                      uint16_t cellId,
                                      uint16_t rnti,
                                      LteRrcSap::MeasurementReport report)
{
    NS_LOG_FUNCTION(this << imsi << cellId << rnti);
    NotifyMeasurementReport(
        ConvertMeasurementReport<EutranMeasurementMapping>(imsi, cellId, report.measResults));
}

} // namespace ns3
