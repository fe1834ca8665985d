/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CausalOrderScheduler under CausalSimulatorImpl: simultaneous events run in the order of
 * their creation (creating time, creating context, creation count), not of their insertion;
 * an event inserted late with the key drawn where it was created (a frame from another MPI
 * process) runs where it would have run; EventId::IsPending and Cancel follow that order; the
 * scheduler refuses an engine that does not; and a DCQCN incast gives the same flows under
 * the causal order whichever order its setup inserted its simultaneous events in.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

class CausalOrderTest : public test::SimTest
{
  protected:
    /// Use CausalSimulatorImpl with CausalOrderScheduler, or ns-3's engine and order.
    static void UseCausal(bool causal)
    {
        if (causal)
        {
            GlobalValue::Bind("SimulatorImplementationType",
                              StringValue("ns3::CausalSimulatorImpl"));
            GlobalValue::Bind("SchedulerType", StringValue("ns3::CausalOrderScheduler"));
        }
        else
        {
            GlobalValue::Bind("SimulatorImplementationType",
                              StringValue("ns3::DefaultSimulatorImpl"));
            GlobalValue::Bind("SchedulerType", StringValue("ns3::MapScheduler"));
        }
    }

    std::vector<std::string> m_log; //!< events in the order they ran
};

/// Append \p what to \p log (an event's body).
void
Note(std::vector<std::string>* log, std::string what)
{
    log->push_back(what);
}

/// Two nodes each schedule an event for t = 100 ns at t = 0, node 2 first.
std::vector<std::string>
CreatorsRun(std::vector<std::string>* log)
{
    Simulator::ScheduleWithContext(2, Time(0), [log]() {
        Simulator::Schedule(NanoSeconds(100), &Note, log, std::string("by node 2"));
    });
    Simulator::ScheduleWithContext(1, Time(0), [log]() {
        Simulator::Schedule(NanoSeconds(100), &Note, log, std::string("by node 1"));
    });
    Simulator::Run();
    Simulator::Destroy();
    return *log;
}

TEST_F(CausalOrderTest, SimultaneousEventsRunInCreatorOrderNotInsertionOrder)
{
    UseCausal(false);
    EXPECT_EQ(CreatorsRun(&m_log), (std::vector<std::string>{"by node 2", "by node 1"}));
    m_log.clear();
    UseCausal(true);
    EXPECT_EQ(CreatorsRun(&m_log), (std::vector<std::string>{"by node 1", "by node 2"}));
}

TEST_F(CausalOrderTest, AnEventInsertedLateWithItsDrawnKeyRunsInItsCausalPlace)
{
    // Node 1 draws a key at t = 0 for an event it "sends" (as to another process); node 2
    // schedules its own event for t = 100 ns at t = 0. The drawn event is inserted only at
    // t = 50 ns, with the drawn key: it runs first at t = 100 ns, as if node 1 had scheduled
    // it at t = 0 (node 1 < node 2); without the key it would run last (created at 50 ns).
    for (bool withKey : {true, false})
    {
        UseCausal(true);
        m_log.clear();
        CausalKey key;
        Simulator::ScheduleWithContext(1, Time(0), [&key]() {
            key = CausalOrderScheduler::GetCurrent()->DrawKey();
        });
        Simulator::ScheduleWithContext(2, Time(0), [this]() {
            Simulator::Schedule(NanoSeconds(100), &Note, &m_log, std::string("node 2's own"));
        });
        Simulator::ScheduleWithContext(7, NanoSeconds(50), [this, &key, withKey]() {
            if (withKey)
            {
                CausalOrderScheduler::GetCurrent()->SetNextKey(key);
            }
            Simulator::ScheduleWithContext(3,
                                           NanoSeconds(50),
                                           &Note,
                                           &m_log,
                                           std::string("from node 1"));
        });
        Simulator::Run();
        Simulator::Destroy();
        EXPECT_EQ(m_log,
                  withKey ? (std::vector<std::string>{"from node 1", "node 2's own"})
                          : (std::vector<std::string>{"node 2's own", "from node 1"}))
            << (withKey ? "with" : "without") << " the drawn key";
    }
}

