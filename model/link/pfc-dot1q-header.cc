/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-dot1q-header.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcDot1qHeader);

PfcDot1qHeader::PfcDot1qHeader()
    : m_pcp(0),
      m_dei(false),
      m_vid(0),
      m_innerType(0)
{
}

PfcDot1qHeader::PfcDot1qHeader(uint8_t pcp, uint16_t vid, uint16_t innerType)
    : m_pcp(pcp),
      m_dei(false),
      m_vid(vid),
      m_innerType(innerType)
{
    NS_ABORT_MSG_IF(pcp > 7, "802.1Q PCP " << unsigned(pcp) << " is invalid; valid: 0..7");
    NS_ABORT_MSG_IF(vid > 4095, "802.1Q VID " << vid << " is invalid; valid: 0..4095");
}

TypeId
PfcDot1qHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcDot1qHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PfcDot1qHeader>();
    return tid;
}

TypeId
PfcDot1qHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
PfcDot1qHeader::Print(std::ostream& os) const
{
    os << "802.1Q pcp=" << unsigned(m_pcp) << " dei=" << m_dei << " vid=" << m_vid << " type=0x"
       << std::hex << m_innerType << std::dec;
}

uint32_t
PfcDot1qHeader::GetSerializedSize() const
{
    return 4;
}

void
PfcDot1qHeader::Serialize(Buffer::Iterator start) const
{
    uint16_t tci = static_cast<uint16_t>((m_pcp << 13) | (m_dei ? 0x1000 : 0) | (m_vid & 0x0fff));
    start.WriteHtonU16(tci);
    start.WriteHtonU16(m_innerType);
}

uint32_t
PfcDot1qHeader::Deserialize(Buffer::Iterator start)
{
    uint16_t tci = start.ReadNtohU16();
    m_pcp = static_cast<uint8_t>(tci >> 13);
    m_dei = (tci & 0x1000) != 0;
    m_vid = tci & 0x0fff;
    m_innerType = start.ReadNtohU16();
    return 4;
}

uint8_t
PfcDot1qHeader::GetPcp() const
{
    return m_pcp;
}

bool
PfcDot1qHeader::GetDei() const
{
    return m_dei;
}

uint16_t
PfcDot1qHeader::GetVid() const
{
    return m_vid;
}

uint16_t
PfcDot1qHeader::GetInnerType() const
{
    return m_innerType;
}

} // namespace ns3
