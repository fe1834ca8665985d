/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a reusable ns-3 event for the per-frame data path.
 */
#ifndef FABRIC_EVENT_H
#define FABRIC_EVENT_H

#include "fabric-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/event-impl.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <functional>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief An ns-3 event that calls `(owner->*MEMBER)()` every time it fires, allocated once.
 *
 * Simulator::Schedule(delay, &T::f, this) allocates a new EventImpl for every call, and the
 * data path schedules two events per frame per hop (end of transmission, arrival at the
 * peer). A port or cable instead owns one RecurringEvent per kind and schedules it again for
 * every frame; the same object may be pending many times at once (one entry per frame in
 * flight). Each scheduling takes a reference that the simulator drops after running it, so the
 * object lives as long as its owner or its last pending entry, whichever is later.
 *
 * Events are ordered exactly as with Simulator::Schedule (same timestamp, same insertion
 * order), so replacing one with the other does not change results.
 *
 * Restrictions: never Cancel() or Remove() an entry of a RecurringEvent (cancelling marks the
 * shared object and would silence every pending entry); the owner must outlive the pending
 * entries it does not want to run, exactly as with `this` in Simulator::Schedule.
 *
 * \tparam T the owner class
 * \tparam MEMBER the owner's member function to call, `void T::MEMBER()`
 */
template <typename T, void (T::*MEMBER)()>
class RecurringEvent : public FabricEventImpl
{
  public:
    /**
     * \brief Bind the event to its owner.
     * \param owner the object whose MEMBER runs; not owned, must be non-null
     */
    explicit RecurringEvent(T* owner)
        : m_owner(owner)
    {
    }

  private:
    void Notify() override
    {
        (m_owner->*MEMBER)();
    }

    T* m_owner; //!< the object whose MEMBER runs
};

/**
 * \ingroup ai-fabric-engine
 * \brief Schedule one more run of a reusable event (a RecurringEvent) after \p delay.
 *
 * Same ordering and context as Simulator::Schedule(delay, ...); the simulator takes its own
 * reference for the pending entry.
 * \param event the event; must stay uncancelled
 * \param delay time from now, >= 0
 */
inline void
ScheduleRecurring(const Ptr<EventImpl>& event, const Time& delay)
{
    event->Ref(); // the simulator's reference, dropped after the event runs
    Simulator::ScheduleWithContext(Simulator::GetContext(), delay, PeekPointer(event));
}

/**
 * \ingroup ai-fabric-engine
 * \brief Schedule one more run of a reusable event in another node's context.
 * \param event the event; must stay uncancelled
 * \param context the node id the event runs for (as in Simulator::ScheduleWithContext)
 * \param delay time from now, >= 0
 */
inline void
ScheduleRecurringWithContext(const Ptr<EventImpl>& event, uint32_t context, const Time& delay)
{
    event->Ref();
    Simulator::ScheduleWithContext(context, delay, PeekPointer(event));
}

/**
 * \ingroup ai-fabric-engine
 * \brief A re-armable timer event allocated once: Schedule() arms it, a later Schedule() or
 *        Cancel() supersedes the arming, and a superseded arming does nothing when it comes up.
 *
 * For a timer that is re-armed far more often than it fires (the NIC's pacing wake-up: about
 * one re-arming per paced packet). `id.Cancel(); id = Simulator::Schedule(...)` allocates an
 * EventImpl per arming and pays ns-3's EventId bookkeeping (IsPending, GetDelayLeft, Cancel) on
 * every call; this keeps one event object and the arming's state in plain members.
 *
 * Order: identical to Cancel() + Simulator::Schedule(). Each arming is one schedule call (same
 * uid sequence, same context: the current one); a superseded arming stays in the queue and is
 * popped at its time, as a cancelled event is, without calling the function. A superseded
 * entry is recognised by its timestamp: at most one arming is live, and it is the latest one
 * scheduled, so any superseded entry with the same timestamp has a smaller uid and comes up
 * first. The timestamps of superseded entries still queued are kept in a small list (one per
 * superseded arming until it comes up; memory bounded by the re-armings in flight).
 *
 * Works under any simulator engine; under FabricSimulatorImpl it schedules through its
 * inlined path. Move-only. Destroying it (or Detach()) silences every entry still queued.
 */
class FabricRearmableEvent
{
  public:
    FabricRearmableEvent() = default;

