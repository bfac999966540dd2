/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_PLAN_INPUT_BUILDER_H
#define EDGE_LLM_PLAN_INPUT_BUILDER_H

#include "cell-port.h"
#include "handover-plan.h"
#include "handover-record.h"
#include "kv-transfer-sender.h"
#include "migration.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Makes the views a scheduler plans with: of a session, a target, a backhaul link and a
 * migration under way, from what the cells and the links report now.
 *
 * It reads the coordinator's directory of cells and links, and its migrations, through its
 * Source, and changes nothing.
 */
class PlanInputBuilder
{
  public:
    /// Each link's index in a view's list of links, by (from, to).
    using LinkIndex = std::map<std::pair<uint16_t, uint16_t>, std::size_t>;

    /**
     * \brief What a slot's allocator knows of its migrations from reports (ControlPlane
     * network), in place of reading the senders and targets. A field left null is read from
     * the cell's port (the allocator's own cell, or no report to be had); an entry missing
     * from a map counts 0.
     */
    struct Reported
    {
        /// bytes each migration's sender reported sent, by (imsi, epoch)
        const std::map<std::pair<uint64_t, uint32_t>, uint64_t>* sent{nullptr};
        /// bytes each migration's target reported received, by (imsi, epoch)
        const std::map<std::pair<uint64_t, uint32_t>, uint64_t>* received{nullptr};
        /// each link's KV backlog its sender reported, bytes, by (from, to)
        const std::map<std::pair<uint16_t, uint16_t>, uint64_t>* backlog{nullptr};
    };

    /// What the builder reads: the coordinator's directory and migrations.
    class Source
    {
      public:
        virtual ~Source() = default;
        /// \param cellId a cell \param site the calling function (CrossNodeAudit)
        /// \return the port the coordinator reaches it by
        virtual Ptr<CellPort> PortOf(uint16_t cellId, const char* site = __builtin_FUNCTION()) = 0;
        /// \param cellId a cell \return its port, only to read what it is configured with (its
        ///        links, KV memory, prefill cycle, compute model); not audited (CrossNodeAudit)
        virtual Ptr<const CellPort> ConfigOf(uint16_t cellId) const = 0;
        /// \return every link's rate, by (from, to)
        virtual const std::map<std::pair<uint16_t, uint16_t>, DataRate>& GetLinkRates() const = 0;
        /// \param from a cell \param to another \return the rate the scheduler plans the link with
        virtual double GetPlannedRateBps(uint16_t from, uint16_t to) const = 0;
        /// \param imsi a UE \return its KV-cache shape
        virtual SessionKvProfile GetKvProfile(uint64_t imsi) const = 0;
        /// \param cellId a cell \return when its planned handover prefills end, and their
        ///        tokens not yet done
        virtual std::pair<Time, uint64_t> GetPrefillForecast(uint16_t cellId) = 0;
        /// \param cellId a target cell \return whether plans replay its engine's iterations
        virtual bool ReplaysEngine(uint16_t cellId) = 0;
        /**
         * \param cellId a target cell \param lengths prefills queued at from
         * \param from when, >= now \param replacing sessions re-planned
         * \return when each would run there, behind the handover prefills planned there
         */
        virtual std::vector<LlmEngine::PrefillForecast> ForecastPrefills(
            uint16_t cellId,
            const std::vector<uint64_t>& lengths,
            Time from,
            const std::vector<uint64_t>& replacing) = 0;
        /// \return the migrations under way, by IMSI
        virtual const std::map<uint64_t, Migration>& GetMigrations() const = 0;
        /// \param i a record's index \return the record
        virtual const HandoverRecord& GetRecord(std::size_t i) const = 0;
        /// \param imsi a UE \return the cell that holds its session, or 0
        virtual uint16_t HolderOf(uint64_t imsi) const = 0;
        /**
         * \param cellId a target cell \param [out] tokens its free KV memory as its answer to a
         * reservation reported it, tokens
         * \return true if the plan being made has that answer (a ControlPlane network), in
         *         place of reading the target's engine
         */
        virtual bool GetReportedFreeKv(uint16_t cellId, uint64_t& tokens) const = 0;
    };

    /// \param source what it reads; must outlive it
    explicit PlanInputBuilder(Source* source);

    /**
     * \brief The view of a session, with its links added to links.
     * \param imsi the UE
     * \param holder the cell that holds its cache
     * \param target its target
     * \param handoverStartS its (expected) handover time, s
     * \param contextTokens its context at that time
     * \param handedOver true if the handover has happened
     * \param links the input's links, to add to
     * \param index their indices
     * \return the view
     */
    HandoverSessionView MakeSessionView(uint64_t imsi,
                                        uint16_t holder,
                                        uint16_t target,
                                        double handoverStartS,
                                        uint64_t contextTokens,
                                        bool handedOver,
                                        std::vector<HandoverLinkView>& links,
                                        LinkIndex& index);

    /// \param cell a target \return its view
    HandoverTargetView MakeTargetView(uint16_t cell);

    /**
     * \brief The view of a migration under way.
     * \param imsi the UE
     * \param m its migration
     * \param links the input's links, to add its link to; null for none
     * \param index their indices; null for none
     * \param reported what reports told, null to read every cell
     * \return the view
     */
    MigrationView MakeMigrationView(uint64_t imsi,
                                    const Migration& m,
                                    std::vector<HandoverLinkView>* links,
                                    LinkIndex* index,
                                    const Reported* reported = nullptr);

    /**
     * \brief The view of a link, added to links unless index has it.
     * \param from a cell \param to another \param links the input's links \param index their
     * indices \param reported what reports told, null to read the sender
     * \return its index, and whether it was added now
     */
    std::pair<std::size_t, bool> AddLinkView(uint16_t from,
                                             uint16_t to,
                                             std::vector<HandoverLinkView>& links,
                                             LinkIndex& index,
                                             const Reported* reported = nullptr);

    /**
     * \brief The input of a plan for one session alone.
     * \param imsi the UE
     * \param holder the cell that holds its cache
     * \param target its target
     * \param handoverAt its handover time: now if it has happened, else the expected one
     * \param handedOver true if the handover has happened
     * \return the input: the session, its links and the target, as they are now
     */
    HandoverPlanInput MakeSessionInput(uint64_t imsi,
                                       uint16_t holder,
                                       uint16_t target,
                                       Time handoverAt,
                                       bool handedOver);

    /**
     * \brief The input of an oracle group's plan, made at the group's first handover.
     *
     * The member handing over now is seen as it is; each other member at its expected handover
     * time (or now, if that has passed), with the context it will have then at the rate it has
     * decoded so far. Members without a session now are left out.
     * \param imsi the member handing over now
     * \param target the group's target
     * \param group the group's number
     * \param expected every member's expected handover time, by IMSI
     * \return the input
     */
    HandoverPlanInput MakeOracleGroupInput(uint64_t imsi,
                                           uint16_t target,
                                           uint32_t group,
                                           const std::map<uint64_t, Time>& expected);

    /// \param imsi a UE \param holder its cell \return its measured decode rate, tokens/s
    double GetDecodeRate(uint64_t imsi, uint16_t holder) const;

  private:
    Source* m_source; //!< what it reads
};

} // namespace ns3

#endif /* EDGE_LLM_PLAN_INPUT_BUILDER_H */
