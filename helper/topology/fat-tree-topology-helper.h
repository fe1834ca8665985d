/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: k-ary three-tier fat tree with the defaults of UEC's htsim (uet-htsim), for
 * running htsim's reference scenarios.
 */
#ifndef FAT_TREE_TOPOLOGY_HELPER_H
#define FAT_TREE_TOPOLOGY_HELPER_H

#include "fabric-topology.h"

#include "ns3/type-id.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief Fabric-wide totals of a fat tree after (or during) a run: what the switches did to
 *        packets and how the UET NICs recovered.
 */
struct FatTreeCounters
{
    uint64_t trims{0};           //!< packets trimmed by the switches (fabric + last hop)
    uint64_t lastHopTrims{0};    //!< of trims: on a ToR port facing a host
    uint64_t drops{0};           //!< packets the switches dropped, any reason
    uint64_t ecnMarks{0};        //!< packets the switches marked CE
    uint64_t rtos{0};            //!< UET retransmission timeouts, all NICs
    uint64_t retransmissions{0}; //!< UET request packets sent again, all NICs
    uint64_t trimNacks{0};       //!< NACK TRIMMED / TRIMMED_LASTHOP sent by the receivers
};

/**
 * \ingroup ai-fabric-topology
 * \brief A k-ary three-tier fat tree (Al-Fares et al., SIGCOMM 2008) of plain single-NIC hosts
 *        with Ultra Ethernet NICs, configured with the defaults of UEC's htsim (uet-htsim's
 *        main_uec / fat_tree_topology; UET.md "htsim's reference scenarios") so that htsim's
 *        scenarios (HtsimConnectionMatrix) run here unchanged.
 *
 * <b>Shape.</b> K (even, >= 2) pods; each pod has K/2 ToRs (leaves) and K/2 aggregation
 * switches (spines); every ToR has K/2 hosts and one cable to each aggregation switch of its
 * pod; (K/2)^2 cores in K/2 planes: aggregation switch j of every pod has one cable to each of
 * the K/2 cores of plane j (cores j x K/2 .. j x K/2 + K/2 - 1). K^3/4 hosts, K^2/2 ToRs,
 * K^2/2 aggregation switches, K^2/4 cores, 3 K^3/4 cables; full bisection (every switch has
 * as many cables up as down). K = 4: 16 hosts, 8 + 8 + 4 switches, 48 cables; K = 16: 1024
 * hosts. Host h is on ToR h / (K/2) (GetLeaf()), in pod h / (K/2)^2; ToR t of pod p is
 * GetLeaf(p x K/2 + t), aggregation switch j of pod p GetSpine(p x K/2 + j), core c
 * GetCore(c). Every cable runs at LinkDataRate (default 100 Gb/s) with LinkDelay (1 us); the
 * switches forward with SwitchLatency (0). The longest path, host - ToR - agg - core - agg -
 * ToR - host, is 6 cables (htsim's 6 us "diameter latency").
 *
 * <b>Hosts.</b> A host is rank h of the FabricTopologyHelper: one server with one GPU and
 * one NIC port (GpusPerServer 1, NicPortsPerGpu 1) and no NVSwitch or NVLink (NvLink false),
 * carrying a UetNic (Transports "uet"). DoConfigure() derives these base attributes, and
 * GpuLinkDataRate / GpuLinkDelay, from K, LinkDataRate and LinkDelay: values set for them are
 * replaced.
 *
 * <b>Queues (htsim).</b> BDP = the largest unloaded RTT (GetMaxUnloadedRtt(): a full data
 * packet over the 6 cables, its ACK back) x LinkDataRate, in whole data packets
 * (GetBdpPackets(): ceil(BDP / data packet wire bytes), as htsim's bdp_pkt). Every switch
 * egress queue of the UET data class holds at most QueueBytes (SharedBufferMmu
 * EgressLimitBytes; default 1 BDP of packets with Trimming, 5 without: htsim's
 * DEFAULT_TRIMMING_QUEUESIZE_FACTOR / DEFAULT_NONTRIMMING_QUEUESIZE_FACTOR) and is lossy (no
 * PFC: LosslessPriorities 0). With Ecn, every queue of that class (ToR down-ports to the hosts
 * included) marks CE from ceil(EcnMinBdp x BDP packets) to ceil(EcnMaxBdp x BDP packets) full
 * packets, linearly up to probability 1 (WredEcnMarker Pmax 1; htsim's ecn_low/ecn_high at
 * 0.2/0.8 BDP). With Trimming a data packet that does not fit is cut to TrimSize (default
 * the smallest the receivers can read, UetNicHelper::GetMinTrimBytes: 84 B, 88 B with receiver
 * credit; htsim cuts to 64 B of its own headers) and sent on priority 7 (SharedBufferMmu
 * TrimPriority, TrimDscp 56, LastHopTrimDscp 57 at the ToR ports facing hosts: the UetNic defaults;
 * Install() checks them with UetNicHelper::CheckSwitchTrimming). UET data uses UetDataDscp (default
 * 8, priority 1 by the ports' DSCP >> 3 map); ACKs and NACKs keep the NIC's ControlDscp (48,
 * priority 6), above data under the ports' strict-priority scheduler. At K = 4, 100 Gb/s, 1 us, Mtu
 * 4096 this gives an RTT of 14.056 us, a BDP of 42 packets (176,316 B of queue) and ECN from 37,782
 * to 142,732 B; htsim, whose packets carry 64 B of headers instead of UET's 102 B, prints 14.023
 * us, 43 packets (178,450 B), 37,350 and 145,250 B.
 *
 * <b>UET NICs.</b> RtoMin defaults to htsim's min RTO, 15 us + 6 x QueueBytes drain time
 * (99.6 us at the defaults; htsim 100.656 us), unless the ns3::UetNic::RtoMin default was
 * changed (Config::SetDefault, --ns3::UetNic::RtoMin), which is then kept. With Trimming,
 * inferred loss is off (UetNic OooThreshold 0: trimmed packets are NACKed, not lost) unless the
 * ns3::UetNic::OooThreshold default was changed. For a failed link, set the defaults
 * OooThreshold 16 and InferLossAge 1.5: a packet that vanished is then inferred lost in ~1.5
 * RTT instead of an RTO, and REPS hears it (at 1024 hosts without a failure they cost spurious
 * losses: the permutation's tail 231 -> 300 us). The Mtu
 * is the UetNic Mtu default (4096 B, htsim's payload). The congestion control is the UetNic
 * CongestionControl attribute (set it with GetUetNicHelper() or --ns3::UetNic::...).
 *
 * <b>Load balancing.</b> Every switch runs LoadBalancer (default
 * ns3::EntropyEcmpLoadBalancer) over the equal-cost ports FabricRouteComputer found, with the
 * UET EV (the UDP source port, UdpSourcePortEntropyParser on UDP 4793) in the hash: packets
 * with different EVs take different paths, packets of one EV one path.
 *
 * <b>Failures.</b> GetAggCoreLink(), GetTorAggLink() and GetHostLink() give cable indices for
 * SetLinkUp() (fail / restore, routes recomputed) and SetLinkDataRate() (degrade / restore).
 *
 * Errors: Install() aborts before building anything, naming the attribute, its value and the
 * valid range, for an odd or too small K, a zero LinkDataRate, a negative delay, a QueueBytes
 * below one data packet, ECN thresholds outside 0 <= EcnMinBdp <= EcnMaxBdp with Kmax above
 * the queue, or a UetDataDscp whose priority is 6 or 7 (control and trim classes).
 */
