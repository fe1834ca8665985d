/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a RoCEv2 reliable-connected queue pair.
 */
#ifndef ROCE_QUEUE_PAIR_H
#define ROCE_QUEUE_PAIR_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/fabric-congestion-ops.h"
#include "ns3/fabric-frame.h"
#include "ns3/fabric-nic.h"
#include "ns3/fabric-ring.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/roce-int-header.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

class RoceNic;

/// Work request operations (IBTA Vol 1 10.8.2).
enum class RoceWrOpcode : uint8_t
{
    WRITE = 0,      //!< RDMA WRITE
    WRITE_WITH_IMM, //!< RDMA WRITE with immediate (the responder is notified)
    SEND,           //!< SEND (the responder is notified)
    SEND_WITH_IMM,  //!< SEND with immediate
    READ,           //!< RDMA READ
};

/// Work completion status (IBTA Vol 1 11.6.2, the subset the model produces).
enum class RoceWcStatus : uint8_t
{
    SUCCESS = 0,    //!< completed
    RETRY_EXCEEDED, //!< local ACK timeout retries exhausted: the QP went to the error state
    FLUSH_ERROR,    //!< flushed because the QP is in the error state
};

/**
 * \param op an operation
 * \return its name ("WRITE", "READ", ...)
 */
const char* RoceWrOpcodeName(RoceWrOpcode op);

/**
 * \ingroup ai-fabric-roce
 * \brief The fields of a received RoCEv2 packet that a QP acts on.
 *
 * The NIC copies the first bytes of the packet once (IPv4, UDP, BTH and up to 20 bytes of
 * extension headers) and fills this in; nothing is deserialized header by header.
 */
struct RoceRxPacket
{
    uint8_t opcode{0};           //!< BTH opcode
    uint32_t psn{0};             //!< BTH PSN, 24 bits
    bool ackReq{false};          //!< BTH AckReq bit
    uint8_t padCount{0};         //!< BTH PadCnt, 0..3
    bool ce{false};              //!< the IPv4 ECN field was CE
    uint8_t ttl{0};              //!< the IPv4 TTL
    bool becn{false};            //!< BTH BECN bit (ECN echo on an ACK)
    uint8_t resv7{0};            //!< BTH reserved bits after AckReq (hop count on an ACK)
    const uint8_t* ext{nullptr}; //!< bytes after the BTH (RETH/AETH/ImmDt), valid during the call
    uint32_t extBytes{0};        //!< how many bytes ext holds, 0..20
    uint32_t afterBth{0};        //!< packet bytes after the BTH and INT stack: extension headers,
                                 //!< payload, pad, ICRC
    /// The INT stack after the BTH (RoceInt; HPCC), valid during the call; null: none.
    const uint8_t* intStack{nullptr};
};

/**
 * \param status a status
 * \return its name ("SUCCESS", "RETRY_EXCEEDED", "FLUSH_ERROR")
 */
const char* RoceWcStatusName(RoceWcStatus status);

/// A requester-side work completion.
struct RoceWorkCompletion
{
    uint64_t wrId{0};                           //!< id returned by Post*
    uint32_t qpn{0};                            //!< local QP number
    RoceWrOpcode opcode{RoceWrOpcode::WRITE};   //!< operation
    RoceWcStatus status{RoceWcStatus::SUCCESS}; //!< outcome
    uint64_t bytes{0};                          //!< message length, bytes
    Time postTime;                              //!< when it was posted
    Time startTime;                             //!< when its first packet left
    Time endTime;                               //!< when it completed
};

/// A responder-side notification: a SEND or a WRITE with immediate arrived completely.
struct RoceReceiveCompletion
{
    uint32_t qpn{0};                         //!< local QP number
    RoceWrOpcode opcode{RoceWrOpcode::SEND}; //!< SEND, SEND_WITH_IMM or WRITE_WITH_IMM
    uint64_t bytes{0};                       //!< message length, bytes
    bool hasImm{false};                      //!< immediate data present
    uint32_t imm{0};                         //!< immediate data
};

