/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_RRC_RAN_OBSERVER_H
#define EDGE_LLM_RRC_RAN_OBSERVER_H

#include "ran-observer.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/object-map.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <map>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A measurement report of an RRC in LTE's form (measResults with measResultPCell and
 * measResultListEutra, quantities as range indices), in dBm and dB.
 * \tparam Mapping the RAN's converter of range indices (RsrpRange2Dbm, RsrqRange2Db)
 * \tparam Results the RAN's MeasResults
 * \param imsi the reporting UE
 * \param cellId the serving cell, which received the report
 * \param results the report's results
 * \return the report; neighbours are named by their physical cell identity, which ns-3 and
 *         5G-LENA set to the cell ID
 */
template <typename Mapping, typename Results>
RanMeasurementReport
ConvertMeasurementReport(uint64_t imsi, uint16_t cellId, const Results& results)
{
    auto convert = [](uint16_t cell, bool hasRsrp, uint8_t rsrp, bool hasRsrq, uint8_t rsrq) {
        RanCellMeasurement m;
        m.cellId = cell;
        m.hasRsrp = hasRsrp;
        m.rsrpDbm = hasRsrp ? Mapping::RsrpRange2Dbm(rsrp) : 0.0;
        m.hasRsrq = hasRsrq;
        m.rsrqDb = hasRsrq ? Mapping::RsrqRange2Db(rsrq) : 0.0;
        return m;
    };
    RanMeasurementReport r;
    r.imsi = imsi;
    r.servingCellId = cellId;
    r.measId = results.measId;
    // The primary cell's quantities are mandatory in a report.
    r.serving = convert(cellId,
                        true,
                        results.measResultPCell.rsrpResult,
                        true,
                        results.measResultPCell.rsrqResult);
    if (results.haveMeasResultNeighCells)
    {
        for (const auto& n : results.measResultListEutra)
        {
            r.neighbours.push_back(convert(n.physCellId,
                                           n.haveRsrpResult,
                                           n.rsrpResult,
                                           n.haveRsrqResult,
                                           n.rsrqResult));
        }
    }
    return r;
}

/**
 * \ingroup edge-llm
 * \brief A RanObserver of a base-station RRC with the trace sources of ns-3's LTE, which
 * 5G-LENA's NR RRC repeats under the same names and signatures.
 *
 * Maps the RRC's trace sources to the RanObserver events:
 * - `ConnectionReconfiguration (imsi, cellId, rnti)` to UeReady. Not `ConnectionEstablished`:
 *   that fires while the UE is still attaching (ATTACH_REQUEST), when a downlink packet
 *   stops the run.
 * - `HandoverStart (imsi, cellId, rnti, targetCellId)` (at the source, once the target has
 *   acknowledged) to HandoverStarted.
 * - `HandoverEndOk (imsi, cellId, rnti)` (at the target, after the path switch) to
 *   HandoverDone, followed by UeReady in the target.
 * - `NotifyConnectionRelease (imsi, cellId, rnti)`: forgets the serving cell if it is that
 *   cell.
 * - `HandoverFailureNoPreamble`, `HandoverFailureMaxRach`, `HandoverFailureLeaving`,
 *   `HandoverFailureJoining`, which pass `(imsi, rnti, cellId)` (another order), to
 *   HandoverFailed.
 * - A UE context's `StateTransition (imsi, cellId, rnti, oldState, newState)` from
 *   HANDOVER_PREPARATION to CONNECTED_NORMALLY to HandoverRefused. No trace fires when a
 *   target refuses a handover request (`AdmitHandoverRequest` false, or no SRS resource
 *   left); the source's context takes that transition on the target's HANDOVER PREPARATION
 *   FAILURE and on nothing else (an admitted handover goes on to HANDOVER_LEAVING). The
 *   contexts are watched as the RRC creates them (`NewUeContext`). A refusal's target cell is
 *   read from the X2 HANDOVER CANCEL message the context builds (BuildHoCancelMsg, which only
 *   fills in a structure and sends nothing).
 * - A data bearer's RLC `TxDrop` to RadioDrop.
 * A subclass casts the devices and converts measurement reports, whose types differ.
 * It connects to the RRC objects of the given devices without a context, not through
 * `/NodeList/...` paths, so that several simulations in one process (tests) do not hear each
 * other's base stations.
 *
 * \tparam Rrc the base station's RRC class
 * \tparam Manager its UE context class
 */
