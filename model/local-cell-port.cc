/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "local-cell-port.h"

#include "ns3/abort.h"
#include "ns3/nstime.h"

namespace ns3
{

LocalCellPort::LocalCellPort(Ptr<EdgeLlmServer> server, Ptr<KvTransferApplication> kv)
    : m_server(server),
      m_engine(server->GetEngine()),
      m_receiver(kv->GetReceiver())
{
}

uint16_t
LocalCellPort::GetCellId() const
{
    return m_server->GetCellId();
}

bool
LocalCellPort::HasSession(uint64_t imsi) const
{
    return m_engine->HasSession(imsi);
}

bool
LocalCellPort::OwnsSession(uint64_t imsi) const
{
    return m_server->OwnsSession(imsi);
}

bool
LocalCellPort::IsDecoding(uint64_t imsi) const
{
    return m_engine->IsDecoding(imsi);
}

uint64_t
LocalCellPort::GetNextTokenIndex(uint64_t imsi) const
{
    return m_engine->GetNextTokenIndex(imsi);
}

uint64_t
LocalCellPort::GetContextTokens(uint64_t imsi) const
{
    return m_engine->GetContextTokens(imsi);
}

const EdgeLlmServer::SessionState&
LocalCellPort::GetSessionState(uint64_t imsi) const
{
    return m_server->GetSessionState(imsi);
}

uint64_t
LocalCellPort::StopDecoding(uint64_t imsi)
{
    return m_engine->StopDecoding(imsi);
}

void
LocalCellPort::ResumeDecoding(uint64_t imsi, uint64_t next, uint64_t count)
{
    m_engine->ResumeDecoding(imsi, next, count);
}

void
LocalCellPort::MarkHandover(uint64_t imsi)
{
    m_server->MarkHandover(imsi);
}

LlmEngine::Admission
LocalCellPort::AdmitMigrated(uint64_t imsi, uint64_t context, uint64_t remaining)
{
    return m_engine->AddResumedSession(imsi, context, remaining);
}

uint32_t
LocalCellPort::EvictFor(uint64_t imsi)
{
    return m_engine->EvictFor(imsi);
}

void
LocalCellPort::RemoveSession(uint64_t imsi)
{
    m_engine->RemoveSession(imsi);
}

EdgeLlmServer::SessionState
LocalCellPort::ExportSession(uint64_t imsi)
{
    return m_server->ExportSession(imsi);
}

void
LocalCellPort::ImportSession(uint64_t imsi, EdgeLlmServer::SessionState state)
{
    m_server->ImportSession(imsi, std::move(state));
}

EdgeLlmServer::SessionState
LocalCellPort::CloseSession(uint64_t imsi)
{
    return m_server->CloseSession(imsi);
}

void
LocalCellPort::SubmitPrefillBatch(const std::vector<std::pair<uint64_t, uint64_t>>& jobs)
{
    m_engine->SubmitPrefillBatch(jobs, true);
}

void
LocalCellPort::SubmitPrefill(uint64_t imsi, uint64_t tokens)
{
    m_engine->SubmitPrefill(imsi, tokens, true);
}

bool
LocalCellPort::ResizeQueuedPrefill(uint64_t imsi, uint64_t tokens)
{
    return m_engine->ResizeQueuedPrefill(imsi, tokens);
}

bool
LocalCellPort::IsPrefillWaiting(uint64_t imsi) const
{
    return m_engine->IsPrefillWaiting(imsi);
}

void
LocalCellPort::GrowContext(uint64_t imsi, uint64_t tokens)
{
    m_engine->GrowContext(imsi, tokens);
}

Time
LocalCellPort::GetIterationEnd() const
{
    return m_engine->GetIterationEnd();
}

LlmEngine::IterationMode
LocalCellPort::GetIterationMode() const
{
    return m_engine->GetIterationMode();
}

std::vector<LlmEngine::PrefillForecast>
LocalCellPort::ForecastPrefills(const std::vector<uint64_t>& jobs,
                                Time from,
                                const std::vector<uint64_t>& replacing)
{
    return m_engine->ForecastPrefills(jobs, from, replacing);
}

Time
LocalCellPort::GetPrefillBoundary(Time at) const
{
    return m_engine->GetPrefillBoundary(at);
}

Time
LocalCellPort::GetPrefillCycle() const
{
    TimeValue cycle;
    m_engine->GetAttribute("PrefillCycle", cycle);
    return cycle.Get();
}

const LlmComputeModel&
LocalCellPort::GetComputeModel() const
{
    return m_engine->GetLlmComputeModel();
}

KvCacheProfile
LocalCellPort::GetKvCacheProfile() const
{
    return m_server->GetKvCacheModel()->GetProfile();
}

uint64_t
LocalCellPort::GetKvCapacityTokens() const
{
    return m_engine->GetKvCapacityTokens();
}

uint64_t
LocalCellPort::GetKvTokensInUse() const
{
    return m_engine->GetKvTokensInUse();
}

bool
LocalCellPort::HasRelayPeer(uint16_t cellId) const
{
    return m_server->HasRelayPeer(cellId);
}

void
LocalCellPort::StartRelay(uint64_t imsi, uint16_t cellId)
{
    m_server->StartRelay(imsi, cellId);
}

void
LocalCellPort::StopRelay(uint64_t imsi)
{
    m_server->StopRelay(imsi);
}

void
LocalCellPort::ExpectEpoch(uint64_t imsi, uint32_t epoch, KvDiscardReason reason)
{
    m_receiver->ExpectEpoch(imsi, epoch, reason);
}

uint32_t
LocalCellPort::GetExpectedEpoch(uint64_t imsi) const
{
    return m_receiver->GetCurrentEpoch(imsi);
}

edgellm::RangeSet
LocalCellPort::GetReceivedRanges(uint64_t imsi) const
{
    return m_receiver->GetReceivedRanges(imsi);
}

uint64_t
LocalCellPort::GetReceivedBytes(uint64_t imsi) const
{
    return m_receiver->GetCounters(imsi).received;
}

void
LocalCellPort::SetKvSender(uint16_t peer, Ptr<KvTransferSender> sender)
{
    NS_ABORT_MSG_IF(!sender, "LocalCellPort::SetKvSender: no sender to cell " << peer);
    m_senders[peer] = sender;
}

bool
LocalCellPort::HasKvPeer(uint16_t peer) const
{
    return m_senders.count(peer) > 0;
}

Ptr<KvTransferSender>
LocalCellPort::SenderTo(uint16_t peer) const
{
    auto it = m_senders.find(peer);
    NS_ABORT_MSG_IF(it == m_senders.end(),
                    "cell " << GetCellId() << " has no KV sender to cell " << peer);
    return it->second;
}

void
LocalCellPort::EnqueueKv(uint16_t peer, const KvTransferRequest& request)
{
    SenderTo(peer)->Enqueue(request);
}

void
LocalCellPort::AppendKv(uint16_t peer,
                        uint64_t imsi,
                        uint32_t epoch,
                        const std::vector<TokenRange>& ranges,
                        bool seal)
{
    if (seal)
    {
        SenderTo(peer)->Seal(imsi, epoch, ranges);
    }
    else
    {
        SenderTo(peer)->Append(imsi, epoch, ranges);
    }
}

uint64_t
LocalCellPort::CancelKv(uint16_t peer, uint64_t imsi, uint32_t epoch, KvDiscardReason reason)
{
    return SenderTo(peer)->Cancel(imsi, epoch, reason);
}

bool
LocalCellPort::SetKvDeadline(uint16_t peer, uint64_t imsi, uint32_t epoch, Time deadline)
{
    return SenderTo(peer)->SetDeadline(imsi, epoch, deadline);
}

KvTransferSenderCounters
LocalCellPort::GetKvCounters(uint16_t peer, uint64_t imsi) const
{
    return SenderTo(peer)->GetCounters(imsi);
}

void
LocalCellPort::RescheduleKv(uint16_t peer)
{
    SenderTo(peer)->Reschedule();
}

std::vector<TokenRange>
LocalCellPort::GetUnsentKvRanges(uint16_t peer, uint64_t imsi, uint32_t epoch) const
{
    return SenderTo(peer)->GetUnsentRanges(imsi, epoch);
}

bool
LocalCellPort::HasPendingKvControl(uint16_t peer, uint64_t imsi, uint32_t epoch) const
{
    return SenderTo(peer)->HasPendingControl(imsi, epoch);
}

CellPort::KvLinkLoad
LocalCellPort::GetKvLinkLoad(uint16_t peer) const
{
    Ptr<KvTransferSender> sender = SenderTo(peer);
    KvLinkLoad load;
    load.backlogBytes = sender->GetBacklogBytes();
    load.socketBufferedBytes = sender->GetSocketBufferedBytes();
    load.writingBytesLeft = sender->GetWritingBytesLeft();
    load.linkDelay = sender->GetLinkDelay();
    return load;
}

void
LocalCellPort::Listen(const Listener& listener)
{
    m_receiver->SetTokensCallback(listener.tokensArrived);
    m_receiver->SetGoodputCallback(listener.kvGoodput);
    m_receiver->SetAnnouncedCallback(listener.kvAnnounced);
    m_receiver->SetCompleteCallback(listener.kvComplete);
    m_engine->TraceConnectWithoutContext("PrefillCompleted", listener.prefillCompleted);
    m_engine->TraceConnectWithoutContext("TokenGenerated", listener.tokenGenerated);
}

} // namespace ns3
