/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_SCHEME_REGISTRY_H
#define EDGE_LLM_HANDOVER_SCHEME_REGISTRY_H

#include "ns3/object-factory.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm
 * \brief A handover scheme: the name a user types (--scheme) and reads in result files, and
 * the HandoverScheduler that implements it.
 *
 * A scheme is either a HandoverScheduler subclass that ns-3 can make, under its own
 * GetSchemeName(), or an alias: such a type with attributes set, one of which makes its
 * GetSchemeName() answer the alias's name (e.g. "pallas-full-copy" is
 * ns3::CacheHandoverScheduler with SchemeName "pallas-full-copy").
 */
struct HandoverScheme
{
    std::string name;     //!< its GetSchemeName(), e.g. "ctho"
    std::string typeName; //!< the TypeId name of its scheduler, e.g. "ns3::CtHoScheduler"
    /// the attributes an alias sets on typeName (name, value as text); empty for a type's own
    std::vector<std::pair<std::string, std::string>> attributes;
};

/**
 * \brief Register an alias scheme: a scheduler type with attributes set.
 *
 * The module registers "pallas-full-copy", "pallas-recompute" and "impact-full"; a program may
 * add its own before it lists or makes schemes. The alias must make a scheduler whose
 * GetSchemeName() is its name; ListHandoverSchemes() stops the run otherwise.
 * \param name the scheme name
 * \param typeName a HandoverScheduler subclass with a constructor
 * \param attributes the attributes set on it (name, value as text)
 */
void RegisterHandoverSchemeAlias(const std::string& name,
                                 const std::string& typeName,
                                 std::vector<std::pair<std::string, std::string>> attributes);

/**
 * \brief Every scheme: the subclasses of ns3::HandoverScheduler registered with ns-3's TypeId
 * system that have a constructor (including those a program registers itself), under their
 * own names, and the aliases.
 *
 * Two schemes with the same name stop the run, naming both types.
 * \return the schemes, by name
 */
std::vector<HandoverScheme> ListHandoverSchemes();

/// \return the names of ListHandoverSchemes(), in the same order
std::vector<std::string> HandoverSchemeNames();

/**
 * \param name a scheme name
 * \return the TypeId name of its scheduler; throws std::invalid_argument naming the registered
 *         schemes for an unknown name. For an alias that type alone is not the scheme: make it
 *         with HandoverSchemeFactory (or EdgeLlmHelper::SetScheme), which also sets the
 *         alias's attributes.
 */
std::string HandoverSchedulerTypeOf(const std::string& name);

/**
 * \param name a scheme name
 * \return a factory of its scheduler, with the alias's attributes set; throws
 *         std::invalid_argument naming the registered schemes for an unknown name
 */
ObjectFactory HandoverSchemeFactory(const std::string& name);

/**
 * \param name a scheme name
 * \return the scheme; throws std::invalid_argument naming the registered schemes for an
 *         unknown name
 */
HandoverScheme FindHandoverScheme(const std::string& name);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_SCHEME_REGISTRY_H */
