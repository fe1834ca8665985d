/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the transport-neutral congestion-control interface (sender and receiver side).
 */
#ifndef FABRIC_CONGESTION_OPS_H
#define FABRIC_CONGESTION_OPS_H

#include "fabric-cc-state.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief Congestion events a transport reports to its flow's algorithm
 *        (FabricCongestionOps::OnEvent).
 */
enum class FabricCcEvent : uint8_t
{
    CNP = 0, //!< a congestion notification arrived (RoCEv2 CNP: the receiver saw ECN CE)
    NACK,    //!< the receiver reported a loss (RoCE NAK PSN sequence error, UET NACK)
    TIMEOUT, //!< a retransmission timeout expired (RoCE local ACK timeout, UET RTO)
    TRIM,    //!< the receiver reported a trimmed packet (UET NACK TRIMMED)
};

/**
 * \param e an event
 * \return its name ("CNP", "NACK", "TIMEOUT", "TRIM")
 */
const char* FabricCcEventName(FabricCcEvent e);

/**
 * \ingroup ai-fabric-cc
 * \brief One hop's in-band telemetry as a switch writes it into a packet (HPCC, Li et al.
 *        SIGCOMM 2019, section 3.2: queue length, transmitted bytes, timestamp, link rate).
 */
struct FabricCcHopTelemetry
{
    uint64_t queueBytes{0}; //!< egress queue length when the packet left, bytes
    uint64_t txBytes{0};    //!< bytes the egress port had transmitted, cumulative
    Time timestamp;         //!< when the packet left the hop
    DataRate linkRate;      //!< egress link rate
};

/**
 * \ingroup ai-fabric-cc
 * \brief What an acknowledgement tells the sender's congestion control (one per ACK that
 *        advanced the flow, or per NACK/trim report).
 *
 * A transport fills what it knows and leaves the rest at its defaults: RoCE fills ackedBytes
 * and rtt (when the algorithm WantsRttSamples()); UET adds the CE-marked bytes, the path's
 * entropy and the NACK/trim flags; RoCE with RoceNic Int (HPCC) the per-hop telemetry.
 */
struct FabricCcAckSample
{
    uint64_t ackedBytes{0}; //!< payload bytes newly acknowledged
    /// Round-trip sample: time since the newest acknowledged packet was first sent (zero when
    /// the algorithm does not want samples or the transport has none).
    Time rtt;
    uint64_t ceBytes{0}; //!< of ackedBytes, bytes that arrived ECN CE-marked (ECN echo)
    bool ecnEcho{false}; //!< the ACK echoed ECN CE
    bool nack{false};    //!< the sample comes from a NACK
    bool trimmed{false}; //!< the NACK reports a trimmed packet
    bool timeout{false}; //!< the sample follows a retransmission timeout
    bool lastHop{false}; //!< the trim happened at the destination's last hop (TRIMMED_LASTHOP)
    /// Payload bytes the NACK reports lost (the trimmed or dropped packet's payload).
    uint64_t nackedBytes{0};
    /// The receiver's flow-control penalty, 0..127 (UET ACK_CC NSCC rcv_cwnd_pend; 0: none).
    uint8_t rcvCwndPend{0};
    bool rcvRestore{false}; //!< the receiver lifted its penalty (UET ACK_CC NSCC RC)
    uint32_t entropy{0};    //!< the path (entropy value, e.g. UDP source port) the packet took
    /// Switch hops the acknowledged data crossed, as the receiver measured them (RoCE: the
    /// IPv4 TTL decrease, echoed on the ACK when RoceNic's EchoHopCount is set); 0 = unknown.
    uint32_t hopCount{0};
    /// Per-hop telemetry, nHops entries, valid during the call only (null: none).
    const FabricCcHopTelemetry* hops{nullptr};
    uint32_t nHops{0}; //!< entries in hops
};

/**
 * \ingroup ai-fabric-cc
 * \brief Congestion control of one flow at the sender (the reaction point), shaped like ns-3's
 *        TcpCongestionOps: the algorithm is separate from the flow's state (FabricCcState).
 *
 * A transport holds a prototype selected by a TypeId attribute (RoceNic's "CongestionControl")
 * and Fork()s it for every flow, so an instance keeps the private state of exactly one flow
 * (DCQCN's alpha and timers, say); Init() binds it to the flow's FabricCcState, where it writes
 * the rate and window the transport enforces. The transport then calls the hooks as events
 * happen. Algorithms: FabricNoneCongestionOps (line rate, PFC only), DcqcnCongestionOps,
 * DctcpCongestionOps, TimelyCongestionOps, SwiftCongestionOps, HpccCongestionOps (RoCE),
 * NsccCongestionOps and RcccCongestionOps (UET).
 * A new algorithm overrides GetName(), Fork() and the hooks it needs.
 */
