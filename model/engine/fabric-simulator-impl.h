/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a sequential ns-3 simulator engine with reservable event slots.
 */
#ifndef FABRIC_SIMULATOR_IMPL_H
#define FABRIC_SIMULATOR_IMPL_H

#include "ai-fabric-compat.h"
#include "delay-class-scheduler.h"

#include "ns3/event-id.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <list>
#include <string>
#include <thread>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief An event of ai-fabric's own data path that FabricSimulatorImpl runs directly: never
 *        cancelled, so the engine calls its Notify() without EventImpl::Invoke()'s cancel check
 *        and logging (RecurringEvent, FabricRearmableEvent).
 *
 * Scheduled through FabricSimulatorImpl::ScheduleRecurring() or Commit(); the queue holds it
 * with the lowest pointer bit set, which the engine strips before running or releasing it. Any
 * other engine runs it as an ordinary EventImpl. Never Cancel() or Remove() one.
 */
class FabricEventImpl : public EventImpl
{
  public:
    /// Run the event now (what Invoke() does for an event that is not cancelled).
    void Run()
    {
        Notify();
    }
};

/**
 * \ingroup ai-fabric-engine
 * \brief Sequential ns-3 simulator engine (a SimulatorImpl) for packet-level fabrics: ns-3's
 *        event order and API, less work per event, and event slots that are reserved now and
 *        inserted only if needed.
 *
 * Select it with `SetSimulatorImpl("ns3::FabricSimulatorImpl")`, or
 * `--SimulatorImplementationType=ns3::FabricSimulatorImpl` on any ns-3 program's command line,
 * before the first event. Any ns-3 Scheduler (`--SchedulerType`) orders its events; with
 * ns3::DelayClassScheduler (recommended; the benchmark uses it) the engine calls its insert and
 * pop directly, inlined, instead of through the Scheduler interface.
 *
 * Order: events run in (timestamp, uid) order, the uid counting schedule calls exactly as
 * ns3::DefaultSimulatorImpl does, so a program gives the same results under both engines.
 * What differs from DefaultSimulatorImpl:
 * - no per-event logging, EventId construction or pre-event hook (about 15 % of the
 *   instructions of a fabric simulation run in DefaultSimulatorImpl's bookkeeping);
 * - single-threaded: scheduling from a thread other than the one that runs the simulation
 *   aborts with a message instead of being queued (DefaultSimulatorImpl accepts it);
 * - a negative delay aborts with a message (DefaultSimulatorImpl only asserts in debug builds);
 * - reservations (Reserve(), Commit(), HasPassed()).
 *
 * Reservations: many events of a fabric do nothing when they run. A port schedules the end of
 * every transmission, but when no frame is waiting by then, that event only marks the port
 * idle, which the port can also infer from the clock. Reserve() fixes the position such an
 * event would take (a timestamp and a uid, consuming the uid as a schedule call would) without
 * inserting it; Commit() inserts the event at exactly that position later, when it turns out
 * to be needed; HasPassed() tells whether the simulation has gone past the position, i.e.
 * whether an uncommitted event would already have run. Because the uid is drawn at
 * reservation time, committing late gives the same event order as scheduling at once, and not
 * committing at all only removes an event that would have done nothing. With
 * DelayClassScheduler a committed event joins the FIFO of the delay it was reserved with
 * (DelayClassScheduler::InsertLate), not the overflow heap its remaining delay would send it
 * to. GetEventCount() counts only events that ran.
 *
 * Errors (all abort with a message): a negative delay; scheduling from another thread;
 * committing a reservation whose position has passed; Run() without a scheduler is impossible
 * (one is created from the SchedulerType global value, as in ns-3).
 */
