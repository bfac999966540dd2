/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "plan-input-builder.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

namespace
{

/// \param counts reported counts \param key an entry's key \return its count, 0 if none came
template <typename K>
uint64_t
Lookup(const std::map<K, uint64_t>& counts, const K& key)
{
    const auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
}

} // namespace

PlanInputBuilder::PlanInputBuilder(Source* source)
    : m_source(source)
{
}

double
PlanInputBuilder::GetDecodeRate(uint64_t imsi, uint16_t holder) const
{
    const EdgeLlmServer::SessionState& s = m_source->PortOf(holder)->GetSessionState(imsi);
    if (s.generated < 2)
    {
        return 0;
    }
    return (s.generated - 1) / (Simulator::Now().GetSeconds() - s.firstTokenNs * 1e-9);
}

std::pair<std::size_t, bool>
PlanInputBuilder::AddLinkView(uint16_t from,
                              uint16_t to,
                              std::vector<HandoverLinkView>& links,
                              LinkIndex& index,
                              const Reported* reported)
{
    auto [it, inserted] = index.try_emplace({from, to}, links.size());
    if (inserted)
    {
        HandoverLinkView l;
        l.fromCell = from;
        l.toCell = to;
        l.rateBps = static_cast<double>(m_source->GetLinkRates().at({from, to}).GetBitRate());
        l.plannedRateBps = m_source->GetPlannedRateBps(from, to);
        l.backlogBytes = reported && reported->backlog
                             ? Lookup(*reported->backlog, std::make_pair(from, to))
                             : m_source->PortOf(from)->GetKvLinkLoad(to).backlogBytes;
        links.push_back(l);
    }
    return {it->second, inserted};
}

HandoverPlanInput
PlanInputBuilder::MakeSessionInput(uint64_t imsi,
                                   uint16_t holder,
                                   uint16_t target,
                                   Time handoverAt,
                                   bool handedOver)
{
    HandoverPlanInput input;
    input.nowS = Simulator::Now().GetSeconds();
    input.targets.push_back(MakeTargetView(target));
    LinkIndex index;
    input.sessions.push_back(MakeSessionView(imsi,
                                             holder,
                                             target,
                                             handoverAt.GetSeconds(),
                                             m_source->PortOf(holder)->GetContextTokens(imsi),
                                             handedOver,
                                             input.links,
                                             index));
    return input;
}

HandoverPlanInput
PlanInputBuilder::MakeOracleGroupInput(uint64_t imsi,
                                       uint16_t target,
                                       uint32_t group,
                                       const std::map<uint64_t, Time>& expected)
{
    const Time now = Simulator::Now();
    HandoverPlanInput input;
    input.nowS = now.GetSeconds();
    input.group = group;
    input.targets.push_back(MakeTargetView(target));
    LinkIndex index;
    for (const auto& [other, at] : expected)
    {
        const uint16_t cell = m_source->HolderOf(other);
        Ptr<CellPort> source = cell == 0 ? nullptr : m_source->PortOf(cell);
        if (!source || !source->HasSession(other))
        {
            continue;
        }
        uint64_t context = source->GetContextTokens(other);
        const double atS = std::max(at, now).GetSeconds();
        const EdgeLlmServer::SessionState& s = source->GetSessionState(other);
        if (other != imsi && s.generated >= 2)
        {
            const double rate = GetDecodeRate(other, cell);
            const double left = s.tokensToGenerate - s.generated;
            context +=
                static_cast<uint64_t>(std::min(left, std::floor(rate * (atS - now.GetSeconds()))));
        }
        input.sessions.push_back(MakeSessionView(other,
                                                 cell,
                                                 target,
                                                 other == imsi ? now.GetSeconds() : atS,
                                                 context,
                                                 other == imsi,
                                                 input.links,
                                                 index));
    }
    return input;
}

