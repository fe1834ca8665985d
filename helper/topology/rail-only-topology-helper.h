/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: rail-only fabric (Wang et al. 2023): rail leaves, no spine.
 */
#ifndef RAIL_ONLY_TOPOLOGY_HELPER_H
#define RAIL_ONLY_TOPOLOGY_HELPER_H

#include "fabric-topology.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief Builds a rail-only fabric (W. Wang et al., "How to Build Low-cost Networks for Large
 *        Language Models (without Sacrificing Performance)", 2023): the rail leaves of a
 *        rail-optimized fabric without the spine layer.
 *
 * Rail i is NIC i of every server (GpusPerServer rails). Each rail (and NIC plane p) has one
 * leaf, GetLeaf(rail, p), that every server's rail-i GPU port p is cabled to, so every port of
 * the leaf is a down-port and Servers must be <= LeafPorts. GPUs on the same rail talk through
 * their rail leaf; GPUs of the same server through the NVSwitch.
 *
 * <b>Cross-rail traffic.</b> There is no network path between rails: a direct NIC-to-NIC QP
 * between GPUs of different rails (and servers) is impossible, and Connect() aborts for such
 * a pair. As in the paper (and NCCL's PXN), the data is forwarded through NVLink at the
 * transport user level: the source first moves it over NVLink to the GPU of its own server
 * that sits on the destination's rail, GetRelayRank(src, dst), and that GPU sends it over its
 * NIC and rail leaf to the destination. Collectives do this with two QPs,
 * Connect(src, relay) and Connect(relay, dst).
 *
 * Install() aborts, naming the attribute and what would fit, when Rails is set and differs
 * from GpusPerServer, LeafPorts is 0, or Servers exceeds LeafPorts.
 */
class RailOnlyTopologyHelper : public FabricTopologyHelper
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RailOnlyTopologyHelper();

    using FabricTopologyHelper::GetLeaf;
    /**
     * \param rail rail index, < GetNRails()
     * \param plane NIC plane (scale-out port), < NicPortsPerGpu
     * \return the rail leaf Node (aborts on out-of-range input or before Install)
     */
    Ptr<Node> GetLeaf(uint32_t rail, uint32_t plane) const;
    /// \return number of rails (= GPUs per server)
    uint32_t GetNRails() const;
    /**
     * \brief The GPU that relays traffic from \p srcRank to \p dstRank (PXN-style): the GPU of
     *        the source's server on the destination's rail,
     *        server(src) x GpusPerServer + local(dst).
     *
     * It equals \p srcRank when both share a rail (no relay needed) and \p dstRank when both
     * are in the same server (NVLink only).
     * \param srcRank source rank, < GetNRanks() (aborts otherwise)
     * \param dstRank destination rank, < GetNRanks() (aborts otherwise)
     * \return the relay rank
     */
    uint32_t GetRelayRank(uint32_t srcRank, uint32_t dstRank) const;

  protected:
    std::string GetKindName() const override;
    void DoPlan() override;
    uint32_t DoGetLeafIndex(uint32_t server, uint32_t local, uint32_t port) const override;
    void DoCheckConnect(uint32_t rankA, uint32_t rankB) const override;
    bool DoRequiresFullReach() const override;
    void DoPrintShape(std::ostream& os) const override;

  private:
    uint32_t m_rails;     //!< attribute Rails (0 = GpusPerServer)
    uint32_t m_leafPorts; //!< attribute LeafPorts
};

} // namespace ns3

#endif /* RAIL_ONLY_TOPOLOGY_HELPER_H */
