/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FaultHelper's lab kinds (issue 37): a nic-stall makes the GPU's NIC pause its leaf, the
 * pauses reach the senders, and the flows complete once the stall ends (overlapping stalls
 * resume when the last ends); an ecn-profile makes the mis-set switch mark where an identically
 * loaded one does not, and restore puts the profile back; a drop-class of ACKs on a GPU's cable
 * drops exactly the ACKs (the RoCE classifier tells ACK, NAK and CNP apart), the requesters hit
 * local ACK timeouts and retransmit, and every write completes. Gather() (across MPI processes:
 * the log's counts summed) leaves a run of one process's log as it is.
 */
#include "fault-helper-fixture.h"

#include <sstream>

using namespace ns3;

namespace
{

using test::FaultHelperTest;
using test::PortsTo;
using test::Switch;

// ---- nic-stall, ecn-profile -----------------------------------------------------------------

/// Pause frames received by a port, every priority.
uint64_t
PausesRx(Ptr<PfcNetDevice> dev)
{
    uint64_t n = 0;
    for (uint64_t c : dev->GetCounters().pauseRx)
    {
        n += c;
    }
    return n;
}

TEST_F(FaultHelperTest, ParserAcceptsNicStallAndEcnProfile)
{
    auto s = FaultHelper::Parse("nic-stall:gpu3@2ms,for=500us;nic-stall:gpu1@1ms;"
                                "ecn-profile:leaf1@1ms,kmin=5KB,kmax=20KB,pmax=0.2,"
                                "ecn-profile:leaf1#3@2ms,pmax=1,kmax=4096,kmin=0;"
                                "ecn-profile:leaf1@3ms,restore");
    ASSERT_EQ(s.size(), 5u);
    EXPECT_EQ(s[0].kind, FaultKind::NIC_STALL);
    EXPECT_EQ(s[0].nodeA, "gpu3");
    EXPECT_TRUE(s[0].nodeB.empty());
    EXPECT_EQ(s[0].duration, MicroSeconds(500));
    EXPECT_EQ(s[0].Describe(), "nic-stall gpu3 @ 2 ms, for 500 us");
    EXPECT_TRUE(s[1].duration.IsZero());
    EXPECT_EQ(s[1].Describe(), "nic-stall gpu1 @ 1 ms, to the end");
    EXPECT_EQ(s[2].kind, FaultKind::ECN_PROFILE);
    EXPECT_EQ(s[2].port, -1);
    EXPECT_EQ(s[2].kmin, 5120u);
    EXPECT_EQ(s[2].kmax, 20480u);
    EXPECT_DOUBLE_EQ(s[2].pmax, 0.2);
    EXPECT_FALSE(s[2].restore);
    EXPECT_EQ(s[2].Describe(), "ecn-profile leaf1 @ 1 ms, kmin 5120 B, kmax 20480 B, pmax 0.2");
    EXPECT_EQ(s[3].port, 3);
    EXPECT_EQ(s[3].GetTarget(), "leaf1#3");
    EXPECT_EQ(s[3].kmin, 0u);
    EXPECT_EQ(s[3].kmax, 4096u);
    EXPECT_DOUBLE_EQ(s[3].pmax, 1.0);
    EXPECT_TRUE(s[4].restore);
    EXPECT_EQ(s[4].Describe(), "ecn-profile leaf1 @ 3 ms, restore");
}

TEST_F(FaultHelperTest, ParserRefusesBadNicStallAndEcnProfileValues)
{
    EXPECT_EQ(test::FaultParseError("nic-stall:gpu3@2ms,for=0us"),
              "for '0us' in 'nic-stall:gpu3@2ms,for=0us' is invalid; it must be > 0");
    EXPECT_EQ(test::FaultParseError("nic-stall:gpu3-leaf1@2ms"),
              "target 'gpu3-leaf1' in 'nic-stall:gpu3-leaf1@2ms' is invalid; nic-stall takes one "
              "GPU name, e.g. nic-stall:gpu3@2ms,for=500us");
    EXPECT_EQ(test::FaultParseError("nic-stall:gpu3@2ms,down=1ms"),
              "parameter 'down' in 'nic-stall:gpu3@2ms,down=1ms' does not apply to nic-stall; "
              "valid: for");
    const std::string e = "ecn-profile:leaf1@1ms";
    EXPECT_EQ(test::FaultParseError(e + ",kmin=20KB,kmax=5KB,pmax=0.2"),
              "fault 'ecn-profile leaf1 @ 1 ms, kmin 20480 B, kmax 5120 B, pmax 0.2': kmin "
              "20480 B is above kmax 5120 B; kmin must be <= kmax");
    for (const char* pmax : {"0", "1.5", "-0.1", "x", "0.2x", ""})
    {
        const std::string text = e + ",kmin=5KB,kmax=20KB,pmax=" + pmax;
        EXPECT_EQ(test::FaultParseError(text),
                  "pmax '" + std::string(pmax) + "' in '" + text +
                      "' is invalid; give a probability in the range (0, 1], e.g. 0.2");
    }
    EXPECT_EQ(test::FaultParseError(e + ",kmin=5QB"),
              "kmin '5QB' in 'ecn-profile:leaf1@1ms,kmin=5QB' is invalid; give a byte count, "
              "e.g. 20480, 20KB (KB = 1024 bytes)");
    EXPECT_EQ(test::FaultParseError(e + ",kmin=5KB,pmax=0.2"),
              "fault 'ecn-profile:leaf1@1ms,kmin=5KB,pmax=0.2' needs kmax=...; e.g. "
              "ecn-profile:leaf1@1ms,kmin=5KB,kmax=20KB,pmax=0.2");
    EXPECT_EQ(test::FaultParseError(e + ",restore,kmin=5KB"),
              "fault 'ecn-profile:leaf1@1ms,restore,kmin=5KB' takes restore alone (back to the "
              "profile at install) or kmin=, kmax= and pmax=, not both");
    EXPECT_EQ(test::FaultParseError(e + ",restore,restore"),
              "parameter 'restore' is given twice in 'ecn-profile:leaf1@1ms,restore,restore'");
    EXPECT_EQ(test::FaultParseError("ecn-profile:leaf1#x@1ms,restore"),
              "port index 'x' in 'ecn-profile:leaf1#x@1ms' is invalid; write S#k with k a switch "
              "port number from 0");
    EXPECT_EQ(test::FaultParseError("ecn-profile:leaf1-spine0@1ms,restore"),
              "target 'leaf1-spine0' in 'ecn-profile:leaf1-spine0@1ms' is invalid; ecn-profile "
              "takes one switch name S (every port) or S#k (its port k), e.g. "
              "ecn-profile:leaf1@1ms,kmin=5KB,kmax=20KB,pmax=0.2");
    // A bare 'restore' belongs to ecn-profile only.
    EXPECT_EQ(test::FaultParseError("link-down:a-b@1ms,restore"),
              "'restore' is neither a fault (kind:target@time) nor a parameter (key=value); "
              "valid kinds: link-down, link-up, link-flap, link-degrade, link-restore, "
              "switch-reboot, nic-stall, ecn-profile, drop-class, pfc-threshold");
    // Add() checks a spec built in code the same way.
    auto f = CreateObject<FaultHelper>();
    FaultSpec bad;
    bad.kind = FaultKind::ECN_PROFILE;
    bad.nodeA = "leaf1";
    bad.kmin = 100;
    bad.kmax = 200;
    bad.pmax = 0;
    EXPECT_DEATH(f->Add(bad),
                 "fault 'ecn-profile leaf1 @ 0 s, kmin 100 B, kmax 200 B, pmax 0': pmax 0 is "
                 "invalid; valid range \\(0, 1\\]");
    EXPECT_TRUE(f->GetFaults().empty());
}

TEST_F(FaultHelperTest, InstallRefusesNicStallAndEcnProfileOnTheWrongNodes)
{
    auto t = SmallClos();
    auto make = [](const std::string& spec) {
        auto f = CreateObject<FaultHelper>();
        f->Add(spec);
        return f;
    };
    EXPECT_DEATH(make("nic-stall:leaf0@1ms")->Install(t),
                 "fault 'nic-stall leaf0 @ 1 ms, to the end': leaf0 is not a GPU with a NIC; the "
                 "GPUs are gpu0..3");
    EXPECT_DEATH(make("nic-stall:gpu9@1ms")->Install(t), "no node 'gpu9' in this fabric");
    // Host-side PFC is off by default: the stall has no buffer to fill.
    EXPECT_DEATH(make("nic-stall:gpu2@1ms,for=1ms")->Install(t),
                 "fault 'nic-stall gpu2 @ 1 ms, for 1 ms': gpu2's NIC has host-side PFC off "
                 "\\(ns3::FabricNic::RxDrainRate is 0 bit/s\\), so a stalled host has no buffer "
                 "to fill; set ns3::FabricNic::RxDrainRate > 0 \\(e.g. the NIC's line rate\\)");
    EXPECT_DEATH(make("ecn-profile:gpu0@1ms,restore")->Install(t),
                 "fault 'ecn-profile gpu0 @ 1 ms, restore': gpu0 is not a switch; the switches "
                 "are leaf0..1, spine0..1");
    EXPECT_DEATH(make("ecn-profile:leaf1#4@1ms,restore")->Install(t),
                 "fault 'ecn-profile leaf1#4 @ 1 ms, restore': port #4 does not exist; leaf1 has "
                 "4 ports \\(#0..#3\\)");
    EXPECT_DEATH(make("ecn-profile:spine7@1ms,restore")->Install(t),
                 "no node 'spine7' in this fabric; its nodes are gpu0..3, leaf0..1, spine0..1");
    // The NIC refuses a stall without host-side PFC too.
    EXPECT_DEATH(t->GetNicCore(0)->SetRxStalled(true),
                 "FabricNic::SetRxStalled: host-side PFC is off");
}

/// gpu2's host stops draining at 10 us for 100 us: its NIC's host backlog passes RxXoffBytes
/// and it pauses leaf1; leaf1's buffer fills and it pauses the spines; they pause leaf0,
/// which pauses the sender gpu0 (the PFC storm's propagation). Nothing paused before the
/// stall (the host drains at line rate); the writes to gpu2 complete only after the stall
/// ends, all complete, frames are conserved, and the log has the stall and its end.
TEST_F(FaultHelperTest, ANicStallPausesItsLeafAndThePausesReachTheSenders)
{
    // 4 MiB per 4-port switch, about a production ToR's 1 MiB per port (64 MB for 64 ports),
    // instead of the default 32 MiB, which would absorb the whole stall at leaf1.
    Config::SetDefault("ns3::SharedBufferMmu::BufferSize", UintegerValue(4 << 20));
    auto t = SmallClos();
    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        t->GetNicCore(r)->SetRxDrainRate(DataRate("400Gbps")); // the line rate: never pauses
    }
    Ptr<FabricNic> nic2 = t->GetNicCore(2);
    Ptr<PfcNetDevice> leafToGpu2 = test::PeerOf(nic2->GetPort(0));
    Ptr<PfcNetDevice> gpu0Port = t->GetNicCore(0)->GetPort(0);
    std::vector<Ptr<PfcNetDevice>> spinesToLeaf1;
    for (uint32_t s = 0; s < 2; ++s)
    {
        spinesToLeaf1.push_back(
            Switch(t->GetSpine(s))->GetPort(PortsTo(t->GetSpine(s), t->GetLeaf(1))[0]));
    }
    auto f = CreateObject<FaultHelper>();
    f->Add("nic-stall:gpu2@10us,for=100us");
    f->Install(t);
    std::vector<bool> stallTrace;
    nic2->TraceConnectWithoutContext("RxStall",
                                     MakeCallback(+[](std::vector<bool>* v, bool stalled) {
                                         v->push_back(stalled);
                                     }).Bind(&stallTrace));
    uint64_t pausesAtStall = 0;
    uint32_t completedAtResume = 0;
    Simulator::Schedule(MicroSeconds(10), [&]() {
        pausesAtStall = PausesRx(leafToGpu2) + PausesRx(gpu0Port) + PausesRx(spinesToLeaf1[0]) +
                        PausesRx(spinesToLeaf1[1]);
    });
    Simulator::Schedule(MicroSeconds(60), [&]() {
        EXPECT_TRUE(nic2->IsRxStalled());
        EXPECT_GT(nic2->GetRxBacklog(0), 512u * 1024) << "the backlog passed RxXoffBytes";
        EXPECT_GT(PausesRx(leafToGpu2), 0u) << "no pause while stalled above XOFF";
    });
    Simulator::Schedule(MicroSeconds(110) - NanoSeconds(1),
                        [&]() { completedAtResume = completions.size(); });
    Simulator::Schedule(MicroSeconds(110) + NanoSeconds(1),
                        [&]() { EXPECT_FALSE(nic2->IsRxStalled()); });
    StartTraffic(t, 1024 * 1024);
    Simulator::Run();
    ExpectAllCompleted();
    ExpectConserved(*t);
    EXPECT_EQ(pausesAtStall, 0u) << "pauses before the stall";
    EXPECT_GT(PausesRx(leafToGpu2), 0u) << "the stalled NIC did not pause its leaf";
    EXPECT_GT(PausesRx(spinesToLeaf1[0]) + PausesRx(spinesToLeaf1[1]), 0u)
        << "the leaf did not pause the spines";
    EXPECT_GT(PausesRx(gpu0Port), 0u) << "the pauses did not reach the sender gpu0";
    EXPECT_LT(completedAtResume, expected) << "everything completed during the stall";
    Time last;
    for (const auto& wc : completions)
    {
        last = std::max(last, wc.endTime);
    }
    EXPECT_GT(last, MicroSeconds(110));
    EXPECT_EQ(stallTrace, (std::vector<bool>{true, false}));
    const auto& ev = f->GetEvents();
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev[0].time, MicroSeconds(10));
    EXPECT_EQ(ev[0].kind, "nic-stall");
    EXPECT_EQ(ev[0].target, "gpu2");
    EXPECT_EQ(ev[0].detail.rfind("host drain stopped; host backlog ", 0), 0u) << ev[0].detail;
    EXPECT_EQ(ev[1].time, MicroSeconds(110));
    EXPECT_EQ(ev[1].kind, "nic-resume");
    EXPECT_EQ(ev[1].detail.rfind("host drain resumed; host backlog ", 0), 0u) << ev[1].detail;
    std::ostringstream csv;
    f->WriteCsv(csv);
    EXPECT_NE(csv.str().find("\n10000,nic-stall,gpu2,host drain stopped"), std::string::npos)
        << csv.str();
    EXPECT_NE(csv.str().find("\n110000,nic-resume,gpu2,host drain resumed"), std::string::npos)
        << csv.str();
    // One process: Gather() writes the backlog rows again from the same counts.
    f->Gather();
    std::ostringstream gathered;
    f->WriteCsv(gathered);
    EXPECT_EQ(gathered.str(), csv.str());
}

