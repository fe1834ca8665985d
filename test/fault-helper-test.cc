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
 * --fault command-line flag. The lab kinds (nic-stall, ecn-profile, drop-class) are tested in
 * fault-lab-kinds-test.cc.
 */
#include "fault-helper-fixture.h"

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace ns3;

namespace
{

using test::FaultHelperTest;
using test::Frames;
using test::PortsTo;
using test::Route;
using test::Switch;

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

} // namespace
