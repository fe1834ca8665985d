/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The failure labs ecn-misprofile and link-flap (issue 37), on the labs' own fabric and job
 * (examples/failure-lab.h). ECN misprofile: the misprofiled leaf marks where no other switch
 * does, the CNPs go to the GPUs whose QPs cross it, and the job's busbw drops by the amount
 * the user guide states (38.9 %, within 30-48 %); the fixed fabric marks nothing. Link flap:
 * each down removes exactly the cable's port from the equal-cost sets of its leaf at once and
 * from the other leaves' sets only at convergence, each up puts them back; the spine that
 * lost the path drops as "route down" until then; the job completes every iteration. Frames
 * are conserved after every fault (sent = received + dropped by reason).
 */
#include "../examples/failure-lab.h"
#include "test-util.h"

#include <algorithm>

using namespace ns3;

namespace
{

/// Data frames sent and received by the NICs, and frames dropped anywhere, by reason.
struct Book
{
    uint64_t nicTx{0};    //!< data frames the NICs transmitted
    uint64_t nicRx{0};    //!< data frames the NICs received
    uint64_t switches{0}; //!< dropped by the scale-out switches (every reason)
    uint64_t ports{0};    //!< dropped by ports: link down, rx error and other receive drops
};

/// \return the frames of every priority a port sent (\p tx) or received
uint64_t
Frames(Ptr<PfcNetDevice> dev, bool tx)
{
    uint64_t n = 0;
    for (uint32_t p = 0; p < 8; ++p)
    {
        n += tx ? dev->GetCounters().txFrames[p] : dev->GetCounters().rxFrames[p];
    }
    return n;
}

/// Add a port's drops (everything but the transmit refusals, which must be none).
void
AddDrops(Book& b, Ptr<PfcNetDevice> dev)
{
    const PfcPortCounters& c = dev->GetCounters();
    EXPECT_EQ(c.drops[size_t(PfcDropReason::QUEUE_FULL)], 0u);
    EXPECT_EQ(c.drops[size_t(PfcDropReason::OVERSIZE)], 0u);
    for (PfcDropReason r : {PfcDropReason::LINK_DOWN,
                            PfcDropReason::RX_ERROR,
                            PfcDropReason::WRONG_DESTINATION,
                            PfcDropReason::UNKNOWN_MAC_CONTROL,
                            PfcDropReason::MALFORMED,
                            PfcDropReason::NO_RECEIVER})
    {
        b.ports += c.drops[size_t(r)];
    }
}

/// Sent = received + dropped, over the NICs' scale-out ports and the scale-out switches.
void
ExpectConserved(Ptr<FabricTopologyHelper> t)
{
    Book b;
    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        Ptr<FabricNic> nic = t->GetNicCore(r);
        for (uint32_t p = 0; p < nic->GetNPorts(); ++p)
        {
            b.nicTx += Frames(nic->GetPort(p), true);
            b.nicRx += Frames(nic->GetPort(p), false);
            AddDrops(b, nic->GetPort(p));
        }
    }
    for (Ptr<FabricSwitch> sw : t->GetScaleOutSwitches())
    {
        b.switches += sw->GetCounters().drops.GetTotal();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            AddDrops(b, sw->GetPort(p));
        }
    }
    EXPECT_GT(b.nicTx, 0u);
    EXPECT_EQ(b.nicTx, b.nicRx + b.switches + b.ports)
        << "tx " << b.nicTx << " rx " << b.nicRx << " switch drops " << b.switches << " port drops "
        << b.ports;
}

/// \return the ports of \p sw cabled to \p peer
std::vector<uint32_t>
PortsTo(Ptr<Node> sw, Ptr<Node> peer)
{
    std::vector<uint32_t> ports;
    Ptr<FabricSwitch> s = sw->GetObject<FabricSwitch>();
    for (uint32_t p = 0; p < s->GetNPorts(); ++p)
    {
        Ptr<PfcChannel> ch = s->GetPort(p)->GetPfcChannel();
        Ptr<PfcNetDevice> other =
            ch->GetPfcDevice(0) == s->GetPort(p) ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
        if (other->GetNode() == peer)
        {
            ports.push_back(p);
        }
    }
    return ports;
}

/// \return the equal-cost set of \p sw toward \p dst, sorted
std::vector<uint32_t>
Route(Ptr<Node> sw, Ipv4Address dst)
{
    std::vector<uint32_t> r = sw->GetObject<FabricSwitch>()->GetForwardingTable()->GetRoute(dst);
    std::sort(r.begin(), r.end());
    return r;
}

