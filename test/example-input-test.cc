/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The examples refuse bad command-line input at once, naming the option and its valid range,
 * instead of hanging (a zero sampling interval rescheduled itself forever at t=0) or printing
 * nonsense. Each run is bounded by `timeout`, so a regression fails instead of hanging.
 */
#include "test-util.h"

#include "ns3/fabric-mpi.h"
#include "ns3/fabric-transport-config.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
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
    // Every example is on FabricCommandLine (issue 39): status 2 and one clean line, no
    // signal, no "terminate called", no abort text.
    EXPECT_EQ(status, 2) << b.example << " " << b.args << ":\n" << out;
    EXPECT_EQ(out.find("terminate called"), std::string::npos) << out;
    EXPECT_EQ(out.find("aborted."), std::string::npos) << out;
    EXPECT_NE(out.find(b.example + ": error: "), std::string::npos) << out;
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
        BadInput{"rail-allreduce", "--max-bytes=18446744073709551615", "--max-bytes="},
        BadInput{"rail-allreduce", "--factor=0", "--factor=0"},
        BadInput{"rail-allreduce",
                 "--factor=1",
                 "--factor=1 would repeat the first size; give --factor >= 2"},
        BadInput{"rail-allreduce", "--channels=1000", "--channels=1000"},
        BadInput{"rail-allreduce", "--qps-per-connection=0", "--qps-per-connection=0"},
        BadInput{"rail-allreduce", "--servers=-1", "--servers=-1 is invalid"},
        BadInput{"rail-allreduce", "--seed=0", "--seed=0"},
        BadInput{"rail-allreduce",
                 "--algo=butterfly",
                 "--algo=butterfly is invalid; valid values are auto, ring, tree, hierarchical, "
                 "nvls, nvlstree"},
        BadInput{"rail-allreduce",
                 "--proto=ll256",
                 "--proto=ll256 is invalid; valid values are auto, ll, ll128, simple"},
        BadInput{"rail-allreduce",
                 "--algo=nvls --servers=2",
                 "NVLS/Simple: NVLS across nodes needs CollNet"},
        BadInput{"rail-allreduce",
                 "--algo=nvlstree --servers=1",
                 "NVLSTree/Simple: NVLSTree runs across nodes"},
        BadInput{"rail-allreduce",
                 "--algo=nvls --servers=1 --proto=ll128",
                 "NVLS/LL128: NVLS algorithms run only the Simple protocol"},
        BadInput{"rail-allreduce",
                 "--algo=nvlstree --ns3::NcclTuner::EnableNvls=false",
                 "NVLSTree/Simple: NVLS is disabled (EnableNvls false"},
        BadInput{"rail-allreduce",
                 "--algo=nvls --op=allgather",
                 "--algo=nvls applies to --op=allreduce only"},
        BadInput{"rail-allreduce",
                 "--op=alltoall --proto=ll128",
                 "AlltoAll is point-to-point in NCCL"},
        BadInput{"rail-allreduce", "--uet-cc=nscc", "--uet-cc and --ev-strategy apply to"},
        BadInput{"rail-allreduce", "--prefix=/nonexistent/x", "/nonexistent/x"},
        BadInput{"rail-allreduce",
                 "--measured=/etc/passwd",
                 "invalid nccl-tests log: /etc/passwd:1: expected a data row of 13 fields"},
        BadInput{"rail-allreduce",
                 "--op=allgather --algo=tree",
                 "--algo=tree applies to --op=allreduce only"},
        BadInput{"rail-allreduce",
                 "--servers=100000 --ns3::RailOptimizedTopologyHelper::SpinePorts=60000",
                 "needs an estimated 203191 MiB, more than the"},
        BadInput{"rail-allreduce",
                 "--measured=no/such/all_reduce_perf.txt",
                 "--measured=no/such/all_reduce_perf.txt: no such file"},
        // Faults (FaultHelper): syntax at parse time, names once the fabric is built.
        BadInput{"rail-allreduce",
                 "--fault=link-dwn:leaf0-spine0@1ms",
                 "--fault=link-dwn:leaf0-spine0@1ms: unknown fault kind 'link-dwn'"},
        BadInput{"rail-allreduce",
                 "--servers=1 --gpus-per-server=2 --fault=link-down:leaf9-spine0@1ms",
                 "no node 'leaf9' in this fabric; its nodes are gpu0..1, nvswitch0, leaf0..1"},
        // Monitoring (FabricMonitor): attribute ranges at parse time, probes once built.
        BadInput{"cc-workload",
                 "--monitor=m.csv --monitor-interval=0s",
                 "ns3::FabricMonitor::Interval=0s is out of range: valid range >= 1ns"},
        BadInput{"rail-allreduce",
                 "--monitor=m.csv --monitor-levels=port+links",
                 "ns3::FabricMonitor::Levels='port+links' is out of range"},
        BadInput{"cc-workload", "--monitor=no/such/dir/m.csv", "--monitor=no/such/dir/m.csv"},
        BadInput{"cc-workload",
                 "--monitor=/dev/null --monitor-probes=0-999",
                 "FabricLatencyProbe: pair 0-999 names rank 999; the fabric has ranks 0..127"},
        BadInput{"cc-workload",
                 "--fault=link-flap:leaf0-spine0@1ms,period=1ms,count=0",
                 "count '0' in 'link-flap:leaf0-spine0@1ms,period=1ms,count=0' is invalid"},
        BadInput{"cc-workload",
                 "--fault=link-down:leaf0-leaf1@1ms",
                 "leaf0 and leaf1 are not cabled together; leaf0 is cabled to gpu0..15, "
                 "spine0..1"},

        // Attribute values out of range name the attribute, the value and the valid range
        // (ns-3 alone says only "Invalid command-line argument").
        BadInput{"dcqcn-incast",
                 "--ns3::DcqcnCongestionOps::G=2",
                 "ns3::DcqcnCongestionOps::G=2 is out of range: valid range (0, 1]"},
        BadInput{"dcqcn-incast",
                 "--ns3::DcqcnCongestionOps::Gd=0",
                 "ns3::DcqcnCongestionOps::Gd=0 is out of range: valid range >= 1"},
        BadInput{"dcqcn-incast",
                 "--ns3::DcqcnCongestionOps::MinDecreaseFactor=1.5",
                 "ns3::DcqcnCongestionOps::MinDecreaseFactor=1.5 is out of range: valid range "
                 "[0, 1]"},
        BadInput{"dcqcn-incast",
                 "--ns3::DcqcnCongestionOps::InitialAlpha=5",
                 "ns3::DcqcnCongestionOps::InitialAlpha=5 is out of range: valid range [0, 1]"},
        BadInput{"dcqcn-incast",
                 "--ns3::DcqcnCongestionOps::EcnEchoInterval=-4us",
                 "ns3::DcqcnCongestionOps::EcnEchoInterval=-4us is out of range: valid range "
                 ">= 0s"},
        BadInput{"dcqcn-incast",
                 "--ns3::DcqcnCongestionOps::RateIncreaseTimer=0s",
                 "ns3::DcqcnCongestionOps::RateIncreaseTimer=0s is out of range: valid range "
                 ">= 1ns"},
        BadInput{"dcqcn-incast",
                 "--ns3::DcqcnCongestionOps::RateAi=0bps",
                 "ns3::DcqcnCongestionOps::RateAi=0bps is out of range: valid range > 0bps"},
        BadInput{"dcqcn-incast",
                 "--ns3::SharedBufferMmu::Alpha=0",
                 "ns3::SharedBufferMmu::Alpha=0 is out of range: valid range > 0"},
        BadInput{"dcqcn-incast",
                 "--ns3::PfcNetDevice::PauseQuanta=0",
                 "ns3::PfcNetDevice::PauseQuanta=0 is out of range: valid range 1..65535"},
        // Values that used to be accepted and ignored.
        BadInput{"roce-write",
                 "--loss=-5",
                 "--loss=-5 is invalid; valid range is -1 (no loss) or 0..16383 (the 16384 data "
                 "frames sent: --qps=1 x ceil(--bytes=67108864 / --mtu=4096))"},
        BadInput{"roce-write",
                 "--loss=100000 --qps=2 --bytes=200000",
                 "--loss=100000 is invalid; valid range is -1 (no loss) or 0..97 (the 98 data "
                 "frames sent: --qps=2 x ceil(--bytes=200000 / --mtu=4096))"},
        BadInput{"uet-write",
                 "--op=atomic",
                 "--op=atomic is invalid; valid values are write, read, send, tagged"},
        BadInput{"uet-write", "--mode=uud", "--mode=uud is invalid; valid values are rud, rod"},
        BadInput{"uet-write",
                 "--op=read --bytes=0",
                 "--bytes=0 is invalid for --op=read; valid range is 1..4294967295 (one SES "
                 "message; a READ of 0 bytes returns no data)"},
        BadInput{"uet-write",
                 "--bytes=4294967296",
                 "--bytes=4294967296 is invalid for --op=write; valid range is 0..4294967295"},
        BadInput{"uet-write",
                 "--bytes=65536 --loss=17",
                 "--loss=17 is invalid; valid range is 0..16 (the 16 data frames sent: "
                 "ceil(--bytes=65536 / Mtu 4096))"},
        BadInput{"uet-write",
                 "--loss=-1",
                 "--loss=-1 is invalid; valid range is 0..16384 (the 16384 data frames sent: "
                 "ceil(--bytes=67108864 / Mtu 4096))"},
        BadInput{"uet-write",
                 "--ns3::UetNic::Mtu=100",
                 "ns3::UetNic::Mtu=100 is out of range: valid range 256..16383"},
        // RoCE vs UET: the transport options of the main job, and roce-vs-uet's.
        BadInput{"rail-allreduce",
                 "--transport=tcp",
                 "--transport=tcp is invalid; valid values are roce, uet"},
        BadInput{"rail-allreduce",
                 "--transport=uet --uet-cc=dctcp",
                 "--uet-cc=dctcp is invalid; valid values are none, nscc, rccc, both"},
        BadInput{"rail-allreduce",
                 "--uet-cc=swift",
                 "--uet-cc=swift is invalid; valid values are none, nscc, rccc, both"},
        BadInput{"rail-allreduce",
                 "--transport=uet --ev-strategy=random",
                 "--ev-strategy=random is invalid; valid values are single, oblivious, bitmap, "
                 "reps, mixed"},
        BadInput{"rail-allreduce",
                 "--cc=cubic",
                 "--cc=cubic is invalid; valid values are dcqcn, none, dctcp, timely, swift, "
                 "hpcc"},
        BadInput{"rail-allreduce",
                 "--transport=uet --qps-per-connection=2",
                 "--qps-per-connection 2 is invalid with --transport=uet; it must be 1"},
        BadInput{"roce-vs-uet",
                 "--configs=roce-dcqcn,uet-fast",
                 "--configs: configuration \"uet-fast\" is invalid; valid are roce-dcqcn, "
                 "roce-pfc and uet-<cc>[-<ev>]"},
        BadInput{"roce-vs-uet",
                 "--configs=uet-nscc-spray",
                 "--configs: configuration \"uet-nscc-spray\" is invalid"},
        BadInput{"roce-vs-uet",
                 "--scenarios=incast,alltoal",
                 "--scenarios: scenario \"alltoal\" is invalid; valid are allreduce, alltoall, "
                 "incast, permutation, each optionally with -failure"},
        BadInput{"roce-vs-uet",
                 "--failure=flap",
                 "--failure=flap is invalid; valid values are degrade, down"},
        BadInput{"roce-vs-uet", "--degrade=1", "--degrade=1 is invalid; valid range is (0, 1)"},
        // What a run across MPI processes takes, checked sequentially too.
        BadInput{"rail-allreduce", "--barrier=-1us", "--barrier=-1000ns is invalid; need >= 0"},
        BadInput{"rail-allreduce",
                 "--send-completion=early",
                 "--send-completion=early is invalid; use delivery, posted or acknowledged"},
        BadInput{"rail-allreduce",
                 "--order=causal --simulator=ns3::DefaultSimulatorImpl",
                 "--order=causal chooses the engine; leave out --simulator and --scheduler"},
        BadInput{"rail-allreduce",
                 "--order=random",
                 "--order=random is invalid; use causal or fast"},
        BadInput{"uet-matrix", "--order=random", "--order=random is invalid; use causal or fast"},
        BadInput{"rail-allreduce",
                 "--lb=te",
                 "--lb=te is invalid here: traffic engineering plans a known flow matrix"},
        BadInput{"cc-workload",
                 "--lb=te",
                 "ns3::ClosWorkloadHelper::LoadBalancer=te is invalid here"},
        // The load-balancing study.
        BadInput{"lb-compare",
                 "--lbs=ecmp,hula",
                 "--lbs=hula is invalid; valid values are ecmp, entropy-ecmp, resilient"},
        BadInput{"lb-compare",
                 "--failures=none,flap",
                 "--failures: \"flap\" is invalid; valid values are none, down, degrade"},
        BadInput{"lb-compare",
                 "--scenarios=permutation-failure",
                 "--scenarios=permutation-failure: give fabric states with --failures"},
        BadInput{"lb-compare", "--degrade=0", "--degrade=0 is invalid; valid range is (0, 1)"},
        BadInput{"roce-vs-uet", "--servers=1", "--servers=1 is invalid; valid range is >= 2"},
        BadInput{"roce-vs-uet",
                 "--channels-per-rail=0",
                 "--channels-per-rail=0 is invalid; valid range is 1..16"},
        BadInput{"roce-vs-uet",
                 "--flow-bytes=0",
                 "--flow-bytes=0 is invalid; valid range is 1..4294967295"},
        BadInput{"roce-vs-uet",
                 "--incast-senders=3 --servers=2",
                 "IncastSenders=3 is invalid for this fabric; valid range is 0..2"},
        BadInput{"roce-vs-uet",
                 "--ns3::UetTransportPlugin::EcnMaxBdp=2",
                 "EcnMaxBdp=2 is above QueueBdp=1"},
        BadInput{"uet-matrix",
                 "--pattern=alltoall",
                 "--pattern=alltoall is invalid; valid values are single, incast, permutation"},
        BadInput{"uet-matrix", "--k=3", "--k=3 is invalid; valid values are even numbers >= 2"},
        BadInput{"uet-matrix",
                 "--pattern=incast --incast-senders=16",
                 "--incast-senders=16 is invalid for 16 nodes; valid range is 1..15"},
        BadInput{"uet-matrix",
                 "--k=4 --nodes=17",
                 "--nodes=17 is invalid for --k=4; valid range is 2..16 (or 0: all hosts)"},
        BadInput{"uet-matrix",
                 "--size=0",
                 "--size=0 is invalid; valid range is 1..4294967295 bytes"},
        BadInput{"uet-matrix",
                 "--cc=ns3::UetNic",
                 "--cc=ns3::UetNic is not a congestion control; valid values: "},
        BadInput{"uet-matrix",
                 "--matrix=no/such.cm",
                 "cannot read connection matrix file 'no/such.cm'"},
        BadInput{"uet-matrix",
                 "--matrix=x.cm --pattern=single",
                 "--matrix and --pattern=single exclude each other"},
        BadInput{"uet-matrix",
                 "--ns3::FatTreeTopologyHelper::EcnMaxBdp=2",
                 "EcnMaxBdp=2 gives Kmax 355180 B, above the queue of 177590 B"},
        BadInput{"switch-incast",
                 "--ns3::SharedBufferMmu::ThresholdMode=Static "
                 "--ns3::SharedBufferMmu::XonOffset=300000",
                 "SharedBufferMmu XonOffset 300000 B is larger than the XOFF threshold "
                 "XoffStaticBytes 262144 B (ThresholdMode Static); valid range is 0..262144 B"},
        BadInput{"switch-incast",
                 "--ns3::SharedBufferMmu::XonOffset=100000000",
                 "SharedBufferMmu XonOffset 100000000 B is larger than the largest XOFF "
                 "threshold (ThresholdMode Dynamic: Alpha 0.125 x shared pool "},
        BadInput{"cc-workload",
                 "--timeline=no/such/dir/timeline.csv",
                 "--timeline=no/such/dir/timeline.csv: cannot open the file for writing"},
        BadInput{"collective-with-background",
                 "--bg-load=1.5",
                 "--bg-load=1.5 is invalid; valid range is [0, 1]"},
        BadInput{"collective-with-background",
                 "--bg-load=-0.1",
                 "--bg-load=-0.1 is invalid; valid range is [0, 1]"},
        BadInput{"collective-with-background",
                 "--size=6",
                 "--size=6 is invalid; valid sizes are multiples of 4 >= 4"},
        BadInput{"collective-with-background",
                 "--iters=0",
                 "--iters=0 is invalid; valid range is >= 1"},
        BadInput{"collective-with-background",
                 "--leaves=1 --hosts-per-leaf=1",
                 "--leaves=1 --hosts-per-leaf=1 --spines=2 are invalid; each must be >= 1, "
                 "with >= 2 hosts in all"},
        BadInput{"collective-with-background",
                 "--cdf=no/such.cdf",
                 "cannot read flow-size CDF file 'no/such.cdf'"},
        // Issue 39: strict values, flags that do not apply, outputs checked before the run,
        // errors that name what the user gave; each ends with status 2 and one line.
        BadInput{"collective-ring",
                 "--size=lots",
                 "--size=lots is invalid: not a whole number; valid range is 1..1099511627776"},
        BadInput{"collective-ring",
                 "--size=99999999999999999999999",
                 "--size=99999999999999999999999 is invalid: too large"},
        BadInput{"collective-ring", "--size=-4", "--size=-4 is invalid: negative"},
        BadInput{"collective-ring", "--size=4XB", "--size=4XB is invalid: unknown unit 'XB'"},
        BadInput{"collective-ring", "--pxn", "--pxn needs --servers"},
        BadInput{"collective-ring",
                 "--op=gather",
                 "--op=gather is invalid; valid values are allreduce (ar)"},
        BadInput{"collective-ring",
                 "--csv=no/such/dir/c.csv",
                 "--csv=no/such/dir/c.csv: cannot open the file for writing"},
        BadInput{"cc-workload",
                 "--summary=/nonexistent/x.csv",
                 "--summary=/nonexistent/x.csv: cannot open the file for writing"},
        BadInput{"cc-workload",
                 "--counters=/nonexistent/x.csv",
                 "--counters=/nonexistent/x.csv: cannot open the file for writing"},
        BadInput{"cc-workload",
                 "--queues=/nonexistent/x.csv",
                 "--queues=/nonexistent/x.csv: cannot open the file for writing"},
        BadInput{"cc-workload",
                 "--transport=uet --ns3::UetTransportPlugin::DataDscp=24",
                 "ns3::UetTransportPlugin::DataDscp=24 maps to priority 3, a lossless "
                 "(PFC) priority of the switches"},
        BadInput{"cc-workload",
                 "--mtu=100",
                 "ns3::ClosWorkloadHelper::Mtu=100 is invalid with Transport roce; valid "
                 "values are the RoCE path MTUs"},
        BadInput{"cc-workload",
                 "--dcqcn-preset=fast",
                 "DcqcnPreset=fast is invalid; valid values are hpcc, firmware, paper, none"},
        BadInput{"cc-workload", "--uet-cc=nscc", "--uet-cc applies to --transport=uet only"},
        BadInput{"cc-workload",
                 "--qp-numbering=random",
                 "ns3::RoceTransportPlugin::QpNumbering=random is out of range: valid range "
                 "sequential, per-peer"},
        BadInput{"cc-workload",
                 "--transport=uet --qp-numbering=per-peer",
                 "--qp-numbering applies to --transport=roce only"},
        BadInput{"cc-workload", "--order=random", "--order=random is invalid"},
        BadInput{"cc-workload",
                 "--transport=uet --cc=hpcc",
                 "--cc applies to --transport=roce only"},
        BadInput{"cc-workload", "--seed=0", "--seed=0 is invalid; valid range is >= 1"},
        BadInput{"cc-workload", "--leaves=-4", "--leaves=-4 is invalid: negative"},
        BadInput{"cc-workload", "--load=abc", "--load=abc is invalid: not a finite number"},
        BadInput{"cc-workload", "--nosuch=1", "unknown option --nosuch"},
        BadInput{"cc-workload", "stray", "unexpected argument 'stray'"},
        BadInput{"cc-workload", "--fct", "--fct needs a value: --fct=VALUE"},
        BadInput{"cc-workload", "--RngRun=-1", "--RngRun=-1 is invalid: negative"},
        BadInput{"cc-workload",
                 "--seed=3 --RngSeed=4",
                 "--seed and --RngSeed both set ns-3's seed; give one"},
        BadInput{"cc-workload", "--ns3::NoSuchClass::X=1", "there is no class ns3::NoSuchClass"},
        BadInput{"cc-workload",
                 "--ns3::ClosWorkloadHelper::Lambda=1",
                 "class ns3::ClosWorkloadHelper has no attribute Lambda"},
        BadInput{"cc-workload",
                 "--flows=no/such/flows.txt",
                 "cannot read flow list file 'no/such/flows.txt'"},
        BadInput{"cc-workload",
                 "--flows=f.txt --duration=1ms",
                 "--duration does not apply with --flows"},
        BadInput{"cc-workload",
                 "--simulator=ns3::Nothing",
                 "simulator engine ns3::Nothing is not an ns-3 SimulatorImpl type"},
        BadInput{"topology-summary", "--tiers=3", "--tiers applies to --topology=clos only"},
        BadInput{"topology-summary",
                 "--topology=torus",
                 "--topology=torus is invalid; valid values are rail-optimized, rail-only, "
                 "clos"},
        BadInput{"pfc-link",
                 "--xoff-start=300us --xoff-end=400us",
                 "--xoff-start=+300us is not before --duration=+200us"},
        BadInput{"pfc-link", "--xoff-end=300us", "--xoff-end=+300us is after --duration=+200us"},
        BadInput{"pfc-link", "--payload=4", "--payload=4 is invalid; valid range is 8..8980"},
        BadInput{"pfc-link", "--rate=fast", "--rate=fast is invalid; give a rate > 0"},
        BadInput{"dcqcn-incast", "--cc=none --preset=paper", "--preset applies to --cc=dcqcn only"},
        BadInput{"dcqcn-incast",
                 "--preset=turbo",
                 "--preset=turbo is invalid; valid values are firmware, paper"},
        BadInput{"dcqcn-incast",
                 "--prefix=no/such/dir/x",
                 "--prefix=no/such/dir/x: cannot open the file for writing"},
        BadInput{"dcqcn-fairness", "--flows=0", "--flows=0 is invalid; valid range is 1..64"},
        BadInput{"switch-incast",
                 "--lossless=maybe",
                 "--lossless=maybe is invalid; valid values are true, false"},
        BadInput{"roce-write",
                 "--mtu=100",
                 "--mtu=100 is invalid; valid values are the RoCE path MTUs"},
        BadInput{"uet-write", "--pcap", "--pcap needs a value: --pcap=VALUE"},
        BadInput{"uet-matrix", "--ev-strategy=random", "random"},
        BadInput{"uet-matrix", "--matrix=x.cm --size=100", "--size applies to --pattern only"},
        BadInput{"roce-vs-uet",
                 "--failure=down --degrade=0.5",
                 "--degrade applies to --failure=degrade only"},
        BadInput{"collective-with-background",
                 "--bg-load=0 --cdf=websearch",
                 "--cdf applies to the background only"},
        BadInput{"collective-with-background",
                 "--cc=cubic",
                 "congestion control \"cubic\" is unknown"},
        BadInput{"pfc-deadlock", "--bytes=0", "--bytes=0 is invalid; valid range is 1..1073741824"},
        BadInput{"pfc-deadlock", "--qps=65", "--qps=65 is invalid; valid range is 1..64"},
        BadInput{"pfc-deadlock",
                 "--detection-time=0s",
                 "ns3::PfcDeadlockDetector::DetectionTime=0s is out of range: valid range >= 1ns"},
        BadInput{"pfc-deadlock",
                 "--detection-time=1ms --check-interval=2ms",
                 "ns3::PfcDeadlockDetector::CheckInterval=+2ms is invalid; it must be in (0, "
                 "DetectionTime=+1ms]"},
        BadInput{"pfc-storm", "--bytes=0", "--bytes=0 is invalid; valid range is 1..67108864"},
        BadInput{"pfc-storm", "--stall=0s", "--stall=0 s is invalid; it must be > 0"},
        BadInput{"pfc-storm",
                 "--watchdog=20ms",
                 "--watchdog=20 ms is invalid; it must be > 0 and below --stall=10 ms"},
        BadInput{"pfc-storm",
                 "--monitor-interval=0s",
                 "ns3::FabricMonitor::Interval=0s is out of range: valid range >= 1ns"},
        BadInput{"lost-acks",
                 "--local-ack-timeout=32",
                 "--local-ack-timeout=32 is invalid; valid range is 0..31"},
        BadInput{"lost-acks", "--prob=0", "--prob=0 is invalid; valid range is (0, 1]"},
        BadInput{"lost-acks",
                 "--cable=leaf0-leaf1",
                 "leaf0 and leaf1 are not cabled together; leaf0 is cabled to gpu0..1, "
                 "spine0..1"},
        BadInput{"ecn-misprofile", "--leaf=4", "--leaf=4 is invalid; valid range is 0..3"},
        BadInput{"ecn-misprofile", "--pmax=1.5", "--pmax=1.5 is invalid; valid range is (0, 1]"},
        BadInput{"ecn-misprofile",
                 "--kmin=20KB --kmax=4KB",
                 "--kmin=20480 is above --kmax=4096; kmin must be <= kmax"},
        BadInput{"link-flap",
                 "--cable=leaf9-spine0",
                 "no node 'leaf9' in this fabric; its nodes are gpu0..7, nvswitch0..3, leaf0..3, "
                 "spine0..1"},
        BadInput{"link-flap",
                 "--cable=leaf0-leaf1",
                 "leaf0 and leaf1 are not cabled together; leaf0 is cabled to gpu0..1, spine0..1"},
        BadInput{"link-flap", "--period=0s", "--period=+0us is invalid; valid range is > 0"},
        BadInput{"link-flap", "--count=0", "--count=0 is invalid; valid range is 1..1000"},
        BadInput{"distributed-permutation",
                 "--racks=1",
                 "--racks=1 is invalid; valid range is 2..1024"},
        BadInput{"distributed-permutation",
                 "--bytes=0",
                 "--bytes=0 is invalid; valid range is 1..4294967296"},
        BadInput{"distributed-permutation",
                 "--order=random",
                 "--order=random is invalid; use causal or fast"},
        BadInput{"distributed-permutation",
                 "--ns3::FabricTopologyHelper::Systems=2",
                 "Systems 2 but this run has 1 MPI process; set Systems to 0 (one per process) "
                 "or start 2 processes"},
        BadInput{"distributed-collective",
                 "--op=broadcast",
                 "--op=broadcast is invalid; use allreduce, allgather, reducescatter or alltoall"},
        BadInput{"distributed-collective",
                 "--send-completion=delivery",
                 "--send-completion=delivery is invalid; use posted or acknowledged"},
        BadInput{"distributed-collective",
                 "--transport=ib",
                 "--transport=ib is invalid; use roce or uet"},
        BadInput{"distributed-collective",
                 "--minbytes=64M",
                 "--minbytes=67108864 is above --maxbytes=16777216"}));

