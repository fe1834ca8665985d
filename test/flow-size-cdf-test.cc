/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FlowSizeCdf: the workload CDF format read (comments, blank lines, tabs, CRLF, exponents),
 * every malformed file refused with its name, line and what was expected; sampling by linear
 * interpolation (hand-computed points, rounding, the atom of the first point, 1 byte minimum);
 * the analytic mean against hand computations and against 100,000 samples; percentiles and
 * the CDF as inverses; the three shipped workloads found by name.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace ns3;

namespace
{

/// Parse \p text named "w.cdf"; the test fails unless it parses.
FlowSizeCdf
ParseOk(const std::string& text)
{
    std::istringstream in(text);
    FlowSizeCdf cdf;
    std::string error;
    EXPECT_TRUE(FlowSizeCdf::Parse(in, "w.cdf", cdf, error)) << error;
    return cdf;
}

/// The second moment E[X^2] of a piecewise-linear CDF, bytes^2 (uniform on each segment).
double
SecondMoment(const FlowSizeCdf& cdf)
{
    const auto& p = cdf.GetPoints();
    double m2 = p[0].sizeBytes * p[0].sizeBytes * p[0].percent / 100;
    for (std::size_t i = 1; i < p.size(); ++i)
    {
        const double a = p[i - 1].sizeBytes;
        const double b = p[i].sizeBytes;
        m2 += (p[i].percent - p[i - 1].percent) / 100 * (a * a + a * b + b * b) / 3;
    }
    return m2;
}

TEST(FlowSizeCdf, ReadsTheFormatWithCommentsTabsAndCrlf)
{
    FlowSizeCdf cdf = ParseOk("# a comment\r\n\r\n0 0\r\n  1e3\t25.5  \n# another\n4000 100\n");
    ASSERT_EQ(cdf.GetPoints().size(), 3u);
    EXPECT_EQ(cdf.GetPoints()[1].sizeBytes, 1000);
    EXPECT_EQ(cdf.GetPoints()[1].percent, 25.5);
    EXPECT_EQ(cdf.GetPoints()[1].line, 4u);
    EXPECT_EQ(cdf.GetPoints()[2].line, 6u);
    EXPECT_EQ(cdf.GetSource(), "w.cdf");
    EXPECT_FALSE(cdf.IsEmpty());
    EXPECT_TRUE(FlowSizeCdf().IsEmpty());
}

// Sample(u) = round(GetPercentile(100 u)), at least 1 byte; worked by hand on
// 0 0 / 100 50 / 300 100: sizes uniform on [0, 100] with probability 1/2, on [100, 300] with 1/2.
TEST(FlowSizeCdf, SamplesByLinearInterpolation)
{
    FlowSizeCdf cdf = ParseOk("0 0\n100 50\n300 100\n");
    EXPECT_EQ(cdf.Sample(0.25), 50u);  // 25 % of the way: half of [0, 100]
    EXPECT_EQ(cdf.Sample(0.5), 100u);  // the first point reaching 50 %
    EXPECT_EQ(cdf.Sample(0.75), 200u); // half of [100, 300]
    EXPECT_EQ(cdf.Sample(0.99), 296u); // 100 + 200 * 49/50
    EXPECT_EQ(cdf.Sample(0.0), 1u);    // size 0 becomes the 1-byte minimum
    EXPECT_EQ(cdf.Sample(0.001), 1u);  // 0.2 bytes rounds to 0, then 1
    EXPECT_DOUBLE_EQ(cdf.GetPercentile(25), 50);
    EXPECT_DOUBLE_EQ(cdf.GetPercentile(100), 300);
    EXPECT_DOUBLE_EQ(cdf.GetCdf(50), 25);
    EXPECT_DOUBLE_EQ(cdf.GetCdf(200), 75);
    EXPECT_DOUBLE_EQ(cdf.GetCdf(-1), 0);
    EXPECT_DOUBLE_EQ(cdf.GetCdf(1e9), 100);
    // Mean: 1/2 * 50 + 1/2 * 200 = 125 bytes.
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 125);