/// \return the members of \p sw's equal-cost set toward \p dst whose port is up (what it uses)
std::vector<uint32_t>
Live(Ptr<Node> sw, Ipv4Address dst)
{
    std::vector<uint32_t> live;
    for (uint32_t p : Route(sw, dst))
    {
        if (sw->GetObject<FabricSwitch>()->IsPortUp(p))
        {
            live.push_back(p);
        }
    }
    return live;
}

/// \return the set \p set without \p port
std::vector<uint32_t>
Without(std::vector<uint32_t> set, uint32_t port)
{
    set.erase(std::remove(set.begin(), set.end(), port), set.end());
    return set;
}

class FailureLabsTest : public test::SimTest
{
};

// The misprofiled leaf (Kmin 4 KB, Kmax 16 KB, Pmax 0.5, the lab's default) marks and no other
// switch does; CNPs reach exactly the GPUs whose QPs cross it (gpu0-1 send down into it,
// gpu2-3 up out of it); busbw drops by 38.9 % (the user guide's number). The band 30-48 %: the
// simulation is deterministic, so the band only absorbs model changes that keep the
// mechanism, and stays clear of the neighbouring profiles (Pmax 0.2 gives a 16 % drop,
// Pmax 1 a 67 % one).
TEST_F(FailureLabsTest, EcnMisprofileMarksOnlyAtTheLeafAndCostsTheStatedBusbw)
{
    double bad = 0;
    double good = 0;
    {
        FailureLab lab(1, "800Gbps", 14);
        Ptr<FaultHelper> f = CreateObject<FaultHelper>();
        f->Add("ecn-profile:leaf1@0s,kmin=4KB,kmax=16KB,pmax=0.5");
        f->Install(lab.GetTopology());
        lab.RunJob(16 << 20, 6, 2);
        ASSERT_TRUE(lab.Completed(6));
        Ptr<ClosTopologyHelper> t = lab.GetTopology();
        for (Ptr<FabricSwitch> sw : t->GetScaleOutSwitches())
        {
            if (sw->GetObject<Node>() == t->GetLeaf(1))
            {
                EXPECT_GT(FailureLab::GetEcnMarks(sw), 100u);
            }
            else
            {
                EXPECT_EQ(FailureLab::GetEcnMarks(sw), 0u)
                    << t->GetNodeName(sw->GetObject<Node>()->GetId());
            }
        }
        for (uint32_t r = 0; r < t->GetNRanks(); ++r)
        {
            const bool crosses = r <= 3; // gpu0-1 into leaf1's GPUs, gpu2-3 out of leaf1
            EXPECT_EQ(lab.GetRankCounters(r).cnpsRx > 0, crosses) << "gpu" << r;
        }
        ExpectConserved(t);
        bad = lab.GetMeanBusBw();
    }
    {
        FailureLab lab(1, "800Gbps", 14);
        lab.RunJob(16 << 20, 6, 2);
        ASSERT_TRUE(lab.Completed(6));
        for (Ptr<FabricSwitch> sw : lab.GetTopology()->GetScaleOutSwitches())
        {
            EXPECT_EQ(FailureLab::GetEcnMarks(sw), 0u);
        }
        ExpectConserved(lab.GetTopology());
        good = lab.GetMeanBusBw();
    }
    const double drop = 100 * (good - bad) / good;
    EXPECT_GT(drop, 30) << "busbw " << bad << " vs " << good;
    EXPECT_LT(drop, 48) << "busbw " << bad << " vs " << good;
}

