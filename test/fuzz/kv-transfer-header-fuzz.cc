/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target: KvTransferHeader, what a KV-transfer receiver reads from its peers.

#include "fuzz-check.h"
#include "kv-transfer-header.h"

#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using ns3::KvTransferHeader;
    size = std::min(size, edgellmfuzz::MAX_INPUT);
    KvTransferHeader parsed;
    std::string why;
    const bool ok = KvTransferHeader::Parse(data, static_cast<uint32_t>(size), parsed, why);
    FUZZ_CHECK(ok == why.empty(), "a refusal says why, an acceptance says nothing");
    if (ok)
    {
        FUZZ_CHECK(parsed.Check().empty(), "an accepted header keeps every rule");
        FUZZ_CHECK(uint64_t(parsed.GetFirst()) + parsed.GetCount() <= (uint64_t(1) << 32),
                   "a range ends at 2^32 at most");
        ns3::Buffer out;
        out.AddAtStart(KvTransferHeader::SERIALIZED_SIZE);
        parsed.Serialize(out.Begin());
        FUZZ_CHECK(std::memcmp(out.PeekData(), data, KvTransferHeader::SERIALIZED_SIZE) == 0,
                   "an accepted header serializes back to the bytes read");
        std::ostringstream os;
        parsed.Print(os);
    }

    // ns-3's path agrees with Parse, and a refusal leaves the header as it was.
    const ns3::Buffer in = edgellmfuzz::BufferOf(data, size);
    KvTransferHeader viaBuffer =
        KvTransferHeader::MakeCancel(7, 9, ns3::KvDiscardReason::LINK_DOWN);
    const uint32_t read = viaBuffer.Deserialize(in.Begin());
    FUZZ_CHECK(read == (ok ? KvTransferHeader::SERIALIZED_SIZE : 0), "Deserialize agrees");
    if (ok)
    {
        FUZZ_CHECK(viaBuffer.GetImsi() == parsed.GetImsi() &&
                       viaBuffer.GetEpoch() == parsed.GetEpoch() &&
                       viaBuffer.GetFirst() == parsed.GetFirst() &&
                       viaBuffer.GetCount() == parsed.GetCount() &&
                       viaBuffer.GetPayloadBytes() == parsed.GetPayloadBytes() &&
                       viaBuffer.GetMessageType() == parsed.GetMessageType() &&
                       viaBuffer.GetUnit() == parsed.GetUnit(),
                   "Deserialize reads the fields Parse reads");
    }
    else
    {
        FUZZ_CHECK(viaBuffer.GetImsi() == 7 && viaBuffer.GetEpoch() == 9 &&
                       viaBuffer.GetMessageType() == KvTransferHeader::CANCEL,
                   "a refused header is left as it was");
    }
    return 0;
}
