/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: RoCEv2 RDMA NIC.
 */
#ifndef ROCE_NIC_H
#define ROCE_NIC_H

#include "roce-aeth-header.h"
#include "roce-bth-header.h"
#include "roce-immdt-header.h"
#include "roce-queue-pair.h"
#include "roce-reth-header.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/fabric-congestion-ops.h"
#include "ns3/fabric-nic.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/traced-callback.h"

#include <array>
#include <vector>

namespace ns3
{

/// Why a NIC dropped a received packet (the NIC core's reasons, with RoCE's names).
using RoceNicDropReason = FabricNicDropReason;

/**
 * \ingroup ai-fabric-roce
 * \brief How a RoCE responder tells the requester that its data arrived ECN CE-marked
 *        (RoceNic's "CongestionNotification").
 */
enum RoceCongestionNotification
{
    /// A CNP (RoCEv2 Annex A17.9), when the NotificationPoint says so (DCQCN; the default).
    ROCE_NOTIFY_CNP = 0,
    /**
     * ECN echo on the ACK, DCTCP-style: an ACK covering CE-marked data has the BTH BECN bit
     * (octet 4, bit 6; IBTA Vol 1 Annex A10, "backward explicit congestion notification") set.
     * The responder ACKs at once when the CE state of the in-order data changes, so that every
     * ACK covers packets of one CE state only (DCTCP's two-state delayed-ACK machine,
     * Alizadeh et al. SIGCOMM 2010, section 3.1): the requester counts the bytes an echoing
     * ACK acknowledges as CE-marked bytes exactly, whatever the AckInterval. The first
     * CE-marked packet after unmarked ones is itself ACKed at once (after the ACK of the
     * unmarked ones), so congestion is reported within a packet, as promptly as by a CNP. No CNP is
     * sent for request data; CE-marked READ responses (which the requester does not ACK) still go
     * to the notification point.
     */
    ROCE_NOTIFY_ACK_ECHO,
};

/**
 * \param reason a reason
 * \return its RoCE name: "unknown qp" (FabricNicDropReason::UNKNOWN_FLOW), "not roce"
 *         (NO_TRANSPORT), "malformed", "wrong address"
 */
const char* RoceNicDropReasonName(RoceNicDropReason reason);

/**
 * \ingroup ai-fabric-roce
 * \brief RoCEv2 on a NIC (one per GPU): reliable-connected queue pairs whose packets are real
 *        RoCEv2 (Ethernet / IPv4 / UDP 4791 / BTH / ... / ICRC), without ns-3's IP stack.
 *
 * The RoCE transport of a FabricNic, the transport-neutral NIC core that owns the ports, the
 * paced egress arbiter (QPs are its flows), host-side PFC and the demultiplexing of received
 * packets by UDP destination port (RoCE registers 4791). AddPort() finds the core aggregated to
 * the port's node, or creates and aggregates one; another transport (Ultra Ethernet) can share
 * it. RoceNicHelper installs a RoceNic and aggregates it to the node.
 *
 * Per QP the NIC forks its "CongestionControl" prototype (the reaction point, a
 * FabricCongestionOps writing the QP's FabricCcState) and its "NotificationPoint" prototype (a
 * FabricCcReceiverOps deciding when the responder returns a CNP; DCQCN's by default).
 * "CongestionNotification" chooses between those CNPs (Cnp, the default) and an ECN echo on
 * ACKs (AckEcho: the BTH BECN bit, for DCTCP); "EchoHopCount" makes ACKs carry the hops the
 * data crossed (BTH reserved bits; Swift); "Int" makes request packets carry an in-band
 * telemetry stack the switches fill and ACKs echo (RoceInt; HPCC). All are off by default.
 *
 * The NIC core's settings (TxQueueDepth, RxDrainRate, RxXoffBytes, RxXonBytes) are the core's
 * attributes (ns3::FabricNic::...), shared by every transport on it; RoceNic has no aliases
 * of them (SetRxDrainRate is a convenience that sets the core's). CnpInterval overrides
 * ns3::DcqcnNotificationPoint::CnpInterval for this NIC's QPs: unset by default (negative), the
 * notification point's own value applies.
 */
class RoceNic : public Object, public FabricNicTransport
{
  public:
    /// Drop trace signature: packet, reason.
    typedef void (*DropTracedCallback)(Ptr<const Packet>, RoceNicDropReason);
    /// Completion trace signature.
    typedef void (*CompletionTracedCallback)(const RoceWorkCompletion&);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RoceNic();
    ~RoceNic() override;

