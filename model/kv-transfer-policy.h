/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_POLICY_H
#define EDGE_LLM_KV_TRANSFER_POLICY_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief What a transfer policy may know of one queued session transfer.
 */
struct KvTransferJobInfo
{
    uint64_t imsi{0};           //!< session
    uint32_t epoch{0};          //!< transfer epoch
    uint64_t arrival{0};        //!< order of Enqueue calls, from 0
    Time enqueued;              //!< when it was enqueued
    Time deadline{Time::Max()}; //!< EDF deadline; Time::Max() for none
    uint32_t priority{0};       //!< strict priority; lower goes first
    uint64_t bytesPerUnit{0};   //!< bytes of one token or entry
    uint64_t remainingBytes{0}; //!< KV bytes not yet put in a message
    uint64_t sentBytes{0};      //!< KV bytes already put in messages
    double weight{1};           //!< KvTransferRequest::weight, for weighted policies
};

/**
 * \ingroup edge-llm
 * \brief Decides which session's KV bytes go next on a backhaul connection.
 *
 * The sender asks at every message boundary. Small control messages (BEGIN, TOKENS,
 * CANCEL) always go first and never reach the policy. A policy may also ration bytes over
 * time (GetAllowance, GetNextRefill), as a per-slot budget does; the sender then starts no
 * message for a session whose allowance is below one unit, hands TCP no more of a message's
 * KV bytes than the allowance, and wakes up at the next refill.
 */
class KvTransferPolicy : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~KvTransferPolicy() override;

    /**
     * \brief Choose the job whose next message goes now.
     * \param candidates jobs with bytes left and an allowance of at least one unit; never
     *        empty
     * \param now the current time
     * \return an index into candidates
     */
    virtual std::size_t Select(const std::vector<const KvTransferJobInfo*>& candidates,
                               Time now) const = 0;

    /**
     * \param job a queued job
     * \param now the current time
     * \return how many KV bytes of the job TCP may still accept now; unlimited by default
     */
    virtual uint64_t GetAllowance(const KvTransferJobInfo& job, Time now) const;

    /**
     * \param now the current time
     * \return when allowances next grow; Time::Max() (the default) if never
     */
    virtual Time GetNextRefill(Time now) const;

    /**
     * \param job a queued job
     * \return the most a refill can give the job: unlimited by default; 0 holds the job back
     *         until the allowances change (the sender then waits for Reschedule())
     */
    virtual uint64_t GetAllowancePerRefill(const KvTransferJobInfo& job) const;

    /**
     * \brief Told of a DATA message's KV bytes as TCP accepts them, so a rationing policy can
     * charge them to the moment they enter TCP.
     *
     * A message is told in as many parts as it is written in, possibly across refills. The
     * rest of a message still being written when its transfer is cancelled is not told.
     *
     * \param job the job; its remaining and sent bytes count the whole message already
     * \param bytes the KV bytes TCP accepted
     * \param now the current time
     */
    virtual void NotifySent(const KvTransferJobInfo& job, uint64_t bytes, Time now);
};

/**
 * \ingroup edge-llm
 * \brief First come, first served: the job enqueued first sends all its bytes first.
 */
class FifoKvTransferPolicy : public KvTransferPolicy
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::size_t Select(const std::vector<const KvTransferJobInfo*>& candidates,
                       Time now) const override;
};

/**
 * \ingroup edge-llm
 * \brief Earliest deadline first; equal deadlines in arrival order. ctHO's schedule.
 */
class EdfKvTransferPolicy : public KvTransferPolicy
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::size_t Select(const std::vector<const KvTransferJobInfo*>& candidates,
                       Time now) const override;
};

/**
 * \ingroup edge-llm
 * \brief Strict priority (lower value first); equal priorities in arrival order.
 */
class StrictPriorityKvTransferPolicy : public KvTransferPolicy
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::size_t Select(const std::vector<const KvTransferJobInfo*>& candidates,
                       Time now) const override;
};

