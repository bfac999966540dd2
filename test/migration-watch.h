/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_MIGRATION_WATCH_H
#define EDGE_LLM_MIGRATION_WATCH_H

#include "ns3/edge-llm-module.h"

#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm-tests
 * \brief Watches every migration's transitions against the manual's state machine.
 *
 * The allowed edges are written here, region by region, from the manual's tables, not taken
 * from the class under test. It checks that
 * - each transition of a session starts where its last one ended (none is skipped);
 * - each region that changes takes an allowed edge;
 * - a resume comes only from a state the manual lets resume;
 * - the phase trace (MigrationState) says what the transitions say;
 * - every stall the coordinator reports (TransferStalled) is one transition: to a stalled
 *   link when it waits, to a given-up transfer when it re-prefills.
 */
class MigrationWatch
{
  public:
    /**
     * \brief Connect to a network's coordinator.
     * \param edge the network's edge-LLM helper
     */
    void Hook(Ptr<EdgeLlmHelper> edge)
    {
        Ptr<HandoverCoordinator> c = edge->GetCoordinator();
        c->TraceConnectWithoutContext("MigrationTransition",
                                      MakeCallback(&MigrationWatch::Transition, this));
        c->TraceConnectWithoutContext("MigrationState",
                                      Callback<void, uint64_t, uint32_t, int, int>(
                                          [this](uint64_t imsi, uint32_t, int from, int to) {
                                              m_phases.push_back({imsi, {from, to}});
                                          }));
        c->TraceConnectWithoutContext("TransferStalled",
                                      Callback<void, uint64_t, uint32_t, uint64_t, bool>(
                                          [this](uint64_t, uint32_t, uint64_t, bool reprefill) {
                                              ++(reprefill ? m_stallsGivenUp : m_stallsWaited);
                                          }));
    }

    /// \return what broke the state machine, one line each; empty if nothing
    std::vector<std::string> GetErrors() const
    {
        std::vector<std::string> errors = m_errors;
        if (m_phases != m_phasesSeen)
        {
            errors.push_back("MigrationState disagrees with MigrationTransition's phases");
        }
        if (m_stallsWaited != m_toStalled)
        {
            errors.push_back("TransferStalled (wait) " + std::to_string(m_stallsWaited) +
                             " times, link to stalled " + std::to_string(m_toStalled));
        }
        if (m_stallsGivenUp != m_toGivenUp)
        {
            errors.push_back("TransferStalled (re-prefill) " + std::to_string(m_stallsGivenUp) +
                             " times, KV to given-up " + std::to_string(m_toGivenUp));
        }
        return errors;
    }

    /// \return transitions seen
    uint64_t GetTransitions() const
    {
        return m_transitions;
    }

    /// \param name a state name of any region \return how many transitions entered it
    uint64_t GetEntered(const std::string& name) const
    {
        auto it = m_entered.find(name);
        return it == m_entered.end() ? 0 : it->second;
    }

  private:
    using Edge = std::pair<std::string, std::string>;

    void Transition(uint64_t imsi,
                    uint32_t epoch,
                    const Migration::State& from,
                    const Migration::State& to)
    {
        ++m_transitions;
        std::ostringstream where;
        where << "imsi " << imsi << " epoch " << epoch << " at " << Simulator::Now().GetSeconds()
              << " s: " << from << " -> " << to;
        auto last = m_last.find(imsi);
        const bool begins = from.phase == Migration::NONE;
        if (!begins && (last == m_last.end() || last->second != from.ToString()))
        {
            m_errors.push_back(where.str() + ": does not start where the last one ended (" +
                               (last == m_last.end() ? "none" : last->second) + ")");
        }
        m_last[imsi] = to.ToString();
        Check(where.str(),
              "phase",
              Migration::PhaseName(from.phase),
              Migration::PhaseName(to.phase),
              begins ? BeginPhases() : Phases());
        Check(where.str(),
              "prefill",
              Migration::StepName(from.prefill),
              Migration::StepName(to.prefill),
              begins ? BeginPrefill() : Prefill());
        Check(where.str(),
              "kv",
              Migration::StepName(from.kv),
              Migration::StepName(to.kv),
              begins ? BeginKv() : Kv());
        Check(where.str(),
              "link",
              Migration::StepName(from.link),
              Migration::StepName(to.link),
              Link());
        if (from.phase != to.phase)
        {
            m_phasesSeen.push_back({imsi, {from.phase, to.phase}});
        }
        if (to.phase == Migration::RESUMED)
        {
            const std::string p = Migration::StepName(from.prefill);
            const std::string k = Migration::StepName(from.kv);
            const bool prefilled = p == "prefilled" || p == "no-prefill";
            const bool kvIn =
                k == "arrived" || k == "no-kv" || k == "given-up" || k == "window-over";
            if (from.phase != Migration::COMMITTED || !prefilled || !kvIn)
            {
                m_errors.push_back(where.str() + ": resumed from a state that may not resume");
            }
        }
        m_toStalled += from.link != to.link && to.link == Migration::LinkWatch::STALLED;
        m_toGivenUp += from.kv != to.kv && to.kv == Migration::KvStep::GIVEN_UP;
        for (const std::string& name : {Migration::PhaseName(to.phase),
                                        Migration::StepName(to.prefill),
                                        Migration::StepName(to.kv),
                                        Migration::StepName(to.link)})
        {
            ++m_entered[name];
        }
    }

