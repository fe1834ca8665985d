/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HtsimConnectionMatrix: htsim's connection-matrix format read (comments, blank lines, tabs,
 * CRLF, optional fields in any order, fractional start times), written back exactly, every
 * malformed input refused with its file name, line and what was expected; the generators of
 * htsim's reference patterns (single flow, N-to-1 incast, permutation as a seeded
 * derangement); UetMatrixRunner's records, percentiles and CSV on a small fat tree.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// Parse \p text named "m.cm"; the test fails unless it parses.
HtsimConnectionMatrix
ParseOk(const std::string& text)
{
    std::istringstream in(text);
    HtsimConnectionMatrix m;
    std::string error;
    EXPECT_TRUE(HtsimConnectionMatrix::Parse(in, "m.cm", m, error)) << error;
    return m;
}

/// \return the text of \p m in htsim's format
std::string
Text(const HtsimConnectionMatrix& m)
{
    std::ostringstream os;
    m.Write(os);
    return os.str();
}

/// The fields that define a connection (line numbers aside).
bool
SameConnections(const HtsimConnectionMatrix& a, const HtsimConnectionMatrix& b)
{
    if (a.GetNNodes() != b.GetNNodes() || a.GetNConnections() != b.GetNConnections())
    {
        return false;
    }
    for (uint32_t i = 0; i < a.GetNConnections(); ++i)
    {
        const HtsimConnection& x = a.GetConnections()[i];
        const HtsimConnection& y = b.GetConnections()[i];
        if (x.src != y.src || x.dst != y.dst || x.start != y.start || x.bytes != y.bytes ||
            x.id != y.id || x.priority != y.priority)
        {
            return false;
        }
    }
    return true;
}

TEST(HtsimConnectionMatrix, ReadsHtsimFilesWithOptionalFields)
{
    // htsim's own 16-node permutation file starts like this (ids, start 0, 2 MB).
    HtsimConnectionMatrix m = ParseOk("Nodes 16\nConnections 3\n7->5 id 1 start 0 size 2000000\n"
                                      "15->1 id 2 start 0 size 2000000\n"
                                      "0->13 id 3 start 0 size 2000000\n");
    ASSERT_EQ(m.GetNNodes(), 16u);
    ASSERT_EQ(m.GetNConnections(), 3u);
    EXPECT_EQ(m.GetConnections()[0].src, 7u);
    EXPECT_EQ(m.GetConnections()[0].dst, 5u);
    EXPECT_EQ(m.GetConnections()[0].id, 1u);
    EXPECT_EQ(m.GetConnections()[2].bytes, 2000000u);
    EXPECT_EQ(m.GetConnections()[2].line, 5u);

    // Comments, blank lines, tabs, CRLF, fields in any order, prio, fractional microseconds.
    m = ParseOk("# incast\r\n\r\nNodes\t4\r\nConnections 2\r\n# first\n"
                "1->0 size 100 start 12.5 prio 3\r\n  2->0\tstart 0.000001 id 9 size 7  \n");
    ASSERT_EQ(m.GetNConnections(), 2u);
    const HtsimConnection& a = m.GetConnections()[0];
    EXPECT_EQ(a.start, NanoSeconds(12500));
    EXPECT_EQ(a.bytes, 100u);
    EXPECT_EQ(a.id, 0u);
    ASSERT_TRUE(a.priority.has_value());
    EXPECT_EQ(*a.priority, 3u);
    EXPECT_EQ(a.line, 6u);
    const HtsimConnection& b = m.GetConnections()[1];
    EXPECT_EQ(b.start, PicoSeconds(1));
    EXPECT_EQ(b.id, 9u);
    EXPECT_FALSE(b.priority.has_value());
    // Zero Triggers / Failures headers are accepted (nothing to trigger or fail).
    EXPECT_EQ(ParseOk("Nodes 2\nConnections 0\nTriggers 0\nFailures 0\n").GetNConnections(), 0u);
}

