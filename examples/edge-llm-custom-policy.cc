/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup edge-llm
 * How to add a handover policy: a stateful one with a slot hook, defined in this program and
 * chosen by name like the module's own.
 *
 * EqualShareScheduler sends every session's whole KV cache, and in each slot splits each
 * backhaul link's capacity among the migrations that cross it, in proportion to their
 * weights. With a Window it resumes each session that long after its handover with whatever
 * part of its cache has arrived. Run it against the module's schemes on one line of two eNBs:
 *
 *   ./edge-llm-custom-policy --scheme=equal-share --numUes=3 --window=150ms
 *   ./edge-llm-custom-policy --help      # lists equal-share beside cho, ctho, detour, tho
 */

#include "ns3/control-plane-flag.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/flag-checks.h"

#include <iomanip>
#include <iostream>
#include <map>
#include <stdexcept>

using namespace ns3;

// [policy]
/**
 * \ingroup edge-llm
 * \brief Whole-cache transfers that share each link equally (by weight), slot by slot.
 */
class EqualShareScheduler : public HandoverScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::EqualShareScheduler")
                .SetParent<HandoverScheduler>()
                .SetGroupName("EdgeLlm")
                .AddConstructor<EqualShareScheduler>()
                .AddAttribute("Slot",
                              "The allocation slot (> 0).",
                              TimeValue(MilliSeconds(10)),
                              MakeTimeAccessor(&EqualShareScheduler::m_slot),
                              MakeTimeChecker(NanoSeconds(1)))
                .AddAttribute("Window",
                              "Resume this long after the handover with what arrived; 0 "
                              "waits for the whole cache.",
                              TimeValue(Time(0)),
                              MakeTimeAccessor(&EqualShareScheduler::m_window),
                              MakeTimeChecker(Time(0)));
        return tid;
    }

    std::string GetSchemeName() const override
    {
        return "equal-share";
    }

    Time GetSlotDuration() const override
    {
        return m_slot;
    }

  protected:
    HandoverPlan DoPlan(const HandoverPlanInput& input) override
    {
        HandoverPlan plan;
        for (const HandoverSessionView& s : input.sessions)
        {
            SessionPlan p;
            p.imsi = s.imsi;
            p.transfer.push_back({0, TokenRange::CONTEXT_END}); // the whole cache, in order
            if (!m_window.IsZero())
            {
                p.resume = SessionPlan::AT_DEADLINE;
                p.resumeAfter = m_window;
            }
            plan.sessions.push_back(p);
        }
        return plan;
    }

    SlotBudgets DoSlot(const HandoverSlotInput& input) override
    {
        // The state a slot hook keeps: the weight each link carries this slot.
        std::map<std::size_t, double> weightOn;
        for (const MigrationView& m : input.migrations)
        {
            weightOn[m.links.front()] += m.weight;
        }
        SlotBudgets budgets;
        for (const MigrationView& m : input.migrations)
        {
            const HandoverLinkView& link = input.links[m.links.front()];
            const double share = m.weight / weightOn[m.links.front()];
            // Whole tokens only: a DATA message carries whole units.
            const double bytes = std::floor(link.rateBps * input.slotS / 8 * share);
            budgets[m.imsi] =
                static_cast<uint64_t>(bytes) / m.kv.bytesPerToken * m.kv.bytesPerToken;
        }
        ++m_slots;
        return budgets;
    }

    void DoCompleteRecord(HandoverRecord& record) const override
    {
        record.policyValues["slots"] = static_cast<double>(m_slots);
    }

  private:
    Time m_slot;         //!< Slot
    Time m_window;       //!< Window
    uint64_t m_slots{0}; //!< slots allocated so far
};

NS_OBJECT_ENSURE_REGISTERED(EqualShareScheduler);

// [policy]

