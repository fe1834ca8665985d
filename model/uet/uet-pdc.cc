/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pdc.h"

#include "uet-nic.h"
#include "uet-pds-ack-header.h"
#include "uet-pds-control-header.h"
#include "uet-pds-header.h"
#include "uet-pds-nack-header.h"
#include "uet-pds-request-header.h"
#include "uet-ses-header.h"
#include "uet-ses-request-header.h"
#include "uet-ses-response-header.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-cc-state.h"
#include "ns3/fabric-time.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UetPdc");

namespace
{
using Pds = UetPdsHeader;
using Ses = UetSesHeader;
constexpr uint32_t IP_UDP = 28;  //!< IPv4 + UDP
constexpr uint32_t L2_ROOM = 18; //!< tagged Ethernet header room
/// Headers from IPv4 on: IPv4 + UDP + PDS CC request (16) + SES standard (44).
constexpr uint32_t MAX_HEADERS = IP_UDP + 16 + 44;
/// Ethernet header + FCS + preamble + IFG: what a packet costs on the wire beyond IPv4.
constexpr uint32_t WIRE_OVERHEAD = PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::FCS_BYTES +
                                   PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;

/// 64-bit big-endian read.
uint64_t
GetU64(const uint8_t* p)
{
    return (uint64_t(wire::GetU32(p)) << 32) | wire::GetU32(p + 4);
}

/// The operation of an SES request opcode; false if the model does not carry it.
bool
OperationOf(uint8_t opcode, UetOperation* op)
{
    switch (opcode)
    {
    case Ses::WRITE:
        *op = UetOperation::WRITE;
        return true;
    case Ses::READ:
        *op = UetOperation::READ;
        return true;
    case Ses::SEND:
        *op = UetOperation::SEND;
        return true;
    case Ses::TAGGED_SEND:
        *op = UetOperation::TAGGED_SEND;
        return true;
    default:
        return false;
    }
}
} // namespace

UetPdc::UetPdc(UetNic* nic, uint32_t port, uint16_t localId)
    : m_nic(nic),
      m_core(nic->GetCorePtr()),
      m_port(port),
      m_localId(localId)
{
    SetNicQueue(port, nic->GetDataPriority(port));
}

UetPdc::~UetPdc()
{
    m_rtoEvent.Cancel();
    m_idleEvent.Cancel();
    m_holdEvent.Cancel();
    m_closeReqEvent.Cancel();
    m_newPdcEvent.Cancel();
}

void
UetPdc::Reset()
{
    m_rtoEvent.Cancel();
    m_idleEvent.Cancel();
    m_holdEvent.Cancel();
    m_closeReqEvent.Cancel();
    m_newPdcEvent.Cancel();
    m_tx.reset();
    m_rx.reset();
    m_ackGen.reset();
    m_msgs.clear();
    m_rxMsgs.clear();
    m_completed.clear();
    m_baseSeq = 0;
    m_sendIdx = 0;
    m_pendingOps = 0;
    m_peerId = 0;
    m_jobId = 0;
    m_firstRx = true;
    m_rodNackSent = false;
    m_closeQueued = false;
    m_closeWanted = false;
    m_noPdcRetries = 0;
    m_holdUntil = Time(0);
    m_sawNonSyn = false;
    m_rtoAt = Time(0);
    if (m_ccState)
    {
        m_ccState->SetRateChangeCallback(Callback<void>());
    }
    m_cc = nullptr;
    m_ccState = nullptr;
    m_lastSendStart = Time(0);
    m_lastWire = 0;
    m_inflightBytes = 0;
}

void
UetPdc::Open(Role role, UetDeliveryMode mode, Ipv4Address peer, uint32_t startPsn, uint16_t ev)
{
    Reset();
    m_role = role;
    m_mode = mode;
    m_peer = peer;
    m_peerIpBits = peer.Get();
    m_localIpBits = m_core->GetAddress(m_port).Get();
    m_startPsn = startPsn;
    m_ev = ev;
    m_priority = m_nic->GetDataPriority(m_port);
    m_ctlPriority = m_nic->GetControlPriority(m_port);
    SetNicQueue(m_port, m_priority);
    m_tx.emplace(startPsn, m_nic->GetMpRange());
    m_rx.emplace(startPsn, m_nic->GetMpRange());
    m_ackGen.emplace(m_nic->GetAckGenTrigger(), m_nic->GetAckGenMinPktAdd());
    m_cc = m_nic->NewCongestionOps(m_port);
    m_ccState = PeekPointer(m_cc->GetState());
    m_ccState->SetRateChangeCallback(MakeCallback(&UetPdc::OnRateChange, this));
}

