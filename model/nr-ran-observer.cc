/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nr-ran-observer.h"

#include "ns3/log.h"
#include "ns3/nr-common.h"
#include "ns3/nr-gnb-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NrRanObserver");

NS_OBJECT_ENSURE_REGISTERED(NrRanObserver);

TypeId
NrRanObserver::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NrRanObserver")
            .SetParent<RanObserver>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<NrRanObserver>()
            .AddTraceSource("RntiCollision",
                            "A handed-over UE's RNTI in the target is the RNTI "
                            "of another UE the source still serves: 5G-LENA "
                            "may serve that UE with the wrong beam.",
                            MakeTraceSourceAccessor(&NrRanObserver::m_rntiCollisionTrace),
                            "ns3::NrRanObserver::RntiCollisionTracedCallback");
    return tid;
}

Ptr<NrGnbRrc>
NrRanObserver::RrcOf(Ptr<NetDevice> dev) const
{
    Ptr<NrGnbNetDevice> gnb = DynamicCast<NrGnbNetDevice>(dev);
    return gnb ? gnb->GetRrc() : nullptr;
}

uint16_t
NrRanObserver::CellOf(Ptr<NetDevice> dev) const
{
    return DynamicCast<NrGnbNetDevice>(dev)->GetCellId();
}

void
NrRanObserver::ConnectRanTraces(Ptr<NrGnbRrc> rrc)
{
    Ptr<NrRanObserver> self(this);
    Connect(rrc,
            "RecvMeasurementReport",
            MakeCallback(&NrRanObserver::MeasurementReportSink, self));
    Connect(rrc,
            "HandoverStart",
            Callback<void, uint64_t, uint16_t, uint16_t, uint16_t>(
                [self](uint64_t imsi, uint16_t cellId, uint16_t, uint16_t) {
                    self->m_leaving[imsi] = cellId;
                }));
    Connect(rrc,
            "HandoverEndOk",
            Callback<void, uint64_t, uint16_t, uint16_t>(
                [self](uint64_t imsi, uint16_t, uint16_t rnti) {
                    auto leaving = self->m_leaving.find(imsi);
                    if (leaving == self->m_leaving.end())
                    {
                        return;
                    }
                    const uint16_t source = leaving->second;
                    self->m_leaving.erase(leaving);
                    Ptr<NrGnbRrc> sourceRrc = self->GetCellRrc(source);
                    if (sourceRrc && sourceRrc->HasUeManager(rnti))
                    {
                        const uint64_t other = sourceRrc->GetUeManager(rnti)->GetImsi();
                        if (other != imsi)
                        {
                            NS_LOG_WARN("IMSI " << imsi << " left cell " << source << " with RNTI "
                                                << rnti << ", which IMSI " << other
                                                << " has there");
                            ++self->m_rntiCollisions;
                            self->m_rntiCollisionTrace(imsi, source, rnti, other);
                        }
                    }
                }));
}

uint64_t
NrRanObserver::GetRntiCollisions() const
{
    return m_rntiCollisions;
}

std::string
NrRanObserver::RlcAttribute() const
{
    return "NrRlc";
}

void
NrRanObserver::MeasurementReportSink(uint64_t imsi,
                                     uint16_t cellId,
                                     uint16_t rnti,
                                     NrRrcSap::MeasurementReport report)
{
    NS_LOG_FUNCTION(this << imsi << cellId << rnti);
    NotifyMeasurementReport(
        ConvertMeasurementReport<nr::EutranMeasurementMapping>(imsi, cellId, report.measResults));
}

} // namespace ns3
