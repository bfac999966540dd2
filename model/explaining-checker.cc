/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "explaining-checker.h"

#include "ns3/double.h"
#include "ns3/nstime.h"
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
class ExplainingChecker : public AttributeChecker
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
    }

    bool Check(const AttributeValue& value) const override
    {
        // A value of another type (a StringValue from the command line) is first offered as
        // it is, then converted and offered again: only the second offer is explained.
        const Ptr<AttributeValue> sample = m_base->Create();
        if (typeid(value) != typeid(*sample))
        {
            return m_base->Check(value);
        }
        std::string reason;
        if (m_base->Check(value))
        {
            reason = m_reject ? m_reject(value) : "";
            if (reason.empty())
            {
                return true;
            }
        }
        const std::string message = m_attribute + " = " + value.SerializeToString(m_base) +
                                    " is invalid; allowed: " + m_allowed +
                                    (reason.empty() ? "" : " (" + reason + ")");
        // ns-3 offers a string value twice (as given, then converted): say it once.
        if (message != m_lastMessage)
        {
            std::cerr << message << std::endl;
            m_lastMessage = message;
        }
        return false;
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
    mutable std::string m_lastMessage;                          //!< the last refusal printed
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
