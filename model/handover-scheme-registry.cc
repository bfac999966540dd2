/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-scheme-registry.h"

#include "handover-scheduler.h"
#include "input-checks.h"

#include "ns3/abort.h"
#include "ns3/object-factory.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{
namespace edgellm
{

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
        // The name is the object's own answer: making one is cheap, as a policy holds no
        // simulator state until it plans.
        ObjectFactory factory(tid.GetName());
        const std::string name = factory.Create<HandoverScheduler>()->GetSchemeName();
        for (const HandoverScheme& s : schemes)
        {
            NS_ABORT_MSG_IF(s.name == name,
                            "handover schemes " << s.typeName << " and " << tid.GetName()
                                                << " both call themselves \"" << name << "\"");
        }
        schemes.push_back({name, tid.GetName()});
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

std::string
HandoverSchedulerTypeOf(const std::string& name)
{
    for (const HandoverScheme& s : ListHandoverSchemes())
    {
        if (s.name == name)
        {
            return s.typeName;
        }
    }
    throw std::invalid_argument(
        "\"" + name + "\" is not a handover scheme; allowed: " + JoinNames(HandoverSchemeNames()));
}

} // namespace edgellm
} // namespace ns3