/// ACK/NAK/CNP events of a QP (the "Control" trace).
enum class RoceControlEvent : uint8_t
{
    ACK_TX = 0, //!< ACK sent (responder)
    ACK_RX,     //!< ACK received (requester)
    NAK_TX,     //!< NAK sent (responder, PSN sequence error)
    NAK_RX,     //!< NAK received (requester)
    CNP_TX,     //!< CNP sent (notification point)
    CNP_RX,     //!< CNP received (reaction point)
};

/**
 * \param e an event
 * \return its name ("ACK_TX", ...)
 */
const char* RoceControlEventName(RoceControlEvent e);

/// Per-QP counters.
struct RoceQpCounters
{
    uint64_t txDataPackets{0}; //!< request/response data packets sent (incl. retransmissions)
    uint64_t txDataBytes{0};   //!< payload bytes of those
    uint64_t retransmittedPackets{0}; //!< packets sent again after go-back-N
    uint64_t rxDataPackets{0};        //!< in-order data packets accepted
    uint64_t rxDataBytes{0};          //!< payload bytes accepted
    uint64_t acksTx{0};               //!< ACKs sent
    uint64_t acksRx{0};               //!< ACKs received
    uint64_t naksTx{0};               //!< NAKs (PSN sequence error) sent
    uint64_t naksRx{0};               //!< NAKs received
    uint64_t cnpsTx{0};               //!< CNPs sent (as notification point)
    uint64_t cnpsRx{0};               //!< CNPs received (as reaction point)
    uint64_t ceRx{0};                 //!< CE-marked data packets received
    uint64_t duplicatesRx{0};         //!< duplicate data packets (PSN < ePSN)
    uint64_t outOfOrderRx{0};         //!< data packets ahead of ePSN (dropped)
    uint64_t timeouts{0};             //!< local ACK timeouts
    uint64_t completions{0};          //!< work completions (any status)
};

/**
 * \ingroup ai-fabric-roce
 * \brief A reliable-connected (RC) queue pair of a RoceNic: requester and responder.
 *
 * Requester: work requests (Post*) are segmented at the NIC's path MTU into First/Middle/
 * Last/Only packets with consecutive 24-bit PSNs (wrapping at 2^24); WRITE First/Only and READ
 * requests carry a RETH, *_WITH_IMM packets an ImmDt, the last packet of a message requests an
 * ACK. A READ request consumes one PSN per response packet. Reliability is go-back-N: a NAK
 * (PSN sequence error) or a gap in READ responses restarts transmission at the missing PSN;
 * the local ACK timeout (4.096 us x 2^LocalAckTimeout) restarts it at the oldest unacknowledged
 * PSN, up to RetryCount times, after which the QP enters the error state and every outstanding
 * work request completes with RETRY_EXCEEDED / FLUSH_ERROR (IBTA Vol 1 9.7.5, 10.3.1).
 * Completions are in order.
 *
 * Responder: keeps the expected PSN (ePSN); accepts in-order packets, ACKs every AckInterval
 * packets and at every message end or AckReq, sends one NAK per gap, re-ACKs duplicates,
 * answers READ requests with READ responses (also for duplicate READs), and as DCQCN
 * notification point returns a CNP for CE-marked data at most once per CnpInterval.
 *
 * Congestion control: the QP's FabricCcState holds the rate and window its algorithm (a
 * FabricCongestionOps forked from the NIC's CongestionControl) sets; the QP reports ACKs
 * (FabricCcAckSample), CNPs, NAKs and timeouts (FabricCcEvent) and the bytes it sends. Packets
 * leave at that rate (wire bytes incl. Ethernet framing, preamble and IFG), within the optional
 * in-flight window; the NIC core's egress arbiter round-robins among eligible QPs (the QP is a
 * FabricNicFlow). With a window, requests also set AckReq on the packet that fills the window
 * and once per half window (every window / Mtu / 2 packets), so a window below the responder's
 * AckInterval never waits for the local ACK timeout; without one (DCQCN, none) only the last packet
 * of a message does. ACK echo of ECN CE (RoceNic CongestionNotification=AckEcho) and the hop count
 * (EchoHopCount) travel in the ACK's BTH. The responder's receiver-side ops (the NIC's
 * NotificationPoint) decide when a CE-marked data packet is answered with a CNP.
 */
