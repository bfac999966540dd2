/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LINE_SCENARIO_H
#define EDGE_LLM_LINE_SCENARIO_H

#include "backhaul-helper.h"
#include "edge-llm-helper.h"
#include "edge-llm-network.h"

#include "ns3/application-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A handover the "boundary" trigger plans: a UE crossing the midpoint between two
 * neighbouring eNBs.
 */
using EdgeLlmBoundaryCrossing = EdgeLlmPlannedHandover;

/**
 * \ingroup edge-llm
 * \brief N eNBs along a line, with UEs driving along it, each streaming one LLM answer.
 *
 * A front over EdgeLlmNetwork with a LineCellLayout, a PerPairBackhaulTopology and, unless
 * SetRanStack() says otherwise, an LteRanStack.
 *
 * eNB i stands at (i EnbSpacing, 0). UE j starts at (UeStartX + j UeStartSpacing, UeY), or
 * where SetUeStartPositions() puts it, stands still until MoveStart and then drives along the
 * line at UeSpeed. X2 and the backhaul join neighbours only. With Trigger "a3" (or "a2a4"), the
 * RAN stack's A3 (A2-A4) algorithm hands UEs over from their measurements; with "none" they
 * stay on their first cell;
 * with "boundary" each UE is handed over when it crosses the midpoint between two neighbouring
 * eNBs (see GetBoundaryCrossings()). With "none" and "boundary", radio-link-failure detection
 * is switched off on the UEs: the radio degrades with distance instead of the UE dropping off,
 * and with "boundary" a UE that dropped off and reattached elsewhere would no longer be in
 * the cell its next planned handover starts from. Each UE attaches to its nearest eNB and
 * opens its session there at SessionStart + j SessionStagger.
 *
 * ResidentUesPerEnb more UEs stand at each eNB (at its x, UeY off the line), attached to it,
 * each with a session of the same client attributes, so that every server has its own load.
 * They are never handed over by the plan. The UEs, their devices and their clients are
 * ordered alike: the UeCount moving UEs first, then the residents eNB by eNB; residents
 * continue the session stagger after the moving UEs.
 *
 * With InstallServing false, Build() makes the same LTE network, mobility and handovers with
 * no servers, backhaul links, clients or observer, e.g. to run other traffic on it; the
 * accessors of those parts then return empty containers and a null observer. AssignStreams()
 * draws the same streams either way.
 *
 * Set the helpers' attributes (GetEdgeLlmHelper, GetBackhaulHelper, GetRanStack) before
 * Build(); read the parts after it.
 */
class EdgeLlmLineScenario : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    EdgeLlmLineScenario();
    ~EdgeLlmLineScenario() override;

    /// Make the network and install everything. Call once.
    void Build();

    /**
     * \brief Give each moving UE its own start x, instead of UeStartX and UeStartSpacing.
     *
     * Call before Build(). Build() stops the run unless there is one value per UE (UeCount)
     * and every value is finite.
     *
     * \param x the start x of UE j in m, for j in [0, UeCount)
     */
    void SetUeStartPositions(const std::vector<double>& x);

    /**
     * \brief The handovers the "boundary" trigger requests, after Build().
     *
     * One per moving UE and midpoint ahead of it, (i + 0.5) EnbSpacing between eNB i and
     * i + 1, at MoveStart + distance / UeSpeed; none for a UE that does not move. Times count
     * from the start of the simulation (Build() is meant to run at time 0). A UE that is not
     * connected normally to the source cell at its crossing (still attaching, or in another
     * handover) is asked again every 5 ms until it is, so its handover starts later than
     * planned (GetCrossingRetries()). It is not handed over (GetSkippedCrossings()) if it is
     * connected to another cell by then, or if it is still not ready a second after the
     * crossing or at its next crossing, whichever comes first.
     *
     * \return the crossings, by UE and then by time; empty for the other triggers
     */
    const std::vector<EdgeLlmBoundaryCrossing>& GetBoundaryCrossings() const;

    /// \return how many times a crossing's handover was put off, its UE not being ready
    uint32_t GetCrossingRetries() const;

    /// \return the crossings not handed over: their UE was served by another cell, or was
    /// not ready in time
    uint32_t GetSkippedCrossings() const;

    /// \return the moving UEs (UeCount); the first ones in GetUeNodes()
    uint32_t GetMovingUeCount() const;

    /**
     * \brief Fix the random streams of the LTE devices, after Build().
     *
     * ns-3 hands out stream numbers in creation order, so without this two runs of the same
     * scenario in one process (two schemes, or two test cases) draw different fading and
     * errors. Call it with the same number in each run to compare them on equal terms.
     *
     * \param stream the first stream number to use
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Use another RAN stack than LTE (before Build). SrsPeriodicity and CqiPeriodicity
     * are given to it if it has them.
     * \param stack the stack
     */
    void SetRanStack(Ptr<RanStack> stack);
    /// \return the RAN stack (set its attributes before Build)
    Ptr<RanStack> GetRanStack() const;
    /// \return the network this scenario builds
    Ptr<EdgeLlmNetwork> GetNetwork() const;
    /// \return the edge LLM helper (set server, engine and client attributes before Build)
    Ptr<EdgeLlmHelper> GetEdgeLlmHelper() const;
    /// \return the backhaul helper (set its attributes before Build)
    Ptr<BackhaulHelper> GetBackhaulHelper() const;

    /// \return the eNB nodes, in line order
    const NodeContainer& GetEnbNodes() const;
    /// \return the UE nodes: the moving ones, then the residents eNB by eNB
    const NodeContainer& GetUeNodes() const;
    /// \return the eNB devices, in line order
    const NetDeviceContainer& GetEnbDevices() const;
    /// \return the UE devices, in the order of GetUeNodes()
    const NetDeviceContainer& GetUeDevices() const;
    /// \return the servers, in line order
    const ApplicationContainer& GetServers() const;
    /// \return the clients, one per UE, in the order of GetUeNodes()
    const ApplicationContainer& GetClients() const;
    /// \return the backhaul links, in line order
    const std::vector<BackhaulLink>& GetBackhaulLinks() const;
    /// \return the RAN observer
    Ptr<RanObserver> GetObserver() const;

  protected:
    /// Disposes of the network.
    void DoDispose() override;

  private:
    uint32_t m_enbCount;                  //!< EnbCount
    double m_enbSpacing;                  //!< EnbSpacing, m
    uint32_t m_ueCount;                   //!< UeCount
    double m_ueStartX;                    //!< UeStartX, m
    double m_ueStartSpacing;              //!< UeStartSpacing, m
    double m_ueY;                         //!< UeY, m
    double m_ueSpeed;                     //!< UeSpeed, m/s
    std::string m_trigger;                //!< Trigger
    Time m_sessionStart;                  //!< SessionStart
    Time m_sessionStagger;                //!< SessionStagger
    uint16_t m_srsPeriodicity;            //!< SrsPeriodicity (0: from UeCount)
    Time m_moveStart;                     //!< MoveStart
    Time m_cqiPeriodicity;                //!< CqiPeriodicity
    uint32_t m_residentsPerEnb;           //!< ResidentUesPerEnb
    bool m_installServing;                //!< InstallServing
    std::vector<double> m_startPositions; //!< from SetUeStartPositions, m
    bool m_startPositionsSet{false};      //!< SetUeStartPositions was called
    bool m_built{false};                  //!< Build was called

    Ptr<EdgeLlmNetwork> m_network; //!< what Build makes
};

} // namespace ns3

#endif /* EDGE_LLM_LINE_SCENARIO_H */
