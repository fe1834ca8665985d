/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-reth-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-wire-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceRethHeader);

RoceRethHeader::RoceRethHeader()
    : m_va(0),
      m_rkey(0),
      m_dmaLength(0)
{
}

TypeId
RoceRethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceRethHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceRethHeader>();
    return tid;
}

TypeId
RoceRethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceRethHeader::Print(std::ostream& os) const
{
    os << "RETH va=0x" << std::hex << m_va << " rkey=0x" << m_rkey << std::dec
       << " dmalen=" << m_dmaLength;
}

uint32_t
RoceRethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceRethHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
RoceRethHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

void
RoceRethHeader::Write(uint8_t* out) const
{
    wire::PutU32(out, static_cast<uint32_t>(m_va >> 32));
    wire::PutU32(out + 4, static_cast<uint32_t>(m_va));
    wire::PutU32(out + 8, m_rkey);
    wire::PutU32(out + 12, m_dmaLength);
}

void
RoceRethHeader::Read(const uint8_t* in)
{
    m_va = (uint64_t(wire::GetU32(in)) << 32) | wire::GetU32(in + 4);
    m_rkey = wire::GetU32(in + 8);
    m_dmaLength = wire::GetU32(in + 12);
}

void
RoceRethHeader::SetVirtualAddress(uint64_t va)
{
    m_va = va;
}

uint64_t
RoceRethHeader::GetVirtualAddress() const
{
    return m_va;
}

void
RoceRethHeader::SetRKey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
RoceRethHeader::GetRKey() const
{
    return m_rkey;
}

void
RoceRethHeader::SetDmaLength(uint32_t bytes)
{
    NS_ABORT_MSG_IF(bytes > MAX_DMA_LENGTH,
                    "RETH DMA length " << bytes
                                       << " B is out of range; valid lengths are 0..2147483648 "
                                          "(2^31) bytes");
    m_dmaLength = bytes;
}

uint32_t
RoceRethHeader::GetDmaLength() const
{
    return m_dmaLength;
}

} // namespace ns3
