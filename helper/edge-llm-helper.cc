/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-helper.h"

#include "edge-llm-epc-routes.h"

#include "ns3/edge-llm-client.h"
#include "ns3/llm-engine.h"
#include "ns3/log.h"
#include "ns3/lte-local-breakout.h"
#include "ns3/lte-ran-observer.h"
#include "ns3/lte-ue-net-device.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EdgeLlmHelper");
NS_OBJECT_ENSURE_REGISTERED(EdgeLlmHelper);

TypeId
EdgeLlmHelper::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EdgeLlmHelper")
                            .SetParent<Object>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<EdgeLlmHelper>();
    return tid;
}

EdgeLlmHelper::EdgeLlmHelper()
{
    m_serverFactory.SetTypeId(EdgeLlmServer::GetTypeId());
    m_engineFactory.SetTypeId(LlmEngine::GetTypeId());
    m_clientFactory.SetTypeId(EdgeLlmClient::GetTypeId());
}

EdgeLlmHelper::~EdgeLlmHelper() = default;

void
EdgeLlmHelper::DoDispose()
{
    m_servers.clear();
    m_byNode.clear();
    m_observer = nullptr;
    Object::DoDispose();
}

void
EdgeLlmHelper::SetServerAttribute(const std::string& name, const AttributeValue& value)
{
    m_serverFactory.Set(name, value);
}

void
EdgeLlmHelper::SetEngineAttribute(const std::string& name, const AttributeValue& value)
{
    m_engineFactory.Set(name, value);
}

void
EdgeLlmHelper::SetClientAttribute(const std::string& name, const AttributeValue& value)
{
    m_clientFactory.Set(name, value);
}

ApplicationContainer
EdgeLlmHelper::InstallServers(Ptr<EpcHelper> epc,
                              const NodeContainer& enbNodes,
                              const NetDeviceContainer& enbDevices)
{
    NS_ABORT_MSG_IF(enbNodes.GetN() != enbDevices.GetN(),
                    "EdgeLlmHelper::InstallServers: " << enbNodes.GetN() << " nodes but "
                                                      << enbDevices.GetN() << " devices");
    EdgeLlmEpcRoutes routes;
    const Ipv4InterfaceContainer uplinks = routes.Install(epc, enbNodes);
    ApplicationContainer apps;
    for (uint32_t i = 0; i < enbNodes.GetN(); ++i)
    {
        Ptr<LteLocalBreakout> breakout = CreateObject<LteLocalBreakout>();
        breakout->SetEnbNetDevice(enbDevices.Get(i));
        Ptr<EdgeLlmServer> server = m_serverFactory.Create<EdgeLlmServer>();
        server->SetAttribute("Engine", PointerValue(m_engineFactory.Create<LlmEngine>()));
        server->SetRanDownlink(breakout);
        server->SetUplinkAddress(uplinks.GetAddress(i));
        enbNodes.Get(i)->AddApplication(server);
        m_servers[breakout->GetCellId()] = server;
        m_byNode[enbNodes.Get(i)->GetId()] = server;
        apps.Add(server);
    }
    return apps;
}

BackhaulLink
EdgeLlmHelper::InstallBackhaul(Ptr<BackhaulHelper> backhaul, Ptr<Node> enbA, Ptr<Node> enbB)
{
    auto a = m_byNode.find(enbA->GetId());
    auto b = m_byNode.find(enbB->GetId());
    NS_ABORT_MSG_IF(a == m_byNode.end() || b == m_byNode.end(),
                    "EdgeLlmHelper::InstallBackhaul: install servers on nodes "
                        << enbA->GetId() << " and " << enbB->GetId() << " first");
    const BackhaulLink link = backhaul->Install(enbA, enbB);
    a->second->AddRelayPeer(b->second->GetCellId(), link.addressB);
    b->second->AddRelayPeer(a->second->GetCellId(), link.addressA);
    return link;
}

std::vector<BackhaulLink>
EdgeLlmHelper::InstallBackhaulLine(Ptr<BackhaulHelper> backhaul, const NodeContainer& line)
{
    std::vector<BackhaulLink> links;
    for (uint32_t i = 1; i < line.GetN(); ++i)
    {
        links.push_back(InstallBackhaul(backhaul, line.Get(i - 1), line.Get(i)));
    }
    return links;
}

