/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_NETWORK_H
#define EDGE_LLM_NETWORK_H

#include "backhaul-topology.h"
#include "cell-layout.h"
#include "edge-llm-helper.h"
#include "fault-config.h"
#include "ran-stack.h"
#include "ue-airtime.h"
#include "ue-trajectory.h"

#include "ns3/application-container.h"
#include "ns3/kv-transfer-receiver.h"
#include "ns3/kv-transfer-sender.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "ns3/vector.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A handover the "planned" trigger requests: a UE crossing into another cell's area.
 */
struct EdgeLlmPlannedHandover
{
    uint32_t ue;         //!< the UE's index in GetUeNodes() (a moving UE)
    uint64_t imsi;       //!< its IMSI
    Time time;           //!< when it crosses, and its handover is requested
    uint16_t sourceCell; //!< the cell it leaves
    uint16_t targetCell; //!< the cell it enters
};

/**
 * \ingroup edge-llm
 * \brief How one moving UE moves, and when its session opens.
 */
struct EdgeLlmUeSpec
{
    Vector start;                  //!< where it stands until moveStart, m
    Vector velocity;               //!< m/s, from moveStart on, for ever
    Time moveStart;                //!< when it starts moving (>= 0)
    std::vector<UeWaypoint> route; //!< if not empty, the UE follows these waypoints instead
    Time sessionStart{-1};         //!< when its session opens; negative: the network's stagger
};

/**
 * \ingroup edge-llm
 * \brief One network builder: a RAN stack, a cell layout, a backhaul topology, moving UEs and
 * a trigger, with the edge LLM serving parts on top.
 *
 * Build() places a base station at each position of the CellLayout and connects its neighbour
 * pairs with X2 and with the BackhaulTopology. Each moving UE (AddUe) follows its spec: it
 * stands at its start, then drives at constant velocity (a ConstantVelocityMobilityModel), or
 * follows its route (a WaypointMobilityModel). ResidentUesPerCell more UEs stand
 * ResidentOffset from each cell (along y), attached to it. Every UE attaches to the cell
 * nearest its start and opens one session there at its own sessionStart, or at SessionStart
 * + j SessionStagger (j its index; residents continue after the moving UEs).
 *
 * Trigger "a3" and "a2a4" use the RAN stack's algorithms; "none" hands no one over;
 * "planned" asks for a handover whenever a moving UE's nearest cell changes (see
 * GetPlannedHandovers()): from its trajectory, exactly, before the run starts. A UE that is
 * not ready at that time is asked again by the stack (RanStack::RequestHandover) until
 * PlannedPatience has passed or its next planned handover is due; a crossing into a cell
 * that is not an X2 neighbour of the source is not requested, and counted as dropped.
 *
 * With UeAirtime "session" a UE is on the air only while its session matters (UeAirtime): it
 * attaches AttachLead before its session opens, to the cell nearest it then, and goes off the
 * air LeaveDelay after the session ends. A planned handover of a UE off the air is not
 * requested; GetPlannedOffAir() counts them.
 *
 * With InstallServing false the network has the same radio, mobility and handovers with no
 * servers, backhaul, clients or observer.
 *
 * SetFaults gives the run backhaul faults, a stall policy and a GPU load (FaultConfig): Build
 * puts them on every link of the topology (GetBackhaulLinks), on the coordinator and on every
 * cell's engine. A network without SetFaults leaves all three as their attributes say.
 *
 * Set the parts (SetRanStack, SetCellLayout, SetBackhaulTopology) and their attributes, and
 * the helpers' attributes (GetEdgeLlmHelper), before Build(); read the parts after it.
 */
