/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-transfer-application.h"

#include "ns3/explaining-checker.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("KvTransferApplication");
NS_OBJECT_ENSURE_REGISTERED(KvTransferApplication);

TypeId
KvTransferApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::KvTransferApplication")
            .SetParent<Application>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<KvTransferApplication>()
            .AddAttribute("Port",
                          "TCP port of the KV-transfer receivers [1, 65535], the same on every "
                          "node. 2152, 2123 and 4444 are taken by the EPC on eNB nodes.",
                          UintegerValue(7100),
                          MakeUintegerAccessor(&KvTransferApplication::m_port),
                          edgellm::MakeEnbPortChecker("ns3::KvTransferApplication::Port"));
    return tid;
}

KvTransferApplication::KvTransferApplication()
    : m_receiver(CreateObject<KvTransferReceiver>())
{
}

KvTransferApplication::~KvTransferApplication() = default;

void
KvTransferApplication::DoDispose()
{
    for (auto& [peer, sender] : m_senders)
    {
        sender->Dispose();
    }
    m_senders.clear();
    m_receiver->Dispose();
    m_receiver = nullptr;
    Application::DoDispose();
}

Ptr<KvTransferSender>
KvTransferApplication::AddPeer(Ipv4Address local, Ipv4Address peer)
{
    NS_ABORT_MSG_IF(!GetNode(), "KvTransferApplication::AddPeer: add the application to a node");
    NS_ABORT_MSG_IF(m_senders.count(peer) > 0,
                    "KvTransferApplication::AddPeer: " << peer << " is already a peer");
    Ptr<KvTransferSender> sender = CreateObject<KvTransferSender>();
    sender->Setup(GetNode(), local, peer, m_port);
    m_senders[peer] = sender;
    return sender;
}

Ptr<KvTransferSender>
KvTransferApplication::GetSender(Ipv4Address peer) const
{
    auto it = m_senders.find(peer);
    return it == m_senders.end() ? nullptr : it->second;
}

Ptr<KvTransferReceiver>
KvTransferApplication::GetReceiver() const
{
    return m_receiver;
}

void
KvTransferApplication::StartApplication()
{
    m_receiver->Setup(GetNode(), m_port);
    m_receiver->Start();
    for (auto& [peer, sender] : m_senders)
    {
        sender->Start();
    }
}

void
KvTransferApplication::StopApplication()
{
    for (auto& [peer, sender] : m_senders)
    {
        sender->Stop();
    }
    m_receiver->Stop();
}

} // namespace ns3
