/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: an event order for simultaneous events that does not depend on when they were
 * scheduled, so a run split over MPI processes gives the sequential run's results.
 */
#ifndef CAUSAL_ORDER_SCHEDULER_H
#define CAUSAL_ORDER_SCHEDULER_H

#include "quaternary-heap.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <array>
#include <cstdint>
#include <unordered_set>
#include <vector>

namespace ns3
{

class CausalOrderScheduler;

/**
 * \ingroup ai-fabric-engine
 * \brief Where an event was created: the time and context (node) of the event that scheduled
 *        it, and a number that grows with every event the process schedules. Two events
 *        created by one context keep their creation order; events of different creators are
 *        ordered by the creator's id.
 */
struct CausalKey
{
    uint64_t createdTs{0}; //!< time of the creating event, in ns-3 time steps
    uint32_t creator{0};   //!< context of the creating event (0xffffffff: none)
    uint64_t seq{0};       //!< the creating process's count of events scheduled so far
};

/**
 * \ingroup ai-fabric-engine
 * \brief An engine whose IsExpired() follows a CausalOrderScheduler (CausalSimulatorImpl,
 *        CausalDistributedSimulatorImpl): ns-3's engines take an event at the current time as
 *        run when its uid is at most the current event's, which holds only for the (time, uid)
 *        order.
 */
class CausalOrderHost
{
  public:
    virtual ~CausalOrderHost() = default;
    /**
     * \brief Called by the engine's scheduler when it first inserts an event.
     * \param scheduler the scheduler (owned by the engine; null when it goes away)
     */
    virtual void SetCausalScheduler(CausalOrderScheduler* scheduler) = 0;
    /// \return the engine's CausalOrderScheduler, or null before its first event
    virtual CausalOrderScheduler* GetCausalScheduler() const = 0;

    /**
     * \brief Bound the engine's lookahead between MPI processes (DistributedSimulatorImpl::
     *        BoundLookAhead). PfcRemoteExchange bounds it one time step below the smallest
     *        delay of a cable between processes, so that a batch it sends at t can be unpacked
     *        at t + that delay, strictly before the frames in it arrive (they take at least one
     *        time step to serialize). Nothing for a sequential engine.
     * \param lookahead the bound (> 0)
     * \return true if the engine runs across processes and applied it
     */
    virtual bool BoundLookahead(Time lookahead)
    {
        return false;
    }
};

/**
 * \ingroup ai-fabric-engine
 * \brief ns-3 event scheduler that orders simultaneous events by how they came about, not by
 *        when they were inserted: the same order in a sequential run and in every MPI process
 *        of a run split over processes.
 *
 * Why: every ns-3 scheduler runs simultaneous events in uid order, the order in which they
 * were scheduled. A frame from another MPI process is scheduled when its message is unpacked,
 * later than the sequential run would have scheduled it, so at a tie it runs after events it
 * ran before sequentially; a congestion-controlled fabric turns such a difference into
 * different completion times (like another seed).
 *
 * Order: by time, then by the CausalKey of the event's creation: the creating event's time,
 * the creating context, and the process's insertion count. A context (a node) runs entirely
 * in one process, so the events it creates carry the same keys in every partition, and a
 * frame that crosses to another process carries its key with it (PfcRemoteExchange,
 * DrawKey() at the sender, SetNextKey() at the receiver). The relative order of one
 * creator's events is its creation order whatever else the process counts, so the events of
 * each process run in the order the sequential run gives them (the receiving process has all
 * of an instant's frames before it starts the instant: the lookahead).
 *
 * An event created at the current time may sort before the event that created it (a
 * lower-numbered creator); it runs next, the same in every run. Events created by code
 * outside any node (context 0xffffffff) in more than one process are ordered by each
 * process's own count: work must run in node contexts, as ns-3 applications do.
 *
 * IsExpired: ns-3's engines decide whether an event at the current time has run by comparing
 * uids; with this order that is wrong, so the scheduler records the uids run at the current
 * time (HasRun()) and runs only under an engine that asks it (CausalOrderHost:
 * ns3::CausalSimulatorImpl, ns3::CausalDistributedSimulatorImpl); another engine is refused
 * at its first event.
 *
 * Cost: 48 bytes per pending event. As in DelayClassScheduler, most events are scheduled after
 * one of a few delays and, per delay, in their order: up to N_FIFOS (16) FIFOs, one per delay
 * in use, keep those (an entry that does not come after its FIFO's last goes to the heap); the
 * rest go to a 4-ary heap, and the earliest entry is the least of the FIFO heads and the heap's
 * top. Plus the list of the uids run at the current time (hashed beyond RAN_INDEX_FROM of
 * them). Slower than DelayClassScheduler (the order's price), for runs that must match across
 * process counts. Removal (Simulator::Remove) is lazy.
 */
class CausalOrderScheduler final : public Scheduler
{
  public:
    /// Context of events created outside any node (ns-3's "no context").
    static constexpr uint32_t NO_CONTEXT = 0xffffffff;
    /// Events run at one time beyond which HasRun() looks them up in a hash set.
    static constexpr std::size_t RAN_INDEX_FROM = 32;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CausalOrderScheduler();
    ~CausalOrderScheduler() override;

    // Scheduler
    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /**
     * \brief The key an event scheduled now would get, taken now (the count moves on): for
     *        an event created here and inserted in another process (a frame that crosses).
     * \return the key
     */
    CausalKey DrawKey();