    void Check(const std::string& where,
               const std::string& region,
               const std::string& from,
               const std::string& to,
               const std::set<Edge>& allowed)
    {
        if (from != to && allowed.count({from, to}) == 0)
        {
            m_errors.push_back(where + ": " + region + " " + from + " -> " + to +
                               " is not an edge of the manual's diagram");
        }
    }

    static const std::set<Edge>& BeginPhases()
    {
        static const std::set<Edge> e{{"none", "prepared"}, {"none", "committed"}};
        return e;
    }

    static const std::set<Edge>& Phases()
    {
        static const std::set<Edge> e{{"prepared", "committed"},
                                      {"prepared", "cancelled"},
                                      {"prepared", "failed"},
                                      {"prepared", "closed"},
                                      {"committed", "resumed"},
                                      {"committed", "cancelled"},
                                      {"committed", "failed"},
                                      {"committed", "closed"}};
        return e;
    }

    static const std::set<Edge>& BeginPrefill()
    {
        static const std::set<Edge> e{{"no-prefill", "awaiting-ids"}};
        return e;
    }

    static const std::set<Edge>& Prefill()
    {
        static const std::set<Edge> e{
            {"no-prefill", "reprefill-awaiting-ids"},
            {"no-prefill", "reprefill-ready"},
            {"no-prefill", "awaiting-ids"},
            {"awaiting-ids", "ready"},
            {"awaiting-ids", "no-prefill"},
            {"ready", "queued"},
            {"ready", "awaiting-ids"},
            {"ready", "no-prefill"},
            {"queued", "prefilled"},
            {"queued", "ready"},
            {"queued", "queued-then-awaiting-ids"},
            {"queued", "queued-then-ready"},
            {"queued", "awaiting-ids"},
            {"queued", "no-prefill"},
            {"queued-then-awaiting-ids", "queued-then-ready"},
            {"queued-then-awaiting-ids", "reprefill-awaiting-ids"},
            {"queued-then-ready", "reprefill-ready"},
            {"reprefill-awaiting-ids", "reprefill-ready"},
            {"reprefill-ready", "queued"},
            {"prefilled", "reprefill-awaiting-ids"},
            {"prefilled", "reprefill-ready"},
        };
        return e;
    }

    static const std::set<Edge>& BeginKv()
    {
        static const std::set<Edge> e{{"no-kv", "open"}, {"no-kv", "in-flight"}};
        return e;
    }

    static const std::set<Edge>& Kv()
    {
        static const std::set<Edge> e{{"open", "in-flight"},
                                      {"open", "arrived"},
                                      {"in-flight", "arrived"},
                                      {"in-flight", "window-over"},
                                      {"in-flight", "given-up"},
                                      {"in-flight", "no-kv"},
                                      {"window-over", "arrived"},
                                      {"window-over", "no-kv"},
                                      {"arrived", "in-flight"},
                                      {"arrived", "no-kv"},
                                      {"arrived", "given-up"},
                                      {"no-kv", "in-flight"},
                                      {"no-kv", "given-up"}};
        return e;
    }

    static const std::set<Edge>& Link()
    {
        static const std::set<Edge> e{{"idle", "watching"},
                                      {"watching", "stalled"},
                                      {"stalled", "watching"},
                                      {"watching", "idle"},
                                      {"stalled", "idle"}};
        return e;
    }

    std::map<uint64_t, std::string> m_last;                         //!< each session's last state
    std::vector<std::string> m_errors;                              //!< what broke
    std::vector<std::pair<uint64_t, std::pair<int, int>>> m_phases; //!< MigrationState
    std::vector<std::pair<uint64_t, std::pair<int, int>>> m_phasesSeen; //!< from transitions
    std::map<std::string, uint64_t> m_entered; //!< transitions into each state name
    uint64_t m_transitions{0};                 //!< transitions seen
    uint64_t m_stallsWaited{0};                //!< TransferStalled, waiting
    uint64_t m_stallsGivenUp{0};               //!< TransferStalled, re-prefilling
    uint64_t m_toStalled{0};                   //!< link transitions to stalled
    uint64_t m_toGivenUp{0};                   //!< KV transitions to given-up
};

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_MIGRATION_WATCH_H */
