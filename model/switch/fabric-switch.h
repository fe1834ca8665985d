/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a data-center switch aggregated on a plain ns-3 Node.
 */
#ifndef FABRIC_SWITCH_H
#define FABRIC_SWITCH_H

#include "shared-buffer-mmu.h"
#include "switch-entropy-parser.h"
#include "switch-flow-key.h"
#include "switch-forwarding-table.h"
#include "switch-reasons.h"
#include "switch-telemetry-writer.h"
#include "wred-ecn-marker.h"

#include "ns3/fabric-simulator-impl.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/switch-load-balancer.h"
#include "ns3/traced-callback.h"

#include <array>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief Counters of a FabricSwitch, readable after a run.
 */
struct SwitchCounters
{
    uint64_t forwarded{0};                         //!< packets sent to an egress port
    std::vector<uint64_t> ecnMarks;                //!< CE marks per egress port
    std::vector<std::array<uint64_t, 8>> xoffSent; //!< XOFF decisions per (port, prio)
    std::vector<std::array<uint64_t, 8>> xonSent;  //!< XON decisions per (port, prio)
    /// Drops per SwitchDropReason (id = enum value; `drops[size_t(reason)]`, GetMap(), sums).
    FabricReasonCounters drops{MakeSwitchDropCounters()};
    /// Drops of packets in a lossless priority (SharedBufferMmu::LosslessPriorities), per
    /// priority, any reason: a lossless fabric should show none.
    std::array<uint64_t, 8> losslessDrops{};
    /// Marks per SwitchMarkReason: "ecn ce" (sum of ecnMarks), "trimmed" (in the fabric),
    /// "trimmed last hop" (on a port facing a host).
    FabricReasonCounters marks{MakeSwitchMarkCounters()};

    /// \return packets trimmed, in the fabric and on last-hop ports ("trimmed" + "trimmed last
    ///         hop" marks)
    uint64_t GetTrims() const
    {
        return marks[size_t(SwitchMarkReason::TRIMMED)] +
               marks[size_t(SwitchMarkReason::TRIMMED_LASTHOP)];
    }
};

/**
 * \ingroup ai-fabric-switch
 * \brief A shared-buffer data-center switch: IPv4 forwarding by destination over equal-cost
 *        port sets, a SharedBufferMmu with PFC, WRED ECN marking and a pluggable load balancer.
 *
 * The switch is an Object aggregated to an ordinary Node whose PfcNetDevices are its ports
 * (the BridgeNetDevice precedent; no Node subclass). Per packet: the ingress port classifies
 * the priority (DSCP or PCP); the switch reads the IPv4/UDP/BTH fields it needs straight from
 * the packet bytes (no header objects), looks up the destination's equal-cost ports, lets the
 * load balancer choose one, asks the MMU to admit and charge the bytes (which may trigger PFC
 * XOFF to the ingress peer), then after ProcessingDelay decides ECN marking on the egress
 * queue occupancy (or, with the marker's MarkingPoint Dequeue, when the frame leaves the
 * egress queue, on the bytes queued behind it), decrements the TTL (rewriting only the IPv4
 * header bytes and checksum) and queues the packet on the egress port at the same priority.
 * The MMU bytes are released when the frame leaves the egress queue.
 *
 * Protocol neutrality: the switch knows IPv4 and UDP only. A transport's flow entropy (what
 * entropy-aware load balancers hash beyond the 5-tuple) is read by the parser registered for
 * the packet's UDP destination port (SetEntropyParser(); SwitchHelper installs RoCEv2's), and
 * its in-band telemetry is written by the writer registered for that port
 * (SetTelemetryWriter(); SwitchHelper installs RoCEv2's INT, RoceInt::WriteSwitchHop) on the
 * frames whose IPv4 reserved flag asks for it.
 *
 * Trimming: when the MMU answers TRIM (MmuVerdict; SharedBufferMmu TrimPriorities), the switch
 * cuts the frame to the verdict's IPv4 length, rewrites the IPv4 total length, DSCP and header
 * checksum and the UDP length (and zeroes a UDP checksum, which no longer matches), pads it to
 * the Ethernet minimum, admits it again on the trim priority and queues it there; counted as
 * mark "trimmed" (DSCP TrimDscp) or, on a port marked with SetLastHopPort() (one that faces a
 * host), "trimmed last hop" (DSCP LastHopTrimDscp), traced by "Mark"; SwitchCounters::GetTrims()
 * is their sum. A packet it cannot trim is dropped with the MMU's reason.
 *
 * Port liveness: every port is up unless SetPortUp(port, false) took it down (a failure
 * detector, a fault-injection script or the link layer calls it). A port that is down leaves
 * every equal-cost set (the load balancer chooses among the live ports only); a destination
 * whose ports are all down is dropped as "route down"; the port rejoins when it is up again.
 * While every port is up the forwarding path checks one counter.
 *
 * Drops and marks are counted per named reason (SwitchCounters::drops and marks,
 * FabricReasonCounters) and traced with the reason ("Drop", "Mark").
 */
