/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pds-ack-header.h"

#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetPdsAckHeader);

UetPdsAckHeader::UetPdsAckHeader()
    : m_ackPsnOffset(0),
      m_cackPsn(0),
      m_spdcid(0),
      m_dpdcid(0),
      m_ccType(CC_NSCC),
      m_ccFlags(0),
      m_mpr(0),
      m_sackPsnOffset(0),
      m_sackBitmap(0),
      m_ccState(0),
      m_ccxState{}
{
    m_type = ACK;
}

TypeId
UetPdsAckHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetPdsAckHeader")
                            .SetParent<UetPdsHeader>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetPdsAckHeader>();
    return tid;
}

TypeId
UetPdsAckHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetPdsAckHeader::Print(std::ostream& os) const
{
    PrintPrologue(os, false);
    os << (GetM() ? " M" : "") << (GetRetx() ? " RETX" : "") << (GetP() ? " P" : "")
       << " req=" << unsigned(GetReq()) << " ack_psn_offset=" << m_ackPsnOffset
       << " cack_psn=" << m_cackPsn << " spdcid=" << m_spdcid << " dpdcid=" << m_dpdcid;
    if (m_type == ACK)
    {
        return;
    }
    os << " cc_type=" << unsigned(m_ccType) << " cc_flags=" << unsigned(m_ccFlags)
       << " mpr=" << unsigned(m_mpr) << " sack_psn_offset=" << m_sackPsnOffset << " sack_bitmap=0x"
       << std::hex << m_sackBitmap << std::dec;
    if (m_type == ACK_CCX)
    {
        os << " ccx_state=";
        for (uint8_t b : m_ccxState)
        {
            os << std::hex << (b >> 4) << (b & 0xF) << std::dec;
        }
    }
    else if (m_ccType == CC_NSCC)
    {
        os << " NSCC service_time=" << GetServiceTime() << " rc=" << GetRc()
           << " rcv_cwnd_pend=" << unsigned(GetRcvCwndPend()) << " rcvd_bytes=" << GetRcvdBytes()
           << " ooo_count=" << GetOooCount();
    }
    else if (m_ccType == CC_CREDIT)
    {
        os << " CREDIT credit=" << GetCredit() << " ooo_count=" << GetOooCount();
    }
    else
    {
        os << " cc_state=0x" << std::hex << m_ccState << std::dec;
    }
}

uint32_t
UetPdsAckHeader::GetSerializedSize() const
{
    return m_type == ACK_CC ? CC_SIZE : (m_type == ACK_CCX ? CCX_SIZE : SIZE);
}

void
UetPdsAckHeader::Write(uint8_t* out) const
{
    switch (m_type)
    {
    case ACK_CC:
        WriteAckCc(out,
                   m_nextHeader,
                   m_flags,
                   m_ackPsnOffset,
                   m_cackPsn,
                   m_spdcid,
                   m_dpdcid,
                   m_ccType,
                   m_mpr,
                   m_sackPsnOffset,
                   m_sackBitmap,
                   m_ccState,
                   m_ccFlags);
        break;
    case ACK_CCX:
        WriteAckCcx(out,
                    m_nextHeader,
                    m_flags,
                    m_ackPsnOffset,
                    m_cackPsn,
                    m_spdcid,
                    m_dpdcid,
                    m_ccType,
                    m_mpr,
                    m_sackPsnOffset,
                    m_sackBitmap,
                    m_ccxState,
                    m_ccFlags);
        break;
    default:
        WriteAck(out, m_nextHeader, m_flags, m_ackPsnOffset, m_cackPsn, m_spdcid, m_dpdcid);
        break;
    }
}

