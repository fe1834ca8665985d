/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: RoCEv2 as helpers see it (FabricTransportPlugin "roce").
 */
#ifndef ROCE_TRANSPORT_PLUGIN_H
#define ROCE_TRANSPORT_PLUGIN_H

#include "roce-nic-helper.h"

#include "ns3/fabric-transport-plugin.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief RoCEv2 (InfiniBand Architecture Vol 1 Annex A17) as a FabricTransportPlugin, named
 *        "roce", display name "RoCE".
 *
 * Install() puts a RoceNic (UDP 4791) on every port of a host's NIC core through
 * GetNicHelper(), whose NIC attributes and congestion control apply to every NIC installed
 * afterwards and whose QP connector (start PSNs, entropy) connects QPs.
 *
 * Ports carry GetNicHelper().GetDeviceMtu() (the path MTU's packet, with INT when HPCC's
 * telemetry is on); MTUs are RoCE's path MTUs 256, 512, 1024, 2048 and 4096 (IBA Vol 1, A17);
 * messages have no size limit here (a flow is one RDMA WRITE, split into packets by its QP).
 * Collectives run on RoceCollectiveTransport. ConfigureFabric (FabricTransportConfig) gives the
 * NICs the CongestionControl attribute's algorithm (RoceNicHelper::SetCongestionControl) and
 * changes nothing else: a RoCE fabric is the topology's default (RoCE data on the switches'
 * lossless priority 3 with PFC, ECN for DCQCN).
 *
 * Flow workloads (CreateMessageService): a message from rank s to rank d takes an idle QP pair
 * of (s, d) or connects a new one on the topology's connection ports; when its WRITE
 * completes, the pair returns to the pool with fresh congestion-control instances
 * (RoceNic::RenewCongestionControl with the path's unloaded RTT), so every flow starts at line
 * rate as on a new connection (the HPCC-lineage simulators' one QP per flow), and the QPs
 * ever created are bounded by the most flows a host pair had in flight at once. With
 * QpNumbering per-peer (needed across MPI processes, where a flow is posted in its source's
 * process only) the k-th pair between two ranks has QP numbers both ends know
 * (RoceQpConnector::PerPeerQpn, from each NIC's first free QP number when the service is
 * created: QPs a NIC creates later, e.g. a collective's, may collide and abort, naming the
 * number), the responder's QP is opened by its first packet
 * (RoceNic::SetQpResolver), and the responder's notification point is renewed when a new
 * message begins (RoceQueuePair::SetFreshReceiverPerMessage) instead of when the previous one
 * completed at the sender. A message's
 * retransmissions are its requester QP's; its wire format is 82 B beyond the payload per
 * packet (Ethernet, 802.1Q, IPv4, UDP, BTH, ICRC, FCS, preamble, gap), the first packet 16 B
 * of RETH more, and an 86 B ACK.
 */
class RoceTransportPlugin : public FabricTransportPlugin
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RoceTransportPlugin();
    ~RoceTransportPlugin() override;

    /// \return the helper that installs the RoceNics and connects their QPs
    RoceNicHelper& GetNicHelper();

    std::string GetDisplayName() const override;
    void Install(Ptr<Node> node, Ptr<FabricNic> core) override;
    bool IsInstalledOn(Ptr<Node> node) const override;
    uint32_t GetDeviceMtu() const override;
    void CheckMtu(uint32_t mtu, const std::string& what) const override;
    int64_t AssignStreams(int64_t stream) override;
    uint8_t GetDataPriority() const override;
    std::vector<std::string> GetCongestionControlNames() const override;
    /// Its QPs' retransmissions, local ACK timeouts, NAKs received, CNPs and CE marks.
    void AddCounters(Ptr<Node> host, FabricTransportCounters& c) const override;
    /**
     * \brief Every QP of the host's RoceNic in creation order (QPN order), with its
     *        RoceQpCounters in the transport-neutral names: retransmissions =
     *        retransmittedPackets, timeouts = timeouts (local ACK timeouts), nacks = naksRx,
     *        outOfOrder = outOfOrderRx, cnpsTx, cnpsRx, ceRx.
     * \param host a host (nothing without a RoceNic)
     * \param[in,out] flows the list to append to
     */
    void AddFlowCounters(Ptr<Node> host, std::vector<FabricFlowCounters>& flows) const override;
    /**
     * \brief Abort unless \p value is a CongestionControl name: dcqcn, none, dctcp, timely,
     *        swift, hpcc (no plug-in is made: an early check of a program's option).
     * \param value the value
     * \param what how to name it in the message (e.g. "--cc")
     */
    static void CheckCongestionControlName(const std::string& value, const std::string& what);
    /// Give the NIC helper the CongestionControl attribute's algorithm.
    void ConfigureFabric(FabricTransportTarget& fabric) override;
    void Describe(std::ostream& os) const override;
    Ptr<FabricMessageService> CreateMessageService(const FabricMessageServiceSetup& setup) override;

  private:
    RoceNicHelper m_nicHelper; //!< installs the NICs, connects QPs
    std::string m_cc;          //!< attribute CongestionControl
    std::string m_qpNumbering; //!< attribute QpNumbering
};

} // namespace ns3

#endif /* ROCE_TRANSPORT_PLUGIN_H */
