/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FaultHelper (issue 37, item 1 and the convergence delay of item 2): the spec parser accepts
 * the documented syntax and refuses bad input naming the value and what is valid; faults are
 * bound to a fabric's node names with clear errors; a link-down on a small Clos removes
 * exactly its equal-cost members and traffic completes without crossing the cable again; with
 * a convergence delay the tables change only after it (remote switches keep sending into the
 * failure and drop as "route down" until then); a flap gives 2 x count changes at the right
 * times; a switch reboot takes all its ports down and brings them back, without releasing a
 * cable another fault holds down; a degrade and its restore set the rate; frames are conserved
 * after every fault (sent = received + dropped by reason); the log, the CSV, the trace and the
 * --fault command-line flag. A nic-stall makes the GPU's NIC pause its leaf, the pauses reach
 * the senders, and the flows complete once the stall ends; an ecn-profile makes the mis-set
 * switch mark where an identically loaded one does not, and restore puts the profile back; a
 * drop-class of ACKs on a GPU's cable drops exactly the ACKs (the RoCE classifier tells ACK,
 * NAK and CNP apart), the requesters hit local ACK timeouts and retransmit, and every write
 * completes.
 */
#include "fault-test-util.h"
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace ns3;

namespace
{

/// The FabricSwitch on a node.
Ptr<FabricSwitch>
Switch(Ptr<Node> node)
{
    return node->GetObject<FabricSwitch>();
}

/// The ports of switch \p sw whose cable leads to \p peer, ascending.
std::vector<uint32_t>
PortsTo(Ptr<Node> sw, Ptr<Node> peer)
{
    std::vector<uint32_t> ports;
    Ptr<FabricSwitch> s = Switch(sw);
    for (uint32_t p = 0; p < s->GetNPorts(); ++p)
    {
        if (test::PeerOf(s->GetPort(p))->GetNode() == peer)
        {
            ports.push_back(p);
        }
    }
    return ports;
}

/// The equal-cost set of \p sw toward \p dst.
std::vector<uint32_t>
Route(Ptr<Node> sw, Ipv4Address dst)
{
    return Switch(sw)->GetForwardingTable()->GetRoute(dst);
}

/// Data frames of a port, all priorities.
uint64_t
Frames(Ptr<PfcNetDevice> dev, bool tx)
{
    uint64_t n = 0;
    const PfcPortCounters& c = dev->GetCounters();
    for (uint32_t p = 0; p < 8; ++p)
    {
        n += tx ? c.txFrames[p] : c.rxFrames[p];
    }
    return n;
}

class FaultHelperTest : public test::SimTest
{
  protected:
    /// 2 ToRs (leaf0: gpu0, gpu1; leaf1: gpu2, gpu3) x 2 spines, one cable each, no NVLink.
    Ptr<ClosTopologyHelper> SmallClos()
    {
        auto t = test::MakeSmallClos();
        t->Install();
        return t;
    }

    /// Eight QPs each way between gpu0 and gpu2 and between gpu1 and gpu3, one WRITE each.
    void StartTraffic(Ptr<FabricTopologyHelper> t, uint64_t bytes)
    {
        for (auto [a, b] : {std::pair<uint32_t, uint32_t>{0, 2}, {1, 3}})
        {
            for (const auto& q : t->Connect(a, b, 8))
            {
                q.first->PostWrite(bytes, 0, 1, MakeCallback(&FaultHelperTest::Done, this));
                q.second->PostWrite(bytes, 0, 2, MakeCallback(&FaultHelperTest::Done, this));
                posted += 2 * bytes;
                ++expected;
            }
        }
        expected *= 2;
    }

    void Done(const RoceWorkCompletion& wc)
    {
        completions.push_back(wc);
    }

    /// \return Done() as a completion callback, for the tests' own traffic
    Callback<void, const RoceWorkCompletion&> OnDone()
    {
        return MakeCallback(&FaultHelperTest::Done, this);
    }

    /// Every WRITE completed successfully with its bytes.
    void ExpectAllCompleted()
    {
        ASSERT_EQ(completions.size(), expected);
        uint64_t bytes = 0;
        for (const auto& wc : completions)
        {
            EXPECT_EQ(wc.status, RoceWcStatus::SUCCESS);
            bytes += wc.bytes;
        }
        EXPECT_EQ(bytes, posted);
    }

    /// Sent = received + dropped (every reason), nothing in flight once the run is over.
    static void ExpectConserved(const FabricTopologyHelper& t)
    {
        test::ExpectFramesConserved(t);
    }

