/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricMonitor and FabricLatencyProbe (issue 37, production-like monitoring): on a small Clos
 * with a stuck NIC (FaultHelper nic-stall) the monitor's pause-time samples of every port and
 * priority add up to the PfcPauseReceiver's pausedTime, and the storm flag is 1 exactly at
 * the samples whose continuous pause is >= StormThreshold (and never below it); on an ECN
 * incast the ECN-mark and CNP samples add up to the switch and NIC counters, per node and per
 * QP; with lost ACKs the per-QP local ACK timeouts, retransmissions and the ports' drops by
 * reason add up to the QP and port counters; probes on an idle path take exactly the
 * analytical path latency (serialization + propagation + switch delay, there and back); a
 * monitored run gives the same results as an unmonitored one; bad attributes are refused
 * naming the value and the valid range.
 */
#include "fault-test-util.h"
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// One CSV row of the monitor.
struct Row
{
    int64_t ns{0};      //!< time_us as integer nanoseconds
    std::string level;  //!< level
    uint32_t node{0};   //!< node id
    std::string name;   //!< node name
    int port{-1};       //!< port (-1: empty)
    std::string peer;   //!< peer
    int priority{-1};   //!< priority (-1: empty)
    int64_t qp{-1};     //!< qp (-1: empty)
    std::string metric; //!< metric
    std::string value;  //!< value as written

    uint64_t Int() const //!< \return the value as a whole number
    {
        return std::stoull(value);
    }
};

/// Parse the monitor's CSV; the header must be the documented one.
std::vector<Row>
Parse(const std::string& csv)
{
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, FabricMonitorWriter::GetHeader());
    std::vector<Row> rows;
    while (std::getline(in, line))
    {
        std::vector<std::string> f;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ','))
        {
            f.push_back(cell);
        }
        if (!line.empty() && line.back() == ',')
        {
            f.emplace_back();
        }
        EXPECT_EQ(f.size(), 10u) << line;
        if (f.size() != 10)
        {
            continue;
        }
        Row r;
        const size_t dot = f[0].find('.');
        r.ns = std::stoll(f[0].substr(0, dot)) * 1000 + std::stoll(f[0].substr(dot + 1));
        r.level = f[1];
        r.node = std::stoul(f[2]);
        r.name = f[3];
        r.port = f[4].empty() ? -1 : std::stoi(f[4]);
        r.peer = f[5];
        r.priority = f[6].empty() ? -1 : std::stoi(f[6]);
        r.qp = f[7].empty() ? -1 : std::stoll(f[7]);
        r.metric = f[8];
        r.value = f[9];
        rows.push_back(r);
    }
    return rows;
}

/// Sum of a metric's values over the rows of a level, per (node, port, priority, qp).
std::map<std::tuple<uint32_t, int, int, int64_t>, uint64_t>
Sums(const std::vector<Row>& rows, const std::string& level, const std::string& metric)
{
    std::map<std::tuple<uint32_t, int, int, int64_t>, uint64_t> s;
    for (const Row& r : rows)
    {
        if (r.level == level && r.metric == metric)
        {
            s[{r.node, r.port, r.priority, r.qp}] += r.Int();
        }
    }
    return s;
}

/// Sum of a metric over every row of a level.
uint64_t
Total(const std::vector<Row>& rows, const std::string& level, const std::string& metric)
{
    uint64_t t = 0;
    for (const auto& [key, v] : Sums(rows, level, metric))
    {
        t += v;
    }
    return t;
}

class FabricMonitorTest : public test::SimTest
{
  protected:
    /// 2 ToRs (leaf0: gpu0, gpu1; leaf1: gpu2, gpu3) x 2 spines, one cable each, no NVLink.
    Ptr<ClosTopologyHelper> SmallClos()
    {
        auto t = test::MakeSmallClos();
        t->Install();
        return t;
    }

    /// A monitor writing to m_csv, sampling every \p interval, installed on \p t.
    Ptr<FabricMonitor> Monitor(Ptr<FabricTopologyHelper> t,
                               Time interval,
                               Time storm = MilliSeconds(200))
    {
        auto m = CreateObject<FabricMonitor>();
        m->SetAttribute("Interval", TimeValue(interval));
        m->SetAttribute("StormThreshold", TimeValue(storm));
        m->SetStream(&m_csv);
        m->Install(t);
        return m;
    }