/// Two overlapping stalls of one GPU: it resumes only when the last one ends.
TEST_F(FaultHelperTest, OverlappingNicStallsResumeWhenTheLastEnds)
{
    auto t = SmallClos();
    t->GetNicCore(1)->SetRxDrainRate(DataRate("400Gbps"));
    auto f = CreateObject<FaultHelper>();
    f->Add("nic-stall:gpu1@10us,for=20us;nic-stall:gpu1@20us,for=20us");
    f->Install(t);
    Ptr<FabricNic> nic = t->GetNicCore(1);
    Simulator::Schedule(MicroSeconds(35), [&]() { EXPECT_TRUE(nic->IsRxStalled()); });
    Simulator::Schedule(MicroSeconds(45), [&]() { EXPECT_FALSE(nic->IsRxStalled()); });
    Simulator::Run();
    std::vector<std::string> log;
    for (const FaultEvent& e : f->GetEvents())
    {
        log.push_back(e.kind + "@" + std::to_string(e.time.GetMicroSeconds()) + " " + e.detail);
    }
    EXPECT_EQ(
        log,
        (std::vector<std::string>{"nic-stall@10 host drain stopped; host backlog 0 B",
                                  "nic-stall@20 no change (stalled by 2 faults); host backlog 0 B",
                                  "nic-resume@30 no change (stalled by 1 fault); host backlog 0 B",
                                  "nic-resume@40 host drain resumed; host backlog 0 B"}));
}

