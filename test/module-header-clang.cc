/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What ns-3's cppyy bindings do with the module (ns-3 >= 3.42, "from ns import ns"): include
// ns3/edge-llm-module.h alone into Cling, a clang, and then use its classes. This translation
// unit does the same with clang++, so that a header that only GCC accepts, or that needs
// another header first, fails here.

#include "ns3/edge-llm-module.h"

int
main()
{
    ns3::Ptr<ns3::LlmEngine> engine = ns3::CreateObject<ns3::LlmEngine>();
    ns3::TypeId scheduler = ns3::TypeId::LookupByName("ns3::CtHoScheduler");
    ns3::KvCacheProfile profile = ns3::KvCacheProfile::FromPreset("Qwen2.5-7B-Instruct");
    return engine && scheduler.GetName().empty() && profile.GetBytesForTokens(1) == 0;
}
