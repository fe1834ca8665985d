/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the transport-neutral NIC core.
 */
#ifndef FABRIC_NIC_H
#define FABRIC_NIC_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/fabric-event.h"
#include "ns3/fabric-frame.h"
#include "ns3/fabric-ring.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/traced-callback.h"
#include "ns3/udp-port-table.h"

#include <array>
#include <ostream>
#include <queue>
#include <tuple>
#include <vector>

namespace ns3
{

/// Why a FabricNic dropped a received packet.
enum class FabricNicDropReason : uint8_t
{
    UNKNOWN_FLOW = 0, //!< "unknown flow": the transport has no flow (QP, PDC) for it
    NO_TRANSPORT,     //!< "no transport": not IPv4/UDP to a port a transport registered
    MALFORMED,        //!< "malformed": too short for its headers
    WRONG_ADDRESS,    //!< "wrong address": IPv4 destination is not this port
    COUNT             //!< number of reasons (not a reason)
};

/**
 * \param reason a reason
 * \return its name ("unknown flow", "no transport", "malformed", "wrong address")
 */
const char* FabricNicDropReasonName(FabricNicDropReason reason);

/**
 * \ingroup ai-fabric-nic
 * \brief A sender of a transport (a RoCE QP, a UET PDC): what the NIC core's egress arbiter
 *        asks of it. The core never looks inside a flow.
 *
 * A flow is bound to one (port, priority) queue with SetNicQueue() and calls
 * FabricNic::Activate() when it may have something to send. The arbiter then asks, in turn,
 * HasPacketToSend(), GetNextSendTime() (pacing) and BuildNextPacket().
 */
class FabricNicFlow
{
  public:
    virtual ~FabricNicFlow();

    /// \return true if a data packet could be built now (window and state allow it; pacing
    ///         time aside)
    virtual bool HasPacketToSend() const = 0;
    /// \return the earliest time the next data packet may leave (pacing); <= now means now
    virtual Time GetNextSendTime() const = 0;
    /**
     * \brief Build the next data packet and account it (called only when HasPacketToSend()).
     * \param now the current simulation time
     * \return the whole frame for the flow's port (headers in its head; see
     *         PfcNetDevice::SendFrame)
     */
    virtual FabricFrame BuildNextPacket(const Time& now) = 0;

    /// \return the NIC port index the flow sends on
    uint32_t GetNicPort() const
    {
        return m_nicPort;
    }

    /// \return the port priority (0..7) the flow's data uses
    uint8_t GetNicPriority() const
    {
        return m_nicPriority;
    }

  protected:
    /**
     * \brief Bind the flow to a (port, priority) queue of its NIC (before its first Activate).
     * \param port NIC port index
     * \param priority port priority, 0..7
     */
    void SetNicQueue(uint32_t port, uint8_t priority)
    {
        m_nicPort = port;
        m_nicPriority = priority;
    }

  private:
    friend class FabricNic;
    uint32_t m_nicPort{0};    //!< NIC port
    uint8_t m_nicPriority{0}; //!< port priority
    bool m_inArbiter{false};  //!< the flow is in its arbiter (ready or paced)
    bool m_inPaced{false};    //!< the flow waits in the pacing heap
    uint64_t m_arbEpoch{0};   //!< generation of its pacing-heap entry (older ones are stale)
};

/**
 * \ingroup ai-fabric-nic
 * \brief The receive side of a transport: the NIC core hands it the IPv4 packets addressed to
 *        the UDP destination port it registered (FabricNic::RegisterTransport).
 */
class FabricNicTransport
{
  public:
    virtual ~FabricNicTransport();

