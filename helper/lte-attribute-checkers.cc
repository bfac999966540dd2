/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-attribute-checkers.h"

#include "ns3/explaining-checker.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace edgellm
{

Ptr<const AttributeChecker>
MakeSrsPeriodicityChecker(std::string attribute)
{
    return MakeExplainingChecker(MakeUintegerChecker<uint16_t>(),
                                 std::move(attribute),
                                 "0, 2, 5, 10, 20, 40, 80, 160 or 320",
                                 [](const AttributeValue& v) {
                                     const auto p = static_cast<const UintegerValue&>(v).Get();
                                     for (uint64_t ok : {0, 2, 5, 10, 20, 40, 80, 160, 320})
                                     {
                                         if (p == ok)
                                         {
                                             return "";
                                         }
                                     }
                                     return "not a periodicity LTE defines";
                                 });
}

Ptr<const AttributeChecker>
MakeCqiPeriodicityChecker(std::string attribute)
{
    return MakeExplainingChecker(MakeTimeChecker(),
                                 std::move(attribute),
                                 "a time in [1 ms, 160 ms]",
                                 [](const AttributeValue& v) {
                                     const Time t = static_cast<const TimeValue&>(v).Get();
                                     return t >= MilliSeconds(1) && t <= MilliSeconds(160)
                                                ? ""
                                                : "out of range";
                                 });
}

} // namespace edgellm
} // namespace ns3
