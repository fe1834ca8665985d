/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pds-header.h"

#include "ns3/abort.h"

#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetPdsHeader);

void
UetCheckFieldWidth(const char* field, uint64_t value, unsigned bits)
{
    const uint64_t max = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    NS_ABORT_MSG_IF(value > max,
                    field << " " << value << " (0x" << std::hex << value << std::dec
                          << ") is out of range; valid values are 0.." << max << " (0x" << std::hex
                          << max << std::dec << ", " << bits << " bits)");
}

UetPdsHeader::UetPdsHeader()
    : m_type(RESERVED_TYPE),
      m_nextHeader(NH_NONE),
      m_flags(0)
{
}

TypeId
UetPdsHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetPdsHeader").SetParent<Header>().SetGroupName("AiFabric");
    return tid;
}

void
UetPdsHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[MAX_SIZE];
    Write(b);
    start.Write(b, GetSerializedSize());
}

uint32_t
UetPdsHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[MAX_SIZE];
    start.Read(b, PROLOGUE_SIZE);
    uint32_t size = HeaderSize(PeekType(b));
    if (size > PROLOGUE_SIZE)
    {
        start.Read(b + PROLOGUE_SIZE, size - PROLOGUE_SIZE);
    }
    return Read(b); // aborts if this class does not decode that type
}

uint8_t
UetPdsHeader::GetType() const
{
    return m_type;
}

void
UetPdsHeader::SetNextHeader(uint8_t nextHeader)
{
    UetCheckFieldWidth("UET PDS next_hdr", nextHeader, 4);
    m_nextHeader = nextHeader;
}

uint8_t
UetPdsHeader::GetNextHeader() const
{
    return m_nextHeader;
}

void
UetPdsHeader::SetFlags(uint8_t flags)
{
    UetCheckFieldWidth("UET PDS flags", flags, 7);
    m_flags = flags;
}

uint8_t
UetPdsHeader::GetFlags() const
{
    return m_flags;
}

void
UetPdsHeader::SetTypeChecked(uint8_t type, bool ok, const char* what)
{
    NS_ABORT_MSG_IF(!ok,
                    what << ": PDS type " << unsigned(type) << " (" << TypeName(type)
                         << ") is not a type of this header");
    m_type = type;
}

void
UetPdsHeader::ReadPrologue(const uint8_t* in, bool ok, const char* what)
{
    uint8_t type = PeekType(in);
    NS_ABORT_MSG_IF(!ok,
                    what << ": cannot read a PDS header of type " << unsigned(type) << " ("
                         << TypeName(type) << "); dispatch on UetPdsHeader::PeekType() first");
    m_type = type;
    m_nextHeader = PeekNextHeader(in);
    m_flags = PeekFlags(in);
}

void
UetPdsHeader::PrintPrologue(std::ostream& os, bool nhIsCtrl) const
{
    os << "PDS " << TypeName(m_type);
    if (nhIsCtrl)
    {
        os << " ctl=" << CtrlTypeName(m_nextHeader);
    }
    else
    {
        os << " nh=" << NextHeaderName(m_nextHeader);
    }
    os << " flags=0x" << std::hex << unsigned(m_flags) << std::dec;
}

uint32_t
UetPdsHeader::HeaderSize(uint8_t type)
{
    switch (type)
    {
    case RUD_REQ:
    case ROD_REQ:
    case ACK:
        return 12;
    case RUD_CC_REQ:
    case ROD_CC_REQ:
    case NACK:
    case CTRL:
        return 16;
    case RUDI_REQ:
    case RUDI_RESP:
        return 8;
    case UUD_REQ:
        return 4;
    case ACK_CC:
        return 32;
    case ACK_CCX:
        return 40;
    default:
        return 0;
    }
}

uint32_t
UetPdsHeader::SesHeaderSize(uint8_t nextHeader)
{
    switch (nextHeader)
    {
    case NH_REQUEST_SMALL:
        return 20;
    case NH_REQUEST_MEDIUM:
        return 32;
    case NH_REQUEST_STD:
        return 44;
    case NH_RESPONSE:
        return 12;
    case NH_RESPONSE_DATA:
        return 20;
    default:
        return 0;
    }
}

const char*
UetPdsHeader::TypeName(uint8_t type)
{
    switch (type)
    {
    case RESERVED_TYPE:
        return "RESERVED";
    case TSS:
        return "TSS";
    case RUD_REQ:
        return "RUD_REQ";
    case ROD_REQ:
        return "ROD_REQ";
    case RUDI_REQ:
        return "RUDI_REQ";
    case RUDI_RESP:
        return "RUDI_RESP";
    case UUD_REQ:
        return "UUD_REQ";
    case ACK:
        return "ACK";
    case ACK_CC:
        return "ACK_CC";
    case ACK_CCX:
        return "ACK_CCX";
    case NACK:
        return "NACK";
    case CTRL:
        return "CTRL";
    case NACK_CCX:
        return "NACK_CCX";
    case RUD_CC_REQ:
        return "RUD_CC_REQ";
    case ROD_CC_REQ:
        return "ROD_CC_REQ";
    default:
        return "UNKNOWN";
    }
}

