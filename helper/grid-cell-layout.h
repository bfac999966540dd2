/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_GRID_CELL_LAYOUT_H
#define EDGE_LLM_GRID_CELL_LAYOUT_H

#include "cell-layout.h"

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Columns x Rows eNBs on a square grid, Spacing apart.
 *
 * Cell r Columns + c (column c, row r) stands at (c Spacing, r Spacing, 0). Neighbours are
 * the 4-connected pairs: each cell with the one to its right (c + 1) and the one above it
 * (r + 1), which makes Rows (Columns - 1) + Columns (Rows - 1) pairs.
 */
class GridCellLayout : public CellLayout
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    GridCellLayout();

    std::vector<Vector> GetCellPositions() const override;
    std::vector<std::pair<uint32_t, uint32_t>> GetNeighbourPairs() const override;

  private:
    uint32_t m_columns; //!< Columns
    uint32_t m_rows;    //!< Rows
    double m_spacing;   //!< Spacing, m
};

} // namespace ns3

#endif /* EDGE_LLM_GRID_CELL_LAYOUT_H */
