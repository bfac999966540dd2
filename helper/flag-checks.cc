/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flag-checks.h"

#include "ran-stack.h"

#include "ns3/attribute-text.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
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

/// CommandLine's own requests, its General Arguments: left to it.
const std::set<std::string> GENERAL_ARGUMENTS{"PrintHelp",
                                              "help",
                                              "PrintGlobals",
                                              "PrintGroups",
                                              "PrintGroup",
                                              "PrintTypeIds",
                                              "PrintAttributes",
                                              "PrintVersion",
                                              "version"};

/// The flags a CommandLine's help lists under its Program Options.
std::set<std::string>
ProgramFlags(const CommandLine& cmd)
{
    std::ostringstream help;
    cmd.PrintHelp(help);
    const std::string text = help.str();
    const std::string::size_type from = text.find("Program Options:");
    const std::string options =
        from == std::string::npos ? "" : text.substr(from, text.find("General Arguments:") - from);
    std::set<std::string> flags;
    const std::regex line{R"(\n\s+--([^:=\s]+):)"};
    for (auto m = std::sregex_iterator(options.begin(), options.end(), line);
         m != std::sregex_iterator();
         ++m)
    {
        flags.insert((*m)[1].str());
    }
    return flags;
}

/// The refusal of a numeric flag's text, as typed, or an empty string.
std::string
NumberProblem(const NumberFlag& f, const std::string& value)
{
    double v = 0;
    bool ok = !value.empty();
    if (ok && f.integer)
    {
        // Digits only, few enough to be read exactly, so that "-3" cannot wrap around.
        ok = value.find_first_not_of("0123456789") == std::string::npos && value.size() <= 15;
        v = ok ? std::strtod(value.c_str(), nullptr) : 0;
        ok = ok && v <= std::min(f.max, 4294967295.0);
    }
    else if (ok)
    {
        ok = ParseFiniteNumber(value, v) && v <= f.max;
    }
    ok = ok && (f.aboveMin ? v > f.min : v >= f.min);
    return ok ? "" : FlagError(f.flag, value, f.allowed);
}

/// The refusal of a boolean flag's text, or an empty string.
std::string
BooleanProblem(const std::string& flag, const std::string& value)
{
    std::string lower = value;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return std::tolower(c);
    });
    static const std::set<std::string> SPELLINGS{"true", "false", "t", "f", "1", "0"};
    return SPELLINGS.count(lower) == 0 ? FlagError(flag, value, "true or false") : "";
}

/// A problem of a text in parentheses, unless it says no more than the allowed words' example.
std::string
Reason(const std::string& problem)
{
    return problem.rfind("not a ", 0) == 0 ? "" : " (" + problem + ")";
}

/// The number a time's text starts with, with its sign, as typed.
double
TypedNumber(const std::string& text)
{
    return std::strtod(text.c_str(), nullptr);
}
} // namespace

std::string
FlagError(const std::string& flag, const std::string& value, const std::string& allowed)
{
    return "--" + flag + " = " + value + " is invalid; allowed: " + allowed;
}

std::string
CheckNumber(const NumberFlag& flag, const std::string& value)
{
    return NumberProblem(flag, value);
}

bool
ParseFiniteNumber(const std::string& text, double& value)
{
    static const std::regex DECIMAL{R"([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)"};
    if (!std::regex_match(text, DECIMAL))
    {
        return false;
    }
    const double v = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(v))
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
    if (!DataRateTextProblem(text).empty())
    {
        return false;
    }
    std::istringstream in(text);
    DataRate read;
    in >> read;
    if (in.fail())
    {
        return false;
    }
    rate = read;
    return true;
}

bool
ParseTime(const std::string& text, Time& time)
{
    if (!AttributeTextProblem(TimeValue(), text).empty())
    {
        return false;
    }
    time = Time(text); // a known unit, within range: this neither aborts nor wraps around
    return true;
}