/// Two-to-one incasts toward gpu0 (egress of leaf0) and gpu2 (egress of leaf1), the same load
/// on both leaves. With their installed profile neither leaf marks; with leaf1's profile set to
/// Kmin 5 KB, Kmax 20 KB, Pmax 0.2 leaf1 marks and leaf0 still does not. A restore puts leaf1's
/// profile back; a one-port profile (leaf0#k) changes that port only.
TEST_F(FaultHelperTest, AMisSetEcnProfileMarksWhereTheSameLoadDidNot)
{
    auto t = SmallClos();
    Ptr<FabricSwitch> leaf0 = Switch(t->GetLeaf(0));
    Ptr<FabricSwitch> leaf1 = Switch(t->GetLeaf(1));
    Ptr<WredEcnMarker> ecn0 = leaf0->GetEcnMarker();
    Ptr<WredEcnMarker> ecn1 = leaf1->GetEcnMarker();
    std::vector<std::tuple<uint64_t, uint64_t, double>> installed;
    for (uint32_t p = 0; p < leaf1->GetNPorts(); ++p)
    {
        installed.emplace_back(ecn1->GetKmin(p), ecn1->GetKmax(p), ecn1->GetPmax(p));
    }
    ASSERT_GT(std::get<0>(installed[0]), 20u * 1024) << "the installed Kmin is already tiny";
    const uint32_t k = PortsTo(t->GetLeaf(0), t->GetSpine(1))[0];
    auto f = CreateObject<FaultHelper>();
    f->Add("ecn-profile:leaf1@0s,kmin=5KB,kmax=20KB,pmax=0.2;ecn-profile:leaf1@5ms,restore;"
           "ecn-profile:leaf0#" +
           std::to_string(k) + "@6ms,kmin=1KB,kmax=2KB,pmax=1");
    f->Install(t);
    Simulator::Schedule(NanoSeconds(1), [&]() {
        for (uint32_t p = 0; p < leaf1->GetNPorts(); ++p)
        {
            EXPECT_EQ(ecn1->GetKmin(p), 5120u);
            EXPECT_EQ(ecn1->GetKmax(p), 20480u);
            EXPECT_DOUBLE_EQ(ecn1->GetPmax(p), 0.2);
        }
    });
    for (auto [src, dst] : {std::pair<uint32_t, uint32_t>{0, 2}, {1, 2}, {2, 0}, {3, 0}})
    {
        for (const auto& q : t->Connect(src, dst, 4))
        {
            q.first->PostWrite(512 * 1024, 0, 1, OnDone());
            posted += 512 * 1024;
            ++expected;
        }
    }
    Simulator::Run();
    ExpectAllCompleted();
    ExpectConserved(*t);
    for (const auto& wc : completions)
    {
        ASSERT_LT(wc.endTime, MilliSeconds(5)) << "traffic ran into the restore";
    }
    auto marks = [](Ptr<FabricSwitch> sw) {
        uint64_t n = 0;
        for (uint64_t m : sw->GetCounters().ecnMarks)
        {
            n += m;
        }
        return n;
    };
    EXPECT_GT(marks(leaf1), 0u) << "the mis-set leaf did not mark";
    EXPECT_EQ(marks(leaf0), 0u) << "the correctly set leaf marked under the same load";
    for (uint32_t p = 0; p < leaf1->GetNPorts(); ++p)
    {
        EXPECT_EQ(std::make_tuple(ecn1->GetKmin(p), ecn1->GetKmax(p), ecn1->GetPmax(p)),
                  installed[p])
            << "port " << p << " not restored";
    }
    for (uint32_t p = 0; p < leaf0->GetNPorts(); ++p)
    {
        EXPECT_EQ(ecn0->GetKmin(p), p == k ? 1024u : std::get<0>(installed[0])) << p;
        EXPECT_EQ(ecn0->GetKmax(p), p == k ? 2048u : std::get<1>(installed[0])) << p;
    }
    const auto& ev = f->GetEvents();
    ASSERT_EQ(ev.size(), 3u);
    EXPECT_EQ(ev[0].time, Seconds(0));
    EXPECT_EQ(ev[0].kind, "ecn-profile");
    EXPECT_EQ(ev[0].target, "leaf1");
    std::ostringstream was;
    was << "kmin " << std::get<0>(installed[0]) << " B kmax " << std::get<1>(installed[0])
        << " B pmax " << std::get<2>(installed[0]);
    EXPECT_EQ(ev[0].detail,
              "4 ports kmin 5120 B kmax 20480 B pmax 0.2 on port 0 (was " + was.str() + ")");
    EXPECT_EQ(ev[1].time, MilliSeconds(5));
    EXPECT_EQ(ev[1].kind, "ecn-restore");
    EXPECT_EQ(ev[1].detail,
              "4 ports back to their profile at install: " + was.str() +
                  " on port 0 (was kmin 5120 B kmax 20480 B pmax 0.2)");
    EXPECT_EQ(ev[2].target, "leaf0#" + std::to_string(k));
    EXPECT_EQ(ev[2].detail, "1 port kmin 1024 B kmax 2048 B pmax 1 (was " + was.str() + ")");
}

