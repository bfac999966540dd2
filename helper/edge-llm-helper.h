/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HELPER_H
#define EDGE_LLM_HELPER_H

#include "backhaul-helper.h"

#include "ns3/application-container.h"
#include "ns3/edge-llm-server.h"
#include "ns3/epc-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/ran-observer.h"

#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Puts edge LLM serving on an LTE network: servers on eNBs, clients on UEs, the
 * uplink routes, the backhaul links, and the RAN observer that drives Detour.
 *
 * Call in this order, after the LTE devices, X2 and the UEs' IP addresses exist:
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
     * \brief A server on each eNB, each with its own engine, injecting into its own cell, and
     * reachable from the UEs through the core at the eNB's end of a new link to the PGW.
     * \param epc the EPC helper of the network
     * \param enbNodes the eNB nodes
     * \param enbDevices their LTE devices, in the same order
     * \return the servers, in the same order
     */
    ApplicationContainer InstallServers(Ptr<EpcHelper> epc,
                                        const NodeContainer& enbNodes,
                                        const NetDeviceContainer& enbDevices);

    /**
     * \brief A backhaul link between two eNBs with servers, and relay peering over it.
     * \param backhaul makes the link
     * \param enbA one eNB node with a server
     * \param enbB its neighbour
     * \return the link
     */
    BackhaulLink InstallBackhaul(Ptr<BackhaulHelper> backhaul, Ptr<Node> enbA, Ptr<Node> enbB);

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
     * \param ueDevices the UEs' LTE devices (their IMSIs name the sessions)
     * \param firstCells the cell each UE attaches to, one per UE
     * \return the clients, in the same order
     */
    ApplicationContainer InstallClients(const NetDeviceContainer& ueDevices,
                                        const std::vector<uint16_t>& firstCells);

    /**
     * \brief The RAN observer of the eNBs, wired to Detour.
     *
     * The helper keeps, per session, the cells its packets pass through, from the owner's to
     * the one that injects. When a handover starts, or the UE turns up in a cell by other
     * means (after a failed handover, or a radio link failure), the path is cut back to that
     * cell if it is on it, or extended to it over a backhaul link from its last cell; the
     * owner then resends its last token, marked, along the new path.
     * \param enbDevices the eNBs' LTE devices
     * \return the observer, whose trace sources report every RAN event
     */
    Ptr<RanObserver> InstallObserver(const NetDeviceContainer& enbDevices);

    /// \return the server of a cell, or stop the run if there is none
    Ptr<EdgeLlmServer> GetServer(uint16_t cellId) const;

    /// \return every server, by cell
    const std::map<uint16_t, Ptr<EdgeLlmServer>>& GetServers() const;

  protected:
    void DoDispose() override;

  private:
    void HandoverStarted(uint64_t imsi, uint16_t sourceCell, uint16_t targetCell);
    void UeReady(uint64_t imsi, uint16_t cell);
    /// Make a session's packets reach a cell; false if no backhaul link allows it.
    bool RouteTo(uint64_t imsi, uint16_t cell);

    std::map<uint64_t, std::vector<uint16_t>> m_paths; //!< per session, cells in relay order
    ObjectFactory m_serverFactory;                     //!< servers
    ObjectFactory m_engineFactory;                     //!< engines
    ObjectFactory m_clientFactory;                     //!< clients
    std::map<uint16_t, Ptr<EdgeLlmServer>> m_servers;  //!< by cell
    std::map<uint32_t, Ptr<EdgeLlmServer>> m_byNode;   //!< by node id
    Ptr<RanObserver> m_observer;                       //!< installed observer
};

} // namespace ns3

#endif /* EDGE_LLM_HELPER_H */
