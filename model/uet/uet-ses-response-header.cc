/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-ses-response-header.h"

#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetSesResponseBase);
NS_OBJECT_ENSURE_REGISTERED(UetSesResponseHeader);
NS_OBJECT_ENSURE_REGISTERED(UetSesResponseDataHeader);

UetSesResponseBase::UetSesResponseBase()
    : m_list(LIST_EXPECTED),
      m_opcode(DEFAULT_RESPONSE),
      m_version(0),
      m_returnCode(RC_OK),
      m_messageId(0),
      m_jobId(0)
{
}

TypeId
UetSesResponseBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetSesResponseBase").SetParent<UetSesHeader>().SetGroupName("AiFabric");
    return tid;
}

void
UetSesResponseBase::SetList(uint8_t list)
{
    UetCheckFieldWidth("UET SES response list", list, 2);
    m_list = list;
}

uint8_t
UetSesResponseBase::GetList() const
{
    return m_list;
}

void
UetSesResponseBase::SetOpcode(uint8_t opcode)
{
    UetCheckFieldWidth("UET SES response opcode", opcode, 6);
    m_opcode = opcode;
}

uint8_t
UetSesResponseBase::GetOpcode() const
{
    return m_opcode;
}

void
UetSesResponseBase::SetVersion(uint8_t version)
{
    UetCheckFieldWidth("UET SES response version", version, 2);
    m_version = version;
}

uint8_t
UetSesResponseBase::GetVersion() const
{
    return m_version;
}

void
UetSesResponseBase::SetReturnCode(uint8_t rc)
{
    UetCheckFieldWidth("UET SES response return_code", rc, 6);
    m_returnCode = rc;
}

uint8_t
UetSesResponseBase::GetReturnCode() const
{
    return m_returnCode;
}

void
UetSesResponseBase::SetMessageId(uint16_t id)
{
    m_messageId = id;
}

uint16_t
UetSesResponseBase::GetMessageId() const
{
    return m_messageId;
}

void
UetSesResponseBase::SetJobId(uint32_t jobId)
{
    UetCheckFieldWidth("UET SES response JobID", jobId, 24);
    m_jobId = jobId;
}

uint32_t
UetSesResponseBase::GetJobId() const
{
    return m_jobId;
}

void
UetSesResponseBase::ReadCommon(const uint8_t* in)
{
    m_list = in[0] >> 6;
    m_opcode = in[0] & 0x3F;
    m_version = in[1] >> 6;
    m_returnCode = in[1] & 0x3F;
    m_messageId = wire::GetU16(in + 2);
    m_jobId = wire::GetU24(in + 5);
}

void
UetSesResponseBase::PrintCommon(std::ostream& os) const
{
    os << " list=" << unsigned(m_list) << " op=" << ResponseOpcodeName(m_opcode) << "("
       << unsigned(m_opcode) << ") ver=" << unsigned(m_version)
       << " rc=" << ReturnCodeName(m_returnCode) << "(" << unsigned(m_returnCode)
       << ") msg_id=" << m_messageId << " job=" << m_jobId;
}

UetSesResponseHeader::UetSesResponseHeader()
    : m_riGeneration(0),
      m_modifiedLength(0)
{
}

TypeId
UetSesResponseHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetSesResponseHeader")
                            .SetParent<UetSesResponseBase>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetSesResponseHeader>();
    return tid;
}

TypeId
UetSesResponseHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetSesResponseHeader::Print(std::ostream& os) const
{
    os << "SES RESPONSE";
    PrintCommon(os);
    os << " ri_gen=" << unsigned(m_riGeneration) << " modified_length=" << m_modifiedLength;
}

uint32_t
UetSesResponseHeader::GetSerializedSize() const
{
    return SIZE;
}

void
UetSesResponseHeader::Write(uint8_t* out) const
{
    WriteFields(out,
                m_opcode,
                m_returnCode,
                m_messageId,
                m_riGeneration,
                m_jobId,
                m_modifiedLength,
                m_list,
                m_version);
}

uint32_t
UetSesResponseHeader::Read(const uint8_t* in)
{
    ReadCommon(in);
    m_riGeneration = in[4];
    m_modifiedLength = wire::GetU32(in + 8);
    return SIZE;
}

void
UetSesResponseHeader::SetRiGeneration(uint8_t gen)
{
    m_riGeneration = gen;
}

uint8_t
UetSesResponseHeader::GetRiGeneration() const
{
    return m_riGeneration;
}

void
UetSesResponseHeader::SetModifiedLength(uint32_t length)
{
    m_modifiedLength = length;
}

uint32_t
UetSesResponseHeader::GetModifiedLength() const
{
    return m_modifiedLength;
}

UetSesResponseDataHeader::UetSesResponseDataHeader()
    : m_readRequestMessageId(0),
      m_payloadLength(0),
      m_modifiedLength(0),
      m_messageOffset(0)
{
    m_opcode = RESPONSE_W_DATA;
}

TypeId
UetSesResponseDataHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetSesResponseDataHeader")
                            .SetParent<UetSesResponseBase>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetSesResponseDataHeader>();
    return tid;
}

TypeId
UetSesResponseDataHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
UetSesResponseDataHeader::Print(std::ostream& os) const
{
    os << "SES RESPONSE_DATA";
    PrintCommon(os);
    os << " read_req_msg_id=" << m_readRequestMessageId << " payload_length=" << m_payloadLength
       << " modified_length=" << m_modifiedLength << " message_offset=" << m_messageOffset;
}

uint32_t
UetSesResponseDataHeader::GetSerializedSize() const
{
    return SIZE;
}

void
UetSesResponseDataHeader::Write(uint8_t* out) const
{
    WriteWithOpcode(out,
                    m_opcode,
                    m_returnCode,
                    m_messageId,
                    m_jobId,
                    m_readRequestMessageId,
                    m_payloadLength,
                    m_modifiedLength,
                    m_messageOffset,
                    m_list,
                    m_version);
}

uint32_t
UetSesResponseDataHeader::Read(const uint8_t* in)
{
    ReadCommon(in);
    m_readRequestMessageId = wire::GetU16(in + 8);
    m_payloadLength = wire::GetU16(in + 10) & 0x3FFF;
    m_modifiedLength = wire::GetU32(in + 12);
    m_messageOffset = wire::GetU32(in + 16);
    return SIZE;
}

void
UetSesResponseDataHeader::SetReadRequestMessageId(uint16_t id)
{
    m_readRequestMessageId = id;
}

uint16_t
UetSesResponseDataHeader::GetReadRequestMessageId() const
{
    return m_readRequestMessageId;
}

void
UetSesResponseDataHeader::SetPayloadLength(uint16_t length)
{
    UetCheckFieldWidth("UET SES response payload_length", length, 14);
    m_payloadLength = length;
}

uint16_t
UetSesResponseDataHeader::GetPayloadLength() const
{
    return m_payloadLength;
}

void
UetSesResponseDataHeader::SetModifiedLength(uint32_t length)
{
    m_modifiedLength = length;
}

uint32_t
UetSesResponseDataHeader::GetModifiedLength() const
{
    return m_modifiedLength;
}

void
UetSesResponseDataHeader::SetMessageOffset(uint32_t offset)
{
    m_messageOffset = offset;
}

uint32_t
UetSesResponseDataHeader::GetMessageOffset() const
{
    return m_messageOffset;
}

} // namespace ns3
