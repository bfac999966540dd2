/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_APPLICATION_H
#define EDGE_LLM_KV_TRANSFER_APPLICATION_H

#include "kv-transfer-receiver.h"
#include "kv-transfer-sender.h"

#include "ns3/application.h"
#include "ns3/ipv4-address.h"

#include <map>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The byte ledger of one session's KV transfers (the manual's "The byte ledger").
 * \param sent the senders' counters
 * \param received the receivers' counters
 * \return whether every byte announced was sent or withdrawn, and every byte sent was read
 *         as current or stale
 */
inline bool
KvLedgerBalances(const KvTransferSenderCounters& sent, const KvTransferReceiverCounters& received)
{
    return sent.announced == sent.sent + sent.withdrawn &&
           sent.sent == received.received + received.stale;
}

/**
 * \ingroup edge-llm
 * \brief Hosts the KV-transfer endpoints of one node: a receiver, and a sender per peer.
 *
 * The receiver listens on Port from the start of the application; each sender opens its
 * connection then too, so no handover waits for a TCP handshake. Peers are added before the
 * application starts. Used by the tests, the benchmark, and any host that needs no more.
 */
class KvTransferApplication : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    KvTransferApplication();
    ~KvTransferApplication() override;

    /**
     * \brief Add a peer to send to; its receiver listens on the same Port.
     * \param local this node's address on the link to the peer
     * \param peer the peer's address
     * \return the sender to that peer; set its Policy attribute to change the order
     */
    Ptr<KvTransferSender> AddPeer(Ipv4Address local, Ipv4Address peer);

    /**
     * \param peer a peer address given to AddPeer
     * \return its sender, or nullptr
     */
    Ptr<KvTransferSender> GetSender(Ipv4Address peer) const;

    /// \return the receiver
    Ptr<KvTransferReceiver> GetReceiver() const;

  protected:
    /// Disposes of every sender and the receiver.
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    uint16_t m_port;                                        //!< Port
    Ptr<KvTransferReceiver> m_receiver;                     //!< the receiver
    std::map<Ipv4Address, Ptr<KvTransferSender>> m_senders; //!< by peer
};

} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_APPLICATION_H */
