/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the per-priority transmit FIFO of a PfcNetDevice.
 */
#ifndef PFC_TX_QUEUE_H
#define PFC_TX_QUEUE_H

#include "ns3/packet.h"
#include "ns3/queue-size.h"

#include <array>
#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief One priority's transmit FIFO of a PfcNetDevice: frames in arrival order, with packet
 * and byte counts and a drop-tail limit.
 *
 * A plain FIFO rather than an ns-3 Queue<Packet> object: the device runs it for every frame,
 * and the ns-3 queue's list nodes, traced counters and logging were about a tenth of the data
 * path's instructions (ai-fabric benchmark). The device's TxEnqueue/TxDequeue traces and its
 * Drop trace (reason "queue full") report what an ns-3 queue's traces would.
 */
class PfcTxQueue
{
  public:
    /**
     * \brief Set the drop-tail limit.
     * \param size packets ("100p") or bytes ("1MB"); frames beyond it are refused
     */
    void SetMaxSize(QueueSize size)
    {
        m_maxSize = size;
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
        return m_maxSize.GetUnit() == QueueSizeUnit::PACKETS
                   ? m_frames.size() + 1 <= m_maxSize.GetValue()
                   : m_bytes + bytes <= m_maxSize.GetValue();
    }

    /**
     * \brief Append a frame (the caller checked Fits()).
     * \param frame the frame
     */
    void Push(Ptr<Packet> frame)
    {
        m_bytes += frame->GetSize();
        m_frames.push_back(std::move(frame));
    }

    /**
     * \brief Remove the head frame (the queue must not be empty).
     * \return the head frame
     */
    Ptr<Packet> Pop()
    {
        Ptr<Packet> frame = std::move(m_frames.front());
        m_frames.pop_front();
        m_bytes -= frame->GetSize();
        return frame;
    }

    /// \return the head frame, or null if the queue is empty
    Ptr<const Packet> Peek() const
    {
        return m_frames.empty() ? nullptr : Ptr<const Packet>(m_frames.front());
    }

    /// \return the size of the head frame in bytes (the queue must not be empty)
    uint32_t GetHeadBytes() const
    {
        return m_frames.front()->GetSize();
    }

    /// \return true if no frame is queued
    bool IsEmpty() const
    {
        return m_frames.empty();
    }

    /// \return the number of frames queued
    uint32_t GetNPackets() const
    {
        return static_cast<uint32_t>(m_frames.size());
    }

    /// \return the bytes queued (whole frames)
    uint64_t GetNBytes() const
    {
        return m_bytes;
    }

    /// Remove every frame.
    void Clear()
    {
        m_frames.clear();
        m_bytes = 0;
    }

  private:
    std::deque<Ptr<Packet>> m_frames;         //!< frames, head first
    uint64_t m_bytes{0};                      //!< bytes queued
    QueueSize m_maxSize{QueueSize("10000p")}; //!< drop-tail limit
};

/// The eight priority queues of a port, indexed by priority.
typedef std::array<PfcTxQueue, 8> PfcTxQueues;

} // namespace ns3

#endif /* PFC_TX_QUEUE_H */
