/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-scheduler.h"

#include "explaining-checker.h"
#include "fatal-on-invalid.h"
#include "range-set.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverScheduler");
NS_OBJECT_ENSURE_REGISTERED(HandoverScheduler);

namespace
{

/// Throw std::invalid_argument with a message built from the stream.
#define EDGE_LLM_REQUIRE(cond, msg)                                                                \
    do                                                                                             \
    {                                                                                              \
        if (!(cond))                                                                               \
        {                                                                                          \
            std::ostringstream why_;                                                               \
            why_ << msg;                                                                           \
            throw std::invalid_argument(why_.str());                                               \
        }                                                                                          \
    } while (false)

void
CheckInput(const HandoverPlanInput& input)
{
    EDGE_LLM_REQUIRE(!input.sessions.empty(),
                     "HandoverPlanInput::sessions is empty; a group holds at least 1");
    std::set<uint64_t> seen;
    for (const HandoverSessionView& s : input.sessions)
    {
        EDGE_LLM_REQUIRE(s.imsi >= 1, "HandoverSessionView::imsi = 0; an IMSI is >= 1");
        EDGE_LLM_REQUIRE(seen.insert(s.imsi).second,
                         "HandoverPlanInput::sessions holds imsi " << s.imsi << " twice");
        EDGE_LLM_REQUIRE(s.contextTokens >= 1,
                         "HandoverSessionView::contextTokens = 0 for imsi "
                             << s.imsi << "; allowed: an integer >= 1");
        EDGE_LLM_REQUIRE(s.kv.bytesPerToken >= 1 && s.kv.bytesPerEntry >= 1 &&
                             s.kv.entriesPerToken >= 1,
                         "SessionKvProfile of imsi "
                             << s.imsi << ": bytesPerToken, bytesPerEntry and entriesPerToken "
                             << "are >= 1");
        EDGE_LLM_REQUIRE(std::isfinite(s.handoverStartS) && s.handoverStartS >= 0,
                         "HandoverSessionView::handoverStartS = "
                             << s.handoverStartS << " for imsi " << s.imsi
                             << "; allowed: a finite time >= 0");
        EDGE_LLM_REQUIRE(std::isfinite(s.decodeTokensPerSecond) && s.decodeTokensPerSecond >= 0,
                         "HandoverSessionView::decodeTokensPerSecond = "
                             << s.decodeTokensPerSecond << "; allowed: a finite rate >= 0");
        for (std::size_t l : s.links)
        {
            EDGE_LLM_REQUIRE(l < input.links.size(),
                             "HandoverSessionView::links of imsi " << s.imsi << " names link " << l
                                                                   << " of " << input.links.size());
        }
        input.GetTarget(s.targetCell);
    }
    for (const HandoverLinkView& l : input.links)
    {
        EDGE_LLM_REQUIRE(l.rateBps > 0 && std::isfinite(l.rateBps) && l.plannedRateBps > 0 &&
                             std::isfinite(l.plannedRateBps),
                         "HandoverLinkView " << l.fromCell << " -> " << l.toCell
                                             << ": rateBps and plannedRateBps are finite and > 0");
    }
}

} // namespace

const HandoverTargetView&
HandoverPlanInput::GetTarget(uint16_t cell) const
{
    for (const HandoverTargetView& t : targets)
    {
        if (t.cell == cell)
        {
            return t;
        }
    }
    throw std::invalid_argument("HandoverPlanInput::targets has no view of cell " +
                                std::to_string(cell));
}

const SessionPlan*
HandoverPlan::Find(uint64_t imsi) const
{
    for (const SessionPlan& p : sessions)
    {
        if (p.imsi == imsi)
        {
            return &p;
        }
    }
    return nullptr;
}

TypeId
HandoverScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HandoverScheduler")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddAttribute("OnlineTokensSlack",
                          "Slack on when an online newcomer's token IDs reach its target, "
                          "added to their planned arrival (what TCP holds ahead of them at "
                          "the planned rate, plus the link's delay): a cycle group's batch "
                          "planned with the newcomer does not start before then. In [0, 1 s].",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&HandoverScheduler::m_onlineTokensSlack),
                          edgellm::MakeTimeRangeChecker("ns3::HandoverScheduler::OnlineTokensSlack",
                                                        Seconds(1),
                                                        "a time in [0 s, 1 s]"));
    return tid;
}

