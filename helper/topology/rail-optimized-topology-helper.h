/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: rail-optimized leaf-spine fabric (NVIDIA DGX SuperPOD style).
 */
#ifndef RAIL_OPTIMIZED_TOPOLOGY_HELPER_H
#define RAIL_OPTIMIZED_TOPOLOGY_HELPER_H

#include "fabric-topology.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief Builds a rail-optimized two-tier fabric: servers grouped in scalable units (SUs), one
 *        leaf per rail (and per NIC plane) in every SU, and a spine layer joining all leaves.
 *
 * Rail i is NIC i of every server (NIC i <-> GPU i <-> rail i, so there are GpusPerServer
 * rails). In SU u, scale-out port p (plane p) of the rail-r GPU of every server goes to leaf
 * (u x NicPortsPerGpu + p) x rails + r, i.e. GetLeaf(r, u x NicPortsPerGpu + p). A leaf has one
 * down-port per server slot of its SU (ServersPerSu) and
 * ceil(ServersPerSu x GpuLinkDataRate / (Oversubscription x LeafSpineDataRate)) uplinks, spread
 * evenly over every spine (uplinks / Spines parallel cables to each spine; ECMP uses each as a
 * distinct port). GPUs on the same rail and SU therefore meet at one leaf; all other
 * inter-server pairs cross leaf-spine-leaf; same-server pairs use NVLink only.
 *
 * Defaults reproduce one NVIDIA DGX H100 SuperPOD scalable unit (DGX SuperPOD reference
 * architecture): 32 servers x 8 GPUs, 8 leaves of 64 x 400 Gb/s ports (32 down, 32 up),
 * non-blocking, and 4 spines. With Spines = 0 (default) the spine count is the smallest
 * divisor of the leaf uplink count whose spines have enough ports (SpinePorts) for every
 * leaf's share; with 64-port spines this gives the published 1 SU: 8 leaves / 4 spines,
 * 2 SU: 16 / 8, 4 SU: 32 / 16. A two-tier fabric of 64-port spines stops at 64 leaves
 * (8 SUs, 2048 GPUs); larger fabrics need bigger spines (SpinePorts, e.g. a modular chassis
 * or a spine plane modelled as one switch) or ClosTopologyHelper with three tiers.
 *
 * Install() aborts, naming the attribute and what would fit, when: Rails is set and differs
 * from GpusPerServer; ServersPerSu, LeafPorts or SpinePorts is 0; Oversubscription < 1; a leaf
 * cannot hold ServersPerSu down-ports plus its uplinks; Spines does not divide the leaf
 * uplinks; or the spines have too few ports.
 */
class RailOptimizedTopologyHelper : public FabricTopologyHelper
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RailOptimizedTopologyHelper();

    using FabricTopologyHelper::GetLeaf;
    /**
     * \param rail rail index, < GetNRails()
     * \param i leaf of that rail, < GetNLeavesPerRail(): SU x NicPortsPerGpu + plane
     * \return the leaf Node (aborts on out-of-range input or before Install)
     */
    Ptr<Node> GetLeaf(uint32_t rail, uint32_t i) const;
    /// \return number of rails (= GPUs per server)
    uint32_t GetNRails() const;
    /// \return leaves per rail = scalable units x NIC ports per GPU
    uint32_t GetNLeavesPerRail() const;
    /// \return number of scalable units, ceil(Servers / ServersPerSu)
    uint32_t GetNScalableUnits() const;
    /// \return uplinks per leaf (valid after Install)
    uint32_t GetLeafUplinks() const;

  protected:
    std::string GetKindName() const override;
    void DoPlan() override;
    uint32_t DoGetLeafIndex(uint32_t server, uint32_t local, uint32_t port) const override;
    void DoPrintShape(std::ostream& os) const override;

  private:
    uint32_t m_serversPerSu;   //!< attribute ServersPerSu
    uint32_t m_rails;          //!< attribute Rails (0 = GpusPerServer)
    uint32_t m_leafPorts;      //!< attribute LeafPorts
    double m_oversubscription; //!< attribute Oversubscription
    uint32_t m_spines;         //!< attribute Spines (0 = auto)
    uint32_t m_spinePorts;     //!< attribute SpinePorts
    DataRate m_leafSpineRate;  //!< attribute LeafSpineDataRate
    Time m_leafSpineDelay;     //!< attribute LeafSpineDelay
    uint32_t m_uplinks;        //!< planned uplinks per leaf
    uint32_t m_nSpinesPlanned; //!< planned spines
};

} // namespace ns3

#endif /* RAIL_OPTIMIZED_TOPOLOGY_HELPER_H */
