/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: PFC-capable full-duplex point-to-point Ethernet port.
 */
#ifndef PFC_NET_DEVICE_H
#define PFC_NET_DEVICE_H

#include "pfc-header.h"
#include "pfc-pause-generator.h"
#include "pfc-pause-receiver.h"
#include "pfc-priority-map.h"
#include "pfc-tx-queue.h"
#include "pfc-tx-scheduler.h"

#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/event-id.h"
#include "ns3/fabric-event.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/flagged-traced-callback.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"
#include "ns3/traced-callback.h"

#include <array>
#include <string>
#include <vector>

namespace ns3
{

class PfcChannel;

/**
 * \ingroup ai-fabric-link
 * \brief Why a PfcNetDevice dropped a frame (the "Drop" trace source and per-reason counters).
 */
enum class PfcDropReason : uint8_t
{
    QUEUE_FULL = 0,      //!< the priority's transmit queue refused the frame
    OVERSIZE,            //!< payload larger than the device MTU
    LINK_DOWN,           //!< the cable was cut when the frame was sent
    RX_ERROR,            //!< the receive error model corrupted the frame
    WRONG_DESTINATION,   //!< unicast to another MAC address and no promiscuous receiver
    UNKNOWN_MAC_CONTROL, //!< MAC Control frame with an opcode other than PFC (0x0101)
    MALFORMED,           //!< frame too short to hold the headers its EtherType announces
    NO_RECEIVER,         //!< no upper layer registered to receive the frame
    COUNT                //!< number of reasons (not a reason)
};

/**
 * \brief Human-readable name of a drop reason ("queue full", "link down", ...).
 * \param reason the reason
 * \return a static string
 */
const char* PfcDropReasonName(PfcDropReason reason);

/**
 * \ingroup ai-fabric-link
 * \brief Per-priority counters of one PfcNetDevice, readable after a run.
 */
struct PfcPortCounters
{
    std::array<uint64_t, 8> txFrames{};     //!< data frames transmitted per priority
    std::array<uint64_t, 8> txBytes{};      //!< frame bytes (header..FCS) transmitted per priority
    std::array<uint64_t, 8> rxFrames{};     //!< data frames received and delivered per priority
    std::array<uint64_t, 8> rxBytes{};      //!< frame bytes received and delivered per priority
    std::array<uint64_t, 8> pauseTx{};      //!< PFC frames sent with a non-zero time for priority
    std::array<uint64_t, 8> xonTx{};        //!< PFC frames sent with time 0 (XON) for priority
    std::array<uint64_t, 8> pauseRx{};      //!< PFC non-zero times received for priority
    std::array<uint64_t, 8> xonRx{};        //!< PFC XONs received for priority
    std::array<uint64_t, 8> pauseIgnored{}; //!< PFC times received for a PFC-disabled priority
    std::array<Time, 8> pausedTime{};       //!< total time each priority was paused by the peer
    std::array<uint64_t, 8> stormsDetected{}; //!< PFC watchdog storm declarations per priority
    std::array<uint64_t, static_cast<std::size_t>(PfcDropReason::COUNT)> drops{}; //!< by reason
};

class PfcNetDevice;

/**
 * \ingroup ai-fabric-link
 * \brief The owner of a port's frames (a switch or a NIC), called directly by the port.
 *
 * The same contract as PfcNetDevice's frame receive and dequeue callbacks, through one
 * virtual call: a Callback goes through several objects (callback, implementation, bound
 * functor), and in a fabric of thousands of ports each of them is a cache miss per frame.
 * Set with PfcNetDevice::SetPortOwner(); it takes precedence over those callbacks.
 */
class PfcPortOwner
{
  public:
    virtual ~PfcPortOwner() = default;

    /**
     * \brief An IPv4 frame addressed to the port arrived (see
     *        PfcNetDevice::PfcFrameReceiveCallback).
     *
     * The owner reads the fields it needs from the frame's head (FabricFrame::GetHead()): the
     * header bytes its sender put there (a NIC's Ethernet, IPv4, UDP and RoCEv2 headers) if
     * there are at least PfcNetDevice::MIN_HEAD_BYTES of them, else min(frame size - FCS,
     * PfcNetDevice::RX_PEEK_BYTES) bytes loaded from the packet; it may load more with
     * FabricFrame::LoadHead() or read them with FabricFrame::CopyData(). The
     * IPv4 total length has been checked against the frame. The owner may keep the frame
     * (move it, e.g. into PfcNetDevice::ForwardFrame); whatever it leaves is released after
     * the call.
     * \param port the owner's index of the port (given to SetPortOwner)
     * \param dev the port (a plain pointer: no reference count is taken per frame; valid for
     *        the call)
     * \param frame the whole frame
     * \param l2Bytes its L2 header length, 14 or 18
     * \param priority its priority, 0..7
     */
    virtual void ReceiveFrame(uint32_t port,
                              PfcNetDevice* dev,
                              FabricFrame& frame,
                              uint32_t l2Bytes,
                              uint8_t priority) = 0;

