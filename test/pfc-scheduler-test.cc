/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Transmit selection: strict priority order and DWRR shares with known weights.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <map>
#include <vector>

using namespace ns3;

namespace
{

/// Eight queues filled with frames of given sizes, drained through a scheduler.
class SchedulerTest : public test::SimTest
{
  protected:
    void SetUp() override
    {
        SimTest::SetUp();
        for (auto& q : queues)
        {
            q.SetMaxSize(QueueSize("100000p"));
        }
    }

    void Fill(uint8_t prio, uint32_t n, uint32_t bytes)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            ASSERT_TRUE(queues[prio].Fits(bytes));
            queues[prio].Push(Create<Packet>(bytes));
        }
    }

    uint8_t Mask(uint8_t paused = 0) const
    {
        uint8_t m = 0;
        for (int p = 0; p < 8; ++p)
        {
            if (!queues[p].IsEmpty())
            {
                m |= 1u << p;
            }
        }
        return m & ~paused;
    }

    /// Drain \p n frames; returns the priority sequence.
    std::vector<int> Drain(Ptr<PfcTxScheduler> s, uint32_t n, uint8_t paused = 0)
    {
        std::vector<int> order;
        for (uint32_t i = 0; i < n && Mask(paused); ++i)
        {
            int p = s->Select(Mask(paused), queues);
            EXPECT_TRUE((Mask(paused) >> p) & 1) << "selected ineligible priority " << p;
            queues[p].Pop();
            order.push_back(p);
        }
        return order;
    }

    PfcTxQueues queues;
};

TEST_F(SchedulerTest, StrictPriorityServesHighestFirst)
{
    auto sp = CreateObject<PfcStrictPriorityScheduler>();
    Fill(0, 2, 1000);
    Fill(3, 2, 1000);
    Fill(7, 2, 1000);
    EXPECT_EQ(Drain(sp, 6), (std::vector<int>{7, 7, 3, 3, 0, 0}));
    Fill(0, 1, 1000);
    Fill(3, 1, 1000);
    EXPECT_EQ(Drain(sp, 2, /*paused=*/0x08), (std::vector<int>{0}));
}

TEST_F(SchedulerTest, DwrrFollowsWeightsExactly)
{
    auto dwrr = CreateObject<PfcDwrrScheduler>();
    dwrr->SetAttribute("Weights", StringValue("1,2,4,1,1,1,1,1"));
    dwrr->SetAttribute("QuantumBytes", UintegerValue(1000));
    Fill(0, 10, 1000);
    Fill(1, 10, 1000);
    Fill(2, 10, 1000);
    // Each round: priority 0 sends 1 frame, 1 sends 2, 2 sends 4.
    std::vector<int> round = {0, 1, 1, 2, 2, 2, 2};
    std::vector<int> expected;
    expected.insert(expected.end(), round.begin(), round.end());
    expected.insert(expected.end(), round.begin(), round.end());
    EXPECT_EQ(Drain(dwrr, 14), expected);
}

TEST_F(SchedulerTest, DwrrSharesBytesNotFramesWithMixedSizes)
{
    auto dwrr = CreateObject<PfcDwrrScheduler>();
    dwrr->SetAttribute("Weights", StringValue("1,3,1,1,1,1,1,1"));
    Fill(0, 20000, 1500);
    Fill(1, 5000, 9000);
    std::map<int, uint64_t> bytes;
    for (int p : Drain(dwrr, 8000))
    {
        bytes[p] += p == 0 ? 1500 : 9000;
    }
    double share1 = double(bytes[1]) / (bytes[0] + bytes[1]);
    EXPECT_NEAR(share1, 0.75, 0.01) << bytes[0] << " " << bytes[1];
}

TEST_F(SchedulerTest, DwrrStrictMaskAndPausedQueues)
{
    auto dwrr = CreateObject<PfcDwrrScheduler>();
    dwrr->SetAttribute("StrictPriorityMask", UintegerValue(0x40));
    dwrr->SetAttribute("QuantumBytes", UintegerValue(1000));
    Fill(0, 3, 1000);
    Fill(1, 3, 1000);
    Fill(6, 2, 64);
    EXPECT_EQ(Drain(dwrr, 4), (std::vector<int>{6, 6, 0, 1}));
    // A paused priority keeps its place but is skipped; it neither earns nor loses credit.
    EXPECT_EQ(Drain(dwrr, 2, /*paused=*/0x01), (std::vector<int>{1, 1}));
    EXPECT_EQ(Drain(dwrr, 2), (std::vector<int>{0, 0}));
}

TEST_F(SchedulerTest, DwrrRejectsBadWeights)
{
    auto dwrr = CreateObject<PfcDwrrScheduler>();
    EXPECT_DEATH(dwrr->SetAttribute("Weights", StringValue("1,2,3")), "need exactly 8");
    EXPECT_DEATH(dwrr->SetAttribute("Weights", StringValue("1,0,1,1,1,1,1,1")),
                 "weight \"0\" for priority 1");
    EXPECT_DEATH(dwrr->SetAttribute("Weights", StringValue("1,x,1,1,1,1,1,1")),
                 "weight \"x\" for priority 1");
    EXPECT_DEATH(dwrr->SetWeight(9, 1), "priority 9 invalid");
}

/// Byte shares measured on a real saturated link match the DWRR weights.
TEST_F(SchedulerTest, DwrrOnALinkSplitsLineRateByWeight)
{
    NodeContainer nodes(2);
    PfcHelper helper;
    helper.SetTxScheduler("ns3::PfcDwrrScheduler", "Weights", StringValue("1,1,1,3,1,1,1,1"));
    NetDeviceContainer devs = helper.Install(nodes);
    auto tx = DynamicCast<PfcNetDevice>(devs.Get(0));
    auto rx = DynamicCast<PfcNetDevice>(devs.Get(1));
    for (int i = 0; i < 2000; ++i)
    {
        tx->Send(test::MakeIpv4Packet(4076, 26), rx->GetAddress(), 0x0800); // priority 3
        tx->Send(test::MakeIpv4Packet(4076, 0), rx->GetAddress(), 0x0800);  // priority 0
    }
    Simulator::Stop(MicroSeconds(100)); // both stay backlogged
    Simulator::Run();
    const auto& c = tx->GetCounters();
    double share3 = double(c.txBytes[3]) / (c.txBytes[0] + c.txBytes[3]);
    EXPECT_NEAR(share3, 0.75, 0.01);
}

} // namespace
