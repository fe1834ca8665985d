/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricHealthMonitor: a run that cannot progress ends with a diagnosis instead of running
 * forever; a run that finishes ends exactly when it would without the monitor.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;

namespace
{

class HealthMonitorTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Two servers x 2 GPUs; a 1 MiB WRITE from gpu0 to gpu2 (other server, same rail).
    Ptr<FabricTopologyHelper> Build()
    {
        Ptr<RailOptimizedTopologyHelper> t = CreateObject<RailOptimizedTopologyHelper>();
        t->SetAttribute("Servers", UintegerValue(2));
        t->SetAttribute("GpusPerServer", UintegerValue(2));
        t->Install();
        auto qps = t->Connect(0, 2);
        qp = qps[0].first;
        qp->PostWrite(1 << 20, 0x1000, 1, MakeCallback(&HealthMonitorTest::Done, this));
        return t;
    }

    void Done(const RoceWorkCompletion& wc)
    {
        completions.push_back(wc);
    }

    Ptr<RoceQueuePair> qp;
    std::vector<RoceWorkCompletion> completions;
};

TEST_F(HealthMonitorTest, FinishedRunEndsWhenItsLastEventRunsNotAtTheNextCheck)
{
    // The same run without a monitor (its NIC callbacks removed) and with one end at the same
    // simulated time: the idle monitor's check was removed from the queue, not left to fire.
    Time without;
    {
        Ptr<FabricTopologyHelper> t = Build();
        t->GetHealthMonitor()->Dispose();
        Simulator::Run();
        ASSERT_EQ(completions.size(), 1u);
        without = Simulator::Now();
        Simulator::Destroy();
    }
    completions.clear();
    Ptr<FabricTopologyHelper> t = Build();
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    EXPECT_EQ(Simulator::Now(), without);
    EXPECT_LT(Simulator::Now(), MilliSeconds(1)); // not CheckInterval (10 ms) later
    EXPECT_FALSE(t->GetHealthMonitor()->IsStalled());
    EXPECT_EQ(t->GetHealthMonitor()->GetPendingOperations(), 0u);
    std::ostringstream report;
    EXPECT_TRUE(t->GetHealthMonitor()->ReportEndOfRun(report)) << report.str();
    EXPECT_EQ(report.str(), "");
}

TEST_F(HealthMonitorTest, StalledRunStopsWithADiagnosisNamingQpsAndPausedPorts)
{
    // The receiver drains 1 bit/s and the PFC watchdog is off: the receiving NIC holds XOFF
    // for ever and its refresh keeps the event queue busy, so without the monitor Run() would
    // not return. A StallTime of 50 ms ends it before the ACK timeouts give up.
    Config::SetDefault("ns3::FabricNic::RxDrainRate", DataRateValue(DataRate("1bps")));
    Config::SetDefault("ns3::PfcNetDevice::PfcWatchdogTimeout", TimeValue(Seconds(0)));
    Config::SetDefault("ns3::FabricHealthMonitor::StallTime", TimeValue(MilliSeconds(50)));
    Config::SetDefault("ns3::FabricHealthMonitor::CheckInterval", TimeValue(MilliSeconds(1)));
    Ptr<FabricTopologyHelper> t = Build();
    std::vector<std::string> stalls;
    t->GetHealthMonitor()->TraceConnectWithoutContext(
        "Stalled",
        MakeCallback(+[](std::vector<std::string>* v, Time idle, const std::string& d) {
            EXPECT_GE(idle, MilliSeconds(50));
            v->push_back(d);
        }).Bind(&stalls));
    Simulator::Run();
    Config::Reset();

    Ptr<FabricHealthMonitor> m = t->GetHealthMonitor();
    ASSERT_TRUE(m->IsStalled());
    ASSERT_EQ(stalls.size(), 1u);
    EXPECT_TRUE(completions.empty()); // the WRITE never finished
    EXPECT_LT(Simulator::Now(), MilliSeconds(60));
    EXPECT_EQ(m->GetPendingOperations(), 1u);
    const std::string& d = stalls[0];
    EXPECT_NE(d.find("STALLED at"), std::string::npos) << d;
    EXPECT_NE(d.find("with 1 operations pending"), std::string::npos) << d;
    // The QP is named with its node (QPNs are per NIC) and its progress state.
    EXPECT_NE(d.find("gpu0: QP " + std::to_string(qp->GetQpn()) + " (port 0, priority 3) -> " +
                     "10.0.0.3 QP "),
              std::string::npos)
        << d;
    EXPECT_NE(d.find("1 work requests pending (1048576 B), state RTS"), std::string::npos) << d;
    // The receiver pauses its leaf; the leaf port towards it is paused.
    EXPECT_NE(d.find("gpu2 port 0: priority 3 XOFF sent"), std::string::npos) << d;
    EXPECT_NE(d.find("leaf"), std::string::npos) << d;
    EXPECT_NE(d.find("paused by the peer until"), std::string::npos) << d;

    std::ostringstream report;
    EXPECT_FALSE(m->ReportEndOfRun(report));
    EXPECT_NE(report.str().find("the run stalled"), std::string::npos) << report.str();
}