// Start times are read exactly to the picosecond however large (found by the flow-list fuzz
// harness: 9000000000.000009 us went through a double and came back 2 ps off).
TEST(HtsimConnectionMatrix, LargeStartTimesAreReadToThePicosecond)
{
    std::istringstream in("Nodes 2\nConnections 3\n"
                          "0->1 start 9000000000.000009 size 1\n"
                          "1->0 start 9223372.036854775 size 1\n"
                          "0->1 start 1.0000004 size 1\n");
    HtsimConnectionMatrix m;
    std::string error;
    ASSERT_TRUE(HtsimConnectionMatrix::Parse(in, "big", m, error)) << error;
    ASSERT_EQ(m.GetConnections().size(), 3u);
    EXPECT_EQ(m.GetConnections()[0].start, PicoSeconds(9000000000000009ll));
    EXPECT_EQ(m.GetConnections()[1].start, PicoSeconds(9223372036855ll)); // 7th digit 7: up
    EXPECT_EQ(m.GetConnections()[2].start, PicoSeconds(1000000)) << "7th decimal rounds";
    std::istringstream over("Nodes 2\nConnections 1\n0->1 start 9223372036854.775808 size 1\n");
    EXPECT_FALSE(HtsimConnectionMatrix::Parse(over, "over", m, error));
    EXPECT_NE(error.find("out of range"), std::string::npos) << error;
}

TEST(HtsimConnectionMatrix, WriteThenReadIsTheSameMatrix)
{
    HtsimConnectionMatrix m(8);
    HtsimConnection c;
    c.src = 1;
    c.dst = 2;
    c.bytes = 123456789;
    c.start = PicoSeconds(1234567891); // 1234.567891 us
    c.id = 4;
    c.priority = 7;
    m.Add(c);
    c.src = 3;
    c.dst = 0;
    c.start = MicroSeconds(5);
    c.id = 0;
    c.priority.reset();
    m.Add(c);
    const std::string text = Text(m);
    EXPECT_EQ(text,
              "Nodes 8\nConnections 2\n1->2 id 4 start 1234.567891 size 123456789 prio 7\n"
              "3->0 start 5 size 123456789\n");
    HtsimConnectionMatrix back = ParseOk(text);
    EXPECT_TRUE(SameConnections(m, back));
    EXPECT_EQ(Text(back), text);

    auto rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(3);
    for (const HtsimConnectionMatrix& g : {HtsimConnectionMatrix::Permutation(1024, 2000000, rng),
                                           HtsimConnectionMatrix::Incast(16, 15, 2000000, 15),
                                           HtsimConnectionMatrix::Single(16, 2000000, 0, 15)})
    {
        HtsimConnectionMatrix r = ParseOk(Text(g));
        EXPECT_TRUE(SameConnections(g, r));
    }

    // Save and Load through a file.
    const std::string path = testing::TempDir() + "/htsim-matrix-roundtrip.cm";
    m.Save(path);
    EXPECT_TRUE(SameConnections(m, HtsimConnectionMatrix::Load(path)));
    std::remove(path.c_str());
}

struct BadMatrix
{
    std::string text;    //!< the file
    std::string message; //!< what the error must say (after "m.cm:")
};

class HtsimConnectionMatrixBadInput : public ::testing::TestWithParam<BadMatrix>
{
};

TEST_P(HtsimConnectionMatrixBadInput, RefusedNamingFileLineAndWhatWasExpected)
{
    std::istringstream in(GetParam().text);
    HtsimConnectionMatrix m(3);
    std::string error;
    EXPECT_FALSE(HtsimConnectionMatrix::Parse(in, "m.cm", m, error));
    EXPECT_EQ(error.rfind("m.cm", 0), 0u) << error;
    EXPECT_NE(error.find(GetParam().message), std::string::npos)
        << "said: " << error << "\nexpected: " << GetParam().message;
    EXPECT_EQ(m.GetNNodes(), 3u) << "the output must stay unchanged on error";
}

const std::string H = "Nodes 16\nConnections 1\n"; // header of a one-connection file