    std::vector<RoceWorkCompletion> completions;
    uint64_t posted{0};
    uint32_t expected{0};
};

// ---- parser ---------------------------------------------------------------------------------

TEST_F(FaultHelperTest, ParserAcceptsTheDocumentedSyntax)
{
    auto s = FaultHelper::Parse("link-down:leaf3-spine1@2ms");
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].kind, FaultKind::LINK_DOWN);
    EXPECT_EQ(s[0].nodeA, "leaf3");
    EXPECT_EQ(s[0].nodeB, "spine1");
    EXPECT_EQ(s[0].cable, -1);
    EXPECT_EQ(s[0].at, MilliSeconds(2));
    EXPECT_EQ(s[0].Describe(), "link-down leaf3-spine1 @ 2 ms");

    // Commas and semicolons both separate faults; parameters follow their fault.
    s = FaultHelper::Parse(" link-flap:leaf0-spine1#1@1.5ms, period=200us ,count=3,"
                           "link-degrade:leaf1-spine0@2ms,rate=100Gbps; switch-reboot:spine0@3ms,"
                           "down=1ms;link-up:gpu0-leaf0@4;link-restore:leaf1-spine0@5ms;"
                           "link-degrade:leaf1-spine0@6ms,rate=restore;");
    ASSERT_EQ(s.size(), 6u);
    EXPECT_EQ(s[0].kind, FaultKind::LINK_FLAP);
    EXPECT_EQ(s[0].cable, 1);
    EXPECT_EQ(s[0].at, MicroSeconds(1500));
    EXPECT_EQ(s[0].period, MicroSeconds(200));
    EXPECT_EQ(s[0].count, 3u);
    EXPECT_EQ(s[0].GetTarget(), "leaf0-spine1#1");
    EXPECT_EQ(s[0].Describe(), "link-flap leaf0-spine1#1 @ 1.5 ms, period 200 us, count 3");
    EXPECT_EQ(s[1].kind, FaultKind::LINK_DEGRADE);
    EXPECT_EQ(s[1].rate, DataRate("100Gbps"));
    EXPECT_FALSE(s[1].restore);
    EXPECT_EQ(s[1].Describe(), "link-degrade leaf1-spine0 @ 2 ms, rate 100 Gb/s");
    EXPECT_EQ(s[2].kind, FaultKind::SWITCH_REBOOT);
    EXPECT_EQ(s[2].nodeA, "spine0");
    EXPECT_TRUE(s[2].nodeB.empty());
    EXPECT_EQ(s[2].down, MilliSeconds(1));
    EXPECT_EQ(s[2].Describe(), "switch-reboot spine0 @ 3 ms, down 1 ms");
    EXPECT_EQ(s[3].kind, FaultKind::LINK_UP);
    EXPECT_EQ(s[3].at, Seconds(4)); // a bare number is seconds, as everywhere in ns-3
    EXPECT_EQ(s[4].kind, FaultKind::LINK_RESTORE);
    EXPECT_TRUE(s[5].restore);
    EXPECT_EQ(s[5].Describe(), "link-degrade leaf1-spine0 @ 6 ms, rate restore");
    // A flap's count defaults to 1; an empty list is no fault.
    EXPECT_EQ(FaultHelper::Parse("link-flap:a-b@0s,period=1ms")[0].count, 1u);
    EXPECT_TRUE(FaultHelper::Parse("").empty());
    EXPECT_TRUE(FaultHelper::Parse(" ; ").empty());
}