template <typename Rrc, typename Manager>
class RrcRanObserver : public RanObserver
{
  public:
    /// A UE context's RRC state.
    using State = typename Manager::State;

    /**
     * \brief Connect to the RRC of each base-station device; devices already observed are
     * skipped.
     * \param devs base-station devices of the subclass's RAN; another kind stops the run
     */
    void Install(const NetDeviceContainer& devs) override
    {
        if (!m_disposeScheduled)
        {
            // The RRCs' callbacks hold this observer and it holds the RRCs: Simulator::Destroy
            // breaks that cycle by disposing the observer, or neither would ever be freed.
            Simulator::ScheduleDestroy(&Object::Dispose, Ptr<Object>(this));
            m_disposeScheduled = true;
        }
        for (auto it = devs.Begin(); it != devs.End(); ++it)
        {
            Ptr<Rrc> rrc = RrcOf(*it);
            NS_ABORT_MSG_UNLESS(rrc,
                                GetInstanceTypeId().GetName()
                                    << "::Install: device " << (*it)->GetIfIndex() << " of node "
                                    << (*it)->GetNode()->GetId() << " is a "
                                    << (*it)->GetInstanceTypeId().GetName()
                                    << ", not a base station of this RAN with its RRC");
            if (!m_observed.insert(PeekPointer(rrc)).second)
            {
                continue;
            }
            m_rrcByCell[CellOf(*it)] = rrc;
            // The callbacks hold a reference, so that an observer the script dropped cannot be
            // called after it is gone.
            Ptr<RrcRanObserver> self(this);
            Connect(rrc,
                    "ConnectionReconfiguration",
                    MakeCallback(&RrcRanObserver::ConnectionReconfigurationSink, self));
            Connect(rrc, "HandoverStart", MakeCallback(&RrcRanObserver::HandoverStartSink, self));
            Connect(rrc, "HandoverEndOk", MakeCallback(&RrcRanObserver::HandoverEndOkSink, self));
            Connect(rrc,
                    "NotifyConnectionRelease",
                    MakeCallback(&RrcRanObserver::ConnectionReleaseSink, self));
            Connect(rrc,
                    "HandoverFailureNoPreamble",
                    MakeCallback(&RrcRanObserver::HandoverFailureNoPreambleSink, self));
            Connect(rrc,
                    "HandoverFailureMaxRach",
                    MakeCallback(&RrcRanObserver::HandoverFailureMaxRachSink, self));
            Connect(rrc,
                    "HandoverFailureLeaving",
                    MakeCallback(&RrcRanObserver::HandoverFailureLeavingSink, self));
            Connect(rrc,
                    "HandoverFailureJoining",
                    MakeCallback(&RrcRanObserver::HandoverFailureJoiningSink, self));
            ConnectRanTraces(rrc);
            Rrc* raw = PeekPointer(rrc);
            Connect(rrc,
                    "NewUeContext",
                    Callback<void, uint16_t, uint16_t>(
                        [self, raw](uint16_t, uint16_t rnti) { self->WatchContext(raw, rnti); }));
            // Contexts made before this Install (an observer installed during the run).
            ObjectMapValue ues;
            rrc->GetAttribute("UeMap", ues);
            for (auto u = ues.Begin(); u != ues.End(); ++u)
            {
                Ptr<Manager> ue = DynamicCast<Manager>(u->second);
                if (ue)
                {
                    WatchContext(raw, ue->GetRnti());
                }
            }
        }
    }

    /**
     * \name Sinks of the RRC's trace sources, public so that the mapping can be tested
     * without provoking each event in a simulation.
     * @{
     */
    /**
     * \param imsi the UE
     * \param cellId the cell
     * \param rnti the UE's RNTI there
     */
    void ConnectionReconfigurationSink(uint64_t imsi, uint16_t cellId, uint16_t rnti)
    {
        (void)rnti;
        WatchBearers(cellId, imsi);
        NotifyUeReady(imsi, cellId);
    }