INSTANTIATE_TEST_SUITE_P(
    Errors,
    HtsimConnectionMatrixBadInput,
    ::testing::Values(
        BadMatrix{"Nodes 16\nConections 1\n",
                  "m.cm:2: unknown keyword 'Conections'; expected 'Nodes N', 'Connections C', a "
                  "connection 'src->dst start <us> size <bytes>' or a '#' comment"},
        BadMatrix{H + "0->16 start 0 size 100\n",
                  "m.cm:3: destination 16 is not a node (Nodes 16: nodes 0..15)"},
        BadMatrix{H + "16->0 start 0 size 100\n",
                  "m.cm:3: source 16 is not a node (Nodes 16: nodes 0..15)"},
        BadMatrix{H + "3->3 start 0 size 100\n",
                  "m.cm:3: a connection from node 3 to itself; source and destination must "
                  "differ"},
        BadMatrix{H + "0->1 start 0\n", "m.cm:3: connection 0->1 has no 'size <bytes>'"},
        BadMatrix{H + "0->1 size 10\n", "m.cm:3: connection 0->1 has no 'start <us>'"},
        BadMatrix{H + "0->1 start 0 size\n", "m.cm:3: field 'size' without its value"},
        BadMatrix{H + "0->1 start 0 size -5\n",
                  "m.cm:3: size -5 is negative; expected a whole number in 0.."},
        BadMatrix{H + "0->1 start 0 size 2MB\n",
                  "m.cm:3: size '2MB' is not a number; expected a whole number"},
        BadMatrix{H + "0->1 start 0 size 0\n", "m.cm:3: size 0 is invalid; expected bytes >= 1"},
        BadMatrix{H + "0->1 start 99999999999999999999999 size 1\n",
                  "m.cm:3: start 99999999999999999999999 is out of range"},
        BadMatrix{H + "0->1 start -1 size 10\n",
                  "m.cm:3: start -1 is negative; expected a time in microseconds >= 0"},
        BadMatrix{H + "0->1 start soon size 10\n",
                  "m.cm:3: start 'soon' is not a number; expected a time in microseconds"},
        BadMatrix{H + "x->1 start 0 size 10\n",
                  "m.cm:3: source 'x' is not a number; expected a whole number in "
                  "0..4294967295 in 'x->1'"},
        BadMatrix{H + "0->-1 start 0 size 10\n", "m.cm:3: destination -1 is negative"},
        BadMatrix{H + "0->1 start 0 size 10 colour red\n",
                  "m.cm:3: unknown field 'colour' in a connection; expected start <us>, size "
                  "<bytes>, id <n> or prio <n>"},
        BadMatrix{H + "0->1 start 0 start 1 size 10\n", "m.cm:3: field 'start' given twice"},
        BadMatrix{H + "0->1 id 0 start 0 size 10\n",
                  "m.cm:3: id 0 is invalid; flow ids are 1..4294967295"},
        BadMatrix{"Nodes 16\nConnections 2\n0->1 id 5 start 0 size 1\n2->3 id 5 start 0 size 1\n",
                  "m.cm:4: id 5 is already used by line 3"},
        BadMatrix{H + "0->1 trigger 1 size 10\n",
                  "m.cm:3: field 'trigger' (htsim triggers and failures are not supported"},
        BadMatrix{H + "0->1 start 0 size 10 send_done_trigger 2\n",
                  "m.cm:3: field 'send_done_trigger' (htsim triggers"},
        BadMatrix{"Nodes 16\nConnections 0\nTriggers 1\ntrigger id 1 oneshot\n",
                  "m.cm:3: 'Triggers 1' declares Triggers (htsim triggers and failures are not "
                  "supported"},
        BadMatrix{"Nodes 16\nConnections 0\nfailure switch_type CORE switch_id 0 link_id 1\n",
                  "m.cm:3: a 'failure' line (htsim triggers and failures are not supported"},
        BadMatrix{"Nodes 16\nConnections 2\n0->1 start 0 size 10\n",
                  "m.cm:2: 'Connections 2' but the file has 1 connection line"},
        BadMatrix{"Nodes 16\nConnections 1\n0->1 start 0 size 10\n1->2 start 0 size 10\n",
                  "m.cm:2: 'Connections 1' but the file has 2 connection lines"},
        BadMatrix{"Connections 1\n0->1 start 0 size 10\n",
                  "m.cm:2: a connection before the 'Nodes N' header; the header comes first"},
        BadMatrix{"Nodes 16\n0->1 start 0 size 10\nConnections 1\n",
                  "m.cm:2: a connection before the 'Connections C' header"},
        BadMatrix{H + "0->1 start 0 size 10\nNodes 16\n",
                  "m.cm:4: 'Nodes' after the first connection; the header comes first"},
        BadMatrix{"Nodes 16\nNodes 8\n", "m.cm:2: a second 'Nodes' header; it may appear once"},
        BadMatrix{"Nodes 0\nConnections 0\n",
                  "m.cm:1: Nodes 0 is invalid; expected a whole number in 1..4294967295"},
        BadMatrix{"Nodes 16 32\n", "m.cm:1: 'Nodes' needs exactly one value: 'Nodes <count>'"},
        BadMatrix{"Nodes -16\n", "m.cm:1: Nodes -16 is negative"},
        BadMatrix{"Connections 0\n", "m.cm: no 'Nodes N' header"},
        BadMatrix{"Nodes 4\n", "m.cm: no 'Connections C' header"},
        BadMatrix{"", "m.cm: no 'Nodes N' header"}));

