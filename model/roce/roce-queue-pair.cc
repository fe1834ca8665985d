/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-queue-pair.h"

#include "roce-aeth-header.h"
#include "roce-bth-header.h"
#include "roce-cnp-header.h"
#include "roce-icrc-trailer.h"
#include "roce-immdt-header.h"
#include "roce-nic.h"
#include "roce-reth-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-time.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RoceQueuePair);

namespace
{
using Bth = RoceBthHeader;
/// Ethernet header + FCS + preamble + IFG: what a packet costs on the wire beyond IPv4.
constexpr uint32_t WIRE_OVERHEAD = PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::FCS_BYTES +
                                   PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;
/// Largest message (RETH DMA length is 32 bits).
constexpr uint64_t MAX_MESSAGE = 0x80000000ull;
} // namespace

const char*
RoceWrOpcodeName(RoceWrOpcode op)
{
    switch (op)
    {
    case RoceWrOpcode::WRITE:
        return "WRITE";
    case RoceWrOpcode::WRITE_WITH_IMM:
        return "WRITE_WITH_IMM";
    case RoceWrOpcode::SEND:
        return "SEND";
    case RoceWrOpcode::SEND_WITH_IMM:
        return "SEND_WITH_IMM";
    case RoceWrOpcode::READ:
        return "READ";
    }
    return "unknown";
}

const char*
RoceWcStatusName(RoceWcStatus status)
{
    switch (status)
    {
    case RoceWcStatus::SUCCESS:
        return "SUCCESS";
    case RoceWcStatus::RETRY_EXCEEDED:
        return "RETRY_EXCEEDED";
    case RoceWcStatus::FLUSH_ERROR:
        return "FLUSH_ERROR";
    }
    return "unknown";
}

const char*
RoceControlEventName(RoceControlEvent e)
{
    switch (e)
    {
    case RoceControlEvent::ACK_TX:
        return "ACK_TX";
    case RoceControlEvent::ACK_RX:
        return "ACK_RX";
    case RoceControlEvent::NAK_TX:
        return "NAK_TX";
    case RoceControlEvent::NAK_RX:
        return "NAK_RX";
    case RoceControlEvent::CNP_TX:
        return "CNP_TX";
    case RoceControlEvent::CNP_RX:
        return "CNP_RX";
    }
    return "unknown";
}

TypeId
RoceQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceQueuePair")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddTraceSource("SendPsn",
                            "Next PSN to send (drops back on go-back-N).",
                            MakeTraceSourceAccessor(&RoceQueuePair::m_sndNxt),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("AckedPsn",
                            "Oldest unacknowledged PSN.",
                            MakeTraceSourceAccessor(&RoceQueuePair::m_sndUna),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("ExpectedPsn",
                            "Responder's expected PSN (ePSN).",
                            MakeTraceSourceAccessor(&RoceQueuePair::m_ePsn),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Retransmit",
                            "Go-back-N: first PSN resent and the cause (nak, timeout, read-gap).",
                            MakeTraceSourceAccessor(&RoceQueuePair::m_retransmitTrace),
                            "ns3::RoceQueuePair::RetransmitTracedCallback")
            .AddTraceSource("Control",
                            "ACK/NAK/CNP sent or received: event, PSN.",
                            MakeTraceSourceAccessor(&RoceQueuePair::m_controlTrace),
                            "ns3::RoceQueuePair::ControlTracedCallback")
            .AddTraceSource("Completion",
                            "A work request completed (any status).",
                            MakeTraceSourceAccessor(&RoceQueuePair::m_completionTrace),
                            "ns3::RoceNic::CompletionTracedCallback");
    return tid;
}

RoceQueuePair::RoceQueuePair()
    : m_nic(nullptr),
      m_core(nullptr),
      m_ccState(nullptr),
      m_state(INIT),
      m_dscp(26),
      m_priority(3),
      m_udpSrcPort(49152),
      m_qpn(0),
      m_port(0),
      m_remoteQpn(0),
      m_sendOffset(0),
      m_sendWr(0),
      m_nextAssignPsn(0),
      m_highSent(0),
      m_sndNxt(0),
      m_sndUna(0),
      m_ePsn(0),
      m_msn(0),
      m_unacked(0),
      m_nakSent(false),
      m_rxMsgBytes(0),
      m_nextWrId(1),
      m_retries(0),
      m_readGapSignalled(false)
{
}

RoceQueuePair::~RoceQueuePair() = default;

