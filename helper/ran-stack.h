/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_RAN_STACK_H
#define EDGE_LLM_RAN_STACK_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ran-downlink.h"
#include "ns3/ran-observer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief What hands UEs over in a network.
 */
enum class HandoverTrigger : uint8_t
{
    NONE = 0, //!< nothing: every UE stays on its first cell
    A3,       //!< the RAN's A3 algorithm (neighbour better than serving by a hysteresis)
    A2A4,     //!< the RAN's A2-A4 algorithm (serving worse than a threshold, neighbour better)
    PLANNED,  //!< requested by the scenario when a UE crosses into another cell's area
};

/**
 * \param name a trigger's name: "none", "a3", "a2a4" or "planned"
 * \param [out] trigger the trigger named
 * \return false if the name is none of them
 */
bool ParseHandoverTrigger(const std::string& name, HandoverTrigger* trigger);

/**
 * \param trigger a trigger
 * \return its name, as ParseHandoverTrigger reads it
 */
std::string ToString(HandoverTrigger trigger);

/// The exponent of 3GPP TR 36.814's macro-cell loss (Table A.2.1.1.2-3, 2 GHz):
/// 128.1 + 37.6 log10(R / km) dB is a log-distance loss of exponent 3.76 ...
constexpr double MACRO_LOSS_EXPONENT = 3.76;
/// ... and 15.3 dB at 1 m: the "log-distance" path loss of both stacks.
constexpr double MACRO_LOSS_AT_1M_DB = 128.1 - 37.6 * 3.0;

class RanStack;

/**
 * \param name a RAN's name: "lte" or "nr"
 * \return whether this build of the module has that RAN's stack (NR needs 5G-LENA's nr module
 *         in the ns-3 tree the module was built in)
 */
bool IsRanStackAvailable(const std::string& name);

/**
 * \brief Make the stack of a RAN by name; an unknown name, or a RAN this build lacks, stops
 * the run with a message that says which names are allowed.
 * \param name "lte" (LteRanStack) or "nr" (NrRanStack)
 * \param field what to name in the message, e.g. "--ran"
 * \return the stack, made by its TypeId so that the caller names no RAN's class
 */
Ptr<RanStack> CreateRanStack(const std::string& name, const std::string& field = "ran");

/**
 * \ingroup edge-llm
 * \brief Everything the module needs from a radio access network, behind one interface.
 *
 * A RAN stack makes the core network, the base-station and UE devices, attaches UEs and
 * connects neighbouring base stations (X2). It gives the module its RAN-specific parts: the
 * local breakout that puts a server's downlink into a cell, the RanObserver that reports
 * handovers, the IMSI of a UE device, and the uplink routes from the UEs to a server on a base
 * station. It requests handovers (retrying while the UE is not ready) and installs the RAN's
 * own handover algorithm for a trigger. LteRanStack is ns-3's LTE; nothing outside a stack
 * names the classes of its RAN.
 *
 * Call in this order: SetTrigger, InstallCells, InstallUes, AddX2 for each neighbour pair,
 * InstallUeInternet, Attach each UE; then InstallUplinkRoutes (after every X2 link, since it
 * adds devices to the base-station nodes) and the module's parts.
 */
