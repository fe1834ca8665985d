/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: readable ASCII traces of Ultra Ethernet frames. FabricWireHeader prints the
 * headers a frame's head holds; this describes what follows a UDP header to port 4793 (the
 * PDS header and its SES header), as RoceEntropyParser::Describe does for RoCEv2's BTH.
 */
#include "ns3/fabric-wire-header.h"
#include "ns3/uet-pds-ack-header.h"
#include "ns3/uet-pds-header.h"
#include "ns3/uet-pds-nack-header.h"
#include "ns3/uet-pds-request-header.h"
#include "ns3/uet-ses-header.h"

#include <ostream>

namespace ns3
{

namespace
{

/**
 * \ingroup ai-fabric-uet
 * \brief Print "; PDS TYPE fields...; SES OPCODE ..." for the bytes after a UDP header to
 *        port 4793 (FabricWireHeader::UdpPayloadDescriber). Prints only what \p n bytes hold.
 * \param os the stream
 * \param t the bytes after the UDP header
 * \param n how many are valid
 */
void
DescribeUet(std::ostream& os, const uint8_t* t, uint32_t n)
{
    if (n < UetPdsHeader::PROLOGUE_SIZE)
    {
        return;
    }
    uint8_t type = UetPdsHeader::PeekType(t);
    uint8_t nh = UetPdsHeader::PeekNextHeader(t);
    uint8_t flags = UetPdsHeader::PeekFlags(t);
    os << "; PDS " << UetPdsHeader::TypeName(type);
    uint32_t size = UetPdsHeader::HeaderSize(type);
    if (size == 0 || n < size)
    {
        return;
    }
    switch (type)
    {
    case UetPdsHeader::RUD_REQ:
    case UetPdsHeader::ROD_REQ:
    case UetPdsHeader::RUD_CC_REQ:
    case UetPdsHeader::ROD_CC_REQ:
        os << " psn " << UetPdsRequestHeader::PeekPsn(t) << " spdcid "
           << UetPdsRequestHeader::PeekSpdcid(t);
        if (flags & UetPdsHeader::FLAG_SYN)
        {
            os << " SYN";
        }
        else
        {
            os << " dpdcid " << UetPdsRequestHeader::PeekDpdcid(t);
        }
        os << ((flags & UetPdsHeader::FLAG_AR) ? " AR" : "")
           << ((flags & UetPdsHeader::FLAG_RETX) ? " RETX" : "");
        break;
    case UetPdsHeader::ACK:
    case UetPdsHeader::ACK_CC:
    case UetPdsHeader::ACK_CCX:
        os << " cack_psn " << UetPdsAckHeader::PeekCackPsn(t)
           << ((flags & UetPdsHeader::FLAG_M) ? " M" : "");
        break;
    case UetPdsHeader::NACK:
        os << " " << UetPdsHeader::NackCodeName(UetPdsNackHeader::PeekNackCode(t)) << " psn "
           << UetPdsNackHeader::PeekNackPsn(t);
        break;
    case UetPdsHeader::CTRL:
        os << " " << UetPdsHeader::CtrlTypeName(nh);
        return; // the next-header bits are the control type
    default:
        break;
    }
    if (nh == UetPdsHeader::NH_NONE || n < size + 4)
    {
        return;
    }
    const uint8_t* ses = t + size;
    os << "; SES " << UetPdsHeader::NextHeaderName(nh);
    if (nh == UetPdsHeader::NH_REQUEST_STD || nh == UetPdsHeader::NH_REQUEST_SMALL)
    {
        os << " " << UetSesHeader::OpcodeName(ses[0] & 0x3f)
           << ((ses[1] & UetSesHeader::FLAG_SOM) ? " SOM" : "")
           << ((ses[1] & UetSesHeader::FLAG_EOM) ? " EOM" : "");
    }
}

/// Registers the describer with FabricWireHeader when the library loads.
const bool g_uetDescriberRegistered =
    (FabricWireHeader::SetUdpPayloadDescriber(UetPdsHeader::UDP_DST_PORT, &DescribeUet), true);

} // namespace

} // namespace ns3
