/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric example: one simulation across MPI processes.
 *
 * A rack-crossing permutation of RDMA WRITEs (RoCEv2, DCQCN, PFC) on a two-tier Clos, run
 * sequentially or split across MPI processes on ns-3's distributed engine: each process
 * simulates a group of racks (FabricTopologyHelper PartitionBy=Leaf) and some of the spines;
 * frames, PFC pause frames included, cross between processes on the leaf-spine cables, whose
 * propagation delay is the lookahead. Process 0 prints the table, the same at every process
 * count:
 *
 *   ./distributed-permutation                          one process (no MPI needed)
 *   mpirun -np 2 ./distributed-permutation             two (a build with MPI:
 *                                                      tools/ai-fabric.sh mpi-build)
 *
 * Flags: --racks, --hostsPerRack, --spines, --bytes, --incast (every host outside the last
 * rack also writes to the last rack's host 0: PFC pauses cross processes), --fct=FILE (per-flow
 * CSV), --seed / --RngRun (the permutation's shuffle and the switches' ECMP hashes).
 */
#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <sstream>

using namespace ns3;

namespace
{

/// One finished WRITE, as this process saw it.
struct Flow
{
    uint32_t src;   //!< sending host
    uint32_t dst;   //!< receiving host
    uint64_t bytes; //!< message size
    Time end;       //!< completion time
    bool ok;        //!< completed successfully
};

/**
 * \param racks racks
 * \param perRack hosts per rack
 * \param rng the shuffle's random numbers (ns-3's: --seed and --RngRun choose them)
 * \return a permutation whose every pair crosses racks (host s of rack r writes to rack
 *         r + 1 + (s mod (racks - 1)), at a slot shuffled per destination rack)
 */
std::vector<uint32_t>
RackCrossingPermutation(uint32_t racks, uint32_t perRack, const Ptr<UniformRandomVariable>& rng)
{
    std::vector<std::vector<uint32_t>> slot(racks, std::vector<uint32_t>(perRack));
    for (auto& v : slot)
    {
        std::iota(v.begin(), v.end(), 0);
        for (uint32_t i = perRack; i-- > 1;) // Fisher-Yates
        {
            std::swap(v[i], v[rng->GetInteger(0, i)]);
        }
    }
    std::vector<uint32_t> dst(racks * perRack);
    for (uint32_t i = 0; i < racks * perRack; ++i)
    {
        const uint32_t to = (i / perRack + 1 + (i % perRack) % (racks - 1)) % racks;
        dst[i] = to * perRack + slot[to][i % perRack];
    }
    return dst;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t racks = 4;
    uint32_t perRack = 8;
    uint32_t spines = 4;
    uint64_t bytes = 1 << 20;
    bool incast = true;
    std::string fctPath;
    uint32_t seed = 1;
    FabricCommandLine cmd(__FILE__); // from here on, input errors exit 2 with one line
    // First: MPI (when started by mpirun) selects ns-3's distributed engine.
    FabricMpi::Enable(&argc, &argv);

    Time::SetResolution(Time::PS);
    cmd.AddValue("racks", "Racks (leaves), >= 2", racks, 2, 1024);
    cmd.AddValue("hostsPerRack", "Hosts per rack", perRack, 1, 256);
    cmd.AddValue("spines", "Spine switches", spines, 1, 256);
    cmd.AddBytes("bytes", "WRITE size per host, bytes", bytes, 1, 1ull << 32);
    cmd.AddValue("incast",
                 "Every host outside the last rack also writes to its host 0 (PFC)",
                 incast);
    cmd.AddSeed(seed, "Random seed of the permutation and the switches' ECMP hashes");
    cmd.AddOutput("fct", "Per-flow CSV (src,dst,bytes,fct_ns), written by process 0", fctPath);
    std::string order = "causal";
    cmd.AddValue("order",
                 "Order of simultaneous events: causal (the same results sequentially and with "
                 "any process count) or fast (ns-3's order, DelayClassScheduler)",
                 order);
    cmd.Parse(argc, argv);
    FabricMpi::SelectEngine(order);

    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(racks * perRack));
    t->SetAttribute("GpusPerServer", UintegerValue(1));
    t->SetAttribute("NvLink", BooleanValue(false));
    t->SetAttribute("ServersPerRack", UintegerValue(perRack));
    t->SetAttribute("Spines", UintegerValue(spines));
    t->GetNicHelper().SetCongestionControl("dcqcn");
    t->Install();
    const FabricPartition& part = t->GetPartition();