void
UetPdc::OpenInitiator(UetDeliveryMode mode,
                      uint32_t jobId,
                      Ipv4Address peer,
                      uint32_t startPsn,
                      uint16_t ev)
{
    Open(INITIATOR, mode, peer, startPsn, ev);
    m_jobId = jobId;
    m_state = SYN_SENT;
    m_nic->PdcOpened(this);
    NS_LOG_LOGIC(GetLabel() << " opened (" << UetDeliveryModeName(mode) << ", Start_PSN "
                            << startPsn << ")");
}

void
UetPdc::OpenTarget(UetDeliveryMode mode,
                   Ipv4Address peer,
                   uint16_t peerId,
                   uint32_t startPsn,
                   uint16_t ev)
{
    Open(TARGET, mode, peer, startPsn, ev);
    m_peerId = peerId;
    m_state = ESTABLISHED;
    m_newPdcEvent = Simulator::Schedule(m_nic->GetNewPdcTime(), &UetPdc::NewPdcExpired, this);
    m_nic->PdcOpened(this);
    NS_LOG_LOGIC(GetLabel() << " accepted (Start_PSN " << startPsn << ")");
}

Ptr<FabricCcState>
UetPdc::GetCcState() const
{
    return m_cc ? m_cc->GetState() : nullptr;
}

std::string
UetPdc::GetLabel() const
{
    std::ostringstream os;
    os << "node " << m_nic->GetNodeId() << " PDC " << m_localId << " -> " << m_peer << " PDC "
       << m_peerId;
    return os.str();
}

void
UetPdc::Describe(std::ostream& os) const
{
    static const char* const states[] = {"closed", "syn-sent", "established", "closing"};
    os << GetLabel() << " (" << (m_role == INITIATOR ? "initiator" : "target") << ", "
       << UetDeliveryModeName(m_mode) << ", " << states[m_state] << "): " << m_pendingOps
       << " operation(s) pending";
    if (m_tx)
    {
        os << ", next PSN " << m_tx->GetNextPsn() << ", oldest unacknowledged "
           << m_tx->GetUnackedPsn() << ", " << m_tx->GetOutstanding() << " outstanding"
           << (m_tx->HasLost() ? " (some lost, to resend)" : "");
    }
    if (m_ccState)
    {
        os << ", rate " << m_ccState->GetRate().GetBitRate() << " bit/s, window "
           << m_ccState->GetWindow() << " B";
    }
    if (m_holdUntil > m_core->Now())
    {
        os << ", retrying after NO_PDC_AVAIL at " << m_holdUntil.As(Time::US);
    }
    if (compat::IsPending(m_rtoEvent))
    {
        os << ", RTO at " << m_rtoAt.As(Time::US);
    }
}

uint64_t
UetPdc::GetPendingBytes() const
{
    uint64_t n = 0;
    for (const auto& m : m_msgs)
    {
        n += (!m.done && !m.readResponse) ? m.bytes : 0;
    }
    return n;
}

uint32_t
UetPdc::PayloadOf(const UetTxMessage& m, uint32_t k) const
{
    if (m.op == UetOperation::READ && !m.readResponse)
    {
        return 0; // the READ request carries no data
    }
    uint64_t mtu = m_nic->GetMtu();
    uint64_t at = uint64_t(k) * mtu;
    return at >= m.bytes ? 0 : static_cast<uint32_t>(std::min(mtu, m.bytes - at));
}

