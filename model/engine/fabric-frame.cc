/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-frame.h"

#include "fabric-wire-header.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

static_assert(FabricFrame::HEAD_CAPACITY == FabricWireHeader::MAX_BYTES,
              "a frame's head is written into its packet as one FabricWireHeader");

FabricFrame::FabricFrame(const Ptr<Packet>& body, const uint8_t* head, uint32_t headBytes)
    : m_packet(PeekPointer(body)),
      m_headBytes(static_cast<uint8_t>(headBytes)),
      m_synced(headBytes == 0)
{
    NS_ABORT_MSG_IF(!body, "FabricFrame: null body packet");
    NS_ABORT_MSG_IF(headBytes > HEAD_CAPACITY,
                    "FabricFrame: a head of " << headBytes << " bytes; at most " << HEAD_CAPACITY);
    m_packet->Ref();
    m_size = headBytes + body->GetSize();
    std::memcpy(m_head, head, headBytes);
}

void
FabricFrame::BadZeroBodyFrame(uint32_t headBytes, uint32_t zeroBytes)
{
    NS_FATAL_ERROR("FabricFrame: a zero-body frame of "
                   << headBytes << " head bytes and " << zeroBytes
                   << " zero bytes; the head must be 0.." << HEAD_CAPACITY
                   << " bytes and the frame not empty");
}

void
FabricFrame::BadSizeDiscount(uint32_t bytes) const
{
    NS_FATAL_ERROR("FabricFrame: a size discount of "
                   << bytes << " bytes on a frame of " << m_size << " bytes; valid range is 0.."
                   << std::min<uint32_t>(255, m_size - 1)
                   << " (the frame must still be charged at least 1 byte)");
}

uint32_t
FabricFrame::CopyFromPacket(uint8_t* out, uint32_t offset, uint32_t bytes) const
{
    if (!m_packet)
    {
        // A zero body: everything after the head is zeros.
        uint32_t got = offset < m_size ? std::min(bytes, m_size - offset) : 0;
        std::memset(out, 0, got);
        return got;
    }
    // Packet::CopyData reads from the start only: copy the stale bytes too, keep the rest.
    uint8_t tmp[2 * HEAD_CAPACITY];
    uint32_t skip = m_staleBytes + (offset - m_headBytes);
    NS_ABORT_MSG_IF(skip + bytes > sizeof(tmp),
                    "FabricFrame: reading " << bytes << " bytes at offset " << offset
                                            << " is beyond the head");
    uint32_t got = m_packet->CopyData(tmp, skip + bytes);
    got = got > skip ? got - skip : 0;
    std::memcpy(out, tmp + skip, got);
    return got;
}

void
FabricFrame::ExtendHead(uint32_t bytes)
{
    uint32_t got = CopyFromPacket(m_head + m_headBytes, m_headBytes, bytes - m_headBytes);
    m_headBytes = static_cast<uint8_t>(m_headBytes + got);
    if (m_packet)
    {
        m_staleBytes = static_cast<uint8_t>(m_staleBytes + got);
    }
}

uint32_t
FabricFrame::CopyData(uint8_t* out, uint32_t bytes) const
{
    bytes = std::min(bytes, m_size);
    if (bytes <= m_headBytes)
    {
        std::memcpy(out, m_head, bytes);
        return bytes;
    }
    if (!m_packet || (!m_synced && m_staleBytes + bytes - m_headBytes <= 2 * HEAD_CAPACITY))
    {
        std::memcpy(out, m_head, m_headBytes);
        return m_headBytes + CopyFromPacket(out + m_headBytes, m_headBytes, bytes - m_headBytes);
    }
    // Read the whole frame from the packet (a read: the packet is not handed out).
    if (!m_synced)
    {
        Sync();
    }
    return m_packet->CopyData(out, bytes);
}

void
FabricFrame::Sync() const
{
    if (!m_packet)
    {
        if (m_size == 0)
        {
            return; // an empty frame has no packet to show
        }
        // A zero body gets its packet: the bytes after the head.
        Ptr<Packet> body = Create<Packet>(m_size - m_headBytes);
        m_packet = PeekPointer(body);
        m_packet->Ref(); // the frame's reference, kept when body goes
        m_staleBytes = 0;
    }
    if (m_staleBytes)
    {
        m_packet->RemoveAtStart(m_staleBytes);
    }
    if (m_headBytes)
    {
        m_packet->AddHeader(FabricWireHeader(FabricWireHeader::ETHERNET, m_head, m_headBytes));
    }
    m_staleBytes = m_headBytes;
    m_synced = true;
}

} // namespace ns3
