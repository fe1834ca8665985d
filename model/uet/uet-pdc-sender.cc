/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UetPdc, the sending side: messages posted, request packets built and paced
 * (send window, EVs), the RTO, and what comes back for them (ACK, NACK). The class is declared
 * in uet-pdc.h; its lifecycle, control packets and receiver credit are in uet-pdc.cc, the
 * receiving side in uet-pdc-receiver.cc. A PDC sends on both ends (the target sends READ
 * responses), so the split is by direction, not by role. The calls made for every packet sent
 * or acknowledged stay in this file.
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
UetPdc::Post(UetTxMessage m)
{
    Enqueue(std::move(m));
    Unschedule(m_idleEvent);
    Wake();
    if (m_ccc)
    {
        m_ccc->MaybeRequestCredit();
    }
}

void
UetPdc::WakeContext()
{
    // Room in the window is the context's: another member may have been waiting for it.
    if (m_ccc && m_ccc->GetMembers() > 1)
    {
        m_ccc->WakeMembers();
    }
    else
    {
        Wake();
    }
    if (m_ccc)
    {
        m_ccc->MaybeRequestCredit(); // losses to resend may need credit
    }
}

void
UetPdc::Wake()
{
    if (HasPacketToSend())
    {
        m_core->Activate(this);
    }
}

uint64_t
UetPdc::GetInflightBytes() const
{
    return m_tx ? m_tx->GetInflightBytes() : 0;
}

bool
UetPdc::HasPacketToSend() const
{
    if (m_state == CLOSED)
    {
        return false;
    }
    // A window (NSCC) bounds every data packet, retransmissions included: one more full
    // packet must fit (UET: inflight + MTU <= cwnd).
    uint64_t window = m_ccState->GetWindow();
    if (window != 0)
    {
        // The context's window bounds the bytes in flight of all its PDCs.
        uint64_t inflight = m_ccc->GetInflightBytes();
        if (inflight > 0 && inflight + m_nic->GetMtu() > window)
        {
            return false;
        }
    }
    // Receiver credit (RCCC) bounds every data packet; the Close packet goes without.
    bool credit = m_ccc->HasCredit();
    if (m_tx->HasLost())
    {
        return credit;
    }
    if (!m_tx->CanSend())
    {
        return false;
    }
    if (m_closeQueued)
    {
        return true;
    }
    if (!HasNewPacket())
    {
        return false;
    }
    // While SYN is set, psn_offset (12 bits) must reach the packet's PSN.
    if (m_state == SYN_SENT && Pds::PsnDiff(m_tx->GetNextPsn(), m_startPsn) >= 0x1000)
    {
        return false;
    }
    return credit;
}

Time
UetPdc::GetNextSendTime() const
{
    return m_ccc ? std::max(m_holdUntil, m_ccc->GetNextSendTime()) : m_holdUntil;
}

