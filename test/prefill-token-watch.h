/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_PREFILL_TOKEN_WATCH_H
#define EDGE_LLM_PREFILL_TOKEN_WATCH_H

#include "ns3/edge-llm-module.h"

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm-tests
 * \brief Watches, at every cell, that a handover's prefill never starts before the token IDs
 * it prefills have arrived there.
 *
 * It counts at the edges: the distinct token IDs of a session that TOKENS messages brought to
 * a cell (the receiver's TokensArrived), and the tokens of the urgent prefills (those of
 * handovers) that the cell's engine started for it (PrefillStarted). A GPU cannot prefill a
 * token whose ID it does not have, so at each start the second may not exceed the first.
 */
class PrefillTokenWatch
{
  public:
    /**
     * \brief Connect to every cell of a network.
     * \param edge the network's edge-LLM helper
     */
    void Hook(Ptr<EdgeLlmHelper> edge)
    {
        for (const auto& [cell, server] : edge->GetServers())
        {
            const uint16_t cellId = cell;
            edge->GetKvTransfer(cellId)->GetReceiver()->TraceConnectWithoutContext(
                "TokensArrived",
                Callback<void, const KvTransferHeader&>([this, cellId](const KvTransferHeader& h) {
                    m_ids[{cellId, h.GetImsi()}].Add(
                        {h.GetFirst(), uint64_t(h.GetFirst()) + h.GetCount()});
                }));
            server->GetEngine()->TraceConnectWithoutContext(
                "PrefillStarted",
                Callback<void, uint64_t, uint64_t, bool>(
                    [this, cellId](uint64_t imsi, uint64_t tokens, bool urgent) {
                        if (!urgent)
                        {
                            return; // a prompt's own prefill, or a recompute: IDs are local
                        }
                        ++m_prefills;
                        uint64_t& started = m_started[{cellId, imsi}];
                        started += tokens;
                        auto ids = m_ids.find({cellId, imsi});
                        const uint64_t have = ids == m_ids.end() ? 0 : ids->second.Count();
                        if (started > have)
                        {
                            std::ostringstream os;
                            os << "imsi " << imsi << " at cell " << cellId
                               << ", t = " << Simulator::Now().GetSeconds() << " s: " << started
                               << " tokens prefilled, " << have << " IDs arrived";
                            m_early.push_back(os.str());
                        }
                    }));
        }
    }

    /// \return the urgent prefills seen
    uint32_t GetPrefills() const
    {
        return m_prefills;
    }

    /// \return one line per prefill that started before its token IDs were in
    const std::vector<std::string>& GetEarly() const
    {
        return m_early;
    }

  private:
    std::map<std::pair<uint16_t, uint64_t>, RangeSet> m_ids;     //!< (cell, imsi): IDs in
    std::map<std::pair<uint16_t, uint64_t>, uint64_t> m_started; //!< (cell, imsi): prefilled
    std::vector<std::string> m_early;                            //!< violations
    uint32_t m_prefills{0};                                      //!< urgent prefills seen
};

} // namespace edgellm
} // namespace ns3

#endif // EDGE_LLM_PREFILL_TOKEN_WATCH_H