TEST_F(FaultHelperTest, ParserRefusesBadInputNamingTheValueAndWhatIsValid)
{
    const std::string kinds =
        "valid kinds: link-down, link-up, link-flap, link-degrade, link-restore, switch-reboot, "
        "nic-stall, ecn-profile, drop-class, pfc-threshold";
    EXPECT_EQ(test::FaultParseError("link-dwn:leaf3-spine1@2ms"),
              "unknown fault kind 'link-dwn' in 'link-dwn:leaf3-spine1@2ms'; " + kinds);
    EXPECT_EQ(test::FaultParseError("link-down:leaf3-spine1"),
              "fault 'link-down:leaf3-spine1' has no time; write kind:target@time, e.g. "
              "link-down:leaf3-spine1@2ms");
    EXPECT_EQ(test::FaultParseError("link-down:leaf3-spine1@2xs"),
              "time '2xs' in 'link-down:leaf3-spine1@2xs' is invalid; give a time >= 0 with an "
              "ns-3 unit, e.g. 2ms, 500us, 1.5s");
    EXPECT_NE(test::FaultParseError("link-down:leaf3-spine1@-1ms").find("time '-1ms'"),
              std::string::npos);
    EXPECT_EQ(test::FaultParseError("link-flap:leaf3-spine1@2ms,period=1ms,count=0"),
              "count '0' in 'link-flap:leaf3-spine1@2ms,period=1ms,count=0' is invalid; valid "
              "range 1..1000000");
    EXPECT_EQ(test::FaultParseError("link-flap:leaf3-spine1@2ms,period=0ms"),
              "period '0ms' in 'link-flap:leaf3-spine1@2ms,period=0ms' is invalid; it must be > 0");
    EXPECT_EQ(test::FaultParseError("link-flap:leaf3-spine1@2ms,count=2"),
              "fault 'link-flap:leaf3-spine1@2ms,count=2' needs period=...; e.g. "
              "link-flap:leaf3-spine1@2ms,period=1ms,count=3");
    for (const char* rate : {"0bps", "-5Gbps", "fast", ""})
    {
        const std::string text = std::string("link-degrade:leaf3-spine1@2ms,rate=") + rate;
        EXPECT_EQ(test::FaultParseError(text),
                  "rate '" + std::string(rate) + "' in '" + text +
                      "' is invalid; give a rate > 0 with a unit (e.g. 100Gbps, 400Gb/s) or "
                      "restore");
    }
    EXPECT_EQ(test::FaultParseError("link-down:leaf3-spine1@2ms,period=1ms"),
              "parameter 'period' in 'link-down:leaf3-spine1@2ms,period=1ms' does not apply to "
              "link-down; it takes none");
    EXPECT_EQ(test::FaultParseError("switch-reboot:spine0@2ms,rate=1Gbps"),
              "parameter 'rate' in 'switch-reboot:spine0@2ms,rate=1Gbps' does not apply to "
              "switch-reboot; valid: down (required)");
    EXPECT_EQ(test::FaultParseError("switch-reboot:spine0@2ms"),
              "fault 'switch-reboot:spine0@2ms' needs down=...; e.g. "
              "switch-reboot:spine0@2ms,down=5ms");
    EXPECT_EQ(test::FaultParseError("switch-reboot:spine0-leaf1@2ms,down=1ms"),
              "target 'spine0-leaf1' in 'switch-reboot:spine0-leaf1@2ms' is invalid; "
              "switch-reboot takes one switch name, e.g. switch-reboot:spine0@2ms,down=5ms");
    EXPECT_EQ(test::FaultParseError("link-down:leaf3@2ms"),
              "target 'leaf3' in 'link-down:leaf3@2ms' is invalid; link-down takes two node "
              "names A-B (or A-B#k for one of their cables), e.g. link-down:leaf3-spine1@2ms");
    EXPECT_EQ(test::FaultParseError("link-down:leaf3-leaf3@2ms"),
              "target 'leaf3-leaf3' in 'link-down:leaf3-leaf3@2ms' is invalid; a link joins two "
              "different nodes");
    EXPECT_EQ(test::FaultParseError("link-down:leaf3-spine1#x@2ms"),
              "cable index 'x' in 'link-down:leaf3-spine1#x@2ms' is invalid; write A-B#k with k "
              "a cable number from 0");
    EXPECT_EQ(test::FaultParseError("period=1ms"),
              "parameter 'period=1ms' comes before any fault; write kind:target@time,key=value");
    EXPECT_EQ(test::FaultParseError("link-down:a-b@1ms,oops"),
              "'oops' is neither a fault (kind:target@time) nor a parameter (key=value); " + kinds);
    EXPECT_EQ(test::FaultParseError("link-flap:a-b@1ms,period=1ms,period=2ms"),
              "parameter 'period' is given twice in 'link-flap:a-b@1ms,period=1ms,period=2ms'");
    // A ';' ends a fault: a parameter after it belongs to none.
    EXPECT_NE(test::FaultParseError("link-flap:a-b@1ms;period=1ms").find("needs period="),
              std::string::npos);
    // Parse() and Add() raise the same text as an input error; nothing is added on failure.
    EXPECT_DEATH(FaultHelper::Parse("link-dwn:a-b@1ms"), "unknown fault kind 'link-dwn'");
    auto f = CreateObject<FaultHelper>();
    EXPECT_DEATH(f->Add("link-down:a-b@1ms;link-up:a-b"), "has no time");
    FaultSpec bad;
    bad.kind = FaultKind::SWITCH_REBOOT;
    bad.nodeA = "spine0";
    EXPECT_DEATH(f->Add(bad),
                 "fault 'switch-reboot spine0 @ 0 s, down 0 s': down 0 s is "
                 "invalid; it must be > 0");
    EXPECT_TRUE(f->GetFaults().empty());
}

