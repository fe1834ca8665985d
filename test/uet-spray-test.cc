/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * UET packet spraying through the PDC: with an EvSelector other than "single" a RUD
 * initiator's data packets take different EVs (UDP source ports) and the switches' entropy
 * hashing spreads them over every spine; "single" keeps the PDC on one path (ECMP by flow).
 * Delivery stays exactly-once and complete whatever the reordering.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>

using namespace ns3;

namespace
{

/// What one spraying run saw.
struct SprayRun
{
    std::vector<uint64_t> perSpine; //!< packets each spine forwarded
    uint32_t completed{0};          //!< successful completions
    uint64_t delivered{0};          //!< bytes delivered at the target
    uint64_t retransmissions{0};    //!< sender retransmissions
};

class UetSprayTest : public test::SimTest, public ::testing::WithParamInterface<std::string>
{
  protected:
    /**
     * Two hosts on different leaves of a two-tier Clos whose leaves have 4 uplinks (a 400 Gb/s
     * NIC, 100 Gb/s leaf-spine cables, 4 spines); host 0 WRITEs \p bytes to host 1 with the
     * EvSelector \p selector (128 EVs).
     */
    SprayRun Run(const std::string& selector, uint64_t bytes)
    {
        auto t = CreateObject<ClosTopologyHelper>();
        t->SetAttribute("Servers", UintegerValue(2));
        t->SetAttribute("GpusPerServer", UintegerValue(1));
        t->SetAttribute("ServersPerRack", UintegerValue(1));
        t->SetAttribute("LeafSpineDataRate", StringValue("100Gbps"));
        t->SetAttribute("Spines", UintegerValue(4));
        t->SetAttribute("Transports", StringValue("uet"));
        t->GetUetNicHelper().SetNicAttribute("OooThreshold", UintegerValue(0));
        t->GetUetNicHelper().SetNicAttribute("AckOnHole", BooleanValue(false));
        t->GetUetNicHelper().SetNicAttribute("EvSelector",
                                             TypeIdValue(TypeId::LookupByName(selector)));
        t->Install();
        SprayRun r;
        Ptr<UetEndpoint> src = t->GetUetNic(0)->CreateEndpoint(7, 0);
        Ptr<UetEndpoint> dst = t->GetUetNic(1)->CreateEndpoint(7, 0);
        dst->RegisterMemory(0xabc, 1ull << 32);
        t->GetUetNic(1)->TraceConnectWithoutContext(
            "Delivery",
            MakeCallback(+[](uint64_t* n, const UetDelivery& d) {
                *n += d.bytes;
            }).Bind(&r.delivered));
        src->PostWrite(dst->GetAddress(),
                       0xabc,
                       0,
                       bytes,
                       MakeCallback(+[](uint32_t* ok, const UetCompletion& c) {
                           *ok += c.ok;
                       }).Bind(&r.completed));
        Simulator::Run();
        for (uint32_t s = 0; s < t->GetNSpines(); ++s)
        {
            r.perSpine.push_back(
                t->GetSpine(s)->GetObject<FabricSwitch>()->GetCounters().forwarded);
        }
        r.retransmissions = t->GetUetNic(0)->GetCounters().retransmissions;
        return r;
    }
};

TEST_F(UetSprayTest, SingleEvKeepsThePdcOnOnePath)
{
    SprayRun r = Run("ns3::UetSingleEvSelector", 8 << 20);
    ASSERT_EQ(r.perSpine.size(), 4u);
    EXPECT_EQ(r.completed, 1u);
    EXPECT_EQ(r.delivered, 8u << 20);
    // Data one way and ACKs the other, each on one spine (possibly the same).
    uint32_t used =
        std::count_if(r.perSpine.begin(), r.perSpine.end(), [](uint64_t n) { return n > 0; });
    EXPECT_LE(used, 2u);
}

TEST_P(UetSprayTest, SprayingSpreadsOverEverySpine)
{
    SprayRun r = Run(GetParam(), 8 << 20);
    ASSERT_EQ(r.perSpine.size(), 4u);
    EXPECT_EQ(r.completed, 1u);
    EXPECT_EQ(r.delivered, 8u << 20); // exactly once, in spite of the reordering
    EXPECT_EQ(r.retransmissions, 0u);
    // 2048 data packets on 128 EVs, which the leaves hash onto 4 spines (not evenly: 128
    // hashes): every spine carries at least 15 % of them (one path would carry all).
    for (uint64_t n : r.perSpine)
    {
        EXPECT_GT(n, 2048 * 15 / 100);
    }
}

INSTANTIATE_TEST_SUITE_P(Selectors,
                         UetSprayTest,
                         ::testing::Values("ns3::UetObliviousEvSelector",
                                           "ns3::UetBitmapEvSelector",
                                           "ns3::UetRepsEvSelector",
                                           "ns3::UetMixedEvSelector"));

TEST_F(UetSprayTest, TooManyEvsAreRefused)
{
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(2));
    t->SetAttribute("GpusPerServer", UintegerValue(1));
    t->SetAttribute("ServersPerRack", UintegerValue(1));
    t->SetAttribute("Transports", StringValue("uet"));
    t->GetUetNicHelper().SetNicAttribute("EvSelector",
                                         TypeIdValue(UetObliviousEvSelector::GetTypeId()));
    t->Install();
    t->GetUetNic(0)->GetEvSelectorPrototype()->SetAttribute("Evs", UintegerValue(20000));
    EXPECT_DEATH(t->GetUetNic(0)->NewEvSelector(),
                 "Evs 20000 is out of range; it must be in 1..16384");
}

} // namespace
