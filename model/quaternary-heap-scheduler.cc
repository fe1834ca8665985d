/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quaternary-heap-scheduler.h"

#include "ns3/abort.h"

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
    SiftUp(m_heap.size() - 1);
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
    PopTop();
    DropDeadTop();
    if (m_dead.size() > m_heap.size() / 2)
    {
        Compact(); // popping live events also shifts the live/removed balance
    }
    return next;
}

void
QuaternaryHeapScheduler::Remove(const Event& ev)
{
    NS_ABORT_MSG_IF(m_heap.empty(), "QuaternaryHeapScheduler::Remove on an empty queue");
    if (m_heap.front().key.m_uid == ev.key.m_uid && m_heap.front().key.m_ts == ev.key.m_ts)
    {
        PopTop();
        DropDeadTop();
    }
    else
    {
        m_dead.emplace(ev.key.m_uid, ev.key.m_ts);
    }
    if (m_dead.size() > m_heap.size() / 2)
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
QuaternaryHeapScheduler::SiftUp(std::size_t i)
{
    Event moving = m_heap[i];
    while (i > 0)
    {
        std::size_t parent = (i - 1) / ARITY;
        if (!Before(moving.key, m_heap[parent].key))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = moving;
}

void
QuaternaryHeapScheduler::SiftDown(std::size_t i)
{
    const std::size_t n = m_heap.size();
    Event moving = m_heap[i];
    while (true)
    {
        std::size_t first = i * ARITY + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t last = first + ARITY < n ? first + ARITY : n;
        std::size_t best = first;
        for (std::size_t c = first + 1; c < last; ++c)
        {
            if (Before(m_heap[c].key, m_heap[best].key))
            {
                best = c;
            }
        }
        if (!Before(m_heap[best].key, moving.key))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = moving;
}

void
QuaternaryHeapScheduler::PopTop()
{
    m_heap.front() = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0);
    }
}

void
QuaternaryHeapScheduler::DropDeadTop()
{
    while (!m_dead.empty() && !m_heap.empty())
    {
        auto it = m_dead.find(m_heap.front().key.m_uid);
        if (it == m_dead.end() || it->second != m_heap.front().key.m_ts)
        {
            return;
        }
        m_dead.erase(it);
        PopTop();
    }
}

void
QuaternaryHeapScheduler::Compact()
{
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        auto it = m_dead.find(m_heap[i].key.m_uid);
        if (it != m_dead.end() && it->second == m_heap[i].key.m_ts)
        {
            m_dead.erase(it);
            continue;
        }
        m_heap[kept++] = m_heap[i];
    }
    NS_ABORT_MSG_IF(!m_dead.empty(),
                    "QuaternaryHeapScheduler: " << m_dead.size()
                                                << " removed event(s) were not pending");
    m_heap.resize(kept);
    // Floyd's bottom-up heap construction, O(n).
    if (kept > 1)
    {
        for (std::size_t i = (kept - 2) / ARITY + 1; i-- > 0;)
        {
            SiftDown(i);
        }
    }
}

} // namespace ns3
