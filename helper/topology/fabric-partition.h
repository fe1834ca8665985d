/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: which MPI process (ns-3 system) simulates which node of a fabric.
 */
#ifndef FABRIC_PARTITION_H
#define FABRIC_PARTITION_H

#include "fabric-topology-types.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief How a fabric is cut into MPI systems (FabricTopologyHelper's PartitionBy).
 */
enum FabricPartitionBy : uint8_t
{
    PARTITION_BY_LEAF = 0, //!< groups of leaves with their servers: GPU-leaf and NVLink cables
                           //!< stay inside a system, leaf-spine and spine-core cables cross
    PARTITION_BY_POD,      //!< pods (a three-tier fabric's leaves and spines with their
                           //!< servers): only spine-core cables cross; two tiers: as LEAF
};

/**
 * \ingroup ai-fabric-topology
 * \brief Assigns every node of a fabric to one of S systems (ns-3's system ids, one per MPI
 *        process) so that only switch-to-switch cables cross between systems.
 *
 * A *unit* is a set of nodes that must stay together: the connected groups left when the
 * cables allowed to cross are removed. GPU-leaf (host) and NVLink cables never cross: a
 * server, its NVSwitch and the leaves its GPUs attach to form one unit (with rail-optimized
 * servers: all rail leaves of a scalable unit). PARTITION_BY_LEAF lets leaf-spine and
 * spine-core cables cross, so each spine and core switch is a unit of its own;
 * PARTITION_BY_POD lets only spine-core cables cross in a fabric that has them. Units with
 * GPUs are dealt to the systems in node order, in S contiguous blocks of equal count (the
 * first units go to system 0); units without GPUs (spines, cores) go round-robin, spreading
 * the switches that carry the cross-system traffic.
 *
 * A cable between two systems carries its frames through MPI, and its propagation delay is
 * the lookahead of ns-3's distributed engine: it must be > 0. GetLookahead() is the smallest
 * such delay: the longest stretch every process can simulate without hearing from the others.
 */
class FabricPartition
{
  public:
    /// One cable of the fabric.
    struct Cable
    {
        uint32_t a;          //!< one end, node index 0..nNodes-1
        uint32_t b;          //!< other end, node index 0..nNodes-1
        FabricLinkTier tier; //!< what it connects
        Time delay;          //!< one-way propagation delay
    };

    /// Names a node (by index) in error messages.
    using Namer = std::function<std::string(uint32_t)>;

    /**
     * \brief Partition automatically.
     * \param nNodes nodes, indices 0..nNodes-1
     * \param nGpus the first nGpus indices are GPUs (hosts), 1..nNodes
     * \param cables every cable
     * \param by which cables may cross
     * \param systems S, >= 1: an input error naming the value if it is more than the units
     *        with GPUs (more processes than partitionable units), or if a crossing cable has
     *        a zero delay (naming the cable)
     * \param namer names nodes in errors
     */
    FabricPartition(uint32_t nNodes,
                    uint32_t nGpus,
                    const std::vector<Cable>& cables,
                    FabricPartitionBy by,
                    uint32_t systems,
                    const Namer& namer);

    /**
     * \brief Take an explicit assignment and check it.
     * \param systemOfNode the system of each node (size nNodes; each < \p systems)
     * \param cables every cable
     * \param systems S, >= 1
     * \param namer names nodes in errors
     *
     * Input errors (each naming the values): a size other than the number of nodes, a system
     * id >= S, a GPU-leaf or NVLink cable whose ends are in different systems, a crossing
     * cable with zero delay, a system with no node.
     */
    FabricPartition(const std::vector<uint32_t>& systemOfNode,
                    const std::vector<Cable>& cables,
                    uint32_t systems,
                    const Namer& namer);

    /// \return S
    uint32_t GetSystems() const;
    /**
     * \param node a node index
     * \return its system, 0..S-1 (aborts for an index out of range)
     */
    uint32_t GetSystem(uint32_t node) const;
    /// \return the system of every node, by index
    const std::vector<uint32_t>& GetSystemOfNode() const;
    /// \return units with GPUs (0 for an explicit assignment)
    uint32_t GetGpuUnits() const;
    /// \return cables whose ends are in different systems
    uint32_t GetCrossingCables() const;
    /// \return the smallest delay of a crossing cable (0 if none crosses)
    Time GetLookahead() const;
    /**
     * \param system 0..S-1
     * \return the smallest delay of the crossing cables with an end in \p system: that
     *         process's lookahead in ns-3's distributed engine (0 if none)
     */
    Time GetLookahead(uint32_t system) const;
    /**
     * \param system 0..S-1
     * \return nodes assigned to it
     */
    uint32_t GetNodeCount(uint32_t system) const;

  private:
    /**
     * \brief Check the crossing cables (host and NVLink cables stay inside; delays > 0) and
     *        count them.
     * \param cables every cable
     * \param namer names nodes in errors
     */
    void CheckCables(const std::vector<Cable>& cables, const Namer& namer);

    uint32_t m_systems;                   //!< S
    std::vector<uint32_t> m_systemOfNode; //!< system by node index
    uint32_t m_gpuUnits{0};               //!< units with GPUs
    uint32_t m_crossing{0};               //!< crossing cables
    Time m_lookahead;                     //!< smallest crossing delay
    std::vector<Time> m_systemLookahead;  //!< smallest crossing delay by system (0: none)
};

} // namespace ns3

#endif /* FABRIC_PARTITION_H */
