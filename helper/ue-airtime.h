/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_UE_AIRTIME_H
#define EDGE_LLM_UE_AIRTIME_H

#include "ran-stack.h"

#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Keeps UEs on the air only while their sessions matter.
 *
 * A UE of a run that is not on the air costs the run almost nothing (RanStack::SetUeOnAir).
 * UeAirtime takes a UE off the air when it is added, attaches it at its attach time, and
 * takes it off the air again a leave delay after its session ends, as soon as it is
 * connected and in no handover. So the radio's work grows with the UEs that have a session
 * at a time, not with every UE of the run.
 *
 * EdgeLlmNetwork makes one when its UeAirtime attribute is "session".
 */
class UeAirtime
{
  public:
    /**
     * \param stack the RAN stack of the UEs
     * \param leaveDelay how long after its session ends a UE goes off the air (>= 0)
     * \param change told (IMSI, on the air) at every change; may be null
     */
    UeAirtime(Ptr<RanStack> stack, Time leaveDelay, const TracedCallback<uint64_t, bool>* change);
    ~UeAirtime();

    UeAirtime(const UeAirtime&) = delete;
    UeAirtime& operator=(const UeAirtime&) = delete;

    /**
     * \brief Attach a UE to a cell at a time, off the air until then.
     * \param ue its device, installed, on the air and not attached
     * \param cell the base-station device it attaches to
     * \param attach when (>= now; now attaches it at once)
     * \return its index, for SessionEnded
     */
    uint32_t Add(Ptr<NetDevice> ue, Ptr<NetDevice> cell, Time attach);

    /**
     * \brief A UE's session ended: it goes off the air after the leave delay.
     * \param index its index from Add
     */
    void SessionEnded(uint32_t index);

    /**
     * \brief A UE completed a handover, or reattached. One that had left after its session
     * came back on the air to do so (its cell had decided the handover before it left): it
     * goes off again.
     * \param imsi the UE; one not added is ignored
     */
    void Reconnected(uint64_t imsi);

    /**
     * \param index a UE's index from Add
     * \return whether it is on the air now
     */
    bool IsOnAir(uint32_t index) const;

    /// \return UEs on the air now, of those added
    uint32_t GetOnAir() const;
    /// \return the most UEs of those added on the air at once
    uint32_t GetOnAirPeak() const;
    /// \return UEs that went off the air after their sessions
    uint32_t GetLeft() const;
    /// \return how many times a UE that had left came back for a handover, and left again
    uint32_t GetReturns() const;
    /// \return how many times a leave was put off, its UE not connected or in a handover
    uint32_t GetLeaveRetries() const;

  private:
    /// One UE's state.
    struct Ue
    {
        Ptr<NetDevice> device; //!< its RAN device
        Ptr<NetDevice> cell;   //!< where it attaches
        uint64_t imsi;         //!< its IMSI
        bool onAir;            //!< on the air now
        bool ended;            //!< its session ended
        bool left;             //!< it went off the air after its session
        EventId event;         //!< its attach or its leave
    };

    /// \param index a UE: attach it, on the air
    void Attach(uint32_t index);
    /// \param index a UE: off the air, or try again if it is not connected
    void Leave(uint32_t index);
    /**
     * \param index a UE
     * \param on on the air or off
     */
    void Set(uint32_t index, bool on);

    Ptr<RanStack> m_stack;                          //!< the RAN
    Time m_leaveDelay;                              //!< after the session's end
    const TracedCallback<uint64_t, bool>* m_change; //!< told of changes
    std::vector<Ue> m_ues;                          //!< by index
    uint32_t m_onAir{0};                            //!< on the air now
    uint32_t m_peak{0};                             //!< most at once
    uint32_t m_left{0};                             //!< gone after their sessions
    uint32_t m_retries{0};                          //!< leaves put off
    uint32_t m_returns{0};                          //!< came back after leaving
    std::map<uint64_t, uint32_t> m_byImsi;          //!< index by IMSI
};

} // namespace ns3

#endif /* EDGE_LLM_UE_AIRTIME_H */
