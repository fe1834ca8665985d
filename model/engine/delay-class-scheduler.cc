/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "delay-class-scheduler.h"

#include "quaternary-heap-scheduler.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/fabric-attribute-checker.h"
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
            .AddAttribute(
                "MaxClasses",
                "Most delay classes (FIFOs) kept at once; events of further delays go "
                "to an overflow heap (1..4096).",
                UintegerValue(64),
                MakeUintegerAccessor(&DelayClassScheduler::SetMaxClasses,
                                     &DelayClassScheduler::GetMaxClasses),
                MakeFabricUintegerChecker<uint32_t>("ns3::DelayClassScheduler::MaxClasses",
                                                    1,
                                                    4096))
            .AddAttribute("AdmitOnOverlap",
                          "A delay gets a class (FIFO) only when it is inserted again (while 8 or "
                          "more classes are busy: while the previous event inserted with it is "
                          "still pending); other events go to the overflow heap. false: every new "
                          "delay gets a class while one is free. Event order is the same either "
                          "way.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DelayClassScheduler::SetAdmitOnOverlap,
                                              &DelayClassScheduler::GetAdmitOnOverlap),
                          MakeBooleanChecker());
    return tid;
}

DelayClassScheduler::DelayClassScheduler()
    : m_maxClasses(64)
{
}

DelayClassScheduler::~DelayClassScheduler() = default;

