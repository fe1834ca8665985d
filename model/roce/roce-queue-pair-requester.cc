/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: RoceQueuePair, the requester: packets built and paced for the work requests (and
 * the READ response packets the responder queued: a QP has one transmit queue on the NIC),
 * ACKs, NAKs and READ responses processed, completions, INT (HPCC) stacks inserted and read,
 * go-back-N and the retransmission timer. The class is declared in roce-queue-pair.h; its
 * setup, posting and state are in roce-queue-pair.cc, the responder in
 * roce-queue-pair-responder.cc. The calls made for every packet sent or acknowledged stay in
 * this file.
 */
#include "roce-aeth-header.h"
#include "roce-bth-header.h"
#include "roce-icrc-trailer.h"
#include "roce-immdt-header.h"
#include "roce-nic.h"
#include "roce-queue-pair.h"
#include "roce-reth-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-time.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cstring>

namespace ns3
{

namespace
{
using Bth = RoceBthHeader;
/// Ethernet header + FCS + preamble + IFG: what a packet costs on the wire beyond IPv4.
constexpr uint32_t WIRE_OVERHEAD = PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::FCS_BYTES +
                                   PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;
} // namespace

bool
RoceQueuePair::HasPacketToSend() const
{
    if (m_state != RTS)
    {
        return false;
    }
    if (!m_readJobs.IsEmpty())
    {
        return true;
    }
    if (m_sendWr >= m_wrs.GetSize())
    {
        return false;
    }
    uint64_t window = m_ccState->GetWindow();
    if (window > 0)
    {
        uint64_t inflight =
            uint64_t(std::max(0, Bth::PsnDiff(m_sndNxt, m_sndUna))) * m_nic->GetMtu();
        if (inflight >= window)
        {
            return false;
        }
    }
    return true;
}

Time
RoceQueuePair::GetNextSendTime() const
{
    // Evaluated with the current rate, so a rate increase takes effect at once. At line rate
    // the port itself paces the QP: no timer is needed.
    DataRate rate = m_ccState->GetRate();
    if (m_lastWire == 0 || rate >= m_ccState->GetLineRate())
    {
        return Time(0);
    }
    return m_lastSendStart + BytesTxTime(m_lastWire, rate);
}

void
RoceQueuePair::OnRateChange()
{
    if (m_core)
    {
        m_core->Reschedule(this); // only if the QP waits in a pacing heap
    }
}

FabricFrame
RoceQueuePair::MakePacket(uint8_t* h,
                          uint32_t hdrBytes,
                          uint32_t body,
                          uint8_t dscp,
                          bool ect,
                          uint8_t priority,
                          bool intMark) const
{
    // The same bytes as Ipv4Header (DF, TTL 64, identification 0, checksum) + UdpHeader
    // (checksum 0) would serialize, written directly (see FabricWireHeader).
    uint32_t total = hdrBytes + body + RoceIcrcTrailer::SIZE;
    h[0] = 0x45;
    h[1] = static_cast<uint8_t>((dscp << 2) | (ect ? 0x02 : 0x00)); // ECT(0)
    wire::PutU16(h + 2, static_cast<uint16_t>(total));
    wire::PutU16(h + 4, 0);                                                        // identification
    wire::PutU16(h + 6, intMark ? 0x4000 | (RoceInt::IPV4_INT_BIT << 8) : 0x4000); // DF
    h[8] = 64;                                                                     // TTL
    h[9] = 17;                                                                     // UDP
    wire::PutU32(h + 12, m_localIpBits);
    wire::PutU32(h + 16, m_remoteIpBits);
    // Checksum: the words that never change for this QP are summed once (same value as
    // wire::Ipv4HeaderChecksum over the whole header); that sum is never 0 (TTL, protocol).
    if (m_ipConstSum == 0)
    {
        for (uint32_t i = 4; i < 20; i += 2)
        {
            // skip the checksum and the flags (INT data packets set the reserved flag)
            m_ipConstSum += (i == 10 || i == 6) ? 0 : wire::GetU16(h + i);
        }
    }
    uint32_t sum = m_ipConstSum + wire::GetU16(h) + wire::GetU16(h + 2) + wire::GetU16(h + 6);
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    wire::PutU16(h + 10, static_cast<uint16_t>(~sum));
    wire::PutU16(h + 20, m_udpSrcPort);
    wire::PutU16(h + 22, Bth::UDP_DST_PORT);
    wire::PutU16(h + 24, static_cast<uint16_t>(total - 20));
    wire::PutU16(h + 26, 0); // checksum not used (RoCEv2 relies on the ICRC)
    // The port's L2 header goes in the headroom in front of h: the whole frame header is
    // added in one operation, and the body (payload, ICRC, Ethernet padding, FCS) is zeros.
    static_assert(L2_ROOM == PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES,
                  "L2_ROOM must hold a tagged Ethernet header");
    uint8_t l2h[L2_ROOM];
    uint32_t l2 = m_core->WriteFrameHeader(m_port, priority, l2h);
    std::memcpy(h - l2, l2h, l2);
    uint32_t frame = l2 + total + PfcNetDevice::FCS_BYTES;
    uint32_t pad =
        frame < PfcNetDevice::MIN_FRAME_BYTES ? PfcNetDevice::MIN_FRAME_BYTES - frame : 0;
    // No ns-3 packet: the frame gets one only if something outside the fast path looks at it.
    return FabricFrame(h - l2,
                       l2 + hdrBytes,
                       body + RoceIcrcTrailer::SIZE + pad + PfcNetDevice::FCS_BYTES);
}

FabricFrame
RoceQueuePair::BuildNextPacket(const Time& now)
{
    NS_ABORT_MSG_IF(!HasPacketToSend(), "RoceQueuePair::BuildNextPacket with nothing to send");
    uint32_t mtu = m_nic->GetMtu();
    // L2 + IPv4 + UDP + BTH + (RETH | AETH) + ImmDt, written as bytes and added in one
    // operation (the L2 header goes in front of h).
    uint8_t buf[L2_ROOM + IP_UDP_BYTES + Bth::SIZE + RoceInt::MAX_BYTES + RoceRethHeader::SIZE +
                RoceImmDtHeader::SIZE];
    uint8_t* h = buf + L2_ROOM;
    uint32_t hdr = IP_UDP_BYTES;
    uint32_t body = 0;
    bool intMark = false;
    uint32_t payload = 0;
    uint32_t psn = 0;

    if (!m_readJobs.IsEmpty())
    {
        // Responder: the next READ response packet.
        ReadResponseJob& job = m_readJobs.Front();
        uint32_t k = job.next++;
        uint64_t left = job.bytes - uint64_t(k) * mtu;
        payload = static_cast<uint32_t>(std::min<uint64_t>(left, mtu));
        uint8_t pad = (4 - payload % 4) % 4;
        psn = Bth::PsnAdd(job.firstPsn, k);
        uint8_t op = job.npkts == 1       ? Bth::READ_RESPONSE_ONLY
                     : k == 0             ? Bth::READ_RESPONSE_FIRST
                     : k + 1 == job.npkts ? Bth::READ_RESPONSE_LAST
                                          : Bth::READ_RESPONSE_MIDDLE;
        body = payload + pad;
        Bth::WriteFields(h + hdr, op, pad, m_remoteQpn, false, psn);
        hdr += Bth::SIZE;
        if (Bth::HasAeth(op))
        {
            RoceAethHeader::WriteFields(h + hdr,
                                        RoceAethHeader::AckSyndrome(RoceAethHeader::CREDIT_INVALID),
                                        job.msn);
            hdr += RoceAethHeader::SIZE;
        }
        if (job.next == job.npkts)
        {
            m_readJobs.DropFront();
        }
    }
    else
    {
        WorkRequest& wr = m_wrs[m_sendWr];
        if (!wr.assigned)
        {
            wr.firstPsn = m_nextAssignPsn;
            wr.npkts = PacketsFor(wr.bytes);
            wr.assigned = true;
            m_nextAssignPsn = Bth::PsnAdd(m_nextAssignPsn, wr.npkts);
        }
        if (!wr.started)
        {
            wr.started = true;
            wr.startTime = now;
        }
        uint32_t k = m_sendOffset;
        psn = Bth::PsnAdd(wr.firstPsn, k);
        uint32_t covers = wr.opcode == RoceWrOpcode::READ ? wr.npkts - k : 1;
        if (Bth::PsnLess(psn, m_highSent))
        {
            m_counters.retransmittedPackets++;
        }
        else
        {
            if (m_wantRtt)
            {
                m_sendTimes.PushBack({psn, now});
            }
            m_highSent = Bth::PsnAdd(psn, covers);
        }
        if (wr.opcode == RoceWrOpcode::READ)
        {
            // A READ request for the rest of the data from response k on.
            RoceRethHeader reth;
            reth.SetVirtualAddress(wr.remoteAddress + uint64_t(k) * mtu);
            reth.SetRKey(wr.rkey);
            reth.SetDmaLength(static_cast<uint32_t>(wr.bytes - uint64_t(k) * mtu));
            Bth::WriteFields(h + hdr, Bth::READ_REQUEST, 0, m_remoteQpn, true, psn);
            hdr += Bth::SIZE;
            reth.Write(h + hdr);
            hdr += RoceRethHeader::SIZE;
            m_sndNxt.Set(Bth::PsnAdd(wr.firstPsn, wr.npkts));
            m_sendWr++;
            m_sendOffset = 0;
        }
        else
        {
            uint64_t left = wr.bytes - uint64_t(k) * mtu;
            payload = static_cast<uint32_t>(std::min<uint64_t>(left, mtu));
            uint8_t pad = (4 - payload % 4) % 4;
            bool first = k == 0;
            bool last = k + 1 == wr.npkts;
            bool imm = wr.opcode == RoceWrOpcode::WRITE_WITH_IMM ||
                       wr.opcode == RoceWrOpcode::SEND_WITH_IMM;
            bool write =
                wr.opcode == RoceWrOpcode::WRITE || wr.opcode == RoceWrOpcode::WRITE_WITH_IMM;
            uint8_t op;
            if (write)
            {
                op = (first && last) ? (imm ? Bth::WRITE_ONLY_WITH_IMM : Bth::WRITE_ONLY)
                     : first         ? Bth::WRITE_FIRST
                     : last          ? (imm ? Bth::WRITE_LAST_WITH_IMM : Bth::WRITE_LAST)
                                     : Bth::WRITE_MIDDLE;
            }
            else
            {
                op = (first && last) ? (imm ? Bth::SEND_ONLY_WITH_IMM : Bth::SEND_ONLY)
                     : first         ? Bth::SEND_FIRST
                     : last          ? (imm ? Bth::SEND_LAST_WITH_IMM : Bth::SEND_LAST)
                                     : Bth::SEND_MIDDLE;
            }
            body = payload + pad;
            bool ackReq = last;
            uint64_t window = m_ccState->GetWindow();
            if (window > 0 && !last)
            {
                // A window smaller than the responder's ACK coalescing (AckInterval packets)
                // would stall until the local ACK timeout: the packet that fills the window
                // asks for an ACK (so a blocked QP always gets one), and so does one packet
                // per half window for ACK clocking (a PSN behind the last request, after
                // go-back-N, asks at once).
                int32_t gap = std::max<int32_t>(1, int32_t(window / mtu / 2));
                int32_t since = Bth::PsnDiff(psn, m_lastAckReqPsn);
                uint64_t inflight = uint64_t(Bth::PsnDiff(Bth::PsnAdd(psn, 1), m_sndUna)) * mtu;
                ackReq = since >= gap || since < 0 || inflight >= window;
            }
            if (ackReq)
            {
                m_lastAckReqPsn = psn;
            }
            Bth::WriteFields(h + hdr, op, pad, m_remoteQpn, ackReq, psn);
            hdr += Bth::SIZE;
            if (Bth::HasReth(op))
            {
                RoceRethHeader reth;
                reth.SetVirtualAddress(wr.remoteAddress);
                reth.SetRKey(wr.rkey);
                reth.SetDmaLength(static_cast<uint32_t>(wr.bytes));
                reth.Write(h + hdr);
                hdr += RoceRethHeader::SIZE;
            }
            if (Bth::HasImmDt(op))
            {
                RoceImmDtHeader immdt;
                immdt.SetImmediate(wr.imm);
                immdt.Write(h + hdr);
                hdr += RoceImmDtHeader::SIZE;
            }
            m_sndNxt.Set(Bth::PsnAdd(psn, 1));
            if (++m_sendOffset == wr.npkts)
            {
                m_sendWr++;
                m_sendOffset = 0;
            }
        }
        if (!m_timerPending)
        {
            RestartTimer();
        }
        if (m_int)
        {
            // HPCC: an empty INT stack the switches fill (RoceInt). As many records as
            // IntMaxHops asks and the frame head (FabricFrame::HEAD_CAPACITY, with the
            // largest L2 header) holds: a packet with a RETH gets 4.
            uint32_t room = FabricFrame::HEAD_CAPACITY - L2_ROOM - hdr - RoceInt::HEADER_BYTES;
            uint32_t cap = std::min(m_intMaxHops, room / RoceInt::HOP_BYTES);
            uint8_t stack[RoceInt::MAX_BYTES];
            RoceInt::InitStack(stack, cap);
            hdr = InsertInt(h, hdr, stack, RoceInt::StackBytes(cap));
            intMark = true;
        }
    }
    FabricFrame p = MakePacket(h, hdr, body, m_dscp, true, m_priority, intMark);
    m_counters.txDataPackets++;
    m_counters.txDataBytes += payload;
    m_cc->OnBytesSent(payload);
    m_lastSendStart = now;
    m_lastWire = hdr + body + RoceIcrcTrailer::SIZE + WIRE_OVERHEAD; // IPv4 packet + overhead
    return p;
}

void
RoceQueuePair::ReceiveResponse(const RoceRxPacket& rx)
{
    uint8_t opcode = rx.opcode;
    uint32_t psn = rx.psn;
    uint32_t ext = 0; // extension header bytes consumed
    if (opcode == Bth::ACKNOWLEDGE)
    {
        uint8_t syndrome = RoceAethHeader::ReadSyndrome(rx.ext);
        if (RoceAethHeader::IsNakSyndrome(syndrome))
        {
            m_counters.naksRx++;
            m_controlTrace(RoceControlEvent::NAK_RX, psn);
            if (RoceAethHeader::SyndromeValue(syndrome) == RoceAethHeader::NAK_PSN_SEQUENCE_ERROR)
            {
                Acknowledge(Bth::PsnAdd(psn, Bth::PSN_MODULUS - 1));
                m_cc->OnEvent(FabricCcEvent::NACK);
                GoBackN(psn, "nak");
            }
            return;
        }
        m_counters.acksRx++;
        m_controlTrace(RoceControlEvent::ACK_RX, psn);
        Acknowledge(psn, rx.becn, rx.resv7, rx.intStack);
        return;
    }
    // READ response: belongs to the oldest READ still waiting for data.
    WorkRequest* read = nullptr;
    for (auto& wr : m_wrs)
    {
        if (wr.opcode == RoceWrOpcode::READ && wr.assigned && wr.readReceived < wr.npkts)
        {
            read = &wr;
            break;
        }
    }
    if (!read)
    {
        m_counters.duplicatesRx++;
        return;
    }
    uint32_t expected = Bth::PsnAdd(read->firstPsn, read->readReceived);
    int32_t d = Bth::PsnDiff(psn, expected);
    if (d < 0 || d >= int32_t(read->npkts - read->readReceived))
    {
        m_counters.duplicatesRx++;
        return;
    }
    if (d > 0)
    {
        m_counters.outOfOrderRx++;
        if (!m_readGapSignalled)
        {
            m_readGapSignalled = true;
            GoBackN(expected, "read-gap");
        }
        return;
    }
    if (Bth::HasAeth(opcode))
    {
        ext += RoceAethHeader::SIZE; // its MSN is not used by the requester
    }
    uint32_t payload = rx.afterBth - ext - RoceIcrcTrailer::SIZE - rx.padCount;
    m_readGapSignalled = false;
    read->readReceived++;
    m_counters.rxDataPackets++;
    m_counters.rxDataBytes += payload;
    m_core->AccountRx(m_port, m_priority, payload);
    Acknowledge(psn);
}

void
RoceQueuePair::Acknowledge(uint32_t psn, bool ece, uint8_t hops, const uint8_t* intStack)
{
    // Never past a READ whose responses have not all arrived.
    for (const auto& wr : m_wrs)
    {
        if (!wr.assigned)
        {
            break;
        }
        if (wr.opcode == RoceWrOpcode::READ && wr.readReceived < wr.npkts)
        {
            uint32_t limit = Bth::PsnAdd(wr.firstPsn, wr.readReceived); // first missing
            if (!Bth::PsnLess(psn, limit))
            {
                psn = Bth::PsnAdd(limit, Bth::PSN_MODULUS - 1);
            }
            break;
        }
    }
    uint32_t newUna = Bth::PsnAdd(psn, 1);
    int32_t advance = Bth::PsnDiff(newUna, m_sndUna);
    if (advance <= 0 || Bth::PsnDiff(newUna, m_sndNxt) > 0)
    {
        CompleteHead();
        return;
    }
    m_sndUna.Set(newUna);
    Time rtt;
    while (m_wantRtt && !m_sendTimes.IsEmpty() && Bth::PsnLess(m_sendTimes.Front().first, newUna))
    {
        rtt = m_core->Now() - m_sendTimes.Front().second;
        m_sendTimes.DropFront();
    }
    m_retries = 0;
    FabricCcAckSample sample;
    sample.ackedBytes = uint64_t(advance) * m_nic->GetMtu();
    sample.rtt = rtt;
    sample.entropy = m_udpSrcPort;
    sample.ecnEcho = ece;
    sample.ceBytes = ece ? sample.ackedBytes : 0; // an echoing ACK covers CE data only
    sample.hopCount = hops;
    if (intStack)
    {
        sample.nHops = DecodeInt(intStack);
        sample.hops = sample.nHops > 0 ? m_intHops.data() : nullptr;
    }
    m_cc->OnAck(sample);
    CompleteHead();
    RestartTimer();
    Activate();
}

uint32_t
RoceQueuePair::InsertInt(uint8_t* h, uint32_t hdr, const uint8_t* stack, uint32_t stackBytes) const
{
    uint8_t* bth = h + IP_UDP_BYTES;
    uint8_t* after = bth + Bth::SIZE;
    std::memmove(after + stackBytes, after, hdr - IP_UDP_BYTES - Bth::SIZE);
    std::memcpy(after, stack, stackBytes);
    bth[4] |= RoceInt::BTH_INT_BIT;
    return hdr + stackBytes;
}

uint32_t
RoceQueuePair::DecodeInt(const uint8_t* stack)
{
    uint32_t n = RoceInt::GetNHops(stack);
    if (RoceInt::IsOverflow(stack) || n == 0 || n > RoceInt::MAX_HOPS)
    {
        return 0; // more hops than records: the path is not fully described
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        FabricCcHopTelemetry hop = RoceInt::ReadHop(stack, i);
        // Unwrap against the previous ACK's sample of the same hop (same path length).
        m_intHops[i] = n == m_intHopsValid ? RoceInt::Unwrap(hop, m_intHops[i]) : hop;
    }
    m_intHopsValid = n;
    return n;
}

void
RoceQueuePair::CompleteHead()
{
    while (!m_wrs.IsEmpty())
    {
        WorkRequest& wr = m_wrs.Front();
        if (!wr.assigned || m_sendWr == 0)
        {
            return; // not (fully) sent yet
        }
        bool done = wr.opcode == RoceWrOpcode::READ
                        ? wr.readReceived == wr.npkts
                        : Bth::PsnLess(Bth::PsnAdd(wr.firstPsn, wr.npkts - 1), m_sndUna);
        if (!done)
        {
            return;
        }
        RoceWorkCompletion wc;
        wc.wrId = wr.wrId;
        wc.qpn = m_qpn;
        wc.opcode = wr.opcode;
        wc.status = RoceWcStatus::SUCCESS;
        wc.bytes = wr.bytes;
        wc.postTime = wr.postTime;
        wc.startTime = wr.startTime;
        wc.endTime = m_core->Now();
        CompletionCallback cb = wr.cb;
        m_wrs.DropFront();
        m_sendWr--;
        m_core->NotifyWorkCompleted();
        m_counters.completions++;
        m_completionTrace(wc);
        m_nic->m_completionTrace(wc);
        if (!cb.IsNull())
        {
            cb(wc);
        }
    }
}

void
RoceQueuePair::GoBackN(uint32_t psn, const std::string& cause)
{
    if (Bth::PsnDiff(psn, m_sndUna) < 0 || Bth::PsnDiff(psn, m_sndNxt) >= 0)
    {
        return; // nothing outstanding at that PSN
    }
    for (std::size_t i = 0; i < m_wrs.GetSize(); ++i)
    {
        const WorkRequest& wr = m_wrs[i];
        if (!wr.assigned)
        {
            break;
        }
        int32_t off = Bth::PsnDiff(psn, wr.firstPsn);
        if (off >= 0 && off < int32_t(wr.npkts))
        {
            m_sendWr = i;
            m_sendOffset = static_cast<uint32_t>(off);
            m_sndNxt.Set(psn);
            m_retransmitTrace(psn, cause);
            // The QP's log component (defined in roce-queue-pair.cc), looked up once.
            NS_LOG_STATIC_TEMPLATE_DEFINE("RoceQueuePair");
            NS_LOG_LOGIC("QP " << m_qpn << " go-back-N to PSN " << psn << " (" << cause << ")");
            Activate();
            return;
        }
    }
}

void
RoceQueuePair::RestartTimer()
{
    // One timer event at a time: restarting only moves the deadline (no event churn on every
    // ACK); disarming removes the event so an idle QP leaves nothing in the scheduler.
    if (m_state == RTS && Bth::PsnDiff(m_sndNxt, m_sndUna) > 0)
    {
        Time now = m_core->Now();
        m_timerDeadline = now + m_nic->GetLocalAckTimeout();
        if (!m_timerPending)
        {
            m_timer = Simulator::Schedule(m_timerDeadline - now, &RoceQueuePair::OnTimer, this);
            m_timerPending = true;
        }
    }
    else if (m_timerPending)
    {
        Simulator::Remove(m_timer);
        m_timerPending = false;
    }
}

void
RoceQueuePair::OnTimer()
{
    Time now = m_core->Now();
    if (now < m_timerDeadline)
    {
        m_timer = Simulator::Schedule(m_timerDeadline - now, &RoceQueuePair::OnTimer, this);
        return;
    }
    m_timerPending = false;
    OnTimeout();
}

void
RoceQueuePair::OnTimeout()
{
    m_counters.timeouts++;
    if (++m_retries > m_nic->GetRetryCount())
    {
        EnterError();
        return;
    }
    m_cc->OnEvent(FabricCcEvent::TIMEOUT);
    GoBackN(m_sndUna, "timeout");
    RestartTimer();
}

} // namespace ns3
