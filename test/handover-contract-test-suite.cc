/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The policy contract, end to end on an LTE line: a test policy that uses every hook, and the
// migration state machine that carries its plans out. Each case counts at the edges: DATA
// bytes where the sender hands them to TCP, headers where the receiver reads them, tokens
// where the engines emit them and the client takes them.

#include "hook-test-scheduler.h"
#include "test-durations.h"

#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"
#include "ns3/error-model.h"
#include "ns3/internet-module.h"
#include "ns3/lte-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <map>
#include <memory>
#include <vector>

using namespace ns3;

NS_OBJECT_ENSURE_REGISTERED(HookTestScheduler);

namespace
{

/// KV bytes of one token of Qwen2.5-7B at 16 bits, the coordinator's default.
constexpr uint64_t kTokenBytes = 57344;

/// The slot of the budget cases.
const Time kSlot = MilliSeconds(10);

/// A RAN observer whose events a test fires by hand.
class ScriptedRanObserver : public RanObserver
{
  public:
    void Install(const NetDeviceContainer& /* ranDevs */) override
    {
    }

    /// \param imsi the UE \param cell where it is served
    void Ready(uint64_t imsi, uint16_t cell)
    {
        NotifyUeReady(imsi, cell);
    }

    /// \param imsi the UE \param source its cell \param target where it goes
    void Start(uint64_t imsi, uint16_t source, uint16_t target)
    {
        NotifyHandoverStarted(imsi, source, target);
    }

    /// \param imsi the UE \param cell the target that gave up on it
    void Fail(uint64_t imsi, uint16_t cell)
    {
        NotifyHandoverFailed(imsi, cell, JOINING_TIMEOUT);
    }

    /// \param imsi the UE \param cell the cell that serves it and releases it
    void Release(uint64_t imsi, uint16_t cell)
    {
        NotifyUeReleased(imsi, cell);
    }
};

/// One UE on a line of two eNBs, what the edges saw, and the pieces a case pokes at.
struct Bench
{
    Ptr<EdgeLlmLineScenario> s;
    Ptr<EdgeLlmHelper> edge;
    Ptr<HandoverCoordinator> coordinator;
    Ptr<HookTestScheduler> policy; //!< null for another scheme
    Ptr<EdgeLlmClient> client;
    Ptr<KvTransferSender> sender;     //!< cell 1 -> cell 2
    Ptr<KvTransferReceiver> receiver; //!< at cell 2
    uint64_t imsi{0};
    uint16_t cell1{0};
    uint16_t cell2{0};

    std::map<uint64_t, uint32_t> emitted;                              //!< token index -> emissions
    std::map<uint64_t, uint16_t> emittedBy;                            //!< token index -> cell
    std::map<std::pair<uint32_t, uint64_t>, uint64_t> dataBytesBySlot; //!< (epoch, slot)
    std::map<uint32_t, uint64_t> dataBytesByEpoch;                     //!< DATA bytes handed to TCP
    std::map<std::pair<uint64_t, uint64_t>, uint64_t> dataBytesByImsiSlot; //!< (imsi, slot)
    std::vector<std::pair<Time, KvTransferHeader>> sent; //!< headers handed to TCP
    std::vector<std::pair<Time, KvTransferHeader>> read; //!< headers the target read
    std::vector<Time> completes;                         //!< target: SessionComplete
    std::vector<std::pair<int, int>> states;             //!< MigrationState moves
    std::vector<Time> stateTimes;                        //!< when
    std::vector<Time> prefillsDone;                      //!< target: PrefillCompleted

