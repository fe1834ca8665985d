/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: event-key order and the lazy-removal bookkeeping shared by ai-fabric's event
 * schedulers.
 */
#ifndef REMOVED_EVENT_SET_H
#define REMOVED_EVENT_SET_H

#include "ns3/scheduler.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief Strict ns-3 event order: by timestamp, then by uid (the order of scheduling).
 * \param a first key
 * \param b second key
 * \return true if \p a runs before \p b
 */
inline bool
EventKeyBefore(const Scheduler::EventKey& a, const Scheduler::EventKey& b)
{
    // Bitwise, not short-circuit: compiles to flag arithmetic instead of branches.
    return (a.m_ts < b.m_ts) | ((a.m_ts == b.m_ts) & (a.m_uid < b.m_uid));
}

/**
 * \ingroup ai-fabric-engine
 * \brief Same pending event: uids are unique among pending events.
 * \param a first key
 * \param b second key
 * \return true if both keys have the same timestamp and uid
 */
inline bool
SameEventKey(const Scheduler::EventKey& a, const Scheduler::EventKey& b)
{
    return a.m_uid == b.m_uid && a.m_ts == b.m_ts;
}

/**
 * \ingroup ai-fabric-engine
 * \brief Keys of events removed from a scheduler (Simulator::Remove) but still stored in it.
 *
 * A scheduler with lazy removal leaves a removed event where it is and records its key here.
 * Front(): the earliest removed key, so the scheduler drops its own front entry exactly when
 * it equals Front() (one comparison per pop). When removed entries grow past a share of the
 * stored ones, the scheduler filters them out in one pass: BuildIndex() makes Contains() an
 * O(1) lookup by uid (an open-addressing table of 2-4 slots per key), so a pass over n
 * entries costs O(n + r) for r removed keys.
 *
 * Memory: 16 bytes per removed key plus 8-16 bytes per key while the index is built.
 */
class RemovedEventSet
{
  public:
    /**
     * \brief Record a removed event.
     * \param key its key (uid >= 1; ns-3 never schedules uid 0)
     */
    void Add(const Scheduler::EventKey& key)
    {
        m_keys.push_back(key);
        std::push_heap(m_keys.begin(), m_keys.end(), Later);
    }

    /// \return true if no removed key is recorded
    bool IsEmpty() const
    {
        return m_keys.empty();
    }

    /// \return the number of removed keys recorded
    std::size_t GetSize() const
    {
        return m_keys.size();
    }

    /// \return the earliest removed key (undefined if IsEmpty())
    const Scheduler::EventKey& Front() const
    {
        return m_keys.front();
    }

    /// Forget the earliest removed key (its entry has been dropped).
    void PopFront()
    {
        std::pop_heap(m_keys.begin(), m_keys.end(), Later);
        m_keys.pop_back();
    }

    /// Index the recorded keys by uid for Contains().
    void BuildIndex()
    {
        std::size_t slots = 8;
        while (slots < 2 * m_keys.size())
        {
            slots *= 2;
        }
        m_index.assign(slots, 0);
        for (const auto& k : m_keys)
        {
            std::size_t s = Slot(k.m_uid);
            while (m_index[s] != 0)
            {
                s = (s + 1) & (m_index.size() - 1);
            }
            m_index[s] = k.m_uid;
        }
    }

    /**
     * \brief Whether an event was removed (after BuildIndex()).
     * \param key the event's key
     * \return true if its uid is recorded
     */
    bool Contains(const Scheduler::EventKey& key) const
    {
        for (std::size_t s = Slot(key.m_uid); m_index[s] != 0; s = (s + 1) & (m_index.size() - 1))
        {
            if (m_index[s] == key.m_uid)
            {
                return true;
            }
        }
        return false;
    }

    /// Forget every key and the index (after the scheduler filtered its entries).
    void Clear()
    {
        m_keys.clear();
        m_index.clear();
    }

  private:
    /**
     * \brief Heap order with the earliest key in front.
     * \param a first key
     * \param b second key
     * \return true if \p a runs after \p b
     */
    static bool Later(const Scheduler::EventKey& a, const Scheduler::EventKey& b)
    {
        return EventKeyBefore(b, a);
    }

    /**
     * \brief Home slot of a uid in the index.
     * \param uid the uid
     * \return the slot
     */
    std::size_t Slot(uint32_t uid) const
    {
        return static_cast<std::size_t>((uint64_t(uid) * 0x9E3779B97F4A7C15ull) >> 32) &
               (m_index.size() - 1);
    }

    std::vector<Scheduler::EventKey> m_keys; //!< removed keys, a min-heap
    std::vector<uint32_t> m_index;           //!< uid table for Contains(); 0 = empty slot
};

} // namespace ns3

#endif /* REMOVED_EVENT_SET_H */