    /// \p n QPs each way from every source in \p srcs to \p dst, one WRITE of \p bytes each.
    void Writes(Ptr<FabricTopologyHelper> t,
                const std::vector<uint32_t>& srcs,
                uint32_t dst,
                uint32_t n,
                uint64_t bytes)
    {
        for (uint32_t src : srcs)
        {
            for (const auto& q : t->Connect(src, dst, n))
            {
                q.first->PostWrite(bytes, 0, 1, MakeCallback(&FabricMonitorTest::Done, this));
                ++m_expected;
            }
        }
    }

    /// Append \p at to \p v (a trace sink). \param v the list \param at a time
    static void AddTime(std::vector<Time>* v, Time at)
    {
        v->push_back(at);
    }

    void Done(const RoceWorkCompletion& wc)
    {
        m_completions.push_back(wc);
    }

    /// Every port of the fabric: switch ports and NIC ports.
    static std::vector<Ptr<PfcNetDevice>> Ports(Ptr<FabricTopologyHelper> t)
    {
        std::vector<Ptr<PfcNetDevice>> ports;
        for (Ptr<FabricSwitch> sw : t->GetScaleOutSwitches())
        {
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                ports.push_back(sw->GetPort(p));
            }
        }
        for (uint32_t r = 0; r < t->GetNRanks(); ++r)
        {
            for (uint32_t p = 0; p < t->GetNicCore(r)->GetNPorts(); ++p)
            {
                ports.push_back(t->GetNicCore(r)->GetPort(p));
            }
        }
        return ports;
    }

    /// The index of a port on its switch or NIC.
    static int PortIndex(Ptr<PfcNetDevice> dev)
    {
        Ptr<FabricSwitch> sw = dev->GetNode()->GetObject<FabricSwitch>();
        if (sw)
        {
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                if (sw->GetPort(p) == dev)
                {
                    return int(p);
                }
            }
        }
        Ptr<FabricNic> nic = dev->GetNode()->GetObject<FabricNic>();
        return int(nic->FindPort(dev));
    }

    /// The stuck-NIC run: gpu2's host stops draining at 10 us for \p stall; 8 QPs of 1 MiB
    /// WRITEs from gpu0 to gpu2 and from gpu1 to gpu3.
    Ptr<ClosTopologyHelper> StallRun(Time stall)
    {
        Config::SetDefault("ns3::SharedBufferMmu::BufferSize", UintegerValue(4 << 20));
        auto t = SmallClos();
        for (uint32_t r = 0; r < t->GetNRanks(); ++r)
        {
            t->GetNicCore(r)->SetRxDrainRate(DataRate("400Gbps"));
        }
        auto f = CreateObject<FaultHelper>();
        std::ostringstream spec;
        spec << "nic-stall:gpu2@10us,for=" << stall.GetMicroSeconds() << "us";
        f->Add(spec.str());
        f->Install(t);
        m_faults = f;
        return t;
    }

    std::ostringstream m_csv;                      //!< the monitor's output
    std::vector<RoceWorkCompletion> m_completions; //!< completed WRITEs
    uint32_t m_expected{0};                        //!< WRITEs posted
    Ptr<FaultHelper> m_faults;                     //!< faults of the run
};

// ---- PFC pause time and storms ---------------------------------------------------------------