    void Emitted(uint16_t cell, uint64_t imsi_, uint64_t index)
    {
        if (imsi_ == imsi)
        {
            ++emitted[index];
            emittedBy[index] = cell;
        }
    }
};

/// Build the line: the UE starts at 125 m and moves at 20 m/s from 1 s (crossing at 2.25 s).
std::shared_ptr<Bench>
MakeBench(const std::string& scheduler,
          const std::string& trigger,
          const std::function<void(Ptr<EdgeLlmLineScenario>, Ptr<EdgeLlmHelper>)>& configure,
          uint32_t tokens = 300,
          uint32_t ues = 1)
{
    auto b = std::make_shared<Bench>();
    b->s = CreateObject<EdgeLlmLineScenario>();
    b->s->SetAttribute("EnbCount", UintegerValue(2));
    b->s->SetAttribute("EnbSpacing", DoubleValue(300));
    b->s->SetAttribute("UeCount", UintegerValue(ues));
    b->s->SetAttribute("UeStartSpacing", DoubleValue(1));
    b->s->SetAttribute("UeStartX", DoubleValue(125));
    b->s->SetAttribute("UeSpeed", DoubleValue(20));
    b->s->SetAttribute("MoveStart", TimeValue(Seconds(1)));
    b->s->SetAttribute("Trigger", StringValue(trigger));
    b->edge = b->s->GetEdgeLlmHelper();
    b->edge->SetSchedulerType(scheduler);
    b->edge->SetClientAttribute("PromptTokens", UintegerValue(1000));
    b->edge->SetClientAttribute("TokensToGenerate", UintegerValue(tokens));
    if (configure)
    {
        configure(b->s, b->edge);
    }
    b->s->Build();
    b->s->AssignStreams(1);
    b->coordinator = b->edge->GetCoordinator();
    b->policy = DynamicCast<HookTestScheduler>(b->coordinator->GetScheduler());
    b->client = DynamicCast<EdgeLlmClient>(b->s->GetClients().Get(0));
    b->imsi = b->client->GetImsi();
    b->cell1 = DynamicCast<EdgeLlmServer>(b->s->GetServers().Get(0))->GetCellId();
    b->cell2 = DynamicCast<EdgeLlmServer>(b->s->GetServers().Get(1))->GetCellId();
    const BackhaulLink& link = b->s->GetBackhaulLinks().at(0);
    b->sender = b->edge->GetKvTransfer(b->cell1)->GetSender(link.addressB);
    b->receiver = b->edge->GetKvTransfer(b->cell2)->GetReceiver();
    Bench* raw = b.get();
    for (uint32_t i = 0; i < b->s->GetServers().GetN(); ++i)
    {
        Ptr<EdgeLlmServer> server = DynamicCast<EdgeLlmServer>(b->s->GetServers().Get(i));
        server->GetEngine()->TraceConnectWithoutContext(
            "TokenGenerated",
            MakeCallback(&Bench::Emitted, raw, server->GetCellId()));
    }
    b->sender->TraceConnectWithoutContext(
        "MessageSent",
        Callback<void, const KvTransferHeader&>([raw](const KvTransferHeader& h) {
            raw->sent.emplace_back(Simulator::Now(), h);
            if (h.GetMessageType() == KvTransferHeader::DATA)
            {
                const uint64_t slot = Simulator::Now().GetTimeStep() / kSlot.GetTimeStep();
                raw->dataBytesByImsiSlot[{h.GetImsi(), slot}] += h.GetPayloadBytes();
                if (h.GetImsi() != raw->imsi)
                {
                    return;
                }
                raw->dataBytesBySlot[{h.GetEpoch(), slot}] += h.GetPayloadBytes();
                raw->dataBytesByEpoch[h.GetEpoch()] += h.GetPayloadBytes();
            }
        }));
    b->receiver->TraceConnectWithoutContext(
        "MessageReceived",
        Callback<void, const KvTransferHeader&>(
            [raw](const KvTransferHeader& h) { raw->read.emplace_back(Simulator::Now(), h); }));
    b->receiver->TraceConnectWithoutContext(
        "SessionComplete",
        Callback<void, uint64_t, uint32_t, uint64_t>(
            [raw](uint64_t, uint32_t, uint64_t) { raw->completes.push_back(Simulator::Now()); }));
    b->coordinator->TraceConnectWithoutContext(
        "MigrationState",
        Callback<void, uint64_t, uint32_t, int, int>([raw](uint64_t, uint32_t, int from, int to) {
            raw->states.emplace_back(from, to);
            raw->stateTimes.push_back(Simulator::Now());
        }));
    DynamicCast<EdgeLlmServer>(b->s->GetServers().Get(1))
        ->GetEngine()
        ->TraceConnectWithoutContext(
            "PrefillCompleted",
            Callback<void, uint64_t, uint64_t, bool>([raw](uint64_t, uint64_t, bool) {
                raw->prefillsDone.push_back(Simulator::Now());
            }));
    return b;
}

/// The slot budgets of the budget cases: the test policy's schedule, spent by per-slot KV
/// policies of the same slot.
std::function<void(Ptr<EdgeLlmLineScenario>, Ptr<EdgeLlmHelper>)>
SlotBudgets(uint64_t unit)
{
    return [unit](Ptr<EdgeLlmLineScenario>, Ptr<EdgeLlmHelper> e) {
        e->SetSchedulerAttribute("Slot", TimeValue(kSlot));
        e->SetSchedulerAttribute("UnitBytes", UintegerValue(unit));
        e->SetKvTransferPolicyType("ns3::SlotBudgetKvTransferPolicy");
        e->SetKvTransferPolicyAttribute("SlotDuration", TimeValue(kSlot));
    };
}

/// The schedule, written here independently of the policy: slot k gives (k mod 3 + 1) units.
uint64_t
ScheduledBudget(uint64_t k, uint64_t unit)
{
    return (k % 3 + 1) * unit;
}

/// The base: every case destroys the simulator and resets the defaults it touched.
class ContractTestCase : public TestCase
{
  public:
    explicit ContractTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    void DoTeardown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /// Every token emitted once, in order, and delivered once; the session complete.
    void CheckExactlyOnce(const Bench& b, uint32_t tokens)
    {
        NS_TEST_ASSERT_MSG_EQ(b.client->IsComplete(), true, "the session completed");
        NS_TEST_ASSERT_MSG_EQ(b.client->GetDeliveredTokens(), tokens, "every token delivered");
        NS_TEST_ASSERT_MSG_EQ(b.emitted.size(), tokens, "every index emitted");
        uint64_t expected = 0;
        for (const auto& [index, n] : b.emitted)
        {
            NS_TEST_ASSERT_MSG_EQ(index, expected, "no index skipped");
            NS_TEST_ASSERT_MSG_EQ(n, 1u, "token " << index << " emitted once");
            expected = index + 1;
        }
    }

