/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pds-nack-header.h"

#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetPdsNackHeader);

UetPdsNackHeader::UetPdsNackHeader()
    : m_nackCode(NACK_TRIMMED),
      m_vendorCode(0),
      m_nackPsn(0),
      m_spdcid(0),
      m_dpdcid(0),
      m_payload(0)
{
    m_type = NACK;
}

TypeId
UetPdsNackHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetPdsNackHeader")
                            .SetParent<UetPdsHeader>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetPdsNackHeader>();
    return tid;
}

TypeId
UetPdsNackHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetPdsNackHeader::Print(std::ostream& os) const
{
    PrintPrologue(os, false);
    os << (GetM() ? " M" : "") << (GetRetx() ? " RETX" : "") << (GetNt() ? " NT" : "")
       << " code=" << NackCodeName(m_nackCode) << "(0x" << std::hex << unsigned(m_nackCode)
       << std::dec << ") vendor=" << unsigned(m_vendorCode) << " nack_psn=" << m_nackPsn
       << " spdcid=" << m_spdcid << " dpdcid=" << m_dpdcid << " payload=" << m_payload;
}

uint32_t
UetPdsNackHeader::GetSerializedSize() const
{
    return SIZE;
}

void
UetPdsNackHeader::Write(uint8_t* out) const
{
    WriteFields(out,
                m_nextHeader,
                m_flags,
                m_nackCode,
                m_vendorCode,
                m_nackPsn,
                m_spdcid,
                m_dpdcid,
                m_payload);
}

uint32_t
UetPdsNackHeader::Read(const uint8_t* in)
{
    ReadPrologue(in, PeekType(in) == NACK, "UetPdsNackHeader");
    m_nackCode = in[2];
    m_vendorCode = in[3];
    m_nackPsn = wire::GetU32(in + 4);
    m_spdcid = wire::GetU16(in + 8);
    m_dpdcid = wire::GetU16(in + 10);
    m_payload = wire::GetU32(in + 12);
    return SIZE;
}

void
UetPdsNackHeader::SetM(bool m)
{
    SetFlagBit(FLAG_M, m);
}

bool
UetPdsNackHeader::GetM() const
{
    return GetFlagBit(FLAG_M);
}

void
UetPdsNackHeader::SetRetx(bool retx)
{
    SetFlagBit(FLAG_RETX, retx);
}

bool
UetPdsNackHeader::GetRetx() const
{
    return GetFlagBit(FLAG_RETX);
}

void
UetPdsNackHeader::SetNt(bool nt)
{
    SetFlagBit(FLAG_NT, nt);
}

bool
UetPdsNackHeader::GetNt() const
{
    return GetFlagBit(FLAG_NT);
}

void
UetPdsNackHeader::SetNackCode(uint8_t code)
{
    m_nackCode = code;
}

uint8_t
UetPdsNackHeader::GetNackCode() const
{
    return m_nackCode;
}

void
UetPdsNackHeader::SetVendorCode(uint8_t code)
{
    m_vendorCode = code;
}

uint8_t
UetPdsNackHeader::GetVendorCode() const
{
    return m_vendorCode;
}

void
UetPdsNackHeader::SetNackPsn(uint32_t psn)
{
    m_nackPsn = psn;
}

uint32_t
UetPdsNackHeader::GetNackPsn() const
{
    return m_nackPsn;
}

void
UetPdsNackHeader::SetSpdcid(uint16_t spdcid)
{
    m_spdcid = spdcid;
}

uint16_t
UetPdsNackHeader::GetSpdcid() const
{
    return m_spdcid;
}

void
UetPdsNackHeader::SetDpdcid(uint16_t dpdcid)
{
    m_dpdcid = dpdcid;
}

uint16_t
UetPdsNackHeader::GetDpdcid() const
{
    return m_dpdcid;
}

void
UetPdsNackHeader::SetPayload(uint32_t payload)
{
    m_payload = payload;
}

uint32_t
UetPdsNackHeader::GetPayload() const
{
    return m_payload;
}

} // namespace ns3
