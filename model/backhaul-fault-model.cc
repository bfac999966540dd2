/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "backhaul-fault-model.h"

#include "explaining-checker.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackhaulFaultModel");

NS_OBJECT_ENSURE_REGISTERED(BackhaulFaultModel);

TypeId
BackhaulFaultModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BackhaulFaultModel")
            .SetParent<ErrorModel>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<BackhaulFaultModel>()
            .AddAttribute("LossRate",
                          "Probability that a packet is lost outside an outage, drawn per "
                          "packet. Range [0, 1): 0 is a lossless link; 1 would be an outage, "
                          "which StartOutage() models.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&BackhaulFaultModel::m_lossRate),
                          edgellm::MakeExplainingChecker(
                              MakeDoubleChecker<double>(),
                              "ns3::BackhaulFaultModel::LossRate",
                              "a probability in [0, 1)",
                              [](const AttributeValue& v) -> std::string {
                                  const double p = static_cast<const DoubleValue&>(v).Get();
                                  return p >= 0 && p < 1 ? "" : "outside [0, 1)";
                              }))
            .AddTraceSource("Dropped",
                            "A packet was lost: to an outage (true) or to random loss (false).",
                            MakeTraceSourceAccessor(&BackhaulFaultModel::m_droppedTrace),
                            "ns3::BackhaulFaultModel::DroppedTracedCallback");
    return tid;
}

BackhaulFaultModel::BackhaulFaultModel()
    : m_lossRate(0.0),
      m_uni(CreateObject<UniformRandomVariable>())
{
}

void
BackhaulFaultModel::StartOutage()
{
    NS_LOG_FUNCTION(this);
    m_outage = true;
}

void
BackhaulFaultModel::EndOutage()
{
    NS_LOG_FUNCTION(this);
    m_outage = false;
}

bool
BackhaulFaultModel::IsInOutage() const
{
    return m_outage;
}

int64_t
BackhaulFaultModel::AssignStreams(int64_t stream)
{
    m_uni->SetStream(stream);
    return 1;
}

uint64_t
BackhaulFaultModel::GetLossDrops() const
{
    return m_lossDrops;
}

uint64_t
BackhaulFaultModel::GetOutageDrops() const
{
    return m_outageDrops;
}

bool
BackhaulFaultModel::DoCorrupt(Ptr<Packet> p)
{
    if (m_outage)
    {
        ++m_outageDrops;
        m_droppedTrace(p, true);
        return true;
    }
    // No draw on a lossless link, so adding the model does not shift other streams' draws.
    if (m_lossRate > 0 && m_uni->GetValue() < m_lossRate)
    {
        ++m_lossDrops;
        m_droppedTrace(p, false);
        return true;
    }
    return false;
}

void
BackhaulFaultModel::DoReset()
{
    m_outage = false;
}

} // namespace ns3