class RoceQueuePair : public Object, public FabricNicFlow
{
  public:
    /// Requester completion callback.
    typedef Callback<void, const RoceWorkCompletion&> CompletionCallback;
    /// Responder receive callback.
    typedef Callback<void, const RoceReceiveCompletion&> ReceiveCallback;
    /// Control trace: event, PSN carried (ACK/NAK PSN; 0 for CNPs).
    typedef void (*ControlTracedCallback)(RoceControlEvent event, uint32_t psn);
    /// Retransmission trace: first PSN resent, cause ("nak", "timeout", "read-gap").
    typedef void (*RetransmitTracedCallback)(uint32_t psn, const std::string& cause);

    /// QP states (IBTA Vol 1 10.3.1, the subset modelled).
    enum State
    {
        INIT,  //!< created, not connected
        RTS,   //!< connected, ready to send
        ERROR, //!< retries exhausted; posts are flushed
    };

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RoceQueuePair();
    ~RoceQueuePair() override;

    /**
     * \brief Connect to the remote QP (done by RoceNicHelper::Connect).
     * \param remoteIp the remote port's IPv4 address
     * \param remoteQpn the remote QP number (< 2^24)
     * \param sendPsn first PSN this QP sends (< 2^24)
     * \param expectedPsn first PSN this QP expects (the remote's sendPsn)
     * \param udpSourcePort UDP source port of this QP's packets (flow entropy)
     */
    void Connect(Ipv4Address remoteIp,
                 uint32_t remoteQpn,
                 uint32_t sendPsn,
                 uint32_t expectedPsn,
                 uint16_t udpSourcePort);

    /**
     * \brief Post an RDMA WRITE.
     * \param bytes message length, >= 1 (aborts on 0)
     * \param remoteAddress remote virtual address
     * \param rkey remote key
     * \param cb completion callback (may be null)
     * \return the work request id; a post to a QP in the error state completes at once with
     *         FLUSH_ERROR
     */
    uint64_t PostWrite(uint64_t bytes,
                       uint64_t remoteAddress,
                       uint32_t rkey,
                       CompletionCallback cb);
    /**
     * \brief Post an RDMA WRITE with immediate data (the responder gets a receive callback).
     * \param bytes message length (0 allowed)
     * \param imm immediate data
     * \param remoteAddress remote virtual address
     * \param rkey remote key
     * \param cb completion callback
     * \return the work request id
     */
    uint64_t PostWriteWithImm(uint64_t bytes,
                              uint32_t imm,
                              uint64_t remoteAddress,
                              uint32_t rkey,
                              CompletionCallback cb);
    /**
     * \brief Post a SEND (the responder gets a receive callback).
     * \param bytes message length (0 allowed)
     * \param cb completion callback
     * \return the work request id
     */
    uint64_t PostSend(uint64_t bytes, CompletionCallback cb);
    /// \return the id the next Post* will return (ids count up from 0 per QP)
    uint64_t GetNextWrId() const;
    /**
     * \brief Post an RDMA READ of remote memory.
     * \param bytes length, >= 1 (aborts on 0)
     * \param remoteAddress remote virtual address
     * \param rkey remote key
     * \param cb completion callback (fires when all response data arrived)
     * \return the work request id
     */
    uint64_t PostRead(uint64_t bytes, uint64_t remoteAddress, uint32_t rkey, CompletionCallback cb);

    /**
     * \brief Set the responder-side receive callback.
     * \param cb the callback
     */
    void SetReceiveCallback(ReceiveCallback cb);

