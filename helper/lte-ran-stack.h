/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LTE_RAN_STACK_H
#define EDGE_LLM_LTE_RAN_STACK_H

#include "lte-radio-defaults.h"
#include "ran-stack.h"

#include "ns3/lte-helper.h"
#include "ns3/point-to-point-epc-helper.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The RanStack of ns-3's LTE: an LteHelper with a PointToPointEpcHelper.
 *
 * The trigger chooses the eNBs' handover algorithm: ns3::A3RsrpHandoverAlgorithm,
 * ns3::A2A4RsrqHandoverAlgorithm, or ns3::NoOpHandoverAlgorithm for PLANNED and NONE. For
 * A3, SetTrigger applies A3Preset; an algorithm attribute set through
 * GetLteHelper()->SetHandoverAlgorithmAttribute after SetTrigger wins over it. A
 * planned handover is LteEnbRrc::SendHandoverRequest at the source, made only when the UE and
 * its context at the source are both CONNECTED_NORMALLY: ns-3 stops the run otherwise.
 *
 * With MeasurementReportPeriod above zero, every eNB asks its UEs for a periodic report of
 * the strongest cells, which the observer turns into RanObserver::MeasurementReport events.
 *
 * The EPC helper is made on first use (GetEpcHelper, or SetTrigger, which a network builder
 * calls first), with the core's link delays of S1uLinkDelay, S5LinkDelay and X2LinkDelay;
 * set them before. Set the LTE and EPC helpers' other attributes (GetLteHelper, GetEpcHelper)
 * before InstallCells. The first InstallCells applies RlcUmReorderingTimer and PathlossModel
 * (see ApplyLteRadioDefaults): a setting of ns-3's own attribute on the command line wins.
 */
class LteRanStack : public RanStack
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    LteRanStack();
    ~LteRanStack() override;

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

    /// \return the LTE helper (set its attributes before InstallCells)
    Ptr<LteHelper> GetLteHelper() const;
    /// \return the EPC helper, made now if it was not yet
    Ptr<PointToPointEpcHelper> GetEpcHelper();

  protected:
    /// Drops the LTE and EPC helpers and the cells.
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
    /// Set the SRS periodicity of every eNB, from the UEs installed when it is 0.
    void ConfigureSrs();

    Time m_s5Delay; //!< S5LinkDelay
    /// \return the radio settings of the attributes
    LteRadioDefaults RadioDefaults() const;

    Time m_rlcReordering;             //!< RlcUmReorderingTimer
    std::string m_a3Preset;           //!< A3Preset
    std::string m_pathloss;           //!< PathlossModel
    Ptr<LteHelper> m_lte;             //!< LTE
    Ptr<PointToPointEpcHelper> m_epc; //!< EPC
    uint16_t m_srsPeriodicity;        //!< SrsPeriodicity (0: from the UEs)
    Time m_cqiPeriodicity;            //!< CqiPeriodicity
    Time m_measurementPeriod;         //!< MeasurementReportPeriod (0: none)
    uint32_t m_ues{0};                //!< UEs installed
};

} // namespace ns3

#endif /* EDGE_LLM_LTE_RAN_STACK_H */