    /// \return the most bytes, from the IPv4 header on, that Deliver() ever reads (>= 28)
    virtual uint32_t GetMaxRxHeaderBytes() const = 0;
    /**
     * \brief How many bytes from the IPv4 header on a packet's headers take.
     * \param ip the packet's first bytes, from the IPv4 header on
     * \param avail how many (>= 28: IPv4 without options and UDP)
     * \return the bytes Deliver() needs for this packet (<= GetMaxRxHeaderBytes())
     */
    virtual uint32_t GetRxHeaderBytes(const uint8_t* ip, uint32_t avail) const = 0;
    /**
     * \brief A packet for this transport arrived (IPv4, no options, UDP to its port, to this
     *        port's address; checked by the core).
     * \param port the NIC port index it arrived on
     * \param ip its first bytes, from the IPv4 header on (valid during the call)
     * \param got how many (at least what GetRxHeaderBytes() asked, or all the packet has)
     * \param size the IPv4 packet's length, bytes
     * \param[out] reason why it was not delivered, when it was not
     * \return true if delivered; false makes the core drop it with \p reason
     */
    virtual bool Deliver(uint32_t port,
                         const uint8_t* ip,
                         uint32_t got,
                         uint32_t size,
                         FabricNicDropReason& reason) = 0;

    /**
     * \brief Operations posted and not yet completed (work requests, messages), for stall
     *        detection (FabricHealthMonitor). Called rarely (every check interval), so it may
     *        scan the transport's flows. Default: none.
     * \return pending operations
     */
    virtual uint64_t GetPendingOperations() const;
    /**
     * \brief Describe every pending operation's flow for a stall diagnosis: one line each,
     *        naming the flow (e.g. "QP 256 -> 10.0.0.2 QP 257"), its pending operations and
     *        its progress state (PSNs, window, rate). The NIC core prefixes the node. Default:
     *        nothing.
     * \param os the stream
     */
    virtual void DescribePending(std::ostream& os) const;
};

/**
 * \ingroup ai-fabric-nic
 * \brief The transport-neutral core of a NIC (one per GPU): its PfcNetDevice ports, a paced
 *        per-(port, priority) egress arbiter over the flows of any transport, host-side PFC,
 *        the L2 header writer and a receive demultiplexer by UDP destination port.
 *
 * Transports (RoceNic on UDP 4791; Ultra Ethernet on 4793) register on the core, so one NIC
 * carries several at once as UEC-capable NICs do. Aggregated to the NIC's Node (a transport
 * finds or creates it when its first port is added).
 *
 * Egress: per (port, priority) the core keeps at most TxQueueDepth data frames in the port's
 * queue and refills it whenever the port dequeues one, choosing the flow round robin among
 * those that have data and whose pacing time has come (O(1) per packet: a FIFO of ready flows
 * plus a min-heap of paced flows woken by a single timer). Control frames (ACK, NACK, CNP)
 * bypass the arbiter on their own priority (SendControl).
 *
 * Receive: IPv4 frames addressed to a port go, by UDP destination port, to the registered
 * transport; everything else is dropped with a named reason (FabricNicDropReason), counted and
 * traced ("Drop").
 *
 * Host-side PFC (optional): with RxDrainRate > 0 received payload enters a host buffer that
 * drains at that rate (PCIe / host memory backpressure); above RxXoffBytes the port pauses the
 * data priority of its peer (IEEE 802.1Qbb XOFF), below RxXonBytes it resumes. SetRxStalled()
 * stops the drain (a host that stops consuming: the fault behind a PFC storm) while the buffer
 * keeps its accounting, so the port keeps asserting XOFF (refreshed by the port) until the
 * stall ends and the backlog drains below RxXonBytes.
 */
class FabricNic : public Object, public PfcPortOwner
{
  public:
    /// Drop trace signature: the IPv4 packet, the reason.
    typedef void (*DropTracedCallback)(Ptr<const Packet>, FabricNicDropReason);
    /// RxStall trace signature: true when the host's drain stops, false when it resumes.
    typedef void (*RxStallTracedCallback)(bool);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricNic();
    ~FabricNic() override;