    /// \return the local QP number
    uint32_t GetQpn() const;
    /// \return the remote QP number
    uint32_t GetRemoteQpn() const;
    /// \return the remote IPv4 address (an uninitialized Ipv4Address before Connect)
    Ipv4Address GetRemoteAddress() const;
    /// \return the state
    State GetState() const;
    /// \return the counters
    const RoceQpCounters& GetCounters() const;
    /// \return the congestion control instance of this QP (its algorithm)
    Ptr<FabricCongestionOps> GetCongestionOps() const;
    /// \return the congestion-control state of this QP (rate, window, target rate; traced)
    Ptr<FabricCcState> GetCcState() const;
    /// \return the receiver-side congestion control of this QP (its notification point)
    Ptr<FabricCcReceiverOps> GetCcReceiverOps() const;
    /// \return work requests posted and not yet completed
    uint32_t GetOutstandingWorkRequests() const;
    /**
     * \return "node <id> QP <qpn>": QPNs are per NIC, so messages name the node with them
     *         ("node ?" before the NIC is aggregated to a node)
     */
    std::string GetLabel() const;
    /**
     * \brief One line for a stall diagnosis: "QP <qpn> (port <p>, priority <q>) -> <remote
     *        address> QP <remote qpn>: <n> work requests pending (<bytes> B), state, acked and
     *        next PSN, rate, window, consecutive timeouts" (no newline). QPNs are per NIC, so
     *        the caller names the NIC's node.
     * \param os the stream
     */
    void Describe(std::ostream& os) const;
    /// \return the UDP source port (entropy)
    uint16_t GetUdpSourcePort() const;
    /// \return the local port index on the NIC
    uint32_t GetPortIndex() const;
    /// \return the priority of this QP's data packets
    uint8_t GetPriority() const;

    // ---- used by RoceNic -------------------------------------------------------------------
    /**
     * \brief Bind to the NIC (RoceNic::CreateQp does this).
     * \param nic the owning NIC (its core must exist)
     * \param qpn the QP number
     * \param port local port index
     * \param cc this QP's congestion control instance (already Init()ed with its state)
     * \param np this QP's receiver-side congestion control (notification point)
     */
    void Bind(RoceNic* nic,
              uint32_t qpn,
              uint32_t port,
              Ptr<FabricCongestionOps> cc,
              Ptr<FabricCcReceiverOps> np);
    /**
     * \brief Replace the congestion control of an idle QP by fresh instances, as for a new QP
     *        (RoceNic::RenewCongestionControl): a flow workload reusing the QP for a new flow
     *        starts it at line rate, as a new connection would. The old instances are
     *        disposed (their timers removed).
     * \param cc the new congestion control (Init()ed with its state)
     * \param np the new receiver side
     * Aborts, naming the QP, if work requests are outstanding.
     */
    void RebindCongestionControl(Ptr<FabricCongestionOps> cc, Ptr<FabricCcReceiverOps> np);
    /**
     * \brief As a responder, take a fresh receiver side (notification point, forked from the
     *        NIC's prototype: RoceNic::NewReceiverOps) when a new request message begins (its
     *        first or only packet arrives in order), before that packet is seen: a flow
     *        workload's pooled QP pair then starts every flow as a new connection at the
     *        receiver too, without the receiver learning when the previous flow completed at
     *        the sender (RoceTransportPlugin's per-peer numbering, across MPI processes).
     * \param fresh on (default off)
     */
    void SetFreshReceiverPerMessage(bool fresh);
    // FabricNicFlow: what the NIC core's arbiter asks.
    /// \return true if a data packet could be built now (ignoring pacing time)
    bool HasPacketToSend() const override;
    /// \return earliest time the next data packet may leave (pacing)
    Time GetNextSendTime() const override;
    /**
     * \brief Build the next data packet (READ response first, then requests) and account it.
     * \param now the current simulation time (Simulator::Now(), which the caller has)
     * \return the whole frame for the QP's port (Ethernet/IPv4/UDP/BTH/... headers in its head,
     *         then payload, ICRC, padding, FCS; see PfcNetDevice::SendFrame)
     */
    FabricFrame BuildNextPacket(const Time& now) override;
    /**
     * \brief Handle an arriving RoCEv2 packet for this QP.
     * \param rx the packet's fields, read by the NIC from one copy of its first bytes
     */
    void Receive(const RoceRxPacket& rx);

