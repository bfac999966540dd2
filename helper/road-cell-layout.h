/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_ROAD_CELL_LAYOUT_H
#define EDGE_LLM_ROAD_CELL_LAYOUT_H

#include "cell-layout.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Count eNBs beside a straight road, Spacing apart along it, alternating sides.
 *
 * The road is the line y = 0, from x = 0 to x = GetRoadLength() = (Count - 1) Spacing; a
 * lane is a line y = constant parallel to it, traffic driving along +x or -x. Cell i stands at
 * (i Spacing, +Offset) for even i and (i Spacing, -Offset) for odd i, z = 0; neighbours are
 * (i, i + 1). With Offset 0 this is LineCellLayout.
 */
class RoadCellLayout : public CellLayout
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RoadCellLayout();

    std::vector<Vector> GetCellPositions() const override;
    std::vector<std::pair<uint32_t, uint32_t>> GetNeighbourPairs() const override;

    /// \return the road's length, (Count - 1) Spacing, in m: it runs from x = 0 to this x
    double GetRoadLength() const;

  private:
    uint32_t m_count; //!< Count
    double m_spacing; //!< Spacing, m
    double m_offset;  //!< Offset, m
};

} // namespace ns3

#endif /* EDGE_LLM_ROAD_CELL_LAYOUT_H */
