/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "causal-order-scheduler.h"

#include "ns3/abort.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CausalOrderScheduler);

TypeId
CausalOrderScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CausalOrderScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<CausalOrderScheduler>();
    return tid;
}

CausalOrderScheduler::CausalOrderScheduler() = default;

CausalOrderScheduler::~CausalOrderScheduler()
{
    if (m_host && m_host->GetCausalScheduler() == this)
    {
        m_host->SetCausalScheduler(nullptr);
    }
}

void
CausalOrderScheduler::DetachHost()
{
    m_host = nullptr;
}

/// CausalOrderScheduler's order, for the shared heap primitives.
struct CausalOrderScheduler::EntryBefore
{
    /// \param a an entry \param b an entry \return true if \p a runs before \p b
    bool operator()(const Entry& a, const Entry& b) const
    {
        return Before(a, b);
    }
};

Scheduler::Event
CausalOrderScheduler::ToEvent(const Entry& e)
{
    Event ev;
    ev.impl = e.impl;
    ev.key.m_ts = static_cast<uint64_t>(e.when >> 64);
    ev.key.m_uid = e.uid;
    ev.key.m_context = e.context;
    return ev;
}

void
CausalOrderScheduler::Attach()
{
    Ptr<SimulatorImpl> engine = Simulator::GetImplementation();
    m_host = dynamic_cast<CausalOrderHost*>(PeekPointer(engine));
    NS_ABORT_MSG_IF(m_host == nullptr,
                    "ns3::CausalOrderScheduler runs under ns3::CausalSimulatorImpl or "
                    "ns3::CausalDistributedSimulatorImpl (their IsExpired follows its order); "
                    "the engine is "
                        << engine->GetInstanceTypeId().GetName());
    m_host->SetCausalScheduler(this);
}

void
CausalOrderScheduler::Insert(const Event& ev)
{
    if (m_host == nullptr)
    {
        Attach();
    }
    CausalKey k = m_hasNextKey ? m_nextKey : DrawKey();
    m_hasNextKey = false;
    Entry e;
    e.when = (__uint128_t(ev.key.m_ts) << 64) | k.createdTs;
    e.who = (__uint128_t(k.creator) << 64) | k.seq;
    e.impl = ev.impl;
    e.uid = ev.key.m_uid;
    e.context = ev.key.m_context;
    if (m_top != NO_TOP && Before(e, Front(m_top)))
    {
        m_top = NO_TOP; // the new entry comes first
    }
    m_entries++;
    if (ev.key.m_ts >= m_currentTs && ToFifo(ev.key.m_ts - m_currentTs, e))
    {
        return;
    }
    m_heap.push_back(e);
    Heap::SiftUp(m_heap, m_heap.size() - 1);
}

bool
CausalOrderScheduler::ToFifo(uint64_t delay, const Entry& e)
{
    for (uint32_t used = m_fifoUsed; used != 0; used &= used - 1)
    {
        const auto f = static_cast<uint32_t>(__builtin_ctz(used));
        if (m_fifoDelay[f] == delay)
        {
            const Fifo& q = m_fifos[f];
            if (Before(e, q.ring[(q.head + q.size - 1) & (q.ring.size() - 1)]))
            {
                return false; // before the FIFO's last: the heap keeps it in order
            }
            PushBack(f, e);
            return true;
        }
    }
    if (m_fifoUsed == (1u << N_FIFOS) - 1)
    {
        return false; // every FIFO holds another delay
    }
    const auto f = static_cast<uint32_t>(__builtin_ctz(~m_fifoUsed));
    m_fifoUsed |= 1u << f;
    m_fifoDelay[f] = delay;
    PushBack(f, e);
    return true;
}

void
CausalOrderScheduler::PushBack(uint32_t f, const Entry& e)
{
    Fifo& q = m_fifos[f];
    if (q.size == q.ring.size())
    {
        std::vector<Entry> bigger(q.ring.empty() ? 16 : 2 * q.ring.size());
        for (uint32_t i = 0; i < q.size; ++i)
        {
            bigger[i] = q.ring[(q.head + i) & (q.ring.size() - 1)];
        }
        q.ring.swap(bigger);
        q.head = 0;
    }
    q.ring[(q.head + q.size) & (q.ring.size() - 1)] = e;
    q.size++;
}

uint32_t
CausalOrderScheduler::TopQueue() const
{
    if (m_top != NO_TOP)
    {
        return m_top;
    }
    uint32_t best = N_FIFOS;
    const Entry* bestEntry = m_heap.empty() ? nullptr : &m_heap.front();
    for (uint32_t used = m_fifoUsed; used != 0; used &= used - 1)
    {
        const auto f = static_cast<uint32_t>(__builtin_ctz(used));
        const Entry& head = m_fifos[f].ring[m_fifos[f].head];
        if (bestEntry == nullptr || Before(head, *bestEntry))
        {
            best = f;
            bestEntry = &head;
        }
    }
    m_top = best;
    return best;
}

const CausalOrderScheduler::Entry&
CausalOrderScheduler::Front(uint32_t q) const
{
    return q == N_FIFOS ? m_heap.front() : m_fifos[q].ring[m_fifos[q].head];
}