const char*
UetPdsHeader::NextHeaderName(uint8_t nh)
{
    switch (nh)
    {
    case NH_NONE:
        return "NONE";
    case NH_REQUEST_SMALL:
        return "REQUEST_SMALL";
    case NH_REQUEST_MEDIUM:
        return "REQUEST_MEDIUM";
    case NH_REQUEST_STD:
        return "REQUEST_STD";
    case NH_RESPONSE:
        return "RESPONSE";
    case NH_RESPONSE_DATA:
        return "RESPONSE_DATA";
    case NH_RESPONSE_DATA_SMALL:
        return "RESPONSE_DATA_SMALL";
    default:
        return "UNKNOWN";
    }
}

const char*
UetPdsHeader::CtrlTypeName(uint8_t ctl)
{
    switch (ctl)
    {
    case CTRL_NOOP:
        return "NOOP";
    case CTRL_ACK_REQ:
        return "ACK_REQ";
    case CTRL_CLEAR:
        return "CLEAR";
    case CTRL_CLEAR_REQ:
        return "CLEAR_REQ";
    case CTRL_CLOSE:
        return "CLOSE";
    case CTRL_CLOSE_REQ:
        return "CLOSE_REQ";
    case CTRL_PROBE:
        return "PROBE";
    case CTRL_CREDIT:
        return "CREDIT";
    case CTRL_CREDIT_REQ:
        return "CREDIT_REQ";
    default:
        return "UNKNOWN";
    }
}

const char*
UetPdsHeader::NackCodeName(uint8_t code)
{
    switch (code)
    {
    case NACK_TRIMMED:
        return "TRIMMED";
    case NACK_TRIMMED_LASTHOP:
        return "TRIMMED_LASTHOP";
    case NACK_TRIMMED_ACK:
        return "TRIMMED_ACK";
    case NACK_NO_PDC_AVAIL:
        return "NO_PDC_AVAIL";
    case NACK_NO_CCC_AVAIL:
        return "NO_CCC_AVAIL";
    case NACK_NO_BITMAP:
        return "NO_BITMAP";
    case NACK_NO_PKT_BUFFER:
        return "NO_PKT_BUFFER";
    case NACK_NO_GTD_DEL_AVAIL:
        return "NO_GTD_DEL_AVAIL";
    case NACK_NO_SES_MSG_AVAIL:
        return "NO_SES_MSG_AVAIL";
    case NACK_NO_RESOURCE:
        return "NO_RESOURCE";
    case NACK_PSN_OOR_WINDOW:
        return "PSN_OOR_WINDOW";
    case NACK_ROD_OOO:
        return "ROD_OOO";
    case NACK_INV_DPDCID:
        return "INV_DPDCID";
    case NACK_PDC_HDR_MISMATCH:
        return "PDC_HDR_MISMATCH";
    case NACK_CLOSING:
        return "CLOSING";
    case NACK_CLOSING_IN_ERR:
        return "CLOSING_IN_ERR";
    case NACK_PKT_NOT_RCVD:
        return "PKT_NOT_RCVD";
    case NACK_GTD_DEL_RESP_UNAVAIL:
        return "GTD_DEL_RESP_UNAVAIL";
    case NACK_ACK_WITH_DATA:
        return "ACK_WITH_DATA";
    case NACK_INVALID_SYN:
        return "INVALID_SYN";
    case NACK_PDC_MODE_MISMATCH:
        return "PDC_MODE_MISMATCH";
    case NACK_NEW_START_PSN:
        return "NEW_START_PSN";
    case NACK_RCVD_SES_PROCG:
        return "RCVD_SES_PROCG";
    case NACK_UNEXP_EVENT:
        return "UNEXP_EVENT";
    case NACK_RCVR_INFER_LOSS:
        return "RCVR_INFER_LOSS";
    case NACK_EXP_NACK_NORMAL:
        return "EXP_NACK_NORMAL";
    case NACK_EXP_NACK_ERR:
        return "EXP_NACK_ERR";
    case NACK_EXP_NACK_FATAL:
        return "EXP_NACK_FATAL";
    default:
        return "UNKNOWN";
    }
}

FabricPacketClass
UetPdsHeader::Classify(const uint8_t* pds, uint32_t n)
{
    if (n < PROLOGUE_SIZE)
    {
        return FabricPacketClass::OTHER;
    }
    switch (PeekType(pds))
    {
    case ACK:
    case ACK_CC:
    case ACK_CCX:
        return FabricPacketClass::ACK;
    case NACK:
    case NACK_CCX:
        return FabricPacketClass::NAK;
    default:
        return FabricPacketClass::OTHER;
    }
}

} // namespace ns3