void
UetPdc::Post(UetTxMessage m)
{
    uint64_t mtu = m_nic->GetMtu();
    bool readRequest = m.op == UetOperation::READ && !m.readResponse;
    m.npkts = readRequest || m.bytes == 0 ? 1 : static_cast<uint32_t>((m.bytes + mtu - 1) / mtu);
    if (!m.readResponse)
    {
        m.msgId = static_cast<uint16_t>(m_baseSeq + m_msgs.size());
        m_pendingOps++;
    }
    m_msgs.push_back(std::move(m));
    m_idleEvent.Cancel();
    Wake();
}

void
UetPdc::Wake()
{
    if (HasPacketToSend())
    {
        m_core->Activate(this);
    }
}

void
UetPdc::OnRateChange()
{
    m_core->Reschedule(this);
}

bool
UetPdc::HasPacketToSend() const
{
    if (m_state == CLOSED)
    {
        return false;
    }
    if (m_tx->HasLost())
    {
        return true;
    }
    if (!m_tx->CanSend())
    {
        return false;
    }
    if (m_closeQueued)
    {
        return true;
    }
    if (m_sendIdx >= m_msgs.size())
    {
        return false;
    }
    // While SYN is set, psn_offset (12 bits) must reach the packet's PSN.
    if (m_state == SYN_SENT && Pds::PsnDiff(m_tx->GetNextPsn(), m_startPsn) >= 0x1000)
    {
        return false;
    }
    uint64_t window = m_ccState->GetWindow();
    return window == 0 || m_inflightBytes < window;
}

Time
UetPdc::GetNextSendTime() const
{
    Time t = m_holdUntil;
    DataRate rate = m_ccState->GetRate();
    if (m_lastWire != 0 && rate < m_ccState->GetLineRate())
    {
        t = std::max(t, m_lastSendStart + BytesTxTime(m_lastWire, rate));
    }
    return t;
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
    if (m_tx->NextLost(&lost))
    {
        psn = lost;
        cookie = m_tx->Retransmit(lost, now).cookie;
        retx = true;
        m_nic->Counters().retransmissions++;
    }
    else if (m_closeQueued)
    {
        m_closeQueued = false;
        psn = m_tx->SendNew(CLOSE_COOKIE, now);
        cookie = CLOSE_COOKIE;
    }
    else
    {
        UetTxMessage& m = m_msgs[m_sendIdx];
        uint32_t k = m.nextPkt++;
        cookie = (uint64_t(m_baseSeq + m_sendIdx) << 32) | k;
        psn = m_tx->SendNew(cookie, now);
        m_inflightBytes += PayloadOf(m, k);
        while (m_sendIdx < m_msgs.size() && m_msgs[m_sendIdx].nextPkt >= m_msgs[m_sendIdx].npkts)
        {
            m_sendIdx++;
        }
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
        bool last = k + 1 == m->npkts;
        // AR on the last packet of a message, on a retransmission and when the window closes:
        // the ACK must not wait for ACK_Gen_Trigger bytes that will not come.
        uint8_t ar = (last || retx || !m_tx->CanSend()) ? Pds::FLAG_AR : 0;
        uint8_t type = m_mode == UetDeliveryMode::ROD ? Pds::ROD_REQ : Pds::RUD_REQ;
        uint8_t nh = m->readResponse ? Pds::NH_RESPONSE_DATA : Pds::NH_REQUEST_STD;
        hdr += UetPdsRequestHeader::WriteFields(p,
                                                type,
                                                nh,
                                                retxFlag | synFlag | ar,
                                                0,
                                                psn,
                                                m_localId,
                                                dpdcid);
        uint64_t offsetInMsg = uint64_t(k) * m_nic->GetMtu();
        if (m->readResponse)
        {
            hdr += UetSesResponseDataHeader::WriteFields(h + hdr,
                                                         Ses::RC_OK,
                                                         m->msgId,
                                                         m->target.jobId,
                                                         m->msgId,
                                                         static_cast<uint16_t>(payload),
                                                         static_cast<uint32_t>(m->bytes),
                                                         static_cast<uint32_t>(offsetInMsg));
        }
        else
        {
            uint8_t sesFlags = (k == 0 ? Ses::FLAG_SOM : 0) | (last ? Ses::FLAG_EOM : 0) |
                               (m->hasHeaderData ? Ses::FLAG_HD : 0);
            uint64_t hd =
                k == 0 ? m->headerData
                       : UetSesRequestHeader::PackLengthOffset(static_cast<uint16_t>(payload),
                                                               static_cast<uint32_t>(offsetInMsg));
            hdr += UetSesRequestHeader::WriteFields(h + hdr,
                                                    UetOperationOpcode(m->op),
                                                    sesFlags,
                                                    m->msgId,
                                                    0,
                                                    m->target.jobId,
                                                    m->target.pidOnFep,
                                                    m->target.resource,
                                                    m->offset,
                                                    m->initiator,
                                                    m->key,
                                                    hd,
                                                    static_cast<uint32_t>(m->bytes));
        }
        if (!m->started)
        {
            m->started = true;
            m->startTime = now;
        }
    }
    UetNicCounters& c = m_nic->Counters();
    c.dataPacketsSent++;
    c.payloadBytesSent += payload;
    m_nic->m_sentTrace(m_localId, psn, payload);
    if (!retx)
    {
        m_cc->OnBytesSent(payload);
    }
    m_lastSendStart = now;
    m_lastWire = hdr + payload + WIRE_OVERHEAD;
    if (!compat::IsPending(m_rtoEvent))
    {
        ArmRto();
    }
    return m_nic->MakeFrame(m_port, h, hdr, payload, m_peerIpBits, m_ev, true);
}