// The running event's key is its place in the order: its time, when and by which context it
// was created, and the creating process's count; two simultaneous events of two creators
// carry keys that order them as they ran.
TEST_F(CausalOrderTest, TheRunningEventsKeyIsItsPlaceInTheOrder)
{
    UseCausal(true);

    struct Seen
    {
        uint64_t ts;
        CausalKey key;
    };

    std::vector<Seen> seen;
    auto look = [&seen]() {
        Seen s;
        s.key = CausalOrderScheduler::GetCurrent()->GetRunningKey(&s.ts);
        seen.push_back(s);
    };
    Simulator::ScheduleWithContext(5, NanoSeconds(20), [&look]() {
        Simulator::Schedule(NanoSeconds(100), look);
    });
    Simulator::ScheduleWithContext(3, NanoSeconds(20), [&look]() {
        Simulator::Schedule(NanoSeconds(100), look);
    });
    Simulator::Run();
    Simulator::Destroy();
    ASSERT_EQ(seen.size(), 2u);
    const uint64_t t120 = NanoSeconds(120).GetTimeStep();
    const uint64_t t20 = NanoSeconds(20).GetTimeStep();
    EXPECT_EQ(seen[0].ts, t120);
    EXPECT_EQ(seen[0].key.createdTs, t20);
    EXPECT_EQ(seen[0].key.creator, 3u) << "node 3's event runs first";
    EXPECT_EQ(seen[1].ts, t120);
    EXPECT_EQ(seen[1].key.createdTs, t20);
    EXPECT_EQ(seen[1].key.creator, 5u);
    EXPECT_GT(seen[0].key.seq, seen[1].key.seq) << "node 5 scheduled its event first";
}

TEST_F(CausalOrderTest, IsPendingAndCancelFollowTheRunOrder)
{
    // At t = 100 ns, "late" (created by node 1) runs before "early" (created by node 2) although
    // "early" has the lower uid. In "late", "early" is still pending and can be cancelled;
    // ns-3's uid rule would call it expired and ignore the Cancel.
    for (bool cancel : {false, true})
    {
        UseCausal(true);
        m_log.clear();
        EventId early;
        EventId late;
        Simulator::ScheduleWithContext(2, Time(0), [&]() {
            early = Simulator::Schedule(NanoSeconds(100), [&]() {
                m_log.push_back(std::string("early; late pending ") +
                                (compat::IsPending(late) ? "yes" : "no"));
            });
        });
        Simulator::ScheduleWithContext(1, Time(0), [&]() {
            late = Simulator::Schedule(NanoSeconds(100), [&, cancel]() {
                m_log.push_back(std::string("late; early pending ") +
                                (compat::IsPending(early) ? "yes" : "no") + ", delay left " +
                                std::to_string(Simulator::GetDelayLeft(early).GetNanoSeconds()));
                if (cancel)
                {
                    early.Cancel();
                }
            });
        });
        Simulator::Run();
        Simulator::Destroy();
        ASSERT_LT(early.GetUid(), late.GetUid());
        std::vector<std::string> expected{"late; early pending yes, delay left 0"};
        if (!cancel)
        {
            expected.emplace_back("early; late pending no");
        }
        EXPECT_EQ(m_log, expected) << (cancel ? "with" : "without") << " the Cancel";
    }
}

TEST_F(CausalOrderTest, RemovedEventsNeverRunAndTheQueueEmpties)
{
    UseCausal(true);
    for (uint32_t i = 0; i < 200; ++i)
    {
        Simulator::ScheduleWithContext(i % 5,
                                       NanoSeconds(i % 13),
                                       &Note,
                                       &m_log,
                                       std::to_string(i));
    }
    std::vector<EventId> removable;
    for (uint32_t i = 0; i < 200; ++i)
    {
        removable.push_back(Simulator::Schedule(NanoSeconds(i % 17),
                                                &Note,
                                                &m_log,
                                                "removed " + std::to_string(i)));
    }
    for (auto& id : removable)
    {
        Simulator::Remove(id);
    }
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(m_log.size(), 200u);
    for (const auto& s : m_log)
    {
        EXPECT_EQ(s.find("removed"), std::string::npos) << s;
    }
}

/// The model of CausalOrderScheduler's order: (time, creating time, creator, creation count).
using RefKey = std::tuple<uint64_t, uint64_t, uint32_t, uint64_t>;

/// A random workload checked event by event against the model of the order.
class RandomWorkload
{
  public:
    explicit RandomWorkload(uint32_t seed)
        : m_rng(seed)
    {
    }

    /// Schedule the first events from outside any node, run, and check.
    void Run(uint32_t events)
    {
        m_budget = events;
        Spawn(CausalOrderScheduler::NO_CONTEXT, 8);
        Simulator::Run();
        EXPECT_TRUE(m_pending.empty()) << m_pending.size() << " events never ran";
        EXPECT_GT(m_ran, events / 2);
        EXPECT_EQ(m_mismatches, 0u);
    }