HandoverScheduler::HandoverScheduler() = default;

HandoverScheduler::~HandoverScheduler() = default;

std::vector<TokenRange>
HandoverScheduler::Resolve(const std::vector<TokenRange>& ranges, uint64_t end)
{
    std::vector<TokenRange> out;
    for (TokenRange r : ranges)
    {
        r.end = std::min(r.end, end);
        if (r.first < r.end)
        {
            out.push_back(r);
        }
    }
    return out;
}

std::string
HandoverScheduler::CheckPlan(const HandoverPlanInput& input,
                             const HandoverPlan& plan,
                             const std::string& who)
{
    std::ostringstream why;
    std::set<uint64_t> planned;
    for (const SessionPlan& p : plan.sessions)
    {
        auto view = std::find_if(input.sessions.begin(),
                                 input.sessions.end(),
                                 [&p](const HandoverSessionView& s) { return s.imsi == p.imsi; });
        if (view == input.sessions.end())
        {
            why << who << ": SessionPlan::imsi = " << p.imsi << " is not a session of the group";
            return why.str();
        }
        if (!planned.insert(p.imsi).second)
        {
            why << who << ": two plans for imsi " << p.imsi;
            return why.str();
        }
        if (p.action == SessionPlan::RELAY)
        {
            continue;
        }
        if (!(p.weight > 0) || !std::isfinite(p.weight))
        {
            why << who << ": SessionPlan::weight = " << p.weight << " for imsi " << p.imsi
                << "; allowed: a finite number > 0";
            return why.str();
        }
        if (p.resumeAfter.IsStrictlyNegative() || p.transferDeadline.IsStrictlyNegative())
        {
            why << who << ": SessionPlan::resumeAfter and transferDeadline of imsi " << p.imsi
                << " are times >= 0";
            return why.str();
        }
        if (p.resume == SessionPlan::AT_DEADLINE && p.resumeAfter == Time::Max())
        {
            why << who << ": SessionPlan::resumeAfter of imsi " << p.imsi
                << " is infinite; AT_DEADLINE needs a finite time >= 0";
            return why.str();
        }
        if (p.keepDecoding && (p.unit != KvTransferHeader::TOKEN || p.transfer.empty() ||
                               p.transfer.back().end != TokenRange::CONTEXT_END))
        {
            why << who << ": imsi " << p.imsi
                << ": a plan that keeps decoding grows its transfer at the context's end: its "
                   "unit is TOKEN and its last range ends at TokenRange::CONTEXT_END";
            return why.str();
        }
        if (!p.streamOpen && !p.keepDecoding)
        {
            why << who << ": imsi " << p.imsi
                << ": SessionPlan::streamOpen = false holds an open transfer's tail, and only a "
                   "plan that keeps decoding (keepDecoding) has one";
            return why.str();
        }
        const uint64_t context = view->contextTokens;
        const std::vector<TokenRange> prefill = Resolve(p.prefill, context);
        // A token's KV depends on every token before it, so only a prefix can be re-prefilled.
        if (prefill.size() > 1 || (prefill.size() == 1 && prefill[0].first != 0))
        {
            why << who << ": SessionPlan::prefill of imsi " << p.imsi
                << " must be one range [0, P) (a token's KV depends on every earlier token)";
            return why.str();
        }
        const uint64_t prefix = prefill.empty() ? 0 : prefill[0].end;
        if (prefix < view->prefixMin || prefix > view->prefixMax)
        {
            why << who << ": SessionPlan::prefill of imsi " << p.imsi << " ends at " << prefix
                << "; allowed: [" << view->prefixMin << ", " << std::min(view->prefixMax, context)
                << "] (HandoverSessionView::prefixMin and prefixMax: what its transfer so far "
                   "leaves to a re-plan)";
            return why.str();
        }
        const uint64_t units =
            p.unit == KvTransferHeader::TOKEN ? context : context * view->kv.entriesPerToken;
        // What the target will hold: in tokens, the prefix and the token ranges sent.
        edgellm::RangeSet held;
        if (p.unit == KvTransferHeader::TOKEN)
        {
            held.Add({0, prefix});
        }
        edgellm::RangeSet sent;
        for (const TokenRange& r : Resolve(p.transfer, units))
        {
            if (sent.Overlaps(r) || (p.unit == KvTransferHeader::TOKEN && held.Overlaps(r)))
            {
                why << who << ": SessionPlan::transfer of imsi " << p.imsi << " overlaps at "
                    << r.first << " what is sent or prefilled already";
                return why.str();
            }
            sent.Add(r);
            if (p.unit == KvTransferHeader::TOKEN)
            {
                held.Add(r);
            }
        }
        if (p.unit == KvTransferHeader::TOKEN && p.resume == SessionPlan::ALL_ARRIVED &&
            held.Count() != context)
        {
            // Every token must be held once: what the target decodes with. Everything held
            // is below the context, so the count falling short leaves a gap before it.
            std::vector<TokenRange> gaps;
            held.ForEachGap({0, context}, [&gaps](TokenRange gap) { gaps.push_back(gap); });
            why << who << ": imsi " << p.imsi << ": tokens [" << gaps.front().first << ", "
                << gaps.front().end << ") are neither prefilled nor sent";
            return why.str();
        }
    }
    for (const HandoverSessionView& s : input.sessions)
    {
        if (planned.count(s.imsi) == 0 && !plan.sessions.empty())
        {
            why << who << ": the plan has no SessionPlan for imsi " << s.imsi;
            return why.str();
        }
    }
    return "";
}