    /// The byte ledger of the session, once drained.
    void CheckLedger(const Bench& b)
    {
        const KvTransferSenderCounters s = b.sender->GetCounters(b.imsi);
        const KvTransferReceiverCounters r = b.receiver->GetCounters(b.imsi);
        NS_TEST_ASSERT_MSG_EQ(s.announced, s.sent + s.withdrawn, "announced = sent + withdrawn");
        uint64_t withdrawn = 0;
        uint64_t stale = 0;
        for (std::size_t i = 0; i < KV_DISCARD_REASONS; ++i)
        {
            withdrawn += s.withdrawnBy[i];
            stale += r.staleBy[i];
        }
        NS_TEST_ASSERT_MSG_EQ(withdrawn, s.withdrawn, "every withdrawn byte has a reason");
        NS_TEST_ASSERT_MSG_EQ(stale, r.stale, "every stale byte has a reason");
        NS_TEST_ASSERT_MSG_EQ(s.sent, r.received + r.stale, "sent = received + stale, drained");
        NS_TEST_ASSERT_MSG_EQ(r.droppedInvalid, 0u, "no byte out of range");
        uint64_t handed = 0;
        for (const auto& [epoch, bytes] : b.dataBytesByEpoch)
        {
            handed += bytes;
        }
        NS_TEST_ASSERT_MSG_EQ(handed,
                              s.sent,
                              "the DATA messages handed to TCP hold every sent byte");
    }
};

class SlotBudgetsTestCase : public ContractTestCase
{
  public:
    SlotBudgetsTestCase()
        : ContractTestCase("The slot hook's budgets, on a schedule, bound every slot's DATA bytes "
                           "where they are handed to TCP, and are used whole while data is left")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t unit = 8 * kTokenBytes;
        auto b = MakeBench("ns3::HookTestScheduler", "boundary", SlotBudgets(unit));
        Simulator::Stop(Seconds(15));
        Simulator::Run();

        const std::vector<HandoverRecord>& records = b->coordinator->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1u, "one handover");
        const HandoverRecord& r = records.at(0);
        NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "it resumed");
        NS_TEST_ASSERT_MSG_EQ(r.kvBytes, r.contextTokens * kTokenBytes, "the whole cache");
        auto budget = [unit](uint64_t k) { return ScheduledBudget(k, unit); };
        uint64_t first = UINT64_MAX;
        uint64_t last = 0;
        for (const auto& [key, bytes] : b->dataBytesBySlot)
        {
            NS_TEST_ASSERT_MSG_EQ(key.first, r.epoch, "DATA only of the migration's epoch");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(bytes, budget(key.second), "slot " << key.second);
            first = std::min(first, key.second);
            last = std::max(last, key.second);
        }
        NS_TEST_ASSERT_MSG_GT(last, first + 10, "the transfer spans many slots");
        // Between its first slot (it may start mid-slot) and its last (the data runs out),
        // every slot sends its whole budget: the budgets drive the sender.
        for (uint64_t k = first + 1; k < last; ++k)
        {
            auto it = b->dataBytesBySlot.find({r.epoch, k});
            NS_TEST_ASSERT_MSG_EQ((it == b->dataBytesBySlot.end() ? 0 : it->second),
                                  budget(k),
                                  "slot " << k << " used its whole budget");
        }
        // One answer per slot, whoever asked first (the refill or the coordinator's tick).
        uint64_t previous = 0;
        for (std::size_t i = 0; i < b->policy->slotCalls.size(); ++i)
        {
            const HookTestScheduler::SlotCall& c = b->policy->slotCalls[i];
            NS_TEST_ASSERT_MSG_EQ(c.budget, budget(c.slot), "the hook's own answer");
            if (i > 0)
            {
                NS_TEST_ASSERT_MSG_GT(c.slot, previous, "each slot asked once");
            }
            previous = c.slot;
        }
        NS_TEST_ASSERT_MSG_EQ(r.policyValues.count("hook-records"), 1u, "the record hook ran");
        CheckExactlyOnce(*b, 300);
        CheckLedger(*b);
        b->s->Dispose();
    }
};

class DeadlineTestCase : public ContractTestCase
{
  public:
    DeadlineTestCase()
        : ContractTestCase("A resume at a deadline, the link cut mid-transfer: the session "
                           "resumes with exactly what arrived, and the rest is abandoned under "
                           "window-end")
    {
    }