class EdgeLlmNetwork : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /**
     * TracedCallback signature of AirChange.
     * \param imsi the UE
     * \param onAir true: it came on the air; false: it went off
     */
    typedef void (*AirChangeCallback)(uint64_t imsi, bool onAir);

    /// An LTE stack, a line of 3 cells, a link per neighbour pair, and no UEs yet.
    EdgeLlmNetwork();
    ~EdgeLlmNetwork() override;

    /// \param stack the RAN (before Build)
    void SetRanStack(Ptr<RanStack> stack);
    /// \param layout where the cells stand (before Build)
    void SetCellLayout(Ptr<CellLayout> layout);
    /// \param topology how the cells' servers are connected (before Build)
    void SetBackhaulTopology(Ptr<BackhaulTopology> topology);

    /**
     * \brief Add a moving UE (before Build).
     * \param spec how it moves; a negative moveStart, a non-finite position or velocity, or
     *        a route with waypoints out of time order stop the run
     */
    void AddUe(const EdgeLlmUeSpec& spec);

    /**
     * \brief Inject faults into the run (before Build); needs InstallServing.
     * \param faults the faults and the policies that meet them; one that fails
     *        FaultConfig::Check() stops the run with its message
     */
    void SetFaults(const FaultConfig& faults);

    /// Make the network and install everything. Call once.
    void Build();

    /**
     * \brief Fix the random streams of the RAN devices, after Build(); see
     * EdgeLlmLineScenario::AssignStreams.
     * \param stream the first stream number to use
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the planned handovers, by UE and then by time; empty for other triggers
    const std::vector<EdgeLlmPlannedHandover>& GetPlannedHandovers() const;
    /// \return how many times a planned handover was put off, its UE not being ready
    uint32_t GetPlannedRetries() const;
    /// \return planned handovers not requested (UE served elsewhere, not ready, or no X2)
    uint32_t GetPlannedDropped() const;

    /// \return planned handovers not requested because their UE was off the air (UeAirtime)
    uint32_t GetPlannedOffAir() const;

    /**
     * \return what keeps the UEs on the air only while their sessions matter, after Build()
     *         with UeAirtime "session"; else null
     */
    const UeAirtime* GetUeAirtime() const;

    /// \return the moving UEs; the first ones in GetUeNodes()
    uint32_t GetMovingUeCount() const;

    /// \return the RAN stack
    Ptr<RanStack> GetRanStack() const;
    /// \return the cell layout
    Ptr<CellLayout> GetCellLayout() const;
    /// \return the backhaul topology
    Ptr<BackhaulTopology> GetBackhaulTopology() const;
    /// \return the edge LLM helper
    Ptr<EdgeLlmHelper> GetEdgeLlmHelper() const;

    /// \return the base-station nodes, in layout order
    const NodeContainer& GetCellNodes() const;
    /// \return the UE nodes: the moving ones, then the residents cell by cell
    const NodeContainer& GetUeNodes() const;
    /// \return the base-station devices, in layout order
    const NetDeviceContainer& GetCellDevices() const;
    /// \return the UE devices, in the order of GetUeNodes()
    const NetDeviceContainer& GetUeDevices() const;
    /// \return the cell id of each base station, in layout order
    const std::vector<uint16_t>& GetCellIds() const;
    /// \return the servers, in layout order
    const ApplicationContainer& GetServers() const;
    /// \return the clients, one per UE, in the order of GetUeNodes()
    const ApplicationContainer& GetClients() const;
    /// \return the backhaul paths, one per neighbour pair
    const std::vector<BackhaulPath>& GetBackhaulPaths() const;
    /// \return the RAN observer, or null without serving
    Ptr<RanObserver> GetObserver() const;
    /**
     * \brief Every point-to-point link of the backhaul topology, after Build().
     *
     * A path may cross several links (a star's access links and its shared uplink); faults
     * act on links, so these are what they are put on.
     * \return the links, by segment id; empty without serving
     */
    std::vector<BackhaulLink> GetBackhaulLinks() const;
    /// \return what the faults of SetFaults did so far; all zero without them
    FaultCounts GetFaultCounts() const;

    /**
     * \param imsi a UE
     * \return its KV counters summed over every sender of every backhaul path
     */
    KvTransferSenderCounters GetKvSent(uint64_t imsi) const;
    /**
     * \param imsi a UE
     * \return its KV counters summed over every cell's receiver
     */
    KvTransferReceiverCounters GetKvReceived(uint64_t imsi) const;
    /// \return every KV-transfer stream byte sent, over every sender
    uint64_t GetKvStreamBytesSent() const;
    /// \return every KV-transfer stream byte read, over every receiver
    uint64_t GetKvStreamBytesReceived() const;

  protected:
    /// Disposes of the RAN stack and drops the layout, topology, edge helper and observer.
    void DoDispose() override;

  private:
    /// Find the planned handovers and schedule their requests.
    void PlanHandovers();

    /**
     * \brief Ask the stack for one planned handover.
     * \param h an index into m_planned
     */
    void RequestPlanned(std::size_t h);

    /**
     * \brief A planned handover's request ended.
     * \param outcome what became of it
     */
    void PlannedDone(RanStack::RequestOutcome outcome);

    /**
     * \param j a UE's index in GetUeNodes()
     * \return when its session opens
     */
    Time SessionStartOf(uint32_t j) const;

    /**
     * \param j a UE's index in GetUeNodes()
     * \param t a time
     * \return the layout index of the cell nearest it at t
     */
    uint32_t NearestCellAt(uint32_t j, Time t) const;

    std::string m_trigger;            //!< Trigger
    Time m_sessionStart;              //!< SessionStart
    Time m_sessionStagger;            //!< SessionStagger
    uint32_t m_residentsPerCell;      //!< ResidentUesPerCell
    double m_residentOffset;          //!< ResidentOffset, m
    Time m_patience;                  //!< PlannedPatience
    bool m_installServing;            //!< InstallServing
    std::string m_ueAirtime;          //!< UeAirtime
    Time m_attachLead;                //!< AttachLead
    Time m_leaveDelay;                //!< LeaveDelay
    bool m_built{false};              //!< Build was called
    std::vector<EdgeLlmUeSpec> m_ues; //!< AddUe

    Ptr<RanStack> m_stack;                         //!< RAN
    Ptr<CellLayout> m_layout;                      //!< cells
    Ptr<BackhaulTopology> m_topology;              //!< backhaul
    Ptr<EdgeLlmHelper> m_edge;                     //!< servers and clients
    NodeContainer m_cellNodes;                     //!< base stations
    NodeContainer m_ueNodes;                       //!< UEs
    NetDeviceContainer m_cellDevices;              //!< their devices
    NetDeviceContainer m_ueDevices;                //!< UE devices
    std::vector<uint16_t> m_cellIds;               //!< by layout index
    std::vector<uint32_t> m_firstCell;             //!< per UE, its first cell's layout index
    ApplicationContainer m_servers;                //!< servers
    ApplicationContainer m_clients;                //!< clients
    std::vector<BackhaulPath> m_paths;             //!< backhaul
    Ptr<RanObserver> m_observer;                   //!< observer
    std::vector<EdgeLlmPlannedHandover> m_planned; //!< planned handovers
    std::vector<Time> m_giveUp;                    //!< per planned handover
    std::vector<uint32_t> m_plannedSource;         //!< per planned handover, layout index
    uint32_t m_plannedDropped{0};                  //!< planned handovers not requested
    bool m_hasFaults{false};                       //!< SetFaults was called
    FaultConfig m_faultConfig;                     //!< SetFaults
    std::unique_ptr<FaultInjection> m_faults;      //!< installed by Build, if SetFaults
    std::unique_ptr<UeAirtime> m_airtime;          //!< made by Build, if UeAirtime is session
    uint32_t m_plannedOffAir{0};                   //!< planned handovers of UEs off the air
    TracedCallback<uint64_t, bool> m_airChange;    //!< AirChange
};

} // namespace ns3

#endif /* EDGE_LLM_NETWORK_H */
