/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cross-node-audit.h"

#include "control-message.h"

#include <sstream>

namespace ns3
{

namespace
{
/// The acting cell: one per simulation, as the simulator's context is.
uint16_t g_acting = CrossNodeAudit::NOWHERE;
} // namespace

CrossNodeAudit::Scope::Scope(uint16_t cell)
    : m_previous(g_acting)
{
    g_acting = cell;
}

CrossNodeAudit::Scope::~Scope()
{
    g_acting = m_previous;
}

uint16_t
CrossNodeAudit::Acting()
{
    return g_acting;
}

bool
CrossNodeAudit::Check(const char* site, uint16_t cell)
{
    if (g_acting == cell)
    {
        return false;
    }
    std::ostringstream key;
    key << site << ": ";
    if (g_acting == NOWHERE)
    {
        key << "?";
        ++m_unplaced;
    }
    else if (g_acting == ControlMessage::CONTROLLER)
    {
        key << "controller";
    }
    else
    {
        key << "cell";
    }
    key << " -> cell";
    ++m_calls[key.str()];
    ++m_total;
    return true;
}

const std::map<std::string, uint64_t>&
CrossNodeAudit::GetCalls() const
{
    return m_calls;
}

uint64_t
CrossNodeAudit::GetTotal() const
{
    return m_total;
}

uint64_t
CrossNodeAudit::GetUnplaced() const
{
    return m_unplaced;
}

void
CrossNodeAudit::Clear()
{
    m_calls.clear();
    m_total = 0;
    m_unplaced = 0;
}

} // namespace ns3