ApplicationContainer
EdgeLlmHelper::InstallClients(const NetDeviceContainer& ueDevices,
                              const std::vector<uint16_t>& firstCells)
{
    NS_ABORT_MSG_IF(ueDevices.GetN() != firstCells.size(),
                    "EdgeLlmHelper::InstallClients: " << ueDevices.GetN() << " UEs but "
                                                      << firstCells.size() << " first cells");
    ApplicationContainer apps;
    for (uint32_t i = 0; i < ueDevices.GetN(); ++i)
    {
        Ptr<LteUeNetDevice> ue = DynamicCast<LteUeNetDevice>(ueDevices.Get(i));
        NS_ABORT_MSG_IF(!ue, "EdgeLlmHelper::InstallClients: device " << i << " is not an LTE UE");
        Ptr<EdgeLlmClient> client = m_clientFactory.Create<EdgeLlmClient>();
        client->SetAttribute("Imsi", UintegerValue(ue->GetImsi()));
        Ptr<EdgeLlmServer> server = GetServer(firstCells[i]);
        client->SetAttribute("ServerAddress", Ipv4AddressValue(server->GetUplinkAddress()));
        UintegerValue port;
        server->GetAttribute("Port", port);
        client->SetAttribute("ServerPort", port);
        m_paths[ue->GetImsi()] = {firstCells[i]};
        ue->GetNode()->AddApplication(client);
        apps.Add(client);
    }
    return apps;
}

Ptr<RanObserver>
EdgeLlmHelper::InstallObserver(const NetDeviceContainer& enbDevices)
{
    if (!m_observer)
    {
        m_observer = CreateObject<LteRanObserver>();
        m_observer->TraceConnectWithoutContext(
            "HandoverStarted",
            MakeCallback(&EdgeLlmHelper::HandoverStarted, Ptr<EdgeLlmHelper>(this)));
        m_observer->TraceConnectWithoutContext(
            "UeReady",
            MakeCallback(&EdgeLlmHelper::UeReady, Ptr<EdgeLlmHelper>(this)));
    }
    m_observer->Install(enbDevices);
    return m_observer;
}

void
EdgeLlmHelper::HandoverStarted(uint64_t imsi, uint16_t /* sourceCell */, uint16_t targetCell)
{
    // At this instant the target holds the UE's context, so packets injected there wait for
    // the UE.
    if (!RouteTo(imsi, targetCell))
    {
        return;
    }
    for (auto& [cell, server] : m_servers)
    {
        if (server->OwnsSession(imsi))
        {
            server->MarkHandover(imsi);
        }
    }
}

void
EdgeLlmHelper::UeReady(uint64_t imsi, uint16_t cell)
{
    // After a handover this changes nothing: the path ends there already. After a failed
    // handover or a radio link failure it brings the packets back to where the UE is.
    RouteTo(imsi, cell);
}

bool
EdgeLlmHelper::RouteTo(uint64_t imsi, uint16_t cell)
{
    std::vector<uint16_t>& path = m_paths[imsi];
    auto on = std::find(path.begin(), path.end(), cell);
    if (path.empty() || on != path.end())
    {
        // The cells past it keep relay entries, but no packet reaches them any more.
        path.erase(path.empty() ? path.end() : on + 1, path.end());
        if (path.empty())
        {
            path.push_back(cell);
        }
        GetServer(cell)->StopRelay(imsi);
        return true;
    }
    Ptr<EdgeLlmServer> last = GetServer(path.back());
    if (!last->HasRelayPeer(cell))
    {
        NS_LOG_WARN("imsi " << imsi << " is in cell " << cell << ", which has no backhaul link to "
                            << "cell " << path.back()
                            << "; its tokens are refused until it comes back");
        return false;
    }
    GetServer(cell)->StopRelay(imsi);
    last->StartRelay(imsi, cell);
    path.push_back(cell);
    return true;
}

Ptr<EdgeLlmServer>
EdgeLlmHelper::GetServer(uint16_t cellId) const
{
    auto it = m_servers.find(cellId);
    NS_ABORT_MSG_IF(it == m_servers.end(), "EdgeLlmHelper: no server in cell " << cellId);
    return it->second;
}

const std::map<uint16_t, Ptr<EdgeLlmServer>>&
EdgeLlmHelper::GetServers() const
{
    return m_servers;
}

} // namespace ns3