    /**
     * \brief A data frame left the port's queue for the wire.
     * \param port the owner's index of the port
     * \param priority the queue it left, 0..7
     * \param tag what the owner gave ForwardFrame for this frame (0 for frames queued by
     *        SendFrame or Send)
     */
    virtual void FrameDequeued(uint32_t port, uint8_t priority, uint64_t tag) = 0;

    /**
     * \brief A data frame is leaving the port's queue for the wire and may still be changed
     *        (e.g. ECN-marked on dequeue). Called only while the port was told so with
     *        PfcNetDevice::SetFrameLeavingHook(true), before FrameDequeued and before any
     *        trace sees the frame. The default does nothing.
     * \param port the owner's index of the port
     * \param priority the queue it leaves, 0..7
     * \param tag what the owner gave ForwardFrame for this frame (0 for frames queued by
     *        SendFrame or Send)
     * \param frame the frame (the port's framing already written); the owner may rewrite
     *        bytes in place (FabricFrame::LoadHead, MutableHead) but not change its size
     */
    virtual void FrameLeaving(uint32_t port, uint8_t priority, uint64_t tag, FabricFrame& frame)
    {
    }
};

/**
 * \ingroup ai-fabric-link
 * \brief A full-duplex point-to-point Ethernet port with eight priority queues and IEEE 802.1Qbb
 *        Priority-based Flow Control, for NICs and switch ports.
 *
 * Transmit path: Send() classifies the packet to a priority (IPv4 DSCP through a 64-entry
 * DSCP->priority map, default priority = DSCP >> 3, so DSCP 26 -> 3 and DSCP 48 -> 6), frames
 * it (EthernetHeader, an optional 802.1Q tag whose PCP carries the priority, zero padding to the
 * 64-byte minimum, EthernetTrailer FCS) and enqueues it on that priority's FIFO (PfcTxQueue). When
 * the transmitter is free, PFC frames go first, then the TxScheduler picks among priorities that
 * are backlogged and not paused. A frame occupies the wire for (8 B preamble/SFD + frame +
 * 12 B inter-frame gap) x 8 / DataRate; it reaches the peer after (preamble + frame) time plus
 * the channel delay (IEEE 802.3 clause 4.4).
 *
 * PFC (IEEE 802.1Qbb): the port frames, counts and sends PFC frames ahead of data
 * (SendPfcFrame()) and delegates the pause decisions to two members. Its PfcPauseReceiver
 * honours received PFC frames: each listed, PFC-enabled priority is paused for quanta x 512 bit
 * times at this port's DataRate, replacing any remaining pause; a time of 0 resumes at once; a
 * frame already serializing completes; a PFC watchdog (PfcWatchdogTimeout) declares a storm
 * when a priority stays paused by refreshed pauses longer than the timeout, and pauses on that
 * priority are then ignored for PfcWatchdogRestore (the SONiC/vendor "forward" action). Its
 * PfcPauseGenerator sends what the owner (switch MMU or NIC) asks for with SetXoff(), and
 * refreshes an XOFF before it expires while it holds. The transmitter reads the paused set
 * from a byte of its own (the receiver keeps it there), so the per-frame path makes no call.
 *
 * Receive path: frames are stripped of their Ethernet framing and passed up with their
 * priority through the PFC receive callback (SetPfcReceiveCallback) if one is set, else the
 * standard NetDevice receive callback. Frames that cannot be understood are counted and traced
 * through "Drop" with a PfcDropReason; nothing aborts on received data.
 */
class PfcNetDevice : public NetDevice
{
  public:
    /// Number of priorities (IEEE 802.1Q).
    static constexpr uint8_t NUM_PRIORITIES = 8;
    /// Preamble + start-of-frame delimiter, bytes.
    static constexpr uint32_t PREAMBLE_BYTES = 8;
    /// Minimum inter-frame gap, bytes.
    static constexpr uint32_t IFG_BYTES = 12;
    /// Untagged Ethernet header, bytes.
    static constexpr uint32_t ETH_HEADER_BYTES = 14;
    /// 802.1Q tag, bytes.
    static constexpr uint32_t DOT1Q_BYTES = 4;
    /// Frame check sequence, bytes.
    static constexpr uint32_t FCS_BYTES = 4;
    /// Bytes loaded into the head of a received frame whose head is shorter than
    /// MIN_HEAD_BYTES (when the frame has them); room is left for an 802.1Q tag to be added
    /// when it is forwarded
    static constexpr uint32_t RX_PEEK_BYTES = FabricFrame::HEAD_CAPACITY - DOT1Q_BYTES;
    /// Bytes a received frame's head holds at least (when the frame has them) when its owner
    /// reads it: a tagged L2 header, a minimal IPv4 header and the UDP header
    static constexpr uint32_t MIN_HEAD_BYTES = 14 + 4 + 20 + 8;
    /// Minimum frame (header through FCS), bytes.
    static constexpr uint32_t MIN_FRAME_BYTES = 64;

