/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_LTE_ATTRIBUTE_CHECKERS_H
#define EDGE_LLM_LTE_ATTRIBUTE_CHECKERS_H

#include "ns3/attribute.h"

#include <string>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm
 * \param attribute the attribute's full name, for the message
 * \return a checker of an SRS periodicity: 0 (chosen from the number of UEs) or one LTE
 *         defines, 2, 5, 10, 20, 40, 80, 160 or 320 (a UintegerValue)
 */
Ptr<const AttributeChecker> MakeSrsPeriodicityChecker(std::string attribute);

/**
 * \ingroup edge-llm
 * \param attribute the attribute's full name, for the message
 * \return a checker of a periodic-CQI period, [1 ms, 160 ms] (a TimeValue)
 */
Ptr<const AttributeChecker> MakeCqiPeriodicityChecker(std::string attribute);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_LTE_ATTRIBUTE_CHECKERS_H */
