/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: RoceQueuePair, the responder: requests arriving (ePSN, duplicates, sequence
 * errors, READ requests queued for the transmit path, receive completions), the ACKs and NAKs
 * that answer them and the CNPs of the notification point. The class is declared in
 * roce-queue-pair.h; its setup, posting, receive demultiplexing and state are in
 * roce-queue-pair.cc, the requester in roce-queue-pair-requester.cc.
 */
#include "roce-aeth-header.h"
#include "roce-bth-header.h"
#include "roce-cnp-header.h"
#include "roce-icrc-trailer.h"
#include "roce-immdt-header.h"
#include "roce-nic.h"
#include "roce-queue-pair.h"
#include "roce-reth-header.h"

#include "ns3/abort.h"

#include <cstring>

namespace ns3
{

namespace
{
using Bth = RoceBthHeader;
} // namespace

void
RoceQueuePair::ReceiveRequest(const RoceRxPacket& rx)
{
    uint8_t opcode = rx.opcode;
    uint32_t psn = rx.psn;
    bool ackReq = rx.ackReq;
    int32_t d = Bth::PsnDiff(psn, m_ePsn);
    if (d > 0)
    {
        m_counters.outOfOrderRx++;
        if (static_cast<uint32_t>(d) <= m_placedMask && opcode != Bth::READ_REQUEST)
        {
            // Out-of-order placement: the data goes to memory now, completes in order.
            PlaceOutOfOrder(rx);
            return;
        }
        // Sequence error: one NAK per gap, the packet is dropped.
        if (!m_nakSent)
        {
            m_nakSent = true;
            SendAck(true, m_ePsn);
        }
        return;
    }
    // Header objects only where their fields are read: most packets are WRITE middles, and an
    // ns-3 Header costs two logged destructor calls (the NIC checked that the extension
    // headers are all there).
    if (opcode == Bth::READ_REQUEST)
    {
        RoceRethHeader reth;
        reth.Read(rx.ext);
        uint32_t n = PacketsFor(reth.GetDmaLength());
        if (d < 0)
        {
            // Duplicate READ (the requester lost responses): answer it again from its PSN.
            m_counters.duplicatesRx++;
            while (!m_readJobs.IsEmpty() && !Bth::PsnLess(m_readJobs.Back().firstPsn, psn))
            {
                m_readJobs.DropBack();
            }
            m_readJobs.PushBack(ReadResponseJob{psn, n, 0, reth.GetDmaLength(), m_msn});
            Activate();
            return;
        }
        m_nakSent = false;
        m_msn = (m_msn + 1) & Bth::MAX_24BIT;
        m_ePsn.Set(Bth::PsnAdd(psn, n));
        m_readJobs.PushBack(ReadResponseJob{psn, n, 0, reth.GetDmaLength(), m_msn});
        Activate();
        if (m_placedMask != 0)
        {
            bool ack = false;
            uint32_t last = DrainPlaced(Bth::PsnAdd(m_ePsn, Bth::PSN_MODULUS - 1), ack);
            if (ack)
            {
                m_unacked = 0;
                SendAck(false, last);
            }
        }
        return;
    }
    if (d < 0)
    {
        m_counters.duplicatesRx++;
        if (ackReq || ++m_unacked >= m_nic->GetAckInterval())
        {
            m_unacked = 0;
            SendAck(false, Bth::PsnAdd(m_ePsn, Bth::PSN_MODULUS - 1));
        }
        return;
    }
    m_nakSent = false;
    bool echoNow = false; // the first CE-marked packet after unmarked ones is ACKed at once
    if (m_ackEcho && rx.ce != m_rxCe)
    {
        echoNow = rx.ce;
        // DCTCP's two-state ACK machine: the CE state changes, so the packets received so far
        // are ACKed now with the old state and every ACK covers one CE state only.
        if (m_unacked > 0)
        {
            m_unacked = 0;
            SendAck(false, Bth::PsnAdd(m_ePsn, Bth::PSN_MODULUS - 1));
        }
        m_rxCe = rx.ce;
    }
    if (m_echoHops)
    {
        m_rxHops = rx.ttl <= 64 ? static_cast<uint8_t>(64 - rx.ttl) : 0;
    }
    if (rx.intStack)
    {
        // HPCC: the next ACK echoes the telemetry of the newest in-order data packet.
        m_rxIntBytes = RoceInt::StackBytes(RoceInt::GetCapacity(rx.intStack));
        std::memcpy(m_rxInt.data(), rx.intStack, m_rxIntBytes);
    }
    uint32_t imm = 0;
    uint32_t payload = DataPayload(rx, &imm);
    m_ePsn.Set(Bth::PsnAdd(psn, 1));
    m_rxMsgBytes += payload;
    m_counters.rxDataPackets++;
    m_counters.rxDataBytes += payload;
    m_core->AccountRx(m_port, m_priority, payload);
    bool last = EndOfMessage(opcode, imm);
    bool ack = ackReq || last || echoNow;
    if (m_placedMask != 0)
    {
        psn = DrainPlaced(psn, ack);
    }
    if (ack || ++m_unacked >= m_nic->GetAckInterval())
    {
        m_unacked = 0;
        SendAck(false, psn);
    }
}

uint32_t
RoceQueuePair::DataPayload(const RoceRxPacket& rx, uint32_t* imm) const
{
    uint32_t ext = Bth::HasReth(rx.opcode) ? RoceRethHeader::SIZE : 0;
    *imm = 0;
    if (Bth::HasImmDt(rx.opcode))
    {
        RoceImmDtHeader immdt;
        immdt.Read(rx.ext + ext);
        *imm = immdt.GetImmediate();
        ext += RoceImmDtHeader::SIZE;
    }
    return rx.afterBth - ext - RoceIcrcTrailer::SIZE - rx.padCount;
}

bool
RoceQueuePair::EndOfMessage(uint8_t opcode, uint32_t imm)
{
    if (!(Bth::IsLast(opcode) || Bth::IsOnly(opcode)))
    {
        return false;
    }
    m_msn = (m_msn + 1) & Bth::MAX_24BIT;
    bool send = opcode <= Bth::SEND_ONLY_WITH_IMM;
    if (send || Bth::HasImmDt(opcode))
    {
        RoceReceiveCompletion rc;
        rc.qpn = m_qpn;
        rc.opcode = send
                        ? (Bth::HasImmDt(opcode) ? RoceWrOpcode::SEND_WITH_IMM : RoceWrOpcode::SEND)
                        : RoceWrOpcode::WRITE_WITH_IMM;
        rc.bytes = m_rxMsgBytes;
        rc.hasImm = Bth::HasImmDt(opcode);
        rc.imm = imm;
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(rc);
        }
    }
    m_rxMsgBytes = 0;
    return true;
}

