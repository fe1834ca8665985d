/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A minimal program of one's own against the installed module: builds a 2 x 2 rail-optimized
 * fabric, runs one 1 MiB ring AllReduce and prints its busbw. Built by check-package.cmake
 * through find_package(ai-fabric) and through pkg-config.
 */
#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    Ptr<RailOptimizedTopologyHelper> topo = CreateObject<RailOptimizedTopologyHelper>();
    topo->SetAttribute("Servers", UintegerValue(2));
    topo->SetAttribute("GpusPerServer", UintegerValue(2));
    topo->Install();
    CollectiveHelper coll;
    coll.SetTopology(topo);
    Ptr<CollectiveCommunicator> world = coll.CreateWorldCommunicator("world");
    world->Enqueue(CollectiveOp::ALL_REDUCE, 1 << 20);
    Simulator::Run();
    bool ok = world->GetRecords().size() == 1 && world->GetRecords()[0].completed;
    std::cout << "consumer: " << topo->GetNRanks() << " ranks, AllReduce "
              << (ok ? "completed" : "FAILED") << ", busbw "
              << (ok ? world->GetRecords()[0].busBw : 0.0) << " GB/s\n";
    Simulator::Destroy();
    return ok ? 0 : 1;
}
