/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LINE_SCENARIO_H
#define EDGE_LLM_LINE_SCENARIO_H

#include "backhaul-helper.h"
#include "edge-llm-helper.h"

#include "ns3/application-container.h"
#include "ns3/lte-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-epc-helper.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief N eNBs along a line, with UEs driving along it, each streaming one LLM answer.
 *
 * eNB i stands at (i EnbSpacing, 0). UE j starts at (UeStartX + j UeStartSpacing, UeY) and
 * drives along the line at UeSpeed. X2 and the backhaul join neighbours only. With Trigger
 * "a3", ns-3's A3-RSRP algorithm hands UEs over from their measurements; with "none" they stay
 * on their first cell (radio-link-failure detection is then switched off on the UEs, so the
 * radio degrades with distance instead of the UE dropping off). Each UE attaches to its
 * nearest eNB and opens its session there at SessionStart + j SessionStagger.
 *
 * Set the helpers' attributes (GetEdgeLlmHelper, GetBackhaulHelper, GetLteHelper) before
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

    /// \return the LTE helper (set its attributes before Build)
    Ptr<LteHelper> GetLteHelper() const;
    /// \return the EPC helper
    Ptr<PointToPointEpcHelper> GetEpcHelper() const;
    /// \return the edge LLM helper (set server, engine and client attributes before Build)
    Ptr<EdgeLlmHelper> GetEdgeLlmHelper() const;
    /// \return the backhaul helper (set its attributes before Build)
    Ptr<BackhaulHelper> GetBackhaulHelper() const;

    /// \return the eNB nodes, in line order
    const NodeContainer& GetEnbNodes() const;
    /// \return the UE nodes
    const NodeContainer& GetUeNodes() const;
    /// \return the eNB devices, in line order
    const NetDeviceContainer& GetEnbDevices() const;
    /// \return the UE devices
    const NetDeviceContainer& GetUeDevices() const;
    /// \return the servers, in line order
    const ApplicationContainer& GetServers() const;
    /// \return the clients, one per UE
    const ApplicationContainer& GetClients() const;
    /// \return the backhaul links, in line order
    const std::vector<BackhaulLink>& GetBackhaulLinks() const;
    /// \return the RAN observer
    Ptr<RanObserver> GetObserver() const;

  protected:
    void DoDispose() override;

  private:
    uint32_t m_enbCount;       //!< EnbCount
    double m_enbSpacing;       //!< EnbSpacing, m
    uint32_t m_ueCount;        //!< UeCount
    double m_ueStartX;         //!< UeStartX, m
    double m_ueStartSpacing;   //!< UeStartSpacing, m
    double m_ueY;              //!< UeY, m
    double m_ueSpeed;          //!< UeSpeed, m/s
    std::string m_trigger;     //!< Trigger
    Time m_sessionStart;       //!< SessionStart
    Time m_sessionStagger;     //!< SessionStagger
    uint16_t m_srsPeriodicity; //!< SrsPeriodicity (0: from UeCount)
    bool m_built{false};       //!< Build was called

    Ptr<LteHelper> m_lte;              //!< LTE
    Ptr<PointToPointEpcHelper> m_epc;  //!< EPC
    Ptr<EdgeLlmHelper> m_edge;         //!< servers and clients
    Ptr<BackhaulHelper> m_backhaul;    //!< backhaul links
    NodeContainer m_enbNodes;          //!< eNBs
    NodeContainer m_ueNodes;           //!< UEs
    NetDeviceContainer m_enbDevices;   //!< eNB devices
    NetDeviceContainer m_ueDevices;    //!< UE devices
    ApplicationContainer m_servers;    //!< servers
    ApplicationContainer m_clients;    //!< clients
    std::vector<BackhaulLink> m_links; //!< backhaul links
    Ptr<RanObserver> m_observer;       //!< observer
};

} // namespace ns3

#endif /* EDGE_LLM_LINE_SCENARIO_H */
