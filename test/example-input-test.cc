/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The examples refuse bad command-line input at once, naming the option and its valid range,
 * instead of hanging (a zero sampling interval rescheduled itself forever at t=0) or printing
 * nonsense. Each run is bounded by `timeout`, so a regression fails instead of hanging.
 */
#include "test-util.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <string>

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
                 "--measured=no/such/all_reduce_perf.txt",
                 "--measured=no/such/all_reduce_perf.txt: no such file"}));

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
