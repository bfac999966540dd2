/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The control plane on the network, for a target's memory: a handover's target admits the
// session when the reservation that sizes it arrives, the migration takes that admission, and a
// reservation that no migration takes is released by message.

#include "control-test-case.h"
#include "test-durations.h"

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What a run's channels, engines and clients saw of reservations.
struct ReserveWatch : edgellm::TokenEdges
{
    /// A session's size reaching the cell that reserves it.
    struct Sized
    {
        Time at;            //!< when it arrived
        uint16_t cell;      //!< where
        uint64_t context;   //!< context tokens, as the holder sent them
        uint64_t remaining; //!< tokens left to generate
    };

    std::map<uint64_t, std::vector<Sized>> sized; //!< per UE
    /// per UE: each admission by an engine, (when, cell, reserved tokens)
    std::map<uint64_t, std::vector<std::tuple<Time, uint16_t, uint64_t>>> admitted;
    std::vector<uint8_t> codes; //!< the codes of the answers and plans back at the sources
    std::map<uint64_t, uint32_t> releases;        //!< per UE: RELEASEs that arrived
    std::map<uint64_t, bool> heldAfterRelease;    //!< per UE: the cell held it just after
    std::map<uint64_t, uint64_t> contextAtResume; //!< per UE: the target engine's context
    std::map<uint16_t, Ptr<LlmEngine>> engines;   //!< by cell
    Ptr<HandoverCoordinator> coordinator;         //!< the run's

    void Rx(uint16_t cell, const ControlMessage& m)
    {
        const bool sizes =
            m.type == ControlMessage::RESERVE || m.type == ControlMessage::PREPARE ||
            (m.type == ControlMessage::NOTICE && m.code == ControlMessage::HANDOVER_STARTED);
        if (sizes && cell == m.aboutCell && m.items.size() == 1)
        {
            sized[m.imsi].push_back(
                {Simulator::Now(), cell, m.items[0].sequence, m.items[0].value});
        }
        if (m.type == ControlMessage::RESERVE_ANSWER ||
            (m.type == ControlMessage::PLAN && cell != m.aboutCell))
        {
            codes.push_back(m.code);
        }
        if (m.type == ControlMessage::RELEASE)
        {
            ++releases[m.imsi];
            Simulator::Schedule(NanoSeconds(1), [this, cell, imsi = m.imsi]() {
                heldAfterRelease[imsi] = engines.at(cell)->HasSession(imsi);
            });
        }
    }

    void Hook(Ptr<EdgeLlmLineScenario> s)
    {
        Ptr<EdgeLlmHelper> edge = s->GetEdgeLlmHelper();
        coordinator = edge->GetCoordinator();
        for (const auto& [cell, channel] : edge->GetControlChannels())
        {
            channel->TraceConnectWithoutContext(
                "Rx",
                Callback<void, const ControlMessage&, Time>(
                    [this, cell = cell](const ControlMessage& m, Time) { Rx(cell, m); }));
        }
        for (uint32_t i = 0; i < s->GetServers().GetN(); ++i)
        {
            Ptr<EdgeLlmServer> server = DynamicCast<EdgeLlmServer>(s->GetServers().Get(i));
            const uint16_t cell = server->GetCellId();
            Ptr<LlmEngine> engine = server->GetEngine();
            engines[cell] = engine;
            engine->TraceConnectWithoutContext(
                "SessionAdmitted",
                Callback<void, uint64_t, uint64_t>([this, cell](uint64_t imsi, uint64_t tokens) {
                    admitted[imsi].emplace_back(Simulator::Now(), cell, tokens);
                }));
        }
        coordinator->TraceConnectWithoutContext(
            "SessionResumed",
            Callback<void, uint64_t, uint16_t, Time>([this](uint64_t imsi, uint16_t cell, Time) {
                contextAtResume[imsi] = engines.at(cell)->GetContextTokens(imsi);
            }));
        HookTokens(s);
    }

    /// \param imsi a UE \param cell a cell \param before a time
    /// \return the last size of the UE that reached the cell by then, or null
    const Sized* LastSized(uint64_t imsi, uint16_t cell, Time before) const
    {
        const Sized* last = nullptr;
        const auto it = sized.find(imsi);
        if (it == sized.end())
        {
            return nullptr;
        }
        for (const Sized& s : it->second)
        {
            if (s.cell == cell && s.at <= before)
            {
                last = &s;
            }
        }
        return last;
    }

    /// \param imsi a UE \return whether the cell a RELEASE of it reached held it just after
    /// (false if none arrived)
    bool HeldAfterRelease(uint64_t imsi) const
    {
        const auto it = heldAfterRelease.find(imsi);
        return it != heldAfterRelease.end() && it->second;
    }

    /// \param imsi a UE \param cell a cell \param at a time
    /// \return how many times the cell's engine admitted the UE at that instant
    uint32_t AdmittedAt(uint64_t imsi, uint16_t cell, Time at) const
    {
        uint32_t n = 0;
        const auto it = admitted.find(imsi);
        if (it != admitted.end())
        {
            for (const auto& [when, where, tokens] : it->second)
            {
                n += when == at && where == cell ? 1 : 0;
            }
        }
        return n;
    }
};

