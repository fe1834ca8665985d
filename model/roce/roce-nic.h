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
#include "ns3/fabric-simulator-impl.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-congestion-ops.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <queue>
#include <tuple>
#include <vector>

namespace ns3
{

/// Why a RoceNic dropped a received packet.
enum class RoceNicDropReason : uint8_t
{
    UNKNOWN_QP = 0, //!< "unknown qp": BTH DestQP names no QP of this NIC
    NOT_ROCE,       //!< "not roce": not IPv4/UDP to port 4791
    MALFORMED,      //!< "malformed": too short for its headers
    WRONG_ADDRESS,  //!< "wrong address": IPv4 destination is not this port
    COUNT           //!< number of reasons (not a reason)
};

/**
 * \param reason a reason
 * \return its name ("unknown qp", ...)
 */
const char* RoceNicDropReasonName(RoceNicDropReason reason);

/**
 * \ingroup ai-fabric-roce
 * \brief A RoCEv2 RDMA NIC (one per GPU): reliable-connected queue pairs over one or more
 *        PfcNetDevice ports, real RoCEv2 packets (Ethernet / IPv4 / UDP 4791 / BTH / ... /
 *        ICRC) without ns-3's IP stack, and a per-priority egress arbiter.
 *
 * Aggregated to a Node by RoceNicHelper. Each port has one IPv4 address; everything a port
 * sends goes to the port's peer (its leaf switch or a directly attached NIC).
 *
 * Egress: per (port, priority) the NIC keeps at most TxQueueDepth data frames in the port's
 * queue and refills it whenever the port dequeues one, choosing the QP round robin among those
 * that have data, are within their window and whose pacing time has come (O(1) per packet:
 * a FIFO of ready QPs plus a min-heap of paced QPs woken by a single timer). ACK/NAK/CNP
 * packets bypass the arbiter on their own (high) priority.
 *
 * NIC-originated PFC (optional): with RxDrainRate > 0 received payload enters a host buffer
 * that drains at that rate (PCIe / host memory backpressure); above RxXoffBytes the port
 * pauses the data priority of its peer, below RxXonBytes it resumes.
 */
class RoceNic : public Object, public PfcPortOwner
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
     * \brief Add a port.
     * \param port a PfcNetDevice of the NIC's node, attached to a cable
     * \param address its IPv4 address
     * \return the port index
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

    /**
     * \brief Create a queue pair on a port (connect it with RoceNicHelper::Connect).
     * \param port local port index (< GetNPorts(); aborts otherwise)
     * \return the QP, in INIT state, with a fresh congestion-control instance
     */
    Ptr<RoceQueuePair> CreateQp(uint32_t port = 0);
    /**
     * \param qpn a QP number
     * \return the QP, or null if this NIC has none with that number
     */
    Ptr<RoceQueuePair> GetQp(uint32_t qpn) const;
    /// \return number of QPs created
    uint32_t GetNQps() const;
    /**
     * \brief Sum of the counters of every QP of this NIC (ACK/NAK/CNP, retransmissions, ...).
     * \return the totals
     */
    RoceQpCounters GetTotalQpCounters() const;

    /// \return the path MTU (payload bytes per packet: 256, 512, 1024, 2048 or 4096)
    uint32_t GetMtu() const;
    /// \return packets between coalesced ACKs
    uint32_t GetAckInterval() const;
    /// \return the local ACK timeout, 4.096 us x 2^LocalAckTimeout
    Time GetLocalAckTimeout() const;
    /// \return the retry count
    uint32_t GetRetryCount() const;
    /**
     * \brief Set the RxDrainRate attribute (NIC-originated PFC).
     * \param rate host drain rate of received payload; 0 bit/s disables NIC-originated PFC
     */
    void SetRxDrainRate(DataRate rate);
    /// \return the RxDrainRate attribute (0 bit/s: NIC-originated PFC off)
    DataRate GetRxDrainRate() const;
    /// \return the minimum time between CNPs of one QP
    Time GetCnpInterval() const;
    /// \return the DSCP of data packets
    uint8_t GetDataDscp() const;
    /// \return the DSCP of ACK/NAK packets
    uint8_t GetAckDscp() const;
    /// \return the DSCP of CNPs
    uint8_t GetCnpDscp() const;
    /// \return packets dropped on receive, per reason
    const std::array<uint64_t, size_t(RoceNicDropReason::COUNT)>& GetDrops() const;