TEST(HtsimConnectionMatrix, ReferencePatternGenerators)
{
    HtsimConnectionMatrix s = HtsimConnectionMatrix::Single(16, 2000000, 0, 15);
    ASSERT_EQ(s.GetNConnections(), 1u);
    EXPECT_EQ(Text(s), "Nodes 16\nConnections 1\n0->15 id 1 start 0 size 2000000\n");

    HtsimConnectionMatrix in = HtsimConnectionMatrix::Incast(16, 15, 2000000, 15);
    ASSERT_EQ(in.GetNConnections(), 15u);
    for (uint32_t i = 0; i < 15; ++i)
    {
        EXPECT_EQ(in.GetConnections()[i].src, i);
        EXPECT_EQ(in.GetConnections()[i].dst, 15u);
        EXPECT_EQ(in.GetConnections()[i].id, i + 1);
    }
    // The destination is skipped among the senders.
    HtsimConnectionMatrix mid = HtsimConnectionMatrix::Incast(8, 3, 10, 1);
    ASSERT_EQ(mid.GetNConnections(), 3u);
    EXPECT_EQ(mid.GetConnections()[0].src, 0u);
    EXPECT_EQ(mid.GetConnections()[1].src, 2u);
    EXPECT_EQ(mid.GetConnections()[2].src, 3u);

    // A permutation is a derangement: every node sends once and receives once, never to
    // itself; the same stream gives the same one, other streams other ones.
    auto draw = [](int64_t stream, uint32_t n) {
        auto rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(stream);
        return HtsimConnectionMatrix::Permutation(n, 2000000, rng);
    };
    std::set<std::string> distinct;
    for (int64_t stream = 0; stream < 20; ++stream)
    {
        for (uint32_t n : {2u, 3u, 16u, 1024u})
        {
            HtsimConnectionMatrix p = draw(stream, n);
            ASSERT_EQ(p.GetNConnections(), n);
            std::set<uint32_t> dsts;
            for (uint32_t i = 0; i < n; ++i)
            {
                const HtsimConnection& c = p.GetConnections()[i];
                EXPECT_EQ(c.src, i);
                EXPECT_NE(c.dst, i);
                dsts.insert(c.dst);
            }
            EXPECT_EQ(dsts.size(), n);
            if (n == 16)
            {
                distinct.insert(Text(p));
                EXPECT_EQ(Text(p), Text(draw(stream, n)));
            }
        }
        // n = 2 has only one derangement.
        EXPECT_EQ(draw(stream, 2).GetConnections()[0].dst, 1u);
    }
    EXPECT_GE(distinct.size(), 19u);
}

TEST(HtsimConnectionMatrixDeathTest, BadGeneratorArgumentsAndFilesAbort)
{
    auto rng = CreateObject<UniformRandomVariable>();
    EXPECT_DEATH(HtsimConnectionMatrix::Single(16, 10, 3, 3),
                 "3->3 is invalid; source and destination must differ and be in 0..15");
    EXPECT_DEATH(HtsimConnectionMatrix::Incast(16, 16, 10, 15),
                 "senders=16 is invalid; valid range is 1..15");
    EXPECT_DEATH(HtsimConnectionMatrix::Incast(16, 3, 10, 16), "destination 16 is not a node");
    EXPECT_DEATH(HtsimConnectionMatrix::Permutation(1, 10, rng), "nodes=1 is invalid");
    EXPECT_DEATH(HtsimConnectionMatrix::Load("no/such/file.cm"),
                 "cannot read connection matrix file 'no/such/file.cm'");
    HtsimConnectionMatrix m(4);
    HtsimConnection c;
    c.src = 0;
    c.dst = 1;
    c.bytes = 1;
    c.id = 2;
    m.Add(c);
    EXPECT_DEATH(m.Add(c), "id 2 is already used");
    c.id = 0;
    c.bytes = 0;
    EXPECT_DEATH(m.Add(c), "has size 0; valid sizes are >= 1 byte");
    std::istringstream bad("Nodes 2\nConnections 1\n0->2 start 0 size 1\n");
    EXPECT_DEATH(HtsimConnectionMatrix::Read(bad, "bad.cm"),
                 "bad.cm:3: destination 2 is not a node \\(Nodes 2: nodes 0..1\\)");
}

