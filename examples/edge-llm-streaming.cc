/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// UEs drive along a line of eNBs while each streams a long answer from the LLM server of
// its base station. Two ways to keep a session alive, on the same inputs:
//  - detour: A3 handovers; the source keeps decoding and relays its tokens over the
//    backhaul to the serving cell's server, which injects them;
//  - none: no handover; the UE stays on its first cell while the radio degrades.
// For each, every session's TTFT, ITL mean/P90/P99, SIT per handover and the tokens
// recovered by retransmission, as a table and as CSV (tokens.csv, sessions.csv,
// interruptions.csv).

#include "example-format.h"
#include "example-progress.h"

#include "ns3/control-plane-flag.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"
#include "ns3/show-progress.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

using namespace ns3;

namespace
{

/// What one scheme's run produced, per session.
struct SessionResult
{
    uint64_t imsi;
    uint32_t expected;
    uint64_t delivered;
    uint64_t recovered;
    uint64_t nacks;
    uint32_t handovers;
    TokenTimingSummary summary;
};

std::vector<SessionResult>
RunScheme(const std::string& scheme,
          uint64_t& radioDrops,
          Ptr<TokenLog> log,
          uint32_t enbs,
          double spacing,
          uint32_t ues,
          double speed,
          uint32_t prompt,
          uint32_t tokens,
          Time simTime,
          bool quiet)
{
    Ptr<EdgeLlmLineScenario> scenario = CreateObject<EdgeLlmLineScenario>();
    scenario->SetAttribute("Trigger", StringValue(scheme == "detour" ? "a3" : "none"));
    scenario->SetAttribute("EnbCount", UintegerValue(enbs));
    scenario->SetAttribute("EnbSpacing", DoubleValue(spacing));
    scenario->SetAttribute("UeCount", UintegerValue(ues));
    scenario->SetAttribute("UeSpeed", DoubleValue(speed));
    Ptr<EdgeLlmHelper> edge = scenario->GetEdgeLlmHelper();
    edge->SetSchedulerType("ns3::DetourScheduler");
    edge->SetClientAttribute("PromptTokens", UintegerValue(prompt));
    edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
    scenario->Build();
    // The same radio draws for every scheme.
    scenario->AssignStreams(1);

    std::map<uint64_t, uint32_t> handovers;
    scenario->GetObserver()->TraceConnectWithoutContext(
        "HandoverStarted",
        Callback<void, uint64_t, uint16_t, uint16_t>(
            [&handovers](uint64_t imsi, uint16_t, uint16_t) { ++handovers[imsi]; }));
    log->SetScheme(scheme);
    const ApplicationContainer& clients = scenario->GetClients();
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        DynamicCast<EdgeLlmClient>(clients.Get(i))->SetTokenLog(log);
    }

    Simulator::Stop(simTime);
    {
        const auto progress = StartProgress(quiet);
        Simulator::Run();
    }

