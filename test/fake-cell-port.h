/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_FAKE_CELL_PORT_H
#define EDGE_LLM_FAKE_CELL_PORT_H

#include "ns3/abort.h"
#include "ns3/edge-llm-module.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{
namespace edgellm
{

/// A cell that knows its sessions' sizes and nothing else: the code under test must ask it for
/// no more (a test overrides what it needs).
class FakeCellPort : public CellPort
{
  public:
    /// \param id the cell's id \param cycle its engine's prefill cycle
    FakeCellPort(uint16_t id, Time cycle)
        : m_id(id),
          m_cycle(cycle),
          m_model(LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName()))
    {
    }

    /// Hold a session. \param imsi the UE \param context its context, tokens
    void AddSession(uint64_t imsi, uint64_t context)
    {
        m_context[imsi] = context;
        m_state[imsi].tokensToGenerate = 200;
        m_state[imsi].generated = 50;
    }

    uint16_t GetCellId() const override
    {
        return m_id;
    }

    bool HasSession(uint64_t imsi) const override
    {
        return m_context.count(imsi) > 0;
    }

    bool OwnsSession(uint64_t imsi) const override
    {
        return HasSession(imsi);
    }

    bool IsDecoding(uint64_t /* imsi */) const override
    {
        return true;
    }

    uint64_t GetNextTokenIndex(uint64_t imsi) const override
    {
        return m_state.at(imsi).generated;
    }

    uint64_t GetContextTokens(uint64_t imsi) const override
    {
        return m_context.at(imsi);
    }

    const EdgeLlmServer::SessionState& GetSessionState(uint64_t imsi) const override
    {
        return m_state.at(imsi);
    }

    uint64_t StopDecoding(uint64_t /* imsi */) override
    {
        Unused("StopDecoding");
        return 0;
    }

    void ResumeDecoding(uint64_t, uint64_t, uint64_t) override
    {
        Unused("ResumeDecoding");
    }

    void MarkHandover(uint64_t) override
    {
        Unused("MarkHandover");
    }

    LlmEngine::Admission AdmitMigrated(uint64_t, uint64_t, uint64_t) override
    {
        Unused("AdmitMigrated");
        return LlmEngine::Admission::REJECTED;
    }

    uint32_t EvictFor(uint64_t) override
    {
        Unused("EvictFor");
        return 0;
    }

    void RemoveSession(uint64_t) override
    {
        Unused("RemoveSession");
    }

    EdgeLlmServer::SessionState ExportSession(uint64_t) override
    {
        Unused("ExportSession");
        return {};
    }

    void ImportSession(uint64_t, EdgeLlmServer::SessionState) override
    {
        Unused("ImportSession");
    }

    EdgeLlmServer::SessionState CloseSession(uint64_t) override
    {
        Unused("CloseSession");
        return {};
    }

    void SubmitPrefillBatch(const std::vector<std::pair<uint64_t, uint64_t>>&) override
    {
        Unused("SubmitPrefillBatch");
    }

    void SubmitPrefill(uint64_t, uint64_t) override
    {
        Unused("SubmitPrefill");
    }

    bool ResizeQueuedPrefill(uint64_t, uint64_t) override
    {
        Unused("ResizeQueuedPrefill");
        return false;
    }

    bool IsPrefillWaiting(uint64_t) const override
    {
        Unused("IsPrefillWaiting");
        return false;
    }

    void GrowContext(uint64_t, uint64_t) override
    {
        Unused("GrowContext");
    }

    Time GetIterationEnd() const override
    {
        return Time(0);
    }

    Time GetPrefillBoundary(Time at) const override
    {
        const int64_t cycles =
            (at.GetTimeStep() + m_cycle.GetTimeStep() - 1) / m_cycle.GetTimeStep();
        return TimeStep(cycles * m_cycle.GetTimeStep());
    }

    Time GetPrefillCycle() const override
    {
        return m_cycle;
    }

    LlmEngine::IterationMode GetIterationMode() const override
    {
        return LlmEngine::IterationMode::SEPARATE; // the plans keep the paper's batch
    }

