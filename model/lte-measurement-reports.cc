/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-measurement-reports.h"

#include "ns3/abort.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-enb-rrc.h"
#include "ns3/lte-rrc-sap.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LteMeasurementReports");

namespace
{

/// The type of ReportConfigEutra::reportInterval, an unnamed enumeration.
using ReportInterval = decltype(LteRrcSap::ReportConfigEutra::reportInterval);

/// Each allowed period with its ReportConfigEutra value, shortest first.
const std::array<std::pair<int64_t, ReportInterval>, 13> kIntervals{{
    {120, LteRrcSap::ReportConfigEutra::MS120},
    {240, LteRrcSap::ReportConfigEutra::MS240},
    {480, LteRrcSap::ReportConfigEutra::MS480},
    {640, LteRrcSap::ReportConfigEutra::MS640},
    {1024, LteRrcSap::ReportConfigEutra::MS1024},
    {2048, LteRrcSap::ReportConfigEutra::MS2048},
    {5120, LteRrcSap::ReportConfigEutra::MS5120},
    {10240, LteRrcSap::ReportConfigEutra::MS10240},
    {60000, LteRrcSap::ReportConfigEutra::MIN1},
    {360000, LteRrcSap::ReportConfigEutra::MIN6},
    {720000, LteRrcSap::ReportConfigEutra::MIN12},
    {1800000, LteRrcSap::ReportConfigEutra::MIN30},
    {3600000, LteRrcSap::ReportConfigEutra::MIN60},
}};

/**
 * \param period a report interval
 * \return its entry in kIntervals, or the end
 */
auto
FindInterval(Time period)
{
    return std::find_if(kIntervals.begin(), kIntervals.end(), [period](const auto& entry) {
        return MilliSeconds(entry.first) == period;
    });
}

/**
 * \param eventId the event
 * \param interval the report interval
 * \return an event-triggered report whose event holds for every cell above -141 dBm
 */
LteRrcSap::ReportConfigEutra
AlwaysTriggered(decltype(LteRrcSap::ReportConfigEutra::eventId) eventId, ReportInterval interval)
{
    LteRrcSap::ReportConfigEutra config;
    config.triggerType = LteRrcSap::ReportConfigEutra::EVENT;
    config.eventId = eventId;
    config.threshold1.choice = LteRrcSap::ThresholdEutra::THRESHOLD_RSRP;
    // RSRP range 0 is -141 dBm (TS 36.133 9.1.4), below which nothing can be reported.
    config.threshold1.range = 0;
    config.hysteresis = 0;
    config.timeToTrigger = 0;
    config.reportOnLeave = false;
    config.purpose = LteRrcSap::ReportConfigEutra::REPORT_STRONGEST_CELLS;
    config.triggerQuantity = LteRrcSap::ReportConfigEutra::RSRP;
    config.reportQuantity = LteRrcSap::ReportConfigEutra::BOTH;
    config.maxReportCells = LteRrcSap::MaxReportCells;
    config.reportInterval = interval;
    return config;
}

} // namespace

bool
LtePeriodicReportIds::Contains(uint8_t measId) const
{
    return std::find(serving.begin(), serving.end(), measId) != serving.end() ||
           std::find(neighbours.begin(), neighbours.end(), measId) != neighbours.end();
}

bool
IsLteMeasurementReportPeriod(Time period)
{
    return FindInterval(period) != kIntervals.end();
}

std::string
LteMeasurementReportPeriods()
{
    std::ostringstream text;
    for (const auto& [ms, interval] : kIntervals)
    {
        if (ms != kIntervals.front().first)
        {
            text << ", ";
        }
        if (ms >= 60000)
        {
            text << ms / 60000 << " min";
        }
        else
        {
            text << ms << " ms";
        }
    }
    return text.str();
}

LtePeriodicReportIds
ConfigurePeriodicMeasurementReports(Ptr<NetDevice> enbDev, Time period)
{
    NS_LOG_FUNCTION(enbDev << period.As(Time::MS));
    Ptr<LteEnbNetDevice> enb = DynamicCast<LteEnbNetDevice>(enbDev);
    NS_ABORT_MSG_UNLESS(enb,
                        "ConfigurePeriodicMeasurementReports: "
                            << (enbDev ? enbDev->GetInstanceTypeId().GetName() : "null device")
                            << " is not an LteEnbNetDevice");
    Ptr<LteEnbRrc> rrc = enb->GetRrc();
    NS_ABORT_MSG_UNLESS(rrc, "ConfigurePeriodicMeasurementReports: the eNB has no RRC yet");
    // A UE receives the measurement configuration when it connects, so one added later would
    // reach only some UEs; ns-3 refuses it too, less plainly.
    NS_ABORT_MSG_UNLESS(Simulator::Now().IsZero(),
                        "ConfigurePeriodicMeasurementReports: called at "
                            << Simulator::Now().As(Time::S)
                            << "; it must be called before the simulation starts");
    auto entry = FindInterval(period);
    if (entry == kIntervals.end())
    {
        NS_FATAL_ERROR("ConfigurePeriodicMeasurementReports: period "
                       << period.As(Time::MS) << " is not an LTE report interval; allowed: "
                       << LteMeasurementReportPeriods());
    }
    LtePeriodicReportIds ids;
    ids.serving = rrc->AddUeMeasReportConfig(
        AlwaysTriggered(LteRrcSap::ReportConfigEutra::EVENT_A1, entry->second));
    ids.neighbours = rrc->AddUeMeasReportConfig(
        AlwaysTriggered(LteRrcSap::ReportConfigEutra::EVENT_A4, entry->second));
    return ids;
}

} // namespace ns3