    // Rounding to the nearest byte, halves up: [10, 11] at u = 0.5 is 10.5 -> 11.
    FlowSizeCdf unit = ParseOk("10 0\n11 100\n");
    EXPECT_EQ(unit.Sample(0.5), 11u);
    EXPECT_EQ(unit.Sample(0.25), 10u); // 10.25
    EXPECT_EQ(unit.Sample(0.75), 11u); // 10.75

    // The first point's percent is an atom at its size: 40 % exactly 1000 bytes, the rest
    // uniform on [1000, 2000]. Mean: 0.4 * 1000 + 0.6 * 1500 = 1300 bytes.
    FlowSizeCdf atom = ParseOk("1000 40\n2000 100\n");
    EXPECT_EQ(atom.Sample(0.1), 1000u);
    EXPECT_EQ(atom.Sample(0.3999), 1000u);
    EXPECT_EQ(atom.Sample(0.7), 1500u);
    EXPECT_DOUBLE_EQ(atom.GetMean(), 1300);
    EXPECT_DOUBLE_EQ(atom.GetMinSize(), 1000);
    EXPECT_DOUBLE_EQ(atom.GetMaxSize(), 2000);

    // Flat stretches carry no probability: nothing between 100 and 200, nothing after 300.
    FlowSizeCdf flat = ParseOk("0 0\n50 0\n100 50\n200 50\n300 100\n400 100\n");
    EXPECT_DOUBLE_EQ(flat.GetMinSize(), 50);
    EXPECT_DOUBLE_EQ(flat.GetMaxSize(), 300);
    EXPECT_EQ(flat.Sample(0.5), 100u);
    EXPECT_EQ(flat.Sample(0.5000001), 200u);
    // 0.5 * 75 + 0.5 * 250
    EXPECT_DOUBLE_EQ(flat.GetMean(), 162.5);
}

// The means of the shipped files, by hand (sum over segments of probability x midpoint):
//  websearch: 0.15*5e3 + 0.05*15e3 + 0.10*25e3 + 0.10*40e3 + 0.13*65e3 + 0.07*140e3
//             + 0.10*600e3 + 0.10*1.5e6 + 0.10*3.5e6 + 0.07*7.5e6 + 0.03*20e6 = 1,711,250 B
//  fb-hadoop: 120,420.75 B;  alistorage: 40,869.8 B (same sum, checked with Python).
TEST(FlowSizeCdf, ShippedWorkloadsHaveTheirHandComputedMeans)
{
    EXPECT_EQ(FlowSizeCdf::GetShippedNames(),
              (std::vector<std::string>{"alistorage", "fb-hadoop", "websearch"}));
    FlowSizeCdf web = FlowSizeCdf::LoadShipped("websearch");
    ASSERT_EQ(web.GetPoints().size(), 12u);
    EXPECT_NEAR(web.GetMean(), 1711250, 1e-6);
    EXPECT_NEAR(web.GetPercentile(50), 50000 + 30000 * 10.0 / 13, 1e-6); // 73,076.9
    EXPECT_DOUBLE_EQ(web.GetPercentile(15), 10000);
    EXPECT_DOUBLE_EQ(web.GetMaxSize(), 30000000);
    EXPECT_DOUBLE_EQ(web.GetMinSize(), 0);
    EXPECT_NEAR(FlowSizeCdf::LoadShipped("fb-hadoop").GetMean(), 120420.75, 1e-6);
    EXPECT_NEAR(FlowSizeCdf::LoadShipped("alistorage").GetMean(), 40869.8, 1e-6);
    const std::string path = FlowSizeCdf::GetShippedPath("fb-hadoop");
    EXPECT_EQ(path.substr(path.size() - 14), "/fb-hadoop.cdf");
    EXPECT_EQ(FlowSizeCdf::Load(path).GetPoints().size(), 20u);
}

// 100,000 samples through an ns-3 stream: their mean is within 5 standard errors of the
// analytic mean (standard error from the analytic second moment), for each shipped workload.
TEST(FlowSizeCdf, EmpiricalMeanOfSamplesMatchesGetMean)
{
    for (const std::string& name : FlowSizeCdf::GetShippedNames())
    {
        FlowSizeCdf cdf = FlowSizeCdf::LoadShipped(name);
        auto u = CreateObject<UniformRandomVariable>();
        u->SetStream(11);
        const int n = 100000;
        double sum = 0;
        for (int i = 0; i < n; ++i)
        {
            sum += static_cast<double>(cdf.Sample(u->GetValue(0, 1)));
        }
        const double mean = cdf.GetMean();
        const double sd = std::sqrt(SecondMoment(cdf) - mean * mean);
        const double se = sd / std::sqrt(double(n));
        EXPECT_NEAR(sum / n, mean, 5 * se) << name;
        // And within a few percent, the looser statement of the same.
        EXPECT_NEAR(sum / n / mean, 1.0, 0.03) << name;
    }
}