/// The pause_ns samples of each (port, priority) add up to its PfcPauseReceiver pausedTime,
/// to the nanosecond; the stall's pauses show up on the stalled host's leaf port and upstream.
TEST_F(FabricMonitorTest, PauseSamplesAddUpToThePausedTime)
{
    auto t = StallRun(MicroSeconds(100));
    Ptr<FabricMonitor> m = Monitor(t, MicroSeconds(1), MicroSeconds(20));
    Writes(t, {0}, 2, 8, 1024 * 1024);
    Writes(t, {1}, 3, 8, 1024 * 1024);
    Simulator::Run();
    ASSERT_EQ(m_completions.size(), m_expected);
    EXPECT_FALSE(m->IsRunning()) << "the monitor keeps sampling after the work ended";
    // One more sample at the very end: every pause has expired by now (the run ends with the
    // last expiry), so the samples cover every paused nanosecond.
    m->Start();
    m->Stop();
    const std::vector<Row> rows = Parse(m_csv.str());
    const auto sums = Sums(rows, "port", "pause_ns");
    uint64_t total = 0;
    for (Ptr<PfcNetDevice> dev : Ports(t))
    {
        const PfcPortCounters& c = dev->GetCounters();
        for (int p = 0; p < 8; ++p)
        {
            EXPECT_FALSE(dev->IsPaused(p));
            const auto it = sums.find({dev->GetNode()->GetId(), PortIndex(dev), p, -1});
            const uint64_t sampled = it == sums.end() ? 0 : it->second;
            EXPECT_EQ(sampled, uint64_t(c.pausedTime[p].GetNanoSeconds()))
                << t->GetNodeName(dev->GetNode()->GetId()) << " port " << PortIndex(dev)
                << " priority " << p;
            total += sampled;
        }
    }
    EXPECT_GT(total, 50000u) << "the stall paused less than 50 us in all";
    // The stalled host's leaf port (leaf1 toward gpu2) was paused by gpu2's NIC.
    Ptr<PfcNetDevice> gpu2 = t->GetNicCore(2)->GetPort(0);
    Ptr<PfcChannel> ch = gpu2->GetPfcChannel();
    Ptr<PfcNetDevice> leafPort =
        ch->GetPfcDevice(0) == gpu2 ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
    uint64_t leafPaused = 0;
    for (const Row& r : rows)
    {
        if (r.metric == "pause_ns" && r.name == "leaf1" && r.peer == "gpu2")
        {
            leafPaused += r.Int();
        }
    }
    EXPECT_GT(leafPaused, 50000u);
    EXPECT_EQ(leafPort->GetNode()->GetId(), t->GetLeaf(1)->GetId());
    // Counters written as increases: tx_bytes add up to each port's bytes sent.
    const auto tx = Sums(rows, "port", "tx_bytes");
    for (Ptr<PfcNetDevice> dev : Ports(t))
    {
        uint64_t bytes = 0;
        for (uint64_t b : dev->GetCounters().txBytes)
        {
            bytes += b;
        }
        const auto it = tx.find({dev->GetNode()->GetId(), PortIndex(dev), -1, -1});
        EXPECT_EQ(it == tx.end() ? 0 : it->second, bytes);
    }
}

/// pause_storm is 1 at exactly the samples whose continuous pause is >= StormThreshold:
/// present during the 100 us stall with a 20 us threshold, absent with a 1 ms one.
TEST_F(FabricMonitorTest, TheStormFlagMarksContinuousPausesFromTheThreshold)
{
    const Time threshold = MicroSeconds(20);
    auto t = StallRun(MicroSeconds(100));
    Monitor(t, MicroSeconds(1), threshold);
    Writes(t, {0}, 2, 8, 1024 * 1024);
    Writes(t, {1}, 3, 8, 1024 * 1024);
    Simulator::Run();
    const std::vector<Row> rows = Parse(m_csv.str());
    using Key = std::tuple<int64_t, uint32_t, int, int>;
    std::map<Key, uint64_t> continuous;
    std::map<Key, uint64_t> storm;
    for (const Row& r : rows)
    {
        if (r.metric == "pause_continuous_ns")
        {
            continuous[{r.ns, r.node, r.port, r.priority}] = r.Int();
        }
        else if (r.metric == "pause_storm")
        {
            storm[{r.ns, r.node, r.port, r.priority}] = r.Int();
        }
    }
    uint32_t storms = 0;
    for (const auto& [key, ns] : continuous)
    {
        const bool expected = ns >= uint64_t(threshold.GetNanoSeconds());
        const auto it = storm.find(key);
        const bool flagged = it != storm.end() && it->second == 1;
        EXPECT_EQ(flagged, expected)
            << "sample at " << std::get<0>(key) << " ns, node " << std::get<1>(key) << " port "
            << std::get<2>(key) << ": continuous pause " << ns << " ns";
        storms += flagged;
    }
    for (const auto& [key, flag] : storm)
    {
        if (flag == 1)
        {
            ASSERT_TRUE(continuous.count(key));
            EXPECT_GE(continuous[key], uint64_t(threshold.GetNanoSeconds()));
        }
    }
    EXPECT_GT(storms, 10u) << "a 100 us stall gave no storm with a 20 us threshold";
    // The first storm sample of the stalled host's leaf port is the first one at least
    // 20 us into its continuous pause.
    int64_t firstStorm = -1;
    int64_t pauseStart = -1;
    for (const Row& r : rows)
    {
        if (r.name == "leaf1" && r.peer == "gpu2" && r.level == "port")
        {
            if (r.metric == "pause_continuous_ns" && pauseStart < 0 && r.Int() > 0)
            {
                pauseStart = r.ns - int64_t(r.Int());
            }
            if (r.metric == "pause_storm" && r.Int() == 1 && firstStorm < 0)
            {
                firstStorm = r.ns;
            }
        }
    }
    ASSERT_GE(pauseStart, 0);
    ASSERT_GE(firstStorm, 0);
    EXPECT_GE(firstStorm, pauseStart + threshold.GetNanoSeconds());
    EXPECT_LT(firstStorm, pauseStart + threshold.GetNanoSeconds() + 1000) << "1 us interval";
}

