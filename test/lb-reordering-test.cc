/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Load balancing on a real fabric: per-packet choices reorder RoCE flows, which go-back-N pays
 * for in retransmissions and out-of-order placement (RoceNic OutOfOrderWindow) does not;
 * flowlets whose gap exceeds the paths' delay difference move flows without reordering.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <vector>

using namespace ns3;

namespace
{

/// What one run measured.
struct Outcome
{
    uint32_t completions{0};      //!< successful WRITE completions
    Time last;                    //!< time of the last completion
    RoceQpCounters senders;       //!< ranks 0-3, summed
    RoceQpCounters receivers;     //!< ranks 4-7, summed
    FlowletCounters leafFlowlets; //!< leaf 0's flowlet balancer (if it has one)
};

class LbReorderingTest : public test::SimTest
{
  protected:
    /// Two ToRs of 4 hosts, 4 spines, 400 Gb/s; rank i sends to rank 4 + i over the spines.
    Ptr<ClosTopologyHelper> Fabric(const std::string& lb, uint32_t oooWindow)
    {
        auto t = CreateObject<ClosTopologyHelper>();
        t->SetAttribute("Servers", UintegerValue(8));
        t->SetAttribute("GpusPerServer", UintegerValue(1));
        t->SetAttribute("ServersPerRack", UintegerValue(4));
        t->SetAttribute("NvLink", BooleanValue(false));
        t->SetAttribute("Spines", UintegerValue(4));
        t->GetSwitchHelper().SetLoadBalancerByName(lb, "lb");
        t->GetNicHelper().SetNicAttribute("OutOfOrderWindow", UintegerValue(oooWindow));
        return t;
    }

    /// Post \p messages WRITEs of \p bytes from rank i to rank 4 + i, one every \p every.
    Outcome Run(Ptr<ClosTopologyHelper> t, uint32_t messages, uint64_t bytes, Time every)
    {
        t->Install();
        Outcome o;
        for (uint32_t i = 0; i < 4; ++i)
        {
            Ptr<RoceQueuePair> qp = t->Connect(i, 4 + i)[0].first;
            for (uint32_t m = 0; m < messages; ++m)
            {
                Simulator::Schedule(every * m, [qp, bytes, &o]() {
                    qp->PostWrite(bytes,
                                  0x1000,
                                  1,
                                  MakeCallback(+[](Outcome* out, const RoceWorkCompletion& wc) {
                                      out->completions += wc.status == RoceWcStatus::SUCCESS;
                                      out->last = Simulator::Now();
                                  }).Bind(&o));
                });
            }
        }
        Simulator::Run();
        for (uint32_t i = 0; i < 4; ++i)
        {
            RoceQpCounters s = t->GetNic(i)->GetTotalQpCounters();
            RoceQpCounters r = t->GetNic(4 + i)->GetTotalQpCounters();
            o.senders.retransmittedPackets += s.retransmittedPackets;
            o.senders.naksRx += s.naksRx;
            o.senders.txDataBytes += s.txDataBytes;
            o.receivers.outOfOrderRx += r.outOfOrderRx;
            o.receivers.rxDataBytes += r.rxDataBytes;
            o.receivers.naksTx += r.naksTx;
        }
        auto flowlet = DynamicCast<FlowletLoadBalancer>(
            t->GetLeaf(0)->GetObject<FabricSwitch>()->GetLoadBalancer());
        if (flowlet)
        {
            o.leafFlowlets = flowlet->GetCounters();
        }
        return o;
    }
};

} // namespace

TEST_F(LbReorderingTest, PerPacketSprayingReordersAndPlacementAvoidsGoBackN)
{
    const uint64_t bytes = 4 << 20;
    const Outcome gbn = Run(Fabric("spray", 0), 1, bytes, Seconds(0));
    Simulator::Destroy();
    const Outcome ooo = Run(Fabric("spray", 256), 1, bytes, Seconds(0));
    ASSERT_EQ(gbn.completions, 4u);
    ASSERT_EQ(ooo.completions, 4u);
    // Four line-rate flows sprayed over four spines meet unequal queues: packets overtake.
    EXPECT_GT(gbn.receivers.outOfOrderRx, 100u);
    EXPECT_GT(ooo.receivers.outOfOrderRx, 100u);
    // Go-back-N drops what overtook, NAKs and sends it again.
    EXPECT_GT(gbn.receivers.naksTx, 0u);
    EXPECT_GT(gbn.senders.retransmittedPackets, 0u);
    // Placement keeps it: no NAK, no retransmission, every byte delivered once, and sooner.
    EXPECT_EQ(ooo.receivers.naksTx, 0u);
    EXPECT_EQ(ooo.senders.retransmittedPackets, 0u);
    EXPECT_EQ(ooo.receivers.rxDataBytes, 4 * bytes);
    EXPECT_EQ(ooo.senders.txDataBytes, 4 * bytes);
    EXPECT_LT(ooo.last, gbn.last);
}

