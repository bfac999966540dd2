/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "impact-ho-scheduler.h"

#include "enum-accessor.h"
#include "explaining-checker.h"
#include "explaining-enum-checker.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ImpactHoScheduler");

NS_OBJECT_ENSURE_REGISTERED(ImpactSlotScheduler);
NS_OBJECT_ENSURE_REGISTERED(ImpactHoScheduler);
NS_OBJECT_ENSURE_REGISTERED(ImpactEqualScheduler);
NS_OBJECT_ENSURE_REGISTERED(ImpactPfScheduler);
NS_OBJECT_ENSURE_REGISTERED(ImpactWtaScheduler);

TypeId
ImpactSlotScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ImpactSlotScheduler")
            .SetParent<HandoverScheduler>()
            .SetGroupName("EdgeLlm")
            .AddAttribute(
                "Slot",
                "Delta t, the allocation slot: budgets are set at the start of each "
                "slot. A time > 0.",
                TimeValue(MilliSeconds(100)),
                MakeTimeAccessor(&ImpactSlotScheduler::m_slot),
                edgellm::MakeTimeNotNegativeChecker("ns3::ImpactSlotScheduler::Slot", false))
            .AddAttribute(
                "Window",
                "T_max: the target resumes this long after the handover with the "
                "entries that arrived. A time >= 0; 0 means the window never closes "
                "(resume once the whole cache arrived).",
                TimeValue(MilliSeconds(500)),
                MakeTimeAccessor(&ImpactSlotScheduler::m_window),
                edgellm::MakeTimeNotNegativeChecker("ns3::ImpactSlotScheduler::Window", true))
            .AddAttribute("Order",
                          "The order of the entries on the wire, which picks the accuracy "
                          "curve A(y): importance (most important first, the paper's fit) or "
                          "random (the ordering ablation).",
                          EnumValue(ImpactSlotScheduler::IMPORTANCE),
                          edgellm::MakeEnumMemberAccessor(&ImpactSlotScheduler::m_order),
                          edgellm::MakeExplainingEnumChecker<EntryOrder>(
                              "ns3::ImpactSlotScheduler::Order",
                              {{ImpactSlotScheduler::IMPORTANCE, "importance"},
                               {ImpactSlotScheduler::RANDOM, "random"}}))
            .AddAttribute(
                "Goodput",
                "The fraction of a link's rate that carries KV payload (the rest is TCP, IP, "
                "link and message headers): budgets are planned on Goodput x rate, so that "
                "they can be spent. A number in (0, 1].",
                DoubleValue(0.95),
                MakeDoubleAccessor(&ImpactSlotScheduler::m_goodput),
                edgellm::MakeExplainingChecker(
                    MakeDoubleChecker<double>(),
                    "ns3::ImpactSlotScheduler::Goodput",
                    "a number in (0, 1]",
                    [](const AttributeValue& v) -> std::string {
                        const double g = static_cast<const DoubleValue&>(v).Get();
                        return g > 0 && g <= 1 ? "" : "it must be a fraction of the rate";
                    }))
            .AddAttribute(
                "SharedRate",
                "The rate of one link that every transfer crosses (a star backhaul's "
                "shared link), bit/s: all migrations then share it as one group, "
                "capped by the slowest link among theirs. 0 (the default): each "
                "backhaul link is its own group, at its own rate. Range [0, inf).",
                DataRateValue(DataRate(0)),
                MakeDataRateAccessor(&ImpactSlotScheduler::m_shared),
                edgellm::MakeExplainingChecker(MakeDataRateChecker(),
                                               "ns3::ImpactSlotScheduler::SharedRate",
                                               "a rate >= 0 bit/s (0: each link its own group)"))
            .AddTraceSource("Budget",
                            "A session's KV-byte budget for a slot, fired for every budget > 0 "
                            "the slot hook gives.",
                            MakeTraceSourceAccessor(&ImpactSlotScheduler::m_budgetTrace),
                            "ns3::ImpactSlotScheduler::BudgetTracedCallback");
    return tid;
}

ImpactSlotScheduler::ImpactSlotScheduler() = default;

ImpactSlotScheduler::~ImpactSlotScheduler() = default;

Time
ImpactSlotScheduler::GetSlotDuration() const
{
    return m_slot;
}

bool
ImpactSlotScheduler::GetSlotsCoupleLinks() const
{
    return m_shared.GetBitRate() > 0;
}

