/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-helper.h"

#include "ns3/edge-llm-client.h"
#include "ns3/handover-scheme-registry.h"
#include "ns3/input-checks.h"
#include "ns3/kv-transfer-policy.h"
#include "ns3/llm-engine.h"
#include "ns3/local-cell-port.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
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
    m_coordinatorFactory.SetTypeId(HandoverCoordinator::GetTypeId());
    m_schedulerFactory.SetTypeId("ns3::CtHoScheduler");
    m_kvPolicyFactory.SetTypeId("ns3::EdfKvTransferPolicy");
}

EdgeLlmHelper::~EdgeLlmHelper() = default;

void
EdgeLlmHelper::DoDispose()
{
    m_servers.clear();
    m_kvApps.clear();
    m_byNode.clear();
    m_links.clear();
    m_channels.clear();
    m_controller = nullptr;
    m_controllerLinks.clear();
    m_ueDevices = NetDeviceContainer();
    m_clients = std::make_shared<std::map<uint64_t, Ptr<EdgeLlmClient>>>();
    m_observer = nullptr;
    m_coordinator = nullptr;
    m_stack = nullptr;
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

void
EdgeLlmHelper::SetCoordinatorAttribute(const std::string& name, const AttributeValue& value)
{
    m_coordinatorFactory.Set(name, value);
}

void
EdgeLlmHelper::SetSchedulerType(const std::string& typeName)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid) ||
        !tid.IsChildOf(HandoverScheduler::GetTypeId()) || !tid.HasConstructor())
    {
        std::vector<std::string> types;
        for (const edgellm::HandoverScheme& s : edgellm::ListHandoverSchemes())
        {
            // An alias names its base type again.
            if (std::find(types.begin(), types.end(), s.typeName) == types.end())
            {
                types.push_back(s.typeName);
            }
        }
        NS_FATAL_ERROR("EdgeLlmHelper::SetSchedulerType: \""
                       << typeName
                       << "\" is not a HandoverScheduler; allowed: " << edgellm::JoinNames(types));
    }
    m_schedulerFactory.SetTypeId(tid);
}

void
EdgeLlmHelper::SetScheme(const std::string& scheme)
{
    edgellm::HandoverScheme s;
    try
    {
        s = edgellm::FindHandoverScheme(scheme);
    }
    catch (const std::invalid_argument& e)
    {
        NS_FATAL_ERROR("EdgeLlmHelper::SetScheme: " << e.what());
    }
    // A fresh factory: an alias's SchemeName must not outlive it into the next scheme.
    m_schedulerFactory = ObjectFactory();
    SetSchedulerType(s.typeName);
    for (const auto& [attribute, value] : s.attributes)
    {
        m_schedulerFactory.Set(attribute, StringValue(value));
    }
}

void
EdgeLlmHelper::SetSchedulerAttribute(const std::string& name, const AttributeValue& value)
{
    m_schedulerFactory.Set(name, value);
}

void
EdgeLlmHelper::SetKvTransferPolicyType(const std::string& typeName)
{
    TypeId tid;
    NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(typeName, &tid) ||
                        !tid.IsChildOf(KvTransferPolicy::GetTypeId()) || !tid.HasConstructor(),
                    "EdgeLlmHelper::SetKvTransferPolicyType: \""
                        << typeName
                        << "\" is not a KvTransferPolicy; allowed: ns3::EdfKvTransferPolicy, "
                           "ns3::FifoKvTransferPolicy, ns3::StrictPriorityKvTransferPolicy, "
                           "ns3::SlotBudgetKvTransferPolicy, or another subclass");
    m_kvPolicyFactory.SetTypeId(tid);
}

void
EdgeLlmHelper::SetKvTransferPolicyAttribute(const std::string& name, const AttributeValue& value)
{
    m_kvPolicyFactory.Set(name, value);
}

Time
EdgeLlmHelper::MatchKvTransferPolicyToScheduler()
{
    const Time slot = m_schedulerFactory.Create<HandoverScheduler>()->GetSlotDuration();
    if (slot.IsStrictlyPositive())
    {
        SetKvTransferPolicyType("ns3::SlotBudgetKvTransferPolicy");
        SetKvTransferPolicyAttribute("SlotDuration", TimeValue(slot));
    }
    return slot;
}

