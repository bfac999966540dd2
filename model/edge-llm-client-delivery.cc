/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The part of EdgeLlmClient that delivers tokens: the handling of a TOKENS packet, the
// in-order delivery of its tokens with their timing traces, and the handover marks.

#include "edge-llm-client.h"
#include "edge-llm-downlink-header.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

void
EdgeLlmClient::HandleTokens(const EdgeLlmDownlinkHeader& header)
{
    if (m_rejected)
    {
        DropPacket("tokens of a rejected session");
        return;
    }
    if (header.GetLastIndex() >= m_tokensToGenerate)
    {
        DropPacket("tokens up to " + std::to_string(header.GetLastIndex()) + " of a session of " +
                   std::to_string(m_tokensToGenerate));
        return;
    }
    if (!m_streaming)
    {
        m_streaming = true;
        m_openEvent.Cancel();
    }
    // The server that sent the newest token owns the session. A late resend of an old holder,
    // relayed after a migration, carries older tokens: it must not take feedback back there,
    // where the session is no longer served.
    if (header.GetLastIndex() + uint64_t(1) >= m_ownerFrontier)
    {
        m_ownerAddress = header.GetServerAddress();
        m_ownerPort = header.GetServerPort();
        m_ownerFrontier = header.GetLastIndex() + uint64_t(1);
    }

    if (m_rob->IsComplete())
    {
        // The server still resends, so it has not heard the final ACK.
        m_rob->Receive(header.GetFirstIndex(), header.GetGenerationTimesNs(), header.IsResent());
        if (Simulator::Now() - m_lastAckTime >= m_nackInterval)
        {
            SendAck();
        }
        return;
    }

    // The mark is read before the packet's own tokens: when the marked copy itself fills a
    // gap that the handover left, the silence runs from the delivery before that gap.
    const bool newMark = header.IsHandoverMark() && RecordMark(header.GetLastIndex());
    const std::vector<DeliveredToken> delivered =
        m_rob->Receive(header.GetFirstIndex(), header.GetGenerationTimesNs(), header.IsResent());
    for (const DeliveredToken& token : delivered)
    {
        Deliver(token, header.GetCellId());
    }

    if (m_rob->IsComplete())
    {
        CancelTimers();
        SendAck();
        m_complete(m_imsi);
        return;
    }
    if (m_deliveredSinceAck >= m_ackEveryTokens)
    {
        SendAck();
    }
    if (newMark && !m_rob->MissingRanges(1).empty())
    {
        // The mark says the new path works, so whatever is missing now was lost with the old
        // one and will not come by itself: ask for all of it at once, without waiting for a
        // gap timer started before the handover.
        m_gapNackEvent.Cancel();
        GapNackTimeout();
    }
    else if (m_gapNackEvent.IsExpired() && !m_rob->MissingRanges(1).empty())
    {
        m_gapNackEvent = Simulator::Schedule(m_nackDelay, &EdgeLlmClient::GapNackTimeout, this);
    }
    m_idleEvent.Cancel();
    m_idleEvent = Simulator::Schedule(m_idleTimeout, &EdgeLlmClient::IdleTimeout, this);
}

void
EdgeLlmClient::Deliver(const DeliveredToken& token, uint16_t cellId)
{
    const int64_t nowNs = Simulator::Now().GetNanoSeconds();
    m_deliveryNs.push_back(nowNs);
    ++m_deliveredSinceAck;
    const Time now = NanoSeconds(nowNs);
    const Time generated = NanoSeconds(token.generatedNs);
    m_tokenDelivered(m_imsi, token.index, generated, now, cellId, token.resent);
    if (m_log)
    {
        m_log->Write(m_imsi, token.index, generated, now, cellId, token.resent);
    }
    if (token.index == 0)
    {
        m_ttft(NanoSeconds(nowNs - m_startNs));
    }
    else
    {
        m_interTokenLatency(NanoSeconds(nowNs - m_deliveryNs[token.index - 1]));
    }
    // The same rule as SummarizeTokenTiming: from the last delivery before the mark arrived
    // (or the start) to this one, if it is the first token generated after the marked one or
    // the first delivered after the mark, whichever comes later.
    auto ended = [this, &token](std::size_t pos) {
        return token.index >= m_handoverMarks[pos].EndIndex();
    };
    for (std::size_t pos : m_pendingMarks)
    {
        if (ended(pos))
        {
            const uint32_t k = m_handoverMarks[pos].deliveredBefore;
            const int64_t beforeNs = k == 0 ? m_startNs : m_deliveryNs[k - 1];
            m_interruptions.push_back({m_handoverMarks[pos].markedIndex,
                                       token.index,
                                       NanoSeconds(beforeNs),
                                       now,
                                       generated});
            m_serviceInterruption(m_imsi,
                                  m_handoverMarks[pos].markedIndex,
                                  NanoSeconds(nowNs - beforeNs));
        }
    }
    m_pendingMarks.erase(std::remove_if(m_pendingMarks.begin(), m_pendingMarks.end(), ended),
                         m_pendingMarks.end());
}

bool
EdgeLlmClient::RecordMark(uint32_t index)
{
    if (!m_marks.insert(index).second)
    {
        return false;
    }
    // The server sends the mark on the new path when the handover starts, so it arrives when
    // the path works again; what was delivered before it came over the old one.
    m_pendingMarks.push_back(m_handoverMarks.size());
    m_handoverMarks.push_back({index, static_cast<uint32_t>(m_deliveryNs.size())});
    return true;
}

} // namespace ns3