FabricFrame
UetPdc::BuildNextPacket(const Time& now)
{
    NS_ABORT_MSG_IF(!HasPacketToSend(), "UetPdc::BuildNextPacket with nothing to send");
    uint8_t buf[L2_ROOM + MAX_HEADERS];
    uint8_t* h = buf + L2_ROOM;
    uint8_t* p = h + IP_UDP;
    uint32_t psn = 0;
    uint64_t cookie = 0;
    bool retx = false;
    uint32_t lost = 0;
    uint16_t evIndex = 0;
    if (m_tx->NextLost(&lost))
    {
        // A resent packet takes a known-good path (REPS), not an exploration.
        evIndex = m_evSel ? m_evSel->NextRetransmitEv() : 0;
        psn = lost;
        UetSendWindow::Record& r = m_tx->Retransmit(lost, now);
        cookie = r.cookie;
        r.ev = evIndex;
        retx = true;
        m_nic->Counters().retransmissions++;
    }
    else if (m_closeQueued)
    {
        evIndex = m_evSel ? m_evSel->NextEv() : 0;
        m_closeQueued = false;
        psn = m_tx->SendNew(CLOSE_COOKIE, now);
        cookie = CLOSE_COOKIE;
    }
    else
    {
        evIndex = m_evSel ? m_evSel->NextEv() : 0;
        cookie = TakeNewPacket();
        psn = m_tx->SendNew(
            cookie,
            now,
            PayloadOf(*FindTx(static_cast<uint32_t>(cookie >> 32)), static_cast<uint32_t>(cookie)));
        m_tx->Get(psn).ev = evIndex;
    }
    bool syn = m_state == SYN_SENT;
    uint16_t dpdcid =
        syn ? UetPdsRequestHeader::SynField(0, static_cast<uint16_t>(psn - m_startPsn)) : m_peerId;
    uint8_t retxFlag = retx ? Pds::FLAG_RETX : 0;
    uint8_t synFlag = syn ? Pds::FLAG_SYN : 0;
    uint32_t hdr = IP_UDP;
    uint32_t payload = 0;
    if (cookie & CLOSE_COOKIE)
    {
        // Close takes a PSN in the data stream and is retransmitted like data (UET.md).
        hdr += UetPdsControlHeader::WriteFields(p,
                                                Pds::CTRL_CLOSE,
                                                retxFlag | Pds::FLAG_AR,
                                                0,
                                                psn,
                                                m_localId,
                                                m_peerId,
                                                0);
    }
    else
    {
        uint32_t seq = static_cast<uint32_t>(cookie >> 32);
        uint32_t k = static_cast<uint32_t>(cookie);
        UetTxMessage* m = FindTx(seq);
        NS_ABORT_MSG_IF(!m, GetLabel() << ": PSN " << psn << " belongs to no message");
        payload = PayloadOf(*m, k);
        m->retransmissions += retx ? 1 : 0;
        bool last = k + 1 == m->npkts;
        // AR on the last packet of a message, on a retransmission and when the window closes:
        // the ACK must not wait for ACK_Gen_Trigger bytes that will not come.
        uint8_t ar = (last || retx || !m_tx->CanSend()) ? Pds::FLAG_AR : 0;
        bool cc = m_ccc->UsesCredit();
        uint8_t type = m_mode == UetDeliveryMode::ROD ? (cc ? Pds::ROD_CC_REQ : Pds::ROD_REQ)
                                                      : (cc ? Pds::RUD_CC_REQ : Pds::RUD_REQ);
        uint8_t nh = m->readResponse ? Pds::NH_RESPONSE_DATA : Pds::NH_REQUEST_STD;
        hdr += UetPdsRequestHeader::WriteFields(p,
                                                type,
                                                nh,
                                                retxFlag | synFlag | ar,
                                                0,
                                                psn,
                                                m_localId,
                                                dpdcid,
                                                m_ccc->GetCccId());
        hdr += WriteSes(h + hdr, *m, k, now);
        if (cc)
        {
            // The packet spends its size on the wire; the target it carries counts the
            // backlog after it (UET credit_target, octets 13-15 of the PDS header).
            uint64_t target = m_ccc->SpendCredit(payload + m_nic->GetPacketOverheadBytes(hdr));
            wire::PutU24(p + 13, static_cast<uint32_t>(target & UetCreditContext::FIELD_MASK));
        }
    }
    UetNicCounters& c = m_nic->Counters();
    c.dataPacketsSent++;
    c.payloadBytesSent += payload;
    m_nic->m_sentTrace(m_localId, psn, payload);
    if (payload > 0)
    {
        m_ccState->SetBytesInFlight(m_ccc->GetInflightBytes());
        m_cc->OnBytesSent(payload);
    }
    m_ccc->RecordSend(now, payload + m_nic->GetPacketOverheadBytes(hdr));
    if (!compat::IsPending(m_rtoEvent))
    {
        ArmRto();
    }
    return m_nic->MakeFrame(m_port, h, hdr, payload, m_peerIpBits, EvPort(evIndex), true);
}

uint16_t
UetPdc::EvPort(uint16_t index) const
{
    // The PDC's own EV (a random port) is index 0; the others follow it, wrapping in
    // EV_PORT_BASE..65535, so that two PDCs using the same index take different paths.
    uint32_t base = m_ev - UetNic::EV_PORT_BASE;
    return static_cast<uint16_t>(UetNic::EV_PORT_BASE + ((base + index) % UetNic::EV_PORTS));
}

void
UetPdc::EvFeedback(uint16_t index, UetEvFeedback f)
{
    if (m_evSel)
    {
        m_evSel->OnFeedback(index, f);
    }
}

void
UetPdc::ArmRto()
{
    Unschedule(m_rtoEvent);
    uint32_t psn = 0;
    if (m_state == CLOSED || !m_tx->OldestInFlight(&psn))
    {
        return;
    }
    const UetSendWindow::Record& r = m_tx->Get(psn);
    Time now = m_core->Now();
    m_rtoAt = std::max(now, r.lastSent + Rto(r.retx));
    m_rtoEvent = Simulator::Schedule(m_rtoAt - now, &UetPdc::RtoExpired, this);
}