void
RoceQueuePair::DoDispose()
{
    m_timer.Cancel();
    m_timerPending = false;
    m_wrs.clear();
    m_readJobs.clear();
    m_cc = nullptr;
    m_np = nullptr;
    m_ccState = nullptr;
    m_nic = nullptr;
    m_core = nullptr;
    m_rxCallback.Nullify();
    Object::DoDispose();
}

void
RoceQueuePair::RebindCongestionControl(Ptr<FabricCongestionOps> cc, Ptr<FabricCcReceiverOps> np)
{
    NS_ABORT_MSG_IF(GetOutstandingWorkRequests() != 0,
                    "RoceQueuePair " << GetLabel() << ": congestion control renewed with "
                                     << GetOutstandingWorkRequests()
                                     << " work requests outstanding; valid only when idle (0)");
    NS_ABORT_MSG_IF(!cc || !cc->GetState() || !np,
                    "RoceQueuePair " << GetLabel()
                                     << ": RebindCongestionControl needs an Init()ed congestion "
                                        "control and a receiver side");
    if (m_cc)
    {
        m_cc->Dispose();
    }
    if (m_np)
    {
        m_np->Dispose();
    }
    m_cc = cc;
    m_np = np;
    m_ccState = PeekPointer(cc->GetState());
    m_ccState->SetRateChangeCallback(MakeCallback(&RoceQueuePair::OnRateChange, this));
    m_wantRtt = m_cc->WantsRttSamples();
    m_sendTimes.clear();
    m_lastWire = 0;
}

void
RoceQueuePair::Bind(RoceNic* nic,
                    uint32_t qpn,
                    uint32_t port,
                    Ptr<FabricCongestionOps> cc,
                    Ptr<FabricCcReceiverOps> np)
{
    NS_ABORT_MSG_IF(!nic || !nic->GetCore(), "RoceQueuePair::Bind: the NIC has no core");
    NS_ABORT_MSG_IF(!cc || !cc->GetState(),
                    "RoceQueuePair::Bind: congestion control missing or not Init()ed");
    NS_ABORT_MSG_IF(!np, "RoceQueuePair::Bind: receiver-side congestion control missing");
    m_nic = nic;
    m_core = PeekPointer(nic->GetCore());
    m_qpn = qpn;
    m_port = port;
    m_cc = cc;
    m_np = np;
    m_ccState = PeekPointer(cc->GetState());
    m_ccState->SetRateChangeCallback(MakeCallback(&RoceQueuePair::OnRateChange, this));
    m_wantRtt = m_cc->WantsRttSamples();
    m_ackEcho = nic->GetCongestionNotification() == ROCE_NOTIFY_ACK_ECHO;
    m_echoHops = nic->GetEchoHopCount();
    m_int = nic->GetInt();
    m_intMaxHops = nic->GetIntMaxHops();
    m_sendTimes.clear();
    m_dscp = nic->GetDataDscp();
    m_priority = nic->GetPort(port)->GetDscpPriority(m_dscp);
    SetNicQueue(m_port, m_priority);
}

void
RoceQueuePair::Connect(Ipv4Address remoteIp,
                       uint32_t remoteQpn,
                       uint32_t sendPsn,
                       uint32_t expectedPsn,
                       uint16_t udpSourcePort)
{
    NS_ABORT_MSG_IF(!m_nic, "RoceQueuePair::Connect: QP not created by a RoceNic");
    NS_ABORT_MSG_IF(m_state != INIT,
                    "RoceQueuePair::Connect: " << GetLabel() << " already connected");
    NS_ABORT_MSG_IF(remoteQpn > Bth::MAX_24BIT || sendPsn > Bth::MAX_24BIT ||
                        expectedPsn > Bth::MAX_24BIT,
                    "RoceQueuePair::Connect: " << GetLabel() << ": remote QPN " << remoteQpn
                                               << ", send PSN " << sendPsn << " and expected PSN "
                                               << expectedPsn << " must be < 2^24");
    m_remoteIpBits = remoteIp.Get();
    m_localIpBits = m_nic->GetAddress(m_port).Get();
    m_remoteQpn = remoteQpn;
    m_sndNxt.Set(sendPsn);
    m_sndUna.Set(sendPsn);
    m_nextAssignPsn = sendPsn;
    m_highSent = sendPsn;
    m_lastAckReqPsn = sendPsn;
    m_ePsn.Set(expectedPsn);
    m_udpSrcPort = udpSourcePort;
    m_state = RTS;
}

