/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Switch load balancers: ECMP stickiness and spread, seed independence, E-ECMP spreading
 * over destination QPs, per-packet spray and its reproducibility.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/hash.h"

#include <array>
#include <random>
#include <set>
#include <sstream>
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

/// A RoCEv2 flow key as RoCEv2's entropy parser leaves it: UDP to 4791, entropy = the QP.
SwitchFlowKey
RoceKey(uint32_t src, uint32_t dst, uint16_t srcPort, uint32_t qp)
{
    SwitchFlowKey k;
    k.srcIp = src;
    k.dstIp = dst;
    k.protocol = 17;
    k.srcPort = srcPort;
    k.dstPort = RoceEntropyParser::UDP_PORT;
    k.entropy = qp;
    k.entropyBytes = 3;
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
         {"ns3::EcmpLoadBalancer", "ns3::EntropyEcmpLoadBalancer", "ns3::SprayLoadBalancer"})
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
    for (const char* type : {"ns3::EcmpLoadBalancer", "ns3::EntropyEcmpLoadBalancer"})
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
         {"ns3::EcmpLoadBalancer", "ns3::EntropyEcmpLoadBalancer", "ns3::SprayLoadBalancer"})
    {
        EXPECT_EQ(Make(type)->Select(k, &only, 1, Seconds(0)), only) << type;
    }
}

TEST_F(LoadBalancerTest, EcmpSpreadsRandomFlowsEvenly)
{
    auto keys = RandomKeys(10000, 2);
    for (const char* type : {"ns3::EcmpLoadBalancer", "ns3::EntropyEcmpLoadBalancer"})
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

TEST_F(LoadBalancerTest, EntropyEcmpSpreadsQpsOfOneConnection)
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
    auto eecmp = Histogram(Make("ns3::EntropyEcmpLoadBalancer", 3), qps);
    for (uint32_t i = 0; i < NPORTS; ++i)
    {
        EXPECT_NEAR(eecmp[i], 2500, 250) << "port " << i;
    }
}

TEST_F(LoadBalancerTest, EntropyEcmpWithoutBthIsPlainEcmp)
{
    auto keys = RandomKeys(2000, 4);
    for (auto& k : keys)
    {
        k.entropy = 0;
        k.entropyBytes = 0;
        k.dstPort = 5000;
    }
    auto ecmp = DynamicCast<EcmpLoadBalancer>(Make("ns3::EcmpLoadBalancer", 8));
    auto eecmp = DynamicCast<EcmpLoadBalancer>(Make("ns3::EntropyEcmpLoadBalancer", 8));
    for (const auto& k : keys)
    {
        ASSERT_EQ(ecmp->Hash(k), eecmp->Hash(k));
    }
    // With entropy (the QP) it enters the hash.
    SwitchFlowKey k = RoceKey(1, 2, 3, 4);
    EXPECT_NE(ecmp->Hash(k), eecmp->Hash(k));
}

TEST_F(LoadBalancerTest, EntropyEcmpHashInputIsTheFiveTupleThenTheEntropyBytes)
{
    // The hash input of E-ECMP is fixed: Seed 4, srcIp 4, dstIp 4, protocol 1, ports 2 + 2,
    // then the entropy in its wire width (3 bytes for a RoCEv2 QP), all big-endian. The former
    // RoCE-only E-ECMP hashed exactly these bytes, so its ECMP choices are unchanged.
    SwitchFlowKey k = RoceKey(0x0a000001, 0x0a000203, 49153, 0x123456);
    const uint8_t input[] = {0x00, 0x00, 0x00, 0x2a, 0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00,
                             0x02, 0x03, 17,   0xc0, 0x01, 0x12, 0xb7, 0x12, 0x34, 0x56};
    uint32_t expected = Hash32(reinterpret_cast<const char*>(input), sizeof(input));
    for (const char* type : {"ns3::EntropyEcmpLoadBalancer"})
    {
        auto lb = DynamicCast<EcmpLoadBalancer>(Make(type, 42));
        EXPECT_EQ(lb->Hash(k), expected) << type;
    }
    // A 2-byte entropy (the UDP source port of Ultra Ethernet) appends 2 bytes.
    k.entropy = 0xbeef;
    k.entropyBytes = 2;
    const uint8_t input2[] = {0x00,
                              0x00,
                              0x00,
                              0x2a,
                              0x0a,
                              0x00,
                              0x00,
                              0x01,
                              0x0a,
                              0x00,
                              0x02,
                              0x03,
                              17,
                              0xc0,
                              0x01,
                              0x12,
                              0xb7,
                              0xbe,
                              0xef};
    auto lb = DynamicCast<EcmpLoadBalancer>(Make("ns3::EntropyEcmpLoadBalancer", 42));
    EXPECT_EQ(lb->Hash(k), Hash32(reinterpret_cast<const char*>(input2), sizeof(input2)));
}

