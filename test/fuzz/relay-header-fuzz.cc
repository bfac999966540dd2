/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target: EdgeLlmRelayHeader, what a server reads from a relay peer.

#include "edge-llm-relay-header.h"
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
    edgellmfuzz::CheckHeader<ns3::EdgeLlmRelayHeader>(data, size);
    return 0;
}
