/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "delay-class-scheduler.h"

#include "ns3/abort.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DelayClassScheduler);

namespace
{
/// Fibonacci hashing of a delay into a table of 2^bits slots.
inline std::size_t
HashDelay(uint64_t delay, std::size_t mask)
{
    return static_cast<std::size_t>((delay * 0x9E3779B97F4A7C15ull) >> 40) & mask;
}
} // namespace

TypeId
DelayClassScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DelayClassScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("AiFabric")
            .AddConstructor<DelayClassScheduler>()
            .AddAttribute("MaxClasses",
                          "Most delay classes (FIFOs) kept at once; events of further delays go "
                          "to an overflow heap (1..4096).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&DelayClassScheduler::SetMaxClasses,
                                               &DelayClassScheduler::GetMaxClasses),
                          MakeUintegerChecker<uint32_t>(1, 4096));
    return tid;
}

DelayClassScheduler::DelayClassScheduler()
    : m_maxClasses(64)
{
}

DelayClassScheduler::~DelayClassScheduler() = default;

void
DelayClassScheduler::Insert(const Event& ev)
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
                ++m_busyClasses;
                PushBack(f, ev);
                PushHead(MakeHead(ev.key, static_cast<uint32_t>(c)));
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

bool
DelayClassScheduler::IsEmpty() const
{
    return m_heads.empty(); // the front is never a removed entry
}

Scheduler::Event
DelayClassScheduler::PeekNext() const
{
    NS_ABORT_MSG_IF(m_heads.empty(), "DelayClassScheduler::PeekNext on an empty queue");
    uint32_t s = m_heads.front().source;
    return s == OVERFLOW_SOURCE ? m_overflow.front() : m_fifos[s].Front();
}

Scheduler::Event
DelayClassScheduler::RemoveNext()
{
    NS_ABORT_MSG_IF(m_heads.empty(), "DelayClassScheduler::RemoveNext on an empty queue");
    Event next = TakeFront();
    m_now = next.key.m_ts;
    DropRemovedFront();
    if (m_removed.GetSize() > m_entries / 4)
    {
        Compact(); // popping live events also shifts the live/removed balance
    }
    return next;
}

void
DelayClassScheduler::Remove(const Event& ev)
{
    NS_ABORT_MSG_IF(m_heads.empty(), "DelayClassScheduler::Remove on an empty queue");
    if (HeadIs(m_heads.front(), ev.key))
    {
        TakeFront();
        DropRemovedFront();
    }
    else
    {
        m_removed.Add(ev.key);
    }
    if (m_removed.GetSize() > m_entries / 4)
    {
        Compact();
    }
}

std::size_t
DelayClassScheduler::GetNEntries() const
{
    return m_entries;
}

void
DelayClassScheduler::SetMaxClasses(uint32_t maxClasses)
{
    NS_ABORT_MSG_IF(!m_table.empty(),
                    "DelayClassScheduler MaxClasses cannot change from "
                        << m_maxClasses << " to " << maxClasses << " after events were inserted");
    m_maxClasses = maxClasses;
}

uint32_t
DelayClassScheduler::GetMaxClasses() const
{
    return m_maxClasses;
}

std::size_t
DelayClassScheduler::GetNClasses() const
{
    return m_fifos.size();
}

std::size_t
DelayClassScheduler::GetNOverflow() const
{
    return m_overflow.size();
}

int32_t
DelayClassScheduler::ClassOf(uint64_t delay)
{
    for (std::size_t i = 0; i < RECENT; ++i)
    {
        if (m_recentDelay[i] == delay)
        {
            return m_recentClass[i];
        }
    }
    if (m_table.empty())
    {
        RebuildTable();
    }
    const std::size_t mask = m_table.size() - 1;
    std::size_t slot = HashDelay(delay, mask);
    while (m_table[slot] != NO_CLASS)
    {
        if (m_fifos[m_table[slot]].delay == delay)
        {
            Remember(delay, m_table[slot]);
            return m_table[slot];
        }
        slot = (slot + 1) & mask;
    }
    if (m_fifos.size() >= m_maxClasses)
    {
        if (2 * m_busyClasses > m_maxClasses)
        {
            return NO_CLASS; // releasing the empty classes would free too few
        }
        ReleaseEmptyClasses();
        return ClassOf(delay); // the table was rebuilt: find a free slot again
    }
    auto c = static_cast<int32_t>(m_fifos.size());
    m_fifos.emplace_back();
    m_fifos.back().delay = delay;
    m_table[slot] = c;
    Remember(delay, c);
    return c;
}

void
DelayClassScheduler::ReleaseEmptyClasses()
{
    std::vector<Fifo> kept;
    kept.reserve(m_maxClasses);
    for (auto& f : m_fifos)
    {
        if (f.size > 0)
        {
            kept.push_back(std::move(f));
        }
    }
    m_fifos = std::move(kept);
    RebuildTable();
    RebuildHeads(); // class indices changed
}

void
DelayClassScheduler::RebuildTable()
{
    std::size_t slots = 4;
    while (slots < 2 * std::size_t(m_maxClasses))
    {
        slots *= 2;
    }
    m_table.assign(slots, NO_CLASS);
    const std::size_t mask = slots - 1;
    for (std::size_t c = 0; c < m_fifos.size(); ++c)
    {
        std::size_t slot = HashDelay(m_fifos[c].delay, mask);
        while (m_table[slot] != NO_CLASS)
        {
            slot = (slot + 1) & mask;
        }
        m_table[slot] = static_cast<int32_t>(c);
    }
    m_recentDelay.fill(UINT64_MAX);
    m_recentClass.fill(NO_CLASS);
}