/**
 * \ingroup edge-llm
 * \brief Per-slot byte budgets, one per transfer (session and epoch), for deadline-bounded
 * partial transfers.
 *
 * Time is cut into slots of SlotDuration from t = 0. In each slot TCP accepts at most a
 * transfer's budget of its KV bytes; what it does not use is lost. Among transfers with budget
 * left, arrival order decides. A transfer is charged for its bytes when TCP accepts them, not
 * when their message is chosen: a message never exceeds the budget left when it is chosen,
 * and what TCP has not taken of it by the slot's end is charged to the next slot, which it
 * waits for if that slot's budget is 0. Budgets and usage are kept per (imsi, epoch): a
 * session's new epoch starts with its own budget, not with what its cancelled predecessor
 * left.
 *
 * The budget comes from one of two places:
 * - a budget source (SetBudgetSource): budget(imsi, epoch, slot) for each slot, which may
 *   change from slot to slot (0 in one, large in the next). The sender wakes at every slot
 *   start while a transfer has bytes left, and asks again;
 * - otherwise a fixed budget per slot, SetBudget, or DefaultBudgetBytes for a transfer
 *   without one. A budget of 0 holds the transfer back: after SetBudget, call the sender's
 *   Reschedule() for the change to act before the next slot. A budget above 0 but below one
 *   unit stops the run, since that transfer could never send.
 */
class SlotBudgetKvTransferPolicy : public KvTransferPolicy
{
  public:
    /**
     * Where budgets come from: callback(imsi, epoch, slotIndex) returning that transfer's
     * budget in bytes for that slot.
     */
    typedef Callback<uint64_t, uint64_t, uint32_t, uint64_t> BudgetSource;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SlotBudgetKvTransferPolicy();

    /**
     * \brief Set one transfer's budget per slot, from the current slot on. Not used while a
     * budget source is set.
     * \param imsi the session
     * \param epoch the transfer's epoch
     * \param bytesPerSlot its budget in bytes
     */
    void SetBudget(uint64_t imsi, uint32_t epoch, uint64_t bytesPerSlot);

    /**
     * \brief Take every budget from a source; SetBudget and DefaultBudgetBytes are then not
     * used. A null callback goes back to them.
     *
     * The source is called synchronously from GetAllowance(), i.e. when the sender looks for
     * work (woken at each slot's start by its refill event, or after a message), so no event
     * at the same timestamp can see another budget than the sender did. It may be called
     * several times for the same slot, and must return the same value each time: the
     * allowance is the budget minus what the transfer used in the slot.
     *
     * \param source callback(imsi, epoch, slotIndex) -> bytes
     */
    void SetBudgetSource(BudgetSource source);

    /**
     * \param now a time
     * \return the index of the slot that holds it
     */
    uint64_t GetSlotIndex(Time now) const;

    std::size_t Select(const std::vector<const KvTransferJobInfo*>& candidates,
                       Time now) const override;
    uint64_t GetAllowance(const KvTransferJobInfo& job, Time now) const override;
    Time GetNextRefill(Time now) const override;
    /**
     * \param job a queued job
     * \return its fixed budget per slot (SetBudget's, else DefaultBudgetBytes); with a budget
     *         source, unlimited, since one slot's budget says nothing of the next one's
     */
    uint64_t GetAllowancePerRefill(const KvTransferJobInfo& job) const override;
    void NotifySent(const KvTransferJobInfo& job, uint64_t bytes, Time now) override;

  private:
    /// A transfer's fixed budget and what it used in the slot it last sent in.
    struct Usage
    {
        bool hasBudget{false}; //!< SetBudget was called; else DefaultBudgetBytes
        uint64_t budget{0};    //!< bytes per slot
        uint64_t slot{0};      //!< slot of `used`
        uint64_t used{0};      //!< bytes used in `slot`
    };

    /// The key of a transfer.
    using Key = std::pair<uint64_t, uint32_t>;

    /// \return the fixed budget of a transfer
    uint64_t FixedBudget(const Key& key) const;

    Time m_slot;                  //!< SlotDuration
    uint64_t m_defaultBudget;     //!< DefaultBudgetBytes
    BudgetSource m_source;        //!< budget source; null for fixed budgets
    std::map<Key, Usage> m_usage; //!< per (imsi, epoch)
};

} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_POLICY_H */
