/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The doc's tutorial program (examples/tutorial-first-experiment.cc) runs and writes the CSV
 * the tutorial describes: one row per AllReduce size, times growing with size, busbw growing
 * towards and never above the analytical bottleneck it states.
 */
#include "test-util.h"

#include <cstdlib>

using namespace ns3;

namespace
{

std::string
Tutorial()
{
#ifdef AI_FABRIC_TUTORIAL
    return AI_FABRIC_TUTORIAL; // the tutorial's binary, from CMake
#else
    return "";
#endif
}

TEST(Tutorial, FirstExperimentWritesItsCsv)
{
    if (Tutorial().empty())
    {
        GTEST_SKIP() << "tutorial path unknown in this build mode";
    }
    int status = 0;
    std::string out = test::RunCommand(Tutorial() + " --csv=tutorial-test.csv 2>&1", &status);
    ASSERT_EQ(status, 0) << out;
    EXPECT_NE(out.find("3 AllReduce collectives on 8 GPUs"), std::string::npos) << out;

    auto rows = test::ReadCsv("tutorial-test.csv");
    ASSERT_EQ(rows.size(), 3u); // 1, 4 and 16 MiB
    // 4 rails x one 400 Gb/s NIC's RoCE payload rate (4096 of every 4178 bytes on the wire).
    const double bound = 4 * 400e9 / 8 * 4096 / 4178 / 1e9;
    double previousTime = 0;
    double previousBusbw = 0;
    uint64_t bytes = 1 << 20;
    for (const auto& r : rows)
    {
        EXPECT_EQ(std::stoull(r.at("bytes")), bytes);
        double time = std::stod(r.at("time_us"));
        double busbw = std::stod(r.at("busbw_GBps"));
        EXPECT_NEAR(std::stod(r.at("bound_GBps")), bound, 1e-3);
        EXPECT_GT(time, previousTime) << bytes;
        // busbw = S / t x 2(n-1)/n with n = 8 ranks (nccl-tests' AllReduce factor).
        EXPECT_NEAR(busbw, bytes / (time * 1e-6) / 1e9 * 2 * 7 / 8, 1e-3 * busbw) << bytes;
        EXPECT_GT(busbw, previousBusbw) << bytes;
        EXPECT_LE(busbw, bound) << bytes;
        // Counters are whole numbers of events.
        EXPECT_GE(std::stoll(r.at("ecn_marks")), 0);
        EXPECT_GE(std::stoll(r.at("pfc_pauses")), 0);
        previousTime = time;
        previousBusbw = busbw;
        bytes *= 4;
    }
    // At 16 MiB the rings are past their per-step latencies: most of the bottleneck.
    EXPECT_GE(previousBusbw, 0.5 * bound) << previousBusbw << " GB/s vs " << bound;
}

TEST(Tutorial, RefusesASingleServer)
{
    if (Tutorial().empty())
    {
        GTEST_SKIP() << "tutorial path unknown in this build mode";
    }
    int status = 0;
    std::string out =
        test::RunCommand(Tutorial() + " --servers=1 --csv=tutorial-bad.csv 2>&1", &status);
    EXPECT_EQ(status, 2) << out; // an input error: status 2, one line (FabricCommandLine)
    EXPECT_NE(out.find("tutorial-first-experiment: error: --servers=1 is invalid; valid range "
                       "is >= 2"),
              std::string::npos)
        << out;
}

} // namespace
