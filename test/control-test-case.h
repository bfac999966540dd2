/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CONTROL_TEST_CASE_H
#define EDGE_LLM_CONTROL_TEST_CASE_H

#include "backhaul-frame.h"
#include "reset-test-case.h"

#include "ns3/config.h"
#include "ns3/edge-llm-module.h"
#include "ns3/error-model.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace edgellm
{

/// \return short runs: two UEs move at 1 s and decode 60 tokens past their handover
inline CtHoLineConfig
ShortControlLine()
{
    CtHoLineConfig c;
    c.numUes = 2;
    c.moveStart = Seconds(1);
    c.tokensAfter = 60;
    c.maxSimTime = Seconds(20);
    return c;
}

/// What a run's engines emitted and its clients delivered, per UE: the edges a control-plane
/// case counts tokens at.
struct TokenEdges
{
    std::map<uint64_t, std::map<uint64_t, uint32_t>> emitted; //!< imsi -> index -> count
    std::map<uint64_t, std::vector<uint32_t>> delivered;      //!< imsi -> indices, in order

    /// Count every engine's emitted tokens and every client's delivered ones.
    /// \param s the scenario, built
    void HookTokens(Ptr<EdgeLlmLineScenario> s)
    {
        for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
        {
            DynamicCast<EdgeLlmServer>(s->GetServers().Get(i))
                ->GetEngine()
                ->TraceConnectWithoutContext(
                    "TokenGenerated",
                    Callback<void, uint64_t, uint64_t>(
                        [this](uint64_t imsi, uint64_t index) { ++emitted[imsi][index]; }));
        }
        for (uint32_t i = 0; i < s->GetClients().GetN(); ++i)
        {
            s->GetClients().Get(i)->TraceConnectWithoutContext(
                "TokenDelivered",
                Callback<void, uint64_t, uint32_t, Time, Time, uint16_t, bool>(
                    [this](uint64_t imsi, uint32_t index, Time, Time, uint16_t, bool) {
                        delivered[imsi].push_back(index);
                    }));
        }
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The base of the control-plane cases: it destroys the simulator and resets the
 * defaults after each run, and checks that every token arrived once.
 */
class ControlTestCase : public ResetTestCase
{
  public:
    /// \param name the case's name
    explicit ControlTestCase(const std::string& name)
        : ResetTestCase(name)
    {
    }

  protected:
    /**
     * \brief Run a scheme on the line with a control plane.
     * \param mode ideal or network \param at PolicyAt \param w the watch (its Hook(scenario)
     * runs before the run) \param more what else the case hooks, if anything
     * \param scheme the scheme
     * \return the run
     */
    template <typename W>
    CtHoLineRun RunWith(const std::string& mode,
                        const std::string& at,
                        W& w,
                        const CtHoLineExperiment::Hook& more = {},
                        const std::string& scheme = "ctho")
    {
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue(mode));
        Config::SetDefault("ns3::HandoverCoordinator::PolicyAt", StringValue(at));
        Config::SetDefault("ns3::PerPairBackhaulTopology::Controller",
                           BooleanValue(at == "controller"));
        const CtHoLineExperiment experiment(m_config);
        return experiment.Run(scheme, experiment.Draw(), [&w, &more](Ptr<EdgeLlmLineScenario> s) {
            w.Hook(s);
            if (more)
            {
                more(s);
            }
        });
    }

    /// Each token of each UE emitted once and delivered once, in order.
    /// \param run the run \param e its edges \param what the run, for the messages
    void CheckTokens(const CtHoLineRun& run, const TokenEdges& e, const std::string& what)
    {
        for (const CtHoLineUe& ue : run.ues)
        {
            NS_TEST_EXPECT_MSG_EQ(ue.complete, true, what << ": imsi " << ue.imsi << " complete");
            CheckSessionTokens(e, ue.imsi, ue.tokensToGenerate, what);
        }
    }

    /// Each token of a UE emitted once and delivered once, in order.
    /// \param e the run's edges \param imsi the UE \param tokens its tokens to generate
    /// \param what the run, for the messages
    void CheckSessionTokens(const TokenEdges& e,
                            uint64_t imsi,
                            uint64_t tokens,
                            const std::string& what)
    {
        const auto emitted = e.emitted.find(imsi);
        NS_TEST_ASSERT_MSG_EQ((emitted != e.emitted.end()), true, what << ": decoded");
        NS_TEST_EXPECT_MSG_EQ(emitted->second.size(), tokens, what << ": every index");
        for (const auto& [index, n] : emitted->second)
        {
            NS_TEST_EXPECT_MSG_EQ(n, 1u, what << ": token " << index << " emitted once");
        }
        const auto delivered = e.delivered.find(imsi);
        NS_TEST_ASSERT_MSG_EQ((delivered != e.delivered.end()), true, what << ": delivered");
        NS_TEST_EXPECT_MSG_EQ(delivered->second.size(), tokens, what << ": all");
        for (std::size_t k = 0; k < delivered->second.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(delivered->second[k], k, what << ": in order, once");
        }
    }

    CtHoLineConfig m_config{ShortControlLine()}; //!< the runs' settings
};

/**
 * \ingroup edge-llm-tests
 * \brief Drops the first frame that carries a control message of one type with one item (a
 * 56-byte payload, its type at byte 3): TCP must resend it.
 */
class DropFirstControlMessage : public ErrorModel
{
  public:
    uint16_t port{7200};                                        //!< the control plane's port
    ControlMessage::Type type{ControlMessage::PREFILL_REQUEST}; //!< what it drops
    /// true: only frames to the port (the connection's accepting end); false: either way
    bool toPortOnly{true};
    Time dropped{-1}; //!< when it dropped one

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (dropped.IsPositive())
        {
            return false;
        }
        const test::TcpPayload t = test::ReadTcpPayload(p);
        const bool ours = t.destinationPort == port || (!toPortOnly && t.sourcePort == port);
        if (ours && t.bytes == ControlMessage::HEAD_SIZE + ControlMessage::ITEM_SIZE &&
            t.start[3] == type)
        {
            dropped = Simulator::Now();
            return true;
        }
        return false;
    }

    void DoReset() override
    {
    }
};

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_CONTROL_TEST_CASE_H */
