/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LINE_CELL_LAYOUT_H
#define EDGE_LLM_LINE_CELL_LAYOUT_H

#include "cell-layout.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Count eNBs along the x axis, Spacing apart: cell i at (i Spacing, 0, 0), neighbours
 * (i, i + 1).
 *
 * The placement of EdgeLlmLineScenario (EnbCount, EnbSpacing), as a layout.
 */
class LineCellLayout : public CellLayout
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    LineCellLayout();

    std::vector<Vector> GetCellPositions() const override;
    std::vector<std::pair<uint32_t, uint32_t>> GetNeighbourPairs() const override;

  private:
    uint32_t m_count; //!< Count
    double m_spacing; //!< Spacing, m
};

} // namespace ns3

#endif /* EDGE_LLM_LINE_CELL_LAYOUT_H */
