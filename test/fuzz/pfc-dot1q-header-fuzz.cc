/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of PfcDot1qHeader::Deserialize (802.1Q tag).
 */
#include "fuzz-util.h"

#include "ns3/pfc-dot1q-header.h"

using namespace ns3;
using namespace ns3::fuzz;

/**
 * \brief Deserialize an 802.1Q tag from the input: the 4 bytes round-trip exactly, PCP and VID
 *        are in range, and the validating constructor accepts them and rebuilds the tag (less
 *        the DEI bit, which it does not take).
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 4)
    {
        return 0; // the device checks the frame length before deserializing
    }
    PfcDot1qHeader h;
    const uint32_t consumed = DeserializeHeader(h, data, size);
    FUZZ_CHECK(consumed == 4 && h.GetSerializedSize() == 4, "consumed " << consumed);
    const std::vector<uint8_t> wire(data, data + 4);
    FUZZ_CHECK(SerializeHeader(h) == wire, "serialized back as " << Hex(SerializeHeader(h)));
    FUZZ_CHECK(h.GetPcp() <= 7 && h.GetVid() <= 4095,
               "pcp " << unsigned(h.GetPcp()) << " vid " << h.GetVid());
    FUZZ_CHECK(h.GetDei() == ((wire[0] & 0x10) != 0), "dei " << h.GetDei());
    FUZZ_CHECK(h.GetInnerType() == ((wire[2] << 8) | wire[3]), "type " << h.GetInnerType());

    PfcDot1qHeader rebuilt(h.GetPcp(), h.GetVid(), h.GetInnerType());
    std::vector<uint8_t> expected = wire;
    expected[0] &= ~0x10; // DEI
    FUZZ_CHECK(SerializeHeader(rebuilt) == expected,
               "rebuilt as " << Hex(SerializeHeader(rebuilt)));
    Printed(h);
    return 0;
}
