/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Reaches edge-llm only through a TypeId name, so it references none of the library's
 * symbols: linked with a plain -lns3-edge-llm under --as-needed, the library is dropped and
 * "ns3::LlmEngine" is unknown at run time. edge-llm's CMake package and edge-llm.pc keep it.
 */

#include "ns3/core-module.h"
#include "ns3/edge-llm-module.h"

#include <iostream>

#ifndef NS3_LOG_ENABLE
#error "edge-llm's compile flags must define NS3_LOG_ENABLE, as its ns-3 was built"
#endif

using namespace ns3;

int
main()
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe("ns3::LlmEngine", &tid))
    {
        std::cerr << "ns3::LlmEngine is not a known TypeId: libns3-edge-llm was not loaded"
                  << std::endl;
        return 1;
    }
    ObjectFactory factory;
    factory.SetTypeId("ns3::LlmEngine");
    Ptr<Object> engine = factory.Create();
    UintegerValue capacity;
    engine->GetAttribute("KvCapacityTokens", capacity);
    std::cout << "ns3::LlmEngine KvCapacityTokens " << capacity.Get() << std::endl;
    return 0;
}