void
UetPdc::RtoExpired()
{
    uint32_t psn = 0;
    if (!m_tx->OldestInFlight(&psn))
    {
        return;
    }
    UetSendWindow::Record& r = m_tx->Get(psn);
    Time now = m_core->Now();
    if (now < r.lastSent + Rto(r.retx))
    {
        ArmRto();
        return;
    }
    if (r.retx >= m_nic->GetRetryLimit())
    {
        std::ostringstream why;
        why << "PSN " << psn << " unacknowledged after " << r.retx
            << " retransmissions (RetryLimit " << m_nic->GetRetryLimit() << ")";
        CloseInError(why.str());
        return;
    }
    m_nic->Counters().rtoExpirations++;
    m_tx->MarkLost(psn);
    EvFeedback(r.ev, UetEvFeedback::TIMEOUT);
    m_nic->m_retxTrace(m_localId, psn, "rto");
    m_cc->OnEvent(FabricCcEvent::TIMEOUT);
    ArmRto();
    WakeContext();
}

void
UetPdc::ReceiveAck(const UetRxPacket& rx)
{
    if (m_state == CLOSED)
    {
        return;
    }
    m_nic->Counters().acksReceived++;
    if (m_peerId == 0)
    {
        m_peerId = rx.spdcid; // the first ACK returns the target's PDCID
    }
    if (m_state == SYN_SENT)
    {
        m_state = ESTABLISHED;
        m_noPdcRetries = 0;
    }
    uint32_t cack = rx.psn;
    uint32_t sackBase = 0;
    uint64_t bitmap = 0;
    FabricCcAckSample sample;
    Time serviceTime;
    if (rx.type != Pds::ACK)
    {
        sackBase = Pds::PsnAdd(cack, static_cast<int16_t>(wire::GetU16(rx.pds + 14)));
        bitmap = wire::GetU64(rx.pds + 16);
        if (rx.type == Pds::ACK_CC && (rx.pds[12] >> 4) == Pds::CC_NSCC)
        {
            // The receiver's side (UET ACK_CC NSCC state): how long it held the ACKed packet
            // (128 ns units), RC and rcv_cwnd_pend.
            uint64_t cc = wire::GetU64(rx.pds + 24);
            serviceTime = NanoSeconds(int64_t(cc >> 48) * UetPdsAckHeader::SERVICE_TIME_UNIT_NS);
            sample.rcvRestore = (cc >> 47) & 1;
            sample.rcvCwndPend = static_cast<uint8_t>((cc >> 40) & 0x7F);
        }
        else if (rx.type == Pds::ACK_CC && (rx.pds[12] >> 4) == Pds::CC_CREDIT)
        {
            // The receiver's cumulative grant rides on the ACK (RCCC).
            m_ccc->OnCreditField(static_cast<uint32_t>(wire::GetU64(rx.pds + 24) >> 40));
        }
    }
    uint32_t ackPsn = Pds::PsnAdd(cack, static_cast<int16_t>(wire::GetU16(rx.pds + 2)));
    m_acked.clear();
    uint32_t n = m_tx->OnAck(cack, sackBase, bitmap, &m_acked);
    m_nic->m_ackTrace(m_localId, cack, n, true);
    uint16_t ackEv = 0;
    bool closeAcked = false;
    for (const auto& [psn, rec] : m_acked)
    {
        if (rec.cookie & CLOSE_COOKIE)
        {
            closeAcked = true;
            continue;
        }
        UetTxMessage* m = FindTx(static_cast<uint32_t>(rec.cookie >> 32));
        if (!m)
        {
            continue;
        }
        uint32_t payload = PayloadOf(*m, static_cast<uint32_t>(rec.cookie));
        sample.ackedBytes += payload;
        m->ackedPkts++;
        if (psn == ackPsn)
        {
            // The path of the packet that triggered the ACK: clean or congested.
            ackEv = rec.ev;
            EvFeedback(rec.ev,
                       (rx.flags & Pds::FLAG_M) ? UetEvFeedback::ACK_ECN
                                                : UetEvFeedback::ACK_CLEAN);
        }
        if (psn == ackPsn && rec.retx == 0)
        {
            Time rtt = m_core->Now() - rec.firstSent;
            OnRttSample(rtt);
            // The network's share of it: minus the time the receiver held the packet.
            if (rtt > serviceTime)
            {
                sample.rtt = rtt - serviceTime;
            }
        }
        if (rx.flags & Pds::FLAG_M)
        {
            sample.ceBytes += payload;
        }
    }
    // An SES response rides on the ACK (next header 4): the target's return code.
    if (rx.nextHeader == Pds::NH_RESPONSE && rx.ses)
    {
        UetTxMessage* m = FindTxByMsgId(wire::GetU16(rx.ses + 2));
        if (m)
        {
            m->returnCode = rx.ses[1] & 0x3F;
            m->modified = wire::GetU32(rx.ses + 8);
            MaybeComplete(*m);
        }
    }
    for (const auto& [psn, rec] : m_acked)
    {
        if (!(rec.cookie & CLOSE_COOKIE))
        {
            if (UetTxMessage* m = FindTx(static_cast<uint32_t>(rec.cookie >> 32)))
            {
                MaybeComplete(*m);
            }
        }
    }
    sample.ecnEcho = (rx.flags & Pds::FLAG_M) != 0;
    sample.entropy = EvPort(ackEv);
    if (sample.ackedBytes > 0 || sample.ecnEcho)
    {
        m_ccState->SetBytesInFlight(m_ccc->GetInflightBytes());
        m_cc->OnAck(sample);
    }
    uint32_t threshold = m_nic->GetOooThreshold();
    // With InferLossAge, a packet is declared lost only once it is that many smoothed RTTs
    // old: reordering by spraying is shorter, a black-holed path is found in ~1.5 RTT instead
    // of an RTO.
    Time sentBefore = Time::Max();
    double age = m_nic->GetInferLossAge();
    if (age > 0 && GetSrtt().IsStrictlyPositive())
    {
        sentBefore = m_core->Now() - PicoSeconds(int64_t(age * GetSrtt().GetPicoSeconds()));
    }
    m_inferred.clear();
    if (bitmap != 0 && threshold > 0 &&
        m_tx->InferLosses(threshold, sentBefore, m_evSel ? &m_inferred : nullptr) > 0)
    {
        uint32_t lost = 0;
        m_tx->NextLost(&lost);
        m_nic->m_retxTrace(m_localId, lost, "inferred");
        // A packet lost without a trim vanished on its path: the EV selector hears it as a
        // timeout (REPS freezes on its known-good EVs) without waiting for the RTO.
        for (uint32_t psn : m_inferred)
        {
            EvFeedback(m_tx->Get(psn).ev, UetEvFeedback::TIMEOUT);
        }
    }
    Retire();
    if (closeAcked)
    {
        Finish(false, "closed");
        return;
    }
    if (m_tx->GetOutstanding() == 0)
    {
        Unschedule(m_rtoEvent);
    }
    else if (!compat::IsPending(m_rtoEvent))
    {
        ArmRto(); // else the timer checks the oldest packet when it fires
    }
    WakeContext();
    MaybeIdle();
    Flush();
}