HandoverPlan
HandoverScheduler::Checked(const HandoverPlanInput& input, bool prepare)
{
    const std::string who = "HandoverScheduler " + GetSchemeName();
    HandoverPlan plan = edgellm::CallOrFatal(who, [this, &input, prepare]() {
        CheckInput(input);
        return prepare ? DoPrepare(input) : DoPlan(input);
    });
    // An empty plan is how a prepare hook declines; a plan must answer.
    NS_ABORT_MSG_IF(!prepare && plan.sessions.empty(),
                    who << ": Plan gave no SessionPlan for " << input.sessions.size()
                        << " sessions");
    const std::string why = CheckPlan(input, plan, who);
    NS_ABORT_MSG_IF(!why.empty(), why);
    return plan;
}

HandoverPlan
HandoverScheduler::Plan(const HandoverPlanInput& input)
{
    HandoverPlan plan = Checked(input, false);
    NS_LOG_INFO(GetSchemeName() << ": " << input.sessions.size()
                                << " sessions, L = " << plan.prefixTokens
                                << ", predicted worst delay " << plan.predictedDelay.As(Time::MS));
    return plan;
}

HandoverPlan
HandoverScheduler::Prepare(const HandoverPlanInput& input)
{
    return Checked(input, true);
}

void
HandoverScheduler::Commit(const MigrationView& migration)
{
    DoCommit(migration);
}

void
HandoverScheduler::Cancel(const MigrationView& migration)
{
    DoCancel(migration);
}

SlotBudgets
HandoverScheduler::Slot(const HandoverSlotInput& input)
{
    SlotBudgets budgets = DoSlot(input);
    std::vector<uint64_t> used(input.links.size(), 0);
    for (const auto& [imsi, bytes] : budgets)
    {
        auto m = std::find_if(input.migrations.begin(),
                              input.migrations.end(),
                              [imsi = imsi](const MigrationView& v) { return v.imsi == imsi; });
        NS_ABORT_MSG_IF(m == input.migrations.end(),
                        "HandoverScheduler " << GetSchemeName() << ": a slot budget for imsi "
                                             << imsi << ", which has no migration under way");
        for (std::size_t l : m->links)
        {
            // Saturating: "unlimited" budgets must not wrap around and pass.
            used[l] = bytes > std::numeric_limits<uint64_t>::max() - used[l]
                          ? std::numeric_limits<uint64_t>::max()
                          : used[l] + bytes;
        }
    }
    for (std::size_t l = 0; l < input.links.size(); ++l)
    {
        const HandoverLinkView& link = input.links[l];
        // Integer budgets of a capacity that is not a whole number of bytes may round up.
        const auto capacity = static_cast<uint64_t>(std::ceil(link.rateBps * input.slotS / 8.0));
        NS_ABORT_MSG_IF(used[l] > capacity,
                        "HandoverScheduler " << GetSchemeName() << ": slot " << input.slot
                                             << " budgets " << used[l] << " bytes on link "
                                             << link.fromCell << " -> " << link.toCell
                                             << ", more than its capacity of " << capacity
                                             << " bytes per slot (rate x slot / 8)");
    }
    return budgets;
}

