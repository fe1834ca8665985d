/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: rack-based two- and three-tier Clos fabric.
 */
#ifndef CLOS_TOPOLOGY_HELPER_H
#define CLOS_TOPOLOGY_HELPER_H

#include "fabric-topology.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief Builds a conventional rack-based Clos fabric, two tiers (ToR + spine) or three tiers
 *        (ToR, per-pod aggregation "spine", core), with any oversubscription, for comparison
 *        with the rail-based fabrics on the same servers.
 *
 * Servers are grouped in racks of ServersPerRack; every NIC port of every GPU of a rack goes
 * to the rack's ToR, GetLeaf(rack) (so GPUs of one rack meet at their ToR whatever their rail).
 * A ToR has ServersPerRack x GpusPerServer x NicPortsPerGpu down-ports and
 * ceil(down x GpuLinkDataRate / (Oversubscription x LeafSpineDataRate)) uplinks.
 *
 * Two tiers: the uplinks are spread evenly over Spines spine switches (0 = automatic: the
 * smallest divisor of the uplinks whose spines have enough ports).
 *
 * Three tiers (Al-Fares et al., SIGCOMM 2008 style fat tree generalised to any
 * oversubscription; the shape of Meta's RTSW/CTSW/ATSW AI zones, Gangidi et al. 2024): racks
 * form pods of RacksPerPod; each pod has SpinesPerPod aggregation switches
 * (GetSpine(pod x SpinesPerPod + j)) that take the ToR uplinks evenly; aggregation switch j of
 * every pod has ceil(down x LeafSpineDataRate / (SpineOversubscription x SpineCoreDataRate))
 * uplinks spread evenly over the Cores / SpinesPerPod core switches of core plane j
 * (GetCore(j x coresPerPlane + c)).
 *
 * <b>Plain hosts.</b> Hosts = N > 0 builds N plain single-NIC hosts instead of GPU servers,
 * the usual congestion-control setup (HPCC, DCQCN papers): one host per "server"
 * (Servers = N, GpusPerServer 1, NicPortsPerGpu 1, NvLink false: no NVSwitch, NVLink port,
 * cable or address), each host's one NIC port cabled to its rack's ToR at GpuLinkDataRate,
 * ServersPerRack hosts per rack. DoConfigure() sets those base attributes: values set for
 * them are replaced. Host h is rank h (GetRank(h), GetNic(h)). The HPCC-lineage fabric,
 * 128 x 25 Gb/s hosts on 8 ToRs and 2 spines at 100 Gb/s (2:1), is
 * Hosts 128, ServersPerRack 16, TorPorts 18, GpuLinkDataRate 25Gbps,
 * LeafSpineDataRate 100Gbps, Oversubscription 2, Spines 2 (each ToR: 16 down, 2 up).
 *
 * Install() aborts, naming the attribute and what would fit, when Tiers is not 2 or 3;
 * ServersPerRack, RacksPerPod or a port count is 0; an oversubscription is < 1; a ToR or
 * aggregation switch cannot hold its down-ports plus uplinks; a switch count does not divide
 * the uplinks it must take; Cores is not a multiple of SpinesPerPod; or switches have too few
 * ports.
 */
class ClosTopologyHelper : public FabricTopologyHelper
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ClosTopologyHelper();

    /**
     * \param rack rack index, < GetNRacks()
     * \return the rack's ToR Node (the same as GetLeaf(rack))
     */
    Ptr<Node> GetTor(uint32_t rack) const;
    /// \return number of racks, ceil(Servers / ServersPerRack)
    uint32_t GetNRacks() const;
    /// \return number of pods (three tiers), ceil(racks / RacksPerPod); 1 for two tiers
    uint32_t GetNPods() const;
    /// \return 2 or 3 (the Tiers attribute)
    uint32_t GetNTiers() const;
    /// \return uplinks per ToR (valid after Install)
    uint32_t GetTorUplinks() const;

    /// \return the Hosts attribute (0 = GPU servers)
    uint32_t GetNHosts() const;

  protected:
    void DoConfigure() override;
    std::string GetKindName() const override;
    void DoPlan() override;
    uint32_t DoGetLeafIndex(uint32_t server, uint32_t local, uint32_t port) const override;
    void DoPrintShape(std::ostream& os) const override;

  private:
    uint32_t m_hosts;               //!< attribute Hosts (0 = GPU servers)
    uint32_t m_tiers;               //!< attribute Tiers
    uint32_t m_serversPerRack;      //!< attribute ServersPerRack
    uint32_t m_torPorts;            //!< attribute TorPorts
    double m_oversubscription;      //!< attribute Oversubscription (ToR)
    uint32_t m_spines;              //!< attribute Spines (two tiers; 0 = auto)
    uint32_t m_spinePorts;          //!< attribute SpinePorts
    uint32_t m_racksPerPod;         //!< attribute RacksPerPod (three tiers)
    uint32_t m_spinesPerPod;        //!< attribute SpinesPerPod (three tiers; 0 = auto)
    double m_spineOversubscription; //!< attribute SpineOversubscription (three tiers)
    uint32_t m_cores;               //!< attribute Cores (three tiers; 0 = auto)
    uint32_t m_corePorts;           //!< attribute CorePorts
    DataRate m_leafSpineRate;       //!< attribute LeafSpineDataRate
    Time m_leafSpineDelay;          //!< attribute LeafSpineDelay
    DataRate m_spineCoreRate;       //!< attribute SpineCoreDataRate
    Time m_spineCoreDelay;          //!< attribute SpineCoreDelay
    uint32_t m_torDown;             //!< planned ToR down-ports
    uint32_t m_torUp;               //!< planned ToR uplinks
    uint32_t m_spineDown;           //!< planned spine down-ports (three tiers)
    uint32_t m_spineUp;             //!< planned spine uplinks (three tiers)
    uint32_t m_aggPerPod;           //!< planned aggregation switches per pod (three tiers)
    uint32_t m_coresPerPlane;       //!< planned cores per plane (three tiers)
};

} // namespace ns3

#endif /* CLOS_TOPOLOGY_HELPER_H */