class UetMatrixRunnerTest : public test::SimTest
{
};

/// Three WRITEs on a k = 2 fat tree (2 hosts, through the single core): each completes, its
/// FCT is its completion minus its start, later starts complete later, and the summary and
/// CSV report them.
TEST_F(UetMatrixRunnerTest, RecordsFlowsPercentilesAndCsv)
{
    auto t = CreateObject<FatTreeTopologyHelper>();
    t->SetAttribute("K", UintegerValue(2));
    t->Install();
    ASSERT_EQ(t->GetNHosts(), 2u);
    HtsimConnectionMatrix m = ParseOk("Nodes 2\nConnections 3\n0->1 id 7 start 0 size 100000\n"
                                      "1->0 start 10 size 4096\n0->1 start 500 size 1\n");
    UetMatrixRunner run(m, t->GetUetNicHelper().CreateEndpoints({t->GetHost(0), t->GetHost(1)}, 1));
    run.Start();
    Simulator::Run();
    ASSERT_TRUE(run.AllCompleted());
    const auto& f = run.GetFlows();
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].id, 7u);
    EXPECT_EQ(f[1].id, 2u); // no id in the file: its position
    EXPECT_EQ(f[1].start, MicroSeconds(10));
    EXPECT_EQ(f[2].start, MicroSeconds(500));
    for (const auto& r : f)
    {
        EXPECT_TRUE(r.done && r.ok) << r.error;
        EXPECT_GT(r.GetFct(), MicroSeconds(12)); // 6 cables of 1 us each way
    }
    // A 1-byte WRITE on an idle fabric: one RTT with a short data frame.
    EXPECT_LT(f[2].GetFct(), t->GetMaxUnloadedRtt());
    const UetFctSummary s = run.GetSummary();
    EXPECT_EQ(s.flows, 3u);
    EXPECT_EQ(s.completed, 3u);
    EXPECT_EQ(s.failed, 0u);
    EXPECT_EQ(s.max, f[0].GetFct()); // 100 kB
    EXPECT_EQ(s.min, f[2].GetFct());
    EXPECT_EQ(s.median, f[1].GetFct()); // nearest rank: the 2nd of 3
    EXPECT_EQ(s.p99, s.max);
    EXPECT_EQ(s.lastEnd, f[2].end);
    std::ostringstream csv;
    run.WriteCsv(csv);
    std::istringstream lines(csv.str());
    std::string header;
    std::string first;
    std::getline(lines, header);
    std::getline(lines, first);
    EXPECT_EQ(header, "id,src,dst,size_B,start_us,end_us,fct_us,status");
    EXPECT_EQ(first.rfind("7,0,1,100000,0.000,", 0), 0u) << first;
    EXPECT_EQ(first.substr(first.size() - 3), ",ok");
}

TEST_F(UetMatrixRunnerTest, MatricesThatDoNotFitAbort)
{
    auto t = CreateObject<FatTreeTopologyHelper>();
    t->SetAttribute("K", UintegerValue(2));
    t->Install();
    auto eps = t->GetUetNicHelper().CreateEndpoints({t->GetHost(0), t->GetHost(1)}, 1);
    EXPECT_DEATH(UetMatrixRunner(HtsimConnectionMatrix::Single(3, 10, 0, 2), eps),
                 "the matrix has 3 nodes but only 2 endpoints");
    EXPECT_DEATH(UetMatrixRunner(ParseOk("Nodes 2\nConnections 1\n0->1 start 0 size "
                                         "4294967296\n"),
                                 eps),
                 "connection 0->1 \\(line 3\\) has size 4294967296; valid range is "
                 "1..4294967295");
}

} // namespace