    /**
     * \param imsi the UE
     * \param cellId the source cell
     * \param rnti the UE's RNTI there
     * \param targetCellId the target cell
     */
    void HandoverStartSink(uint64_t imsi, uint16_t cellId, uint16_t rnti, uint16_t targetCellId)
    {
        (void)rnti;
        WatchBearers(targetCellId, imsi);
        NotifyHandoverStarted(imsi, cellId, targetCellId);
    }

    /**
     * \param imsi the UE
     * \param cellId the target cell
     * \param rnti the UE's RNTI there
     */
    void HandoverEndOkSink(uint64_t imsi, uint16_t cellId, uint16_t rnti)
    {
        (void)rnti;
        NotifyHandoverDone(imsi, cellId);
    }

    /**
     * \param imsi the UE
     * \param cellId the cell that released it
     * \param rnti the UE's RNTI there
     */
    void ConnectionReleaseSink(uint64_t imsi, uint16_t cellId, uint16_t rnti)
    {
        (void)rnti;
        NotifyUeReleased(imsi, cellId);
    }

    /**
     * \param imsi the UE
     * \param rnti its RNTI
     * \param cellId the reporting cell
     */
    void HandoverFailureNoPreambleSink(uint64_t imsi, uint16_t rnti, uint16_t cellId)
    {
        (void)rnti;
        NotifyHandoverFailed(imsi, cellId, NO_PREAMBLE);
    }

    /**
     * \param imsi the UE
     * \param rnti its RNTI
     * \param cellId the reporting cell
     */
    void HandoverFailureMaxRachSink(uint64_t imsi, uint16_t rnti, uint16_t cellId)
    {
        (void)rnti;
        NotifyHandoverFailed(imsi, cellId, MAX_RACH);
    }

    /**
     * \param imsi the UE
     * \param rnti its RNTI
     * \param cellId the reporting cell
     */
    void HandoverFailureLeavingSink(uint64_t imsi, uint16_t rnti, uint16_t cellId)
    {
        (void)rnti;
        NotifyHandoverFailed(imsi, cellId, LEAVING_TIMEOUT);
    }

    /**
     * \param imsi the UE
     * \param rnti its RNTI
     * \param cellId the reporting cell
     */
    void HandoverFailureJoiningSink(uint64_t imsi, uint16_t rnti, uint16_t cellId)
    {
        (void)rnti;
        NotifyHandoverFailed(imsi, cellId, JOINING_TIMEOUT);
    }

    /**
     * \param imsi the UE
     * \param cellId the cell of the context
     * \param rnti the UE's RNTI there
     * \param oldState the state left
     * \param newState the state entered
     */
    void UeStateTransitionSink(uint64_t imsi,
                               uint16_t cellId,
                               uint16_t rnti,
                               State oldState,
                               State newState)
    {
        if (oldState != Manager::HANDOVER_PREPARATION || newState != Manager::CONNECTED_NORMALLY)
        {
            return;
        }
        uint16_t target = 0;
        Ptr<Rrc> rrc = GetCellRrc(cellId);
        if (rrc && rrc->HasUeManager(rnti))
        {
            target = rrc->GetUeManager(rnti)->BuildHoCancelMsg().targetCellId;
        }
        NotifyHandoverRefused(imsi, cellId, target);
    }

    /** @} */

  protected:
    /**
     * \brief Let go of the RRCs, at Simulator::Destroy or when disposed earlier. What was
     * observed (serving cells, counters) stays readable.
     */
    void DoDispose() override
    {
        m_rrcByCell.clear();
        // Addresses of objects about to be freed, which a later simulation's may reuse.
        m_observed.clear();
        m_watchedRlc.clear();
        m_disposeScheduled = false;
        RanObserver::DoDispose();
    }

    /**
     * \param dev a device
     * \return its RRC if it is a base station of this RAN with one, else null
     */
    virtual Ptr<Rrc> RrcOf(Ptr<NetDevice> dev) const = 0;

    /**
     * \param dev a base-station device whose RrcOf is not null
     * \return its cell id
     */
    virtual uint16_t CellOf(Ptr<NetDevice> dev) const = 0;

