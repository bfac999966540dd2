/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "per-pair-backhaul-topology.h"

#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/pointer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PerPairBackhaulTopology");
NS_OBJECT_ENSURE_REGISTERED(PerPairBackhaulTopology);

TypeId
PerPairBackhaulTopology::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PerPairBackhaulTopology")
            .SetParent<BackhaulTopology>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<PerPairBackhaulTopology>()
            .AddAttribute("Helper",
                          "The BackhaulHelper that makes the links; null (the default) for one "
                          "with its default attributes.",
                          PointerValue(),
                          MakePointerAccessor(&PerPairBackhaulTopology::m_helper),
                          MakePointerChecker<BackhaulHelper>());
    return tid;
}

PerPairBackhaulTopology::PerPairBackhaulTopology() = default;
PerPairBackhaulTopology::~PerPairBackhaulTopology() = default;

void
PerPairBackhaulTopology::DoDispose()
{
    m_helper = nullptr;
    BackhaulTopology::DoDispose();
}

Ptr<BackhaulHelper>
PerPairBackhaulTopology::GetBackhaulHelper()
{
    if (!m_helper)
    {
        m_helper = CreateObject<BackhaulHelper>();
    }
    return m_helper;
}

std::vector<BackhaulPath>
PerPairBackhaulTopology::Install(const NodeContainer& cells,
                                 const std::vector<std::pair<uint32_t, uint32_t>>& neighbourPairs)
{
    CheckPairs(cells, neighbourPairs, "PerPairBackhaulTopology::Install");
    Ptr<BackhaulHelper> helper = GetBackhaulHelper();
    DataRateValue fixedRate;
    TimeValue fixedDelay;
    helper->GetAttribute("DataRate", fixedRate);
    helper->GetAttribute("Delay", fixedDelay);
    std::vector<BackhaulPath> paths;
    for (const auto& [a, b] : neighbourPairs)
    {
        const DataRate rate = NextRate(fixedRate.Get());
        const Time delay = NextDelay(fixedDelay.Get());
        // Touch only what was drawn, so a run without distributions makes its links exactly
        // as BackhaulHelper alone would.
        const bool drawn = rate != fixedRate.Get() || delay != fixedDelay.Get();
        if (drawn)
        {
            helper->SetAttribute("DataRate", DataRateValue(rate));
            helper->SetAttribute("Delay", TimeValue(delay));
        }
        const BackhaulLink link = helper->Install(cells.Get(a), cells.Get(b));
        if (drawn)
        {
            helper->SetAttribute("DataRate", fixedRate);
            helper->SetAttribute("Delay", fixedDelay);
        }

        // The link's own attributes, in case the helper was reconfigured between installs.
        DataRateValue linkRate;
        TimeValue linkDelay;
        link.devices.Get(0)->GetAttribute("DataRate", linkRate);
        link.devices.Get(0)->GetChannel()->GetAttribute("Delay", linkDelay);
        const uint32_t id = AddSegment(linkRate.Get(), linkDelay.Get(), link.devices);
        paths.push_back({a,
                         b,
                         link.nodeA,
                         link.nodeB,
                         link.addressA,
                         link.addressB,
                         linkRate.Get(),
                         linkDelay.Get(),
                         {id}});
    }
    return paths;
}

} // namespace ns3
