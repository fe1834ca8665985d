/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UetNic, the receive path: a UET packet from the NIC core parsed (PDS and SES
 * headers read in place), trimmed requests NACKed, requests, ACKs, NACKs and control packets
 * passed to their PDC (a SYN opens the target PDC; an unknown PDC is NACKed statelessly), and
 * RUDI/UUD requests received and answered without a PDC. The class is declared in uet-nic.h;
 * its attributes, ports, endpoints and framing are in uet-nic.cc, its operations and PDCs in
 * uet-nic-dispatch.cc. The calls made for every packet received stay in this file.
 */
#include "uet-nic.h"
#include "uet-pds-ack-header.h"
#include "uet-pds-header.h"
#include "uet-pds-nack-header.h"
#include "uet-pds-request-header.h"
#include "uet-pds-rudi-header.h"
#include "uet-ses-header.h"
#include "uet-ses-response-header.h"
#include "uet-wire-sizes.h"

#include "ns3/fabric-wire-header.h"

#include <algorithm>
#include <iostream>

namespace ns3
{

namespace
{
using namespace uetwire; // IP_UDP, MAX_HEADERS, L2_ROOM

/// \return true if a PDS type's next-header field names an SES header
bool
HasSesHeader(uint8_t type)
{
    return UetPdsRequestHeader::IsRequestType(type) || UetPdsAckHeader::IsAckType(type) ||
           type == UetPdsHeader::RUDI_REQ || type == UetPdsHeader::RUDI_RESP ||
           type == UetPdsHeader::UUD_REQ;
}

/// \return true for the PDC-less request/response types
bool
IsPdcless(uint8_t type)
{
    return type == UetPdsHeader::RUDI_REQ || type == UetPdsHeader::RUDI_RESP ||
           type == UetPdsHeader::UUD_REQ;
}
} // namespace

uint32_t
UetNic::GetMaxRxHeaderBytes() const
{
    return MAX_HEADERS;
}

uint32_t
UetNic::GetRxHeaderBytes(const uint8_t* ip, uint32_t avail) const
{
    if (avail < IP_UDP + UetPdsHeader::PROLOGUE_SIZE)
    {
        return MAX_HEADERS;
    }
    const uint8_t* pds = ip + IP_UDP;
    uint8_t type = UetPdsHeader::PeekType(pds);
    uint32_t n = IP_UDP + UetPdsHeader::HeaderSize(type);
    if (HasSesHeader(type))
    {
        n += UetPdsHeader::SesHeaderSize(UetPdsHeader::PeekNextHeader(pds));
    }
    return std::min(n, MAX_HEADERS);
}

void
UetNic::SendStatelessNack(uint32_t port, const UetRxPacket& rx, uint8_t code, uint8_t flags)
{
    uint8_t buf[L2_ROOM + IP_UDP + UetPdsNackHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    // SPDCID 0: this side has no PDC; DPDCID: the sender's PDCID (its SPDCID). From the
    // packet's EV (UDP source port), as the ACKs.
    UetPdsNackHeader::WriteFields(h + IP_UDP, 0, flags, code, 0, rx.psn, 0, rx.spdcid, 0);
    FabricFrame f =
        MakeFrame(port, h, IP_UDP + UetPdsNackHeader::SIZE, 0, rx.src.Get(), rx.udpSrc, false);
    m_counters.nacksSent++;
    m_nackTrace(0, rx.psn, code, false);
    m_core->SendControl(port, f, GetControlPriority(port));
}

UetPdc*
UetNic::AcceptSyn(uint32_t port, const UetRxPacket& rx)
{
    UetPdcTable& pdcs = m_feps[port].pdcs;
    uint32_t psnOffset = rx.dpdcid & 0xFFF;
    uint32_t startPsn = UetPdsHeader::PsnAdd(rx.psn, -int64_t(psnOffset));
    if (UetPdc* pdc = pdcs.FindTarget(rx.src.Get(), rx.spdcid))
    {
        if (pdc->GetStartPsn() == startPsn)
        {
            return pdc;
        }
        // The initiator reused its PDCID with a new Start_PSN: the old PDC is stale.
        pdc->CloseInError("superseded by a SYN with a new Start_PSN");
    }
    bool reserved = ((rx.dpdcid >> 12) & 0x8) != 0;
    uint16_t id = pdcs.Allocate(reserved);
    if (id == 0)
    {
        // Pool exhausted: NO_PDC_AVAIL, and ask idle PDCs to close so the retry can succeed.
        SendStatelessNack(port, rx, UetPdsHeader::NACK_NO_PDC_AVAIL);
        pdcs.RequestCloseTargets();
        return nullptr;
    }
    UetDeliveryMode mode = (rx.type == UetPdsHeader::ROD_REQ || rx.type == UetPdsHeader::ROD_CC_REQ)
                               ? UetDeliveryMode::ROD
                               : UetDeliveryMode::RUD;
    return pdcs.OpenTarget(id, mode, rx.src, rx.spdcid, startPsn, rx.udpSrc);
}

void
UetNic::SendRudiResponse(uint32_t port,
                         const UetRxPacket& rx,
                         uint8_t rc,
                         uint16_t msgId,
                         uint32_t jobId,
                         uint32_t modified)
{
    uint8_t buf[L2_ROOM + IP_UDP + UetPdsRudiHeader::SIZE + UetSesResponseHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    uint8_t flags = (rx.ce ? UetPdsHeader::FLAG_M : 0) | (rx.flags & UetPdsHeader::FLAG_RETX);
    uint32_t n = IP_UDP + UetPdsRudiHeader::WriteFields(h + IP_UDP,
                                                        UetPdsHeader::RUDI_RESP,
                                                        UetPdsHeader::NH_RESPONSE,
                                                        flags,
                                                        rx.psn);
    bool ok = rc == UetSesHeader::RC_OK;
    n += UetSesResponseHeader::WriteFields(h + n,
                                           ok ? UetSesHeader::DEFAULT_RESPONSE
                                              : UetSesHeader::RESPONSE,
                                           rc,
                                           msgId,
                                           0,
                                           jobId,
                                           ok ? modified : 0);
    FabricFrame f = MakeFrame(port, h, n, 0, rx.src.Get(), rx.udpSrc, false);
    m_counters.acksSent++;
    m_core->SendControl(port, f, GetControlPriority(port));
}

void
UetNic::ReceivePdcless(uint32_t port, const UetRxPacket& rx)
{
    Fep& fep = m_feps[port];
    if (rx.type == UetPdsHeader::RUDI_RESP)
    {
        uint32_t jobId = rx.ses ? wire::GetU24(rx.ses + 5) : 0;
        auto it =
            fep.pdcless.find(UetPdcTable::InitiatorKey(UetDeliveryMode::RUDI, jobId, rx.src.Get()));
        if (it != fep.pdcless.end())
        {
            it->second->ReceiveResponse(rx);
        }
        return;
    }
    if (rx.nextHeader != UetPdsHeader::NH_REQUEST_STD || !rx.ses)
    {
        return; // only standard SES requests are modelled
    }
    bool rudi = rx.type == UetPdsHeader::RUDI_REQ;
    uint32_t jobId = wire::GetU24(rx.ses + 5);
    UetDeliveryMode mode = rudi ? UetDeliveryMode::RUDI : UetDeliveryMode::UUD;
    PdclessPeer& peer = fep.pdclessPeers[UetPdcTable::InitiatorKey(mode, jobId, rx.src.Get())];
    if (!peer.ses)
    {
        peer.ses = std::make_unique<UetSesReassembly>(this, port, rudi ? 0 : m_uudReassemblyLimit);
        if (rudi)
        {
            peer.ids.emplace(0, m_mpRange);
        }
    }
    if (rx.ce)
    {
        m_counters.ceReceived++;
    }
    m_core->AccountRx(port, GetDataPriority(port), rx.payload); // host-side PFC
    if (!rudi)
    {
        m_counters.uudPacketsReceived++;
        m_counters.dataPacketsReceived++;
        peer.ses->Receive(rx.src, rx.ses, rx.payload, m_core->Now());
        return;
    }
    const bool ahead = UetPdsHeader::PsnDiff(rx.psn, peer.ids->GetSackBase()) > 0;
    UetReceiveWindow::Verdict v = peer.ids->Receive(rx.psn);
    if (v == UetReceiveWindow::OUT_OF_WINDOW)
    {
        uint8_t buf[L2_ROOM + IP_UDP + UetPdsNackHeader::SIZE];
        uint8_t* h = buf + L2_ROOM;
        UetPdsNackHeader::WriteFields(h + IP_UDP,
                                      0,
                                      UetPdsHeader::FLAG_NT,
                                      UetPdsHeader::NACK_PSN_OOR_WINDOW,
                                      0,
                                      rx.psn,
                                      0,
                                      0,
                                      jobId);
        FabricFrame f =
            MakeFrame(port, h, IP_UDP + UetPdsNackHeader::SIZE, 0, rx.src.Get(), rx.udpSrc, false);
        m_counters.nacksSent++;
        m_core->SendControl(port, f, GetControlPriority(port));
        return;
    }
    uint16_t msgId = wire::GetU16(rx.ses + 2);
    if (v == UetReceiveWindow::DUPLICATE)
    {
        // Its response was lost: answer again, without counting it twice.
        m_counters.duplicatesReceived++;
        SendRudiResponse(port, rx, UetSesHeader::RC_OK, msgId, jobId, 0);
        return;
    }
    m_counters.dataPacketsReceived++;
    m_counters.outOfOrderReceived += ahead;
    UetSesReassembly::Outcome o = peer.ses->Receive(rx.src, rx.ses, rx.payload, m_core->Now());
    uint8_t rc = o.read ? uint8_t(UetSesHeader::RC_UNSUPPORTED_OP) : o.rc;
    SendRudiResponse(port, rx, rc, msgId, jobId, static_cast<uint32_t>(o.bytes));
}

bool
UetNic::ReceiveTrimmed(uint32_t port,
                       const UetRxPacket& rx,
                       bool lastHop,
                       FabricNicDropReason& reason)
{
    Fep& fep = m_feps[port];
    m_counters.trimmedReceived++;
    if (lastHop)
    {
        m_counters.trimmedLastHopReceived++;
    }
    if (rx.ce)
    {
        m_counters.ceReceived++;
    }
    const uint8_t code = lastHop ? UetPdsHeader::NACK_TRIMMED_LASTHOP : UetPdsHeader::NACK_TRIMMED;
    // M: the packet was CE-marked; RETX echoed (UET.md "Trimming").
    const uint8_t flags = (rx.ce ? UetPdsHeader::FLAG_M : 0) | (rx.flags & UetPdsHeader::FLAG_RETX);
    if (rx.type == UetPdsHeader::UUD_REQ)
    {
        m_counters.uudTrimmed++; // unreliable: nobody resends it
        return true;
    }
    if (rx.type == UetPdsHeader::RUDI_REQ)
    {
        // The packet id in NACK_PSN, the JobID in the payload (the initiator's flow key), NT.
        uint8_t buf[L2_ROOM + IP_UDP + UetPdsNackHeader::SIZE];
        uint8_t* h = buf + L2_ROOM;
        UetPdsNackHeader::WriteFields(h + IP_UDP,
                                      0,
                                      flags | UetPdsHeader::FLAG_NT,
                                      code,
                                      0,
                                      rx.psn,
                                      0,
                                      0,
                                      wire::GetU24(rx.ses + 5));
        FabricFrame f =
            MakeFrame(port, h, IP_UDP + UetPdsNackHeader::SIZE, 0, rx.src.Get(), rx.udpSrc, false);
        m_counters.nacksSent++;
        m_counters.trimNacksSent++;
        m_nackTrace(0, rx.psn, code, false);
        m_core->SendControl(port, f, GetControlPriority(port));
        return true;
    }
    UetPdc* pdc = nullptr;
    if (rx.flags & UetPdsHeader::FLAG_SYN)
    {
        // A trimmed SYN packet opens no PDC (its data did not arrive; a PDCID taken for it
        // would be half-open until New_PDC_Time, and an incast's first packets are the ones
        // trimmed): NACK it statelessly, as NO_PDC_AVAIL; the initiator, still in SYN_SENT,
        // resends it with SYN. If an earlier SYN packet opened the PDC, that PDC answers.
        UetPdc* target = fep.pdcs.FindTarget(rx.src.Get(), rx.spdcid);
        uint32_t startPsn = UetPdsHeader::PsnAdd(rx.psn, -int64_t(rx.dpdcid & 0xFFF));
        if (target && target->GetStartPsn() == startPsn)
        {
            pdc = target;
        }
        else
        {
            SendStatelessNack(port, rx, code, flags);
            m_counters.trimNacksSent++;
            return true;
        }
    }
    else
    {
        pdc = fep.pdcs.Lookup(rx.dpdcid, rx.src.Get());
        if (!pdc || (pdc->GetPeerId() != 0 && pdc->GetPeerId() != rx.spdcid))
        {
            SendStatelessNack(port, rx, UetPdsHeader::NACK_INV_DPDCID);
            reason = FabricNicDropReason::UNKNOWN_FLOW;
            return false;
        }
    }
    pdc->ReceiveTrimmed(rx, code);
    return true;
}

bool
UetNic::Deliver(uint32_t port,
                const uint8_t* b,
                uint32_t got,
                uint32_t size,
                FabricNicDropReason& reason)
{
    // The core checked IPv4 (no options), UDP to 4793 and the destination address.
    if (got < IP_UDP + UetPdsHeader::PROLOGUE_SIZE || port >= m_feps.size())
    {
        reason = FabricNicDropReason::MALFORMED;
        return false;
    }
    UetRxPacket rx;
    rx.pds = b + IP_UDP;
    rx.type = UetPdsHeader::PeekType(rx.pds);
    rx.nextHeader = UetPdsHeader::PeekNextHeader(rx.pds);
    rx.flags = UetPdsHeader::PeekFlags(rx.pds);
    uint32_t pdsSize = UetPdsHeader::HeaderSize(rx.type);
    bool request = UetPdsRequestHeader::IsRequestType(rx.type);
    bool ack = UetPdsAckHeader::IsAckType(rx.type);
    bool known = request || ack || rx.type == UetPdsHeader::NACK || rx.type == UetPdsHeader::CTRL ||
                 IsPdcless(rx.type);
    uint32_t sesSize = HasSesHeader(rx.type) ? UetPdsHeader::SesHeaderSize(rx.nextHeader) : 0;
    uint32_t hdr = IP_UDP + pdsSize + sesSize;
    // A switch that trimmed a request re-marked its DSCP (UetNic TrimmedDscp, or
    // TrimmedLastHopDscp at the destination's ToR): headers whole, payload cut.
    const uint8_t dscp = b[1] >> 2;
    const bool trimmed =
        (dscp == m_trimmedDscp || dscp == m_trimmedLastHopDscp) &&
        (request || rx.type == UetPdsHeader::RUDI_REQ || rx.type == UetPdsHeader::UUD_REQ);
    if (!known || pdsSize == 0 || size < hdr || got < std::min(hdr, MAX_HEADERS) ||
        hdr > MAX_HEADERS)
    {
        if (trimmed)
        {
            // Cut inside its headers: nothing identifies the packet to NACK.
            m_counters.trimmedMalformed++;
            if (!m_warnedShortTrim)
            {
                m_warnedShortTrim = true;
                std::cerr << "ai-fabric warning: UetNic on node " << GetNodeId()
                          << ": a trimmed UET request of " << size << " B is shorter than its "
                          << hdr << " B of headers, so it cannot be NACKed; dropped as malformed "
                          << "(UetNicCounters::trimmedMalformed; the sender recovers by RTO). "
                          << "Set the switches' SharedBufferMmu TrimSize to at least "
                          << MIN_TRIM_BYTES << "\n";
            }
        }
        reason = FabricNicDropReason::MALFORMED;
        return false;
    }
    rx.ses = sesSize > 0 ? rx.pds + pdsSize : nullptr;
    rx.payload = size - hdr;
    rx.size = size;
    rx.ce = (b[1] & 0x03) == 0x03;
    rx.udpSrc = wire::GetU16(b + 20);
    rx.src = Ipv4Address(wire::GetU32(b + 12));
    if (IsPdcless(rx.type))
    {
        // pkt_id (RUDI). The UUD header is only 4 bytes and has none: octets 4-7 are the SES
        // header's, or beyond the packet when it has no SES header (a read past the end).
        rx.psn = rx.type == UetPdsHeader::UUD_REQ ? 0 : wire::GetU32(rx.pds + 4);
        if (trimmed)
        {
            rx.payload = 0;
            return ReceiveTrimmed(port, rx, dscp != m_trimmedDscp, reason);
        }
        ReceivePdcless(port, rx);
        return true;
    }
    rx.psn = UetPdsRequestHeader::PeekPsn(rx.pds); // same octets in every PDC type
    rx.spdcid = UetPdsRequestHeader::PeekSpdcid(rx.pds);
    rx.dpdcid = UetPdsRequestHeader::PeekDpdcid(rx.pds);
    if (trimmed)
    {
        rx.payload = 0;
        return ReceiveTrimmed(port, rx, dscp != m_trimmedDscp, reason);
    }
    uint32_t srcBits = rx.src.Get();
    if (rx.type == UetPdsHeader::NACK && (rx.flags & UetPdsHeader::FLAG_NT))
    {
        // A RUDI NACK: the packet id in NACK_PSN, the JobID in the payload [model choice].
        uint32_t jobId = wire::GetU32(rx.pds + 12) & 0xFFFFFF;
        auto it = m_feps[port].pdcless.find(
            UetPdcTable::InitiatorKey(UetDeliveryMode::RUDI, jobId, srcBits));
        if (it == m_feps[port].pdcless.end())
        {
            reason = FabricNicDropReason::UNKNOWN_FLOW;
            return false;
        }
        uint8_t code = UetPdsNackHeader::PeekNackCode(rx.pds);
        m_counters.nacksReceived++;
        if (code == UetPdsHeader::NACK_TRIMMED || code == UetPdsHeader::NACK_TRIMMED_LASTHOP)
        {
            m_counters.trimNacksReceived++;
        }
        m_nackTrace(0, rx.psn, code, true);
        it->second->ReceiveNack(rx);
        return true;
    }

    if (request)
    {
        UetPdc* pdc = nullptr;
        if (rx.flags & UetPdsHeader::FLAG_SYN)
        {
            pdc = AcceptSyn(port, rx);
            if (!pdc)
            {
                reason = FabricNicDropReason::UNKNOWN_FLOW;
                return false;
            }
        }
        else
        {
            pdc = m_feps[port].pdcs.Lookup(rx.dpdcid, srcBits);
            if (!pdc || (pdc->GetPeerId() != 0 && pdc->GetPeerId() != rx.spdcid))
            {
                SendStatelessNack(port, rx, UetPdsHeader::NACK_INV_DPDCID);
                reason = FabricNicDropReason::UNKNOWN_FLOW;
                return false;
            }
        }
        pdc->ReceiveRequest(rx);
        return true;
    }
    if (rx.type == UetPdsHeader::CTRL && rx.nextHeader == UetPdsHeader::CTRL_CLOSE)
    {
        UetPdc* pdc = m_feps[port].pdcs.Lookup(rx.dpdcid, srcBits);
        if (!pdc || pdc->GetPeerId() != rx.spdcid)
        {
            // Already closed (the ACK of an earlier Close was lost): say so.
            SendStatelessNack(port, rx, UetPdsHeader::NACK_INV_DPDCID);
            reason = FabricNicDropReason::UNKNOWN_FLOW;
            return false;
        }
        pdc->ReceiveControl(rx);
        return true;
    }
    UetPdc* pdc = m_feps[port].pdcs.Lookup(rx.dpdcid, srcBits);
    if (!pdc)
    {
        reason = FabricNicDropReason::UNKNOWN_FLOW;
        return false;
    }
    if (ack)
    {
        pdc->ReceiveAck(rx);
    }
    else if (rx.type == UetPdsHeader::NACK)
    {
        pdc->ReceiveNack(rx);
    }
    else
    {
        pdc->ReceiveControl(rx);
    }
    return true;
}

} // namespace ns3
