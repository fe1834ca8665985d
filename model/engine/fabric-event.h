/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a reusable ns-3 event for the per-frame data path.
 */
#ifndef FABRIC_EVENT_H
#define FABRIC_EVENT_H

#include "ns3/event-impl.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

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
class RecurringEvent : public EventImpl
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

} // namespace ns3

#endif /* FABRIC_EVENT_H */
