/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-text.h"

#include "explaining-checker.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/global-value.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
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
    if (std::abs(number * unit->second) > Time::Max().GetSeconds())
    {
        return "beyond the range of a time";
    }
    // A time that is not 0 as typed but reads as 0 would mean what 0 means (no cycle, no
    // timeout), which is not what was asked for.
    return number != 0 && Time(text).IsZero() ? "below ns-3's time step, it would be 0" : "";
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

/// The checker of a GlobalValue of this name, or null.
Ptr<const AttributeChecker>
GlobalValueChecker(const std::string& name)
{
    for (auto i = GlobalValue::Begin(); i != GlobalValue::End(); ++i)
    {
        if ((*i)->GetName() == name)
        {
            return (*i)->GetChecker();
        }
    }
    return nullptr;
}

/// What a checker allows, in words: an explaining checker's own, else its type's.
std::string
AllowedWords(Ptr<const AttributeChecker> checker)
{
    if (const auto* explainer = dynamic_cast<const AttributeExplainer*>(PeekPointer(checker)))
    {
        return explainer->GetAllowedWords();
    }
    if (const auto* pointer = dynamic_cast<const PointerChecker*>(PeekPointer(checker)))
    {
        return "the TypeId name of a " + pointer->GetPointeeTypeId().GetName() +
               ", optionally with attributes, e.g. Name[Attribute=value|...]";
    }
    return "a value of " + checker->GetValueTypeName() +
           (checker->HasUnderlyingTypeInformation()
                ? " (" + checker->GetUnderlyingTypeInformation() + ")"
                : "");
}

std::string ValueRefusal(const std::string& name,
                         Ptr<const AttributeChecker> checker,
                         const std::string& text);

/// Why the text of an object, "Name" or "Name[a=v|b=w]", cannot be made into one.
std::string
ObjectTextProblem(TypeId base, const std::string& text)
{
    // ns-3's reader stops the run on an unknown TypeId or attribute, and reads a bracket
    // inside a value as the end of the list.
    if (HasSpace(text))
    {
        return "holds a space";
    }
    const std::string::size_type open = text.find('[');
    const std::string name = text.substr(0, open);
    TypeId tid;
    if (name.empty() || !TypeId::LookupByNameFailSafe(name, &tid))
    {
        return "no such TypeId";
    }
    if (tid != base && !tid.IsChildOf(base))
    {
        return name + " is no " + base.GetName();
    }
    if (!tid.HasConstructor())
    {
        return name + " cannot be made: it has no constructor";
    }
    if (open == std::string::npos)
    {
        return text.find(']') == std::string::npos ? "" : "a ] without a [";
    }
    if (text.back() != ']' || std::count(text.begin(), text.end(), '[') != 1 ||
        std::count(text.begin(), text.end(), ']') != 1)
    {
        return "not Name[Attribute=value|...]";
    }
    std::istringstream items(text.substr(open + 1, text.size() - open - 2));
    std::string item;
    while (std::getline(items, item, '|'))
    {
        const std::string::size_type equals = item.find('=');
        TypeId::AttributeInformation info;
        if (equals == std::string::npos ||
            !tid.LookupAttributeByName(item.substr(0, equals), &info))
        {
            return "\"" + item + "\" is no Attribute=value of " + name;
        }
        const std::string refusal = ValueRefusal(name + "::" + item.substr(0, equals),
                                                 info.checker,
                                                 item.substr(equals + 1));
        if (!refusal.empty())
        {
            return refusal;
        }
    }
    return "";
}

/// The refusal of a text given to an attribute of this checker, or an empty string.
std::string
ValueRefusal(const std::string& name, Ptr<const AttributeChecker> checker, const std::string& text)
{
    const auto* pointer = dynamic_cast<const PointerChecker*>(PeekPointer(checker));
    std::string problem = pointer ? ObjectTextProblem(pointer->GetPointeeTypeId(), text)
                                  : AttributeTextProblem(*checker->Create(), text);
    Ptr<AttributeValue> value = checker->Create();
    if (DynamicCast<StringValue>(value))
    {
        // ns-3 gives a text to a string as it is; its reader would stop the run on a space.
        value = Create<StringValue>(text);
    }
    else if (problem.empty() && HasSpace(text))
    {
        // The readers of most other types stop the run on a space, or on anything they leave.
        problem = "holds a space";
    }
    else if (problem.empty() && !value->DeserializeFromString(text, checker))
    {
        problem = "not a value of its type";
    }
    if (problem.empty())
    {
        // An explaining checker would print its refusal: it is asked for the words instead.
        if (const auto* explainer = dynamic_cast<const AttributeExplainer*>(PeekPointer(checker)))
        {
            if (!explainer->Refuses(*value, problem))
            {
                return "";
            }
        }
        else if (checker->Check(*value))
        {
            return "";
        }
    }
    return AttributeRefusal(name, text, AllowedWords(checker), problem);
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
        return DataRateTextProblem(text);
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

std::string
DataRateTextProblem(const std::string& text)
{
    if (HasSpace(text))
    {
        return "holds a space";
    }
    // As DataRate's reader splits it: the number, then the unit.
    const std::string::size_type n = text.find_first_not_of("0123456789.");
    const std::string number = text.substr(0, n);
    if (!std::regex_match(number, std::regex{R"([0-9]+\.?[0-9]*|\.[0-9]+)"}))
    {
        return "not a data rate, e.g. 10Gbps";
    }
    if (n == std::string::npos)
    {
        return "no unit, e.g. " + number + "Gbps";
    }
    std::istringstream in("1" + text.substr(n));
    DataRate unit;
    in >> unit;
    if (in.fail())
    {
        return "not a data rate, e.g. 10Gbps";
    }
    // 2^64 b/s, the first rate DataRate cannot hold.
    return std::strtod(number.c_str(), nullptr) * static_cast<double>(unit.GetBitRate()) >=
                   18446744073709551616.0
               ? "2^64 b/s or more"
               : "";
}

bool
IsGlobalValueName(const std::string& name)
{
    return GlobalValueChecker(name) != nullptr;
}

std::string
AttributeSettingRefusal(const std::string& name, const std::string& text)
{
    const std::string::size_type colons = name.rfind("::");
    if (colons == std::string::npos)
    {
        const Ptr<const AttributeChecker> checker = GlobalValueChecker(name);
        return checker ? ValueRefusal(name, checker, text) : "";
    }
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid))
    {
        return AttributeRefusal(name,
                                text,
                                "an attribute of a registered TypeId (--PrintTypeIds)",
                                "no TypeId " + name.substr(0, colons));
    }
    const std::string attribute = name.substr(colons + 2);
    TypeId owner;
    const bool found = FindAttributeOwner(tid, attribute, owner);
    if (found && owner == tid)
    {
        // As Config::SetDefault finds it: among the class's own attributes, not its parents'.
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            if (tid.GetAttribute(i).name == attribute)
            {
                return ValueRefusal(name, tid.GetAttribute(i).checker, text);
            }
        }
    }
    // An inherited attribute is set through the class that has it.
    return AttributeRefusal(
        name,
        text,
        "an attribute of " + tid.GetName() + " (--PrintAttributes=" + tid.GetName() + ")",
        !found ? "no such attribute"
               : "it is one of " + owner.GetName() + ": --" + owner.GetName() + "::" + attribute);
}

bool
FindAttributeOwner(TypeId tid, const std::string& attribute, TypeId& owner)
{
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == attribute)
            {
                owner = t;
                return true;
            }
        }
        if (t == t.GetParent())
        {
            return false;
        }
    }
}

} // namespace edgellm
} // namespace ns3
