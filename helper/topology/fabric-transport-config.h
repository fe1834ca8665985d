/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: one object that sets up a fabric for RoCEv2 or for Ultra Ethernet (congestion
 * control, spraying, the UET class lossy and trimmed), so that both run on the same topology.
 */
#ifndef FABRIC_TRANSPORT_CONFIG_H
#define FABRIC_TRANSPORT_CONFIG_H

#include "fabric-topology.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief The transport of a fabric and what it needs from the switches, applied to a
 *        FabricTopologyHelper in two steps: Configure() before its Install(), Finish() after.
 *
 * <b>RoCEv2</b> (Transport "roce", the default): RoceNics with RoceCongestionControl ("dcqcn"
 * or "none"); nothing else changes, so a RoCE fabric is exactly the topology's default (RoCE
 * data on the switches' lossless priority 3 with PFC, ECN for DCQCN).
 *
 * <b>Ultra Ethernet</b> (Transport "uet"): UetNics only (the topology's Transports "uet"), with
 * - UetCongestionControl: "none" (line rate), "nscc" (NsccCongestionOps, its BaseRtt set on
 *   every NIC by Finish() to the fabric's largest unloaded RTT,
 *   FabricTopologyHelper::GetMaxUnloadedRtt), "rccc" (RcccCongestionOps, receiver credit,
 *   same BaseRtt) or "both" (RCCC with an NSCC as its SenderCc);
 * - EvStrategy: the UetNic EvSelector ("single": one path per PDC, ECMP by flow;
 *   "oblivious", "bitmap", "reps", "mixed": packet spraying, UetEvSelector::CreateByName).
 *   Spraying reorders packets, so the NICs neither ACK on every hole (AckOnHole false) nor
 *   infer losses from reordering (OooThreshold 0);
 * - the UET data class lossy: the NICs' DataDscp is UetDataDscp (default 8: priority 1 by the
 *   ports' DSCP >> 3 map), which must not be a lossless priority of the switches (no PFC on
 *   it; Finish() aborts naming the value otherwise) nor the control (6) or trim (7) priority
 *   (UetDataDscp 0..47). With Trimming (default) every switch (scale-out and NVSwitch) trims that
 *   priority (SharedBufferMmu TrimPriorities; its TrimSize, TrimDscp and LastHopTrimDscp are
 *   checked by the topology's Install), and OooThreshold is 0 (a trimmed packet is NACKed, not
 *   lost). Without trimming a packet that does not fit is dropped and recovered by inferred
 *   loss or RTO;
 * - after Install (Finish()), with BDP = GpuLinkDataRate x the largest unloaded RTT of a full
 *   UET data packet and its ACK: every scale-out switch holds at most UetQueueBdp x BDP bytes
 *   per lossy egress queue (SharedBufferMmu EgressLimitBytes; 0 keeps the dynamic threshold
 *   alone), and marks ECN on the UET data priority only, linearly from UetEcnMinBdp to
 *   UetEcnMaxBdp x (port rate x RTT) with probability 1 at the top (UEC htsim's 0.2 / 0.8
 *   BDP, as FatTreeTopologyHelper); the NICs' RtoMin is UetRtoMin, or when 0 htsim's 15 us +
 *   6 x the queue's drain time at GpuLinkDataRate (kept at the UetNic default without a
 *   static queue limit).
 *
 * Every value is an attribute (--ns3::FabricTransportConfig::...); names are checked where
 * they are set, aborting with the attribute, the value and the valid values. Programs that
 * take them as options check them first with CheckTransport(), CheckRoceCc(), CheckUetCc() and
 * CheckEvStrategy(), so the message names the option.
 */
