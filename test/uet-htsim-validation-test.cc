/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Validation against UEC htsim's published reference results (UET.md "htsim's reference
 * scenarios"): on the htsim-default fat tree (k = 4, 100 Gb/s, 1 us links, trimming, RED at
 * 0.2/0.8 BDP) with NSCC and REPS spraying over 128 EVs, the tail flow completion times of one
 * 2 MB flow, a 15->1 incast of 2 MB and a 16-node permutation of 2 MB are within 5 % of
 * htsim's (176.2, 2478.5 and 194.0 us), and with RCCC (receiver credit) within 5 % of htsim's
 * RCCC results (177.4, 2464.4 and 195.7 us). Our packets carry their real headers (122 wire bytes
 * per packet instead of htsim's 64), so a 2 MB flow takes 1.4 % longer to serialize.
 * And REPS routes around a core link that fails in the data plane (routing not yet
 * converged: packets on it vanish) while oblivious spraying keeps losing packets on it.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

using namespace ns3;

namespace
{

/// The result of one matrix run.
struct MatrixRun
{
    UetFctSummary fct; //!< FCT statistics
    FatTreeCounters c; //!< fabric counters
    bool all{false};   //!< every flow completed
};

class UetHtsimValidationTest : public test::SimTest
{
  protected:
    /**
     * Run \p matrix on a k = 4 htsim fat tree with \p cc (NSCC by default; its BaseRtt the
     * fabric's largest unloaded RTT) and \p selector over 128 EVs. If \p failLink, the
     * aggregation-core cable of pod 0's first aggregation switch to core 0 is cut in the data
     * plane before the traffic starts, without rerouting.
     */
    MatrixRun Run(const HtsimConnectionMatrix& matrix,
                  const std::string& selector,
                  bool failLink = false,
                  TypeId cc = NsccCongestionOps::GetTypeId(),
                  bool htsimHeaders = false)
    {
        if (htsimHeaders)
        {
            // htsim's header model: 4150-byte packets of 4086 payload bytes, 64-byte ACKs.
            Config::SetDefault("ns3::UetNic::Mtu", UintegerValue(4086));
            Config::SetDefault("ns3::NsccCongestionOps::Mtu", UintegerValue(4086));
            Config::SetDefault("ns3::RcccCongestionOps::Mtu", UintegerValue(4086));
        }
        auto t = CreateObject<FatTreeTopologyHelper>();
        t->SetAttribute("K", UintegerValue(4));
        t->SetAttribute("HeaderModelBytes", UintegerValue(htsimHeaders ? 64 : 0));
        if (htsimHeaders)
        {
            // htsim: 43 packets of 4150 B in 1 BDP (its queue is 178,450 B = 43 x 4150).
            EXPECT_EQ(t->GetDataPacketWireBytes(), 4150u);
            EXPECT_EQ(t->GetBdpPackets(), 43u);
            EXPECT_EQ(t->GetQueueBytes(), 43u * 4130u);
        }
        UetNicHelper& nh = t->GetUetNicHelper();
        nh.SetNicAttribute("CongestionControl", TypeIdValue(cc));
        nh.SetNicAttribute("EvSelector", TypeIdValue(TypeId::LookupByName(selector)));
        nh.SetNicAttribute("AckOnHole", BooleanValue(false));
        t->Install();
        t->AssignStreams(1);
        std::vector<Ptr<Node>> hosts;
        for (uint32_t h = 0; h < t->GetNHosts(); ++h)
        {
            Ptr<UetNic> nic = t->GetUetNic(h);
            nic->GetCongestionPrototype()->SetAttribute("BaseRtt",
                                                        TimeValue(t->GetMaxUnloadedRtt()));
            nic->GetEvSelectorPrototype()->SetAttribute("Evs", UintegerValue(128));
            hosts.push_back(t->GetHost(h));
        }
        if (failLink)
        {
            t->GetLinkChannel(t->GetAggCoreLink(0, 0))->SetLinkUp(false);
        }
        UetMatrixRunner run(matrix, t->GetUetNicHelper().CreateEndpoints(hosts, 1));
        run.Start();
        Simulator::Run();
        MatrixRun r;
        r.fct = run.GetSummary();
        r.c = t->GetCounters();
        r.all = run.AllCompleted();
        Simulator::Destroy();
        return r;
    }

    static HtsimConnectionMatrix Permutation(uint64_t bytes = 2000000)
    {
        auto rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(0);
        return HtsimConnectionMatrix::Permutation(16, bytes, rng);
    }
};

TEST_F(UetHtsimValidationTest, TailFctsWithinFivePercentOfHtsim)
{
    const std::string reps = "ns3::UetRepsEvSelector";
    // Measured: 178.5 us (+1.3 %), incast 2513.0 us (+1.4 %; first flow 1787.6 us against
    // htsim's 1273.6: our flows share the receiver more evenly), permutation 196.7 us (+1.4 %).
    MatrixRun single = Run(HtsimConnectionMatrix::Single(16, 2000000, 0, 15), reps);
    ASSERT_TRUE(single.all);
    EXPECT_NEAR(single.fct.max.GetNanoSeconds() / 1e3, 176.2, 0.05 * 176.2);
    MatrixRun incast = Run(HtsimConnectionMatrix::Incast(16, 15, 2000000, 15), reps);
    ASSERT_TRUE(incast.all);
    EXPECT_NEAR(incast.fct.max.GetNanoSeconds() / 1e3, 2478.5, 0.05 * 2478.5);
    EXPECT_EQ(incast.c.drops, 0u);
    MatrixRun perm = Run(Permutation(), reps);
    ASSERT_TRUE(perm.all);
    EXPECT_NEAR(perm.fct.max.GetNanoSeconds() / 1e3, 194.0, 0.05 * 194.0);
}

TEST_F(UetHtsimValidationTest, RcccTailFctsWithinFivePercentOfHtsim)
{
    // RCCC alone (receiver credit at 0.99 x 100 Gb/s, speculative credit = MaxWindow = 1.5 x
    // 100 Gb/s x the largest unloaded RTT): htsim's RCCC results are 177.4, 2464.4 and
    // 195.7 us. Measured (BaseRtt 14.056 us): 179.3 us (+1.1 %), incast 2506.3 us (+1.7 %),
    // permutation 197.9 us (+1.1 %); no drop, no RTO.
    const std::string reps = "ns3::UetRepsEvSelector";
    const TypeId rccc = RcccCongestionOps::GetTypeId();
    MatrixRun single = Run(HtsimConnectionMatrix::Single(16, 2000000, 0, 15), reps, false, rccc);
    ASSERT_TRUE(single.all);
    EXPECT_NEAR(single.fct.max.GetNanoSeconds() / 1e3, 177.4, 0.05 * 177.4);
    MatrixRun incast = Run(HtsimConnectionMatrix::Incast(16, 15, 2000000, 15), reps, false, rccc);
    ASSERT_TRUE(incast.all);
    EXPECT_NEAR(incast.fct.max.GetNanoSeconds() / 1e3, 2464.4, 0.05 * 2464.4);
    EXPECT_EQ(incast.c.drops, 0u);
    EXPECT_EQ(incast.c.rtos, 0u);
    MatrixRun perm = Run(Permutation(), reps, false, rccc);
    ASSERT_TRUE(perm.all);
    EXPECT_NEAR(perm.fct.max.GetNanoSeconds() / 1e3, 195.7, 0.05 * 195.7);
    EXPECT_EQ(perm.c.rtos, 0u);
}

TEST_F(UetHtsimValidationTest, HtsimHeaderModelClosesTheHeaderGap)
{
    // With htsim's header model (HeaderModelBytes 64, Mtu 4086) the links carry htsim's
    // packets: measured NSCC 176.188 us (htsim 176.2), incast 2459.1 (2478.5), permutation
    // 195.5 (194.0); RCCC 176.7 (177.4), 2464.5 (2464.4), 197.3 (195.7). The single flow,
    // the cheapest, is checked here within 0.5 % for both, and against real headers.
    const std::string reps = "ns3::UetRepsEvSelector";
    const TypeId nscc = NsccCongestionOps::GetTypeId();
    const TypeId rccc = RcccCongestionOps::GetTypeId();
    const auto single = HtsimConnectionMatrix::Single(16, 2000000, 0, 15);
    MatrixRun real = Run(single, reps);
    MatrixRun model = Run(single, reps, false, nscc, true);
    ASSERT_TRUE(real.all && model.all);
    EXPECT_NEAR(model.fct.max.GetNanoSeconds() / 1e3, 176.2, 0.005 * 176.2);
    // Real headers: 58 B more per packet (122 - 64) and 10 B less payload per packet.
    EXPECT_GT(real.fct.max.GetNanoSeconds() / 1e3, 1.01 * model.fct.max.GetNanoSeconds() / 1e3);
    MatrixRun credit = Run(single, reps, false, rccc, true);
    ASSERT_TRUE(credit.all);
    EXPECT_NEAR(credit.fct.max.GetNanoSeconds() / 1e3, 177.4, 0.005 * 177.4);
}

TEST_F(UetHtsimValidationTest, RepsRoutesAroundAFailedCoreLinkObliviousDoesNot)
{
    // Loss inference for failures: a packet is inferred lost once 16 later packets are SACKed
    // and it is 1.5 smoothed RTTs old (UetNic OooThreshold, InferLossAge; with trimming only a
    // vanished packet gets there), and the EV selector hears it as a timeout (REPS freezes on
    // its known-good EVs); a retransmission takes a known-good EV. Measured: REPS 196.7 -> 245.3 us
    // (x1.247, no RTO; before loss inference: x1.82 with 149 RTOs), oblivious 196.1 -> 11261 us
    // (x57: it keeps sending 1 in 4 of some flows' packets into the cut cable). The ratio is
    // sensitive to the permutation: the cut takes a quarter of pod 0's core capacity (other seeds:
    // x1.12..x1.49).
    Config::SetDefault("ns3::UetNic::OooThreshold", UintegerValue(16));
    Config::SetDefault("ns3::UetNic::InferLossAge", DoubleValue(1.5));
    double ratio[2] = {0, 0};
    int i = 0;
    for (std::string sel : {"ns3::UetRepsEvSelector", "ns3::UetObliviousEvSelector"})
    {
        MatrixRun healthy = Run(Permutation(), sel);
        MatrixRun failed = Run(Permutation(), sel, true);
        ASSERT_TRUE(healthy.all);
        ASSERT_TRUE(failed.all) << sel;
        EXPECT_EQ(healthy.c.rtos, 0u) << sel;
        ratio[i++] = double(failed.fct.max.GetPicoSeconds()) / healthy.fct.max.GetPicoSeconds();
    }
    EXPECT_LE(ratio[0], 1.25);
    EXPECT_GT(ratio[1], 10 * ratio[0]);
}

} // namespace
