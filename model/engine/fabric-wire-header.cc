/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-wire-header.h"

#include "ns3/abort.h"
#include "ns3/udp-port-table.h"

#include <cstring>
#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricWireHeader);

TypeId
FabricWireHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricWireHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<FabricWireHeader>();
    return tid;
}

FabricWireHeader::FabricWireHeader(Kind kind, const uint8_t* bytes, uint32_t size)
    : m_size(size),
      m_kind(kind)
{
    NS_ABORT_MSG_IF(size > MAX_BYTES,
                    "FabricWireHeader: " << size << " bytes given, at most " << MAX_BYTES);
    if (size != 0) // memcpy from a null pointer is undefined even for 0 bytes
    {
        std::memcpy(m_bytes, bytes, size);
    }
}

void
FabricWireHeader::Set(Kind kind, const uint8_t* bytes, uint32_t size)
{
    NS_ABORT_MSG_IF(size > MAX_BYTES,
                    "FabricWireHeader: " << size << " bytes given, at most " << MAX_BYTES);
    m_kind = kind;
    m_size = size;
    if (size != 0) // memcpy from a null pointer is undefined even for 0 bytes
    {
        std::memcpy(m_bytes, bytes, size);
    }
}

TypeId
FabricWireHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

namespace
{
/// The describers by UDP destination port (a function-local static: transports register
/// theirs from static initializers of other translation units).
UdpPortTable<FabricWireHeader::UdpPayloadDescriber>&
UdpDescribers()
{
    static UdpPortTable<FabricWireHeader::UdpPayloadDescriber> describers;
    return describers;
}

void
PrintMac(std::ostream& os, const uint8_t* m)
{
    for (int i = 0; i < 6; ++i)
    {
        os << (i ? ":" : "") << std::hex << std::setw(2) << std::setfill('0') << unsigned(m[i]);
    }
    os << std::dec << std::setfill(' ');
}

void
PrintIpv4(std::ostream& os, const uint8_t* a)
{
    os << unsigned(a[0]) << '.' << unsigned(a[1]) << '.' << unsigned(a[2]) << '.' << unsigned(a[3]);
}
} // namespace

void
FabricWireHeader::SetUdpPayloadDescriber(uint16_t udpDstPort, UdpPayloadDescriber describer)
{
    if (describer)
    {
        UdpDescribers().Set(udpDstPort, describer);
    }
    else
    {
        UdpDescribers().Remove(udpDstPort);
    }
}

FabricWireHeader::UdpPayloadDescriber
FabricWireHeader::GetUdpPayloadDescriber(uint16_t udpDstPort)
{
    return UdpDescribers().Find(udpDstPort);
}

void
FabricWireHeader::Print(std::ostream& os) const
{
    const uint8_t* b = m_bytes;
    uint32_t n = m_size;
    if (m_kind == ETHERNET && n >= 14)
    {
        os << "Ethernet ";
        PrintMac(os, b + 6);
        os << " > ";
        PrintMac(os, b);
        uint16_t type = wire::GetU16(b + 12);
        b += 14;
        n -= 14;
        if (type == 0x8100 && n >= 4)
        {
            uint16_t tci = wire::GetU16(b);
            os << " 802.1Q pcp " << (tci >> 13) << " vid " << (tci & 0x0fff);
            type = wire::GetU16(b + 2);
            b += 4;
            n -= 4;
        }
        os << " type 0x" << std::hex << type << std::dec;
        if (type != 0x0800 || n < 20)
        {
            return;
        }
        os << "; ";
    }
    if (n < 20 || (b[0] >> 4) != 4)
    {
        os << n << " header bytes";
        return;
    }
    uint32_t ihl = (b[0] & 0x0f) * 4u;
    os << "IPv4 ";
    PrintIpv4(os, b + 12);
    os << " > ";
    PrintIpv4(os, b + 16);
    os << " dscp " << (b[1] >> 2) << " ecn " << (b[1] & 3) << " ttl " << unsigned(b[8]) << " len "
       << wire::GetU16(b + 2);
    if (b[9] != 17 || n < ihl + 8)
    {
        return;
    }
    const uint8_t* u = b + ihl;
    os << "; UDP " << wire::GetU16(u) << " > " << wire::GetU16(u + 2);
    if (UdpPayloadDescriber describe = GetUdpPayloadDescriber(wire::GetU16(u + 2)))
    {
        describe(os, u + 8, n - ihl - 8);
    }
}

uint32_t
FabricWireHeader::GetSerializedSize() const
{
    return m_size;
}

void
FabricWireHeader::Serialize(Buffer::Iterator start) const
{
    start.Write(m_bytes, m_size);
}

uint32_t
FabricWireHeader::Deserialize(Buffer::Iterator start)
{
    start.Read(m_bytes, m_size);
    return m_size;
}

namespace wire
{
uint16_t
Ipv4HeaderChecksum(const uint8_t* h, uint32_t ihlBytes)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < ihlBytes; i += 2)
    {
        if (i != 10)
        {
            sum += (uint32_t(h[i]) << 8) | h[i + 1];
        }
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}
} // namespace wire

} // namespace ns3
