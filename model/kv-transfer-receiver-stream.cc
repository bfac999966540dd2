/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The part of KvTransferReceiver that reads one TCP stream: the parsing of its bytes into
// messages, and the checks that take or drop each message's header, payload and end.

#include "kv-transfer-receiver.h"

#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace ns3
{

void
KvTransferReceiver::Consume(Stream& stream, Ptr<Packet> p)
{
    const uint32_t size = p->GetSize();
    m_streamCounters.bytes += size;
    m_readBytes = size;
    uint32_t offset = 0;
    std::array<uint8_t, KvTransferHeader::SERIALIZED_SIZE> header;
    while (offset < size && !m_stopRequested)
    {
        KvTransferStreamParser& parser = stream.parser;
        const uint8_t* data = nullptr;
        uint32_t available = size - offset;
        if (!parser.InPayload() && !parser.IsBroken())
        {
            // Only header bytes are copied out of the packet; a payload is only counted.
            available =
                std::min<uint32_t>(available,
                                   KvTransferHeader::SERIALIZED_SIZE - parser.GetHeldBytes());
            p->CreateFragment(offset, available)->CopyData(header.data(), available);
            data = header.data();
        }
        const KvTransferStreamParser::Step step = parser.Next(data, available);
        offset += static_cast<uint32_t>(step.consumed);
        switch (step.event)
        {
        case KvTransferStreamParser::Event::NONE:
            break;
        case KvTransferStreamParser::Event::HEADER:
            m_streamCounters.headerBytes += KvTransferHeader::SERIALIZED_SIZE;
            OnHeader(stream);
            break;
        case KvTransferStreamParser::Event::PAYLOAD:
            m_streamCounters.payloadBytes += step.consumed;
            OnPayload(stream, step.consumed);
            break;
        case KvTransferStreamParser::Event::FRAMING_LOST:
            LoseFraming(stream);
            break;
        case KvTransferStreamParser::Event::UNFRAMED:
            m_streamCounters.unframedBytes += step.consumed;
            break;
        }
        if (step.messageEnd)
        {
            OnMessageEnd(stream);
        }
    }
}

void
KvTransferReceiver::OnPayload(Stream& stream, uint64_t k)
{
    const KvTransferHeader& h = stream.parser.GetHeader();
    if (h.GetMessageType() != KvTransferHeader::DATA)
    {
        return; // token IDs are counted when their message is whole
    }
    // Every read of the payload times it, whatever becomes of the message: the path carried
    // its bytes either way. A read after the first counts whole: the segments that end one
    // message and start the next took their whole length's time on the path.
    const Time now = Simulator::Now();
    if (!stream.payloadStarted)
    {
        stream.payloadStarted = true;
        stream.payloadFirstRead = now;
        stream.payloadAfterFirst = 0;
    }
    else
    {
        stream.payloadAfterFirst += m_readBytes;
    }
    stream.payloadLastRead = now;
    const uint64_t imsi = h.GetImsi();
    if (stream.accepted)
    {
        // The epoch may move on while a message's payload is arriving; what arrives after
        // that is as stale as a message of the old epoch.
        Session& s = m_sessions[imsi];
        if (s.epoch == h.GetEpoch() && !s.cancelled)
        {
            m_counters[imsi].received += k;
            s.epochBytes += k;
        }
        else
        {
            CountStale(imsi, h.GetEpoch(), k);
        }
    }
    else if (stream.dropReason == STALE_EPOCH)
    {
        CountStale(imsi, h.GetEpoch(), k);
    }
    else if (stream.dropReason != NOT_DROPPED)
    {
        KvTransferReceiverCounters& c = m_counters[imsi];
        c.droppedInvalid += k;
        c.droppedInvalidBy[stream.dropReason] += k;
    }
}

void
KvTransferReceiver::OnOpening(Stream& stream)
{
    const KvTransferHeader& h = stream.parser.GetHeader();
    const uint64_t imsi = h.GetImsi();
    const uint64_t first = h.GetFirst();
    const uint64_t end = first + h.GetCount();
    auto it = m_sessions.find(imsi);
    Session* current = it == m_sessions.end() ? nullptr : &it->second;
    if (current &&
        (h.GetEpoch() < current->epoch || (h.GetEpoch() == current->epoch && current->cancelled)))
    {
        Drop(stream, STALE_EPOCH);
        return;
    }
    const bool newer = !current || h.GetEpoch() > current->epoch;
    if (!newer && !current->source.IsInvalid() && stream.peer != current->source)
    {
        Drop(stream, WRONG_SOURCE);
        return;
    }
    // What the epoch will have announced once this message is taken: a newer epoch starts
    // from what a re-plan carried over, if anything.
    const bool carry = newer && current && current->carry;
    const edgellm::RangeSet& announced =
        newer ? (carry ? current->received : edgellm::RangeSet{}) : current->announced;
    const uint64_t bytesPerUnit = newer ? 0 : current->bytesPerUnit;
    uint64_t unit = 0;
    if (h.GetMessageType() == KvTransferHeader::BEGIN)
    {
        unit = h.GetPayloadBytes() / h.GetCount();
        if (h.GetPayloadBytes() % h.GetCount() != 0 || (bytesPerUnit != 0 && unit != bytesPerUnit))
        {
            Drop(stream, PAYLOAD_MISMATCH);
            return;
        }
        if (announced.Overlaps({first, end}))
        {
            Drop(stream, OUT_OF_RANGE);
            return;
        }
    }

    // Accepted: only now does the session change.
    edgellm::RangeSet kept;
    if (carry)
    {
        // The epoch a re-plan cancelled delivered these; the plan that replaced it counts on
        // them, so they are the new epoch's from the start.
        kept = current->received;
    }
    Session& s = newer ? ResetEpoch(imsi, h.GetEpoch(), KvDiscardReason::NEWER_EPOCH) : *current;
    if (kept.Count() > 0)
    {
        s.announced = kept;
        s.received = kept;
    }
    if (s.source.IsInvalid())
    {
        s.source = stream.peer;
    }
    stream.accepted = true;
    if (h.GetMessageType() == KvTransferHeader::OPEN)
    {
        s.open = true;
        s.complete = false;
        return;
    }
    s.bytesPerUnit = unit;
    s.announced.Add({first, end});
    s.complete = false;
    m_counters[imsi].announced += h.GetPayloadBytes();
    if (!m_announced.IsNull() && h.GetUnit() == KvTransferHeader::TOKEN)
    {
        m_announced(imsi, s.epoch, end, s.open);
    }
}

void
KvTransferReceiver::OnHeader(Stream& stream)
{
    const KvTransferHeader& h = stream.parser.GetHeader();
    m_messageReceived(h);
    stream.accepted = false;
    stream.dropReason = NOT_DROPPED;
    stream.payloadStarted = false;
    const KvTransferHeader::MessageType type = h.GetMessageType();
    if (type == KvTransferHeader::BEGIN || type == KvTransferHeader::OPEN)
    {
        OnOpening(stream);
        return;
    }

    const uint64_t imsi = h.GetImsi();
    const uint64_t first = h.GetFirst();
    const uint64_t end = first + h.GetCount();
    auto it = m_sessions.find(imsi);
    if (it == m_sessions.end() || h.GetEpoch() > it->second.epoch)
    {
        Drop(stream, UNKNOWN_SESSION);
        return;
    }
    Session& s = it->second;
    if (h.GetEpoch() < s.epoch || s.cancelled)
    {
        Drop(stream, STALE_EPOCH);
        return;
    }
    if (!s.source.IsInvalid() && stream.peer != s.source)
    {
        Drop(stream, WRONG_SOURCE);
        return;
    }
    switch (type)
    {
    case KvTransferHeader::TOKENS:
        // An epoch forwards its token IDs in one message, whose range is then the epoch's:
        // any other is outside it, and a relay hop would enqueue the epoch's IDs twice.
        if (s.tokensTaken)
        {
            Drop(stream, TOKENS_OUT_OF_RANGE);
            return;
        }
        // Reported at the end of its payload: the IDs are not here yet.
        s.tokensTaken = true;
        break;
    case KvTransferHeader::DATA:
        if (!s.announced.Contains({first, end}) || s.received.Overlaps({first, end}))
        {
            Drop(stream, OUT_OF_RANGE);
            return;
        }
        // Divided, not multiplied: count x bytes per unit may not fit in 64 bits.
        if (h.GetPayloadBytes() % h.GetCount() != 0 ||
            h.GetPayloadBytes() / h.GetCount() != s.bytesPerUnit)
        {
            Drop(stream, PAYLOAD_MISMATCH);
            return;
        }
        break;
    case KvTransferHeader::CANCEL:
        s.cancelled = true;
        s.complete = false;
        s.carry = h.GetCancelReason() == KvDiscardReason::REPLAN;
        Retire(s, s.epoch, h.GetCancelReason());
        break;
    case KvTransferHeader::SEAL:
        s.open = false;
        break;
    default: // END: the data before it in the stream has been read
        break;
    }
    if (s.source.IsInvalid())
    {
        s.source = stream.peer;
    }
    stream.accepted = true;
    if (type == KvTransferHeader::SEAL)
    {
        // Every range is announced now; the data may all be in already.
        CheckComplete(imsi, s);
    }
}

void
KvTransferReceiver::OnMessageEnd(Stream& stream)
{
    const KvTransferHeader& h = stream.parser.GetHeader();
    const KvTransferHeader::MessageType type = h.GetMessageType();
    if (type != KvTransferHeader::DATA && type != KvTransferHeader::TOKENS)
    {
        return;
    }
    const uint64_t imsi = h.GetImsi();
    if (!stream.accepted)
    {
        if (type == KvTransferHeader::TOKENS && stream.dropReason != NOT_DROPPED)
        {
            KvTransferReceiverCounters& c = m_counters[imsi];
            c.tokensDropped += h.GetCount();
            c.tokensDroppedBy[stream.dropReason] += h.GetCount();
        }
        return;
    }
    Session& s = m_sessions[imsi];
    if (s.epoch != h.GetEpoch() || s.cancelled)
    {
        if (type == KvTransferHeader::TOKENS)
        {
            // Overtaken by its epoch's end while the IDs were arriving.
            KvTransferReceiverCounters& c = m_counters[imsi];
            c.tokensDropped += h.GetCount();
            c.tokensDroppedBy[STALE_EPOCH] += h.GetCount();
        }
        return;
    }
    if (type == KvTransferHeader::TOKENS)
    {
        m_counters[imsi].tokensForwarded += h.GetCount();
        m_tokensArrived(h);
        if (!m_tokens.IsNull())
        {
            m_tokens(imsi, h.GetEpoch(), h.GetFirst(), h.GetCount());
        }
        return;
    }
    s.received.Add({h.GetFirst(), uint64_t(h.GetFirst()) + h.GetCount()});
    m_dataArrived(h);
    if (stream.payloadStarted && stream.payloadLastRead > stream.payloadFirstRead)
    {
        const Time span = stream.payloadLastRead - stream.payloadFirstRead;
        m_dataGoodput(imsi, h.GetEpoch(), stream.payloadAfterFirst, span);
        if (!m_goodput.IsNull())
        {
            m_goodput(imsi, h.GetEpoch(), stream.payloadAfterFirst, span);
        }
    }
    CheckComplete(imsi, s);
}

} // namespace ns3