    /**
     * \brief Add a port: the port of the NIC core (created on the device's node if it has
     *        none), registering RoCEv2 (UDP 4791) on the core the first time.
     * \param port a PfcNetDevice of the NIC's node, attached to a cable; its MTU must carry
     *        the RoCE MTU plus 52 header bytes (aborts naming both otherwise)
     * \param address its IPv4 address
     * \return the port index (the core's)
     */
    uint32_t AddPort(Ptr<PfcNetDevice> port, Ipv4Address address);
    /// \return number of ports
    uint32_t GetNPorts() const;
    /**
     * \param i port index (< GetNPorts(); aborts otherwise)
     * \return the port
     */
    Ptr<PfcNetDevice> GetPort(uint32_t i) const;
    /**
     * \param i port index (< GetNPorts(); aborts otherwise)
     * \return the port's IPv4 address
     */
    Ipv4Address GetAddress(uint32_t i) const;
    /// \return the NIC core this transport runs on (null before the first AddPort)
    Ptr<FabricNic> GetCore() const;

    /**
     * \brief Create a queue pair on a port (connect it with RoceNicHelper::Connect).
     * \param port local port index (< GetNPorts(); aborts otherwise)
     * \return the QP, in INIT state, with fresh congestion-control instances
     */
    Ptr<RoceQueuePair> CreateQp(uint32_t port = 0);
    /**
     * \brief Take the QP number CreateQp would give next, without creating the QP (its slot
     *        stays empty: GetQp and GetQpAt return null for it). In a run across MPI
     *        processes a connection between two NICs simulated elsewhere is only reserved
     *        (RoceQpConnector), so every NIC numbers its QPs as in the sequential run while
     *        each process holds the QPs of its own NICs only.
     * \return the reserved QPN (aborts when QP numbers are exhausted, as CreateQp)
     */
    uint32_t ReserveQp();
    /**
     * \brief Create a queue pair with a chosen QP number (a numbering of the caller's, e.g.
     *        RoceTransportPlugin's per-peer numbering of flow connections); the slots below it
     *        that no QP took stay empty (GetQp/GetQpAt give null for them), and CreateQp goes
     *        on after the highest number taken.
     * \param qpn the QP number, FirstQpn..2^24-1, not taken yet (aborts naming it otherwise)
     * \param port local port index (< GetNPorts(); aborts otherwise)
     * \return the QP, in INIT state, with fresh congestion-control instances
     */
    Ptr<RoceQueuePair> CreateQpAt(uint32_t qpn, uint32_t port);
    /// Creates the QP a packet names when this NIC has none with its number: the QPN and the
    /// port it arrived on; returns the QP (created, connected, on that port) or null (the
    /// packet is dropped as for an unknown QP).
    typedef Callback<Ptr<RoceQueuePair>, uint32_t, uint32_t> QpResolver;
    /**
     * \brief Create responder QPs on their first packet: a connection whose requester was
     *        connected in another MPI process (RoceTransportPlugin's per-peer numbering) is
     *        opened here when its first request arrives, as a UET target opens a PDC.
     * \param resolver called for a packet whose QPN has no QP (null: such packets are dropped,
     *        the default)
     */
    void SetQpResolver(QpResolver resolver);
    /**
     * \brief Give an idle QP of this NIC fresh congestion-control instances (forked from the
     *        prototypes, at line rate), as CreateQp would: a reused QP then behaves as a new
     *        connection (FlowWorkloadRunner reuses QPs between flows).
     * \param qp a QP of this NIC without outstanding work requests (aborts otherwise)
     * \param pathRtt the unloaded RTT of the QP's path, told to the new algorithm before its
     *        Init (FabricCcState::SetPathRtt: HPCC's T, DCTCP's and Swift's base RTT);
     *        0 (the default) = unknown, the algorithm's BaseRtt attribute applies; negative
     *        aborts
     */
    void RenewCongestionControl(Ptr<RoceQueuePair> qp, Time pathRtt = Time(0));
    /// \return a fresh receiver side (notification point) forked from the prototype, as a
    ///         new QP gets (RoceQueuePair::SetFreshReceiverPerMessage)
    Ptr<FabricCcReceiverOps> NewReceiverOps();
    /**
     * \param qpn a QP number
     * \return the QP, or null if this NIC has none with that number
     */
    Ptr<RoceQueuePair> GetQp(uint32_t qpn) const;
    /// \return number of QPs created or reserved (ReserveQp)
    uint32_t GetNQps() const;
    /**
     * \param index a QP's creation index, < GetNQps() (aborts otherwise)
     * \return the index-th QP created (QPN = the NIC's FirstQpn + index): every QP in
     *         creation order, for monitors (FabricMonitor's per-QP counters); null for a
     *         reserved number (ReserveQp)
     */
    Ptr<RoceQueuePair> GetQpAt(uint32_t index) const;
    /**
     * \brief Sum of the counters of every QP of this NIC (ACK/NAK/CNP, retransmissions, ...).
     * \return the totals
     */
    RoceQpCounters GetTotalQpCounters() const;

