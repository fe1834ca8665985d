/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pds-control-header.h"

#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetPdsControlHeader);

UetPdsControlHeader::UetPdsControlHeader()
    : m_probeOpaque(0),
      m_psn(0),
      m_spdcid(0),
      m_dpdcid(0),
      m_payload(0)
{
    m_type = CTRL;
    m_nextHeader = CTRL_NOOP;
}

TypeId
UetPdsControlHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetPdsControlHeader")
                            .SetParent<UetPdsHeader>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetPdsControlHeader>();
    return tid;
}

TypeId
UetPdsControlHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetPdsControlHeader::Print(std::ostream& os) const
{
    PrintPrologue(os, true);
    os << (GetRetx() ? " RETX" : "") << (GetAr() ? " AR" : "") << (GetSyn() ? " SYN" : "")
       << " probe_opaque=" << m_probeOpaque << " psn=" << m_psn << " spdcid=" << m_spdcid;
    if (GetSyn())
    {
        os << " pdc_info=" << unsigned(GetPdcInfo()) << " psn_offset=" << GetPsnOffset();
    }
    else
    {
        os << " dpdcid=" << m_dpdcid;
    }
    os << " payload=" << m_payload;
}

uint32_t
UetPdsControlHeader::GetSerializedSize() const
{
    return SIZE;
}

void
UetPdsControlHeader::Write(uint8_t* out) const
{
    WriteFields(out, m_nextHeader, m_flags, m_probeOpaque, m_psn, m_spdcid, m_dpdcid, m_payload);
}

uint32_t
UetPdsControlHeader::Read(const uint8_t* in)
{
    ReadPrologue(in, PeekType(in) == CTRL, "UetPdsControlHeader");
    m_probeOpaque = wire::GetU16(in + 2);
    m_psn = wire::GetU32(in + 4);
    m_spdcid = wire::GetU16(in + 8);
    m_dpdcid = wire::GetU16(in + 10);
    m_payload = wire::GetU32(in + 12);
    return SIZE;
}

void
UetPdsControlHeader::SetCtrlType(uint8_t ctlType)
{
    UetCheckFieldWidth("UET PDS control ctl_type", ctlType, 4);
    m_nextHeader = ctlType;
}

uint8_t
UetPdsControlHeader::GetCtrlType() const
{
    return m_nextHeader;
}

void
UetPdsControlHeader::SetRetx(bool retx)
{
    SetFlagBit(FLAG_RETX, retx);
}

bool
UetPdsControlHeader::GetRetx() const
{
    return GetFlagBit(FLAG_RETX);
}

void
UetPdsControlHeader::SetAr(bool ar)
{
    SetFlagBit(FLAG_AR, ar);
}

bool
UetPdsControlHeader::GetAr() const
{
    return GetFlagBit(FLAG_AR);
}

void
UetPdsControlHeader::SetSyn(bool syn)
{
    SetFlagBit(FLAG_SYN, syn);
}

bool
UetPdsControlHeader::GetSyn() const
{
    return GetFlagBit(FLAG_SYN);
}

void
UetPdsControlHeader::SetProbeOpaque(uint16_t opaque)
{
    m_probeOpaque = opaque;
}

uint16_t
UetPdsControlHeader::GetProbeOpaque() const
{
    return m_probeOpaque;
}

void
UetPdsControlHeader::SetPsn(uint32_t psn)
{
    m_psn = psn;
}

uint32_t
UetPdsControlHeader::GetPsn() const
{
    return m_psn;
}

void
UetPdsControlHeader::SetSpdcid(uint16_t spdcid)
{
    m_spdcid = spdcid;
}

uint16_t
UetPdsControlHeader::GetSpdcid() const
{
    return m_spdcid;
}

void
UetPdsControlHeader::SetDpdcid(uint16_t dpdcid)
{
    m_dpdcid = dpdcid;
}

uint16_t
UetPdsControlHeader::GetDpdcid() const
{
    return m_dpdcid;
}

void
UetPdsControlHeader::SetPdcInfo(uint8_t pdcInfo)
{
    UetCheckFieldWidth("UET PDS control pdc_info", pdcInfo, 4);
    m_dpdcid = static_cast<uint16_t>((pdcInfo << 12) | (m_dpdcid & 0xFFF));
}

uint8_t
UetPdsControlHeader::GetPdcInfo() const
{
    return static_cast<uint8_t>(m_dpdcid >> 12);
}

void
UetPdsControlHeader::SetPsnOffset(uint16_t psnOffset)
{
    UetCheckFieldWidth("UET PDS control psn_offset", psnOffset, 12);
    m_dpdcid = static_cast<uint16_t>((m_dpdcid & 0xF000) | psnOffset);
}

uint16_t
UetPdsControlHeader::GetPsnOffset() const
{
    return m_dpdcid & 0xFFF;
}

void
UetPdsControlHeader::SetPayload(uint32_t payload)
{
    m_payload = payload;
}

uint32_t
UetPdsControlHeader::GetPayload() const
{
    return m_payload;
}

} // namespace ns3
