/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flag-checks.h"

#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace ns3
{
namespace edgellm
{

namespace
{
/// What an output directory flag allows.
const char* const WRITABLE_DIR = "a directory that can be made and written";
} // namespace

std::string
FlagError(const std::string& flag, const std::string& value, const std::string& allowed)
{
    return "--" + flag + " = " + value + " is invalid; allowed: " + allowed;
}

bool
ParseFiniteNumber(const std::string& text, double& value)
{
    if (text.empty())
    {
        return false;
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v))
    {
        return false;
    }
    value = v;
    return true;
}

bool
ParseDataRate(const std::string& text, DataRate& rate)
{
    // DataRate's reader reports a bad text by the stream's state; its constructor aborts.
    std::istringstream in(text);
    DataRate read;
    in >> read;
    if (in.fail() || text.empty())
    {
        return false;
    }
    rate = read;
    return true;
}

bool
ParseTime(const std::string& text, Time& time)
{
    static const std::set<std::string>
        UNITS{"", "s", "ms", "us", "ns", "ps", "fs", "min", "h", "d", "y"};
    const std::string::size_type n = text.find_first_not_of("+-0123456789.eE");
    const std::string number = text.substr(0, n);
    const std::string unit = n == std::string::npos ? "" : text.substr(n);
    if (number.empty() || UNITS.count(unit) == 0)
    {
        return false;
    }
    double value = 0;
    if (!ParseFiniteNumber(number, value))
    {
        return false;
    }
    time = Time(text); // the unit is known: this cannot abort
    return true;
}

std::string
ReadRateFlag(const std::string& flag,
             const std::string& text,
             DataRate& rate,
             const std::string& example)
{
    DataRate read;
    if (!ParseDataRate(text, read) || read.GetBitRate() == 0)
    {
        return FlagError(flag, text, "a rate > 0, e.g. " + example);
    }
    rate = read;
    return "";
}

std::string
ReadTimeFlag(const std::string& flag,
             const std::string& text,
             Time& time,
             bool zeroAllowed,
             const std::string& example)
{
    Time read;
    if (!ParseTime(text, read) || read.IsStrictlyNegative() || (!zeroAllowed && read.IsZero()))
    {
        return FlagError(flag,
                         text,
                         std::string(zeroAllowed ? "a time >= 0" : "a time > 0") + ", e.g. " +
                             example);
    }
    time = read;
    return "";
}

std::vector<std::string>
SplitList(const std::string& text)
{
    std::vector<std::string> items;
    std::size_t from = 0;
    while (true)
    {
        const std::size_t comma = text.find(',', from);
        items.push_back(text.substr(from, comma == std::string::npos ? comma : comma - from));
        if (comma == std::string::npos)
        {
            return items;
        }
        from = comma + 1;
    }
}

std::string
CheckNumberFlags(const std::vector<NumberFlag>& flags, int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0)
        {
            continue;
        }
        const std::string::size_type equals = arg.find('=');
        const std::string name = arg.substr(2, equals == std::string::npos ? equals : equals - 2);
        for (const NumberFlag& f : flags)
        {
            if (f.flag != name)
            {
                continue;
            }
            const std::string value =
                equals == std::string::npos ? std::string() : arg.substr(equals + 1);
            bool ok = !value.empty();
            if (ok && f.integer)
            {
                ok = value.find_first_not_of("0123456789") == std::string::npos &&
                     value.size() <= 18; // far above any count's range, and no overflow
            }
            else if (ok)
            {
                double v = 0;
                ok = ParseFiniteNumber(value, v);
            }
            if (!ok)
            {
                return FlagError(f.flag, value, f.allowed);
            }
        }
    }
    return "";
}

std::string
CheckBooleanFlags(const std::vector<std::string>& flags, int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::string::size_type equals = arg.find('=');
        if (arg.rfind("--", 0) != 0 || equals == std::string::npos ||
            std::find(flags.begin(), flags.end(), arg.substr(2, equals - 2)) == flags.end())
        {
            continue;
        }
        std::string value = arg.substr(equals + 1);
        std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) {
            return std::tolower(c);
        });
        static const std::set<std::string> SPELLINGS{"true", "false", "t", "f", "1", "0"};
        if (SPELLINGS.count(value) == 0)
        {
            return FlagError(arg.substr(2, equals - 2), arg.substr(equals + 1), "true or false");
        }
    }
    return "";
}

std::string
CheckFlagAttributes(const std::vector<std::pair<std::string, std::string>>& flagAttributes,
                    int argc,
                    char* argv[])
{
    for (const auto& [flag, path] : flagAttributes)
    {
        // Given on the command line: "--path=value" (or "-path=value", "--path value").
        for (int i = 1; i < argc; ++i)
        {
            const std::string arg = argv[i];
            const std::string::size_type start = arg.find_first_not_of('-');
            if (start == 0 || start == std::string::npos || start > 2)
            {
                continue;
            }
            const std::string::size_type equals = arg.find('=');
            if (arg.substr(start,
                           equals == std::string::npos ? std::string::npos : equals - start) ==
                path)
            {
                const std::string value = equals != std::string::npos ? arg.substr(equals + 1)
                                          : i + 1 < argc              ? std::string(argv[i + 1])
                                                                      : std::string();
                return "--" + path + " = " + value + " is invalid here: --" + flag +
                       " sets it; allowed: --" + flag + " instead";
            }
        }
        // Set by Config::SetDefault: differs from the value its TypeId registered.
        const std::string::size_type colons = path.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        if (colons == std::string::npos ||
            !TypeId::LookupByNameFailSafe(path.substr(0, colons), &tid) ||
            !tid.LookupAttributeByName(path.substr(colons + 2), &info))
        {
            continue; // not registered in this program: nobody can have set it
        }
        const std::string now = info.initialValue->SerializeToString(info.checker);
        if (now != info.originalInitialValue->SerializeToString(info.checker))
        {
            return "--" + path + " = " + now + " is invalid here: --" + flag +
                   " sets it; allowed: --" + flag + " instead";
        }
    }
    return "";
}

std::string
PrepareOutDir(const std::string& flag, const std::string& dir)
{
    if (dir.empty())
    {
        return FlagError(flag, "\"\"", WRITABLE_DIR);
    }
    std::error_code e;
    std::filesystem::create_directories(dir, e);
    if (e)
    {
        return FlagError(flag, dir, WRITABLE_DIR) + " (cannot create it: " + e.message() + ")";
    }
    // A probe file rather than permission bits: it also catches a full or read-only mount.
    const std::string probe = dir + "/.edge-llm-write-test";
    const bool written = static_cast<bool>(std::ofstream(probe));
    std::filesystem::remove(probe, e);
    if (!written)
    {
        return FlagError(flag, dir, WRITABLE_DIR) + " (cannot write there)";
    }
    return "";
}

} // namespace edgellm
} // namespace ns3
