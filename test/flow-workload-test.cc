/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Transport-neutral flow workloads: FlowArrivalGenerator (Poisson arrivals: the rate formula,
 * the arrival count and the offered load within 5 standard deviations, random and
 * permutation destinations, determinism per stream, lazy Next()), IncastGenerator
 * (synchronized, jittered, periodic, CDF sizes), FlowList (format read and written exactly,
 * every malformed line refused with file and line, lazy reading, htsim matrix conversion) and
 * FlowSourceMerger; every bad configuration aborts naming the value.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

class FlowWorkloadTest : public test::SimTest
{
  protected:
    /**
     * \param hosts hosts
     * \param load target load
     * \param stop StopTime
     * \param cdf the workload
     * \param stream first stream
     * \return a Poisson generator at 100 Gb/s host links from time 0
     */
    Ptr<FlowArrivalGenerator> Poisson(uint32_t hosts,
                                      double load,
                                      Time stop,
                                      const FlowSizeCdf& cdf,
                                      int64_t stream = 100)
    {
        auto g = CreateObject<FlowArrivalGenerator>();
        g->SetAttribute("Load", DoubleValue(load));
        g->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
        g->SetAttribute("StopTime", TimeValue(stop));
        g->SetFlowSizeCdf(cdf);
        g->SetNHosts(hosts);
        g->AssignStreams(stream);
        return g;
    }
};

// lambda = L R / (8 S): at L = 0.5, R = 100 Gb/s, websearch (S = 1,711,250 B):
// 0.5 * 1e11 / (8 * 1711250) = 3652.3009... flows/s per host.
TEST_F(FlowWorkloadTest, ArrivalRateFollowsTheLoadFormula)
{
    auto g = Poisson(16, 0.5, MilliSeconds(1), FlowSizeCdf::LoadShipped("websearch"));
    EXPECT_NEAR(g->GetPerHostArrivalRate(), 3652.300949598247, 1e-6);
    EXPECT_NEAR(g->GetArrivalRate(), 16 * 3652.300949598247, 1e-5);
    g->SetAttribute("Load", DoubleValue(1.0));
    EXPECT_NEAR(g->GetPerHostArrivalRate(), 2 * 3652.300949598247, 1e-6);
}

// alistorage (mean 40,869.8 B, E[X^2] = 3.8456e10 B^2), 16 hosts at 100 Gb/s, L = 0.5, 100 ms:
// expected flows N = 16 * 152,924.65 * 0.1 = 244,679.4 (Poisson: sd = sqrt(N) = 494.6), bytes
// L * 16 * 1e11 / 8 * 0.1 = 1e10 (compound Poisson: sd = sqrt(N E[X^2]) = 9.7e7, 0.97 %).
TEST_F(FlowWorkloadTest, ArrivalCountAndOfferedLoadMatchTheTarget)
{
    const FlowSizeCdf cdf = FlowSizeCdf::LoadShipped("alistorage");
    const Time stop = MilliSeconds(100);
    auto g = Poisson(16, 0.5, stop, cdf);
    std::vector<FlowSpec> flows = g->GenerateAll();
    const double expected = g->GetArrivalRate() * 0.1;
    EXPECT_NEAR(expected, 244679.4, 0.1);
    EXPECT_NEAR(double(flows.size()), expected, 5 * std::sqrt(expected));

    double bytes = 0;
    std::vector<uint64_t> perSrc(16, 0);
    std::vector<uint64_t> perDst(16, 0);
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const FlowSpec& f = flows[i];
        ASSERT_EQ(f.id, i + 1);
        ASSERT_LT(f.src, 16u);
        ASSERT_LT(f.dst, 16u);
        ASSERT_NE(f.src, f.dst);
        ASSERT_GE(f.sizeBytes, 1u);
        ASSERT_TRUE(f.start.IsStrictlyPositive());
        ASSERT_LT(f.start, stop);
        if (i > 0)
        {
            ASSERT_GE(f.start, flows[i - 1].start);
        }
        bytes += double(f.sizeBytes);
        ++perSrc[f.src];
        ++perDst[f.dst];
    }
    double m2 = 0; // E[X^2], uniform on each segment
    const auto& p = cdf.GetPoints();
    for (std::size_t i = 1; i < p.size(); ++i)
    {
        const double a = p[i - 1].sizeBytes;
        const double b = p[i].sizeBytes;
        m2 += (p[i].percent - p[i - 1].percent) / 100 * (a * a + a * b + b * b) / 3;
    }
    const double load = bytes * 8 / (16 * 1e11 * 0.1);
    const double loadSd = std::sqrt(expected * m2) * 8 / (16 * 1e11 * 0.1);
    EXPECT_NEAR(load, 0.5, 5 * loadSd);
    EXPECT_NEAR(load, 0.5, 0.05); // "about L"

    // Every host sends and receives its share: binomial(n, 1/16) counts within 5 sd.
    const double share = double(flows.size()) / 16;
    const double shareSd = std::sqrt(double(flows.size()) * (1.0 / 16) * (15.0 / 16));
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_NEAR(double(perSrc[h]), share, 5 * shareSd) << "host " << h;
        EXPECT_NEAR(double(perDst[h]), share, 5 * shareSd) << "host " << h;
    }
    // Exhausted for good.
    EXPECT_FALSE(g->Next().has_value());
    EXPECT_FALSE(g->Next().has_value());
}

