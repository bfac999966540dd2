/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-recorder.h"

#include "ns3/simulator.h"

namespace ns3
{

void
HandoverRecorder::Install(Ptr<RanObserver> observer)
{
    observer->TraceConnectWithoutContext("HandoverDone",
                                         MakeCallback(&HandoverRecorder::HandoverDone, this));
}

std::size_t
HandoverRecorder::Add(const HandoverRecord& record)
{
    m_records.push_back(record);
    return m_records.size() - 1;
}

HandoverRecord&
HandoverRecorder::operator[](std::size_t i)
{
    return m_records[i];
}

const HandoverRecord&
HandoverRecorder::operator[](std::size_t i) const
{
    return m_records[i];
}

HandoverRecord&
HandoverRecorder::Back()
{
    return m_records.back();
}

std::size_t
HandoverRecorder::Size() const
{
    return m_records.size();
}

const std::vector<HandoverRecord>&
HandoverRecorder::GetAll() const
{
    return m_records;
}

const HandoverRecord*
HandoverRecorder::Latest(uint64_t imsi) const
{
    for (auto r = m_records.rbegin(); r != m_records.rend(); ++r)
    {
        if (r->imsi == imsi)
        {
            return &*r;
        }
    }
    return nullptr;
}

void
HandoverRecorder::AwaitFirstDecode(uint64_t imsi, std::size_t record)
{
    if (record < m_records.size())
    {
        m_awaitingDecode[imsi] = record;
    }
    else
    {
        m_awaitingDecode.erase(imsi);
    }
}

void
HandoverRecorder::HandoverDone(uint64_t imsi, uint16_t targetCell)
{
    HandoverDoneAt(imsi, targetCell, Simulator::Now());
}

void
HandoverRecorder::HandoverDoneAt(uint64_t imsi, uint16_t targetCell, Time at)
{
    for (auto r = m_records.rbegin(); r != m_records.rend(); ++r)
    {
        if (r->imsi == imsi)
        {
            if (r->targetCell == targetCell && r->hoEndOk.IsStrictlyNegative())
            {
                r->hoEndOk = at;
            }
            return; // only the latest handover of the UE can be the one that ended
        }
    }
}

void
HandoverRecorder::TokenGenerated(uint64_t imsi, uint64_t index)
{
    auto it = m_awaitingDecode.find(imsi);
    if (it == m_awaitingDecode.end() || index < m_records[it->second].resumeIndex)
    {
        return;
    }
    m_records[it->second].firstDecode = Simulator::Now();
    m_awaitingDecode.erase(it);
}

} // namespace ns3