    /**
     * \brief The bytes a frame occupies on the wire: padded to MIN_FRAME_BYTES, plus the
     *        preamble and the inter-frame gap (IEEE 802.3).
     * \param frameBytes the frame from the destination MAC to the FCS, bytes
     * \return its wire bytes
     */
    static constexpr uint32_t WireBytes(uint32_t frameBytes)
    {
        return (frameBytes < MIN_FRAME_BYTES ? MIN_FRAME_BYTES : frameBytes) + PREAMBLE_BYTES +
               IFG_BYTES;
    }

    /// How the priority travels on the wire.
    enum Tagging
    {
        DSCP, //!< untagged frames; priority from the IPv4 DSCP (L3 "DSCP-based PFC")
        PCP   //!< 802.1Q-tagged frames; priority in the PCP field
    };

    /**
     * \brief Callback that receives a frame's payload with its priority.
     * Arguments: receiving device, payload (framing removed), EtherType, source MAC,
     * priority 0..7.
     */
    typedef Callback<void, Ptr<PfcNetDevice>, Ptr<Packet>, uint16_t, Mac48Address, uint8_t>
        PfcReceiveCallback;
    /**
     * \brief Callback fired when a data frame leaves a priority queue to be serialized.
     * Arguments: the device, the priority, the frame (with framing). Switch MMUs release
     * egress buffer accounting here; NICs refill their queue from it.
     */
    typedef Callback<void, const Ptr<PfcNetDevice>&, uint8_t, const Ptr<const Packet>&>
        DequeueCallback;
    /**
     * \brief Callback that receives whole IPv4 frames (frame-level forwarding, used by switches).
     * Arguments: receiving device, the frame exactly as received (Ethernet header, optional
     * 802.1Q tag, IPv4 packet, padding, FCS), the L2 header length in bytes (14 untagged,
     * 18 tagged), the priority 0..7, and the frame's first bytes with their count (its head,
     * as PfcPortOwner::ReceiveFrame describes; valid during the call only) so the receiver
     * reads its fields without copying again. The IPv4 total length has been checked against
     * the frame.
     */
    typedef Callback<void,
                     const Ptr<PfcNetDevice>&,
                     const Ptr<Packet>&,
                     uint32_t,
                     uint8_t,
                     const uint8_t*,
                     uint32_t>
        PfcFrameReceiveCallback;

    /// Signature of the PfcPauseTx / PfcPauseRx traces: priority, quanta (0 = XON).
    typedef void (*PfcTracedCallback)(uint8_t priority, uint16_t quanta);
    /// Signature of the TxEnqueue / TxDequeue traces: the frame, its priority.
    typedef void (*QueueTracedCallback)(Ptr<const Packet> frame, uint8_t priority);
    /// Signature of the Drop trace: the frame or packet, the reason.
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, PfcDropReason reason);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcNetDevice();
    ~PfcNetDevice() override;

    /**
     * \brief Attach the device to a cable.
     * \param channel the cable; aborts if it already has two ports
     */
    void Attach(Ptr<PfcChannel> channel);

    /**
     * \brief Set the drop-tail limit of every priority's transmit queue (TxQueueMaxSize).
     * \param size packets or bytes, > 0 (aborts on 0)
     */
    void SetTxQueueMaxSize(QueueSize size);
    /// \return the drop-tail limit of the transmit queues
    QueueSize GetTxQueueMaxSize() const;
    /**
     * \param priority 0..7 (aborts otherwise)
     * \return the transmit queue of that priority (frames with their framing)
     */
    const PfcTxQueue& GetTxQueue(uint8_t priority) const;

    /**
     * \brief Install the transmit scheduler (also settable through the TxScheduler attribute).
     * \param scheduler the scheduler; aborts on null
     */
    void SetTxScheduler(Ptr<PfcTxScheduler> scheduler);
    /// \return the transmit scheduler
    Ptr<PfcTxScheduler> GetTxScheduler() const;

    /**
     * \brief Set the line rate (also the DataRate attribute).
     * \param rate bits/s, > 0 (aborts on 0)
     */
    void SetDataRate(DataRate rate);
    /// \return the line rate
    DataRate GetDataRate() const;