void
UetPdc::ReceiveNack(const UetRxPacket& rx)
{
    if (m_state == CLOSED)
    {
        return;
    }
    uint8_t code = UetPdsNackHeader::PeekNackCode(rx.pds);
    uint32_t psn = rx.psn;
    bool trim = code == Pds::NACK_TRIMMED || code == Pds::NACK_TRIMMED_LASTHOP;
    m_nic->Counters().nacksReceived++;
    if (trim)
    {
        m_nic->Counters().trimNacksReceived++;
    }
    m_nic->m_nackTrace(m_localId, psn, code, true);
    switch (code)
    {
    case Pds::NACK_TRIMMED:
    case Pds::NACK_TRIMMED_LASTHOP:
    case Pds::NACK_NO_PKT_BUFFER:
    case Pds::NACK_RCVR_INFER_LOSS:
    case Pds::NACK_PSN_OOR_WINDOW:
        // Retransmitted at once: marked lost, it goes before new packets (HasPacketToSend) as
        // soon as the arbiter serves the PDC, without waiting for the RTO.
        if (m_tx->MarkLost(psn))
        {
            m_nic->m_retxTrace(m_localId, psn, "nack");
            EvFeedback(m_tx->Get(psn).ev, UetEvFeedback::NACK);
            if (trim)
            {
                // What the NACK tells the congestion control (NSCC reacts to trims; a load
                // balancer to the EV that was congested).
                FabricCcAckSample sample;
                sample.nack = true;
                sample.trimmed = true;
                sample.lastHop = code == Pds::NACK_TRIMMED_LASTHOP;
                sample.nackedBytes = m_tx->Get(psn).bytes;
                sample.ecnEcho = (rx.flags & Pds::FLAG_M) != 0;
                sample.entropy = rx.udpSrc;
                m_ccState->SetBytesInFlight(m_ccc->GetInflightBytes());
                m_cc->OnAck(sample);
            }
            m_cc->OnEvent(trim ? FabricCcEvent::TRIM : FabricCcEvent::NACK);
        }
        break;
    case Pds::NACK_ROD_OOO: {
        // Go back to the NACKed PSN: everything from it on is sent again, in order. Only the
        // PSNs in flight can be: the walk starts at the oldest unacknowledged one if the NACK
        // names an older PSN (a stale or forged NACK up to 2^31 PSNs back used to walk that
        // far, one MarkLost per PSN).
        uint32_t from = Pds::PsnLess(psn, m_tx->GetUnackedPsn()) ? m_tx->GetUnackedPsn() : psn;
        for (uint32_t q = from; Pds::PsnLess(q, m_tx->GetNextPsn()); q = Pds::PsnAdd(q, 1))
        {
            m_tx->MarkLost(q);
        }
        m_nic->m_retxTrace(m_localId, psn, "nack");
        m_cc->OnEvent(FabricCcEvent::NACK);
        break;
    }
    case Pds::NACK_NO_PDC_AVAIL: {
        if (m_state != SYN_SENT || m_holdUntil > m_core->Now())
        {
            break; // one retry per round: the round's other SYN packets are refused too
        }
        if (++m_noPdcRetries > m_nic->GetRetryLimit())
        {
            std::ostringstream why;
            why << "the target had no PDC available (NACK NO_PDC_AVAIL) after "
                << m_noPdcRetries - 1 << " retries (RetryLimit " << m_nic->GetRetryLimit() << ")";
            CloseInError(why.str());
            return;
        }
        // Resend everything (with SYN) after a backoff.
        for (uint32_t q = m_tx->GetUnackedPsn(); Pds::PsnLess(q, m_tx->GetNextPsn());
             q = Pds::PsnAdd(q, 1))
        {
            m_tx->MarkLost(q);
        }
        m_holdUntil = m_core->Now() + Rto(m_noPdcRetries - 1);
        m_nic->m_retxTrace(m_localId, m_tx->GetUnackedPsn(), "no-pdc");
        Unschedule(m_rtoEvent);
        break;
    }
    case Pds::NACK_INV_DPDCID:
    case Pds::NACK_CLOSING:
    case Pds::NACK_CLOSING_IN_ERR:
    case Pds::NACK_PDC_HDR_MISMATCH:
    case Pds::NACK_INVALID_SYN:
    case Pds::NACK_PDC_MODE_MISMATCH:
    case Pds::NACK_NEW_START_PSN:
        if (!m_tx->IsOutstanding(psn))
        {
            // Not about a packet this PDC has in flight: a target answers any packet it cannot
            // place with INV_DPDCID to that packet's SPDCID, so a stale packet of an earlier
            // PDC that had this PDCID (or a forged one) would otherwise close this live PDC.
            break;
        }
        if (m_state == CLOSING)
        {
            Finish(false, "closed (the target had freed its PDC)");
            return;
        }
        CloseInError(std::string("the target answered NACK ") + Pds::NackCodeName(code));
        return;
    default:
        break; // other codes: drop (UET.md: each code maps to drop, retransmit or close)
    }
    WakeContext();
    Flush();
}

void
UetPdc::MaybeIdle()
{
    if (m_role != INITIATOR || m_state != ESTABLISHED || m_pendingOps > 0 ||
        m_tx->GetOutstanding() > 0 || !m_msgs.empty() || compat::IsPending(m_idleEvent))
    {
        return;
    }
    Time idle = m_nic->GetPdcIdleTime();
    if (m_closeWanted)
    {
        idle = Time(0);
    }
    else if (idle.IsZero())
    {
        return; // never close
    }
    m_idleEvent = Simulator::Schedule(idle, &UetPdc::IdleExpired, this);
}

} // namespace ns3