HandoverSessionView
PlanInputBuilder::MakeSessionView(uint64_t imsi,
                                  uint16_t holder,
                                  uint16_t target,
                                  double handoverStartS,
                                  uint64_t contextTokens,
                                  bool handedOver,
                                  std::vector<HandoverLinkView>& links,
                                  LinkIndex& index)
{
    Ptr<CellPort> source = m_source->PortOf(holder);
    const EdgeLlmServer::SessionState& state = source->GetSessionState(imsi);
    HandoverSessionView v;
    v.imsi = imsi;
    v.holderCell = holder;
    v.targetCell = target;
    v.contextTokens = contextTokens;
    v.nextTokenIndex = source->GetNextTokenIndex(imsi);
    v.tokensLeft =
        state.tokensToGenerate - std::min<uint64_t>(state.tokensToGenerate, v.nextTokenIndex);
    v.decodeTokensPerSecond = GetDecodeRate(imsi, holder);
    v.handoverStartS = handoverStartS;
    v.kv = m_source->GetKvProfile(imsi);
    v.handedOver = handedOver;
    auto add = [this, &links, &index](uint16_t from, uint16_t to) {
        const auto [l, inserted] = AddLinkView(from, to, links, index);
        if (inserted)
        {
            for (const auto& [other, m] : m_source->GetMigrations())
            {
                if (m.route.size() >= 2 && m.route[0] == from && m.route[1] == to)
                {
                    links[l].imsis.push_back(other);
                }
            }
        }
        return l;
    };
    if (m_source->PortOf(holder)->HasKvPeer(target))
    {
        const std::size_t l = add(holder, target);
        v.links.push_back(l);
        std::vector<uint64_t>& carried = links[l].imsis;
        if (std::find(carried.begin(), carried.end(), imsi) == carried.end())
        {
            carried.push_back(imsi);
        }
        links[l].bottleneck = carried.size() > 1;
    }
    else
    {
        // No direct link: the cache cannot move; every link is there for a policy that
        // wants a rate to decide with.
        for (const auto& [pair, rate] : m_source->GetLinkRates())
        {
            add(pair.first, pair.second);
        }
    }
    return v;
}

HandoverTargetView
PlanInputBuilder::MakeTargetView(uint16_t cell)
{
    Ptr<const CellPort> config = m_source->ConfigOf(cell);
    const auto [freeAt, queued] = m_source->GetPrefillForecast(cell);
    HandoverTargetView t;
    t.cell = cell;
    t.prefillCycleS = config->GetPrefillCycle().GetSeconds();
    t.prefillFreeAtS = freeAt.GetSeconds();
    t.queuedPrefillTokens = queued;
    t.kvCapacityTokens = config->GetKvCapacityTokens();
    uint64_t reported = 0;
    // The memory in use is the target's live state: an answer to a reservation reports it
    // where the control plane is on the network; only without one is the engine read.
    t.freeKvTokens =
        m_source->GetReportedFreeKv(cell, reported)
            ? std::min(t.kvCapacityTokens, reported)
            : t.kvCapacityTokens -
                  std::min(t.kvCapacityTokens, m_source->PortOf(cell)->GetKvTokensInUse());
    t.compute = config->GetComputeModel();
    if (m_source->ReplaysEngine(cell))
    {
        Source* source = m_source;
        t.prefillEndS = [source, cell](const std::vector<uint64_t>& lengths,
                                       double fromS,
                                       const std::vector<uint64_t>& replacing) {
            const Time from = std::max(Seconds(fromS), Simulator::Now());
            double end = 0;
            for (const LlmEngine::PrefillForecast& f :
                 source->ForecastPrefills(cell, lengths, from, replacing))
            {
                end = std::max(end,
                               f.end == Time::Max() ? std::numeric_limits<double>::infinity()
                                                    : f.end.GetSeconds());
            }
            return end;
        };
    }
    return t;
}

MigrationView
PlanInputBuilder::MakeMigrationView(uint64_t imsi,
                                    const Migration& m,
                                    std::vector<HandoverLinkView>* links,
                                    LinkIndex* index,
                                    const Reported* reported)
{
    const HandoverRecord& r = m_source->GetRecord(m.record);
    MigrationView v;
    v.imsi = imsi;
    v.epoch = m.epoch;
    v.holderCell = m.route.front();
    v.targetCell = m.route.back();
    v.committed = m.GetPhase() == Migration::COMMITTED;
    v.announcedBytes = r.kvBytes;
    const std::pair<uint64_t, uint32_t> key{imsi, m.epoch};
    v.sentBytes =
        reported && reported->sent
            ? Lookup(*reported->sent, key)
            : m_source->PortOf(m.route[0])->GetKvCounters(m.route[1], imsi).sent - m.sentAtStart;
    v.receivedBytes =
        reported && reported->received
            ? Lookup(*reported->received, key)
            : m_source->PortOf(m.route.back())->GetReceivedBytes(imsi) - m.receivedAtStart;
    v.weight = m.plan.weight;
    v.handoverStartS = v.committed ? r.hoStart.GetSeconds() : m.expectedS;
    v.resumeAtS = v.committed && m.plan.resume == SessionPlan::AT_DEADLINE
                      ? (r.hoStart + m.plan.resumeAfter).GetSeconds()
                      : -1;
    v.kv = m_source->GetKvProfile(imsi);
    v.unit = m.plan.unit;
    if (links && index)
    {
        const std::size_t l = AddLinkView(m.route[0], m.route[1], *links, *index, reported).first;
        HandoverLinkView& link = (*links)[l];
        link.imsis.push_back(imsi);
        link.bottleneck = link.imsis.size() > 1;
        v.links.push_back(l);
    }
    return v;
}

} // namespace ns3