void
DelayClassScheduler::RebuildHeads()
{
    m_heads.clear();
    for (std::size_t c = 0; c < m_fifos.size(); ++c)
    {
        if (m_fifos[c].size > 0)
        {
            PushHead(MakeHead(m_fifos[c].Front().key, static_cast<uint32_t>(c)));
        }
    }
    if (!m_overflow.empty())
    {
        PushHead(MakeHead(m_overflow.front().key, OVERFLOW_SOURCE));
    }
}

void
DelayClassScheduler::PushBack(Fifo& f, const Event& ev)
{
    if (f.size == f.ring.size())
    {
        // Grow by doubling, unrolling the ring so that the front is at index 0.
        std::vector<Event> grown(f.ring.empty() ? 16 : 2 * f.ring.size());
        for (std::size_t i = 0; i < f.size; ++i)
        {
            grown[i] = f.ring[(f.head + i) & (f.ring.size() - 1)];
        }
        f.ring.swap(grown);
        f.head = 0;
    }
    f.ring[(f.head + f.size) & (f.ring.size() - 1)] = ev;
    ++f.size;
}

void
DelayClassScheduler::InsertOverflow(const Event& ev)
{
    m_overflow.push_back(ev);
    std::push_heap(m_overflow.begin(), m_overflow.end(), EventLater);
    if (m_overflow.size() == 1)
    {
        PushHead(MakeHead(ev.key, OVERFLOW_SOURCE));
    }
    else if (SameEventKey(m_overflow.front().key, ev.key))
    {
        // An earlier front: find the overflow heap's entry (the head heap is small) and move
        // it up.
        for (std::size_t i = 0; i < m_heads.size(); ++i)
        {
            if (m_heads[i].source == OVERFLOW_SOURCE)
            {
                m_heads[i] = MakeHead(ev.key, OVERFLOW_SOURCE);
                SiftUpHead(i);
                break;
            }
        }
    }
}

Scheduler::Event
DelayClassScheduler::TakeFront()
{
    --m_entries;
    Head& top = m_heads.front();
    Event ev;
    bool more;
    if (top.source == OVERFLOW_SOURCE)
    {
        std::pop_heap(m_overflow.begin(), m_overflow.end(), EventLater);
        ev = m_overflow.back();
        m_overflow.pop_back();
        more = !m_overflow.empty();
        if (more)
        {
            top = MakeHead(m_overflow.front().key, OVERFLOW_SOURCE);
        }
    }
    else
    {
        Fifo& f = m_fifos[top.source];
        ev = f.ring[f.head];
        f.head = (f.head + 1) & (f.ring.size() - 1);
        --f.size;
        more = f.size > 0;
        if (more)
        {
            top = MakeHead(f.Front().key, top.source);
        }
        else
        {
            --m_busyClasses;
        }
    }
    if (!more)
    {
        Head last = m_heads.back();
        m_heads.pop_back();
        if (m_heads.empty())
        {
            return ev;
        }
        m_heads[0] = last;
    }
    SiftDownHead(0);
    return ev;
}

void
DelayClassScheduler::DropRemovedFront()
{
    // Every removed entry is still held and the front is the minimum of all entries: the front
    // is a removed entry exactly when it equals the earliest removed key.
    while (!m_removed.IsEmpty() && !m_heads.empty() && HeadIs(m_heads.front(), m_removed.Front()))
    {
        m_removed.PopFront();
        TakeFront();
    }
}

void
DelayClassScheduler::Compact()
{
    m_removed.BuildIndex();
    std::size_t dropped = 0;
    for (auto& f : m_fifos)
    {
        std::size_t kept = 0;
        const std::size_t mask = f.ring.size() - 1;
        for (std::size_t i = 0; i < f.size; ++i)
        {
            const Event& ev = f.ring[(f.head + i) & mask];
            if (m_removed.Contains(ev.key))
            {
                ++dropped;
                continue;
            }
            f.ring[(f.head + kept) & mask] = ev; // kept <= i: never overwrites an unread entry
            ++kept;
        }
        if (kept == 0 && f.size > 0)
        {
            --m_busyClasses;
        }
        f.size = kept;
    }
    std::size_t kept = 0;
    for (const auto& ev : m_overflow)
    {
        if (m_removed.Contains(ev.key))
        {
            ++dropped;
            continue;
        }
        m_overflow[kept++] = ev;
    }
    m_overflow.resize(kept);
    std::make_heap(m_overflow.begin(), m_overflow.end(), EventLater);
    NS_ABORT_MSG_IF(dropped != m_removed.GetSize(),
                    "DelayClassScheduler: " << m_removed.GetSize() - dropped
                                            << " removed event(s) were not pending");
    m_entries -= dropped;
    m_removed.Clear();
    RebuildHeads();
}

void
DelayClassScheduler::PushHead(const Head& h)
{
    m_heads.push_back(h);
    SiftUpHead(m_heads.size() - 1);
}

void
DelayClassScheduler::SiftUpHead(std::size_t i)
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

void
DelayClassScheduler::SiftDownHead(std::size_t i)
{
    const std::size_t n = m_heads.size();
    Head moving = m_heads[i];
    while (true)
    {
        std::size_t child = 2 * i + 1;
        if (child >= n)
        {
            break;
        }
        if (child + 1 < n && HeadBefore(m_heads[child + 1], m_heads[child]))
        {
            ++child;
        }
        if (!HeadBefore(m_heads[child], moving))
        {
            break;
        }
        m_heads[i] = m_heads[child];
        i = child;
    }
    m_heads[i] = moving;
}

} // namespace ns3