    std::vector<SessionResult> results;
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        Ptr<EdgeLlmClient> c = DynamicCast<EdgeLlmClient>(clients.Get(i));
        results.push_back({c->GetImsi(),
                           tokens,
                           c->GetDeliveredTokens(),
                           c->GetDeliveredByResend(),
                           c->GetNacksSent(),
                           handovers[c->GetImsi()],
                           c->GetSummary()});
    }
    radioDrops = scenario->GetObserver()->GetRadioDrops();
    Simulator::Destroy();
    return results;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string scheme = "all";
    uint32_t enbs = 3;
    double spacing = 300;
    uint32_t ues = 2;
    double speed = 30;
    uint32_t prompt = 1024;
    uint32_t tokens = 1000;
    double simTime = 16;
    std::string outDir = ".";
    bool quiet = false;

    ControlPlaneFlags controlPlane;
    CommandLine cmd(__FILE__);
    controlPlane.AddTo(cmd);
    cmd.AddValue("scheme", "detour, none, or all (both, on the same inputs)", scheme);
    cmd.AddValue("enbs", "eNBs along the line [1, 64]", enbs);
    cmd.AddValue("spacing", "distance between eNBs, m, (0, 100000]", spacing);
    cmd.AddValue("ues", "UEs, one session each [1, 200]", ues);
    cmd.AddValue("speed", "UE speed, m/s, [0, 1000]", speed);
    cmd.AddValue("prompt", "prompt tokens per session, [1, 1000000]", prompt);
    cmd.AddValue("tokens", "tokens to generate per session, [1, 1000000]", tokens);
    cmd.AddValue("simTime", "simulated time, s, (0, 1000000]", simTime);
    cmd.AddValue("outDir", "directory for tokens.csv and sessions.csv (created)", outDir);
    cmd.AddValue("quiet", "no progress on stderr during the runs", quiet);
    // Every argument is checked as typed before CommandLine reads it: CommandLine would print
    // its whole help without the flag's range, wrap "-3" around in an unsigned flag, or keep
    // the last of a flag given twice; and a time past ns-3's range would wrap around.
    if (const std::string bad = edgellm::CheckArguments(
            cmd,
            {{"enbs", true, "an integer in [1, 64]", 1, 64},
             {"spacing", false, "a distance in (0, 100000] m", 0, 1e5, true},
             {"ues", true, "an integer in [1, 200]", 1, 200},
             {"speed", false, "a speed in [0, 1000] m/s", 0, 1000},
             {"prompt", true, "an integer in [1, 1000000]", 1, 1e6},
             {"tokens", true, "an integer in [1, 1000000]", 1, 1e6},
             {"simTime", false, "a time in (0, 1000000] s", 0, 1e6, true}},
            {"quiet"},
            argc,
            argv);
        !bad.empty())
    {
        std::cerr << bad << "\n";
        return 1;
    }
    cmd.Parse(argc, argv);

    // The other flags are checked before anything is built or printed; a bad one exits 1.
    std::ostringstream e;
    if (scheme != "detour" && scheme != "none" && scheme != "all")
    {
        e << "--scheme = " << scheme << " is invalid; allowed: detour, none or all";
    }
    else if (outDir.empty())
    {
        e << "--outDir = \"\" is invalid; allowed: a directory, e.g. .";
    }
    std::string error = e.str();
    if (error.empty())
    {
        error = controlPlane.Apply(argc, argv);
    }
    if (error.empty())
    {
        // The run sets these attributes from the flags: a default given for one of them on
        // the command line would be silently replaced, so it is refused.
        error = edgellm::CheckFlagAttributes({{"enbs", "ns3::EdgeLlmLineScenario::EnbCount"},
                                              {"spacing", "ns3::EdgeLlmLineScenario::EnbSpacing"},
                                              {"ues", "ns3::EdgeLlmLineScenario::UeCount"},
                                              {"speed", "ns3::EdgeLlmLineScenario::UeSpeed"},
                                              {"scheme", "ns3::EdgeLlmLineScenario::Trigger"},
                                              {"prompt", "ns3::EdgeLlmClient::PromptTokens"},
                                              {"tokens", "ns3::EdgeLlmClient::TokensToGenerate"}},
                                             argc,
                                             argv);
    }
    if (error.empty())
    {
        error = edgellm::PrepareOutDir("outDir", outDir);
    }
    std::ofstream sessions;
    if (error.empty())
    {
        sessions.open(outDir + "/sessions.csv");
        if (!sessions)
        {
            error =
                edgellm::FlagError("outDir", outDir, "a directory that can be made and written") +
                " (cannot write sessions.csv there)";
        }
    }
    if (!error.empty())
    {
        std::cerr << error << "\n";
        return 1;
    }

    std::vector<std::string> schemes;
    if (scheme == "all")
    {
        schemes = {"detour", "none"};
    }
    else
    {
        schemes = {scheme};
    }

    Ptr<TokenLog> log = Create<TokenLog>(outDir + "/tokens.csv");
    sessions << "scheme,imsi,tokens_to_generate,tokens_delivered,tokens_recovered,nacks_sent,"
                "handovers,ttft_s,itl_mean_s,itl_p50_s,itl_p90_s,itl_p99_s,sit_max_s\n";
    // One row per interruption: a session may have several, and a cell holds one value.
    std::ofstream interruptions(outDir + "/interruptions.csv");
    interruptions << "scheme,imsi,marked_index,sit_s\n";
    std::cout << "scheme  imsi  tokens      TTFT_ms  ITLmean_ms  ITLp90_ms  ITLp99_ms  "
                 "recovered  handovers  SIT_ms\n";
    std::map<std::string, uint64_t> radioDrops;
    std::map<std::string, std::pair<uint32_t, uint32_t>> complete; // complete, sessions
    uint32_t detourHandovers = 0;
    uint64_t delivered = 0;
    for (const std::string& s : schemes)
    {
        for (const SessionResult& r : RunScheme(s,
                                                radioDrops[s],
                                                log,
                                                enbs,
                                                spacing,
                                                ues,
                                                speed,
                                                prompt,
                                                tokens,
                                                Seconds(simTime),
                                                quiet))
        {
            complete[s].first += r.delivered == r.expected ? 1 : 0;
            complete[s].second += 1;
            detourHandovers += s == "detour" ? r.handovers : 0;
            delivered += r.delivered;
            std::ostringstream sit;
            double sitMax = -1;
            for (std::size_t k = 0; k < r.summary.sit.size(); ++k)
            {
                sit << (k ? "," : "") << FormatMs(r.summary.sit[k].sitS);
                sitMax = std::max(sitMax, r.summary.sit[k].sitS);
                interruptions << s << "," << r.imsi << "," << r.summary.sit[k].markedIndex << ","
                              << r.summary.sit[k].sitS << "\n";
            }
            std::cout << std::left << std::setw(8) << s << std::setw(6) << r.imsi << std::setw(12)
                      << (std::to_string(r.delivered) + "/" + std::to_string(r.expected))
                      << std::setw(9) << (r.delivered ? FormatMs(r.summary.ttftS) : "-")
                      << std::setw(12) << FormatMs(r.summary.itlMeanS) << std::setw(11)
                      << FormatMs(r.summary.itlP90S) << std::setw(11) << FormatMs(r.summary.itlP99S)
                      << std::setw(11) << r.recovered << std::setw(11) << r.handovers
                      << (sit.str().empty() ? "-" : sit.str()) << "\n";
            sessions << s << "," << r.imsi << "," << r.expected << "," << r.delivered << ","
                     << r.recovered << "," << r.nacks << "," << r.handovers << ","
                     << r.summary.ttftS << "," << r.summary.itlMeanS << "," << r.summary.itlP50S
                     << "," << r.summary.itlP90S << "," << r.summary.itlP99S << ","
                     << (sitMax < 0 ? "" : std::to_string(sitMax)) << "\n";
        }
    }
    for (const auto& [s, drops] : radioDrops)
    {
        std::cout << s << ": " << drops << " downlink packets dropped by the radio (RLC)\n";
    }
    std::cout << "CSV: " << outDir << "/tokens.csv, " << outDir << "/sessions.csv, " << outDir
              << "/interruptions.csv\n";
    // The verdict: with Detour every session must get every token, and someone must have
    // handed over; without handovers the UEs drive out of their cell, and a session may end
    // short (that is the comparison).
    bool ok = true;
    std::cout << "verdict:";
    for (const auto& [s, c] : complete)
    {
        std::cout << " " << s << " " << c.first << " of " << c.second << " sessions complete;";
    }
    std::cout << "\n";
    log->Flush();
    sessions.flush();
    interruptions.flush();
    if (!log->IsGood() || !sessions || !interruptions)
    {
        std::cerr << edgellm::FlagError("outDir",
                                        outDir,
                                        "a directory that can be made and written")
                  << " (writing its CSV files failed)\n";
        return 1;
    }
    if (delivered == 0)
    {
        std::cerr << "verdict: no token was delivered before --simTime = " << simTime << " s\n";
        ok = false;
    }
    else if (complete.count("detour") > 0 && detourHandovers == 0)
    {
        std::cerr << "verdict: no UE handed over under detour before --simTime = " << simTime
                  << " s: with --enbs = " << enbs << ", --spacing = " << spacing
                  << " m and --speed = " << speed << " m/s no UE reached another cell\n";
        ok = false;
    }
    else if (complete.count("detour") > 0 && complete["detour"].first < complete["detour"].second)
    {
        std::cerr << "verdict: " << complete["detour"].second - complete["detour"].first << " of "
                  << complete["detour"].second
                  << " detour sessions did not get every token before --simTime = " << simTime
                  << " s\n";
        ok = false;
    }
    return ok ? 0 : 1;
}