uint32_t
UetPdsAckHeader::Read(const uint8_t* in)
{
    ReadPrologue(in, IsAckType(PeekType(in)), "UetPdsAckHeader");
    m_ackPsnOffset = static_cast<int16_t>(wire::GetU16(in + 2));
    m_cackPsn = wire::GetU32(in + 4);
    m_spdcid = wire::GetU16(in + 8);
    m_dpdcid = wire::GetU16(in + 10);
    if (m_type == ACK)
    {
        return SIZE;
    }
    m_ccType = in[12] >> 4;
    m_ccFlags = in[12] & 0xF;
    m_mpr = in[13];
    m_sackPsnOffset = static_cast<int16_t>(wire::GetU16(in + 14));
    m_sackBitmap = wire::GetU64(in + 16);
    if (m_type == ACK_CC)
    {
        m_ccState = wire::GetU64(in + 24);
        return CC_SIZE;
    }
    std::memcpy(m_ccxState, in + 24, CCX_STATE_SIZE);
    return CCX_SIZE;
}

void
UetPdsAckHeader::SetType(uint8_t type)
{
    SetTypeChecked(type, IsAckType(type), "UetPdsAckHeader");
}

void
UetPdsAckHeader::SetM(bool m)
{
    SetFlagBit(FLAG_M, m);
}

bool
UetPdsAckHeader::GetM() const
{
    return GetFlagBit(FLAG_M);
}

void
UetPdsAckHeader::SetRetx(bool retx)
{
    SetFlagBit(FLAG_RETX, retx);
}

bool
UetPdsAckHeader::GetRetx() const
{
    return GetFlagBit(FLAG_RETX);
}

void
UetPdsAckHeader::SetP(bool p)
{
    SetFlagBit(FLAG_P, p);
}

bool
UetPdsAckHeader::GetP() const
{
    return GetFlagBit(FLAG_P);
}

void
UetPdsAckHeader::SetReq(uint8_t req)
{
    UetCheckFieldWidth("UET PDS ACK REQ", req, 2);
    m_flags = static_cast<uint8_t>((m_flags & ~FLAG_ACK_REQ_MASK) | (req << 1));
}

uint8_t
UetPdsAckHeader::GetReq() const
{
    return (m_flags & FLAG_ACK_REQ_MASK) >> 1;
}

void
UetPdsAckHeader::SetAckPsnOffset(int16_t offset)
{
    m_ackPsnOffset = offset;
}

int16_t
UetPdsAckHeader::GetAckPsnOffset() const
{
    return m_ackPsnOffset;
}

uint32_t
UetPdsAckHeader::GetAckPsn() const
{
    return m_cackPsn + static_cast<uint32_t>(static_cast<int32_t>(m_ackPsnOffset));
}

void
UetPdsAckHeader::SetProbeOpaque(uint16_t opaque)
{
    m_ackPsnOffset = static_cast<int16_t>(opaque);
}

uint16_t
UetPdsAckHeader::GetProbeOpaque() const
{
    return static_cast<uint16_t>(m_ackPsnOffset);
}

void
UetPdsAckHeader::SetCackPsn(uint32_t psn)
{
    m_cackPsn = psn;
}

uint32_t
UetPdsAckHeader::GetCackPsn() const
{
    return m_cackPsn;
}

void
UetPdsAckHeader::SetSpdcid(uint16_t spdcid)
{
    m_spdcid = spdcid;
}

uint16_t
UetPdsAckHeader::GetSpdcid() const
{
    return m_spdcid;
}

void
UetPdsAckHeader::SetDpdcid(uint16_t dpdcid)
{
    m_dpdcid = dpdcid;
}

uint16_t
UetPdsAckHeader::GetDpdcid() const
{
    return m_dpdcid;
}

void
UetPdsAckHeader::SetCcType(uint8_t ccType)
{
    UetCheckFieldWidth("UET PDS ACK cc_type", ccType, 4);
    m_ccType = ccType;
}

uint8_t
UetPdsAckHeader::GetCcType() const
{
    return m_ccType;
}

void
UetPdsAckHeader::SetCcFlags(uint8_t ccFlags)
{
    UetCheckFieldWidth("UET PDS ACK cc_flags", ccFlags, 4);
    m_ccFlags = ccFlags;
}

