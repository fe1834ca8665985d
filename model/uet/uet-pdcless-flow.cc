/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pdcless-flow.h"

#include "uet-nic.h"
#include "uet-pds-header.h"
#include "uet-pds-nack-header.h"
#include "uet-pds-rudi-header.h"
#include "uet-ses-header.h"
#include "uet-wire-sizes.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/simulator.h"

#include <sstream>

namespace ns3
{

namespace
{
using Pds = UetPdsHeader;
using Ses = UetSesHeader;
using namespace uetwire; // IP_UDP, MAX_HEADERS, L2_ROOM
} // namespace

UetPdclessFlow::UetPdclessFlow(UetNic* nic,
                               uint32_t port,
                               UetDeliveryMode mode,
                               uint32_t jobId,
                               Ipv4Address peer,
                               uint16_t ev)
    : UetMessageSender(nic, port),
      m_jobId(jobId),
      m_peer(peer),
      m_ev(ev)
{
    NS_ABORT_MSG_IF(mode != UetDeliveryMode::RUDI && mode != UetDeliveryMode::UUD,
                    "UetPdclessFlow: mode " << UetDeliveryModeName(mode)
                                            << " needs a PDC (use UetPdc)");
    m_mode = mode;
    if (mode == UetDeliveryMode::RUDI)
    {
        m_tx.emplace(0, nic->GetMpRange());
    }
    SetNicQueue(port, nic->GetDataPriority(port));
}

UetPdclessFlow::~UetPdclessFlow()
{
    // Cancel, not Remove: the simulator may already be destroyed.
    m_rtoEvent.Cancel();
    m_flushEvent.Cancel();
}

void
UetPdclessFlow::Post(UetTxMessage m)
{
    Enqueue(std::move(m));
    if (HasPacketToSend())
    {
        m_core->Activate(this);
    }
}

bool
UetPdclessFlow::HasPacketToSend() const
{
    if (m_tx && m_tx->HasLost())
    {
        return true;
    }
    return HasNewPacket() && (!m_tx || m_tx->CanSend());
}

Time
UetPdclessFlow::GetNextSendTime() const
{
    return Time(0); // line rate: the port paces
}

FabricFrame
UetPdclessFlow::BuildNextPacket(const Time& now)
{
    NS_ABORT_MSG_IF(!HasPacketToSend(), "UetPdclessFlow::BuildNextPacket with nothing to send");
    uint8_t buf[L2_ROOM + IP_UDP + UetPdsRudiHeader::SIZE + UetSesHeader::MAX_SIZE];
    uint8_t* h = buf + L2_ROOM;
    uint32_t hdr = IP_UDP;
    uint64_t cookie = 0;
    uint32_t pktId = 0;
    bool retx = false;
    UetNicCounters& c = m_nic->Counters();
    if (m_tx && m_tx->NextLost(&pktId))
    {
        cookie = m_tx->Retransmit(pktId, now).cookie;
        retx = true;
        c.retransmissions++;
    }
    else
    {
        cookie = TakeNewPacket();
        if (m_tx)
        {
            pktId = m_tx->SendNew(cookie, now);
        }
    }
    UetTxMessage* m = FindTx(static_cast<uint32_t>(cookie >> 32));
    NS_ABORT_MSG_IF(!m, "UetPdclessFlow: packet " << pktId << " belongs to no message");
    uint32_t k = static_cast<uint32_t>(cookie);
    uint32_t payload = PayloadOf(*m, k);
    if (m_tx)
    {
        hdr += UetPdsRudiHeader::WriteFields(h + hdr,
                                             Pds::RUDI_REQ,
                                             Pds::NH_REQUEST_STD,
                                             retx ? Pds::FLAG_RETX : 0,
                                             pktId);
    }
    else
    {
        hdr += UetPdsUudHeader::WriteFields(h + hdr, Pds::NH_REQUEST_STD);
        c.uudPacketsSent++;
    }
    hdr += WriteSes(h + hdr, *m, k, now);
    c.dataPacketsSent++;
    c.payloadBytesSent += payload;
    m_nic->m_sentTrace(0, pktId, payload);
    if (m_tx)
    {
        if (!compat::IsPending(m_rtoEvent))
        {
            ArmRto();
        }
    }
    else if (++m->ackedPkts == m->npkts)
    {
        // UUD: complete once the last packet left; handed out as an event, not from inside
        // the NIC core's arbiter.
        MaybeComplete(*m);
        Retire();
        if (!compat::IsPending(m_flushEvent))
        {
            m_flushEvent = Simulator::ScheduleNow(&UetPdclessFlow::Flush, this);
        }
    }
    return m_nic->MakeFrame(m_port, h, hdr, payload, m_peer.Get(), m_ev, true);
}

void
UetPdclessFlow::ReceiveResponse(const UetRxPacket& rx)
{
    if (!m_tx)
    {
        return;
    }
    m_nic->Counters().rudiResponses++;
    uint32_t pktId = rx.psn;
    if (!m_tx->IsOutstanding(pktId) || m_tx->Get(pktId).sacked)
    {
        return; // a duplicate response
    }
    uint64_t cookie = m_tx->Get(pktId).cookie;
    m_tx->OnAck(Pds::PsnAdd(m_tx->GetUnackedPsn(), -1), pktId, 1, nullptr);
    const UetSendWindow::Record& r = m_tx->Get(pktId);
    if (r.retx == 0)
    {
        OnRttSample(m_core->Now() - r.firstSent);
    }
    UetTxMessage* m = FindTx(static_cast<uint32_t>(cookie >> 32));
    if (m)
    {
        m->ackedPkts++;
        if (rx.nextHeader == Pds::NH_RESPONSE && rx.ses)
        {
            uint8_t rc = rx.ses[1] & 0x3F;
            if (rc != Ses::RC_OK)
            {
                m->returnCode = rc;
            }
            m->modified = wire::GetU32(rx.ses + 8);
        }
        MaybeComplete(*m);
    }
    Advance();
    Retire();
    if (m_tx->GetOutstanding() == 0)
    {
        Unschedule(m_rtoEvent);
    }
    else if (!compat::IsPending(m_rtoEvent))
    {
        ArmRto();
    }
    if (HasPacketToSend())
    {
        m_core->Activate(this);
    }
    Flush();
}

void
UetPdclessFlow::ReceiveNack(const UetRxPacket& rx)
{
    if (!m_tx || !m_tx->IsOutstanding(rx.psn) || m_tx->Get(rx.psn).sacked)
    {
        return; // answered, given up, or never sent
    }
    const UetSendWindow::Record& r = m_tx->Get(rx.psn);
    if (r.retx >= m_nic->GetRetryLimit())
    {
        // Resent RetryLimit times and refused again: given up, as on its RTO. (NACKed resends
        // had no limit: a target whose packet-id window stays behind a packet given up refuses
        // every id MpRange later with PSN_OOR_WINDOW, and such a packet and its NACK went
        // round for ever.)
        std::ostringstream why;
        why << "NACK " << Pds::NackCodeName(UetPdsNackHeader::PeekNackCode(rx.pds)) << " after "
            << r.retx << " retransmissions (RetryLimit " << m_nic->GetRetryLimit() << ")";
        Abandon(rx.psn, why.str());
        Advance();
        Retire();
        ArmRto();
        if (HasPacketToSend())
        {
            m_core->Activate(this);
        }
        Flush();
        return;
    }
    if (m_tx->MarkLost(rx.psn))
    {
        m_nic->m_retxTrace(0, rx.psn, "nack");
        m_core->Activate(this);
    }
}

void
UetPdclessFlow::Advance()
{
    while (m_tx->GetOutstanding() > 0 && m_tx->Get(m_tx->GetUnackedPsn()).sacked)
    {
        m_tx->OnAck(m_tx->GetUnackedPsn(), 0, 0, nullptr);
    }
}

void
UetPdclessFlow::ArmRto()
{
    Unschedule(m_rtoEvent);
    uint32_t pktId = 0;
    if (!m_tx->OldestInFlight(&pktId))
    {
        return;
    }
    const UetSendWindow::Record& r = m_tx->Get(pktId);
    Time now = m_core->Now();
    Time at = std::max(now, r.lastSent + Rto(r.retx));
    m_rtoEvent = Simulator::Schedule(at - now, &UetPdclessFlow::RtoExpired, this);
}

void
UetPdclessFlow::Abandon(uint32_t pktId, const std::string& why)
{
    // The operation fails as a whole: every packet of its message still in flight is given up
    // with this one (marked answered; the window's front does not move here). They used to
    // stay in flight: once the failed message was retired, an RTO or a NACK of one of them
    // resent a packet of no message (NS_ABORT in BuildNextPacket).
    uint32_t seq = static_cast<uint32_t>(m_tx->Get(pktId).cookie >> 32);
    for (uint32_t k = 0, n = m_tx->GetOutstanding(); k < n; ++k)
    {
        uint32_t id = Pds::PsnAdd(m_tx->GetUnackedPsn(), k);
        const UetSendWindow::Record& r = m_tx->Get(id);
        if (!r.sacked && static_cast<uint32_t>(r.cookie >> 32) == seq)
        {
            m_tx->OnAck(Pds::PsnAdd(m_tx->GetUnackedPsn(), -1), id, 1, nullptr);
        }
    }
    UetTxMessage* m = FindTx(seq);
    if (m && !m->done)
    {
        std::ostringstream error;
        error << "node " << m_nic->GetNodeId() << " RUDI -> " << m_peer << " packet " << pktId
              << ": " << why;
        Complete(*m, false, Ses::RC_NULL, error.str());
    }
}

void
UetPdclessFlow::RtoExpired()
{
    uint32_t pktId = 0;
    if (!m_tx->OldestInFlight(&pktId))
    {
        return;
    }
    UetSendWindow::Record& r = m_tx->Get(pktId);
    if (m_core->Now() >= r.lastSent + Rto(r.retx))
    {
        if (r.retx >= m_nic->GetRetryLimit())
        {
            std::ostringstream why;
            why << "unanswered after " << r.retx << " retransmissions (RetryLimit "
                << m_nic->GetRetryLimit() << ")";
            Abandon(pktId, why.str());
            Advance();
        }
        else
        {
            m_nic->Counters().rtoExpirations++;
            m_tx->MarkLost(pktId);
            m_nic->m_retxTrace(0, pktId, "rto");
        }
    }
    // A failed operation completed once, in error, and has no packet left in flight.
    Retire();
    ArmRto();
    if (HasPacketToSend())
    {
        m_core->Activate(this);
    }
    Flush();
}

void
UetPdclessFlow::Describe(std::ostream& os) const
{
    os << "node " << m_nic->GetNodeId() << " " << UetDeliveryModeName(m_mode) << " -> " << m_peer
       << " (JobID " << m_jobId << "): " << GetPendingOperations() << " operation(s) pending";
    if (m_tx)
    {
        os << ", next packet id " << m_tx->GetNextPsn() << ", " << m_tx->GetOutstanding()
           << " unanswered";
    }
}

} // namespace ns3
