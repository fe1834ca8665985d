/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What collectives need to run across MPI processes, checked in one process: when a send
 * completes (SendCompletion: at delivery, when posted, when acknowledged), connections opened
 * up front (PreConnect), notes between processes
 * (PfcRemoteExchange), a communicator whose ranks span processes refusing what only a
 * sequential run can do, and GatherRecords without MPI. The runs across processes themselves
 * are compared with the sequential run byte for byte by tools/ci/mpi-test.sh.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

using namespace ns3;

namespace
{

constexpr uint64_t MiB = 1024 * 1024;

/// Hosts with RoceNics on one switch (100 Gb/s, 1 us cables); host i's node is MPI system
/// systems[i] (0 when not given).
class CollectiveProcessesTest : public test::SimTest
{
  protected:
    void Build(uint32_t n, const std::vector<uint32_t>& systems = {})
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            hosts.Add(CreateObject<Node>(i < systems.size() ? systems[i] : 0));
        }
        NodeContainer sw(1);
        PfcHelper pfc;
        pfc.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        std::vector<Ptr<PfcNetDevice>> ports;
        for (uint32_t i = 0; i < n; ++i)
        {
            ports.push_back(DynamicCast<PfcNetDevice>(pfc.Install(hosts.Get(i), sw.Get(0)).Get(0)));
        }
        Ptr<FabricSwitch> fs = SwitchHelper().Install(sw.Get(0));
        RoceNicHelper nicHelper;
        std::vector<Ptr<RoceNic>> nics;
        for (uint32_t i = 0; i < n; ++i)
        {
            Ipv4Address ip(0x0a000001 + i);
            fs->GetForwardingTable()->SetRoute(ip, {i});
            nics.push_back(nicHelper.Install(hosts.Get(i), ports[i], ip));
        }
        fs->AssignStreams(3);
        coll.SetNics(nics);
        coll.AssignStreams(20);
        coll.SetCommunicatorAttribute("Channels", UintegerValue(1));
        coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
        coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
    }

    NodeContainer hosts;
    CollectiveHelper coll;
};

/// When rank 0's one send (a 2-rank Broadcast of 1 MiB) completes, and when rank 1 has it.
struct SendTimes
{
    Time step;    //!< rank 0's StepComplete
    Time receive; //!< rank 1's ReceiveComplete
    Time end;     //!< the collective's end
};

} // namespace

class SendCompletionTest : public CollectiveProcessesTest
{
  protected:
    SendTimes Run(const std::string& completion)
    {
        Build(2);
        coll.SetApplicationAttribute("SendCompletion", StringValue(completion));
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
        SendTimes t;
        comm->GetApplication(0)->TraceConnectWithoutContext(
            "StepComplete",
            MakeCallback(+[](Time* at, uint32_t, uint32_t, uint32_t, uint64_t) {
                *at = Simulator::Now();
            }).Bind(&t.step));
        comm->GetApplication(1)->TraceConnectWithoutContext(
            "ReceiveComplete",
            MakeCallback(+[](Time* at, uint32_t, uint32_t, uint32_t, uint64_t) {
                *at = Simulator::Now();
            }).Bind(&t.receive));
        comm->Enqueue(CollectiveOp::BROADCAST, 1 * MiB, 0);
        Simulator::Run();
        EXPECT_EQ(comm->GetRecords().size(), 1u);
        EXPECT_TRUE(comm->GetRecords()[0].completed);
        t.end = comm->GetRecords()[0].end;
        EXPECT_TRUE(t.step.IsStrictlyPositive());
        EXPECT_TRUE(t.receive.IsStrictlyPositive());
        return t;
    }
};

// Delivery: the send completes in the event that delivers its last byte. Posted: when its last
// 512 KiB piece (Simple) is handed to the NIC, which still has to put it on the wire (42 us at
// 100 Gb/s). Acknowledged: when the ACK is back, two 1 us cables after the delivery at least.
TEST_F(SendCompletionTest, DeliveryPostedAndAcknowledgedAreWhereTheyShouldBe)
{
    const SendTimes delivery = Run("Delivery");
    EXPECT_EQ(delivery.step, delivery.receive);
    EXPECT_EQ(delivery.end, delivery.receive);
    Simulator::Destroy();
    hosts = NodeContainer();
    coll = CollectiveHelper();

    const SendTimes posted = Run("Posted");
    EXPECT_EQ(posted.receive, delivery.receive); // the data moves the same way
    EXPECT_GT(posted.receive - posted.step, NanoSeconds(41900)) << posted.step;
    EXPECT_EQ(posted.end, posted.receive); // the receiver finishes last
    Simulator::Destroy();
    hosts = NodeContainer();
    coll = CollectiveHelper();

    const SendTimes acked = Run("Acknowledged");
    EXPECT_EQ(acked.receive, delivery.receive);
    EXPECT_GE(acked.step - acked.receive, MicroSeconds(2)) << acked.step;
    EXPECT_LT(acked.step - acked.receive, MicroSeconds(10)) << acked.step;
    EXPECT_EQ(acked.end, acked.step); // the sender finishes last
}

