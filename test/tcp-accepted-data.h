/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_TEST_TCP_ACCEPTED_DATA_H
#define EDGE_LLM_TEST_TCP_ACCEPTED_DATA_H

// The DATA payload bytes a KV sender's TCP socket accepted in each slot, per transfer. TCP's
// own send buffer says how far the stream had reached at each slot's start (its tail
// sequence number), and the headers of the stream, in stream order, say whose bytes those
// were. Neither the sender's counters nor its policy take part.

#include "ns3/inet-socket-address.h"
#include "ns3/kv-transfer-header.h"
#include "ns3/kv-transfer-sender.h"
#include "ns3/node.h"
#include "ns3/object-vector.h"
#include "ns3/simulator.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-tx-buffer.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace ns3
{
namespace edgellm
{
namespace test
{

/// DATA payload bytes accepted by a sender's TCP socket, by (imsi, epoch, slot).
class TcpAcceptedData
{
  public:
    /// (imsi, epoch, slot index)
    using Key = std::tuple<uint64_t, uint32_t, uint64_t>;

    /**
     * \brief Watch a sender. Call before Simulator::Run(), before anything else is scheduled
     * at a slot's start, so that each sample runs before every other event of its instant:
     * bytes accepted at a slot's first instant then count in that slot.
     * \param sender the sender, for its headers in stream order
     * \param node its node, whose TCP holds the socket
     * \param peer the receiver's address and port the socket is connected to
     * \param slot the slot length; slots start at t = 0
     * \param end sample until then; run no longer, or the last bytes go uncounted
     */
    void Watch(Ptr<KvTransferSender> sender,
               Ptr<Node> node,
               InetSocketAddress peer,
               Time slot,
               Time end)
    {
        m_node = node;
        m_peer = peer;
        sender->TraceConnectWithoutContext("MessageSent",
                                           MakeCallback(&TcpAcceptedData::Header, this));
        const int64_t slots = end.GetTimeStep() / slot.GetTimeStep() + 1;
        for (int64_t k = 0; k <= slots; ++k)
        {
            Simulator::Schedule(slot * k - Simulator::Now(), &TcpAcceptedData::Sample, this);
        }
    }

    /// \return DATA payload bytes accepted, by (imsi, epoch, slot); slots without any absent
    std::map<Key, uint64_t> PerSlot() const
    {
        std::map<Key, uint64_t> out;
        uint64_t offset = 0;
        for (const KvTransferHeader& h : m_headers)
        {
            const uint64_t start = offset + KvTransferHeader::SERIALIZED_SIZE;
            const uint64_t end = start + h.GetFollowingBytes();
            offset = end;
            if (h.GetMessageType() != KvTransferHeader::DATA)
            {
                continue;
            }
            // Slot k took the stream bytes [m_samples[k], m_samples[k + 1]).
            for (std::size_t k = 0; k + 1 < m_samples.size(); ++k)
            {
                const uint64_t lo = std::max(start, m_samples[k]);
                const uint64_t hi = std::min(end, m_samples[k + 1]);
                if (hi > lo)
                {
                    out[{h.GetImsi(), h.GetEpoch(), k}] += hi - lo;
                }
            }
        }
        return out;
    }

    /// \return stream bytes TCP had accepted at the last sample
    uint64_t GetAcceptedBytes() const
    {
        return m_samples.empty() ? 0 : m_samples.back();
    }

    /// \return stream bytes of every message whose header reached TCP, payloads whole
    uint64_t GetStreamBytes() const
    {
        uint64_t bytes = 0;
        for (const KvTransferHeader& h : m_headers)
        {
            bytes += KvTransferHeader::SERIALIZED_SIZE + h.GetFollowingBytes();
        }
        return bytes;
    }

    /// \return whether the sender's socket was found
    bool FoundSocket() const
    {
        return m_socket != nullptr;
    }

  private:
    void Header(const KvTransferHeader& h)
    {
        m_headers.push_back(h);
    }

    void Find()
    {
        ObjectVectorValue sockets;
        m_node->GetObject<TcpL4Protocol>()->GetAttribute("SocketList", sockets);
        for (auto it = sockets.Begin(); it != sockets.End(); ++it)
        {
            Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(it->second);
            Address name;
            if (!s || s->GetPeerName(name) != 0 || !InetSocketAddress::IsMatchingType(name))
            {
                continue;
            }
            const InetSocketAddress a = InetSocketAddress::ConvertFrom(name);
            if (a.GetIpv4() == m_peer.GetIpv4() && a.GetPort() == m_peer.GetPort())
            {
                m_socket = s;
                return;
            }
        }
    }

    void Sample()
    {
        if (!m_socket)
        {
            Find();
        }
        // The stream's first byte has sequence number 1, after the SYN's; a tail of 0 is a
        // buffer not yet set up by the handshake.
        if (m_socket && m_socket->GetTxBuffer()->TailSequence().GetValue() != 0)
        {
            const SequenceNumber32 tail = m_socket->GetTxBuffer()->TailSequence();
            const int32_t grown = tail - m_tail;
            NS_ABORT_MSG_IF(grown < 0, "TCP's send buffer tail went back");
            m_accepted += static_cast<uint64_t>(grown);
            m_tail = tail;
        }
        m_samples.push_back(m_accepted);
    }

    Ptr<Node> m_node;                        //!< the sender's node
    InetSocketAddress m_peer{Ipv4Address()}; //!< where its socket is connected
    Ptr<TcpSocketBase> m_socket;             //!< the sender's socket, once found
    SequenceNumber32 m_tail{1};              //!< tail at the last sample
    uint64_t m_accepted{0};                  //!< stream bytes accepted so far
    std::vector<uint64_t> m_samples;         //!< stream bytes accepted before slot k
    std::vector<KvTransferHeader> m_headers; //!< every message, in stream order
};

} // namespace test
} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_TEST_TCP_ACCEPTED_DATA_H */
