/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "packet-recycler.h"

namespace ns3
{

void
PacketRecycler::SetCapacity(uint32_t packets)
{
    m_capacity = packets;
    for (auto& bin : m_bins)
    {
        if (bin.packets.size() > packets)
        {
            bin.packets.resize(packets);
        }
    }
}

void
PacketRecycler::AddCapacity(int64_t packets)
{
    int64_t capacity = int64_t(m_capacity) + packets;
    NS_ABORT_MSG_IF(capacity < 0 || capacity > int64_t(UINT32_MAX),
                    "PacketRecycler::AddCapacity(" << packets << ") on a capacity of " << m_capacity
                                                   << " gives " << capacity << ", outside 0.."
                                                   << UINT32_MAX);
    SetCapacity(static_cast<uint32_t>(capacity));
}

uint32_t
PacketRecycler::GetCapacity() const
{
    return m_capacity;
}

Ptr<Packet>
PacketRecycler::Get(uint32_t zeroBytes)
{
    if (m_pending)
    {
        Settle();
    }
    // Exact size first; else the smallest larger body, trimmed (a zero area shrinks for free).
    Bin* best = nullptr;
    for (auto& bin : m_bins)
    {
        if (bin.packets.empty() || bin.zeroBytes < zeroBytes)
        {
            continue;
        }
        if (!best || bin.zeroBytes < best->zeroBytes)
        {
            best = &bin;
        }
    }
    if (best)
    {
        Ptr<Packet> p = best->packets.back();
        best->packets.pop_back();
        if (best->zeroBytes > zeroBytes)
        {
            p->RemoveAtEnd(best->zeroBytes - zeroBytes);
        }
        m_reused++;
        return p;
    }
    m_created++;
    return Create<Packet>(zeroBytes);
}

void
PacketRecycler::Recycle(Ptr<Packet> packet, uint32_t headerBytes, bool mayHaveTags)
{
    if (m_capacity == 0)
    {
        return;
    }
    if (m_pending)
    {
        Settle();
    }
    m_pending = packet;
    m_pendingHeader = headerBytes;
    m_pendingTags = mayHaveTags;
}

void
PacketRecycler::Settle()
{
    Ptr<Packet> packet = m_pending; // ns-3.37's Ptr has no move: copy, then clear
    m_pending = nullptr;
    uint32_t headerBytes = m_pendingHeader;
    // Only the sole owner may reuse the object; GetReferenceCount() counts our Ptr.
    if (packet->GetReferenceCount() != 1 || packet->GetSize() < headerBytes)
    {
        return;
    }
    uint32_t zeroBytes = packet->GetSize() - headerBytes;
    Bin* target = nullptr;
    for (auto& bin : m_bins)
    {
        if (bin.zeroBytes == zeroBytes)
        {
            target = &bin;
            break;
        }
    }
    if (!target)
    {
        if (m_bins.size() == MAX_SIZES)
        {
            return;
        }
        m_bins.push_back(Bin{zeroBytes, {}});
        target = &m_bins.back();
    }
    if (target->packets.size() >= m_capacity)
    {
        return;
    }
    if (headerBytes)
    {
        packet->RemoveAtStart(headerBytes); // a frame's head is not in its packet (FabricFrame)
    }
    if (m_pendingTags)
    {
        packet->RemoveAllPacketTags();
        packet->RemoveAllByteTags();
    }
    target->packets.push_back(packet);
}

uint64_t
PacketRecycler::GetReused() const
{
    return m_reused;
}

uint64_t
PacketRecycler::GetCreated() const
{
    return m_created;
}

} // namespace ns3
