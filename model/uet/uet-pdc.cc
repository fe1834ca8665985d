/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UetPdc, its lifecycle (open, idle, Close and Request-Close, the target's timers,
 * closing in error), its control packets and receiver credit. The sending side (posting,
 * request packets, RTO, ACK and NACK processing) is in uet-pdc-sender.cc, the receiving side
 * (requests, ACK and NACK generation) in uet-pdc-receiver.cc.
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
#include "uet-wire-sizes.h"

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
using namespace uetwire; // IP_UDP, MAX_HEADERS, L2_ROOM

} // namespace

UetPdc::UetPdc(UetNic* nic, uint32_t port, uint16_t localId)
    : UetMessageSender(nic, port),
      m_localId(localId)
{
    SetNicQueue(port, nic->GetDataPriority(port));
}

UetPdc::~UetPdc()
{
    // Cancel, not Remove: the simulator may already be destroyed.
    m_rtoEvent.Cancel();
    m_idleEvent.Cancel();
    m_closeReqEvent.Cancel();
    m_newPdcEvent.Cancel();
    m_ackEvent.Cancel();
}

void
UetPdc::Reset()
{
    Unschedule(m_rtoEvent);
    Unschedule(m_idleEvent);
    Unschedule(m_closeReqEvent);
    Unschedule(m_newPdcEvent);
    Unschedule(m_ackEvent);
    m_tx.reset();
    m_rx.reset();
    m_ackGen.reset();
    ResetMessages();
    m_ses.reset();
    m_peerId = 0;
    m_jobId = 0;
    m_firstRx = true;
    m_rxBytes = 0;
    m_rodNackSent = false;
    m_closeQueued = false;
    m_closeWanted = false;
    m_noPdcRetries = 0;
    m_holdUntil = Time(0);
    m_sawNonSyn = false;
    m_rtoAt = Time(0);
    if (m_ccc)
    {
        m_nic->ReleaseCcContext(m_ccc, this);
        m_ccc = nullptr;
    }
    ReleaseCreditContext();
    m_cc = nullptr;
    m_evSel = nullptr;
    m_ccState = nullptr;
}

void
UetPdc::ReleaseCreditContext()
{
    if (m_creditCtx)
    {
        m_nic->ReleaseCreditContext(m_creditCtx, this);
        m_creditCtx = nullptr;
    }
}

uint64_t
UetPdc::GetBacklogWireBytes() const
{
    if (!m_tx)
    {
        return 0;
    }
    uint64_t pkts = 0;
    uint64_t bytes = 0;
    GetUnsent(&pkts, &bytes);
    pkts += m_tx->GetLostCount();
    bytes += m_tx->GetLostBytes();
    return bytes + pkts * m_nic->GetPacketOverheadBytes(MAX_HEADERS);
}

void
UetPdc::SendCreditRequest(uint32_t target)
{
    m_nic->Counters().creditRequestsSent++;
    SendControl(Pds::CTRL_CREDIT_REQ, m_tx->GetNextPsn(), target, m_ccc->GetCccId());
}

void
UetPdc::SendCredit(uint32_t credit)
{
    m_nic->Counters().creditsSent++;
    SendControl(Pds::CTRL_CREDIT, m_rx->GetCackPsn(), credit);
}

void
UetPdc::OnCreditTarget(uint8_t cccId, uint32_t field, bool requeue)
{
    if (m_creditCtx && m_creditCtx->GetCccId() != cccId)
    {
        // The sender's context changed (its old one was freed): follow the new one.
        ReleaseCreditContext();
    }
    if (!m_creditCtx)
    {
        m_creditCtx = m_nic->AcquireCreditContext(m_port, m_peer, cccId, this);
    }
    m_creditCtx->SetVia(this);
    bool grew = m_creditCtx->OnTarget(field, m_nic->GetCreditChunk());
    if (grew || requeue)
    {
        m_creditCtx->GetPacer()->Request(m_creditCtx);
    }
}