    /// \return the path MTU (payload bytes per packet: 256, 512, 1024, 2048 or 4096)
    uint32_t GetMtu() const;

    /// Largest RoCEv2 headers of a data packet: IPv4 20, UDP 8, BTH 12, RETH 16, ImmDt 4,
    /// ICRC 4 bytes.
    static constexpr uint32_t MAX_HEADER_BYTES = 20 + 8 + 12 + 16 + 4 + 4;

    /**
     * \param mtu a path MTU (payload bytes per packet)
     * \param intHops INT hop records the NICs reserve (RoceNic Int on: IntMaxHops, 1..5;
     *        0 = Int off)
     * \return the smallest port (PfcNetDevice) Mtu that carries it: the largest IPv4 packet,
     *         mtu + MAX_HEADER_BYTES (1024 -> 1088 B), plus the INT stack (RoceInt: 2 B +
     *         8 B per hop; 1024 with 5 hops -> 1130 B)
     */
    static uint32_t GetDeviceMtuFor(uint32_t mtu, uint32_t intHops = 0);
    /// \return packets between coalesced ACKs
    uint32_t GetAckInterval() const;
    /// \return the out-of-order placement window, PSNs (0: off, go-back-N)
    uint32_t GetOutOfOrderWindow() const;
    /// \return the local ACK timeout, 4.096 us x 2^LocalAckTimeout
    Time GetLocalAckTimeout() const;
    /// \return the retry count
    uint32_t GetRetryCount() const;
    /**
     * \brief Set the host drain rate of the NIC core (host-side PFC; FabricNic::RxDrainRate).
     * \param rate host drain rate of received payload; 0 bit/s disables host-side PFC
     */
    void SetRxDrainRate(DataRate rate);
    /// \return the core's RxDrainRate (0 bit/s: host-side PFC off)
    DataRate GetRxDrainRate() const;
    /// \return the DSCP of data packets
    uint8_t GetDataDscp() const;
    /// \return the DSCP of ACK/NAK packets
    uint8_t GetAckDscp() const;
    /// \return the DSCP of CNPs
    uint8_t GetCnpDscp() const;

    /// \return how the responder reports CE-marked data (CongestionNotification attribute)
    RoceCongestionNotification GetCongestionNotification() const
    {
        return m_notification;
    }

    /// \return true if ACKs carry the hop count the data crossed (EchoHopCount attribute)
    bool GetEchoHopCount() const
    {
        return m_echoHopCount;
    }

    /// \return true if request packets carry an INT stack (Int attribute, HPCC)
    bool GetInt() const
    {
        return m_int;
    }

    /// \return hop records an INT stack reserves, 1..5 (IntMaxHops attribute)
    uint32_t GetIntMaxHops() const
    {
        return m_intMaxHops;
    }

    /// \return packets the NIC core dropped on receive, per reason
    const std::array<uint64_t, size_t(RoceNicDropReason::COUNT)>& GetDrops() const;

    /**
     * \brief Send a control frame (ACK/NAK/CNP) now, bypassing the arbiter.
     * \param port local port index
     * \param frame a whole frame; moved to the port
     * \param priority port priority
     */
    void SendControl(uint32_t port, FabricFrame& frame, uint8_t priority)
    {
        m_core->SendControl(port, frame, priority);
    }

    /**
     * \brief The current simulation time (FabricNic::Now()).
     * \return the time of the event being run
     */
    Time Now()
    {
        return m_core->Now();
    }

    /// Completion/receive trace hook: a work completion happened.
    TracedCallback<const RoceWorkCompletion&> m_completionTrace;

