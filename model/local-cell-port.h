/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LOCAL_CELL_PORT_H
#define EDGE_LLM_LOCAL_CELL_PORT_H

#include "cell-port.h"
#include "edge-llm-server.h"
#include "kv-transfer-application.h"
#include "llm-engine.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A CellPort that calls the cell's server, engine and KV receiver directly: the
 * coordinator's commands take no time.
 */
class LocalCellPort : public CellPort
{
  public:
    /**
     * \param server the cell's server
     * \param kv the KV-transfer application on its node
     */
    LocalCellPort(Ptr<EdgeLlmServer> server, Ptr<KvTransferApplication> kv);

    uint16_t GetCellId() const override;
    bool HasSession(uint64_t imsi) const override;
    bool OwnsSession(uint64_t imsi) const override;
    bool IsDecoding(uint64_t imsi) const override;
    uint64_t GetNextTokenIndex(uint64_t imsi) const override;
    uint64_t GetContextTokens(uint64_t imsi) const override;
    const EdgeLlmServer::SessionState& GetSessionState(uint64_t imsi) const override;
    uint64_t StopDecoding(uint64_t imsi) override;
    void ResumeDecoding(uint64_t imsi, uint64_t next, uint64_t count) override;
    void MarkHandover(uint64_t imsi) override;
    LlmEngine::Admission AdmitMigrated(uint64_t imsi,
                                       uint64_t context,
                                       uint64_t remaining) override;
    uint32_t EvictFor(uint64_t imsi) override;
    void RemoveSession(uint64_t imsi) override;
    EdgeLlmServer::SessionState ExportSession(uint64_t imsi) override;
    void ImportSession(uint64_t imsi, EdgeLlmServer::SessionState state) override;
    EdgeLlmServer::SessionState CloseSession(uint64_t imsi) override;
    void SubmitPrefillBatch(const std::vector<std::pair<uint64_t, uint64_t>>& jobs) override;
    void SubmitPrefill(uint64_t imsi, uint64_t tokens) override;
    bool ResizeQueuedPrefill(uint64_t imsi, uint64_t tokens) override;
    bool IsPrefillWaiting(uint64_t imsi) const override;
    void GrowContext(uint64_t imsi, uint64_t tokens) override;
    Time GetIterationEnd() const override;
    Time GetPrefillBoundary(Time at) const override;
    Time GetPrefillCycle() const override;
    LlmEngine::IterationMode GetIterationMode() const override;
    std::vector<LlmEngine::PrefillForecast> ForecastPrefills(
        const std::vector<uint64_t>& jobs,
        Time from,
        const std::vector<uint64_t>& replacing) override;
    const LlmComputeModel& GetComputeModel() const override;
    KvCacheProfile GetKvCacheProfile() const override;
    uint64_t GetKvCapacityTokens() const override;
    uint64_t GetKvTokensInUse() const override;
    bool HasRelayPeer(uint16_t cellId) const override;
    void StartRelay(uint64_t imsi, uint16_t cellId) override;
    void StopRelay(uint64_t imsi) override;
    void ExpectEpoch(uint64_t imsi, uint32_t epoch, KvDiscardReason reason) override;
    uint32_t GetExpectedEpoch(uint64_t imsi) const override;
    edgellm::RangeSet GetReceivedRanges(uint64_t imsi) const override;
    uint64_t GetReceivedBytes(uint64_t imsi) const override;
    void SetKvSender(uint16_t peer, Ptr<KvTransferSender> sender) override;
    bool HasKvPeer(uint16_t peer) const override;
    void EnqueueKv(uint16_t peer, const KvTransferRequest& request) override;
    void AppendKv(uint16_t peer,
                  uint64_t imsi,
                  uint32_t epoch,
                  const std::vector<TokenRange>& ranges,
                  bool seal) override;
    uint64_t CancelKv(uint16_t peer,
                      uint64_t imsi,
                      uint32_t epoch,
                      KvDiscardReason reason) override;
    bool SetKvDeadline(uint16_t peer, uint64_t imsi, uint32_t epoch, Time deadline) override;
    KvTransferSenderCounters GetKvCounters(uint16_t peer, uint64_t imsi) const override;
    void RescheduleKv(uint16_t peer) override;
    std::vector<TokenRange> GetUnsentKvRanges(uint16_t peer,
                                              uint64_t imsi,
                                              uint32_t epoch) const override;
    bool HasPendingKvControl(uint16_t peer, uint64_t imsi, uint32_t epoch) const override;
    KvLinkLoad GetKvLinkLoad(uint16_t peer) const override;
    void Listen(const Listener& listener) override;

  private:
    /// \param peer another cell \return the sender to it (stops the run if there is none)
    Ptr<KvTransferSender> SenderTo(uint16_t peer) const;

    Ptr<EdgeLlmServer> m_server;                         //!< the server
    Ptr<LlmEngine> m_engine;                             //!< its engine
    Ptr<KvTransferReceiver> m_receiver;                  //!< the KV receiver on its node
    std::map<uint16_t, Ptr<KvTransferSender>> m_senders; //!< the KV senders, by peer cell
};

} // namespace ns3

#endif /* EDGE_LLM_LOCAL_CELL_PORT_H */
