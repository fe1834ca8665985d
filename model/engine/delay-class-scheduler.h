/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: an event queue with O(1) operations for simulations whose events are scheduled
 * after a few recurring delays (serialization, propagation, timer periods).
 */
#ifndef DELAY_CLASS_SCHEDULER_H
#define DELAY_CLASS_SCHEDULER_H

#include "fabric-match.h"
#include "removed-event-set.h"

#include "ns3/abort.h"
#include "ns3/scheduler.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief ns-3 event scheduler that keeps one FIFO per recurring delay: O(1) insert and pop for
 *        the events of a packet-level fabric, exactly ns-3's (timestamp, uid) event order.
 *
 * Why: almost every event of a fabric simulation is scheduled "now + d" where d is one of a
 * few dozen values: a frame's serialization time at each link rate and frame size, the same
 * plus a cable's propagation delay, timer periods. Events scheduled with the same delay d are
 * inserted in simulation-time order with increasing uids, so their keys (now + d, uid) arrive
 * already sorted: a FIFO per delay ("delay class") keeps them in order with no comparisons.
 * The earliest event is the smallest FIFO head; the heads sit in a small binary heap (one
 * entry per non-empty class, typically 10-60, so it stays in the L1 cache). A pending-event
 * heap of n entries costs about log4(n) cache-missing levels per pop (about 450 instructions at
 * 10,000 pending events); this costs a FIFO pop plus a sift through the small head heap.
 *
 * Order: identical to every ns-3 scheduler. The delay of an inserted event is taken relative
 * to the timestamp of the last event removed (the simulator's current time); an event whose
 * key is not after the tail of its class FIFO (cannot happen in a simulation, but is checked)
 * and events of delays that have no class go to an overflow heap (4-ary), which takes part in
 * the head heap like a class. So the order never depends on the class bookkeeping.
 *
 * Classes: a class pays off only for a delay with several events pending at once (every port
 * of one rate sending frames of one size); a delay whose events come one at a time (a paced
 * sender's next packet, the remainder of a transmission, a timer re-armed when it fires) would
 * hold a class with one entry, make the head heap deeper for every pop and churn the class
 * table. So with AdmitOnOverlap (attribute, default true) a delay gets a class only when it is
 * inserted again (remembered in a small hashed filter) and, once OVERLAP_ONLY_CLASSES (8)
 * classes are busy, only while the previous event inserted with it is still pending (a small
 * workload's one-at-a-time delays keep their classes: its head heap is shallow anyway);
 * otherwise the event goes to the overflow heap. (In the
 * HPCC-lineage WebSearch benchmark this takes the head heap from 30 to 10 entries on average
 * and the class creations from 564,000 to a few hundred.) At most MaxClasses (attribute,
 * 1..4096, default 64) classes exist at once. When a new delay finds every class taken, the
 * classes whose FIFO is empty are released (O(MaxClasses)); if fewer than half were empty,
 * the event goes to the overflow heap instead. Workloads with many distinct delays (random
 * pacing, jittered timers) therefore degrade gracefully to a heap; for those,
 * QuaternaryHeapScheduler is faster (1.4-1.9x, see its comment).
 *
 * Removal (Simulator::Remove, used for disarmed timers) is lazy, as in
 * QuaternaryHeapScheduler (see RemovedEventSet): the entry is dropped when it reaches the front;
 * when removed entries exceed a quarter of all entries, all FIFOs and the overflow heap are
 * filtered in one O(n) pass. The front is never a removed entry,
 * so PeekNext() and IsEmpty() are exact.
 *
 * Use: `SetEventScheduler("ns3::DelayClassScheduler")`, `--SchedulerType=ns3::DelayClassScheduler`
 * on any ns-3 program's command line, or Simulator::SetScheduler before the first event.
 *
 * Memory: 24 bytes per pending event in ring buffers that grow by doubling and are kept (at
 * most twice the peak pending events of each class), 16 bytes per removed entry, about
 * 100 bytes per class.
 */
class DelayClassScheduler final : public Scheduler
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DelayClassScheduler();
    ~DelayClassScheduler() override;

    /**
     * \copydoc QuaternaryHeapScheduler::Insert
     * Also, m_ts must not be before the last event removed (ns-3 guarantees it).
     */
    void Insert(const Event& ev) override
    {
        ++m_entries;
        if (ev.key.m_ts >= m_now)
        {
            int32_t c = ClassOf(ev.key.m_ts - m_now);
            if (c != NO_CLASS)
            {
                Fifo& f = m_fifos[c];
                if (f.size == 0)
                {
                    StartClass(f, c, ev);
                    return;
                }
                if (!EventKeyBefore(ev.key, f.Back().key))
                {
                    PushBack(f, ev);
                    return;
                }
            }
        }
        InsertOverflow(ev);
    }

    /**
     * \brief Insert an event whose key was drawn \p delay before its time, at a moment already
     *        past (a reservation committed late: FabricSimulatorImpl::Commit). It goes into the
     *        class of \p delay at its place among the last few entries (the events of that
     *        delay inserted since the reservation), else into the overflow heap. Same order
     *        as Insert(); only where the event is kept differs.
     * \param ev the event; m_ts must not be before the last event removed
     * \param delay the delay its key was drawn with, in time steps (its timestamp minus the
     *        time of the reservation)
     */
    void InsertLate(const Event& ev, uint64_t delay)
    {
        ++m_entries;
        if (ev.key.m_ts < m_now || !InsertIntoClass(ev, delay))
        {
            InsertOverflow(ev); // its remaining delay is a one-off: no class for it
        }
    }

    /// \copydoc QuaternaryHeapScheduler::IsEmpty
    bool IsEmpty() const override
    {
        return m_heads.empty(); // the front is never a removed entry
    }

    /// \copydoc QuaternaryHeapScheduler::PeekNext
    Event PeekNext() const override;

    /**
     * \copydoc QuaternaryHeapScheduler::RemoveNext
     * Its timestamp becomes the time from which later inserts' delays count.
     */
    Event RemoveNext() override
    {
        NS_ABORT_MSG_IF(m_heads.empty(), "DelayClassScheduler::RemoveNext on an empty queue");
        Event next = TakeFront();
        m_now = next.key.m_ts;
        if (!m_removed.IsEmpty())
        {
            if (!m_heads.empty() && HeadIs(m_heads.front(), m_removed.Front()))
            {
                DropRemovedFront();
            }
            if (m_removed.GetSize() > m_entries / 4)
            {
                Compact(); // popping live events also shifts the live/removed balance
            }
        }
        return next;
    }

    /// \copydoc QuaternaryHeapScheduler::Remove
    void Remove(const Event& ev) override;

    /**
     * \brief Entries held, including removed events not yet dropped (for tests and memory
     *        accounting).
     * \return the number of entries
     */
    std::size_t GetNEntries() const;
    /**
     * \brief Set the MaxClasses attribute.
     * \param maxClasses most classes kept at once, 1..4096 (the attribute checker enforces it)
     *
     * Aborts if events were already inserted (the lookup table is sized from it).
     */
    void SetMaxClasses(uint32_t maxClasses);
    /// \return the MaxClasses attribute
    uint32_t GetMaxClasses() const;
    /**
     * \brief Set the AdmitOnOverlap attribute.
     * \param on true: a delay gets a class only when its events overlap (see the class
     *        comment); false: every new delay gets a class while one is free
     */
    void SetAdmitOnOverlap(bool on);
    /// \return the AdmitOnOverlap attribute
    bool GetAdmitOnOverlap() const;
    /**
     * \brief Delay classes currently assigned (some may be empty).
     * \return the number of classes, 0..MaxClasses
     */
    std::size_t GetNClasses() const;
    /**
     * \brief Entries in the overflow heap (events of delays that found no free class).
     * \return the number of entries
     */
    std::size_t GetNOverflow() const;

  private:
    /// One delay class: a ring buffer of events in key order.
    struct Fifo
    {
        uint64_t delay{0};       //!< the delay of this class, in time steps
        std::vector<Event> ring; //!< storage; size is a power of two (or 0)
        std::size_t head{0};     //!< index of the front entry
        std::size_t size{0};     //!< entries held

        const Event& Front() const //!< \return the front entry (size > 0)
        {
            return ring[head];
        }

        const Event& Back() const //!< \return the last entry (size > 0)
        {
            return ring[(head + size - 1) & (ring.size() - 1)];
        }
    };

    /// A head-heap entry: the order-relevant part of one source's front key (a class, or
    /// the overflow heap) packed into one 128-bit integer, timestamp in the high 64 bits, uid
    /// in the next 32, source in the low 32, so that one unsigned comparison orders two
    /// entries as EventKeyBefore orders their keys (uids are unique: the source never decides)
    /// and four entries share a cache line.
    struct Head
    {
        __uint128_t key; //!< ts << 64 | uid << 32 | source

        uint32_t Source() const //!< \return class index, or OVERFLOW_SOURCE
        {
            return static_cast<uint32_t>(key);
        }
    };

    static_assert(sizeof(Head) == 16, "a head entry is 16 bytes");

    /**
     * \brief A head-heap entry for a front key.
     * \param key the source's front key
     * \param source class index, or OVERFLOW_SOURCE
     * \return the entry
     */
    static Head MakeHead(const EventKey& key, uint32_t source)
    {
        return Head{(static_cast<__uint128_t>(key.m_ts) << 64) |
                    (static_cast<__uint128_t>(key.m_uid) << 32) | source};
    }

    /**
     * \brief Event order of two head entries.
     * \param a first entry
     * \param b second entry
     * \return true if \p a's key runs first
     */
    static bool HeadBefore(const Head& a, const Head& b)
    {
        return a.key < b.key;
    }

    /**
     * \brief Whether a head entry holds a given key.
     * \param h the entry
     * \param key the key
     * \return true if same timestamp and uid
     */
    static bool HeadIs(const Head& h, const EventKey& key)
    {
        return (h.key >> 32) == ((static_cast<__uint128_t>(key.m_ts) << 32) | key.m_uid);
    }

    static constexpr uint32_t OVERFLOW_SOURCE = 0xffffffffu; //!< the overflow heap's source id
    static constexpr int32_t NO_CLASS = -1;                  //!< no class (table slot / lookup)

    /**
     * \brief Find or assign the class of a delay.
     * \param delay the delay, in time steps
     * \return the class index, or NO_CLASS if every class is taken
     */
    int32_t ClassOf(uint64_t delay)
    {
        int32_t c = RecentClass(delay);
        return c != NO_CLASS ? c : LookupClass(delay);
    }

    /**
     * \brief The class of a delay from the recent-lookup cache.
     * \param delay the delay, in time steps
     * \return the class index, or NO_CLASS if the cache does not hold the delay
     */
    int32_t RecentClass(uint64_t delay) const
    {
        int hit = FirstMatchOf4(m_recentDelay, delay);
        return hit >= 0 ? m_recentClass[hit] : NO_CLASS;
    }

    /**
     * \brief The lookup-table slot of a delay's class, or the free slot where it would go.
     * \param delay the delay, in time steps
     * \return the slot index (the table must not be empty)
     */
    std::size_t FindSlot(uint64_t delay) const;

    /**
     * \brief Put the first event into an empty class FIFO and its key into the head heap.
     * \param f the class, empty
     * \param c its index
     * \param ev the event
     */
    void StartClass(Fifo& f, int32_t c, const Event& ev)
    {
        ++m_busyClasses;
        PushBack(f, ev);
        PushHead(MakeHead(ev.key, static_cast<uint32_t>(c)));
    }

    /**
     * \brief ClassOf() past the recent-lookup cache: the lookup table, or a new class.
     * \param delay the delay, in time steps
     * \return the class index, or NO_CLASS if every class is taken
     */
    int32_t LookupClass(uint64_t delay);

    /**
     * \brief Put a lookup in the recent-lookup cache (round robin).
     * \param delay the delay
     * \param c its class
     */
    void Remember(uint64_t delay, int32_t c)
    {
        m_recentDelay[m_recentNext] = delay;
        m_recentClass[m_recentNext] = c;
        m_recentNext = (m_recentNext + 1) % RECENT;
    }

    /**
     * \brief Release the classes whose FIFO is empty and renumber the others.
     */
    void ReleaseEmptyClasses();
    /// Rebuild the delay -> class lookup table from m_fifos.
    void RebuildTable();
    /// Rebuild the head heap from the class FIFOs and the overflow heap.
    void RebuildHeads();

    /**
     * \brief Append an event to a class FIFO.
     * \param f the class
     * \param ev the event, not before f's last entry
     */
    static void PushBack(Fifo& f, const Event& ev)
    {
        if (f.size == f.ring.size())
        {
            Grow(f);
        }
        f.ring[(f.head + f.size) & (f.ring.size() - 1)] = ev;
        ++f.size;
    }

    /**
     * \brief Double a full class FIFO's ring, unrolling it so that the front is at index 0.
     * \param f the class
     */
    static void Grow(Fifo& f);
    /**
     * \brief InsertLate() into an existing class of \p delay, at the event's place: found by
     *        binary search, at most LATE_SHIFT entries from the tail (they move one slot).
     * \param ev the event
     * \param delay its delay
     * \return true if inserted (false: no class, or too far from the tail)
     */
    bool InsertIntoClass(const Event& ev, uint64_t delay);
    /// Busy classes from which on a delay needs overlapping events to get a class.
    static constexpr uint32_t OVERLAP_ONLY_CLASSES = 8;
    /// Most entries InsertLate() moves to make room in a class FIFO.
    static constexpr std::size_t LATE_SHIFT = 16;

    /**
     * \brief Add an event to the overflow heap.
     * \param ev the event
     */
    void InsertOverflow(const Event& ev);

    /**
     * \brief Remove the front event of the whole queue (removed or not).
     * \return the event
     */
    Event TakeFront()
    {
        --m_entries;
        Head& top = m_heads.front();
        if (top.Source() == OVERFLOW_SOURCE)
        {
            return TakeOverflowFront();
        }
        Fifo& f = m_fifos[top.Source()];
        Event ev = f.ring[f.head];
        f.head = (f.head + 1) & (f.ring.size() - 1);
        if (--f.size > 0)
        {
            top = MakeHead(f.Front().key, top.Source());
            SiftDownFront();
        }
        else
        {
            --m_busyClasses;
            PopHead();
        }
        return ev;
    }

    /**
     * \brief TakeFront() when the front is the overflow heap's.
     * \return the event
     */
    Event TakeOverflowFront();

    /// Remove the head heap's front entry (its source ran empty).
    void PopHead()
    {
        Head last = m_heads.back();
        m_heads.pop_back();
        if (!m_heads.empty())
        {
            m_heads[0] = last;
            SiftDownFront();
        }
    }

    /// Drop removed entries that reached the front.
    void DropRemovedFront();
    /// Filter removed entries out of every FIFO and the overflow heap.
    void Compact();

    /**
     * \brief Add a head-heap entry.
     * \param h the entry
     */
    void PushHead(const Head& h)
    {
        m_heads.push_back(h);
        SiftUpHead(m_heads.size() - 1);
    }

    /**
     * \brief Move a head-heap entry up to its place.
     * \param i its index
     */
    void SiftUpHead(std::size_t i)
    {
        Head moving = m_heads[i];
        while (i > 0)
        {
            std::size_t parent = (i - 1) / 2;
            if (!HeadBefore(moving, m_heads[parent]))
            {
                break;
            }
            m_heads[i] = m_heads[parent];
            i = parent;
        }
        m_heads[i] = moving;
    }

    /// Move the head heap's front entry down to its place.
    void SiftDownFront()
    {
        Head* h = m_heads.data();
        const std::size_t n = m_heads.size();
        const Head moving = h[0];
        std::size_t i = 0;
        std::size_t child = 1;
        while (child < n)
        {
            // The earlier child, chosen without a branch when both exist.
            child += (child + 1 < n && HeadBefore(h[child + 1], h[child])) ? 1 : 0;
            if (!HeadBefore(h[child], moving))
            {
                break;
            }
            h[i] = h[child];
            i = child;
            child = 2 * i + 1;
        }
        h[i] = moving;
    }

    uint32_t m_maxClasses;        //!< attribute MaxClasses
    uint64_t m_now{0};            //!< timestamp of the last event removed
    std::vector<Fifo> m_fifos;    //!< the classes
    std::vector<int32_t> m_table; //!< open-addressing delay -> class table (power of two)

    /// An admission-filter slot: the last delay hashed to it and the time its event runs.
    struct Sighting
    {
        uint64_t delay{UINT64_MAX}; //!< the delay
        uint64_t ts{0};             //!< when the event inserted with it runs
    };

    std::vector<Sighting> m_seen; //!< admission filter, one slot per hash
    bool m_admitOnOverlap{true};  //!< attribute AdmitOnOverlap
    /// Entries of the recent-lookup cache (a port alternates a few delays: end of
    /// transmission, arrival at the peer, timers).
    static constexpr std::size_t RECENT = 4;
    /// recent lookups: delays
    std::array<uint64_t, RECENT> m_recentDelay{UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
    /// recent lookups: their classes
    std::array<int32_t, RECENT> m_recentClass{NO_CLASS, NO_CLASS, NO_CLASS, NO_CLASS};
    uint32_t m_recentNext{0};  //!< entry replaced next
    std::vector<Head> m_heads; //!< binary min-heap of source fronts
    /// overflow heap: 4-ary min-heap in event order (QuaternaryHeapScheduler's primitives)
    std::vector<Event> m_overflow;
    RemovedEventSet m_removed; //!< keys removed but still held
    std::size_t m_entries{0};  //!< entries held, including removed ones
    uint32_t m_busyClasses{0}; //!< classes whose FIFO is not empty
};

} // namespace ns3

#endif /* DELAY_CLASS_SCHEDULER_H */