ImpactAccuracyParams
ImpactSlotScheduler::GetAccuracyParams() const
{
    return m_order == RANDOM ? ImpactAccuracyParams::RandomOrder()
                             : ImpactAccuracyParams::ImportanceOrder();
}

Time
ImpactSlotScheduler::GetWindow() const
{
    return m_window;
}

double
ImpactSlotScheduler::GetCompoundAccuracy(uint64_t imsi) const
{
    auto it = m_compound.find(imsi);
    return it == m_compound.end() ? GetAccuracyParams().fullAccuracy : it->second;
}

std::vector<double>
ImpactSlotScheduler::AllocateSlot(const std::vector<ImpactSlotMember>& members,
                                  double capacityBps,
                                  double slotS)
{
    return Allocate(members, capacityBps, slotS);
}

void
ImpactSlotScheduler::CountMode(uint64_t imsi, const std::string& mode)
{
    ++m_slotCounts[imsi][mode];
}

HandoverPlan
ImpactSlotScheduler::DoPlan(const HandoverPlanInput& input)
{
    HandoverPlan plan;
    for (const HandoverSessionView& s : input.sessions)
    {
        SessionPlan p;
        p.imsi = s.imsi;
        p.action = SessionPlan::MIGRATE;
        // Rank space: entry r is the r-th most important, so one range in order sends the
        // most important first, and a cut at the window keeps the top fraction.
        p.unit = KvTransferHeader::ENTRY;
        p.transfer.push_back({0, TokenRange::CONTEXT_END});
        if (m_window.IsZero())
        {
            p.resume = SessionPlan::ALL_ARRIVED;
        }
        else
        {
            p.resume = SessionPlan::AT_DEADLINE;
            p.resumeAfter = m_window;
        }
        plan.sessions.push_back(p);
    }
    return plan;
}

SlotBudgets
ImpactSlotScheduler::DoSlot(const HandoverSlotInput& input)
{
    // The slot's start: the hook may be asked mid-slot (a sender's first request), but a
    // handover that started after the slot's start waits for the next one.
    const double slotStartS = static_cast<double>(input.slot) * input.slotS;
    // Groups: by link, or one group over every link when they all cross a shared one.
    std::map<std::size_t, std::vector<std::size_t>> groups; // key -> indices of migrations
    for (std::size_t i = 0; i < input.migrations.size(); ++i)
    {
        const MigrationView& m = input.migrations[i];
        // A session past its window gets nothing: what arrives after it does not count, and a
        // late prefix that holds its resume must not hold the link too.
        const bool windowOver = m.resumeAtS >= 0 && slotStartS >= m.resumeAtS - 1e-12;
        const bool eligible = m.committed && m.handoverStartS <= slotStartS + 1e-12 &&
                              !windowOver && m.sentBytes < m.announcedBytes && !m.links.empty();
        if (eligible)
        {
            groups[m_shared.GetBitRate() > 0 ? 0 : m.links.front()].push_back(i);
        }
    }
    SlotBudgets budgets;
    for (const auto& [key, indices] : groups)
    {
        double rateBps = std::numeric_limits<double>::max();
        for (std::size_t i : indices)
        {
            rateBps = std::min(rateBps, input.links[input.migrations[i].links.front()].rateBps);
        }
        if (m_shared.GetBitRate() > 0)
        {
            rateBps = std::min(rateBps, static_cast<double>(m_shared.GetBitRate()));
        }
        const double capacityBps = m_goodput * rateBps;
        std::vector<Member> members;
        for (std::size_t i : indices)
        {
            const MigrationView& m = input.migrations[i];
            Member member;
            member.imsi = m.imsi;
            member.cacheBits = 8.0 * static_cast<double>(m.announcedBytes);
            member.sentFraction =
                static_cast<double>(m.sentBytes) / static_cast<double>(m.announcedBytes);
            member.handoverStartS = m.handoverStartS;
            members.push_back(member);
        }
        const std::vector<double> rates = Allocate(members, capacityBps, input.slotS);
        NS_ABORT_MSG_IF(rates.size() != members.size(),
                        GetSchemeName() << ": Allocate gave " << rates.size() << " rates for "
                                        << members.size() << " sessions");
        for (std::size_t j = 0; j < indices.size(); ++j)
        {
            const MigrationView& m = input.migrations[indices[j]];
            const uint64_t left = m.announcedBytes - m.sentBytes;
            const double bytes = std::max(0.0, rates[j]) * input.slotS / 8.0;
            // Whole units (entries, or tokens for a token-unit plan): a DATA message carries
            // whole units, and a budget that is not a multiple of one would leave a remainder
            // no message can use.
            const uint64_t unitBytes =
                m.unit == KvTransferHeader::ENTRY ? m.kv.bytesPerEntry : m.kv.bytesPerToken;
            const auto units = static_cast<uint64_t>(std::floor(bytes / unitBytes));
            // A rate that finishes the session (y_i = 1, up to rounding) gives all that is
            // left, a last part of a unit included.
            const bool finishes = bytes >= static_cast<double>(left) * (1 - 1e-9);
            const uint64_t budget = finishes ? left : std::min(left, units * unitBytes);
            if (budget > 0)
            {
                budgets[m.imsi] = budget;
                m_budgetTrace(input.slot, m.imsi, budget);
                ++m_slotCounts[m.imsi][""];
            }
        }
    }
    return budgets;
}

