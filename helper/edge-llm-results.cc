/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-llm-results.h"

#include "ns3/edge-llm-client.h"
#include "ns3/kv-transfer-header.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <array>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <set>
#include <sstream>

// An ns-3 tree passes its release (EDGE_LLM_NS3_RELEASE): its own ns3/version-defines.h may be
// missing, and this include would then find an installed ns-3's.
#if !defined(EDGE_LLM_NS3_RELEASE) && __has_include("ns3/version-defines.h")
#include "ns3/version-defines.h"
#endif

namespace ns3
{

namespace
{

constexpr double NOT_MEASURED = std::numeric_limits<double>::quiet_NaN();

/// A time or a rate in a CSV cell: 9 decimals, empty when not measured.
std::string
Cell(double value)
{
    if (std::isnan(value))
    {
        return "";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(9) << value;
    return os.str();
}

/// A JSON string literal.
std::string
Quote(const std::string& text)
{
    std::ostringstream os;
    os << '"';
    for (const char c : text)
    {
        switch (c)
        {
        case '"':
            os << "\\\"";
            break;
        case '\\':
            os << "\\\\";
            break;
        case '\n':
            os << "\\n";
            break;
        case '\t':
            os << "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
            {
                os << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec
                   << std::setfill(' ');
            }
            else
            {
                os << c;
            }
        }
    }
    os << '"';
    return os.str();
}

} // namespace

EdgeLlmRunResults
CollectRunResults(const std::string& scheme,
                  const std::vector<HandoverRecord>& records,
                  const ApplicationContainer& clients)
{
    EdgeLlmRunResults run;
    run.scheme = scheme;
    std::map<uint64_t, Ptr<EdgeLlmClient>> byImsi;
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        Ptr<EdgeLlmClient> c = DynamicCast<EdgeLlmClient>(clients.Get(i));
        if (!c)
        {
            continue;
        }
        byImsi[c->GetImsi()] = c;
        EdgeLlmSessionRow s;
        s.imsi = c->GetImsi();
        s.startS = c->GetStartTime().GetSeconds();
        UintegerValue tokens;
        c->GetAttribute("TokensToGenerate", tokens);
        s.tokensToGenerate = static_cast<uint32_t>(tokens.Get());
        s.delivered = c->GetDeliveredTokens();
        s.duplicates = c->GetDuplicates();
        s.deliveredByResend = c->GetDeliveredByResend();
        s.nacksSent = c->GetNacksSent();
        s.complete = c->IsComplete();
        s.handovers = c->GetHandoverMarks().size();
        s.summary = c->GetSummary();
        run.sessions.push_back(s);
    }
    for (const HandoverRecord& r : records)
    {
        EdgeLlmHandoverRow row;
        row.record = r;
        const bool migrated = r.outcome == HandoverRecord::MIGRATED;
        row.hoDelayS = migrated && !r.kvReady.IsStrictlyNegative()
                           ? (r.kvReady - r.hoStart).GetSeconds()
                           : NOT_MEASURED;
        row.sitS = NOT_MEASURED;
        row.firstTokenAfterS = NOT_MEASURED;
        row.lastBeforeS = NOT_MEASURED;
        row.tokenBytes = r.prefillTokens * KvTransferHeader::BYTES_PER_TOKEN_ID;
        auto client = byImsi.find(r.imsi);
        const bool followed = r.outcome != HandoverRecord::CANCELLED &&
                              r.outcome != HandoverRecord::NO_SESSION && r.resumeIndex > 0;
        if (client != byImsi.end() && followed)
        {
            const std::vector<int64_t>& delivery = client->second->GetDeliveryTimesNs();
            if (r.resumeIndex < delivery.size() && delivery[r.resumeIndex] >= 0)
            {
                row.firstTokenAfterS = delivery[r.resumeIndex] * 1e-9;
            }
            for (const ClientInterruption& sit : client->second->GetInterruptions())
            {
                if (sit.markedIndex + 1 != r.resumeIndex)
                {
                    continue;
                }
                row.sitS = (sit.end - sit.lastBefore).GetSeconds();
                row.lastBeforeS = sit.lastBefore.GetSeconds();
                const auto seconds = [](Time t) {
                    return t.IsStrictlyNegative() ? NOT_MEASURED : t.GetSeconds();
                };
                const double endOk = seconds(r.hoEndOk);
                const double ready =
                    r.outcome == HandoverRecord::MIGRATED ? seconds(r.kvReady) : endOk;
                row.sitParts = BreakDownSit({row.lastBeforeS,
                                             r.hoStart.GetSeconds(),
                                             endOk,
                                             seconds(r.planApplied),
                                             ready,
                                             sit.endGenerated.GetSeconds(),
                                             sit.end.GetSeconds()});
                row.sitSplit = true;
            }
        }
        run.handovers.push_back(row);
    }
    return run;
}

void
WriteHandoversCsv(std::ostream& os, const std::vector<EdgeLlmRunResults>& runs)
{
    std::set<std::string> policy;
    for (const EdgeLlmRunResults& run : runs)
    {
        for (const EdgeLlmHandoverRow& row : run.handovers)
        {
            for (const auto& [name, value] : row.record.policyValues)
            {
                policy.insert(name);
            }
        }
    }
    os << "scheme,group,imsi,source_cell,target_cell,holder_cell,outcome,context_tokens,"
          "prefix_tokens,prefill_tokens,transfer_tokens,kv_bytes,token_bytes,abandoned_bytes,"
          "wasted_bytes,replans,stalls,reprefill_tokens,relay_hops,ho_start_s,kv_ready_s,"
          "predicted_delay_s,ho_delay_s,sit_s,"
          "first_token_after_s,ho_end_ok_s,first_decode_s,last_delivery_before_s,"
          "plan_applied_s";
    for (const char* part : SitBreakdown::NAMES)
    {
        os << ",sit_" << part << "_s";
    }
    for (const std::string& name : policy)
    {
        os << ",policy_" << name;
    }
    os << '\n';
    for (const EdgeLlmRunResults& run : runs)
    {
        for (const EdgeLlmHandoverRow& row : run.handovers)
        {
            const HandoverRecord& r = row.record;
            const bool ready = !std::isnan(row.hoDelayS);
            os << run.scheme << ',' << r.group << ',' << r.imsi << ',' << r.sourceCell << ','
               << r.targetCell << ',' << r.holderCell << ',' << HandoverOutcomeName(r.outcome)
               << ',' << r.contextTokens << ',' << r.prefixTokens << ',' << r.prefillTokens << ','
               << r.transferTokens << ',' << r.kvBytes << ',' << row.tokenBytes << ','
               << r.abandonedBytes << ',' << r.wastedBytes << ',' << r.replans << ',' << r.stalls
               << ',' << r.reprefillTokens << ',' << r.relayHops << ','
               << Cell(r.hoStart.GetSeconds()) << ','
               << Cell(ready ? r.kvReady.GetSeconds() : NOT_MEASURED) << ','
               << Cell(ready ? r.predictedDelay.GetSeconds() : NOT_MEASURED) << ','
               << Cell(row.hoDelayS) << ',' << Cell(row.sitS) << ',' << Cell(row.firstTokenAfterS)
               << ','
               << Cell(r.hoEndOk.IsStrictlyNegative() ? NOT_MEASURED : r.hoEndOk.GetSeconds())
               << ','
               << Cell(r.firstDecode.IsStrictlyNegative() ? NOT_MEASURED
                                                          : r.firstDecode.GetSeconds())
               << ',' << Cell(row.lastBeforeS) << ','
               << Cell(r.planApplied.IsStrictlyNegative() ? NOT_MEASURED
                                                          : r.planApplied.GetSeconds());
            for (const double part : row.sitParts.Parts())
            {
                os << ',' << Cell(row.sitSplit ? part : NOT_MEASURED);
            }
            for (const std::string& name : policy)
            {
                auto v = r.policyValues.find(name);
                os << ',' << (v == r.policyValues.end() ? "" : Cell(v->second));
            }
            os << '\n';
        }
    }
}

void
PrintSitSplit(std::ostream& os, const std::vector<EdgeLlmRunResults>& runs)
{
    // The control plane's column only when it cost something: an ideal one's tables stay as
    // they were.
    bool control = false;
    for (const EdgeLlmRunResults& run : runs)
    {
        for (const EdgeLlmHandoverRow& row : run.handovers)
        {
            control = control || (row.sitSplit && row.sitParts.controlWaitS > 0);
        }
    }
    os << "\nSIT split, mean over handovers [ms]:\n"
       << " scheme      n  radio-before  execution" << (control ? "  control-wait" : "")
       << "  recovery-wait  gpu-wait  delivery     SIT\n";
    for (const EdgeLlmRunResults& run : runs)
    {
        std::array<double, 6> sum{};
        double sit = 0;
        uint32_t n = 0;
        for (const EdgeLlmHandoverRow& row : run.handovers)
        {
            if (!row.sitSplit)
            {
                continue;
            }
            ++n;
            const std::array<double, 6> parts = row.sitParts.Parts();
            for (std::size_t i = 0; i < parts.size(); ++i)
            {
                sum[i] += parts[i];
            }
            sit += row.sitS;
        }
        const auto ms = [n](double total, int width) {
            std::ostringstream cell;
            cell << std::setw(width) << std::fixed << std::setprecision(1);
            if (n == 0)
            {
                cell << "-";
            }
            else
            {
                cell << total / n * 1e3;
            }
            return cell.str();
        };
        os << std::setw(7) << run.scheme << std::setw(7) << n << ms(sum[0], 14) << ms(sum[1], 11)
           << (control ? ms(sum[2], 14) : "") << ms(sum[3], 15) << ms(sum[4], 10) << ms(sum[5], 10)
           << ms(sit, 8) << '\n';
    }
}

void
NoteClosedSessions(EdgeLlmRunResults& results,
                   const std::map<uint64_t, HandoverCoordinator::ClosedSession>& closed)
{
    for (EdgeLlmSessionRow& row : results.sessions)
    {
        auto it = closed.find(row.imsi);
        row.closed = it != closed.end();
        row.undelivered = row.closed ? it->second.undelivered : 0;
    }
}

void
WriteSessionsCsv(std::ostream& os, const std::vector<EdgeLlmRunResults>& runs)
{
    os << "scheme,imsi,start_s,tokens_to_generate,tokens_delivered,duplicates,"
          "delivered_by_resend,nacks_sent,complete,handovers,ttft_s,itl_mean_s,itl_p50_s,"
          "itl_p90_s,itl_p99_s,sit_max_s,total_s,closed,undelivered_tokens\n";
    for (const EdgeLlmRunResults& run : runs)
    {
        for (const EdgeLlmSessionRow& s : run.sessions)
        {
            double sitMax = NOT_MEASURED;
            for (const SitSample& sit : s.summary.sit)
            {
                sitMax = std::isnan(sitMax) ? sit.sitS : std::max(sitMax, sit.sitS);
            }
            const bool started = s.delivered > 0;
            os << run.scheme << ',' << s.imsi << ',' << Cell(s.startS) << ',' << s.tokensToGenerate
               << ',' << s.delivered << ',' << s.duplicates << ',' << s.deliveredByResend << ','
               << s.nacksSent << ',' << (s.complete ? 1 : 0) << ',' << s.handovers << ','
               << Cell(started ? s.summary.ttftS : NOT_MEASURED) << ',' << Cell(s.summary.itlMeanS)
               << ',' << Cell(s.summary.itlP50S) << ',' << Cell(s.summary.itlP90S) << ','
               << Cell(s.summary.itlP99S) << ',' << Cell(sitMax) << ','
               << Cell(started ? s.summary.totalS : NOT_MEASURED) << ',' << (s.closed ? 1 : 0)
               << ',';
            if (s.closed)
            {
                os << s.undelivered;
            }
            os << '\n';
        }
    }
}

bool
WriteRunResults(const std::string& dir,
                const std::vector<EdgeLlmRunResults>& runs,
                const EdgeLlmRunMetadata& metadata)
{
    const std::string handoversCsv = dir + "/handovers.csv";
    const std::string sessionsCsv = dir + "/sessions.csv";
    std::ofstream handovers(handoversCsv);
    std::ofstream sessions(sessionsCsv);
    WriteHandoversCsv(handovers, runs);
    WriteSessionsCsv(sessions, runs);
    handovers.close();
    sessions.close();
    return handovers && sessions && WriteRunSidecar(handoversCsv, metadata) &&
           WriteRunSidecar(sessionsCsv, metadata);
}

std::string
EdgeLlmVersion()
{
    return "0.1.0";
}

std::string
EdgeLlmNs3Version()
{
#if defined(EDGE_LLM_NS3_RELEASE)
    return EDGE_LLM_NS3_RELEASE;
#elif defined(NS3_VERSION_MAJOR)
    return std::to_string(NS3_VERSION_MAJOR) + "." + std::to_string(NS3_VERSION_MINOR) + "." +
           std::to_string(NS3_VERSION_PATCH);
#else
    return "unknown";
#endif
}

std::string
EdgeLlmGitDescribe()
{
#ifdef EDGE_LLM_GIT_DESCRIBE
    return EDGE_LLM_GIT_DESCRIBE;
#else
    return "unknown";
#endif
}

bool
WriteRunSidecar(const std::string& resultPath, const EdgeLlmRunMetadata& metadata)
{
    std::ofstream os(resultPath + ".json");
    if (!os)
    {
        return false;
    }
    os << "{\n  \"result\": " << Quote(resultPath)
       << ",\n  \"program\": " << Quote(metadata.program)
       << ",\n  \"edge_llm_version\": " << Quote(EdgeLlmVersion())
       << ",\n  \"ns3_version\": " << Quote(EdgeLlmNs3Version())
       << ",\n  \"git_describe\": " << Quote(EdgeLlmGitDescribe())
       << ",\n  \"rng_seed\": " << RngSeedManager::GetSeed()
       << ",\n  \"rng_run\": " << RngSeedManager::GetRun() << ",\n  \"arguments\": [";
    for (std::size_t i = 0; i < metadata.arguments.size(); ++i)
    {
        os << (i == 0 ? "" : ", ") << Quote(metadata.arguments[i]);
    }
    os << "],\n  \"parameters\": {";
    for (std::size_t i = 0; i < metadata.parameters.size(); ++i)
    {
        os << (i == 0 ? "\n    " : ",\n    ") << Quote(metadata.parameters[i].first) << ": "
           << Quote(metadata.parameters[i].second);
    }
    os << (metadata.parameters.empty() ? "" : "\n  ") << "},\n  \"attribute_defaults\": {";
    // Every default that differs from its TypeId's own: what --ns3::... on the command line
    // and Config::SetDefault changed.
    bool first = true;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(a);
            if (!info.initialValue || !info.originalInitialValue || !info.checker)
            {
                continue;
            }
            const std::string now = info.initialValue->SerializeToString(info.checker);
            if (now == info.originalInitialValue->SerializeToString(info.checker))
            {
                continue;
            }
            os << (first ? "\n    " : ",\n    ") << Quote(tid.GetName() + "::" + info.name) << ": "
               << Quote(now);
            first = false;
        }
    }
    os << (first ? "" : "\n  ") << "}\n}\n";
    return static_cast<bool>(os);
}

} // namespace ns3