    /**
     * \brief Map a DSCP to a priority.
     * \param dscp 0..63 (aborts otherwise)
     * \param priority 0..7 (aborts otherwise)
     */
    void SetDscpPriority(uint8_t dscp, uint8_t priority);
    /**
     * \param dscp 0..63 (aborts otherwise)
     * \return the priority that DSCP maps to
     */
    uint8_t GetDscpPriority(uint8_t dscp) const;

    /**
     * \brief Priority a packet would be sent on by Send().
     * \param packet an L3 packet (for IPv4, starting with the IPv4 header)
     * \param protocol its EtherType
     * \return the priority, 0..7
     */
    uint8_t Classify(Ptr<const Packet> packet, uint16_t protocol) const;

    /**
     * \brief Send a packet on an explicit priority (switches use the ingress classification).
     * \param packet the L3 packet; framing is added here
     * \param dest destination MAC
     * \param protocol EtherType of the payload
     * \param priority 0..7 (aborts otherwise)
     * \return false if the packet was dropped (oversize, queue full), traced with the reason
     */
    bool SendWithPriority(Ptr<Packet> packet,
                          const Address& dest,
                          uint16_t protocol,
                          uint8_t priority);
    /**
     * \brief SendWithPriority for a destination already known as a MAC address (no conversion
     * through the generic Address per packet; NICs use it).
     * \param packet the L3 packet; framing is added here
     * \param dest destination MAC
     * \param protocol EtherType of the payload
     * \param priority 0..7 (aborts otherwise)
     * \return false if the packet was dropped (oversize, queue full), traced with the reason
     */
    bool SendWithPriority(Ptr<Packet> packet,
                          Mac48Address dest,
                          uint16_t protocol,
                          uint8_t priority);

    /**
     * \brief Write the L2 header this port puts in front of a packet: destination \p dest,
     * source = this port's MAC, an IEEE 802.1Q tag carrying \p priority as PCP when the Tagging
     * attribute is PCP, then \p protocol as EtherType. A NIC that builds whole frames for
     * SendFrame() writes it in front of its own headers (one buffer operation per frame).
     * \param out at least ETH_HEADER_BYTES + DOT1Q_BYTES (18) bytes
     * \param dest destination MAC
     * \param protocol EtherType of the payload
     * \param priority 0..7 (not checked here; SendFrame() checks it)
     * \return the header length written: 14 (untagged) or 18 (tagged)
     */
    uint32_t WriteL2Header(uint8_t* out,
                           Mac48Address dest,
                           uint16_t protocol,
                           uint8_t priority) const;

    /**
     * \brief Send a whole frame built by the caller (the NIC fast path): no framing is added.
     *
     * \p frame must be what SendWithPriority() would have queued: WriteL2Header() bytes of this
     * port, the L3 packet, zero padding up to MIN_FRAME_BYTES, and a zero FCS field of
     * FCS_BYTES. It is queued on \p priority exactly like a framed packet; the MacTx trace sees
     * the L3 packet (read from the IPv4 total length when the payload is IPv4).
     * \param frame the frame
     * \param priority 0..7 (aborts otherwise)
     * \return false if the frame was dropped (oversize L3 packet, queue full), traced with the
     *         reason
     */
    bool SendFrame(const Ptr<Packet>& frame, uint8_t priority);

    /**
     * \brief Send a whole frame built by the caller as header bytes plus a body packet or a
     * zero body (the RoCE NIC's fast path; see FabricFrame): the same contract as
     * SendFrame(const Ptr<Packet>&, uint8_t), without writing the headers into the packet.
     * \param frame the frame; moved out when it is queued or sent
     * \param priority 0..7 (aborts otherwise)
     * \return false if the frame was dropped (oversize L3 packet, queue full), traced with the
     *         reason
     */
    bool SendFrame(FabricFrame& frame, uint8_t priority);

    /**
     * \brief Forward a received frame: replace its L2 header and the start of its payload,
     * then queue it on \p priority.
     *
     * The frame keeps its payload, padding and FCS; its first \p l2Bytes (the ingress
     * Ethernet header and tag) and the next \p l3Bytes are replaced by this port's framing
     * (source = this port's MAC, destination \p dest, 802.1Q tag per the Tagging attribute,
     * EtherType IPv4) followed by \p l3Head. Switches use it with the rewritten IPv4 header
     * (TTL, ECN, checksum). The FCS field is carried as received (ai-fabric writes it as zero;
     * it is not recomputed). The bytes are replaced in the frame's head (FabricFrame), not in
     * its packet, unless the head cannot hold them or the frame must be padded again.
     * \param frame a frame as given to PfcPortOwner::ReceiveFrame; moved out when it is queued
     *        or sent
     * \param l2Bytes its L2 header length, 14 or 18
     * \param dest destination MAC
     * \param priority 0..7 (aborts otherwise)
     * \param l3Head the new first bytes of the IPv4 packet
     * \param l3Bytes how many, 0..60
     * \param tag a value queued with the frame and given back to the port's owner by
     *        PfcPortOwner::FrameDequeued (e.g. a switch's buffer accounting of the frame)
     * \return false if the frame was dropped (queue full), traced with the reason
     */
    bool ForwardFrame(FabricFrame& frame,
                      uint32_t l2Bytes,
                      Mac48Address dest,
                      uint8_t priority,
                      const uint8_t* l3Head,
                      uint32_t l3Bytes,
                      uint64_t tag = 0);