/// The base: every case destroys the simulator and resets the defaults it set.
class ControlReserveTestCase : public edgellm::ControlTestCase
{
  public:
    /// \param name the case's name
    explicit ControlReserveTestCase(const std::string& name)
        : ControlTestCase(name)
    {
        // 20 ms links: the messages' trips last long enough for the sources to decode on.
        m_config.backhaulDelay = MilliSeconds(20);
    }

  protected:
    /// \param w a run's watch \param site a function's name
    /// \return the audit's calls from that function
    static uint64_t CallsFrom(const ReserveWatch& w, const std::string& site)
    {
        uint64_t n = 0;
        for (const auto& [call, count] : w.coordinator->GetCrossNodeAudit().GetCalls())
        {
            n += call.rfind(site + ":", 0) == 0 ? count : 0;
        }
        return n;
    }
};

class AdmittedOnArrivalTestCase : public ControlReserveTestCase
{
  public:
    explicit AdmittedOnArrivalTestCase(const std::string& at)
        : ControlReserveTestCase("Control plane network, policy at the " + at +
                                 ": a target admits the session when the reservation that sizes "
                                 "it arrives, before the plan is applied; the "
                                 "migration takes that admission, and the target's context is "
                                 "the holder's at the resume"),
          m_at(at)
    {
    }

  private:
    void DoRun() override
    {
        uint32_t migrated = 0;
        uint32_t grew = 0;
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            ReserveWatch w;
            const CtHoLineRun run = RunWith("network", m_at, w);
            const std::string what = m_at + ", RngRun " + std::to_string(rngRun);
            std::map<uint64_t, uint64_t> tokens;
            for (const CtHoLineUe& ue : run.ues)
            {
                tokens[ue.imsi] = ue.tokensToGenerate;
            }
            uint32_t here = 0;
            for (const HandoverRecord& r : run.records)
            {
                if (r.outcome != HandoverRecord::MIGRATED)
                {
                    continue;
                }
                ++here;
                const std::string ue = what + ", imsi " + std::to_string(r.imsi);
                const ReserveWatch::Sized* s = w.LastSized(r.imsi, r.targetCell, r.planApplied);
                NS_TEST_ASSERT_MSG_EQ((s != nullptr), true, ue << ": its size reached the target");
                NS_TEST_EXPECT_MSG_EQ(w.AdmittedAt(r.imsi, r.targetCell, s->at),
                                      1u,
                                      ue << ": admitted there as it arrived");
                // The answer (or the plan) came back over a 20 ms link.
                NS_TEST_EXPECT_MSG_GT_OR_EQ(r.planApplied - s->at,
                                            m_config.backhaulDelay,
                                            ue << ": before the plan was applied");
                // The whole session's size is the same at the notice as at the start, where
                // the record took its context and its next token from the source's engine.
                NS_TEST_EXPECT_MSG_EQ(s->context + s->remaining,
                                      r.contextTokens + tokens.at(r.imsi) - r.resumeIndex,
                                      ue << ": sized as the session is");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(s->context, r.contextTokens, ue);
                grew += s->context < r.contextTokens ? 1 : 0;
                NS_TEST_ASSERT_MSG_EQ(w.contextAtResume.count(r.imsi), 1u, ue << ": resumed");
                NS_TEST_EXPECT_MSG_EQ(w.contextAtResume.at(r.imsi),
                                      r.contextTokens,
                                      ue << ": the target's context at the resume");
            }
            NS_TEST_EXPECT_MSG_EQ(here, run.ues.size(), what << ": every UE migrated");
            migrated += here;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(w.codes.size(), here, what << ": answers came back");
            for (uint8_t code : w.codes)
            {
                NS_TEST_EXPECT_MSG_EQ(unsigned(code),
                                      unsigned(ControlMessage::ADMITTED),
                                      what << ": each answer says admitted");
            }
            NS_TEST_EXPECT_MSG_EQ(w.releases.empty(), true, what << ": every reservation used");
            // The admission no longer reaches the target from the source.
            NS_TEST_EXPECT_MSG_EQ(CallsFrom(w, "Admit"), 0u, what << ": no admission by call");
            NS_TEST_EXPECT_MSG_EQ(CallsFrom(w, "TakeAdmission"), 0u, what);
            CheckTokens(run, w, what);
            Simulator::Destroy();
        }
        NS_TEST_EXPECT_MSG_GT(migrated, 0u, "migrations were checked");
        NS_TEST_EXPECT_MSG_GT(grew, 0u, "some source decoded on while its plan travelled");
    }

    std::string m_at; //!< PolicyAt
};

