/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ran-observer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RanObserver");

NS_OBJECT_ENSURE_REGISTERED(RanObserver);

TypeId
RanObserver::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RanObserver")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddTraceSource("UeReady",
                            "The UE can receive data in this cell: its connection is set up, "
                            "or its handover into the cell is complete.",
                            MakeTraceSourceAccessor(&RanObserver::m_ueReadyTrace),
                            "ns3::RanObserver::UeReadyTracedCallback")
            .AddTraceSource("HandoverStarted",
                            "The source cell has the target's acknowledgement and commands the "
                            "UE to hand over; the target already holds the UE's context.",
                            MakeTraceSourceAccessor(&RanObserver::m_handoverStartedTrace),
                            "ns3::RanObserver::HandoverStartedTracedCallback")
            .AddTraceSource("HandoverDone",
                            "The UE's handover into the target cell is complete.",
                            MakeTraceSourceAccessor(&RanObserver::m_handoverDoneTrace),
                            "ns3::RanObserver::HandoverDoneTracedCallback")
            .AddTraceSource("HandoverFailed",
                            "A handover failed, with the reporting cell and the reason.",
                            MakeTraceSourceAccessor(&RanObserver::m_handoverFailedTrace),
                            "ns3::RanObserver::HandoverFailedTracedCallback")
            .AddTraceSource("UeReleased",
                            "The cell that served the UE released its connection: the UE has "
                            "left connected mode (not a source's release after a handover).",
                            MakeTraceSourceAccessor(&RanObserver::m_ueReleasedTrace),
                            "ns3::RanObserver::UeReadyTracedCallback")
            .AddTraceSource("RadioLinkFailure",
                            "A UE lost its radio link to its serving cell and left connected "
                            "mode; the cell has dropped its context (LTE: T310 expired after "
                            "N310 out-of-sync indications).",
                            MakeTraceSourceAccessor(&RanObserver::m_radioLinkFailureTrace),
                            "ns3::RanObserver::RadioLinkTracedCallback")
            .AddTraceSource("Reattached",
                            "A UE whose radio link failed is connected again, in this cell (the "
                            "same or another); fires just before its UeReady there.",
                            MakeTraceSourceAccessor(&RanObserver::m_reattachedTrace),
                            "ns3::RanObserver::RadioLinkTracedCallback")
            .AddTraceSource("RadioDrop",
                            "A cell's radio stack dropped a downlink packet of a UE (LTE: the "
                            "RLC transmit buffer was full).",
                            MakeTraceSourceAccessor(&RanObserver::m_radioDropTrace),
                            "ns3::RanObserver::RadioDropTracedCallback")
            .AddTraceSource("HandoverRefused",
                            "The target refused a handover the source was preparing; the UE "
                            "stays in the source. The target cell is 0 if unknown.",
                            MakeTraceSourceAccessor(&RanObserver::m_handoverRefusedTrace),
                            "ns3::RanObserver::HandoverRefusedTracedCallback")
            .AddTraceSource("MeasurementReport",
                            "The serving cell received a UE's measurement report (RSRP in dBm, "
                            "RSRQ in dB).",
                            MakeTraceSourceAccessor(&RanObserver::m_measurementReportTrace),
                            "ns3::RanObserver::MeasurementReportTracedCallback");
    return tid;
}

uint16_t
RanObserver::GetServingCellId(uint64_t imsi) const
{
    auto it = m_servingCell.find(imsi);
    return it == m_servingCell.end() ? 0 : it->second;
}

std::string
RanObserver::ToString(HandoverFailureReason reason)
{
    switch (reason)
    {
    case NO_PREAMBLE:
        return "NO_PREAMBLE";
    case MAX_RACH:
        return "MAX_RACH";
    case LEAVING_TIMEOUT:
        return "LEAVING_TIMEOUT";
    case JOINING_TIMEOUT:
        return "JOINING_TIMEOUT";
    }
    return "UNKNOWN";
}

