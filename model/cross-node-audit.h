/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CROSS_NODE_AUDIT_H
#define EDGE_LLM_CROSS_NODE_AUDIT_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Where the coordinator's actions run, and the calls they make on another node's cell.
 *
 * With the control plane on the network, each action of the coordinator runs at one node: the
 * cell where a control message arrived, where a radio event was heard or whose server or KV
 * receiver reported, the controller's node, or wherever the timer that fires was set. A call
 * on another cell's port (CellPort) from there is one the network does not carry: it takes no
 * time and cannot be lost. The audit counts those calls by the function that made them, so
 * that what of the control plane is still ideal is a number a run reports, not a claim.
 *
 * The acting cell is kept for the whole simulation (as Simulator::GetContext is): a Scope sets
 * it for an action and puts the previous one back.
 */
class CrossNodeAudit
{
  public:
    /// No node: the action's place is unknown (setup, or an entry the audit does not cover).
    static constexpr uint16_t NOWHERE = 0;

    /// Runs what follows at a cell, until it goes out of scope.
    class Scope
    {
      public:
        /// \param cell the acting cell (ControlMessage::CONTROLLER for the controller's node)
        explicit Scope(uint16_t cell);
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

      private:
        uint16_t m_previous; //!< the acting cell before
    };

    /// \return the cell the current action runs at, NOWHERE if none was set
    static uint16_t Acting();

    /**
     * \brief Schedule a timer that runs where it was set (at the acting cell now).
     * \param delay when it fires, from now
     * \param f what it does
     * \return its event
     */
    template <typename F>
    static EventId Schedule(const Time& delay, F f)
    {
        return Simulator::Schedule(delay, [cell = Acting(), f = std::move(f)]() mutable {
            Scope here(cell);
            f();
        });
    }

    /**
     * \brief Count a call on a cell's port if it is not the acting cell's.
     * \param site the calling function's name
     * \param cell the port's cell
     * \return true if the call reaches another node (or its place is unknown)
     */
    bool Check(const char* site, uint16_t cell);

    /// \return the calls counted, by "site: acting -> cell" (acting "?" if unknown)
    const std::map<std::string, uint64_t>& GetCalls() const;

    /// \return the calls counted
    uint64_t GetTotal() const;

    /// \return the calls counted whose acting cell was unknown
    uint64_t GetUnplaced() const;

    /// Forget every count.
    void Clear();

  private:
    std::map<std::string, uint64_t> m_calls; //!< by site and the two cells
    uint64_t m_total{0};                     //!< every call counted
    uint64_t m_unplaced{0};                  //!< those from NOWHERE
};

} // namespace ns3

#endif /* EDGE_LLM_CROSS_NODE_AUDIT_H */
