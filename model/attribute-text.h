/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_ATTRIBUTE_TEXT_H
#define EDGE_LLM_ATTRIBUTE_TEXT_H

#include "ns3/attribute.h"

#include <string>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm
 * \brief Why ns-3 cannot read a text as a value of an attribute's type, if it cannot.
 *
 * ns-3 reads a value given as text (the command line, Config::SetDefault with a StringValue)
 * with the value type's own reader, which stops the run on some bad texts without naming the
 * attribute ("abc" for an integer, "soon" for a time, a text with a space) and misreads others
 * ("-1" for an unsigned integer as 2^64 - 1, "300.1.1.1" as 44.1.1.1, "1e400s" as 0). This
 * tells such a text from a readable one, so that it can be refused first, with its attribute
 * named. A readable value may still be out of the attribute's range; that is the checker's
 * business.
 *
 * Known types: UintegerValue (decimal digits, an optional +, at most 2^64 - 1), DoubleValue (a
 * finite decimal number), TimeValue (a finite decimal number with no unit or one of s, ms, us,
 * ns, ps, fs, min, h, d, y, within about 292 years), BooleanValue (true, false, t, f, 1, 0),
 * DataRateValue and QueueSizeValue (what their readers take, without spaces), Ipv4AddressValue
 * (four decimal octets, a.b.c.d), TypeIdValue (a registered TypeId's name); the text of any
 * other type is left to its reader.
 *
 * \param sample a value of the attribute's type, e.g. checker->Create()
 * \param text the text given
 * \return an empty string when the text is readable, else why not, e.g. "not a whole number"
 */
std::string AttributeTextProblem(const AttributeValue& sample, const std::string& text);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_ATTRIBUTE_TEXT_H */
