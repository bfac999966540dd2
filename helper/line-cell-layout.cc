/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "line-cell-layout.h"

#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(LineCellLayout);

TypeId
LineCellLayout::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LineCellLayout")
            .SetParent<CellLayout>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<LineCellLayout>()
            .AddAttribute("Count",
                          "eNBs along the line [1, 64].",
                          UintegerValue(3),
                          MakeUintegerAccessor(&LineCellLayout::m_count),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 64),
                                                         "ns3::LineCellLayout::Count",
                                                         "an integer in [1, 64]"))
            .AddAttribute(
                "Spacing",
                "Distance between neighbouring eNBs, in m (> 0).",
                DoubleValue(500),
                MakeDoubleAccessor(&LineCellLayout::m_spacing),
                edgellm::MakeFiniteNotNegativeChecker("ns3::LineCellLayout::Spacing", false));
    return tid;
}

LineCellLayout::LineCellLayout()
    : m_count(3),
      m_spacing(500)
{
}

std::vector<Vector>
LineCellLayout::GetCellPositions() const
{
    std::vector<Vector> cells;
    cells.reserve(m_count);
    for (uint32_t i = 0; i < m_count; ++i)
    {
        // Written as EdgeLlmLineScenario writes it, so that both give the same doubles.
        cells.emplace_back(i * m_spacing, 0, 0);
    }
    return cells;
}

std::vector<std::pair<uint32_t, uint32_t>>
LineCellLayout::GetNeighbourPairs() const
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 1; i < m_count; ++i)
    {
        pairs.emplace_back(i - 1, i);
    }
    return pairs;
}

} // namespace ns3