    /**
     * \brief The core of a node's NIC: the FabricNic aggregated to \p node, created and
     *        aggregated if there is none yet.
     * \param node a node (aborts if null)
     * \return its NIC core
     */
    static Ptr<FabricNic> GetOrCreate(Ptr<Node> node);

    /**
     * \brief Add a port.
     * \param port a PfcNetDevice of the NIC's node, attached to a cable (aborts otherwise)
     * \param address its IPv4 address
     * \return the port index
     */
    uint32_t AddPort(Ptr<PfcNetDevice> port, Ipv4Address address);
    /**
     * \param dev a device
     * \return the index of the port that is \p dev, or GetNPorts() if none is
     */
    uint32_t FindPort(Ptr<const PfcNetDevice> dev) const;
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
     * \brief Register a transport for the packets to a UDP destination port.
     * \param udpPort the port (4791 RoCEv2, 4793 UET)
     * \param transport the transport (not owned; it must unregister before it goes away)
     * Aborts if another transport holds \p udpPort.
     */
    void RegisterTransport(uint16_t udpPort, FabricNicTransport* transport);
    /**
     * \brief Unregister the transport of a UDP destination port (no-op if none).
     * \param udpPort the port
     */
    void UnregisterTransport(uint16_t udpPort);

    /**
     * \brief A flow may have data to send: schedule it on its (port, priority) arbiter.
     * \param flow the flow (bound to a port of this NIC)
     */
    void Activate(FabricNicFlow* flow);
    /**
     * \brief A paced flow's next send time moved (its rate changed): requeue it.
     * \param flow the flow; nothing happens unless it waits in a pacing heap
     */
    void Reschedule(FabricNicFlow* flow);
    /**
     * \brief Send a control frame (ACK, NACK, CNP) now, bypassing the arbiter.
     * \param port local port index
     * \param frame a whole frame (see PfcNetDevice::SendFrame); moved to the port
     * \param priority port priority 0..7
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
     * \brief Account received payload for host-side PFC (no-op while RxDrainRate is 0).
     * \param port local port index
     * \param priority priority of the data
     * \param bytes payload bytes
     */
    void AccountRx(uint32_t port, uint8_t priority, uint64_t bytes);

    /**
     * \brief A transport posted an operation (a work request or a message): tells the work
     *        callback (+1; a FabricHealthMonitor arms its stall check). Called once per
     *        posted operation, not per packet.
     */
    void NotifyWorkPosted()
    {
        if (!m_workCallback.IsNull())
        {
            m_workCallback(1);
        }
    }

    /**
     * \brief A transport completed operations (successfully or in error): tells the work
     *        callback (-n; the monitor stops checking when nothing is pending). Every posted
     *        operation must complete exactly once.
     * \param n operations completed
     */
    void NotifyWorkCompleted(uint64_t n = 1)
    {
        if (!m_workCallback.IsNull() && n > 0)
        {
            m_workCallback(-int64_t(n));
        }
    }

    /**
     * \brief Set the callback NotifyWorkPosted() and NotifyWorkCompleted() call with the
     *        change of pending operations (one; a null callback removes it).
     * \param cb the callback, given +1 per posted and -n per n completed operations
     */
    void SetWorkCallback(Callback<void, int64_t> cb);

    /**
     * \return frames delivered to transports so far (data, ACKs, NACKs, CNPs): the progress
     *         measure of stall detection
     */
    uint64_t GetDeliveredFrames() const
    {
        return m_deliveredFrames;
    }

    /// \return the sum of every transport's GetPendingOperations()
    uint64_t GetPendingOperations() const;
    /**
     * \brief Write every transport's DescribePending() lines, each prefixed with \p prefix
     *        (the NIC's node, e.g. "gpu7: "), for a stall diagnosis.
     * \param os the stream
     * \param prefix written before every line
     * \return lines written
     */
    uint32_t DescribePending(std::ostream& os, const std::string& prefix) const;

