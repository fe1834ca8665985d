/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-bth-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-wire-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceBthHeader);

namespace
{

/// Abort unless value fits in 24 bits; what names the field in the message.
void
Check24(uint32_t value, const char* what)
{
    NS_ABORT_MSG_IF(value > RoceBthHeader::MAX_24BIT,
                    what << " " << value << " (0x" << std::hex << value << std::dec
                         << ") is out of range; valid values are 0..16777215 (0xFFFFFF)");
}

} // namespace

RoceBthHeader::RoceBthHeader()
    : m_opcode(SEND_FIRST),
      m_se(false),
      m_migReq(false),
      m_padCnt(0),
      m_tver(0),
      m_pkey(DEFAULT_PKEY),
      m_resv8(0),
      m_destQp(0),
      m_ackReq(false),
      m_resv7(0),
      m_psn(0)
{
}

TypeId
RoceBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceBthHeader>();
    return tid;
}

TypeId
RoceBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceBthHeader::Print(std::ostream& os) const
{
    os << "BTH op=" << OpcodeName(m_opcode) << "(0x" << std::hex << unsigned(m_opcode)
       << ") pkey=0x" << m_pkey << " dqp=0x" << m_destQp << std::dec << " psn=" << m_psn
       << " se=" << m_se << " m=" << m_migReq << " pad=" << unsigned(m_padCnt)
       << " tver=" << unsigned(m_tver) << " fecn=" << GetFecn() << " becn=" << GetBecn()
       << " ackreq=" << m_ackReq;
}

uint32_t
RoceBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceBthHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
RoceBthHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

void
RoceBthHeader::Write(uint8_t* out) const
{
    out[0] = m_opcode;
    out[1] =
        static_cast<uint8_t>((m_se ? 0x80 : 0) | (m_migReq ? 0x40 : 0) | (m_padCnt << 4) | m_tver);
    wire::PutU16(out + 2, m_pkey);
    wire::PutU32(out + 4, (uint32_t(m_resv8) << 24) | m_destQp);
    wire::PutU32(out + 8, (uint32_t((m_ackReq ? 0x80 : 0) | m_resv7) << 24) | m_psn);
}

void
RoceBthHeader::Read(const uint8_t* in)
{
    m_opcode = in[0];
    uint8_t flags = in[1];
    m_se = (flags & 0x80) != 0;
    m_migReq = (flags & 0x40) != 0;
    m_padCnt = (flags >> 4) & 0x3;
    m_tver = flags & 0xF;
    m_pkey = wire::GetU16(in + 2);
    uint32_t word = wire::GetU32(in + 4);
    m_resv8 = static_cast<uint8_t>(word >> 24);
    m_destQp = word & MAX_24BIT;
    word = wire::GetU32(in + 8);
    m_ackReq = (word & 0x80000000u) != 0;
    m_resv7 = static_cast<uint8_t>((word >> 24) & 0x7F);
    m_psn = word & MAX_24BIT;
}

void
RoceBthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
RoceBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
RoceBthHeader::SetSolicitedEvent(bool se)
{
    m_se = se;
}

bool
RoceBthHeader::GetSolicitedEvent() const
{
    return m_se;
}

void
RoceBthHeader::SetMigReq(bool m)
{
    m_migReq = m;
}

bool
RoceBthHeader::GetMigReq() const
{
    return m_migReq;
}

void
RoceBthHeader::SetPadCnt(uint8_t padCnt)
{
    NS_ABORT_MSG_IF(padCnt > 3,
                    "BTH PadCnt " << unsigned(padCnt) << " is out of range; valid values are 0..3");
    m_padCnt = padCnt;
}

uint8_t
RoceBthHeader::GetPadCnt() const
{
    return m_padCnt;
}

void
RoceBthHeader::SetTVer(uint8_t tver)
{
    NS_ABORT_MSG_IF(tver > 15,
                    "BTH TVer " << unsigned(tver) << " is out of range; valid values are 0..15");
    m_tver = tver;
}