double
ImpactFractionArrived(const HandoverRecord& record)
{
    const uint64_t arrived = CountUnits(record.arrived);
    if (record.unit == KvTransferHeader::TOKEN)
    {
        // A token-unit plan holds its re-prefilled prefix, whole (the resume waits for it),
        // the positions that arrived, and those a stall re-prefilled.
        return record.contextTokens == 0
                   ? 1.0
                   : std::min(1.0,
                              static_cast<double>(record.prefillTokens + arrived +
                                                  record.reprefillTokens) /
                                  static_cast<double>(record.contextTokens));
    }
    const uint64_t total = CountUnits(record.transferRanges);
    // A plan of no entry (a context of 0 tokens never reaches a plan) would have nothing to
    // lose: the whole of nothing arrived.
    return total == 0 ? 1.0 : static_cast<double>(arrived) / static_cast<double>(total);
}

ImpactAccuracyParams
ImpactCurveOf(const HandoverRecord& record, double y, const ImpactAccuracyParams& entryOrder)
{
    return ImpactCurveFor(y, record.unit == KvTransferHeader::TOKEN, entryOrder);
}

void
ImpactSlotScheduler::DoCompleteRecord(HandoverRecord& record) const
{
    const double y = ImpactFractionArrived(record);
    const ImpactAccuracyModel model(ImpactCurveOf(record, y, GetAccuracyParams()));
    const double a = model.Accuracy(y);
    const double full = model.GetParams().fullAccuracy;
    const double compound = GetCompoundAccuracy(record.imsi) * a / full;
    m_compound[record.imsi] = compound;
    record.policyValues["fraction_arrived"] = y;
    record.policyValues["accuracy"] = a;
    record.policyValues["compound_accuracy"] = compound;
    auto counts = m_slotCounts.find(record.imsi);
    record.policyValues["slots"] = 0;
    if (counts != m_slotCounts.end())
    {
        for (const auto& [mode, n] : counts->second)
        {
            record.policyValues[mode.empty() ? "slots" : "slots_" + mode] = static_cast<double>(n);
        }
        m_slotCounts.erase(counts);
    }
}

TypeId
ImpactHoScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ImpactHoScheduler")
            .SetParent<ImpactSlotScheduler>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<ImpactHoScheduler>()
            .AddAttribute("Overload",
                          "What a slot does when the link cannot bring every session to the "
                          "inflection y0 (B < B_min): equalized-bytes (the paper's fallback: "
                          "equal shares, each capped at y0), winner-take-all (cascading, "
                          "greedy by accuracy gain per bit) or admission (the sessions of "
                          "smallest need to reach y0 are admitted while their needs fit, and "
                          "water-fill; the others get nothing in the slot) or no-admission "
                          "(no admission control: every session gets the share of B its need "
                          "to reach y0 is of B_min, so none reaches y0 in the slot).",
                          EnumValue(ImpactHoScheduler::EQUALIZED_BYTES),
                          edgellm::MakeEnumMemberAccessor(&ImpactHoScheduler::m_overload),
                          edgellm::MakeExplainingEnumChecker<Overload>(
                              "ns3::ImpactHoScheduler::Overload",
                              {{ImpactHoScheduler::EQUALIZED_BYTES, "equalized-bytes"},
                               {ImpactHoScheduler::WINNER_TAKE_ALL, "winner-take-all"},
                               {ImpactHoScheduler::ADMISSION, "admission"},
                               {ImpactHoScheduler::NO_ADMISSION, "no-admission"}}));
    return tid;
}

