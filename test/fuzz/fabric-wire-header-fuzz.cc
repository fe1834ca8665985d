/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of FabricWireHeader::Deserialize, its Print() (which parses
 * Ethernet, 802.1Q, IPv4, UDP and the BTH) and the IPv4 checksum helpers.
 */
#include "fuzz-util.h"

#include "ns3/fabric-wire-header.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::fuzz;

/**
 * \brief The input's first byte picks the kind (bit 0); the rest (up to MAX_BYTES) are the
 *        header bytes. Deserialize reads exactly them back, Serialize writes them, Print()
 *        depends on them only (not on the unused end of the object's array), and a switch's
 *        incremental checksum update of an ECN mark and TTL decrement (RFC 1624) gives the
 *        checksum a full recomputation gives.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
    {
        return 0;
    }
    const auto kind = (data[0] & 1) ? FabricWireHeader::IPV4 : FabricWireHeader::ETHERNET;
    const uint8_t* bytes = data + 1;
    const uint32_t n =
        static_cast<uint32_t>(std::min<size_t>(size - 1, FabricWireHeader::MAX_BYTES));
    const std::vector<uint8_t> wire(bytes, bytes + n);

    // Deserialize reads the size given at construction.
    const std::vector<uint8_t> zeros(FabricWireHeader::MAX_BYTES, 0);
    FabricWireHeader h(kind, zeros.data(), n);
    const uint32_t consumed = DeserializeHeader(h, bytes, n);
    FUZZ_CHECK(consumed == n && h.GetSerializedSize() == n, "consumed " << consumed << " of " << n);
    FUZZ_CHECK(std::equal(wire.begin(), wire.end(), h.GetBytes()), "GetBytes() differs");
    FUZZ_CHECK(SerializeHeader(h) == wire, "serialized back as " << Hex(SerializeHeader(h)));

    // Print() reads the n valid bytes only: two objects whose arrays differ past n print the same.
    std::vector<uint8_t> padded(FabricWireHeader::MAX_BYTES, 0x00);
    std::copy(wire.begin(), wire.end(), padded.begin());
    FabricWireHeader a(kind, padded.data(), FabricWireHeader::MAX_BYTES);
    a.Set(kind, wire.data(), n);
    std::fill(padded.begin() + n, padded.end(), 0xFF);
    FabricWireHeader b(kind, padded.data(), FabricWireHeader::MAX_BYTES);
    b.Set(kind, wire.data(), n);
    const std::string printed = Printed(a);
    FUZZ_CHECK(printed == Printed(b), "'" << printed << "' vs '" << Printed(b) << "'");
    FUZZ_CHECK(printed == Printed(h), "'" << printed << "' vs '" << Printed(h) << "'");

    // The switch's incremental checksum update, on the bytes taken as an IPv4 header.
    if (n < 20)
    {
        return 0;
    }
    uint8_t ip[60] = {};
    std::copy(wire.begin(), wire.end() - (n > 60 ? n - 60 : 0), ip);
    const uint32_t ihlWords = std::max<uint32_t>(5, std::min<uint32_t>(ip[0] & 0x0F, n / 4));
    const uint32_t ihl = 4 * std::min<uint32_t>(ihlWords, 15);
    ip[0] = static_cast<uint8_t>(0x40 | (ihl / 4));
    uint16_t checksum = wire::Ipv4HeaderChecksum(ip, ihl);
    wire::PutU16(ip + 10, checksum);
    if (checksum == 0)
    {
        return 0; // the switch leaves a zero (not computed) checksum alone
    }
    const uint16_t tosWord = wire::GetU16(ip);
    const uint16_t ttlWord = wire::GetU16(ip + 8);
    ip[8]--;      // TTL decrement
    ip[1] |= 0x3; // ECN CE mark
    checksum = wire::UpdateChecksum(checksum, tosWord, wire::GetU16(ip));
    checksum = wire::UpdateChecksum(checksum, ttlWord, wire::GetU16(ip + 8));
    const uint16_t full = wire::Ipv4HeaderChecksum(ip, ihl);
    FUZZ_CHECK(checksum == full,
               "incremental checksum 0x" << std::hex << checksum << ", full 0x" << full
                                         << " for header "
                                         << Hex(std::vector<uint8_t>(ip, ip + ihl)));
    return 0;
}