  protected:
    void DoDispose() override;

  private:
    /// A requester work request.
    struct WorkRequest
    {
        uint64_t wrId;          //!< id
        RoceWrOpcode opcode;    //!< operation
        uint64_t bytes;         //!< length
        uint64_t remoteAddress; //!< RETH VA
        uint32_t rkey;          //!< RETH R_Key
        uint32_t imm;           //!< immediate data
        CompletionCallback cb;  //!< completion
        Time postTime;          //!< posted at
        Time startTime;         //!< first packet at
        uint32_t firstPsn;      //!< PSN of packet 0 (valid when assigned)
        uint32_t npkts;         //!< packets (requests) or responses (READ)
        bool assigned;          //!< PSNs assigned
        bool started;           //!< first packet sent
        uint32_t readReceived;  //!< READ: response packets received in order
    };

    /// A READ the responder is answering.
    struct ReadResponseJob
    {
        uint32_t firstPsn; //!< PSN of response 0 of this job
        uint32_t npkts;    //!< responses in this job
        uint32_t next;     //!< next response index
        uint64_t bytes;    //!< bytes of this job
        uint32_t msn;      //!< MSN to report
    };

    uint64_t Post(RoceWrOpcode op,
                  uint64_t bytes,
                  uint64_t va,
                  uint32_t rkey,
                  uint32_t imm,
                  CompletionCallback cb);
    /// Number of packets for \p bytes at the path MTU (>= 1).
    uint32_t PacketsFor(uint64_t bytes) const;
    /// Bytes of IPv4 + UDP in front of the BTH.
    static constexpr uint32_t IP_UDP_BYTES = 28;
    /// Headroom in front of the IPv4 header for the port's L2 header (802.1Q-tagged Ethernet).
    static constexpr uint32_t L2_ROOM = 14 + 4;
    /**
     * Make a whole frame from header bytes: writes IPv4 + UDP into h[0..28) (h[28..hdrBytes)
     * holds the BTH and its extension headers) and the port's L2 header for \p priority into
     * the L2_ROOM bytes in front of h; they become the frame's head (FabricFrame), in front of
     * a zero body with no ns-3 packet (created only if the frame is observed): \p body bytes
     * of payload and pad, the ICRC field, Ethernet padding to the 64-byte minimum, and the FCS
     * field (see PfcNetDevice::SendFrame). \p intMark sets the IPv4 reserved flag that asks
     * switches to append INT hop records (RoceInt::IPV4_INT_BIT).
     */
    FabricFrame MakePacket(uint8_t* h,
                           uint32_t hdrBytes,
                           uint32_t body,
                           uint8_t dscp,
                           bool ect,
                           uint8_t priority,
                           bool intMark = false) const;
    /**
     * Build and send an ACK or NAK now. In AckEcho mode an ACK echoes the CE state of the data
     * it covers (BTH BECN); with EchoHopCount it carries the hops of the newest data packet
     * (BTH resv7).
     */
    void SendAck(bool nak, uint32_t psn);
    /// Build and send a CNP now.
    void SendCnp();
    /// Requester: handle ACK/NAK/READ response.
    void ReceiveResponse(const RoceRxPacket& rx);
    /// Responder: handle a request packet.
    void ReceiveRequest(const RoceRxPacket& rx);
    /**
     * Responder: a SEND/WRITE data packet's payload bytes (after its extension headers, ICRC
     * and pad); \p imm gets its ImmDt (0 without).
     */
    uint32_t DataPayload(const RoceRxPacket& rx, uint32_t* imm) const;
    /**
     * Responder, in order: the message-end part of an accepted data packet (receive
     * completion, MSN). \return true if \p opcode ends a message
     */
    bool EndOfMessage(uint8_t opcode, uint32_t imm);
    /**
     * Responder, RoceNic OutOfOrderWindow: place a data packet that arrived ahead of ePSN
     * (counted as received, completed later in order).
     */
    void PlaceOutOfOrder(const RoceRxPacket& rx);
    /**
     * Responder: advance ePSN over the placed packets that are now in order.
     * \param[in,out] ack set if one of them ends a message or asks for an ACK
     * \return the PSN of the last one (ePSN - 1), or \p psn if none
     */
    uint32_t DrainPlaced(uint32_t psn, bool& ack);
    /**
     * Requester: everything up to and including \p psn is acknowledged; \p ece: the ACK
     * echoed ECN CE (BECN), \p hops: the hop count it carried (0 = none).
     */
    void Acknowledge(uint32_t psn,
                     bool ece = false,
                     uint8_t hops = 0,
                     const uint8_t* intStack = nullptr);
    /**
     * Requester: decode an ACK's INT stack into m_intHops (unwrapped against the previous
     * ACK's). \return the hops decoded (0: none, or the stack overflowed)
     */
    uint32_t DecodeInt(const uint8_t* stack);
    /**
     * Insert an INT stack of \p capacity empty records after the BTH at h[IP_UDP_BYTES]
     * (moving the \p hdr - IP_UDP_BYTES - BTH bytes of extension headers behind it) and set
     * the BTH INT bit. \return the new header length
     */
    uint32_t InsertInt(uint8_t* h, uint32_t hdr, const uint8_t* stack, uint32_t stackBytes) const;
    /// Requester: restart transmission at \p psn.
    void GoBackN(uint32_t psn, const std::string& cause);
    /// Complete finished work requests at the head, in order.
    void CompleteHead();
    /// (Re)arm or cancel the local ACK timer.
    void RestartTimer();
    /// The timer event fired: time out, or wait on if the deadline moved.
    void OnTimer();
    /// Local ACK timer expired.
    void OnTimeout();
    /// Retries exhausted: enter the error state and flush.
    void EnterError();
    /// Tell the NIC this QP may have packets to send.
    void Activate();
    /// The congestion control changed the rate: re-pace now.
    void OnRateChange();

