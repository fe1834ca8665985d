/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The examples refuse bad command-line input at once, naming the option and its valid range,
 * instead of hanging (a zero sampling interval rescheduled itself forever at t=0) or printing
 * nonsense. Each run is bounded by `timeout`, so a regression fails instead of hanging.
 */
#include "test-util.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace
{

/// \return the directory of the example binaries (empty when this build mode has none)
std::string
ExamplesDir()
{
#ifdef AI_FABRIC_EXAMPLES_BIN_DIR
    return AI_FABRIC_EXAMPLES_BIN_DIR;
#else
    return "";
#endif
}

/**
 * Run an example with arguments (stderr captured), bounded to 60 s.
 * \param status set to the exit status (124 if it timed out)
 */
std::string
RunExample(const std::string& name, const std::string& args, int* status)
{
    return ns3::test::RunCommand("timeout 60 " + ExamplesDir() + "/" + name + " " + args + " 2>&1",
                                 status);
}

struct BadInput
{
    std::string example; //!< binary
    std::string args;    //!< command line
    std::string message; //!< what the error must say
};

class ExampleInputTest : public ::testing::TestWithParam<BadInput>
{
};

TEST_P(ExampleInputTest, RefusedAtOnceNamingTheOption)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }
    const BadInput& b = GetParam();
    int status = 0;
    std::string out = RunExample(b.example, b.args, &status);
    EXPECT_NE(status, 0) << b.example << " " << b.args << " was accepted:\n" << out;
    EXPECT_NE(status, 124) << b.example << " " << b.args << " hung (timed out)";
    EXPECT_NE(out.find(b.message), std::string::npos) << b.example << " " << b.args << " said:\n"
                                                      << out;
}

INSTANTIATE_TEST_SUITE_P(
    Examples,
    ExampleInputTest,
    ::testing::Values(
        BadInput{"dcqcn-incast", "--sample=0s", "--sample=+0us is invalid"},
        BadInput{"dcqcn-incast", "--sample=-1us", "--sample=-1us is invalid"},
        BadInput{"dcqcn-fairness", "--sample=0s", "--sample=+0us is invalid"},
        BadInput{"dcqcn-fairness", "--join=0s", "--join=+0us is invalid"},
        BadInput{"switch-incast", "--sample=0s", "--sample=+0us is invalid"},
        BadInput{"pfc-link", "--duration=0s", "--duration=+0us is invalid"},
        BadInput{"pfc-link", "--xoff-start=-5us", "--xoff-start=-5us is invalid"},
        BadInput{"rail-allreduce",
                 "--max-bytes=18446744073709551615",
                 "--max-bytes 18446744073709551615 exceeds what the model supports"},
        BadInput{"rail-allreduce", "--factor=0", "--factor 0 is invalid; it must be >= 1"},
        BadInput{"rail-allreduce",
                 "--channels=1000",
                 "--channels 1000 is invalid; NCCL runs at most 32 channels"},
        BadInput{"rail-allreduce",
                 "--qps-per-connection=0",
                 "--qps-per-connection 0 is invalid; it must be >= 1"},
        BadInput{"rail-allreduce",
                 "--servers=-1",
                 "--servers=-1 is invalid; --servers must be >= 0"},
        BadInput{"rail-allreduce",
                 "--servers=100000 --ns3::RailOptimizedTopologyHelper::SpinePorts=60000",
                 "needs an estimated 203191 MiB, more than the"}));

// --channels=0 means "GPUs per server", also when the DCQCN preset re-parses the command line
// (that second parse used to reset the derived value and abort later with a generic message).
TEST(ExampleInputTest, ChannelsZeroMeansGpusPerServerWithDcqcn)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }
    int status = 0;
    std::string out = RunExample("rail-allreduce",
                                 "--channels=0 --cc=dcqcn --servers=2 --gpus-per-server=2 "
                                 "--min-bytes=65536 --max-bytes=65536 --prefix=eit-ch0",
                                 &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("cc=dcqcn, channels 2"), std::string::npos) << out;
    for (const char* f :
         {"eit-ch0-nccl.txt", "eit-ch0-results.csv", "eit-ch0-fabric.csv", "eit-ch0-nic.csv"})
    {
        std::remove(f);
    }
}

} // namespace