    /**
     * \brief Assign fixed random streams (none used yet).
     * \param stream first stream
     * \return 0
     */
    int64_t AssignStreams(int64_t stream);

    // ---- used by RoceQueuePair -------------------------------------------------------------
    /**
     * \brief A QP may have data to send: schedule it on its port's arbiter.
     * \param qp the QP
     */
    void Activate(RoceQueuePair* qp);
    /**
     * \brief A paced QP's next send time moved (its rate changed): requeue it.
     * \param qp the QP (must be in the pacing heap)
     */
    void Reschedule(RoceQueuePair* qp);
    /**
     * \brief Send a control frame (ACK/NAK/CNP) now, bypassing the arbiter.
     * \param port local port index
     * \param frame a whole frame built with WriteFrameHeader() (see PfcNetDevice::SendFrame);
     *        moved to the port
     * \param priority port priority
     */
    void SendControl(uint32_t port, FabricFrame& frame, uint8_t priority);
    /**
     * \brief Write the L2 header of a frame leaving a port towards its peer (IPv4 EtherType).
     * \param port local port index
     * \param priority port priority 0..7 (the 802.1Q PCP when the port tags)
     * \param out at least 18 bytes
     * \return the header length, 14 or 18 bytes
     */
    uint32_t WriteFrameHeader(uint32_t port, uint8_t priority, uint8_t* out) const;
    /**
     * \brief Account received payload for NIC-originated PFC.
     * \param port local port index
     * \param priority priority of the data
     * \param bytes payload bytes
     */
    void AccountRx(uint32_t port, uint8_t priority, uint64_t bytes);

    /**
     * \brief The current simulation time (Simulator::Now()), read without a virtual call when
     *        the engine is a FabricSimulatorImpl: the NIC and its QPs need it for every packet.
     * \return the time of the event being run
     */
    Time Now()
    {
        return m_engine.Now();
    }

    /// Completion/receive trace hook: a work completion happened.
    TracedCallback<const RoceWorkCompletion&> m_completionTrace;

  protected:
    void DoDispose() override;

  private:
    /// Egress state of one (port, priority).
    struct Arbiter
    {
        std::deque<RoceQueuePair*> ready; //!< QPs that may send now
        /// Paced QPs: (time, sequence, qp, epoch), earliest first; entries whose epoch is not
        /// the QP's current one are stale and skipped.
        std::priority_queue<std::tuple<Time, uint64_t, RoceQueuePair*, uint64_t>,
                            std::vector<std::tuple<Time, uint64_t, RoceQueuePair*, uint64_t>>,
                            std::greater<>>
            paced;
        uint32_t dataInDevice{0};  //!< data frames in the port queue
        std::deque<bool> inDevice; //!< per queued frame: true = data (FIFO)
        EventId wake;              //!< next paced QP due
    };

    /// Per-port state.
    struct Port
    {
        Ptr<PfcNetDevice> dev;      //!< the device
        uint32_t addressBits{0};    //!< its IPv4 address, host order (compared per packet)
        Mac48Address peerMac;       //!< next hop
        std::array<Arbiter, 8> arb; //!< per priority
        double rxBacklog{0};        //!< host-buffer bytes (NIC PFC)
        Time rxBacklogAt;           //!< time of rxBacklog
        EventId xonCheck;           //!< NIC PFC XON check
    };