void
RoceQueuePair::PlaceOutOfOrder(const RoceRxPacket& rx)
{
    PlacedPacket& slot = m_placed[rx.psn & m_placedMask];
    if (slot.valid && slot.psn == rx.psn)
    {
        m_counters.duplicatesRx++; // placed before (a retransmission)
        return;
    }
    NS_ASSERT_MSG(!slot.valid, "a placed packet's slot is taken by PSN " << slot.psn);
    slot.psn = rx.psn;
    slot.payload = DataPayload(rx, &slot.imm);
    slot.opcode = rx.opcode;
    slot.ackReq = rx.ackReq;
    slot.valid = true;
    m_counters.rxDataPackets++;
    m_counters.rxDataBytes += slot.payload;
    m_core->AccountRx(m_port, m_priority, slot.payload);
}

uint32_t
RoceQueuePair::DrainPlaced(uint32_t psn, bool& ack)
{
    while (true)
    {
        PlacedPacket& slot = m_placed[m_ePsn & m_placedMask];
        if (!slot.valid || slot.psn != m_ePsn)
        {
            return psn;
        }
        slot.valid = false;
        psn = slot.psn;
        m_ePsn.Set(Bth::PsnAdd(psn, 1));
        m_rxMsgBytes += slot.payload;
        if (EndOfMessage(slot.opcode, slot.imm) || slot.ackReq)
        {
            ack = true;
        }
    }
}

void
RoceQueuePair::SendAck(bool nak, uint32_t psn)
{
    uint8_t syndrome;
    if (nak)
    {
        syndrome = RoceAethHeader::NakSyndrome(RoceAethHeader::NAK_PSN_SEQUENCE_ERROR);
        m_counters.naksTx++;
        m_controlTrace(RoceControlEvent::NAK_TX, psn);
    }
    else
    {
        // Credit field 0x1F: end-to-end credits not used.
        syndrome = RoceAethHeader::AckSyndrome(RoceAethHeader::CREDIT_INVALID);
        m_counters.acksTx++;
        m_controlTrace(RoceControlEvent::ACK_TX, psn);
    }
    uint8_t buf[L2_ROOM + IP_UDP_BYTES + Bth::SIZE + RoceInt::MAX_BYTES + RoceAethHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    uint32_t hdr = IP_UDP_BYTES + Bth::SIZE + RoceAethHeader::SIZE;
    // ECN echo (AckEcho): BECN; hop count (EchoHopCount): the 7 reserved bits after AckReq.
    Bth::WriteFields(h + IP_UDP_BYTES,
                     Bth::ACKNOWLEDGE,
                     0,
                     m_remoteQpn,
                     false,
                     psn,
                     !nak && m_ackEcho && m_rxCe);
    if (m_echoHops)
    {
        h[IP_UDP_BYTES + 8] |= static_cast<uint8_t>(m_rxHops & 0x7f);
    }
    RoceAethHeader::WriteFields(h + IP_UDP_BYTES + Bth::SIZE, syndrome, m_msn);
    if (!nak && m_rxIntBytes > 0)
    {
        // HPCC: the INT stack of the newest data packet, between the BTH and the AETH.
        hdr = InsertInt(h, hdr, m_rxInt.data(), m_rxIntBytes);
    }
    uint8_t dscp = m_nic->GetAckDscp();
    uint8_t priority = m_nic->GetPort(m_port)->GetDscpPriority(dscp);
    FabricFrame p = MakePacket(h, hdr, 0, dscp, false, priority);
    m_core->SendControl(m_port, p, priority);
}

void
RoceQueuePair::SendCnp()
{
    uint8_t buf[L2_ROOM + IP_UDP_BYTES + Bth::SIZE];
    uint8_t* h = buf + L2_ROOM;
    // RoCEv2 CNP: BECN set (Annex A17.9), PSN 0.
    Bth::WriteFields(h + IP_UDP_BYTES, Bth::CNP, 0, m_remoteQpn, false, 0, true);
    uint8_t dscp = m_nic->GetCnpDscp();
    uint8_t priority = m_nic->GetPort(m_port)->GetDscpPriority(dscp);
    // The CNP's 16 reserved bytes (RoceCnpHeader) are zero: part of the zero-filled body.
    FabricFrame p =
        MakePacket(h, sizeof(buf) - L2_ROOM, RoceCnpHeader::SIZE, dscp, false, priority);
    m_counters.cnpsTx++;
    m_controlTrace(RoceControlEvent::CNP_TX, 0);
    m_core->SendControl(m_port, p, priority);
}

} // namespace ns3
