/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_RESULTS_H
#define EDGE_LLM_RESULTS_H

#include "ns3/application-container.h"
#include "ns3/handover-coordinator.h"
#include "ns3/handover-record.h"
#include "ns3/sit-breakdown.h"
#include "ns3/token-timing-stats.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One handover of a run, as a row of handovers.csv.
 */
struct EdgeLlmHandoverRow
{
    HandoverRecord record;      //!< what the coordinator recorded
    double hoDelayS{0};         //!< kvReady - hoStart, s; NaN unless migrated
    double sitS{0};             //!< the UE's SIT around it, s; NaN if not measured
    double firstTokenAfterS{0}; //!< delivery of its resume token, s; NaN if none
    uint64_t tokenBytes{0};     //!< forwarded token-ID bytes (prefill tokens x 4)
    double lastBeforeS{0};      //!< the SIT's start: last in-order delivery before it, s; NaN
    bool sitSplit{false};       //!< sitParts holds the SIT's parts
    SitBreakdown sitParts;      //!< the SIT taken apart at the record's milestones
};

/**
 * \ingroup edge-llm
 * \brief One session of a run, as a row of sessions.csv.
 */
struct EdgeLlmSessionRow
{
    uint64_t imsi{0};              //!< the UE
    double startS{0};              //!< when its client started, s
    uint32_t tokensToGenerate{0};  //!< tokens it asked for
    uint64_t delivered{0};         //!< tokens delivered to the application
    uint64_t duplicates{0};        //!< copies the client discarded
    uint64_t deliveredByResend{0}; //!< tokens whose first copy to arrive was a resend
    uint64_t nacksSent{0};         //!< NACKs the client sent
    bool complete{false};          //!< every token arrived
    uint32_t handovers{0};         //!< handover marks the client saw
    TokenTimingSummary summary;    //!< TTFT, ITL percentiles (exact, nearest rank), SIT
    bool closed{false};            //!< closed after a radio link failure
    uint64_t undelivered{0};       //!< if closed: tokens that never reached the application
};

/**
 * \ingroup edge-llm
 * \brief Everything one scheme's run produced, for any network the scenario layer builds.
 */
struct EdgeLlmRunResults
{
    std::string scheme;                        //!< the scheme's name
    std::vector<EdgeLlmHandoverRow> handovers; //!< one per handover record, in order
    std::vector<EdgeLlmSessionRow> sessions;   //!< one per client, in their order
};

/**
 * \ingroup edge-llm
 * \brief Results of a run, after it: one row per handover record and per client.
 *
 * A handover's SIT is the one its UE's client measured around the mark of its resume (the
 * token before resumeIndex), and its first token after is that client's delivery of
 * resumeIndex; both are NaN for a handover with no session or a cancelled one. The SIT is
 * taken apart at the record's HandoverStart, HandoverEndOk and KV ready (a migration's; for
 * the others the handover's end) and the generation of the token that ended it.
 * \param scheme the scheme's name
 * \param records the coordinator's records
 * \param clients the run's EdgeLlmClient applications
 * \return the results
 */
EdgeLlmRunResults CollectRunResults(const std::string& scheme,
                                    const std::vector<HandoverRecord>& records,
                                    const ApplicationContainer& clients);

/**
 * \ingroup edge-llm
 * \brief Mark the session rows of sessions a coordinator closed after a radio link failure,
 * with their undelivered tokens.
 * \param results the run's results, from CollectRunResults
 * \param closed the coordinator's closed sessions (HandoverCoordinator::GetClosedSessions)
 */
void NoteClosedSessions(EdgeLlmRunResults& results,
                        const std::map<uint64_t, HandoverCoordinator::ClosedSession>& closed);

