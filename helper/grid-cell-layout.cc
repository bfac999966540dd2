/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "grid-cell-layout.h"

#include "ns3/double.h"
#include "ns3/explaining-checker.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GridCellLayout);

TypeId
GridCellLayout::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GridCellLayout")
            .SetParent<CellLayout>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<GridCellLayout>()
            .AddAttribute("Columns",
                          "eNBs along x [1, 64].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&GridCellLayout::m_columns),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 64),
                                                         "ns3::GridCellLayout::Columns",
                                                         "an integer in [1, 64]"))
            .AddAttribute("Rows",
                          "eNBs along y [1, 64].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&GridCellLayout::m_rows),
                          edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(1, 64),
                                                         "ns3::GridCellLayout::Rows",
                                                         "an integer in [1, 64]"))
            .AddAttribute(
                "Spacing",
                "Distance between neighbouring eNBs, in m (> 0).",
                DoubleValue(100),
                MakeDoubleAccessor(&GridCellLayout::m_spacing),
                edgellm::MakeFiniteNotNegativeChecker("ns3::GridCellLayout::Spacing", false));
    return tid;
}

GridCellLayout::GridCellLayout()
    : m_columns(8),
      m_rows(8),
      m_spacing(100)
{
}

std::vector<Vector>
GridCellLayout::GetCellPositions() const
{
    std::vector<Vector> cells;
    cells.reserve(m_rows * m_columns);
    for (uint32_t r = 0; r < m_rows; ++r)
    {
        for (uint32_t c = 0; c < m_columns; ++c)
        {
            cells.emplace_back(c * m_spacing, r * m_spacing, 0);
        }
    }
    return cells;
}

std::vector<std::pair<uint32_t, uint32_t>>
GridCellLayout::GetNeighbourPairs() const
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t r = 0; r < m_rows; ++r)
    {
        for (uint32_t c = 0; c < m_columns; ++c)
        {
            const uint32_t i = r * m_columns + c;
            if (c + 1 < m_columns)
            {
                pairs.emplace_back(i, i + 1);
            }
            if (r + 1 < m_rows)
            {
                pairs.emplace_back(i, i + m_columns);
            }
        }
    }
    return pairs;
}

} // namespace ns3