TEST_F(FlowWorkloadTest, StartAndStopTimesBoundTheArrivals)
{
    auto g = Poisson(4, 0.8, MilliSeconds(3), FlowSizeCdf::LoadShipped("fb-hadoop"));
    g->SetAttribute("StartTime", TimeValue(MilliSeconds(2)));
    g->SetAttribute("FirstFlowId", UintegerValue(1000));
    std::vector<FlowSpec> flows = g->GenerateAll();
    ASSERT_GT(flows.size(), 100u);
    EXPECT_EQ(flows.front().id, 1000u);
    EXPECT_EQ(flows.back().id, 1000u + flows.size() - 1);
    for (const auto& f : flows)
    {
        EXPECT_GT(f.start, MilliSeconds(2));
        EXPECT_LT(f.start, MilliSeconds(3));
    }
    // 4 hosts x lambda x 1 ms: 4 * 0.8 * 1e11 / (8 * 120420.75) * 1e-3 = 332.2 flows.
    EXPECT_NEAR(double(flows.size()), 332.2, 5 * std::sqrt(332.2));
}

TEST_F(FlowWorkloadTest, PermutationHasNoFixedPointAndIsFollowed)
{
    auto g = Poisson(64, 0.3, MilliSeconds(2), FlowSizeCdf::LoadShipped("alistorage"));
    g->SetAttribute("PairMode", StringValue("Permutation"));
    EXPECT_TRUE(g->GetPermutation().empty());
    std::vector<FlowSpec> flows = g->GenerateAll();
    const std::vector<uint32_t>& perm = g->GetPermutation();
    ASSERT_EQ(perm.size(), 64u);
    std::set<uint32_t> targets;
    for (uint32_t h = 0; h < 64; ++h)
    {
        EXPECT_NE(perm[h], h) << "fixed point at host " << h;
        targets.insert(perm[h]);
    }
    EXPECT_EQ(targets.size(), 64u) << "every host receives from exactly one host";
    std::set<uint32_t> sources;
    for (const auto& f : flows)
    {
        ASSERT_EQ(f.dst, perm[f.src]);
        sources.insert(f.src);
    }
    EXPECT_EQ(sources.size(), 64u);
}

TEST_F(FlowWorkloadTest, SameStreamsSameFlowsOtherStreamsOtherFlows)
{
    const FlowSizeCdf cdf = FlowSizeCdf::LoadShipped("websearch");
    auto a = Poisson(8, 0.7, MilliSeconds(20), cdf, 7)->GenerateAll();
    auto b = Poisson(8, 0.7, MilliSeconds(20), cdf, 7)->GenerateAll();
    auto c = Poisson(8, 0.7, MilliSeconds(20), cdf, 8)->GenerateAll();
    ASSERT_GT(a.size(), 100u);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    EXPECT_EQ(Poisson(8, 0.7, MilliSeconds(20), cdf)->AssignStreams(0), 3);

    // Lazy Next() gives what GenerateAll() gives, one flow at a time.
    auto lazy = Poisson(8, 0.7, MilliSeconds(20), cdf, 7);
    for (const auto& f : a)
    {
        std::optional<FlowSpec> n = lazy->Next();
        ASSERT_TRUE(n.has_value());
        EXPECT_EQ(*n, f);
    }
    EXPECT_FALSE(lazy->Next().has_value());

    // A different run number (RngSeedManager) changes the draws too.
    RngSeedManager::SetRun(2);
    EXPECT_NE(Poisson(8, 0.7, MilliSeconds(20), cdf, 7)->GenerateAll(), a);
}

