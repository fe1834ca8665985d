/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the per-priority transmit FIFO of a PfcNetDevice.
 */
#ifndef PFC_TX_QUEUE_H
#define PFC_TX_QUEUE_H

#include "ns3/fabric-frame.h"
#include "ns3/fabric-ring.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief One priority's transmit FIFO of a PfcNetDevice: frames in arrival order, with packet
 * and byte counts and a drop-tail limit.
 *
 * A plain FIFO rather than an ns-3 Queue<Packet> object: the device runs it for every frame,
 * and the ns-3 queue's list nodes, traced counters and logging were about a tenth of the data
 * path's instructions (ai-fabric benchmark). The device's TxEnqueue/TxDequeue traces and its
 * Drop trace (reason "queue full") report what an ns-3 queue's traces would.
 */
class alignas(64) PfcTxQueue
{
  public:
    /**
     * \brief Set the drop-tail limit.
     * \param size packets ("100p") or bytes ("1MB"); frames beyond it are refused
     */
    void SetMaxSize(QueueSize size)
    {
        m_maxSize = size;
        m_limitInPackets = size.GetUnit() == QueueSizeUnit::PACKETS;
        m_limit = size.GetValue();
    }

    /// \return the drop-tail limit
    QueueSize GetMaxSize() const
    {
        return m_maxSize;
    }

    /**
     * \param bytes size of a frame
     * \return true if a frame of that size fits under the limit
     */
    bool Fits(uint32_t bytes) const
    {
        return m_limitInPackets ? m_ring.GetSize() + 1ull <= m_limit : m_bytes + bytes <= m_limit;
    }

    /**
     * \brief Append a frame (the caller checked Fits()).
     * \param frame the frame (moved into the queue)
     * \param tag a value kept with the frame and given back by Pop() (the queue's owner's
     *        bookkeeping travels with the frame instead of in a FIFO of its own)
     */
    void Push(FabricFrame&& frame, uint64_t tag = 0)
    {
        m_bytes += frame.GetSize();
        m_ring.PushBack(Slot{std::move(frame), tag});
    }

    /**
     * \brief Append a packet holding a whole frame (the caller checked Fits()).
     * \param frame the frame
     * \param tag see Push(FabricFrame&&, uint64_t)
     */
    void Push(const Ptr<Packet>& frame, uint64_t tag = 0)
    {
        Push(FabricFrame(frame), tag);
    }

    /**
     * \brief Remove the head frame (the queue must not be empty).
     * \param tag if not null, receives the tag the frame was pushed with
     * \return the head frame
     */
    FabricFrame Pop(uint64_t* tag = nullptr)
    {
        Slot slot = m_ring.PopFront();
        if (tag)
        {
            *tag = slot.tag;
        }
        m_bytes -= slot.frame.GetSize();
        return std::move(slot.frame);
    }

    /// \return the head frame's packet (with its current headers), or null if the queue is
    ///         empty
    Ptr<const Packet> Peek() const
    {
        return m_ring.IsEmpty() ? nullptr : Ptr<const Packet>(m_ring.Front().frame.GetPacket());
    }

    /// \return the size of the head frame in bytes (the queue must not be empty)
    uint32_t GetHeadBytes() const
    {
        return m_ring.Front().frame.GetSize();
    }

    /// \return true if no frame is queued
    bool IsEmpty() const
    {
        return m_ring.IsEmpty();
    }

    /// \return the number of frames queued
    uint32_t GetNPackets() const
    {
        return m_ring.GetSize();
    }

    /// \return the bytes queued (whole frames)
    uint64_t GetNBytes() const
    {
        return m_bytes;
    }

    /// Remove every frame.
    void Clear()
    {
        m_ring.Clear();
        m_bytes = 0;
    }

  private:
    /// A queued frame and its owner's tag.
    struct Slot
    {
        FabricFrame frame; //!< the frame
        uint64_t tag{0};   //!< given to Push
    };

    /// Frames in a power-of-two ring: an idle port allocates nothing (a std::deque allocates
    /// ~600 bytes even when empty, 4.8 KB per port for eight priorities).
    FabricRing<Slot> m_ring;
    uint64_t m_bytes{0};                      //!< bytes queued
    QueueSize m_maxSize{QueueSize("10000p")}; //!< drop-tail limit
    bool m_limitInPackets{true};              //!< m_maxSize counts packets (else bytes)
    uint64_t m_limit{10000};                  //!< m_maxSize's value, read per frame
};

static_assert(sizeof(PfcTxQueue) == 64, "a PfcTxQueue fills exactly one cache line");

/// The eight priority queues of a port, indexed by priority.
typedef std::array<PfcTxQueue, 8> PfcTxQueues;

} // namespace ns3

#endif /* PFC_TX_QUEUE_H */