// PreConnect opens every connection of the collective when it is enqueued, before anything
// runs, and the collective still moves every byte.
TEST_F(CollectiveProcessesTest, PreConnectOpensEveryConnectionAtEnqueue)
{
    Build(4);
    coll.SetCommunicatorAttribute("PreConnect", BooleanValue(true));
    coll.SetCommunicatorAttribute("Channels", UintegerValue(2));
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
    auto transport = DynamicCast<RoceCollectiveTransport>(comm->GetTransport());
    ASSERT_TRUE(transport);
    EXPECT_EQ(transport->GetNConnections(), 0u);
    comm->Enqueue(CollectiveOp::ALL_REDUCE, 4 * MiB);
    // A ring per channel: each rank sends to its successor on each of the 2 channels.
    EXPECT_EQ(transport->GetNConnections(), 8u);
    Simulator::Run();
    EXPECT_EQ(transport->GetNConnections(), 8u);
    ASSERT_EQ(comm->GetRecords().size(), 1u);
    EXPECT_TRUE(comm->GetRecords()[0].completed);
    for (uint32_t r = 0; r < 4; ++r)
    {
        // AllReduce ring: 2 (n - 1) steps of bytes / n per rank.
        EXPECT_EQ(comm->GetApplication(r)->GetBytesReceived(), 2 * 3 * MiB);
    }
    // Without MPI the merged records are the communicator's own.
    const auto gathered = coll.GatherRecords();
    ASSERT_EQ(gathered.size(), 1u);
    EXPECT_EQ(gathered[0].end, comm->GetRecords()[0].end);
    EXPECT_EQ(gathered[0].busBw, comm->GetRecords()[0].busBw);
}

using CollectiveProcessesDeathTest = CollectiveProcessesTest;

// Ranks of one communicator in two MPI systems: what only a sequential run can do is refused
// when the communicator is made, naming the attribute; and a message to a rank of another
// process without an exchange to carry it is refused naming the rank.
TEST_F(CollectiveProcessesDeathTest, RanksAcrossProcessesRefuseWhatNeedsOneProcess)
{
    EXPECT_DEATH(
        {
            Build(2, {0, 1});
            coll.SetApplicationAttribute("SendCompletion", StringValue("Posted"));
            coll.CreateWorldCommunicator("world");
        },
        "several MPI processes; set ns3::CollectiveCommunicator::PreConnect to true");
    EXPECT_DEATH(
        {
            Build(2, {0, 1});
            coll.SetCommunicatorAttribute("PreConnect", BooleanValue(true));
            coll.CreateWorldCommunicator("world");
        },
        "set ns3::CollectiveApplication::SendCompletion to Posted or Acknowledged");
    EXPECT_DEATH(
        {
            Build(2, {0, 1});
            coll.SetCommunicatorAttribute("PreConnect", BooleanValue(true));
            coll.SetApplicationAttribute("SendCompletion", StringValue("Acknowledged"));
            Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
            EXPECT_EQ(comm->GetNLocalRanks(), 1u);
            EXPECT_FALSE(comm->GetApplication(1)->IsLocal());
            comm->Enqueue(CollectiveOp::BROADCAST, 1 * MiB, 0);
            Simulator::Run();
        },
        "rank 1 is simulated by MPI process 1, and this transport has no FabricNoteChannel");
}

// ---- notes between processes -------------------------------------------------------------

namespace
{

/// Append one note record to a batch, in PfcRemoteExchange's layout: arrival time 8, handler
/// 4, NOTE_DEVICE 4, an empty causal key 20, length 4, the note.
void
AppendNote(std::vector<uint8_t>& batch, uint32_t handler, const std::vector<uint8_t>& note)
{
    auto put = [&batch](uint64_t v, uint32_t bytes) {
        for (uint32_t i = bytes; i-- > 0;)
        {
            batch.push_back(static_cast<uint8_t>(v >> (8 * i)));
        }
    };
    put(0, 8);
    put(handler, 4);
    put(PfcRemoteExchange::NOTE_DEVICE, 4);
    batch.insert(batch.end(), 20, 0);
    put(note.size(), 4);
    batch.insert(batch.end(), note.begin(), note.end());
}

} // namespace

