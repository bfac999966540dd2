/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-ran-observer.h"

#include "ns3/log.h"
#include "ns3/lte-common.h"
#include "ns3/lte-enb-net-device.h"

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
