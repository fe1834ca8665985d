/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-simulator-impl.h"

#include "fabric-input-error.h"

#include "ns3/abort.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/make-event.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSimulatorImpl");
NS_OBJECT_ENSURE_REGISTERED(FabricSimulatorImpl);

TypeId
FabricSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<FabricSimulatorImpl>();
    return tid;
}

FabricSimulatorImpl::FabricSimulatorImpl()
    : m_delayClass(nullptr),
      m_currentTs(0),
      m_currentUid(EventId::UID::INVALID),
      m_currentContext(Simulator::NO_CONTEXT),
      m_uid(EventId::UID::VALID),
      m_stop(false),
      m_destroyed(false),
      m_unscheduledEvents(0),
      m_eventCount(0),
      m_mainThreadId(std::this_thread::get_id())
{
}

FabricSimulatorImpl::~FabricSimulatorImpl() = default;

void
FabricSimulatorImpl::DoDispose()
{
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            Release(m_events->RemoveNext().impl);
        }
        m_events = nullptr;
        m_delayClass = nullptr;
    }
    SimulatorImpl::DoDispose();
}

void
FabricSimulatorImpl::Destroy()
{
    m_destroyed = true;
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
}

void
FabricSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            scheduler->Insert(m_events->RemoveNext());
        }
    }
    m_events = scheduler;
    m_delayClass = dynamic_cast<DelayClassScheduler*>(PeekPointer(scheduler));
}

uint32_t
FabricSimulatorImpl::GetSystemId() const
{
    return 0;
}

bool
FabricSimulatorImpl::IsFinished() const
{
    return m_events->IsEmpty() || m_stop;
}

void
FabricSimulatorImpl::ProcessOneEvent()
{
    Scheduler::Event next =
        m_delayClass != nullptr ? m_delayClass->RemoveNext() : m_events->RemoveNext();
    m_unscheduledEvents--;
    m_eventCount++;
    m_currentTs = next.key.m_ts;
    m_currentContext = next.key.m_context;
    m_currentUid = next.key.m_uid;
    if (IsTagged(next.impl))
    {
        FabricEventImpl* own = Untag(next.impl);
        own->Run(); // never cancelled: no check, no EventImpl::Invoke() logging
        own->Unref();
        return;
    }
    next.impl->Invoke();
    next.impl->Unref();
}

void
FabricSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_mainThreadId = std::this_thread::get_id();
    m_stop = false;
    if (m_delayClass != nullptr)
    {
        while (!m_stop && !m_delayClass->IsEmpty())
        {
            ProcessOneEvent();
        }
        return;
    }
    while (!m_stop && !m_events->IsEmpty())
    {
        ProcessOneEvent();
    }
}

void
FabricSimulatorImpl::Stop()
{
    m_stop = true;
}

compat::StopEventId
FabricSimulatorImpl::Stop(const Time& delay)
{
    CheckDelay(delay, "Stop");
    return compat::ToStopEventId(Schedule(delay, MakeEvent(&Simulator::Stop)));
}

void
FabricSimulatorImpl::CheckThread(const char* what) const
{
    NS_ABORT_MSG_IF(std::this_thread::get_id() != m_mainThreadId,
                    "FabricSimulatorImpl::" << what
                                            << " called from a thread other than the one that "
                                               "runs the simulation; FabricSimulatorImpl is "
                                               "single-threaded (use ns3::DefaultSimulatorImpl "
                                               "to schedule from other threads)");
}

void
FabricSimulatorImpl::CheckDelay(const Time& delay, const char* what)
{
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(),
                    "FabricSimulatorImpl::" << what << ": delay " << delay
                                            << " is negative; events can only be scheduled at "
                                               "or after the current time");
}

EventId
FabricSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    CheckDelay(delay, "Schedule");
    CheckThread("Schedule");
    uint64_t ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    uint32_t uid = m_uid++;
    InsertEvent(ts, uid, m_currentContext, event);
    return EventId(event, ts, m_currentContext, uid);
}