    /**
     * \brief Set the RxDrainRate attribute (host-side PFC).
     * \param rate host drain rate of received payload; 0 bit/s disables host-side PFC
     */
    void SetRxDrainRate(DataRate rate);
    /// \return the RxDrainRate attribute (0 bit/s: host-side PFC off)
    DataRate GetRxDrainRate() const;
    /**
     * \brief Stop (\p stalled true) or resume the host's drain of received payload on every
     *        port (host-side PFC). While stalled nothing drains: received payload keeps adding
     *        to the host backlog, the port sends XOFF above RxXoffBytes and keeps it (refreshed
     *        every PfcNetDevice::PauseRefreshInterval) until, after the stall, the backlog
     *        drains below RxXonBytes at RxDrainRate. Frames are still delivered to the
     *        transports (only the buffer model stops). Fires the RxStall trace on a change; a
     *        call that changes nothing is a no-op.
     * \param stalled true to stop the drain, false to resume it
     * Aborts with a message naming ns3::FabricNic::RxDrainRate if host-side PFC is off
     * (RxDrainRate 0): there is no buffer to fill.
     */
    void SetRxStalled(bool stalled);
    /// \return true while the host's drain is stopped (SetRxStalled())
    bool IsRxStalled() const;
    /**
     * \param port local port index (< GetNPorts(); aborts otherwise)
     * \return the host backlog of received payload on that port, bytes, as of its last update
     *         (the last received packet, drain check or SetRxStalled() call)
     */
    uint64_t GetRxBacklog(uint32_t port) const;
    /// \return packets dropped on receive, per reason
    const std::array<uint64_t, size_t(FabricNicDropReason::COUNT)>& GetDrops() const;

    /**
     * \brief The current simulation time (Simulator::Now()), read without a virtual call when
     *        the engine is a FabricSimulatorImpl: transports need it for every packet.
     * \return the time of the event being run
     */
    Time Now()
    {
        return m_engine.Now();
    }

  protected:
    void DoDispose() override;

  private:
    /// Egress state of one (port, priority).
    struct Arbiter
    {
        FabricRing<FabricNicFlow*> ready; //!< flows that may send now
        /// Paced flows: (time, sequence, flow, epoch), earliest first; entries whose epoch is
        /// not the flow's current one are stale and skipped.
        std::priority_queue<std::tuple<Time, uint64_t, FabricNicFlow*, uint64_t>,
                            std::vector<std::tuple<Time, uint64_t, FabricNicFlow*, uint64_t>>,
                            std::greater<>>
            paced;
        uint32_t dataInDevice{0};  //!< data frames in the port queue
        FabricRing<bool> inDevice; //!< per queued frame: true = data (FIFO)
        FabricRearmableEvent wake; //!< next paced flow due (re-armed per paced packet)
    };

    /// Per-port state.
    struct Port
    {
        Ptr<PfcNetDevice> dev;      //!< the device
        uint32_t addressBits{0};    //!< its IPv4 address, host order (compared per packet)
        Mac48Address peerMac;       //!< next hop
        std::array<Arbiter, 8> arb; //!< per priority
        double rxBacklog{0};        //!< host-buffer bytes (host-side PFC)
        Time rxBacklogAt;           //!< time of rxBacklog
        EventId xonCheck;           //!< host-side PFC XON check
        uint8_t rxPriority{0};      //!< priority of the last accounted payload (host-side PFC)
    };