    // FabricNicTransport
    uint32_t GetMaxRxHeaderBytes() const override;
    uint32_t GetRxHeaderBytes(const uint8_t* ip, uint32_t avail) const override;
    /// \return work requests posted on this NIC's QPs and not completed (FabricNicTransport)
    uint64_t GetPendingOperations() const override;
    /// One line per QP with pending work (RoceQueuePair::Describe). \param os the stream
    void DescribePending(std::ostream& os) const override;
    bool Deliver(uint32_t port,
                 const uint8_t* ip,
                 uint32_t got,
                 uint32_t size,
                 FabricNicDropReason& reason) override;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Abort, naming both sizes, when a port cannot carry this NIC's largest packet
     *        (GetDeviceMtuFor(Mtu, IntMaxHops when Int is on)).
     * \param dev the port
     * \param who the caller, for the message
     */
    void CheckDeviceMtu(Ptr<PfcNetDevice> dev, const char* who) const;
    /**
     * \param port local port index
     * \param pathRtt the path's unloaded RTT (0 = unknown)
     * \return a fresh congestion-control instance (forked from the prototype) bound to a new
     *         state at the port's line rate
     */
    Ptr<FabricCongestionOps> NewCongestionOps(uint32_t port, Time pathRtt = Time(0)) const;
    /// Create the congestion-control and notification-point prototypes if not yet made.
    void MakePrototypes();
    /**
     * \brief The QP the resolver gives for a packet to an unknown QPN (cold path).
     * \param qpn the packet's destination QPN
     * \param port the port it arrived on
     * \return the QP, or null
     */
    RoceQueuePair* Resolve(uint32_t qpn, uint32_t port);
    /// IPv4 + UDP + BTH + an INT stack (RoceInt, HPCC) + up to 20 bytes of extension headers
    /// (RETH + ImmDt): what Deliver reads.
    static constexpr uint32_t RX_HEADER_BYTES = 20 + 8 + 12 + 42 + 16 + 4;
    /// IPv4 (without options) + UDP + BTH, bytes.
    static constexpr uint32_t FIXED_HEADER_BYTES = 20 + 8 + RoceBthHeader::SIZE;

    /**
     * \param opcode a BTH opcode
     * \return the bytes of IPv4 (without options), UDP, BTH and the extension headers
     *         (RETH, ImmDt, AETH) a packet with that opcode carries (IBTA Vol 1 9.3)
     */
    static uint32_t HeaderBytes(uint8_t opcode)
    {
        return FIXED_HEADER_BYTES + (RoceBthHeader::HasReth(opcode) ? RoceRethHeader::SIZE : 0) +
               (RoceBthHeader::HasImmDt(opcode) ? RoceImmDtHeader::SIZE : 0) +
               (RoceBthHeader::HasAeth(opcode) ? RoceAethHeader::SIZE : 0);
    }

    /// Validate and set the MTU attribute.
    void SetMtu(uint32_t mtu);
    /// Attach to the NIC core of \p node (first AddPort).
    void AttachCore(Ptr<Node> node);
    /// The core dropped a packet: the RoceNic "Drop" trace sees it too.
    void CoreDrop(Ptr<const Packet> packet, FabricNicDropReason reason);
    Ptr<FabricNic> m_core;      //!< the NIC core
    uint32_t m_mtu;             //!< path MTU
    uint32_t m_ackInterval;     //!< ACK coalescing
    uint32_t m_oooWindow;       //!< attribute OutOfOrderWindow
    uint32_t m_localAckTimeout; //!< exponent 0..31
    uint32_t m_retryCount;      //!< 0..7
    Time m_cnpInterval;         //!< alias: CNP interval (negative = unset)
    uint8_t m_dataDscp;         //!< DSCP of data
    uint8_t m_ackDscp;          //!< DSCP of ACK/NAK
    uint8_t m_cnpDscp;          //!< DSCP of CNP
    RoceCongestionNotification m_notification{ROCE_NOTIFY_CNP}; //!< CE report
    bool m_echoHopCount{false};             //!< ACKs carry the data's hop count (BTH resv7)
    bool m_int{false};                      //!< request packets carry an INT stack
    uint32_t m_intMaxHops{5};               //!< hop records an INT stack reserves
    uint32_t m_firstQpn;                    //!< QPN of m_qps[0]
    TypeId m_ccTypeId;                      //!< congestion control type
    TypeId m_npTypeId;                      //!< notification point type
    Ptr<FabricCongestionOps> m_ccPrototype; //!< prototype (created lazily)
    Ptr<FabricCcReceiverOps> m_npPrototype; //!< prototype (created lazily)
    std::vector<Ptr<RoceQueuePair>> m_qps;  //!< QPs by QPN - m_firstQpn
    QpResolver m_resolver;                  //!< SetQpResolver (null: none)
    TracedCallback<Ptr<const Packet>, RoceNicDropReason> m_dropTrace; //!< drops
};

} // namespace ns3

#endif /* ROCE_NIC_H */
