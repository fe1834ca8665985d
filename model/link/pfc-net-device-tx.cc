/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: PfcNetDevice, the transmit side: priority classification and Ethernet framing,
 * frames sent and forwarded, the per-priority queues and the transmitter (scheduler, cable,
 * end of transmission), and PFC: XOFF/XON frames generated for the peer and the peer's pauses
 * honoured. The class is declared in pfc-net-device.h; its attributes, configuration and
 * NetDevice interface are in pfc-net-device.cc, the receive side in pfc-net-device-rx.cc. The
 * calls made for every frame sent stay in this file.
 */
#include "pfc-channel.h"
#include "pfc-dot1q-header.h"
#include "pfc-net-device.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/fabric-match.h"
#include "ns3/fabric-time.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/simulator.h"

#include <cstring>

namespace ns3
{

namespace
{
constexpr uint16_t IPV4_ETHERTYPE = 0x0800;
} // namespace

void
PfcNetDevice::CheckPriority(uint8_t priority, const char* what)
{
    NS_ABORT_MSG_IF(priority >= NUM_PRIORITIES,
                    what << ": priority " << unsigned(priority)
                         << " is invalid; valid priorities are 0..7");
}

uint8_t
PfcNetDevice::Classify(Ptr<const Packet> packet, uint16_t protocol) const
{
    if (protocol == IPV4_ETHERTYPE && packet->GetSize() >= 2)
    {
        uint8_t first2[2];
        packet->CopyData(first2, 2);
        return m_dscpMap.Get(first2[1] >> 2);
    }
    return m_defaultPriority;
}

uint32_t
PfcNetDevice::WriteL2Header(uint8_t* out,
                            Mac48Address dest,
                            uint16_t protocol,
                            uint8_t priority) const
{
    // The six bytes of the address, without Mac48Address::CopyTo's out-of-line call (a
    // standard-layout class whose only member is its byte array).
    static_assert(std::is_standard_layout_v<Mac48Address> && sizeof(Mac48Address) == 6,
                  "Mac48Address is read as its six bytes");
    std::memcpy(out, &dest, 6);
    std::memcpy(out + 6, m_addressBytes, 6);
    if (m_tagging == PCP)
    {
        // Same bytes as EthernetHeader + PfcDot1qHeader (DEI 0).
        wire::PutU16(out + 12, PfcDot1qHeader::TPID);
        wire::PutU16(out + 14, static_cast<uint16_t>((priority << 13) | (m_vid & 0x0fff)));
        wire::PutU16(out + 16, protocol);
    }
    else
    {
        wire::PutU16(out + 12, protocol);
    }
    return L2HeaderBytes();
}

uint32_t
PfcNetDevice::L2HeaderBytes() const
{
    return m_tagging == PCP ? ETH_HEADER_BYTES + DOT1Q_BYTES : ETH_HEADER_BYTES;
}

void
PfcNetDevice::AddFraming(Ptr<Packet> packet, Mac48Address dst, uint16_t protocol, uint8_t priority)
{
    // One AddHeader for the whole L2 header (see FabricWireHeader) and one AddTrailer for the
    // FCS: per-protocol header objects cost a visible share of the data path.
    uint8_t h[ETH_HEADER_BYTES + DOT1Q_BYTES];
    uint32_t header = WriteL2Header(h, dst, protocol, priority);
    uint32_t minPayload = MIN_FRAME_BYTES - header - FCS_BYTES;
    if (packet->GetSize() < minPayload)
    {
        packet->AddPaddingAtEnd(minPayload - packet->GetSize());
    }
    m_txHeader.Set(FabricWireHeader::ETHERNET, h, header);
    packet->AddHeader(m_txHeader);
    packet->AddTrailer(m_fcs); // FCS field written as zero (EthernetTrailer without CalcFcs)
}

bool
PfcNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendWithPriority(packet, dest, protocolNumber, Classify(packet, protocolNumber));
}

bool
PfcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

bool
PfcNetDevice::SendWithPriority(Ptr<Packet> packet,
                               const Address& dest,
                               uint16_t protocol,
                               uint8_t priority)
{
    return SendWithPriority(packet, Mac48Address::ConvertFrom(dest), protocol, priority);
}

bool
PfcNetDevice::SendWithPriority(Ptr<Packet> packet,
                               Mac48Address dest,
                               uint16_t protocol,
                               uint8_t priority)
{
    CheckPriority(priority, "PfcNetDevice::SendWithPriority");
    if (packet->GetSize() > m_mtu)
    {
        Drop(packet, PfcDropReason::OVERSIZE);
        return false;
    }
    if (m_traceSinks & MAC_TX)
    {
        m_macTxTrace(packet);
    }
    AddFraming(packet, dest, protocol, priority);
    FabricFrame frame(packet);
    return EnqueueFrame(frame, priority);
}

