/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-failure-handler.h"

#include "cross-node-audit.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkFailureHandler");

LinkFailureHandler::LinkFailureHandler(Host* host, Traces traces)
    : m_host(host),
      m_traces(traces)
{
}

void
LinkFailureHandler::Configure(Policy policy, Time timeout)
{
    m_policy = policy;
    m_timeout = timeout;
}

void
LinkFailureHandler::SetDeliveredTokensProbe(Callback<uint64_t, uint64_t> delivered)
{
    m_deliveredProbe = delivered;
}

const std::map<uint64_t, LinkFailureHandler::ClosedSession>&
LinkFailureHandler::GetClosedSessions() const
{
    return m_closedSessions;
}

uint64_t
LinkFailureHandler::GetUndeliveredTokens() const
{
    uint64_t sum = 0;
    for (const auto& [imsi, c] : m_closedSessions)
    {
        sum += c.undelivered;
    }
    return sum;
}

bool
LinkFailureHandler::IsSuspended(uint64_t imsi) const
{
    return m_suspended.count(imsi) > 0;
}

void
LinkFailureHandler::Dispose()
{
    for (auto& [imsi, s] : m_suspended)
    {
        s.timeout.Cancel();
    }
    m_suspended.clear();
    m_deliveredProbe = Callback<uint64_t, uint64_t>();
}

void
LinkFailureHandler::RadioLinkFailure(uint64_t imsi, uint16_t cellId, uint16_t at)
{
    NS_LOG_FUNCTION(this << imsi << cellId << at);
    if (m_policy == LINK_FAILURE_CONTINUE || m_suspended.count(imsi) > 0)
    {
        return;
    }
    if (m_host->HasMigration(imsi))
    {
        // The UE has left the target as well as the source; the holder keeps the whole cache,
        // and the policy decides what it does with it.
        m_host->CloseMigration(imsi, at);
    }
    const uint16_t holder = m_host->HolderOf(imsi);
    if (holder == 0)
    {
        return; // no session, or one that has ended
    }
    Ptr<CellPort> cell = m_host->PortOf(holder);
    const EdgeLlmServer::SessionState& state = cell->GetSessionState(imsi);
    if (state.acked >= state.tokensToGenerate)
    {
        return; // the client has confirmed every token: nothing is left to lose
    }
    if (m_policy == LINK_FAILURE_CLOSE)
    {
        CloseSession(imsi);
        return;
    }
    if (cell->HasSession(imsi) && cell->IsDecoding(imsi))
    {
        cell->StopDecoding(imsi);
    }
    Suspension s;
    s.holder = holder;
    s.since = Simulator::Now();
    if (m_timeout.IsStrictlyPositive())
    {
        s.timeout = CrossNodeAudit::Schedule(m_timeout, [this, imsi]() { CloseSession(imsi); });
    }
    m_suspended[imsi] = s;
    NS_LOG_INFO("imsi " << imsi << ": radio link to cell " << cellId << " failed; suspended at "
                        << "cell " << holder << ", token " << state.generated);
    (*m_traces.suspended)(imsi, holder);
}

bool
LinkFailureHandler::UeReady(uint64_t imsi, uint16_t cellId)
{
    if (m_closedSessions.count(imsi) > 0)
    {
        return true; // nothing follows the UE any more
    }
    auto it = m_suspended.find(imsi);
    if (it == m_suspended.end())
    {
        return false;
    }
    Suspension s = it->second;
    m_suspended.erase(it);
    s.timeout.Cancel();
    (*m_traces.reattached)(imsi, cellId, Simulator::Now() - s.since);
    if (m_host->HolderOf(imsi) != s.holder)
    {
        return false;
    }
    if (cellId != s.holder)
    {
        // Another cell: the session follows the UE as it would at a handover from the
        // holder, by the scheduler's plan (re-prefill, cache transfer or both). A session
        // that cannot migrate is relayed by its holder, which then decodes again.
        m_host->Handover(imsi, s.holder, cellId);
        if (m_host->HasMigration(imsi) || m_host->HolderOf(imsi) != s.holder)
        {
            return true;
        }
        // Nothing to migrate (no token decoded yet): the holder decodes, and the path that
        // handover set relays its tokens.
    }
    else
    {
        m_host->RouteTo(imsi, cellId);
        // The mark makes the client NACK what the failure lost, and measure the interruption.
        m_host->PortOf(s.holder)->MarkHandover(imsi);
    }
    Ptr<CellPort> holder = m_host->PortOf(s.holder);
    if (holder->HasSession(imsi) && !holder->IsDecoding(imsi))
    {
        const uint64_t next = holder->GetNextTokenIndex(imsi);
        const uint32_t total = holder->GetSessionState(imsi).tokensToGenerate;
        if (next < total)
        {
            holder->ResumeDecoding(imsi, next, total - next);
        }
    }
    return true;
}

void
LinkFailureHandler::CloseSession(uint64_t imsi)
{
    NS_LOG_FUNCTION(this << imsi);
    m_suspended.erase(imsi);
    const uint16_t holder = m_host->HolderOf(imsi);
    if (holder == 0)
    {
        return;
    }
    const EdgeLlmServer::SessionState state = m_host->PortOf(holder)->CloseSession(imsi);
    ClosedSession c;
    c.cellId = holder;
    c.at = Simulator::Now();
    c.tokensToGenerate = state.tokensToGenerate;
    c.generated = state.generated;
    const uint64_t delivered = m_deliveredProbe.IsNull() ? state.acked : m_deliveredProbe(imsi);
    c.delivered = std::min<uint64_t>(delivered, state.tokensToGenerate);
    c.undelivered = state.tokensToGenerate - c.delivered;
    m_closedSessions[imsi] = c;
    m_host->SessionClosed(imsi);
    NS_LOG_INFO("imsi " << imsi << ": closed at cell " << holder << ", " << c.delivered
                        << " tokens delivered, " << c.undelivered << " never");
    (*m_traces.closed)(imsi, c.delivered, c.undelivered);
}

} // namespace ns3
