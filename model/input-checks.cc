/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "input-checks.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace edgellm
{

void
ThrowInvalid(const std::string& field, const std::string& given, const std::string& allowed)
{
    throw std::invalid_argument(field + " = " + given + " is invalid; allowed: " + allowed);
}

std::string
FormatValue(double value)
{
    std::ostringstream os;
    os.precision(17);
    os << value;
    return os.str();
}

double
RequireNonNegative(const std::string& field, double value)
{
    // Written so that NaN fails the test as well.
    if (!(std::isfinite(value) && value >= 0.0))
    {
        ThrowInvalid(field, FormatValue(value), "a finite number >= 0");
    }
    return value;
}

double
RequirePositive(const std::string& field, double value)
{
    if (!(std::isfinite(value) && value > 0.0))
    {
        ThrowInvalid(field, FormatValue(value), "a finite number > 0");
    }
    return value;
}

std::string
JoinNames(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
    {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

} // namespace edgellm
} // namespace ns3