class FabricCongestionOps : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricCongestionOps();
    ~FabricCongestionOps() override;

    /// \return the algorithm's name ("None", "DCQCN", ...)
    virtual std::string GetName() const = 0;
    /**
     * \brief Copy this prototype (attributes included) for a new flow.
     * \return a fresh instance, to be Init()ed
     */
    virtual Ptr<FabricCongestionOps> Fork() const = 0;

    /**
     * \brief Start controlling a flow. The base sets the state to line rate without a window
     *        (FabricCcState::Init must have been called); algorithms extend it and validate
     *        their attributes against the line rate here (aborting with the value and range).
     * \param state the flow's state, initialized with its port's line rate
     */
    virtual void Init(Ptr<FabricCcState> state);
    /**
     * \brief Start controlling a flow of its own: a fresh FabricCcState at \p lineRate, then
     *        Init(state). For unit tests and for algorithms driven outside a transport.
     * \param lineRate the port rate, > 0 (aborts naming the value otherwise)
     */
    void Init(DataRate lineRate);

    /**
     * \brief An acknowledgement advanced the flow (or a NACK/trim report arrived).
     * \param sample what it tells
     */
    virtual void OnAck(const FabricCcAckSample& sample);
    /**
     * \brief A congestion event.
     * \param event what happened
     */
    virtual void OnEvent(FabricCcEvent event);
    /**
     * \brief The flow put a data packet on the wire.
     * \param bytes payload bytes of the packet
     */
    virtual void OnBytesSent(uint32_t bytes);
    /**
     * \brief Whether OnAck() needs RTT samples. A transport then records the first-send time
     *        of every outstanding packet (a per-packet cost that delay-based algorithms need and
     *        ECN-based ones such as DCQCN do not).
     * \return false by default
     */
    virtual bool WantsRttSamples() const;
    /**
     * \brief Whether the receiver should report its side on every ACK: how long it held the
     *        acknowledged packet (subtracted from the RTT sample) and its flow-control state
     *        (UET: ACK_CC with the NSCC state, service_time, RC, rcv_cwnd_pend, rcvd_bytes,
     *        instead of a plain ACK; a per-ACK cost of 20 bytes on the wire).
     * \return false by default
     */
    virtual bool WantsReceiverState() const;

    /**
     * \brief Whether the flow sends only on credit granted by its receiver (RCCC): the
     *        transport then sends requests carrying GetCreditTarget() and spends credit.
     * \return false by default
     */
    virtual bool UsesCredit() const;
    /**
     * \brief The receiver granted credit (receiver-credit algorithms, RCCC; the others ignore
     *        it).
     * \param cumulativeBytes every credit the receiver has granted the flow so far, bytes on
     *        the wire (the transport expands the wire field; a value not above the last one is
     *        never passed)
     */
    virtual void OnCredit(uint64_t cumulativeBytes);
    /**
     * \brief What the flow asks the receiver for, as a cumulative credit target: the credit
     *        granted so far plus what the flow still needs (UET credit_target). The transport
     *        reports the backlog (FabricCcState::SetBacklog) first.
     * \return bytes on the wire, cumulative; 0 for algorithms without credit
     */
    virtual uint64_t GetCreditTarget();

    /// \return the flow's state (null before Init)
    Ptr<FabricCcState> GetState() const;

    /// \return the pacing rate (the state's; 400 Gb/s before Init)
    DataRate GetRate() const
    {
        return m_state ? m_state->GetRate() : DataRate(DEFAULT_LINE_RATE_BPS);
    }

    /// \return the in-flight window in bytes (0 = none)
    uint64_t GetWindow() const
    {
        return m_state ? m_state->GetWindow() : 0;
    }

    /// \return the line rate given to Init() (400 Gb/s before Init)
    DataRate GetLineRate() const
    {
        return m_state ? m_state->GetLineRate() : DataRate(DEFAULT_LINE_RATE_BPS);
    }

    /// The rates reported before Init(), bits/s.
    static constexpr uint64_t DEFAULT_LINE_RATE_BPS = 400000000000ull;

  protected:
    void DoDispose() override;
    /**
     * \brief Set the flow's pacing rate, clamped to [1 bit/s, line rate].
     * \param rate new rate
     */
    void SetRate(DataRate rate);
    /**
     * \brief Set the flow's window.
     * \param bytes window, 0 = none
     */
    void SetWindow(uint64_t bytes);

    /// The state of the flow this instance controls (set by Init).
    Ptr<FabricCcState> m_state;
};

/**
 * \ingroup ai-fabric-cc
 * \brief No congestion control: every flow sends at line rate, only PFC controls the fabric
 *        (the configuration of Meta's 400G training clusters, Gangidi et al. SIGCOMM 2024).
 */
class FabricNoneCongestionOps : public FabricCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    Ptr<FabricCongestionOps> Fork() const override;
};

/**
 * \ingroup ai-fabric-cc
 * \brief A data packet as the receiver's congestion control sees it.
 */
struct FabricCcRxSample
{
    uint32_t bytes{0}; //!< payload bytes
    bool ce{false};    //!< it arrived ECN CE-marked
    Time now;          //!< arrival time
};

/**
 * \ingroup ai-fabric-cc
 * \brief What the receiver must send back after a data packet (bit flags).
 */
enum FabricCcFeedback : uint8_t
{
    FABRIC_CC_NO_FEEDBACK = 0, //!< nothing
    FABRIC_CC_SEND_CNP = 1,    //!< a congestion notification (RoCEv2 CNP) to the sender
};

/**
 * \ingroup ai-fabric-cc
 * \brief The receiver side of a flow's congestion control (DCQCN's notification point today,
 *        RCCC's credit grants next): told of every data packet, it says what the receiver must
 *        send back. Forked per flow from a prototype, like FabricCongestionOps.
 */
class FabricCcReceiverOps : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricCcReceiverOps();
    ~FabricCcReceiverOps() override;

    /**
     * \brief Copy this prototype (attributes included) for a new flow.
     * \return a fresh instance
     */
    virtual Ptr<FabricCcReceiverOps> Fork() const = 0;
    /**
     * \brief A data packet of the flow arrived.
     * \param sample the packet
     * \return the feedback to send now (FabricCcFeedback flags)
     */
    virtual uint8_t OnData(const FabricCcRxSample& sample) = 0;
};

} // namespace ns3

#endif /* FABRIC_CONGESTION_OPS_H */