// RCCC is being built: until the library registers ns3::RcccCongestionOps, --uet-cc=rccc and
// both are refused as not available yet (with it, they run).
TEST(ExampleInputTest, UetCcRcccAndBothRunTheMainJob)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }
    for (const std::string cc : {"rccc", "both"})
    {
        int status = 0;
        std::string out =
            RunExample("rail-allreduce",
                       "--transport=uet --uet-cc=" + cc +
                           " --min-bytes=1048576 --max-bytes=1048576 --prefix=ra-" + cc,
                       &status);
        EXPECT_EQ(status, 0) << out;
        EXPECT_NE(out.find("transport=uet, cc=" + cc), std::string::npos) << out;
    }
}

// --ns3::Derived::BaseAttr=value sets the attribute the base class registers (ns-3 alone
// refuses it as an unknown attribute): the GPU links run at the rate given.
TEST(ExampleInputTest, DerivedClassSpellingOfABaseAttributeIsApplied)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }
    for (const char* cls : {"FabricTopologyHelper", "RailOptimizedTopologyHelper"})
    {
        int status = 0;
        std::string out =
            RunExample("topology-summary",
                       std::string("--servers=4 --ns3::") + cls + "::GpuLinkDataRate=200Gbps",
                       &status);
        EXPECT_EQ(status, 0) << cls << ":\n" << out;
        EXPECT_NE(out.find("gpu-leaf @ 200 Gb/s"), std::string::npos) << cls << ":\n" << out;
    }
}