TEST_F(FabricMonitorTest, NoStormBelowTheThreshold)
{
    auto t = StallRun(MicroSeconds(100));
    Monitor(t, MicroSeconds(1), MilliSeconds(1));
    Writes(t, {0}, 2, 8, 1024 * 1024);
    Simulator::Run();
    const std::vector<Row> rows = Parse(m_csv.str());
    EXPECT_EQ(Total(rows, "port", "pause_storm"), 0u);
    EXPECT_GT(Total(rows, "port", "pause_ns"), 0u);
}

// ---- ECN, CNPs, per-QP counters, drops ----------------------------------------------------------

/// A three-to-one incast into gpu2 with leaf1 marking from 5 KB: the ecn_marks samples of
/// every switch port add up to SwitchCounters::ecnMarks; the CNP and CE samples per host and
/// per QP add up to the QPs' counters; buffer and queue samples appear.
TEST_F(FabricMonitorTest, EcnAndCnpSamplesAddUpToTheCounters)
{
    auto t = SmallClos();
    auto f = CreateObject<FaultHelper>();
    f->Add("ecn-profile:leaf1@0s,kmin=5KB,kmax=20KB,pmax=0.2");
    f->Install(t);
    Monitor(t, MicroSeconds(2));
    Writes(t, {0, 1, 3}, 2, 4, 512 * 1024);
    Simulator::Run();
    ASSERT_EQ(m_completions.size(), m_expected);
    const std::vector<Row> rows = Parse(m_csv.str());
    const auto ecn = Sums(rows, "port", "ecn_marks");
    uint64_t marks = 0;
    for (Ptr<FabricSwitch> sw : t->GetScaleOutSwitches())
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const auto it = ecn.find({sw->GetPort(p)->GetNode()->GetId(), int(p), -1, -1});
            EXPECT_EQ(it == ecn.end() ? 0 : it->second, sw->GetCounters().ecnMarks[p]);
            marks += sw->GetCounters().ecnMarks[p];
        }
    }
    EXPECT_GT(marks, 0u) << "the incast marked nothing";
    RoceQpCounters qps;
    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        const RoceQpCounters c = t->GetNic(r)->GetTotalQpCounters();
        qps.cnpsTx += c.cnpsTx;
        qps.cnpsRx += c.cnpsRx;
        qps.ceRx += c.ceRx;
        const std::tuple<uint32_t, int, int, int64_t> key{t->GetRank(r)->GetId(), -1, -1, -1};
        EXPECT_EQ(Sums(rows, "node", "np_cnp_sent")[key], c.cnpsTx) << "gpu" << r;
    }
    EXPECT_GT(qps.cnpsTx, 0u);
    EXPECT_EQ(Total(rows, "node", "np_cnp_sent"), qps.cnpsTx);
    EXPECT_EQ(Total(rows, "node", "rp_cnp_handled"), qps.cnpsRx);
    EXPECT_EQ(Total(rows, "node", "np_ecn_marked"), qps.ceRx);
    EXPECT_EQ(Total(rows, "qp", "np_cnp_sent"), qps.cnpsTx);
    EXPECT_EQ(Total(rows, "qp", "rp_cnp_handled"), qps.cnpsRx);
    EXPECT_EQ(Total(rows, "qp", "np_ecn_marked"), qps.ceRx);
    // Per QP: each QP's CNPs received equal its own counter.
    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        Ptr<RoceNic> nic = t->GetNic(r);
        const auto perQp = Sums(rows, "qp", "rp_cnp_handled");
        for (uint32_t i = 0; i < nic->GetNQps(); ++i)
        {
            Ptr<RoceQueuePair> qp = nic->GetQpAt(i);
            const auto it = perQp.find({t->GetRank(r)->GetId(),
                                        int(qp->GetPortIndex()),
                                        int(qp->GetPriority()),
                                        int64_t(qp->GetQpn())});
            EXPECT_EQ(it == perQp.end() ? 0 : it->second, qp->GetCounters().cnpsRx);
        }
    }
    bool buffer = false;
    bool egress = false;
    for (const Row& r : rows)
    {
        buffer |= r.metric == "buffer_bytes" && r.name == "leaf1" && r.Int() > 0;
        egress |= r.metric == "egress_bytes" && r.name == "leaf1" && r.peer == "gpu2";
        if (r.metric == "buffer_fraction" || r.metric == "shared_fraction")
        {
            const double v = std::stod(r.value);
            EXPECT_GE(v, 0.0);
            EXPECT_LE(v, 1.0);
        }
    }
    EXPECT_TRUE(buffer) << "no buffer sample of leaf1";
    EXPECT_TRUE(egress) << "no egress queue sample of leaf1 toward gpu2";
}