class FabricSwitch : public Object, public PfcPortOwner
{
  public:
    /// Drop trace: packet, ingress port, reason.
    typedef void (*DropTracedCallback)(Ptr<const Packet>, uint32_t, SwitchDropReason);
    /// Mark trace: egress port, priority (the queue it goes to), reason.
    typedef void (*MarkTracedCallback)(uint32_t, uint8_t, SwitchMarkReason);
    /// Port state trace: port, true = up.
    typedef void (*PortStateTracedCallback)(uint32_t, bool);
    /// ECN mark trace: egress port, priority, egress queue bytes.
    typedef void (*EcnMarkTracedCallback)(uint32_t, uint8_t, uint64_t);
    /// XOFF/XON trace: ingress port, priority, true = XOFF.
    typedef void (*XoffTracedCallback)(uint32_t, uint8_t, bool);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricSwitch();
    ~FabricSwitch() override;

    /**
     * \brief Add a port. All ports must be added before Configure().
     * \param port a PfcNetDevice on the switch's node, attached to a cable
     * \return the port index
     */
    uint32_t AddPort(Ptr<PfcNetDevice> port);

    /**
     * \brief Size the MMU and ECN tables from the ports, connect callbacks. Called by
     *        SwitchHelper after the ports are added. Aborts on inconsistent configuration
     *        (a port with PFC disabled on a lossless priority, a port without a cable).
     */
    void Configure();

    /// \return number of ports
    uint32_t GetNPorts() const;
    /**
     * \param i port index (< GetNPorts(); aborts otherwise)
     * \return the port
     */
    Ptr<PfcNetDevice> GetPort(uint32_t i) const;
    /**
     * \param device a device of this switch
     * \return its port index, or -1 if it is not a port
     */
    int32_t GetPortIndex(Ptr<const NetDevice> device) const;

    /// \return the forwarding table
    Ptr<SwitchForwardingTable> GetForwardingTable() const;
    /// \return the MMU
    Ptr<SharedBufferMmu> GetMmu() const;
    /// \return the ECN marker
    Ptr<WredEcnMarker> GetEcnMarker() const;
    /// \return the load balancer
    Ptr<SwitchLoadBalancer> GetLoadBalancer() const;
    /// \return the counters
    const SwitchCounters& GetCounters() const;

    /**
     * \brief Register (or replace) the entropy parser of a UDP destination port (see
     *        SwitchEntropyParserTable; e.g. RoceEntropyParser::Install does this for 4791).
     * \param udpDstPort the port, 1..65535
     * \param parse the parser (aborts if null)
     */
    void SetEntropyParser(uint16_t udpDstPort, SwitchEntropyParseFn parse);
    /**
     * \brief Unregister the entropy parser of a UDP destination port.
     * \param udpDstPort the port
     * \return true if it had one
     */
    bool RemoveEntropyParser(uint16_t udpDstPort);
    /**
     * \brief Replace all entropy parsers (SwitchHelper installs its table this way).
     * \param parsers the new table
     */
    void SetEntropyParsers(const SwitchEntropyParserTable& parsers);
    /// \return the entropy parsers
    const SwitchEntropyParserTable& GetEntropyParsers() const;
    /**
     * \brief Register (or replace) the in-band telemetry writer of a UDP destination port
     *        (see SwitchTelemetryWriteFn; RoceEntropyParser::Install does this for RoCEv2's
     *        INT on 4791). Writers run only with InBandTelemetry true.
     * \param udpDstPort the port, 1..65535 (aborts on 0)
     * \param write the writer (aborts if null)
     */
    void SetTelemetryWriter(uint16_t udpDstPort, SwitchTelemetryWriteFn write);
    /**
     * \brief Unregister the telemetry writer of a UDP destination port.
     * \param udpDstPort the port
     * \return true if it had one
     */
    bool RemoveTelemetryWriter(uint16_t udpDstPort);
    /**
     * \brief Replace all telemetry writers (SwitchHelper installs its table this way).
     * \param writers the writers
     */
    void SetTelemetryWriters(const SwitchTelemetryWriterTable& writers);
    /// \return the telemetry writers
    const SwitchTelemetryWriterTable& GetTelemetryWriters() const;

