/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HELPER_H
#define EDGE_LLM_HELPER_H

#include "backhaul-helper.h"
#include "ran-stack.h"

#include "ns3/application-container.h"
#include "ns3/control-channel.h"
#include "ns3/data-rate.h"
#include "ns3/edge-llm-client.h"
#include "ns3/edge-llm-server.h"
#include "ns3/handover-coordinator.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/ran-observer.h"

#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Puts edge LLM serving on a radio access network: servers on base stations, clients
 * on UEs, the uplink routes, the backhaul links, and the RAN observer that drives Detour.
 *
 * Everything RAN-specific comes from the RanStack given to InstallServers. Call in this order,
 * after the RAN devices, X2 and the UEs' IP addresses exist:
 * InstallServers, InstallBackhaul (or InstallBackhaulLine), InstallClients, InstallObserver.
 * The helper keeps its servers by cell, so it must live as long as the simulation that
 * uses them; the observer's callbacks hold a reference to it.
 */
class EdgeLlmHelper : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    EdgeLlmHelper();
    ~EdgeLlmHelper() override;

    /**
     * \param name an attribute of ns3::EdgeLlmServer
     * \param value its value for every server installed afterwards
     */
    void SetServerAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \param name an attribute of ns3::LlmEngine
     * \param value its value for every engine made afterwards
     */
    void SetEngineAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \param name an attribute of ns3::EdgeLlmClient
     * \param value its value for every client installed afterwards
     */
    void SetClientAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \param name an attribute of ns3::HandoverCoordinator (Batching, PlannedBackhaulRate,
     *        KvBytesPerToken)
     * \param value its value for the coordinator InstallObserver makes
     */
    void SetCoordinatorAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Choose the handover scheme by its name, e.g. "ctho", "pallas-full-copy" (see
     * handover-scheme-registry.h): its scheduler type, and for an alias the attributes it
     * sets. An unknown name stops the run, naming it and the registered ones. Scheduler
     * attributes set before are dropped: set them afterwards (SetSchedulerAttribute).
     * \param scheme a scheme name
     */
    void SetScheme(const std::string& scheme);
    /**
     * \brief Choose the handover scheduler by its TypeId name, e.g. "ns3::CtHoScheduler",
     * "ns3::TokenHandoverScheduler", "ns3::CacheHandoverScheduler", "ns3::DetourScheduler",
     * or any other registered subclass. An unknown name stops the run, naming it and the
     * registered ones. Attributes set before are kept only if the new type has them.
     * \param typeName a subclass of ns3::HandoverScheduler
     */
    void SetSchedulerType(const std::string& typeName);
    /**
     * \param name an attribute of the scheduler type chosen with SetSchedulerType (call
     *        that first); an unknown name or a bad value stops the run with ns-3's message
     * \param value its value for the scheduler InstallObserver makes
     */
    void SetSchedulerAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \param name an attribute of the KV-transfer policy type chosen with
     *        SetKvTransferPolicyType (call that first), e.g. "SlotDuration"
     * \param value its value for the policy of every KV-transfer sender installed afterwards
     */
    void SetKvTransferPolicyAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Choose how each KV-transfer sender orders the sessions it sends, by TypeId name
     * ("ns3::EdfKvTransferPolicy" by default: the schedule that attains ctHO's transfer delay;
     * or "ns3::FifoKvTransferPolicy", ...). An unknown name stops the run, naming it.
     * \param typeName a subclass of ns3::KvTransferPolicy
     */
    void SetKvTransferPolicyType(const std::string& typeName);
    /**
     * \brief Give a scheduler that budgets the backhaul per slot (ImpactHO's, whose
     * GetSlotDuration is > 0) the per-slot KV-transfer policy that spends its budgets:
     * ns3::SlotBudgetKvTransferPolicy with the scheduler's slot. Call it after the
     * scheduler's type and attributes are set; with any other scheduler it changes nothing.
     * \return the scheduler's slot, zero for a scheduler without slots
     */
    Time MatchKvTransferPolicyToScheduler();

    /**
     * \brief A server on each base station, each with its own engine, injecting into its own
     * cell through the stack's local breakout, and reachable from the UEs through the core
     * (the stack's uplink routes); and beside it a KvTransferApplication, whose endpoints move
     * KV caches over the backhaul.
     * \param stack the RAN stack of the network; kept for InstallClients and InstallObserver
     * \param enbNodes the base-station nodes
     * \param enbDevices their RAN devices, in the same order
     * \return the servers, in the same order
     */
    ApplicationContainer InstallServers(Ptr<RanStack> stack,
                                        const NodeContainer& enbNodes,
                                        const NetDeviceContainer& enbDevices);

    /**
     * \brief A backhaul link between two eNBs with servers, relay peering and a KV-transfer
     * sender each way over it.
     * \param backhaul makes the link
     * \param enbA one eNB node with a server
     * \param enbB its neighbour
     * \return the link
     */
    BackhaulLink InstallBackhaul(Ptr<BackhaulHelper> backhaul, Ptr<Node> enbA, Ptr<Node> enbB);

    /**
     * \brief Relay peering and a KV-transfer sender each way between two base stations with
     * servers, over a backhaul path that already exists.
     * \param enbA one base-station node with a server
     * \param addressA the address A binds and B reaches A at
     * \param enbB another
     * \param addressB the address B binds and A reaches B at
     * \param rate the path's bottleneck rate
     */
    void InstallBackhaulPeering(Ptr<Node> enbA,
                                Ipv4Address addressA,
                                Ptr<Node> enbB,
                                Ipv4Address addressB,
                                DataRate rate);

    /**
     * \brief Give the control plane a controller node (HandoverCoordinator::PolicyAt
     * controller), and how it reaches one base station with a server; call once per base
     * station, before InstallObserver. Its ControlChannel is installed only when the policy
     * runs there.
     * \param controller the node (the same in every call)
     * \param enb the base station's node
     * \param enbAddress the address it binds and the controller reaches it at
     * \param controllerAddress the controller's address towards it
     */
    void AddControllerLink(Ptr<Node> controller,
                           Ptr<Node> enb,
                           Ipv4Address enbAddress,
                           Ipv4Address controllerAddress);

    /**
     * \brief Backhaul links between consecutive eNBs of a line.
     * \param backhaul makes the links
     * \param line eNB nodes with servers, in line order
     * \return the links
     */
    std::vector<BackhaulLink> InstallBackhaulLine(Ptr<BackhaulHelper> backhaul,
                                                  const NodeContainer& line);

    /**
     * \brief A client on each UE, opening its session at the server of the given cell.
     * \param ueDevices the UEs' RAN devices (their IMSIs name the sessions)
     * \param firstCells the cell each UE attaches to, one per UE
     * \return the clients, in the same order
     */
    ApplicationContainer InstallClients(const NetDeviceContainer& ueDevices,
                                        const std::vector<uint16_t>& firstCells);

    /**
     * \brief The RAN observer of the eNBs, and the HandoverCoordinator that acts on its events
     * with the scheduler chosen by SetScheme or SetSchedulerType (ctHO by default).
     *
     * Call after the servers, the backhaul links and the clients are installed. The observer
     * also watches the clients' UEs for radio link failures, and the coordinator reads the
     * clients' delivered tokens when it closes a session.
     * \param enbDevices the base stations' RAN devices
     * \return the observer, whose trace sources report every RAN event
     */
    Ptr<RanObserver> InstallObserver(const NetDeviceContainer& enbDevices);

    /// \return the coordinator InstallObserver made, or null before
    Ptr<HandoverCoordinator> GetCoordinator() const;

    /**
     * \param cellId a cell that InstallServers gave a server
     * \return the KV-transfer application beside the cell's server; stops the run if there
     *         is none
     */
    Ptr<KvTransferApplication> GetKvTransfer(uint16_t cellId) const;

    /**
     * \param cellId a cell that InstallServers gave a server
     * \return the cell's server; stops the run if there is none
     */
    Ptr<EdgeLlmServer> GetServer(uint16_t cellId) const;

    /// \return every server, by cell
    const std::map<uint16_t, Ptr<EdgeLlmServer>>& GetServers() const;

    /// \return every KV-transfer application, by cell
    const std::map<uint16_t, Ptr<KvTransferApplication>>& GetKvTransfers() const;

    /// \return the control plane's ends, by cell (the controller's under
    /// ControlMessage::CONTROLLER): none unless the coordinator's ControlPlane is network
    const std::map<uint16_t, Ptr<ControlChannel>>& GetControlChannels() const;

    /// \return every KV-transfer sender InstallBackhaul made, both ways of each link, in order
    std::vector<Ptr<KvTransferSender>> GetKvSenders() const;

    /// \return the RAN stack given to InstallServers, or null before
    Ptr<RanStack> GetRanStack() const;

  protected:
    /// Drops the servers, KV applications, links, observer, coordinator and RAN stack.
    void DoDispose() override;

  private:
    /// A ControlChannel on every server's node, peered over the backhaul's links, given to
    /// the coordinator.
    void InstallControlPlane();

    /// A backhaul link between two servers.
    struct Link
    {
        uint16_t cellA;             //!< one end
        Ptr<KvTransferSender> aToB; //!< KV sender from A
        uint16_t cellB;             //!< the other end
        Ptr<KvTransferSender> bToA; //!< KV sender from B
        DataRate rate;              //!< the link's rate
        Ipv4Address addressA;       //!< A's address towards B
        Ipv4Address addressB;       //!< B's address towards A
    };

    ObjectFactory m_serverFactory;                           //!< servers
    ObjectFactory m_engineFactory;                           //!< engines
    ObjectFactory m_clientFactory;                           //!< clients
    ObjectFactory m_coordinatorFactory;                      //!< the coordinator
    ObjectFactory m_schedulerFactory;                        //!< its scheduler
    ObjectFactory m_kvPolicyFactory;                         //!< KV senders' policy
    std::map<uint16_t, Ptr<EdgeLlmServer>> m_servers;        //!< by cell
    std::map<uint16_t, Ptr<KvTransferApplication>> m_kvApps; //!< by cell
    std::map<uint16_t, Ptr<ControlChannel>> m_channels;      //!< by cell (ControlPlane network)
    Ptr<Node> m_controller;                                  //!< AddControllerLink's node
    /// AddControllerLink's: the base station's node, its address, the controller's
    std::vector<std::tuple<Ptr<Node>, Ipv4Address, Ipv4Address>> m_controllerLinks;
    std::map<uint32_t, Ptr<EdgeLlmServer>> m_byNode; //!< by node id
    std::vector<Link> m_links;                       //!< backhaul links
    std::map<uint64_t, uint16_t> m_firstCells;       //!< by IMSI
    NetDeviceContainer m_ueDevices;                  //!< UEs with clients
    /// Clients by IMSI, shared with the coordinator's probe, which may outlive this helper
    std::shared_ptr<std::map<uint64_t, Ptr<EdgeLlmClient>>> m_clients{
        std::make_shared<std::map<uint64_t, Ptr<EdgeLlmClient>>>()};
    Ptr<RanObserver> m_observer;            //!< installed observer
    Ptr<HandoverCoordinator> m_coordinator; //!< installed coordinator
    Ptr<RanStack> m_stack;                  //!< the RAN
};

} // namespace ns3

#endif /* EDGE_LLM_HELPER_H */