void
FabricSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    CheckDelay(delay, "ScheduleWithContext");
    CheckThread("ScheduleWithContext");
    InsertEvent(m_currentTs + static_cast<uint64_t>(delay.GetTimeStep()), m_uid++, context, event);
}

EventId
FabricSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Schedule(Time(0), event);
}

EventId
FabricSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    CheckThread("ScheduleDestroy");
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    m_uid++; // as DefaultSimulatorImpl: keeps the uids of later events identical
    return id;
}

FabricSimulatorImpl::Reservation
FabricSimulatorImpl::Reserve(const Time& delay)
{
    CheckDelay(delay, "Reserve");
    Reservation r;
    r.ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    r.uid = m_uid++;
    r.context = m_currentContext;
    r.delay = static_cast<uint64_t>(delay.GetTimeStep());
    return r;
}

void
FabricSimulatorImpl::Commit(const Reservation& r, EventImpl* event)
{
    NS_ABORT_MSG_IF(event == nullptr, "FabricSimulatorImpl::Commit given a null event");
    NS_ABORT_MSG_IF(r.uid == EventId::UID::INVALID || HasPassed(r),
                    "FabricSimulatorImpl::Commit: reservation (time step "
                        << r.ts << ", uid " << r.uid
                        << ") is not a pending position; the simulation is at time step "
                        << m_currentTs << ", uid " << m_currentUid);
    if (m_delayClass == nullptr)
    {
        InsertEvent(r.ts, r.uid, r.context, event);
        return;
    }
    // Into the FIFO of the delay it was reserved with, at its place (usually a few entries
    // from the tail), rather than the overflow heap its remaining delay would send it to.
    Scheduler::Event ev;
    ev.impl = event;
    ev.key.m_ts = r.ts;
    ev.key.m_context = r.context;
    ev.key.m_uid = r.uid;
    m_unscheduledEvents++;
    m_delayClass->InsertLate(ev, r.delay);
}

Time
FabricSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
FabricSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    if (IsExpired(id))
    {
        return TimeStep(0);
    }
    return TimeStep(id.GetTs() - m_currentTs);
}

void
FabricSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); ++i)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    Scheduler::Event event;
    event.impl = id.PeekEventImpl();
    event.key.m_ts = id.GetTs();
    event.key.m_context = id.GetContext();
    event.key.m_uid = id.GetUid();
    m_events->Remove(event);
    event.impl->Cancel();
    event.impl->Unref(); // the reference the queue held
    m_unscheduledEvents--;
}

void
FabricSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
FabricSimulatorImpl::IsExpired(const EventId& id) const
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        if (id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled())
        {
            return true;
        }
        for (const auto& d : m_destroyEvents)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    return id.PeekEventImpl() == nullptr || id.GetTs() < m_currentTs ||
           (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) ||
           id.PeekEventImpl()->IsCancelled();
}

Time
FabricSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
FabricSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
FabricSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

Ptr<FabricSimulatorImpl>
FabricSimulatorImpl::GetCurrent()
{
    return DynamicCast<FabricSimulatorImpl>(Simulator::GetImplementation());
}

void
SetSimulatorImpl(const std::string& typeName)
{
    TypeId tid;
    FABRIC_INPUT_ERROR_IF(!TypeId::LookupByNameFailSafe(typeName, &tid) ||
                              !tid.IsChildOf(SimulatorImpl::GetTypeId()) || !tid.HasConstructor(),
                          "simulator engine "
                              << typeName
                              << " is not an ns-3 SimulatorImpl type; use "
                                 "ns3::FabricSimulatorImpl or ns3::DefaultSimulatorImpl");
    GlobalValue::Bind("SimulatorImplementationType", StringValue(typeName));
    ObjectFactory factory;
    factory.SetTypeId(tid);
    Simulator::SetImplementation(factory.Create<SimulatorImpl>()); // aborts if one exists
}

} // namespace ns3