void
CausalOrderScheduler::Pop(uint32_t q)
{
    m_top = NO_TOP;
    m_entries--;
    if (q == N_FIFOS)
    {
        Heap::PopTop(m_heap);
        return;
    }
    Fifo& f = m_fifos[q];
    f.head = (f.head + 1) & (f.ring.size() - 1);
    if (--f.size == 0)
    {
        m_fifoUsed &= ~(1u << q); // free for another delay
        f.head = 0;
    }
}

bool
CausalOrderScheduler::IsEmpty() const
{
    return m_entries == 0; // the earliest entry is never a removed one
}

Scheduler::Event
CausalOrderScheduler::PeekNext() const
{
    NS_ABORT_MSG_IF(m_entries == 0, "CausalOrderScheduler::PeekNext on an empty queue");
    return ToEvent(Front(TopQueue()));
}

Scheduler::Event
CausalOrderScheduler::RemoveNext()
{
    NS_ABORT_MSG_IF(m_entries == 0, "CausalOrderScheduler::RemoveNext on an empty queue");
    const uint32_t q = TopQueue();
    const Entry e = Front(q);
    Pop(q);
    const auto ts = static_cast<uint64_t>(e.when >> 64);
    if (ts != m_currentTs)
    {
        m_ranAtTs.clear();
        if (!m_ranIndex.empty())
        {
            std::unordered_set<uint32_t>().swap(m_ranIndex); // clear() would walk its buckets
        }
        m_currentTs = ts;
    }
    m_ranAtTs.push_back(e.uid);
    if (m_ranAtTs.size() > RAN_INDEX_FROM)
    {
        if (m_ranIndex.empty())
        {
            m_ranIndex.insert(m_ranAtTs.begin(), m_ranAtTs.end());
        }
        else
        {
            m_ranIndex.insert(e.uid);
        }
    }
    m_currentContext = e.context;
    m_runningWhen = e.when;
    m_runningWho = e.who;
    SkipRemoved();
    return ToEvent(e);
}

void
CausalOrderScheduler::Remove(const Event& ev)
{
    m_removed.insert(ev.key.m_uid);
    SkipRemoved();
}

void
CausalOrderScheduler::SkipRemoved()
{
    while (!m_removed.empty() && m_entries > 0)
    {
        const uint32_t q = TopQueue();
        auto it = m_removed.find(Front(q).uid);
        if (it == m_removed.end())
        {
            break;
        }
        m_removed.erase(it);
        Pop(q);
    }
    if (m_removed.size() > 64 && m_removed.size() * 4 > m_entries)
    {
        // Many removed entries behind the fronts: filter them out in one pass.
        m_top = NO_TOP;
        auto gone = [this](const Entry& e) { return m_removed.count(e.uid) != 0; };
        m_heap.erase(std::remove_if(m_heap.begin(), m_heap.end(), gone), m_heap.end());
        Heap::Make(m_heap);
        m_entries = m_heap.size();
        for (uint32_t used = m_fifoUsed; used != 0; used &= used - 1)
        {
            const auto f = static_cast<uint32_t>(__builtin_ctz(used));
            Fifo& q = m_fifos[f];
            uint32_t kept = 0;
            for (uint32_t i = 0; i < q.size; ++i)
            {
                const Entry& e = q.ring[(q.head + i) & (q.ring.size() - 1)];
                if (!gone(e))
                {
                    q.ring[(q.head + kept++) & (q.ring.size() - 1)] = e;
                }
            }
            q.size = kept;
            m_entries += kept;
            if (kept == 0)
            {
                m_fifoUsed &= ~(1u << f);
                q.head = 0;
            }
        }
        m_removed.clear();
    }
}

CausalKey
CausalOrderScheduler::GetRunningKey(uint64_t* ts) const
{
    *ts = static_cast<uint64_t>(m_runningWhen >> 64);
    CausalKey k;
    k.createdTs = static_cast<uint64_t>(m_runningWhen);
    k.creator = static_cast<uint32_t>(m_runningWho >> 64);
    k.seq = static_cast<uint64_t>(m_runningWho);
    return k;
}

CausalKey
CausalOrderScheduler::DrawKey()
{
    CausalKey k;
    k.createdTs = m_currentTs;
    k.creator = m_currentContext;
    k.seq = m_seq++;
    return k;
}

void
CausalOrderScheduler::SetNextKey(const CausalKey& key)
{
    NS_ABORT_MSG_IF(m_hasNextKey, "CausalOrderScheduler::SetNextKey twice before an insertion");
    m_nextKey = key;
    m_hasNextKey = true;
}

bool
CausalOrderScheduler::HasRun(const EventId& id) const
{
    if (id.GetTs() != m_currentTs)
    {
        return id.GetTs() < m_currentTs;
    }
    if (m_ranAtTs.size() > RAN_INDEX_FROM)
    {
        return m_ranIndex.count(id.GetUid()) != 0;
    }
    return std::find(m_ranAtTs.begin(), m_ranAtTs.end(), id.GetUid()) != m_ranAtTs.end();
}

CausalOrderScheduler*
CausalOrderScheduler::GetCurrent()
{
    auto* host = dynamic_cast<CausalOrderHost*>(PeekPointer(Simulator::GetImplementation()));
    return host ? host->GetCausalScheduler() : nullptr;
}

} // namespace ns3