class FatTreeTopologyHelper : public FabricTopologyHelper
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FatTreeTopologyHelper();

    /// \return the K attribute (pods, ports per switch)
    uint32_t GetK() const;
    /// \return hosts, K^3 / 4
    uint32_t GetNHosts() const;
    /// \return pods, K
    uint32_t GetNPods() const;
    /**
     * \param host a host, < GetNHosts() (aborts otherwise)
     * \return its Node (GetRank(host))
     */
    Ptr<Node> GetHost(uint32_t host) const;
    /**
     * \param host a host, < GetNHosts() (aborts otherwise)
     * \return its pod, host / (K/2)^2
     */
    uint32_t GetPodOf(uint32_t host) const;
    /**
     * \param pod a pod, < K
     * \param tor a ToR of the pod, < K/2
     * \return its Node, GetLeaf(pod x K/2 + tor) (aborts on bad indices or before Install)
     */
    Ptr<Node> GetTor(uint32_t pod, uint32_t tor) const;
    /**
     * \param pod a pod, < K
     * \param agg an aggregation switch of the pod, < K/2
     * \return its Node, GetSpine(pod x K/2 + agg) (aborts on bad indices or before Install)
     */
    Ptr<Node> GetAgg(uint32_t pod, uint32_t agg) const;
    /**
     * \param host a host, < GetNHosts()
     * \return the index of its cable to its ToR (for SetLinkUp / SetLinkDataRate)
     */
    uint32_t GetHostLink(uint32_t host) const;
    /**
     * \param pod a pod, < K
     * \param tor a ToR of the pod, < K/2
     * \param agg an aggregation switch of the pod, < K/2
     * \return the index of the cable between them
     */
    uint32_t GetTorAggLink(uint32_t pod, uint32_t tor, uint32_t agg) const;
    /**
     * \param pod a pod, < K
     * \param core a core, < (K/2)^2; it belongs to plane core / (K/2), so the cable is the one
     *        from aggregation switch core / (K/2) of the pod
     * \return the index of that aggregation-to-core cable (fail it with SetLinkUp(i, false),
     *         degrade it with SetLinkDataRate())
     */
    uint32_t GetAggCoreLink(uint32_t pod, uint32_t core) const;

    /**
     * \brief The largest unloaded round-trip time: a full UET data packet (Mtu payload + 84 B
     *        of IPv4/UDP/PDS/SES headers + 18 B of Ethernet header and FCS + 8 B preamble) over
     *        the 6 cables of the longest path and the ACK that completes a WRITE (IPv4/UDP, PDS
     *        ACK 12 B, SES response 12 B; 70 B frame + preamble) back, each cable adding
     *        LinkDelay and each switch SwitchLatency; valid before Install().
     * \return the RTT (14.056 us at the defaults)
     */
    Time GetMaxUnloadedRtt() const;
    /**
     * \brief The unloaded RTT between two hosts, as GetMaxUnloadedRtt() over their path's
     *        cables (2 under one ToR, 4 in one pod, 6 through a core). Install() gives every
     *        UET NIC these RTTs (UetNic::SetPathRttFunction) for its congestion control.
     * \param src a host, < GetNHosts() (aborts naming the value otherwise)
     * \param dst a host, < GetNHosts()
     * \return the RTT (0 for src == dst)
     */
    Time GetUnloadedRtt(uint32_t src, uint32_t dst) const;
    using FabricTopologyHelper::GetMaxUnloadedRtt; // with explicit frame sizes
    /// \return GetMaxUnloadedRtt() x LinkDataRate, bytes, rounded up
    uint64_t GetBdpBytes() const;
    /**
     * \return the wire bytes of a full data packet: frame (Mtu + 102 B) + 8 B preamble + 12 B
     *         inter-frame gap (4218 B at Mtu 4096); Mtu + HeaderModelBytes under a simplified
     *         header model (htsim: 4086 + 64 = 4150 B)
     */
    uint32_t GetDataPacketWireBytes() const;
    /**
     * \return the bytes a switch charges a full data packet (frame without preamble and
     *         gap: Mtu + 102 B = 4198 B; Mtu + HeaderModelBytes - 20 under a simplified
     *         header model), the unit of the queue and ECN thresholds
     */
    uint32_t GetDataFrameBytes() const;
    /// \return ceil(GetBdpBytes() / GetDataPacketWireBytes()), whole packets (42 by default)
    uint32_t GetBdpPackets() const;
    /**
     * \return the per-port egress queue limit of the data class, bytes: QueueBytes, or when 0
     *         (1 with Trimming, else 5) x GetBdpPackets() x GetDataFrameBytes()
     */
    uint64_t GetQueueBytes() const;
    /// \return ECN Kmin, bytes: ceil(EcnMinBdp x GetBdpPackets()) x GetDataFrameBytes()
    uint64_t GetEcnKminBytes() const;
    /// \return ECN Kmax, bytes: ceil(EcnMaxBdp x GetBdpPackets()) x GetDataFrameBytes()
    uint64_t GetEcnKmaxBytes() const;
    /**
     * \return the UetNic RtoMin the fat tree sets: RtoMin, or when 0 htsim's 15 us + 6 x
     *         GetQueueBytes() x 8 / LinkDataRate
     */
    Time GetUetRtoMin() const;
    /// \return the priority of UET data on the ports (UetDataDscp >> 3)
    uint8_t GetDataPriority() const;
    /**
     * \brief Fix the random streams (after Install): the UET NICs' (Start_PSNs, EVs), host by
     *        host, then every switch's (ECN marking draws, load balancer), ToRs, aggregation
     *        switches, cores. With it a run does not depend on which random variables were
     *        created before (e.g. to generate the traffic).
     * \param stream first stream
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream);
    /**
     * \brief Sum the switches' and the UET NICs' counters (after Install).
     * \return the totals
     */
    FatTreeCounters GetCounters() const;

  protected:
    void DoConfigure() override;
    void DoInstalled() override;
    std::string GetKindName() const override;
    void DoPlan() override;
    uint32_t DoGetLeafIndex(uint32_t server, uint32_t local, uint32_t port) const override;
    void DoPrintShape(std::ostream& os) const override;

  private:
    /**
     * \param payload payload bytes of a packet
     * \return the frame bytes charged to it under the header model (HeaderModelBytes != 0):
     *         payload + HeaderModelBytes - preamble - inter-frame gap
     */
    uint32_t ChargedFrameBytes(uint32_t payload) const;
    /// \return the unloaded RTT over \p links cables each way (see GetMaxUnloadedRtt)
    Time UnloadedRtt(uint32_t links) const;
    /// Abort unless the attributes are valid, naming the first bad one.
    void CheckAttributes() const;
    /// Abort unless \p pod < K and \p index < K/2, naming \p what.
    void CheckPodIndex(uint32_t pod, uint32_t index, const char* what) const;
    /// \return the UetNic Mtu default (its TypeId's initial value), bytes
    static uint32_t UetMtu();
    /// \return scale-out switch \p i: ToRs, then aggregation switches, then cores
    Ptr<FabricSwitch> GetSwitch(uint32_t i) const;
    /// \return the one cable between two switches (aborts if there is not exactly one)
    uint32_t OnlyLink(Ptr<const Node> a, Ptr<const Node> b, const char* what) const;

    uint32_t m_k;                   //!< attribute K
    DataRate m_rate;                //!< attribute LinkDataRate
    Time m_delay;                   //!< attribute LinkDelay
    Time m_switchLatency;           //!< attribute SwitchLatency
    bool m_trimming;                //!< attribute Trimming
    uint64_t m_queueBytes;          //!< attribute QueueBytes (0 = from the BDP)
    bool m_ecn;                     //!< attribute Ecn
    double m_ecnMinBdp;             //!< attribute EcnMinBdp
    double m_ecnMaxBdp;             //!< attribute EcnMaxBdp
    uint32_t m_trimSize;            //!< attribute TrimSize
    uint32_t m_headerModelBytes{0}; //!< attribute HeaderModelBytes (0: real sizes)
    uint32_t m_dataDscp;            //!< attribute UetDataDscp
    TypeId m_loadBalancer;          //!< attribute LoadBalancer
    Time m_rtoMin;                  //!< attribute RtoMin (0 = htsim's formula)
};

} // namespace ns3

#endif /* FAT_TREE_TOPOLOGY_HELPER_H */