// ---- binding --------------------------------------------------------------------------------

TEST_F(FaultHelperTest, InstallRefusesUnknownNodesUncabledPairsAndPastTimes)
{
    auto t = SmallClos();
    auto make = [](const std::string& spec) {
        auto f = CreateObject<FaultHelper>();
        f->Add(spec);
        return f;
    };
    EXPECT_DEATH(make("link-down:leaf9-spine0@1ms")->Install(t),
                 "fault 'link-down leaf9-spine0 @ 1 ms': no node 'leaf9' in this fabric; its "
                 "nodes are gpu0..3, leaf0..1, spine0..1");
    EXPECT_DEATH(make("link-down:leaf0-leaf1@1ms")->Install(t),
                 "fault 'link-down leaf0-leaf1 @ 1 ms': leaf0 and leaf1 are not cabled together; "
                 "leaf0 is cabled to gpu0..1, spine0..1");
    EXPECT_DEATH(make("link-down:leaf0-spine0#1@1ms")->Install(t),
                 "cable #1 does not exist; leaf0-spine0 has 1 cable \\(#0..#0\\)");
    EXPECT_DEATH(make("switch-reboot:gpu0@1ms,down=1ms")->Install(t),
                 "gpu0 is not a switch; the switches are leaf0..1, spine0..1");
    auto notInstalled = CreateObject<ClosTopologyHelper>();
    EXPECT_DEATH(make("link-down:leaf0-spine0@1ms")->Install(notInstalled),
                 "FaultHelper::Install needs an installed fabric");
    // A time in the past, once the simulation has run.
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    EXPECT_DEATH(make("link-down:leaf0-spine0@500us")->Install(t),
                 "fault 'link-down leaf0-spine0 @ 500 us' is in the past: the simulation is at "
                 "1 ms; give a time >= 1 ms");
    // One bad fault stops all: nothing of the good one is scheduled.
    auto f = CreateObject<FaultHelper>();
    f->Add("link-down:leaf0-spine0@2ms");
    EXPECT_DEATH(
        {
            f->Add("link-down:leaf0-spine7@2ms");
            f->Install(t);
        },
        "no node 'spine7'");
    f->Install(t);
    EXPECT_DEATH(f->Install(t), "FaultHelper::Install called twice");
    EXPECT_DEATH(f->Add("link-up:leaf0-spine0@3ms"), "added after Install\\(\\)");
}

// ---- link down, immediate convergence -------------------------------------------------------