  private:
    void DoRun() override
    {
        const Time window = MilliSeconds(300);
        auto b = MakeBench(
            "ns3::HookTestScheduler",
            "boundary",
            [window](Ptr<EdgeLlmLineScenario> s, Ptr<EdgeLlmHelper> e) {
                e->SetSchedulerAttribute("Window", TimeValue(window));
                // 1000 tokens take ~460 ms at 1 Gb/s: the window ends first.
                s->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
            });
        // The link is cut 100 ms into the migration, and comes back after the deadline.
        Ptr<RateErrorModel> cut = CreateObject<RateErrorModel>();
        cut->SetAttribute("ErrorRate", DoubleValue(1.0));
        cut->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        cut->Disable();
        b->s->GetBackhaulLinks().at(0).devices.Get(1)->SetAttribute("ReceiveErrorModel",
                                                                    PointerValue(cut));
        Time cutAt;
        b->coordinator->TraceConnectWithoutContext(
            "MigrationState",
            Callback<void, uint64_t, uint32_t, int, int>(
                [cut, &cutAt](uint64_t, uint32_t, int, int to) {
                    if (to == HandoverCoordinator::COMMITTED)
                    {
                        cutAt = Simulator::Now() + MilliSeconds(100);
                        Simulator::Schedule(MilliSeconds(100), &RateErrorModel::Enable, cut);
                        Simulator::Schedule(MilliSeconds(700), &RateErrorModel::Disable, cut);
                    }
                }));
        Simulator::Stop(Seconds(15));
        Simulator::Run();

        const std::vector<HandoverRecord>& records = b->coordinator->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1u, "one handover");
        const HandoverRecord& r = records.at(0);
        NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "it resumed");
        NS_TEST_ASSERT_MSG_EQ(r.kvReady, r.hoStart + window, "at the deadline, not later");
        // What arrived, from the headers the target read before the resume: each DATA
        // message whose header came in, except perhaps the last, whose payload the cut kept.
        std::vector<TokenRange> headers;
        for (const auto& [t, h] : b->read)
        {
            if (t <= r.kvReady && h.GetMessageType() == KvTransferHeader::DATA &&
                h.GetEpoch() == r.epoch)
            {
                headers.push_back({h.GetFirst(), uint64_t(h.GetFirst()) + h.GetCount()});
            }
        }
        edgellm::RangeSet all;
        edgellm::RangeSet allButLast;
        for (std::size_t i = 0; i < headers.size(); ++i)
        {
            all.Add(headers[i]);
            if (i + 1 < headers.size())
            {
                allButLast.Add(headers[i]);
            }
        }
        edgellm::RangeSet arrived;
        uint64_t arrivedTokens = 0;
        for (const TokenRange& a : r.arrived)
        {
            arrived.Add(a);
            arrivedTokens += a.Count();
        }
        const bool matches =
            arrived.Ranges() == all.Ranges() || arrived.Ranges() == allButLast.Ranges();
        NS_TEST_ASSERT_MSG_EQ(matches, true, "the record holds the ranges that arrived");
        NS_TEST_ASSERT_MSG_GT(arrivedTokens, 0u, "some arrived before the cut");
        NS_TEST_ASSERT_MSG_LT(arrivedTokens, r.contextTokens, "not all of it");
        // By hand: at most 100 ms of a 1 Gb/s link before the cut.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(arrivedTokens * kTokenBytes,
                                    uint64_t(1e9 / 8 * 0.1),
                                    "no more than the link carried before the cut");
        NS_TEST_ASSERT_MSG_EQ(r.abandonedBytes,
                              r.kvBytes - arrivedTokens * kTokenBytes,
                              "the rest is abandoned");
        const KvTransferSenderCounters s = b->sender->GetCounters(b->imsi);
        const KvTransferReceiverCounters rc = b->receiver->GetCounters(b->imsi);
        const auto windowEnd = static_cast<std::size_t>(KvDiscardReason::WINDOW_END);
        NS_TEST_ASSERT_MSG_GT(s.withdrawnBy[windowEnd], 0u, "bytes never handed to TCP");
        NS_TEST_ASSERT_MSG_EQ(s.withdrawn, s.withdrawnBy[windowEnd], "all under window-end");
        NS_TEST_ASSERT_MSG_GT(rc.staleBy[windowEnd], 0u, "bytes in flight at the cut, stale");
        NS_TEST_ASSERT_MSG_EQ(rc.stale, rc.staleBy[windowEnd], "all under window-end");
        NS_TEST_ASSERT_MSG_EQ(r.abandonedBytes + arrivedTokens * kTokenBytes,
                              s.announced,
                              "what arrived and what was abandoned is the whole transfer");
        CheckExactlyOnce(*b, 300);
        CheckLedger(*b);
        b->s->Dispose();
    }
};

class PreparedTestCase : public ContractTestCase
{
  public:
    /// \param step the coordinator's OpenTransferStep, tokens
    explicit PreparedTestCase(uint32_t step)
        : ContractTestCase("A predicted handover: the prefix is prefilled at the target before "
                           "it, the suffix streams " +
                           std::string(step == 1 ? "a token" : "a block") +
                           " at a time as the source decodes, the seal goes at the handover, "
                           "and the session resumes with all of it"),
          m_step(step)
    {
    }

