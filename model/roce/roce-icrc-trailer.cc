/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-icrc-trailer.h"

#include "ns3/abort.h"

#include <array>
#include <vector>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceIcrcTrailer);

namespace
{

/// Reflected form of the IEEE 802.3 CRC-32 polynomial 0x04C11DB7.
constexpr uint32_t CRC32_POLY_REFLECTED = 0xEDB88320u;

/// Byte-at-a-time lookup table of the reflected CRC-32, built at compile time.
constexpr std::array<uint32_t, 256>
MakeCrcTable()
{
    std::array<uint32_t, 256> table{};
    for (uint32_t i = 0; i < 256; ++i)
    {
        uint32_t c = i;
        for (int bit = 0; bit < 8; ++bit)
        {
            c = (c & 1u) ? (c >> 1) ^ CRC32_POLY_REFLECTED : (c >> 1);
        }
        table[i] = c;
    }
    return table;
}

constexpr std::array<uint32_t, 256> CRC_TABLE = MakeCrcTable(); //!< the lookup table

/// Continue a reflected CRC-32 register over len bytes (no initial or final complement).
uint32_t
CrcUpdate(uint32_t reg, const uint8_t* data, std::size_t len)
{
    for (std::size_t i = 0; i < len; ++i)
    {
        reg = CRC_TABLE[(reg ^ data[i]) & 0xFFu] ^ (reg >> 8);
    }
    return reg;
}

constexpr uint32_t UDP_SIZE = 8;  //!< UDP header bytes
constexpr uint32_t BTH_SIZE = 12; //!< BTH bytes

} // namespace

RoceIcrcTrailer::RoceIcrcTrailer()
    : m_icrc(0)
{
}

RoceIcrcTrailer::RoceIcrcTrailer(uint32_t icrc)
    : m_icrc(icrc)
{
}

TypeId
RoceIcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceIcrcTrailer>();
    return tid;
}

TypeId
RoceIcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceIcrcTrailer::Print(std::ostream& os) const
{
    os << "ICRC 0x" << std::hex << m_icrc << std::dec;
}

uint32_t
RoceIcrcTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
RoceIcrcTrailer::Serialize(Buffer::Iterator end) const
{
    Buffer::Iterator i = end;
    i.Prev(SIZE);
    i.WriteU32(m_icrc); // least-significant octet first, as the Ethernet FCS
}

uint32_t
RoceIcrcTrailer::Deserialize(Buffer::Iterator end)
{
    Buffer::Iterator i = end;
    i.Prev(SIZE);
    m_icrc = i.ReadU32();
    return SIZE;
}

void
RoceIcrcTrailer::SetIcrc(uint32_t icrc)
{
    m_icrc = icrc;
}

uint32_t
RoceIcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

uint32_t
RoceIcrcTrailer::Compute(Ptr<const Packet> ipPacketWithoutIcrc)
{
    NS_ABORT_MSG_IF(!ipPacketWithoutIcrc, "RoceIcrcTrailer::Compute: null packet");
    const uint32_t n = ipPacketWithoutIcrc->GetSize();
    NS_ABORT_MSG_IF(n < 20 + UDP_SIZE + BTH_SIZE,
                    "RoceIcrcTrailer::Compute: packet of " << n << " B is too short; need at least "
                                                           << 20 + UDP_SIZE + BTH_SIZE
                                                           << " B (IPv4 + UDP + BTH)");
    std::vector<uint8_t> b(n);
    ipPacketWithoutIcrc->CopyData(b.data(), n);

    const unsigned version = b[0] >> 4;
    const uint32_t ihl = (b[0] & 0x0Fu) * 4;
    NS_ABORT_MSG_IF(version != 4,
                    "RoceIcrcTrailer::Compute: IP version " << version
                                                            << " is not supported; only IPv4 (4)");
    NS_ABORT_MSG_IF(ihl < 20,
                    "RoceIcrcTrailer::Compute: IPv4 header length " << ihl
                                                                    << " B is invalid; valid "
                                                                       "lengths are 20..60 B");
    NS_ABORT_MSG_IF(b[9] != 17,
                    "RoceIcrcTrailer::Compute: IPv4 protocol " << unsigned(b[9])
                                                               << " is not UDP (17)");
    NS_ABORT_MSG_IF(n < ihl + UDP_SIZE + BTH_SIZE,
                    "RoceIcrcTrailer::Compute: packet of " << n << " B is too short for IPv4 ("
                                                           << ihl << " B) + UDP + BTH");
    const uint32_t totalLength = (uint32_t(b[2]) << 8) | b[3];
    NS_ABORT_MSG_IF(totalLength != n + SIZE,
                    "RoceIcrcTrailer::Compute: IPv4 total length "
                        << totalLength << " B does not match the packet (" << n
                        << " B) plus the 4-byte ICRC; set the final length before computing");

    // Variant fields, replaced by 1s (Annex A17.3.3).
    b[1] = 0xFF;  // IPv4 Type of Service (DSCP + ECN)
    b[8] = 0xFF;  // IPv4 TTL
    b[10] = 0xFF; // IPv4 header checksum
    b[11] = 0xFF;
    b[ihl + 6] = 0xFF; // UDP checksum
    b[ihl + 7] = 0xFF;
    b[ihl + UDP_SIZE + 4] = 0xFF; // BTH octet 4: FECN, BECN, resv6

    // 8 octets of 1s stand for the masked InfiniBand Local Route Header.
    const std::array<uint8_t, 8> lrh{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uint32_t reg = CrcUpdate(0xFFFFFFFFu, lrh.data(), lrh.size());
    reg = CrcUpdate(reg, b.data(), b.size());
    return ~reg;
}

bool
RoceIcrcTrailer::Verify(Ptr<const Packet> ipPacketWithIcrc)
{
    NS_ABORT_MSG_IF(!ipPacketWithIcrc, "RoceIcrcTrailer::Verify: null packet");
    const uint32_t n = ipPacketWithIcrc->GetSize();
    NS_ABORT_MSG_IF(n < SIZE,
                    "RoceIcrcTrailer::Verify: packet of " << n << " B is shorter than the ICRC");
    Ptr<Packet> copy = ipPacketWithIcrc->Copy();
    RoceIcrcTrailer icrc;
    copy->RemoveTrailer(icrc);
    return Compute(copy) == icrc.GetIcrc();
}

void
RoceIcrcTrailer::Update(Ptr<Packet> ipPacketWithIcrc)
{
    NS_ABORT_MSG_IF(!ipPacketWithIcrc, "RoceIcrcTrailer::Update: null packet");
    const uint32_t n = ipPacketWithIcrc->GetSize();
    NS_ABORT_MSG_IF(n < SIZE,
                    "RoceIcrcTrailer::Update: packet of " << n << " B is shorter than the ICRC");
    uint32_t value = Compute(ipPacketWithIcrc->CreateFragment(0, n - SIZE));
    RoceIcrcTrailer icrc;
    ipPacketWithIcrc->RemoveTrailer(icrc);
    icrc.SetIcrc(value);
    ipPacketWithIcrc->AddTrailer(icrc);
}

} // namespace ns3