// Out-of-order placement is a RoCE NIC option: asked for on a fabric without RoCE NICs, it is
// reported as ignored (and not when RoCE runs).
TEST(ExampleInputTest, PlacementOnAFabricWithoutRoceIsReported)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }
    int status = 0;
    const std::string args = "--servers=2 --gpus-per-server=2 --max-bytes=1048576 "
                             "--ns3::RoceNic::OutOfOrderWindow=64";
    std::string out = RunExample("rail-allreduce", "--transport=uet " + args, &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("ai-fabric warning: ns3::RailOptimizedTopologyHelper: "
                       "ns3::RoceNic::OutOfOrderWindow=64 is ignored: this fabric has no RoCE "
                       "NICs (Transports=uet), and Ultra Ethernet's RUD delivers out-of-order "
                       "packets by design"),
              std::string::npos)
        << out;
    out = RunExample("rail-allreduce", args, &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(out.find("OutOfOrderWindow"), std::string::npos) << out;
}

// A topology sets every port's rate and cable delay per tier: a changed PfcNetDevice::DataRate
// or PfcChannel::Delay default is ignored, and said so, naming the attributes that apply.
TEST(ExampleInputTest, PortDefaultsIgnoredByATopologyAreReported)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }
    int status = 0;
    std::string out = RunExample("topology-summary",
                                 "--servers=4 --ns3::PfcNetDevice::DataRate=100Gbps "
                                 "--ns3::PfcChannel::Delay=5us",
                                 &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("ai-fabric warning: ns3::RailOptimizedTopologyHelper: "
                       "ns3::PfcNetDevice::DataRate=100000000000bps is ignored: the topology "
                       "sets every port's rate per link tier; set "
                       "ns3::RailOptimizedTopologyHelper::LeafSpineDataRate, "
                       "ns3::FabricTopologyHelper::GpuLinkDataRate, "
                       "ns3::FabricTopologyHelper::NvLinkDataRate instead"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("ns3::PfcChannel::Delay=5us is ignored: the topology sets every "
                       "cable's delay per link tier; set "
                       "ns3::RailOptimizedTopologyHelper::LeafSpineDelay, "
                       "ns3::FabricTopologyHelper::GpuLinkDelay, "
                       "ns3::FabricTopologyHelper::NvLinkDelay instead"),
              std::string::npos)
        << out;
    // Untouched defaults: no warning.
    out = RunExample("topology-summary", "--servers=4", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(out.find("ai-fabric warning"), std::string::npos) << out;
}

// --channels=0 means "GPUs per server", also when the DCQCN preset re-parses the command line
// (that second parse used to reset the derived value and abort later with a generic message).
TEST(ExampleInputTest, ChannelsZeroMeansNcclsChoiceWithDcqcn)
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
    EXPECT_NE(out.find("cc=dcqcn, algo auto, proto auto, channels auto"), std::string::npos) << out;
    EXPECT_NE(out.find("ch\n"), std::string::npos) << out; // the channels NCCL chose, per size
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
                                 "--max-bytes=1048576 --ns3::FabricNic::RxDrainRate=1bps "
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
                                 "--max-bytes=1048576 --ns3::FabricNic::RxDrainRate=1bps "
                                 "--ns3::PfcNetDevice::PfcWatchdogTimeout=0s "
                                 "--ns3::FabricHealthMonitor::StallTime=50ms --prefix=eit-stall",
                                 &status);
    EXPECT_EQ(status, 3) << out; // 2 is an input error
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

