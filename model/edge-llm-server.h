/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_SERVER_H
#define EDGE_LLM_SERVER_H

#include "kv-cache-model.h"
#include "llm-engine.h"
#include "ran-downlink.h"

#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ns3
{

class EdgeLlmDownlinkHeader;
class EdgeLlmUplinkHeader;

/**
 * \ingroup edge-llm
 * \brief The LLM server of one base station: a GPU engine, and a token stream to each UE.
 *
 * Sessions are keyed by IMSI. A UE opens one with OPEN_SESSION on the uplink (through the
 * EPC to UplinkAddress:Port); the server admits it into its LlmEngine and streams every
 * token the engine emits as a UDP packet that it injects into its own eNB's radio stack
 * (local breakout, through a RanDownlink). NACKs from the client make it resend the tokens
 * it names; ACKs let it forget them, so its memory per session is bounded by what the client
 * has not acknowledged.
 *
 * Detour: after StartRelay(imsi, nextCellId) the server sends that session's packets over
 * the backhaul to the next cell's server, which injects them, or relays them on if it has a
 * relay entry of its own, hop by hop through the cells the UE has visited. StopRelay ends
 * that at the cell the UE returns to.
 *
 * Install it after the LTE devices and X2 (the EPC expects its own application first).
 */
class EdgeLlmServer : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    EdgeLlmServer();
    ~EdgeLlmServer() override;

    /**
     * \brief Where the server's packets enter its own cell. Call before the start.
     * \param downlink the local breakout of this server's base station
     */
    void SetRanDownlink(Ptr<RanDownlink> downlink);

    /// \return the local breakout set, or null
    Ptr<RanDownlink> GetRanDownlink() const;

    /**
     * \brief The address UEs reach the server at through the core, and its token packets
     * name as the owner. Call before the start.
     * \param address an address of this node
     */
    void SetUplinkAddress(Ipv4Address address);

    /// \return the uplink address
    Ipv4Address GetUplinkAddress() const;

    /**
     * \brief A neighbour server reachable over a backhaul link, for Detour.
     * \param cellId the neighbour's cell
     * \param address the neighbour's address on the link between the two nodes
     */
    void AddRelayPeer(uint16_t cellId, Ipv4Address address);

    /**
     * \brief From now on, send this session's packets to the next cell's server.
     *
     * Stops the run if nextCellId has no relay peer: Detour relays over backhaul links only.
     *
     * \param imsi the session (owned here, or relayed through here)
     * \param nextCellId the cell the UE is handing over to
     */
    void StartRelay(uint64_t imsi, uint16_t nextCellId);

    /**
     * \brief Inject this session's packets locally again (the UE is, or is about to be,
     * in this cell).
     * \param imsi the session
     */
    void StopRelay(uint64_t imsi);

    /**
     * \brief The serving state of a session owned by a server: what moves with the session
     * when a handover migrates it to another server. Its size grows with the tokens the
     * client has not acknowledged, not with the session's length.
     */
    struct SessionState
    {
        Ipv4Address ueAddress;        //!< where its tokens go
        uint16_t uePort{0};           //!< the client's port
        uint32_t tokensToGenerate{0}; //!< tokens it asked for
        uint32_t generated{0};        //!< tokens emitted so far, here or at earlier owners
        uint32_t acked{0};            //!< the client has every token below this
        int64_t firstTokenNs{-1};     //!< generation time of token 0; -1 before it

        /// Per unacknowledged token: its generation time and when it was last resent (ns).
        struct Sent
        {
            int64_t generatedNs; //!< generation time
            int64_t resentNs;    //!< last resend; INT64_MIN if never
        };

        std::deque<Sent> history; //!< tokens [acked, generated)
    };

    /**
     * \brief Give up a session owned here, for another server to import (a migration).
     *
     * The engine's copy of the session is left alone: its owner decides when to free it. Its
     * relay (StartRelay) ends: this server decodes no more of it.
     * \param imsi a session owned here; stops the run otherwise
     * \return its serving state
     */
    SessionState ExportSession(uint64_t imsi);

    /**
     * \brief Own a session from now on: its NACKs are answered here and the tokens its engine
     * session emits here are sent to the UE. The engine session must exist already.
     * \param imsi the session; stops the run if it is owned here already
     * \param state its serving state, as exported by its previous owner
     */
    void ImportSession(uint64_t imsi, SessionState state);

    /**
     * \param imsi a session owned here; stops the run otherwise
     * \return its serving state, read only
     */
    const SessionState& GetSessionState(uint64_t imsi) const;

    /**
     * \brief Close a session owned here before its end: it stops, its engine session and KV
     * memory are freed, and its serving state is forgotten. Later uplink messages of it,
     * OPEN_SESSION retries included, are ignored.
     * \param imsi a session owned here; stops the run otherwise
     * \return its serving state as it was
     */
    SessionState CloseSession(uint64_t imsi);

    /// \return sessions closed here before their end (CloseSession)
    uint64_t GetClosedSessions() const;

    /**
     * \brief Tell the owner of a session that its UE is handing over: the last token sent
     * is sent again with the handover mark, so the client can measure the interruption.
     * \param imsi the session; nothing happens if it is not owned here
     */
    void MarkHandover(uint64_t imsi);

    /**
     * \param imsi a session
     * \return true if the session is owned here
     */
    bool OwnsSession(uint64_t imsi) const;

    /// \return the cell this server serves
    uint16_t GetCellId() const;

    /// \return the engine
    Ptr<LlmEngine> GetEngine() const;

    /**
     * \brief The KV-cache shape of the model this server serves: what a session's cache
     * weighs when it leaves this cell.
     * \return the KvCache attribute; a KvCacheModel with its defaults (Qwen2.5-7B-Instruct,
     * 16 bits) if none was set
     */
    Ptr<KvCacheModel> GetKvCacheModel() const;

    /**
     * \param model the served model's KV-cache shape; null restores the default
     */
    void SetKvCacheModel(Ptr<KvCacheModel> model);

    /// \return packets injected into the local cell
    uint64_t GetInjectedPackets() const;
    /// \return packets the local cell refused (UE not in an allowed state here)
    uint64_t GetRefusedPackets() const;
    /// \return packets sent to a relay peer, own or forwarded
    uint64_t GetRelayedPackets() const;
    /// \return tokens sent again in answer to NACKs and repeated OPEN_SESSIONs (handover
    /// marks not counted)
    uint64_t GetResentTokens() const;
    /// \return uplink messages dropped: malformed, or an OPEN_SESSION this server cannot take
    uint64_t GetDroppedUplinkPackets() const;
    /// \return relay packets dropped as malformed
    uint64_t GetDroppedRelayPackets() const;

    /**
     * \param cellId a cell
     * \return true if a backhaul link leads to that cell's server
     */
    bool HasRelayPeer(uint16_t cellId) const;

    /**
     * \param imsi a session
     * \return the cell this server sends the session's packets on to (StartRelay), 0 if none
     */
    uint16_t GetRelayNext(uint64_t imsi) const;

    /**
     * TracedCallback signature for tokens leaving the server.
     * \param [in] imsi the session
     * \param [in] firstIndex first token in the packet
     * \param [in] count tokens in it
     * \param [in] resent whether they are resent
     * \param [in] relayed whether the packet went to a relay peer
     */
    typedef void (*TokensSentTracedCallback)(uint64_t imsi,
                                             uint32_t firstIndex,
                                             uint16_t count,
                                             bool resent,
                                             bool relayed);

    /**
     * TracedCallback signature for a rejected session.
     * \param [in] imsi the session
     * \param [in] reason why, naming the limit
     */
    typedef void (*RejectedTracedCallback)(uint64_t imsi, const std::string& reason);

    /**
     * TracedCallback signature for a session event.
     * \param [in] imsi the session
     */
    typedef void (*SessionTracedCallback)(uint64_t imsi);

    /**
     * TracedCallback signature for a dropped packet.
     * \param [in] port "uplink" or "relay": where it arrived
     * \param [in] why why it was dropped, naming the field for a malformed packet
     */
    typedef void (*PacketDroppedTracedCallback)(const std::string& port, const std::string& why);

  protected:
    /// Disposes of the engine, drops the sockets and the local breakout, and forgets every session.
    void DoDispose() override;

  private:
    /// Where Deliver sent a packet.
    enum class Path
    {
        INJECTED, //!< into this server's cell
        RELAYED,  //!< to the next cell's server
        REFUSED,  //!< nowhere: the cell cannot reach the UE
    };

    void StartApplication() override;
    void StopApplication() override;

    void ReceiveUplink(Ptr<Socket> socket);
    void ReceiveRelay(Ptr<Socket> socket);
    /// Count and trace a dropped uplink message.
    void DropUplink(const std::string& why);
    /// Count and trace a dropped relay packet.
    void DropRelay(const std::string& why);
    void OpenSession(const EdgeLlmUplinkHeader& h, Ipv4Address ue, uint16_t port);
    /**
     * Send tokens [first, end) again, in runs of up to 128 per packet. Tokens resent less than
     * ResendHoldoff ago are skipped, unless the copy carries the handover mark.
     */
    void Resend(uint64_t imsi, SessionState& s, uint32_t first, uint32_t end, bool mark);
    void Forget(SessionState& s, uint32_t nextExpected);

    void TokensEmitted(const std::vector<LlmEngine::EmittedToken>& tokens);
    void EngineRejected(uint64_t imsi, const std::string& reason);

    /// Send a token run of a session along its current path.
    void SendTokens(uint64_t imsi,
                    const SessionState& s,
                    uint32_t first,
                    const std::vector<Time>& generated,
                    bool resent,
                    bool mark);
    /// Send a downlink message along the session's current path.
    Path Deliver(uint64_t imsi, Ptr<Packet> p, Ipv4Address ue, uint16_t port);
    /// Fill the fields every downlink message of this server carries.
    void Stamp(EdgeLlmDownlinkHeader& h, uint64_t imsi) const;

    uint16_t m_port;                                       //!< Port
    uint16_t m_relayPort;                                  //!< RelayPort
    Time m_resendHoldoff;                                  //!< ResendHoldoff
    Ptr<LlmEngine> m_engine;                               //!< Engine
    mutable Ptr<KvCacheModel> m_kvCache;                   //!< KvCache, made when first read
    Ptr<RanDownlink> m_downlink;                           //!< local breakout
    Ipv4Address m_uplinkAddress;                           //!< where UEs reach the server
    Ptr<Socket> m_uplinkSocket;                            //!< prompts, NACKs, ACKs
    Ptr<Socket> m_relaySocket;                             //!< Detour, both ways
    std::map<uint16_t, Ipv4Address> m_relayPeers;          //!< by cell
    std::unordered_map<uint64_t, SessionState> m_sessions; //!< owned here
    std::unordered_map<uint64_t, uint16_t> m_relayNext;    //!< sessions sent on, to which cell
    std::unordered_map<uint64_t, uint32_t> m_rejected;     //!< IMSI → reason code, for retries
    std::unordered_set<uint64_t> m_movedAway;              //!< sessions exported to another server
    std::unordered_set<uint64_t> m_closed;                 //!< sessions closed here
    std::vector<Time> m_oneTime;                           //!< reused for one-token packets

    uint64_t m_injected{0};      //!< packets injected locally
    uint64_t m_refused{0};       //!< packets the cell refused
    uint64_t m_relayed{0};       //!< packets sent to a relay peer
    uint64_t m_resentTokens{0};  //!< tokens resent
    uint64_t m_droppedUplink{0}; //!< uplink messages dropped
    uint64_t m_droppedRelay{0};  //!< relay packets dropped

    TracedCallback<uint64_t, uint32_t, uint16_t, bool, bool> m_tokensSent;  //!< TokensSent
    TracedCallback<uint64_t, const std::string&> m_sessionRejected;         //!< SessionRejected
    TracedCallback<uint64_t> m_sessionOpened;                               //!< SessionOpened
    TracedCallback<const std::string&, const std::string&> m_packetDropped; //!< PacketDropped
};

} // namespace ns3

#endif /* EDGE_LLM_SERVER_H */