    // Read for every packet built or acknowledged: first and together (a fabric has
    // thousands of QPs, so each line touched is usually a cache miss).
    // What sending a packet reads, together (a NIC's arbiter turns to a QP whose state left
    // the cache since its last packet).
    RoceNic* m_nic;                   //!< owning NIC
    FabricNic* m_core;                //!< its NIC core
    FabricCcState* m_ccState;         //!< m_cc's state (rate, window), read per packet
    State m_state;                    //!< state
    uint8_t m_dscp;                   //!< data DSCP
    uint8_t m_priority;               //!< data priority
    uint16_t m_udpSrcPort;            //!< entropy
    uint32_t m_qpn;                   //!< local QPN
    uint32_t m_port;                  //!< local port index
    uint32_t m_remoteQpn;             //!< remote QPN
    bool m_timerPending{false};       //!< m_timer is scheduled (cheaper than EventId::IsPending)
    bool m_wantRtt{false};            //!< m_cc wants RTT samples: keep m_sendTimes
    bool m_ackEcho{false};            //!< the NIC echoes CE on ACKs (AckEcho), no CNPs
    bool m_echoHops{false};           //!< ACKs carry the data's hop count
    bool m_int{false};                //!< request packets carry an INT stack (HPCC)
    bool m_rxCe{false};               //!< responder: CE state of the data since the last ACK
    bool m_freshNp{false};            //!< SetFreshReceiverPerMessage
    uint8_t m_rxHops{0};              //!< responder: hops of the newest in-order data packet
    mutable uint32_t m_ipConstSum{0}; //!< IPv4 checksum: sum of the words fixed for this QP
    uint32_t m_localIpBits{0};        //!< the port's IPv4 address, host order (set by Connect)
    uint32_t m_remoteIpBits{0};       //!< remote IPv4 address, host order (set by Connect)
    uint32_t m_sendOffset;            //!< packet index within the WR of the next packet
    std::size_t m_sendWr;             //!< index in m_wrs of the next packet's WR
    uint32_t m_lastWire{0};           //!< pacing: wire bytes of the last packet
    uint32_t m_nextAssignPsn;         //!< PSN for the next unassigned WR
    uint32_t m_highSent;              //!< one past the highest PSN ever sent
    uint32_t m_lastAckReqPsn{0};      //!< PSN of the last packet sent with AckReq (windowed)
    Time m_lastSendStart;             //!< pacing: when the last packet left
    Ptr<FabricCongestionOps> m_cc;    //!< congestion control
    Ptr<FabricCcReceiverOps> m_np;    //!< receiver-side congestion control
    TracedValue<uint32_t> m_sndNxt;   //!< next PSN to send
    TracedValue<uint32_t> m_sndUna;   //!< oldest unacknowledged PSN
    FabricRing<WorkRequest> m_wrs;    //!< outstanding work requests, in order
    FabricRing<ReadResponseJob> m_readJobs; //!< READ responses to send (responder)
    RoceQpCounters m_counters;              //!< counters

