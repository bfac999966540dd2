/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_ENUM_ACCESSOR_H
#define EDGE_LLM_ENUM_ACCESSOR_H

#include "ns3/enum.h"

#ifndef EDGE_LLM_NS3_VERSION
#error "EDGE_LLM_NS3_VERSION (major * 100 + minor of ns-3) is defined by the module's build"
#endif

namespace ns3
{
namespace edgellm
{

/**
 * \brief The accessor of an enum attribute, for every ns-3 the module builds with.
 * ns-3.41 made EnumValue a template over the enum type, and its accessor then takes that type
 * as a template argument.
 * \param member the attribute's data member
 * \return the accessor
 */
template <typename E, typename C>
Ptr<const AttributeAccessor>
MakeEnumMemberAccessor(E C::*member)
{
#if EDGE_LLM_NS3_VERSION >= 341
    return MakeEnumAccessor<E>(member);
#else
    return MakeEnumAccessor(member);
#endif
}

} // namespace edgellm
} // namespace ns3

#endif // EDGE_LLM_ENUM_ACCESSOR_H
