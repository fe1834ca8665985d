/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-time.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

Mac48Address
PfcHeader::GetPfcDestination()
{
    return Mac48Address("01:80:c2:00:00:01");
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, const DataRate& rate)
{
    // 512 bit times = 64 byte times.
    return BytesTxTime(static_cast<uint64_t>(quanta) * (BITS_PER_QUANTUM / 8), rate);
}

PfcHeader::PfcHeader()
    : m_opcode(PFC_OPCODE),
      m_enableVector(0)
{
}

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC opcode=0x" << std::hex << m_opcode << " vector=0x" << m_enableVector << std::dec;
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (IsPriorityEnabled(p))
        {
            os << " p" << unsigned(p) << "=" << m_quanta[p];
        }
    }
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_opcode);
    start.WriteHtonU16(m_enableVector);
    for (uint16_t q : m_quanta)
    {
        start.WriteHtonU16(q);
    }
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = start.ReadNtohU16();
    m_enableVector = start.ReadNtohU16();
    for (auto& q : m_quanta)
    {
        q = start.ReadNtohU16();
    }
    return SIZE;
}

static void
CheckPriority(uint8_t priority)
{
    NS_ABORT_MSG_IF(priority >= PfcHeader::NUM_PRIORITIES,
                    "PFC priority " << unsigned(priority)
                                    << " is invalid; valid priorities are 0..7");
}

void
PfcHeader::SetPauseQuanta(uint8_t priority, uint16_t quanta)
{
    CheckPriority(priority);
    m_quanta[priority] = quanta;
    m_enableVector |= static_cast<uint16_t>(1u << priority);
}

uint16_t
PfcHeader::GetPauseQuanta(uint8_t priority) const
{
    CheckPriority(priority);
    return m_quanta[priority];
}

bool
PfcHeader::IsPriorityEnabled(uint8_t priority) const
{
    CheckPriority(priority);
    return (m_enableVector >> priority) & 1u;
}

uint16_t
PfcHeader::GetEnableVector() const
{
    return m_enableVector;
}

void
PfcHeader::SetEnableVector(uint16_t vector)
{
    m_enableVector = vector;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

void
PfcHeader::SetOpcode(uint16_t opcode)
{
    m_opcode = opcode;
}

} // namespace ns3
