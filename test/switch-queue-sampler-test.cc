/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * SwitchQueueSampler on the experiment helper's Clos (ClosWorkloadHelper): every leaf and
 * spine port is sampled at each tick until the last flow finishes; samples held across the
 * end of a run and settled at the last completion are exactly those of a sampler that stopped
 * there (what a run across MPI processes relies on); the timeline's rows add up to the
 * fabric's pause frames.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

class SwitchQueueSamplerTest : public test::SimTest
{
  protected:
    /// \return an installed experiment: 2 leaves of 8 hosts, the default Poisson workload at
    ///         80 % load for 1 ms of arrivals
    static Ptr<ClosWorkloadHelper> SmallExperiment()
    {
        auto exp = CreateObject<ClosWorkloadHelper>();
        exp->SetAttribute("Leaves", UintegerValue(2));
        exp->SetAttribute("HostsPerLeaf", UintegerValue(8));
        exp->SetAttribute("Load", DoubleValue(0.8));
        exp->SetAttribute("Duration", TimeValue(MilliSeconds(1)));
        exp->Install();
        return exp;
    }

    /// \return an experiment that pauses (not installed): 2 leaves of 8 hosts, one spine, no
    ///         congestion control, 90 % of the host links for \p duration of arrivals
    static Ptr<ClosWorkloadHelper> PausingExperiment(Time duration)
    {
        auto exp = CreateObject<ClosWorkloadHelper>();
        exp->SetAttribute("Leaves", UintegerValue(2));
        exp->SetAttribute("HostsPerLeaf", UintegerValue(8));
        exp->SetAttribute("Spines", UintegerValue(1));
        exp->SetAttribute("Load", DoubleValue(0.9));
        exp->SetAttribute("LoadBase", StringValue("host"));
        exp->SetAttribute("Duration", TimeValue(duration));
        exp->SetAttribute("CongestionControl", StringValue("none"));
        return exp;
    }
};

// The experiment helper's queue sampler covers every leaf and spine port at each tick, stops
// with the last flow (the run ends), and its statistics are ordered.
TEST_F(SwitchQueueSamplerTest, QueueSamplerCoversEveryPortAndStopsWithTheWorkload)
{
    Ptr<ClosWorkloadHelper> exp = SmallExperiment();
    exp->Start();
    Simulator::Run(); // returns only if the sampler stopped
    ASSERT_TRUE(exp->GetRunner().AllCompleted());
    Ptr<SwitchQueueSampler> q = exp->GetQueueSampler();
    EXPECT_EQ(q->GetTiers(), (std::vector<std::string>{"leaf", "spine"}));
    const SwitchQueueStats leaf = q->GetStats("leaf");
    const SwitchQueueStats spine = q->GetStats("spine");
    // 2 leaves x (8 + 2) ports and 2 spines x 2 ports, sampled at the same ticks.
    EXPECT_GT(leaf.samples, 0u);
    EXPECT_EQ(leaf.samples % 20, 0u);
    EXPECT_EQ(leaf.samples / 20, spine.samples / 4);
    EXPECT_GT(leaf.max, 0u) << "the workload queued somewhere";
    EXPECT_LE(leaf.p50, leaf.p95);
    EXPECT_LE(leaf.p95, leaf.p99);
    EXPECT_LE(leaf.p99, leaf.max);
    EXPECT_LE(leaf.mean, double(leaf.max));
    EXPECT_EQ(q->GetStats("core").samples, 0u);
    const Time end = Simulator::Now();
    EXPECT_LT(end, MilliSeconds(50)) << "the sampler must not keep the run going";
}

// Across MPI processes the queue sampler holds its samples from the arrivals' end until the
// processes agree where the last flow finished (a lookahead later). Held samples settled at
// the last completion's key are exactly the samples of a sampler that stopped there: here,
// in one run under the causal order, a second sampler of the same switches holds every
// sample after Start()'s own and stops 35 us (3-4 ticks) after the last flow.
TEST_F(SwitchQueueSamplerTest, HeldQueueSamplesSettledAtTheLastCompletionAreTheSequentialOnes)
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::CausalSimulatorImpl"));
    GlobalValue::Bind("SchedulerType", StringValue("ns3::CausalOrderScheduler"));
    Ptr<ClosWorkloadHelper> exp = SmallExperiment();
    Ptr<SwitchQueueSampler> stopped = exp->GetQueueSampler();
    auto held = CreateObject<SwitchQueueSampler>();
    for (uint32_t i = 0; i < 2; ++i)
    {
        held->AddSwitch(exp->GetTopology()->GetLeaf(i)->GetObject<FabricSwitch>(), "leaf");
    }
    for (uint32_t i = 0; i < exp->GetTopology()->GetNSpines(); ++i)
    {
        held->AddSwitch(exp->GetTopology()->GetSpine(i)->GetObject<FabricSwitch>(), "spine");
    }
    uint64_t ts = 0;
    CausalKey end;
    FlowWorkloadRunner& runner = exp->GetRunner();
    runner.SetRecordCallback([&ts, &end](const FlowFctRecord&) {
        end = CausalOrderScheduler::GetCurrent()->GetRunningKey(&ts);
    });
    runner.SetFinishedCallback([stopped, held]() {
        stopped->Stop();
        Simulator::Schedule(MicroSeconds(35), &SwitchQueueSampler::Stop, held);
    });
    exp->Start();
    held->Start();
    held->Hold();
    Simulator::Run();
    ASSERT_TRUE(runner.AllCompleted());
    EXPECT_EQ(held->GetStats("leaf").samples, 2u * 10) << "Start()'s sample only: held";
    held->Settle(ts, end);
    std::ostringstream a;
    std::ostringstream b;
    stopped->WriteCsv(a);
    held->WriteCsv(b);
    EXPECT_GT(stopped->GetStats("leaf").samples, 2u * 10 * 50) << "about 100 ticks";
    EXPECT_EQ(b.str(), a.str());
    held->Settle(ts, end);
    std::ostringstream c;
    held->WriteCsv(c);
    EXPECT_EQ(c.str(), a.str()) << "settled once: nothing held any more";
}