TEST_F(FlowWorkloadTest, IncastSynchronizedJitteredAndPeriodic)
{
    auto g = CreateObject<IncastGenerator>();
    g->SetSenders({1, 2, 3, 5, 6, 7, 8, 9});
    g->SetReceiver(4);
    g->SetAttribute("FlowSize", UintegerValue(100000));
    g->SetAttribute("StartTime", TimeValue(MicroSeconds(10)));
    std::vector<FlowSpec> sync = g->GenerateAll();
    ASSERT_EQ(sync.size(), 8u);
    for (std::size_t i = 0; i < sync.size(); ++i)
    {
        EXPECT_EQ(sync[i].id, i + 1);
        EXPECT_EQ(sync[i].src, g->GetSenders()[i]);
        EXPECT_EQ(sync[i].dst, 4u);
        EXPECT_EQ(sync[i].sizeBytes, 100000u);
        EXPECT_EQ(sync[i].start, MicroSeconds(10));
    }

    // Jittered, 3 rounds 100 us apart, sizes from a CDF.
    auto jit = [](int64_t stream) {
        auto j = CreateObject<IncastGenerator>();
        std::vector<uint32_t> senders;
        for (uint32_t s = 1; s <= 32; ++s)
        {
            senders.push_back(s);
        }
        j->SetSenders(senders);
        j->SetReceiver(0);
        j->SetAttribute("Jitter", TimeValue(MicroSeconds(5)));
        j->SetAttribute("Period", TimeValue(MicroSeconds(100)));
        j->SetAttribute("Rounds", UintegerValue(3));
        j->SetFlowSizeCdf(FlowSizeCdf::LoadShipped("alistorage"));
        EXPECT_EQ(j->AssignStreams(stream), 2);
        return j->GenerateAll();
    };
    std::vector<FlowSpec> flows = jit(3);
    ASSERT_EQ(flows.size(), 96u);
    std::set<uint64_t> sizes;
    std::set<int64_t> starts;
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const Time round = MicroSeconds(100 * int64_t(i / 32));
        EXPECT_GE(flows[i].start, round);
        EXPECT_LT(flows[i].start, round + MicroSeconds(5));
        EXPECT_EQ(flows[i].id, i + 1);
        if (i > 0)
        {
            EXPECT_GE(flows[i].start, flows[i - 1].start);
        }
        sizes.insert(flows[i].sizeBytes);
        starts.insert(flows[i].start.GetPicoSeconds());
    }
    EXPECT_GT(sizes.size(), 50u) << "sizes are drawn from the CDF";
    EXPECT_GT(starts.size(), 90u) << "starts are jittered";
    // Each round has every sender once.
    for (int r = 0; r < 3; ++r)
    {
        std::set<uint32_t> s;
        for (int i = 0; i < 32; ++i)
        {
            s.insert(flows[r * 32 + i].src);
        }
        EXPECT_EQ(s.size(), 32u);
    }
    EXPECT_EQ(jit(3), flows);
    EXPECT_NE(jit(4), flows);
}

TEST_F(FlowWorkloadTest, MergerInterleavesBackgroundAndIncastInStartOrder)
{
    auto bg = Poisson(16, 0.3, MilliSeconds(1), FlowSizeCdf::LoadShipped("websearch"), 1);
    auto incast = CreateObject<IncastGenerator>();
    incast->SetSenders({0, 1, 2, 3});
    incast->SetReceiver(15);
    incast->SetAttribute("Period", TimeValue(MicroSeconds(200)));
    incast->SetAttribute("Rounds", UintegerValue(5));
    incast->SetAttribute("FirstFlowId", UintegerValue(1000000));
    auto merged = CreateObject<FlowSourceMerger>();
    merged->Add(bg);
    merged->Add(incast);
    EXPECT_EQ(merged->AssignStreams(50), 5);
    std::vector<FlowSpec> all = merged->GenerateAll();

    auto bgAlone = Poisson(16, 0.3, MilliSeconds(1), FlowSizeCdf::LoadShipped("websearch"), 50);
    const std::size_t nBg = bgAlone->GenerateAll().size();
    EXPECT_EQ(all.size(), nBg + 20);
    std::size_t nIncast = 0;
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        if (i > 0)
        {
            EXPECT_GE(all[i].start, all[i - 1].start);
        }
        nIncast += all[i].id >= 1000000;
    }
    EXPECT_EQ(nIncast, 20u);
}