TEST(EcmpHash, InlineMurmur3IsBitIdenticalToNs3Hash32)
{
    // Every length 0..64 (all tail cases, the ECMP inputs are 17-20 bytes) with random bytes,
    // and the all-zero and all-0xff inputs: ECMP placement must not change with the inline hash.
    std::mt19937 rng(7);
    for (std::size_t len = 0; len <= 64; ++len)
    {
        for (int trial = 0; trial < 20; ++trial)
        {
            std::vector<uint8_t> b(len);
            for (auto& x : b)
            {
                x = static_cast<uint8_t>(trial == 0 ? 0 : trial == 1 ? 0xff : rng());
            }
            EXPECT_EQ(EcmpLoadBalancer::Murmur3Hash32(b.data(), len),
                      Hash32(reinterpret_cast<const char*>(b.data()), len))
                << "length " << len << ", trial " << trial;
        }
    }
}

/// IPv4 (no options) + UDP + a 12-byte BTH whose destination QP is \p qp.
std::vector<uint8_t>
RoceBytes(uint16_t srcPort, uint16_t dstPort, uint32_t qp)
{
    std::vector<uint8_t> b(20 + 8 + 12, 0);
    b[0] = 0x45;
    b[2] = 0;
    b[3] = 40;
    b[8] = 64;
    b[9] = 17;
    b[12] = 10;
    b[15] = 1;
    b[16] = 10;
    b[19] = 2;
    b[20] = static_cast<uint8_t>(srcPort >> 8);
    b[21] = static_cast<uint8_t>(srcPort);
    b[22] = static_cast<uint8_t>(dstPort >> 8);
    b[23] = static_cast<uint8_t>(dstPort);
    b[28] = 0x0a; // opcode: RC RDMA WRITE ONLY
    b[33] = static_cast<uint8_t>(qp >> 16);
    b[34] = static_cast<uint8_t>(qp >> 8);
    b[35] = static_cast<uint8_t>(qp);
    return b;
}

TEST(SwitchEntropyParser, ChosenByUdpDestinationPort)
{
    SwitchEntropyParserTable parsers;
    parsers.Add(RoceEntropyParser::UDP_PORT, &RoceEntropyParser::Parse);
    parsers.Add(4793, &UdpSourcePortEntropyParser);
    EXPECT_EQ(parsers.GetN(), 2u);

    SwitchFlowKey k;
    auto roce = RoceBytes(49200, 4791, 0xabcdef);
    ASSERT_TRUE(SwitchFlowKey::Parse(roce.data(), roce.size(), k, &parsers));
    EXPECT_TRUE(k.HasEntropy());
    EXPECT_EQ(k.entropy, 0xabcdefu);
    EXPECT_EQ(k.entropyBytes, 3u);
    EXPECT_EQ(k.srcPort, 49200u);

    // Without a parser table, or for a port without a parser, no entropy.
    ASSERT_TRUE(SwitchFlowKey::Parse(roce.data(), roce.size(), k));
    EXPECT_FALSE(k.HasEntropy());
    EXPECT_EQ(k.entropy, 0u);
    auto other = RoceBytes(49200, 5000, 0xabcdef);
    ASSERT_TRUE(SwitchFlowKey::Parse(other.data(), other.size(), k, &parsers));
    EXPECT_FALSE(k.HasEntropy());

    // A BTH cut short gives no entropy (the parser never reads past what it is given).
    ASSERT_TRUE(SwitchFlowKey::Parse(roce.data(), 20 + 8 + 11, k, &parsers));
    EXPECT_FALSE(k.HasEntropy());

    // UDP-source-port entropy (Ultra Ethernet's EV).
    auto uet = RoceBytes(0x8123, 4793, 0);
    ASSERT_TRUE(SwitchFlowKey::Parse(uet.data(), 20 + 8, k, &parsers));
    EXPECT_EQ(k.entropy, 0x8123u);
    EXPECT_EQ(k.entropyBytes, 2u);

    // Replace, then remove.
    parsers.Add(4793, &RoceEntropyParser::Parse);
    EXPECT_EQ(parsers.GetN(), 2u);
    EXPECT_EQ(parsers.Find(4793), &RoceEntropyParser::Parse);
    EXPECT_TRUE(parsers.Remove(4793));
    EXPECT_FALSE(parsers.Remove(4793));
    EXPECT_EQ(parsers.Find(4793), nullptr);
    EXPECT_EQ(parsers.Find(RoceEntropyParser::UDP_PORT), &RoceEntropyParser::Parse);
}