// A batch's notes go to the handlers registered under their ids, in the order written, when
// the batch is unpacked.
TEST_F(CollectiveProcessesTest, NotesReachTheirHandlersInOrder)
{
    auto x = CreateObject<PfcRemoteExchange>();
    std::vector<std::string> got;
    for (uint32_t h = 0; h < 2; ++h)
    {
        EXPECT_EQ(x->AddNoteHandler(MakeCallback(+[](std::vector<std::string>* v,
                                                     uint32_t id,
                                                     const std::vector<uint8_t>& n) {
                                        v->push_back(std::to_string(id) + ":" +
                                                     std::string(n.begin(), n.end()));
                                    }).Bind(&got, h)),
                  h);
    }
    std::vector<uint8_t> batch = {0, 0, 0, 1}; // from system 1
    AppendNote(batch, 1, {'a', 'b'});
    AppendNote(batch, 0, {});
    AppendNote(batch, 1, {'c'});
    x->Receive(Create<Packet>(batch.data(), batch.size()));
    EXPECT_TRUE(got.empty()); // unpacked in an event of its own
    Simulator::Run();
    EXPECT_EQ(got, (std::vector<std::string>{"1:ab", "0:", "1:c"}));
}

TEST_F(CollectiveProcessesDeathTest, ANoteForAnUnknownHandlerIsNamed)
{
    auto unpackNoteForHandler3 = []() {
        auto x = CreateObject<PfcRemoteExchange>();
        std::vector<uint8_t> batch = {0, 0, 0, 1};
        AppendNote(batch, 3, {'a'});
        x->Receive(Create<Packet>(batch.data(), batch.size()));
        Simulator::Run();
    };
    EXPECT_DEATH(unpackNoteForHandler3(),
                 "a note of 1 B for handler 3 at 4 of a 45 B batch \\(0 handlers here\\)");
}

// A note's fields come back in the order and values written, in network byte order on the wire.
TEST(FabricNoteTest, WriterAndReaderRoundTripInNetworkOrder)
{
    FabricNoteWriter w(13);
    w.WriteU32(0x01020304);
    w.WriteU64(0x1112131415161718ULL);
    w.WriteU8(0xab);
    const std::vector<uint8_t> note = w.Finish();
    EXPECT_EQ(
        note,
        (std::vector<uint8_t>{1, 2, 3, 4, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0xab}));
    FabricNoteReader r(note, 13, "test note");
    EXPECT_EQ(r.ReadU32(), 0x01020304u);
    EXPECT_EQ(r.ReadU64(), 0x1112131415161718ULL);
    EXPECT_EQ(r.ReadU8(), 0xab);
}

TEST(FabricNoteDeathTest, ANoteOfTheWrongSizeOrHalfWrittenIsNamed)
{
    EXPECT_DEATH(FabricNoteReader(std::vector<uint8_t>(7), 16, "FabricBarrier: an arrival note"),
                 "FabricBarrier: an arrival note of 7 B \\(expected 16\\)");
    auto halfWritten = []() {
        FabricNoteWriter w(8);
        w.WriteU32(1);
        w.Finish();
    };
    EXPECT_DEATH(halfWritten(), "a note of 8 B has only 4 B written");
}

namespace
{

/// Two "processes" in one simulation: a note sent by one side reaches the other side's handler
/// after the lookahead, as PfcRemoteExchange guarantees at most.
class LoopbackNotes : public FabricNoteChannel
{
  public:
    uint32_t AddNoteHandler(NoteHandler handler) override
    {
        handlers.push_back(handler);
        return static_cast<uint32_t>(handlers.size() - 1);
    }

    void SendNote(uint32_t system, uint32_t handler, const std::vector<uint8_t>& note) override
    {
        LoopbackNotes* to = peer;
        Simulator::Schedule(lookahead, [to, handler, note]() { to->handlers[handler](note); });
    }

    std::vector<NoteHandler> handlers;
    LoopbackNotes* peer{nullptr};
    Time lookahead;
};

/// Two barriers in one simulation, as processes 0 and 1 of a run across processes.
struct TwoProcesses
{
    TwoProcesses(Time latency, Time lookahead)
    {
        for (uint32_t p = 0; p < 2; ++p)
        {
            notes[p] = CreateObject<LoopbackNotes>();
            notes[p]->lookahead = lookahead;
            barrier[p] = CreateObject<FabricBarrier>();
            barrier[p]->SetAttribute("Latency", TimeValue(latency));
        }
        notes[0]->peer = PeekPointer(notes[1]);
        notes[1]->peer = PeekPointer(notes[0]);
        for (uint32_t p = 0; p < 2; ++p)
        {
            barrier[p]->SetProcesses(notes[p], 2, p);
        }
    }