uint32_t
RoceQueuePair::PacketsFor(uint64_t bytes) const
{
    uint32_t mtu = m_nic->GetMtu();
    return bytes == 0 ? 1 : static_cast<uint32_t>((bytes + mtu - 1) / mtu);
}

uint64_t
RoceQueuePair::Post(RoceWrOpcode op,
                    uint64_t bytes,
                    uint64_t va,
                    uint32_t rkey,
                    uint32_t imm,
                    CompletionCallback cb)
{
    NS_ABORT_MSG_IF(m_state == INIT,
                    "RoceQueuePair " << GetLabel() << ": post of " << RoceWrOpcodeName(op)
                                     << " to a QP that is not connected (use "
                                        "RoceNicHelper::Connect)");
    NS_ABORT_MSG_IF(bytes == 0 && (op == RoceWrOpcode::WRITE || op == RoceWrOpcode::READ),
                    "RoceQueuePair " << GetLabel() << ": " << RoceWrOpcodeName(op)
                                     << " of 0 bytes is invalid; length must be >= 1");
    NS_ABORT_MSG_IF(bytes > MAX_MESSAGE,
                    "RoceQueuePair " << GetLabel() << ": message of " << bytes
                                     << " bytes exceeds the 2^31-byte RC maximum");
    WorkRequest wr{};
    wr.wrId = m_nextWrId++;
    wr.opcode = op;
    wr.bytes = bytes;
    wr.remoteAddress = va;
    wr.rkey = rkey;
    wr.imm = imm;
    wr.cb = cb;
    wr.postTime = m_core->Now();
    if (m_state == ERROR)
    {
        NS_LOG_WARN(GetLabel() << " is in the error state: work request flushed");
        RoceWorkCompletion wc;
        wc.wrId = wr.wrId;
        wc.qpn = m_qpn;
        wc.opcode = op;
        wc.status = RoceWcStatus::FLUSH_ERROR;
        wc.bytes = bytes;
        wc.postTime = wc.startTime = wc.endTime = Simulator::Now();
        Simulator::ScheduleNow([this, wc, cb]() {
            m_counters.completions++;
            m_completionTrace(wc);
            if (!cb.IsNull())
            {
                cb(wc);
            }
        });
        return wr.wrId;
    }
    m_wrs.push_back(wr);
    if (m_core)
    {
        m_core->NotifyWorkPosted();
    }
    Activate();
    return wr.wrId;
}

uint64_t
RoceQueuePair::PostWrite(uint64_t bytes,
                         uint64_t remoteAddress,
                         uint32_t rkey,
                         CompletionCallback cb)
{
    return Post(RoceWrOpcode::WRITE, bytes, remoteAddress, rkey, 0, cb);
}

uint64_t
RoceQueuePair::PostWriteWithImm(uint64_t bytes,
                                uint32_t imm,
                                uint64_t remoteAddress,
                                uint32_t rkey,
                                CompletionCallback cb)
{
    return Post(RoceWrOpcode::WRITE_WITH_IMM, bytes, remoteAddress, rkey, imm, cb);
}

uint64_t
RoceQueuePair::PostSend(uint64_t bytes, CompletionCallback cb)
{
    return Post(RoceWrOpcode::SEND, bytes, 0, 0, 0, cb);
}

uint64_t
RoceQueuePair::PostRead(uint64_t bytes,
                        uint64_t remoteAddress,
                        uint32_t rkey,
                        CompletionCallback cb)
{
    return Post(RoceWrOpcode::READ, bytes, remoteAddress, rkey, 0, cb);
}