TEST(FlowList, ReadsAndWritesTheFormatExactly)
{
    const std::string text = "# flows\r\n\r\n0 1 1000 0\r\n 3\t2  12345 1500.5  \n"
                             "# more\n2 0 18446744073709551615 1500.5\n1 3 7 2000.0004\n"
                             "1 3 7 2000.0005\n";
    std::istringstream in(text);
    std::vector<FlowSpec> flows;
    std::string error;
    ASSERT_TRUE(FlowList::Parse(in, "f.txt", flows, error, 10)) << error;
    ASSERT_EQ(flows.size(), 5u);
    EXPECT_EQ(flows[0].id, 10u);
    EXPECT_EQ(flows[1].id, 11u);
    EXPECT_EQ(flows[1].src, 3u);
    EXPECT_EQ(flows[1].dst, 2u);
    EXPECT_EQ(flows[1].sizeBytes, 12345u);
    EXPECT_EQ(flows[1].start, PicoSeconds(1500500));
    EXPECT_EQ(flows[2].sizeBytes, 18446744073709551615ULL);
    EXPECT_EQ(flows[3].start, PicoSeconds(2000000)); // 0.0004 ns rounds down
    EXPECT_EQ(flows[4].start, PicoSeconds(2000001)); // 0.0005 ns rounds up

    std::ostringstream os;
    FlowList::Write(os, flows);
    EXPECT_EQ(os.str(),
              "# ai-fabric flow list: src dst size_bytes start_ns\n0 1 1000 0\n3 2 12345 "
              "1500.5\n2 0 18446744073709551615 1500.5\n1 3 7 2000\n1 3 7 2000.001\n");
    std::istringstream back(os.str());
    EXPECT_EQ(FlowList::Read(back, "back", 10), flows);

    // Through files: Save/Load, Save from a source, and the lazy reader.
    const std::string path = testing::TempDir() + "/flow-list-test.txt";
    FlowList::Save(path, flows);
    EXPECT_EQ(FlowList::Load(path, 10), flows);
    auto reader = CreateObject<FlowListReader>();
    reader->SetAttribute("FirstFlowId", UintegerValue(10));
    reader->Open(path);
    EXPECT_EQ(reader->AssignStreams(0), 0);
    for (const auto& f : flows)
    {
        std::optional<FlowSpec> n = reader->Next();
        ASSERT_TRUE(n.has_value());
        EXPECT_EQ(*n, f);
    }
    EXPECT_FALSE(reader->Next().has_value());
    std::remove(path.c_str());
}

TEST_F(FlowWorkloadTest, GeneratedFlowsRoundTripThroughFilesAndHtsimMatrices)
{
    auto g = Poisson(8, 0.5, MicroSeconds(500), FlowSizeCdf::LoadShipped("alistorage"));
    std::vector<FlowSpec> flows = g->GenerateAll();
    ASSERT_GT(flows.size(), 100u);
    const std::string path = testing::TempDir() + "/flow-list-gen.txt";
    auto again = Poisson(8, 0.5, MicroSeconds(500), FlowSizeCdf::LoadShipped("alistorage"));
    EXPECT_EQ(FlowList::Save(path, again), flows.size());
    EXPECT_EQ(FlowList::Load(path), flows);
    std::remove(path.c_str());

    // To htsim and back: ids, hosts, sizes and picosecond starts survive the text.
    HtsimConnectionMatrix m = FlowList::ToHtsimMatrix(flows);
    EXPECT_EQ(m.GetNNodes(), 8u);
    ASSERT_EQ(m.GetNConnections(), flows.size());
    EXPECT_EQ(m.GetConnections()[0].id, 1u);
    std::stringstream cm;
    m.Write(cm);
    HtsimConnectionMatrix parsed = HtsimConnectionMatrix::Read(cm, "gen.cm");
    EXPECT_EQ(FlowList::FromHtsimMatrix(parsed), flows);
    EXPECT_EQ(FlowList::ToHtsimMatrix(flows, 100).GetNNodes(), 100u);

    // A matrix out of start order, without ids: sorted (stably), numbered in matrix order.
    std::istringstream text("Nodes 4\nConnections 3\n0->1 start 5 size 10\n"
                            "2->3 start 1 size 20\n3->0 start 5 size 30\n");
    std::vector<FlowSpec> f = FlowList::FromHtsimMatrix(HtsimConnectionMatrix::Read(text, "m"));
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].id, 2u);
    EXPECT_EQ(f[0].start, MicroSeconds(1));
    EXPECT_EQ(f[1].id, 1u);
    EXPECT_EQ(f[2].id, 3u);
    EXPECT_EQ(f[2].sizeBytes, 30u);
}

