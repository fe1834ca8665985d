/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricSimulatorImpl: the same event order and EventId semantics as ns-3's
 * DefaultSimulatorImpl (random schedule/cancel/remove workloads with ties, ScheduleNow,
 * ScheduleDestroy, Stop); reservations run at their reserved place when committed and never
 * otherwise; errors abort with messages; whole fabric runs (a PFC/DCQCN incast, a ring
 * AllReduce) give identical results under both engines, with fewer events under
 * FabricSimulatorImpl; a port's deferred transmission end keeps IsTransmitting() exact.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <random>
#include <thread>

using namespace ns3;

namespace
{

/// Record of the events that ran: (time step, label).
using Trace = std::vector<std::pair<int64_t, uint32_t>>;

void
Record(Trace* trace, uint32_t label)
{
    trace->emplace_back(Simulator::Now().GetTimeStep(), label);
}

/// A random workload run on the engine \p engine: events scheduled from events with delays
/// drawn from a few values (many ties), some cancelled or removed, some ScheduleNow, destroy
/// events, and EventId queries recorded as they are answered.
Trace
RandomWorkload(const std::string& engine, uint32_t seed)
{
    SetSimulatorImpl(engine);
    Trace trace;
    std::mt19937 rng(seed);
    std::vector<EventId> ids;
    uint32_t next = 0;
    std::function<void(uint32_t)> body;
    body = [&](uint32_t label) {
        Record(&trace, label);
        for (uint32_t k = 0; k < 3 && next < 4000; ++k)
        {
            uint32_t l = next++;
            switch (rng() % 6)
            {
            case 0:
                ids.push_back(Simulator::ScheduleNow([&body, l]() { body(l); }));
                break;
            case 1:
                if (!ids.empty())
                {
                    EventId& id = ids[rng() % ids.size()];
                    // The answers are part of the trace: they must agree too.
                    trace.emplace_back(Simulator::GetDelayLeft(id).GetTimeStep(),
                                       1000000 + Simulator::IsExpired(id));
                    (rng() % 2) ? Simulator::Cancel(id) : Simulator::Remove(id);
                }
                break;
            default:
                ids.push_back(
                    Simulator::Schedule(NanoSeconds(rng() % 4), [&body, l]() { body(l); }));
                break;
            }
        }
    };
    for (uint32_t i = 0; i < 8; ++i)
    {
        uint32_t l = next++;
        Simulator::Schedule(NanoSeconds(i % 3), [&body, l]() { body(l); });
    }
    Simulator::ScheduleDestroy(&Record, &trace, 2000000u);
    EventId gone = Simulator::ScheduleDestroy(&Record, &trace, 2000001u);
    Simulator::Cancel(gone);
    Simulator::ScheduleDestroy(&Record, &trace, 2000002u);
    Simulator::Run();
    trace.emplace_back(int64_t(Simulator::GetEventCount()), 3000000u);
    Simulator::Destroy();
    return trace;
}

} // namespace

TEST(FabricSimulatorImpl, SameOrderAndEventIdAnswersAsDefaultSimulatorImpl)
{
    for (uint32_t seed : {1u, 2u, 3u})
    {
        Trace def = RandomWorkload("ns3::DefaultSimulatorImpl", seed);
        Trace fab = RandomWorkload("ns3::FabricSimulatorImpl", seed);
        ASSERT_GT(def.size(), 1000u);
        EXPECT_EQ(def, fab) << "seed " << seed;
        // The destroy events ran, in order, except the cancelled one.
        ASSERT_GE(fab.size(), 3u);
        EXPECT_EQ(fab[fab.size() - 3].second, 3000000u); // event count, recorded before Destroy
        EXPECT_EQ(fab[fab.size() - 2].second, 2000000u);
        EXPECT_EQ(fab[fab.size() - 1].second, 2000002u);
    }
}

TEST(FabricSimulatorImpl, StopAfterADelayEndsTheRunThere)
{
    SetSimulatorImpl("ns3::FabricSimulatorImpl");
    Trace trace;
    for (uint32_t i = 0; i < 10; ++i)
    {
        Simulator::Schedule(NanoSeconds(10 * i), &Record, &trace, i);
    }
    Simulator::Stop(NanoSeconds(45));
    Simulator::Run();
    ASSERT_EQ(trace.size(), 5u); // 0, 10, 20, 30, 40 ns
    EXPECT_EQ(Simulator::Now(), NanoSeconds(45));
    Simulator::Run(); // resumes with the rest
    EXPECT_EQ(trace.size(), 10u);
    EXPECT_TRUE(Simulator::IsFinished());
    Simulator::Destroy();
}

