/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The online grouper alone, with a directory of fake cells and idle links: its groups follow
// the scheduler's answers and nothing else, and each group's batch starts at the times derived
// here by hand from the link's rate, the token IDs' size and the policy's slack.

#include "fake-cell-port.h"
#include "test-durations.h"

#include "ns3/abort.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/test.h"

#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// The planned rate of every link, bit/s.
constexpr double RATE_BPS = 1e9;
/// The cells' prefill cycle.
const Time CYCLE = MilliSeconds(10);

using FakeCell = edgellm::FakeCellPort; //!< the cells the grouper sees

/// A ctHO policy whose join answers are scripted, and which counts the questions.
class ScriptedJoinScheduler : public CtHoScheduler
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::ScriptedJoinScheduler")
                                .SetParent<CtHoScheduler>()
                                .SetGroupName("EdgeLlm")
                                .AddConstructor<ScriptedJoinScheduler>();
        return tid;
    }

    std::deque<bool> answers; //!< the next answers
    uint32_t asked{0};        //!< questions so far

  private:
    bool DoJoinCycleGroup(const HandoverPlan&, Time, const HandoverPlan&) override
    {
        ++asked; // asked past the script: the test's count fails, and the answer is no
        if (answers.empty())
        {
            return false;
        }
        const bool answer = answers.front();
        answers.pop_front();
        return answer;
    }
};

/// Three cells with idle links between every two, and the grouper's host.
class Directory : public OnlineGrouper::Host, public PlanInputBuilder::Source
{
  public:
    Directory()
        : m_inputs(this),
          m_grouper(this, &m_inputs)
    {
        m_scheduler = CreateObject<ScriptedJoinScheduler>();
        for (uint16_t c = 1; c <= 3; ++c)
        {
            m_cells[c] = Create<FakeCell>(c, CYCLE);
            for (uint16_t d = 1; d <= 3; ++d)
            {
                if (c != d)
                {
                    m_rates[{c, d}] = DataRate(static_cast<uint64_t>(RATE_BPS));
                }
            }
        }
    }

    /// \return the grouper
    OnlineGrouper& Grouper()
    {
        return m_grouper;
    }

    /// \return the scheduler
    Ptr<ScriptedJoinScheduler> Scheduler()
    {
        return m_scheduler;
    }

    /// \param c a cell \return it
    Ptr<FakeCell> Cell(uint16_t c)
    {
        return m_cells.at(c);
    }

    /**
     * \brief Plan a handover now and keep it as a member of its group.
     * \param imsi the UE, held at holder \param holder its cell \param target its target
     * \return the grouper's decision
     */
    OnlineGrouper::Decision HandOver(uint64_t imsi, uint16_t holder, uint16_t target)
    {
        OnlineGrouper::Decision d = m_grouper.Plan(imsi, holder, target);
        OnlineGrouper::Member m;
        m.imsi = imsi;
        m.holder = holder;
        m.handoverStart = Simulator::Now();
        m.contextTokens = m_cells.at(holder)->GetContextTokens(imsi);
        m.prefillTokens = m.contextTokens;
        m.bytesPerToken = SessionKvProfile{}.bytesPerToken;
        m.predictedDelay = d.plan.predictedDelay;
        m_members[imsi] = {d.group, target, m};
        return d;
    }

    /// A member is given up on: no newcomer re-plans it. \param imsi the UE
    void GiveUp(uint64_t imsi)
    {
        m_members.erase(imsi);
    }

    Ptr<HandoverScheduler> GetScheduler() const override
    {
        return m_scheduler;
    }

    Ptr<CellPort> PortOf(uint16_t cellId, const char* /* site */) override
    {
        return m_cells.at(cellId);
    }

    Ptr<const CellPort> ConfigOf(uint16_t cellId) const override
    {
        return m_cells.at(cellId);
    }

    const std::map<std::pair<uint16_t, uint16_t>, DataRate>& GetLinkRates() const override
    {
        return m_rates;
    }

    double GetPlannedRateBps(uint16_t, uint16_t) const override
    {
        return RATE_BPS;
    }

    SessionKvProfile GetKvProfile(uint64_t) const override
    {
        return {};
    }

    std::pair<Time, uint64_t> GetPrefillForecast(uint16_t) override
    {
        return {Time(0), 0};
    }

