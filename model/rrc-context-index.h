/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_RRC_CONTEXT_INDEX_H
#define EDGE_LLM_RRC_CONTEXT_INDEX_H

#include "ns3/callback.h"
#include "ns3/object-map.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The UE contexts of one base station's RRC, by IMSI, for a local breakout.
 *
 * LTE's and 5G-LENA's RRCs are alike here: a `UeMap` attribute of contexts by RNTI, a
 * `NewUeContext` trace (cell id, RNTI), contexts with a `StateTransition` trace (IMSI, cell id,
 * RNTI, old state, new state), the same state names, and HasUeManager / GetUeManager.
 *
 * Lookups are cheap: a map from IMSI to the UE's context object is kept, and an entry is used
 * only if the RRC still holds that very object under its RNTI. The UeMap is scanned again only
 * when it may answer differently: a context was created or changed state since the last scan,
 * or the entry's context was released. So a stale RNTI is never sent with, and a handover in
 * progress costs no scan per packet.
 *
 * \tparam Rrc the base station's RRC class
 * \tparam Manager its UE context class, with a State enumeration
 */
template <typename Rrc, typename Manager>
class RrcContextIndex
{
  public:
    /// The context's RRC state.
    using State = typename Manager::State;

    /**
     * \brief Index the contexts of an RRC, forgetting any earlier one.
     * \param rrc the RRC (not null)
     */
    void Bind(Ptr<Rrc> rrc)
    {
        m_rrc = rrc;
        m_contexts.clear();
        // A new flag each time: callbacks left on an earlier RRC set one nobody reads.
        Ptr<Changed> flag = Create<Changed>();
        m_changed = flag;
        Callback<void, uint64_t, uint16_t, uint16_t, State, State> changed(
            [flag](uint64_t, uint16_t, uint16_t, State, State) { flag->changed = true; });
        ObjectMapValue ues;
        m_rrc->GetAttribute("UeMap", ues);
        for (auto it = ues.Begin(); it != ues.End(); ++it)
        {
            it->second->TraceConnectWithoutContext("StateTransition", changed);
        }
        // The RRC holds this callback, so it is alive whenever the callback runs. A context's
        // IMSI is set right after NewUeContext or just before a state change, never alone.
        Rrc* raw = PeekPointer(m_rrc);
        m_rrc->TraceConnectWithoutContext(
            "NewUeContext",
            Callback<void, uint16_t, uint16_t>([flag, raw, changed](uint16_t, uint16_t rnti) {
                flag->changed = true;
                raw->GetUeManager(rnti)->TraceConnectWithoutContext("StateTransition", changed);
            }));
    }

    /// Drop the RRC and the index.
    void Clear()
    {
        m_contexts.clear();
        m_rrc = nullptr;
    }

    /// \return the RRC bound, or null
    Ptr<Rrc> GetRrc() const
    {
        return m_rrc;
    }

    /**
     * \param imsi a UE
     * \return its context in the RRC, or null if the RRC holds none
     */
    Ptr<Manager> Lookup(uint64_t imsi)
    {
        auto it = m_contexts.find(imsi);
        if (it != m_contexts.end())
        {
            Ptr<Manager> ue = it->second;
            const uint16_t rnti = ue->GetRnti();
            // Trusted only while the RRC still holds this very object, and while a scan would
            // pick it again: in the steady state, or when no context appeared or changed state
            // since the last scan (one that went cannot make another better).
            if ((ue->GetState() == Manager::CONNECTED_NORMALLY || !m_changed->changed) &&
                m_rrc->HasUeManager(rnti) && m_rrc->GetUeManager(rnti) == ue)
            {
                return ue;
            }
        }
        else if (!m_changed->changed)
        {
            // No context appeared, and none learnt an IMSI, since the scan that did not find it.
            return nullptr;
        }
        Rescan();
        it = m_contexts.find(imsi);
        return it == m_contexts.end() ? nullptr : it->second;
    }

    /**
     * \param imsi a UE whose context Lookup finds
     * \param bearerId an EPS bearer
     * \return whether that context has a data radio bearer of it
     */
    bool HasBearer(uint64_t imsi, uint8_t bearerId)
    {
        ObjectMapValue drbs;
        Lookup(imsi)->GetAttribute("DataRadioBearerMap", drbs);
        return drbs.Get(bearerId) != nullptr;
    }

    /// \return how many times the UeMap was scanned
    uint64_t GetScans() const
    {
        return m_scans;
    }

    /**
     * \param state a context's state
     * \return whether the RRC takes downlink data in it without stopping the run
     */
    static bool IsSendAllowed(State state)
    {
        switch (state)
        {
        case Manager::CONNECTED_NORMALLY:
        case Manager::CONNECTION_RECONFIGURATION:
        case Manager::HANDOVER_PREPARATION:
        case Manager::HANDOVER_PATH_SWITCH:
        case Manager::HANDOVER_JOINING: // buffered until the UE arrives
        case Manager::HANDOVER_LEAVING: // forwarded over X2
            return true;
        default:
            // INITIAL_RANDOM_ACCESS and CONNECTION_SETUP drop the packet, ATTACH_REQUEST and
            // CONNECTION_REJECTED stop the run; CONNECTION_REESTABLISHMENT is never entered.
            return false;
        }
    }

  private:
    /**
     * Rank of a context when the RRC holds two of one IMSI (a handover back into a cell whose
     * old context is not released yet): the one the UE is heading to wins.
     * \param state the context's state
     * \return higher for the better one
     */
    static int Preference(State state)
    {
        switch (state)
        {
        case Manager::CONNECTED_NORMALLY:
            return 6;
        case Manager::CONNECTION_RECONFIGURATION:
            return 5;
        case Manager::HANDOVER_PATH_SWITCH:
            return 4;
        case Manager::HANDOVER_JOINING:
            return 3;
        case Manager::HANDOVER_PREPARATION:
            return 2;
        case Manager::HANDOVER_LEAVING:
            return 1;
        default:
            return 0;
        }
    }

    /// Rebuild the map from the RRC's UeMap.
    void Rescan()
    {
        ++m_scans;
        m_changed->changed = false;
        m_contexts.clear();
        ObjectMapValue ues;
        m_rrc->GetAttribute("UeMap", ues);
        for (auto it = ues.Begin(); it != ues.End(); ++it)
        {
            Ptr<Manager> ue = DynamicCast<Manager>(it->second);
            // A context that has not heard the UE's identity yet has IMSI 0.
            if (!ue || ue->GetImsi() == 0)
            {
                continue;
            }
            auto [entry, inserted] = m_contexts.emplace(ue->GetImsi(), ue);
            if (!inserted && Preference(ue->GetState()) > Preference(entry->second->GetState()))
            {
                entry->second = ue;
            }
        }
    }

    /**
     * Set by the RRC's traces when its contexts may answer a lookup differently. Shared with
     * the callbacks the RRC and its contexts hold, which may outlive the index.
     */
    struct Changed : public SimpleRefCount<Changed>
    {
        bool changed{true}; //!< true until the next scan
    };

    Ptr<Rrc> m_rrc;         //!< the RRC
    Ptr<Changed> m_changed; //!< whether the UeMap may have changed since the last scan
    /// The contexts of the last scan, by IMSI; checked against the RRC before use.
    std::unordered_map<uint64_t, Ptr<Manager>> m_contexts;
    uint64_t m_scans{0}; //!< scans of the UeMap
};

} // namespace ns3

#endif // EDGE_LLM_RRC_CONTEXT_INDEX_H
