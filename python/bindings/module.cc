/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bindings.h"

#include "ns3/input-checks.h"

#include <limits>

namespace ns3
{
namespace edgellm
{
namespace python
{

uint64_t
Count(const std::string& field, int64_t value)
{
    if (value < 0)
    {
        ThrowInvalid(field, std::to_string(value), "an integer >= 0");
    }
    return static_cast<uint64_t>(value);
}

std::string
Repr(double value)
{
    if (value == std::numeric_limits<double>::infinity())
    {
        return "inf";
    }
    if (value == -std::numeric_limits<double>::infinity())
    {
        return "-inf";
    }
    if (value != value)
    {
        return "nan";
    }
    return FormatValue(value);
}

} // namespace python
} // namespace edgellm
} // namespace ns3

// The pure models report bad input with std::invalid_argument, which pybind11 raises as
// ValueError with the same message, so no translator of their own is needed.
PYBIND11_MODULE(_edgellm, m)
{
    m.doc() = "The pure models of edge-llm: the ctHO solver, ImpactHO's accuracy model and "
              "water-filling slot, and Pallas's prefetch window; and the scenario network, "
              "built and run in this process.";
    ns3::edgellm::python::BindCtHo(m);
    ns3::edgellm::python::BindImpact(m);
    ns3::edgellm::python::BindPallas(m);
    ns3::edgellm::python::BindAttributes(m);
    ns3::edgellm::python::BindKv(m);
    ns3::edgellm::python::BindNetwork(m);
}