    bool ReplaysEngine(uint16_t) override
    {
        return false;
    }

    std::vector<LlmEngine::PrefillForecast> ForecastPrefills(uint16_t,
                                                             const std::vector<uint64_t>&,
                                                             Time,
                                                             const std::vector<uint64_t>&) override
    {
        NS_ABORT_MSG("a Separate engine's plans do not ask for its replay");
        return {};
    }

    const std::map<uint64_t, Migration>& GetMigrations() const override
    {
        return m_migrations;
    }

    const HandoverRecord& GetRecord(std::size_t) const override
    {
        NS_FATAL_ERROR("Directory: the grouper read a record");
        std::terminate(); // an unoptimised build does not see that the line above never returns
    }

    uint16_t HolderOf(uint64_t) const override
    {
        NS_FATAL_ERROR("Directory: the grouper asked for a session's holder");
        std::terminate();
    }

    bool GetReportedFreeKv(uint16_t, uint64_t&) const override
    {
        return false; // an ideal control plane: the engine is read
    }

    std::vector<OnlineGrouper::Member> GetReplannableMembers(uint32_t group,
                                                             uint16_t target) override
    {
        std::vector<OnlineGrouper::Member> members;
        for (const auto& [imsi, entry] : m_members)
        {
            if (entry.group == group && entry.target == target)
            {
                members.push_back(entry.member);
            }
        }
        return members;
    }

    uint32_t NewGroupNumber() override
    {
        return ++m_groups;
    }

    Time GetTargetIterationEnd(uint16_t cellId) override
    {
        auto r = reportedEnds.find(cellId);
        return r == reportedEnds.end() ? m_cells.at(cellId)->GetIterationEnd() : r->second;
    }

    /// Iteration ends the targets' answers reported, by cell; the cell's own where none
    std::map<uint16_t, Time> reportedEnds;

  private:
    /// A member as the host keeps it.
    struct Entry
    {
        uint32_t group;               //!< its group
        uint16_t target;              //!< its target
        OnlineGrouper::Member member; //!< what the grouper sees of it
    };

    std::map<uint16_t, Ptr<FakeCell>> m_cells;                 //!< by id
    std::map<std::pair<uint16_t, uint16_t>, DataRate> m_rates; //!< their rates
    std::map<uint64_t, Migration> m_migrations;                //!< none
    std::map<uint64_t, Entry> m_members;                       //!< by IMSI
    uint32_t m_groups{0};                                      //!< numbers given
    Ptr<ScriptedJoinScheduler> m_scheduler;                    //!< the policy
    PlanInputBuilder m_inputs;                                 //!< its views
    OnlineGrouper m_grouper;                                   //!< under test
};

/**
 * \param at when the handover is planned \param context its context, tokens
 * \param slack the policy's OnlineTokensSlack
 * \return when its token IDs are in at the target, over an idle link of RATE_BPS and no delay:
 *         one header and four bytes per token, plus the slack
 */
Time
TokensIn(Time at, uint64_t context, Time slack)
{
    const double bytes = 36.0 + 4.0 * context;
    return at + Seconds(bytes * 8.0 / RATE_BPS) + slack;
}

/// One handover of the script: when, whose, where to, and the context it holds.
struct Step
{
    Time at;          //!< when it is planned
    uint64_t imsi;    //!< the UE
    uint16_t holder;  //!< its cell
    uint16_t target;  //!< its target
    uint64_t context; //!< its context, tokens
    bool givenUp;     //!< its member is given up on right after it is planned
};

/// What a step must yield, derived by hand.
struct Expected
{
    uint32_t group;               //!< its group's number
    bool joined;                  //!< whether it joined
    bool batchMoved;              //!< whether the batch moved
    std::vector<uint64_t> others; //!< the members before it
    Time freeBefore;              //!< the group's free-before time after it
};

/// A script of handovers, the scheduler's answers, and what each step yields.
class OnlineGrouperTestCase : public TestCase
{
  public:
    /**
     * \param name the case's name \param slack the policy's OnlineTokensSlack
     * \param steps the handovers \param answers the scheduler's join answers, all to be asked
     * \param expected per step
     * \param reported the iteration ends the targets' answers reported, by cell
     */
    OnlineGrouperTestCase(const std::string& name,
                          Time slack,
                          std::vector<Step> steps,
                          std::deque<bool> answers,
                          std::vector<Expected> expected,
                          std::map<uint16_t, Time> reported = {})
        : TestCase("online grouper: " + name),
          m_slack(slack),
          m_steps(std::move(steps)),
          m_answers(std::move(answers)),
          m_expected(std::move(expected)),
          m_reported(std::move(reported))
    {
    }

