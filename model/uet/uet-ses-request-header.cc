/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-ses-request-header.h"

#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetSesRequestBase);
NS_OBJECT_ENSURE_REGISTERED(UetSesRequestHeader);
NS_OBJECT_ENSURE_REGISTERED(UetSesSmallRequestHeader);

UetSesRequestBase::UetSesRequestBase()
    : m_opcode(WRITE),
      m_version(0),
      m_flags(0),
      m_riGeneration(0),
      m_jobId(0),
      m_pidOnFep(0),
      m_resourceIndex(0)
{
}

TypeId
UetSesRequestBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetSesRequestBase").SetParent<UetSesHeader>().SetGroupName("AiFabric");
    return tid;
}

void
UetSesRequestBase::SetOpcode(uint8_t opcode)
{
    UetCheckFieldWidth("UET SES request opcode", opcode, 6);
    m_opcode = opcode;
}

uint8_t
UetSesRequestBase::GetOpcode() const
{
    return m_opcode;
}

void
UetSesRequestBase::SetVersion(uint8_t version)
{
    UetCheckFieldWidth("UET SES request version", version, 2);
    m_version = version;
}

uint8_t
UetSesRequestBase::GetVersion() const
{
    return m_version;
}

void
UetSesRequestBase::SetFlags(uint8_t flags)
{
    UetCheckFieldWidth("UET SES request flags", flags, 6);
    m_flags = flags;
}

uint8_t
UetSesRequestBase::GetFlags() const
{
    return m_flags;
}

namespace
{
/// \param flags the flags \param bit a bit \param on set or clear \return the new flags
uint8_t
SetBit(uint8_t flags, uint8_t bit, bool on)
{
    return on ? (flags | bit) : (flags & ~bit);
}
} // namespace

void
UetSesRequestBase::SetDc(bool dc)
{
    m_flags = SetBit(m_flags, FLAG_DC, dc);
}

bool
UetSesRequestBase::GetDc() const
{
    return m_flags & FLAG_DC;
}

void
UetSesRequestBase::SetIe(bool ie)
{
    m_flags = SetBit(m_flags, FLAG_IE, ie);
}

bool
UetSesRequestBase::GetIe() const
{
    return m_flags & FLAG_IE;
}

void
UetSesRequestBase::SetRel(bool rel)
{
    m_flags = SetBit(m_flags, FLAG_REL, rel);
}

bool
UetSesRequestBase::GetRel() const
{
    return m_flags & FLAG_REL;
}

void
UetSesRequestBase::SetHd(bool hd)
{
    m_flags = SetBit(m_flags, FLAG_HD, hd);
}

bool
UetSesRequestBase::GetHd() const
{
    return m_flags & FLAG_HD;
}

void
UetSesRequestBase::SetEom(bool eom)
{
    m_flags = SetBit(m_flags, FLAG_EOM, eom);
}

bool
UetSesRequestBase::GetEom() const
{
    return m_flags & FLAG_EOM;
}

void
UetSesRequestBase::SetSom(bool som)
{
    m_flags = SetBit(m_flags, FLAG_SOM, som);
}

bool
UetSesRequestBase::GetSom() const
{
    return m_flags & FLAG_SOM;
}

void
UetSesRequestBase::SetRiGeneration(uint8_t gen)
{
    m_riGeneration = gen;
}

uint8_t
UetSesRequestBase::GetRiGeneration() const
{
    return m_riGeneration;
}

void
UetSesRequestBase::SetJobId(uint32_t jobId)
{
    UetCheckFieldWidth("UET SES JobID", jobId, 24);
    m_jobId = jobId;
}

uint32_t
UetSesRequestBase::GetJobId() const
{
    return m_jobId;
}

void
UetSesRequestBase::SetPidOnFep(uint16_t pid)
{
    UetCheckFieldWidth("UET SES PIDonFEP", pid, 12);
    m_pidOnFep = pid;
}

