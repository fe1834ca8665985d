/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of RoceCnpHeader::Deserialize (the 16 reserved bytes of a CNP).
 */
#include "fuzz-util.h"

#include "ns3/roce-cnp-header.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::fuzz;

/**
 * \brief Deserialize a CNP body from the input: the 16 bytes round-trip exactly (a forwarding
 *        element must not change them), GetReserved() returns them and IsAllZero() tells
 *        whether they were all zero.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < RoceCnpHeader::SIZE)
    {
        return 0; // the NIC checks the datagram length before reading the CNP body
    }
    RoceCnpHeader h;
    const std::vector<uint8_t> wire = CheckExactRoundTrip(h, data, size);
    FUZZ_CHECK(std::equal(wire.begin(), wire.end(), h.GetReserved().begin()),
               "GetReserved() differs from " << Hex(wire));
    const bool zero = std::all_of(wire.begin(), wire.end(), [](uint8_t b) { return b == 0; });
    FUZZ_CHECK(h.IsAllZero() == zero, "IsAllZero() is " << h.IsAllZero() << " for " << Hex(wire));
    return 0;
}
