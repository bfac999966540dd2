/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_PYTHON_BINDINGS_H
#define EDGE_LLM_PYTHON_BINDINGS_H

#include <cstdint>
#include <pybind11/pybind11.h>
#include <string>

namespace ns3
{
namespace edgellm
{
namespace python
{

/**
 * \brief A token count from Python.
 *
 * Python integers are signed; taking them as uint64_t would make pybind11 refuse a negative
 * one with a TypeError that names no field, so they arrive as int64_t and are refused here,
 * by name, as the pure models refuse their other fields (std::invalid_argument, ValueError).
 *
 * \param field the name of the input, for the message
 * \param value the value given
 * \return value as a count
 */
uint64_t Count(const std::string& field, int64_t value);

/**
 * \brief The shortest text that reads back as the same double, for __repr__.
 * \param value a number
 * \return its text
 */
std::string Repr(double value);

/// \param m the module; adds the compute model and the ctHO solver
void BindCtHo(pybind11::module_& m);
/// \param m the module; adds the accuracy model and ImpactHO's water-filling slot
void BindImpact(pybind11::module_& m);
/// \param m the module; adds Pallas's prefetch-window model
void BindPallas(pybind11::module_& m);
/// \param m the module; adds the lookups of ns-3 attributes by name
void BindAttributes(pybind11::module_& m);
/// \param m the module; adds the KV-cache profile and a backhaul rate in tokens/s
void BindKv(pybind11::module_& m);
/// \param m the module; adds the scenario network built and run in this process
void BindNetwork(pybind11::module_& m);

} // namespace python
} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_PYTHON_BINDINGS_H */
