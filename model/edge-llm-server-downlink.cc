/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The part of EdgeLlmServer that sends tokens down: the sending and resending of TOKENS
// packets, and their path to the UE, through the RAN or relayed to the next cell.

#include "edge-llm-downlink-header.h"
#include "edge-llm-relay-header.h"
#include "edge-llm-server.h"

#include "ns3/inet-socket-address.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

void
EdgeLlmServer::Resend(uint64_t imsi, SessionState& s, uint32_t first, uint32_t end, bool mark)
{
    first = std::max(first, s.acked);
    end = std::min(end, s.generated);
    const int64_t nowNs = Simulator::Now().GetNanoSeconds();
    const int64_t holdoffNs = m_resendHoldoff.GetNanoSeconds();
    std::vector<Time> times;
    uint32_t runStart = first;
    auto flush = [&](uint32_t runEnd) {
        if (!times.empty())
        {
            SendTokens(imsi, s, runStart, times, true, mark && runEnd == end);
            times.clear();
        }
    };
    for (uint32_t i = first; i < end; ++i)
    {
        SessionState::Sent& t = s.history[i - s.acked];
        const bool recent =
            t.resentNs != std::numeric_limits<int64_t>::min() && nowNs - t.resentNs < holdoffNs;
        if (recent && !mark)
        {
            flush(i);
            runStart = i + 1;
            continue;
        }
        if (times.empty())
        {
            runStart = i;
        }
        t.resentNs = nowNs;
        times.push_back(NanoSeconds(t.generatedNs));
        m_resentTokens += mark ? 0 : 1;
        if (times.size() == EdgeLlmDownlinkHeader::MAX_TOKENS)
        {
            flush(i + 1);
        }
    }
    flush(end);
}

void
EdgeLlmServer::TokensEmitted(const std::vector<LlmEngine::EmittedToken>& tokens)
{
    const Time now = Simulator::Now();
    for (const LlmEngine::EmittedToken& t : tokens)
    {
        auto it = m_sessions.find(t.imsi);
        if (it == m_sessions.end())
        {
            continue;
        }
        SessionState& s = it->second;
        if (s.firstTokenNs < 0)
        {
            s.firstTokenNs = now.GetNanoSeconds();
        }
        s.generated = static_cast<uint32_t>(t.tokenIndex) + 1;
        s.history.push_back({now.GetNanoSeconds(), std::numeric_limits<int64_t>::min()});
        m_oneTime[0] = now;
        SendTokens(t.imsi, s, static_cast<uint32_t>(t.tokenIndex), m_oneTime, false, false);
    }
}

void
EdgeLlmServer::Stamp(EdgeLlmDownlinkHeader& h, uint64_t imsi) const
{
    h.SetImsi(imsi);
    h.SetCellId(GetCellId());
    h.SetServer(m_uplinkAddress, m_port);
}

void
EdgeLlmServer::SendTokens(uint64_t imsi,
                          const SessionState& s,
                          uint32_t first,
                          const std::vector<Time>& generated,
                          bool resent,
                          bool mark)
{
    EdgeLlmDownlinkHeader h;
    Stamp(h, imsi);
    h.SetTokens(first, generated);
    h.SetResent(resent);
    h.SetHandoverMark(mark);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    const Path path = Deliver(imsi, p, s.ueAddress, s.uePort);
    if (path != Path::REFUSED)
    {
        m_tokensSent(imsi,
                     first,
                     static_cast<uint16_t>(generated.size()),
                     resent,
                     path == Path::RELAYED);
    }
}

EdgeLlmServer::Path
EdgeLlmServer::Deliver(uint64_t imsi, Ptr<Packet> p, Ipv4Address ue, uint16_t port)
{
    auto next = m_relayNext.find(imsi);
    if (next != m_relayNext.end())
    {
        p->AddHeader(EdgeLlmRelayHeader(imsi, ue, port));
        m_relaySocket->SendTo(p, 0, InetSocketAddress(m_relayPeers.at(next->second), m_relayPort));
        ++m_relayed;
        return Path::RELAYED;
    }
    if (m_downlink->Send(p, imsi, ue, m_uplinkAddress, m_port, port))
    {
        ++m_injected;
        return Path::INJECTED;
    }
    ++m_refused;
    return Path::REFUSED;
}

void
EdgeLlmServer::ReceiveRelay(Ptr<Socket> socket)
{
    while (Ptr<Packet> p = socket->Recv())
    {
        EdgeLlmRelayHeader relay;
        if (!EdgeLlmRelayHeader::TryRemove(p, relay))
        {
            DropRelay("malformed relay header");
            continue;
        }
        const uint64_t imsi = relay.GetImsi();
        if (m_relayNext.count(imsi) == 0)
        {
            // The packet leaves here: it carries this cell's id, as if sent from here.
            EdgeLlmDownlinkHeader h;
            if (!EdgeLlmDownlinkHeader::TryRemove(p, h))
            {
                DropRelay("malformed relayed message: " + h.GetError());
                continue;
            }
            h.SetCellId(GetCellId());
            p->AddHeader(h);
        }
        Deliver(imsi, p, relay.GetUeAddress(), relay.GetUePort());
    }
}

} // namespace ns3