TEST(SwitchEntropyParser, FrameDescriptionsPrintTheBthThroughRocesDescriber)
{
    // The engine's FabricWireHeader knows no transport: RoCEv2 registered its describer for
    // UDP 4791 when the library loaded.
    ASSERT_NE(FabricWireHeader::GetUdpPayloadDescriber(4791), nullptr);
    EXPECT_EQ(FabricWireHeader::GetUdpPayloadDescriber(4800), nullptr);
    auto roce = RoceBytes(49200, 4791, 0x000102);
    roce[36] = 0x80; // AckReq
    roce[39] = 7;    // PSN 7
    std::ostringstream os;
    FabricWireHeader(FabricWireHeader::IPV4, roce.data(), roce.size()).Print(os);
    EXPECT_EQ(os.str(),
              "IPv4 10.0.0.1 > 10.0.0.2 dscp 0 ecn 0 ttl 64 len 40; UDP 49200 > 4791; BTH "
              "WRITE_ONLY dqpn 258 psn 7 ackreq");
    // Another port: the description stops after UDP, unless a describer is registered.
    auto other = RoceBytes(49200, 4800, 0x000102);
    std::ostringstream plain;
    FabricWireHeader(FabricWireHeader::IPV4, other.data(), other.size()).Print(plain);
    EXPECT_EQ(plain.str(), "IPv4 10.0.0.1 > 10.0.0.2 dscp 0 ecn 0 ttl 64 len 40; UDP 49200 > 4800");
    FabricWireHeader::SetUdpPayloadDescriber(
        4800,
        +[](std::ostream& o, const uint8_t*, uint32_t n) { o << "; PDS " << n << " bytes"; });
    std::ostringstream described;
    FabricWireHeader(FabricWireHeader::IPV4, other.data(), other.size()).Print(described);
    FabricWireHeader::SetUdpPayloadDescriber(4800, nullptr);
    EXPECT_EQ(described.str(), plain.str() + "; PDS 12 bytes");
    EXPECT_EQ(FabricWireHeader::GetUdpPayloadDescriber(4800), nullptr);
}

/// Found by test/fuzz/fabric-wire-header-fuzz (corpus regression-empty-header): an empty header
/// given as (nullptr, 0) passed the null pointer to memcpy, undefined behaviour that stops the
/// sanitizer build. It is a valid header of no bytes.
TEST(FabricWireHeader, EmptyFromANullPointerHoldsNoBytes)
{
    const uint8_t bytes[4] = {0x45, 0, 0, 0};
    FabricWireHeader h(FabricWireHeader::IPV4, bytes, sizeof(bytes));
    h.Set(FabricWireHeader::ETHERNET, nullptr, 0);
    EXPECT_EQ(h.GetSerializedSize(), 0u);
    std::ostringstream os;
    h.Print(os);
    EXPECT_EQ(os.str(), "0 header bytes");
    FabricWireHeader empty(FabricWireHeader::IPV4, nullptr, 0);
    Ptr<Packet> p = Create<Packet>(8);
    p->AddHeader(empty);
    EXPECT_EQ(p->GetSize(), 8u);
}

