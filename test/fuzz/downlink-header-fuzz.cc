/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target: EdgeLlmDownlinkHeader, what a client reads from a server (and a server from a
// relay peer).

#include "edge-llm-downlink-header.h"
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
    edgellmfuzz::CheckHeader<ns3::EdgeLlmDownlinkHeader>(data, size);
    return 0;
}