TEST(FabricSimulatorImpl, CommittedReservationRunsAtItsReservedPlace)
{
    SetSimulatorImpl("ns3::FabricSimulatorImpl");
    Ptr<FabricSimulatorImpl> sim = FabricSimulatorImpl::GetCurrent();
    ASSERT_TRUE(sim);
    Trace trace;
    FabricSimulatorImpl::Reservation r;
    FabricSimulatorImpl::Reservation never;
    Simulator::Schedule(NanoSeconds(10), &Record, &trace, 1u); // before r at 10 ns
    r = sim->Reserve(NanoSeconds(10));
    never = sim->Reserve(NanoSeconds(10));                     // never committed: never runs
    Simulator::Schedule(NanoSeconds(10), &Record, &trace, 3u); // after r at 10 ns
    std::vector<bool> passed;
    Simulator::Schedule(NanoSeconds(5), [&]() {
        passed.push_back(sim->HasPassed(r));
        // Committed 5 ns later, it still runs between events 1 and 3.
        sim->Commit(r, MakeEvent(std::function<void()>([&]() { Record(&trace, 2u); })));
    });
    Simulator::Schedule(NanoSeconds(10), [&]() { passed.push_back(sim->HasPassed(never)); });
    Simulator::Run();
    EXPECT_EQ(trace, (Trace{{10000, 1}, {10000, 2}, {10000, 3}}));
    EXPECT_EQ(passed, (std::vector<bool>{false, true}));
    EXPECT_EQ(Simulator::GetEventCount(), 5u); // the uncommitted one does not count
    Simulator::Destroy();
}

TEST(FabricSimulatorImpl, ReservationsKeepTheUidsOfLaterEvents)
{
    // Reserving consumes a uid exactly as scheduling does, so the events after it keep the
    // uids (and hence the tie order) they have when the reserved event is scheduled at once.
    auto run = [](bool reserve) {
        SetSimulatorImpl("ns3::FabricSimulatorImpl");
        Ptr<FabricSimulatorImpl> sim = FabricSimulatorImpl::GetCurrent();
        std::vector<uint32_t> uids;
        if (reserve)
        {
            sim->Reserve(NanoSeconds(3));
        }
        else
        {
            Simulator::Schedule(NanoSeconds(3), []() {});
        }
        uids.push_back(Simulator::Schedule(NanoSeconds(1), []() {}).GetUid());
        uids.push_back(Simulator::Schedule(NanoSeconds(2), []() {}).GetUid());
        Simulator::Run();
        Simulator::Destroy();
        return uids;
    };
    EXPECT_EQ(run(true), run(false));
}

TEST(FabricSimulatorImplDeathTest, BadUseAbortsWithAMessage)
{
    EXPECT_DEATH(SetSimulatorImpl("ns3::MapScheduler"),
                 "simulator engine ns3::MapScheduler is not an ns-3 SimulatorImpl type");
    EXPECT_DEATH(SetSimulatorImpl("ns3::NoSuchImpl"),
                 "simulator engine ns3::NoSuchImpl is not an ns-3 SimulatorImpl type");
    EXPECT_DEATH(
        {
            SetSimulatorImpl("ns3::FabricSimulatorImpl");
            Simulator::Schedule(NanoSeconds(-1), []() {});
        },
        "FabricSimulatorImpl::Schedule: delay -1.*is negative");
    EXPECT_DEATH(
        {
            SetSimulatorImpl("ns3::FabricSimulatorImpl");
            Ptr<FabricSimulatorImpl> sim = FabricSimulatorImpl::GetCurrent();
            auto r = sim->Reserve(NanoSeconds(1));
            Simulator::Schedule(NanoSeconds(2), [sim, r]() {
                sim->Commit(r, MakeEvent(std::function<void()>([]() {})));
            });
            Simulator::Run();
        },
        "FabricSimulatorImpl::Commit: reservation \\(time step 1000, uid [0-9]+\\) is not a "
        "pending position");
    EXPECT_DEATH(
        {
            SetSimulatorImpl("ns3::FabricSimulatorImpl");
            std::thread t([]() { Simulator::ScheduleWithContext(0, NanoSeconds(1), []() {}); });
            t.join();
        },
        "called from a thread other than the one that runs the simulation");
    EXPECT_DEATH(
        {
            Simulator::Now(); // creates the engine
            SetSimulatorImpl("ns3::FabricSimulatorImpl");
        },
        "not possible to set the implementation after calling any Simulator:: function");
}