TEST_F(LbReorderingTest, FlowletsAboveThePathDelayDifferenceMoveFlowsWithoutReordering)
{
    // 16 messages of 256 KiB per flow, one every 100 us (5.2 us of data, then silence):
    // with FlowletGap 50 us every message is a new flowlet on a random spine, and the
    // previous one has left the fabric before it starts.
    auto t = Fabric("flowlet", 0);
    t->GetSwitchHelper().SetLoadBalancer("ns3::FlowletLoadBalancer",
                                         "FlowletGap",
                                         TimeValue(MicroSeconds(50)));
    const Outcome o = Run(t, 16, 256 << 10, MicroSeconds(100));
    ASSERT_EQ(o.completions, 64u);
    EXPECT_EQ(o.leafFlowlets.flowlets, 64u);
    EXPECT_GT(o.leafFlowlets.pathChanges, 24u); // about 3 in 4 of the 60 later flowlets
    EXPECT_EQ(o.receivers.outOfOrderRx, 0u);
    EXPECT_EQ(o.senders.retransmittedPackets, 0u);
    Simulator::Destroy();
    // A gap far below the delay differences (1 ns: every packet a new flowlet) is spraying.
    auto tiny = Fabric("flowlet", 0);
    tiny->GetSwitchHelper().SetLoadBalancer("ns3::FlowletLoadBalancer",
                                            "FlowletGap",
                                            TimeValue(NanoSeconds(1)));
    const Outcome sprayed = Run(tiny, 1, 4 << 20, Seconds(0));
    EXPECT_GT(sprayed.receivers.outOfOrderRx, 100u);
}

TEST_F(LbReorderingTest, BadWindowIsNamed)
{
    auto t = CreateObject<ClosTopologyHelper>();
    EXPECT_DEATH(t->GetNicHelper().SetNicAttribute("OutOfOrderWindow", UintegerValue(100)),
                 "OutOfOrderWindow=100 is out of range: valid range 0 \\(off\\) or a power of two "
                 "2..4096");
}

TEST(FabricRunCountersTest, SinceSubtractsEveryTransportCounter)
{
    // Every field of FabricTransportCounters, set to distinct values: the difference of two
    // snapshots keeps each one (the out-of-sequence count included).
    FabricRunCounters a;
    FabricRunCounters b;
    uint64_t* fields[] = {&a.transports.retransmissions,
                          &a.transports.timeouts,
                          &a.transports.nacks,
                          &a.transports.outOfOrder,
                          &a.transports.trimNacks,
                          &a.transports.cnpsTx,
                          &a.transports.cnpsRx,
                          &a.transports.ceRx,
                          &a.transports.bytesPosted,
                          &a.transports.bytesCompleted,
                          &a.transports.bytesDelivered,
                          &a.transports.opsFailed};
    uint64_t v = 100;
    for (uint64_t* f : fields)
    {
        *f = v;
        v += 10;
    }
    b.transports.outOfOrder = 7;
    b.transports.retransmissions = 3;
    const FabricTransportCounters d = a.Since(b).transports;
    EXPECT_EQ(d.retransmissions, 97u);
    EXPECT_EQ(d.timeouts, 110u);
    EXPECT_EQ(d.nacks, 120u);
    EXPECT_EQ(d.outOfOrder, 123u);
    EXPECT_EQ(d.trimNacks, 140u);
    EXPECT_EQ(d.cnpsTx, 150u);
    EXPECT_EQ(d.cnpsRx, 160u);
    EXPECT_EQ(d.ceRx, 170u);
    EXPECT_EQ(d.bytesPosted, 180u);
    EXPECT_EQ(d.bytesCompleted, 190u);
    EXPECT_EQ(d.bytesDelivered, 200u);
    EXPECT_EQ(d.opsFailed, 210u);
}