void
UetPdc::Open(Role role, UetDeliveryMode mode, Ipv4Address peer, uint32_t startPsn, uint16_t ev)
{
    Reset();
    m_role = role;
    m_mode = mode;
    m_peer = peer;
    m_peerIpBits = peer.Get();
    m_startPsn = startPsn;
    m_ev = ev;
    m_ackEv = ev;
    m_priority = m_nic->GetDataPriority(m_port);
    m_ctlPriority = m_nic->GetControlPriority(m_port);
    SetNicQueue(m_port, m_priority);
    m_tx.emplace(startPsn, m_nic->GetMpRange());
    m_rx.emplace(startPsn, m_nic->GetMpRange());
    m_ackGen.emplace(m_nic->GetAckGenTrigger(), m_nic->GetAckGenMinPktAdd());
    m_ses.emplace(m_nic, m_port);
    m_ccc = m_nic->AcquireCcContext(m_port, peer, this);
    m_cc = m_ccc->GetOps();
    m_ccState = m_ccc->GetState();
    // Spraying: a RUD initiator's data packets each take the EV its selector picks; ROD keeps
    // one EV (in-order delivery), a target's packets (READ data) too.
    // "single" needs no selector object: index 0 for every packet, no feedback.
    m_evSel = (role == INITIATOR && mode == UetDeliveryMode::RUD && m_nic->Sprays())
                  ? m_nic->NewEvSelector()
                  : nullptr;
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

void
UetPdc::SendControl(uint8_t ctlType, uint32_t psn, uint32_t payload, uint16_t opaque)
{
    uint8_t buf[L2_ROOM + IP_UDP + UetPdsControlHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    UetPdsControlHeader::WriteFields(h + IP_UDP,
                                     ctlType,
                                     0,
                                     opaque,
                                     psn,
                                     m_localId,
                                     m_peerId,
                                     payload);
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
            SendNack(Pds::NACK_PSN_OOR_WINDOW, rx.psn, 0, rx.udpSrc);
            return;
        }
        SendAck(rx.psn, rx.flags, false, nullptr);
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
        SendAck(m_rx->GetCackPsn(), 0, false, nullptr);
        return;
    case Pds::CTRL_CREDIT:
        m_nic->Counters().creditsReceived++;
        m_ccc->OnCreditField(wire::GetU32(rx.pds + 12));
        Flush();
        return;
    case Pds::CTRL_CREDIT_REQ:
        m_nic->Counters().creditRequestsReceived++;
        // The CCC id rides in octets 3 (probe_opaque, reserved outside probes) [model choice:
        // the public sources do not say where a Credit-Request names its CCC].
        OnCreditTarget(rx.pds[3], wire::GetU32(rx.pds + 12), true);
        return;
    default:
        return; // NOOP, probes: not modelled here
    }
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
        m_tx->GetOutstanding() > 0 || !m_msgs.empty() || m_ses->GetNMessages() > 0)
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
UetPdc::CloseInError(const std::string& why)
{
    if (m_state == CLOSED)
    {
        return;
    }
    NS_LOG_WARN(GetLabel() << " closes in error: " << why);
    FailAll(GetLabel() + " closed in error: " + why);
    Finish(true, why);
}

void
UetPdc::Finish(bool error, const std::string& why)
{
    auto done = TakeCompleted();
    Unschedule(m_rtoEvent);
    Unschedule(m_idleEvent);
    Unschedule(m_closeReqEvent);
    Unschedule(m_newPdcEvent);
    Unschedule(m_ackEvent);
    if (m_state == CLOSING || m_role == INITIATOR)
    {
        m_nic->PdcClosing(this);
    }
    m_state = CLOSED;
    if (m_ses)
    {
        m_ses->Clear(); // messages partly arrived will not complete: their endpoints forget them
    }
    if (m_ccc)
    {
        // A closed PDC has nothing in flight: it leaves its congestion control context (the
        // last one frees it).
        m_nic->ReleaseCcContext(m_ccc, this);
        m_ccc = nullptr;
    }
    ReleaseCreditContext();
    // Frees the PDCID; an operation waiting for one may reopen this very object.
    m_nic->PdcClosed(this, error, why);
    if (m_state == CLOSED)
    {
        m_msgs.clear();
        m_ses.reset();
    }
    for (const auto& [c, cb] : done)
    {
        m_nic->NotifyCompletion(c, cb);
    }
}

} // namespace ns3
