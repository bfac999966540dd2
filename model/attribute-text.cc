/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-text.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>

namespace ns3
{
namespace edgellm
{

namespace
{

/// A decimal number as ns-3's readers of doubles take it: no "inf", "nan" or hexadecimal.
const std::regex DECIMAL{R"([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)"};

bool
HasSpace(const std::string& text)
{
    return std::any_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); });
}

/// The value of a decimal text (infinite beyond a double), or NaN when it is none.
double
ReadDecimal(const std::string& text)
{
    return std::regex_match(text, DECIMAL) ? std::strtod(text.c_str(), nullptr) : std::nan("");
}

std::string
UintegerProblem(const std::string& text)
{
    // The stream reader takes "-1" as 2^64 - 1.
    if (!std::regex_match(text, std::regex{R"(\+?[0-9]+)"}))
    {
        return "not a whole number";
    }
    errno = 0;
    std::strtoull(text.c_str(), nullptr, 10);
    return errno == ERANGE ? "too large" : "";
}

std::string
TimeProblem(const std::string& text)
{
    // Seconds per unit, as Time's text constructor knows them; any other unit stops the run.
    static const std::map<std::string, double> UNITS{{"", 1},
                                                     {"s", 1},
                                                     {"ms", 1e-3},
                                                     {"us", 1e-6},
                                                     {"ns", 1e-9},
                                                     {"ps", 1e-12},
                                                     {"fs", 1e-15},
                                                     {"min", 60},
                                                     {"h", 3600},
                                                     {"d", 86400},
                                                     {"y", 365 * 86400.0}};
    const std::string::size_type n = text.find_first_not_of("+-0123456789.eE");
    const auto unit = UNITS.find(n == std::string::npos ? "" : text.substr(n));
    const double number = ReadDecimal(text.substr(0, n));
    if (unit == UNITS.end() || std::isnan(number))
    {
        return "not a time, e.g. 10ms";
    }
    // Time keeps an int64 count of its resolution, and its reader does not check the range.
    return std::abs(number * unit->second) > Time::Max().GetSeconds() ? "beyond the range of a time"
                                                                      : "";
}

std::string
Ipv4Problem(const std::string& text)
{
    // The stream reader takes "abc" as 0.0.0.75 and "300.1.1.1" as 44.1.1.1.
    std::smatch m;
    if (!std::regex_match(text,
                          m,
                          std::regex{R"(([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3}))"}))
    {
        return "not an IPv4 address a.b.c.d";
    }
    for (std::size_t i = 1; i <= 4; ++i)
    {
        if (std::stoi(m[i].str()) > 255)
        {
            return "an octet above 255";
        }
    }
    return "";
}

template <typename T>
std::string
StreamProblem(const std::string& text, const std::string& what)
{
    // The readers of these types stop the run on a text with a space in it.
    if (HasSpace(text))
    {
        return "holds a space";
    }
    std::istringstream in(text);
    T read;
    in >> read;
    return in.fail() ? what : "";
}

} // namespace

std::string
AttributeTextProblem(const AttributeValue& sample, const std::string& text)
{
    if (dynamic_cast<const UintegerValue*>(&sample))
    {
        return UintegerProblem(text);
    }
    if (dynamic_cast<const DoubleValue*>(&sample))
    {
        const double x = ReadDecimal(text);
        return std::isfinite(x) ? "" : "not a finite number";
    }
    if (dynamic_cast<const TimeValue*>(&sample))
    {
        return TimeProblem(text);
    }
    if (dynamic_cast<const BooleanValue*>(&sample))
    {
        static const std::vector<std::string> NAMES{"true", "false", "t", "f", "1", "0"};
        return std::find(NAMES.begin(), NAMES.end(), text) != NAMES.end() ? "" : "not a boolean";
    }
    if (dynamic_cast<const DataRateValue*>(&sample))
    {
        return StreamProblem<DataRate>(text, "not a data rate, e.g. 10Gbps");
    }
    if (dynamic_cast<const QueueSizeValue*>(&sample))
    {
        return StreamProblem<QueueSize>(text, "not a queue size, e.g. 100p or 64000B");
    }
    if (dynamic_cast<const Ipv4AddressValue*>(&sample))
    {
        return Ipv4Problem(text);
    }
    if (dynamic_cast<const TypeIdValue*>(&sample))
    {
        TypeId tid;
        return !HasSpace(text) && TypeId::LookupByNameFailSafe(text, &tid) ? "" : "no such TypeId";
    }
    return "";
}

} // namespace edgellm
} // namespace ns3