/// A cut leaf0-spine0 cable leaves exactly its equal-cost members (and nothing else), the
/// traffic completes, and no frame crosses the cable after the cut.
TEST_F(FaultHelperTest, LinkDownRemovesExactlyItsEcmpMembersAndTrafficCompletes)
{
    auto t = SmallClos();
    Ptr<Node> leaf0 = t->GetLeaf(0);
    Ptr<Node> leaf1 = t->GetLeaf(1);
    Ptr<Node> spine0 = t->GetSpine(0);
    Ptr<Node> spine1 = t->GetSpine(1);
    // Every table before the fault.
    const std::vector<Ptr<Node>> switches{leaf0, leaf1, spine0, spine1};
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> before;
    for (Ptr<Node> n : switches)
    {
        for (uint32_t r = 0; r < 4; ++r)
        {
            before[std::make_pair(n->GetId(), r)] = Route(n, t->GetAddress(r, 0));
        }
    }
    ASSERT_EQ(before[std::make_pair(leaf1->GetId(), 0u)].size(), 2u);

    auto f = CreateObject<FaultHelper>();
    f->Add("link-down:leaf0-spine0@10us");
    f->Install(t);
    const uint32_t link = t->FindLinks(leaf0, spine0).at(0);
    Ptr<PfcNetDevice> leafEnd = Switch(leaf0)->GetPort(PortsTo(leaf0, spine0)[0]);
    Ptr<PfcNetDevice> spineEnd = Switch(spine0)->GetPort(PortsTo(spine0, leaf0)[0]);
    uint64_t rxAtCut[2] = {0, 0};
    Simulator::Schedule(MicroSeconds(10) + NanoSeconds(1), [&]() {
        EXPECT_FALSE(t->GetLinkChannel(link)->IsLinkUp());
        EXPECT_FALSE(t->GetRouteComputer()->IsLinkUp(link));
        // What each switch now uses: the removed members only, except at spine0, which
        // reaches leaf0 the long way (through leaf1 and spine1).
        for (Ptr<Node> n : switches)
        {
            for (uint32_t r = 0; r < 4; ++r)
            {
                std::vector<uint32_t> want = before[std::make_pair(n->GetId(), r)];
                if (n == leaf0 && r >= 2)
                {
                    want = PortsTo(leaf0, spine1);
                }
                else if (n == leaf1 && r < 2)
                {
                    want = PortsTo(leaf1, spine1);
                }
                else if (n == spine0 && r < 2)
                {
                    want = PortsTo(spine0, leaf1);
                }
                EXPECT_EQ(Route(n, t->GetAddress(r, 0)), want)
                    << t->GetNodeName(n->GetId()) << " to gpu" << r;
            }
        }
        EXPECT_FALSE(Switch(leaf0)->IsPortUp(PortsTo(leaf0, spine0)[0]));
        EXPECT_FALSE(Switch(spine0)->IsPortUp(PortsTo(spine0, leaf0)[0]));
        EXPECT_EQ(Switch(leaf1)->GetNPortsDown(), 0u);
        EXPECT_EQ(Switch(spine1)->GetNPortsDown(), 0u);
    });
    // Frames already propagating at the cut still arrive (1 us cables): count after that.
    Simulator::Schedule(MicroSeconds(12), [&]() {
        rxAtCut[0] = Frames(leafEnd, false);
        rxAtCut[1] = Frames(spineEnd, false);
    });
    StartTraffic(t, 256 * 1024);
    Simulator::Run();
    ExpectAllCompleted();
    EXPECT_EQ(Frames(leafEnd, false), rxAtCut[0]) << "a frame crossed the cut cable";
    EXPECT_EQ(Frames(spineEnd, false), rxAtCut[1]) << "a frame crossed the cut cable";
    EXPECT_GT(Switch(spine1)->GetCounters().forwarded, Switch(spine0)->GetCounters().forwarded);
    ExpectConserved(*t);

    // The log: the cut, then the routes, both at 10 us.
    const auto& ev = f->GetEvents();
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev[0].time, MicroSeconds(10));
    EXPECT_EQ(ev[0].kind, "link-down");
    EXPECT_EQ(ev[0].target, "leaf0-spine0");
    EXPECT_EQ(ev[0].detail, "1 cable down (link " + std::to_string(link) + ")");
    EXPECT_EQ(ev[1].time, MicroSeconds(10));
    EXPECT_EQ(ev[1].kind, "routes");
    EXPECT_NE(ev[1].detail.find("0 unreachable"), std::string::npos) << ev[1].detail;
}

// ---- convergence delay ----------------------------------------------------------------------

/// With ConvergenceDelay 200 us the tables change only 200 us after the cut: until then leaf1
/// keeps hashing flows for leaf0's GPUs onto spine0, which drops them as "route down"; after,
/// no more. The traffic completes (retransmissions) and frames are conserved.
TEST_F(FaultHelperTest, RoutesChangeOnlyAfterTheConvergenceDelay)
{
    auto t = SmallClos();
    Ptr<Node> leaf0 = t->GetLeaf(0);
    Ptr<Node> leaf1 = t->GetLeaf(1);
    Ptr<Node> spine0 = t->GetSpine(0);
    const Ipv4Address gpu0 = t->GetAddress(0, 0);
    auto f = CreateObject<FaultHelper>();
    f->SetAttribute("ConvergenceDelay", TimeValue(MicroSeconds(200)));
    f->Add("link-down:leaf0-spine0@10us");
    f->Install(t);
    const std::vector<uint32_t> both = Route(leaf1, gpu0);
    ASSERT_EQ(both.size(), 2u);
    uint64_t routeDownAtConvergence = 0;
    Simulator::Schedule(MicroSeconds(10) + NanoSeconds(1), [&]() {
        EXPECT_FALSE(t->GetLinkChannel(t->FindLinks(leaf0, spine0)[0])->IsLinkUp());
        EXPECT_FALSE(Switch(leaf0)->IsPortUp(PortsTo(leaf0, spine0)[0])); // local repair
        EXPECT_EQ(Route(leaf1, gpu0), both);                              // not converged
    });
    Simulator::Schedule(MicroSeconds(210) - NanoSeconds(1),
                        [&]() { EXPECT_EQ(Route(leaf1, gpu0), both); });
    Simulator::Schedule(MicroSeconds(210) + NanoSeconds(1), [&]() {
        EXPECT_EQ(Route(leaf1, gpu0), PortsTo(leaf1, t->GetSpine(1)));
        routeDownAtConvergence =
            Switch(spine0)->GetCounters().drops[size_t(SwitchDropReason::ROUTE_DOWN)];
    });
    StartTraffic(t, 256 * 1024);
    Simulator::Run();
    ExpectAllCompleted();
    EXPECT_GT(routeDownAtConvergence, 0u) << "nothing was sent into the failure";
    EXPECT_EQ(Switch(spine0)->GetCounters().drops[size_t(SwitchDropReason::ROUTE_DOWN)],
              routeDownAtConvergence)
        << "route-down drops after convergence";
    ExpectConserved(*t);
    const auto& ev = f->GetEvents();
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev[0].kind, "link-down");
    EXPECT_EQ(ev[0].time, MicroSeconds(10));
    EXPECT_EQ(ev[1].kind, "routes");
    EXPECT_EQ(ev[1].time, MicroSeconds(210));
    EXPECT_NE(ev[1].detail.find("recomputed after link-down at 10 us"), std::string::npos)
        << ev[1].detail;
}