    /**
     * \brief Give the next inserted event \p key instead of one of its own (the frame
     *        unpacked from another process gets the key drawn where it was sent).
     * \param key a key from DrawKey() in the creating process
     */
    void SetNextKey(const CausalKey& key);

    /**
     * \brief Whether an event has run (or is running): its time is before the current
     *        event's, or equal and it was removed for running.
     * \param id the event
     * \return true once it ran
     */
    bool HasRun(const EventId& id) const;

    /**
     * \brief The key of the event running now (the last one removed to run): with its time,
     *        where the event stands among simultaneous events in every process, e.g. to merge
     *        records made in several processes in the order a sequential run makes them
     *        (FlowWorkloadRunner::Gather). Two keys of different creators compare without their
     *        seq; keys of one creator come from one process.
     * \param[out] ts the event's time, in time steps
     * \return its key (all zero before the first event)
     */
    CausalKey GetRunningKey(uint64_t* ts) const;

    /**
     * \brief The scheduler of the running engine when the engine is a CausalOrderHost and has
     *        inserted an event.
     * \return the scheduler, or null
     */
    static CausalOrderScheduler* GetCurrent();

    /// The engine goes away: forget it (called from its destructor).
    void DetachHost();

  private:
    /// A pending event with its order: (time, creating time) then (creator, count), each pair
    /// packed in one 128-bit word so that two comparisons order any two entries.
    struct Entry
    {
        __uint128_t when; //!< time << 64 | CausalKey::createdTs (time steps)
        __uint128_t who;  //!< CausalKey::creator << 64 | CausalKey::seq
        EventImpl* impl;  //!< the event
        uint32_t uid;     //!< ns-3 uid (Remove, HasRun)
        uint32_t context; //!< context it runs in
    };

    /**
     * \param a an entry \param b an entry
     * \return true if \p a runs before \p b
     */
    static bool Before(const Entry& a, const Entry& b)
    {
        return a.when < b.when || (a.when == b.when && a.who < b.who);
    }

    /// Entries of one delay, in the order they were inserted (which is their order while each
    /// comes after the last): a ring buffer of a power-of-two capacity.
    struct Fifo
    {
        std::vector<Entry> ring; //!< the entries
        uint32_t head{0};        //!< index of the first
        uint32_t size{0};        //!< entries held
    };

    /// Which queue holds the earliest entry: a FIFO's index, or N_FIFOS for the heap.
    /// \return the queue (the caller knows there are entries)
    uint32_t TopQueue() const;
    /// \param q a queue from TopQueue() \return its first entry
    const Entry& Front(uint32_t q) const;
    /// Take the first entry out of queue \p q. \param q a queue from TopQueue()
    void Pop(uint32_t q);
    /// Append \p e to FIFO \p f. \param f the FIFO \param e the entry
    void PushBack(uint32_t f, const Entry& e);

    /// The order of entries as a functor (the shared heap primitives take one).
    struct EntryBefore;
    /// The 4-ary heap of entries (QuaternaryHeapScheduler's primitives).
    using Heap = QuaternaryHeap<Entry, EntryBefore>;
    /**
     * \brief Append \p e to the FIFO of \p delay when it comes after the FIFO's last entry,
     *        taking a free FIFO for a delay that has none.
     * \param delay its time minus the current time, in time steps
     * \param e the entry
     * \return false when it must go to the heap instead
     */
    bool ToFifo(uint64_t delay, const Entry& e);

    /// Drop removed entries from the top.
    void SkipRemoved();
    /// Find the engine on the first insertion (aborts when it cannot follow this order).
    void Attach();
    /// \param e an entry \return it as an ns-3 event
    static Event ToEvent(const Entry& e);

    /// FIFOs, one per recent delay (DelayClassScheduler's idea, for these keys).
    static constexpr uint32_t N_FIFOS = 16;
    /// m_top when it must be computed again.
    static constexpr uint32_t NO_TOP = N_FIFOS + 1;

    std::array<Fifo, N_FIFOS> m_fifos;           //!< per delay
    std::array<uint64_t, N_FIFOS> m_fifoDelay{}; //!< delay of each FIFO in use, time steps
    uint32_t m_fifoUsed{0};                      //!< bit f: FIFO f holds entries
    std::size_t m_entries{0};                    //!< entries in the FIFOs and the heap
    mutable uint32_t m_top{NO_TOP};              //!< TopQueue()'s answer while valid
    std::vector<Entry> m_heap;                   //!< the other pending events, a 4-ary heap
    std::unordered_set<uint32_t> m_removed;      //!< uids removed but still in the heap
    std::vector<uint32_t> m_ranAtTs;             //!< uids run at m_currentTs
    std::unordered_set<uint32_t> m_ranIndex;     //!< the same, once there are many
    uint64_t m_currentTs{0};                     //!< time of the last event removed
    uint32_t m_currentContext{NO_CONTEXT};       //!< its context (creator of what it schedules)
    __uint128_t m_runningWhen{0};                //!< Entry::when of the last event removed
    __uint128_t m_runningWho{0};                 //!< Entry::who of the last event removed
    uint64_t m_seq{0};                           //!< events inserted or keys drawn so far
    CausalKey m_nextKey;                         //!< SetNextKey()'s key
    bool m_hasNextKey{false};                    //!< SetNextKey() was called
    CausalOrderHost* m_host{nullptr};            //!< the engine following this order
};

} // namespace ns3

#endif /* CAUSAL_ORDER_SCHEDULER_H */