namespace
{

// uet-matrix refuses malformed connection-matrix files naming the file, the line and what was
// expected, before building anything.
TEST(ExampleInputTest, UetMatrixRefusesBadMatrixFiles)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }

    struct Case
    {
        std::string text;
        std::string message;
    };

    const std::vector<Case> cases = {
        {"Nodes 16\nConnections 1\n0->16 start 0 size 100\n",
         ":3: destination 16 is not a node (Nodes 16: nodes 0..15)"},
        {"Nodes 16\nConnections 1\n4->4 start 0 size 100\n",
         ":3: a connection from node 4 to itself"},
        {"Nodes 16\nConnections 1\n0->1 start 0\n", ":3: connection 0->1 has no 'size <bytes>'"},
        {"Nodes 16\nConnections 1\n0->1 start -3 size 100\n",
         ":3: start -3 is negative; expected a time in microseconds >= 0"},
        {"Nodes 16\nConnections 1\n0->1 start 0 size lots\n", ":3: size 'lots' is not a number"},
        {"Nodes 16\nConnections 2\n0->1 start 0 size 100\n",
         ":2: 'Connections 2' but the file has 1 connection line"},
        {"Nodes 16\nConnections 1\nflows 1\n", ":3: unknown keyword 'flows'"},
        {"Nodes 16\nConnections 1\n0->1 start 0 size 100 trigger 1\n",
         ":3: field 'trigger' (htsim triggers and failures are not supported"},
    };
    for (uint32_t i = 0; i < cases.size(); ++i)
    {
        const std::string path = "eit-bad-" + std::to_string(i) + ".cm";
        std::ofstream(path) << cases[i].text;
        int status = 0;
        std::string out = RunExample("uet-matrix", "--matrix=" + path, &status);
        EXPECT_NE(status, 0) << path << " was accepted:\n" << out;
        EXPECT_NE(status, 124) << path << " hung";
        EXPECT_NE(out.find(path), std::string::npos) << out;
        EXPECT_NE(out.find(cases[i].message), std::string::npos) << path << " said:\n" << out;
        std::remove(path.c_str());
    }
}