uint16_t
UetSesRequestBase::GetPidOnFep() const
{
    return m_pidOnFep;
}

void
UetSesRequestBase::SetResourceIndex(uint16_t ri)
{
    UetCheckFieldWidth("UET SES Resource Index", ri, 12);
    m_resourceIndex = ri;
}

uint16_t
UetSesRequestBase::GetResourceIndex() const
{
    return m_resourceIndex;
}

void
UetSesRequestBase::WriteCommon(uint8_t* out) const
{
    WriteCommonFields(out,
                      m_opcode,
                      m_flags,
                      m_version,
                      m_riGeneration,
                      m_jobId,
                      m_pidOnFep,
                      m_resourceIndex);
}

void
UetSesRequestBase::ReadCommon(const uint8_t* in)
{
    m_opcode = in[0] & 0x3F;
    m_version = in[1] >> 6;
    m_flags = in[1] & 0x3F;
    m_riGeneration = in[4];
    m_jobId = wire::GetU24(in + 5);
    m_pidOnFep = wire::GetU16(in + 8) & 0xFFF;
    m_resourceIndex = wire::GetU16(in + 10) & 0xFFF;
}

void
UetSesRequestBase::PrintCommon(std::ostream& os) const
{
    os << " op=" << OpcodeName(m_opcode) << "(" << unsigned(m_opcode) << ")"
       << " ver=" << unsigned(m_version) << (GetDc() ? " DC" : "") << (GetIe() ? " IE" : "")
       << (GetRel() ? " REL" : "") << (GetHd() ? " HD" : "") << (GetEom() ? " EOM" : "")
       << (GetSom() ? " SOM" : "") << " ri_gen=" << unsigned(m_riGeneration) << " job=" << m_jobId
       << " pid_on_fep=" << m_pidOnFep << " ri=" << m_resourceIndex;
}

UetSesRequestHeader::UetSesRequestHeader()
    : m_messageId(0),
      m_bufferOffset(0),
      m_initiator(0),
      m_memoryKey(0),
      m_headerData(0),
      m_requestLength(0)
{
}

TypeId
UetSesRequestHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetSesRequestHeader")
                            .SetParent<UetSesRequestBase>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetSesRequestHeader>();
    return tid;
}

TypeId
UetSesRequestHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetSesRequestHeader::Print(std::ostream& os) const
{
    os << "SES STD";
    PrintCommon(os);
    os << " msg_id=" << m_messageId << " buffer_offset=" << m_bufferOffset
       << " initiator=" << m_initiator << " mkey=0x" << std::hex << m_memoryKey << std::dec;
    if (GetSom())
    {
        os << " header_data=0x" << std::hex << m_headerData << std::dec;
    }
    else
    {
        os << " payload_length=" << GetPayloadLength() << " message_offset=" << GetMessageOffset();
    }
    os << " request_length=" << m_requestLength;
}

uint32_t
UetSesRequestHeader::GetSerializedSize() const
{
    return SIZE;
}

void
UetSesRequestHeader::Write(uint8_t* out) const
{
    WriteFields(out,
                m_opcode,
                m_flags,
                m_messageId,
                m_riGeneration,
                m_jobId,
                m_pidOnFep,
                m_resourceIndex,
                m_bufferOffset,
                m_initiator,
                m_memoryKey,
                m_headerData,
                m_requestLength,
                m_version);
}

uint32_t
UetSesRequestHeader::Read(const uint8_t* in)
{
    ReadCommon(in);
    m_messageId = wire::GetU16(in + 2);
    m_bufferOffset = wire::GetU64(in + 12);
    m_initiator = wire::GetU32(in + 20);
    m_memoryKey = wire::GetU64(in + 24);
    m_headerData = wire::GetU64(in + 32);
    m_requestLength = wire::GetU32(in + 40);
    return SIZE;
}

void
UetSesRequestHeader::SetMessageId(uint16_t id)
{
    m_messageId = id;
}