/// Without local repair the switches at the cable's ends keep the port in their sets until
/// convergence too: their frames are lost on the cable ("link down").
TEST_F(FaultHelperTest, WithoutLocalRepairTheEndsForwardIntoTheCutUntilConvergence)
{
    auto t = SmallClos();
    Ptr<Node> leaf0 = t->GetLeaf(0);
    Ptr<Node> spine0 = t->GetSpine(0);
    auto f = CreateObject<FaultHelper>();
    f->SetAttribute("ConvergenceDelay", TimeValue(MicroSeconds(100)));
    f->SetAttribute("LocalRepair", BooleanValue(false));
    f->Add("link-down:leaf0-spine0@10us");
    f->Install(t);
    const uint32_t port = PortsTo(leaf0, spine0)[0];
    Simulator::Schedule(MicroSeconds(10) + NanoSeconds(1),
                        [&]() { EXPECT_TRUE(Switch(leaf0)->IsPortUp(port)); });
    Simulator::Schedule(MicroSeconds(110) + NanoSeconds(1),
                        [&]() { EXPECT_FALSE(Switch(leaf0)->IsPortUp(port)); });
    StartTraffic(t, 256 * 1024);
    Simulator::Run();
    ExpectAllCompleted();
    EXPECT_GT(Switch(leaf0)->GetPort(port)->GetCounters().drops[size_t(PfcDropReason::LINK_DOWN)],
              0u);
    ExpectConserved(*t);
}

// ---- flap, reboot, degrade ------------------------------------------------------------------

TEST_F(FaultHelperTest, AFlapGivesTwiceCountChangesAtTheRightTimes)
{
    auto t = SmallClos();
    auto f = CreateObject<FaultHelper>();
    f->Add("link-flap:leaf1-spine1@10us,period=40us,count=3");
    f->Install(t);
    std::vector<std::pair<Time, std::string>> traced;
    f->TraceConnectWithoutContext("FaultApplied",
                                  MakeCallback(+[](std::vector<std::pair<Time, std::string>>* v,
                                                   Time at,
                                                   const std::string& kind,
                                                   const std::string&,
                                                   const std::string&) {
                                      v->emplace_back(at, kind);
                                  }).Bind(&traced));
    Ptr<PfcChannel> ch = t->GetLinkChannel(t->FindLinks(t->GetLeaf(1), t->GetSpine(1))[0]);
    for (uint32_t c = 0; c < 3; ++c)
    {
        Simulator::Schedule(MicroSeconds(10 + 40 * c + 1),
                            [ch]() { EXPECT_FALSE(ch->IsLinkUp()); });
        Simulator::Schedule(MicroSeconds(30 + 40 * c + 1), [ch]() { EXPECT_TRUE(ch->IsLinkUp()); });
    }
    StartTraffic(t, 256 * 1024);
    Simulator::Run();
    ExpectAllCompleted();
    ExpectConserved(*t);
    std::vector<FaultEvent> changes;
    for (const FaultEvent& e : f->GetEvents())
    {
        if (e.kind != "routes")
        {
            changes.push_back(e);
        }
    }
    ASSERT_EQ(changes.size(), 6u);
    for (uint32_t i = 0; i < 6; ++i)
    {
        EXPECT_EQ(changes[i].kind, i % 2 ? "link-up" : "link-down");
        EXPECT_EQ(changes[i].time, MicroSeconds(10 + 20 * i));
        EXPECT_EQ(changes[i].detail.rfind("flap " + std::to_string(i / 2 + 1) + "/3; 1 cable", 0),
                  0u)
            << changes[i].detail;
    }
    EXPECT_EQ(f->GetEvents().size(), 12u); // each change recomputes the routes
    ASSERT_EQ(traced.size(), f->GetEvents().size());
    EXPECT_EQ(traced[0], std::make_pair(MicroSeconds(10), std::string("link-down")));
    EXPECT_TRUE(ch->IsLinkUp());
    EXPECT_EQ(Route(t->GetLeaf(1), t->GetAddress(0, 0)).size(), 2u);
}

