/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuaternaryHeapScheduler and DelayClassScheduler: same event order as ns-3's MapScheduler under
 * random inserts (with timestamp ties, few or many distinct delays), removals and pops; removal
 * of the top; bounded memory under many removals; class release and the overflow heap; and a
 * DCQCN incast (timers armed, moved and removed on every message) giving identical results
 * with every scheduler.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/map-scheduler.h"

#include <random>
#include <set>

using namespace ns3;

namespace
{

/// A fake, never-invoked EventImpl pointer that identifies event \p uid.
EventImpl*
Tag(uint32_t uid)
{
    return reinterpret_cast<EventImpl*>(uintptr_t(uid) * 16 + 16);
}

Scheduler::Event
MakeEv(uint64_t ts, uint32_t uid)
{
    Scheduler::Event ev;
    ev.impl = Tag(uid);
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = uid % 7;
    return ev;
}

/// Drive a scheduler and MapScheduler with the same random operations; every pop must agree.
/// Delays are uniform in [0, tsRange) or, with \p menu non-empty, drawn from the menu (a
/// fabric's few recurring delays).
template <typename S>
void
CompareWithMap(uint32_t seed,
               uint32_t ops,
               uint64_t tsRange,
               double removeShare,
               const std::vector<uint64_t>& menu = {},
               Ptr<S> heap = CreateObject<S>())
{
    Ptr<MapScheduler> map = CreateObject<MapScheduler>();
    std::mt19937_64 rng(seed);
    std::vector<Scheduler::Event> pending; // live events, for choosing removals
    uint64_t now = 0;
    uint32_t uid = 0;
    uint64_t pops = 0;
    for (uint32_t i = 0; i < ops; ++i)
    {
        double u = std::uniform_real_distribution<double>(0, 1)(rng);
        if (u < 0.5 || pending.empty())
        {
            // Future events only, as the simulator guarantees; small range => many ties.
            uint64_t delay = menu.empty() ? rng() % tsRange : menu[rng() % menu.size()];
            Scheduler::Event ev = MakeEv(now + delay, uid++);
            heap->Insert(ev);
            map->Insert(ev);
            pending.push_back(ev);
        }
        else if (u < 0.5 + removeShare)
        {
            std::size_t k = rng() % pending.size();
            heap->Remove(pending[k]);
            map->Remove(pending[k]);
            pending[k] = pending.back();
            pending.pop_back();
        }
        else
        {
            ASSERT_FALSE(heap->IsEmpty());
            Scheduler::Event peekH = heap->PeekNext();
            Scheduler::Event peekM = map->PeekNext();
            ASSERT_EQ(peekH.key.m_uid, peekM.key.m_uid) << "peek at op " << i;
            Scheduler::Event h = heap->RemoveNext();
            Scheduler::Event m = map->RemoveNext();
            ASSERT_EQ(h.key.m_uid, m.key.m_uid) << "pop at op " << i;
            ASSERT_EQ(h.key.m_ts, m.key.m_ts);
            ASSERT_EQ(h.key.m_context, m.key.m_context);
            ASSERT_EQ(h.impl, m.impl);
            ASSERT_GE(h.key.m_ts, now) << "time went backwards";
            now = h.key.m_ts;
            ++pops;
            for (std::size_t k = 0; k < pending.size(); ++k)
            {
                if (pending[k].key.m_uid == h.key.m_uid)
                {
                    pending[k] = pending.back();
                    pending.pop_back();
                    break;
                }
            }
        }
        ASSERT_EQ(heap->IsEmpty(), map->IsEmpty());
        // Removed entries linger at most until they exceed a quarter of the entries.
        ASSERT_LE(3 * heap->GetNEntries(), 4 * pending.size() + 3);
    }
    while (!map->IsEmpty())
    {
        ASSERT_FALSE(heap->IsEmpty());
        ASSERT_EQ(heap->RemoveNext().key.m_uid, map->RemoveNext().key.m_uid);
        ++pops;
    }
    EXPECT_TRUE(heap->IsEmpty());
    EXPECT_EQ(heap->GetNEntries(), 0u);
    EXPECT_GT(pops, ops / 10);
}

TEST(QuaternaryHeapScheduler, SameOrderAsMapSchedulerWithTies)
{
    CompareWithMap<QuaternaryHeapScheduler>(1, 20000, 5, 0.1); // uid breaks constant ties
}

TEST(QuaternaryHeapScheduler, SameOrderAsMapSchedulerWithManyRemovals)
{
    CompareWithMap<QuaternaryHeapScheduler>(2, 20000, 1000000, 0.3); // compaction runs
}

TEST(QuaternaryHeapScheduler, SameOrderAsMapSchedulerLargeQueue)
{
    CompareWithMap<QuaternaryHeapScheduler>(3, 60000, 1ull << 40, 0.02); // thousands pending
}

/// A fabric's recurring delays (ps): serialization and serialization + propagation at a few
/// rates and frame sizes, zero, and timer periods.
const std::vector<uint64_t> FABRIC_DELAYS =
    {0, 9102, 84000, 1280, 150000 + 9102, 500000 + 84000, 500000 + 1280, 55000000, 4000000000ull};

TEST(DelayClassScheduler, SameOrderAsMapSchedulerWithFewDelays)
{
    CompareWithMap<DelayClassScheduler>(4, 60000, 0, 0.05, FABRIC_DELAYS);
}

TEST(DelayClassScheduler, SameOrderAsMapSchedulerWithTies)
{
    CompareWithMap<DelayClassScheduler>(1, 20000, 5, 0.1); // delay 0..4: ties everywhere
}

TEST(DelayClassScheduler, SameOrderAsMapSchedulerWithManyRemovals)
{
    CompareWithMap<DelayClassScheduler>(2, 20000, 1000000, 0.3); // compaction runs
}

TEST(DelayClassScheduler, SameOrderAsMapSchedulerWithRandomDelays)
{
    // Nearly every delay is new: classes fill, are released, and events overflow to the heap.
    CompareWithMap<DelayClassScheduler>(3, 60000, 1ull << 40, 0.02);
}

TEST(DelayClassScheduler, OverflowAndClassReleaseKeepOrder)
{
    // Four classes for a mix of recurring and random delays: the overflow heap and class
    // release are exercised on every few inserts.
    Ptr<DelayClassScheduler> s = CreateObject<DelayClassScheduler>();
    s->SetAttribute("MaxClasses", UintegerValue(4));
    std::vector<uint64_t> menu = FABRIC_DELAYS;
    for (uint64_t d = 1; d < 40; ++d)
    {
        menu.push_back(d * 7919);
    }
    CompareWithMap<DelayClassScheduler>(5, 40000, 0, 0.05, menu, s);
}

TEST(DelayClassScheduler, SameOrderAsMapSchedulerWithEveryDelayAdmitted)
{
    // AdmitOnOverlap off: every new delay takes a class while one is free (the class release
    // and table paths run far more often).
    Ptr<DelayClassScheduler> s = CreateObject<DelayClassScheduler>();
    s->SetAttribute("AdmitOnOverlap", BooleanValue(false));
    CompareWithMap<DelayClassScheduler>(6, 40000, 1ull << 20, 0.05, {}, s);
    Ptr<DelayClassScheduler> t = CreateObject<DelayClassScheduler>();
    t->SetAttribute("AdmitOnOverlap", BooleanValue(false));
    CompareWithMap<DelayClassScheduler>(7, 40000, 0, 0.05, FABRIC_DELAYS, t);
}

TEST(DelayClassScheduler, LateInsertsOfReservedKeysKeepMapSchedulerOrder)
{
    // Reservations as FabricSimulatorImpl makes them: a key (now + delay, next uid) drawn now,
    // inserted later with InsertLate (into its delay's FIFO, possibly before entries inserted
    // since, or as a new front) or never. Every pop must agree with MapScheduler's.
    for (uint32_t seed : {11u, 12u, 13u})
    {
        Ptr<DelayClassScheduler> s = CreateObject<DelayClassScheduler>();
        Ptr<MapScheduler> map = CreateObject<MapScheduler>();
        std::mt19937_64 rng(seed);

        struct Reserved
        {
            Scheduler::Event ev;
            uint64_t delay;
        };

        std::vector<Reserved> reserved;
        uint64_t now = 0;
        uint32_t uid = 0;
        uint32_t late = 0;
        uint32_t pops = 0;
        for (uint32_t i = 0; i < 60000; ++i)
        {
            uint64_t delay = FABRIC_DELAYS[1 + rng() % 5];
            double u = std::uniform_real_distribution<double>(0, 1)(rng);
            if (u < 0.35)
            {
                Scheduler::Event ev = MakeEv(now + delay, uid++);
                s->Insert(ev);
                map->Insert(ev);
            }
            else if (u < 0.55)
            {
                reserved.push_back({MakeEv(now + delay, uid++), delay});
            }
            else if (u < 0.75 && !reserved.empty())
            {
                std::size_t k = rng() % reserved.size();
                Reserved r = reserved[k];
                reserved[k] = reserved.back();
                reserved.pop_back();
                if (r.ev.key.m_ts > now) // not passed: commit it
                {
                    s->InsertLate(r.ev, r.delay);
                    map->Insert(r.ev);
                    ++late;
                }
            }
            else if (!map->IsEmpty())
            {
                ASSERT_FALSE(s->IsEmpty());
                Scheduler::Event a = s->RemoveNext();
                Scheduler::Event b = map->RemoveNext();
                ASSERT_EQ(a.key.m_uid, b.key.m_uid) << "seed " << seed << ", op " << i;
                ASSERT_EQ(a.impl, b.impl);
                now = a.key.m_ts;
                ++pops;
            }
            ASSERT_EQ(s->IsEmpty(), map->IsEmpty());
        }
        while (!map->IsEmpty())
        {
            ASSERT_EQ(s->RemoveNext().key.m_uid, map->RemoveNext().key.m_uid);
        }
        EXPECT_TRUE(s->IsEmpty());
        EXPECT_EQ(s->GetNEntries(), 0u);
        EXPECT_GT(late, 5000u);
        EXPECT_GT(pops, 10000u);
    }
}

TEST(DelayClassScheduler, OnlyOverlappingDelaysGetAClass)
{
    Ptr<DelayClassScheduler> s = CreateObject<DelayClassScheduler>();
    EXPECT_TRUE(s->GetAdmitOnOverlap());
    uint32_t uid = 0;
    // The first event of a delay is not remembered yet: overflow heap.
    s->Insert(MakeEv(100, uid++));
    EXPECT_EQ(s->GetNClasses(), 0u);
    EXPECT_EQ(s->GetNOverflow(), 1u);
    // A second one while the first is pending: the delay gets a class.
    s->Insert(MakeEv(100, uid++));
    EXPECT_EQ(s->GetNClasses(), 1u);
    EXPECT_EQ(s->GetNOverflow(), 1u);
    s->Insert(MakeEv(100, uid++)); // ... and keeps it
    EXPECT_EQ(s->GetNOverflow(), 1u);
    EXPECT_EQ(s->RemoveNext().key.m_uid, 0u); // order across the overflow heap and the class
    EXPECT_EQ(s->RemoveNext().key.m_uid, 1u);
    EXPECT_EQ(s->RemoveNext().key.m_uid, 2u);
    // With few busy classes, a delay whose events come one at a time (each inserted when the
    // previous one ran) gets a class on its second event.
    s->Insert(MakeEv(100 + 300, uid++));
    EXPECT_EQ(s->RemoveNext().key.m_uid, uid - 1);
    s->Insert(MakeEv(400 + 300, uid++));
    EXPECT_EQ(s->GetNClasses(), 2u);
    EXPECT_EQ(s->RemoveNext().key.m_uid, uid - 1);
    // With 8 busy classes (8 overlapping delays, each holding far-future events), a delay
    // whose events come one at a time (as a paced sender's) never gets a class.
    const uint64_t far = 1000000;
    uint64_t now = 700;
    for (uint64_t d = 1; d <= 8; ++d)
    {
        s->Insert(MakeEv(now + far + d, uid++));
        s->Insert(MakeEv(now + far + d, uid++));
    }
    const std::size_t classes = s->GetNClasses();
    EXPECT_EQ(classes, 10u);
    for (int i = 0; i < 5; ++i)
    {
        s->Insert(MakeEv(now + 333, uid++));
        EXPECT_EQ(s->RemoveNext().key.m_uid, uid - 1);
        now += 333;
    }
    EXPECT_EQ(s->GetNClasses(), classes);
    EXPECT_EQ(s->GetNEntries(), 16u);
}

TEST(DelayClassScheduler, ClassesAndOverflowAreUsedAsDescribed)
{
    Ptr<DelayClassScheduler> s = CreateObject<DelayClassScheduler>();
    s->SetAttribute("MaxClasses", UintegerValue(2));
    s->SetAttribute("AdmitOnOverlap", BooleanValue(false)); // every new delay takes a class
    uint32_t uid = 0;
    // Two delays take the two classes; a third, while both are busy, overflows.
    s->Insert(MakeEv(100, uid++));
    s->Insert(MakeEv(200, uid++));
    s->Insert(MakeEv(100, uid++));
    EXPECT_EQ(s->GetNClasses(), 2u);
    EXPECT_EQ(s->GetNOverflow(), 0u);
    s->Insert(MakeEv(50, uid++));
    EXPECT_EQ(s->GetNOverflow(), 1u);
    // Pops come in key order across classes and the overflow heap.
    std::vector<uint32_t> order;
    while (!s->IsEmpty())
    {
        order.push_back(s->RemoveNext().key.m_uid);
    }
    EXPECT_EQ(order, (std::vector<uint32_t>{3, 0, 2, 1}));
    EXPECT_EQ(s->GetNEntries(), 0u);
    // Now both classes are empty: a new delay releases them instead of overflowing.
    s->Insert(MakeEv(200 + 70, uid++));
    EXPECT_EQ(s->GetNOverflow(), 0u);
    EXPECT_EQ(s->GetNClasses(), 1u);
    // An insert earlier than its class tail (impossible in a simulation) overflows but keeps order.
    s->Insert(MakeEv(200 + 70, uid++)); // same delay: same class
    s->Insert(MakeEv(200 + 70, 0));     // uid 0 was popped: this key is before both of the class's
    EXPECT_EQ(s->GetNOverflow(), 1u);
    EXPECT_EQ(s->RemoveNext().key.m_uid, 0u);
}

TEST(RemovedEventSet, FrontIsTheEarliestAndContainsFindsEveryKey)
{
    RemovedEventSet set;
    std::mt19937 rng(9);
    std::set<uint32_t> uids;
    std::vector<Scheduler::EventKey> keys;
    while (uids.size() < 3000)
    {
        uint32_t uid = 4 + rng() % 100000;
        if (uids.insert(uid).second)
        {
            keys.push_back(MakeEv(rng() % 50, uid).key); // many equal timestamps
            set.Add(keys.back());
        }
    }
    set.BuildIndex();
    for (uint32_t uid = 4; uid < 100004; ++uid)
    {
        ASSERT_EQ(set.Contains(MakeEv(0, uid).key), uids.count(uid) == 1) << "uid " << uid;
    }
    std::sort(keys.begin(), keys.end(), EventKeyBefore);
    for (const auto& k : keys)
    {
        ASSERT_TRUE(SameEventKey(set.Front(), k));
        set.PopFront();
    }
    EXPECT_TRUE(set.IsEmpty());
}

TEST(EventSchedulerDeathTest, SetEventSchedulerRejectsBadNamesNamingThem)
{
    EXPECT_DEATH(SetEventScheduler("ns3::HeapScheduler"),
                 "ns3::HeapScheduler is not supported: its Remove\\(\\) breaks event order");
    EXPECT_DEATH(SetEventScheduler("ns3::Node"), "ns3::Node is not an ns-3 Scheduler type");
    EXPECT_DEATH(SetEventScheduler("ns3::NoSuchScheduler"),
                 "ns3::NoSuchScheduler is not an ns-3 Scheduler type");
    EXPECT_DEATH(
        {
            Ptr<DelayClassScheduler> s = CreateObject<DelayClassScheduler>();
            s->Insert(MakeEv(10, 4));
            s->SetAttribute("MaxClasses", UintegerValue(8));
        },
        "MaxClasses cannot change from 64 to 8 after events were inserted");
}

TEST(DelayClassScheduler, InvalidMaxClassesIsRejected)
{
    Ptr<DelayClassScheduler> s = CreateObject<DelayClassScheduler>();
    // Out of range is a configuration error, refused even by the FailSafe variant, naming the
    // attribute, the value and the range.
    EXPECT_DEATH(s->SetAttributeFailSafe("MaxClasses", UintegerValue(0)),
                 "ns3::DelayClassScheduler::MaxClasses=0 is out of range: valid range 1..4096");
    EXPECT_DEATH(s->SetAttributeFailSafe("MaxClasses", UintegerValue(5000)),
                 "ns3::DelayClassScheduler::MaxClasses=5000 is out of range");
    EXPECT_TRUE(s->SetAttributeFailSafe("MaxClasses", UintegerValue(4096)));
}

template <typename S>
void
RemovingTheTopExposesTheNext()
{
    Ptr<S> s = CreateObject<S>();
    for (uint32_t uid = 0; uid < 8; ++uid)
    {
        s->Insert(MakeEv(10 + uid, uid));
    }
    s->Insert(MakeEv(5, 8));
    s->Remove(MakeEv(5, 8)); // the top: dropped at once
    EXPECT_EQ(s->PeekNext().key.m_uid, 0u);
    EXPECT_EQ(s->GetNEntries(), 8u);
    s->Remove(MakeEv(11, 1)); // not the top: lingers as a removed entry
    EXPECT_EQ(s->GetNEntries(), 8u);
    EXPECT_EQ(s->RemoveNext().key.m_uid, 0u);
    // The removed entry is dropped as soon as it reaches the top.
    EXPECT_EQ(s->PeekNext().key.m_uid, 2u);
    EXPECT_EQ(s->GetNEntries(), 6u);
    for (uint32_t uid = 2; uid < 8; ++uid)
    {
        EXPECT_EQ(s->RemoveNext().key.m_uid, uid);
    }
    EXPECT_TRUE(s->IsEmpty());
}

TEST(QuaternaryHeapScheduler, RemovingTheTopExposesTheNext)
{
    RemovingTheTopExposesTheNext<QuaternaryHeapScheduler>();
}

TEST(DelayClassScheduler, RemovingTheTopExposesTheNext)
{
    RemovingTheTopExposesTheNext<DelayClassScheduler>();
}

/// A DCQCN incast on a star; returns completion times, the event count and the end time.
std::vector<int64_t>
RunIncast(const std::string& scheduler)
{
    ObjectFactory f;
    f.SetTypeId(scheduler);
    Simulator::SetScheduler(f);
    const uint32_t senders = 8;
    StarTopologyHelper star;
    test::InstallDcqcnStar(star, senders + 1);
    std::vector<int64_t> out(senders, -1);
    for (uint32_t h = 0; h < senders; ++h)
    {
        auto qp = star.Connect(h, senders)[0].first;
        // Several messages per QP: the ACK timer is armed, moved and removed for each one.
        for (uint32_t m = 0; m < 4; ++m)
        {
            qp->PostWrite((h + 1) * 64 * 1024,
                          0,
                          1,
                          MakeCallback(+[](int64_t* slot, const RoceWorkCompletion& wc) {
                              *slot = wc.endTime.GetPicoSeconds();
                          }).Bind(&out[h]));
        }
    }
    Simulator::Run();
    out.push_back(int64_t(Simulator::GetEventCount()));
    out.push_back(Simulator::Now().GetPicoSeconds());
    Simulator::Destroy();
    return out;
}

class QuaternaryHeapSchedulerSim : public test::SimTest
{
};

TEST_F(QuaternaryHeapSchedulerSim, IdenticalResultsToMapScheduler)
{
    std::vector<int64_t> map = RunIncast("ns3::MapScheduler");
    std::vector<int64_t> heap = RunIncast("ns3::QuaternaryHeapScheduler");
    std::vector<int64_t> classes = RunIncast("ns3::DelayClassScheduler");
    ASSERT_EQ(map.size(), heap.size());
    for (std::size_t i = 0; i + 2 < map.size(); ++i)
    {
        EXPECT_GT(map[i], 0) << "sender " << i << " did not complete";
    }
    EXPECT_EQ(map, heap);
    EXPECT_EQ(map, classes);
}

} // namespace