    /**
     * \brief Take a port out of (false) or back into (true) forwarding, e.g. when a failure is
     *        detected. A down port leaves every equal-cost set; frames already queued on it are
     *        still transmitted (they are lost if its cable is cut). Takes effect for the next
     *        packet.
     * \param port port index (< GetNPorts(); aborts otherwise, naming the range)
     * \param up true = usable
     */
    void SetPortUp(uint32_t port, bool up);
    /**
     * \param port port index (< GetNPorts(); aborts otherwise, naming the range)
     * \return true if the port is usable (not taken down by SetPortUp())
     */
    bool IsPortUp(uint32_t port) const;
    /// \return number of ports that are not usable (0 in a healthy switch)
    uint32_t GetNPortsDown() const;

    /**
     * \brief Mark a port as a last-hop port (it faces a host) or not: packets trimmed on their
     *        way out of it carry the MMU's LastHopTrimDscp and count as "trimmed last hop"
     *        (SharedBufferMmu::SetLastHopPort). The topology helpers mark every port cabled to
     *        a NIC.
     * \param port port index (< GetNPorts(); aborts otherwise, naming the range; after
     *        Configure(), which SwitchHelper::Install calls)
     * \param lastHop true = the port faces a host
     */
    void SetLastHopPort(uint32_t port, bool lastHop);
    /**
     * \param port port index (< GetNPorts(); aborts otherwise, naming the range)
     * \return true if the port is a last-hop port (SetLastHopPort)
     */
    bool IsLastHopPort(uint32_t port) const;

    /**
     * \brief Assign fixed random streams to the marker and load balancer.
     * \param stream first stream index
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /// Bit set in the tag of every frame the switch queues (its ingress port and admitted
    /// bytes ride with the frame in the egress port's queue: PendingTag()).
    static constexpr uint64_t PENDING_TAG = 1ull << 63;

    /**
     * \param inPort ingress port
     * \param bytes bytes admitted to the MMU
     * \return the egress queue tag that gives both back at FrameDequeued
     */
    static uint64_t PendingTag(uint32_t inPort, uint32_t bytes)
    {
        return PENDING_TAG | (uint64_t(inPort) << 32) | bytes;
    }

    /// Ingress: a port delivered a packet.
    void Receive(uint32_t inPort,
                 Ptr<PfcNetDevice> dev,
                 Ptr<Packet> packet,
                 uint16_t protocol,
                 Mac48Address from,
                 uint8_t priority);
    /// Ingress of an IPv4 frame (frame-level: the framing stays, fields are read from the
    /// frame's head).
    void ReceiveFrame(uint32_t inPort,
                      PfcNetDevice* dev,
                      FabricFrame& frame,
                      uint32_t l2Bytes,
                      uint8_t priority) override;
    /// Egress() of a frame delayed by ProcessingDelay, kept as a packet by the event (with
    /// the frame's size discount, FabricFrame::SetSizeDiscount).
    void EgressPacket(uint32_t outPort,
                      Ptr<Packet> packet,
                      uint32_t l2Bytes,
                      SwitchFlowKey key,
                      uint32_t bytes,
                      uint32_t discount);
    /**
     * \brief Keep the live ports of an equal-cost set (called only while a port is down).
     * \param[in,out] ports the candidates; on return the live ones (in m_liveScratch)
     * \param[in,out] n their number; on return the number of live ones
     * \return false if none is live
     */
    bool KeepLivePorts(const uint32_t*& ports, uint32_t& n);
    /**
     * \brief Carry out a TRIM verdict: admit the cut size on the trim priority, cut the frame,
     *        rewrite its IPv4/UDP headers and the key.
     * \param frame the frame (replaced by the cut one on success)
     * \param l2Bytes its L2 header length
     * \param key its key (length, DSCP and priority updated on success)
     * \param verdict the MMU's TRIM verdict
     * \param outPort the egress port
     * \param[out] bytes the MMU bytes of the cut frame
     * \param[out] reason why the packet must be dropped instead (on failure)
     * \return false if the packet could not be trimmed (then nothing is charged)
     */
    bool Trim(FabricFrame& frame,
              uint32_t l2Bytes,
              SwitchFlowKey& key,
              const MmuVerdict& verdict,
              uint32_t outPort,
              uint32_t& bytes,
              SwitchDropReason& reason);

