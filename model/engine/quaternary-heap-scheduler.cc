/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quaternary-heap-scheduler.h"

#include "fabric-input-error.h"
#include "quaternary-heap.h"

#include "ns3/abort.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(QuaternaryHeapScheduler);

namespace
{
/// ns-3's event order, for the shared heap primitives.
struct EventBefore
{
    /// \param a an event \param b an event \return true if \p a runs before \p b
    bool operator()(const Scheduler::Event& a, const Scheduler::Event& b) const
    {
        return EventKeyBefore(a.key, b.key);
    }
};

/// The 4-ary heap of events.
using EventHeap = QuaternaryHeap<Scheduler::Event, EventBefore>;
} // namespace

TypeId
QuaternaryHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuaternaryHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<QuaternaryHeapScheduler>();
    return tid;
}

QuaternaryHeapScheduler::QuaternaryHeapScheduler() = default;

QuaternaryHeapScheduler::~QuaternaryHeapScheduler() = default;

void
QuaternaryHeapScheduler::Insert(const Event& ev)
{
    m_heap.push_back(ev);
    HeapSiftUp(m_heap, m_heap.size() - 1);
}

bool
QuaternaryHeapScheduler::IsEmpty() const
{
    return m_heap.empty(); // the top is never a removed entry, so entries => a live event
}

Scheduler::Event
QuaternaryHeapScheduler::PeekNext() const
{
    NS_ABORT_MSG_IF(m_heap.empty(), "QuaternaryHeapScheduler::PeekNext on an empty queue");
    return m_heap.front();
}

Scheduler::Event
QuaternaryHeapScheduler::RemoveNext()
{
    NS_ABORT_MSG_IF(m_heap.empty(), "QuaternaryHeapScheduler::RemoveNext on an empty queue");
    Event next = m_heap.front();
    HeapPopTop(m_heap);
    DropDeadTop();
    if (m_dead.GetSize() > m_heap.size() / 4)
    {
        Compact(); // popping live events also shifts the live/removed balance
    }
    return next;
}

void
QuaternaryHeapScheduler::Remove(const Event& ev)
{
    NS_ABORT_MSG_IF(m_heap.empty(), "QuaternaryHeapScheduler::Remove on an empty queue");
    if (SameEventKey(m_heap.front().key, ev.key))
    {
        HeapPopTop(m_heap);
        DropDeadTop();
    }
    else
    {
        m_dead.Add(ev.key);
    }
    if (m_dead.GetSize() > m_heap.size() / 4)
    {
        Compact();
    }
}

std::size_t
QuaternaryHeapScheduler::GetNEntries() const
{
    return m_heap.size();
}

void
QuaternaryHeapScheduler::HeapSiftUp(std::vector<Event>& heap, std::size_t i)
{
    EventHeap::SiftUp(heap, i);
}

void
QuaternaryHeapScheduler::HeapSiftDown(std::vector<Event>& heap, std::size_t i)
{
    EventHeap::SiftDown(heap, i);
}

void
QuaternaryHeapScheduler::HeapPopTop(std::vector<Event>& heap)
{
    EventHeap::PopTop(heap);
}

void
QuaternaryHeapScheduler::DropDeadTop()
{
    // Every removed entry is still in m_heap, whose top is its minimum: the top is a removed
    // entry exactly when it equals the earliest removed key. One comparison per pop.
    while (!m_dead.IsEmpty() && !m_heap.empty() && SameEventKey(m_heap.front().key, m_dead.Front()))
    {
        m_dead.PopFront();
        HeapPopTop(m_heap);
    }
}

void
QuaternaryHeapScheduler::Compact()
{
    m_dead.BuildIndex();
    std::size_t kept = 0;
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_dead.Contains(m_heap[i].key))
        {
            ++dropped;
            continue;
        }
        m_heap[kept++] = m_heap[i];
    }
    NS_ABORT_MSG_IF(dropped != m_dead.GetSize(),
                    "QuaternaryHeapScheduler: " << m_dead.GetSize() - dropped
                                                << " removed event(s) were not pending");
    m_dead.Clear();
    m_heap.resize(kept);
    HeapMake(m_heap);
}

void
QuaternaryHeapScheduler::HeapMake(std::vector<Event>& heap)
{
    EventHeap::Make(heap);
}

void
SetEventScheduler(const std::string& typeName)
{
    FABRIC_INPUT_ERROR_IF(typeName == "ns3::HeapScheduler",
                          "event scheduler "
                              << typeName
                              << " is not supported: its Remove() breaks event order in "
                                 "ns-3.37; use ns3::DelayClassScheduler, "
                                 "ns3::QuaternaryHeapScheduler, ns3::MapScheduler or "
                                 "ns3::CalendarScheduler");
    TypeId tid;
    FABRIC_INPUT_ERROR_IF(
        !TypeId::LookupByNameFailSafe(typeName, &tid) || !tid.IsChildOf(Scheduler::GetTypeId()),
        "event scheduler "
            << typeName
            << " is not an ns-3 Scheduler type; use "
               "ns3::DelayClassScheduler, ns3::QuaternaryHeapScheduler, ns3::MapScheduler or "
               "ns3::CalendarScheduler");
    ObjectFactory factory;
    factory.SetTypeId(tid);
    Simulator::SetScheduler(factory);
}

} // namespace ns3