namespace
{

/// A DCQCN incast through a PFC switch: completion times, pause counts, end time and events.
std::vector<int64_t>
RunPfcIncast(const std::string& engine)
{
    SetSimulatorImpl(engine);
    SetEventScheduler("ns3::DelayClassScheduler");
    const uint32_t senders = 8;
    StarTopologyHelper star;
    star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    star.GetNicHelper().SetCongestionControl("dcqcn");
    star.GetSwitchHelper().SetMmuAttribute("BufferSize", UintegerValue(1 << 20)); // PFC soon
    star.Install(senders + 1);
    star.AssignStreams(11);
    std::vector<int64_t> out(senders, -1);
    for (uint32_t h = 0; h < senders; ++h)
    {
        auto qp = star.Connect(h, senders)[0].first;
        qp->PostWrite((h + 1) * 256 * 1024,
                      0,
                      1,
                      MakeCallback(+[](int64_t* slot, const RoceWorkCompletion& wc) {
                          *slot = wc.endTime.GetPicoSeconds();
                      }).Bind(&out[h]));
    }
    Simulator::Run();
    uint64_t pauses = 0;
    for (uint32_t h = 0; h <= senders; ++h)
    {
        const PfcPortCounters& c = star.GetHostPort(h)->GetCounters();
        for (uint8_t p = 0; p < 8; ++p)
        {
            pauses += c.pauseRx[p];
            out.push_back(int64_t(c.txFrames[p]));
        }
    }
    out.push_back(int64_t(pauses));
    out.push_back(Simulator::Now().GetPicoSeconds());
    out.push_back(int64_t(Simulator::GetEventCount())); // last: differs between engines
    Simulator::Destroy();
    return out;
}

} // namespace

TEST(FabricSimulatorImpl, PfcIncastGivesIdenticalResultsWithFewerEvents)
{
    std::vector<int64_t> def = RunPfcIncast("ns3::DefaultSimulatorImpl");
    std::vector<int64_t> fab = RunPfcIncast("ns3::FabricSimulatorImpl");
    ASSERT_EQ(def.size(), fab.size());
    int64_t defEvents = def.back();
    int64_t fabEvents = fab.back();
    def.pop_back();
    fab.pop_back();
    EXPECT_EQ(def, fab);
    for (uint32_t h = 0; h < 8; ++h)
    {
        EXPECT_GT(fab[h], 0) << "sender " << h << " did not complete";
    }
    EXPECT_GT(fab[fab.size() - 2], 0) << "the incast should trigger PFC";
    EXPECT_LT(fabEvents, defEvents); // transmission ends nothing waited for were not events
}

namespace
{

/// IsTransmitting() of a port sending one frame, asked just before and exactly at the end of
/// the frame's slot, from events scheduled after the frame started (so they come after the
/// end of transmission at the same timestamp).
std::vector<bool>
AskIsTransmitting(const std::string& engine)
{
    SetSimulatorImpl(engine);
    PfcHelper helper;
    helper.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devs = helper.Install(nodes.Get(0), nodes.Get(1));
    Ptr<PfcNetDevice> tx = DynamicCast<PfcNetDevice>(devs.Get(0));
    // A 1000-byte L3 packet: 1000 + 18 (Ethernet + FCS) + 8 preamble + 12 IFG = 1038 bytes
    // = 83.04 ns at 100 Gb/s, with nothing queued behind it.
    std::vector<bool> busy;
    auto ask = [&]() { busy.push_back(tx->IsTransmitting()); };
    Simulator::Schedule(NanoSeconds(1), [&]() {
        tx->Send(test::MakeIpv4Packet(1000 - 20, 0), devs.Get(1)->GetAddress(), 0x0800);
        ask();
        Simulator::Schedule(PicoSeconds(83039), ask);
        Simulator::Schedule(PicoSeconds(83040), ask);
    });
    Simulator::Schedule(PicoSeconds(1000 + 83040), ask); // before the end: scheduled earlier
    Simulator::Run();
    Simulator::Destroy();
    return busy;
}

} // namespace

TEST(FabricSimulatorImpl, DeferredTransmissionEndKeepsIsTransmittingExact)
{
    std::vector<bool> expected{true, true, true, false}; // 83.039 ns, 83.04 ns early, late
    EXPECT_EQ(AskIsTransmitting("ns3::DefaultSimulatorImpl"), expected);
    EXPECT_EQ(AskIsTransmitting("ns3::FabricSimulatorImpl"), expected);
}

TEST(FabricEngineRef, FindsTheEngineOncePerSimulation)
{
    FabricEngineRef ref;
    SetSimulatorImpl("ns3::DefaultSimulatorImpl");
    EXPECT_EQ(ref.Get(), nullptr); // another engine: callers use the Simulator API
    Simulator::Destroy();
    ref.Reset();
    SetSimulatorImpl("ns3::FabricSimulatorImpl");
    FabricSimulatorImpl* first = ref.Get();
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first, PeekPointer(FabricSimulatorImpl::GetCurrent()));
    EXPECT_EQ(ref.Peek(), first);
    Simulator::Destroy(); // the cached engine is destroyed: the next Get() looks again
    SetSimulatorImpl("ns3::FabricSimulatorImpl");
    FabricSimulatorImpl* second = ref.Get();
    ASSERT_NE(second, nullptr);
    EXPECT_NE(second, first);
    EXPECT_FALSE(second->IsDestroyed());
    Simulator::Destroy();
}

