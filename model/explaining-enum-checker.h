/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_EXPLAINING_ENUM_CHECKER_H
#define EDGE_LLM_EXPLAINING_ENUM_CHECKER_H

#include "explaining-checker.h"

#include "ns3/enum.h"
#include "ns3/string.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#ifndef EDGE_LLM_NS3_VERSION
#error "EDGE_LLM_NS3_VERSION (major * 100 + minor of ns-3) is defined by the module's build"
#endif

namespace ns3
{
namespace edgellm
{

#if EDGE_LLM_NS3_VERSION >= 341
/// ns-3's checker of an enum's names; ns-3.41 made it a template over the enum type.
template <typename E>
using EnumCheckerOf = EnumChecker<E>;
/// ns-3's value of an enum.
template <typename E>
using EnumValueOf = EnumValue<E>;
#else
/// ns-3's checker of an enum's names.
template <typename E>
using EnumCheckerOf = EnumChecker;
/// ns-3's value of an enum.
template <typename E>
using EnumValueOf = EnumValue;
#endif

/**
 * \ingroup edge-llm
 * \brief An EnumChecker that names the attribute and its names when it refuses a value.
 *
 * ns-3's EnumChecker refuses an unknown name without a word, and its reader cannot read one: it
 * asserts, or (without asserts) reads past the end of its list. So an unknown name is refused
 * before ns-3 reads it (StopOnUnreadableText). It stays an EnumChecker, since ns-3 reads and
 * writes an enum's names through the attribute's checker.
 *
 * \tparam E the enum type
 */
template <typename E>
class ExplainingEnumChecker : public EnumCheckerOf<E>, public AttributeExplainer
{
  public:
    /**
     * \param attribute the full name shown, e.g. "ns3::LlmEngine::IterationMode"
     * \param values each value with its name, in the order ns-3 lists them
     */
    ExplainingEnumChecker(std::string attribute,
                          const std::vector<std::pair<E, std::string>>& values)
        : m_attribute(std::move(attribute))
    {
        for (const auto& [value, name] : values)
        {
            if (m_names.empty())
            {
                this->AddDefault(Raw(value), name);
            }
            else
            {
                this->Add(Raw(value), name);
            }
            m_names.push_back(name);
        }
        m_allowed = JoinAlternatives(m_names);
    }

    /**
     * \brief Take a value of the set; refuse any other, telling which and the set.
     * \param value an EnumValue, or a text (StringValue) that ns-3 reads next
     * \return true if the value is in the set; false for a text of a name in it, which ns-3
     *         then reads and offers as a value
     */
    bool Check(const AttributeValue& value) const override
    {
        if (const auto* text = dynamic_cast<const StringValue*>(&value))
        {
            if (std::find(m_names.begin(), m_names.end(), text->Get()) == m_names.end())
            {
                StopOnUnreadableText(m_attribute, text->Get(), m_allowed, "no such name");
            }
            return false; // ns-3 reads the name next, and offers its value
        }
        if (EnumCheckerOf<E>::Check(value))
        {
            return true;
        }
        // A value given as a number: GetName would assert on it, so it is shown as one.
        if (const auto* number = dynamic_cast<const EnumValueOf<E>*>(&value))
        {
            std::cerr << AttributeRefusal(m_attribute,
                                          std::to_string(static_cast<int>(number->Get())),
                                          m_allowed,
                                          "no such value")
                      << std::endl;
        }
        return false;
    }

    /// \return the names, in words, e.g. "Separate or Mixed"
    const std::string& GetAllowed() const
    {
        return m_allowed;
    }

    std::string GetAllowedWords() const override
    {
        return m_allowed;
    }

    bool Refuses(const AttributeValue& value, std::string& reason) const override
    {
        if (EnumCheckerOf<E>::Check(value))
        {
            return false;
        }
        reason = "no such value";
        return true;
    }

  private:
    /**
     * \param value an enum value
     * \return it as ns-3's EnumChecker takes it (an int before ns-3.41)
     */
    static auto Raw(E value)
    {
#if EDGE_LLM_NS3_VERSION >= 341
        return value;
#else
        return static_cast<int>(value);
#endif
    }

    std::string m_attribute;          //!< full attribute name
    std::vector<std::string> m_names; //!< the names, in order
    std::string m_allowed;            //!< the names, in words
};

/**
 * \ingroup edge-llm
 * \brief The checker of an enum attribute that explains a refusal.
 * \tparam E the enum type
 * \param attribute the full name shown, e.g. "ns3::LlmEngine::IterationMode"
 * \param values each value with its name, in the order ns-3 lists them
 * \return the checker
 */
template <typename E>
Ptr<const AttributeChecker>
MakeExplainingEnumChecker(std::string attribute,
                          const std::vector<std::pair<E, std::string>>& values)
{
    return Create<ExplainingEnumChecker<E>>(std::move(attribute), values);
}

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_EXPLAINING_ENUM_CHECKER_H */
