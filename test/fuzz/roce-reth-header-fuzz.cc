/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of RoceRethHeader::Deserialize (RDMA Extended Transport Header).
 */
#include "fuzz-util.h"

#include "ns3/roce-reth-header.h"

using namespace ns3;
using namespace ns3::fuzz;

/**
 * \brief Deserialize a RETH from the input: the 16 bytes round-trip exactly (through Deserialize
 *        and through the NIC's raw Read/Write) and, for a DMA length in range, the setters
 *        rebuild the same bytes.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < RoceRethHeader::SIZE)
    {
        return 0; // the NIC checks that the extension headers are all there
    }
    RoceRethHeader h;
    const std::vector<uint8_t> wire = CheckExactRoundTrip(h, data, size);

    RoceRethHeader raw;
    raw.Read(data);
    std::vector<uint8_t> written(RoceRethHeader::SIZE);
    raw.Write(written.data());
    FUZZ_CHECK(written == wire, "raw Read/Write gave " << Hex(written));

    uint64_t va = 0;
    for (int i = 0; i < 8; ++i)
    {
        va = (va << 8) | wire[i];
    }
    FUZZ_CHECK(h.GetVirtualAddress() == va, "VA " << h.GetVirtualAddress() << " vs " << va);
    // Deserialize accepts any length; the setter only the valid ones (up to 2^31).
    if (h.GetDmaLength() <= RoceRethHeader::MAX_DMA_LENGTH)
    {
        RoceRethHeader rebuilt;
        rebuilt.SetVirtualAddress(h.GetVirtualAddress());
        rebuilt.SetRKey(h.GetRKey());
        rebuilt.SetDmaLength(h.GetDmaLength());
        FUZZ_CHECK(SerializeHeader(rebuilt) == wire,
                   "rebuilt as " << Hex(SerializeHeader(rebuilt)));
    }
    return 0;
}
