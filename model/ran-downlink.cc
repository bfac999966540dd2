/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ran-downlink.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RanDownlink);

TypeId
RanDownlink::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RanDownlink").SetParent<Object>().SetGroupName("EdgeLlm");
    return tid;
}

} // namespace ns3
