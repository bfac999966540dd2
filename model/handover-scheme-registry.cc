/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-scheme-registry.h"

#include "handover-scheduler.h"
#include "input-checks.h"

#include "ns3/abort.h"
#include "ns3/string.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{
namespace edgellm
{

namespace
{

/// \return the aliases registered so far, the module's own first
std::vector<HandoverScheme>&
Aliases()
{
    // Schemes that differ from a base scheduler only in their name (and, for impact-full,
    // what their records hold) are aliases rather than subclasses: one class per behaviour.
    static std::vector<HandoverScheme> aliases{
        {"impact-full",
         "ns3::CacheHandoverScheduler",
         {{"SchemeName", "impact-full"}, {"RecordAccuracy", "true"}}},
        {"pallas-full-copy", "ns3::CacheHandoverScheduler", {{"SchemeName", "pallas-full-copy"}}},
        {"pallas-recompute", "ns3::TokenHandoverScheduler", {{"SchemeName", "pallas-recompute"}}},
        // Pallas's ablations name themselves after their Ablation.
        {"pallas-no-recompute", "ns3::PallasScheduler", {{"Ablation", "no-recompute"}}},
        {"pallas-no-streaming", "ns3::PallasScheduler", {{"Ablation", "no-streaming"}}},
    };
    return aliases;
}

/// \return a factory of a scheme's scheduler, its attributes set
ObjectFactory
MakeFactory(const HandoverScheme& scheme)
{
    ObjectFactory factory(scheme.typeName);
    for (const auto& [attribute, value] : scheme.attributes)
    {
        factory.Set(attribute, StringValue(value));
    }
    return factory;
}

} // namespace

void
RegisterHandoverSchemeAlias(const std::string& name,
                            const std::string& typeName,
                            std::vector<std::pair<std::string, std::string>> attributes)
{
    Aliases().push_back({name, typeName, std::move(attributes)});
}

std::vector<HandoverScheme>
ListHandoverSchemes()
{
    const TypeId base = HandoverScheduler::GetTypeId();
    std::vector<HandoverScheme> schemes;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid == base || !tid.IsChildOf(base) || !tid.HasConstructor())
        {
            continue;
        }
        // The name is the object's own answer: making one is cheap, as a scheduler holds no
        // simulator state until it plans. A SchemeName default set from the command line is
        // no scheme of the type's own.
        ObjectFactory factory(tid.GetName());
        TypeId::AttributeInformation info;
        if (tid.LookupAttributeByName("SchemeName", &info))
        {
            factory.Set("SchemeName", StringValue(""));
        }
        const std::string name = factory.Create<HandoverScheduler>()->GetSchemeName();
        for (const HandoverScheme& s : schemes)
        {
            NS_ABORT_MSG_IF(s.name == name,
                            "handover schemes " << s.typeName << " and " << tid.GetName()
                                                << " both call themselves \"" << name << "\"");
        }
        schemes.push_back({name, tid.GetName(), {}});
    }
    for (const HandoverScheme& alias : Aliases())
    {
        TypeId tid;
        NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(alias.typeName, &tid) ||
                            !tid.IsChildOf(base) || !tid.HasConstructor(),
                        "handover scheme \"" << alias.name << "\": " << alias.typeName
                                             << " is not a HandoverScheduler with a constructor");
        const std::string name = MakeFactory(alias).Create<HandoverScheduler>()->GetSchemeName();
        NS_ABORT_MSG_IF(name != alias.name,
                        "handover scheme \"" << alias.name << "\": its " << alias.typeName
                                             << " calls itself \"" << name << "\"");
        for (const HandoverScheme& s : schemes)
        {
            NS_ABORT_MSG_IF(s.name == name,
                            "handover schemes " << s.typeName << " and " << alias.typeName
                                                << " both call themselves \"" << name << "\"");
        }
        schemes.push_back(alias);
    }
    std::sort(schemes.begin(), schemes.end(), [](const HandoverScheme& a, const HandoverScheme& b) {
        return a.name < b.name;
    });
    return schemes;
}

std::vector<std::string>
HandoverSchemeNames()
{
    std::vector<std::string> names;
    for (const HandoverScheme& s : ListHandoverSchemes())
    {
        names.push_back(s.name);
    }
    return names;
}

HandoverScheme
FindHandoverScheme(const std::string& name)
{
    for (const HandoverScheme& s : ListHandoverSchemes())
    {
        if (s.name == name)
        {
            return s;
        }
    }
    throw std::invalid_argument(
        "\"" + name + "\" is not a handover scheme; allowed: " + JoinNames(HandoverSchemeNames()));
}

std::string
HandoverSchedulerTypeOf(const std::string& name)
{
    return FindHandoverScheme(name).typeName;
}

ObjectFactory
HandoverSchemeFactory(const std::string& name)
{
    return MakeFactory(FindHandoverScheme(name));
}

} // namespace edgellm
} // namespace ns3
