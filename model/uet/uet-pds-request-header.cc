/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pds-request-header.h"

#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetPdsRequestHeader);

UetPdsRequestHeader::UetPdsRequestHeader()
    : m_clearPsnOffset(0),
      m_psn(0),
      m_spdcid(0),
      m_dpdcid(0),
      m_cccId(0),
      m_creditTarget(0)
{
    m_type = RUD_REQ;
}

TypeId
UetPdsRequestHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetPdsRequestHeader")
                            .SetParent<UetPdsHeader>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetPdsRequestHeader>();
    return tid;
}

TypeId
UetPdsRequestHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetPdsRequestHeader::Print(std::ostream& os) const
{
    PrintPrologue(os, false);
    os << (GetRetx() ? " RETX" : "") << (GetAr() ? " AR" : "") << (GetSyn() ? " SYN" : "")
       << " clear_psn_offset=" << m_clearPsnOffset << " psn=" << m_psn << " spdcid=" << m_spdcid;
    if (GetSyn())
    {
        os << " pdc_info=" << unsigned(GetPdcInfo()) << " psn_offset=" << GetPsnOffset();
    }
    else
    {
        os << " dpdcid=" << m_dpdcid;
    }
    if (HasCcState(m_type))
    {
        os << " ccc_id=" << unsigned(m_cccId) << " credit_target=" << m_creditTarget;
    }
}

uint32_t
UetPdsRequestHeader::GetSerializedSize() const
{
    return HasCcState(m_type) ? CC_SIZE : SIZE;
}

void
UetPdsRequestHeader::Write(uint8_t* out) const
{
    WriteFields(out,
                m_type,
                m_nextHeader,
                m_flags,
                m_clearPsnOffset,
                m_psn,
                m_spdcid,
                m_dpdcid,
                m_cccId,
                m_creditTarget);
}

uint32_t
UetPdsRequestHeader::Read(const uint8_t* in)
{
    ReadPrologue(in, IsRequestType(PeekType(in)), "UetPdsRequestHeader");
    m_clearPsnOffset = static_cast<int16_t>(wire::GetU16(in + 2));
    m_psn = wire::GetU32(in + 4);
    m_spdcid = wire::GetU16(in + 8);
    m_dpdcid = wire::GetU16(in + 10);
    if (!HasCcState(m_type))
    {
        m_cccId = 0;
        m_creditTarget = 0;
        return SIZE;
    }
    m_cccId = in[12];
    m_creditTarget = wire::GetU24(in + 13);
    return CC_SIZE;
}

void
UetPdsRequestHeader::SetType(uint8_t type)
{
    SetTypeChecked(type, IsRequestType(type), "UetPdsRequestHeader");
}

void
UetPdsRequestHeader::SetRetx(bool retx)
{
    SetFlagBit(FLAG_RETX, retx);
}

bool
UetPdsRequestHeader::GetRetx() const
{
    return GetFlagBit(FLAG_RETX);
}

void
UetPdsRequestHeader::SetAr(bool ar)
{
    SetFlagBit(FLAG_AR, ar);
}

bool
UetPdsRequestHeader::GetAr() const
{
    return GetFlagBit(FLAG_AR);
}

void
UetPdsRequestHeader::SetSyn(bool syn)
{
    SetFlagBit(FLAG_SYN, syn);
}

bool
UetPdsRequestHeader::GetSyn() const
{
    return GetFlagBit(FLAG_SYN);
}

void
UetPdsRequestHeader::SetClearPsnOffset(int16_t offset)
{
    m_clearPsnOffset = offset;
}

int16_t
UetPdsRequestHeader::GetClearPsnOffset() const
{
    return m_clearPsnOffset;
}

uint32_t
UetPdsRequestHeader::GetClearPsn() const
{
    return m_psn + static_cast<uint32_t>(static_cast<int32_t>(m_clearPsnOffset));
}

void
UetPdsRequestHeader::SetPsn(uint32_t psn)
{
    m_psn = psn;
}

uint32_t
UetPdsRequestHeader::GetPsn() const
{
    return m_psn;
}

void
UetPdsRequestHeader::SetSpdcid(uint16_t spdcid)
{
    m_spdcid = spdcid;
}

uint16_t
UetPdsRequestHeader::GetSpdcid() const
{
    return m_spdcid;
}

void
UetPdsRequestHeader::SetDpdcid(uint16_t dpdcid)
{
    m_dpdcid = dpdcid;
}

uint16_t
UetPdsRequestHeader::GetDpdcid() const
{
    return m_dpdcid;
}

void
UetPdsRequestHeader::SetPdcInfo(uint8_t pdcInfo)
{
    UetCheckFieldWidth("UET PDS request pdc_info", pdcInfo, 4);
    m_dpdcid = SynField(pdcInfo, GetPsnOffset());
}

uint8_t
UetPdsRequestHeader::GetPdcInfo() const
{
    return static_cast<uint8_t>(m_dpdcid >> 12);
}

void
UetPdsRequestHeader::SetUseReservedPdc(bool use)
{
    SetPdcInfo(use ? (GetPdcInfo() | 0x8) : (GetPdcInfo() & 0x7));
}

bool
UetPdsRequestHeader::GetUseReservedPdc() const
{
    return (GetPdcInfo() & 0x8) != 0;
}

void
UetPdsRequestHeader::SetPsnOffset(uint16_t psnOffset)
{
    UetCheckFieldWidth("UET PDS request psn_offset", psnOffset, 12);
    m_dpdcid = SynField(GetPdcInfo(), psnOffset);
}

uint16_t
UetPdsRequestHeader::GetPsnOffset() const
{
    return m_dpdcid & 0xFFF;
}

uint32_t
UetPdsRequestHeader::GetStartPsn() const
{
    return m_psn - GetPsnOffset();
}

void
UetPdsRequestHeader::SetCccId(uint8_t cccId)
{
    m_cccId = cccId;
}

uint8_t
UetPdsRequestHeader::GetCccId() const
{
    return m_cccId;
}

void
UetPdsRequestHeader::SetCreditTarget(uint32_t creditTarget)
{
    UetCheckFieldWidth("UET PDS request credit_target", creditTarget, 24);
    m_creditTarget = creditTarget;
}

uint32_t
UetPdsRequestHeader::GetCreditTarget() const
{
    return m_creditTarget;
}

} // namespace ns3