bool
PfcNetDevice::SendFrame(const Ptr<Packet>& frame, uint8_t priority)
{
    FabricFrame f(frame);
    return SendFrame(f, priority);
}

bool
PfcNetDevice::SendFrame(FabricFrame& frame, uint8_t priority)
{
    CheckPriority(priority, "PfcNetDevice::SendFrame");
    uint32_t l2 = L2HeaderBytes();
    NS_ABORT_MSG_IF(frame.GetSize() < MIN_FRAME_BYTES,
                    "PfcNetDevice::SendFrame: a frame of "
                        << frame.GetSize() << " bytes is shorter than the " << MIN_FRAME_BYTES
                        << "-byte Ethernet minimum");
    if (frame.GetSize() - l2 - FCS_BYTES > m_mtu)
    {
        Drop(frame.GetPacket(), PfcDropReason::OVERSIZE);
        return false;
    }
    if (m_traceSinks & MAC_TX)
    {
        m_macTxTrace(L3Fragment(frame.GetPacket(), l2));
    }
    return EnqueueFrame(frame, priority);
}

Ptr<Packet>
PfcNetDevice::L3Fragment(Ptr<const Packet> frame, uint32_t l2Bytes) const
{
    uint8_t h[ETH_HEADER_BYTES + DOT1Q_BYTES + 4];
    uint32_t got = frame->CopyData(h, l2Bytes + 4);
    uint32_t l3 = frame->GetSize() - l2Bytes - FCS_BYTES; // padding included unless IPv4
    if (got == l2Bytes + 4 && wire::GetU16(h + l2Bytes - 2) == IPV4_ETHERTYPE)
    {
        l3 = std::min<uint32_t>(l3, wire::GetU16(h + l2Bytes + 2));
    }
    return frame->CreateFragment(l2Bytes, l3);
}

bool
PfcNetDevice::EnqueueFrame(FabricFrame& frame, uint8_t priority, uint64_t tag)
{
    PfcTxQueue& q = m_queues[priority];
    if (!q.Fits(frame.GetSize()))
    {
        Drop(frame.GetPacket(), PfcDropReason::QUEUE_FULL);
        return false;
    }
    if (m_traceSinks & TX_ENQUEUE)
    {
        m_txEnqueueTrace(frame.GetPacket(), priority);
    }
    if (!m_backlogMask && !m_controlPending && m_strictPriority &&
        !((m_pausedMask >> priority) & 1u) && m_channel && TxIdle())
    {
        // Nothing queued and the wire free: exactly what pushing and TryTransmit's pop would
        // do, without the round trip through the queue's ring (a cache line per frame).
        Dequeued(frame, priority, tag);
        return true;
    }
    q.Push(std::move(frame), tag);
    m_backlogMask |= static_cast<uint8_t>(1u << priority);
    if (TxIdle())
    {
        TryTransmit();
    }
    else if (m_txEndDeferred)
    {
        CommitTxEnd(); // a frame waits: the end of the transmission is an event again
    }
    return true;
}

void
PfcNetDevice::ReplaceFraming(FabricFrame& frame,
                             uint32_t l2Bytes,
                             Mac48Address dest,
                             uint8_t priority,
                             const uint8_t* l3Head,
                             uint32_t l3Bytes)
{
    uint8_t h[FabricWireHeader::MAX_BYTES];
    uint32_t header = WriteL2Header(h, dest, IPV4_ETHERTYPE, priority);
    if (l3Bytes > 0)
    {
        std::memcpy(h + header, l3Head, l3Bytes);
    }
    // The new bytes go into the frame's head; the packet is rewritten only when the head cannot
    // take them or a shorter L2 header leaves the frame under the Ethernet minimum.
    if (frame.GetSize() - l2Bytes + header < MIN_FRAME_BYTES ||
        !frame.ReplaceHead(l2Bytes + l3Bytes, h, header + l3Bytes))
    {
        Ptr<Packet> packet = frame.GetPacket();
        packet->RemoveAtStart(l2Bytes + l3Bytes);
        m_txHeader.Set(FabricWireHeader::ETHERNET, h, header + l3Bytes);
        packet->AddHeader(m_txHeader);
        if (packet->GetSize() < MIN_FRAME_BYTES)
        {
            // Pad again in front of the FCS.
            packet->RemoveAtEnd(FCS_BYTES);
            packet->AddPaddingAtEnd(MIN_FRAME_BYTES - FCS_BYTES - packet->GetSize());
            packet->AddTrailer(m_fcs);
        }
        frame = FabricFrame(packet);
    }
}

