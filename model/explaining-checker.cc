/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "explaining-checker.h"

#include "attribute-text.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fatal-error.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <iostream>
#include <typeinfo>

namespace ns3
{
namespace edgellm
{

namespace
{

/// Delegates everything to the base checker, and explains a refusal.
class ExplainingChecker : public AttributeChecker, public AttributeExplainer
{
  public:
    ExplainingChecker(Ptr<const AttributeChecker> base,
                      std::string attribute,
                      std::string allowed,
                      std::function<std::string(const AttributeValue&)> reject)
        : m_base(base),
          m_attribute(std::move(attribute)),
          m_allowed(std::move(allowed)),
          m_reject(std::move(reject))
    {
        // ns-3 reads and writes an enum's names through the attribute's checker, which must
        // then be an EnumChecker.
        NS_ABORT_MSG_IF(m_base->GetValueTypeName().rfind("ns3::EnumValue", 0) == 0,
                        m_attribute << ": an enum takes MakeExplainingEnumChecker");
    }

    bool Check(const AttributeValue& value) const override
    {
        // A value of another type (a StringValue from the command line) is first offered as
        // it is, then read and offered again: only the second offer is explained, unless the
        // text cannot be read at all.
        const Ptr<AttributeValue> sample = m_base->Create();
        if (typeid(value) != typeid(*sample))
        {
            const auto* text = dynamic_cast<const StringValue*>(&value);
            if (text)
            {
                const std::string problem = AttributeTextProblem(*sample, text->Get());
                if (!problem.empty())
                {
                    StopOnUnreadableText(m_attribute, text->Get(), m_allowed, problem);
                }
            }
            return m_base->Check(value);
        }
        std::string reason;
        if (!Refuses(value, reason))
        {
            return true;
        }
        const std::string message =
            AttributeRefusal(m_attribute, value.SerializeToString(m_base), m_allowed, reason);
        // ns-3 offers a refused text of a string attribute twice, as given and then as read
        // back from itself: the second offer is not told. Any other refusal is, even when the
        // same value is refused again later.
        const bool text = dynamic_cast<const StringValue*>(&value) != nullptr;
        if (text && message == m_lastMessage)
        {
            m_lastMessage.clear();
            return false;
        }
        std::cerr << message << std::endl;
        m_lastMessage = text ? message : "";
        return false;
    }

    std::string GetAllowedWords() const override
    {
        return m_allowed;
    }

    bool Refuses(const AttributeValue& value, std::string& reason) const override
    {
        if (!m_base->Check(value))
        {
            return true;
        }
        reason = m_reject ? m_reject(value) : "";
        return !reason.empty();
    }

    std::string GetValueTypeName() const override
    {
        return m_base->GetValueTypeName();
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return m_base->HasUnderlyingTypeInformation();
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        return m_base->GetUnderlyingTypeInformation();
    }

    Ptr<AttributeValue> Create() const override
    {
        return m_base->Create();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        return m_base->Copy(source, destination);
    }

  private:
    Ptr<const AttributeChecker> m_base;                         //!< type and range
    std::string m_attribute;                                    //!< full attribute name
    std::string m_allowed;                                      //!< allowed values, in words
    std::function<std::string(const AttributeValue&)> m_reject; //!< extra test, may be empty
    mutable std::string m_lastMessage;                          //!< a text's refusal, told once
};

} // namespace

Ptr<const AttributeChecker>
MakeExplainingChecker(Ptr<const AttributeChecker> base,
                      std::string attribute,
                      std::string allowed,
                      std::function<std::string(const AttributeValue&)> reject)
{
    return Create<ExplainingChecker>(base,
                                     std::move(attribute),
                                     std::move(allowed),
                                     std::move(reject));
}

std::string
AttributeRefusal(const std::string& attribute,
                 const std::string& given,
                 const std::string& allowed,
                 const std::string& reason)
{
    return attribute + " = " + given + " is invalid; allowed: " + allowed +
           (reason.empty() ? "" : " (" + reason + ")");
}

void
StopOnUnreadableText(const std::string& attribute,
                     const std::string& text,
                     const std::string& allowed,
                     const std::string& reason)
{
    // The refusal has a line of its own, as every refusal does, so that a caller reading the
    // output (the Python package) finds it the same way.
    std::cerr << AttributeRefusal(attribute, text, allowed, reason) << std::endl;
    NS_FATAL_ERROR(attribute << ": stopped on a text that is no value of its type");
}

std::string
JoinAlternatives(const std::vector<std::string>& names)
{
    std::string words;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        words += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
    return words;
}

Ptr<const AttributeChecker>
MakeExplainingBooleanChecker(std::string attribute)
{
    return MakeExplainingChecker(MakeBooleanChecker(), std::move(attribute), "true or false");
}

Ptr<const AttributeChecker>
MakeTimeNotNegativeChecker(std::string attribute, bool zeroAllowed)
{
    return MakeExplainingChecker(MakeTimeChecker(),
                                 std::move(attribute),
                                 zeroAllowed ? "a time >= 0" : "a time > 0",
                                 [zeroAllowed](const AttributeValue& v) -> std::string {
                                     const Time t = static_cast<const TimeValue&>(v).Get();
                                     if (t.IsStrictlyNegative())
                                     {
                                         return "negative";
                                     }
                                     return !zeroAllowed && t.IsZero() ? "zero" : "";
                                 });
}

Ptr<const AttributeChecker>
MakeTimeRangeChecker(std::string attribute, Time max, std::string allowed)
{
    return MakeExplainingChecker(MakeTimeChecker(),
                                 std::move(attribute),
                                 std::move(allowed),
                                 [max](const AttributeValue& v) {
                                     const Time t = static_cast<const TimeValue&>(v).Get();
                                     return !t.IsStrictlyNegative() && t <= max ? ""
                                                                                : "out of range";
                                 });
}

Ptr<const AttributeChecker>
MakeTimeRangeChecker(std::string attribute, Time min, Time max, std::string allowed)
{
    return MakeExplainingChecker(MakeTimeChecker(),
                                 std::move(attribute),
                                 std::move(allowed),
                                 [min, max](const AttributeValue& v) {
                                     const Time t = static_cast<const TimeValue&>(v).Get();
                                     return t >= min && t <= max ? "" : "out of range";
                                 });
}

Ptr<const AttributeChecker>
MakeFiniteNotNegativeChecker(std::string attribute, bool zeroAllowed)
{
    return MakeExplainingChecker(MakeDoubleChecker<double>(),
                                 std::move(attribute),
                                 zeroAllowed ? "a finite number >= 0" : "a finite number > 0",
                                 [zeroAllowed](const AttributeValue& v) -> std::string {
                                     const double x = static_cast<const DoubleValue&>(v).Get();
                                     if (!std::isfinite(x))
                                     {
                                         return "not finite";
                                     }
                                     if (x < 0)
                                     {
                                         return "negative";
                                     }
                                     return !zeroAllowed && x == 0 ? "zero" : "";
                                 });
}

Ptr<const AttributeChecker>
MakeEnbPortChecker(std::string attribute)
{
    return MakeExplainingChecker(MakeUintegerChecker<uint16_t>(1, 65535),
                                 std::move(attribute),
                                 "an integer in [1, 65535] other than 2152, 2123 and 4444",
                                 [](const AttributeValue& v) -> std::string {
                                     const auto port = static_cast<const UintegerValue&>(v).Get();
                                     return port == 2152 || port == 2123 || port == 4444
                                                ? "the EPC uses that port on eNB nodes"
                                                : "";
                                 });
}

} // namespace edgellm
} // namespace ns3