  private:
    /// Schedule \p n events from the current event (context \p creator).
    void Spawn(uint32_t creator, uint32_t n)
    {
        // A few recurring delays (the FIFOs), zero delays (ties with the current event) and
        // random ones (the heap).
        static const uint64_t MENU[] = {0, 5, 10, 10, 10, 20, 20, 37, 100};
        for (uint32_t k = 0; k < n && m_budget > 0; ++k, --m_budget)
        {
            const uint64_t d = m_rng() % 3 == 0 ? m_rng() % 200 : MENU[m_rng() % 9];
            const uint64_t now = Simulator::Now().GetTimeStep();
            const RefKey key{now + d, now, creator, m_seq++};
            m_pending.insert(key);
            if (m_rng() % 4 == 0)
            {
                // In the current context, removable; a few are removed at once or later.
                EventId id = Simulator::Schedule(TimeStep(d), &RandomWorkload::Ran, this, key);
                if (m_rng() % 8 == 0)
                {
                    m_removable.emplace_back(id, key);
                }
            }
            else
            {
                Simulator::ScheduleWithContext(static_cast<uint32_t>(m_rng() % 7),
                                               TimeStep(d),
                                               &RandomWorkload::Ran,
                                               this,
                                               key);
            }
        }
    }

    void Ran(RefKey key)
    {
        m_ran++;
        if (m_pending.empty() || *m_pending.begin() != key)
        {
            m_mismatches++;
        }
        m_pending.erase(key);
        if (!m_removable.empty() && m_rng() % 3 == 0)
        {
            const auto [id, removed] = m_removable.back();
            m_removable.pop_back();
            if (m_pending.count(removed) != 0)
            {
                Simulator::Remove(id);
                m_pending.erase(removed);
            }
        }
        Spawn(Simulator::GetContext(), static_cast<uint32_t>(1 + m_rng() % 2));
    }

    std::mt19937_64 m_rng;                               //!< the workload's choices
    std::set<RefKey> m_pending;                          //!< events not yet run, in order
    std::vector<std::pair<EventId, RefKey>> m_removable; //!< candidates for Remove
    uint64_t m_seq{0};                                   //!< insertions so far
    uint32_t m_budget{0};                                //!< events still to schedule
    uint32_t m_ran{0};                                   //!< events run
    uint32_t m_mismatches{0};                            //!< events run out of order
};

TEST_F(CausalOrderTest, EveryEventRunsAtItsPlaceInTheOrderUnderRandomWork)
{
    for (uint32_t seed : {1u, 2u, 3u})
    {
        UseCausal(true);
        RandomWorkload w(seed);
        w.Run(20000);
        Simulator::Destroy();
    }
}

TEST(CausalOrderDeathTest, AnEngineThatDoesNotFollowTheOrderIsRefused)
{
    EXPECT_DEATH(
        {
            GlobalValue::Bind("SimulatorImplementationType",
                              StringValue("ns3::DefaultSimulatorImpl"));
            GlobalValue::Bind("SchedulerType", StringValue("ns3::CausalOrderScheduler"));
            Simulator::Schedule(Time(0), []() {});
        },
        "ns3::CausalOrderScheduler runs under ns3::CausalSimulatorImpl or "
        "ns3::CausalDistributedSimulatorImpl .*; the engine is ns3::DefaultSimulatorImpl");
}

/// A DCQCN incast on a star, its QPs posted in the given order; returns completion times.
std::vector<int64_t>
RunIncast(bool reversed)
{
    const uint32_t senders = 6;
    StarTopologyHelper star;
    test::InstallDcqcnStar(star, senders + 1);
    std::vector<Ptr<RoceQueuePair>> qps;
    for (uint32_t h = 0; h < senders; ++h)
    {
        qps.push_back(star.Connect(h, senders)[0].first);
    }
    std::vector<int64_t> out(senders, -1);
    for (uint32_t k = 0; k < senders; ++k)
    {
        const uint32_t h = reversed ? senders - 1 - k : k;
        // Posted from the sender's own node, as an application would.
        Simulator::ScheduleWithContext(star.GetHosts().Get(h)->GetId(), Time(0), [&out, &qps, h]() {
            qps[h]->PostWrite(256 * 1024,
                              0,
                              1,
                              MakeCallback(+[](int64_t* slot, const RoceWorkCompletion& wc) {
                                  *slot = wc.endTime.GetPicoSeconds();
                              }).Bind(&out[h]));
        });
    }
    Simulator::Run();
    Simulator::Destroy();
    return out;
}

TEST_F(CausalOrderTest, AnIncastsFlowsDoNotDependOnTheOrderOfItsSetup)
{
    UseCausal(true);
    const std::vector<int64_t> forward = RunIncast(false);
    UseCausal(true);
    const std::vector<int64_t> reversed = RunIncast(true);
    for (std::size_t h = 0; h < forward.size(); ++h)
    {
        EXPECT_GT(forward[h], 0) << "sender " << h << " did not complete";
    }
    EXPECT_EQ(forward, reversed);
    // ns-3's order runs the simultaneous events of the two setups differently: the check above
    // can fail.
    UseCausal(false);
    const std::vector<int64_t> fastForward = RunIncast(false);
    UseCausal(false);
    EXPECT_NE(fastForward, RunIncast(true));
}

} // namespace