    /// \brief Process \p p arrives at \p at; its release is logged as "p@time_ns:ok".
    void ArriveAt(uint32_t p, Time at, bool ok = true)
    {
        Simulator::Schedule(at, [this, p, ok]() {
            barrier[p]->Arrive(ok, MakeCallback(&TwoProcesses::Released, this).Bind(p));
        });
    }

    void Released(uint32_t p, bool ok)
    {
        log.push_back(std::to_string(p) + "@" + std::to_string(Simulator::Now().GetNanoSeconds()) +
                      ":" + (ok ? "ok" : "failed"));
    }

    Ptr<LoopbackNotes> notes[2];
    Ptr<FabricBarrier> barrier[2];
    std::vector<std::string> log;
};

} // namespace

// Both processes release at the last arrival plus the latency, whichever heard last; a failed
// arrival reaches both releases.
TEST_F(CollectiveProcessesTest, BarrierReleasesEveryProcessAtTheLastArrivalPlusLatency)
{
    TwoProcesses two(MicroSeconds(2), MicroSeconds(1));
    two.ArriveAt(0, MicroSeconds(3));
    two.ArriveAt(1, MicroSeconds(5));
    two.ArriveAt(1, MicroSeconds(8), false); // round 1: process 1 first, failed
    two.ArriveAt(0, MicroSeconds(9));
    Simulator::Run();
    std::sort(two.log.begin(), two.log.end()); // two processes: no order between them
    EXPECT_EQ(
        two.log,
        (std::vector<std::string>{"0@11000:failed", "0@7000:ok", "1@11000:failed", "1@7000:ok"}));
    EXPECT_EQ(two.barrier[0]->GetRoundsReleased(), 2u);
}

// Latency 0 with one process: the release runs inside the arrival (the sweep's old order).
TEST_F(CollectiveProcessesTest, BarrierOfLatencyZeroReleasesInsideTheArrival)
{
    auto b = CreateObject<FabricBarrier>();
    b->SetProcesses(nullptr, 1, 0);
    bool released = false;
    b->Arrive(true, MakeCallback(+[](bool* r, bool ok) { *r = ok; }).Bind(&released));
    EXPECT_TRUE(released);
}

TEST_F(CollectiveProcessesDeathTest, BarrierLatencyBelowTheLookaheadIsNamed)
{
    auto below = []() {
        TwoProcesses two(MicroSeconds(1), MicroSeconds(3));
        two.ArriveAt(0, MicroSeconds(5));
        two.ArriveAt(1, MicroSeconds(3));
        Simulator::Run();
    };
    EXPECT_DEATH(
        below(),
        "round 0 is due at \\+6000(\\.0+)?ns \\(last arrival \\+5000(\\.0+)?ns \\+ Latency "
        "\\+1000(\\.0+)?ns\\), but this process heard of it at \\+8000(\\.0+)?ns");
    auto zero = []() {
        TwoProcesses two(Time(0), MicroSeconds(3));
        two.ArriveAt(0, MicroSeconds(5));
        Simulator::Run();
    };
    EXPECT_DEATH(zero(), "Latency 0 across 2 MPI processes");
}