// A tiny run: the k = 2 fat tree (2 hosts) with a matrix file of two flows, and the incast
// pattern; every flow completes, the rows and the CSV report them.
TEST(ExampleInputTest, UetMatrixRunsATinyCase)
{
    if (ExamplesDir().empty())
    {
        GTEST_SKIP() << "example binaries unknown in this build mode";
    }
    std::ofstream("eit-tiny.cm") << "# two flows\nNodes 2\nConnections 2\n"
                                    "0->1 id 1 start 0 size 100000\n1->0 id 2 start 5 size 8192\n";
    int status = 0;
    std::string out =
        RunExample("uet-matrix", "--k=2 --matrix=eit-tiny.cm --csv=eit-tiny.csv", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("summary: 2/2 flows completed"), std::string::npos) << out;
    auto rows = ns3::test::ReadCsv("eit-tiny.csv");
    ASSERT_EQ(rows.size(), 2u) << out;
    EXPECT_EQ(rows[0]["id"], "1");
    EXPECT_EQ(rows[0]["size_B"], "100000");
    EXPECT_EQ(rows[1]["start_us"], "5.000");
    EXPECT_EQ(rows[1]["status"], "ok");
    EXPECT_GT(std::stod(rows[0]["fct_us"]), 14.0) << "at least one RTT";
    std::remove("eit-tiny.cm");
    std::remove("eit-tiny.csv");

    out = RunExample("uet-matrix",
                     "--pattern=incast --nodes=4 --incast-senders=3 --size=50000 "
                     "--write-matrix=eit-incast.cm",
                     &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("summary: 3/3 flows completed"), std::string::npos) << out;
    std::ifstream written("eit-incast.cm");
    std::string text((std::istreambuf_iterator<char>(written)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text,
              "Nodes 4\nConnections 3\n0->3 id 1 start 0 size 50000\n1->3 id 2 start 0 size "
              "50000\n2->3 id 3 start 0 size 50000\n");
    std::remove("eit-incast.cm");
}

} // namespace

