/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_INPUT_CHECKS_H
#define EDGE_LLM_INPUT_CHECKS_H

#include <string>
#include <vector>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm
 * \brief Throw std::invalid_argument with a message that names the field, the value that was
 * given and the allowed range.
 *
 * The pure models report bad input by exception so that a Python binding can turn it into a
 * Python error; the ns-3 objects that wrap them turn it into NS_FATAL_ERROR.
 *
 * \param field name of the offending input, as the user knows it
 * \param given the value that was given, already formatted
 * \param allowed the allowed range or set, in words
 */
[[noreturn]] void ThrowInvalid(const std::string& field,
                               const std::string& given,
                               const std::string& allowed);

/**
 * \brief Require a finite value that is >= 0.
 * \param field name of the input, used in the error message
 * \param value the value to check
 * \return value, unchanged
 */
double RequireNonNegative(const std::string& field, double value);

/**
 * \brief Require a finite value that is > 0.
 * \param field name of the input, used in the error message
 * \param value the value to check
 * \return value, unchanged
 */
double RequirePositive(const std::string& field, double value);

/**
 * \brief Format a double for an error message: the shortest text that reads back as the
 * same value.
 * \param value the value
 * \return its text
 */
std::string FormatValue(double value);

/**
 * \brief Join names for an error message: "a, b, c".
 * \param names the names
 * \return them, separated by commas
 */
std::string JoinNames(const std::vector<std::string>& names);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_INPUT_CHECKS_H */