class FabricSimulatorImpl final : public SimulatorImpl
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// A reserved event position: run time and tie-breaking uid.
    struct Reservation
    {
        uint64_t ts{0};      //!< absolute time, in time steps
        uint32_t uid{0};     //!< uid drawn at reservation (0 = none reserved)
        uint32_t context{0}; //!< node context the event runs in
        uint64_t delay{0};   //!< the delay it was reserved with, in time steps
    };

    FabricSimulatorImpl();
    ~FabricSimulatorImpl() override;

    // SimulatorImpl: semantics as documented in ns3::Simulator, differences in the class
    // comment (no thread handoff, negative delays abort, GetEventCount counts events run).
    /// \copydoc SimulatorImpl::Destroy()
    void Destroy() override;
    /// \copydoc SimulatorImpl::IsFinished()
    bool IsFinished() const override;
    /// \copydoc SimulatorImpl::Stop()
    void Stop() override;
    /// \copydoc SimulatorImpl::Stop(const Time&)
    compat::StopEventId Stop(const Time& delay) override;
    /// \copydoc SimulatorImpl::Schedule(const Time&,EventImpl*)
    EventId Schedule(const Time& delay, EventImpl* event) override;
    /// \copydoc SimulatorImpl::ScheduleWithContext(uint32_t,const Time&,EventImpl*)
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    /// \copydoc SimulatorImpl::ScheduleNow(EventImpl*)
    EventId ScheduleNow(EventImpl* event) override;
    /// \copydoc SimulatorImpl::ScheduleDestroy(EventImpl*)
    EventId ScheduleDestroy(EventImpl* event) override;
    /// \copydoc SimulatorImpl::Remove(const EventId&)
    void Remove(const EventId& id) override;
    /// \copydoc SimulatorImpl::Cancel(const EventId&)
    void Cancel(const EventId& id) override;
    /// \copydoc SimulatorImpl::IsExpired(const EventId&)
    bool IsExpired(const EventId& id) const override;
    /// \copydoc SimulatorImpl::Run()
    void Run() override;
    /// \copydoc SimulatorImpl::Now()
    Time Now() const override;
    /// \copydoc SimulatorImpl::GetDelayLeft(const EventId&)
    Time GetDelayLeft(const EventId& id) const override;
    /// \copydoc SimulatorImpl::GetMaximumSimulationTime()
    Time GetMaximumSimulationTime() const override;
    /// \copydoc SimulatorImpl::SetScheduler(ObjectFactory)
    void SetScheduler(ObjectFactory schedulerFactory) override;
    /// \copydoc SimulatorImpl::GetSystemId()
    uint32_t GetSystemId() const override;
    /// \copydoc SimulatorImpl::GetContext()
    uint32_t GetContext() const override;
    /// \copydoc SimulatorImpl::GetEventCount()
    uint64_t GetEventCount() const override;

    /**
     * \brief Reserve the position of an event that would be scheduled now, after \p delay, in
     *        the current context; nothing is inserted.
     * \param delay time from now, >= 0 (aborts otherwise)
     * \return the reservation, to pass to Commit() or HasPassed()
     */
    Reservation Reserve(const Time& delay);
    /**
     * \brief Insert \p event at a reserved position, as if it had been scheduled when the
     *        reservation was made. Takes over one reference of \p event, as Schedule does
     *        (the caller Ref()s an event it keeps).
     * \param r a reservation from Reserve(), not yet committed
     * \param event the event to run; non-null
     *
     * Aborts if the position has passed (HasPassed(r)) or \p event is null.
     */
    void Commit(const Reservation& r, EventImpl* event);

    /**
     * \brief Commit() for one of ai-fabric's own events, run directly when it comes up.
     * \param r a reservation from Reserve(), not yet committed
     * \param event the event; non-null, never cancelled
     */
    void Commit(const Reservation& r, FabricEventImpl* event)
    {
        Commit(r, Tag(event));
    }

    /**
     * \brief Whether the simulation has reached a reserved position: the current event is at
     *        or after it in (timestamp, uid) order, so an event committed there would already
     *        have run.
     * \param r a reservation from Reserve()
     * \return true once the position is reached
     */
    bool HasPassed(const Reservation& r) const
    {
        return r.ts < m_currentTs || (r.ts == m_currentTs && r.uid <= m_currentUid);
    }

    /**
     * \brief Schedule one more run of a reusable data-path event (a RecurringEvent): what
     *        ScheduleWithContext does, taking a reference on \p event, without its checks.
     * \param event the event; non-null, never cancelled
     * \param context the node context it runs in
     * \param delay time from now; the caller guarantees >= 0, and that it runs on the
     *        simulation's thread (a port or cable inside an event)
     */
    void ScheduleRecurring(FabricEventImpl* event, uint32_t context, const Time& delay)
    {
        event->Ref(); // the queue's reference, dropped after the event runs
        InsertEvent(m_currentTs + static_cast<uint64_t>(delay.GetTimeStep()),
                    m_uid++,
                    context,
                    Tag(event));
    }

    /**
     * \brief The time of the event being run, read inline (Now() is the same value through a
     *        virtual call; components on the per-packet path use this through
     *        FabricEngineRef::Now()).
     * \return the current simulation time
     */
    Time CurrentTime() const
    {
        return TimeStep(m_currentTs);
    }

    /**
     * \brief The current context without a virtual call (what GetContext() returns).
     * \return the context of the running event
     */
    uint32_t CurrentContext() const
    {
        return m_currentContext;
    }

    /**
     * \brief Whether Simulator::Destroy() has run on this engine (a component that cached it
     *        must look up the current engine again).
     * \return true after Destroy()
     */
    bool IsDestroyed() const
    {
        return m_destroyed;
    }

    /**
     * \brief The engine in use, if it is a FabricSimulatorImpl.
     * \return the current engine (Simulator::GetImplementation(), which creates it if needed),
     *         or nullptr when another SimulatorImpl runs the simulation
     */
    static Ptr<FabricSimulatorImpl> GetCurrent();

  private:
    void DoDispose() override;

    /**
     * \brief The queue entry of one of ai-fabric's own events: its pointer with bit 0 set
     *        (EventImpl objects are at least 8-byte aligned).
     * \param event the event
     * \return the tagged pointer, never dereferenced as such
     */
    static EventImpl* Tag(FabricEventImpl* event)
    {
        return reinterpret_cast<EventImpl*>(reinterpret_cast<uintptr_t>(event) | uintptr_t(1));
    }

    /**
     * \brief Whether a queue entry is a tagged FabricEventImpl.
     * \param impl the entry's pointer
     * \return true if bit 0 is set
     */
    static bool IsTagged(const EventImpl* impl)
    {
        return (reinterpret_cast<uintptr_t>(impl) & uintptr_t(1)) != 0;
    }

    /**
     * \brief The event behind a tagged queue entry.
     * \param impl a tagged pointer (IsTagged)
     * \return the FabricEventImpl
     */
    static FabricEventImpl* Untag(EventImpl* impl)
    {
        return reinterpret_cast<FabricEventImpl*>(reinterpret_cast<uintptr_t>(impl) &
                                                  ~uintptr_t(1));
    }

    /**
     * \brief Drop the queue's reference on an entry (tagged or not).
     * \param impl the entry's pointer
     */
    static void Release(EventImpl* impl)
    {
        if (IsTagged(impl))
        {
            Untag(impl)->Unref();
        }
        else
        {
            impl->Unref();
        }
    }

    /**
     * \brief Put an event in the queue.
     * \param ts absolute time, in time steps (not before the current event)
     * \param uid its uid (drawn from m_uid, now or at reservation)
     * \param context the node context it runs in
     * \param event the event (the queue takes over one reference)
     */
    void InsertEvent(uint64_t ts, uint32_t uid, uint32_t context, EventImpl* event)
    {
        Scheduler::Event ev;
        ev.impl = event;
        ev.key.m_ts = ts;
        ev.key.m_context = context;
        ev.key.m_uid = uid;
        m_unscheduledEvents++;
        if (m_delayClass != nullptr)
        {
            m_delayClass->Insert(ev); // direct, inlined call to the default scheduler
        }
        else
        {
            m_events->Insert(ev);
        }
    }

    /// Run the earliest event.
    void ProcessOneEvent();
    /**
     * \brief Abort unless called from the thread that runs the simulation.
     * \param what the calling method, for the message
     */
    void CheckThread(const char* what) const;
    /**
     * \brief Abort if \p delay is negative.
     * \param delay the delay given
     * \param what the calling method, for the message
     */
    static void CheckDelay(const Time& delay, const char* what);

    Ptr<Scheduler> m_events;            //!< pending events
    DelayClassScheduler* m_delayClass;  //!< m_events if it is a DelayClassScheduler, or nullptr
    uint64_t m_currentTs;               //!< time of the current event, in time steps
    uint32_t m_currentUid;              //!< uid of the current event
    uint32_t m_currentContext;          //!< context of the current event
    uint32_t m_uid;                     //!< next uid to draw
    bool m_stop;                        //!< Stop() was called
    bool m_destroyed;                   //!< Destroy() was called
    uint64_t m_unscheduledEvents;       //!< events inserted and not yet run or removed
    uint64_t m_eventCount;              //!< events run
    std::list<EventId> m_destroyEvents; //!< events for Simulator::Destroy, in order
    std::thread::id m_mainThreadId;     //!< the thread that runs the simulation
};

