/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: Ultra Ethernet as helpers see it (FabricTransportPlugin "uet").
 */
#ifndef UET_TRANSPORT_PLUGIN_H
#define UET_TRANSPORT_PLUGIN_H

#include "uet-nic-helper.h"

#include "ns3/fabric-transport-plugin.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Ultra Ethernet (UEC 1.0 SES over PDS) as a FabricTransportPlugin, named "uet",
 *        display name "UET".
 *
 * Install() puts a UetNic (UDP 4793) on every port of a host's NIC core through
 * GetNicHelper(), whose NIC attributes apply to every NIC installed afterwards. CheckSwitch()
 * refuses a switch whose trimmed packets the NICs could not recognize and answer
 * (UetNicHelper::CheckSwitchTrimming: TrimSize, TrimDscp, LastHopTrimDscp).
 *
 * <b>Fabric set-up</b> (ConfigureFabric / FinishFabric, through FabricTransportConfig): the
 * NICs' congestion control (CongestionControl: "none", "nscc" with BaseRtt = the fabric's
 * largest unloaded RTT, "rccc", or "both": RCCC with an NSCC as its SenderCc) and EV strategy
 * (EvStrategy: "single", or spraying with "oblivious", "bitmap", "reps", "mixed"; spraying
 * reorders, so the NICs neither ACK on every hole nor infer losses from reordering); the data
 * class lossy (DataDscp, default 8: priority 1, never a lossless priority of the switches) and
 * trimmed (Trimming) on every switch; BDP-sized queues and ECN thresholds (QueueBdp,
 * EcnMinBdp, EcnMaxBdp: UEC htsim's 1, 0.2, 0.8) and htsim's RtoMin rule (RtoMin).
 *
 * Ports carry UetNic::GetDeviceMtuFor(the NICs' Mtu); MTUs are 256..16383 payload bytes
 * (UetNic::Mtu); one operation carries at most 2^32 - 1 bytes (SES request_length is 32
 * bits). Collectives run on UetCollectiveTransport.
 *
 * Flow workloads (CreateMessageService): one endpoint per rank (UetNicHelper::CreateEndpoints,
 * port 0, JobID FlowJobId) with one registered memory region of 2^32 - 1 bytes, so nothing
 * is registered per flow; each message is one SES WRITE in FlowDeliveryMode (RUD or ROD).
 * Messages between the same pair share its PDC and that PDC's congestion-control context, as
 * UET's PDCs do. The NICs learn each peer's unloaded path RTT (UetNic::SetPathRttFunction)
 * unless the topology helper gave them one. A message's retransmissions are its packets sent
 * again; its wire format is 122 B beyond the payload per packet (Ethernet, IPv4, UDP, PDS,
 * SES standard header, FCS, preamble, gap; or the NICs' HeaderModelBytes) and a 90 B ACK
 * (PDS ACK + SES response).
 */
class UetTransportPlugin : public FabricTransportPlugin
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetTransportPlugin();
    ~UetTransportPlugin() override;

    /// \return the helper that installs the UetNics
    UetNicHelper& GetNicHelper();

    std::string GetDisplayName() const override;
    void Install(Ptr<Node> node, Ptr<FabricNic> core) override;
    bool IsInstalledOn(Ptr<Node> node) const override;
    uint32_t GetDeviceMtu() const override;
    void CheckSwitch(Ptr<Node> host,
                     Ptr<const FabricSwitch> sw,
                     const std::string& name) const override;
    void CheckMtu(uint32_t mtu, const std::string& what) const override;
    uint64_t GetMaxMessageBytes() const override;
    int64_t AssignStreams(int64_t stream) override;
    uint8_t GetDataPriority() const override;
    std::vector<std::string> GetCongestionControlNames() const override;
    /// Its retransmissions, RTO expirations, NACKs (trimmed ones apart) and byte counts.
    void AddCounters(Ptr<Node> host, FabricTransportCounters& c) const override;
    /**
     * \brief Before Install: the NICs' DataDscp, congestion control, EV selector (and, with
     *        spraying or trimming, no ACK on holes and no loss inference from reordering), the
     *        switches' trimming of the data priority (scale-out and NVSwitch) and ECN on that
     *        priority only. Aborts, naming the DSCP, when its priority is lossless.
     * \param fabric the fabric (not installed; aborts otherwise)
     */
    void ConfigureFabric(FabricTransportTarget& fabric) override;
    /**
     * \brief After Install: with BDP = the hosts' link rate x the largest unloaded RTT of a
     *        full data packet and its ACK, every scale-out switch's lossy egress queues hold
     *        at most QueueBdp x BDP (SharedBufferMmu EgressLimitBytes) and mark ECN from
     *        EcnMinBdp to EcnMaxBdp x (port rate x RTT) with probability 1 at the top; the
     *        NICs get RtoMin and the congestion control its BaseRtt. Aborts, naming the
     *        values, when the data priority is lossless, EcnMaxBdp is not between EcnMinBdp
     *        and QueueBdp, or the queue is smaller than one frame.
     * \param fabric the installed fabric (aborts otherwise)
     */
    void FinishFabric(FabricTransportTarget& fabric) override;
    void Describe(std::ostream& os) const override;
    Ptr<FabricMessageService> CreateMessageService(const FabricMessageServiceSetup& setup) override;

    /// \return the largest unloaded RTT FinishFabric used (0 before)
    Time GetBaseRtt() const;
    /// \return the BDP FinishFabric used, bytes (0 before)
    uint64_t GetBdpBytes() const;
    /// \return the static queue limit FinishFabric set, bytes (0: none)
    uint64_t GetQueueBytes() const;
    /// \return the NICs' RtoMin FinishFabric set (0: the UetNic default was kept)
    Time GetRtoMin() const;

    /**
     * \brief Abort unless \p value is a CongestionControl name: none, nscc, rccc, both (no
     *        plug-in is made: an early check of a program's option).
     * \param value the value
     * \param what how to name it in the message (e.g. "--uet-cc")
     */
    static void CheckCongestionControlName(const std::string& value, const std::string& what);
    /**
     * \brief Abort unless \p value is an EV strategy: single, oblivious, bitmap, reps, mixed.
     * \param value the value
     * \param what how to name it in the message (e.g. "--ev-strategy")
     */
    static void CheckEvStrategy(const std::string& value, const std::string& what);
    /// Bytes of a full UET data frame of \p mtu payload bytes: Ethernet 14 + IPv4 20 + UDP 8 +
    /// PDS 12 + SES 44 + payload + FCS 4. \param mtu payload bytes \return frame bytes
    static uint32_t DataFrameBytes(uint32_t mtu);
    /// Bytes of the frame that acknowledges a WRITE: Ethernet 14 + IPv4 20 + UDP 8 + PDS ACK
    /// 12 + SES response 12 + FCS 4 = 70.
    static constexpr uint32_t ACK_FRAME_BYTES = 14 + 20 + 8 + 12 + 12 + 4;

  private:
    /// \return the UetNic CongestionControl TypeId of the CongestionControl attribute
    TypeId CongestionControlTypeId() const;
    /// Abort, naming DataDscp, if its \p priority is \p lossless on the switches.
    void CheckLossy(uint8_t priority, bool lossless) const;

    UetNicHelper m_nicHelper;   //!< installs the NICs
    uint32_t m_flowJobId;       //!< attribute FlowJobId
    std::string m_flowMode;     //!< attribute FlowDeliveryMode
    std::string m_cc;           //!< attribute CongestionControl
    std::string m_ev;           //!< attribute EvStrategy
    uint8_t m_dataDscp;         //!< attribute DataDscp
    bool m_trimming;            //!< attribute Trimming
    double m_queueBdp;          //!< attribute QueueBdp
    double m_ecnMinBdp;         //!< attribute EcnMinBdp
    double m_ecnMaxBdp;         //!< attribute EcnMaxBdp
    Time m_rtoMinAttr;          //!< attribute RtoMin (0 = htsim's rule)
    Time m_baseRtt;             //!< set by FinishFabric
    uint64_t m_bdp{0};          //!< set by FinishFabric
    uint64_t m_queueBytes{0};   //!< set by FinishFabric
    Time m_rtoMin;              //!< set by FinishFabric
    uint64_t m_ecnKminBytes{0}; //!< at the hosts' link rate, set by FinishFabric
    uint64_t m_ecnKmaxBytes{0}; //!< at the hosts' link rate, set by FinishFabric
};

} // namespace ns3

#endif /* UET_TRANSPORT_PLUGIN_H */
