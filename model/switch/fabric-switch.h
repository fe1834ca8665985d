/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a data-center switch aggregated on a plain ns-3 Node.
 */
#ifndef FABRIC_SWITCH_H
#define FABRIC_SWITCH_H

#include "shared-buffer-mmu.h"
#include "switch-flow-key.h"
#include "switch-forwarding-table.h"
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
 * \brief Why a FabricSwitch dropped a packet.
 */
enum class SwitchDropReason : uint8_t
{
    NO_ROUTE = 0,      //!< "no route": the forwarding table has no entry for the destination
    HEADROOM_OVERFLOW, //!< "headroom overflow": lossless packet beyond XOFF headroom
    EGRESS_THRESHOLD,  //!< "egress threshold": lossy packet over the egress dynamic limit
    BUFFER_FULL,       //!< "buffer full": lossy packet found no ingress buffer
    TTL_EXPIRED,       //!< "ttl expired": IPv4 TTL reached 0
    NOT_IPV4,          //!< "not ipv4": an EtherType the switch does not forward
    MALFORMED,         //!< "malformed": too short or not IPv4 version 4
    EGRESS_REFUSED,    //!< "egress refused": the egress port refused the frame (MTU, queue)
    COUNT              //!< number of reasons (not a reason)
};

/**
 * \param reason a reason
 * \return its name as used in traces and CSV ("no route", "headroom overflow", ...)
 */
const char* SwitchDropReasonName(SwitchDropReason reason);

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
    std::array<uint64_t, size_t(SwitchDropReason::COUNT)> drops{}; //!< drops per reason
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
 * queue occupancy, decrements the TTL (rewriting only the IPv4 header bytes and checksum) and
 * queues the packet on the egress port at the same priority. The MMU bytes are released when
 * the frame leaves the egress queue.
 */
class FabricSwitch : public Object, public PfcPortOwner
{
  public:
    /// Drop trace: packet, ingress port, reason.
    typedef void (*DropTracedCallback)(Ptr<const Packet>, uint32_t, SwitchDropReason);
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
                      const Ptr<PfcNetDevice>& dev,
                      FabricFrame& frame,
                      uint32_t l2Bytes,
                      uint8_t priority) override;
    /// Egress() of a frame delayed by ProcessingDelay, kept as a packet by the event.
    void EgressPacket(uint32_t outPort,
                      Ptr<Packet> packet,
                      uint32_t l2Bytes,
                      SwitchFlowKey key,
                      uint32_t bytes);
    /**
     * \brief Read the flow key from a frame's head.
     * \param frame the frame
     * \param l2Bytes its L2 header length
     * \param[out] key the key
     * \return false if the head does not hold a well-formed IPv4 header and the L4 ports
     */
    static bool ParseKey(const FabricFrame& frame, uint32_t l2Bytes, SwitchFlowKey& key);
    /// Egress: mark, rewrite the Ethernet and IPv4 headers (in the frame's head) and queue on
    /// the chosen port; the frame is moved to the port.
    void Egress(uint32_t outPort,
                FabricFrame& frame,
                uint32_t l2Bytes,
                SwitchFlowKey key,
                uint32_t bytes);
    /// The egress port dequeued a frame: release its MMU bytes.
    void FrameDequeued(uint32_t outPort, uint8_t priority, uint64_t tag) override;
    /// MMU decided XOFF/XON for (ingress port, priority).
    void OnXoff(uint32_t port, uint8_t priority, bool xoff);
    /// Count and trace a drop.
    void Drop(Ptr<const Packet> packet, uint32_t inPort, SwitchDropReason reason);
    /// Count and trace the drop of a received frame (the trace sees its IPv4 packet).
    void DropFrame(const FabricFrame& frame,
                   uint32_t l2Bytes,
                   uint32_t inPort,
                   SwitchDropReason reason);

    Time m_processingDelay;                 //!< attribute ProcessingDelay
    FabricEngineRef m_engine;               //!< the engine, if a FabricSimulatorImpl (Now())
    bool m_decrementTtl;                    //!< attribute DecrementTtl
    Ptr<SharedBufferMmu> m_mmu;             //!< buffer accounting
    Ptr<WredEcnMarker> m_ecn;               //!< ECN marking
    Ptr<SwitchLoadBalancer> m_lb;           //!< egress choice
    Ptr<SwitchForwardingTable> m_table;     //!< routes
    std::vector<Ptr<PfcNetDevice>> m_ports; //!< ports
    std::vector<Mac48Address> m_peerMac;    //!< MAC at the far end of each port
    bool m_configured;                      //!< Configure() done
    SwitchCounters m_counters;              //!< counters

    TracedCallback<Ptr<const Packet>, uint32_t, SwitchDropReason> m_dropTrace; //!< drops
    TracedCallback<uint32_t, uint8_t, uint64_t> m_ecnMarkTrace;                //!< CE marks
    TracedCallback<uint32_t, uint8_t, bool> m_xoffTrace;                       //!< XOFF/XON
};

} // namespace ns3

#endif /* FABRIC_SWITCH_H */