  private:
    void DoRun() override
    {
        auto b = MakeBench("ns3::HookTestScheduler", "boundary", nullptr);
        b->coordinator->SetAttribute("OpenTransferStep", UintegerValue(m_step));
        const Time crossing = b->s->GetBoundaryCrossings().at(0).time;
        bool prepared = false;
        Simulator::Schedule(crossing - Seconds(1) - Simulator::Now(), [&b, &prepared, crossing]() {
            prepared = b->coordinator->PrepareHandover(b->imsi, b->cell2, crossing);
        });
        Simulator::Stop(Seconds(15));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(prepared, true, "the prepare hook planned work");
        const std::vector<HandoverRecord>& records = b->coordinator->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1u, "one migration");
        const HandoverRecord& r = records.at(0);
        NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "it resumed");
        NS_TEST_ASSERT_MSG_EQ(r.preparedAt, crossing - Seconds(1), "prepared 1 s ahead");
        NS_TEST_ASSERT_MSG_GT(r.hoStart, r.preparedAt, "then handed over");
        const std::vector<std::pair<int, int>> states{
            {HandoverCoordinator::NONE, HandoverCoordinator::PREPARED},
            {HandoverCoordinator::PREPARED, HandoverCoordinator::COMMITTED},
            {HandoverCoordinator::COMMITTED, HandoverCoordinator::RESUMED}};
        NS_TEST_ASSERT_MSG_EQ((b->states == states), true, "prepared, committed, resumed");
        NS_TEST_ASSERT_MSG_EQ(b->stateTimes.at(1), r.hoStart, "committed at the handover");
        NS_TEST_ASSERT_MSG_EQ(b->policy->commits.size(), 1u, "the commit hook");
        NS_TEST_ASSERT_MSG_EQ(b->policy->cancels.size(), 0u, "no cancel");
        // The prefix: the whole blocks of half the context the prepare hook saw.
        const uint64_t seen = b->policy->prepares.at(0).sessions.at(0).contextTokens;
        NS_TEST_ASSERT_MSG_EQ(r.prefillTokens, seen / 2 / 16 * 16, "the prepared prefix");
        NS_TEST_ASSERT_MSG_EQ(b->prefillsDone.size(), 1u, "one prefill at the target");
        NS_TEST_ASSERT_MSG_LT(b->prefillsDone.at(0), r.hoStart, "done before the handover");
        // The source decoded on: the context at the handover is larger than at the prepare.
        NS_TEST_ASSERT_MSG_GT(r.contextTokens, seen + 16, "at least one more block decoded");
        // On the wire: OPEN, then a BEGIN per block range, the SEAL at the handover, END.
        uint32_t opens = 0;
        uint32_t begins = 0;
        uint32_t beginsAfterSeal = 0;
        Time sealSent = Time::Max();
        for (const auto& [t, h] : b->sent)
        {
            if (h.GetEpoch() != r.epoch)
            {
                continue;
            }
            switch (h.GetMessageType())
            {
            case KvTransferHeader::OPEN:
                ++opens;
                break;
            case KvTransferHeader::BEGIN:
                ++begins;
                beginsAfterSeal += t > sealSent ? 1 : 0;
                // After the first range (from the prefix), each starts where a step ends.
                NS_TEST_ASSERT_MSG_EQ((begins == 1 || h.GetFirst() % m_step == 0),
                                      true,
                                      "range at " << h.GetFirst() << " starts on a step");
                NS_TEST_ASSERT_MSG_EQ((begins == 1 || h.GetCount() <= m_step),
                                      true,
                                      "a range after the first is at most a step");
                NS_TEST_ASSERT_MSG_LT(t, r.hoStart + MilliSeconds(1), "sent as decoded");
                break;
            case KvTransferHeader::SEAL:
                sealSent = t;
                break;
            default:
                break;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(opens, 1u, "one OPEN");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(begins, 3u, "the first range, appended blocks, the last");
        NS_TEST_ASSERT_MSG_EQ(beginsAfterSeal, 0u, "nothing announced after the seal");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(sealSent, r.hoStart, "sealed at the handover");
        Time sealRead = Time::Max();
        for (const auto& [t, h] : b->read)
        {
            if (h.GetEpoch() == r.epoch && h.GetMessageType() == KvTransferHeader::SEAL)
            {
                sealRead = t;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(b->completes.size(), 1u, "complete once");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(b->completes.at(0), sealRead, "only after the seal");
        // What arrived is the suffix, whole: [prefix, context), measured at the receiver.
        NS_TEST_ASSERT_MSG_EQ(r.arrived.size(), 1u, "one range arrived");
        NS_TEST_ASSERT_MSG_EQ((r.arrived.at(0) == TokenRange{r.prefillTokens, r.contextTokens}),
                              true,
                              "the whole suffix");
        // Most of the cache moved before the handover: the rest takes far less than a whole
        // cache would over this link (hand: C x 57344 B x 8 / 4.5 Gb/s).
        const double whole = r.contextTokens * kTokenBytes * 8 / 4.5e9;
        NS_TEST_ASSERT_MSG_LT((r.kvReady - r.hoStart).GetSeconds(), whole / 2, "a short wait");
        CheckExactlyOnce(*b, 300);
        CheckLedger(*b);
        b->s->Dispose();
    }

    uint32_t m_step; //!< OpenTransferStep
};

class OpenContextTestCase : public ContractTestCase
{
  public:
    OpenContextTestCase()
        : ContractTestCase("A predicted handover's open transfer over 5 ms links: with an ideal "
                           "control plane the target's context grows as the source decodes; "
                           "on the network, as each new range's announcement reaches it")
    {
    }

  private:
    /// At each BEGIN of the migration's epoch the target read: the range's end, and the
    /// target's context just before the read and right after it
    struct Growth
    {
        uint64_t end;
        uint64_t before;
        uint64_t after{0};
    };

    void DoRun() override
    {
        for (const std::string mode : {"ideal", "network"})
        {
            const std::vector<Growth> growth = Run(mode);
            // The first range comes from the context at the prepare, which the target admitted
            // then; each later one is a block the source decoded since.
            NS_TEST_ASSERT_MSG_GT_OR_EQ(growth.size(), 3u, mode << ": ranges appended");
            for (std::size_t i = 1; i < growth.size(); ++i)
            {
                const Growth& g = growth[i];
                if (mode == "ideal")
                {
                    // Grown when the source decoded, 5 ms and more before the range's BEGIN
                    // crossed the link.
                    NS_TEST_EXPECT_MSG_GT_OR_EQ(g.before, g.end, mode << ": grown before");
                }
                else
                {
                    // Not before its announcement arrived, and to its end then.
                    NS_TEST_EXPECT_MSG_LT(g.before, g.end, mode << ": not before the BEGIN");
                    NS_TEST_EXPECT_MSG_EQ(g.after, g.end, mode << ": to the range's end");
                }
            }
            Simulator::Destroy();
            Config::Reset();
        }
    }

    std::vector<Growth> Run(const std::string& mode)
    {
        Config::SetDefault("ns3::HandoverCoordinator::ControlPlane", StringValue(mode));
        auto b =
            MakeBench("ns3::HookTestScheduler",
                      "boundary",
                      [](Ptr<EdgeLlmLineScenario> s, Ptr<EdgeLlmHelper>) {
                          s->GetBackhaulHelper()->SetAttribute("Delay", TimeValue(MilliSeconds(5)));
                      });
        b->coordinator->SetAttribute("OpenTransferStep", UintegerValue(16));
        Ptr<LlmEngine> target = DynamicCast<EdgeLlmServer>(b->s->GetServers().Get(1))->GetEngine();
        const Time crossing = b->s->GetBoundaryCrossings().at(0).time;
        Simulator::Schedule(crossing - Seconds(1) - Simulator::Now(), [&b, crossing]() {
            b->coordinator->PrepareHandover(b->imsi, b->cell2, crossing);
        });
        std::vector<Growth> growth;
        const uint64_t imsi = b->imsi;
        b->receiver->TraceConnectWithoutContext(
            "MessageReceived",
            Callback<void, const KvTransferHeader&>(
                [&growth, target, imsi](const KvTransferHeader& h) {
                    if (h.GetMessageType() != KvTransferHeader::BEGIN || h.GetImsi() != imsi ||
                        !target->HasSession(imsi))
                    {
                        return;
                    }
                    growth.push_back({h.GetFirst() + h.GetCount(), target->GetContextTokens(imsi)});
                    const std::size_t i = growth.size() - 1;
                    Simulator::ScheduleNow([&growth, i, target, imsi]() {
                        growth[i].after = target->GetContextTokens(imsi);
                    });
                }));
        Simulator::Stop(Seconds(15));
        Simulator::Run();
        const std::vector<HandoverRecord>& records = b->coordinator->GetRecords();
        NS_TEST_EXPECT_MSG_EQ(records.size(), 1u, mode << ": one migration");
        if (!records.empty())
        {
            NS_TEST_EXPECT_MSG_EQ(records[0].outcome,
                                  HandoverRecord::MIGRATED,
                                  mode << ": resumed");
            NS_TEST_EXPECT_MSG_EQ((records[0].arrived.size() == 1 &&
                                   records[0].arrived[0] == TokenRange{records[0].prefillTokens,
                                                                       records[0].contextTokens}),
                                  true,
                                  mode << ": the whole suffix arrived");
        }
        CheckExactlyOnce(*b, 300);
        CheckLedger(*b);
        b->s->Dispose();
        return growth;
    }
};

class WrongPredictionTestCase : public ContractTestCase
{
  public:
    WrongPredictionTestCase()
        : ContractTestCase("A prediction withdrawn: the prepared work is cancelled and counted "
                           "as waste, the source decodes on, and the real handover is planned "
                           "afresh")
    {
    }

  private:
    void DoRun() override
    {
        auto b = MakeBench("ns3::HookTestScheduler", "boundary", nullptr);
        const Time crossing = b->s->GetBoundaryCrossings().at(0).time;
        Simulator::Schedule(crossing - Seconds(1) - Simulator::Now(), [&b, crossing]() {
            b->coordinator->PrepareHandover(b->imsi, b->cell2, crossing);
        });
        bool withdrawn = false;
        Simulator::Schedule(crossing - MilliSeconds(300) - Simulator::Now(), [&b, &withdrawn]() {
            withdrawn = b->coordinator->CancelPrepared(b->imsi);
        });
        Simulator::Stop(Seconds(15));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(withdrawn, true, "there was a prepared migration");
        const std::vector<HandoverRecord>& records = b->coordinator->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2u, "the prepared one, then the handover");
        const HandoverRecord& p = records.at(0);
        NS_TEST_ASSERT_MSG_EQ(p.outcome, HandoverRecord::CANCELLED, "thrown away");
        NS_TEST_ASSERT_MSG_EQ(p.hoStart.IsStrictlyNegative(), true, "it never handed over");
        NS_TEST_ASSERT_MSG_EQ(b->policy->cancels.size(), 1u, "the cancel hook");
        NS_TEST_ASSERT_MSG_EQ(b->policy->commits.size(), 0u, "no commit");
        // Waste: the bytes of its epoch handed to TCP by the cancel (the message being
        // written is finished after it), and its prefill, done before the cancel.
        const uint64_t handed = b->dataBytesByEpoch[p.epoch];
        NS_TEST_ASSERT_MSG_GT(p.wastedBytes, 0u, "bytes were sent");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(p.wastedBytes, handed, "no more than went to TCP");
        NS_TEST_ASSERT_MSG_LT(handed - p.wastedBytes, 1048577u, "less one message at most");
        NS_TEST_ASSERT_MSG_EQ((b->prefillsDone.size() >= 1), true, "its prefill had run");
        Ptr<LlmEngine> target = DynamicCast<EdgeLlmServer>(b->s->GetServers().Get(1))->GetEngine();
        NS_TEST_ASSERT_MSG_EQ(p.wastedGpuSeconds,
                              target->GetLlmComputeModel().PrefillTime(p.prefillTokens),
                              "its prefill's GPU time");
        const HandoverRecord& h = records.at(1);
        NS_TEST_ASSERT_MSG_EQ(h.outcome, HandoverRecord::MIGRATED, "the real one migrated");
        NS_TEST_ASSERT_MSG_EQ(h.prefillTokens, 0u, "planned afresh: the whole cache is sent");
        NS_TEST_ASSERT_MSG_GT(h.epoch, p.epoch, "under a newer epoch");
        NS_TEST_ASSERT_MSG_EQ(b->policy->plans.size(), 1u, "by the plan hook");
        const auto newer = static_cast<std::size_t>(KvDiscardReason::NEWER_EPOCH);
        const KvTransferSenderCounters s = b->sender->GetCounters(b->imsi);
        NS_TEST_ASSERT_MSG_EQ(s.withdrawn, s.withdrawnBy[newer], "withdrawn: newer epoch");
        CheckExactlyOnce(*b, 300);
        CheckLedger(*b);
        b->s->Dispose();
    }
};

class TerminalStatesTestCase : public ContractTestCase
{
  public:
    TerminalStatesTestCase()
        : ContractTestCase("A failed handover and a released UE end their migrations as failed "
                           "and closed: the target is freed, the holder decodes on, tokens "
                           "exactly once, bytes conserve")
    {
    }

  private:
    void DoRun() override
    {
        // No handover of ns-3's own: the RAN events come from a script, and the UE stays in
        // its first cell, where every token must still arrive.
        auto b = MakeBench(
            "ns3::CacheHandoverScheduler",
            "none",
            [](Ptr<EdgeLlmLineScenario> s, Ptr<EdgeLlmHelper>) {
                s->GetBackhaulHelper()->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
            },
            400);
        Ptr<ScriptedRanObserver> ran = CreateObject<ScriptedRanObserver>();
        b->coordinator->Install(ran);
        Bench* raw = b.get();
        Simulator::Schedule(Seconds(0.5), [ran, raw]() { ran->Ready(raw->imsi, raw->cell1); });
        Simulator::Schedule(Seconds(2),
                            [ran, raw]() { ran->Start(raw->imsi, raw->cell1, raw->cell2); });
        Simulator::Schedule(Seconds(2.05), [ran, raw]() { ran->Fail(raw->imsi, raw->cell2); });
        Simulator::Schedule(Seconds(3),
                            [ran, raw]() { ran->Start(raw->imsi, raw->cell1, raw->cell2); });
        Simulator::Schedule(Seconds(3.05), [ran, raw]() { ran->Release(raw->imsi, raw->cell1); });
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        const std::vector<HandoverRecord>& records = b->coordinator->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2u, "two migrations");
        NS_TEST_ASSERT_MSG_EQ(records.at(0).outcome, HandoverRecord::FAILED, "the first failed");
        NS_TEST_ASSERT_MSG_EQ(records.at(1).outcome, HandoverRecord::CLOSED, "the second closed");
        const std::vector<std::pair<int, int>> states{
            {HandoverCoordinator::NONE, HandoverCoordinator::COMMITTED},
            {HandoverCoordinator::COMMITTED, HandoverCoordinator::FAILED},
            {HandoverCoordinator::NONE, HandoverCoordinator::COMMITTED},
            {HandoverCoordinator::COMMITTED, HandoverCoordinator::CLOSED}};
        NS_TEST_ASSERT_MSG_EQ((b->states == states), true, "committed, then failed or closed");
        NS_TEST_ASSERT_MSG_EQ(b->coordinator->GetMigrationState(b->imsi),
                              HandoverCoordinator::NONE,
                              "nothing left under way");
        // Each was cut 50 ms into a ~460 ms transfer: part withdrawn, part stale.
        const KvTransferSenderCounters s = b->sender->GetCounters(b->imsi);
        NS_TEST_ASSERT_MSG_GT(s.withdrawn, 0u, "the transfers were withdrawn");
        NS_TEST_ASSERT_MSG_EQ(b->completes.size(), 0u, "neither completed at the target");
        Ptr<LlmEngine> target = DynamicCast<EdgeLlmServer>(b->s->GetServers().Get(1))->GetEngine();
        NS_TEST_ASSERT_MSG_EQ(target->HasSession(b->imsi), false, "the target was freed");
        NS_TEST_ASSERT_MSG_EQ(target->GetKvTokensInUse(), 0u, "and its memory");
        for (const auto& [index, cell] : b->emittedBy)
        {
            NS_TEST_ASSERT_MSG_EQ(cell, b->cell1, "token " << index << " from the holder");
        }
        CheckExactlyOnce(*b, 400);
        CheckLedger(*b);
        b->s->Dispose();
    }
};