struct BadFlowList
{
    std::string text;    //!< the file
    std::string message; //!< what the error must say
};

class FlowListBadInput : public ::testing::TestWithParam<BadFlowList>
{
};

TEST_P(FlowListBadInput, RefusedNamingFileLineAndWhatWasExpected)
{
    std::istringstream in(GetParam().text);
    std::vector<FlowSpec> flows(1);
    std::string error;
    EXPECT_FALSE(FlowList::Parse(in, "f.txt", flows, error));
    EXPECT_EQ(error.rfind("f.txt:", 0), 0u) << error;
    EXPECT_NE(error.find(GetParam().message), std::string::npos)
        << "said: " << error << "\nexpected: " << GetParam().message;
    EXPECT_EQ(flows.size(), 1u) << "the output must stay unchanged on error";
}

INSTANTIATE_TEST_SUITE_P(
    Errors,
    FlowListBadInput,
    ::testing::Values(
        BadFlowList{"0 1 100 0\n4 4 100 5\n",
                    "f.txt:2: a flow from host 4 to itself; source and destination must differ"},
        BadFlowList{"0 1 0 0\n",
                    "f.txt:1: size 0 is invalid; expected bytes in 1..18446744073709551615"},
        BadFlowList{"0 1 100\n",
                    "f.txt:1: 3 fields; expected '<src> <dst> <size in bytes> <start in ns>'"},
        BadFlowList{"0 1 100 0 7\n", "f.txt:1: 5 fields"},
        BadFlowList{"# c\n0 1 100 50\n2 3 100 49.999\n",
                    "f.txt:3: start 49.999 ns is before the previous flow's 50 ns (line 2); "
                    "flows must be in non-decreasing start order"},
        BadFlowList{"a 1 100 0\n",
                    "f.txt:1: source 'a' is not a whole number; expected 0..4294967295"},
        BadFlowList{"0 4294967296 100 0\n",
                    "f.txt:1: destination 4294967296 is out of range; expected a whole number "
                    "in 0..4294967295"},
        BadFlowList{"0 -1 100 0\n", "f.txt:1: destination -1 is negative"},
        BadFlowList{"0 1 1e6 0\n", "f.txt:1: size '1e6' is not a whole number"},
        BadFlowList{"0 1 18446744073709551616 0\n",
                    "f.txt:1: size 18446744073709551616 is out "
                    "of range"},
        BadFlowList{"0 1 100 -5\n",
                    "f.txt:1: start -5 is negative; expected nanoseconds in "
                    "0..9e15"},
        BadFlowList{"0 1 100 1e3\n", "f.txt:1: start '1e3' is not a number"},
        BadFlowList{"0 1 100 1.\n", "f.txt:1: start '1.' is not a number"},
        BadFlowList{"0 1 100 .5\n", "f.txt:1: start '.5' is not a number"},
        BadFlowList{"0 1 100 9000000000000001\n",
                    "f.txt:1: start 9000000000000001 is out of "
                    "range"}));

