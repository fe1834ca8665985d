/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a growable FIFO ring for the per-packet path.
 */
#ifndef FABRIC_RING_H
#define FABRIC_RING_H

#include "ns3/abort.h"
#include "ns3/assert.h"

#include <cstdint>
#include <iterator>
#include <memory>
#include <utility>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief A FIFO of movable values in one power-of-two array that doubles when full: the queue
 *        of a port, a cable or a NIC arbiter, where std::deque's block bookkeeping costs more
 *        than the work per element (ai-fabric benchmark, doc "Benchmarks").
 *
 * PushBack() and PopFront() are O(1) and allocation-free once the ring has reached the
 * largest size it holds at once; the ring never shrinks (Clear() frees it). Memory is the
 * largest number of elements held at once, rounded up to a power of two (at least 8); an empty
 * ring that never held an element allocates nothing (std::deque allocates ~600 bytes when it is
 * constructed: the per-QP and per-connection queues of a 1,024-GPU fabric spent ~150 MB so).
 * PopFront() and PopBack() move the element out and leave its slot in its moved-from state
 * (free for a frame handle); DropFront() and DropBack() reset the slot to T(), for elements
 * whose moved-from state still holds something (an ns-3 Callback or Ptr: their moves copy).
 *
 * Unlike std::deque, PushBack() may move the elements (when the ring grows): a reference or
 * iterator to an element is valid only until the next PushBack().
 *
 * Errors: Front(), Back(), PopFront() and PopBack() on an empty ring abort with a message
 * (NS_ASSERT in debug builds only, as they are on every packet's path); more than 2^31
 * elements abort with a message naming the count.
 *
 * \tparam T the element: default-constructible and move-assignable
 */
template <typename T>
class FabricRing
{
  public:
    /// \return true if the ring holds no element
    bool IsEmpty() const
    {
        return m_count == 0;
    }

    /// \return how many elements the ring holds
    uint32_t GetSize() const
    {
        return m_count;
    }

    /// \return the oldest element (the ring is not empty)
    T& Front()
    {
        NS_ASSERT_MSG(m_count > 0, "FabricRing::Front on an empty ring");
        return m_slots[m_head];
    }

    /// \return the oldest element (the ring is not empty)
    const T& Front() const
    {
        NS_ASSERT_MSG(m_count > 0, "FabricRing::Front on an empty ring");
        return m_slots[m_head];
    }

    /// \return the newest element (the ring is not empty)
    T& Back()
    {
        NS_ASSERT_MSG(m_count > 0, "FabricRing::Back on an empty ring");
        return m_slots[(m_head + m_count - 1) & m_mask];
    }

    /**
     * \brief Append an element (the ring doubles first when full).
     * \param value the element, moved in
     * \return the stored element
     */
    T& PushBack(T&& value)
    {
        if (m_count == Capacity())
        {
            Grow();
        }
        T& slot = m_slots[(m_head + m_count) & m_mask];
        slot = std::move(value);
        m_count++;
        return slot;
    }

    /// Append a copy of \p value. \param value the element \return the stored element
    T& PushBack(const T& value)
    {
        return PushBack(T(value));
    }

    /**
     * \brief Remove the oldest element.
     * \return it, moved out (its slot is left in its moved-from state)
     */
    T PopFront()
    {
        NS_ASSERT_MSG(m_count > 0, "FabricRing::PopFront on an empty ring");
        T& slot = m_slots[m_head];
        m_head = (m_head + 1) & m_mask;
        m_count--;
        return std::move(slot);
    }

    /**
     * \brief Remove the newest element.
     * \return it, moved out
     */
    T PopBack()
    {
        NS_ASSERT_MSG(m_count > 0, "FabricRing::PopBack on an empty ring");
        m_count--;
        return std::move(m_slots[(m_head + m_count) & m_mask]);
    }

    /// Remove the oldest element, resetting its slot to T() (the ring is not empty).
    void DropFront()
    {
        NS_ASSERT_MSG(m_count > 0, "FabricRing::DropFront on an empty ring");
        m_slots[m_head] = T();
        m_head = (m_head + 1) & m_mask;
        m_count--;
    }

    /// Remove the newest element, resetting its slot to T() (the ring is not empty).
    void DropBack()
    {
        NS_ASSERT_MSG(m_count > 0, "FabricRing::DropBack on an empty ring");
        m_count--;
        m_slots[(m_head + m_count) & m_mask] = T();
    }

    /**
     * \brief The element \p i places from the front.
     * \param i 0..GetSize() - 1
     * \return it
     */
    T& operator[](uint32_t i)
    {
        NS_ASSERT_MSG(i < m_count, "FabricRing index " << i << " of " << m_count);
        return m_slots[(m_head + i) & m_mask];
    }

    /**
     * \brief The element \p i places from the front.
     * \param i 0..GetSize() - 1
     * \return it
     */
    const T& operator[](uint32_t i) const
    {
        NS_ASSERT_MSG(i < m_count, "FabricRing index " << i << " of " << m_count);
        return m_slots[(m_head + i) & m_mask];
    }

    /// Drop every element and free the storage.
    void Clear()
    {
        m_slots.reset();
        m_mask = 0;
        m_head = 0;
        m_count = 0;
    }

    /// Exchange the contents of two rings (no element moves). \param other the other ring
    void Swap(FabricRing& other) noexcept
    {
        std::swap(m_slots, other.m_slots);
        std::swap(m_mask, other.m_mask);
        std::swap(m_head, other.m_head);
        std::swap(m_count, other.m_count);
    }

    /// A forward iterator over the elements, front to back (invalidated by PushBack()).
    template <typename Ring, typename Value>
    class Iterator
    {
      public:
        using iterator_category = std::forward_iterator_tag; //!< forward only
        using value_type = T;                                //!< the element
        using difference_type = std::ptrdiff_t;              //!< distance
        using pointer = Value*;                              //!< pointer to an element
        using reference = Value&;                            //!< reference to an element

        /// \param ring the ring \param i the position, 0..GetSize()
        Iterator(Ring* ring, uint32_t i)
            : m_ring(ring),
              m_i(i)
        {
        }

        /// \return the element here
        Value& operator*() const
        {
            return (*m_ring)[m_i];
        }

        /// \return the element here
        Value* operator->() const
        {
            return &(*m_ring)[m_i];
        }

        /// Step to the next element. \return this iterator
        Iterator& operator++()
        {
            ++m_i;
            return *this;
        }

        /// \param o another iterator of the same ring \return true if at the same position
        bool operator==(const Iterator& o) const
        {
            return m_i == o.m_i;
        }

        /// \param o another iterator of the same ring \return true if at another position
        bool operator!=(const Iterator& o) const
        {
            return m_i != o.m_i;
        }

      private:
        Ring* m_ring; //!< the ring
        uint32_t m_i; //!< position from the front
    };

    /// \return an iterator at the front
    Iterator<FabricRing, T> begin()
    {
        return {this, 0};
    }

    /// \return an iterator past the back
    Iterator<FabricRing, T> end()
    {
        return {this, m_count};
    }

    /// \return an iterator at the front
    Iterator<const FabricRing, const T> begin() const
    {
        return {this, 0};
    }

    /// \return an iterator past the back
    Iterator<const FabricRing, const T> end() const
    {
        return {this, m_count};
    }

  private:
    /// \return the slots allocated (0 or a power of two >= 8)
    uint32_t Capacity() const
    {
        return m_slots ? m_mask + 1 : 0;
    }

    /// Double the storage (8 slots at first), keeping the order.
    void Grow()
    {
        uint32_t capacity = Capacity();
        NS_ABORT_MSG_IF(capacity >= (1u << 31),
                        "FabricRing: more than " << capacity << " elements held at once");
        uint32_t bigger = capacity ? 2 * capacity : 8;
        auto slots = std::make_unique<T[]>(bigger);
        for (uint32_t i = 0; i < m_count; ++i)
        {
            slots[i] = std::move(m_slots[(m_head + i) & m_mask]);
        }
        m_slots = std::move(slots);
        m_mask = bigger - 1;
        m_head = 0;
    }

    std::unique_ptr<T[]> m_slots; //!< the storage (Capacity() slots), or null
    uint32_t m_mask{0};           //!< Capacity() - 1
    uint32_t m_head{0};           //!< index of the front element
    uint32_t m_count{0};          //!< elements held
};

} // namespace ns3

#endif /* FABRIC_RING_H */