namespace
{

/// Timers re-armed, cancelled and fired at random among plain events (delays of 0-3 ns: many
/// ties), written once with EventId (Cancel + Schedule) and once with FabricRearmableEvent.
Trace
RearmWorkload(const std::string& engine, bool rearmable, uint32_t seed)
{
    SetSimulatorImpl(engine);
    Trace trace;
    std::mt19937 rng(seed);
    constexpr uint32_t TIMERS = 4;
    std::vector<EventId> ids(TIMERS);
    std::vector<FabricRearmableEvent> timers(TIMERS);
    uint32_t steps = 0;
    std::function<void(uint32_t)> fire;
    auto arm = [&](uint32_t k, Time delay) {
        if (rearmable)
        {
            timers[k].Schedule(delay);
        }
        else
        {
            ids[k].Cancel();
            ids[k] = Simulator::Schedule(delay, [&fire, k]() { fire(k); });
        }
    };
    auto pending = [&](uint32_t k) {
        return rearmable ? timers[k].IsPending() : !Simulator::IsExpired(ids[k]);
    };
    auto expiry = [&](uint32_t k) {
        return rearmable ? timers[k].GetExpiry()
                         : Simulator::Now() + Simulator::GetDelayLeft(ids[k]);
    };
    fire = [&](uint32_t k) {
        Record(&trace, 100 + k);
        if (rng() % 3 == 0)
        {
            arm(k, NanoSeconds(rng() % 4)); // re-armed from its own expiry
        }
    };
    for (uint32_t k = 0; k < TIMERS; ++k)
    {
        timers[k] = FabricRearmableEvent([&fire, k]() { fire(k); });
    }
    std::function<void(uint32_t)> step;
    step = [&](uint32_t label) {
        Record(&trace, label);
        uint32_t k = rng() % TIMERS;
        switch (rng() % 4)
        {
        case 0:
            trace.emplace_back(pending(k) ? expiry(k).GetTimeStep() : -1, 200 + k);
            if (rng() % 2)
            {
                rearmable ? timers[k].Cancel() : ids[k].Cancel();
            }
            break;
        default:
            arm(k, NanoSeconds(rng() % 4)); // earlier, later or at the same time
            break;
        }
        if (++steps < 3000)
        {
            Simulator::Schedule(NanoSeconds(rng() % 3), [&step, label]() { step(label + 1); });
        }
    };
    Simulator::Schedule(NanoSeconds(0), [&step]() { step(0); });
    Simulator::Run();
    // Detached timers stay silent: arm every timer, detach it, run on.
    for (uint32_t k = 0; k < TIMERS; ++k)
    {
        if (rearmable)
        {
            timers[k].Schedule(NanoSeconds(1));
            timers[k].Detach();
            EXPECT_FALSE(timers[k].IsPending());
        }
    }
    Simulator::Run();
    Simulator::Destroy();
    return trace;
}

} // namespace

TEST(FabricRearmableEvent, SameOrderAsCancelAndScheduleUnderBothEngines)
{
    for (uint32_t seed : {1u, 2u, 3u})
    {
        Trace reference = RearmWorkload("ns3::DefaultSimulatorImpl", false, seed);
        ASSERT_GT(reference.size(), 3000u);
        uint32_t fired = 0;
        for (const auto& e : reference)
        {
            fired += e.second >= 100 && e.second < 104;
        }
        EXPECT_GT(fired, 100u) << "the workload must fire timers, not only re-arm them";
        EXPECT_EQ(RearmWorkload("ns3::DefaultSimulatorImpl", true, seed), reference)
            << "seed " << seed;
        EXPECT_EQ(RearmWorkload("ns3::FabricSimulatorImpl", true, seed), reference)
            << "seed " << seed;
        EXPECT_EQ(RearmWorkload("ns3::FabricSimulatorImpl", false, seed), reference)
            << "seed " << seed;
    }
}

TEST(FabricRearmableEventDeathTest, ScheduleWithoutAFunctionAborts)
{
    EXPECT_DEATH(
        {
            FabricRearmableEvent e;
            e.Schedule(NanoSeconds(1));
        },
        "FabricRearmableEvent::Schedule on an event with no function");
    EXPECT_DEATH(FabricRearmableEvent(std::function<void()>()),
                 "FabricRearmableEvent given an empty function");
}
