/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cell-layout.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CellLayout);

TypeId
CellLayout::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CellLayout").SetParent<Object>().SetGroupName("EdgeLlm");
    return tid;
}

CellLayout::~CellLayout() = default;

uint32_t
CellLayout::GetCellCount() const
{
    return static_cast<uint32_t>(GetCellPositions().size());
}

uint32_t
CellLayout::GetNearestCell(const Vector& p) const
{
    const std::vector<Vector> cells = GetCellPositions();
    NS_ABORT_MSG_IF(cells.empty(), "CellLayout::GetNearestCell: the layout has no cells");
    uint32_t best = 0;
    double bestDistance = CalculateDistanceSquared(p, cells[0]);
    for (uint32_t i = 1; i < cells.size(); ++i)
    {
        const double d = CalculateDistanceSquared(p, cells[i]);
        // Strictly closer only, so that a tie keeps the lower index.
        if (d < bestDistance)
        {
            best = i;
            bestDistance = d;
        }
    }
    return best;
}

} // namespace ns3
