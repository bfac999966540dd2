/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ue-airtime.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UeAirtime");

namespace
{

/// How often a leave is tried again while its UE is in a handover or not connected. A
/// handover's radio part takes a few ms to a few tens.
const Time LEAVE_RETRY = MilliSeconds(10);

} // namespace

UeAirtime::UeAirtime(Ptr<RanStack> stack,
                     Time leaveDelay,
                     const TracedCallback<uint64_t, bool>* change)
    : m_stack(stack),
      m_leaveDelay(leaveDelay),
      m_change(change)
{
    NS_ABORT_MSG_IF(!stack, "UeAirtime: no RAN stack");
    NS_ABORT_MSG_IF(leaveDelay.IsStrictlyNegative(),
                    "UeAirtime: the leave delay is " << leaveDelay.As(Time::MS)
                                                     << "; allowed: a time >= 0");
}

UeAirtime::~UeAirtime()
{
    for (Ue& ue : m_ues)
    {
        ue.event.Cancel();
    }
}

uint32_t
UeAirtime::Add(Ptr<NetDevice> ue, Ptr<NetDevice> cell, Time attach)
{
    NS_ABORT_MSG_IF(attach < Simulator::Now(),
                    "UeAirtime::Add: the attach time is " << attach.As(Time::MS)
                                                          << "; allowed: a time >= now");
    const auto index = static_cast<uint32_t>(m_ues.size());
    m_ues.push_back({ue, cell, m_stack->GetImsi(ue), false, false, false, EventId()});
    m_byImsi[m_ues.back().imsi] = index;
    if (attach == Simulator::Now())
    {
        Attach(index);
        return index;
    }
    // Installed on the air: nobody is told of this first change, before its attach.
    m_stack->SetUeOnAir(ue, false);
    m_ues[index].event =
        Simulator::Schedule(attach - Simulator::Now(), &UeAirtime::Attach, this, index);
    return index;
}

void
UeAirtime::SessionEnded(uint32_t index)
{
    NS_ABORT_MSG_IF(index >= m_ues.size(), "UeAirtime::SessionEnded: no UE " << index);
    Ue& ue = m_ues[index];
    if (ue.ended)
    {
        return;
    }
    ue.ended = true;
    ue.event.Cancel();
    ue.event = Simulator::Schedule(m_leaveDelay, &UeAirtime::Leave, this, index);
}

void
UeAirtime::Attach(uint32_t index)
{
    Set(index, true);
    m_stack->Attach(m_ues[index].device, m_ues[index].cell);
}

void
UeAirtime::Leave(uint32_t index)
{
    Ue& ue = m_ues[index];
    if (!ue.onAir)
    {
        return; // it ended before its attach
    }
    if (!m_stack->IsUeConnected(ue.device))
    {
        // Off the air in a handover, it would fail the handover's random access.
        ++m_retries;
        ue.event = Simulator::Schedule(LEAVE_RETRY, &UeAirtime::Leave, this, index);
        return;
    }
    Set(index, false);
    m_left += ue.left ? 0 : 1;
    ue.left = true;
}

void
UeAirtime::Reconnected(uint64_t imsi)
{
    auto it = m_byImsi.find(imsi);
    if (it == m_byImsi.end() || !m_ues[it->second].left || m_ues[it->second].onAir)
    {
        return;
    }
    // Its PHY joined the target's channel itself, to hand over: it is on the air.
    ++m_returns;
    Set(it->second, true);
    m_ues[it->second].event.Cancel();
    Leave(it->second);
}

void
UeAirtime::Set(uint32_t index, bool on)
{
    Ue& ue = m_ues[index];
    if (ue.onAir == on)
    {
        return;
    }
    m_stack->SetUeOnAir(ue.device, on);
    ue.onAir = on;
    m_onAir = on ? m_onAir + 1 : m_onAir - 1;
    m_peak = std::max(m_peak, m_onAir);
    NS_LOG_INFO("IMSI " << ue.imsi << (on ? " on" : " off") << " the air, " << m_onAir << " on it");
    if (m_change)
    {
        (*m_change)(ue.imsi, on);
    }
}

bool
UeAirtime::IsOnAir(uint32_t index) const
{
    NS_ABORT_MSG_IF(index >= m_ues.size(), "UeAirtime::IsOnAir: no UE " << index);
    return m_ues[index].onAir;
}

uint32_t
UeAirtime::GetOnAir() const
{
    return m_onAir;
}

uint32_t
UeAirtime::GetOnAirPeak() const
{
    return m_peak;
}

uint32_t
UeAirtime::GetLeft() const
{
    return m_left;
}

uint32_t
UeAirtime::GetReturns() const
{
    return m_returns;
}

uint32_t
UeAirtime::GetLeaveRetries() const
{
    return m_retries;
}

} // namespace ns3
