/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pds-rudi-header.h"

#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetPdsRudiHeader);
NS_OBJECT_ENSURE_REGISTERED(UetPdsUudHeader);

UetPdsRudiHeader::UetPdsRudiHeader()
    : m_reserved(0),
      m_pktId(0)
{
    m_type = RUDI_REQ;
}

TypeId
UetPdsRudiHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetPdsRudiHeader")
                            .SetParent<UetPdsHeader>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetPdsRudiHeader>();
    return tid;
}

TypeId
UetPdsRudiHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetPdsRudiHeader::Print(std::ostream& os) const
{
    PrintPrologue(os, false);
    os << (GetM() ? " M" : "") << (GetRetx() ? " RETX" : "") << " pkt_id=" << m_pktId;
}

uint32_t
UetPdsRudiHeader::GetSerializedSize() const
{
    return SIZE;
}

void
UetPdsRudiHeader::Write(uint8_t* out) const
{
    WriteFields(out, m_type, m_nextHeader, m_flags, m_pktId);
    wire::PutU16(out + 2, m_reserved);
}

uint32_t
UetPdsRudiHeader::Read(const uint8_t* in)
{
    uint8_t type = PeekType(in);
    ReadPrologue(in, type == RUDI_REQ || type == RUDI_RESP, "UetPdsRudiHeader");
    m_reserved = wire::GetU16(in + 2);
    m_pktId = wire::GetU32(in + 4);
    return SIZE;
}

void
UetPdsRudiHeader::SetType(uint8_t type)
{
    SetTypeChecked(type, type == RUDI_REQ || type == RUDI_RESP, "UetPdsRudiHeader");
}

void
UetPdsRudiHeader::SetM(bool m)
{
    SetFlagBit(FLAG_M, m);
}

bool
UetPdsRudiHeader::GetM() const
{
    return GetFlagBit(FLAG_M);
}

void
UetPdsRudiHeader::SetRetx(bool retx)
{
    SetFlagBit(FLAG_RETX, retx);
}

bool
UetPdsRudiHeader::GetRetx() const
{
    return GetFlagBit(FLAG_RETX);
}

void
UetPdsRudiHeader::SetReserved(uint16_t reserved)
{
    m_reserved = reserved;
}

uint16_t
UetPdsRudiHeader::GetReserved() const
{
    return m_reserved;
}

void
UetPdsRudiHeader::SetPktId(uint32_t pktId)
{
    m_pktId = pktId;
}

uint32_t
UetPdsRudiHeader::GetPktId() const
{
    return m_pktId;
}

UetPdsUudHeader::UetPdsUudHeader()
    : m_reserved(0)
{
    m_type = UUD_REQ;
}

TypeId
UetPdsUudHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetPdsUudHeader")
                            .SetParent<UetPdsHeader>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetPdsUudHeader>();
    return tid;
}

TypeId
UetPdsUudHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetPdsUudHeader::Print(std::ostream& os) const
{
    PrintPrologue(os, false);
}

uint32_t
UetPdsUudHeader::GetSerializedSize() const
{
    return SIZE;
}

void
UetPdsUudHeader::Write(uint8_t* out) const
{
    WritePrologue(out, m_type, m_nextHeader, m_flags);
    wire::PutU16(out + 2, m_reserved);
}

uint32_t
UetPdsUudHeader::Read(const uint8_t* in)
{
    ReadPrologue(in, PeekType(in) == UUD_REQ, "UetPdsUudHeader");
    m_reserved = wire::GetU16(in + 2);
    return SIZE;
}

void
UetPdsUudHeader::SetReserved(uint16_t reserved)
{
    m_reserved = reserved;
}

uint16_t
UetPdsUudHeader::GetReserved() const
{
    return m_reserved;
}

} // namespace ns3