    /**
     * \brief Bind the function run when an arming comes up.
     * \param fn the function; must be non-empty (aborts otherwise)
     */
    explicit FabricRearmableEvent(std::function<void()> fn)
        : m_entry(Create<Entry>())
    {
        NS_ABORT_MSG_IF(!fn, "FabricRearmableEvent given an empty function");
        m_entry->fn = std::move(fn);
    }

    ~FabricRearmableEvent()
    {
        Detach();
    }

    FabricRearmableEvent(const FabricRearmableEvent&) = delete;
    FabricRearmableEvent& operator=(const FabricRearmableEvent&) = delete;

    /**
     * \brief Move: the queued entries follow the event (they share its state); the event moved
     *        from is left with no function.
     * \param other the event moved from
     */
    FabricRearmableEvent(FabricRearmableEvent&& other) noexcept
        : m_entry(other.m_entry)
    {
        other.m_entry = nullptr; // ns-3's Ptr has no move: copy, then let go
    }

    /**
     * \brief Move-assign; the entries of the event replaced are silenced.
     * \param other the event moved from
     * \return this
     */
    FabricRearmableEvent& operator=(FabricRearmableEvent&& other) noexcept
    {
        if (this != &other)
        {
            Detach();
            m_entry = other.m_entry;
            other.m_entry = nullptr;
        }
        return *this;
    }

    /**
     * \brief Arm the event \p delay from now, superseding a pending arming.
     * \param delay time from now, >= 0 (the engine aborts on a negative delay)
     *
     * Aborts if no function was bound.
     */
    void Schedule(const Time& delay)
    {
        NS_ABORT_MSG_IF(!m_entry, "FabricRearmableEvent::Schedule on an event with no function");
        Entry& e = *m_entry;
        if (e.pending)
        {
            e.stale.push_back(e.expiryTs);
        }
        FabricSimulatorImpl* sim = e.engine.Get();
        if (sim != nullptr && !delay.IsStrictlyNegative())
        {
            e.pending = true;
            e.expiryTs = sim->CurrentTime().GetTimeStep() + delay.GetTimeStep();
            sim->ScheduleRecurring(PeekPointer(m_entry), sim->CurrentContext(), delay);
            return;
        }
        e.expiryTs = Simulator::Now().GetTimeStep() + delay.GetTimeStep();
        m_entry->Ref(); // the queue's reference, dropped after the entry comes up
        Simulator::ScheduleWithContext(Simulator::GetContext(), delay, PeekPointer(m_entry));
        e.pending = true;
    }

    /// Disarm a pending arming (nothing if none); its entry comes up and does nothing.
    void Cancel()
    {
        if (m_entry && m_entry->pending)
        {
            m_entry->stale.push_back(m_entry->expiryTs);
            m_entry->pending = false;
        }
    }

    /// Silence every queued entry for good and drop the function (the owner goes away).
    void Detach()
    {
        if (m_entry)
        {
            m_entry->fn = nullptr;
            m_entry->pending = false;
            m_entry->engine.Reset();
            m_entry = nullptr;
        }
    }

    /// \return true while an arming is pending (armed, not yet come up, not cancelled)
    bool IsPending() const
    {
        return m_entry && m_entry->pending;
    }

    /**
     * \brief The time the pending arming comes up.
     * \return its absolute time; only meaningful while IsPending()
     */
    Time GetExpiry() const
    {
        return m_entry ? TimeStep(m_entry->expiryTs) : Time(0);
    }

  private:
    /// The queued object and the arming's state, shared by every queued entry.
    class Entry final : public FabricEventImpl
    {
      public:
        std::function<void()> fn;    //!< run by the live arming (empty once detached)
        bool pending{false};         //!< an arming is live
        uint64_t expiryTs{0};        //!< the live arming's time, in time steps
        std::vector<uint64_t> stale; //!< times of superseded entries still queued
        FabricEngineRef engine;      //!< the engine, for the inlined schedule path

      private:
        void Notify() override
        {
            if (!fn)
            {
                return; // detached
            }
            uint64_t now = engine.Now().GetTimeStep();
            for (std::size_t i = 0; i < stale.size(); ++i)
            {
                if (stale[i] == now)
                {
                    stale[i] = stale.back();
                    stale.pop_back();
                    return; // a superseded arming
                }
            }
            NS_ABORT_MSG_IF(!pending || expiryTs != now,
                            "FabricRearmableEvent: an entry came up at time step "
                                << now << " that is neither the live arming nor superseded");
            pending = false;
            fn();
        }
    };

    Ptr<Entry> m_entry; //!< shared with the queued entries (null: no function bound)
};

} // namespace ns3

#endif /* FABRIC_EVENT_H */