uint16_t
UetSesRequestHeader::GetMessageId() const
{
    return m_messageId;
}

void
UetSesRequestHeader::SetBufferOffset(uint64_t offset)
{
    m_bufferOffset = offset;
}

uint64_t
UetSesRequestHeader::GetBufferOffset() const
{
    return m_bufferOffset;
}

void
UetSesRequestHeader::SetInitiator(uint32_t initiator)
{
    m_initiator = initiator;
}

uint32_t
UetSesRequestHeader::GetInitiator() const
{
    return m_initiator;
}

void
UetSesRequestHeader::SetMemoryKey(uint64_t key)
{
    m_memoryKey = key;
}

uint64_t
UetSesRequestHeader::GetMemoryKey() const
{
    return m_memoryKey;
}

void
UetSesRequestHeader::SetHeaderData(uint64_t data)
{
    m_headerData = data;
}

uint64_t
UetSesRequestHeader::GetHeaderData() const
{
    return m_headerData;
}

void
UetSesRequestHeader::SetPayloadLength(uint16_t length)
{
    UetCheckFieldWidth("UET SES payload_length", length, 14);
    m_headerData = (m_headerData & ~(uint64_t(0x3FFF) << 32)) | (uint64_t(length) << 32);
}

uint16_t
UetSesRequestHeader::GetPayloadLength() const
{
    return (m_headerData >> 32) & 0x3FFF;
}

void
UetSesRequestHeader::SetMessageOffset(uint32_t offset)
{
    m_headerData = (m_headerData & ~uint64_t(0xFFFFFFFF)) | offset;
}

uint32_t
UetSesRequestHeader::GetMessageOffset() const
{
    return static_cast<uint32_t>(m_headerData);
}

void
UetSesRequestHeader::SetRequestLength(uint32_t length)
{
    m_requestLength = length;
}

uint32_t
UetSesRequestHeader::GetRequestLength() const
{
    return m_requestLength;
}

UetSesSmallRequestHeader::UetSesSmallRequestHeader()
    : m_requestLength(0),
      m_bufferOffset(0)
{
    m_flags = FLAG_SOM | FLAG_EOM;
}

TypeId
UetSesSmallRequestHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetSesSmallRequestHeader")
                            .SetParent<UetSesRequestBase>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetSesSmallRequestHeader>();
    return tid;
}

TypeId
UetSesSmallRequestHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetSesSmallRequestHeader::Print(std::ostream& os) const
{
    os << "SES SMALL";
    PrintCommon(os);
    os << " request_length=" << m_requestLength << " buffer_offset=" << m_bufferOffset;
}

uint32_t
UetSesSmallRequestHeader::GetSerializedSize() const
{
    return SIZE;
}

void
UetSesSmallRequestHeader::Write(uint8_t* out) const
{
    WriteFields(out,
                m_opcode,
                m_flags,
                m_requestLength,
                m_riGeneration,
                m_jobId,
                m_pidOnFep,
                m_resourceIndex,
                m_bufferOffset,
                m_version);
}

uint32_t
UetSesSmallRequestHeader::Read(const uint8_t* in)
{
    ReadCommon(in);
    m_requestLength = wire::GetU16(in + 2) & 0x3FFF;
    m_bufferOffset = wire::GetU64(in + 12);
    return SIZE;
}

void
UetSesSmallRequestHeader::SetRequestLength(uint16_t length)
{
    UetCheckFieldWidth("UET SES small request request_length", length, 14);
    m_requestLength = length;
}

uint16_t
UetSesSmallRequestHeader::GetRequestLength() const
{
    return m_requestLength;
}

void
UetSesSmallRequestHeader::SetBufferOffset(uint64_t offset)
{
    m_bufferOffset = offset;
}

uint64_t
UetSesSmallRequestHeader::GetBufferOffset() const
{
    return m_bufferOffset;
}

} // namespace ns3