uint8_t
RoceBthHeader::GetTVer() const
{
    return m_tver;
}

void
RoceBthHeader::SetPKey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
RoceBthHeader::GetPKey() const
{
    return m_pkey;
}

void
RoceBthHeader::SetResv8(uint8_t resv8)
{
    m_resv8 = resv8;
}

uint8_t
RoceBthHeader::GetResv8() const
{
    return m_resv8;
}

void
RoceBthHeader::SetFecn(bool fecn)
{
    m_resv8 = fecn ? (m_resv8 | FECN_BIT) : (m_resv8 & ~FECN_BIT);
}

bool
RoceBthHeader::GetFecn() const
{
    return (m_resv8 & FECN_BIT) != 0;
}

void
RoceBthHeader::SetBecn(bool becn)
{
    m_resv8 = becn ? (m_resv8 | BECN_BIT) : (m_resv8 & ~BECN_BIT);
}

bool
RoceBthHeader::GetBecn() const
{
    return (m_resv8 & BECN_BIT) != 0;
}

void
RoceBthHeader::SetDestQp(uint32_t qpn)
{
    Check24(qpn, "BTH DestQP");
    m_destQp = qpn;
}

uint32_t
RoceBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
RoceBthHeader::SetAckReq(bool ackReq)
{
    m_ackReq = ackReq;
}

bool
RoceBthHeader::GetAckReq() const
{
    return m_ackReq;
}

void
RoceBthHeader::SetResv7(uint8_t resv7)
{
    NS_ABORT_MSG_IF(resv7 > 0x7F,
                    "BTH reserved-7 value " << unsigned(resv7)
                                            << " is out of range; valid values are 0..127");
    m_resv7 = resv7;
}

uint8_t
RoceBthHeader::GetResv7() const
{
    return m_resv7;
}

void
RoceBthHeader::SetPsn(uint32_t psn)
{
    Check24(psn, "BTH PSN");
    m_psn = psn;
}

uint32_t
RoceBthHeader::GetPsn() const
{
    return m_psn;
}

const char*
RoceBthHeader::OpcodeName(uint8_t op)
{
    switch (op)
    {
    case SEND_FIRST:
        return "SEND_FIRST";
    case SEND_MIDDLE:
        return "SEND_MIDDLE";
    case SEND_LAST:
        return "SEND_LAST";
    case SEND_LAST_WITH_IMM:
        return "SEND_LAST_WITH_IMM";
    case SEND_ONLY:
        return "SEND_ONLY";
    case SEND_ONLY_WITH_IMM:
        return "SEND_ONLY_WITH_IMM";
    case WRITE_FIRST:
        return "WRITE_FIRST";
    case WRITE_MIDDLE:
        return "WRITE_MIDDLE";
    case WRITE_LAST:
        return "WRITE_LAST";
    case WRITE_LAST_WITH_IMM:
        return "WRITE_LAST_WITH_IMM";
    case WRITE_ONLY:
        return "WRITE_ONLY";
    case WRITE_ONLY_WITH_IMM:
        return "WRITE_ONLY_WITH_IMM";
    case READ_REQUEST:
        return "READ_REQUEST";
    case READ_RESPONSE_FIRST:
        return "READ_RESPONSE_FIRST";
    case READ_RESPONSE_MIDDLE:
        return "READ_RESPONSE_MIDDLE";
    case READ_RESPONSE_LAST:
        return "READ_RESPONSE_LAST";
    case READ_RESPONSE_ONLY:
        return "READ_RESPONSE_ONLY";
    case ACKNOWLEDGE:
        return "ACKNOWLEDGE";
    case CNP:
        return "CNP";
    default:
        return "UNKNOWN";
    }
}

void
RoceBthHeader::PsnOutOfRange(uint32_t psn)
{
    Check24(psn, "PSN");
    NS_FATAL_ERROR("unreachable: PSN " << psn << " passed the range check");
}

} // namespace ns3
