/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CELL_LAYOUT_H
#define EDGE_LLM_CELL_LAYOUT_H

#include "ns3/object.h"
#include "ns3/vector.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Where the eNBs of a scenario stand, and which of them are neighbours.
 *
 * A layout is geometry only: a network builder places eNB i at GetCellPositions()[i] and
 * joins the pairs of GetNeighbourPairs() with X2 and a backhaul link. Cell indices are
 * positions in these vectors, not LTE cell IDs.
 */
class CellLayout : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~CellLayout() override;

    /// \return the eNB positions, in m, with z = 0; cell i is element i
    virtual std::vector<Vector> GetCellPositions() const = 0;

    /**
     * \return the neighbouring cells, as index pairs (a, b) with a < b, each pair once; these
     * get X2 and a backhaul link
     */
    virtual std::vector<std::pair<uint32_t, uint32_t>> GetNeighbourPairs() const = 0;

    /// \return the number of cells, GetCellPositions().size()
    uint32_t GetCellCount() const;

    /**
     * \brief The cell nearest to a point, by Euclidean distance.
     * \param p the point, in m
     * \return its index; of cells at the same distance, the lowest index
     */
    uint32_t GetNearestCell(const Vector& p) const;
};

} // namespace ns3

#endif /* EDGE_LLM_CELL_LAYOUT_H */