namespace
{

/// \return the contents of \p path ("" if it cannot be read)
std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Skip the test when this build mode has no example binaries.
#define SKIP_WITHOUT_EXAMPLES()                                                                    \
    if (ExamplesDir().empty())                                                                     \
    {                                                                                              \
        GTEST_SKIP() << "example binaries unknown in this build mode";                             \
    }

// Issue 39, item 2: a bare boolean flag means true (it used to be toggled back by a second
// parse, or toggled from a default true to false), =true and =false work as written.
TEST(ExampleInputTest, BareBooleanFlagsMeanTrue)
{
    SKIP_WITHOUT_EXAMPLES();
    int status = 0;
    std::remove("eit-tr-rates.csv");
    std::string out = RunExample("dcqcn-incast",
                                 "--senders=2 --bytes=100000 --prefix=eit-tr --trace-rates",
                                 &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_TRUE(ExistsAndRemove("eit-tr-rates.csv")) << "bare --trace-rates wrote no rates";
    out = RunExample("dcqcn-incast",
                     "--senders=2 --bytes=100000 --prefix=eit-tr --trace-rates=false",
                     &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_FALSE(ExistsAndRemove("eit-tr-rates.csv")) << "--trace-rates=false wrote rates";
    for (const char* f : {"eit-tr-queue.csv", "eit-tr-summary.csv"})
    {
        std::remove(f);
    }

    // pfc-link --pcap: the captures exist.
    out = RunExample("pfc-link",
                     "--duration=20us --xoff-start=5us --xoff-end=10us --pcap --csv=",
                     &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_TRUE(ExistsAndRemove("pfc-link-0-0.pcap")) << "bare --pcap wrote no pcap";
    ExistsAndRemove("pfc-link-1-0.pcap");

    // switch-incast --lossless (default true) stays lossless: no drops.
    out = RunExample("switch-incast", "--lossless --packets=50 --prefix=eit-si", &status);
    EXPECT_EQ(status, 0) << out;
    const std::string lossless = out;
    out = RunExample("switch-incast", "--lossless=true --packets=50 --prefix=eit-si", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(lossless, out) << "bare --lossless differs from --lossless=true";
    for (const char* f : {"eit-si-flows.csv", "eit-si-switch.csv"})
    {
        std::remove(f);
    }
}

// Issue 39, item 1: --RngRun is honoured next to --seed (a sweep over --RngRun gives
// independent replications), and the same (seed, run) gives identical outputs.
TEST(ExampleInputTest, RngRunAndSeedGiveIndependentReplications)
{
    SKIP_WITHOUT_EXAMPLES();
    auto fct = [](const std::string& args) {
        int status = 0;
        std::string out =
            RunExample("cc-workload", "--duration=100us --quiet --fct=eit-rr.csv " + args, &status);
        EXPECT_EQ(status, 0) << out;
        std::string text = ReadFile("eit-rr.csv");
        std::remove("eit-rr.csv");
        return text;
    };
    const std::string run1 = fct("--RngRun=1");
    EXPECT_FALSE(run1.empty());
    EXPECT_EQ(fct(""), run1) << "the default is seed 1, run 1";
    EXPECT_EQ(fct("--RngRun=1"), run1) << "same run, same output";
    EXPECT_NE(fct("--RngRun=2"), run1) << "--RngRun was ignored";
    EXPECT_NE(fct("--seed=2"), run1) << "--seed was ignored";
    EXPECT_NE(fct("--seed=2 --RngRun=2"), fct("--seed=2")) << "--RngRun ignored beside --seed";

    // collective-with-background: the background differs between runs.
    auto bg = [](const std::string& run) {
        int status = 0;
        std::string out =
            RunExample("collective-with-background",
                       "--size=262144 --iters=2 --bg-load=0.3 --quiet --RngRun=" + run,
                       &status);
        EXPECT_EQ(status, 0) << out;
        return out.substr(out.find("background:"));
    };
    EXPECT_NE(bg("1"), bg("2"));
}

// Issue 39, item 6: a run where no flow ran is not a valid all-zero run; empty buckets are
// blank in the summary CSV and "-" in the table, never 0.
TEST(ExampleInputTest, EmptyIsNotZero)
{
    SKIP_WITHOUT_EXAMPLES();
    int status = 0;
    std::string out = RunExample("cc-workload", "--duration=1ns --summary=eit-empty.csv", &status);
    EXPECT_EQ(status, 1) << out;
    EXPECT_NE(out.find("cc-workload: error: no flow ran"), std::string::npos) << out;
    auto rows = ns3::test::ReadCsv("eit-empty.csv");
    ASSERT_EQ(rows.size(), 6u);
    for (auto& r : rows)
    {
        EXPECT_EQ(r["flows"], "0");
        EXPECT_EQ(r["p99_slowdown"], "") << "an empty bucket must be blank, not 0";
        EXPECT_EQ(r["median_slowdown"], "");
    }
    std::remove("eit-empty.csv");

    out = RunExample("cc-workload", "--duration=20us --summary=eit-some.csv", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("size buckets have no flow"), std::string::npos) << out;
    rows = ns3::test::ReadCsv("eit-some.csv");
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_NE(rows[5]["flows"], "0");
    EXPECT_NE(rows[5]["p99_slowdown"], "");
    bool sawEmpty = false;
    for (auto& r : rows)
    {
        if (r["flows"] == "0")
        {
            sawEmpty = true;
            EXPECT_EQ(r["p99_slowdown"], "");
        }
    }
    EXPECT_TRUE(sawEmpty) << "the test needs an empty bucket";
    std::remove("eit-some.csv");
}

// Issue 39, item 9: cc-workload replays a flow list, converted from the HPCC-lineage
// flow.txt by tools/flowtxt_to_flowlist.py; errors name the file and the line.
TEST(ExampleInputTest, FlowListReplayAndConverter)
{
    SKIP_WITHOUT_EXAMPLES();
#ifdef AI_FABRIC_SOURCE_DIR
    std::ofstream("eit-flow.txt") << "3\n0 5 3 100 200000 2.0\n1 7 3 100 10000 2.000001\n"
                                     "3 2 3 100 5000 2.0000005\n";
    int status = 0;
    std::string conv = ns3::test::RunCommand("python3 " AI_FABRIC_SOURCE_DIR
                                             "/tools/flowtxt_to_flowlist.py eit-flow.txt "
                                             "eit-flows.txt 2>&1",
                                             &status);
    EXPECT_EQ(status, 0) << conv;
    EXPECT_NE(conv.find("written sorted by start"), std::string::npos) << conv;
    EXPECT_EQ(ReadFile("eit-flows.txt"),
              "# ai-fabric flow list: src dst size_bytes start_ns\n"
              "# converted from eit-flow.txt (HPCC flow.txt): 3 flows, priority 3\n"
              "0 5 200000 2000000000\n3 2 5000 2000000500\n1 7 10000 2000001000\n");
    std::string out = RunExample("cc-workload",
                                 "--leaves=2 --hosts-per-leaf=4 --spines=1 "
                                 "--flows=eit-flows.txt --fct=eit-flows-fct.csv",
                                 &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("workload: 3 flows"), std::string::npos) << out;
    auto rows = ns3::test::ReadCsv("eit-flows-fct.csv");
    ASSERT_EQ(rows.size(), 3u);
    std::map<std::string, std::string> sizes; // "src->dst" -> size, rows in completion order
    for (auto& r : rows)
    {
        sizes[r["src"] + "->" + r["dst"]] = r["size_bytes"];
        EXPECT_EQ(r["ok"], "1");
    }
    EXPECT_EQ(sizes,
              (std::map<std::string, std::string>{{"0->5", "200000"},
                                                  {"3->2", "5000"},
                                                  {"1->7", "10000"}}));

    // A host the fabric does not have, and a malformed line: file and line named.
    std::ofstream("eit-flows-bad.txt") << "# x\n0 1 100 0\n0 9 100 5\n";
    out = RunExample("cc-workload",
                     "--leaves=2 --hosts-per-leaf=4 --spines=1 --flows=eit-flows-bad.txt",
                     &status);
    EXPECT_EQ(status, 2) << out;
    EXPECT_NE(out.find("eit-flows-bad.txt:3: host 9 is not in the fabric (8 hosts: 0..7)"),
              std::string::npos)
        << out;
    std::ofstream("eit-flows-bad.txt") << "0 1 100\n";
    out = RunExample("cc-workload", "--flows=eit-flows-bad.txt", &status);
    EXPECT_EQ(status, 2) << out;
    EXPECT_NE(out.find("eit-flows-bad.txt:1: 3 fields"), std::string::npos) << out;

    // The converter's own errors: file and line, status 2.
    std::ofstream("eit-flow.txt") << "2\n0 5 3 100 200000 2.0\n";
    conv = ns3::test::RunCommand("python3 " AI_FABRIC_SOURCE_DIR
                                 "/tools/flowtxt_to_flowlist.py eit-flow.txt "
                                 "eit-flows.txt 2>&1",
                                 &status);
    EXPECT_EQ(status, 2) << conv;
    EXPECT_NE(conv.find("eit-flow.txt:1: the first line says 2 flows but the file has 1"),
              std::string::npos)
        << conv;
    for (const char* f :
         {"eit-flow.txt", "eit-flows.txt", "eit-flows-fct.csv", "eit-flows-bad.txt"})
    {
        std::remove(f);
    }
#else
    GTEST_SKIP() << "source directory unknown";
#endif
}

// Issue 39, item 4: uet-matrix runs with htsim's defaults (NSCC, mixed spraying, its header
// model), sizes the fat tree from the matrix's Nodes, and says so; an incast completes.
TEST(ExampleInputTest, UetMatrixFollowsHtsimDefaults)
{
    SKIP_WITHOUT_EXAMPLES();
    std::ostringstream cm;
    cm << "Nodes 20\nConnections 7\n";
    for (int i = 0; i < 7; ++i)
    {
        cm << i << "->19 id " << i + 1 << " start 0 size 200000\n";
    }
    std::ofstream("eit-incast.cm") << cm.str();
    int status = 0;
    std::string out = RunExample("uet-matrix", "--matrix=eit-incast.cm", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("fat tree (k=6)"), std::string::npos) << "k from Nodes 20:\n" << out;
    EXPECT_NE(out.find("cc ns3::NsccCongestionOps, EV mixed, htsim header model"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("defaults follow htsim"), std::string::npos) << out;
    EXPECT_NE(out.find("this run: all defaults"), std::string::npos) << out;
    EXPECT_NE(out.find("summary: 7/7 flows completed"), std::string::npos) << out;
    out = RunExample("uet-matrix",
                     "--matrix=eit-incast.cm --ev-strategy=single --htsim-headers=false",
                     &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("EV single, UET headers"), std::string::npos) << out;
    out = RunExample("uet-matrix", "--k=4 --matrix=eit-incast.cm", &status);
    EXPECT_EQ(status, 2) << out;
    EXPECT_NE(out.find("has Nodes 20 but the --k=4 fat tree has 16 hosts"), std::string::npos)
        << out;
    std::remove("eit-incast.cm");

    // Large start times keep the columns apart; a binary file is quoted printable.
    std::ofstream("eit-late.cm") << "Nodes 2\nConnections 1\n0->1 id 123456789 start 987654321 "
                                    "size 1000\n";
    out = RunExample("uet-matrix", "--k=2 --matrix=eit-late.cm", &status);
    EXPECT_EQ(status, 0) << out;
    std::istringstream lines(out);
    bool found = false;
    for (std::string line; std::getline(lines, line);)
    {
        std::istringstream fields(line);
        std::vector<std::string> f((std::istream_iterator<std::string>(fields)),
                                   std::istream_iterator<std::string>());
        if (!f.empty() && f[0] == "123456789")
        {
            found = true;
            ASSERT_EQ(f.size(), 7u) << line;
            EXPECT_EQ(f[4], "987654321.000") << line;
        }
    }
    EXPECT_TRUE(found) << out;
    std::remove("eit-late.cm");
    std::ofstream("eit-binary.cm", std::ios::binary) << std::string("\x7f"
                                                                    "ELF\x02\x01\xff\xfe\x00\x01",
                                                                    10);
    out = RunExample("uet-matrix", "--matrix=eit-binary.cm", &status);
    EXPECT_EQ(status, 2) << out;
    EXPECT_NE(out.find("eit-binary.cm:1:"), std::string::npos) << out;
    for (unsigned char c : out)
    {
        EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << "raw byte " << unsigned(c) << " in:\n"
                                                          << out;
    }
    std::remove("eit-binary.cm");
}

// Issue 39, item 3: HPCC runs on fabrics with NVLink-rate links (NVSwitches add no INT hop).
TEST(ExampleInputTest, HpccRunsOnFabricsWithNvLink)
{
    SKIP_WITHOUT_EXAMPLES();
    for (const std::string topo : {"rail-optimized", "clos"})
    {
        int status = 0;
        std::string out = RunExample("rail-allreduce",
                                     "--servers=2 --gpus-per-server=2 --max-bytes=1048576 "
                                     "--cc=hpcc --prefix=eit-hpcc --topology=" +
                                         topo,
                                     &status);
        EXPECT_EQ(status, 0) << topo << ":\n" << out;
        EXPECT_EQ(out.find("has no INT rate code"), std::string::npos) << out;
        for (const char* f : {"eit-hpcc-nccl.txt",
                              "eit-hpcc-results.csv",
                              "eit-hpcc-fabric.csv",
                              "eit-hpcc-nic.csv"})
        {
            std::remove(f);
        }
    }
}

// Issue 39: progress reports go to stderr and change no result (FirstReport 0 and a tiny
// Interval force them on a short run).
TEST(ExampleInputTest, ProgressReportsChangeNoResult)
{
    SKIP_WITHOUT_EXAMPLES();
    int status = 0;
    const std::string quiet =
        ns3::test::RunCommand("timeout 60 " + ExamplesDir() +
                                  "/cc-workload --duration=200us --quiet --fct=eit-pq.csv "
                                  "2>/dev/null",
                              &status);
    EXPECT_EQ(status, 0);
    const std::string progress =
        ns3::test::RunCommand("timeout 60 " + ExamplesDir() +
                                  "/cc-workload --duration=200us --fct=eit-pp.csv "
                                  "--ns3::FabricProgressReporter::FirstReport=0s "
                                  "--ns3::FabricProgressReporter::Interval=1ns 2>eit-progress.txt",
                              &status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(quiet, progress);
    EXPECT_EQ(ReadFile("eit-pq.csv"), ReadFile("eit-pp.csv"));
    const std::string err = ReadFile("eit-progress.txt");
    EXPECT_NE(err.find("cc-workload: progress: simulated "), std::string::npos) << err;
    EXPECT_NE(err.find(" done / "), std::string::npos) << err;
    EXPECT_NE(err.find("M events/s"), std::string::npos) << err;
    EXPECT_NE(err.find("ETA"), std::string::npos) << err;
    for (const char* f : {"eit-pq.csv", "eit-pp.csv", "eit-progress.txt"})
    {
        std::remove(f);
    }
}

// Issue 39, item 6: a workload of implausibly many flows says so (with the number) before it
// starts. The run itself would be long: it is cut after a few seconds.
TEST(ExampleInputTest, ManyFlowsAreAnnouncedBeforeTheRun)
{
    SKIP_WITHOUT_EXAMPLES();
    std::ofstream("eit-tiny.cdf") << "100 0\n200 100\n";
    int status = 0;
    std::string out = ns3::test::RunCommand("timeout 3 " + ExamplesDir() +
                                                "/cc-workload --cdf=eit-tiny.cdf "
                                                "--duration=200us --quiet 2>&1 >/dev/null",
                                            &status);
    EXPECT_NE(out.find("cc-workload: warning: this workload will start about "), std::string::npos)
        << out;
    std::remove("eit-tiny.cdf");
}

} // namespace

// Issue 40: started by an MPI launcher with several processes (its environment, as mpirun
// sets it), a program that runs in one process refuses at once instead of running the same
// simulation in every process; one that runs across processes, in a build without MPI, says
// the build has none.
TEST(ExampleInputTest, AnMpiLaunchOfSeveralProcessesIsRefusedWhereItCannotRun)
{
    SKIP_WITHOUT_EXAMPLES();
    int status = 0;
    const std::string single = ns3::test::RunCommand("OMPI_COMM_WORLD_SIZE=2 timeout 60 " +
                                                         ExamplesDir() + "/lb-compare 2>&1",
                                                     &status);
    EXPECT_EQ(status, 2) << single;
    EXPECT_NE(single.find("lb-compare: error: started as 2 MPI processes, but this program "
                          "runs in one process; run it without mpirun"),
              std::string::npos)
        << single;
    if (!ns3::FabricMpi::IsAvailable())
    {
        const std::string across = ns3::test::RunCommand("OMPI_COMM_WORLD_SIZE=2 timeout 60 " +
                                                             ExamplesDir() + "/rail-allreduce 2>&1",
                                                         &status);
        EXPECT_EQ(status, 2) << across;
        EXPECT_NE(across.find("started as 2 MPI processes, but this build has no MPI"),
                  std::string::npos)
            << across;
    }
}
