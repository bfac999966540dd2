/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_TEST_KV_TRANSFER_BENCH_H
#define EDGE_LLM_TEST_KV_TRANSFER_BENCH_H

// Two nodes on one backhaul link with a KV transfer application each, shared by the KV
// transfer test suites.

#include "ns3/backhaul-helper.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/kv-transfer-application.h"
#include "ns3/kv-transfer-header.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{
namespace edgellm
{
namespace test
{

/// Bytes of one token of Qwen2.5-7B-Instruct at 16 bits.
constexpr uint64_t kTokenBytes = 57344;

/// Two nodes joined by one backhaul link, each hosting a KvTransferApplication.
struct TransferBench
{
    NodeContainer nodes;
    Ptr<BackhaulHelper> backhaul;
    BackhaulLink link;
    Ptr<KvTransferApplication> appA;
    Ptr<KvTransferApplication> appB;
    Ptr<KvTransferSender> sender;     //!< A -> B
    Ptr<KvTransferReceiver> receiver; //!< at B
};

/**
 * Build the bench. The sender's buffer is sized from the link unless bufferBytes is given,
 * in which case both ends use it.
 */
inline TransferBench
MakeBench(DataRate rate, Time delay, uint32_t bufferBytes = 0)
{
    TransferBench b;
    b.nodes.Create(2);
    InternetStackHelper internet;
    internet.Install(b.nodes);
    b.backhaul = CreateObject<BackhaulHelper>();
    b.backhaul->SetAttribute("DataRate", DataRateValue(rate));
    b.backhaul->SetAttribute("Delay", TimeValue(delay));
    b.link = b.backhaul->Install(b.nodes.Get(0), b.nodes.Get(1));
    b.appA = CreateObject<KvTransferApplication>();
    b.appB = CreateObject<KvTransferApplication>();
    b.nodes.Get(0)->AddApplication(b.appA);
    b.nodes.Get(1)->AddApplication(b.appB);
    b.sender = b.appA->AddPeer(b.link.addressA, b.link.addressB);
    b.receiver = b.appB->GetReceiver();
    if (bufferBytes > 0)
    {
        b.sender->SetAttribute("SocketBufferBytes", UintegerValue(bufferBytes));
        b.receiver->SetAttribute("SocketBufferBytes", UintegerValue(bufferBytes));
    }
    b.appA->SetStartTime(Seconds(0));
    b.appB->SetStartTime(Seconds(0));
    return b;
}

inline KvTransferRequest
TokenRequest(uint64_t imsi, uint32_t epoch, uint32_t first, uint32_t tokens)
{
    KvTransferRequest r;
    r.imsi = imsi;
    r.epoch = epoch;
    r.ranges = {{first, uint64_t(first) + tokens}};
    r.bytesPerUnit = kTokenBytes;
    return r;
}

/// A tokens-only transfer (a token handover): forwarded token IDs and no KV range.
inline KvTransferRequest
ForwardRequest(uint64_t imsi, uint32_t epoch, uint32_t first, uint32_t count)
{
    KvTransferRequest r;
    r.imsi = imsi;
    r.epoch = epoch;
    r.forwardedFirst = first;
    r.forwardedCount = count;
    return r;
}

/// Completion times at the receiver, by session.
struct Completions
{
    std::vector<std::pair<uint64_t, Time>> done;

    void Record(uint64_t imsi, uint32_t /* epoch */)
    {
        done.emplace_back(imsi, Simulator::Now());
    }

    Time Of(uint64_t imsi) const
    {
        for (const auto& [i, t] : done)
        {
            if (i == imsi)
            {
                return t;
            }
        }
        return Time::Max();
    }
};

/// KV payload bytes of DATA messages handed to TCP, by (imsi, epoch), from MessageSent.
struct DataSent
{
    std::map<std::pair<uint64_t, uint32_t>, uint64_t> bytes;

    void Record(const KvTransferHeader& h)
    {
        if (h.GetMessageType() == KvTransferHeader::DATA)
        {
            bytes[{h.GetImsi(), h.GetEpoch()}] += h.GetPayloadBytes();
        }
    }

    uint64_t Of(uint64_t imsi, uint32_t epoch) const
    {
        auto it = bytes.find({imsi, epoch});
        return it == bytes.end() ? 0 : it->second;
    }
};

} // namespace test
} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_TEST_KV_TRANSFER_BENCH_H */