ImpactHoScheduler::ImpactHoScheduler()
    : m_overload(EQUALIZED_BYTES)
{
}

ImpactHoScheduler::~ImpactHoScheduler() = default;

std::string
ImpactHoScheduler::GetSchemeName() const
{
    return "impactho";
}

std::vector<double>
ImpactHoScheduler::Allocate(const std::vector<Member>& members, double capacityBps, double slotS)
{
    const ImpactAccuracyParams curve = GetAccuracyParams();
    auto solve = [&](const std::vector<std::size_t>& among) {
        ImpactWaterFillingInput in;
        in.capacityBps = capacityBps;
        in.slotSeconds = slotS;
        for (std::size_t i : among)
        {
            ImpactWaterFillingUe ue;
            ue.cacheBits = members[i].cacheBits;
            ue.sentFraction = std::min(1.0, std::max(0.0, members[i].sentFraction));
            ue.accuracy = curve;
            in.ues.push_back(ue);
        }
        return SolveImpactWaterFilling(in);
    };
    // S_i [y0 - x_i]^+: the bits session i still needs to reach the curve's inflection.
    auto needBits = [&](std::size_t i) {
        const double x = std::min(1.0, std::max(0.0, members[i].sentFraction));
        return members[i].cacheBits * std::max(0.0, curve.inflection - x);
    };
    std::vector<std::size_t> all(members.size());
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        all[i] = i;
    }
    ImpactWaterFillingResult result = solve(all);
    std::vector<double> rates(members.size(), 0);
    std::string mode = ToString(result.mode);
    if (result.mode == ImpactWaterFillingMode::EQUALIZED_BYTES && m_overload == WINNER_TAKE_ALL)
    {
        rates = CascadeWinnerTakeAll(members, capacityBps, slotS, curve);
        mode = "winner-take-all";
    }
    else if (result.mode == ImpactWaterFillingMode::EQUALIZED_BYTES && m_overload == ADMISSION)
    {
        // Smallest need first (ties in member order), admitted while the needs fit: then the
        // admitted sessions' B_min <= B, and the solver water-fills them.
        std::vector<std::pair<double, std::size_t>> needs;
        for (std::size_t i = 0; i < members.size(); ++i)
        {
            needs.emplace_back(needBits(i), i);
        }
        std::stable_sort(needs.begin(), needs.end(), [](const auto& l, const auto& r) {
            return l.first < r.first;
        });
        std::vector<std::size_t> admitted;
        double used = 0;
        for (const auto& [need, i] : needs)
        {
            if (used + need > capacityBps * slotS)
            {
                break;
            }
            used += need;
            admitted.push_back(i);
        }
        if (admitted.empty() || needs[admitted.size() - 1].first == 0)
        {
            // No session short of y0 fits: the cheapest one gets the whole slot, and comes
            // closer to y0 (the sessions at y0 already are kept).
            admitted.push_back(needs[admitted.size()].second);
        }
        const ImpactWaterFillingResult part = solve(admitted);
        for (std::size_t j = 0; j < admitted.size(); ++j)
        {
            rates[admitted[j]] = part.ues[j].rateBps;
        }
        mode = "admission";
    }
    else if (result.mode == ImpactWaterFillingMode::EQUALIZED_BYTES && m_overload == NO_ADMISSION)
    {
        // Every session's need to reach y0, scaled by B / B_min < 1: the slot the water-filling
        // would give if it admitted everyone and the link were B_min.
        const double scale = capacityBps / result.minimumCapacityBps;
        for (std::size_t i = 0; i < members.size(); ++i)
        {
            rates[i] = scale * needBits(i) / slotS;
        }
        mode = "no-admission";
    }
    else
    {
        for (std::size_t i = 0; i < members.size(); ++i)
        {
            rates[i] = result.ues[i].rateBps;
        }
    }
    std::replace(mode.begin(), mode.end(), '-', '_');
    for (std::size_t i = 0; i < members.size(); ++i)
    {
        if (rates[i] > 0)
        {
            CountMode(members[i].imsi, mode);
        }
    }
    NS_LOG_INFO("impactho: " << members.size() << " sessions on " << capacityBps << " bit/s, "
                             << mode);
    return rates;
}

TypeId
ImpactEqualScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ImpactEqualScheduler")
                            .SetParent<ImpactSlotScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<ImpactEqualScheduler>();
    return tid;
}

ImpactEqualScheduler::ImpactEqualScheduler() = default;

