/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ecn-misprofile: a failure lab. One leaf's WRED ECN profile is off by a few KB; DCQCN on
 * the QPs that cross it slows the whole training job. The program runs the job on the
 * misprofiled fabric, prints a root-cause analysis (the leaf that marks where no other leaf
 * does, the CNPs of the GPUs whose QPs cross it), then runs the fix (the profile restored)
 * and shows busbw back.
 *
 *                 spine0                   4 leaves x 1 spine, one server (2 GPUs, NVLink)
 *        /      |       |      \           per leaf: 400 Gb/s NICs, 800 Gb/s uplinks (non-
 *    leaf0   leaf1    leaf2   leaf3        blocking); RoCEv2 + DCQCN, PFC on priority 3
 *   gpu0-1   gpu2-3   gpu4-5  gpu6-7       the job: 2-channel ring AllReduce, every ring hop
 *                                          between servers crosses two leaves and the spine
 *
 * The fabric's ECN profile is the default (Kmin 100 KB, Kmax 400 KB per 25 Gb/s of port rate,
 * Pmax 0.2: 1.6 / 6.4 MB on a 400 Gb/s port), which a healthy non-blocking ring never
 * reaches. --leaf got --kmin/--kmax/--pmax (4 KB / 16 KB / 0.5 by default) absolute, a
 * template meant for per-25G scaling: micro-bursts of two frames now get marked, every CNP
 * halves a sender's rate, and the ring runs at the pace of its slowest hop. Exit status 0
 * when the misprofiled leaf marked, no other did, busbw dropped and the fix restored it; 1
 * otherwise; 2 on bad input.
 */

#include "failure-lab.h"

#include <iostream>
#include <sstream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    uint64_t bytes = 16 << 20;
    uint32_t iters = 6;
    uint32_t leaf = 1;
    uint64_t kmin = 4 << 10;
    uint64_t kmax = 16 << 10;
    double pmax = 0.5;
    std::string monitor;
    FabricCommandLine cmd(__FILE__);
    cmd.AddBytes("bytes", "AllReduce size (1 KiB .. 1 GiB)", bytes, 1 << 10, uint64_t(1) << 30);
    cmd.AddValue("iters", "Iterations of the job (1..100)", iters, 1, 100);
    cmd.AddValue("leaf", "The misprofiled leaf (0..3)", leaf, 0, 3);
    cmd.AddBytes("kmin", "Its Kmin, bytes (<= kmax)", kmin, 0, uint64_t(1) << 30);
    cmd.AddBytes("kmax", "Its Kmax, bytes (>= kmin)", kmax, 0, uint64_t(1) << 30);
    cmd.AddValue("pmax", "Its marking probability at Kmax, (0, 1]", pmax);
    FabricMonitor::AddCommandLine(cmd, monitor);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(!(pmax > 0 && pmax <= 1),
                          "--pmax=" << pmax << " is invalid; valid range is (0, 1]");
    FABRIC_INPUT_ERROR_IF(kmin > kmax,
                          "--kmin=" << kmin << " is above --kmax=" << kmax
                                    << "; kmin must be <= kmax");
    std::cout << std::fixed << std::setprecision(1);
    std::ostringstream spec;
    spec << "ecn-profile:leaf" << leaf << "@0s,kmin=" << kmin << ",kmax=" << kmax
         << ",pmax=" << pmax;

    std::cout << "ecn-misprofile: 8 GPUs (4 servers x 2, one server per leaf) on 4 leaves x 1 "
                 "spine, 400 Gb/s RoCEv2 + DCQCN;\n  job: "
              << iters << " x ring AllReduce of " << bytes << " B (2 channels, Simple)\n\n"
              << "Run 1: --fault=" << spec.str() << "\n  (every other switch: Kmin 1.6 MB, "
              << "Kmax 6.4 MB, Pmax 0.2 on a 400 Gb/s port)\n";
    double bad = 0;
    double good = 0;
    bool leafMarks = false;
    bool othersQuiet = true;
    bool fixedQuiet = true;
    bool done = true;
    {
        FailureLab lab(1, "800Gbps", 14);
        Ptr<FaultHelper> faults = CreateObject<FaultHelper>();
        faults->Add(spec.str());
        faults->Install(lab.GetTopology());
        FabricMonitor::InstallIfEnabled(lab.GetTopology(), monitor);
        lab.RunJob(bytes, iters, 2);
        lab.PrintIterations(std::cout);
        bad = lab.GetMeanBusBw();
        done = lab.Completed(iters);
        std::cout << "  mean busbw " << bad << " GB/s\n\nRoot-cause analysis\n"
                  << "  What happened: busbw fell and stayed down; no drop, no timeout, no PFC "
                     "storm: a rate problem.\n"
                  << "  Which counters point where (per switch, then per GPU):\n";
        lab.PrintSwitches(std::cout);
        lab.PrintGpus(std::cout);
        for (const auto& sw : lab.GetTopology()->GetScaleOutSwitches())
        {
            const bool isLeaf = sw->GetObject<Node>() == lab.GetTopology()->GetLeaf(leaf);
            const uint64_t marks = FailureLab::GetEcnMarks(sw);
            leafMarks = leafMarks || (isLeaf && marks > 0);
            othersQuiet = othersQuiet && (isLeaf || marks == 0);
        }
        std::cout << "  leaf" << leaf << " is the only switch that marks; the CNPs go to the "
                  << "GPUs whose QPs cross it\n  (the NICs that send into its uplink and "
                     "toward its GPUs), and their DCQCN cuts their rate;\n  the ring waits "
                     "for its slowest hop, so every GPU's iteration slows down.\n"
                  << "  Why: leaf" << leaf << "'s queues stay within a frame or two (the "
                  << "fabric is non-blocking), but its\n  Kmin, " << kmin
                  << " B, is less than one 4178-byte RoCE frame: two frames meeting at a port "
                     "already\n  cross it, and it marks those micro-bursts as congestion.\n"
                  << "  The fix: put the fabric's profile back (ecn-profile:leaf" << leaf
                  << "@T,restore; compare every\n  switch's WRED profile with the template, "
                     "in the units the template means).\n";
    }

    std::cout << "\nRun 2 (the fix): leaf" << leaf << "'s profile restored to the fabric's:\n";
    {
        FailureLab lab(1, "800Gbps", 14);
        lab.RunJob(bytes, iters, 2);
        lab.PrintIterations(std::cout);
        good = lab.GetMeanBusBw();
        done = done && lab.Completed(iters);
        for (const auto& sw : lab.GetTopology()->GetScaleOutSwitches())
        {
            fixedQuiet = fixedQuiet && FailureLab::GetEcnMarks(sw) == 0;
        }
        std::cout << "  mean busbw " << good
                  << " GB/s; ECN marks anywhere: " << (fixedQuiet ? "none" : "some") << "\n";
    }
    const double drop = good > 0 ? 100 * (good - bad) / good : 0;
    std::cout << "\nbusbw: " << bad << " GB/s misprofiled, " << good
              << " GB/s fixed: " << std::setprecision(1) << drop << " % drop\n";

    const bool ok = done && leafMarks && othersQuiet && fixedQuiet && drop > 10;
    std::cout << "ecn-misprofile: "
              << (ok ? "misprofiled leaf found and fixed" : "UNEXPECTED OUTCOME") << "\n";
    return ok ? 0 : 1;
}