void
RanObserver::NotifyUeReady(uint64_t imsi, uint16_t cellId)
{
    NS_LOG_FUNCTION(this << imsi << cellId);
    auto [it, inserted] = m_servingCell.emplace(imsi, cellId);
    if (!inserted && it->second == cellId)
    {
        // A reconfiguration of a UE already served here (LTE sends one after each handover
        // and for each new bearer) is no news.
        return;
    }
    it->second = cellId;
    if (m_linkFailed.erase(imsi) > 0)
    {
        ++m_reattachments;
        m_reattachedTrace(imsi, cellId);
    }
    m_ueReadyTrace(imsi, cellId);
}

void
RanObserver::InstallUes(const NetDeviceContainer& ueDevs)
{
    if (ueDevs.GetN() > 0)
    {
        NS_LOG_WARN(GetInstanceTypeId().GetName()
                    << "::InstallUes: this observer does not watch UEs; it reports no radio "
                       "link failure");
    }
}

void
RanObserver::NotifyRadioLinkFailure(uint64_t imsi, uint16_t cellId)
{
    NS_LOG_FUNCTION(this << imsi << cellId);
    ++m_radioLinkFailures;
    m_linkFailed.insert(imsi);
    m_radioLinkFailureTrace(imsi, cellId);
    // The cell drops the UE's context right after; its release is reported here, after the
    // failure, so that a subscriber of both sees the cause first, whatever the radio stack's
    // order.
    NotifyUeReleased(imsi, cellId);
    m_servingCell.erase(imsi);
}

uint64_t
RanObserver::GetRadioLinkFailures() const
{
    return m_radioLinkFailures;
}

uint64_t
RanObserver::GetReattachments() const
{
    return m_reattachments;
}

void
RanObserver::NotifyHandoverStarted(uint64_t imsi, uint16_t sourceCellId, uint16_t targetCellId)
{
    NS_LOG_FUNCTION(this << imsi << sourceCellId << targetCellId);
    m_handoverStartedTrace(imsi, sourceCellId, targetCellId);
}

void
RanObserver::NotifyHandoverDone(uint64_t imsi, uint16_t targetCellId)
{
    NS_LOG_FUNCTION(this << imsi << targetCellId);
    m_servingCell[imsi] = targetCellId;
    m_handoverDoneTrace(imsi, targetCellId);
    // Subscribers that only follow where a UE can receive need no handover logic.
    m_ueReadyTrace(imsi, targetCellId);
}

void
RanObserver::NotifyUeReleased(uint64_t imsi, uint16_t cellId)
{
    NS_LOG_FUNCTION(this << imsi << cellId);
    auto it = m_servingCell.find(imsi);
    if (it != m_servingCell.end() && it->second == cellId)
    {
        m_servingCell.erase(it);
        m_ueReleasedTrace(imsi, cellId);
    }
}

void
RanObserver::NotifyHandoverFailed(uint64_t imsi, uint16_t cellId, HandoverFailureReason reason)
{
    NS_LOG_FUNCTION(this << imsi << cellId << ToString(reason));
    auto it = m_servingCell.find(imsi);
    if (it != m_servingCell.end() && it->second == cellId)
    {
        // The reporting cell has dropped the UE's context; where the UE reconnects is
        // told by a later UeReady.
        m_servingCell.erase(it);
    }
    m_handoverFailedTrace(imsi, cellId, reason);
}

void
RanObserver::NotifyRadioDrop(uint64_t imsi, uint16_t cellId)
{
    ++m_radioDrops;
    m_radioDropTrace(imsi, cellId);
}

uint64_t
RanObserver::GetRadioDrops() const
{
    return m_radioDrops;
}

void
RanObserver::NotifyHandoverRefused(uint64_t imsi, uint16_t sourceCellId, uint16_t targetCellId)
{
    NS_LOG_FUNCTION(this << imsi << sourceCellId << targetCellId);
    // The source kept the UE's context throughout, so the serving cell as last seen holds.
    ++m_handoverRefusals;
    m_handoverRefusedTrace(imsi, sourceCellId, targetCellId);
}

uint64_t
RanObserver::GetHandoverRefusals() const
{
    return m_handoverRefusals;
}

void
RanObserver::NotifyMeasurementReport(const RanMeasurementReport& report)
{
    NS_LOG_FUNCTION(this << report.imsi << report.servingCellId << +report.measId);
    ++m_measurementReports;
    m_measurementReportTrace(report);
}

uint64_t
RanObserver::GetMeasurementReports() const
{
    return m_measurementReports;
}

} // namespace ns3
