/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quaternary-heap-scheduler.h"

#include "fabric-input-error.h"

#include "ns3/abort.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(QuaternaryHeapScheduler);

namespace
{
constexpr std::size_t ARITY = 4; //!< children per heap node
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
    Event moving = heap[i];
    while (i > 0)
    {
        std::size_t parent = (i - 1) / ARITY;
        if (!EventKeyBefore(moving.key, heap[parent].key))
        {
            break;
        }
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = moving;
}

void
QuaternaryHeapScheduler::HeapSiftDown(std::vector<Event>& heap, std::size_t i)
{
    const std::size_t n = heap.size();
    Event moving = heap[i];
    while (true)
    {
        std::size_t first = i * ARITY + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = MinChild(heap, first, n);
        if (!EventKeyBefore(heap[best].key, moving.key))
        {
            break;
        }
        heap[i] = heap[best];
        i = best;
    }
    heap[i] = moving;
}

std::size_t
QuaternaryHeapScheduler::MinChild(const std::vector<Event>& heap, std::size_t first, std::size_t n)
{
    if (first + ARITY <= n)
    {
        // Full family: a branch-free tournament (keys are random: branches mispredict).
        std::size_t a = first + EventKeyBefore(heap[first + 1].key, heap[first].key);
        std::size_t b = first + 2 + EventKeyBefore(heap[first + 3].key, heap[first + 2].key);
        return EventKeyBefore(heap[b].key, heap[a].key) ? b : a;
    }
    std::size_t best = first;
    for (std::size_t c = first + 1; c < n; ++c)
    {
        best = EventKeyBefore(heap[c].key, heap[best].key) ? c : best;
    }
    return best;
}

void
QuaternaryHeapScheduler::HeapPopTop(std::vector<Event>& heap)
{
    // Floyd's variant: walk the hole from the root to a leaf along the smallest children, then
    // sift the former last entry up from there. The last entry is usually among the latest
    // events, so it belongs near the bottom: about one comparison per level instead of two.
    Event last = heap.back();
    heap.pop_back();
    const std::size_t n = heap.size();
    if (n == 0)
    {
        return;
    }
    std::size_t i = 0;
    for (std::size_t first = 1; first < n; first = i * ARITY + 1)
    {
        std::size_t best = MinChild(heap, first, n);
        heap[i] = heap[best];
        i = best;
    }
    heap[i] = last;
    HeapSiftUp(heap, i);
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
    // Floyd's bottom-up heap construction, O(n).
    const std::size_t n = heap.size();
    if (n > 1)
    {
        for (std::size_t i = (n - 2) / ARITY + 1; i-- > 0;)
        {
            HeapSiftDown(heap, i);
        }
    }
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
