/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The nccl-tests log parser on a real measured log, round trips, and malformed input.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <fstream>
#include <limits>
#include <sstream>

using namespace ns3;

namespace
{

TEST(NcclTestsFormat, ParsesTheRealH100Log)
{
    std::string path = test::MeasuredH100Log();
    ASSERT_TRUE(std::ifstream(path).good()) << "the project's measured log is missing: " << path;
    auto rows = NcclTestsFormat::ParseFileOrAbort(path);
    ASSERT_EQ(rows.size(), 32u); // 8 B .. 16 GiB, factor 2
    EXPECT_EQ(rows.front().sizeBytes, 8u);
    EXPECT_EQ(rows.front().count, 2u);
    EXPECT_EQ(rows.front().type, "float");
    EXPECT_EQ(rows.front().redop, "sum");
    EXPECT_EQ(rows.front().root, -1);
    EXPECT_DOUBLE_EQ(rows.front().outOfPlace.timeUs, 83.42);
    const auto& big = rows.back();
    EXPECT_EQ(big.sizeBytes, 17179869184u);
    EXPECT_DOUBLE_EQ(big.outOfPlace.timeUs, 90986);
    EXPECT_DOUBLE_EQ(big.outOfPlace.algbwGBs, 188.82);
    EXPECT_DOUBLE_EQ(big.outOfPlace.busbwGBs, 365.84);
    EXPECT_DOUBLE_EQ(big.inPlace.busbwGBs, 365.46);
    EXPECT_EQ(big.inPlace.wrong, 0);
    for (const auto& r : rows)
    {
        // busbw = algbw x 2(n-1)/n with n = 32, within the printed rounding (both columns
        // are rounded to 0.01: 0.005 x 1.94 + 0.005).
        EXPECT_NEAR(r.outOfPlace.busbwGBs,
                    r.outOfPlace.algbwGBs * NcclTestsFormat::BusBwFactor("allreduce", 32),
                    0.015);
    }
}

TEST(NcclTestsFormat, WriteThenParseRoundTrips)
{
    auto rows = NcclTestsFormat::ParseFileOrAbort(test::MeasuredH100Log());
    std::stringstream ss;
    NcclTestsFormat::Write(ss, rows);
    std::vector<NcclTestsRow> back;
    std::string error;
    ASSERT_TRUE(NcclTestsFormat::Parse(ss, "written", back, &error)) << error;
    ASSERT_EQ(back.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        EXPECT_EQ(back[i].sizeBytes, rows[i].sizeBytes);
        EXPECT_EQ(back[i].count, rows[i].count);
        EXPECT_EQ(back[i].type, rows[i].type);
        EXPECT_DOUBLE_EQ(back[i].outOfPlace.timeUs, rows[i].outOfPlace.timeUs) << i;
        EXPECT_DOUBLE_EQ(back[i].outOfPlace.busbwGBs, rows[i].outOfPlace.busbwGBs);
        EXPECT_DOUBLE_EQ(back[i].inPlace.algbwGBs, rows[i].inPlace.algbwGBs);
        EXPECT_EQ(back[i].inPlace.wrong, rows[i].inPlace.wrong);
    }
}

/// Found by test/fuzz/nccl-tests-format-fuzz (corpus regression-type-wider-than-its-column): a
/// value as wide as its column ran into the previous column, so Write()'s output did not parse
/// back. Values that fit keep nccl-tests' exact layout.
TEST(NcclTestsFormat, WriteKeepsValuesWiderThanTheirColumnApart)
{
    NcclTestsRow wide;
    wide.sizeBytes = 18446744073709551615u; // 20 digits in a 12-wide column
    wide.count = 12345678901234567890u;
    wide.type = "float_with_a_long_name";
    wide.redop = "sum_long";
    wide.root = std::numeric_limits<int64_t>::min();
    wide.outOfPlace = {123456789.0, 1234567.5, 7654321.25, 1234567890123};
    wide.inPlace = {0.5, 0, 0, -1};
    std::stringstream ss;
    NcclTestsFormat::Write(ss, {wide});
    std::vector<NcclTestsRow> back;
    std::string error;
    ASSERT_TRUE(NcclTestsFormat::Parse(ss, "written", back, &error)) << error << "\n" << ss.str();
    ASSERT_EQ(back.size(), 1u);
    const NcclTestsRow& r = back[0];
    EXPECT_EQ(r.sizeBytes, wide.sizeBytes);
    EXPECT_EQ(r.count, wide.count);
    EXPECT_EQ(r.type, wide.type);
    EXPECT_EQ(r.redop, wide.redop);
    EXPECT_EQ(r.root, wide.root);
    EXPECT_EQ(r.outOfPlace.timeUs, wide.outOfPlace.timeUs);
    EXPECT_EQ(r.outOfPlace.algbwGBs, wide.outOfPlace.algbwGBs);
    EXPECT_EQ(r.outOfPlace.busbwGBs, wide.outOfPlace.busbwGBs);
    EXPECT_EQ(r.outOfPlace.wrong, wide.outOfPlace.wrong);
    EXPECT_EQ(r.inPlace.timeUs, wide.inPlace.timeUs);
    EXPECT_EQ(r.inPlace.wrong, -1);

    // A row of ordinary widths is written exactly as nccl-tests prints it.
    NcclTestsRow small;
    small.sizeBytes = 8;
    small.count = 2;
    small.type = "float";
    small.redop = "sum";
    small.root = -1;
    small.outOfPlace = {83.42, 0, 0, 0};
    small.inPlace = {3109.04, 172.68, 334.58, -1};
    std::stringstream line;
    NcclTestsFormat::Write(line, {small});
    std::string text = line.str();
    text = text.substr(text.rfind('\n', text.size() - 2) + 1);
    EXPECT_EQ(text,
              "           8             2     float     sum      -1    83.42    0.00    0.00      0"
              "   3109.0  172.68  334.58    N/A\n");
}

TEST(NcclTestsFormat, RejectsMalformedInputWithALineNumber)
{
    auto parse = [](const std::string& text) {
        std::istringstream in(text);
        std::vector<NcclTestsRow> rows;
        std::string error;
        bool ok = NcclTestsFormat::Parse(in, "log", rows, &error);
        return ok ? std::string("OK") : error;
    };
    std::string good = "# header\n"
                       "  1024  256  float  sum  -1  39.79  0.03  0.05  0  37.10  0.03  0.05  0\n";
    EXPECT_EQ(parse(good), "OK");
    EXPECT_EQ(parse("# only comments\n#\n"), "log:2: no data rows: not an nccl-tests log");
    EXPECT_EQ(parse(good + "garbage line\n"),
              "log:3: expected a data row of 13 fields (size count type redop root, then time "
              "algbw busbw #wrong out-of-place and in-place), got 2 fields");
    EXPECT_EQ(parse(good + " 2048 512 float sum -1 abc 0.05 0.10 0 40.03 0.05 0.10 0\n"),
              "log:3: out-of-place time \"abc\" is not a non-negative number");
    EXPECT_EQ(parse(" -8 2 float sum -1 1 0 0 0 1 0 0 0\n"),
              "log:1: size \"-8\" is not a byte count");
    EXPECT_EQ(parse(" 8 2 float sum -1 1 0 0 0 1 0 0 x\n"),
              "log:1: in-place #wrong \"x\" is neither a count nor N/A");
    EXPECT_EQ(parse(" 8 2 float sum -1 1 0 0 N/A 1 0 0 N/A\nNCCL version 2.26\n"), "OK");
    EXPECT_DEATH(NcclTestsFormat::ParseFileOrAbort("/nonexistent/log.txt"),
                 "cannot read nccl-tests log \"/nonexistent/log.txt\"");
    EXPECT_DEATH(NcclTestsFormat::BusBwFactor("scan", 8), "collective \"scan\" is unknown");
}

} // namespace