    /// Egress: mark, rewrite the Ethernet and IPv4 headers (in the frame's head) and queue on
    /// the chosen port; the frame is moved to the port.
    void Egress(uint32_t outPort,
                FabricFrame& frame,
                uint32_t l2Bytes,
                const SwitchFlowKey& key,
                uint32_t bytes);
    /**
     * \brief This hop's telemetry for a frame joining an egress queue: the bytes of its
     *        priority queued ahead of it, the port's cumulative transmitted frame bytes, the
     *        time and the port's rate.
     * \param outPort the egress port
     * \param priority the frame's priority
     * \param ownBytes the bytes the MMU charged for the frame itself
     * \return the hop's telemetry
     */
    SwitchHopTelemetry HopTelemetry(uint32_t outPort, uint8_t priority, uint32_t ownBytes) const;
    /// The egress port dequeued a frame: release its MMU bytes.
    void FrameDequeued(uint32_t outPort, uint8_t priority, uint64_t tag) override;
    /// A frame leaves an egress port (only with MarkingPoint Dequeue): ECN-mark it on the
    /// bytes queued behind it.
    void FrameLeaving(uint32_t outPort,
                      uint8_t priority,
                      uint64_t tag,
                      FabricFrame& frame) override;
    /// Count and trace a CE mark decided on \p queueBytes.
    void CountEcnMark(uint32_t outPort, uint8_t priority, uint64_t queueBytes);
    /// MMU decided XOFF/XON for (ingress port, priority).
    void OnXoff(uint32_t port, uint8_t priority, bool xoff);
    /// Count and trace a mark.
    void Mark(uint32_t outPort, uint8_t priority, SwitchMarkReason reason);
    /// Count and trace a drop.
    void Drop(Ptr<const Packet> packet, uint32_t inPort, SwitchDropReason reason);
    /// Count and trace the drop of a received frame (the trace sees its IPv4 packet).
    void DropFrame(const FabricFrame& frame,
                   uint32_t l2Bytes,
                   uint32_t inPort,
                   uint8_t priority,
                   SwitchDropReason reason);

    Time m_processingDelay;                 //!< attribute ProcessingDelay
    FabricEngineRef m_engine;               //!< the engine, if a FabricSimulatorImpl (Now())
    bool m_decrementTtl;                    //!< attribute DecrementTtl
    bool m_inBandTelemetry;                 //!< attribute InBandTelemetry
    Ptr<SharedBufferMmu> m_mmu;             //!< buffer accounting
    Ptr<WredEcnMarker> m_ecn;               //!< ECN marking
    Ptr<SwitchLoadBalancer> m_lb;           //!< egress choice
    Ptr<SwitchForwardingTable> m_table;     //!< routes
    std::vector<Ptr<PfcNetDevice>> m_ports; //!< ports
    std::vector<Mac48Address> m_peerMac;    //!< MAC at the far end of each port
    bool m_configured;                      //!< Configure() done
    bool m_markOnDequeue;                   //!< ECN MarkingPoint Dequeue
    bool m_lbEgressHook{false};             //!< the balancer rewrites packets on egress (OnEgress)
    SwitchCounters m_counters;              //!< counters
    SwitchEntropyParserTable m_parsers;     //!< entropy parsers by UDP destination port
    SwitchTelemetryWriterTable m_telemetryWriters; //!< INT writers by UDP destination port

    std::vector<uint8_t> m_portUp;       //!< 1 if the port is usable, per port
    uint32_t m_portsDown;                //!< ports that are not usable
    std::vector<uint32_t> m_liveScratch; //!< the live ports of one lookup (KeepLivePorts)

    TracedCallback<Ptr<const Packet>, uint32_t, SwitchDropReason> m_dropTrace; //!< drops
    TracedCallback<uint32_t, uint8_t, uint64_t> m_ecnMarkTrace;                //!< CE marks
    TracedCallback<uint32_t, uint8_t, bool> m_xoffTrace;                       //!< XOFF/XON
    TracedCallback<uint32_t, uint8_t, SwitchMarkReason> m_markTrace;           //!< marks
    TracedCallback<uint32_t, bool> m_portStateTrace;                           //!< port up/down
};

} // namespace ns3

#endif /* FABRIC_SWITCH_H */