/**
 * \ingroup ai-fabric-engine
 * \brief A component's handle on the simulator engine when it is a FabricSimulatorImpl,
 *        looked up once per simulation (a port or cable uses it for every frame).
 */
class FabricEngineRef
{
  public:
    /**
     * \brief The engine, looked up on first use, and again once the FabricSimulatorImpl found
     *        is destroyed (Simulator::Destroy()) or after Reset().
     * \return the FabricSimulatorImpl running the simulation, or nullptr if another
     *         SimulatorImpl did at the lookup (then use the ns3::Simulator API, which is
     *         always correct)
     */
    FabricSimulatorImpl* Get()
    {
        if (!m_resolved || (m_sim && m_sim->IsDestroyed()))
        {
            m_sim = FabricSimulatorImpl::GetCurrent();
            m_resolved = true;
        }
        return PeekPointer(m_sim);
    }

    /**
     * \brief The current simulation time: the engine's clock read inline when the engine is a
     *        FabricSimulatorImpl, Simulator::Now() otherwise (the same value either way).
     * \return the time of the event being run
     */
    Time Now()
    {
        FabricSimulatorImpl* sim = Get();
        return sim != nullptr ? sim->CurrentTime() : Simulator::Now();
    }

    /// \return the engine as last looked up (nullptr if none), without a lookup
    FabricSimulatorImpl* Peek() const
    {
        return PeekPointer(m_sim);
    }

    /// Forget the engine (the owner is disposed); the next Get() looks it up again.
    void Reset()
    {
        m_sim = nullptr;
        m_resolved = false;
    }

  private:
    Ptr<FabricSimulatorImpl> m_sim; //!< the engine, if a FabricSimulatorImpl
    bool m_resolved{false};         //!< m_sim was looked up
};

/**
 * \ingroup ai-fabric-engine
 * \brief Install the simulator engine named \p typeName (for a `--simulator` option).
 *
 * Call before the first event is scheduled or the scheduler set (ns-3 creates the engine on
 * first use). "ns3::FabricSimulatorImpl" and "ns3::DefaultSimulatorImpl" give identical
 * results.
 * \param typeName an ns-3 SimulatorImpl TypeId name
 *
 * Aborts, naming the value, if \p typeName is not a SimulatorImpl type, or if an engine was
 * already created.
 */
void SetSimulatorImpl(const std::string& typeName);

} // namespace ns3

#endif /* FABRIC_SIMULATOR_IMPL_H */
