/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: Ultra Ethernet Transport (UET) on a NIC: SES over PDS on the NIC core.
 */
#ifndef UET_NIC_H
#define UET_NIC_H

#include "uet-cc-context.h"
#include "uet-credit-pacer.h"
#include "uet-endpoint.h"
#include "uet-pdc-table.h"
#include "uet-pdc.h"
#include "uet-pdcless-flow.h"
#include "uet-ses-reassembly.h"
#include "uet-types.h"

#include "ns3/fabric-congestion-ops.h"
#include "ns3/fabric-nic.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "ns3/uet-ev-selector.h"

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Ultra Ethernet Transport on a NIC (UEC 1.0): the SES semantic sublayer (WRITE, READ,
 *        SEND, TAGGED_SEND between endpoints) over the PDS packet delivery sublayer (PDCs with
 *        RUD/ROD, RUDI, UUD), as real packets (Ethernet / IPv4 / UDP 4793 / PDS / SES /
 *        payload) on the transport-neutral NIC core (FabricNic), beside RoCEv2 if the node
 *        has both.
 *
 * Each NIC port is a fabric endpoint (FEP) with its own finite PDC pool (PdcPoolSize general
 * and ReservedPdcs reserved PDCIDs). Endpoints ({JobID, PIDonFEP} on a FEP) are created with
 * CreateEndpoint(); operations go through them (UetEndpoint). An initiator finds its PDC by
 * {mode, JobID, destination FEP} (the traffic class is the NIC's DataDscp) and opens one on
 * the first operation (UetPdc explains the lifecycle and reliability); the target finds its
 * PDC by {source FEP, SPDCID} (each FEP's PDCs and their indexes: UetPdcTable). Running out of
 * local PDCIDs queues operations until one is freed; a target out of PDCIDs answers NACK
 * NO_PDC_AVAIL and asks idle PDCs to close.
 *
 * Addressing and errors (UET.md, SES): an operation for a JobID / PIDonFEP / Resource Index
 * the target does not have completes with RC_BAD_JOB_ID / RC_BAD_PID / RC_BAD_INDEX; a packet
 * for an unknown PDC without SYN gets NACK INV_DPDCID.
 *
 * Headers: PDS 12 B (16 B with CC state), SES standard request 44 B, response 12 B on the
 * ACK, response-with-data 20 B on READ data. Data packets are IPv4 ECT(0), control packets
 * not ECT; the UDP checksum is 0 and the optional 4-byte UET CRC is not carried.
 *
 * Trimming (UET.md "Trimming"; a switch whose SharedBufferMmu trims UET's data priority): a
 * request packet whose IPv4 DSCP is TrimmedDscp (cut in the fabric) or TrimmedLastHopDscp (cut
 * at the destination's ToR) carries its headers but not its payload. The receiver does not
 * mark its PSN received and runs no SES processing; it answers at once with NACK TRIMMED or
 * TRIMMED_LASTHOP for that PSN (M set if the packet was ECN CE, RETX echoed, from the packet's
 * EV: UDP source port = the packet's, as the ACKs), with the NT flag and the JobID in the
 * payload for RUDI; a trimmed UUD packet is counted lost (UetNicCounters::uudTrimmed). A
 * trimmed SYN packet of a PDC the target has not opened yet is NACKed without opening one (its
 * data did not arrive; the initiator resends it with SYN). The sender retransmits the PSN at
 * once and reports FabricCcEvent::TRIM and a FabricCcAckSample (nack, trimmed, M, EV) to its
 * congestion control. The two DSCPs must be the fabric's (SharedBufferMmu TrimDscp and
 * LastHopTrimDscp; same defaults, 56 and 57; the topology helpers check them with
 * CheckSwitchTrimming()) and differ from DataDscp (AddPort aborts otherwise). A trimmed
 * packet shorter than its headers (TrimSize below GetMinTrimBytes()) cannot be answered: it is
 * dropped as "malformed" by the NIC core, counted in trimmedMalformed, with a warning.
 *
 * Left out on purpose (documented): TSS (security), atomics, rendezvous and deferrable sends,
 * the SES medium header, guaranteed-delivery responses. Congestion control: the
 * "CongestionControl" prototype (a FabricCongestionOps) is forked per PDC, its rate paces and
 * its window bounds the PDC's payload in flight; NSCC and RCCC are the next issue's work.
 */
class UetNic : public Object, public FabricNicTransport
{
  public:
    /// Completion trace signature.
    typedef void (*CompletionTracedCallback)(const UetCompletion&);
    /// Delivery trace signature.
    typedef void (*DeliveryTracedCallback)(const UetDelivery&);
    /// PDC open trace: port, local PDCID, peer FEP, true if initiator.
    typedef void (*PdcOpenTracedCallback)(uint32_t, uint16_t, Ipv4Address, bool);
    /// PDC close trace: port, local PDCID, peer FEP, in error, why.
    typedef void (
        *PdcCloseTracedCallback)(uint32_t, uint16_t, Ipv4Address, bool, const std::string&);
    /// ACK trace: local PDCID, CACK_PSN, PSNs newly acknowledged, true if received.
    typedef void (*AckTracedCallback)(uint16_t, uint32_t, uint32_t, bool);
    /// NACK trace: local PDCID, NACK_PSN, NACK code, true if received.
    typedef void (*NackTracedCallback)(uint16_t, uint32_t, uint8_t, bool);
    /// Retransmission trace: local PDCID, PSN, cause ("nack", "rto", "inferred", "no-pdc").
    typedef void (*RetransmitTracedCallback)(uint16_t, uint32_t, const std::string&);
    /// Packet sent trace: local PDCID, PSN, payload bytes.
    typedef void (*PsnSentTracedCallback)(uint16_t, uint32_t, uint32_t);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetNic();
    ~UetNic() override;

    /**
     * The smallest IPv4 length a trimmed UET request may have for the receiver to read it and
     * NACK it: the largest request headers this NIC sends, IPv4 20 + UDP 8 + PDS 12 (RUD/ROD
     * request; RUDI 8, UUD 4) + SES standard 44 = 84 bytes. Requests carrying CC state (16-B
     * PDS: receiver credit) need 88: GetMinTrimBytes().
     */
    static constexpr uint32_t MIN_TRIM_BYTES = 20 + 8 + 12 + 44;

    /**
     * \brief Check a trimming switch's settings against this NIC, so that a fabric that trims
     *        UET packets the receivers cannot recognize or read fails at configuration time
     *        instead of silently (the topology helpers call it for every switch that trims).
     *        Aborts, naming the values and the valid range, when \p trimSize is below
     *        MIN_TRIM_BYTES or a DSCP differs from TrimmedDscp / TrimmedLastHopDscp.
     * \param where the switch, for the message (e.g. "leaf0")
     * \param trimSize its SharedBufferMmu TrimSize, bytes of IPv4 packet
     * \param trimDscp its TrimDscp
     * \param lastHopTrimDscp its LastHopTrimDscp
     */
    void CheckSwitchTrimming(const std::string& where,
                             uint32_t trimSize,
                             uint8_t trimDscp,
                             uint8_t lastHopTrimDscp) const;

    /**
     * \brief Add a port (a FEP): the port of the NIC core (created on the device's node if it
     *        has none), registering UET (UDP 4793) on the core the first time.
     * \param port a PfcNetDevice of the NIC's node, attached to a cable; its MTU must carry
     *        Mtu + 88 header bytes (IPv4 20, UDP 8, PDS 16, SES 44; aborts naming both). Aborts
     *        too when DataDscp equals TrimmedDscp or TrimmedLastHopDscp (every request would
     *        look trimmed).
     * \param address its IPv4 address
     * \return the port index (the core's)
     */
    uint32_t AddPort(Ptr<PfcNetDevice> port, Ipv4Address address);
    /// \return number of ports
    uint32_t GetNPorts() const;
    /**
     * \param i port index (< GetNPorts(); aborts otherwise)
     * \return its IPv4 address (the FEP address)
     */
    Ipv4Address GetAddress(uint32_t i) const;
    /// \return the NIC core (null before the first AddPort)
    Ptr<FabricNic> GetCore() const;

    /**
     * \brief Create an endpoint {JobID, PIDonFEP} on a port.
     * \param jobId JobID, 0..2^24-1
     * \param pidOnFep PIDonFEP, 0..4095
     * \param port FEP index (< GetNPorts())
     * \param resources number of resources, 1..4096
     * \return the endpoint (aborts, naming the values, if one exists with the same
     *         {JobID, PIDonFEP} on the port or a value is out of range)
     */
    Ptr<UetEndpoint> CreateEndpoint(uint32_t jobId,
                                    uint16_t pidOnFep,
                                    uint32_t port = 0,
                                    uint16_t resources = 1);
    /**
     * \param port FEP index
     * \param jobId JobID
     * \param pidOnFep PIDonFEP
     * \return the endpoint, or null
     */
    Ptr<UetEndpoint> GetEndpoint(uint32_t port, uint32_t jobId, uint16_t pidOnFep) const;

    /// \return the counters (all ports)
    const UetNicCounters& GetCounters() const;
    /// \return payload bytes of the operations posted and not completed
    uint64_t GetPendingBytes() const;
    /// \return open PDCs (initiator and target, all ports)
    uint32_t GetNOpenPdcs() const;
    /**
     * \param port FEP index
     * \param id a PDCID
     * \return the PDC with that id on that port (open or not), or null if never used
     */
    const UetPdc* GetPdc(uint32_t port, uint16_t id) const;
    /**
     * \brief The initiator PDC for {mode, JobID, destination} on a port, if open.
     * \param port FEP index
     * \param mode delivery mode
     * \param jobId JobID
     * \param dst destination FEP
     * \return the PDC or null
     */
    const UetPdc* FindInitiatorPdc(uint32_t port,
                                   UetDeliveryMode mode,
                                   uint32_t jobId,
                                   Ipv4Address dst) const;

    /**
     * \brief The CongestionControl prototype every new PDC forks (created from the attribute on
     *        first use): set its attributes to configure this NIC's PDCs, e.g.
     *        nic->GetCongestionPrototype()->SetAttribute("BaseRtt", TimeValue(...)).
     * \return the prototype (aborts if CongestionControl names no FabricCongestionOps)
     */
    Ptr<FabricCongestionOps> GetCongestionPrototype();

    /**
     * \brief The EvSelector prototype every new RUD PDC forks (created from the attribute on
     *        first use): set its attributes (Evs, ...) to configure this NIC's spraying.
     * \return the prototype (aborts if EvSelector names no UetEvSelector, or if its Evs
     *         exceeds EV_PORTS)
     */
    Ptr<UetEvSelector> GetEvSelectorPrototype();
    /// \return a fresh EV selector for a new PDC, bound to the NIC's random stream
    Ptr<UetEvSelector> NewEvSelector();
    /// \return true if the EvSelector sprays (is not UetSingleEvSelector, whose PDCs send
    ///         every packet on their own EV without a selector object)
    bool Sprays();

    /// First UDP source port an EV maps to.
    static constexpr uint32_t EV_PORT_BASE = 49152;
    /// UDP source ports EVs map to (49152..65535): the largest Evs.
    static constexpr uint32_t EV_PORTS = 16384;

    /**
     * \brief Tell the NIC the unloaded RTT of its path to each peer (topology helpers do; the
     *        congestion control of a new PDC starts its base RTT there, FabricCcState::
     *        GetPathRtt).
     * \param f the peer's FEP address -> unloaded RTT (0 = unknown); empty: none
     */
    void SetPathRttFunction(std::function<Time(Ipv4Address)> f);
    /**
     * \param peer a FEP address
     * \return the unloaded RTT to it (0 if unknown)
     */
    Time GetPathRtt(Ipv4Address peer) const;

    /// \return Mtu: payload bytes per packet
    uint32_t GetMtu() const;
    /// \return HeaderModelBytes: 0 (real sizes) or the bytes charged per packet beyond its
    ///         payload, framing included
    uint32_t GetHeaderModelBytes() const;
    /**
     * \brief What a packet costs on the wire beyond its payload, as the links charge it: its
     *        headers from IPv4 on plus Ethernet header, FCS, preamble and inter-frame gap (38 B),
     *        or HeaderModelBytes under a simplified header model.
     * \param ipHeaderBytes the packet's headers from IPv4 on (IPv4, UDP, PDS, SES), bytes
     * \return bytes
     */
    uint32_t GetPacketOverheadBytes(uint32_t ipHeaderBytes) const;
    /// \return MP_RANGE, PSNs
    uint32_t GetMpRange() const;
    /// \return ACK_Gen_Trigger, bytes
    uint32_t GetAckGenTrigger() const;
    /// \return ACK_Gen_Min_Pkt_Add, bytes
    uint32_t GetAckGenMinPktAdd() const;
    /// \return the minimum RTO
    Time GetRtoMin() const;
    /// \return the maximum RTO (backoff cap)
    Time GetRtoMax() const;
    /// \return retransmissions of one packet before its PDC closes in error
    uint32_t GetRetryLimit() const;
    /// \return the quiet time after which a receiver ACKs what it has not yet (0: never)
    Time GetAckDelay() const;
    /// \return InferLossAge: smoothed RTTs a packet must be old to be inferred lost (0: any)
    double GetInferLossAge() const;
    /// \return AckOnHole: a hole in the receive window forces an immediate ACK
    bool GetAckOnHole() const;
    /// \return the inferred-loss out-of-order threshold (0: off)
    uint32_t GetOooThreshold() const;
    /// \return idle time before an initiator closes its PDC (0: never)
    Time GetPdcIdleTime() const;
    /// \return New_PDC_Time
    Time GetNewPdcTime() const;
    /// \return Close_REQ_Time
    Time GetCloseReqTime() const;
    /// \return DSCP of data packets
    uint8_t GetDataDscp() const;
    /// \return DSCP of control packets (ACK, NACK, control)
    uint8_t GetControlDscp() const;
    /// \return DSCP that marks a request trimmed in the fabric (attribute TrimmedDscp)
    uint8_t GetTrimmedDscp() const;
    /// \return DSCP that marks a request trimmed at the last hop (TrimmedLastHopDscp)
    uint8_t GetTrimmedLastHopDscp() const;

    /**
     * \brief Fix the random stream (Start_PSNs, EVs) for reproducibility.
     * \param stream stream index
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    // FabricNicTransport
    uint32_t GetMaxRxHeaderBytes() const override;
    uint32_t GetRxHeaderBytes(const uint8_t* ip, uint32_t avail) const override;
    bool Deliver(uint32_t port,
                 const uint8_t* ip,
                 uint32_t got,
                 uint32_t size,
                 FabricNicDropReason& reason) override;
    /// \return operations posted on this NIC and not completed (FabricNicTransport)
    uint64_t GetPendingOperations() const override;
    /// One line per PDC with pending work (UetPdc::Describe). \param os the stream
    void DescribePending(std::ostream& os) const override;

    // ---- used by UetEndpoint / UetPdc -----------------------------------------------------
    /**
     * \brief Post an operation (UetEndpoint's Post* functions after their checks).
     * \param port FEP index
     * \param mode delivery mode
     * \param m the message (opId, postTime set here)
     * \return the operation id
     */
    uint64_t PostOperation(uint32_t port, UetDeliveryMode mode, UetTxMessage m);
    /**
     * \brief An operation completed: counters, trace, callback.
     * \param c the completion
     * \param cb the operation's callback
     */
    void NotifyCompletion(const UetCompletion& c, const UetCompletionCallback& cb);
    /**
     * \brief A message was delivered to an endpoint: counters and trace.
     * \param d the delivery
     */
    void NotifyDelivery(const UetDelivery& d);
    /**
     * \brief The SES target for a message's first packet: the endpoint's decision, or the
     *        return code of an unknown JobID / PIDonFEP.
     * \param port FEP index
     * \param jobId JobID
     * \param pid PIDonFEP
     * \param[out] ep the endpoint (null if none)
     * \return RC_OK if the endpoint exists, else RC_BAD_JOB_ID or RC_BAD_PID
     */
    uint8_t FindTarget(uint32_t port, uint32_t jobId, uint16_t pid, UetEndpoint** ep) const;
    /**
     * \brief A PDC was freed: its id goes back to the pool; queued operations may open PDCs.
     * \param pdc the PDC
     * \param error closed in error
     * \param why the cause (trace)
     */
    void PdcClosed(UetPdc* pdc, bool error, const std::string& why);
    /**
     * \brief An initiator PDC starts closing: new operations to its destination open a new
     *        PDC.
     * \param pdc the PDC
     */
    void PdcClosing(UetPdc* pdc);
    /**
     * \brief A PDC opened (trace, counter).
     * \param pdc the PDC
     */
    void PdcOpened(UetPdc* pdc);
    /**
     * \brief Build a frame from IPv4 header room \p h (IPv4 + UDP written here).
     * \param port FEP index
     * \param h the IPv4 header's place; 18 bytes of room in front for the L2 header
     * \param hdrBytes headers from IPv4 on, bytes
     * \param body zero-filled bytes after the headers (payload)
     * \param dstBits destination address, host order
     * \param udpSrc UDP source port (EV)
     * \param data true: data DSCP, ECT(0); false: control DSCP, not ECT
     * \return the frame
     */
    FabricFrame MakeFrame(uint32_t port,
                          uint8_t* h,
                          uint32_t hdrBytes,
                          uint32_t body,
                          uint32_t dstBits,
                          uint16_t udpSrc,
                          bool data);
    /// \return the data priority of a port
    uint8_t GetDataPriority(uint32_t port) const;
    /// \return the control priority of a port
    uint8_t GetControlPriority(uint32_t port) const;
    /// \return a fresh congestion-control instance bound to a new state for \p port, told
    ///         the path RTT to \p peer (GetPathRtt)
    Ptr<FabricCongestionOps> NewCongestionOps(uint32_t port, Ipv4Address peer);
    /**
     * \brief The congestion control context a PDC to \p peer uses (created with the first
     *        PDC of {port, traffic class, peer}; one per PDC if ShareCcContext is false).
     * \param port FEP index
     * \param peer the destination FEP
     * \param pdc the PDC that joins it
     * \return the context (owned by the NIC until its last PDC leaves)
     */
    UetCcContext* AcquireCcContext(uint32_t port, Ipv4Address peer, UetPdc* pdc);
    /**
     * \brief A PDC leaves its context; the last one deletes it.
     * \param ccc the context
     * \param pdc the member that leaves
     */
    void ReleaseCcContext(UetCcContext* ccc, UetPdc* pdc);

    /**
     * \brief The receiver credit context (RCCC) of a sender's congestion control context, for
     *        a target PDC whose requests carry it (created with the first).
     * \param port FEP index the requests arrive on
     * \param src the sender FEP
     * \param cccId the sender's CCC id (RUD_CC_REQ)
     * \param pdc the PDC that joins it
     * \return the context (owned by the NIC until its last PDC leaves)
     */
    UetCreditContext* AcquireCreditContext(uint32_t port,
                                           Ipv4Address src,
                                           uint8_t cccId,
                                           UetPdc* pdc);
    /**
     * \brief A PDC leaves its receiver credit context; the last one deletes it.
     * \param ctx the context
     * \param pdc the member that leaves
     */
    void ReleaseCreditContext(UetCreditContext* ctx, UetPdc* pdc);
    /**
     * \param port FEP index
     * \return the port's credit pacer (created at CreditRate x the port's line rate)
     */
    UetCreditPacer* GetCreditPacer(uint32_t port);

    /// \return receiver credit contexts alive
    uint32_t GetNCreditContexts() const
    {
        return static_cast<uint32_t>(m_creditCtxs.size());
    }

    /// \return CreditChunk, bytes
    uint32_t GetCreditChunk() const
    {
        return m_creditChunk;
    }

    /// \return CreditRequestInterval
    Time GetCreditRequestInterval() const
    {
        return m_creditRequestInterval;
    }

    /**
     * \return the smallest trimmed IPv4 length this NIC's receivers can read: MIN_TRIM_BYTES,
     *         or 4 more (88) when its congestion control uses receiver credit (its requests
     *         carry a 16-byte PDS CC header)
     */
    uint32_t GetMinTrimBytes() const;
    /**
     * \param cc a CongestionControl TypeId
     * \return the smallest readable trimmed length with it: 88 for RcccCongestionOps (and
     *         subclasses), else MIN_TRIM_BYTES
     */
    static uint32_t GetMinTrimBytesFor(TypeId cc);
    /**
     * \param mtu a UET Mtu (payload bytes per packet)
     * \return the smallest port (PfcNetDevice) Mtu that carries it: the largest IPv4 packet,
     *         mtu + 88 B (IPv4 20, UDP 8, PDS 16, SES 44)
     */
    static uint32_t GetDeviceMtuFor(uint32_t mtu);

    /// \return congestion control contexts alive (one per active pair with ShareCcContext)
    uint32_t GetNCcContexts() const
    {
        return static_cast<uint32_t>(m_cccs.size());
    }

    /// \return true if the CongestionControl wants the receiver's state on every ACK (the
    ///         NIC then acknowledges with ACK_CC carrying the NSCC state)
    bool WantsReceiverState();

    /// \return the NIC's counters, writable (PDCs count into them)
    UetNicCounters& Counters()
    {
        return m_counters;
    }

    /// \return the core (raw, for PDCs)
    FabricNic* GetCorePtr() const
    {
        return PeekPointer(m_core);
    }

    /// \return the node id (labels)
    uint32_t GetNodeId() const;

    TracedCallback<const UetCompletion&> m_completionTrace;               //!< operation completed
    TracedCallback<const UetDelivery&> m_deliveryTrace;                   //!< message delivered
    TracedCallback<uint32_t, uint16_t, Ipv4Address, bool> m_pdcOpenTrace; //!< PDC opened
    TracedCallback<uint32_t, uint16_t, Ipv4Address, bool, const std::string&>
        m_pdcCloseTrace;                                                //!< PDC closed
    TracedCallback<uint16_t, uint32_t, uint32_t, bool> m_ackTrace;      //!< ACK sent/received
    TracedCallback<uint16_t, uint32_t, uint8_t, bool> m_nackTrace;      //!< NACK sent/received
    TracedCallback<uint16_t, uint32_t, const std::string&> m_retxTrace; //!< retransmission
    TracedCallback<uint16_t, uint32_t, uint32_t> m_sentTrace;           //!< request packet sent

  protected:
    void DoDispose() override;

  private:
    /// A PDC-less (RUDI/UUD) source at a target: {initiator FEP, JobID}.
    struct PdclessPeer
    {
        std::optional<UetReceiveWindow> ids;   //!< RUDI: packet ids seen (duplicates)
        std::unique_ptr<UetSesReassembly> ses; //!< messages arriving
    };

    /// Per-FEP state.
    struct Fep
    {
        /// Initiator RUDI/UUD flows by {mode, JobID, dst} (never freed: per-peer state).
        std::unordered_map<uint64_t, std::unique_ptr<UetPdclessFlow>> pdcless;
        /// Target RUDI/UUD sources by {mode, src, JobID}.
        std::unordered_map<uint64_t, PdclessPeer> pdclessPeers;
        UetPdcTable pdcs; //!< PDCID pool and PDCs (initialized by AddPort)
        std::deque<std::pair<UetDeliveryMode, UetTxMessage>> waiting; //!< no PDCID free
        std::vector<Ptr<UetEndpoint>> endpoints;                      //!< endpoints
    };

    /// Post \p m on its PDC (or flow), opening one, or queue it if no PDCID is free.
    void Dispatch(uint32_t port, UetDeliveryMode mode, UetTxMessage m);
    /// Open an initiator PDC with PDCID \p id and post \p m on it.
    void OpenInitiator(uint32_t port, UetDeliveryMode mode, uint16_t id, UetTxMessage m);
    /// Post the operations waiting for a PDCID, in order, while PDCIDs are free.
    void DrainWaiting(uint32_t port);
    /// A request with SYN: find or make the target PDC.
    UetPdc* AcceptSyn(uint32_t port, const UetRxPacket& rx);
    /// Send a NACK without a PDC (unknown DPDCID, no PDC available, a trimmed SYN packet),
    /// from the packet's EV, with \p flags.
    void SendStatelessNack(uint32_t port, const UetRxPacket& rx, uint8_t code, uint8_t flags = 0);
    /**
     * \brief A trimmed request arrived (its DSCP said so): NACK it (RUD, ROD, RUDI) or count
     *        it lost (UUD); nothing is delivered.
     * \param port FEP index
     * \param rx the packet (headers whole, payload cut)
     * \param lastHop trimmed at the last hop (TrimmedLastHopDscp)
     * \param[out] reason why it was dropped, when false is returned
     * \return false if it was dropped without an answer (unknown PDC: NACK INV_DPDCID)
     */
    bool ReceiveTrimmed(uint32_t port,
                        const UetRxPacket& rx,
                        bool lastHop,
                        FabricNicDropReason& reason);
    /// \return a random EV (UDP source port 49152..65535)
    uint16_t NewEv();
    /// A RUDI/UUD request arrived (target).
    void ReceivePdcless(uint32_t port, const UetRxPacket& rx);
    /// Send a RUDI_RESP with an SES response.
    void SendRudiResponse(uint32_t port,
                          const UetRxPacket& rx,
                          uint8_t rc,
                          uint16_t msgId,
                          uint32_t jobId,
                          uint32_t modified);
    /// Validate and set the Mtu attribute.
    void SetMtu(uint32_t mtu);

    Ptr<FabricNic> m_core;                      //!< the NIC core
    std::vector<Fep> m_feps;                    //!< per port
    uint32_t m_mtu;                             //!< payload bytes per packet
    uint32_t m_headerModelBytes;                //!< charged bytes beyond payload (0: real)
    uint8_t m_dataDscp;                         //!< DSCP of data
    uint8_t m_controlDscp;                      //!< DSCP of ACK/NACK/control
    uint8_t m_trimmedDscp;                      //!< DSCP of requests trimmed in the fabric
    uint8_t m_trimmedLastHopDscp;               //!< DSCP of requests trimmed at the last hop
    bool m_warnedShortTrim{false};              //!< the short-trim warning was printed
    uint32_t m_poolSize;                        //!< general PDCIDs per FEP
    uint32_t m_reservedPdcs;                    //!< reserved PDCIDs per FEP
    uint32_t m_mpRange;                         //!< MP_RANGE
    uint32_t m_ackGenTrigger;                   //!< ACK_Gen_Trigger
    uint32_t m_ackGenMinPktAdd;                 //!< ACK_Gen_Min_Pkt_Add
    Time m_ackDelay;                            //!< quiet-period ACK timer (0 = off)
    double m_inferLossAge{0.0};                 //!< InferLossAge
    bool m_ackOnHole{true};                     //!< immediate ACK while a hole is open
    Time m_rtoMin;                              //!< RTO minimum
    Time m_rtoMax;                              //!< RTO cap
    uint32_t m_retryLimit;                      //!< retries per packet
    uint32_t m_oooThreshold;                    //!< inferred loss (0 = off)
    Time m_pdcIdleTime;                         //!< initiator idle close (0 = never)
    Time m_newPdcTime;                          //!< New_PDC_Time
    Time m_closeReqTime;                        //!< Close_REQ_Time
    uint32_t m_uudReassemblyLimit;              //!< UUD messages partly arrived, per source
    TypeId m_ccTypeId;                          //!< congestion control
    Ptr<FabricCongestionOps> m_ccPrototype;     //!< its prototype
    std::function<Time(Ipv4Address)> m_pathRtt; //!< peer -> unloaded RTT
    bool m_shareCcc{true};                      //!< ShareCcContext
    uint64_t m_nextCccId{0};                    //!< unshared contexts' ids
    /// Congestion control contexts by {port, TC, peer} (or unique ids when not shared).
    std::unordered_map<uint64_t, std::unique_ptr<UetCcContext>> m_cccs;
    double m_creditRate{0.99};     //!< CreditRate (fraction of line rate)
    uint32_t m_creditChunk{16384}; //!< CreditChunk, bytes
    double m_idleCredit{1.0};      //!< IdleCredit, MaxWindows
    Time m_creditRequestInterval;  //!< CreditRequestInterval
    /// Receiver credit contexts by {port, CCC id, source FEP}.
    std::unordered_map<uint64_t, std::unique_ptr<UetCreditContext>> m_creditCtxs;
    std::vector<std::unique_ptr<UetCreditPacer>> m_creditPacers; //!< per port, lazily
    TypeId m_evTypeId;                                           //!< EV selector
    Ptr<UetEvSelector> m_evPrototype;                            //!< its prototype
    Ptr<UniformRandomVariable> m_rng;                            //!< Start_PSN, EV
    uint64_t m_nextOpId{1};                                      //!< next operation id
    uint64_t m_pendingOps{0};                                    //!< operations not completed
    uint64_t m_pendingBytes{0};                                  //!< their bytes
    uint32_t m_openPdcs{0};                                      //!< open PDCs
    UetNicCounters m_counters;                                   //!< counters
};

} // namespace ns3

#endif /* UET_NIC_H */
