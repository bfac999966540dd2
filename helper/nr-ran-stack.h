/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_NR_RAN_STACK_H
#define EDGE_LLM_NR_RAN_STACK_H

#include "ran-stack.h"

#include "ns3/cc-bwp-helper.h"
#include "ns3/nr-handover-algorithm.h"
#include "ns3/nr-helper.h"
#include "ns3/nr-point-to-point-epc-helper.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The RanStack of 5G-LENA's NR (nr v4.1 and later): an NrHelper with an
 * NrPointToPointEpcHelper, one band of one carrier shared by every gNB, ideal beamforming
 * towards the direct path, and ideal RRC.
 *
 * The radio is configured by the attributes below (band, bandwidth, numerology, powers, the
 * 3GPP scenario and channel condition); the manual lists the defaults. RRC is 5G-LENA's ideal
 * RRC, its default: with its real RRC the UEs never connect.
 *
 * Handovers: a planned handover is NrGnbRrc::SendHandoverRequest at the source, made only when
 * the UE and its context at the source are both CONNECTED_NORMALLY. For the a3 and a2a4
 * triggers, NrHelper::SetHandoverAlgorithmType stores the type but never makes the algorithm,
 * so this stack makes one per gNB (ns3::NrA3RsrpHandoverAlgorithm with A3Hysteresis and
 * A3TimeToTrigger, or ns3::NrA2A4RsrqHandoverAlgorithm), connects its two SAPs with the gNB's
 * NrGnbRrc and initialises it before the gNB's RRC configures any UE. PLANNED and NONE make
 * none, and switch off the UEs' radio-link-failure detection, as LteRanStack does.
 *
 * Only available when the module is built with 5G-LENA's nr module; nothing outside the
 * `nr-*` files of the module names an NR class.
 */
class NrRanStack : public RanStack
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    NrRanStack();
    ~NrRanStack() override;

    std::string GetName() const override;
    NetDeviceContainer InstallCells(const NodeContainer& nodes) override;
    NetDeviceContainer InstallUes(const NodeContainer& nodes) override;
    void AddX2(Ptr<Node> a, Ptr<Node> b) override;
    void Attach(Ptr<NetDevice> ue, Ptr<NetDevice> cell) override;
    void SetUeOnAir(Ptr<NetDevice> ue, bool on) override;
    Ptr<RanDownlink> CreateLocalBreakout(Ptr<NetDevice> cell) override;
    Ptr<RanObserver> CreateObserver() override;
    uint16_t GetCellId(Ptr<NetDevice> cell) const override;
    uint64_t GetImsi(Ptr<NetDevice> ue) const override;
    int64_t AssignStreams(const NetDeviceContainer& devices, int64_t stream) override;

    /// \return the NR helper (set its attributes before InstallCells)
    Ptr<NrHelper> GetNrHelper() const;
    /// \return the core network's helper, made now if it was not yet
    Ptr<NrPointToPointEpcHelper> GetEpcHelper();

  protected:
    /// Drops the handover algorithms, the NR and core helpers and the cells.
    void DoDispose() override;
    void DoSetTrigger(HandoverTrigger trigger) override;
    UeRrcState GetUeRrcState(Ptr<NetDevice> ue) const override;
    bool IsContextConnected(Ptr<NetDevice> cell, uint16_t rnti) const override;
    void AssignUeAddresses(const NetDeviceContainer& devices) override;
    Ipv4Address GetUeGateway() override;
    Ptr<Node> GetPgwNode() override;
    void DoRequestHandover(Ptr<NetDevice> ue,
                           Ptr<NetDevice> source,
                           uint16_t targetCellId) override;

  private:
    /// Make the band, its channel and its bandwidth part, once.
    void MakeBand();

    /**
     * \brief Make, connect and initialise the trigger's handover algorithm of a gNB.
     * \param gnb the gNB device
     */
    void InstallHandoverAlgorithm(Ptr<NetDevice> gnb);

    double m_frequency;                                 //!< CentralFrequency, Hz
    double m_bandwidth;                                 //!< Bandwidth, Hz
    uint16_t m_numerology;                              //!< Numerology
    double m_gnbTxPower;                                //!< GnbTxPower, dBm
    double m_ueTxPower;                                 //!< UeTxPower, dBm
    std::string m_scenario;                             //!< Scenario
    std::string m_condition;                            //!< ChannelCondition
    std::string m_pathloss;                             //!< PathlossModel
    std::string m_scheduler;                            //!< Scheduler
    bool m_fading;                                      //!< Fading
    uint32_t m_gnbAntennaRows;                          //!< GnbAntennaRows
    uint32_t m_gnbAntennaCols;                          //!< GnbAntennaColumns
    Ptr<NrHelper> m_nr;                                 //!< NR
    Ptr<NrPointToPointEpcHelper> m_epc;                 //!< core
    OperationBandInfo m_band;                           //!< the band (owns the bandwidth part)
    BandwidthPartInfoPtrVector m_bwps;                  //!< its bandwidth parts
    bool m_bandMade{false};                             //!< whether MakeBand ran
    std::vector<Ptr<NrHandoverAlgorithm>> m_algorithms; //!< one per gNB, for a3 and a2a4
};

} // namespace ns3

#endif /* EDGE_LLM_NR_RAN_STACK_H */