    /**
     * \brief Owner-level PFC state of one priority towards the peer (see PfcPauseGenerator).
     *
     * SetXoff(p, true) sends a PFC frame pausing p for PauseQuanta and keeps refreshing it every
     * PauseRefreshInterval (default: half the pause time) while XOFF holds; SetXoff(p, false)
     * sends an XON (time 0) and stops refreshing. Repeating the current state sends nothing.
     * \param priority 0..7, and PFC-enabled in PfcEnableMask (aborts otherwise)
     * \param xoff true = pause the peer, false = resume it
     */
    void SetXoff(uint8_t priority, bool xoff);
    /**
     * \param priority 0..7
     * \return true if this port currently holds the peer in XOFF on that priority
     */
    bool IsXoff(uint8_t priority) const;

    /**
     * \brief Send one PFC frame now (ahead of all data): the pause generator's way out, also
     *        usable by tests or custom owners.
     *
     * The frame is the MAC Control body (IEEE 802.3 Annex 31D) padded to 64 bytes, sent to
     * 01:80:C2:00:00:01 with EtherType 0x8808 and a computed FCS; it waits only for the frame
     * on the wire.
     * \param header the PFC body; every priority it enables is counted (pauseTx / xonTx) and
     *        traced (PfcPauseTx)
     */
    void SendPfcFrame(const PfcHeader& header);

    /**
     * \param priority 0..7 (aborts otherwise)
     * \return true if the peer currently pauses this port's transmission on that priority
     */
    bool IsPaused(uint8_t priority) const;
    /**
     * \param priority 0..7 (aborts otherwise)
     * \return the time at which the current pause of that priority ends (now if not paused)
     */
    Time GetPausedUntil(uint8_t priority) const;

    /**
     * \brief Duration of a pause of \p quanta at this port's rate: quanta x 512 / DataRate
     *        (PfcHeader::QuantaToTime).
     * \param quanta 0..65535
     * \return the duration
     */
    Time QuantaToTime(uint16_t quanta) const;

    /// \return the receiving side of PFC: pauses the peer imposes on this port, watchdog
    const PfcPauseReceiver& GetPauseReceiver() const
    {
        return m_pauseReceiver;
    }

    /// \return the sending side of PFC: the XOFF state this port holds the peer in, refresh
    const PfcPauseGenerator& GetPauseGenerator() const
    {
        return m_pauseGenerator;
    }

    /// \return the counters of this port (a snapshot taken by this call)
    PfcPortCounters GetCounters() const;
    /// \return the frame bytes (header..FCS) transmitted over all priorities (the sum of
    ///         GetCounters().txBytes, without the snapshot: read per frame by in-band telemetry)
    uint64_t GetTxBytesTotal() const;
    /// \return true if the transmitter is serializing a frame (or in its inter-frame gap)
    bool IsTransmitting() const;

    /**
     * \brief Receive a frame from the channel (called by PfcChannel).
     * \param frame the complete frame; this device takes it (it may be moved out)
     */
    void Receive(FabricFrame& frame);

    /**
     * \brief Set the receive callback carrying priorities (used by switches and NICs).
     * \param cb the callback; when set it replaces the standard receive callback
     */
    void SetPfcReceiveCallback(PfcReceiveCallback cb);
    /**
     * \brief Receive IPv4 frames whole, without removing their framing (switch ports).
     *
     * When set, IPv4 frames addressed to this port go to \p cb instead of the PFC or standard
     * receive callbacks (other EtherTypes still use those); the MacRx trace still sees the
     * IPv4 packet without framing.
     * \param cb the callback
     */
    void SetFrameReceiveCallback(PfcFrameReceiveCallback cb);
    /**
     * \brief Set the ReceiveErrorModel attribute, also to none (the attribute cannot be set
     *        to a null pointer).
     * \param model an error model deciding which received frames are dropped as "rx error"
     *        (PfcDropReason::RX_ERROR), or null for none (the default)
     */
    void SetReceiveErrorModel(Ptr<ErrorModel> model);
    /// \return the ReceiveErrorModel attribute (null: none)
    Ptr<ErrorModel> GetReceiveErrorModel() const;

