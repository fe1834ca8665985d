/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the vocabulary of a built fabric: node roles, link tiers, build statistics.
 */
#ifndef FABRIC_TOPOLOGY_TYPES_H
#define FABRIC_TOPOLOGY_TYPES_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief Role of a node in a topology built by a FabricTopologyHelper.
 */
enum class FabricNodeType : uint8_t
{
    GPU = 0,  //!< a GPU: an ns-3 Node with one RoceNic (scale-out ports + NVLink port)
    NVSWITCH, //!< the NVSwitch domain of one server (a FabricSwitch at NVLink rate)
    LEAF,     //!< first scale-out tier: rail leaf or rack (ToR) switch
    SPINE,    //!< second tier: spine (two-tier) or pod aggregation switch (three-tier Clos)
    CORE,     //!< third tier: core switch (three-tier Clos only)
    COUNT     //!< number of types (not a type)
};

/**
 * \param type a node type
 * \return its lower-case name as used in exports: "gpu", "nvswitch", "leaf", "spine", "core"
 */
const char* FabricNodeTypeName(FabricNodeType type);

/**
 * \ingroup ai-fabric-topology
 * \brief Tier of a link in a topology built by a FabricTopologyHelper.
 */
enum class FabricLinkTier : uint8_t
{
    NVLINK = 0, //!< GPU to its server's NVSwitch
    GPU_LEAF,   //!< GPU NIC port to its leaf / ToR switch
    LEAF_SPINE, //!< leaf to spine (or ToR to pod aggregation)
    SPINE_CORE, //!< pod aggregation to core (three-tier Clos)
    COUNT       //!< number of tiers (not a tier)
};

/**
 * \param tier a link tier
 * \return its name: "gpu-nvswitch", "gpu-leaf", "leaf-spine", "spine-core"
 */
const char* FabricLinkTierName(FabricLinkTier tier);

/**
 * \ingroup ai-fabric-topology
 * \brief Wall-clock cost of FabricTopologyHelper::Install, by phase (for benchmarks only; the
 *        simulation never reads it).
 */
struct FabricBuildStats
{
    double nodesSeconds{0};           //!< creating the nodes
    double linksSeconds{0};           //!< creating ports and cables (PfcHelper)
    double switchesSeconds{0};        //!< installing FabricSwitches (MMU, ECN, load balancer)
    double nicsSeconds{0};            //!< installing RoceNics and their ports
    double routesSeconds{0};          //!< computing and writing the forwarding tables
    double totalSeconds{0};           //!< the whole Install()
    uint64_t routes{0};               //!< forwarding entries written, all switches
    uint64_t forwardingTableBytes{0}; //!< memory of all forwarding tables after Freeze()
    uint64_t estimatedBytes{0};       //!< memory the plan was estimated to need (MemoryLimit)
};

} // namespace ns3

#endif /* FABRIC_TOPOLOGY_TYPES_H */