bool
PfcNetDevice::ForwardFrame(FabricFrame& frame,
                           uint32_t l2Bytes,
                           Mac48Address dest,
                           uint8_t priority,
                           const uint8_t* l3Head,
                           uint32_t l3Bytes,
                           uint64_t tag)
{
    CheckPriority(priority, "PfcNetDevice::ForwardFrame");
    NS_ABORT_MSG_IF(l2Bytes + l3Bytes + FCS_BYTES > frame.GetSize() || l3Bytes > 60,
                    "PfcNetDevice::ForwardFrame: " << l2Bytes << " + " << l3Bytes
                                                   << " header bytes do not fit a frame of "
                                                   << frame.GetSize() << " bytes");
    uint32_t header = L2HeaderBytes();
    // The common hop: an L2 header of the same length replaces the old one in place in the
    // head (what ReplaceFraming's ReplaceHead would do, without the copy through a buffer).
    uint8_t* head = l3Bytes == 0 && header == l2Bytes && frame.GetSize() >= MIN_FRAME_BYTES
                        ? frame.MutableHead(l2Bytes)
                        : nullptr;
    if (head)
    {
        WriteL2Header(head, dest, IPV4_ETHERTYPE, priority);
    }
    else
    {
        ReplaceFraming(frame, l2Bytes, dest, priority, l3Head, l3Bytes);
    }
    if (m_traceSinks & MAC_TX)
    {
        m_macTxTrace(
            frame.GetPacket()->CreateFragment(header, frame.GetSize() - header - FCS_BYTES));
    }
    return EnqueueFrame(frame, priority, tag);
}

void
PfcNetDevice::TryTransmit()
{
    if (!TxIdle())
    {
        if (m_txEndDeferred && (m_controlPending || m_backlogMask))
        {
            CommitTxEnd();
        }
        return;
    }
    if (!m_channel)
    {
        return;
    }
    if (m_controlPending)
    {
        FabricFrame frame(m_controlQueue.Front());
        m_controlQueue.DropFront();
        m_controlPending = !m_controlQueue.IsEmpty();
        StartTransmission(frame);
        return;
    }
    uint8_t eligible = m_backlogMask & ~m_pausedMask;
    if (!eligible)
    {
        return;
    }
    int p = m_strictPriority ? PfcTxScheduler::HighestPriority(eligible)
                             : m_scheduler->Select(eligible, m_queues);
    if (p == PfcTxScheduler::NONE)
    {
        return;
    }
    NS_ABORT_MSG_IF(p < 0 || p >= NUM_PRIORITIES || !((eligible >> p) & 1u),
                    "TxScheduler "
                        << m_scheduler->GetInstanceTypeId().GetName() << " selected priority " << p
                        << " which is not eligible (mask 0x" << std::hex << unsigned(eligible)
                        << std::dec << ")");
    uint64_t tag = 0;
    FabricFrame frame = m_queues[p].Pop(&tag);
    if (m_queues[p].IsEmpty())
    {
        m_backlogMask &= static_cast<uint8_t>(~(1u << p));
    }
    Dequeued(frame, static_cast<uint8_t>(p), tag);
}

// Inlined into its two callers (EnqueueFrame's idle-port path and TryTransmit): it runs for
// every frame a port sends (ai-fabric benchmark).
inline __attribute__((always_inline)) void
PfcNetDevice::Dequeued(FabricFrame& frame, uint8_t priority, uint64_t tag)
{
    if (m_frameLeavingHook && m_owner)
    {
        m_owner->FrameLeaving(m_ownerPort, priority, tag, frame);
    }
    if (m_traceSinks & TX_DEQUEUE)
    {
        m_txDequeueTrace(frame.GetPacket(), priority);
    }
    m_frameCounters[priority].txFrames++;
    m_frameCounters[priority].txBytes += frame.GetSize();
    // The transmitter is marked busy (StartTransmission) before the owner or callback reacts.
    if (m_owner)
    {
        StartTransmission(frame);
        m_owner->FrameDequeued(m_ownerPort, priority, tag);
        return;
    }
    // A dequeue callback gets the packet, taken before the frame moves onto the cable.
    Ptr<const Packet> packet;
    if (!m_dequeueCallback.IsNull())
    {
        packet = frame.GetPacket();
    }
    StartTransmission(frame);
    if (packet)
    {
        m_dequeueCallback(this, priority, packet);
    }
}

