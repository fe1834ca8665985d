/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-cnp-header.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceCnpHeader);

RoceCnpHeader::RoceCnpHeader()
{
}

TypeId
RoceCnpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceCnpHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceCnpHeader>();
    return tid;
}

TypeId
RoceCnpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceCnpHeader::Print(std::ostream& os) const
{
    os << "CNP reserved=" << (IsAllZero() ? "zero" : "non-zero");
}

uint32_t
RoceCnpHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceCnpHeader::Serialize(Buffer::Iterator start) const
{
    start.Write(m_reserved.data(), SIZE);
}

uint32_t
RoceCnpHeader::Deserialize(Buffer::Iterator start)
{
    start.Read(m_reserved.data(), SIZE);
    return SIZE;
}

bool
RoceCnpHeader::IsAllZero() const
{
    return std::all_of(m_reserved.begin(), m_reserved.end(), [](uint8_t b) { return b == 0; });
}

const std::array<uint8_t, RoceCnpHeader::SIZE>&
RoceCnpHeader::GetReserved() const
{
    return m_reserved;
}

} // namespace ns3