class UnusedReservationTestCase : public ControlReserveTestCase
{
  public:
    UnusedReservationTestCase()
        : ControlReserveTestCase("Control plane network, Detour: a reservation that no migration "
                                 "takes (the session is relayed) is released by a RELEASE, which "
                                 "frees the target's memory; every token still arrives once")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t released = 0;
        for (uint32_t rngRun = 1; rngRun <= 2; ++rngRun)
        {
            RngSeedManager::SetRun(rngRun);
            ReserveWatch w;
            const CtHoLineRun run = RunWith("network", "source", w, {}, "detour");
            const std::string what = "RngRun " + std::to_string(rngRun);
            std::map<uint64_t, uint32_t> unused; // per UE: admitted by a reservation, not used
            for (const HandoverRecord& r : run.records)
            {
                const ReserveWatch::Sized* s = w.LastSized(r.imsi, r.targetCell, r.planApplied);
                if (r.outcome != HandoverRecord::MIGRATED && s &&
                    w.AdmittedAt(r.imsi, r.targetCell, s->at) == 1)
                {
                    ++unused[r.imsi];
                }
            }
            for (const auto& [imsi, n] : unused)
            {
                NS_TEST_EXPECT_MSG_EQ(w.releases[imsi], n, what << ": imsi " << imsi);
                NS_TEST_EXPECT_MSG_EQ(w.heldAfterRelease.count(imsi), 1u, what);
                NS_TEST_EXPECT_MSG_EQ(w.HeldAfterRelease(imsi),
                                      false,
                                      what << ": imsi " << imsi << ": freed at its target");
                released += n;
            }
            NS_TEST_EXPECT_MSG_EQ(w.releases.size(), unused.size(), what << ": no other release");
            CheckTokens(run, w, what);
            Simulator::Destroy();
        }
        NS_TEST_EXPECT_MSG_GT(released, 0u, "reservations were released");
    }
};

class LateAnswerTestCase : public ControlReserveTestCase
{
  public:
    LateAnswerTestCase()
        : ControlReserveTestCase("Control plane network: an answer lost and resent after "
                                 "PlanTimeout; the source plans alone and admits the session "
                                 "afresh, and the late answer's RELEASE leaves it in place")
    {
    }

  private:
    void DoRun() override
    {
        m_config.numUes = 1;
        m_config.tokensAfter = 400; // it still decodes at the target when the release comes
        Config::SetDefault("ns3::HandoverCoordinator::PlanTimeout", TimeValue(MilliSeconds(50)));
        Ptr<edgellm::DropFirstControlMessage> loss =
            CreateObject<edgellm::DropFirstControlMessage>();
        loss->type = ControlMessage::RESERVE_ANSWER;
        loss->toPortOnly = false; // an answer may go either way on its connection
        ReserveWatch w;
        const CtHoLineRun run = RunWith("network", "source", w, [loss](Ptr<EdgeLlmLineScenario> s) {
            for (const BackhaulLink& link : s->GetBackhaulLinks())
            {
                for (uint32_t d = 0; d < link.devices.GetN(); ++d)
                {
                    DynamicCast<PointToPointNetDevice>(link.devices.Get(d))
                        ->SetReceiveErrorModel(loss);
                }
            }
        });
        NS_TEST_ASSERT_MSG_EQ(loss->dropped.IsPositive(), true, "the answer was dropped");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 1u, "one handover");
        const HandoverRecord& r = run.records[0];
        NS_TEST_EXPECT_MSG_EQ(w.coordinator->GetPlanTimeouts(), 1u, "its plan timed out");
        const ReserveWatch::Sized* s = w.LastSized(r.imsi, r.targetCell, r.planApplied);
        NS_TEST_ASSERT_MSG_EQ((s != nullptr), true, "the reservation arrived");
        NS_TEST_EXPECT_MSG_EQ(w.AdmittedAt(r.imsi, r.targetCell, s->at), 1u, "admitted then");
        // Planned alone at the timeout: that reservation dropped and the session admitted
        // again, by call (the audit's), at the plan.
        NS_TEST_EXPECT_MSG_EQ(w.AdmittedAt(r.imsi, r.targetCell, r.planApplied), 1u, "again");
        NS_TEST_EXPECT_MSG_EQ(CallsFrom(w, "TakeAdmission"), 1u, "the reservation dropped");
        NS_TEST_EXPECT_MSG_EQ(CallsFrom(w, "Admit"), 1u, "the session admitted again");
        NS_TEST_EXPECT_MSG_EQ(w.releases[r.imsi], 1u, "the late answer's release");
        NS_TEST_EXPECT_MSG_EQ(w.HeldAfterRelease(r.imsi), true, "which left it in place");
        NS_TEST_EXPECT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "it migrated");
        CheckTokens(run, w, "a late answer");
        Simulator::Destroy();
    }
};

class ControlReserveTestSuite : public TestSuite
{
  public:
    ControlReserveTestSuite()
        : TestSuite("edge-llm-control-reserve", TestSuite::Type::UNIT)
    {
        for (const std::string at : {"source", "target", "controller"})
        {
            AddTestCase(new AdmittedOnArrivalTestCase(at), edgellm::TEST_QUICK);
        }
        AddTestCase(new UnusedReservationTestCase, edgellm::TEST_QUICK);
        AddTestCase(new LateAnswerTestCase, edgellm::TEST_QUICK);
    }
};

/// The suite's one instance
ControlReserveTestSuite g_controlReserveTestSuite;

} // namespace