    // responder
    TracedValue<uint32_t> m_ePsn; //!< expected PSN
    uint32_t m_msn;               //!< message sequence number
    uint32_t m_unacked;           //!< packets accepted since the last ACK
    bool m_nakSent;               //!< a NAK was sent for the current gap
    uint64_t m_rxMsgBytes;        //!< bytes of the message being received

    /// A data packet placed ahead of ePSN (RoceNic OutOfOrderWindow), waiting for its turn.
    struct PlacedPacket
    {
        uint32_t psn{0};     //!< its PSN
        uint32_t payload{0}; //!< its payload bytes
        uint32_t imm{0};     //!< its ImmDt
        uint8_t opcode{0};   //!< its BTH opcode
        bool ackReq{false};  //!< its AckReq bit
        bool valid{false};   //!< the slot holds a packet
    };

    uint32_t m_placedMask{0};           //!< OutOfOrderWindow - 1 (0: placement off)
    std::vector<PlacedPacket> m_placed; //!< by PSN & m_placedMask
    ReceiveCallback m_rxCallback;       //!< responder notifications

    // requester, per message or rarer
    uint64_t m_nextWrId;                               //!< next id
    uint32_t m_retries;                                //!< consecutive timeouts
    bool m_readGapSignalled;                           //!< a READ gap already triggered go-back-N
    Time m_timerDeadline;                              //!< when the local ACK timer expires
    EventId m_timer;                                   //!< local ACK timer
    FabricRing<std::pair<uint32_t, Time>> m_sendTimes; //!< first-send times (m_wantRtt only)

    // INT (HPCC; RoceNic Int), cold
    uint32_t m_intMaxHops{RoceInt::MAX_HOPS};          //!< records a stack reserves
    uint32_t m_rxIntBytes{0};                          //!< responder: m_rxInt bytes
    std::array<uint8_t, RoceInt::MAX_BYTES> m_rxInt{}; //!< responder: stack to echo
    uint32_t m_intHopsValid{0};                        //!< requester: hops in m_intHops
    std::array<FabricCcHopTelemetry, RoceInt::MAX_HOPS> m_intHops{}; //!< requester: unwrapped

    TracedCallback<uint32_t, const std::string&> m_retransmitTrace; //!< go-back-N
    TracedCallback<RoceControlEvent, uint32_t> m_controlTrace;      //!< ACK/NAK/CNP events
    TracedCallback<const RoceWorkCompletion&> m_completionTrace;    //!< completions
};

} // namespace ns3

#endif /* ROCE_QUEUE_PAIR_H */