class PreparedSessionEndsTestCase : public ContractTestCase
{
  public:
    PreparedSessionEndsTestCase()
        : ContractTestCase("A prepared session that ends at its source before the predicted "
                           "handover (its last token fills a block): the preparation is "
                           "cancelled, the target freed, every token delivered once")
    {
    }

  private:
    void DoRun() override
    {
        // 1000 + 40 tokens: the last one fills a block, where the reservation also ends.
        auto b = MakeBench("ns3::HookTestScheduler", "boundary", nullptr, 40);
        const Time crossing = b->s->GetBoundaryCrossings().at(0).time;
        bool prepared = false;
        Simulator::Schedule(MilliSeconds(400), [&b, &prepared, crossing]() {
            prepared = b->coordinator->PrepareHandover(b->imsi, b->cell2, crossing);
        });
        Simulator::Stop(Seconds(15));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(prepared, true, "prepared while decoding");
        const std::vector<HandoverRecord>& records = b->coordinator->GetRecords();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(records.size(), 1u, "the prepared migration's record");
        NS_TEST_ASSERT_MSG_EQ(records.at(0).outcome, HandoverRecord::CANCELLED, "thrown away");
        NS_TEST_ASSERT_MSG_EQ(b->policy->cancels.size(), 1u, "the cancel hook");
        NS_TEST_ASSERT_MSG_EQ(b->coordinator->GetMigrationState(b->imsi),
                              HandoverCoordinator::NONE,
                              "nothing left under way");
        Ptr<LlmEngine> target = DynamicCast<EdgeLlmServer>(b->s->GetServers().Get(1))->GetEngine();
        NS_TEST_ASSERT_MSG_EQ(target->HasSession(b->imsi), false, "the target was freed");
        NS_TEST_ASSERT_MSG_EQ(target->GetKvTokensInUse(), 0u, "and its memory");
        CheckExactlyOnce(*b, 40);
        CheckLedger(*b);
        b->s->Dispose();
    }
};