  private:
    void DoRun() override
    {
        Directory dir;
        dir.Scheduler()->SetAttribute("OnlineTokensSlack", TimeValue(m_slack));
        dir.Scheduler()->answers = m_answers;
        dir.reportedEnds = m_reported;
        std::vector<OnlineGrouper::Decision> decisions(m_steps.size());
        for (std::size_t i = 0; i < m_steps.size(); ++i)
        {
            const Step& s = m_steps[i];
            dir.Cell(s.holder)->AddSession(s.imsi, s.context);
            Simulator::Schedule(s.at, [&dir, &decisions, s, i]() {
                decisions[i] = dir.HandOver(s.imsi, s.holder, s.target);
                if (s.givenUp)
                {
                    dir.GiveUp(s.imsi);
                }
            });
        }
        // Each group's free-before time, read right after each step.
        std::vector<Time> freeBefore(m_steps.size());
        for (std::size_t i = 0; i < m_steps.size(); ++i)
        {
            Simulator::Schedule(m_steps[i].at, [&dir, &decisions, &freeBefore, i]() {
                freeBefore[i] = dir.Grouper().GetBatchEnd(decisions[i].group, {}).second;
            });
        }
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(dir.Scheduler()->asked,
                              m_answers.size(),
                              "the scheduler is asked exactly where a group is open");
        for (std::size_t i = 0; i < m_steps.size(); ++i)
        {
            const OnlineGrouper::Decision& d = decisions[i];
            const Expected& e = m_expected[i];
            NS_TEST_EXPECT_MSG_EQ(d.group, e.group, "step " << i << ": group");
            NS_TEST_EXPECT_MSG_EQ(d.joined, e.joined, "step " << i << ": joined");
            NS_TEST_EXPECT_MSG_EQ(d.batchMoved, e.batchMoved, "step " << i << ": batch moved");
            NS_TEST_EXPECT_MSG_EQ(d.others.size(), e.others.size(), "step " << i << ": others");
            for (std::size_t k = 0; k < std::min(d.others.size(), e.others.size()); ++k)
            {
                NS_TEST_EXPECT_MSG_EQ(d.others[k], e.others[k], "step " << i << ": other " << k);
            }
            NS_TEST_EXPECT_MSG_EQ(freeBefore[i], e.freeBefore, "step " << i << ": free before");
            NS_TEST_EXPECT_MSG_EQ(dir.Grouper().IsOnline(d.group), true, "step " << i);
            NS_TEST_EXPECT_MSG_EQ(d.plan.sessions.empty(), false, "step " << i << ": a plan");
        }
    }

    Time m_slack;                        //!< the policy's slack
    std::vector<Step> m_steps;           //!< the handovers
    std::deque<bool> m_answers;          //!< the scheduler's answers
    std::vector<Expected> m_expected;    //!< per step
    std::map<uint16_t, Time> m_reported; //!< reported iteration ends, by cell
};