class FabricTransportConfig : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricTransportConfig();
    ~FabricTransportConfig() override;

    /**
     * \brief Set the topology up for the transport, before its Install(): the Transports
     *        attribute, the NIC helper (congestion control, EV selector, DataDscp, ...) and,
     *        for UET, the switch helpers (trimming, ECN priority). Aborts on an unavailable
     *        UetCongestionControl.
     * \param topo the topology (not installed; aborts otherwise)
     */
    void Configure(Ptr<FabricTopologyHelper> topo) const;
    /**
     * \brief Finish the set-up after the topology's Install(): for UET the BDP-sized queue
     *        limit and ECN thresholds of the scale-out switches, the NICs' RtoMin and the
     *        congestion control's BaseRtt. Nothing for RoCE. Aborts, naming the values, when
     *        the UET data priority is lossless on the switches or UetEcnMaxBdp is not between
     *        UetEcnMinBdp and UetQueueBdp.
     * \param topo the topology given to Configure(), installed (aborts otherwise)
     */
    void Finish(Ptr<FabricTopologyHelper> topo);

    /// \return true for Transport "uet"
    bool IsUet() const;
    /// \return the Transport attribute: "roce" or "uet"
    std::string GetTransport() const;
    /// \return the congestion control in effect: RoceCongestionControl or UetCongestionControl
    std::string GetCongestionControl() const;
    /// \return the EvStrategy attribute
    std::string GetEvStrategy() const;
    /// \return the priority of UET data on the ports (UetDataDscp >> 3)
    uint8_t GetUetDataPriority() const;
    /// \return the largest unloaded RTT Finish() used (0 before Finish() or for RoCE)
    Time GetBaseRtt() const;
    /// \return the BDP Finish() used, bytes (0 before Finish() or for RoCE)
    uint64_t GetBdpBytes() const;
    /// \return the static UET queue limit Finish() set, bytes (0: none)
    uint64_t GetUetQueueBytes() const;
    /// \return the NICs' RtoMin Finish() set (0: the UetNic default was kept)
    Time GetUetRtoMin() const;
    /**
     * \brief One line saying what this configuration sets (transport, congestion control,
     *        PFC or trimming, spraying, queue and ECN sizes once Finish() ran).
     * \param os the stream
     */
    void Describe(std::ostream& os) const;

    /**
     * \brief Abort unless \p value is a transport: "roce" or "uet".
     * \param value the value
     * \param what how to name it in the message (e.g. "--transport")
     */
    static void CheckTransport(const std::string& value, const std::string& what);
    /**
     * \brief Abort unless \p value is a RoCE congestion control: "dcqcn" or "none".
     * \param value the value
     * \param what how to name it in the message (e.g. "--cc")
     */
    static void CheckRoceCc(const std::string& value, const std::string& what);
    /**
     * \brief Abort unless \p value is a UET congestion control: "none", "nscc", "rccc" or
     *        "both".
     * \param value the value
     * \param what how to name it in the message (e.g. "--uet-cc")
     */
    static void CheckUetCc(const std::string& value, const std::string& what);
    /**
     * \brief Abort unless \p value is an EV strategy: single, oblivious, bitmap, reps, mixed.
     * \param value the value
     * \param what how to name it in the message (e.g. "--ev-strategy")
     */
    static void CheckEvStrategy(const std::string& value, const std::string& what);
    /**
     * \brief Refuse an MTU the transport's NICs cannot take (an input error naming \p what):
     *        RoCE a path MTU (256, 512, 1024, 2048, 4096; IBA Vol 1, A17), UET 256..16383
     *        payload bytes (UetNic::Mtu).
     * \param transport "roce" or "uet" (CheckTransport first)
     * \param mtu payload bytes per packet
     * \param what how to name it in the message (e.g. "ns3::ClosWorkloadHelper::Mtu")
     */
    static void CheckMtu(const std::string& transport, uint32_t mtu, const std::string& what);
    /**
     * \param transport "roce" or "uet" (CheckTransport first)
     * \return the largest message one operation of the transport carries, bytes: UET's SES
     *         request_length is 32 bits (2^32 - 1); RoCE messages are split by the runner
     *         (no limit here: UINT64_MAX)
     */
    static uint64_t GetMaxMessageBytes(const std::string& transport);
    /**
     * \param transport "roce" or "uet"
     * \return its name in messages: "RoCE" or "UET"
     */
    static const char* GetDisplayName(const std::string& transport);

    /// Bytes of a full UET data frame of \p mtu payload bytes: Ethernet 14 + IPv4 20 + UDP 8 +
    /// PDS 12 + SES 44 + payload + FCS 4. \param mtu payload bytes \return frame bytes
    static uint32_t UetDataFrameBytes(uint32_t mtu);
    /// Bytes of the frame that acknowledges a WRITE: Ethernet 14 + IPv4 20 + UDP 8 + PDS ACK
    /// 12 + SES response 12 + FCS 4 = 70.
    static constexpr uint32_t UET_ACK_FRAME_BYTES = 14 + 20 + 8 + 12 + 12 + 4;

  private:
    /// \return the UetNic CongestionControl TypeId for UetCongestionControl (aborts if absent)
    TypeId UetCcTypeId() const;

    std::string m_transport;    //!< attribute Transport
    std::string m_roceCc;       //!< attribute RoceCongestionControl
    std::string m_uetCc;        //!< attribute UetCongestionControl
    std::string m_ev;           //!< attribute EvStrategy
    uint8_t m_uetDscp;          //!< attribute UetDataDscp
    bool m_trimming;            //!< attribute Trimming
    double m_queueBdp;          //!< attribute UetQueueBdp
    double m_ecnMinBdp;         //!< attribute UetEcnMinBdp
    double m_ecnMaxBdp;         //!< attribute UetEcnMaxBdp
    Time m_rtoMinAttr;          //!< attribute UetRtoMin (0 = htsim's rule)
    Time m_baseRtt;             //!< set by Finish()
    uint64_t m_bdp{0};          //!< set by Finish()
    uint64_t m_queueBytes{0};   //!< set by Finish()
    Time m_rtoMin;              //!< set by Finish()
    uint64_t m_ecnKminBytes{0}; //!< at GpuLinkDataRate, set by Finish()
    uint64_t m_ecnKmaxBytes{0}; //!< at GpuLinkDataRate, set by Finish()
};

} // namespace ns3

#endif /* FABRIC_TRANSPORT_CONFIG_H */