// The queue sampler's timeline: one row per tier per tick (leaf then spine, every 10 us from
// 0) plus the last rows when the workload finished; each tier's pause frames, summed over its
// rows, equal the pause frames its switches' ports sent in the whole run (the fabric counters,
// read from the nodes' devices); the paused ports, times the interval, add up to about the
// time the ports were paused; the largest queue of the rows is the histogram's exact max;
// queue_max <= queue_sum and paused_ports <= the tier's ports in every row. Without congestion
// control, at 90 % of the host links, PFC works: both tiers pause (2:1 oversubscription, one
// spine; 389 and 111 frames), so the sums are not trivially 0 = 0.
TEST_F(SwitchQueueSamplerTest, QueueTimelineAddsUpToTheFabricsPauseFrames)
{
    auto exp = PausingExperiment(MilliSeconds(2));
    std::stringstream timeline;
    exp->SetTimelineStream(&timeline); // before Install: kept for the sampler
    exp->Install();
    exp->Start();
    Simulator::Run();
    ASSERT_TRUE(exp->GetRunner().AllCompleted());

    Ptr<SwitchQueueSampler> q = exp->GetQueueSampler();
    Ptr<ClosTopologyHelper> clos = exp->GetTopology();
    const std::vector<std::string> tiers{"leaf", "spine"};
    ASSERT_EQ(q->GetTiers(), tiers);
    std::map<std::string, uint32_t> ports;
    for (uint32_t i = 0; i < clos->GetNLeaves(); ++i)
    {
        ports["leaf"] += clos->GetLeaf(i)->GetObject<FabricSwitch>()->GetNPorts();
    }
    for (uint32_t i = 0; i < clos->GetNSpines(); ++i)
    {
        ports["spine"] += clos->GetSpine(i)->GetObject<FabricSwitch>()->GetNPorts();
    }
    EXPECT_EQ(ports["leaf"], 2u * (8 + 1));
    EXPECT_EQ(ports["spine"], 2u);

    std::string line;
    ASSERT_TRUE(std::getline(timeline, line));
    EXPECT_EQ(line, "time_us,tier,queue_max_bytes,queue_sum_bytes,pfc_pause_frames,paused_ports");

    struct Row
    {
        double timeUs;
        std::string tier;
        uint64_t qMax;
        uint64_t qSum;
        uint64_t pauses;
        uint32_t paused;
    };

    std::vector<Row> rows;
    while (std::getline(timeline, line))
    {
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream in(line);
        Row r;
        ASSERT_TRUE(in >> r.timeUs >> r.tier >> r.qMax >> r.qSum >> r.pauses >> r.paused) << line;
        rows.push_back(r);
    }
    // Ticks at 0, 10, 20, ... us, then the rows written when the last flow finished.
    const uint64_t ticks = q->GetStats("leaf").samples / ports["leaf"];
    ASSERT_GT(ticks, 10u);
    ASSERT_EQ(rows.size(), 2 * (ticks + 1));
    std::map<std::string, uint64_t> pauses;
    std::map<std::string, uint64_t> maxQueue;
    std::map<std::string, uint32_t> maxPaused;
    std::map<std::string, double> pausedUs; // paused ports x 10 us, over the ticks
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        const Row& r = rows[i];
        const uint64_t tick = i / 2;
        EXPECT_EQ(r.tier, tiers[i % 2]) << "row " << i;
        if (tick < ticks)
        {
            EXPECT_DOUBLE_EQ(r.timeUs, 10.0 * double(tick)) << "row " << i;
            maxQueue[r.tier] = std::max(maxQueue[r.tier], r.qMax);
            pausedUs[r.tier] += 10.0 * r.paused;
        }
        else
        {
            EXPECT_GE(r.timeUs, rows[i - 2].timeUs) << "the last rows come last";
        }
        EXPECT_LE(r.qMax, r.qSum) << "row " << i;
        EXPECT_LE(r.paused, ports[r.tier]) << "row " << i;
        pauses[r.tier] += r.pauses;
        maxPaused[r.tier] = std::max(maxPaused[r.tier], r.paused);
    }
    EXPECT_EQ(rows[0].pauses + rows[1].pauses, 0u) << "the first rows count from Start()";
    const FabricAggregateCounters c = clos->GetAggregateCounters();
    EXPECT_GT(c.Get(FabricNodeType::LEAF).pfcPauseTx, 0u) << "PFC paused the leaves' peers";
    EXPECT_GT(c.Get(FabricNodeType::SPINE).pfcPauseTx, 0u) << "and the spine's";
    EXPECT_EQ(pauses["leaf"], c.Get(FabricNodeType::LEAF).pfcPauseTx);
    EXPECT_EQ(pauses["spine"], c.Get(FabricNodeType::SPINE).pfcPauseTx);
    // Paused ports sampled every 10 us estimate the time the tier's ports spent paused (one
    // priority here): within 10 % of the counted time (970 us against 995 us on the leaves,
    // 1230 against 1214 on the spine).
    for (FabricNodeType type : {FabricNodeType::LEAF, FabricNodeType::SPINE})
    {
        const std::string tier = type == FabricNodeType::LEAF ? "leaf" : "spine";
        const double counted = c.Get(type).pausedTime.GetSeconds() * 1e6;
        EXPECT_GT(maxPaused[tier], 0u) << tier << ": a tick saw a paused port";
        EXPECT_GT(counted, 100.0) << tier;
        EXPECT_NEAR(pausedUs[tier], counted, 0.1 * counted) << tier;
    }
    EXPECT_EQ(maxQueue["leaf"], q->GetStats("leaf").max);
    EXPECT_EQ(maxQueue["spine"], q->GetStats("spine").max);
}

} // namespace

