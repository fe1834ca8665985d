/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Switch load balancers: ECMP stickiness and spread, seed independence, E-ECMP spreading
 * over destination QPs, per-packet spray and its reproducibility.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <array>
#include <random>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// Four candidate ports with non-contiguous indices, so a test sees ports[] elements.
const std::array<uint32_t, 4> PORTS = {5, 9, 2, 14};
constexpr uint32_t NPORTS = 4;

/// Position of \p port in PORTS; fails the test (returns 4) if it is not a candidate.
uint32_t
IndexOf(uint32_t port)
{
    for (uint32_t i = 0; i < NPORTS; ++i)
    {
        if (PORTS[i] == port)
        {
            return i;
        }
    }
    ADD_FAILURE() << "selected port " << port << " is not a candidate";
    return NPORTS;
}

/// A RoCEv2 flow key: UDP to 4791 with a BTH.
SwitchFlowKey
RoceKey(uint32_t src, uint32_t dst, uint16_t srcPort, uint32_t qp)
{
    SwitchFlowKey k;
    k.srcIp = src;
    k.dstIp = dst;
    k.protocol = 17;
    k.srcPort = srcPort;
    k.dstPort = SwitchFlowKey::ROCEV2_UDP_PORT;
    k.destQp = qp;
    k.hasBth = true;
    return k;
}

/// \p n random RoCEv2 flow keys from a fixed-seed generator.
std::vector<SwitchFlowKey>
RandomKeys(uint32_t n, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::vector<SwitchFlowKey> keys;
    for (uint32_t i = 0; i < n; ++i)
    {
        keys.push_back(RoceKey(0x0a000000u | (gen() & 0xffffu),
                               0x0a000000u | (gen() & 0xffffu),
                               static_cast<uint16_t>(gen()),
                               gen() & 0xffffffu));
    }
    return keys;
}

/// Create a balancer by TypeId name, as a switch does.
Ptr<SwitchLoadBalancer>
Make(const std::string& type, uint32_t seed = 0)
{
    ObjectFactory f;
    f.SetTypeId(type);
    f.Set("Seed", UintegerValue(seed));
    return f.Create<SwitchLoadBalancer>();
}

/// Count per port index of the choices for \p keys.
std::array<uint32_t, NPORTS + 1>
Histogram(Ptr<SwitchLoadBalancer> lb, const std::vector<SwitchFlowKey>& keys)
{
    std::array<uint32_t, NPORTS + 1> count{};
    for (const auto& k : keys)
    {
        ++count[IndexOf(lb->Select(k, PORTS.data(), NPORTS, Seconds(0)))];
    }
    return count;
}

using LoadBalancerTest = test::SimTest;

TEST_F(LoadBalancerTest, CreatedByTypeIdWithSeedAttribute)
{
    for (const char* type :
         {"ns3::EcmpLoadBalancer", "ns3::RoceEcmpLoadBalancer", "ns3::SprayLoadBalancer"})
    {
        auto lb = Make(type, 1234);
        ASSERT_TRUE(lb) << type;
        EXPECT_EQ(lb->GetInstanceTypeId().GetName(), type);
        EXPECT_EQ(lb->GetSeed(), 1234u);
        UintegerValue v;
        lb->GetAttribute("Seed", v);
        EXPECT_EQ(v.Get(), 1234u);
    }
    EXPECT_EQ(CreateObject<EcmpLoadBalancer>()->AssignStreams(3), 0);
    EXPECT_EQ(CreateObject<SprayLoadBalancer>()->AssignStreams(3), 1);
}

TEST_F(LoadBalancerTest, EcmpFlowAlwaysTakesTheSamePort)
{
    for (const char* type : {"ns3::EcmpLoadBalancer", "ns3::RoceEcmpLoadBalancer"})
    {
        auto lb = Make(type, 7);
        for (const auto& k : RandomKeys(50, 1))
        {
            uint32_t first = lb->Select(k, PORTS.data(), NPORTS, Seconds(0));
            IndexOf(first);
            for (int i = 1; i < 200; ++i)
            {
                ASSERT_EQ(lb->Select(k, PORTS.data(), NPORTS, MicroSeconds(i)), first) << type;
            }
        }
    }
}

TEST_F(LoadBalancerTest, SingleCandidateIsReturnedDirectly)
{
    const uint32_t only = 17;
    SwitchFlowKey k = RoceKey(1, 2, 3, 4);
    for (const char* type :
         {"ns3::EcmpLoadBalancer", "ns3::RoceEcmpLoadBalancer", "ns3::SprayLoadBalancer"})
    {
        EXPECT_EQ(Make(type)->Select(k, &only, 1, Seconds(0)), only) << type;
    }
}

TEST_F(LoadBalancerTest, EcmpSpreadsRandomFlowsEvenly)
{
    auto keys = RandomKeys(10000, 2);
    for (const char* type : {"ns3::EcmpLoadBalancer", "ns3::RoceEcmpLoadBalancer"})
    {
        for (uint32_t seed : {0u, 99u})
        {
            auto count = Histogram(Make(type, seed), keys);
            EXPECT_EQ(count[NPORTS], 0u);
            for (uint32_t i = 0; i < NPORTS; ++i)
            {
                EXPECT_NEAR(count[i], 2500, 250) << type << " seed " << seed << " port " << i;
            }
        }
    }
}

/// Fraction of \p keys for which \p a and \p b choose the same port index.
double
Agreement(Ptr<SwitchLoadBalancer> a,
          Ptr<SwitchLoadBalancer> b,
          const std::vector<SwitchFlowKey>& keys)
{
    uint32_t same = 0;
    for (const auto& k : keys)
    {
        same += a->Select(k, PORTS.data(), NPORTS, Seconds(0)) ==
                b->Select(k, PORTS.data(), NPORTS, Seconds(0));
    }
    return double(same) / keys.size();
}