    const uint32_t hosts = racks * perRack;
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    const std::vector<uint32_t> dst =
        RackCrossingPermutation(racks, perRack, CreateObject<UniformRandomVariable>());
    for (uint32_t i = 0; i < hosts; ++i)
    {
        pairs.emplace_back(i, dst[i]);
    }
    for (uint32_t i = 0; incast && i < (racks - 1) * perRack; ++i)
    {
        pairs.emplace_back(i, (racks - 1) * perRack);
    }
    // Every process sets up every QP pair (the same QP numbers everywhere); each posts the
    // WRITEs of its own hosts.
    std::vector<Flow> flows;
    for (const auto& [src, to] : pairs)
    {
        Ptr<RoceQueuePair> qp = t->Connect(src, to)[0].first;
        if (!FabricMpi::IsLocal(t->GetRank(src)))
        {
            continue;
        }
        qp->PostWrite(
            bytes,
            0,
            1,
            MakeCallback(+[](std::vector<Flow>* v,
                             uint32_t s,
                             uint32_t d,
                             const RoceWorkCompletion& wc) {
                v->push_back({s, d, wc.bytes, wc.endTime, wc.status == RoceWcStatus::SUCCESS});
            }).Bind(&flows, src, to));
    }
    const auto runStart = std::chrono::steady_clock::now();
    Simulator::Run();
    const double runSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();

    // Per-flow rows and counters of this process's nodes, gathered at process 0.
    std::ostringstream rows;
    for (const auto& f : flows)
    {
        rows << f.src << ',' << f.dst << ',' << f.bytes << ',' << f.end.GetPicoSeconds() << ','
             << (f.ok ? 1 : 0) << '\n';
    }
    uint64_t pauses = 0;
    uint64_t marks = 0;
    for (uint32_t l = 0; l < t->GetNLeaves(); ++l)
    {
        Ptr<Node> leaf = t->GetLeaf(l);
        if (!FabricMpi::IsLocal(leaf))
        {
            continue;
        }
        Ptr<FabricSwitch> sw = leaf->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const PfcPortCounters& c = sw->GetPort(p)->GetCounters();
            for (uint8_t q = 0; q < 8; ++q)
            {
                pauses += c.pauseTx[q];
            }
        }
        for (uint64_t m : sw->GetCounters().ecnMarks)
        {
            marks += m;
        }
    }
    FabricMpi::ReportProcess(runSeconds, t->GetObject<PfcRemoteExchange>());
    const std::string all = FabricMpi::Gather(rows.str());
    pauses = FabricMpi::Sum(pauses);
    marks = FabricMpi::Sum(marks);
    const uint64_t events = FabricMpi::Sum(Simulator::GetEventCount());

    if (FabricMpi::GetSystemId() == 0)
    {
        std::vector<std::string> lines;
        std::istringstream in(all);
        for (std::string line; std::getline(in, line);)
        {
            lines.push_back(line);
        }
        std::sort(lines.begin(), lines.end(), [](const std::string& a, const std::string& b) {
            return std::stoul(a) != std::stoul(b) ? std::stoul(a) < std::stoul(b) : a < b;
        });
        Time last;
        uint32_t ok = 0;
        for (const auto& l : lines)
        {
            std::istringstream f(l);
            std::string field[5];
            for (auto& x : field)
            {
                std::getline(f, x, ',');
            }
            last = std::max(last, PicoSeconds(std::stoll(field[3])));
            ok += field[4] == "1" ? 1 : 0;
        }
        std::cout << "distributed-permutation: " << hosts << " hosts in " << racks << " racks, "
                  << spines << " spines; " << pairs.size() << " WRITEs of " << bytes << " B\n"
                  << "processes " << FabricMpi::GetSize()
                  << " (partition: " << part.GetCrossingCables()
                  << " cables between processes, lookahead " << part.GetLookahead().GetNanoSeconds()
                  << " ns)\n"
                  << "completed " << ok << " / " << pairs.size() << ", last at " << std::fixed
                  << std::setprecision(3) << last.GetSeconds() * 1e6 << " us\n"
                  << "leaf PFC pauses sent " << pauses << ", ECN marks " << marks << '\n';
        if (!fctPath.empty())
        {
            std::ofstream out(fctPath);
            out << "src,dst,bytes,end_ps,ok\n";
            for (const auto& l : lines)
            {
                out << l << '\n';
            }
        }
        std::cout << std::flush;
        // Events and wall time differ between engines and machines: on stderr.
        std::cerr << "events " << events << ", Simulator::Run " << std::setprecision(2)
                  << runSeconds << " s at process 0" << std::endl;
    }
    Simulator::Destroy();
    FabricMpi::Disable();
    return 0;
}
