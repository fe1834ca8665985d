/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UetPdc, the receiving side: requests arriving (receive window, SES reassembly,
 * READ data at the initiator), trimmed requests, and the ACKs and NACKs that answer them
 * (ACK coalescing, the quiet-period ACK timer). The class is declared in uet-pdc.h; its
 * lifecycle, control packets and receiver credit are in uet-pdc.cc, the sending side in
 * uet-pdc-sender.cc. The calls made for every packet received stay in this file.
 */
#include "uet-nic.h"
#include "uet-pdc.h"
#include "uet-pds-ack-header.h"
#include "uet-pds-control-header.h"
#include "uet-pds-header.h"
#include "uet-pds-nack-header.h"
#include "uet-pds-request-header.h"
#include "uet-ses-header.h"
#include "uet-ses-response-header.h"
#include "uet-wire-sizes.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

namespace
{
using Pds = UetPdsHeader;
using Ses = UetSesHeader;
using namespace uetwire; // IP_UDP, MAX_HEADERS, L2_ROOM

} // namespace

void
UetPdc::SendAck(uint32_t psn,
                uint8_t reqFlags,
                bool ce,
                const UetSesReassembly::Outcome* rsp,
                Time serviceTime)
{
    uint8_t buf[L2_ROOM + IP_UDP + UetPdsAckHeader::CC_SIZE + UetSesResponseHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    uint8_t* p = h + IP_UDP;
    uint8_t flags = (ce ? Pds::FLAG_M : 0) | (reqFlags & Pds::FLAG_RETX);
    uint32_t cack = m_rx->GetCackPsn();
    int32_t off = std::clamp<int32_t>(Pds::PsnDiff(psn, cack), INT16_MIN, INT16_MAX);
    uint8_t nh = rsp ? Pds::NH_RESPONSE : Pds::NH_NONE;
    uint32_t n = 0;
    bool hole = m_rx->HasHole();
    // Receiver credit without NSCC: every ACK is an ACK_CC carrying the cumulative grant
    // (a lost Credit packet is made good by the next ACK).
    bool credit = m_creditCtx && !m_nic->WantsReceiverState();
    if (hole || credit || m_nic->WantsReceiverState())
    {
        // ACK_CC with the SACK bitmap from CACK_PSN + 1 (sack_psn_offset 1) and the NSCC
        // state: service time, rcvd_bytes and the out-of-order count.
        uint16_t ooo =
            static_cast<uint16_t>(std::min<uint32_t>(m_rx->GetOutOfOrderCount(), 0xFFFF));
        uint64_t held = static_cast<uint64_t>(serviceTime.GetNanoSeconds()) /
                        UetPdsAckHeader::SERVICE_TIME_UNIT_NS;
        uint64_t nscc = UetPdsAckHeader::PackNsccState(
            static_cast<uint16_t>(std::min<uint64_t>(held, 0xFFFF)),
            false,
            0,
            static_cast<uint32_t>(m_rxBytes / UetPdsAckHeader::RCVD_BYTES_UNIT),
            ooo);
        n = UetPdsAckHeader::WriteAckCc(
            p,
            nh,
            flags,
            static_cast<int16_t>(off),
            cack,
            m_localId,
            m_peerId,
            credit ? Pds::CC_CREDIT : Pds::CC_NSCC,
            static_cast<uint8_t>(std::min(m_nic->GetMpRange(), 255u)),
            1,
            hole ? m_rx->GetSackBitmap() : 0,
            credit ? UetPdsAckHeader::PackCreditState(m_creditCtx->GetGrantedField(), ooo) : nscc);
    }
    else
    {
        n = UetPdsAckHeader::WriteAck(p,
                                      nh,
                                      flags,
                                      static_cast<int16_t>(off),
                                      cack,
                                      m_localId,
                                      m_peerId);
    }
    if (rsp)
    {
        bool ok = rsp->rc == Ses::RC_OK;
        n += UetSesResponseHeader::WriteFields(p + n,
                                               ok ? Ses::DEFAULT_RESPONSE : Ses::RESPONSE,
                                               rsp->rc,
                                               rsp->msgId,
                                               0,
                                               rsp->jobId,
                                               ok ? static_cast<uint32_t>(rsp->bytes) : 0);
    }
    FabricFrame f = m_nic->MakeFrame(m_port, h, IP_UDP + n, 0, m_peerIpBits, m_ackEv, false);
    m_nic->Counters().acksSent++;
    m_nic->m_ackTrace(m_localId, cack, 0, false);
    m_core->SendControl(m_port, f, m_ctlPriority);
}

void
UetPdc::SendNack(uint8_t code, uint32_t psn, uint8_t flags, uint16_t ev)
{
    uint8_t buf[L2_ROOM + IP_UDP + UetPdsNackHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    UetPdsNackHeader::WriteFields(h + IP_UDP, 0, flags, code, 0, psn, m_localId, m_peerId, 0);
    FabricFrame f =
        m_nic->MakeFrame(m_port, h, IP_UDP + UetPdsNackHeader::SIZE, 0, m_peerIpBits, ev, false);
    m_nic->Counters().nacksSent++;
    m_nic->m_nackTrace(m_localId, psn, code, false);
    m_core->SendControl(m_port, f, m_ctlPriority);
}

void
UetPdc::ReceiveRequest(const UetRxPacket& rx)
{
    if (m_state == CLOSED)
    {
        return;
    }
    UetNicCounters& c = m_nic->Counters();
    bool syn = (rx.flags & Pds::FLAG_SYN) != 0;
    if (m_role == TARGET && !syn && !m_sawNonSyn)
    {
        m_sawNonSyn = true;
        Unschedule(m_newPdcEvent);
    }
    if (m_peerId == 0 && !syn)
    {
        m_peerId = rx.spdcid; // READ data: the target's PDCID, if its ACK has not come yet
        if (m_state == SYN_SENT)
        {
            m_state = ESTABLISHED;
        }
    }
    if (rx.ce)
    {
        c.ceReceived++;
    }
    if (UetPdsRequestHeader::HasCcState(rx.type))
    {
        OnCreditTarget(rx.pds[12], wire::GetU24(rx.pds + 13), false);
    }
    uint32_t psn = rx.psn;
    // ACKs follow the EV of the packet they answer: with spraying, an ACK's path depends on
    // the sender's choice, and a path that loses ACKs is one the sender learns to avoid.
    m_ackEv = rx.udpSrc;
    uint32_t cackBefore = m_rx->GetCackPsn();
    bool hadHole = m_rx->HasHole();
    UetReceiveWindow::Verdict v;
    const bool ahead = Pds::PsnDiff(psn, m_rx->GetSackBase()) > 0;
    if (m_mode == UetDeliveryMode::ROD && ahead)
    {
        c.outOfOrderReceived++;
        // ROD accepts only the next PSN: one NACK per gap, the packet is dropped.
        if (!m_rodNackSent)
        {
            m_rodNackSent = true;
            SendNack(Pds::NACK_ROD_OOO, m_rx->GetSackBase(), rx.flags & Pds::FLAG_RETX, rx.udpSrc);
        }
        return;
    }
    v = m_rx->Receive(psn);
    if (v == UetReceiveWindow::OUT_OF_WINDOW)
    {
        SendNack(Pds::NACK_PSN_OOR_WINDOW, psn, rx.flags & Pds::FLAG_RETX, rx.udpSrc);
        return;
    }
    if (v == UetReceiveWindow::DUPLICATE)
    {
        c.duplicatesReceived++;
        SendAck(psn, rx.flags, rx.ce, nullptr); // its ACK may have been lost
        return;
    }
    m_rodNackSent = false;
    c.dataPacketsReceived++;
    c.outOfOrderReceived += ahead;
    m_rxBytes += rx.payload;
    m_core->AccountRx(m_port, m_priority, rx.payload); // host-side PFC (if RxDrainRate > 0)
    UetSesReassembly::Outcome done;
    if (rx.nextHeader == Pds::NH_RESPONSE_DATA && rx.ses)
    {
        ProcessReadData(rx);
    }
    else if (rx.nextHeader == Pds::NH_REQUEST_STD && rx.ses)
    {
        done = m_ses->Receive(m_peer, rx.ses, rx.payload, m_core->Now());
        if (done.read && done.rc == Ses::RC_OK)
        {
            // The data goes back on this PDC's reverse PSN space; the ACK carries no response.
            UetTxMessage data;
            data.op = UetOperation::READ;
            data.readResponse = true;
            data.msgId = done.msgId;
            data.target.fep = m_peer;
            data.target.jobId = done.jobId;
            data.bytes = done.bytes;
            Post(std::move(data));
            done.complete = false;
        }
    }
    bool completed = done.complete;
    bool filled = hadHole && Pds::PsnDiff(m_rx->GetCackPsn(), cackBefore) > 1;
    bool hole = m_nic->GetAckOnHole() && (m_rx->HasHole() || filled);
    bool immediate = m_firstRx || (rx.flags & (Pds::FLAG_AR | Pds::FLAG_RETX | Pds::FLAG_SYN)) ||
                     rx.ce || hole || completed;
    m_firstRx = false;
    if (m_ackGen->OnPacket(rx.size, immediate))
    {
        SendAck(psn, rx.flags, rx.ce, completed ? &done : nullptr);
    }
    else if (!m_nic->GetAckDelay().IsZero())
    {
        m_lastRx = m_core->Now();
        m_lastRxPsn = psn;
        if (!compat::IsPending(m_ackEvent))
        {
            m_ackEvent = Simulator::Schedule(m_nic->GetAckDelay(), &UetPdc::AckTimerExpired, this);
        }
    }
    Retire();
    Wake();
    MaybeIdle();
    Flush();
}

void
UetPdc::ReceiveTrimmed(const UetRxPacket& rx, uint8_t code)
{
    if (m_state == CLOSED)
    {
        return;
    }
    bool syn = (rx.flags & Pds::FLAG_SYN) != 0;
    if (m_role == TARGET && !syn && !m_sawNonSyn)
    {
        m_sawNonSyn = true; // the initiator has our PDCID: the PDC is not half-open
        Unschedule(m_newPdcEvent);
    }
    if (m_peerId == 0 && !syn)
    {
        m_peerId = rx.spdcid; // READ data: the target's PDCID, as in ReceiveRequest
        if (m_state == SYN_SENT)
        {
            m_state = ESTABLISHED;
        }
    }
    if (UetPdsRequestHeader::HasCcState(rx.type))
    {
        // Receiver credit: the sender must resend: back on the pacer's queue.
        OnCreditTarget(rx.pds[12], wire::GetU24(rx.pds + 13), true);
    }
    // The PSN stays unreceived (its data was cut) and the ACK state is untouched: the NACK
    // asks for the packet again, at once.
    uint8_t flags = (rx.ce ? Pds::FLAG_M : 0) | (rx.flags & Pds::FLAG_RETX);
    m_nic->Counters().trimNacksSent++;
    SendNack(code, rx.psn, flags, rx.udpSrc);
}

void
UetPdc::ProcessReadData(const UetRxPacket& rx)
{
    const uint8_t* s = rx.ses;
    UetTxMessage* m = FindTxByMsgId(wire::GetU16(s + 8)); // read_request_message_id
    if (!m || m->op != UetOperation::READ || m->done)
    {
        return;
    }
    m->readReceived += rx.payload;
    m->modified = wire::GetU32(s + 12);
    MaybeComplete(*m);
}

void
UetPdc::AckTimerExpired()
{
    if (m_state == CLOSED || !m_ackGen->HasPending())
    {
        return;
    }
    Time quiet = m_core->Now() - m_lastRx;
    if (quiet < m_nic->GetAckDelay())
    {
        // Packets keep coming (ACK_Gen_Trigger will ACK them): look again when it is quiet.
        m_ackEvent =
            Simulator::Schedule(m_nic->GetAckDelay() - quiet, &UetPdc::AckTimerExpired, this);
        return;
    }
    m_ackGen->Reset();
    SendAck(m_lastRxPsn, 0, false, nullptr, m_core->Now() - m_lastRx);
}

} // namespace ns3
