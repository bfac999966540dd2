/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ctho-family-scheduler.h"

#include "explaining-checker.h"

#include "ns3/boolean.h"
#include "ns3/string.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CtHoFamilyScheduler);

TypeId
CtHoFamilyScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CtHoFamilyScheduler")
            .SetParent<HandoverScheduler>()
            .SetGroupName("EdgeLlm")
            .AddAttribute(
                "OnlineGrouping",
                "Plan the online handovers one prefill batch of the target will hold "
                "together, re-planning the unsent rest of those already under way; "
                "false plans each alone, behind the ones before.",
                BooleanValue(true),
                MakeBooleanAccessor(&CtHoFamilyScheduler::m_onlineGrouping),
                edgellm::MakeExplainingBooleanChecker("ns3::CtHoFamilyScheduler::OnlineGrouping"))
            .AddAttribute(
                "SchemeName",
                "The scheme name the scheduler reports (GetSchemeName, result files); empty "
                "for the type's own (cho, tho, ctho). The registry's aliases set it, e.g. "
                "pallas-full-copy is a CacheHandoverScheduler under that name.",
                StringValue(""),
                MakeStringAccessor(&CtHoFamilyScheduler::m_schemeName),
                edgellm::MakeExplainingChecker(
                    MakeStringChecker(),
                    "ns3::CtHoFamilyScheduler::SchemeName",
                    "empty, or lowercase letters, digits and '-', not starting with '-'",
                    [](const AttributeValue& v) -> std::string {
                        const std::string name = static_cast<const StringValue&>(v).Get();
                        if (!name.empty() && name.front() == '-')
                        {
                            return "starts with '-'";
                        }
                        for (char c : name)
                        {
                            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
                            {
                                return "not a scheme name";
                            }
                        }
                        return "";
                    }));
    return tid;
}

CtHoFamilyScheduler::CtHoFamilyScheduler() = default;

bool
CtHoFamilyScheduler::GetOnlineGrouping() const
{
    return m_onlineGrouping;
}

CtHoFamilyScheduler::~CtHoFamilyScheduler() = default;

std::string
CtHoFamilyScheduler::SchemeNameOr(const std::string& own) const
{
    return m_schemeName.empty() ? own : m_schemeName;
}

CtHoInput
CtHoFamilyScheduler::MakeCtHoView(const HandoverPlanInput& input)
{
    if (input.sessions.empty())
    {
        throw std::invalid_argument("HandoverPlanInput::sessions is empty");
    }
    const HandoverTargetView& target = input.GetTarget(input.sessions.front().targetCell);
    CtHoInput problem;
    problem.prefillCycle = target.prefillCycleS;
    problem.earliestPrefillStart = std::max(target.prefillFreeAtS, input.nowS);
    double bps = 0;
    uint64_t bytesPerToken = 0;
    uint64_t backlog = 0;
    for (const HandoverSessionView& s : input.sessions)
    {
        problem.ues.push_back({s.contextTokens, s.handoverStartS});
        // min(L, C_i) is the session's prefill, so its bounds are bounds on L, except a
        // maximum at or past its context, which no L can exceed.
        problem.minPrefix = std::max(problem.minPrefix, s.prefixMin);
        if (s.prefixMax < s.contextTokens)
        {
            problem.maxPrefix = std::min(problem.maxPrefix, s.prefixMax);
        }
        bytesPerToken = std::max(bytesPerToken, s.kv.bytesPerToken);
        for (std::size_t l : s.links)
        {
            const HandoverLinkView& link = input.links.at(l);
            bps = bps == 0 ? link.plannedRateBps : std::min(bps, link.plannedRateBps);
            if (l == s.links.front())
            {
                backlog = std::max(backlog, link.backlogBytes);
            }
        }
    }
    if (bps == 0)
    {
        // No path has a link: the cache cannot move, so only a re-prefill is possible; the
        // slowest link anywhere is a rate the policy can still decide with.
        for (const HandoverLinkView& link : input.links)
        {
            bps = bps == 0 ? link.plannedRateBps : std::min(bps, link.plannedRateBps);
        }
    }
    if (bps == 0)
    {
        throw std::invalid_argument("HandoverPlanInput::links is empty: no backhaul link at all");
    }
    if (problem.minPrefix > problem.maxPrefix)
    {
        throw std::invalid_argument(
            "HandoverSessionView::prefixMin = " + std::to_string(problem.minPrefix) +
            " of one session is above another's prefixMax = " + std::to_string(problem.maxPrefix) +
            ": no common prefix fits the group");
    }
    problem.backhaulTokensPerSecond = bps / 8.0 / static_cast<double>(bytesPerToken);
    problem.backlogTokens = static_cast<double>(backlog) / static_cast<double>(bytesPerToken);
    if (target.prefillEndS)
    {
        // The engine's own iterations decide when the batch ends: queued once the last
        // member has handed over, behind what is planned there, the group's own left out.
        double from = input.nowS;
        std::vector<uint64_t> members;
        for (const HandoverSessionView& s : input.sessions)
        {
            from = std::max(from, s.handoverStartS);
            members.push_back(s.imsi);
        }
        problem.prefillEnd =
            [end = target.prefillEndS, from, members](const std::vector<uint64_t>& lengths) {
                return end(lengths, from, members);
            };
    }
    return problem;
}

HandoverPlan
CtHoFamilyScheduler::DoPlan(const HandoverPlanInput& input)
{
    return PlanWithPrefix(input, [this](const CtHoSolver& solver) { return ChoosePrefix(solver); });
}

HandoverPlan
CtHoFamilyScheduler::PlanWithPrefix(const HandoverPlanInput& input,
                                    const std::function<CtHoValue(const CtHoSolver&)>& choose)
{
    const HandoverTargetView& target = input.GetTarget(input.sessions.front().targetCell);
    const CtHoInput problem = MakeCtHoView(input);
    const CtHoSolver solver(problem, target.compute);
    CtHoValue chosen = choose(solver);
    if (chosen.prefixTokens < problem.minPrefix || chosen.prefixTokens > problem.maxPrefix)
    {
        // V(L) falls to the unbounded optimum and rises after it, so the bound nearest to
        // the scheme's own choice is the best it can still have.
        chosen =
            solver.Evaluate(std::clamp(chosen.prefixTokens, problem.minPrefix, problem.maxPrefix));
    }
    const uint64_t L = chosen.prefixTokens;
    HandoverPlan plan;
    plan.prefixTokens = L;
    plan.predictedDelay = Seconds(chosen.worstDelay);
    for (const HandoverSessionView& s : input.sessions)
    {
        SessionPlan p;
        p.imsi = s.imsi;
        if (L > 0)
        {
            p.prefill.push_back({0, L});
        }
        // CONTEXT_END: an oracle member's context grows until its own handover.
        p.transfer.push_back({L, TokenRange::CONTEXT_END});
        // Earliest deadline first with d_i = tau_i + D_tx*(L) attains D_tx*(L).
        p.transferDeadline = Seconds(chosen.transferDelay);
        plan.sessions.push_back(p);
    }
    return plan;
}

} // namespace ns3
