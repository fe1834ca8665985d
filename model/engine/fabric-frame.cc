/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-frame.h"

#include "fabric-wire-header.h"

#include "ns3/abort.h"

#include <algorithm>
#include <string>

namespace ns3
{

static_assert(FabricFrame::HEAD_CAPACITY == FabricWireHeader::MAX_BYTES,
              "a frame's head is written into its packet as one FabricWireHeader");

namespace fabric_frame_pool
{
__thread void* t_free = nullptr;
} // namespace fabric_frame_pool

FabricFrame::Body*
FabricFrame::GrowPool()
{
    // A block of 64 frames (8 KiB); blocks stay with the thread's pool, which therefore holds
    // at most the largest number of frames alive at once (rounded up to a block).
    constexpr uint32_t BLOCK_FRAMES = 64;
    Body* block = new Body[BLOCK_FRAMES];
    for (uint32_t i = 1; i + 1 < BLOCK_FRAMES; ++i)
    {
        block[i].next = &block[i + 1];
    }
    block[BLOCK_FRAMES - 1].next = nullptr;
    fabric_frame_pool::t_free = &block[1];
    return &block[0];
}

FabricFrame::FabricFrame(const Ptr<Packet>& body, const uint8_t* head, uint32_t headBytes)
{
    NS_ABORT_MSG_IF(!body, "FabricFrame: null body packet");
    NS_ABORT_MSG_IF(headBytes > HEAD_CAPACITY,
                    "FabricFrame: a head of " << headBytes << " bytes; at most " << HEAD_CAPACITY);
    m_body = NewBody();
    m_body->packet = PeekPointer(body);
    m_body->headBytes = static_cast<uint8_t>(headBytes);
    m_body->synced = headBytes == 0;
    m_body->packet->Ref();
    m_body->size = headBytes + body->GetSize();
    std::memcpy(m_body->head, head, headBytes);
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
    uint32_t size = GetSize();
    NS_FATAL_ERROR("FabricFrame: a size discount of "
                   << bytes << " bytes on a frame of " << size << " bytes; valid range is "
                   << (size == 0 ? std::string("none (the frame is empty)")
                                 : "0.." + std::to_string(std::min<uint32_t>(255, size - 1)))
                   << " (the frame must still be charged at least 1 byte)");
}

uint32_t
FabricFrame::CopyFromPacket(uint8_t* out, uint32_t offset, uint32_t bytes) const
{
    const Body* b = m_body;
    if (!b->packet)
    {
        // A zero body: everything after the head is zeros.
        uint32_t got = offset < b->size ? std::min(bytes, b->size - offset) : 0;
        std::memset(out, 0, got);
        return got;
    }
    // Packet::CopyData reads from the start only: copy the stale bytes too, keep the rest.
    uint8_t tmp[2 * HEAD_CAPACITY];
    uint32_t skip = b->staleBytes + (offset - b->headBytes);
    NS_ABORT_MSG_IF(skip + bytes > sizeof(tmp),
                    "FabricFrame: reading " << bytes << " bytes at offset " << offset
                                            << " is beyond the head");
    uint32_t got = b->packet->CopyData(tmp, skip + bytes);
    got = got > skip ? got - skip : 0;
    std::memcpy(out, tmp + skip, got);
    return got;
}

void
FabricFrame::ExtendHead(uint32_t bytes)
{
    Body* b = m_body;
    uint32_t got = CopyFromPacket(b->head + b->headBytes, b->headBytes, bytes - b->headBytes);
    b->headBytes = static_cast<uint8_t>(b->headBytes + got);
    if (b->packet)
    {
        b->staleBytes = static_cast<uint8_t>(b->staleBytes + got);
    }
}

uint32_t
FabricFrame::CopyData(uint8_t* out, uint32_t bytes) const
{
    const Body* b = m_body;
    if (!b)
    {
        return 0;
    }
    bytes = std::min(bytes, b->size);
    if (bytes <= b->headBytes)
    {
        std::memcpy(out, b->head, bytes);
        return bytes;
    }
    if (!b->packet || (!b->synced && b->staleBytes + bytes - b->headBytes <= 2 * HEAD_CAPACITY))
    {
        std::memcpy(out, b->head, b->headBytes);
        return b->headBytes +
               CopyFromPacket(out + b->headBytes, b->headBytes, bytes - b->headBytes);
    }
    // Read the whole frame from the packet (a read: the packet is not handed out).
    if (!b->synced)
    {
        Sync();
    }
    return b->packet->CopyData(out, bytes);
}

void
FabricFrame::Sync() const
{
    Body* b = m_body;
    if (!b->packet)
    {
        if (b->size == 0)
        {
            return; // a frame of 0 bytes has no packet to show
        }
        // A zero body gets its packet: the bytes after the head.
        Ptr<Packet> body = Create<Packet>(b->size - b->headBytes);
        b->packet = PeekPointer(body);
        b->packet->Ref(); // the frame's reference, kept when body goes
        b->staleBytes = 0;
    }
    if (b->staleBytes)
    {
        b->packet->RemoveAtStart(b->staleBytes);
    }
    if (b->headBytes)
    {
        b->packet->AddHeader(FabricWireHeader(FabricWireHeader::ETHERNET, b->head, b->headBytes));
    }
    b->staleBytes = b->headBytes;
    b->synced = true;
}

} // namespace ns3