    /**
     * \brief Hand this port's IPv4 frames and dequeue notifications to an owner directly.
     *
     * Replaces the frame receive and dequeue callbacks (which stay set but unused) until it is
     * cleared with a null owner; the owner must clear it before it is destroyed.
     * \param owner the owner, or nullptr
     * \param port the index the owner knows this port by
     */
    void SetPortOwner(PfcPortOwner* owner, uint32_t port);
    /**
     * \brief Let the owner see (and rewrite) every data frame as it leaves the queue
     *        (PfcPortOwner::FrameLeaving). Off by default: a switch turns it on when it marks
     *        ECN on dequeue (WredEcnMarker MarkingPoint Dequeue).
     * \param on true = call FrameLeaving for every dequeued data frame
     */
    void SetFrameLeavingHook(bool on);
    /**
     * \brief Set the callback fired when a data frame is dequeued for transmission.
     * \param cb the callback
     */
    void SetDequeueCallback(DequeueCallback cb);

    /// \return the attached channel as a PfcChannel
    Ptr<PfcChannel> GetPfcChannel() const;

    // NetDevice API
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;

    /// \return the id of the owning node (0 before SetNode): the context of events for this port
    uint32_t GetNodeId() const
    {
        return m_nodeId;
    }

    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;
    void DoInitialize() override;

  private:
    /// Add Ethernet framing (and 802.1Q tag, padding, FCS) to an L3 packet.
    void AddFraming(Ptr<Packet> packet, Mac48Address dst, uint16_t protocol, uint8_t priority);
    /// \return this port's L2 header length: 14 bytes, or 18 when it tags (Tagging = PCP)
    uint32_t L2HeaderBytes() const;
    /**
     * \brief ForwardFrame's general case: replace the frame's first \p l2Bytes + \p l3Bytes
     *        bytes with this port's L2 header and \p l3Head, in the head when it can take
     *        them, else by rewriting the packet (padding again to the Ethernet minimum).
     * \param frame the frame
     * \param l2Bytes its current L2 header length
     * \param dest the next hop's MAC address
     * \param priority the frame's priority (the 802.1Q PCP when tagging)
     * \param l3Head new bytes after the L2 header (l3Bytes of them)
     * \param l3Bytes how many (0..60)
     */
    void ReplaceFraming(FabricFrame& frame,
                        uint32_t l2Bytes,
                        Mac48Address dest,
                        uint8_t priority,
                        const uint8_t* l3Head,
                        uint32_t l3Bytes);
    /**
     * \brief The L3 part of a frame, for the MacTx trace.
     * \param frame a whole frame of this port
     * \param l2Bytes its L2 header length
     * \return a fragment without L2 header, padding and FCS
     */
    Ptr<Packet> L3Fragment(Ptr<const Packet> frame, uint32_t l2Bytes) const;
    /// Queue a framed packet on a priority, with the owner's tag, and start the transmitter.
    bool EnqueueFrame(FabricFrame& frame, uint8_t priority, uint64_t tag = 0);
    /// Start the next frame if the transmitter is idle and something is eligible.
    void TryTransmit();
    /**
     * \brief A data frame leaves its priority queue (or skips it): dequeue trace, counters,
     *        transmission, then the owner's dequeue notice.
     * \param frame the frame (moved onto the cable)
     * \param priority its priority, 0..7
     * \param tag the owner's tag given with the frame
     */
    void Dequeued(FabricFrame& frame, uint8_t priority, uint64_t tag);
    /// Serialize one frame onto the channel. \param frame the frame (moved onto the cable)
    void StartTransmission(FabricFrame& frame);
    /// End of frame + inter-frame gap: the transmitter is free again.
    void TransmitComplete();

    /**
     * \brief Whether the transmitter is free, ending a deferred transmission whose end the
     *        simulation has passed (see StartTransmission).
     * \return true if a frame can start now
     */
    bool TxIdle()
    {
        if (!m_txBusy)
        {
            return true;
        }
        if (DeferredTxEndPassed())
        {
            m_txBusy = false; // what the uncommitted TransmitComplete would have done
            m_txEndDeferred = false;
            return true;
        }
        return false;
    }

    /**
     * \brief Whether a deferred (uncommitted) end of transmission is behind the simulation: its
     *        reserved place has passed, or the engine it was reserved in was destroyed (the
     *        transmission ended with that simulation).
     * \return false if no end is deferred
     */
    bool DeferredTxEndPassed() const
    {
        if (!m_txEndDeferred)
        {
            return false;
        }
        const FabricSimulatorImpl* sim = m_engine.Peek();
        return sim->IsDestroyed() || sim->HasPassed(m_txEnd);
    }

    /// Insert the deferred end of transmission at its reserved place in the event order.
    void CommitTxEnd();