namespace
{

/// \return true if \p path exists (and removes it)
bool
ExistsAndRemove(const std::string& path)
{
    bool exists = std::ifstream(path).good();
    std::remove(path.c_str());
    return exists;
}

// A receiver draining at 1 bit/s: the collectives finish once the PFC watchdog breaks the
// pause, and the run must then end (the paused NIC's XOFF refresh used to keep Simulator::Run
// going for ever) with every output written and the NIC's pauses counted.
TEST(ExampleInputTest, SlowReceiverRunEndsWithOutputsAndNicPauses)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }
    int status = 0;
    std::string out = RunExample("rail-allreduce",
                                 "--servers=2 --gpus-per-server=2 --min-bytes=1048576 "
                                 "--max-bytes=1048576 --ns3::RoceNic::RxDrainRate=1bps "
                                 "--prefix=eit-slow",
                                 &status);
    EXPECT_EQ(status, 0) << out;
    std::ifstream nic("eit-slow-nic.csv");
    std::string header;
    std::string row;
    std::getline(nic, header);
    std::getline(nic, row);
    EXPECT_EQ(header,
              "bytes,cnps,retransmitted_packets,timeouts,naks,nic_pfc_pauses_sent,"
              "nic_pfc_pauses_received,nic_paused_us");
    // The NICs sent pauses (their receive side was full): no longer invisible.
    std::vector<std::string> fields;
    std::istringstream cells(row);
    for (std::string cell; std::getline(cells, cell, ',');)
    {
        fields.push_back(cell);
    }
    ASSERT_EQ(fields.size(), 8u) << row;
    EXPECT_EQ(fields[0], "1048576");
    EXPECT_GT(std::stoull(fields[5]), 0u) << row;
    for (const char* f :
         {"eit-slow-nic.csv", "eit-slow-results.csv", "eit-slow-fabric.csv", "eit-slow-nccl.txt"})
    {
        EXPECT_TRUE(ExistsAndRemove(f)) << f;
    }
}

// The same with the PFC watchdog off: nothing can progress, so the run stops after StallTime
// with a diagnosis, still writes its outputs, and exits with status 2.
TEST(ExampleInputTest, StalledRunEndsWithADiagnosisAndItsOutputs)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }
    int status = 0;
    std::string out = RunExample("rail-allreduce",
                                 "--servers=2 --gpus-per-server=2 --min-bytes=1048576 "
                                 "--max-bytes=1048576 --ns3::RoceNic::RxDrainRate=1bps "
                                 "--ns3::PfcNetDevice::PfcWatchdogTimeout=0s "
                                 "--ns3::FabricHealthMonitor::StallTime=50ms --prefix=eit-stall",
                                 &status);
    EXPECT_EQ(status, 2) << out;
    EXPECT_NE(out.find("ai-fabric: STALLED at"), std::string::npos) << out;
    EXPECT_NE(out.find("gpu0: QP "), std::string::npos) << out;
    EXPECT_NE(out.find("XOFF sent"), std::string::npos) << out;
    EXPECT_NE(out.find("world collective 0: AllReduce of 1048576 B"), std::string::npos) << out;
    EXPECT_NE(out.find("the run stalled"), std::string::npos) << out;
    for (const char* f : {"eit-stall-nccl.txt",
                          "eit-stall-results.csv",
                          "eit-stall-fabric.csv",
                          "eit-stall-nic.csv"})
    {
        EXPECT_TRUE(ExistsAndRemove(f)) << f;
    }
}

} // namespace