TEST_F(FlowWorkloadTest, BadConfigurationAbortsNamingTheValue)
{
    const FlowSizeCdf web = FlowSizeCdf::LoadShipped("websearch");
    auto g = CreateObject<FlowArrivalGenerator>();
    EXPECT_DEATH(g->SetAttribute("Load", DoubleValue(0)),
                 "ns3::FlowArrivalGenerator::Load=0 is out of range: valid range \\(0, 1\\]");
    EXPECT_DEATH(g->SetAttribute("Load", DoubleValue(1.5)),
                 "ns3::FlowArrivalGenerator::Load=1.5 is out of range");
    EXPECT_DEATH(g->SetAttribute("Load", DoubleValue(-0.2)), "Load=-0.2 is out of range");
    EXPECT_DEATH(g->SetAttribute("HostLinkRate", DataRateValue(DataRate(0))),
                 "ns3::FlowArrivalGenerator::HostLinkRate=0bps is out of range");
    EXPECT_DEATH(g->SetNHosts(1), "1 hosts is invalid; flows need >= 2 hosts");
    EXPECT_DEATH(g->Next(), "no flow-size CDF; call SetFlowSizeCdf");
    g->SetFlowSizeCdf(web);
    EXPECT_DEATH(g->Next(), "0 hosts; call SetNHosts\\(n >= 2\\)");
    g->SetNHosts(2);
    EXPECT_DEATH(g->Next(), "StopTime 0s is not after StartTime 0s");
    g->SetAttribute("StartTime", TimeValue(MilliSeconds(5)));
    g->SetAttribute("StopTime", TimeValue(MilliSeconds(5)));
    EXPECT_DEATH(g->Next(), "StopTime 5ms is not after StartTime 5ms");
    EXPECT_DEATH(g->SetFlowSizeCdf(FlowSizeCdf()), "SetFlowSizeCdf with an empty CDF");
    g->SetAttribute("StopTime", TimeValue(MilliSeconds(6)));
    g->Next();
    EXPECT_DEATH(g->SetNHosts(4), "SetNHosts after the first Next\\(\\)");
    // A CDF whose mean is below a byte cannot set a rate.
    FlowSizeCdf tiny({{0, 99, 0}, {1, 100, 0}}, "tiny");
    auto t = Poisson(4, 0.5, MilliSeconds(1), tiny);
    EXPECT_DEATH(t->Next(), "the mean flow size of tiny is 0.005 bytes");

    auto in = CreateObject<IncastGenerator>();
    EXPECT_DEATH(in->SetSenders({}), "0 senders; an incast needs N >= 1");
    EXPECT_DEATH(in->Next(), "0 senders; call SetSenders");
    in->SetSenders({1, 2, 3});
    in->SetReceiver(2);
    EXPECT_DEATH(in->Next(), "the receiver 2 is also one of the senders; a flow to itself");
    in->SetSenders({1, 3, 1});
    in->SetReceiver(0);
    EXPECT_DEATH(in->Next(), "sender 1 is listed twice");
    in->SetSenders({1, 3});
    in->SetAttribute("Rounds", UintegerValue(2));
    EXPECT_DEATH(in->Next(), "Rounds 2 with Period 0s");
    in->SetAttribute("Period", TimeValue(MicroSeconds(10)));
    in->SetAttribute("Jitter", TimeValue(MicroSeconds(11)));
    EXPECT_DEATH(in->Next(), "Jitter 11us exceeds Period 10us with Rounds 2");
    EXPECT_DEATH(in->SetAttribute("Rounds", UintegerValue(0)),
                 "ns3::IncastGenerator::Rounds=0 is out of range");
    EXPECT_DEATH(in->SetAttribute("FlowSize", UintegerValue(0)),
                 "ns3::IncastGenerator::FlowSize=0 is out of range");

    std::vector<FlowSpec> self(1);
    self[0].id = 7;
    self[0].src = 3;
    self[0].dst = 3;
    self[0].sizeBytes = 1;
    std::ostringstream os;
    EXPECT_DEATH(FlowList::Write(os, self), "flow 7 goes from host 3 to itself");
    self[0].dst = 4;
    self[0].sizeBytes = 0;
    EXPECT_DEATH(FlowList::Write(os, self), "flow 7 has size 0");
    self[0].sizeBytes = 1;
    self.push_back(self[0]);
    self[0].start = MicroSeconds(1);
    self[1].id = 8;
    EXPECT_DEATH(FlowList::Write(os, self), "flow 8 starts at 0s, before the previous flow 7");
    self[1].id = uint64_t(1) << 32;
    self[1].start = MicroSeconds(2);
    EXPECT_DEATH(FlowList::ToHtsimMatrix(self), "flow id 4294967296 is out of range");
    EXPECT_DEATH(FlowList::ToHtsimMatrix(self, 4), "flow 7 \\(3->4\\) names a host outside 0..3");
    EXPECT_DEATH(FlowList::Load("/nonexistent/f.txt"),
                 "cannot read flow-list file '/nonexistent/f.txt'");
    auto reader = CreateObject<FlowListReader>();
    EXPECT_DEATH(reader->Next(), "Next\\(\\) before Open\\(\\)");
    reader->Open(std::make_unique<std::istringstream>("0 1 5 0\n1 1 5 0\n"), "r.txt");
    EXPECT_TRUE(reader->Next().has_value());
    EXPECT_DEATH(reader->Next(), "r.txt:2: a flow from host 1 to itself");
}

} // namespace
