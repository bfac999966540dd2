/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target: EdgeLlmUplinkHeader, what a server reads from a UE.

#include "edge-llm-uplink-header.h"
#include "fuzz-check.h"

extern "C" int
LLVMFuzzerInitialize(int* /* argc */, char*** /* argv */)
{
    ns3::Packet::EnableChecking();
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    edgellmfuzz::CheckHeader<ns3::EdgeLlmUplinkHeader>(data, size);
    return 0;
}
