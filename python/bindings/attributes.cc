/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bindings.h"

#include "ns3/attribute-text.h"
#include "ns3/explaining-checker.h"
#include "ns3/input-checks.h"
#include "ns3/type-id.h"

#include <pybind11/stl.h>
#include <set>
#include <string>
#include <vector>

namespace py = pybind11;

namespace ns3
{
namespace edgellm
{
namespace python
{

namespace
{

/// Every attribute a TypeId has, its parents' included, as LookupAttributeByName finds them.
std::vector<std::string>
AttributeNames(TypeId tid)
{
    std::set<std::string> names;
    while (true)
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            names.insert(tid.GetAttribute(i).name);
        }
        if (tid.GetParent() == tid)
        {
            break;
        }
        tid = tid.GetParent();
    }
    return {names.begin(), names.end()};
}

/**
 * What ns-3 registered for "ns3::Class::Attribute", looked up without side effects: the
 * lookups are the fail-safe ones, and no value is made, since some checkers print when they
 * refuse one.
 */
py::dict
AttributeInfo(const std::string& name)
{
    const auto split = name.rfind("::");
    if (split == std::string::npos || split == 0 || split + 2 == name.size())
    {
        ThrowInvalid("name",
                     "\"" + name + "\"",
                     "a TypeId name and an attribute, e.g. "
                     "ns3::EdgeLlmClient::NackDelay");
    }
    const std::string tidName = name.substr(0, split);
    const std::string attribute = name.substr(split + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(tidName, &tid))
    {
        ThrowInvalid("name",
                     "\"" + name + "\"",
                     "an attribute of a registered TypeId; there is "
                     "no TypeId " +
                         tidName);
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        ThrowInvalid("name",
                     "\"" + name + "\"",
                     "an attribute of " + tidName + ": " + JoinNames(AttributeNames(tid)));
    }
    TypeId owner = tid; // LookupAttributeByName found it: some class of tid's declares it
    FindAttributeOwner(tid, attribute, owner);
    const std::string declaredBy = owner.GetName();
    py::dict d;
    d["type_id"] = tidName;
    d["attribute"] = attribute;
    d["declared_by"] = declaredBy;
    d["name"] = declaredBy + "::" + attribute;
    d["help"] = info.help;
    d["value_type"] = info.checker->GetValueTypeName();
    // The module's checkers say their range in words; ns-3's own print their type's limits
    // (a Time's as "+9.22337e+18ns:+9.22337e+18ns"), which say nothing.
    const auto* explainer = dynamic_cast<const AttributeExplainer*>(PeekPointer(info.checker));
    d["allowed"] = explainer ? explainer->GetAllowedWords()
                   : info.checker->HasUnderlyingTypeInformation()
                       ? info.checker->GetUnderlyingTypeInformation()
                       : std::string();
    d["initial_value"] = info.initialValue->SerializeToString(info.checker);
    d["original_initial_value"] = info.originalInitialValue->SerializeToString(info.checker);
    return d;
}

} // namespace

void
BindAttributes(py::module_& m)
{
    m.def("attribute_info",
          &AttributeInfo,
          py::arg("name"),
          "What ns-3 registered for the attribute \"ns3::Class::Attribute\" (of the class or "
          "a parent): a dict of type_id, attribute, declared_by (the class that declares it), "
          "name (declared_by::attribute, the name ns-3 sets it by), help, value_type, allowed "
          "(in words where the module's checker has them), initial_value, "
          "original_initial_value. ValueError naming the TypeId's attributes when there is no "
          "such attribute.");
    m.def(
        "attribute_names",
        [](const std::string& typeId) {
            TypeId tid;
            if (!TypeId::LookupByNameFailSafe(typeId, &tid))
            {
                ThrowInvalid("type_id", "\"" + typeId + "\"", "a registered TypeId name");
            }
            return AttributeNames(tid);
        },
        py::arg("type_id"),
        "The attributes of a TypeId, its parents' included.");
}

} // namespace python
} // namespace edgellm
} // namespace ns3