Scheduler::Event
DelayClassScheduler::PeekNext() const
{
    NS_ABORT_MSG_IF(m_heads.empty(), "DelayClassScheduler::PeekNext on an empty queue");
    uint32_t s = m_heads.front().Source();
    return s == OVERFLOW_SOURCE ? m_overflow.front() : m_fifos[s].Front();
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

void
DelayClassScheduler::SetAdmitOnOverlap(bool on)
{
    m_admitOnOverlap = on;
}

bool
DelayClassScheduler::GetAdmitOnOverlap() const
{
    return m_admitOnOverlap;
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
DelayClassScheduler::LookupClass(uint64_t delay)
{
    if (m_table.empty())
    {
        RebuildTable();
    }
    const std::size_t slot = FindSlot(delay);
    if (m_table[slot] != NO_CLASS)
    {
        Remember(delay, m_table[slot]);
        return m_table[slot];
    }
    if (m_admitOnOverlap)
    {
        // A delay that the slot does not remember, or whose previous event has already run
        // while OVERLAP_ONLY_CLASSES or more classes are busy, goes to the overflow heap (see
        // the class comment).
        Sighting& seen = m_seen[HashDelay(delay, m_seen.size() - 1)];
        if (seen.delay != delay || (seen.ts <= m_now && m_busyClasses >= OVERLAP_ONLY_CLASSES))
        {
            seen.delay = delay;
            seen.ts = m_now + delay;
            return NO_CLASS;
        }
    }
    if (m_fifos.size() >= m_maxClasses)
    {
        if (2 * m_busyClasses > m_maxClasses)
        {
            return NO_CLASS; // releasing the empty classes would free too few
        }
        ReleaseEmptyClasses();
        return LookupClass(delay); // the table was rebuilt: find a free slot again
    }
    auto c = static_cast<int32_t>(m_fifos.size());
    m_fifos.emplace_back();
    m_fifos.back().delay = delay;
    m_table[slot] = c;
    Remember(delay, c);
    return c;
}

std::size_t
DelayClassScheduler::FindSlot(uint64_t delay) const
{
    const std::size_t mask = m_table.size() - 1;
    std::size_t slot = HashDelay(delay, mask);
    while (m_table[slot] != NO_CLASS && m_fifos[m_table[slot]].delay != delay)
    {
        slot = (slot + 1) & mask;
    }
    return slot;
}

bool
DelayClassScheduler::InsertIntoClass(const Event& ev, uint64_t delay)
{
    int32_t c = RecentClass(delay);
    if (c == NO_CLASS && !m_table.empty())
    {
        c = m_table[FindSlot(delay)]; // an existing class only: no new class, no admission
    }
    if (c == NO_CLASS)
    {
        return false;
    }
    Fifo& f = m_fifos[c];
    if (f.size == 0)
    {
        StartClass(f, c, ev);
        return true;
    }
    const std::size_t mask = f.ring.size() - 1;
    auto at = [&f, mask](std::size_t i) -> const EventKey& {
        return f.ring[(f.head + i) & mask].key;
    };
    if (!EventKeyBefore(ev.key, at(f.size - 1)))
    {
        PushBack(f, ev); // in order after all (nothing of its delay was inserted since)
        return true;
    }
    // The first entry after the event, among the last LATE_SHIFT (binary search: the FIFO is
    // sorted).
    std::size_t lo = f.size > LATE_SHIFT ? f.size - LATE_SHIFT : 0;
    std::size_t hi = f.size - 1; // at(hi) is after the event
    if (lo > 0 && EventKeyBefore(ev.key, at(lo - 1)))
    {
        return false; // too far from the tail
    }
    while (lo < hi)
    {
        std::size_t mid = lo + (hi - lo) / 2;
        if (EventKeyBefore(ev.key, at(mid)))
        {
            hi = mid;
        }
        else
        {
            lo = mid + 1;
        }
    }
    const std::size_t pos = lo; // the event goes before index pos
    if (f.size == f.ring.size())
    {
        Grow(f);
    }
    const std::size_t m = f.ring.size() - 1;
    if (f.head + f.size < f.ring.size())
    {
        // The entries from pos on and the free slot after them are contiguous: one move.
        Event* first = f.ring.data() + f.head + pos;
        std::move_backward(first,
                           f.ring.data() + f.head + f.size,
                           f.ring.data() + f.head + f.size + 1);
    }
    else
    {
        for (std::size_t k = f.size; k > pos; --k) // shift the later entries one slot back
        {
            f.ring[(f.head + k) & m] = f.ring[(f.head + k - 1) & m];
        }
    }
    f.ring[(f.head + pos) & m] = ev;
    ++f.size;
    if (pos == 0)
    {
        // A new front: its head-heap entry gets the earlier key and moves up.
        for (std::size_t i = 0; i < m_heads.size(); ++i)
        {
            if (m_heads[i].Source() == static_cast<uint32_t>(c))
            {
                m_heads[i] = MakeHead(ev.key, static_cast<uint32_t>(c));
                SiftUpHead(i);
                break;
            }
        }
    }
    return true;
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
    if (m_seen.size() != slots)
    {
        m_seen.assign(slots, Sighting{});
    }
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
DelayClassScheduler::Grow(Fifo& f)
{
    std::vector<Event> grown(f.ring.empty() ? 16 : 2 * f.ring.size());
    for (std::size_t i = 0; i < f.size; ++i)
    {
        grown[i] = f.ring[(f.head + i) & (f.ring.size() - 1)];
    }
    f.ring.swap(grown);
    f.head = 0;
}

void
DelayClassScheduler::InsertOverflow(const Event& ev)
{
    m_overflow.push_back(ev);
    QuaternaryHeapScheduler::HeapSiftUp(m_overflow, m_overflow.size() - 1);
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
            if (m_heads[i].Source() == OVERFLOW_SOURCE)
            {
                m_heads[i] = MakeHead(ev.key, OVERFLOW_SOURCE);
                SiftUpHead(i);
                break;
            }
        }
    }
}

Scheduler::Event
DelayClassScheduler::TakeOverflowFront()
{
    Event ev = m_overflow.front();
    QuaternaryHeapScheduler::HeapPopTop(m_overflow);
    if (m_overflow.empty())
    {
        PopHead();
    }
    else
    {
        m_heads.front() = MakeHead(m_overflow.front().key, OVERFLOW_SOURCE);
        SiftDownFront();
    }
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
    QuaternaryHeapScheduler::HeapMake(m_overflow);
    NS_ABORT_MSG_IF(dropped != m_removed.GetSize(),
                    "DelayClassScheduler: " << m_removed.GetSize() - dropped
                                            << " removed event(s) were not pending");
    m_entries -= dropped;
    m_removed.Clear();
    RebuildHeads();
}

} // namespace ns3