void
HandoverScheduler::CompleteRecord(HandoverRecord& record) const
{
    DoCompleteRecord(record);
}

HandoverPlan
HandoverScheduler::PlanCycleGroup(const HandoverPlanInput& keep, const HandoverPlanInput* grow)
{
    return DoPlanCycleGroup(keep, grow);
}

bool
HandoverScheduler::JoinCycleGroup(const HandoverPlan& joint,
                                  Time groupWorst,
                                  const HandoverPlan& alone)
{
    return DoJoinCycleGroup(joint, groupWorst, alone);
}

SessionPlan
HandoverScheduler::PlanWithoutDirectLink(const HandoverSessionView& session)
{
    SessionPlan plan = DoPlanWithoutDirectLink(session);
    const std::vector<TokenRange> prefill = Resolve(plan.prefill, session.contextTokens);
    const bool whole = prefill.size() == 1 && prefill.front().first == 0 &&
                       prefill.front().end == session.contextTokens;
    NS_ABORT_MSG_IF(!whole || !Resolve(plan.transfer, session.contextTokens).empty() ||
                        plan.keepDecoding || plan.imsi != session.imsi,
                    "HandoverScheduler " << GetSchemeName() << ": the plan of imsi " << session.imsi
                                         << " without a direct link is invalid; allowed: a "
                                            "prefill of [0, CONTEXT_END) and no transfer");
    return plan;
}

Time
HandoverScheduler::GetOnlineTokensSlack() const
{
    return m_onlineTokensSlack;
}

HandoverPlan
HandoverScheduler::DoPlanCycleGroup(const HandoverPlanInput& keep, const HandoverPlanInput* grow)
{
    HandoverPlan plan = Plan(keep);
    if (grow)
    {
        HandoverPlan grown = Plan(*grow);
        if (grown.predictedDelay < plan.predictedDelay)
        {
            plan = grown;
        }
    }
    return plan;
}

bool
HandoverScheduler::DoJoinCycleGroup(const HandoverPlan& joint,
                                    Time groupWorst,
                                    const HandoverPlan& alone)
{
    return joint.predictedDelay <= std::max(groupWorst, alone.predictedDelay);
}

SessionPlan
HandoverScheduler::DoPlanWithoutDirectLink(const HandoverSessionView& session)
{
    SessionPlan plan;
    plan.imsi = session.imsi;
    plan.action = SessionPlan::MIGRATE;
    plan.prefill = {{0, TokenRange::CONTEXT_END}};
    return plan;
}

Time
HandoverScheduler::GetSlotDuration() const
{
    return Time(0);
}

bool
HandoverScheduler::GetSlotsCoupleLinks() const
{
    return false;
}

bool
HandoverScheduler::GetOnlineGrouping() const
{
    return false;
}

HandoverPlan
HandoverScheduler::DoPrepare(const HandoverPlanInput& /* input */)
{
    return {};
}

bool
HandoverScheduler::ShouldPrepare(const HandoverPredictionView& prediction) const
{
    return DoShouldPrepare(prediction);
}

bool
HandoverScheduler::ShouldCancel(const HandoverPredictionView& prediction) const
{
    return prediction.prepared && DoShouldCancel(prediction);
}

bool
HandoverScheduler::DoShouldPrepare(const HandoverPredictionView& /* prediction */) const
{
    return false;
}

bool
HandoverScheduler::DoShouldCancel(const HandoverPredictionView& prediction) const
{
    // A prepared migration whose prediction no longer holds only wastes the target's GPU and
    // the backhaul, unless the scheduler moves it to the new target now.
    if (prediction.targetCell == 0 || prediction.targetCell == prediction.servingCell)
    {
        return true;
    }
    return prediction.targetCell != prediction.preparedTarget && !ShouldPrepare(prediction);
}

void
HandoverScheduler::DoCommit(const MigrationView& /* migration */)
{
}

void
HandoverScheduler::DoCancel(const MigrationView& /* migration */)
{
}

SlotBudgets
HandoverScheduler::DoSlot(const HandoverSlotInput& /* input */)
{
    return {};
}

void
HandoverScheduler::DoCompleteRecord(HandoverRecord& /* record */) const
{
}

} // namespace ns3