TEST(SwitchEntropyParser, SwitchHelperInstallsRoceByDefault)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> sw = CreateObject<Node>();
    PfcHelper pfc;
    pfc.Install(a, sw);
    SwitchHelper helper;
    Ptr<FabricSwitch> fabric = helper.Install(sw);
    EXPECT_EQ(fabric->GetEntropyParsers().Find(4791), &RoceEntropyParser::Parse);
    EXPECT_EQ(fabric->GetEntropyParsers().Find(4793), nullptr);
    // A helper told otherwise installs that instead.
    Ptr<Node> b = CreateObject<Node>();
    Ptr<Node> sw2 = CreateObject<Node>();
    pfc.Install(b, sw2);
    helper.RemoveEntropyParser(4791);
    helper.SetEntropyParser(4793, &UdpSourcePortEntropyParser);
    Ptr<FabricSwitch> fabric2 = helper.Install(sw2);
    EXPECT_EQ(fabric2->GetEntropyParsers().Find(4791), nullptr);
    EXPECT_EQ(fabric2->GetEntropyParsers().Find(4793), &UdpSourcePortEntropyParser);
    EXPECT_TRUE(fabric2->RemoveEntropyParser(4793));
    EXPECT_EQ(fabric2->GetEntropyParsers().GetN(), 0u);
    Simulator::Destroy();
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

TEST_F(LoadBalancerDeathTest, EntropyParserTableRejectsBadInput)
{
    SwitchEntropyParserTable parsers;
    EXPECT_DEATH(parsers.Add(0, &UdpSourcePortEntropyParser), "UDP port 0 is invalid");
    EXPECT_DEATH(parsers.Add(4793, nullptr), "null parser for UDP port 4793");
    for (uint16_t p = 1; p <= SwitchEntropyParserTable::MAX_PARSERS; ++p)
    {
        parsers.Add(p, &UdpSourcePortEntropyParser);
    }
    EXPECT_DEATH(parsers.Add(100, &UdpSourcePortEntropyParser), "at most 8 ports");
}

TEST_F(LoadBalancerDeathTest, NoCandidatePortsAborts)
{
    SwitchFlowKey k;
    for (const char* type :
         {"ns3::EcmpLoadBalancer", "ns3::EntropyEcmpLoadBalancer", "ns3::SprayLoadBalancer"})
    {
        auto lb = Make(type);
        EXPECT_DEATH(lb->Select(k, PORTS.data(), 0, Seconds(0)),
                     "number of candidate ports 0 is invalid");
    }
}

} // namespace

// Replications re-draw ECMP placement: the default per-switch seed mixes ns-3's global seed and
// run number (--RngSeed/--RngRun, the examples' --seed) into the node-id hash; seed 1 run 1
// keeps the historical seeds. Installed switches get it, and placement really changes.
TEST_F(LoadBalancerTest, DefaultSeedsFollowTheRunAndTheGlobalSeed)
{
    const uint32_t historical = 8u * 2654435761u; // node 7: (id + 1) x Knuth's constant
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    EXPECT_EQ(SwitchHelper::DefaultSeed(7), historical);
    std::set<uint32_t> seeds{historical};
    for (auto [seed, run] : {std::pair{1u, 2u}, std::pair{2u, 1u}, std::pair{2u, 2u}})
    {
        RngSeedManager::SetSeed(seed);
        RngSeedManager::SetRun(run);
        seeds.insert(SwitchHelper::DefaultSeed(7));
        EXPECT_NE(SwitchHelper::DefaultSeed(7), SwitchHelper::DefaultSeed(8));
    }
    EXPECT_EQ(seeds.size(), 4u); // every (seed, run) pair gives its own seed

    // An installed switch: run 2's ECMP choices agree with run 1's only by chance (1 in
    // NPORTS = 4).
    auto install = [](uint64_t run) {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(run);
        NodeContainer n(2);
        PfcHelper().Install(n.Get(0), n.Get(1));
        return SwitchHelper().Install(n.Get(0))->GetLoadBalancer();
    };
    Ptr<SwitchLoadBalancer> run1 = install(1);
    Ptr<SwitchLoadBalancer> run2 = install(2);
    EXPECT_NE(run1->GetSeed(), run2->GetSeed());
    double agree = Agreement(run1, run2, RandomKeys(10000, 3));
    EXPECT_GT(agree, 0.20);
    EXPECT_LT(agree, 0.30);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
}