    /// Put a QP in the pacing heap of its arbiter.
    void PushPaced(Arbiter& arb, RoceQueuePair* qp, Time t);
    /// Fill the port queue of (port, priority) from its arbiter.
    void Kick(uint32_t port, uint8_t priority);
    /// The port dequeued a data frame (PfcPortOwner).
    void FrameDequeued(uint32_t port, uint8_t priority, uint64_t tag) override;
    /// A non-IPv4 packet (framing removed) arrived on a port: not RoCE.
    void Receive(uint32_t port,
                 Ptr<PfcNetDevice> dev,
                 Ptr<Packet> packet,
                 uint16_t protocol,
                 Mac48Address from,
                 uint8_t priority);
    /// PfcPortOwner: an IPv4 frame arrived on a port; its RoCEv2 headers are parsed from the
    /// frame's head and the frame goes to its QP (Deliver); a zero-body frame never gets a
    /// packet unless it is dropped or was observed on the way.
    void ReceiveFrame(uint32_t port,
                      const Ptr<PfcNetDevice>& dev,
                      FabricFrame& frame,
                      uint32_t l2Bytes,
                      uint8_t priority) override;
    /**
     * \brief Parse the RoCEv2 headers of a received IPv4 packet and hand them to its QP.
     * \param port local port index
     * \param b the packet's first bytes from its IPv4 header on
     * \param got how many (the RoCEv2 headers the opcode has, or all the packet has)
     * \param size IPv4 packet length (total length field for frames)
     * \param[out] reason why the packet was not delivered, when it was not
     * \return true if the packet went to its QP; false if not (the caller drops it)
     */
    bool Deliver(uint32_t port,
                 const uint8_t* b,
                 uint32_t got,
                 uint32_t size,
                 RoceNicDropReason& reason);
    /// Count and trace a drop.
    void Drop(Ptr<const Packet> packet, RoceNicDropReason reason);
    /// Count and trace a drop of the IPv4 packet at \p offset (\p size bytes) in \p packet.
    void Drop(Ptr<const Packet> packet, uint32_t offset, uint32_t size, RoceNicDropReason reason);

    /// IPv4 + UDP + BTH + up to 20 bytes of extension headers (RETH + ImmDt): what Deliver reads.
    static constexpr uint32_t RX_HEADER_BYTES = 20 + 8 + 12 + 16 + 4;
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

    /// Drain the host buffer model up to now; maybe XON.
    void DrainRx(uint32_t port, uint8_t priority);
    /// Validate and set the MTU attribute.
    void SetMtu(uint32_t mtu);

    uint32_t m_mtu;                        //!< path MTU
    uint32_t m_ackInterval;                //!< ACK coalescing
    uint32_t m_localAckTimeout;            //!< exponent 0..31
    uint32_t m_retryCount;                 //!< 0..7
    Time m_cnpInterval;                    //!< min time between CNPs per QP
    uint8_t m_dataDscp;                    //!< DSCP of data
    uint8_t m_ackDscp;                     //!< DSCP of ACK/NAK
    uint8_t m_cnpDscp;                     //!< DSCP of CNP
    uint32_t m_txQueueDepth;               //!< data frames kept in a port queue
    DataRate m_rxDrainRate;                //!< NIC PFC host drain (0 = off)
    bool m_rxDrainOn{false};               //!< m_rxDrainRate > 0 (checked per packet)
    uint64_t m_rxXoff;                     //!< NIC PFC XOFF level, bytes
    uint64_t m_rxXon;                      //!< NIC PFC XON level, bytes
    uint32_t m_firstQpn;                   //!< QPN of m_qps[0]
    TypeId m_ccTypeId;                     //!< congestion control type
    Ptr<RoceCongestionOps> m_ccPrototype;  //!< prototype (created lazily)
    std::vector<Port> m_ports;             //!< ports
    std::vector<Ptr<RoceQueuePair>> m_qps; //!< QPs by QPN - m_firstQpn
    uint64_t m_arbSeq;                     //!< tie-break for the paced heap
    std::array<uint64_t, size_t(RoceNicDropReason::COUNT)> m_drops{}; //!< drops
    TracedCallback<Ptr<const Packet>, RoceNicDropReason> m_dropTrace; //!< drops
    FabricEngineRef m_engine; //!< the engine, if a FabricSimulatorImpl (for Now())
};

} // namespace ns3

#endif /* ROCE_NIC_H */
