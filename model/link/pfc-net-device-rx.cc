/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: PfcNetDevice, the receive side: a frame off the cable, its framing read in place,
 * PFC frames to the pause receiver, the rest to the port's owner (frame forwarding) or up the
 * stack. The class is declared in pfc-net-device.h; its attributes, configuration and
 * NetDevice interface are in pfc-net-device.cc, the transmit side in pfc-net-device-tx.cc.
 */
#include "pfc-dot1q-header.h"
#include "pfc-net-device.h"

#include "ns3/abort.h"
#include "ns3/fabric-wire-header.h"

#include <cstring>

namespace ns3
{

namespace
{
constexpr uint16_t IPV4_ETHERTYPE = 0x0800;
} // namespace

void
PfcNetDevice::Receive(FabricFrame& fabricFrame)
{
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(fabricFrame.GetPacket()))
    {
        Drop(fabricFrame.GetPacket(), PfcDropReason::RX_ERROR);
        return;
    }
    if (m_traceSinks & PHY_RX_END)
    {
        m_phyRxEndTrace(fabricFrame.GetPacket());
    }
    if (m_traceSinks & SNIFFER)
    {
        m_snifferTrace(fabricFrame.GetPacket());
    }
    if (m_traceSinks & PROMISC)
    {
        m_promiscSnifferTrace(fabricFrame.GetPacket());
    }

    // The framing is read in place from the frame's head, not deserialized. A head built by
    // the sender (a NIC's headers) is used as it is; a shorter one (a frame from Send, whose
    // head is empty) is loaded from the packet.
    uint32_t frameBytes = fabricFrame.GetSize();
    if (frameBytes < ETH_HEADER_BYTES + FCS_BYTES)
    {
        Drop(fabricFrame.GetPacket(), PfcDropReason::MALFORMED);
        return;
    }
    if (fabricFrame.GetHeadBytes() < MIN_HEAD_BYTES)
    {
        fabricFrame.LoadHead(std::min<uint32_t>(RX_PEEK_BYTES, frameBytes - FCS_BYTES));
    }
    const uint8_t* h = fabricFrame.GetHead();
    uint32_t got = std::min<uint32_t>(fabricFrame.GetHeadBytes(), frameBytes - FCS_BYTES);
    uint16_t type = wire::GetU16(h + 12);
    uint32_t l2 = ETH_HEADER_BYTES;

    if (type == PfcHeader::MAC_CONTROL_ETHERTYPE)
    {
        Ptr<Packet> frame = fabricFrame.GetPacket();
        frame->RemoveAtEnd(FCS_BYTES);
        frame->RemoveAtStart(ETH_HEADER_BYTES);
        if (frame->GetSize() < PfcHeader::SIZE)
        {
            Drop(frame, PfcDropReason::MALFORMED);
            return;
        }
        PfcHeader pfc;
        frame->PeekHeader(pfc);
        if (pfc.GetOpcode() != PfcHeader::PFC_OPCODE)
        {
            Drop(frame, PfcDropReason::UNKNOWN_MAC_CONTROL);
            return;
        }
        m_pauseReceiver.Receive(pfc);
        return;
    }

    bool tagged = false;
    uint8_t priority = m_defaultPriority;
    if (type == PfcDot1qHeader::TPID)
    {
        if (got < ETH_HEADER_BYTES + DOT1Q_BYTES)
        {
            Drop(fabricFrame.GetPacket(), PfcDropReason::MALFORMED);
            return;
        }
        priority = static_cast<uint8_t>(h[14] >> 5);
        type = wire::GetU16(h + 16);
        l2 += DOT1Q_BYTES;
        tagged = true;
    }
    uint32_t payloadBytes = frameBytes - l2 - FCS_BYTES; // L3 packet + padding
    uint32_t l3Bytes = payloadBytes;
    if (type == IPV4_ETHERTYPE)
    {
        if (payloadBytes < 20 || got < l2 + 4)
        {
            Drop(fabricFrame.GetPacket(), PfcDropReason::MALFORMED);
            return;
        }
        const uint8_t* ip = h + l2;
        uint16_t totalLength = wire::GetU16(ip + 2);
        if (totalLength < 20 || totalLength > payloadBytes)
        {
            Drop(fabricFrame.GetPacket(), PfcDropReason::MALFORMED);
            return;
        }
        l3Bytes = totalLength;
        if (!tagged)
        {
            priority = m_dscpMap.Get(ip[1] >> 2);
        }
    }

    NetDevice::PacketType ptype;
    if (std::memcmp(h, m_addressBytes, 6) == 0)
    {
        ptype = NetDevice::PACKET_HOST;
    }
    else if ((h[0] & h[1] & h[2] & h[3] & h[4] & h[5]) == 0xff)
    {
        ptype = NetDevice::PACKET_BROADCAST;
    }
    else if (h[0] & 0x01)
    {
        ptype = NetDevice::PACKET_MULTICAST;
    }
    else
    {
        ptype = NetDevice::PACKET_OTHERHOST;
    }

    if (ptype == NetDevice::PACKET_HOST && type == IPV4_ETHERTYPE &&
        (m_owner || !m_frameRxCallback.IsNull()))
    {
        // Frame-level forwarding: the owner reads the fields it needs in place.
        m_frameCounters[priority].rxFrames++;
        m_frameCounters[priority].rxBytes += frameBytes;
        if (m_traceSinks & MAC_RX)
        {
            m_macRxTrace(fabricFrame.GetPacket()->CreateFragment(l2, l3Bytes));
        }
        if (m_owner)
        {
            m_owner->ReceiveFrame(m_ownerPort, this, fabricFrame, l2, priority);
        }
        else
        {
            m_frameRxCallback(this, fabricFrame.GetPacket(), l2, priority, h, got);
        }
        return;
    }

    Mac48Address dst;
    Mac48Address src;
    dst.CopyFrom(h);
    src.CopyFrom(h + 6);
    Ptr<Packet> packet = fabricFrame.GetPacket();
    packet->RemoveAtEnd(payloadBytes - l3Bytes + FCS_BYTES); // Ethernet padding and FCS
    packet->RemoveAtStart(l2);

    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, type, src, dst, ptype);
    }
    if (ptype == NetDevice::PACKET_OTHERHOST)
    {
        if (m_promiscCallback.IsNull())
        {
            Drop(packet, PfcDropReason::WRONG_DESTINATION);
        }
        return;
    }
    m_frameCounters[priority].rxFrames++;
    m_frameCounters[priority].rxBytes += frameBytes;
    if (m_traceSinks & MAC_RX)
    {
        m_macRxTrace(packet);
    }
    if (!m_pfcRxCallback.IsNull())
    {
        m_pfcRxCallback(this, packet, type, src, priority);
    }
    else if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, packet, type, src);
    }
    else if (m_promiscCallback.IsNull())
    {
        Drop(packet, PfcDropReason::NO_RECEIVER);
    }
}

} // namespace ns3