std::string
ReadRateFlag(const std::string& flag,
             const std::string& text,
             DataRate& rate,
             const std::string& example)
{
    const std::string allowed = "a rate > 0, e.g. " + example;
    const std::string problem = DataRateTextProblem(text);
    if (!problem.empty())
    {
        return FlagError(flag, text, allowed) + Reason(problem);
    }
    DataRate read;
    if (!ParseDataRate(text, read) || read.GetBitRate() == 0)
    {
        return FlagError(flag, text, allowed);
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
    const std::string allowed =
        std::string(zeroAllowed ? "a time >= 0" : "a time > 0") + ", e.g. " + example;
    const std::string problem = AttributeTextProblem(TimeValue(), text);
    if (!problem.empty())
    {
        return FlagError(flag, text, allowed) + Reason(problem);
    }
    const Time read(text);
    if (TypedNumber(text) < 0)
    {
        return FlagError(flag, text, allowed);
    }
    if (!zeroAllowed && read.IsZero())
    {
        return FlagError(flag, text, allowed);
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
            if (f.flag == name)
            {
                const std::string bad = NumberProblem(
                    f,
                    equals == std::string::npos ? std::string() : arg.substr(equals + 1));
                if (!bad.empty())
                {
                    return bad;
                }
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
        const std::string bad = BooleanProblem(arg.substr(2, equals - 2), arg.substr(equals + 1));
        if (!bad.empty())
        {
            return bad;
        }
    }
    return "";
}

std::string
CheckArguments(const CommandLine& cmd,
               const std::vector<NumberFlag>& numbers,
               const std::vector<std::string>& booleans,
               int argc,
               char* argv[])
{
    const std::set<std::string> flags = ProgramFlags(cmd);
    std::map<std::string, std::string> given;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        // CommandLine takes one or two dashes.
        const std::string::size_type start = arg.find_first_not_of('-');
        if (start == 0 || start == std::string::npos || start > 2)
        {
            return "\"" + arg +
                   "\" is invalid; allowed: --flag=value arguments, the flags --help lists";
        }
        const std::string::size_type equals = arg.find('=');
        const std::string name =
            arg.substr(start, equals == std::string::npos ? equals : equals - start);
        const bool hasValue = equals != std::string::npos;
        const std::string value = hasValue ? arg.substr(equals + 1) : "";
        if (GENERAL_ARGUMENTS.count(name) > 0)
        {
            continue;
        }
        if (const auto first = given.find(name); first != given.end())
        {
            return FlagError(name, value, "one value, given once") + " (--" + name +
                   " is given more than once, first = " + first->second + ")";
        }
        given.emplace(name, value);
        const bool boolean = std::find(booleans.begin(), booleans.end(), name) != booleans.end();
        const bool setting = name.find("::") != std::string::npos || IsGlobalValueName(name);
        if (!setting && flags.count(name) == 0)
        {
            return FlagError(name, value, "the flags --help lists") + " (--" + name +
                   " is none of them)";
        }
        if (!hasValue && !boolean)
        {
            return FlagError(name, "(no value)", "--" + name + "=<value>, as --help describes it");
        }
        const auto number = std::find_if(numbers.begin(),
                                         numbers.end(),
                                         [&name](const NumberFlag& f) { return f.flag == name; });
        std::string bad = setting                   ? AttributeSettingRefusal(name, value)
                          : number != numbers.end() ? NumberProblem(*number, value)
                                                    : "";
        // CommandLine prints its whole help for an empty value, and reads a text flag only up
        // to a space ("--moveStart=1 s" would be 1 s, "--outDir=my dir" my).
        if (bad.empty() && !setting && !boolean && number == numbers.end() && value.empty())
        {
            bad = FlagError(name, "\"\"", "a value, as --help describes it");
        }
        if (bad.empty() && !setting && !boolean &&
            std::any_of(value.begin(), value.end(), [](unsigned char c) {
                return std::isspace(c);
            }))
        {
            bad = FlagError(name, "\"" + value + "\"", "a value without spaces");
        }
        if (bad.empty() && boolean && hasValue)
        {
            bad = BooleanProblem(name, value);
        }
        if (!bad.empty())
        {
            return bad;
        }
    }
    return "";
}

bool
IsFlagGiven(const std::string& flag, int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::string::size_type start = arg.find_first_not_of('-');
        if (start >= 1 && start <= 2 && arg.compare(start, flag.size(), flag) == 0 &&
            (arg.size() == start + flag.size() || arg[start + flag.size()] == '='))
        {
            return true;
        }
    }
    return false;
}

std::string
GivenValue(const std::string& flag, int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::string::size_type start = arg.find_first_not_of('-');
        if (start >= 1 && start <= 2 && arg.compare(start, flag.size() + 1, flag + "=") == 0)
        {
            return arg.substr(start + flag.size() + 1);
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

std::string
CheckRanFlag(const std::string& flag, const std::string& ran)
{
    if (ran != "lte" && ran != "nr")
    {
        return FlagError(flag, ran, "lte or nr");
    }
    if (!IsRanStackAvailable(ran))
    {
        return "--" + flag +
               " = nr is invalid here: this build of edge-llm has no NR support (it needs "
               "5G-LENA's nr module in the ns-3 tree); allowed: lte";
    }
    return "";
}

} // namespace edgellm
} // namespace ns3