    /// A priority the peer paused resumed (PfcPauseReceiver): start the next frame.
    void PauseEnded();
    /// Count and trace a drop.
    void Drop(Ptr<const Packet> packet, PfcDropReason reason);
    /// Abort unless priority < 8.
    static void CheckPriority(uint8_t priority, const char* what);
    /// Set the DSCP->priority map from "dscp:prio,..." (attribute).
    void SetDscpMapString(std::string map);
    /// \return the map entries that differ from DSCP >> 3, as "dscp:prio,..."
    std::string GetDscpMapString() const;
    /// Set the PfcEnableMask attribute (both pause controllers).
    void SetPfcEnableMask(uint8_t mask);
    /// \return the PfcEnableMask attribute
    uint8_t GetPfcEnableMask() const;
    /// Set the PauseQuanta attribute (pause generator).
    void SetPauseQuanta(uint16_t quanta);
    /// \return the PauseQuanta attribute
    uint16_t GetPauseQuanta() const;
    /// Set the PauseRefreshInterval attribute (pause generator).
    void SetPauseRefreshInterval(Time interval);
    /// \return the PauseRefreshInterval attribute
    Time GetPauseRefreshInterval() const;
    /// Set the PfcWatchdogTimeout attribute (pause receiver).
    void SetPfcWatchdogTimeout(Time timeout);
    /// \return the PfcWatchdogTimeout attribute
    Time GetPfcWatchdogTimeout() const;
    /// Set the PfcWatchdogRestore attribute (pause receiver).
    void SetPfcWatchdogRestore(Time restore);
    /// \return the PfcWatchdogRestore attribute
    Time GetPfcWatchdogRestore() const;
    /// Validate and set the MTU (attribute).
    void SetMtuAttribute(uint16_t mtu);

    /// Serialization times of one frame size at m_bps (its size is in m_txTimesBytes).
    struct TxTimes
    {
        Time frame; //!< preamble + frame
        Time slot;  //!< preamble + frame + inter-frame gap
    };

    /**
     * \brief Serialization times of a frame, from a four-entry cache.
     * \param bytes frame size, > 0
     * \return the times (exactly BytesTxTime of preamble + frame [+ IFG])
     */
    const TxTimes& GetTxTimes(uint32_t bytes);

    // State read for every frame sent or received comes first and together: a fabric has
    // thousands of ports, so each one touched is usually a cache miss per line.
    // Line 0 (after the Object base): read for every frame sent and every frame received.
    Ptr<PfcChannel> m_channel;      //!< attached cable
    PfcPortOwner* m_owner{nullptr}; //!< direct owner of frames (or null)
    uint32_t m_traceSinks{0};       //!< TraceBit set per per-frame trace with a sink
    uint32_t m_ownerPort{0};        //!< the owner's index of this port
    bool m_txBusy;                  //!< transmitter state
    uint8_t m_backlogMask;        //!< priorities whose queue holds frames (only the device writes)
    uint8_t m_pausedMask;         //!< priorities paused by the peer (m_pauseReceiver writes)
    bool m_controlPending{false}; //!< m_controlQueue is not empty (read per frame)
    bool m_frameLeavingHook{false}; //!< call m_owner->FrameLeaving on dequeue
    bool m_txEndDeferred{false};    //!< m_txEnd is reserved, not committed
    bool m_strictPriority{true};    //!< m_scheduler is PfcStrictPriorityScheduler
    uint8_t m_channelEnd{0};        //!< this port's end of m_channel (Attach)
    uint8_t m_txTimesNext{0};       //!< entry of m_txTimes replaced next
    // Line 1: the rest of what a received frame reads.
    alignas(64) uint8_t m_addressBytes[6]{}; //!< this port's MAC as bytes
    uint8_t m_defaultPriority;               //!< priority of non-IPv4 untagged frames
    Tagging m_tagging;                       //!< DSCP or PCP priority carriage
    uint16_t m_mtu;                          //!< max L3 payload, bytes
    uint16_t m_vid;                          //!< VLAN id in PCP mode
    Ptr<ErrorModel> m_receiveErrorModel;     //!< optional receive loss model
    PfcPriorityMap m_dscpMap;                //!< DSCP -> priority (read per frame)
    uint32_t m_nodeId{0}; //!< the node's id (the context of events for this port; read by the
                          //!< channel when a frame is sent to this port over an idle cable)
    // Line 2: the rest of what a frame's transmission reads.
    alignas(64) FabricEngineRef m_engine;           //!< the engine if it is a FabricSimulatorImpl
    FabricSimulatorImpl::Reservation m_txEnd;       //!< place of the deferred TransmitComplete
    Ptr<FabricEventImpl> m_txCompleteEvent;         //!< RecurringEvent running TransmitComplete()
    std::array<uint32_t, 4> m_txTimesBytes{};       //!< frame sizes of m_txTimes (0 = empty entry)
    Ptr<PfcTxScheduler> m_scheduler;                //!< picks the next priority
    alignas(64) std::array<TxTimes, 4> m_txTimes{}; //!< cache of GetTxTimes (line 3)
    Ptr<Packet> m_currentFrame;                //!< frame being serialized (PhyTxEnd sinks only)
    DequeueCallback m_dequeueCallback;         //!< dequeue notification
    PfcFrameReceiveCallback m_frameRxCallback; //!< whole-frame receive callback
    alignas(64) PfcTxQueues m_queues;          //!< one FIFO per priority, one cache line each
    FabricWireHeader m_txHeader;               //!< reused for the framing of every frame sent

