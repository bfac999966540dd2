/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LTE_MEASUREMENT_REPORTS_H
#define LTE_MEASUREMENT_REPORTS_H

#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The measurement identities (measId) of the periodic reports configured on one eNB,
 * one of each kind per component carrier.
 *
 * A UE sends the two kinds independently, each once per period: a UE that hears a neighbour
 * sends two reports per period, one without neighbours and one with them.
 */
struct LtePeriodicReportIds
{
    /// Reports of the serving cell alone, sent while its RSRP is above -141 dBm.
    std::vector<uint8_t> serving;
    /// Reports of the serving cell and the strongest neighbours, sent while a neighbour's RSRP
    /// is above -141 dBm.
    std::vector<uint8_t> neighbours;

    /**
     * \param measId a report's measurement identity
     * \return whether it is one of these
     */
    bool Contains(uint8_t measId) const;
};

/**
 * \ingroup edge-llm
 * \brief Make the UEs of an LTE eNB report RSRP and RSRQ of their serving cell and of the
 * strongest neighbours (up to LteRrcSap::MaxReportCells) every period.
 *
 * ns-3.37's UE RRC implements event-triggered reporting only: a PERIODICAL trigger stops an
 * assert-enabled build and is taken as event A1 by another. The reports are therefore
 * event-triggered periodic reports (3GPP TS 36.331 5.5.4.1 with an infinite reportAmount),
 * whose events hold for every cell the UE can report: event A1 (serving cell better than
 * -141 dBm, the lowest RSRP that can be reported) for the serving cell, event A4 (neighbour
 * better than -141 dBm) for the neighbours. A UE sends the first report of each when the
 * event starts to hold (at its first measurement after the configuration), then one every
 * period. The eNB's RRC fires "RecvMeasurementReport" for each; LteRanObserver turns them
 * into MeasurementReport events.
 *
 * Call it after LteHelper::InstallEnbDevice and before the simulation starts (the RRC hands
 * its configuration to the UEs as they connect). Each call adds a configuration.
 *
 * \param enbDev an LteEnbNetDevice; another kind of device stops the run
 * \param period the report interval; LTE allows only 120, 240, 480, 640, 1024, 2048, 5120,
 *        10240 ms and 1, 6, 12, 30, 60 min, and any other value stops the run
 * \return the measurement identities of the reports
 */
LtePeriodicReportIds ConfigurePeriodicMeasurementReports(Ptr<NetDevice> enbDev, Time period);

/**
 * \ingroup edge-llm
 * \param period a report interval
 * \return whether LTE allows it (see ConfigurePeriodicMeasurementReports)
 */
bool IsLteMeasurementReportPeriod(Time period);

/**
 * \ingroup edge-llm
 * \return the report intervals LTE allows, as text for messages: "120 ms, 240 ms, ..."
 */
std::string LteMeasurementReportPeriods();

} // namespace ns3

#endif // LTE_MEASUREMENT_REPORTS_H
