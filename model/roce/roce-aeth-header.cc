/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-aeth-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-wire-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceAethHeader);

namespace
{

constexpr uint8_t TYPE_MASK = 0xE0;  //!< reserved bit and the 2-bit type
constexpr uint8_t VALUE_MASK = 0x1F; //!< the 5-bit value
constexpr uint8_t TYPE_ACK = 0x00;   //!< 0b000xxxxx
constexpr uint8_t TYPE_RNR = 0x20;   //!< 0b001xxxxx
constexpr uint8_t TYPE_NAK = 0x60;   //!< 0b011xxxxx

} // namespace

RoceAethHeader::RoceAethHeader()
    : m_syndrome(TYPE_ACK),
      m_msn(0)
{
}

TypeId
RoceAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceAethHeader>();
    return tid;
}

TypeId
RoceAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceAethHeader::Print(std::ostream& os) const
{
    os << "AETH ";
    if (IsAck())
    {
        os << "ACK credit=" << unsigned(GetCreditCount());
    }
    else if (IsNak())
    {
        os << "NAK code=" << unsigned(GetNakCode());
    }
    else if (IsRnrNak())
    {
        os << "RNR-NAK timer=" << unsigned(GetRnrTimer());
    }
    else
    {
        os << "reserved syndrome=0x" << std::hex << unsigned(m_syndrome) << std::dec;
    }
    os << " msn=" << m_msn;
}

uint32_t
RoceAethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceAethHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
RoceAethHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

void
RoceAethHeader::CheckMsn(uint32_t msn)
{
    NS_ABORT_MSG_IF(msn > MAX_MSN,
                    "AETH MSN " << msn << " (0x" << std::hex << msn << std::dec
                                << ") is out of range; valid values are 0..16777215 (0xFFFFFF)");
}

void
RoceAethHeader::WriteFields(uint8_t* out, uint8_t syndrome, uint32_t msn)
{
    CheckMsn(msn);
    wire::PutU32(out, (uint32_t(syndrome) << 24) | msn);
}

uint8_t
RoceAethHeader::ReadSyndrome(const uint8_t* in)
{
    return in[0];
}

void
RoceAethHeader::Write(uint8_t* out) const
{
    WriteFields(out, m_syndrome, m_msn);
}

void
RoceAethHeader::Read(const uint8_t* in)
{
    m_syndrome = ReadSyndrome(in);
    m_msn = wire::GetU32(in) & MAX_MSN;
}

uint8_t
RoceAethHeader::AckSyndrome(uint8_t credit)
{
    NS_ABORT_MSG_IF(credit > VALUE_MASK,
                    "AETH ACK credit count " << unsigned(credit)
                                             << " is out of range; valid values are 0..31");
    return TYPE_ACK | credit;
}

uint8_t
RoceAethHeader::NakSyndrome(uint8_t code)
{
    NS_ABORT_MSG_IF(code > NAK_INVALID_RD_REQUEST,
                    "AETH NAK code " << unsigned(code)
                                     << " is invalid; valid codes are 0..4 (PSN sequence error, "
                                        "invalid request, remote access error, remote "
                                        "operational error, invalid RD request)");
    return TYPE_NAK | code;
}

bool
RoceAethHeader::IsNakSyndrome(uint8_t syndrome)
{
    return (syndrome & TYPE_MASK) == TYPE_NAK;
}

uint8_t
RoceAethHeader::SyndromeValue(uint8_t syndrome)
{
    return syndrome & VALUE_MASK;
}

void
RoceAethHeader::SetAck(uint8_t credit)
{
    m_syndrome = AckSyndrome(credit);
}

void
RoceAethHeader::SetNak(uint8_t code)
{
    m_syndrome = NakSyndrome(code);
}

void
RoceAethHeader::SetRnrNak(uint8_t timer)
{
    NS_ABORT_MSG_IF(timer > VALUE_MASK,
                    "AETH RNR NAK timer " << unsigned(timer)
                                          << " is out of range; valid values are 0..31");
    m_syndrome = TYPE_RNR | timer;
}

bool
RoceAethHeader::IsAck() const
{
    return (m_syndrome & TYPE_MASK) == TYPE_ACK;
}

bool
RoceAethHeader::IsNak() const
{
    return IsNakSyndrome(m_syndrome);
}

bool
RoceAethHeader::IsRnrNak() const
{
    return (m_syndrome & TYPE_MASK) == TYPE_RNR;
}

uint8_t
RoceAethHeader::GetNakCode() const
{
    NS_ABORT_MSG_UNLESS(IsNak(),
                        "AETH syndrome 0x" << std::hex << unsigned(m_syndrome)
                                           << " is not a NAK (0b011xxxxx); no NAK code");
    return m_syndrome & VALUE_MASK;
}

uint8_t
RoceAethHeader::GetCreditCount() const
{
    NS_ABORT_MSG_UNLESS(IsAck(),
                        "AETH syndrome 0x" << std::hex << unsigned(m_syndrome)
                                           << " is not an ACK (0b000xxxxx); no credit count");
    return m_syndrome & VALUE_MASK;
}

uint8_t
RoceAethHeader::GetRnrTimer() const
{
    NS_ABORT_MSG_UNLESS(IsRnrNak(),
                        "AETH syndrome 0x" << std::hex << unsigned(m_syndrome)
                                           << " is not an RNR NAK (0b001xxxxx); no RNR timer");
    return m_syndrome & VALUE_MASK;
}

void
RoceAethHeader::SetSyndrome(uint8_t syndrome)
{
    m_syndrome = syndrome;
}

uint8_t
RoceAethHeader::GetSyndrome() const
{
    return m_syndrome;
}

void
RoceAethHeader::SetMsn(uint32_t msn)
{
    CheckMsn(msn);
    m_msn = msn;
}

uint32_t
RoceAethHeader::GetMsn() const
{
    return m_msn;
}

} // namespace ns3