    /// The per-frame counters of one priority, together in half a cache line.
    struct alignas(32) FrameCounters
    {
        uint64_t txFrames{0}; //!< data frames transmitted
        uint64_t txBytes{0};  //!< their bytes
        uint64_t rxFrames{0}; //!< data frames received and delivered
        uint64_t rxBytes{0};  //!< their bytes
    };

    std::array<FrameCounters, NUM_PRIORITIES> m_frameCounters{}; //!< per-frame counts
    std::array<uint64_t, NUM_PRIORITIES> m_pauseTx{}; //!< PFC frames sent with a non-zero time
    std::array<uint64_t, NUM_PRIORITIES> m_xonTx{};   //!< PFC frames sent with time 0 (XON)
    std::array<uint64_t, static_cast<std::size_t>(PfcDropReason::COUNT)> m_drops{}; //!< by reason

    Ptr<Node> m_node;       //!< owning node
    uint32_t m_ifIndex;     //!< interface index
    Mac48Address m_address; //!< this port's MAC
    DataRate m_bps;         //!< line rate
    EthernetTrailer m_fcs;  //!< reused FCS trailer

    PfcPauseReceiver m_pauseReceiver;   //!< honours received PFC (keeps m_pausedMask)
    PfcPauseGenerator m_pauseGenerator; //!< XOFF/XON towards the peer, refresh

    bool m_linkUp;                                       //!< carrier state
    TracedCallback<> m_linkChangeCallbacks;              //!< link change listeners
    NetDevice::ReceiveCallback m_rxCallback;             //!< standard receive callback
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< promiscuous receive callback
    PfcReceiveCallback m_pfcRxCallback;                  //!< receive callback with priority

    TracedCallback<uint8_t, uint16_t> m_pfcPauseTxTrace;          //!< PFC time sent, per priority
    TracedCallback<Ptr<const Packet>, PfcDropReason> m_dropTrace; //!< drops with reason

    /// Bits of m_traceSinks: which per-frame traces have a sink.
    enum TraceBit : uint32_t
    {
        PHY_RX_END = 1u << 0,   //!< m_phyRxEndTrace
        SNIFFER = 1u << 1,      //!< m_snifferTrace
        PROMISC = 1u << 2,      //!< m_promiscSnifferTrace
        PHY_TX_BEGIN = 1u << 3, //!< m_phyTxBeginTrace
        PHY_TX_END = 1u << 4,   //!< m_phyTxEndTrace
        TX_ENQUEUE = 1u << 5,   //!< m_txEnqueueTrace
        TX_DEQUEUE = 1u << 6,   //!< m_txDequeueTrace
        MAC_TX = 1u << 7,       //!< m_macTxTrace
        MAC_RX = 1u << 8,       //!< m_macRxTrace
    };

    // The per-frame traces, out of the hot lines: the frame path tests m_traceSinks.
    FlaggedTracedCallback<Ptr<const Packet>> m_phyRxEndTrace;           //!< frame fully received
    FlaggedTracedCallback<Ptr<const Packet>> m_snifferTrace;            //!< frames to/from here
    FlaggedTracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;     //!< all frames here
    FlaggedTracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;         //!< frame starts
    FlaggedTracedCallback<Ptr<const Packet>> m_phyTxEndTrace;           //!< frame + IFG done
    FlaggedTracedCallback<Ptr<const Packet>, uint8_t> m_txEnqueueTrace; //!< queued, priority
    FlaggedTracedCallback<Ptr<const Packet>, uint8_t> m_txDequeueTrace; //!< dequeued, priority
    FlaggedTracedCallback<Ptr<const Packet>> m_macTxTrace; //!< L3 packet accepted for sending
    FlaggedTracedCallback<Ptr<const Packet>> m_macRxTrace; //!< L3 packet passed up
    FabricRing<Ptr<Packet>> m_controlQueue;                //!< PFC frames waiting to go
};

} // namespace ns3

#endif /* PFC_NET_DEVICE_H */
