/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_EXAMPLE_FORMAT_H
#define EDGE_LLM_EXAMPLE_FORMAT_H

// How the examples print a time in their tables.

#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

/**
 * \param seconds a time in seconds; NaN when not measured
 * \return it in ms with one decimal, or "-" when not measured
 */
inline std::string
FormatMs(double seconds)
{
    if (std::isnan(seconds))
    {
        return "-";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << seconds * 1e3;
    return os.str();
}

#endif /* EDGE_LLM_EXAMPLE_FORMAT_H */