/// A reboot takes every port of the switch down, and its neighbours' ports to it, then brings
/// them back; a cable that a link-down holds stays down until its link-up.
TEST_F(FaultHelperTest, ASwitchRebootTakesAllItsPortsDownAndUp)
{
    auto t = SmallClos();
    Ptr<Node> spine0 = t->GetSpine(0);
    Ptr<FabricSwitch> sw = Switch(spine0);
    const uint32_t held = t->FindLinks(t->GetLeaf(0), spine0).at(0);
    const uint32_t other = t->FindLinks(t->GetLeaf(1), spine0).at(0);
    auto f = CreateObject<FaultHelper>();
    f->Add("link-down:leaf0-spine0@5us;switch-reboot:spine0@10us,down=50us;"
           "link-up:leaf0-spine0@100us");
    f->Install(t);
    Simulator::Schedule(MicroSeconds(10) + NanoSeconds(1), [&]() {
        EXPECT_EQ(sw->GetNPortsDown(), sw->GetNPorts());
        EXPECT_EQ(Switch(t->GetLeaf(0))->GetNPortsDown(), 1u);
        EXPECT_EQ(Switch(t->GetLeaf(1))->GetNPortsDown(), 1u);
        EXPECT_FALSE(t->GetLinkChannel(other)->IsLinkUp());
        EXPECT_TRUE(Route(t->GetLeaf(1), t->GetAddress(0, 0)) ==
                    PortsTo(t->GetLeaf(1), t->GetSpine(1)));
    });
    Simulator::Schedule(MicroSeconds(60) + NanoSeconds(1), [&]() {
        EXPECT_EQ(sw->GetNPortsDown(), 1u); // leaf0-spine0 is still held by its link-down
        EXPECT_FALSE(t->GetLinkChannel(held)->IsLinkUp());
        EXPECT_TRUE(t->GetLinkChannel(other)->IsLinkUp());
    });
    StartTraffic(t, 256 * 1024);
    Simulator::Run();
    ExpectAllCompleted();
    ExpectConserved(*t);
    EXPECT_EQ(sw->GetNPortsDown(), 0u);
    EXPECT_TRUE(t->GetLinkChannel(held)->IsLinkUp());
    EXPECT_EQ(Route(t->GetLeaf(0), t->GetAddress(2, 0)).size(), 2u);
    std::vector<std::string> kinds;
    for (const FaultEvent& e : f->GetEvents())
    {
        kinds.push_back(e.kind + "@" + std::to_string(e.time.GetMicroSeconds()));
    }
    EXPECT_EQ(kinds,
              (std::vector<std::string>{"link-down@5",
                                        "routes@5",
                                        "switch-down@10",
                                        "routes@10",
                                        "switch-up@60",
                                        "routes@60",
                                        "link-up@100",
                                        "routes@100"}));
    EXPECT_EQ(f->GetEvents()[2].detail,
              "reboot; 1 cable down (link " + std::to_string(other) + ")");
    EXPECT_EQ(f->GetEvents()[4].detail,
              "reboot; 1 cable up (link " + std::to_string(other) +
                  "); 1 held down by another fault");
}

