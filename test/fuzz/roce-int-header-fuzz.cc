/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of the HPCC INT stack codec (RoceInt): the bytes a RoCE NIC
 * parses after the BTH of a packet that carries BTH_INT_BIT.
 */
#include "fuzz-util.h"

#include "ns3/roce-int-header.h"

#include <cstring>
#include <vector>

using namespace ns3;
using namespace ns3::fuzz;

namespace
{

/// \return the big-endian 64-bit word at \p p
uint64_t
GetU64(const uint8_t* p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}

} // namespace

/**
 * \brief Read the input as an INT stack, as RoceNic::Deliver accepts it (capacity at most
 *        MAX_HOPS, the records all present, no more hops written than reserved); for every
 *        hop written: the decoded fields are in their wrapped ranges, a record whose rate code
 *        is valid encodes back to the same 64 bits, unwrapping against itself changes nothing
 *        and against an earlier sample never goes backwards; appending a hop to a copy adds
 *        exactly that hop, or sets the overflow bit and nothing else when the stack is full.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < RoceInt::HEADER_BYTES)
    {
        return 0;
    }
    const uint32_t capacity = RoceInt::GetCapacity(data);
    const uint32_t nHops = RoceInt::GetNHops(data);
    if (capacity > RoceInt::MAX_HOPS || size < RoceInt::StackBytes(capacity) || nHops > capacity)
    {
        return 0; // the NIC drops the packet as malformed
    }
    std::vector<uint8_t> stack(data, data + RoceInt::StackBytes(capacity));
    for (uint32_t i = 0; i < nHops; ++i)
    {
        const FabricCcHopTelemetry hop = RoceInt::ReadHop(stack.data(), i);
        FUZZ_CHECK(hop.txBytes % RoceInt::BYTE_UNIT == 0 && hop.txBytes < RoceInt::TX_MODULO,
                   "hop " << i << " txBytes " << hop.txBytes);
        FUZZ_CHECK(hop.queueBytes % RoceInt::BYTE_UNIT == 0 && hop.queueBytes <= RoceInt::QLEN_MAX,
                   "hop " << i << " queueBytes " << hop.queueBytes);
        FUZZ_CHECK(hop.timestamp.GetNanoSeconds() >= 0 &&
                       uint64_t(hop.timestamp.GetNanoSeconds()) < RoceInt::TS_MODULO,
                   "hop " << i << " timestamp " << hop.timestamp);
        const uint64_t record =
            GetU64(stack.data() + RoceInt::HEADER_BYTES + i * RoceInt::HOP_BYTES);
        if (hop.linkRate.GetBitRate() != 0)
        {
            FUZZ_CHECK(RoceInt::EncodeHop(hop) == record,
                       "hop " << i << " re-encodes as 0x" << std::hex << RoceInt::EncodeHop(hop)
                              << ", was 0x" << record);
        }
        const FabricCcHopTelemetry same = RoceInt::Unwrap(hop, hop);
        FUZZ_CHECK(same.txBytes == hop.txBytes && same.timestamp == hop.timestamp &&
                       same.queueBytes == hop.queueBytes,
                   "hop " << i << " unwrapped against itself moved");
        FabricCcHopTelemetry earlier = hop;
        earlier.txBytes = hop.txBytes / 2;
        earlier.timestamp = NanoSeconds(hop.timestamp.GetNanoSeconds() / 2);
        const FabricCcHopTelemetry later = RoceInt::Unwrap(hop, earlier);
        FUZZ_CHECK(later.txBytes >= earlier.txBytes && later.timestamp >= earlier.timestamp,
                   "hop " << i << " unwrapped backwards");
    }
    // Append a known hop to a copy.
    FabricCcHopTelemetry hop;
    hop.queueBytes = 4096;
    hop.txBytes = 1280;
    hop.timestamp = NanoSeconds(12345);
    hop.linkRate = DataRate("100Gbps");
    std::vector<uint8_t> copy = stack;
    const bool wasOverflow = RoceInt::IsOverflow(copy.data());
    const bool appended = RoceInt::AppendHop(copy.data(), hop);
    FUZZ_CHECK(appended == (nHops < capacity), "AppendHop returned " << appended);
    if (appended)
    {
        FUZZ_CHECK(RoceInt::GetNHops(copy.data()) == nHops + 1, "hops after append");
        const FabricCcHopTelemetry back = RoceInt::ReadHop(copy.data(), nHops);
        FUZZ_CHECK(back.queueBytes == hop.queueBytes && back.txBytes == hop.txBytes &&
                       back.timestamp == hop.timestamp && back.linkRate == hop.linkRate,
                   "the appended hop reads back differently");
        FUZZ_CHECK(std::memcmp(copy.data() + RoceInt::HEADER_BYTES,
                               stack.data() + RoceInt::HEADER_BYTES,
                               nHops * RoceInt::HOP_BYTES) == 0,
                   "AppendHop changed an earlier record");
        FUZZ_CHECK(RoceInt::IsOverflow(copy.data()) == wasOverflow, "overflow bit changed");
    }
    else
    {
        FUZZ_CHECK(RoceInt::IsOverflow(copy.data()), "a full stack did not set overflow");
        FUZZ_CHECK(RoceInt::GetNHops(copy.data()) == nHops, "a full stack changed its hops");
        FUZZ_CHECK(std::memcmp(copy.data() + 1, stack.data() + 1, copy.size() - 1) == 0,
                   "a full stack changed beyond the overflow bit");
    }
    return 0;
}