class RanStack : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RanStack();
    ~RanStack() override;

    /// \return the stack's name, e.g. "lte"
    virtual std::string GetName() const = 0;

    /**
     * \brief Choose what hands UEs over; call before InstallCells.
     * \param trigger A3 and A2A4 install the RAN's own algorithm; PLANNED and NONE install
     *        none, and switch off radio-link-failure detection on the UEs, so that the radio
     *        degrades with distance instead of the UE dropping off
     */
    void SetTrigger(HandoverTrigger trigger);

    /// \return the trigger set, NONE by default
    HandoverTrigger GetTrigger() const;

    /**
     * \brief Make a base station on each node (with mobility installed); a stack records
     * them with AddCells.
     * \param nodes the base-station nodes
     * \return their RAN devices, in the same order
     */
    virtual NetDeviceContainer InstallCells(const NodeContainer& nodes) = 0;

    /**
     * \brief Make a UE device on each node (with mobility installed).
     * \param nodes the UE nodes
     * \return their RAN devices, in the same order
     */
    virtual NetDeviceContainer InstallUes(const NodeContainer& nodes) = 0;

    /**
     * \brief Connect two base stations for handover signalling.
     * \param a one base-station node
     * \param b its neighbour
     */
    virtual void AddX2(Ptr<Node> a, Ptr<Node> b) = 0;

    /**
     * \brief Give the UEs an Internet stack, their addresses in the core network and a
     * default route through it.
     * \param nodes the UE nodes
     * \param devices their RAN devices, in the same order
     */
    void InstallUeInternet(const NodeContainer& nodes, const NetDeviceContainer& devices);

    /**
     * \brief Attach a UE to a cell.
     * \param ue a UE device
     * \param cell a base-station device
     */
    virtual void Attach(Ptr<NetDevice> ue, Ptr<NetDevice> cell) = 0;

    /**
     * \brief Take a UE's radio off the air, or put it back on.
     *
     * Off the air, the UE's receivers leave the RAN's channels: it hears no base station, so
     * it measures, decodes and reports nothing, and no transmission is delivered to it. That
     * is most of what a UE costs a run. Its PHY's own subframe clock still runs (the RAN
     * models give no way to stop it), and a cell it is connected to keeps its context. Take a
     * UE off the air before it attaches, or when it is connected and has no traffic left.
     * A UE puts itself back on whenever it synchronises with a cell: at its attach, and at a
     * handover its cell had decided before it went off (an LTE UE is on no channel before its
     * first attach).
     * \param ue a UE device of this stack; another stops the run
     * \param on true: on the air, as installed
     */
    virtual void SetUeOnAir(Ptr<NetDevice> ue, bool on) = 0;

    /**
     * \param ue a UE device of this stack; another stops the run
     * \return whether it is connected normally to a cell, at both ends: attached, and in no
     *         handover, nor one its cell is preparing
     */
    bool IsUeConnected(Ptr<NetDevice> ue) const;

    /**
     * \brief Give each base-station node an address the UEs reach through the core, for the
     * uplink of a server on it: a point-to-point link of UplinkLinkDelay to the core's gateway
     * (CoreUplinkRoutes).
     * \param nodes the base-station nodes, each with its cell of this stack as device 0 and
     *        its X2 links installed; another stops the run
     * \return per node, in the same order, the interface whose address a server binds
     */
    Ipv4InterfaceContainer InstallUplinkRoutes(const NodeContainer& nodes);

    /**
     * \param cell a base-station device of this stack
     * \return the local breakout into its cell, bound to it
     */
    virtual Ptr<RanDownlink> CreateLocalBreakout(Ptr<NetDevice> cell) = 0;

    /// \return a new observer of this stack's base stations (give them to its Install)
    virtual Ptr<RanObserver> CreateObserver() = 0;

    /**
     * \param cell a base-station device of this stack; another stops the run
     * \return its cell id
     */
    virtual uint16_t GetCellId(Ptr<NetDevice> cell) const = 0;

    /**
     * \param ue a UE device of this stack; another stops the run
     * \return its IMSI
     */
    virtual uint64_t GetImsi(Ptr<NetDevice> ue) const = 0;

    /**
     * \brief Fix the random streams of the devices given.
     * \param devices base-station or UE devices of this stack
     * \param stream the first stream number
     * \return the number of streams used
     */
    virtual int64_t AssignStreams(const NetDeviceContainer& devices, int64_t stream) = 0;

    /// What became of a requested handover.
    enum RequestOutcome : uint8_t
    {
        REQUESTED = 0,    //!< the source was asked to hand the UE over
        SERVED_ELSEWHERE, //!< the UE was connected to another cell by then: not requested
        NOT_READY,        //!< the UE was not ready before giving up: not requested
    };

    /**
     * \brief Ask the source to hand a UE over to a target, now or as soon as the UE is ready.
     *
     * A RAN refuses (or crashes on) a handover request for a UE that is still attaching or
     * in another handover, so while the UE is not ready the request is retried every
     * RequestRetry, up to giveUp. It is dropped at once if the UE is connected to another
     * cell. Each retry counts in GetRequestRetries(), each drop in GetRequestsDropped().
     *
     * \param ue the UE device
     * \param source the base-station device it should leave
     * \param targetCellId the cell it should go to (an X2 neighbour of the source)
     * \param giveUp the last time a request may be made
     * \param done called once with the outcome; may be null
     */
    void RequestHandover(
        Ptr<NetDevice> ue,
        Ptr<NetDevice> source,
        uint16_t targetCellId,
        Time giveUp,
        Callback<void, RequestOutcome> done = MakeNullCallback<void, RequestOutcome>());

    /// \return how many times a requested handover was put off, its UE not being ready
    uint32_t GetRequestRetries() const;

    /// \return requested handovers not made: their UE was served elsewhere, or not ready
    uint32_t GetRequestsDropped() const;

  protected:
    /// Cancels the handover requests still waiting for their retry.
    void DoDispose() override;

    /// How a stack's documentation of the attributes that every stack has names its RAN.
    struct SharedAttributeText
    {
        std::string typeName; //!< the stack's TypeId name, e.g. "ns3::LteRanStack"
        std::string cell;     //!< its base station, e.g. "eNB"
        std::string core;     //!< where its S1-U link goes, e.g. "the SGW"
        std::string a3;       //!< what A3Hysteresis and A3TimeToTrigger set
        std::string spec;     //!< the RRC specification of their ranges, e.g. "TS 36.331"
    };

    /**
     * \brief Add the attributes every stack has, with its own name, to its TypeId: the core's
     * S1uLinkDelay, X2LinkDelay and UplinkLinkDelay, and the a3 trigger's A3Hysteresis and
     * A3TimeToTrigger. They set the protected members below.
     * \param tid the stack's TypeId, being made
     * \param text how to name the stack's RAN in their documentation and errors
     * \return tid
     */
    static TypeId AddSharedAttributes(TypeId tid, const SharedAttributeText& text);

    /// \return the core's gateway node, which InstallUplinkRoutes links each cell's node to
    virtual Ptr<Node> GetPgwNode() = 0;

    Time m_s1uDelay;          //!< S1uLinkDelay
    Time m_x2Delay;           //!< X2LinkDelay
    Time m_uplinkDelay;       //!< UplinkLinkDelay
    double m_a3Hysteresis{0}; //!< A3Hysteresis, dB
    Time m_a3TimeToTrigger;   //!< A3TimeToTrigger

    /// A UE's readiness for a handover out of a cell.
    enum Readiness : uint8_t
    {
        READY = 0, //!< connected normally to the source, at both ends
        NOT_YET,   //!< attaching, or in another handover
        ELSEWHERE, //!< connected normally to another cell
    };

    /**
     * \param ue a UE device
     * \param source a base-station device
     * \return whether the UE can be handed over out of source now: its RRC connected
     *         normally to source, and source's context of it too
     */
    Readiness GetReadiness(Ptr<NetDevice> ue, Ptr<NetDevice> source) const;

    /// What a UE's RRC says of its connection.
    struct UeRrcState
    {
        uint16_t cellId{0};            //!< the cell it is connected to, or camps on
        uint16_t rnti{0};              //!< its RNTI there
        bool connectedNormally{false}; //!< in RRC CONNECTED_NORMALLY
    };

    /**
     * \param ue a UE device of this stack; another stops the run
     * \return its RRC's state
     */
    virtual UeRrcState GetUeRrcState(Ptr<NetDevice> ue) const = 0;

    /**
     * \param cell a base-station device of this stack; another stops the run
     * \param rnti a UE's RNTI in that cell
     * \return whether the cell's RRC holds a context of the UE, connected normally
     */
    virtual bool IsContextConnected(Ptr<NetDevice> cell, uint16_t rnti) const = 0;

    /**
     * \brief Give the UEs their addresses in the core network (InstallUeInternet).
     * \param devices the UEs' RAN devices, with an Internet stack
     */
    virtual void AssignUeAddresses(const NetDeviceContainer& devices) = 0;

    /// \return the UEs' default gateway in the core network
    virtual Ipv4Address GetUeGateway() = 0;

    /**
     * \brief Apply a trigger (SetTrigger), before any base station is installed.
     * \param trigger the trigger
     */
    virtual void DoSetTrigger(HandoverTrigger trigger) = 0;

    /**
     * \brief Remember base stations made, for IsUeConnected and SetTrigger's check.
     * \param devices their devices
     */
    void AddCells(const NetDeviceContainer& devices);

    /// \return every base station made, in order
    const NetDeviceContainer& GetCells() const;

    /// \return whether the RAN's own algorithm hands UEs over (A3, A2A4), so that a UE
    ///         keeps its radio-link-failure detection
    bool IsRanTriggered() const;

    /**
     * \brief Make the source start the handover; the UE is READY.
     * \param ue the UE device
     * \param source the base-station device it leaves
     * \param targetCellId the cell it goes to
     */
    virtual void DoRequestHandover(Ptr<NetDevice> ue,
                                   Ptr<NetDevice> source,
                                   uint16_t targetCellId) = 0;

  private:
    /// A handover request waiting for its UE.
    struct Request
    {
        Ptr<NetDevice> ue;                   //!< the UE
        Ptr<NetDevice> source;               //!< the cell it leaves
        uint16_t target;                     //!< the cell it goes to
        Time giveUp;                         //!< no request after this
        Callback<void, RequestOutcome> done; //!< told the outcome
        EventId event;                       //!< the next attempt
    };

    /**
     * \brief Request, drop, or put off a request.
     * \param id the request, an index into m_requests
     */
    void TryRequest(std::size_t id);

    /**
     * \brief End a request.
     * \param id the request
     * \param outcome what became of it
     */
    void Finish(std::size_t id, RequestOutcome outcome);

    HandoverTrigger m_trigger{HandoverTrigger::NONE}; //!< SetTrigger
    NetDeviceContainer m_cells;                       //!< AddCells
    Time m_retry;                                     //!< RequestRetry
    std::vector<Request> m_requests;                  //!< every request made
    uint32_t m_retries{0};                            //!< requests put off, each time
    uint32_t m_dropped{0};                            //!< requests not made
};

} // namespace ns3

#endif /* EDGE_LLM_RAN_STACK_H */
