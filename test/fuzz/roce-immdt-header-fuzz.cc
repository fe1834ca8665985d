/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of RoceImmDtHeader::Deserialize (Immediate Data header).
 */
#include "fuzz-util.h"

#include "ns3/roce-immdt-header.h"

using namespace ns3;
using namespace ns3::fuzz;

/**
 * \brief Deserialize an ImmDt from the input: the 4 bytes round-trip exactly (through
 *        Deserialize and the NIC's raw Read/Write) and the constructor rebuilds them.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < RoceImmDtHeader::SIZE)
    {
        return 0; // the NIC checks that the extension headers are all there
    }
    RoceImmDtHeader h;
    const std::vector<uint8_t> wire = CheckExactRoundTrip(h, data, size);

    RoceImmDtHeader raw;
    raw.Read(data);
    std::vector<uint8_t> written(RoceImmDtHeader::SIZE);
    raw.Write(written.data());
    FUZZ_CHECK(written == wire, "raw Read/Write gave " << Hex(written));

    const uint32_t value =
        (uint32_t(wire[0]) << 24) | (uint32_t(wire[1]) << 16) | (uint32_t(wire[2]) << 8) | wire[3];
    FUZZ_CHECK(h.GetImmediate() == value, "immediate " << h.GetImmediate() << " vs " << value);
    FUZZ_CHECK(SerializeHeader(RoceImmDtHeader(value)) == wire, "constructor rebuilt differently");
    return 0;
}
