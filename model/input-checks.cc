/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "input-checks.h"

#include <cmath>
#include <cstdlib>
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
    // The shortest text that reads back as the same double: 0.1, not 0.10000000000000001.
    std::string text;
    for (int digits = 6; digits <= 17; ++digits)
    {
        std::ostringstream os;
        os.precision(digits);
        os << value;
        text = os.str();
        if (!std::isfinite(value) || std::strtod(text.c_str(), nullptr) == value)
        {
            break;
        }
    }
    return text;
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