// ---- drop-class -----------------------------------------------------------------------------

TEST_F(FaultHelperTest, ParserAcceptsDropClassAndRefusesBadValues)
{
    auto s = FaultHelper::Parse("drop-class:leaf0-spine1@1ms,class=ack,for=200us;"
                                "drop-class:gpu0-leaf0#0@2ms,class=cnp,prob=0.5,"
                                "drop-class:leaf0-spine1@3ms,class=nak");
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].kind, FaultKind::DROP_CLASS);
    EXPECT_EQ(s[0].packetClass, FabricPacketClass::ACK);
    EXPECT_EQ(s[0].duration, MicroSeconds(200));
    EXPECT_DOUBLE_EQ(s[0].probability, 1.0);
    EXPECT_EQ(s[0].Describe(), "drop-class leaf0-spine1 @ 1 ms, class ack, for 200 us");
    EXPECT_EQ(s[1].cable, 0);
    EXPECT_EQ(s[1].packetClass, FabricPacketClass::CNP);
    EXPECT_EQ(s[1].Describe(), "drop-class gpu0-leaf0#0 @ 2 ms, class cnp, to the end, prob 0.5");
    EXPECT_EQ(s[2].packetClass, FabricPacketClass::NAK);

    EXPECT_EQ(test::FaultParseError("drop-class:leaf0-spine1@1ms,class=data"),
              "class 'data' in 'drop-class:leaf0-spine1@1ms,class=data' is invalid; valid "
              "classes: ack, nak, cnp");
    EXPECT_EQ(test::FaultParseError("drop-class:leaf0-spine1@1ms,for=1ms"),
              "fault 'drop-class:leaf0-spine1@1ms,for=1ms' needs class=...; e.g. "
              "drop-class:leaf0-spine1@1ms,class=ack,for=200us");
    EXPECT_EQ(test::FaultParseError("drop-class:leaf0-spine1@1ms,class=ack,prob=0"),
              "prob '0' in 'drop-class:leaf0-spine1@1ms,class=ack,prob=0' is invalid; give a "
              "probability in the range (0, 1], e.g. 0.5");
    EXPECT_EQ(test::FaultParseError("drop-class:leaf0@1ms,class=ack"),
              "target 'leaf0' in 'drop-class:leaf0@1ms' is invalid; drop-class takes two node "
              "names A-B (or A-B#k for one of their cables), e.g. "
              "drop-class:leaf0-spine1@1ms,class=ack,for=200us");
    EXPECT_EQ(test::FaultParseError("drop-class:leaf0-spine1@1ms,class=ack,kmin=1"),
              "parameter 'kmin' in 'drop-class:leaf0-spine1@1ms,class=ack,kmin=1' does not "
              "apply to drop-class; valid: class (required), for, prob");
    auto t = SmallClos();
    auto f = CreateObject<FaultHelper>();
    f->Add("drop-class:leaf0-spine1#1@1ms,class=ack");
    EXPECT_DEATH(f->Install(t),
                 "fault 'drop-class leaf0-spine1#1 @ 1 ms, class ack, to the end': cable #1 does "
                 "not exist; leaf0-spine1 has 1 cable \\(#0..#0\\)");
    auto g = CreateObject<FaultHelper>();
    g->Add("drop-class:leaf0-leaf1@1ms,class=nak");
    EXPECT_DEATH(g->Install(t), "leaf0 and leaf1 are not cabled together");
}

