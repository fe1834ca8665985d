/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-immdt-header.h"

#include "ns3/fabric-wire-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceImmDtHeader);

RoceImmDtHeader::RoceImmDtHeader()
    : m_immediate(0)
{
}

RoceImmDtHeader::RoceImmDtHeader(uint32_t immediate)
    : m_immediate(immediate)
{
}

TypeId
RoceImmDtHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceImmDtHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceImmDtHeader>();
    return tid;
}

TypeId
RoceImmDtHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceImmDtHeader::Print(std::ostream& os) const
{
    os << "ImmDt 0x" << std::hex << m_immediate << std::dec;
}

uint32_t
RoceImmDtHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceImmDtHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
RoceImmDtHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

void
RoceImmDtHeader::Write(uint8_t* out) const
{
    wire::PutU32(out, m_immediate);
}

void
RoceImmDtHeader::Read(const uint8_t* in)
{
    m_immediate = wire::GetU32(in);
}

void
RoceImmDtHeader::SetImmediate(uint32_t immediate)
{
    m_immediate = immediate;
}

uint32_t
RoceImmDtHeader::GetImmediate() const
{
    return m_immediate;
}

} // namespace ns3
