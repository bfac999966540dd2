/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_RECORD_H
#define EDGE_LLM_HANDOVER_RECORD_H

#include "handover-plan.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One handover of one session, as the coordinator carried it out.
 */
struct HandoverRecord
{
    /// How the handover ended for the session.
    enum Outcome
    {
        PENDING,    //!< the migration is still under way
        MIGRATED,   //!< the target holds the session and decodes it
        RELAYED,    //!< the session stayed where it was; its tokens are relayed (Detour)
        REUSED,     //!< the UE came back to the cell that holds the cache; it decodes there again
        CANCELLED,  //!< a later handover (or a wrong prediction) replaced this migration
        NO_SESSION, //!< nothing to move: no session, or its last token was generated already
        FAILED,     //!< the RAN reported the handover failed; the holder decodes on
        CLOSED,     //!< the UE was released mid-migration; the holder keeps the session
    };

    std::string scheme;         //!< the scheduler's scheme name
    uint32_t group{0};          //!< oracle or online cycle group from 1; 0 for plans alone
                                //!< and relays
    uint64_t imsi{0};           //!< the UE
    uint16_t sourceCell{0};     //!< cell the UE left
    uint16_t targetCell{0};     //!< cell the UE joined
    uint16_t holderCell{0};     //!< cell whose server held the session and its cache
    uint64_t contextTokens{0};  //!< C_i: the KV tokens the holder had when it stopped decoding
    uint64_t prefillTokens{0};  //!< tokens re-prefilled at the target: [0, prefillTokens)
    uint64_t transferTokens{0}; //!< tokens whose KV cache is sent: [prefillTokens, C_i)
    uint64_t kvBytes{0};        //!< KV bytes announced to the backhaul
    uint64_t prefixTokens{0};   //!< the plan's L
    Time hoStart;               //!< tau_i: the source cell's HandoverStart
    Time hoEndOk{-1};           //!< the RAN's HandoverDone into targetCell; negative if none
    /// When its plan was applied: hoStart with an ideal control plane, later once its
    /// control messages crossed the backhaul; negative if not yet
    Time planApplied{-1};
    Time kvReady{-1};        //!< when the target had the whole cache; negative if never
    uint32_t resumeIndex{0}; //!< index of the first token generated after the handover
    /// When resumeIndex was generated: the session's first decode step at the target, or at
    /// the holder for a relay; negative if never
    Time firstDecode{-1};
    Outcome outcome{PENDING}; //!< how it ended
    Time predictedDelay{0};   //!< the plan's predicted delay for the group's worst session
    uint32_t epoch{0};        //!< the migration's transfer epoch; 0 if none
    Time preparedAt{-1};      //!< when the migration was prepared; negative if it was not
    /// The unit of transferRanges and arrived
    KvTransferHeader::RangeUnit unit{KvTransferHeader::TOKEN};
    std::vector<TokenRange> transferRanges; //!< the KV ranges the plan sent, resolved
    /// The KV ranges that arrived by the resume, as the target's receiver counted them; with
    /// a resume deadline (AT_DEADLINE), by the deadline, even if a late prefix held the resume
    std::vector<TokenRange> arrived;
    /// KV bytes of the transfer that had not arrived by the deadline of a resume: withdrawn
    /// before TCP, in flight and then dropped as stale, or arrived after the deadline
    uint64_t abandonedBytes{0};
    uint64_t wastedBytes{0};    //!< KV bytes of prepared work thrown away (sent to TCP)
    double wastedGpuSeconds{0}; //!< GPU time of prepared prefills thrown away, s
    std::map<std::string, double> policyValues; //!< the policy's own results, by name
    uint32_t replans{0}; //!< times its plan was replaced as its cycle group grew
    uint32_t stalls{0};  //!< times its committed transfer was found stalled (StallTimeout)
    /// Tokens re-prefilled at the target because their KV did not arrive (StallPolicy
    /// Reprefill), on top of prefillTokens
    uint64_t reprefillTokens{0};
    /// Backhaul links between the holder and the target cell on the session's relay path once
    /// the handover was routed: 1 for a neighbour, more as a relay chain grows cell by cell
    /// (Detour); 0 when the target is the holder or no link leads there
    uint32_t relayHops{0};
};

/**
 * \param outcome an outcome
 * \return its lower-case name, e.g. "migrated"
 */
std::string HandoverOutcomeName(HandoverRecord::Outcome outcome);

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_RECORD_H */