TEST_F(FaultHelperTest, DegradeAndRestoreSetTheRateOfBothEnds)
{
    auto t = SmallClos();
    const uint32_t link = t->FindLinks(t->GetLeaf(1), t->GetSpine(0)).at(0);
    Ptr<PfcChannel> ch = t->GetLinkChannel(link);
    const DataRate planned = ch->GetPfcDevice(0)->GetDataRate();
    auto f = CreateObject<FaultHelper>();
    f->Add("link-degrade:leaf1-spine0@10us,rate=100Gbps;link-restore:leaf1-spine0@30us");
    f->Install(t);
    Simulator::Schedule(MicroSeconds(20), [&]() {
        EXPECT_EQ(ch->GetPfcDevice(0)->GetDataRate(), DataRate("100Gbps"));
        EXPECT_EQ(ch->GetPfcDevice(1)->GetDataRate(), DataRate("100Gbps"));
        EXPECT_EQ(Route(t->GetLeaf(1), t->GetAddress(0, 0)).size(), 2u); // routes unchanged
    });
    StartTraffic(t, 256 * 1024);
    Simulator::Run();
    ExpectAllCompleted();
    ExpectConserved(*t);
    EXPECT_EQ(ch->GetPfcDevice(0)->GetDataRate(), planned);
    EXPECT_EQ(ch->GetPfcDevice(1)->GetDataRate(), planned);
    ASSERT_EQ(f->GetEvents().size(), 2u);
    EXPECT_EQ(f->GetEvents()[0].detail,
              "rate 100 Gb/s (was 400 Gb/s at install) on link " + std::to_string(link));
    EXPECT_EQ(f->GetEvents()[1].kind, "link-restore");
    EXPECT_EQ(f->GetEvents()[1].detail, "rate back to 400 Gb/s on link " + std::to_string(link));
}

// ---- outputs --------------------------------------------------------------------------------

TEST_F(FaultHelperTest, PrintAndCsvGiveOneLinePerFaultAndOneRowPerEvent)
{
    auto t = SmallClos();
    auto f = CreateObject<FaultHelper>();
    f->Add("link-down:leaf0-spine1@2us,link-up:leaf0-spine1@4500ns");
    std::ostringstream header;
    f->Print(header);
    EXPECT_EQ(header.str(),
              "fault: link-down leaf0-spine1 @ 2 us\nfault: link-up leaf0-spine1 @ 4.5 us\n");
    f->SetAttribute("ConvergenceDelay", TimeValue(MilliSeconds(50)));
    header.str("");
    f->Print(header);
    EXPECT_NE(header.str().find("fault: routes converge 50 ms after each change (local repair "
                                "on)\n"),
              std::string::npos);
    f->Install(t);
    Simulator::Run();
    const std::string path = "fault-helper-test-log.csv";
    f->WriteCsv(path);
    const auto rows = test::ReadCsv(path);
    std::remove(path.c_str());
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0].at("time_ns"), "2000");
    EXPECT_EQ(rows[0].at("kind"), "link-down");
    EXPECT_EQ(rows[0].at("target"), "leaf0-spine1");
    EXPECT_EQ(rows[1].at("time_ns"), "4500");
    EXPECT_EQ(rows[1].at("kind"), "link-up");
    EXPECT_EQ(rows[2].at("time_ns"), "50002000");
    EXPECT_EQ(rows[2].at("kind"), "routes");
    EXPECT_EQ(rows[3].at("time_ns"), "50004500");
    std::ostringstream csv;
    f->WriteCsv(csv);
    std::istringstream lines(csv.str());
    std::string line;
    while (std::getline(lines, line))
    {
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), 3) << line;
    }
}

TEST_F(FaultHelperTest, CommandLineTakesRepeatedFaultsAndRefusesBadOnesWithStatus2)
{
    auto parse = [](std::vector<std::string> args) {
        std::vector<char*> argv;
        std::string program = "fault-helper-test";
        argv.push_back(program.data());
        for (std::string& a : args)
        {
            argv.push_back(a.data());
        }
        FabricCommandLine cmd("fault-helper-test.cc");
        std::vector<std::string> specs;
        FaultHelper::AddCommandLine(cmd, specs);
        cmd.Parse(int(argv.size()), argv.data());
        auto f = CreateObject<FaultHelper>();
        for (const std::string& s : specs)
        {
            f->Add(s);
        }
        TimeValue delay;
        f->GetAttribute("ConvergenceDelay", delay);
        std::cerr << "faults=" << f->GetFaults().size()
                  << " delay=" << delay.Get().GetMicroSeconds() << "us\n";
        std::exit(0);
    };
    EXPECT_EXIT(parse({"--fault=link-down:leaf0-spine0@1ms",
                       "--fault=link-flap:leaf1-spine1@2ms,period=1ms,count=2;"
                       "switch-reboot:spine0@3ms,down=1ms",
                       "--convergence-delay=200us"}),
                ::testing::ExitedWithCode(0),
                "faults=3 delay=200us");
    EXPECT_EXIT(parse({"--fault=link-down:leaf0-spine0@1ms", "--fault=link-dwn:a-b@1ms"}),
                ::testing::ExitedWithCode(2),
                "fault-helper-test: error: --fault=link-dwn:a-b@1ms: unknown fault kind "
                "'link-dwn'");
}

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
}

} // namespace
