/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_EXPLAINING_CHECKER_H
#define EDGE_LLM_EXPLAINING_CHECKER_H

#include "ns3/attribute.h"
#include "ns3/nstime.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm
 * \brief What an explaining checker says of a value, without saying it on stderr.
 *
 * A program that checks its command line before ns-3 reads it (AttributeSettingRefusal) asks
 * the checker for the words of a refusal, and prints them as its one line.
 */
class AttributeExplainer
{
  public:
    virtual ~AttributeExplainer() = default;

    /// \return the allowed values, in words, e.g. "an integer in [1, 4096]"
    virtual std::string GetAllowedWords() const = 0;

    /**
     * \param value a value of the checker's type
     * \param [out] reason why the value is refused, if a reason is known; else left empty
     * \return whether the checker refuses the value
     */
    virtual bool Refuses(const AttributeValue& value, std::string& reason) const = 0;
};

/**
 * \ingroup edge-llm
 * \brief Wrap an attribute checker so that a refused value is explained.
 *
 * ns-3 reports a refused attribute value by the attribute's name only ("could not be set",
 * "Invalid command-line argument"), and a value given through Config::SetDefault that a setter
 * refuses later is ignored without a word. The wrapped checker refuses a value when the base
 * checker does, or when \p reject gives a reason; it then prints which attribute, the value,
 * the allowed range and the reason on stderr. Being the checker, it acts when the value is given:
 * on the command line, in Config::SetDefault, or in SetAttribute.
 *
 * A text that ns-3 cannot read as a value of the base's type (AttributeTextProblem: "abc" or
 * "-1" for an unsigned integer, "soon" for a time) is refused at once, and stops the run, even
 * through SetAttributeFailSafe: ns-3's reader would stop the run on it without naming the
 * attribute, or misread it. A readable value out of range is refused as ns-3 refuses one, so
 * that SetAttributeFailSafe returns false.
 *
 * The checker is an AttributeExplainer.
 *
 * \param base the checker of the value's type and range, e.g. MakeUintegerChecker<uint32_t>(1,
 *        4096); not an EnumChecker, which ns-3 needs to be the attribute's checker itself
 *        (MakeExplainingEnumChecker)
 * \param attribute the full name shown, e.g. "ns3::KvCacheModel::KvHeads"
 * \param allowed the allowed values in words, e.g. "an integer in [1, 4096]"
 * \param reject an extra test of a value of the base's type: the reason to refuse it, or an
 *        empty string to accept it; empty for no extra test
 * \return the checker
 */
Ptr<const AttributeChecker> MakeExplainingChecker(
    Ptr<const AttributeChecker> base,
    std::string attribute,
    std::string allowed,
    std::function<std::string(const AttributeValue&)> reject = nullptr);

/**
 * \brief An explaining checker of a boolean: true or false (ns-3 also reads t, f, 1 and 0).
 * \param attribute the full name shown
 * \return the checker
 */
Ptr<const AttributeChecker> MakeExplainingBooleanChecker(std::string attribute);

/**
 * \brief An explaining checker of a Time that is > 0, or >= 0.
 * \param attribute the full name shown
 * \param zeroAllowed whether 0 is allowed
 * \return the checker
 */
Ptr<const AttributeChecker> MakeTimeNotNegativeChecker(std::string attribute, bool zeroAllowed);

/**
 * \brief An explaining checker of a Time in [0, max].
 * \param attribute the full name shown
 * \param max the largest time allowed
 * \param allowed the range in words, e.g. "a time in [0, 200 ms]"
 * \return the checker
 */
Ptr<const AttributeChecker> MakeTimeRangeChecker(std::string attribute,
                                                 Time max,
                                                 std::string allowed);

/**
 * \brief An explaining checker of a Time in [min, max].
 * \param attribute the full name shown
 * \param min the smallest time allowed
 * \param max the largest time allowed
 * \param allowed the range in words, e.g. "a time in [1 ms, 60 s]"
 * \return the checker
 */
Ptr<const AttributeChecker> MakeTimeRangeChecker(std::string attribute,
                                                 Time min,
                                                 Time max,
                                                 std::string allowed);

/**
 * \brief An explaining checker of a finite double that is > 0, or >= 0.
 * \param attribute the full name shown
 * \param zeroAllowed whether 0 is allowed
 * \return the checker
 */
Ptr<const AttributeChecker> MakeFiniteNotNegativeChecker(std::string attribute, bool zeroAllowed);

/**
 * \brief An explaining checker of a UDP or TCP port on an eNB node: [1, 65535] except 2152,
 * 2123 and 4444, which the EPC binds there (GTP-U, GTP-C, X2-C).
 * \param attribute the full name shown
 * \return the checker
 */
Ptr<const AttributeChecker> MakeEnbPortChecker(std::string attribute);

/**
 * \brief The words of a refused attribute value.
 * \param attribute the full name, e.g. "ns3::KvCacheModel::KvHeads"
 * \param given the value, as given or as read
 * \param allowed the allowed values in words
 * \param reason why this one is refused, or empty
 * \return "attribute = given is invalid; allowed: allowed (reason)"
 */
std::string AttributeRefusal(const std::string& attribute,
                             const std::string& given,
                             const std::string& allowed,
                             const std::string& reason);

/**
 * \brief Refuse a text that ns-3 cannot read as the attribute's type: print its refusal on
 * stderr (AttributeRefusal) and stop the run, before ns-3's reader stops it without naming the
 * attribute or misreads the text.
 * \param attribute the full name
 * \param text the text given
 * \param allowed the allowed values in words
 * \param reason why the text cannot be read
 */
[[noreturn]] void StopOnUnreadableText(const std::string& attribute,
                                       const std::string& text,
                                       const std::string& allowed,
                                       const std::string& reason);

/**
 * \brief Names as alternatives in words.
 * \param names the names, at least one
 * \return "a", "a or b", "a, b or c"
 */
std::string JoinAlternatives(const std::vector<std::string>& names);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_EXPLAINING_CHECKER_H */