    /**
     * \brief Connect the RRC's trace sources whose types are the RAN's own (measurement
     * reports), and any the subclass watches itself.
     * \param rrc a base station's RRC
     */
    virtual void ConnectRanTraces(Ptr<Rrc> rrc) = 0;

    /**
     * \param cellId a cell
     * \return the RRC of that observed cell, or null
     */
    Ptr<Rrc> GetCellRrc(uint16_t cellId) const
    {
        auto it = m_rrcByCell.find(cellId);
        return it == m_rrcByCell.end() ? nullptr : it->second;
    }

    /// \return the name of a data radio bearer's attribute that points at its RLC entity
    virtual std::string RlcAttribute() const = 0;

    /**
     * \brief Connect one trace source of an RRC, stopping the run if the name or signature is
     * wrong.
     * \param rrc the RRC
     * \param name the trace source
     * \param cb the sink
     */
    template <typename... Args>
    void Connect(Ptr<Rrc> rrc, const std::string& name, Callback<void, Args...> cb)
    {
        NS_ABORT_MSG_UNLESS(rrc->TraceConnectWithoutContext(name, cb),
                            GetInstanceTypeId().GetName()
                                << ": cannot connect to the RRC's " << name);
    }

  private:
    /**
     * \brief Connect to the state transitions of a UE context of a cell.
     * \param rrc the cell's RRC
     * \param rnti the context's RNTI
     */
    void WatchContext(Rrc* rrc, uint16_t rnti)
    {
        // A new context of an RNTI replaces the old one, and with it the old one's callbacks,
        // so each context is connected once.
        NS_ABORT_MSG_UNLESS(
            rrc->GetUeManager(rnti)->TraceConnectWithoutContext(
                "StateTransition",
                MakeCallback(&RrcRanObserver::UeStateTransitionSink, Ptr<RrcRanObserver>(this))),
            GetInstanceTypeId().GetName() << ": cannot connect to a UE context's StateTransition");
    }

    /**
     * \brief Connect to the RLC drops of a UE's data bearers in a cell. RLC entities are made
     * with the UE's context, so this runs when a context appears: at the reconfiguration
     * that makes a UE ready, and at the target when a handover starts.
     * \param cellId the cell
     * \param imsi the UE
     */
    void WatchBearers(uint16_t cellId, uint64_t imsi)
    {
        Ptr<Rrc> rrc = GetCellRrc(cellId);
        if (!rrc)
        {
            return;
        }
        ObjectMapValue ues;
        rrc->GetAttribute("UeMap", ues);
        for (auto u = ues.Begin(); u != ues.End(); ++u)
        {
            Ptr<Manager> ue = DynamicCast<Manager>(u->second);
            if (!ue || ue->GetImsi() != imsi)
            {
                continue;
            }
            ObjectMapValue bearers;
            ue->GetAttribute("DataRadioBearerMap", bearers);
            for (auto b = bearers.Begin(); b != bearers.End(); ++b)
            {
                PointerValue rlc;
                b->second->GetAttribute(RlcAttribute(), rlc);
                Ptr<Object> entity = rlc.Get<Object>();
                if (entity && m_watchedRlc.insert(PeekPointer(entity)).second)
                {
                    Ptr<RrcRanObserver> self(this);
                    entity->TraceConnectWithoutContext(
                        "TxDrop",
                        Callback<void, Ptr<const Packet>>([self, imsi, cellId](Ptr<const Packet>) {
                            self->NotifyRadioDrop(imsi, cellId);
                        }));
                }
            }
        }
    }

    /// RRC objects already connected, so that a second Install of a device is harmless.
    std::set<const Object*> m_observed;
    /// The RRC of each cell.
    std::map<uint16_t, Ptr<Rrc>> m_rrcByCell;
    /// RLC entities whose drops are counted already.
    std::set<const Object*> m_watchedRlc;
    /// Whether Simulator::Destroy will dispose this observer.
    bool m_disposeScheduled{false};
};

} // namespace ns3

#endif // EDGE_LLM_RRC_RAN_OBSERVER_H