int
main(int argc, char* argv[])
{
    HandoverSchemeFlag scheme({"equal-share", "cho"}, "all");
    uint32_t numUes = 3;
    // Times are read as text and converted here, so that a bad value is refused naming its
    // flag (CommandLine's own reader does not name it).
    std::string windowText = "0s";
    std::string slotText = "10ms";
    std::string outDir;
    ControlPlaneFlags controlPlane;
    CommandLine cmd(__FILE__);
    controlPlane.AddTo(cmd);
    scheme.AddTo(cmd);
    cmd.AddValue("numUes", "UEs that hand over, [1, 8]", numUes);
    cmd.AddValue("window",
                 "equal-share: resume this long after the handover, >= 0 (0: all)",
                 windowText);
    cmd.AddValue("slot", "equal-share: the allocation slot (> 0)", slotText);
    cmd.AddValue("outDir",
                 "write handovers.csv and sessions.csv there, each with a .json sidecar",
                 outDir);
    // Every argument is checked as typed before CommandLine reads it: CommandLine would print
    // its whole help without the flag's range, wrap "-3" around in an unsigned flag, or keep
    // the last of a flag given twice.
    if (const std::string bad =
            edgellm::CheckArguments(cmd,
                                    {{"numUes", true, "an integer in [1, 8]", 1, 8}},
                                    {},
                                    argc,
                                    argv);
        !bad.empty())
    {
        std::cerr << bad << "\n";
        return 1;
    }
    cmd.Parse(argc, argv);
    std::vector<std::string> schemes;
    try
    {
        schemes = scheme.GetSchemes();
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << e.what() << "\n";
        return 1;
    }
    if (numUes < 1 || numUes > 8)
    {
        std::cerr << "--numUes = " << numUes << " is invalid; allowed: an integer in [1, 8]\n";
        return 1;
    }
    Time window;
    Time slot;
    std::string error = edgellm::ReadTimeFlag("window",
                                              windowText,
                                              window,
                                              true,
                                              "150ms (0 waits for the whole cache)");
    if (error.empty())
    {
        error = edgellm::ReadTimeFlag("slot", slotText, slot, false, "10ms");
    }
    if (error.empty())
    {
        error = controlPlane.Apply(argc, argv);
    }
    if (error.empty())
    {
        // The run sets these attributes from the flags: a default given for one of them on
        // the command line would be silently replaced, so it is refused.
        error = edgellm::CheckFlagAttributes({{"numUes", "ns3::EdgeLlmLineScenario::UeCount"},
                                              {"window", "ns3::EqualShareScheduler::Window"},
                                              {"slot", "ns3::EqualShareScheduler::Slot"}},
                                             argc,
                                             argv);
    }
    if (error.empty() && !outDir.empty())
    {
        error = edgellm::PrepareOutDir("outDir", outDir);
    }
    if (!error.empty())
    {
        std::cerr << error << "\n";
        return 1;
    }

    bool ok = true;
    std::vector<EdgeLlmRunResults> results;
    std::cout << "scheme        imsi  outcome   delay[ms]  arrived  slots\n";
    for (const std::string& name : schemes)
    {
        // [use]
        Ptr<EdgeLlmLineScenario> s = CreateObject<EdgeLlmLineScenario>();
        s->SetAttribute("EnbCount", UintegerValue(2));
        s->SetAttribute("EnbSpacing", DoubleValue(300));
        s->SetAttribute("UeCount", UintegerValue(numUes));
        s->SetAttribute("UeStartX", DoubleValue(125));
        s->SetAttribute("UeStartSpacing", DoubleValue(2));
        s->SetAttribute("Trigger", StringValue("boundary"));
        s->SetAttribute("MoveStart", TimeValue(Seconds(1)));
        s->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(DataRate("2Gbps")));
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        edge->SetScheme(name);
        if (name == "equal-share")
        {
            edge->SetSchedulerAttribute("Slot", TimeValue(slot));
            edge->SetSchedulerAttribute("Window", TimeValue(window));
            // A slot hook's budgets are spent by a per-slot KV-transfer policy of that slot.
            edge->SetKvTransferPolicyType("ns3::SlotBudgetKvTransferPolicy");
            edge->SetKvTransferPolicyAttribute("SlotDuration", TimeValue(slot));
        }
        // [use]
        edge->SetClientAttribute("PromptTokens", UintegerValue(2000));
        edge->SetClientAttribute("TokensToGenerate", UintegerValue(250));
        s->Build();
        s->AssignStreams(1);
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        uint32_t migrated = 0;
        for (const HandoverRecord& r : edge->GetCoordinator()->GetRecords())
        {
            uint64_t arrived = 0;
            for (const TokenRange& a : r.arrived)
            {
                arrived += a.end - a.first;
            }
            const bool done = r.outcome == HandoverRecord::MIGRATED;
            migrated += done ? 1 : 0;
            auto slots = r.policyValues.find("slots");
            std::cout << std::left << std::setw(12) << name << std::right << std::setw(6) << r.imsi
                      << "  " << std::left << std::setw(9) << HandoverOutcomeName(r.outcome)
                      << std::right << std::setw(10) << std::fixed << std::setprecision(1)
                      << (done ? (r.kvReady - r.hoStart).GetMilliSeconds() : 0.0) << std::setw(9)
                      << std::setprecision(3)
                      << (r.contextTokens > 0 ? double(arrived + r.prefillTokens) / r.contextTokens
                                              : 0.0)
                      << std::setw(7) << std::setprecision(0)
                      << (slots == r.policyValues.end() ? 0 : slots->second) << "\n";
        }
        // The verdict: every UE handed over and every session got every token.
        for (uint32_t i = 0; i < s->GetClients().GetN(); ++i)
        {
            ok = ok && DynamicCast<EdgeLlmClient>(s->GetClients().Get(i))->IsComplete();
        }
        ok = ok && migrated == numUes;
        results.push_back(
            CollectRunResults(name, edge->GetCoordinator()->GetRecords(), s->GetClients()));
        Simulator::Destroy();
        s->Dispose();
    }
    if (!outDir.empty())
    {
        EdgeLlmRunMetadata meta;
        meta.program = "edge-llm-custom-policy";
        meta.arguments.assign(argv, argv + argc);
        meta.parameters = {{"scheme", edgellm::JoinNames(schemes)},
                           {"numUes", std::to_string(numUes)},
                           {"window", windowText},
                           {"slot", slotText},
                           {"outDir", outDir}};
        if (!WriteRunResults(outDir, results, meta))
        {
            std::cerr << edgellm::FlagError("outDir",
                                            outDir,
                                            "a directory that can be made and written")
                      << " (cannot write the results there)\n";
            return 1;
        }
    }
    if (!ok)
    {
        std::cerr << "verdict: a handover did not migrate or a session missed tokens\n";
        return 1;
    }
    std::cout << "verdict: every handover migrated; every session got every token\n";
    return 0;
}