uint8_t
UetPdsAckHeader::GetCcFlags() const
{
    return m_ccFlags;
}

void
UetPdsAckHeader::SetMpr(uint8_t mpr)
{
    m_mpr = mpr;
}

uint8_t
UetPdsAckHeader::GetMpr() const
{
    return m_mpr;
}

void
UetPdsAckHeader::SetSackPsnOffset(int16_t offset)
{
    m_sackPsnOffset = offset;
}

int16_t
UetPdsAckHeader::GetSackPsnOffset() const
{
    return m_sackPsnOffset;
}

uint32_t
UetPdsAckHeader::GetSackBasePsn() const
{
    return m_cackPsn + static_cast<uint32_t>(static_cast<int32_t>(m_sackPsnOffset));
}

void
UetPdsAckHeader::SetSackBitmap(uint64_t bitmap)
{
    m_sackBitmap = bitmap;
}

uint64_t
UetPdsAckHeader::GetSackBitmap() const
{
    return m_sackBitmap;
}

void
UetPdsAckHeader::SetCcState(uint64_t state)
{
    m_ccState = state;
}

uint64_t
UetPdsAckHeader::GetCcState() const
{
    return m_ccState;
}

void
UetPdsAckHeader::SetServiceTime(uint16_t serviceTime)
{
    m_ccState = (m_ccState & ~(uint64_t(0xFFFF) << 48)) | (uint64_t(serviceTime) << 48);
}

uint16_t
UetPdsAckHeader::GetServiceTime() const
{
    return static_cast<uint16_t>(m_ccState >> 48);
}

void
UetPdsAckHeader::SetRc(bool rc)
{
    m_ccState = rc ? (m_ccState | (uint64_t(1) << 47)) : (m_ccState & ~(uint64_t(1) << 47));
}

bool
UetPdsAckHeader::GetRc() const
{
    return (m_ccState >> 47) & 1;
}

void
UetPdsAckHeader::SetRcvCwndPend(uint8_t pend)
{
    UetCheckFieldWidth("UET PDS ACK_CC rcv_cwnd_pend", pend, 7);
    m_ccState = (m_ccState & ~(uint64_t(0x7F) << 40)) | (uint64_t(pend) << 40);
}

uint8_t
UetPdsAckHeader::GetRcvCwndPend() const
{
    return (m_ccState >> 40) & 0x7F;
}

void
UetPdsAckHeader::SetRcvdBytes(uint32_t rcvdBytes)
{
    UetCheckFieldWidth("UET PDS ACK_CC rcvd_bytes", rcvdBytes, 24);
    m_ccState = (m_ccState & ~(uint64_t(0xFFFFFF) << 16)) | (uint64_t(rcvdBytes) << 16);
}

uint32_t
UetPdsAckHeader::GetRcvdBytes() const
{
    return (m_ccState >> 16) & 0xFFFFFF;
}

void
UetPdsAckHeader::SetCredit(uint32_t credit)
{
    UetCheckFieldWidth("UET PDS ACK_CC credit", credit, 24);
    m_ccState = (m_ccState & ~(uint64_t(0xFFFFFF) << 40)) | (uint64_t(credit) << 40);
}

uint32_t
UetPdsAckHeader::GetCredit() const
{
    return static_cast<uint32_t>(m_ccState >> 40);
}

void
UetPdsAckHeader::SetOooCount(uint16_t oooCount)
{
    m_ccState = (m_ccState & ~uint64_t(0xFFFF)) | oooCount;
}

uint16_t
UetPdsAckHeader::GetOooCount() const
{
    return static_cast<uint16_t>(m_ccState);
}

void
UetPdsAckHeader::SetCcxState(const uint8_t* state)
{
    std::memcpy(m_ccxState, state, CCX_STATE_SIZE);
}

const uint8_t*
UetPdsAckHeader::GetCcxState() const
{
    return m_ccxState;
}

} // namespace ns3
