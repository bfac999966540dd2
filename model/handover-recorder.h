/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_RECORDER_H
#define EDGE_LLM_HANDOVER_RECORDER_H

#include "handover-record.h"
#include "ran-observer.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Keeps a HandoverRecord per handover and per prepared migration, in the order they
 * began, and fills in the milestones it hears of itself.
 *
 * The coordinator adds a record when a handover is planned and fills in what it decides.
 * The recorder listens to the RAN observer for the end of the handover at the RAN
 * (`hoEndOk`, from HandoverDone) and to every engine for the first token decoded after the
 * resume (`firstDecode`).
 */
class HandoverRecorder
{
  public:
    /// Listen to a RAN observer's HandoverDone. \param observer the observer
    void Install(Ptr<RanObserver> observer);

    /// A cell's engine decoded a token. \param imsi the UE \param index the token's index
    void TokenGenerated(uint64_t imsi, uint64_t index);

    /// \param record a new record \return its index
    std::size_t Add(const HandoverRecord& record);

    /// \param i an index from Add \return that record
    HandoverRecord& operator[](std::size_t i);

    /// \param i an index from Add \return that record
    const HandoverRecord& operator[](std::size_t i) const;

    /// \return the last record added
    HandoverRecord& Back();

    /// \return how many records there are
    std::size_t Size() const;

    /// \return every record, in the order they began
    const std::vector<HandoverRecord>& GetAll() const;

    /// \param imsi a UE \return its latest record, or null
    const HandoverRecord* Latest(uint64_t imsi) const;

    /**
     * \brief Fill a record's firstDecode with the first token of its session decoded at or
     * after its resumeIndex, or stop waiting for one.
     * \param imsi the UE
     * \param record the record's index; Size() or more to stop waiting
     */
    void AwaitFirstDecode(uint64_t imsi, std::size_t record);

    /**
     * \brief HandoverDone, heard after the fact: a control plane on the network reports it
     * behind the UE's earlier events.
     * \param imsi the UE \param targetCell where it ended \param at when it ended
     */
    void HandoverDoneAt(uint64_t imsi, uint16_t targetCell, Time at);

  private:
    /// The RAN's HandoverDone: the UE's latest record, if to that target, has ended there.
    void HandoverDone(uint64_t imsi, uint16_t targetCell);

    std::vector<HandoverRecord> m_records;            //!< every record
    std::map<uint64_t, std::size_t> m_awaitingDecode; //!< IMSI to its record without firstDecode
};

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_RECORDER_H */
