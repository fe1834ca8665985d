/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of RoceIcrcTrailer::Deserialize and of its CRC over a packet.
 */
#include "fuzz-util.h"

#include "ns3/packet.h"
#include "ns3/roce-icrc-trailer.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::fuzz;

namespace
{

/// Smallest RoCEv2 packet the ICRC covers: IPv4 20 + UDP 8 + BTH 12, then the ICRC 4.
constexpr std::size_t MIN_PACKET = 20 + 8 + 12 + RoceIcrcTrailer::SIZE;

/**
 * \param b a packet's bytes
 * \return whether its ICRC (last 4 bytes) verifies
 */
bool
Verifies(const std::vector<uint8_t>& b)
{
    return RoceIcrcTrailer::Verify(Create<Packet>(b.data(), static_cast<uint32_t>(b.size())));
}

} // namespace

/**
 * \brief Deserialize an ICRC from the input's end (4 bytes, least-significant first, round trip
 *        exact); then make the input a well-formed IPv4/UDP/BTH packet (version, IHL, protocol,
 *        total length patched) and check that Update() changes only the last 4 bytes, that
 *        Verify() accepts the result, still accepts it with the variant fields (TOS, TTL, IPv4
 *        and UDP checksums, BTH octet 4) changed, and rejects it with any other byte changed.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < RoceIcrcTrailer::SIZE)
    {
        return 0; // the NIC checks the datagram length before reading the ICRC
    }
    RoceIcrcTrailer t;
    const uint32_t consumed = DeserializeTrailer(t, data, size);
    FUZZ_CHECK(consumed == RoceIcrcTrailer::SIZE && t.GetSerializedSize() == RoceIcrcTrailer::SIZE,
               "consumed " << consumed);
    const uint8_t* last = data + size - RoceIcrcTrailer::SIZE;
    const std::vector<uint8_t> wire(last, last + RoceIcrcTrailer::SIZE);
    const uint32_t value =
        last[0] | (uint32_t(last[1]) << 8) | (uint32_t(last[2]) << 16) | (uint32_t(last[3]) << 24);
    FUZZ_CHECK(t.GetIcrc() == value, "ICRC " << t.GetIcrc() << " vs " << value);
    FUZZ_CHECK(SerializeTrailer(t) == wire, "serialized back as " << Hex(SerializeTrailer(t)));
    FUZZ_CHECK(SerializeTrailer(RoceIcrcTrailer(value)) == wire, "constructor differs");

    if (size < MIN_PACKET || size > 0xFFFF)
    {
        return 0;
    }
    std::vector<uint8_t> b(data, data + size);
    const uint32_t maxIhlWords = std::min<uint32_t>(15, (size - MIN_PACKET + 20) / 4);
    const uint32_t ihlWords = 5 + (b[0] & 0x0F) % (maxIhlWords - 5 + 1);
    const uint32_t ihl = 4 * ihlWords;
    b[0] = static_cast<uint8_t>(0x40 | ihlWords);
    b[2] = static_cast<uint8_t>(size >> 8);
    b[3] = static_cast<uint8_t>(size);
    b[9] = 17;
    Ptr<Packet> p = Create<Packet>(b.data(), static_cast<uint32_t>(size));
    RoceIcrcTrailer::Update(p);
    std::vector<uint8_t> updated(size);
    p->CopyData(updated.data(), static_cast<uint32_t>(size));
    FUZZ_CHECK(std::equal(b.begin(), b.end() - RoceIcrcTrailer::SIZE, updated.begin()),
               "Update() changed more than the ICRC");
    FUZZ_CHECK(Verifies(updated), "Update() wrote an ICRC that Verify() rejects");

    const std::vector<std::size_t> variant{1, 8, 10, 11, ihl + 6, ihl + 7, ihl + 8 + 4};
    for (std::size_t v : variant)
    {
        std::vector<uint8_t> changed = updated;
        changed[v] ^= 0x5A;
        FUZZ_CHECK(Verifies(changed), "changing variant byte " << v << " broke the ICRC");
    }
    // One invariant byte, chosen by the input; not version/IHL, total length or protocol,
    // which Compute() checks (it aborts on a packet that is not IPv4/UDP).
    std::size_t pos = ((std::size_t(data[1]) << 8) | data[8]) % size;
    if (std::find(variant.begin(), variant.end(), pos) == variant.end() && pos != 0 && pos != 2 &&
        pos != 3 && pos != 9)
    {
        std::vector<uint8_t> changed = updated;
        changed[pos] ^= 0x01;
        FUZZ_CHECK(!Verifies(changed), "changing invariant byte " << pos << " kept the ICRC valid");
    }
    return 0;
}