TEST_F(HealthMonitorTest, CollectivesListTheirStuckRanks)
{
    Config::SetDefault("ns3::FabricNic::RxDrainRate", DataRateValue(DataRate("1bps")));
    Config::SetDefault("ns3::PfcNetDevice::PfcWatchdogTimeout", TimeValue(Seconds(0)));
    Config::SetDefault("ns3::FabricHealthMonitor::StallTime", TimeValue(MilliSeconds(20)));
    Config::SetDefault("ns3::FabricHealthMonitor::CheckInterval", TimeValue(MilliSeconds(1)));
    Ptr<RailOptimizedTopologyHelper> t = CreateObject<RailOptimizedTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(2));
    t->SetAttribute("GpusPerServer", UintegerValue(2));
    t->Install();
    CollectiveHelper coll;
    coll.SetTopology(t);
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
    comm->Enqueue(CollectiveOp::ALL_REDUCE, 1 << 20, 0, CollectiveCommunicator::DoneCallback());
    std::string diagnosis;
    t->GetHealthMonitor()->TraceConnectWithoutContext(
        "Stalled",
        MakeCallback(+[](std::string* out, Time, const std::string& d) {
            *out = d;
        }).Bind(&diagnosis));
    Simulator::Run();
    Config::Reset();
    ASSERT_TRUE(t->GetHealthMonitor()->IsStalled());
    EXPECT_NE(diagnosis.find("communicator world:\n  world collective 0: AllReduce of 1048576 B"),
              std::string::npos)
        << diagnosis;
    EXPECT_NE(diagnosis.find("finished by 0/4; waiting: rank "), std::string::npos) << diagnosis;
}

/// A note channel that records what is sent and hands notes to its handlers on request.
class RecordingNotes : public FabricNoteChannel
{
  public:
    uint32_t AddNoteHandler(NoteHandler handler) override
    {
        handlers.push_back(handler);
        return static_cast<uint32_t>(handlers.size() - 1);
    }

    void SendNote(uint32_t system, uint32_t handler, const std::vector<uint8_t>& note) override
    {
        sent.push_back({system, handler, note});
    }

    /// One sent note.
    struct Sent
    {
        uint32_t system;
        uint32_t handler;
        std::vector<uint8_t> note;
    };

    std::vector<NoteHandler> handlers;
    std::vector<Sent> sent;
};

// Across MPI processes a stall stops them all: the stalled process tells every other one, and
// a process told of a stall elsewhere stops (its event queue would otherwise keep it running).
TEST_F(HealthMonitorTest, AStallInOneProcessStopsTheOthers)
{
    Config::SetDefault("ns3::FabricNic::RxDrainRate", DataRateValue(DataRate("1bps")));
    Config::SetDefault("ns3::PfcNetDevice::PfcWatchdogTimeout", TimeValue(Seconds(0)));
    Config::SetDefault("ns3::FabricHealthMonitor::StallTime", TimeValue(MilliSeconds(20)));
    Config::SetDefault("ns3::FabricHealthMonitor::CheckInterval", TimeValue(MilliSeconds(1)));
    Ptr<FabricTopologyHelper> t = Build();
    auto notes = CreateObject<RecordingNotes>();
    t->GetHealthMonitor()->SetProcesses(notes, 3, 1); // process 1 of 3
    Simulator::Run();
    Config::Reset();
    ASSERT_TRUE(t->GetHealthMonitor()->IsStalled());
    ASSERT_EQ(notes->sent.size(), 2u);
    EXPECT_EQ(notes->sent[0].system, 0u);
    EXPECT_EQ(notes->sent[1].system, 2u);
    EXPECT_EQ(notes->sent[0].note, (std::vector<uint8_t>{0, 0, 0, 1}));
    Simulator::Destroy();

    // Another process (0) hears of it at 3 ms while its own traffic (a PFC refresh that never
    // ends, as above) keeps its queue busy.
    Config::SetDefault("ns3::FabricNic::RxDrainRate", DataRateValue(DataRate("1bps")));
    Config::SetDefault("ns3::PfcNetDevice::PfcWatchdogTimeout", TimeValue(Seconds(0)));
    completions.clear();
    Ptr<FabricTopologyHelper> other = Build();
    auto heard = CreateObject<RecordingNotes>();
    other->GetHealthMonitor()->SetProcesses(heard, 3, 0);
    Simulator::Schedule(MilliSeconds(3), [heard]() { heard->handlers[0]({0, 0, 0, 1}); });
    testing::internal::CaptureStderr();
    Simulator::Run();
    const std::string err = testing::internal::GetCapturedStderr();
    Config::Reset();
    EXPECT_EQ(Simulator::Now(), MilliSeconds(3));
    EXPECT_TRUE(other->GetHealthMonitor()->IsStalled());
    EXPECT_TRUE(heard->sent.empty()); // told, not telling
    EXPECT_NE(err.find("ai-fabric: STALLED in MPI process 1 (its diagnosis is on its stderr); "
                       "process 0 stopped at +3ms"),
              std::string::npos)
        << err;
}

TEST(HealthMonitorDeathTest, BadIntervalsAreRefusedNamingTheValue)
{
    Ptr<FabricHealthMonitor> m = CreateObject<FabricHealthMonitor>();
    m->SetAttribute("CheckInterval", TimeValue(Seconds(2)));
    Ptr<Node> n = CreateObject<Node>();
    Ptr<FabricNic> nic = FabricNic::GetOrCreate(n);
    m->AddNic(nic);
    EXPECT_DEATH(nic->NotifyWorkPosted(),
                 "CheckInterval=\\+2000ms is invalid; it must be in \\(0, StallTime=\\+1000ms\\]");
}

} // namespace