/// RoCE's classifier: an Acknowledge with an ACK syndrome is ACK, with a NAK syndrome NAK,
/// a CNP is CNP, a WRITE or a truncated BTH is OTHER; the filter finds the BTH behind
/// Ethernet (with or without 802.1Q), IPv4 and UDP, and only on the registered UDP port.
TEST_F(FaultHelperTest, TheRoceClassifierTellsAckNakAndCnpApart)
{
    uint8_t bth[RoceBthHeader::SIZE + RoceAethHeader::SIZE] = {};
    auto classify = [&](uint8_t opcode, uint8_t syndrome, uint32_t n) {
        bth[0] = opcode;
        RoceAethHeader::WriteFields(bth + RoceBthHeader::SIZE, syndrome, 7);
        return RoceEntropyParser::Classify(bth, n);
    };
    const uint32_t all = sizeof(bth);
    EXPECT_EQ(classify(RoceOpcode::ACKNOWLEDGE, RoceAethHeader::AckSyndrome(31), all),
              FabricPacketClass::ACK);
    EXPECT_EQ(classify(RoceOpcode::ACKNOWLEDGE, RoceAethHeader::NakSyndrome(0), all),
              FabricPacketClass::NAK);
    EXPECT_EQ(classify(RoceOpcode::ACKNOWLEDGE, RoceAethHeader::NakSyndrome(0), all - 1),
              FabricPacketClass::OTHER);
    EXPECT_EQ(classify(RoceOpcode::CNP, 0, RoceBthHeader::SIZE), FabricPacketClass::CNP);
    EXPECT_EQ(classify(RoceOpcode::WRITE_ONLY, 0, all), FabricPacketClass::OTHER);
    EXPECT_EQ(classify(RoceOpcode::CNP, 0, RoceBthHeader::SIZE - 1), FabricPacketClass::OTHER);

    // A whole frame: Ethernet (+ 802.1Q), IPv4, UDP to 4791, BTH, AETH.
    auto frame = [&](bool dot1q, uint16_t udpPort) {
        std::vector<uint8_t> b(dot1q ? 18 : 14, 0);
        b[12] = dot1q ? 0x81 : 0x08;
        if (dot1q)
        {
            b[16] = 0x08;
        }
        std::vector<uint8_t> ip(20, 0);
        ip[0] = 0x45;
        ip[9] = 17;
        b.insert(b.end(), ip.begin(), ip.end());
        std::vector<uint8_t> udp(8, 0);
        udp[2] = uint8_t(udpPort >> 8);
        udp[3] = uint8_t(udpPort);
        b.insert(b.end(), udp.begin(), udp.end());
        b.insert(b.end(), bth, bth + all);
        b.resize(b.size() + 8, 0); // ICRC, FCS
        return Create<Packet>(b.data(), b.size());
    };
    auto filter = CreateObject<PacketClassFilter>();
    classify(RoceOpcode::ACKNOWLEDGE, RoceAethHeader::NakSyndrome(0), all);
    EXPECT_EQ(filter->Classify(frame(false, 4791)), FabricPacketClass::OTHER); // no classifier
    filter->AddClassifier(RoceEntropyParser::UDP_PORT, &RoceEntropyParser::Classify);
    EXPECT_EQ(filter->Classify(frame(false, 4791)), FabricPacketClass::NAK);
    EXPECT_EQ(filter->Classify(frame(true, 4791)), FabricPacketClass::NAK);
    EXPECT_EQ(filter->Classify(frame(false, 4793)), FabricPacketClass::OTHER);
    filter->SetDropClass(FabricPacketClass::NAK);
    EXPECT_TRUE(filter->IsCorrupt(frame(true, 4791)));
    classify(RoceOpcode::ACKNOWLEDGE, RoceAethHeader::AckSyndrome(31), all);
    EXPECT_FALSE(filter->IsCorrupt(frame(true, 4791)));
    EXPECT_EQ(filter->GetDrops(FabricPacketClass::NAK), 1u);
    EXPECT_EQ(filter->GetSeen(FabricPacketClass::ACK), 1u);
    EXPECT_DEATH(filter->SetDropClass(FabricPacketClass::OTHER),
                 "PacketClassFilter::SetDropClass: class 0 is invalid; valid: ack, nak, cnp");
    EXPECT_DEATH(filter->SetDropProbability(1.5),
                 "ns3::PacketClassFilter::DropProbability=1.5 is invalid; valid range \\(0, 1\\]");
}

