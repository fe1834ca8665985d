/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: RoceQueuePair, its setup (attributes, Bind, Connect, congestion control), work
 * requests posted, the receive demultiplexing (CNPs, ECN at the notification point), the
 * error state and its accessors. The requester (transmit path, ACK processing, retransmission)
 * is in roce-queue-pair-requester.cc, the responder (requests, ACK/NAK, CNP generation) in
 * roce-queue-pair-responder.cc.
 */
#include "roce-queue-pair.h"

#include "roce-bth-header.h"
#include "roce-nic.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RoceQueuePair);

namespace
{
using Bth = RoceBthHeader;
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
    m_wrs.Clear();
    m_readJobs.Clear();
    m_cc = nullptr;
    m_np = nullptr;
    m_ccState = nullptr;
    m_nic = nullptr;
    m_core = nullptr;
    m_rxCallback.Nullify();
    Object::DoDispose();
}

void
RoceQueuePair::SetFreshReceiverPerMessage(bool fresh)
{
    m_freshNp = fresh;
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
    m_sendTimes.Clear();
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
    const uint32_t window = nic->GetOutOfOrderWindow();
    m_placedMask = window == 0 ? 0 : window - 1;
    m_placed.assign(window, PlacedPacket{});
    m_int = nic->GetInt();
    m_intMaxHops = nic->GetIntMaxHops();
    m_sendTimes.Clear();
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
    m_wrs.PushBack(wr);
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
    if (m_freshNp && Bth::IsRequest(opcode) &&
        (Bth::IsFirst(opcode) || Bth::IsOnly(opcode) || opcode == Bth::READ_REQUEST) &&
        rx.psn == m_ePsn.Get())
    {
        m_np->Dispose(); // a new message: a new connection's receiver side
        m_np = m_nic->NewReceiverOps();
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
    m_readJobs.Clear();
    bool first = true;
    FabricRing<WorkRequest> wrs;
    wrs.Swap(m_wrs);
    m_sendWr = 0;
    m_sendOffset = 0;
    if (m_core)
    {
        m_core->NotifyWorkCompleted(wrs.GetSize());
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
    return static_cast<uint32_t>(m_wrs.GetSize());
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
       << Ipv4Address(m_remoteIpBits) << " QP " << m_remoteQpn << ": " << m_wrs.GetSize()
       << " work requests pending (" << bytes << " B)";
    if (!m_readJobs.IsEmpty())
    {
        os << ", " << m_readJobs.GetSize() << " READ responses to send";
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