/// Lost ACKs on gpu0's cable: the per-QP local_ack_timeout_err and retransmissions samples
/// add up to each QP's counters, and the ports' drop:rx_error samples to the port counters.
TEST_F(FabricMonitorTest, LocalAckTimeoutsRetransmissionsAndDropsPerQpAndPort)
{
    auto t = SmallClos();
    auto f = CreateObject<FaultHelper>();
    f->Add("drop-class:gpu0-leaf0@0s,class=ack,for=200us");
    f->Install(t);
    Monitor(t, MicroSeconds(5));
    Writes(t, {0}, 2, 4, 256 * 1024);
    Writes(t, {1}, 3, 4, 256 * 1024);
    Simulator::Run();
    ASSERT_EQ(m_completions.size(), m_expected);
    const std::vector<Row> rows = Parse(m_csv.str());
    const auto lat = Sums(rows, "qp", "local_ack_timeout_err");
    const auto retx = Sums(rows, "qp", "retransmissions");
    uint64_t timeouts = 0;
    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        Ptr<RoceNic> nic = t->GetNic(r);
        for (uint32_t i = 0; i < nic->GetNQps(); ++i)
        {
            Ptr<RoceQueuePair> qp = nic->GetQpAt(i);
            const std::tuple<uint32_t, int, int, int64_t> key{t->GetRank(r)->GetId(),
                                                              int(qp->GetPortIndex()),
                                                              int(qp->GetPriority()),
                                                              int64_t(qp->GetQpn())};
            const auto a = lat.find(key);
            const auto b = retx.find(key);
            EXPECT_EQ(a == lat.end() ? 0 : a->second, qp->GetCounters().timeouts);
            EXPECT_EQ(b == retx.end() ? 0 : b->second, qp->GetCounters().retransmittedPackets);
            timeouts += qp->GetCounters().timeouts;
        }
    }
    EXPECT_GT(timeouts, 0u);
    EXPECT_EQ(Total(rows, "node", "local_ack_timeout_err"), timeouts);
    const auto drops = Sums(rows, "port", "drop:rx_error");
    uint64_t rxErrors = 0;
    for (Ptr<PfcNetDevice> dev : Ports(t))
    {
        const uint64_t n = dev->GetCounters().drops[size_t(PfcDropReason::RX_ERROR)];
        const auto it = drops.find({dev->GetNode()->GetId(), PortIndex(dev), -1, -1});
        EXPECT_EQ(it == drops.end() ? 0 : it->second, n);
        rxErrors += n;
    }
    EXPECT_GT(rxErrors, 0u);
}

// ---- latency probes --------------------------------------------------------------------------

