/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: an allocation-free event queue for packet-level fabric simulations.
 */
#ifndef QUATERNARY_HEAP_SCHEDULER_H
#define QUATERNARY_HEAP_SCHEDULER_H

#include "removed-event-set.h"

#include "ns3/scheduler.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief ns-3 event scheduler: an implicit 4-ary min-heap in one vector, with lazy removal.
 *
 * Why: every hop of every frame schedules two events, and a fabric keeps tens of thousands of
 * them pending. ns-3.37's default MapScheduler allocates a red-black tree node per event and
 * walks pointers that miss the caches; HeapScheduler restores the heap only downwards after
 * Remove() (events can then run out of order); CalendarScheduler allocates list nodes and
 * PriorityQueueScheduler removes in O(n). This scheduler stores events by value in a
 * contiguous array: no allocation once the array has grown, about log4(n) cache lines per
 * operation.
 *
 * Order: events run by (timestamp, uid), exactly the order every ns-3 scheduler gives, so a
 * simulation produces identical results with this scheduler and with MapScheduler.
 *
 * Removal (Simulator::Remove, used for disarmed timers) is lazy: the event's key goes into a
 * second, small min-heap and the entry is dropped when it reaches the top (the top is removed
 * exactly when it equals the earliest removed key: one comparison per pop; see
 * RemovedEventSet). Whenever removed entries exceed a quarter of the heap it is rebuilt
 * without them (O(n), Floyd), so memory stays within 4/3 of the pending events and rebuilds
 * cost amortized O(1) per removal. The top of the heap is never a removed entry, so PeekNext() and
 * IsEmpty() are exact.
 *
 * When to use it rather than DelayClassScheduler: when events are scheduled with many distinct
 * delays (more than DelayClassScheduler's MaxClasses, 64 by default: randomized or jittered
 * delays, many different link lengths or timer periods), which DelayClassScheduler sends to
 * its binary overflow heap. Measured (hold model, 10,000 pending events, 3 M pops, plain -O3):
 * 0.25-0.29 s against 0.41-0.50 s with 1,000 distinct delays, 0.26-0.36 s against 0.41-0.49 s
 * with continuous random delays. On a fabric, whose delays are a few dozen serialization and
 * propagation times, DelayClassScheduler wins: 12 % fewer instructions on the benchmark's p2p
 * (256 MiB) and 17 % fewer on its incast (callgrind, inside Simulator::Run).
 *
 * Use: `Simulator::SetScheduler(ObjectFactory("ns3::QuaternaryHeapScheduler"))` before the
 * first event, or `--SchedulerType=ns3::QuaternaryHeapScheduler` on any ns-3 program's
 * command line (the SchedulerType global value).
 *
 * Complexity: Insert O(log4 n) (O(1) on average for the mostly-increasing timestamps of a
 * network simulation), RemoveNext O(log4 n), Remove O(log r) for r removed entries pending,
 * plus the amortized rebuilds. Memory: 24 bytes per pending event, 16 per removed one.
 */
class QuaternaryHeapScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    QuaternaryHeapScheduler();
    ~QuaternaryHeapScheduler() override;

    /**
     * \brief Add an event.
     * \param ev the event; its (m_ts, m_uid) key must be unique among pending events
     */
    void Insert(const Event& ev) override;
    /// \return true if no event is pending
    bool IsEmpty() const override;
    /**
     * \brief The earliest pending event, without removing it.
     * \return the event with the smallest (timestamp, uid); undefined if IsEmpty()
     */
    Event PeekNext() const override;
    /**
     * \brief Remove and return the earliest pending event.
     * \return the event with the smallest (timestamp, uid); undefined if IsEmpty()
     */
    Event RemoveNext() override;
    /**
     * \brief Remove a pending event (Simulator::Remove).
     * \param ev the event, identified by its key; it must be pending (ns-3 checks that before
     *        calling). Its EventImpl is not touched after this call returns.
     */
    void Remove(const Event& ev) override;

    /// \return entries held, live plus removed-but-not-yet-dropped (for tests and diagnostics)
    std::size_t GetNEntries() const;

    /**
     * \brief Move the entry at \p i of an implicit 4-ary min-heap (event order) up to its
     *        place. The heap primitives are shared with DelayClassScheduler's overflow heap.
     * \param heap the heap
     * \param i index of the entry, < heap.size()
     */
    static void HeapSiftUp(std::vector<Event>& heap, std::size_t i);
    /**
     * \brief Move the entry at \p i of a 4-ary min-heap down to its place.
     * \param heap the heap
     * \param i index of the entry, < heap.size()
     */
    static void HeapSiftDown(std::vector<Event>& heap, std::size_t i);
    /**
     * \brief Remove the earliest entry of a non-empty 4-ary min-heap (Floyd's variant).
     * \param heap the heap, not empty
     */
    static void HeapPopTop(std::vector<Event>& heap);
    /**
     * \brief Turn any vector of events into a 4-ary min-heap, O(n).
     * \param heap the events
     */
    static void HeapMake(std::vector<Event>& heap);

  private:
    /// Drop removed entries that reached the top.
    void DropDeadTop();
    /// Rebuild the heap without the removed entries.
    void Compact();

    std::vector<Event> m_heap; //!< implicit 4-ary heap, earliest at [0]
    RemovedEventSet m_dead;    //!< keys removed but still in m_heap
};

/**
 * \ingroup ai-fabric-engine
 * \brief Install the event scheduler named \p typeName (for a `--scheduler` option).
 *
 * Call before the first event is scheduled. Every accepted scheduler gives identical results.
 * \param typeName an ns-3 Scheduler TypeId name, e.g. "ns3::DelayClassScheduler",
 *        "ns3::QuaternaryHeapScheduler", "ns3::MapScheduler" or "ns3::CalendarScheduler"
 *
 * Aborts, naming the value, if \p typeName is not a Scheduler type, or is
 * "ns3::HeapScheduler": in ns-3.37 its Remove() restores the heap only downwards, so events
 * can run out of order, and the model removes disarmed timers with Simulator::Remove.
 */
void SetEventScheduler(const std::string& typeName);

} // namespace ns3

#endif /* QUATERNARY_HEAP_SCHEDULER_H */