/// Every ACK gpu0 and leaf0 exchange on their cable is lost from 0 to 200 us: gpu0's
/// requesters get no ACK, hit local ACK timeouts (65.5 us) and retransmit (go back N); the
/// data, the other GPUs' ACKs and the traffic of other cables pass. Once the filter is gone
/// every write completes, the filter dropped only ACKs (as many as the ports' rx-error
/// drops), frames are conserved and the log has both ends. (The writes are small enough to be
/// sent again well within one timeout: with a go-back-N resend longer than the timeout the
/// requester would time out in every resend and end in RETRY_EXCEEDED, as real RoCE NICs do.)
TEST_F(FaultHelperTest, LostAcksRaiseLocalAckTimeoutsAndTheFlowsStillComplete)
{
    auto t = SmallClos();
    auto f = CreateObject<FaultHelper>();
    f->Add("drop-class:gpu0-leaf0@0s,class=ack,for=200us");
    f->Install(t);
    std::vector<Ptr<RoceQueuePair>> requesters;
    std::vector<Ptr<RoceQueuePair>> others;
    for (auto [a, b] : {std::pair<uint32_t, uint32_t>{0, 2}, {1, 3}})
    {
        for (const auto& q : t->Connect(a, b, 4))
        {
            q.first->PostWrite(256 * 1024, 0, 1, OnDone());
            posted += 256 * 1024;
            ++expected;
            (a == 0 ? requesters : others).push_back(q.first);
        }
    }
    Ptr<PfcNetDevice> gpu0Port = t->GetNicCore(0)->GetPort(0);
    Simulator::Schedule(MicroSeconds(100), [&]() {
        EXPECT_TRUE(DynamicCast<PacketClassFilter>(gpu0Port->GetReceiveErrorModel()))
            << "no filter during the fault";
    });
    Simulator::Run();
    ExpectAllCompleted();
    ExpectConserved(*t);
    uint64_t timeouts = 0;
    uint64_t otherTimeouts = 0;
    for (auto qp : requesters)
    {
        timeouts += qp->GetCounters().timeouts;
    }
    for (auto qp : others)
    {
        otherTimeouts += qp->GetCounters().timeouts;
    }
    EXPECT_GT(timeouts, 0u) << "lost ACKs raised no local ACK timeout";
    EXPECT_EQ(otherTimeouts, 0u) << "the ACKs of gpu1 do not cross the filtered cable";
    Time last;
    for (const auto& wc : completions)
    {
        last = std::max(last, wc.endTime);
    }
    EXPECT_GT(last, MicroSeconds(200));
    const auto& filters = f->GetPacketClassFilters();
    ASSERT_EQ(filters.size(), 2u);
    uint64_t acks = 0;
    uint64_t rxErrors = 0;
    for (Ptr<PacketClassFilter> filter : filters)
    {
        acks += filter->GetDrops(FabricPacketClass::ACK);
        EXPECT_EQ(filter->GetDrops(FabricPacketClass::OTHER), 0u);
        EXPECT_EQ(filter->GetDrops(FabricPacketClass::NAK), 0u);
    }
    EXPECT_GT(filters[0]->GetSeen(FabricPacketClass::OTHER) +
                  filters[1]->GetSeen(FabricPacketClass::OTHER),
              0u)
        << "data frames did not pass the filter";
    for (Ptr<PfcNetDevice> dev : {gpu0Port, test::PeerOf(gpu0Port)})
    {
        rxErrors += dev->GetCounters().drops[size_t(PfcDropReason::RX_ERROR)];
        EXPECT_FALSE(dev->GetReceiveErrorModel()) << "the filter was not removed";
    }
    EXPECT_GT(acks, 0u);
    EXPECT_EQ(rxErrors, acks);
    const auto& ev = f->GetEvents();
    ASSERT_EQ(ev.size(), 2u);
    const std::string link = std::to_string(t->FindLinks(t->GetRank(0), t->GetLeaf(0)).at(0));
    EXPECT_EQ(ev[0].time, Seconds(0));
    EXPECT_EQ(ev[0].kind, "drop-class");
    EXPECT_EQ(ev[0].target, "gpu0-leaf0");
    EXPECT_EQ(ev[0].detail, "ack frames dropped with probability 1 on 2 ports (link " + link + ")");
    EXPECT_EQ(ev[1].time, MicroSeconds(200));
    EXPECT_EQ(ev[1].kind, "drop-class-end");
    EXPECT_EQ(ev[1].detail,
              std::to_string(acks) + " ack frames dropped on 2 ports (link " + link + ")");
    // One process: Gather() writes the drop count's row again from the same count.
    f->Gather();
    EXPECT_EQ(f->GetEvents()[1].detail,
              std::to_string(acks) + " ack frames dropped on 2 ports (link " + link + ")");
}

} // namespace