/// Probes between gpu2 and gpu3 (leaf1) while gpu0 writes to gpu1 (leaf0): their paths share
/// no link, so every probe takes exactly its analytical unloaded latency: 162 B of RoCE WRITE
/// (64 B payload + 82 B of headers, FCS, preamble and gap + 16 B RETH) out over two links and
/// an 86 B ACK back, less the 12 B gap per frame and link, plus the cables' propagation and
/// the leaf's processing delay both ways.
TEST_F(FabricMonitorTest, ProbesOnAnIdlePathTakeTheAnalyticalLatency)
{
    auto t = SmallClos();
    auto probe = CreateObject<FabricLatencyProbe>();
    probe->SetAttribute("Period", TimeValue(MicroSeconds(5)));
    probe->AddPair(2, 3);
    probe->SetAttribute("Pairs", StringValue("3-2"));
    std::vector<FabricProbeResult> results;
    probe->TraceConnectWithoutContext(
        "Probe",
        MakeCallback(+[](std::vector<FabricProbeResult>* v, const FabricProbeResult& r) {
            v->push_back(r);
        }).Bind(&results));
    auto m = CreateObject<FabricMonitor>();
    m->SetStream(&m_csv);
    m->SetLatencyProbe(probe);
    m->Install(t);
    Writes(t, {0}, 1, 1, 2 * 1024 * 1024);
    Simulator::Run();
    ASSERT_EQ(m_completions.size(), m_expected);
    const DataRate rate = t->GetLinkRate(FabricLinkTier::GPU_LEAF);
    const Time delay = t->GetLinkDelay(FabricLinkTier::GPU_LEAF);
    TimeValue processing;
    t->GetLeaf(1)->GetObject<FabricSwitch>()->GetAttribute("ProcessingDelay", processing);
    const Time analytical = 2 * rate.CalculateBytesTxTime(162 - 12) +
                            2 * rate.CalculateBytesTxTime(86 - 12) +
                            2 * (2 * delay + processing.Get());
    EXPECT_EQ(probe->GetBaseline(2, 3), analytical);
    EXPECT_EQ(probe->GetBaseline(3, 2), analytical);
    ASSERT_GE(results.size(), 4u) << "a 2 MiB write lasts about 40 us: several 5 us rounds";
    EXPECT_EQ(probe->GetCompleted(), results.size());
    for (const FabricProbeResult& r : results)
    {
        EXPECT_TRUE(r.ok);
        EXPECT_EQ(r.latency, analytical)
            << "probe " << r.src << "-" << r.dst << " sent at " << r.sent.As(Time::NS);
        EXPECT_EQ(r.baseline, analytical);
    }
    // Rows: latency, baseline and a ratio of 1 per probe, from the source host.
    const std::vector<Row> rows = Parse(m_csv.str());
    uint64_t probes = 0;
    for (const Row& r : rows)
    {
        if (r.level != "probe")
        {
            continue;
        }
        EXPECT_TRUE(r.name == "gpu2" || r.name == "gpu3") << r.name;
        EXPECT_EQ(r.peer, r.name == "gpu2" ? "gpu3" : "gpu2");
        if (r.metric == "probe_ratio")
        {
            EXPECT_EQ(r.value, "1");
            ++probes;
        }
        else if (r.metric == "probe_latency_ns" || r.metric == "probe_baseline_ns")
        {
            EXPECT_EQ(r.Int(), uint64_t(analytical.GetNanoSeconds()));
        }
        else
        {
            ADD_FAILURE() << "unexpected probe metric " << r.metric;
        }
    }
    EXPECT_EQ(probes, results.size());
    EXPECT_FALSE(m->IsRunning());
}

/// Probes across a congested leaf take longer than their baseline (ratio > 1).
TEST_F(FabricMonitorTest, ProbesThroughAnIncastAreSlowerThanTheBaseline)
{
    auto t = SmallClos();
    auto probe = CreateObject<FabricLatencyProbe>();
    probe->SetAttribute("Period", TimeValue(MicroSeconds(5)));
    probe->AddPair(3, 2);
    std::vector<FabricProbeResult> results;
    probe->TraceConnectWithoutContext(
        "Probe",
        MakeCallback(+[](std::vector<FabricProbeResult>* v, const FabricProbeResult& r) {
            v->push_back(r);
        }).Bind(&results));
    auto m = CreateObject<FabricMonitor>();
    m->SetStream(&m_csv);
    m->SetLatencyProbe(probe);
    m->Install(t);
    Writes(t, {0, 1}, 2, 4, 512 * 1024);
    Simulator::Run();
    ASSERT_FALSE(results.empty());
    Time worst;
    for (const FabricProbeResult& r : results)
    {
        worst = std::max(worst, r.latency);
    }
    EXPECT_GT(worst, 2 * results[0].baseline) << "the probes did not queue behind the incast";
}

// ---- opt-in: no effect on results ---------------------------------------------------------------

