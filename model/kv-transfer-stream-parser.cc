/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kv-transfer-stream-parser.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

KvTransferStreamParser::Step
KvTransferStreamParser::Next(const uint8_t* data, uint64_t size)
{
    Step step;
    if (size == 0)
    {
        return step;
    }
    if (m_broken)
    {
        step.event = Event::UNFRAMED;
        step.consumed = size;
        return step;
    }
    if (m_payloadLeft > 0)
    {
        step.event = Event::PAYLOAD;
        step.consumed = std::min(m_payloadLeft, size);
        m_payloadLeft -= step.consumed;
        step.messageEnd = m_payloadLeft == 0;
        return step;
    }
    const uint32_t wanted = KvTransferHeader::SERIALIZED_SIZE - m_fill;
    const auto k = static_cast<uint32_t>(std::min<uint64_t>(wanted, size));
    std::memcpy(m_held.data() + m_fill, data, k);
    m_fill += k;
    step.consumed = k;
    if (m_fill < KvTransferHeader::SERIALIZED_SIZE)
    {
        return step;
    }
    m_fill = 0;
    if (!KvTransferHeader::Parse(m_held.data(),
                                 KvTransferHeader::SERIALIZED_SIZE,
                                 m_header,
                                 m_error))
    {
        m_broken = true;
        step.event = Event::FRAMING_LOST;
        return step;
    }
    m_payloadLeft = m_header.GetFollowingBytes();
    step.event = Event::HEADER;
    step.messageEnd = m_payloadLeft == 0;
    return step;
}

bool
KvTransferStreamParser::InPayload() const
{
    return !m_broken && m_payloadLeft > 0;
}

bool
KvTransferStreamParser::IsBroken() const
{
    return m_broken;
}

uint32_t
KvTransferStreamParser::GetHeldBytes() const
{
    return m_fill;
}

uint64_t
KvTransferStreamParser::GetPayloadLeft() const
{
    return m_payloadLeft;
}

const KvTransferHeader&
KvTransferStreamParser::GetHeader() const
{
    return m_header;
}

const std::string&
KvTransferStreamParser::GetError() const
{
    return m_error;
}

} // namespace ns3
