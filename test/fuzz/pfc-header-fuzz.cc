/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of PfcHeader::Deserialize (IEEE 802.1Qbb PFC frame body).
 */
#include "fuzz-util.h"

#include "ns3/pfc-header.h"

using namespace ns3;
using namespace ns3::fuzz;

/**
 * \brief Deserialize a PFC body from the input: the 20 bytes round-trip exactly, the getters
 *        agree with the wire fields, and the setters rebuild the same bytes.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < PfcHeader::SIZE)
    {
        return 0; // receivers check the frame length before deserializing
    }
    PfcHeader h;
    const std::vector<uint8_t> wire = CheckExactRoundTrip(h, data, size);

    const uint16_t vector = (wire[2] << 8) | wire[3];
    FUZZ_CHECK(h.GetOpcode() == ((wire[0] << 8) | wire[1]), "opcode " << h.GetOpcode());
    FUZZ_CHECK(h.GetEnableVector() == vector, "vector " << h.GetEnableVector());
    PfcHeader rebuilt;
    rebuilt.SetOpcode(h.GetOpcode());
    for (uint8_t p = 0; p < PfcHeader::NUM_PRIORITIES; ++p)
    {
        const uint16_t quanta = (wire[4 + 2 * p] << 8) | wire[5 + 2 * p];
        FUZZ_CHECK(h.GetPauseQuanta(p) == quanta, "priority " << unsigned(p));
        FUZZ_CHECK(h.IsPriorityEnabled(p) == (((vector >> p) & 1) != 0),
                   "priority " << unsigned(p) << " vector " << vector);
        rebuilt.SetPauseQuanta(p, quanta);
    }
    rebuilt.SetEnableVector(vector);
    FUZZ_CHECK(SerializeHeader(rebuilt) == wire, "rebuilt as " << Hex(SerializeHeader(rebuilt)));
    return 0;
}