// An nccl-tests sweep (1 warm-up at 2 MiB and at 1 MiB, then 1 and 2 MiB twice each) on 4
// ranks: every collective starts the barrier after the previous one ended, a size's time is
// the mean of its measured iterations, and the run stops once the NICs are idle.
TEST_F(CollectiveProcessesTest, SweepRunsCollectivesABarrierApartAndAveragesTheMeasuredOnes)
{
    Build(4);
    coll.SetCommunicatorAttribute("PreConnect", BooleanValue(true));
    coll.SetCommunicatorAttribute("RankContext", BooleanValue(true));
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
    auto sweep = CreateObject<CollectiveSweep>();
    sweep->SetAttribute("MinBytes", UintegerValue(1 * MiB));
    sweep->SetAttribute("MaxBytes", UintegerValue(2 * MiB));
    sweep->SetAttribute("Factor", UintegerValue(2));
    sweep->SetAttribute("Iters", UintegerValue(2));
    sweep->SetAttribute("Barrier", TimeValue(MicroSeconds(5)));
    sweep->SetCommunicator(comm, CollectiveOp::ALL_REDUCE);
    std::vector<std::string> edges;
    sweep->SetSizeStartedCallback(MakeCallback(+[](std::vector<std::string>* e, uint64_t b) {
                                      e->push_back("start " + std::to_string(b));
                                  }).Bind(&edges));
    sweep->SetSizeFinishedCallback(MakeCallback(+[](std::vector<std::string>* e, uint64_t b) {
                                       e->push_back("end " + std::to_string(b));
                                   }).Bind(&edges));
    sweep->Start();
    Simulator::Run();
    const std::vector<CollectiveRecord>& recs = comm->GetRecords();
    ASSERT_EQ(recs.size(), 6u);
    const std::vector<uint64_t> bytes = {2 * MiB, 1 * MiB, 1 * MiB, 1 * MiB, 2 * MiB, 2 * MiB};
    for (std::size_t i = 0; i < recs.size(); ++i)
    {
        EXPECT_TRUE(recs[i].completed);
        EXPECT_EQ(recs[i].bytes, bytes[i]);
        if (i > 0)
        {
            EXPECT_EQ(recs[i].enqueued, recs[i - 1].end + MicroSeconds(5)) << i;
            EXPECT_EQ(recs[i].start, recs[i].enqueued) << i; // every rank starts at once
        }
    }
    EXPECT_EQ(
        edges,
        (std::vector<std::string>{"start 1048576", "end 1048576", "start 2097152", "end 2097152"}));
    const auto results = sweep->GetResults(recs);
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0].bytes, 1 * MiB);
    EXPECT_EQ(results[0].time, (recs[2].GetDuration() + recs[3].GetDuration()) / 2);
    EXPECT_EQ(results[1].time, (recs[4].GetDuration() + recs[5].GetDuration()) / 2);
    EXPECT_EQ(results[1].algorithm, "ring");
    // Stopped at the first idle check after the last end (1 us apart), plus the barrier.
    EXPECT_GE(Simulator::Now(), recs.back().end + MicroSeconds(5));
    EXPECT_LT(Simulator::Now(), recs.back().end + MicroSeconds(5 + 20));
    for (uint32_t r = 0; r < 4; ++r)
    {
        EXPECT_EQ(hosts.Get(r)->GetObject<FabricNic>()->GetPendingOperations(), 0u);
    }
}

// Across processes a connection gets QPs only on the NICs of this process; a NIC simulated
// elsewhere gets its QP numbers reserved, so the numbers (and the entropies derived from them)
// are those of a run where every NIC is local.
TEST_F(CollectiveProcessesTest, QpsExistOnlyOnThisProcesssNicsWithTheSequentialNumbers)
{
    Build(4, {0, 0, 1, 1}); // hosts 2 and 3: another process's
    RoceNicHelper helper;
    std::vector<Ptr<RoceNic>> nic;
    for (uint32_t i = 0; i < 4; ++i)
    {
        nic.push_back(hosts.Get(i)->GetObject<RoceNic>());
    }
    UintegerValue firstQpn;
    nic[0]->GetAttribute("FirstQpn", firstQpn);
    const auto first = static_cast<uint32_t>(firstQpn.Get());
    auto local = helper.Connect(nic[0], nic[1], 1)[0];  // both here
    auto half = helper.Connect(nic[0], nic[2], 1)[0];   // 2 elsewhere
    auto remote = helper.Connect(nic[2], nic[3], 1)[0]; // both elsewhere
    auto again = helper.Connect(nic[1], nic[2], 1)[0];  // numbers after the reserved ones
    ASSERT_TRUE(local.first && local.second && half.first);
    EXPECT_FALSE(half.second);
    EXPECT_FALSE(remote.first || remote.second);
    EXPECT_EQ(half.first->GetQpn(), first + 1);
    EXPECT_EQ(half.first->GetRemoteQpn(), first); // nic 2's first number, reserved
    EXPECT_EQ(again.first->GetQpn(), first + 1);
    EXPECT_EQ(again.first->GetRemoteQpn(), first + 2); // after half's and remote's
    EXPECT_EQ(nic[2]->GetNQps(), 3u);
    EXPECT_EQ(nic[3]->GetNQps(), 1u);
    EXPECT_FALSE(nic[2]->GetQpAt(0));
    EXPECT_EQ(nic[2]->GetPendingOperations(), 0u);
    EXPECT_EQ(nic[2]->GetTotalQpCounters().txDataPackets, 0u);
    // The entropy is the one a local QP pair of these numbers gets.
    EXPECT_EQ(half.first->GetUdpSourcePort(),
              static_cast<uint16_t>(49152 + (((first + 1) * 2654435761u) ^ first) % 16384));
}
