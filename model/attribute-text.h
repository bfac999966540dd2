/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_ATTRIBUTE_TEXT_H
#define EDGE_LLM_ATTRIBUTE_TEXT_H

#include "ns3/attribute.h"
#include "ns3/type-id.h"

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
 * ns, ps, fs, min, h, d, y, within about 292 years, and not a time other than 0 that would read
 * as 0, below the resolution), BooleanValue (true, false, t, f, 1, 0),
 * DataRateValue and QueueSizeValue (what their readers take, without spaces; a rate with a unit,
 * below 2^64 b/s: DataRateTextProblem), Ipv4AddressValue (four decimal octets, a.b.c.d),
 * TypeIdValue (a registered TypeId's name); the text of any other type is left to its reader.
 *
 * \param sample a value of the attribute's type, e.g. checker->Create()
 * \param text the text given
 * \return an empty string when the text is readable, else why not, e.g. "not a whole number"
 */
std::string AttributeTextProblem(const AttributeValue& sample, const std::string& text);

/**
 * \brief Why a text is no data rate that ns-3 can hold, if it is none.
 *
 * DataRate's reader takes a number without a unit as bit/s and drops its fraction ("4.5" is
 * 4 b/s, where 4.5 Gb/s was meant), and wraps around a rate of 2^64 b/s or more.
 *
 * \param text the text given, e.g. "4.5Gbps"
 * \return an empty string when the text is a rate with a unit below 2^64 b/s, else why not
 */
std::string DataRateTextProblem(const std::string& text);

/**
 * \brief The refusal of a setting "--name=text" of a command line, before ns-3 reads it.
 *
 * ns-3's CommandLine refuses a value that an attribute's checker refuses with its whole help,
 * and its readers stop the run on some texts (AttributeTextProblem). This finds the
 * attribute ("ns3::Class::Attribute", the class or one of its parents having it) or the
 * GlobalValue ("RngRun") and tries the text as ns-3 would: readable, of the type, and taken by
 * the checker, whose allowed words the refusal gives when it has them (an explaining checker).
 * The text of an object (a PointerValue: "ns3::UniformRandomVariable[Min=1|Max=2]") is tried
 * item by item.
 *
 * \param name the name as given, without its dashes
 * \param text the value as given
 * \return an empty string when ns-3 takes the value, or when the name is neither an attribute
 *         path (it has no "::") nor a GlobalValue; else one line, "name = text is invalid;
 *         allowed: ... (reason)" (AttributeRefusal)
 */
std::string AttributeSettingRefusal(const std::string& name, const std::string& text);

/**
 * \brief The class that declares an attribute a TypeId has: the TypeId itself or one of its
 * parents. ns-3's Config::SetDefault and CommandLine take the attribute under that class's
 * name only.
 * \param tid a TypeId
 * \param attribute an attribute's name
 * \param [out] owner the declaring class, when there is one
 * \return false if neither tid nor a parent of it has the attribute
 */
bool FindAttributeOwner(TypeId tid, const std::string& attribute, TypeId& owner);

/**
 * \param name a name, without dashes
 * \return whether a GlobalValue of this name is registered ("RngRun", "SchedulerType")
 */
bool IsGlobalValueName(const std::string& name);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_ATTRIBUTE_TEXT_H */