// Inlined into its callers, as Dequeued.
inline __attribute__((always_inline)) void
PfcNetDevice::StartTransmission(FabricFrame& frame)
{
    m_txBusy = true;
    if (m_traceSinks & PHY_TX_END)
    {
        m_currentFrame = frame.GetPacket(); // kept for the end trace only: no reference (or
                                            // cache miss on the frame) otherwise
    }
    if (m_traceSinks & PHY_TX_BEGIN)
    {
        m_phyTxBeginTrace(frame.GetPacket());
    }
    if (m_traceSinks & SNIFFER)
    {
        m_snifferTrace(frame.GetPacket());
    }
    if (m_traceSinks & PROMISC)
    {
        m_promiscSnifferTrace(frame.GetPacket());
    }
    const TxTimes& t = GetTxTimes(frame.GetChargedSize());
    if (!m_channel->TransmitStart(frame, m_channelEnd, t.frame))
    {
        Drop(frame.GetPacket(), PfcDropReason::LINK_DOWN);
    }
    FabricSimulatorImpl* sim = m_engine.Get();
    if (sim && !m_controlPending && !m_backlogMask && !(m_traceSinks & PHY_TX_END))
    {
        // Nothing waits: the end of this transmission would only mark the port idle, which
        // TxIdle() infers from the clock. Fix its place in the event order now and insert it
        // only if a frame arrives before then (CommitTxEnd).
        m_txEnd = sim->Reserve(t.slot);
        m_txEndDeferred = true;
    }
    else if (sim)
    {
        sim->ScheduleRecurring(PeekPointer(m_txCompleteEvent), sim->CurrentContext(), t.slot);
    }
    else
    {
        ScheduleRecurring(m_txCompleteEvent, t.slot);
    }
}

void
PfcNetDevice::CommitTxEnd()
{
    m_txEndDeferred = false;
    m_txCompleteEvent->Ref(); // the simulator's reference, dropped after the event runs
    m_engine.Peek()->Commit(m_txEnd, PeekPointer(m_txCompleteEvent));
}

const PfcNetDevice::TxTimes&
PfcNetDevice::GetTxTimes(uint32_t bytes)
{
    // Frames come in few sizes (a WRITE's first, middle and last packets, ACKs, CNPs):
    // remember the last four computed.
    int hit = FirstMatchOf4(m_txTimesBytes, bytes);
    if (hit >= 0)
    {
        return m_txTimes[hit];
    }
    uint8_t i = m_txTimesNext;
    m_txTimesNext = (m_txTimesNext + 1) % m_txTimes.size();
    m_txTimesBytes[i] = bytes;
    TxTimes& t = m_txTimes[i];
    t.frame = BytesTxTime(PREAMBLE_BYTES + bytes, m_bps);
    t.slot = BytesTxTime(PREAMBLE_BYTES + bytes + IFG_BYTES, m_bps);
    return t;
}

void
PfcNetDevice::TransmitComplete()
{
    m_txBusy = false;
    if (m_currentFrame)
    {
        if (m_traceSinks & PHY_TX_END)
        {
            m_phyTxEndTrace(m_currentFrame);
        }
        m_currentFrame = nullptr;
    }
    TryTransmit();
}

Time
PfcNetDevice::QuantaToTime(uint16_t quanta) const
{
    return PfcHeader::QuantaToTime(quanta, m_bps);
}

void
PfcNetDevice::PauseEnded()
{
    TryTransmit();
}

bool
PfcNetDevice::IsPaused(uint8_t priority) const
{
    CheckPriority(priority, "PfcNetDevice::IsPaused");
    return m_pauseReceiver.IsPaused(priority);
}

Time
PfcNetDevice::GetPausedUntil(uint8_t priority) const
{
    CheckPriority(priority, "PfcNetDevice::GetPausedUntil");
    return m_pauseReceiver.GetPausedUntil(priority);
}

void
PfcNetDevice::SendPfcFrame(const PfcHeader& header)
{
    Ptr<Packet> frame = Create<Packet>(MIN_FRAME_BYTES - ETH_HEADER_BYTES - FCS_BYTES -
                                       PfcHeader::SIZE); // zero padding to 64 bytes
    frame->AddHeader(header);
    EthernetHeader eth(false);
    eth.SetSource(m_address);
    eth.SetDestination(PfcHeader::GetPfcDestination());
    eth.SetLengthType(PfcHeader::MAC_CONTROL_ETHERTYPE);
    frame->AddHeader(eth);
    EthernetTrailer fcs;
    fcs.CalcFcs(frame);
    frame->AddTrailer(fcs);
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (header.IsPriorityEnabled(p))
        {
            uint16_t quanta = header.GetPauseQuanta(p);
            (quanta ? m_pauseTx[p] : m_xonTx[p])++;
            m_pfcPauseTxTrace(p, quanta);
        }
    }
    m_controlQueue.PushBack(frame);
    m_controlPending = true;
    TryTransmit();
}

void
PfcNetDevice::SetXoff(uint8_t priority, bool xoff)
{
    CheckPriority(priority, "PfcNetDevice::SetXoff");
    m_pauseGenerator.SetXoff(priority, xoff);
}

bool
PfcNetDevice::IsXoff(uint8_t priority) const
{
    CheckPriority(priority, "PfcNetDevice::IsXoff");
    return m_pauseGenerator.IsXoff(priority);
}

} // namespace ns3