TEST(FlowSizeCdf, PercentileAndCdfAreInverses)
{
    FlowSizeCdf web = FlowSizeCdf::LoadShipped("websearch");
    for (double p = 0.5; p < 100; p += 0.5)
    {
        EXPECT_NEAR(web.GetCdf(web.GetPercentile(p)), p, 1e-9) << p;
    }
    // Monotone.
    double prev = -1;
    for (double p = 0; p <= 100; p += 0.25)
    {
        EXPECT_GE(web.GetPercentile(p), prev);
        prev = web.GetPercentile(p);
    }
}

TEST(FlowSizeCdf, WriteThenParseGivesTheSamePoints)
{
    FlowSizeCdf a = ParseOk("0 0\n0.1 1e-3\n12345.678 33.333333333333336\n9007199254740992 100\n");
    std::ostringstream os;
    a.Write(os);
    FlowSizeCdf b = ParseOk(os.str());
    ASSERT_EQ(a.GetPoints().size(), b.GetPoints().size());
    for (std::size_t i = 0; i < a.GetPoints().size(); ++i)
    {
        EXPECT_EQ(a.GetPoints()[i].sizeBytes, b.GetPoints()[i].sizeBytes);
        EXPECT_EQ(a.GetPoints()[i].percent, b.GetPoints()[i].percent);
    }
    EXPECT_EQ(a.GetMean(), b.GetMean());
    // Built from points directly (no lines).
    FlowSizeCdf c({{0, 0, 0}, {100, 50, 0}, {300, 100, 0}}, "mine");
    EXPECT_DOUBLE_EQ(c.GetMean(), 125);
    EXPECT_EQ(c.GetSource(), "mine");
}

// A user file in the same format, and the shipped path through AI_FABRIC_WORKLOAD_DIR.
TEST(FlowSizeCdf, LoadsUserFilesAndHonoursTheWorkloadDirVariable)
{
    const std::string dir = testing::TempDir();
    const std::string path = dir + "/websearch.cdf";
    {
        std::ofstream f(path);
        f << "100 0\n200 100\n";
    }
    EXPECT_DOUBLE_EQ(FlowSizeCdf::Load(path).GetMean(), 150);
    setenv("AI_FABRIC_WORKLOAD_DIR", dir.c_str(), 1);
    EXPECT_EQ(FlowSizeCdf::GetShippedPath("websearch"), path);
    EXPECT_DOUBLE_EQ(FlowSizeCdf::LoadShipped("websearch").GetMean(), 150);
    // A folder without the file falls back to the shipped one.
    EXPECT_NEAR(FlowSizeCdf::LoadShipped("alistorage").GetMean(), 40869.8, 1e-6);
    unsetenv("AI_FABRIC_WORKLOAD_DIR");
    EXPECT_NEAR(FlowSizeCdf::LoadShipped("websearch").GetMean(), 1711250, 1e-6);
    std::remove(path.c_str());
}

struct BadCdf
{
    std::string text;    //!< the file
    std::string message; //!< what the error must say
};

class FlowSizeCdfBadInput : public ::testing::TestWithParam<BadCdf>
{
};

TEST_P(FlowSizeCdfBadInput, RefusedNamingFileLineAndWhatWasExpected)
{
    std::istringstream in(GetParam().text);
    FlowSizeCdf cdf({{1, 0, 0}, {2, 100, 0}}, "before");
    std::string error;
    EXPECT_FALSE(FlowSizeCdf::Parse(in, "w.cdf", cdf, error));
    EXPECT_EQ(error.rfind("w.cdf", 0), 0u) << error;
    EXPECT_NE(error.find(GetParam().message), std::string::npos)
        << "said: " << error << "\nexpected: " << GetParam().message;
    EXPECT_EQ(cdf.GetSource(), "before") << "the output must stay unchanged on error";
}

