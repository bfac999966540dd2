/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CTHO_PAPER_SCENARIO_H
#define CTHO_PAPER_SCENARIO_H

#include "ns3/ctho-solver.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief One UE drawn for the ctHO paper's line scenario.
 */
struct CtHoPaperUe
{
    double startX{0};          //!< position where the UE starts moving, m
    double handoverTime{0};    //!< tau_i: when it crosses the cell boundary, s
    uint64_t contextTokens{0}; //!< C_i, tokens
};

/**
 * \ingroup edge-llm
 * \brief Draws the inputs of the ctHO paper's scenario.
 *
 * Two base stations on a line at x = 0 and x = BsDistance. K UEs start at x ~ U[MinStartX,
 * MaxStartX] and move away from the first at Speed from MoveStart on; each hands over when it
 * crosses BsDistance / 2, so tau_i = MoveStart + (BsDistance / 2 - x_i) / Speed. Contexts are
 * C_i ~ U{MinContext, ..., MaxContext}. The defaults are the paper's: K = 4, C ~ U[1024,
 * 3072], base stations 300 m apart, x ~ U[120, 130] m, 20 m/s.
 *
 * Draw the inputs once per run and give the same draw to every scheme compared; call
 * AssignStreams for reproducible draws.
 */
class CtHoPaperScenario : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a scenario with the paper's defaults.
    CtHoPaperScenario();
    ~CtHoPaperScenario() override;

    /**
     * \brief Fix the random streams used by Draw().
     * \param stream first stream index
     * \return the number of streams used (2)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Draw the K UEs. Inconsistent attributes stop the run with their names.
     * \return the UEs, in the order drawn
     */
    std::vector<CtHoPaperUe> Draw();

    /**
     * \param ues a draw
     * \return the solver's view of it
     */
    static std::vector<CtHoUe> ToSolverUes(const std::vector<CtHoPaperUe>& ues);

  protected:
    /// Drops the random variables of the start positions and contexts.
    void DoDispose() override;

  private:
    uint32_t m_ueCount;                     //!< UeCount
    uint64_t m_minContext;                  //!< MinContext, tokens
    uint64_t m_maxContext;                  //!< MaxContext, tokens
    double m_bsDistance;                    //!< BsDistance, m
    double m_minStartX;                     //!< MinStartX, m
    double m_maxStartX;                     //!< MaxStartX, m
    double m_speed;                         //!< Speed, m/s
    double m_moveStart;                     //!< MoveStart, s
    Ptr<UniformRandomVariable> m_startRv;   //!< start positions
    Ptr<UniformRandomVariable> m_contextRv; //!< contexts
};

} // namespace ns3

#endif /* CTHO_PAPER_SCENARIO_H */