/// The same incast with and without a monitor (all levels, 1 us): identical completion times,
/// counters and end time.
TEST_F(FabricMonitorTest, AMonitoredRunGivesTheSameResults)
{
    auto run = [this](bool monitored) {
        Simulator::Destroy();
        Config::Reset();
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        m_completions.clear();
        m_expected = 0;
        m_csv.str("");
        auto t = StallRun(MicroSeconds(50));
        if (monitored)
        {
            Monitor(t, MicroSeconds(1), MicroSeconds(10));
        }
        Writes(t, {0, 1}, 2, 4, 512 * 1024);
        Writes(t, {3}, 1, 2, 256 * 1024);
        Simulator::Run();
        std::ostringstream out;
        out << "end " << Simulator::Now().GetPicoSeconds() << "\n";
        for (const auto& wc : m_completions)
        {
            out << wc.qpn << " " << wc.wrId << " " << wc.endTime.GetPicoSeconds() << "\n";
        }
        t->GetAggregateCounters().Print(out);
        return out.str();
    };
    const std::string off = run(false);
    const std::string on = run(true);
    EXPECT_FALSE(m_csv.str().empty());
    EXPECT_EQ(on, off);
}

/// Delay moves every sample by the Delay: two busy periods (WRITEs at 0, more at 300 us after
/// the fabric went idle) give the same sample instants plus 3 us, the same results, and, the
/// last sample of each period coming 3 us after its last completion, tx_bytes rows that add up
/// to every port's transmitted bytes.
TEST_F(FabricMonitorTest, ADelayMovesEverySampleByTheDelay)
{
    auto run = [this](Time delay, std::vector<Time>& samples) {
        Simulator::Destroy();
        Config::Reset();
        m_completions.clear();
        m_expected = 0;
        m_csv.str("");
        auto t = SmallClos();
        auto m = CreateObject<FabricMonitor>();
        m->SetAttribute("Interval", TimeValue(MicroSeconds(5)));
        m->SetAttribute("Delay", TimeValue(delay));
        m->SetAttribute("Levels", StringValue("port"));
        m->SetStream(&m_csv);
        m->Install(t);
        m->TraceConnectWithoutContext("Sample",
                                      MakeBoundCallback(&FabricMonitorTest::AddTime, &samples));
        Writes(t, {0, 1}, 2, 2, 256 * 1024);
        Simulator::Schedule(MicroSeconds(300), [this, t]() { Writes(t, {3}, 0, 2, 128 * 1024); });
        Simulator::Run();
        std::ostringstream out;
        for (const auto& wc : m_completions)
        {
            out << wc.qpn << " " << wc.wrId << " " << wc.endTime.GetPicoSeconds() << "\n";
        }
        std::map<std::pair<uint32_t, int>, uint64_t> tx; // (node, port) -> tx_bytes rows
        for (const Row& r : Parse(m_csv.str()))
        {
            if (r.metric == "tx_bytes")
            {
                tx[{r.node, r.port}] += r.Int();
            }
        }
        for (Ptr<PfcNetDevice> dev : Ports(t))
        {
            uint64_t bytes = 0;
            for (uint8_t q = 0; q < 8; ++q)
            {
                bytes += dev->GetCounters().txBytes[q];
            }
            if (delay.IsStrictlyPositive())
            {
                EXPECT_EQ((tx[{dev->GetNode()->GetId(), PortIndex(dev)}]), bytes)
                    << "node " << dev->GetNode()->GetId() << " port " << PortIndex(dev);
            }
        }
        return out.str();
    };
    std::vector<Time> at0;
    std::vector<Time> at3;
    const std::string r0 = run(Time(0), at0);
    const std::string r3 = run(MicroSeconds(3), at3);
    EXPECT_EQ(r3, r0);
    ASSERT_EQ(at3.size(), at0.size());
    ASSERT_GT(at0.size(), 4u);
    bool idleGap = false;
    for (size_t i = 0; i < at0.size(); ++i)
    {
        EXPECT_EQ(at3[i], at0[i] + MicroSeconds(3)) << "sample " << i;
        idleGap = idleGap || (i > 0 && at0[i] - at0[i - 1] > MicroSeconds(5));
    }
    EXPECT_TRUE(idleGap) << "the run had one busy period only";
}

// ---- errors ------------------------------------------------------------------------------------

using FabricMonitorDeathTest = FabricMonitorTest;

