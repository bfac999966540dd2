/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "control-message.h"

#include "ns3/abort.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

namespace
{

void
Put(std::vector<uint8_t>& out, uint64_t v, int width)
{
    for (int i = width - 1; i >= 0; --i)
    {
        out.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
}

uint64_t
Get(const uint8_t* p, int width)
{
    uint64_t v = 0;
    for (int i = 0; i < width; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}

/// The fewest items a type's message carries.
uint16_t
MinItems(uint8_t type)
{
    return type == ControlMessage::PREFILL_REQUEST || type == ControlMessage::BUDGET ||
                   type == ControlMessage::PROGRESS || type == ControlMessage::RESERVE_ANSWER
               ? 1
               : 0;
}

/// The most items a type's message carries: a batch's types MAX_ITEMS; the target's report
/// (an answer's, or a plan's that passes it on) one; the session's size (a handover's notice,
/// a reservation, a prepare) one.
uint16_t
MaxItems(uint8_t type)
{
    if (type == ControlMessage::RESERVE_ANSWER || type == ControlMessage::PLAN ||
        type == ControlMessage::NOTICE || type == ControlMessage::RESERVE ||
        type == ControlMessage::PREPARE)
    {
        return 1;
    }
    return MinItems(type) > 0 ? ControlMessage::MAX_ITEMS : 0;
}

/// The largest code a type allows.
uint8_t
MaxCode(uint8_t type)
{
    switch (type)
    {
    case ControlMessage::NOTICE:
        return ControlMessage::HANDOVER_DONE;
    case ControlMessage::RESERVE_ANSWER:
    case ControlMessage::PLAN:
        return ControlMessage::NOT_RESERVED;
    case ControlMessage::PROGRESS:
        return ControlMessage::RECEIVED;
    default:
        return 0;
    }
}

/// The rule a message's head breaks, or an empty string.
std::string
HeadError(uint16_t magic,
          uint8_t version,
          const ControlMessage& m,
          uint8_t reserved,
          uint16_t items)
{
    std::ostringstream why;
    if (magic != ControlMessage::MAGIC)
    {
        why << "magic 0x" << std::hex << magic << " is not 0x" << ControlMessage::MAGIC;
    }
    else if (version != ControlMessage::VERSION)
    {
        why << "version " << unsigned(version) << " is not " << unsigned(ControlMessage::VERSION);
    }
    else if (m.type < ControlMessage::NOTICE || m.type > ControlMessage::RELEASE)
    {
        why << "type " << unsigned(m.type) << " is outside [1, "
            << unsigned(ControlMessage::RELEASE) << "]";
    }
    else if (m.code > MaxCode(m.type))
    {
        why << "code " << unsigned(m.code) << " of a " << ControlMessage::TypeName(m.type)
            << " is outside [0, " << unsigned(MaxCode(m.type)) << "]";
    }
    else if (reserved != 0)
    {
        why << "reserved byte " << unsigned(reserved) << " is not 0";
    }
    else if (m.fromCell == 0 || m.aboutCell == 0)
    {
        why << "cell 0 (fromCell " << m.fromCell << ", aboutCell " << m.aboutCell
            << "): cells are >= 1";
    }
    else if (items > ControlMessage::MAX_ITEMS)
    {
        why << items << " items: at most " << ControlMessage::MAX_ITEMS;
    }
    else if (items < MinItems(m.type))
    {
        why << "a " << ControlMessage::TypeName(m.type) << " with no items";
    }
    else if (MaxItems(m.type) == 0 && items != 0)
    {
        why << "a " << ControlMessage::TypeName(m.type) << " with " << items
            << " items: it carries none";
    }
    else if (items > MaxItems(m.type))
    {
        why << "a " << ControlMessage::TypeName(m.type) << " with " << items
            << " items: it carries at most " << MaxItems(m.type);
    }
    else if (m.type == ControlMessage::NOTICE && m.code != ControlMessage::HANDOVER_STARTED &&
             items != 0)
    {
        why << "a NOTICE of event " << unsigned(m.code) << " with " << items
            << " items: only a HANDOVER_STARTED carries one";
    }
    else if (m.type != ControlMessage::LOAD && m.imsi == 0)
    {
        why << "imsi 0: IMSIs are >= 1";
    }
    else if (m.type == ControlMessage::LOAD && m.imsi != 0)
    {
        why << "imsi " << m.imsi << " in a LOAD, which concerns no UE: it is 0";
    }
    else if (m.type == ControlMessage::NOTICE && m.code == ControlMessage::HANDOVER_FAILED &&
             m.value > ControlMessage::MAX_FAILURE)
    {
        why << "failure reason " << m.value << " is outside [0, "
            << unsigned(ControlMessage::MAX_FAILURE) << "]";
    }
    else if (m.sentAtNs < 0)
    {
        why << "sentAt " << m.sentAtNs << " ns is negative";
    }
    return why.str();
}

} // namespace

ControlMessage
ControlMessage::ForUe(Type type, uint64_t imsi, uint16_t about, uint32_t sequence)
{
    ControlMessage m;
    m.type = type;
    m.aboutCell = about;
    m.sequence = sequence;
    m.imsi = imsi;
    return m;
}

uint32_t
ControlMessage::GetSerializedSize() const
{
    return HEAD_SIZE + ITEM_SIZE * static_cast<uint32_t>(items.size());
}

std::vector<uint8_t>
ControlMessage::Serialize() const
{
    NS_ABORT_MSG_IF(items.size() > MAX_ITEMS,
                    "ControlMessage: " << items.size() << " items, at most " << MAX_ITEMS);
    const std::string why = HeadError(MAGIC, VERSION, *this, 0, items.size());
    NS_ABORT_MSG_IF(!why.empty(), "ControlMessage: " << why << " (" << ToString() << ")");
    std::vector<uint8_t> out;
    out.reserve(GetSerializedSize());
    Put(out, MAGIC, 2);
    Put(out, VERSION, 1);
    Put(out, type, 1);
    Put(out, code, 1);
    Put(out, 0, 1);
    Put(out, fromCell, 2);
    Put(out, aboutCell, 2);
    Put(out, items.size(), 2);
    Put(out, sequence, 4);
    Put(out, imsi, 8);
    Put(out, value, 8);
    Put(out, static_cast<uint64_t>(sentAtNs), 8);
    for (const Item& item : items)
    {
        NS_ABORT_MSG_IF(item.imsi == 0, "ControlMessage: an item with imsi 0");
        Put(out, item.imsi, 8);
        Put(out, item.sequence, 4);
        Put(out, item.value, 4);
    }
    return out;
}

bool
ControlMessage::ParseHead(const uint8_t* data, ControlMessage& out, std::string& why)
{
    const auto magic = static_cast<uint16_t>(Get(data, 2));
    const auto version = static_cast<uint8_t>(Get(data + 2, 1));
    ControlMessage m;
    m.type = static_cast<Type>(Get(data + 3, 1));
    m.code = static_cast<uint8_t>(Get(data + 4, 1));
    const auto reserved = static_cast<uint8_t>(Get(data + 5, 1));
    m.fromCell = static_cast<uint16_t>(Get(data + 6, 2));
    m.aboutCell = static_cast<uint16_t>(Get(data + 8, 2));
    const auto items = static_cast<uint16_t>(Get(data + 10, 2));
    m.sequence = static_cast<uint32_t>(Get(data + 12, 4));
    m.imsi = Get(data + 16, 8);
    m.value = Get(data + 24, 8);
    m.sentAtNs = static_cast<int64_t>(Get(data + 32, 8));
    why = HeadError(magic, version, m, reserved, items);
    if (!why.empty())
    {
        return false;
    }
    m.items.resize(items);
    out = m;
    return true;
}

bool
ControlMessage::ParseItem(const uint8_t* data, Item& out, std::string& why)
{
    Item item;
    item.imsi = Get(data, 8);
    item.sequence = static_cast<uint32_t>(Get(data + 8, 4));
    item.value = static_cast<uint32_t>(Get(data + 12, 4));
    if (item.imsi == 0)
    {
        why = "an item with imsi 0: IMSIs are >= 1";
        return false;
    }
    out = item;
    return true;
}

std::string
ControlMessage::TypeName(Type type)
{
    switch (type)
    {
    case NOTICE:
        return "NOTICE";
    case PLAN:
        return "PLAN";
    case RESERVE:
        return "RESERVE";
    case RESERVE_ANSWER:
        return "RESERVE_ANSWER";
    case PREFILL_REQUEST:
        return "PREFILL_REQUEST";
    case RESUME_NOTICE:
        return "RESUME_NOTICE";
    case BUDGET:
        return "BUDGET";
    case PROGRESS:
        return "PROGRESS";
    case PREPARE:
        return "PREPARE";
    case CANCEL:
        return "CANCEL";
    case LOAD:
        return "LOAD";
    case WINDOW_END:
        return "WINDOW_END";
    case RELEASE:
        return "RELEASE";
    }
    return "type " + std::to_string(unsigned(type));
}

std::string
ControlMessage::ToString() const
{
    std::ostringstream os;
    os << TypeName(type) << " code " << unsigned(code) << " from " << fromCell << " about "
       << aboutCell << " seq " << sequence << " imsi " << imsi << " value " << value << " sent "
       << sentAtNs << " ns";
    for (const Item& item : items)
    {
        os << " [" << item.imsi << " " << item.sequence << " " << item.value << "]";
    }
    return os.str();
}

std::vector<ControlMessage>
ControlStreamParser::Push(const uint8_t* data, uint64_t size)
{
    std::vector<ControlMessage> done;
    uint64_t at = 0;
    while (at < size && !m_broken)
    {
        const uint32_t wanted = m_haveHead ? ControlMessage::ITEM_SIZE : ControlMessage::HEAD_SIZE;
        const auto k = static_cast<uint32_t>(std::min<uint64_t>(wanted - m_held.size(), size - at));
        m_held.insert(m_held.end(), data + at, data + at + k);
        at += k;
        if (m_held.size() < wanted)
        {
            break;
        }
        if (!m_haveHead)
        {
            m_broken = !ControlMessage::ParseHead(m_held.data(), m_message, m_error);
            m_itemCount = m_message.items.size();
            m_message.items.clear();
            m_haveHead = !m_broken;
        }
        else
        {
            ControlMessage::Item item;
            m_broken = !ControlMessage::ParseItem(m_held.data(), item, m_error);
            m_message.items.push_back(item);
        }
        m_held.clear();
        if (m_haveHead && !m_broken && m_message.items.size() == m_itemCount)
        {
            done.push_back(m_message);
            m_haveHead = false;
        }
    }
    return done;
}

bool
ControlStreamParser::IsBroken() const
{
    return m_broken;
}

const std::string&
ControlStreamParser::GetError() const
{
    return m_error;
}

uint32_t
ControlStreamParser::GetHeldBytes() const
{
    const auto items = static_cast<uint32_t>(m_message.items.size());
    return static_cast<uint32_t>(m_held.size()) +
           (m_haveHead ? ControlMessage::HEAD_SIZE + ControlMessage::ITEM_SIZE * items : 0);
}

} // namespace ns3
