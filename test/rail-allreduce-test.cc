/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The main job end to end at small scale: examples/rail-allreduce on 2 servers x 4 GPUs.
 * Its outputs parse, busbw grows with size until it saturates near the analytical bottleneck,
 * and a real nccl-tests log is put next to it.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <fstream>
#include <map>
#include <sstream>

using namespace ns3;

namespace
{

std::string
Example()
{
#ifdef AI_FABRIC_RAIL_ALLREDUCE
    return AI_FABRIC_RAIL_ALLREDUCE; // the example's binary, from CMake
#else
    return "";
#endif
}

std::string
RealLog()
{
    for (std::string p : {"../../../shared/data/nccl-tests/h100-4x8-ib400g-all_reduce_perf.txt",
                          "/work/shared/data/nccl-tests/h100-4x8-ib400g-all_reduce_perf.txt"})
    {
        if (std::ifstream(p).good())
        {
            return p;
        }
    }
    return "";
}

/// Rows of a CSV file as column -> value maps.
std::vector<std::map<std::string, std::string>>
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::map<std::string, std::string>> rows;
    std::string line;
    std::vector<std::string> header;
    auto split = [](const std::string& l) {
        std::vector<std::string> f;
        std::stringstream ss(l);
        for (std::string x; std::getline(ss, x, ',');)
        {
            f.push_back(x);
        }
        if (!l.empty() && l.back() == ',')
        {
            f.emplace_back();
        }
        return f;
    };
    if (std::getline(in, line))
    {
        header = split(line);
    }
    while (std::getline(in, line))
    {
        auto f = split(line);
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < header.size() && i < f.size(); ++i)
        {
            row[header[i]] = f[i];
        }
        rows.push_back(row);
    }
    return rows;
}

TEST(RailAllReduce, SmallClusterSweepEndToEnd)
{
    if (Example().empty())
    {
        GTEST_SKIP() << "example path unknown in this build mode";
    }
    std::string log = RealLog();
    ASSERT_FALSE(log.empty()) << "shared/data/nccl-tests log not found";
    int status = 0;
    std::string out = test::RunCommand(Example() +
                                           " --servers=2 --gpus-per-server=4 --min-bytes=1048576"
                                           " --max-bytes=67108864 --factor=4 --prefix=ra-test"
                                           " --measured=" +
                                           log + " 2>/dev/null",
                                       &status);
    ASSERT_EQ(status, 0) << out;

    // The printed table is nccl-tests format.
    std::istringstream table(out);
    std::vector<NcclTestsRow> printed;
    std::string error;
    ASSERT_TRUE(NcclTestsFormat::Parse(table, "stdout", printed, &error)) << error;
    ASSERT_EQ(printed.size(), 4u); // 1, 4, 16, 64 MiB

    auto rows = ReadCsv("ra-test-results.csv");
    ASSERT_EQ(rows.size(), 4u);
    // Analytical bottleneck: one ring per rail (4 channels), each limited by a 400 Gb/s NIC's
    // RoCE payload rate: 4 x 400e9 x 4096 / (4096 + 82) / 8 bytes/s.
    const double bound = 4 * 400e9 * 4096 / 4178 / 8 / 1e9;
    double previous = 0;
    for (const auto& r : rows)
    {
        double busbw = std::stod(r.at("busbw_GBps"));
        EXPECT_GT(busbw, 0);
        EXPECT_GE(busbw, 0.98 * previous) << "busbw fell at " << r.at("bytes") << " B";
        EXPECT_LE(busbw, bound) << r.at("bytes");
        previous = busbw;
        // Every size is in the real log: its busbw is copied next to ours.
        EXPECT_FALSE(r.at("measured_busbw_GBps").empty()) << r.at("bytes");
    }
    EXPECT_GE(previous, 0.8 * bound) << previous << " GB/s vs bottleneck " << bound;
    EXPECT_DOUBLE_EQ(std::stod(rows[0].at("measured_busbw_GBps")), 24.73);

    auto fabric = ReadCsv("ra-test-fabric.csv");
    ASSERT_FALSE(fabric.empty());
    double nvUtil = 0;
    uint64_t drops = 0;
    for (const auto& r : fabric)
    {
        drops += std::stoull(r.at("drops"));
        if (r.at("element") == "nvswitch")
        {
            nvUtil = std::max(nvUtil, std::stod(r.at("utilization")));
        }
    }
    EXPECT_EQ(drops, 0u);
    EXPECT_GT(nvUtil, 0); // intra-server hops went over NVLink
}

TEST(RailAllReduce, RejectsAMalformedMeasuredLog)
{
    if (Example().empty())
    {
        GTEST_SKIP() << "example path unknown in this build mode";
    }
    {
        std::ofstream bad("ra-bad-log.txt");
        bad << "# nccl-tests\n     1024  256  float  sum  -1  oops\n";
    }
    int status = 0;
    std::string err = test::RunCommand(Example() + " --servers=2 --gpus-per-server=2"
                                                   " --measured=ra-bad-log.txt 2>&1",
                                       &status);
    EXPECT_NE(status, 0);
    EXPECT_NE(err.find("ra-bad-log.txt:2:"), std::string::npos) << err;
}

} // namespace