ApplicationContainer
EdgeLlmHelper::InstallServers(Ptr<RanStack> stack,
                              const NodeContainer& enbNodes,
                              const NetDeviceContainer& enbDevices)
{
    NS_ABORT_MSG_IF(!stack, "EdgeLlmHelper::InstallServers: no RAN stack");
    NS_ABORT_MSG_IF(m_stack && m_stack != stack,
                    "EdgeLlmHelper::InstallServers: servers of one helper share one RAN stack");
    NS_ABORT_MSG_IF(enbNodes.GetN() != enbDevices.GetN(),
                    "EdgeLlmHelper::InstallServers: " << enbNodes.GetN() << " nodes but "
                                                      << enbDevices.GetN() << " devices");
    m_stack = stack;
    const Ipv4InterfaceContainer uplinks = stack->InstallUplinkRoutes(enbNodes);
    ApplicationContainer apps;
    for (uint32_t i = 0; i < enbNodes.GetN(); ++i)
    {
        Ptr<RanDownlink> breakout = stack->CreateLocalBreakout(enbDevices.Get(i));
        Ptr<EdgeLlmServer> server = m_serverFactory.Create<EdgeLlmServer>();
        server->SetAttribute("Engine", PointerValue(m_engineFactory.Create<LlmEngine>()));
        server->SetRanDownlink(breakout);
        server->SetUplinkAddress(uplinks.GetAddress(i));
        enbNodes.Get(i)->AddApplication(server);
        Ptr<KvTransferApplication> kv = CreateObject<KvTransferApplication>();
        enbNodes.Get(i)->AddApplication(kv);
        m_kvApps[breakout->GetCellId()] = kv;
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
    DataRateValue rate;
    link.devices.Get(0)->GetAttribute("DataRate", rate);
    InstallBackhaulPeering(enbA, link.addressA, enbB, link.addressB, rate.Get());
    return link;
}

void
EdgeLlmHelper::InstallBackhaulPeering(Ptr<Node> enbA,
                                      Ipv4Address addressA,
                                      Ptr<Node> enbB,
                                      Ipv4Address addressB,
                                      DataRate rate)
{
    auto a = m_byNode.find(enbA->GetId());
    auto b = m_byNode.find(enbB->GetId());
    NS_ABORT_MSG_IF(a == m_byNode.end() || b == m_byNode.end(),
                    "EdgeLlmHelper::InstallBackhaulPeering: install servers on nodes "
                        << enbA->GetId() << " and " << enbB->GetId() << " first");
    const uint16_t cellA = a->second->GetCellId();
    const uint16_t cellB = b->second->GetCellId();
    a->second->AddRelayPeer(cellB, addressB);
    b->second->AddRelayPeer(cellA, addressA);
    Ptr<KvTransferSender> aToB = m_kvApps.at(cellA)->AddPeer(addressA, addressB);
    Ptr<KvTransferSender> bToA = m_kvApps.at(cellB)->AddPeer(addressB, addressA);
    for (Ptr<KvTransferSender> sender : {aToB, bToA})
    {
        sender->SetAttribute("Policy", PointerValue(m_kvPolicyFactory.Create<KvTransferPolicy>()));
    }
    m_links.push_back({cellA, aToB, cellB, bToA, rate, addressA, addressB});
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
    NS_ABORT_MSG_IF(!m_stack, "EdgeLlmHelper::InstallClients: call InstallServers first");
    ApplicationContainer apps;
    for (uint32_t i = 0; i < ueDevices.GetN(); ++i)
    {
        Ptr<NetDevice> ue = ueDevices.Get(i);
        const uint64_t imsi = m_stack->GetImsi(ue);
        Ptr<EdgeLlmClient> client = m_clientFactory.Create<EdgeLlmClient>();
        client->SetAttribute("Imsi", UintegerValue(imsi));
        Ptr<EdgeLlmServer> server = GetServer(firstCells[i]);
        client->SetAttribute("ServerAddress", Ipv4AddressValue(server->GetUplinkAddress()));
        UintegerValue port;
        server->GetAttribute("Port", port);
        client->SetAttribute("ServerPort", port);
        m_firstCells[imsi] = firstCells[i];
        (*m_clients)[imsi] = client;
        m_ueDevices.Add(ue);
        ue->GetNode()->AddApplication(client);
        apps.Add(client);
    }
    if (m_observer)
    {
        m_observer->InstallUes(ueDevices);
    }
    return apps;
}

Ptr<RanObserver>
EdgeLlmHelper::InstallObserver(const NetDeviceContainer& enbDevices)
{
    NS_ABORT_MSG_IF(!m_stack, "EdgeLlmHelper::InstallObserver: call InstallServers first");
    if (!m_observer)
    {
        m_observer = m_stack->CreateObserver();
        m_coordinator = m_coordinatorFactory.Create<HandoverCoordinator>();
        m_coordinator->SetAttribute("Scheduler",
                                    PointerValue(m_schedulerFactory.Create<HandoverScheduler>()));
        for (const auto& [cell, server] : m_servers)
        {
            m_coordinator->AddCell(cell, Create<LocalCellPort>(server, m_kvApps.at(cell)));
        }
        for (const Link& l : m_links)
        {
            m_coordinator->AddLink(l.cellA, l.aToB, l.cellB, l.bToA, l.rate);
        }
        for (const auto& [imsi, cell] : m_firstCells)
        {
            m_coordinator->SetFirstCell(imsi, cell);
        }
        if (m_coordinator->GetControlPlane() == HandoverCoordinator::NETWORK_CONTROL)
        {
            InstallControlPlane();
        }
        m_coordinator->Install(m_observer);
        // Read when a session is closed; clients installed later are found too.
        m_coordinator->SetDeliveredTokensProbe(
            Callback<uint64_t, uint64_t>([clients = m_clients](uint64_t imsi) {
                auto c = clients->find(imsi);
                return c == clients->end() ? uint64_t(0) : c->second->GetDeliveredTokens();
            }));
        m_observer->InstallUes(m_ueDevices);
    }
    m_observer->Install(enbDevices);
    return m_observer;
}

void
EdgeLlmHelper::InstallControlPlane()
{
    for (const auto& [cell, server] : m_servers)
    {
        Ptr<ControlChannel> channel = CreateObject<ControlChannel>();
        channel->SetCellId(cell);
        server->GetNode()->AddApplication(channel);
        m_channels[cell] = channel;
    }
    // Control messages take the paths the KV transfers take: the scenario's backhaul.
    for (const Link& l : m_links)
    {
        m_channels.at(l.cellA)->AddPeer(l.cellB, l.addressA, l.addressB);
        m_channels.at(l.cellB)->AddPeer(l.cellA, l.addressB, l.addressA);
    }
    if (m_coordinator->GetPolicyAt() == HandoverCoordinator::POLICY_AT_CONTROLLER)
    {
        NS_ABORT_MSG_IF(!m_controller,
                        "ns3::HandoverCoordinator::PolicyAt = controller needs a controller "
                        "node in the backhaul (EdgeLlmHelper::AddControllerLink; a "
                        "StarBackhaulTopology has one at its core router, a "
                        "PerPairBackhaulTopology with Controller true one linked to every "
                        "cell); this scenario has none. Allowed: source or target");
        Ptr<ControlChannel> controller = CreateObject<ControlChannel>();
        controller->SetCellId(ControlMessage::CONTROLLER);
        m_controller->AddApplication(controller);
        for (const auto& [enb, enbAddress, controllerAddress] : m_controllerLinks)
        {
            auto server = std::find_if(m_servers.begin(), m_servers.end(), [&](const auto& s) {
                return s.second->GetNode() == enb;
            });
            NS_ABORT_MSG_IF(server == m_servers.end(),
                            "EdgeLlmHelper::AddControllerLink: node " << enb->GetId()
                                                                      << " has no server");
            controller->AddPeer(server->first, controllerAddress, enbAddress);
            m_channels.at(server->first)
                ->AddPeer(ControlMessage::CONTROLLER, enbAddress, controllerAddress);
        }
        m_channels[ControlMessage::CONTROLLER] = controller;
    }
    for (const auto& [cell, channel] : m_channels)
    {
        m_coordinator->AddControlChannel(cell, channel);
    }
}

void
EdgeLlmHelper::AddControllerLink(Ptr<Node> controller,
                                 Ptr<Node> enb,
                                 Ipv4Address enbAddress,
                                 Ipv4Address controllerAddress)
{
    NS_ABORT_MSG_IF(!controller || !enb, "EdgeLlmHelper::AddControllerLink: a null node");
    NS_ABORT_MSG_IF(m_controller && m_controller != controller,
                    "EdgeLlmHelper::AddControllerLink: a second controller node; the control "
                    "plane has one");
    m_controller = controller;
    m_controllerLinks.emplace_back(enb, enbAddress, controllerAddress);
}

const std::map<uint16_t, Ptr<ControlChannel>>&
EdgeLlmHelper::GetControlChannels() const
{
    return m_channels;
}

Ptr<HandoverCoordinator>
EdgeLlmHelper::GetCoordinator() const
{
    return m_coordinator;
}

Ptr<KvTransferApplication>
EdgeLlmHelper::GetKvTransfer(uint16_t cellId) const
{
    auto it = m_kvApps.find(cellId);
    NS_ABORT_MSG_IF(it == m_kvApps.end(),
                    "EdgeLlmHelper: no KV-transfer application in cell " << cellId);
    return it->second;
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

const std::map<uint16_t, Ptr<KvTransferApplication>>&
EdgeLlmHelper::GetKvTransfers() const
{
    return m_kvApps;
}

std::vector<Ptr<KvTransferSender>>
EdgeLlmHelper::GetKvSenders() const
{
    std::vector<Ptr<KvTransferSender>> senders;
    for (const Link& l : m_links)
    {
        senders.push_back(l.aToB);
        senders.push_back(l.bToA);
    }
    return senders;
}

Ptr<RanStack>
EdgeLlmHelper::GetRanStack() const
{
    return m_stack;
}

} // namespace ns3