ImpactEqualScheduler::~ImpactEqualScheduler() = default;

std::string
ImpactEqualScheduler::GetSchemeName() const
{
    return "impact-equal";
}

std::vector<double>
ImpactEqualScheduler::Allocate(const std::vector<Member>& members,
                               double capacityBps,
                               double /* slotS */)
{
    return std::vector<double>(members.size(), capacityBps / static_cast<double>(members.size()));
}

TypeId
ImpactPfScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ImpactPfScheduler")
                            .SetParent<ImpactSlotScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<ImpactPfScheduler>();
    return tid;
}

ImpactPfScheduler::ImpactPfScheduler() = default;

ImpactPfScheduler::~ImpactPfScheduler() = default;

std::string
ImpactPfScheduler::GetSchemeName() const
{
    return "impact-pf";
}

std::vector<double>
ImpactPfScheduler::Allocate(const std::vector<Member>& members, double capacityBps, double slotS)
{
    const double budgetBits = capacityBps * slotS;
    // Bits session i takes at water level mu: [min(S_i, mu) - x_i S_i]^+.
    auto take = [&members](double mu, std::size_t i) {
        const double sent = members[i].sentFraction * members[i].cacheBits;
        return std::max(0.0, std::min(members[i].cacheBits, mu) - sent);
    };
    auto total = [&](double mu) {
        double sum = 0;
        for (std::size_t i = 0; i < members.size(); ++i)
        {
            sum += take(mu, i);
        }
        return sum;
    };
    double high = 0;
    for (const Member& m : members)
    {
        high = std::max(high, m.cacheBits);
    }
    double mu = high;
    if (total(high) > budgetBits)
    {
        // total() is continuous and non-decreasing in mu: bisect, keeping the end that does
        // not overdraw the capacity.
        double low = 0;
        for (int k = 0; k < 200 && high - low > 1e-9 * high; ++k)
        {
            const double mid = 0.5 * (low + high);
            (total(mid) > budgetBits ? high : low) = mid;
        }
        mu = low;
    }
    std::vector<double> rates;
    for (std::size_t i = 0; i < members.size(); ++i)
    {
        rates.push_back(take(mu, i) / slotS);
    }
    return rates;
}

TypeId
ImpactWtaScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ImpactWtaScheduler")
                            .SetParent<ImpactSlotScheduler>()
                            .SetGroupName("EdgeLlm")
                            .AddConstructor<ImpactWtaScheduler>();
    return tid;
}

ImpactWtaScheduler::ImpactWtaScheduler() = default;

ImpactWtaScheduler::~ImpactWtaScheduler() = default;

std::string
ImpactWtaScheduler::GetSchemeName() const
{
    return "impact-wta";
}

std::vector<double>
ImpactWtaScheduler::Allocate(const std::vector<Member>& members, double capacityBps, double slotS)
{
    return CascadeWinnerTakeAll(members, capacityBps, slotS, GetAccuracyParams());
}

std::vector<double>
ImpactSlotScheduler::CascadeWinnerTakeAll(const std::vector<Member>& members,
                                          double capacityBps,
                                          double slotS,
                                          const ImpactAccuracyParams& curve)
{
    const ImpactAccuracyModel model(curve);
    std::vector<double> bits(members.size(), 0);
    std::vector<bool> served(members.size(), false);
    double left = capacityBps * slotS;
    while (left > 0)
    {
        // The winner: the best accuracy gain per bit of what it would take.
        std::size_t best = members.size();
        double bestGain = -1;
        double bestTake = 0;
        for (std::size_t i = 0; i < members.size(); ++i)
        {
            const double x = std::min(1.0, std::max(0.0, members[i].sentFraction));
            const double need = (1 - x) * members[i].cacheBits;
            if (served[i] || need <= 0)
            {
                continue;
            }
            const double c = std::min(left, need);
            const double gain =
                (model.Accuracy(std::min(1.0, x + c / members[i].cacheBits)) - model.Accuracy(x)) /
                c;
            if (gain > bestGain)
            {
                best = i;
                bestGain = gain;
                bestTake = c;
            }
        }
        if (best == members.size())
        {
            break; // every cache whole
        }
        served[best] = true;
        bits[best] = bestTake;
        left -= bestTake;
    }
    std::vector<double> rates;
    for (double b : bits)
    {
        rates.push_back(b / slotS);
    }
    return rates;
}

} // namespace ns3