TEST_F(FabricMonitorDeathTest, BadAttributesAreRefusedNamingTheValueAndTheRange)
{
    EXPECT_DEATH(Config::SetDefault("ns3::FabricMonitor::Interval", StringValue("0s")),
                 "ns3::FabricMonitor::Interval=0s is out of range: valid range >= 1ns");
    EXPECT_DEATH(Config::SetDefault("ns3::FabricMonitor::Delay", StringValue("-1ns")),
                 "ns3::FabricMonitor::Delay=-1ns is out of range: valid range >= 0");
    EXPECT_DEATH(Config::SetDefault("ns3::FabricMonitor::StormThreshold", StringValue("-1ms")),
                 "ns3::FabricMonitor::StormThreshold=-1ms is out of range: valid range >= 1ns");
    EXPECT_DEATH(Config::SetDefault("ns3::FabricMonitor::Levels", StringValue("port+bogus")),
                 "ns3::FabricMonitor::Levels='port\\+bogus' is out of range: valid range node, "
                 "port, queue, qp joined by '\\+', each at most once");
    EXPECT_DEATH(Config::SetDefault("ns3::FabricMonitor::Levels", StringValue("port+port")),
                 "Levels='port\\+port' is out of range");
    EXPECT_DEATH(Config::SetDefault("ns3::FabricLatencyProbe::Size", StringValue("0")),
                 "ns3::FabricLatencyProbe::Size=0 is out of range: valid range 1..1048576");
    EXPECT_DEATH(Config::SetDefault("ns3::FabricLatencyProbe::Period", StringValue("0s")),
                 "ns3::FabricLatencyProbe::Period=0s is out of range: valid range >= 1ns");
    EXPECT_DEATH(Config::SetDefault("ns3::FabricLatencyProbe::Pairs", StringValue("1-")),
                 "ns3::FabricLatencyProbe::Pairs='1-' is out of range: valid range rank pairs");
    auto t = SmallClos();
    auto probe = CreateObject<FabricLatencyProbe>();
    probe->AddPair(0, 9);
    EXPECT_DEATH(probe->Install(t, nullptr),
                 "FabricLatencyProbe: pair 0-9 names rank 9; the fabric has ranks 0..3");
    auto self = CreateObject<FabricLatencyProbe>();
    self->AddPair(1, 1);
    EXPECT_DEATH(self->Install(t, nullptr), "pair 1-1 probes a rank from itself");
    auto m = CreateObject<FabricMonitor>();
    m->SetAttribute("FileName", StringValue("/nonexistent-dir/x.csv"));
    EXPECT_DEATH(m->Install(t), "FabricMonitor: cannot write \"/nonexistent-dir/x.csv\"");
}

TEST_F(FabricMonitorTest, ParsePairsAndLevels)
{
    std::vector<std::pair<uint32_t, uint32_t>> p;
    EXPECT_TRUE(FabricLatencyProbe::ParsePairs("0-5;3-7,12-1", p));
    EXPECT_EQ(p, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 5}, {3, 7}, {12, 1}}));
    EXPECT_TRUE(FabricLatencyProbe::ParsePairs("", p));
    EXPECT_TRUE(p.empty());
    for (const char* bad : {"0", "0-", "-1", "a-b", "1-2,", "1--2", "1-2-3"})
    {
        EXPECT_FALSE(FabricLatencyProbe::ParsePairs(bad, p)) << bad;
    }
    EXPECT_TRUE(FabricMonitorLevelsAreValid("node"));
    EXPECT_TRUE(FabricMonitorLevelsAreValid("qp+port+queue+node"));
    for (const char* bad : {"", "+", "node+", "port+port", "ports"})
    {
        EXPECT_FALSE(FabricMonitorLevelsAreValid(bad)) << bad;
    }
}

/// Levels=port writes port rows only.
TEST_F(FabricMonitorTest, LevelsChooseWhatIsSampled)
{
    auto t = SmallClos();
    auto m = CreateObject<FabricMonitor>();
    m->SetAttribute("Levels", StringValue("port"));
    m->SetStream(&m_csv);
    m->Install(t);
    Writes(t, {0, 1}, 2, 2, 256 * 1024);
    Simulator::Run();
    const std::vector<Row> rows = Parse(m_csv.str());
    EXPECT_FALSE(rows.empty());
    for (const Row& r : rows)
    {
        EXPECT_EQ(r.level, "port") << r.metric;
    }
}

} // namespace