void
RoceQueuePair::SetReceiveCallback(ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
RoceQueuePair::Activate()
{
    if (m_core && m_state == RTS)
    {
        m_core->Activate(this);
    }
}

bool
RoceQueuePair::HasPacketToSend() const
{
    if (m_state != RTS)
    {
        return false;
    }
    if (!m_readJobs.empty())
    {
        return true;
    }
    if (m_sendWr >= m_wrs.size())
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

    if (!m_readJobs.empty())
    {
        // Responder: the next READ response packet.
        ReadResponseJob& job = m_readJobs.front();
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
            m_readJobs.pop_front();
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
                m_sendTimes.emplace_back(psn, now);
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
RoceQueuePair::Receive(const RoceRxPacket& rx)
{
    if (m_state != RTS)
    {
        return;
    }
    uint8_t opcode = rx.opcode;
    if (opcode == Bth::CNP)
    {
        m_counters.cnpsRx++;
        m_controlTrace(RoceControlEvent::CNP_RX, rx.psn);
        m_cc->OnEvent(FabricCcEvent::CNP);
        return;
    }
    bool data = Bth::IsRequest(opcode) || Bth::IsReadResponse(opcode);
    if (rx.ce && data && m_ackEcho && Bth::IsRequest(opcode))
    {
        m_counters.ceRx++; // echoed on the ACK (ReceiveRequest), no CNP
    }
    else if (rx.ce && data)
    {
        // Notification point (DCQCN's by default): it says whether to return a CNP.
        m_counters.ceRx++;
        FabricCcRxSample sample;
        sample.ce = true;
        sample.now = m_core->Now();
        if (m_np->OnData(sample) & FABRIC_CC_SEND_CNP)
        {
            SendCnp();
        }
    }
    if (opcode == Bth::ACKNOWLEDGE || Bth::IsReadResponse(opcode))
    {
        ReceiveResponse(rx);
    }
    else if (Bth::IsRequest(opcode))
    {
        ReceiveRequest(rx);
    }
}

void
RoceQueuePair::ReceiveRequest(const RoceRxPacket& rx)
{
    uint8_t opcode = rx.opcode;
    uint32_t psn = rx.psn;
    bool ackReq = rx.ackReq;
    uint32_t ext = 0; // extension header bytes consumed
    int32_t d = Bth::PsnDiff(psn, m_ePsn);
    if (d > 0)
    {
        // Sequence error: one NAK per gap, the packet is dropped.
        m_counters.outOfOrderRx++;
        if (!m_nakSent)
        {
            m_nakSent = true;
            SendAck(true, m_ePsn);
        }
        return;
    }
    // Header objects only where their fields are read: most packets are WRITE middles, and an
    // ns-3 Header costs two logged destructor calls.
    if (Bth::HasReth(opcode))
    {
        ext += RoceRethHeader::SIZE; // the NIC checked that the extension headers are all there
    }
    if (opcode == Bth::READ_REQUEST)
    {
        RoceRethHeader reth;
        reth.Read(rx.ext);
        uint32_t n = PacketsFor(reth.GetDmaLength());
        if (d < 0)
        {
            // Duplicate READ (the requester lost responses): answer it again from its PSN.
            m_counters.duplicatesRx++;
            while (!m_readJobs.empty() && !Bth::PsnLess(m_readJobs.back().firstPsn, psn))
            {
                m_readJobs.pop_back();
            }
            m_readJobs.push_back(ReadResponseJob{psn, n, 0, reth.GetDmaLength(), m_msn});
            Activate();
            return;
        }
        m_nakSent = false;
        m_msn = (m_msn + 1) & Bth::MAX_24BIT;
        m_ePsn.Set(Bth::PsnAdd(psn, n));
        m_readJobs.push_back(ReadResponseJob{psn, n, 0, reth.GetDmaLength(), m_msn});
        Activate();
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
    if (Bth::HasImmDt(opcode))
    {
        RoceImmDtHeader immdt;
        immdt.Read(rx.ext + ext);
        imm = immdt.GetImmediate();
        ext += RoceImmDtHeader::SIZE;
    }
    uint32_t payload = rx.afterBth - ext - RoceIcrcTrailer::SIZE - rx.padCount;
    m_ePsn.Set(Bth::PsnAdd(psn, 1));
    m_rxMsgBytes += payload;
    m_counters.rxDataPackets++;
    m_counters.rxDataBytes += payload;
    m_core->AccountRx(m_port, m_priority, payload);
    bool last = Bth::IsLast(opcode) || Bth::IsOnly(opcode);
    if (last)
    {
        m_msn = (m_msn + 1) & Bth::MAX_24BIT;
        bool send = opcode <= Bth::SEND_ONLY_WITH_IMM;
        if (send || Bth::HasImmDt(opcode))
        {
            RoceReceiveCompletion rc;
            rc.qpn = m_qpn;
            rc.opcode =
                send ? (Bth::HasImmDt(opcode) ? RoceWrOpcode::SEND_WITH_IMM : RoceWrOpcode::SEND)
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
    }
    if (ackReq || last || echoNow || ++m_unacked >= m_nic->GetAckInterval())
    {
        m_unacked = 0;
        SendAck(false, psn);
    }
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
    while (m_wantRtt && !m_sendTimes.empty() && Bth::PsnLess(m_sendTimes.front().first, newUna))
    {
        rtt = m_core->Now() - m_sendTimes.front().second;
        m_sendTimes.pop_front();
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
    while (!m_wrs.empty())
    {
        WorkRequest& wr = m_wrs.front();
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
        m_wrs.pop_front();
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
    for (std::size_t i = 0; i < m_wrs.size(); ++i)
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

void
RoceQueuePair::EnterError()
{
    NS_LOG_WARN(GetLabel() << " retry count exhausted after " << m_counters.timeouts
                           << " timeouts: entering the error state");
    m_state = ERROR;
    if (m_timerPending)
    {
        Simulator::Remove(m_timer);
        m_timerPending = false;
    }
    m_readJobs.clear();
    bool first = true;
    std::deque<WorkRequest> wrs;
    wrs.swap(m_wrs);
    m_sendWr = 0;
    m_sendOffset = 0;
    if (m_core)
    {
        m_core->NotifyWorkCompleted(wrs.size());
    }
    for (const auto& wr : wrs)
    {
        RoceWorkCompletion wc;
        wc.wrId = wr.wrId;
        wc.qpn = m_qpn;
        wc.opcode = wr.opcode;
        wc.status = first ? RoceWcStatus::RETRY_EXCEEDED : RoceWcStatus::FLUSH_ERROR;
        wc.bytes = wr.bytes;
        wc.postTime = wr.postTime;
        wc.startTime = wr.startTime;
        wc.endTime = Simulator::Now();
        first = false;
        m_counters.completions++;
        m_completionTrace(wc);
        m_nic->m_completionTrace(wc);
        if (!wr.cb.IsNull())
        {
            wr.cb(wc);
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

uint64_t
RoceQueuePair::GetNextWrId() const
{
    return m_nextWrId;
}

uint32_t
RoceQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
RoceQueuePair::GetRemoteQpn() const
{
    return m_remoteQpn;
}

Ipv4Address
RoceQueuePair::GetRemoteAddress() const
{
    return m_state == INIT ? Ipv4Address() : Ipv4Address(m_remoteIpBits); // unset until Connect
}

RoceQueuePair::State
RoceQueuePair::GetState() const
{
    return m_state;
}

const RoceQpCounters&
RoceQueuePair::GetCounters() const
{
    return m_counters;
}

Ptr<FabricCongestionOps>
RoceQueuePair::GetCongestionOps() const
{
    return m_cc;
}

Ptr<FabricCcState>
RoceQueuePair::GetCcState() const
{
    return m_ccState;
}

Ptr<FabricCcReceiverOps>
RoceQueuePair::GetCcReceiverOps() const
{
    return m_np;
}

uint32_t
RoceQueuePair::GetOutstandingWorkRequests() const
{
    return static_cast<uint32_t>(m_wrs.size());
}

std::string
RoceQueuePair::GetLabel() const
{
    Ptr<Node> node = m_nic ? m_nic->GetObject<Node>() : nullptr;
    return "node " + (node ? std::to_string(node->GetId()) : std::string("?")) + " QP " +
           std::to_string(m_qpn);
}

void
RoceQueuePair::Describe(std::ostream& os) const
{
    uint64_t bytes = 0;
    for (const auto& wr : m_wrs)
    {
        bytes += wr.bytes;
    }
    os << "QP " << m_qpn << " (port " << m_port << ", priority " << unsigned(m_priority) << ") -> "
       << Ipv4Address(m_remoteIpBits) << " QP " << m_remoteQpn << ": " << m_wrs.size()
       << " work requests pending (" << bytes << " B)";
    if (!m_readJobs.empty())
    {
        os << ", " << m_readJobs.size() << " READ responses to send";
    }
    os << ", state "
       << (m_state == RTS     ? "RTS"
           : m_state == ERROR ? "ERROR"
                              : "INIT")
       << ", PSN acked " << m_sndUna.Get() << " next " << m_sndNxt.Get() << ", rate "
       << m_ccState->GetRate().GetBitRate() << " bit/s, window " << m_ccState->GetWindow()
       << " B, consecutive timeouts " << m_retries;
}

uint16_t
RoceQueuePair::GetUdpSourcePort() const
{
    return m_udpSrcPort;
}

uint32_t
RoceQueuePair::GetPortIndex() const
{
    return m_port;
}

uint8_t
RoceQueuePair::GetPriority() const
{
    return m_priority;
}

} // namespace ns3