INSTANTIATE_TEST_SUITE_P(
    Errors,
    FlowSizeCdfBadInput,
    ::testing::Values(
        BadCdf{"0 0\n10k 50\n20000 100\n",
               "w.cdf:2: size '10k' is not a number; expected bytes in 0..2^53"},
        BadCdf{"0 0\n1000 half\n2000 100\n",
               "w.cdf:2: percent 'half' is not a number; expected 0..100"},
        BadCdf{"0 0\n1000 nan\n", "w.cdf:2: percent 'nan' is not a number"},
        BadCdf{"0 0\n0x10 50\n", "w.cdf:2: size '0x10' is not a number"},
        BadCdf{"0 0\n1e999 100\n", "w.cdf:2: size '1e999' is not a number"},
        BadCdf{"0 0\n1000\n",
               "w.cdf:2: 1 field; expected '<flow size in bytes> <cumulative "
               "percent>'"},
        BadCdf{"0 0 0\n", "w.cdf:1: 3 fields; expected"},
        BadCdf{"0 0\n300 20\n300 40\n500 100\n",
               "w.cdf:3: size 300 is not above the previous point's 300 (line 2); sizes must "
               "ascend strictly"},
        BadCdf{"# header\n0 0\n500 20\n300 40\n600 100\n",
               "w.cdf:4: size 300 is not above the previous point's 500 (line 3)"},
        BadCdf{"0 0\n100 50\n200 40\n300 100\n",
               "w.cdf:3: percent 40 is below the previous point's 50 (line 2); a cumulative "
               "percent cannot decrease"},
        BadCdf{"0 0\n100 101\n",
               "w.cdf:2: percent 101 is out of range; expected a cumulative "
               "percent in 0..100"},
        BadCdf{"0 -1\n100 100\n", "w.cdf:1: percent -1 is out of range"},
        BadCdf{"-5 0\n100 100\n",
               "w.cdf:1: size -5 is out of range; expected bytes in "
               "0..9007199254740992 (2^53)"},
        BadCdf{"0 0\n1e16 100\n", "w.cdf:2: size 1e+16 is out of range"},
        BadCdf{"0 0\n100 50\n200 99.9\n",
               "w.cdf:3: the last point's percent is 99.9; a CDF must end at 100"},
        BadCdf{"100 100\n", "w.cdf: 1 point; a CDF needs at least 2 lines"},
        BadCdf{"# nothing\n\n", "w.cdf: 0 points; a CDF needs at least 2 lines"},
        BadCdf{"", "w.cdf: 0 points"}));

TEST(FlowSizeCdfDeathTest, BadUseAbortsNamingTheValue)
{
    FlowSizeCdf web = FlowSizeCdf::LoadShipped("websearch");
    EXPECT_DEATH(web.Sample(1.0),
                 "FlowSizeCdf::Sample: u=1 is out of range; valid range \\[0, 1\\)");
    EXPECT_DEATH(web.Sample(-0.1), "u=-0.1 is out of range");
    EXPECT_DEATH(web.GetPercentile(100.5),
                 "percent=100.5 is out of range; valid range \\[0, 100\\]");
    EXPECT_DEATH(FlowSizeCdf().Sample(0.5), "FlowSizeCdf::Sample: the distribution is empty");
    EXPECT_DEATH(FlowSizeCdf().GetMean(), "FlowSizeCdf::GetMean: the distribution is empty");
    EXPECT_DEATH(FlowSizeCdf::GetShippedPath("websurch"),
                 "'websurch' is not a shipped workload; valid names: alistorage, fb-hadoop, "
                 "websearch");
    EXPECT_DEATH(FlowSizeCdf::Load("/nonexistent/x.cdf"),
                 "cannot read flow-size CDF file '/nonexistent/x.cdf'");
    std::istringstream bad("0 0\n5 50\n");
    EXPECT_DEATH(FlowSizeCdf::Read(bad, "b.cdf"), "b.cdf:2: the last point's percent is 50");
    EXPECT_DEATH(FlowSizeCdf({{0, 0, 0}, {0, 100, 0}}, "pts"),
                 "pts: point 2: size 0 is not above the previous point's 0 \\(point 1\\)");
}

} // namespace
