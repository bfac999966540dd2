/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "road-cell-layout.h"

#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoadCellLayout);

TypeId
RoadCellLayout::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoadCellLayout")
            .SetParent<CellLayout>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<RoadCellLayout>()
            .AddAttribute("Count",
                          "eNBs along the road [1, 256].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RoadCellLayout::m_count),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 256),
                                                         "ns3::RoadCellLayout::Count",
                                                         "an integer in [1, 256]"))
            .AddAttribute(
                "Spacing",
                "Distance between neighbouring eNBs along the road, in m (> 0).",
                DoubleValue(500),
                MakeDoubleAccessor(&RoadCellLayout::m_spacing),
                edgellm::MakeFiniteNotNegativeChecker("ns3::RoadCellLayout::Spacing", false))
            .AddAttribute(
                "Offset",
                "Distance of each eNB from the road, in m (>= 0); even cells stand "
                "at +y, odd cells at -y.",
                DoubleValue(0),
                MakeDoubleAccessor(&RoadCellLayout::m_offset),
                edgellm::MakeFiniteNotNegativeChecker("ns3::RoadCellLayout::Offset", true));
    return tid;
}

RoadCellLayout::RoadCellLayout()
    : m_count(8),
      m_spacing(500),
      m_offset(0)
{
}

std::vector<Vector>
RoadCellLayout::GetCellPositions() const
{
    std::vector<Vector> cells;
    cells.reserve(m_count);
    for (uint32_t i = 0; i < m_count; ++i)
    {
        cells.emplace_back(i * m_spacing, i % 2 == 0 ? m_offset : -m_offset, 0);
    }
    return cells;
}

std::vector<std::pair<uint32_t, uint32_t>>
RoadCellLayout::GetNeighbourPairs() const
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 1; i < m_count; ++i)
    {
        pairs.emplace_back(i - 1, i);
    }
    return pairs;
}

double
RoadCellLayout::GetRoadLength() const
{
    return (m_count - 1) * m_spacing;
}

} // namespace ns3