// TimelineDelay (FlowWorkloadRunner::SetEndDelay): the timeline goes on 25 us after the last
// flow and ends with its rows then, while the queue histograms stop at the completion: the
// histograms and every flow are those of the run without a delay, the rows up to the
// undelayed run's last tick are its rows, and the last rows come exactly 25 us after its last
// ones (the instant of the last completion).
TEST_F(SwitchQueueSamplerTest, ATimelineDelayMovesTheLastRowsAndKeepsTheHistograms)
{
    auto run = [](Time delay, std::vector<std::string>& rows, std::string& fcts) {
        Simulator::Destroy();
        auto exp = PausingExperiment(MicroSeconds(500));
        exp->SetAttribute("TimelineDelay", TimeValue(delay));
        std::stringstream timeline;
        exp->SetTimelineStream(&timeline);
        exp->Install();
        std::ostringstream flows;
        exp->GetRunner().SetRecordCallback([&flows](const FlowFctRecord& r) {
            flows << r.id << ' ' << r.end.GetPicoSeconds() << '\n';
        });
        exp->Start();
        Simulator::Run();
        EXPECT_TRUE(exp->GetRunner().AllCompleted());
        std::ostringstream queues;
        exp->GetQueueSampler()->WriteCsv(queues);
        fcts = flows.str() + queues.str();
        rows.clear();
        for (std::string line; std::getline(timeline, line);)
        {
            rows.push_back(line);
        }
    };
    std::vector<std::string> plain;
    std::vector<std::string> delayed;
    std::string plainFlows;
    std::string delayedFlows;
    run(Time(0), plain, plainFlows);
    run(MicroSeconds(25), delayed, delayedFlows);
    EXPECT_EQ(delayedFlows, plainFlows);
    ASSERT_GT(plain.size(), 5u);
    ASSERT_GT(delayed.size(), plain.size()) << "the delayed timeline has more ticks";
    auto timeNs = [](const std::string& row) {
        return std::llround(std::stod(row.substr(0, row.find(','))) * 1000);
    };
    // Every row of the undelayed run but its last two (the stop rows) is a row of the other.
    for (size_t i = 0; i + 2 < plain.size(); ++i)
    {
        EXPECT_EQ(delayed[i], plain[i]) << "row " << i;
    }
    const long long end = timeNs(plain[plain.size() - 1]);
    EXPECT_EQ(timeNs(delayed[delayed.size() - 1]), end + 25000);
    EXPECT_EQ(timeNs(delayed[delayed.size() - 2]), end + 25000);
    for (size_t i = plain.size() - 2; i + 2 < delayed.size(); ++i)
    {
        EXPECT_GT(timeNs(delayed[i]), end - 10000) << "a tick after the last completion";
        EXPECT_LT(timeNs(delayed[i]), end + 25000);
    }
}
