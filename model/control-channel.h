/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CONTROL_CHANNEL_H
#define EDGE_LLM_CONTROL_CHANNEL_H

#include "control-message.h"

#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The control plane's end on a cell's node: ControlMessages to and from the other
 * cells' nodes, each over a TCP connection of its own on the backhaul.
 *
 * A connection per peer opens when the application starts, as an X2-C association stands
 * before any handover, so a message pays no handshake. Its packets share the links the
 * scenario has with the KV transfers, and queue behind them where the two meet; their
 * delay, losses and retransmissions are the network's. A stream that breaks the wire
 * format's rules is closed and counted; the messages read before stay delivered.
 */
class ControlChannel : public Application
{
  public:
    /// \return the type ID
    static TypeId GetTypeId();

    ControlChannel();
    ~ControlChannel() override;

    /// Set the cell whose node this is. \param cellId the cell, >= 1
    void SetCellId(uint16_t cellId);

    /// \return the cell whose node this is
    uint16_t GetCellId() const;

    /**
     * \brief Add a cell this node sends messages to.
     * \param cellId the peer's cell \param local this node's address towards it
     * \param remote the peer's address
     */
    void AddPeer(uint16_t cellId, Ipv4Address local, Ipv4Address remote);

    /// \param cellId a cell \return true if messages can be sent to it
    bool HasPeer(uint16_t cellId) const;

    /**
     * \brief Send a message. Its fromCell and sentAt are set here.
     * \param cellId a peer (AddPeer) \param message the message
     */
    void Send(uint16_t cellId, ControlMessage message);

    /// What a receiver is told: the message, and how long it took from Send().
    typedef Callback<void, const ControlMessage&, Time> ReceiveCallback;

    /// Deliver the messages that arrive from now on. \param callback where to
    void SetReceiveCallback(ReceiveCallback callback);

    /// \return messages sent
    uint64_t GetSentMessages() const;

    /// \return messages received whole
    uint64_t GetReceivedMessages() const;

    /// \return bytes of messages sent
    uint64_t GetSentBytes() const;

    /// \return incoming streams closed for breaking the wire format
    uint32_t GetStreamsClosed() const;

    /**
     * TracedCallback signature of Tx.
     * \param message the message \param to the cell it goes to
     */
    typedef void (*TxTracedCallback)(const ControlMessage& message, uint16_t to);

    /**
     * TracedCallback signature of Rx.
     * \param message the message \param delay from its Send() to its last byte's arrival
     */
    typedef void (*RxTracedCallback)(const ControlMessage& message, Time delay);

  protected:
    /// Drop the sockets and the receive callback.
    void DoDispose() override;

  private:
    /// Listen, and connect to every peer.
    void StartApplication() override;
    /// Close every connection.
    void StopApplication() override;

    /// A peer, and the connection to it.
    struct Peer
    {
        Ipv4Address local;            //!< this node's address towards it
        Ipv4Address remote;           //!< its address
        Ptr<Socket> socket;           //!< the connection (after start)
        std::vector<uint8_t> pending; //!< bytes TCP has not taken yet
    };

    /// Open the connection to a peer. \param peer the peer
    void Connect(Peer& peer);
    /// Give TCP what it takes of a peer's pending bytes. \param peer the peer
    void Flush(Peer& peer);
    /// A connection has room again. \param socket it \param room bytes
    void SendRoom(Ptr<Socket> socket, uint32_t room);
    /// A peer connected. \param socket the new connection \param from the peer's address
    void Accept(Ptr<Socket> socket, const Address& from);
    /// Bytes arrived. \param socket where
    void Read(Ptr<Socket> socket);

    uint16_t m_port{7200};                                     //!< Port
    uint16_t m_cellId{0};                                      //!< this node's cell
    std::map<uint16_t, Peer> m_peers;                          //!< by cell
    Ptr<Socket> m_listener;                                    //!< accepts the peers' connections
    std::map<Ptr<Socket>, ControlStreamParser> m_in;           //!< incoming streams
    ReceiveCallback m_receive;                                 //!< where messages go
    uint64_t m_sent{0};                                        //!< messages sent
    uint64_t m_received{0};                                    //!< messages received
    uint64_t m_sentBytes{0};                                   //!< their bytes
    uint32_t m_streamsClosed{0};                               //!< broken streams closed
    TracedCallback<const ControlMessage&, uint16_t> m_txTrace; //!< Tx
    TracedCallback<const ControlMessage&, Time> m_rxTrace;     //!< Rx
};

} // namespace ns3

#endif /* EDGE_LLM_CONTROL_CHANNEL_H */