/**
 * \ingroup edge-llm
 * \brief Write handovers.csv rows: one per handover, one scalar per cell, units in the
 * column names, empty cells for values not measured. Columns: scheme, group, imsi,
 * source_cell, target_cell, holder_cell, outcome, context_tokens, prefix_tokens (the plan's
 * L), prefill_tokens, transfer_tokens, kv_bytes, token_bytes, abandoned_bytes, wasted_bytes,
 * replans, stalls, reprefill_tokens (StallPolicy Reprefill), relay_hops (HandoverRecord::
 * relayHops), ho_start_s, kv_ready_s,
 * predicted_delay_s, ho_delay_s, sit_s, first_token_after_s, ho_end_ok_s, first_decode_s,
 * last_delivery_before_s, plan_applied_s, then the SIT's parts sit_radio_before_s,
 * sit_execution_s, sit_control_wait_s, sit_recovery_wait_s, sit_gpu_wait_s, sit_delivery_s (see
 * BreakDownSit), then one policy_NAME
 * column per policy value any row has. \param os where \param runs the runs, whose rows follow one
 * another
 */
void WriteHandoversCsv(std::ostream& os, const std::vector<EdgeLlmRunResults>& runs);

/**
 * \ingroup edge-llm
 * \brief Print where the handovers' interruptions went: per scheme, the mean of each SIT part
 * over its handovers with a measured SIT, in ms, and how many there were.
 * \param os where
 * \param runs the runs
 */
void PrintSitSplit(std::ostream& os, const std::vector<EdgeLlmRunResults>& runs);

/**
 * \ingroup edge-llm
 * \brief Write sessions.csv rows: one per session. Columns: scheme, imsi, start_s,
 * tokens_to_generate, tokens_delivered, duplicates, delivered_by_resend, nacks_sent,
 * complete (0 or 1), handovers, ttft_s, itl_mean_s, itl_p50_s, itl_p90_s, itl_p99_s,
 * sit_max_s, total_s (the last token's delivery minus start_s: the total streaming delay),
 * closed (0 or 1: closed after a radio link failure), undelivered_tokens (a closed session's
 * tokens that never reached the application; empty for the others).
 * \param os where
 * \param runs the runs
 */
void WriteSessionsCsv(std::ostream& os, const std::vector<EdgeLlmRunResults>& runs);

/**
 * \ingroup edge-llm
 * \brief What a result file's JSON sidecar says about the run that made it.
 */
struct EdgeLlmRunMetadata
{
    std::string program;                                         //!< the program's name
    std::vector<std::string> arguments;                          //!< its command line
    std::vector<std::pair<std::string, std::string>> parameters; //!< every flag, with its value
};

/**
 * \ingroup edge-llm
 * \brief Write the sidecar of a result file, at its path + ".json": the module's version,
 * the ns-3 version (MAJOR.MINOR.PATCH), git describe of the module's source ("unknown"
 * without git), RngSeed and RngRun, the command line, every flag with its value, and every
 * attribute default the command line or the program changed from its initial value.
 * \param resultPath the result file
 * \param metadata the run's own part
 * \return false if the file cannot be written
 */
bool WriteRunSidecar(const std::string& resultPath, const EdgeLlmRunMetadata& metadata);

/**
 * \ingroup edge-llm
 * \brief Write dir/handovers.csv and dir/sessions.csv of the runs, each with its sidecar.
 * \param dir an existing directory
 * \param runs the runs
 * \param metadata the run's own part of the sidecars
 * \return false if a file cannot be written
 */
bool WriteRunResults(const std::string& dir,
                     const std::vector<EdgeLlmRunResults>& runs,
                     const EdgeLlmRunMetadata& metadata);

/// \return the module's version, e.g. "0.1.0"
std::string EdgeLlmVersion();

/// \return the ns-3 version it was built against, "MAJOR.MINOR.PATCH", or "unknown"
std::string EdgeLlmNs3Version();

/// \return git describe of the module's source when it was configured, or "unknown"
std::string EdgeLlmGitDescribe();

} // namespace ns3

#endif /* EDGE_LLM_RESULTS_H */
