/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of RoceAethHeader::Deserialize (ACK Extended Transport Header).
 */
#include "fuzz-util.h"

#include "ns3/roce-aeth-header.h"

using namespace ns3;
using namespace ns3::fuzz;

/**
 * \brief Deserialize an AETH from the input: the 4 bytes round-trip exactly (through Deserialize
 *        and the NIC's raw Read/Write), at most one of ACK / NAK / RNR NAK holds and its value
 *        getter works, and the matching setter rebuilds the same bytes when the value is valid.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < RoceAethHeader::SIZE)
    {
        return 0; // the NIC checks that the extension headers are all there
    }
    RoceAethHeader h;
    const std::vector<uint8_t> wire = CheckExactRoundTrip(h, data, size);

    RoceAethHeader raw;
    raw.Read(data);
    std::vector<uint8_t> written(RoceAethHeader::SIZE);
    raw.Write(written.data());
    FUZZ_CHECK(written == wire, "raw Read/Write gave " << Hex(written));

    const uint8_t syndrome = wire[0];
    FUZZ_CHECK(h.GetSyndrome() == syndrome, "syndrome " << unsigned(h.GetSyndrome()));
    FUZZ_CHECK(h.GetMsn() <= RoceAethHeader::MAX_MSN, "MSN " << h.GetMsn());
    FUZZ_CHECK(int(h.IsAck()) + int(h.IsNak()) + int(h.IsRnrNak()) <= 1,
               "syndrome 0x" << std::hex << unsigned(syndrome) << " has several types");
    const uint8_t type = syndrome >> 5;
    FUZZ_CHECK(h.IsAck() == (type == 0) && h.IsRnrNak() == (type == 1) && h.IsNak() == (type == 3),
               "syndrome 0x" << std::hex << unsigned(syndrome) << " misclassified");

    RoceAethHeader rebuilt;
    rebuilt.SetMsn(h.GetMsn());
    bool settable = true;
    if (h.IsAck())
    {
        rebuilt.SetAck(h.GetCreditCount());
    }
    else if (h.IsRnrNak())
    {
        rebuilt.SetRnrNak(h.GetRnrTimer());
    }
    else if (h.IsNak() && h.GetNakCode() <= RoceAethHeader::NAK_INVALID_RD_REQUEST)
    {
        rebuilt.SetNak(h.GetNakCode());
    }
    else
    {
        settable = false; // reserved type or NAK code: only SetSyndrome takes it
        rebuilt.SetSyndrome(syndrome);
    }
    FUZZ_CHECK(SerializeHeader(rebuilt) == wire,
               "rebuilt (settable " << settable << ") as " << Hex(SerializeHeader(rebuilt)));
    return 0;
}