TEST_F(LoadBalancerTest, DifferentSeedsChooseIndependently)
{
    auto keys = RandomKeys(10000, 3);
    EXPECT_EQ(Agreement(Make("ns3::EcmpLoadBalancer", 1), Make("ns3::EcmpLoadBalancer", 1), keys),
              1.0);
    for (auto [s1, s2] : {std::pair{1u, 2u}, std::pair{0u, 0x80000000u}, std::pair{5u, 1005u}})
    {
        double agree =
            Agreement(Make("ns3::EcmpLoadBalancer", s1), Make("ns3::EcmpLoadBalancer", s2), keys);
        EXPECT_GT(agree, 0.20) << "seeds " << s1 << ", " << s2;
        EXPECT_LT(agree, 0.30) << "seeds " << s1 << ", " << s2;
    }
    // SetSeed() changes the choice of an existing balancer like the attribute does.
    auto a = Make("ns3::EcmpLoadBalancer", 1);
    auto b = Make("ns3::EcmpLoadBalancer", 2);
    b->SetSeed(1);
    EXPECT_EQ(Agreement(a, b, keys), 1.0);
}

TEST_F(LoadBalancerTest, RoceEcmpSpreadsQpsOfOneConnection)
{
    // One connection (same addresses and UDP ports) over 10000 QPs.
    std::vector<SwitchFlowKey> qps;
    for (uint32_t qp = 0; qp < 10000; ++qp)
    {
        qps.push_back(RoceKey(0x0a000001, 0x0a000102, 49152, 0x100 + qp));
    }
    auto ecmp = Histogram(Make("ns3::EcmpLoadBalancer", 3), qps);
    uint32_t used = 0;
    for (uint32_t i = 0; i < NPORTS; ++i)
    {
        used += ecmp[i] > 0;
    }
    EXPECT_EQ(used, 1u) << "ECMP ignores the QP";
    auto eecmp = Histogram(Make("ns3::RoceEcmpLoadBalancer", 3), qps);
    for (uint32_t i = 0; i < NPORTS; ++i)
    {
        EXPECT_NEAR(eecmp[i], 2500, 250) << "port " << i;
    }
}

TEST_F(LoadBalancerTest, RoceEcmpWithoutBthIsPlainEcmp)
{
    auto keys = RandomKeys(2000, 4);
    for (auto& k : keys)
    {
        k.hasBth = false;
        k.dstPort = 5000;
    }
    auto ecmp = DynamicCast<EcmpLoadBalancer>(Make("ns3::EcmpLoadBalancer", 8));
    auto eecmp = DynamicCast<EcmpLoadBalancer>(Make("ns3::RoceEcmpLoadBalancer", 8));
    for (const auto& k : keys)
    {
        ASSERT_EQ(ecmp->Hash(k), eecmp->Hash(k));
    }
    // With a BTH the QP enters the hash.
    SwitchFlowKey k = RoceKey(1, 2, 3, 4);
    EXPECT_NE(ecmp->Hash(k), eecmp->Hash(k));
}

/// Port indices of \p n packets of one flow through \p lb.
std::vector<uint32_t>
SprayRun(Ptr<SwitchLoadBalancer> lb, uint32_t n)
{
    SwitchFlowKey k = RoceKey(1, 2, 3, 4);
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < n; ++i)
    {
        out.push_back(IndexOf(lb->Select(k, PORTS.data(), NPORTS, MicroSeconds(i))));
    }
    return out;
}

TEST_F(LoadBalancerTest, SprayDistributesPacketsOfOneFlow)
{
    auto lb = Make("ns3::SprayLoadBalancer");
    lb->AssignStreams(10);
    std::array<uint32_t, NPORTS + 1> count{};
    for (uint32_t i : SprayRun(lb, 10000))
    {
        ++count[i];
    }
    EXPECT_EQ(count[NPORTS], 0u);
    for (uint32_t i = 0; i < NPORTS; ++i)
    {
        EXPECT_NEAR(count[i], 2500, 250) << "port " << i;
    }
}

TEST_F(LoadBalancerTest, SprayIsReproducibleForEqualStreams)
{
    auto a = Make("ns3::SprayLoadBalancer");
    auto b = Make("ns3::SprayLoadBalancer");
    auto c = Make("ns3::SprayLoadBalancer");
    a->AssignStreams(21);
    b->AssignStreams(21);
    c->AssignStreams(22);
    // Single-candidate selections in between must not consume draws.
    const uint32_t only = 1;
    SwitchFlowKey k;
    std::vector<uint32_t> seqA;
    for (int i = 0; i < 1000; ++i)
    {
        EXPECT_EQ(a->Select(k, &only, 1, Seconds(0)), only);
        seqA.push_back(IndexOf(a->Select(k, PORTS.data(), NPORTS, Seconds(0))));
    }
    auto seqB = SprayRun(b, 1000);
    EXPECT_EQ(seqA, seqB);
    EXPECT_NE(seqB, SprayRun(c, 1000));
}

using LoadBalancerDeathTest = test::SimTest;

TEST_F(LoadBalancerDeathTest, NoCandidatePortsAborts)
{
    SwitchFlowKey k;
    for (const char* type :
         {"ns3::EcmpLoadBalancer", "ns3::RoceEcmpLoadBalancer", "ns3::SprayLoadBalancer"})
    {
        auto lb = Make(type);
        EXPECT_DEATH(lb->Select(k, PORTS.data(), 0, Seconds(0)),
                     "number of candidate ports 0 is invalid");
    }
}

} // namespace