    std::vector<LlmEngine::PrefillForecast> ForecastPrefills(const std::vector<uint64_t>&,
                                                             Time,
                                                             const std::vector<uint64_t>&) override
    {
        NS_ABORT_MSG("a Separate engine's plans do not ask for its replay");
        return {};
    }

    const LlmComputeModel& GetComputeModel() const override
    {
        return m_model;
    }

    KvCacheProfile GetKvCacheProfile() const override
    {
        return KvCacheProfile::FromPreset("Qwen2.5-7B-Instruct");
    }

    uint64_t GetKvCapacityTokens() const override
    {
        return 1000000;
    }

    uint64_t GetKvTokensInUse() const override
    {
        return 0;
    }

    bool HasRelayPeer(uint16_t) const override
    {
        return false;
    }

    void StartRelay(uint64_t, uint16_t) override
    {
        Unused("StartRelay");
    }

    void StopRelay(uint64_t) override
    {
        Unused("StopRelay");
    }

    void ExpectEpoch(uint64_t, uint32_t, KvDiscardReason) override
    {
        Unused("ExpectEpoch");
    }

    uint32_t GetExpectedEpoch(uint64_t) const override
    {
        Unused("GetExpectedEpoch");
        return 0;
    }

    edgellm::RangeSet GetReceivedRanges(uint64_t) const override
    {
        Unused("GetReceivedRanges");
        return {};
    }

    uint64_t GetReceivedBytes(uint64_t) const override
    {
        Unused("GetReceivedBytes");
        return 0;
    }

    void SetKvSender(uint16_t, Ptr<KvTransferSender>) override
    {
        Unused("SetKvSender");
    }

    bool HasKvPeer(uint16_t peer) const override
    {
        return peer != m_id; // a link to every other cell
    }

    void EnqueueKv(uint16_t, const KvTransferRequest&) override
    {
        Unused("EnqueueKv");
    }

    void AppendKv(uint16_t, uint64_t, uint32_t, const std::vector<TokenRange>&, bool) override
    {
        Unused("AppendKv");
    }

    uint64_t CancelKv(uint16_t, uint64_t, uint32_t, KvDiscardReason) override
    {
        Unused("CancelKv");
        return 0;
    }

    bool SetKvDeadline(uint16_t, uint64_t, uint32_t, Time) override
    {
        Unused("SetKvDeadline");
        return false;
    }

    KvTransferSenderCounters GetKvCounters(uint16_t, uint64_t) const override
    {
        Unused("GetKvCounters");
        return {};
    }

    void RescheduleKv(uint16_t) override
    {
        Unused("RescheduleKv");
    }

    std::vector<TokenRange> GetUnsentKvRanges(uint16_t, uint64_t, uint32_t) const override
    {
        Unused("GetUnsentKvRanges");
        return {};
    }

    bool HasPendingKvControl(uint16_t, uint64_t, uint32_t) const override
    {
        Unused("HasPendingKvControl");
        return false;
    }

    KvLinkLoad GetKvLinkLoad(uint16_t peer) const override
    {
        NS_ABORT_MSG_IF(peer == m_id, "FakeCellPort: no link to itself");
        return {}; // idle: nothing queued, buffered or being written, and no delay
    }

    void Listen(const Listener&) override
    {
        Unused("Listen");
    }

  protected:
    /// Stop the run: the code under test called what it has no business calling.
    /// \param what its name
    static void Unused(const char* what)
    {
        NS_FATAL_ERROR("FakeCellPort: the code under test called " << what
                                                                   << ", which it must not");
    }

  private:
    uint16_t m_id;                                           //!< the cell's id
    Time m_cycle;                                            //!< its engine's prefill cycle
    LlmComputeModel m_model;                                 //!< its engine's model
    std::map<uint64_t, uint64_t> m_context;                  //!< context by IMSI
    std::map<uint64_t, EdgeLlmServer::SessionState> m_state; //!< server state by IMSI
};

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_FAKE_CELL_PORT_H */