// Each down of the flapping cable leaf1-spine0 takes exactly its port out of leaf1's sets at
// once (local repair: the port is down, the table follows at convergence) and out of leaf0's
// sets toward leaf1's GPUs only at convergence (100 us later); each up puts both back at its
// convergence. Spine0 drops as "route down" in between,
// the job completes every iteration, and frames are conserved.
TEST_F(FailureLabsTest, LinkFlapRemovesExactlyItsMembersAndTheJobCompletes)
{
    FailureLab lab(2, "400Gbps", 8);
    Ptr<ClosTopologyHelper> t = lab.GetTopology();
    Ptr<Node> leaf0 = t->GetLeaf(0);
    Ptr<Node> leaf1 = t->GetLeaf(1);
    Ptr<Node> spine0 = t->GetSpine(0);
    const Ipv4Address gpu0 = t->GetAddress(0, 0); // on leaf0
    const Ipv4Address gpu2 = t->GetAddress(2, 0); // on leaf1
    const std::vector<uint32_t> leaf1Up = Route(leaf1, gpu0);
    const std::vector<uint32_t> leaf0Up = Route(leaf0, gpu2);
    ASSERT_EQ(leaf1Up.size(), 2u);
    ASSERT_EQ(leaf0Up.size(), 2u);
    const std::vector<uint32_t> cut = PortsTo(leaf1, spine0);
    const std::vector<uint32_t> toSpine0 = PortsTo(leaf0, spine0);
    ASSERT_EQ(cut.size(), 1u);
    ASSERT_EQ(toSpine0.size(), 1u);

    Ptr<FaultHelper> f = CreateObject<FaultHelper>();
    f->SetConvergenceDelay(MicroSeconds(100));
    f->Add("link-flap:leaf1-spine0@200us,period=400us,count=4");
    f->Install(t);
    uint32_t checks = 0;
    for (uint32_t i = 0; i < 4; ++i)
    {
        const Time down = MicroSeconds(200 + 400 * i);
        // Just after the cut: leaf1 lost exactly the cable's port; leaf0 still hashes onto
        // spine0 (not converged).
        Simulator::Schedule(down + NanoSeconds(1), [&, i]() {
            EXPECT_EQ(Live(leaf1, gpu0), Without(leaf1Up, cut[0])) << "down " << i;
            EXPECT_EQ(Live(leaf0, gpu2), leaf0Up) << "down " << i;
            ++checks;
        });
        // After convergence: leaf0 no longer sends leaf1's traffic to spine0.
        Simulator::Schedule(down + MicroSeconds(100) + NanoSeconds(1), [&, i]() {
            EXPECT_EQ(Live(leaf0, gpu2), Without(leaf0Up, toSpine0[0])) << "down " << i;
            EXPECT_EQ(Route(leaf1, gpu0), Without(leaf1Up, cut[0])) << "down " << i;
            ++checks;
        });
        // After the up's convergence: both sets whole again.
        Simulator::Schedule(down + MicroSeconds(300) + NanoSeconds(1), [&, i]() {
            EXPECT_EQ(Live(leaf0, gpu2), leaf0Up) << "up " << i;
            EXPECT_EQ(Live(leaf1, gpu0), leaf1Up) << "up " << i;
            ++checks;
        });
    }
    lab.RunJob(16 << 20, 8, 1);
    EXPECT_EQ(checks, 12u);
    EXPECT_TRUE(lab.Completed(8));
    EXPECT_EQ(f->GetEvents().size(), 16u); // 4 x (down, routes, up, routes)
    uint64_t routeDown = 0;
    uint64_t retx = 0;
    for (Ptr<FabricSwitch> sw : t->GetScaleOutSwitches())
    {
        const uint64_t n = sw->GetCounters().drops[size_t(SwitchDropReason::ROUTE_DOWN)];
        EXPECT_TRUE(n == 0 || sw->GetObject<Node>() == spine0) << "route down elsewhere";
        routeDown += n;
    }
    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        retx += lab.GetRankCounters(r).retransmissions;
    }
    EXPECT_GT(routeDown, 0u);
    EXPECT_GT(retx, 0u);
    ExpectConserved(t);
}

// The fix: the cable out of service before the job. No drop, no retransmission, every
// iteration completes, frames conserved.
TEST_F(FailureLabsTest, LinkOutOfServiceRoutesAround)
{
    FailureLab lab(2, "400Gbps", 8);
    Ptr<FaultHelper> f = CreateObject<FaultHelper>();
    f->Add("link-down:leaf1-spine0@0s");
    f->Install(lab.GetTopology());
    lab.RunJob(16 << 20, 4, 1);
    EXPECT_TRUE(lab.Completed(4));
    for (uint32_t r = 0; r < lab.GetTopology()->GetNRanks(); ++r)
    {
        EXPECT_EQ(lab.GetRankCounters(r).retransmissions, 0u);
    }
    for (Ptr<FabricSwitch> sw : lab.GetTopology()->GetScaleOutSwitches())
    {
        EXPECT_EQ(sw->GetCounters().drops.GetTotal(), 0u);
    }
    ExpectConserved(lab.GetTopology());
}

} // namespace