Time
UetPdc::Rto(uint32_t retx) const
{
    Time rto = m_nic->GetRtoMin();
    Time max = m_nic->GetRtoMax();
    for (uint32_t i = 0; i < retx && rto < max; ++i)
    {
        rto = rto * 2;
    }
    return std::min(rto, max);
}

void
UetPdc::ArmRto()
{
    m_rtoEvent.Cancel();
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
    m_nic->m_retxTrace(m_localId, psn, "rto");
    m_cc->OnEvent(FabricCcEvent::TIMEOUT);
    ArmRto();
    Wake();
}

UetTxMessage*
UetPdc::FindTx(uint32_t seq)
{
    uint32_t i = seq - m_baseSeq;
    return i < m_msgs.size() ? &m_msgs[i] : nullptr;
}

UetTxMessage*
UetPdc::FindTxByMsgId(uint16_t msgId)
{
    uint32_t seq = m_baseSeq + static_cast<uint16_t>(msgId - static_cast<uint16_t>(m_baseSeq));
    UetTxMessage* m = FindTx(seq);
    return (m && !m->readResponse && m->msgId == msgId) ? m : nullptr;
}

void
UetPdc::Complete(UetTxMessage& m, bool ok, uint8_t rc, const std::string& error)
{
    if (m.done)
    {
        return;
    }
    m.done = true;
    if (m.readResponse)
    {
        return;
    }
    m_pendingOps--;
    UetCompletion c;
    c.id = m.opId;
    c.op = m.op;
    c.mode = m_mode;
    c.target = m.target;
    c.bytes = m.bytes;
    c.modifiedBytes = m.op == UetOperation::READ ? m.readReceived : m.modified;
    c.postTime = m.postTime;
    c.startTime = m.started ? m.startTime : m_core->Now();
    c.endTime = m_core->Now();
    c.returnCode = rc;
    c.ok = ok;
    c.error = error;
    m_completed.emplace_back(std::move(c), m.cb);
    m.cb = UetCompletionCallback();
}

void
UetPdc::MaybeComplete(UetTxMessage& m)
{
    if (m.done || m.ackedPkts < m.npkts)
    {
        return;
    }
    if (m.readResponse)
    {
        m.done = true;
        return;
    }
    if (m.returnCode != Ses::RC_OK)
    {
        std::ostringstream why;
        why << "target " << m.target.fep << " returned " << Ses::ReturnCodeName(m.returnCode);
        Complete(m, false, m.returnCode, why.str());
        return;
    }
    if (m.op == UetOperation::READ && m.readReceived < m.bytes)
    {
        return; // the data is still coming
    }
    Complete(m, true, Ses::RC_OK, "");
}

