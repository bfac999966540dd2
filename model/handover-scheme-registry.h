/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_SCHEME_REGISTRY_H
#define EDGE_LLM_HANDOVER_SCHEME_REGISTRY_H

#include <string>
#include <vector>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm
 * \brief A handover scheme: a HandoverScheduler subclass that ns-3 can make.
 */
struct HandoverScheme
{
    std::string name;     //!< its GetSchemeName(), e.g. "ctho"
    std::string typeName; //!< its TypeId name, e.g. "ns3::CtHoScheduler"
};

/**
 * \brief Every scheme registered with ns-3's TypeId system: the subclasses of
 * ns3::HandoverScheduler that have a constructor, including those a program registers itself.
 *
 * Two TypeIds with the same scheme name stop the run, naming both.
 * \return the schemes, by name
 */
std::vector<HandoverScheme> ListHandoverSchemes();

/// \return the names of ListHandoverSchemes(), in the same order
std::vector<std::string> HandoverSchemeNames();

/**
 * \param name a scheme name
 * \return its TypeId name; throws std::invalid_argument naming the registered schemes for an
 *         unknown name
 */
std::string HandoverSchedulerTypeOf(const std::string& name);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_SCHEME_REGISTRY_H */