/// The grouper's suite.
class OnlineGrouperTestSuite : public TestSuite
{
  public:
    OnlineGrouperTestSuite()
        : TestSuite("edge-llm-online-grouper", TestSuite::Type::UNIT)
    {
        const Time t0 = MilliSeconds(100);
        for (const Time& slack : {Time(0), MilliSeconds(3)})
        {
            const std::string tag = slack.IsZero() ? " (no slack)" : " (3 ms slack)";
            // Alone: no open group, nothing to ask; the batch waits for the token IDs.
            AddTestCase(
                new OnlineGrouperTestCase("alone" + tag,
                                          slack,
                                          {{t0, 1, 1, 2, 1000, false}},
                                          {},
                                          {{1, false, false, {}, TokensIn(t0, 1000, slack)}}),
                edgellm::TEST_QUICK);
            // Joins when told to, in time for the boundary at 110 ms: the batch stays there,
            // and waits for whichever token IDs arrive last.
            const Time t1 = MicroSeconds(100500);
            const Time joinFree = std::max(TokensIn(t0, 1000, slack), TokensIn(t1, 2500, slack));
            AddTestCase(
                new OnlineGrouperTestCase("joins when told" + tag,
                                          slack,
                                          {{t0, 1, 1, 2, 1000, false}, {t1, 3, 3, 2, 2500, false}},
                                          {true},
                                          {{1, false, false, {}, TokensIn(t0, 1000, slack)},
                                           {1, true, false, {1}, joinFree}}),
                edgellm::TEST_QUICK);
            // Refused: a group of its own, which is the target's open group from then on.
            const Time t2 = MicroSeconds(101000);
            AddTestCase(new OnlineGrouperTestCase(
                            "refused, then the newer group is open" + tag,
                            slack,
                            {{t0, 1, 1, 2, 1000, false},
                             {t1, 3, 3, 2, 2500, false},
                             {t2, 5, 1, 2, 800, false}},
                            {false, true},
                            {{1, false, false, {}, TokensIn(t0, 1000, slack)},
                             {2, false, false, {}, TokensIn(t1, 2500, slack)},
                             {2,
                              true,
                              false,
                              {3},
                              std::max(TokensIn(t1, 2500, slack), TokensIn(t2, 800, slack))}}),
                        edgellm::TEST_QUICK);
            // Another target's group is not this one's: nothing to ask.
            AddTestCase(
                new OnlineGrouperTestCase("open groups are per target" + tag,
                                          slack,
                                          {{t0, 1, 1, 2, 1000, false}, {t1, 3, 1, 3, 2500, false}},
                                          {},
                                          {{1, false, false, {}, TokensIn(t0, 1000, slack)},
                                           {2, false, false, {}, TokensIn(t1, 2500, slack)}}),
                edgellm::TEST_QUICK);
            // Past the boundary the group's batch has started: nothing to ask.
            const Time late = MilliSeconds(111);
            AddTestCase(new OnlineGrouperTestCase(
                            "closed at its boundary" + tag,
                            slack,
                            {{t0, 1, 1, 2, 1000, false}, {late, 3, 3, 2, 2500, false}},
                            {},
                            {{1, false, false, {}, TokensIn(t0, 1000, slack)},
                             {2, false, false, {}, TokensIn(late, 2500, slack)}}),
                        edgellm::TEST_QUICK);
            // Its only member given up on: nobody to re-plan, nothing to ask.
            AddTestCase(
                new OnlineGrouperTestCase("no member left" + tag,
                                          slack,
                                          {{t0, 1, 1, 2, 1000, true}, {t1, 3, 3, 2, 2500, false}},
                                          {},
                                          {{1, false, false, {}, TokensIn(t0, 1000, slack)},
                                           {2, false, false, {}, TokensIn(t1, 2500, slack)}}),
                edgellm::TEST_QUICK);
        }
        // Alone behind the iteration the target's answer reported to end at 120 ms, not its
        // engine's (idle here): the token IDs are in at 100.03 ms, (36 + 4 x 1000) B at 1 Gb/s.
        AddTestCase(new OnlineGrouperTestCase("alone, behind the target's reported iteration",
                                              Time(0),
                                              {{t0, 1, 1, 2, 1000, false}},
                                              {},
                                              {{1, false, false, {}, MilliSeconds(120)}},
                                              {{2, MilliSeconds(120)}}),
                    edgellm::TEST_QUICK);
        // A newcomer whose token IDs arrive after the boundary at 110 ms moves the batch to
        // 120 ms: 108 ms + (36 + 4 x 50000) B at 1 Gb/s = 109.6 ms, plus 3 ms of slack.
        const Time t3 = MilliSeconds(108);
        AddTestCase(
            new OnlineGrouperTestCase("a late joiner moves the batch",
                                      MilliSeconds(3),
                                      {{t0, 1, 1, 2, 1000, false}, {t3, 3, 3, 2, 50000, false}},
                                      {true},
                                      {{1, false, false, {}, TokensIn(t0, 1000, MilliSeconds(3))},
                                       {1, true, true, {1}, TokensIn(t3, 50000, MilliSeconds(3))}}),
            edgellm::TEST_QUICK);
    }
};

/// The suite's one instance.
OnlineGrouperTestSuite g_onlineGrouperTestSuite;

} // namespace