class SharedLinkTestCase : public ContractTestCase
{
  public:
    SharedLinkTestCase()
        : ContractTestCase("Two migrations on one link: the slot hook sees it as a bottleneck "
                           "carrying both, and each session keeps to its own budget per slot")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t unit = 8 * kTokenBytes;
        auto b = MakeBench("ns3::HookTestScheduler", "boundary", SlotBudgets(unit), 300, 2);
        Simulator::Stop(Seconds(15));
        Simulator::Run();

        const std::vector<HandoverRecord>& records = b->coordinator->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2u, "two handovers");
        for (const HandoverRecord& r : records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.outcome, HandoverRecord::MIGRATED, "imsi " << r.imsi);
        }
        // The UEs start 1 m apart: their 1000-token transfers overlap for most of their time.
        NS_TEST_ASSERT_MSG_GT(b->policy->sharedSlots, 10u, "the link carried both");
        auto budget = [unit](uint64_t k) { return ScheduledBudget(k, unit); };
        std::map<uint64_t, uint32_t> sessionsInSlot;
        for (const auto& [key, bytes] : b->dataBytesByImsiSlot)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(bytes, budget(key.second), "imsi " << key.first);
            ++sessionsInSlot[key.second];
        }
        uint32_t both = 0;
        for (const auto& [slot, n] : sessionsInSlot)
        {
            both += n == 2 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_GT(both, 10u, "both sent in the same slots, each on its own budget");
        for (uint32_t i = 0; i < b->s->GetClients().GetN(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(
                DynamicCast<EdgeLlmClient>(b->s->GetClients().Get(i))->IsComplete(),
                true,
                "session " << i << " complete");
        }
        CheckExactlyOnce(*b, 300);
        b->s->Dispose();
    }
};

} // namespace

/// The policy contract and the migration state machine.
class HandoverContractTestSuite : public TestSuite
{
  public:
    HandoverContractTestSuite()
        : TestSuite("edge-llm-contract", TestSuite::Type::UNIT)
    {
        AddTestCase(new SlotBudgetsTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new DeadlineTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new PreparedTestCase(16), edgellm::TEST_QUICK);
        AddTestCase(new PreparedTestCase(1), edgellm::TEST_QUICK);
        AddTestCase(new OpenContextTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new WrongPredictionTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new TerminalStatesTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new PreparedSessionEndsTestCase(), edgellm::TEST_QUICK);
        AddTestCase(new SharedLinkTestCase(), edgellm::TEST_QUICK);
    }
};

/// The suite's instance.
static HandoverContractTestSuite g_handoverContractTestSuite;