void
UetPdc::Retire()
{
    while (!m_msgs.empty() && m_msgs.front().done)
    {
        m_msgs.pop_front();
        m_baseSeq++;
        if (m_sendIdx > 0)
        {
            m_sendIdx--;
        }
    }
}

void
UetPdc::Flush()
{
    if (m_completed.empty())
    {
        return;
    }
    std::vector<std::pair<UetCompletion, UetCompletionCallback>> done;
    done.swap(m_completed);
    for (const auto& [c, cb] : done)
    {
        m_nic->NotifyCompletion(c, cb);
    }
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
    if (rx.type != Pds::ACK)
    {
        sackBase = Pds::PsnAdd(cack, static_cast<int16_t>(wire::GetU16(rx.pds + 14)));
        bitmap = GetU64(rx.pds + 16);
    }
    uint32_t ackPsn = Pds::PsnAdd(cack, static_cast<int16_t>(wire::GetU16(rx.pds + 2)));
    m_acked.clear();
    uint32_t n = m_tx->OnAck(cack, sackBase, bitmap, &m_acked);
    m_nic->m_ackTrace(m_localId, cack, n, true);
    FabricCcAckSample sample;
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
        m_inflightBytes -= std::min<uint64_t>(m_inflightBytes, payload);
        m->ackedPkts++;
        if (psn == ackPsn && rec.retx == 0)
        {
            sample.rtt = m_core->Now() - rec.firstSent;
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
    sample.entropy = m_ev;
    if (sample.ackedBytes > 0 || sample.ecnEcho)
    {
        m_cc->OnAck(sample);
    }
    uint32_t threshold = m_nic->GetOooThreshold();
    if (bitmap != 0 && threshold > 0 && m_tx->InferLosses(threshold) > 0)
    {
        uint32_t lost = 0;
        m_tx->NextLost(&lost);
        m_nic->m_retxTrace(m_localId, lost, "inferred");
    }
    Retire();
    if (closeAcked)
    {
        Finish(false, "closed");
        return;
    }
    if (n > 0)
    {
        ArmRto();
    }
    Wake();
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
    m_nic->Counters().nacksReceived++;
    m_nic->m_nackTrace(m_localId, psn, code, true);
    switch (code)
    {
    case Pds::NACK_TRIMMED:
    case Pds::NACK_TRIMMED_LASTHOP:
    case Pds::NACK_NO_PKT_BUFFER:
    case Pds::NACK_RCVR_INFER_LOSS:
    case Pds::NACK_PSN_OOR_WINDOW:
        if (m_tx->MarkLost(psn))
        {
            m_nic->m_retxTrace(m_localId, psn, "nack");
            bool trim = code == Pds::NACK_TRIMMED || code == Pds::NACK_TRIMMED_LASTHOP;
            m_cc->OnEvent(trim ? FabricCcEvent::TRIM : FabricCcEvent::NACK);
        }
        break;
    case Pds::NACK_ROD_OOO:
        // Go back to the NACKed PSN: everything from it on is sent again, in order.
        for (uint32_t q = psn; Pds::PsnLess(q, m_tx->GetNextPsn()); q = Pds::PsnAdd(q, 1))
        {
            m_tx->MarkLost(q);
        }
        m_nic->m_retxTrace(m_localId, psn, "nack");
        m_cc->OnEvent(FabricCcEvent::NACK);
        break;
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
        m_rtoEvent.Cancel();
        break;
    }
    case Pds::NACK_INV_DPDCID:
    case Pds::NACK_CLOSING:
    case Pds::NACK_CLOSING_IN_ERR:
    case Pds::NACK_PDC_HDR_MISMATCH:
    case Pds::NACK_INVALID_SYN:
    case Pds::NACK_PDC_MODE_MISMATCH:
    case Pds::NACK_NEW_START_PSN:
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
    Wake();
    Flush();
}

void
UetPdc::SendAck(uint32_t psn, uint8_t reqFlags, bool ce, const RxMessage* rsp, uint16_t msgId)
{
    uint8_t buf[L2_ROOM + IP_UDP + UetPdsAckHeader::CC_SIZE + UetSesResponseHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    uint8_t* p = h + IP_UDP;
    uint8_t flags = (ce ? Pds::FLAG_M : 0) | (reqFlags & Pds::FLAG_RETX);
    uint32_t cack = m_rx->GetCackPsn();
    int32_t off = std::clamp<int32_t>(Pds::PsnDiff(psn, cack), INT16_MIN, INT16_MAX);
    uint8_t nh = rsp ? Pds::NH_RESPONSE : Pds::NH_NONE;
    uint32_t n = 0;
    if (m_rx->HasHole())
    {
        // ACK_CC with the SACK bitmap from CACK_PSN + 1 (sack_psn_offset 1).
        uint16_t ooo =
            static_cast<uint16_t>(std::min<uint32_t>(m_rx->GetOutOfOrderCount(), 0xFFFF));
        n = UetPdsAckHeader::WriteAckCc(p,
                                        nh,
                                        flags,
                                        static_cast<int16_t>(off),
                                        cack,
                                        m_localId,
                                        m_peerId,
                                        Pds::CC_NSCC,
                                        static_cast<uint8_t>(std::min(m_nic->GetMpRange(), 255u)),
                                        1,
                                        m_rx->GetSackBitmap(),
                                        UetPdsAckHeader::PackNsccState(0, false, 0, 0, ooo));
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
                                               msgId,
                                               0,
                                               rsp->delivery.jobId,
                                               ok ? static_cast<uint32_t>(rsp->bytes) : 0);
    }
    FabricFrame f = m_nic->MakeFrame(m_port, h, IP_UDP + n, 0, m_peerIpBits, m_ev, false);
    m_nic->Counters().acksSent++;
    m_nic->m_ackTrace(m_localId, cack, 0, false);
    m_core->SendControl(m_port, f, m_ctlPriority);
}

void
UetPdc::SendNack(uint8_t code, uint32_t psn, uint8_t flags)
{
    uint8_t buf[L2_ROOM + IP_UDP + UetPdsNackHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    UetPdsNackHeader::WriteFields(h + IP_UDP, 0, flags, code, 0, psn, m_localId, m_peerId, 0);
    FabricFrame f =
        m_nic->MakeFrame(m_port, h, IP_UDP + UetPdsNackHeader::SIZE, 0, m_peerIpBits, m_ev, false);
    m_nic->Counters().nacksSent++;
    m_nic->m_nackTrace(m_localId, psn, code, false);
    m_core->SendControl(m_port, f, m_ctlPriority);
}

void
UetPdc::SendControl(uint8_t ctlType, uint32_t psn, uint32_t payload)
{
    uint8_t buf[L2_ROOM + IP_UDP + UetPdsControlHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    UetPdsControlHeader::WriteFields(h + IP_UDP, ctlType, 0, 0, psn, m_localId, m_peerId, payload);
    FabricFrame f = m_nic->MakeFrame(m_port,
                                     h,
                                     IP_UDP + UetPdsControlHeader::SIZE,
                                     0,
                                     m_peerIpBits,
                                     m_ev,
                                     false);
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
        m_newPdcEvent.Cancel();
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
    uint32_t psn = rx.psn;
    uint32_t cackBefore = m_rx->GetCackPsn();
    bool hadHole = m_rx->HasHole();
    UetReceiveWindow::Verdict v;
    if (m_mode == UetDeliveryMode::ROD && Pds::PsnDiff(psn, m_rx->GetSackBase()) > 0)
    {
        // ROD accepts only the next PSN: one NACK per gap, the packet is dropped.
        if (!m_rodNackSent)
        {
            m_rodNackSent = true;
            SendNack(Pds::NACK_ROD_OOO, m_rx->GetSackBase(), rx.flags & Pds::FLAG_RETX);
        }
        return;
    }
    v = m_rx->Receive(psn);
    if (v == UetReceiveWindow::OUT_OF_WINDOW)
    {
        SendNack(Pds::NACK_PSN_OOR_WINDOW, psn, rx.flags & Pds::FLAG_RETX);
        return;
    }
    if (v == UetReceiveWindow::DUPLICATE)
    {
        c.duplicatesReceived++;
        SendAck(psn, rx.flags, rx.ce, nullptr, 0); // its ACK may have been lost
        return;
    }
    m_rodNackSent = false;
    c.dataPacketsReceived++;
    RxMessage done;
    uint16_t msgId = 0;
    bool completed = false;
    if (rx.nextHeader == Pds::NH_RESPONSE_DATA && rx.ses)
    {
        ProcessReadData(rx);
    }
    else if (rx.nextHeader == Pds::NH_REQUEST_STD && rx.ses)
    {
        completed = ProcessSes(rx, &done, &msgId);
    }
    bool filled = hadHole && Pds::PsnDiff(m_rx->GetCackPsn(), cackBefore) > 1;
    bool immediate = m_firstRx || (rx.flags & (Pds::FLAG_AR | Pds::FLAG_RETX | Pds::FLAG_SYN)) ||
                     rx.ce || m_rx->HasHole() || filled || completed;
    m_firstRx = false;
    if (m_ackGen->OnPacket(rx.size, immediate))
    {
        SendAck(psn, rx.flags, rx.ce, completed ? &done : nullptr, msgId);
    }
    Retire();
    Wake();
    MaybeIdle();
    Flush();
}

bool
UetPdc::ProcessSes(const UetRxPacket& rx, RxMessage* done, uint16_t* msgIdOut)
{
    const uint8_t* s = rx.ses;
    uint8_t opcode = s[0] & 0x3F;
    uint8_t sesFlags = s[1] & 0x3F;
    uint16_t msgId = wire::GetU16(s + 2);
    auto it = m_rxMsgs.find(msgId);
    if (it == m_rxMsgs.end())
    {
        // The message's first packet to arrive (any of them: RUD reorders): the SES decides.
        RxMessage rm;
        uint32_t jobId = wire::GetU24(s + 5);
        uint16_t pid = wire::GetU16(s + 8) & 0xFFF;
        uint16_t ri = wire::GetU16(s + 10) & 0xFFF;
        uint64_t bufferOffset = GetU64(s + 12);
        uint64_t key = GetU64(s + 24);
        rm.bytes = wire::GetU32(s + 40);
        UetDelivery& d = rm.delivery;
        d.initiatorFep = m_peer;
        d.initiator = wire::GetU32(s + 20);
        d.jobId = jobId;
        d.pidOnFep = pid;
        d.resource = ri;
        d.bytes = rm.bytes;
        d.key = key;
        d.offset = bufferOffset;
        d.firstTime = m_core->Now();
        if (!OperationOf(opcode, &rm.op))
        {
            rm.rc = Ses::RC_UNSUPPORTED_OP;
        }
        else
        {
            d.op = rm.op;
            rm.rc = m_nic->FindTarget(m_port, jobId, pid, &rm.ep);
            if (rm.rc == Ses::RC_OK)
            {
                rm.rc = rm.ep->Admit(rm.op, ri, key, bufferOffset, rm.bytes, &rm.matchId);
            }
        }
        it = m_rxMsgs.emplace(msgId, std::move(rm)).first;
    }
    RxMessage& rm = it->second;
    if ((sesFlags & Ses::FLAG_SOM) && (sesFlags & Ses::FLAG_HD))
    {
        rm.delivery.headerData = GetU64(s + 32);
        rm.delivery.hasHeaderData = true;
    }
    if (rm.op == UetOperation::READ)
    {
        // One request packet; the data goes back on this PDC's reverse PSN space.
        RxMessage r = std::move(rm);
        m_rxMsgs.erase(it);
        if (r.rc == Ses::RC_OK)
        {
            UetTxMessage data;
            data.op = UetOperation::READ;
            data.readResponse = true;
            data.msgId = msgId;
            data.target.fep = m_peer;
            data.target.jobId = r.delivery.jobId;
            data.bytes = r.bytes;
            Post(std::move(data));
            return false;
        }
        *done = std::move(r);
        *msgIdOut = msgId;
        return true; // the error returns on the ACK
    }
    rm.received += rx.payload;
    if (rm.received < rm.bytes)
    {
        return false;
    }
    RxMessage r = std::move(rm);
    m_rxMsgs.erase(it);
    if (r.ep && (r.rc == Ses::RC_OK || r.matchId != 0))
    {
        r.delivery.endTime = m_core->Now();
        r.delivery.returnCode = r.rc;
        r.ep->Deliver(r.matchId, r.delivery);
    }
    *done = std::move(r);
    *msgIdOut = msgId;
    return true;
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
UetPdc::ReceiveControl(const UetRxPacket& rx)
{
    if (m_state == CLOSED)
    {
        return;
    }
    switch (rx.nextHeader)
    {
    case Pds::CTRL_CLOSE: {
        if (m_role != TARGET)
        {
            return;
        }
        UetReceiveWindow::Verdict v = m_rx->Receive(rx.psn);
        if (v == UetReceiveWindow::OUT_OF_WINDOW)
        {
            SendNack(Pds::NACK_PSN_OOR_WINDOW, rx.psn, 0);
            return;
        }
        SendAck(rx.psn, rx.flags, false, nullptr, 0);
        if (!m_rx->HasHole())
        {
            Finish(false, "closed by the initiator");
        }
        return;
    }
    case Pds::CTRL_CLOSE_REQ:
        if (m_role == INITIATOR)
        {
            CloseRequested();
        }
        return;
    case Pds::CTRL_ACK_REQ:
        SendAck(m_rx->GetCackPsn(), 0, false, nullptr, 0);
        return;
    default:
        return; // NOOP, probes, credit: not modelled here
    }
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

void
UetPdc::IdleExpired()
{
    if (m_state == ESTABLISHED && m_pendingOps == 0 && m_tx->GetOutstanding() == 0 &&
        m_msgs.empty())
    {
        StartClose();
    }
}

void
UetPdc::StartClose()
{
    m_nic->PdcClosing(this);
    m_state = CLOSING;
    m_closeQueued = true;
    Wake();
}

void
UetPdc::CloseRequested()
{
    m_closeWanted = true;
    MaybeIdle();
}

bool
UetPdc::RequestClose()
{
    if (m_role != TARGET || m_state == CLOSED || compat::IsPending(m_closeReqEvent) ||
        m_tx->GetOutstanding() > 0 || !m_msgs.empty() || !m_rxMsgs.empty())
    {
        return false;
    }
    SendControl(Pds::CTRL_CLOSE_REQ, m_tx->GetNextPsn(), 0);
    m_closeReqEvent = Simulator::Schedule(m_nic->GetCloseReqTime(), &UetPdc::CloseReqExpired, this);
    return true;
}

void
UetPdc::CloseReqExpired()
{
    CloseInError("no Close within Close_REQ_Time after Request-Close");
}

void
UetPdc::NewPdcExpired()
{
    if (!m_sawNonSyn)
    {
        CloseInError("half-open: only SYN packets for New_PDC_Time");
    }
}

void
UetPdc::HoldExpired()
{
    Wake();
}

void
UetPdc::CloseInError(const std::string& why)
{
    if (m_state == CLOSED)
    {
        return;
    }
    NS_LOG_WARN(GetLabel() << " closes in error: " << why);
    std::string error = GetLabel() + " closed in error: " + why;
    for (auto& m : m_msgs)
    {
        Complete(m, false, Ses::RC_NULL, error);
    }
    Finish(true, why);
}

void
UetPdc::Finish(bool error, const std::string& why)
{
    std::vector<std::pair<UetCompletion, UetCompletionCallback>> done;
    done.swap(m_completed);
    m_rtoEvent.Cancel();
    m_idleEvent.Cancel();
    m_holdEvent.Cancel();
    m_closeReqEvent.Cancel();
    m_newPdcEvent.Cancel();
    if (m_state == CLOSING || m_role == INITIATOR)
    {
        m_nic->PdcClosing(this);
    }
    m_state = CLOSED;
    // Frees the PDCID; an operation waiting for one may reopen this very object.
    m_nic->PdcClosed(this, error, why);
    if (m_state == CLOSED)
    {
        m_msgs.clear();
        m_rxMsgs.clear();
    }
    for (const auto& [c, cb] : done)
    {
        m_nic->NotifyCompletion(c, cb);
    }
}

} // namespace ns3