    /// Put a flow in the pacing heap of its arbiter.
    void PushPaced(Arbiter& arb, FabricNicFlow* flow, Time t);
    /// Fill the port queue of (port, priority) from its arbiter.
    void Kick(uint32_t port, uint8_t priority);
    /// The port dequeued a data frame (PfcPortOwner).
    void FrameDequeued(uint32_t port, uint8_t priority, uint64_t tag) override;
    /// A non-IPv4 packet (framing removed) arrived on a port.
    void Receive(uint32_t port,
                 Ptr<PfcNetDevice> dev,
                 Ptr<Packet> packet,
                 uint16_t protocol,
                 Mac48Address from,
                 uint8_t priority);
    /// PfcPortOwner: an IPv4 frame arrived on a port; it goes to its transport.
    void ReceiveFrame(uint32_t port,
                      PfcNetDevice* dev,
                      FabricFrame& frame,
                      uint32_t l2Bytes,
                      uint8_t priority) override;
    /**
     * \brief Check the IPv4/UDP headers of a received packet and hand it to its transport.
     * \param port local port index
     * \param b the packet's first bytes from its IPv4 header on
     * \param got how many
     * \param size IPv4 packet length
     * \param t the transport registered for the packet's UDP destination port (null: none)
     * \param[out] reason why the packet was not delivered, when it was not
     * \return true if the transport took it
     */
    bool Deliver(uint32_t port,
                 const uint8_t* b,
                 uint32_t got,
                 uint32_t size,
                 FabricNicTransport* t,
                 FabricNicDropReason& reason);

    /**
     * \param ip a packet's first bytes from its IPv4 header on
     * \param got how many
     * \return the transport of its UDP destination port (null: none, or too short to say)
     */
    FabricNicTransport* TransportOf(const uint8_t* ip, uint32_t got) const
    {
        return got >= IP_UDP_BYTES ? m_transports.Find(wire::GetU16(ip + 22)) : nullptr;
    }

    /// Count and trace a drop.
    void Drop(Ptr<const Packet> packet, FabricNicDropReason reason);
    /// Count and trace a drop of the IPv4 packet at \p offset (\p size bytes) in \p packet.
    void Drop(Ptr<const Packet> packet, uint32_t offset, uint32_t size, FabricNicDropReason reason);
    /// Drain the host buffer model up to now; maybe XON.
    void DrainRx(uint32_t port, uint8_t priority);
    /**
     * \brief When the host buffer of a port, draining at RxDrainRate, falls to RxXonBytes.
     * \param backlog the port's backlog now, bytes (> RxXonBytes)
     * \return the delay, at least one time step: a remainder worth less than one step would
     *         round to 0 and re-check at the same instant forever
     */
    Time RxXonDelay(double backlog) const;

    /// IPv4 (without options) + UDP, bytes: what the core itself reads.
    static constexpr uint32_t IP_UDP_BYTES = 20 + 8;

    uint32_t m_txQueueDepth;                        //!< data frames kept in a port queue
    DataRate m_rxDrainRate;                         //!< host-side PFC drain (0 = off)
    bool m_rxDrainOn{false};                        //!< m_rxDrainRate > 0 (checked per packet)
    bool m_rxStalled{false};                        //!< host drain stopped (SetRxStalled)
    uint64_t m_rxXoff;                              //!< host-side PFC XOFF level, bytes
    uint64_t m_rxXon;                               //!< host-side PFC XON level, bytes
    std::vector<Port> m_ports;                      //!< ports
    UdpPortTable<FabricNicTransport*> m_transports; //!< transport by UDP destination port
    uint32_t m_maxRxHeaderBytes{IP_UDP_BYTES};      //!< largest GetMaxRxHeaderBytes()
    uint64_t m_arbSeq;                              //!< tie-break for the paced heap
    std::array<uint64_t, size_t(FabricNicDropReason::COUNT)> m_drops{}; //!< drops
    uint64_t m_deliveredFrames{0};          //!< frames a transport accepted
    Callback<void, int64_t> m_workCallback; //!< NotifyWork*() target
    TracedCallback<Ptr<const Packet>, FabricNicDropReason> m_dropTrace; //!< drops
    TracedCallback<bool> m_rxStallTrace; //!< RxStall: the host drain stopped / resumed
    FabricEngineRef m_engine;            //!< the engine, if a FabricSimulatorImpl (for Now())
};

} // namespace ns3

#endif /* FABRIC_NIC_H */
