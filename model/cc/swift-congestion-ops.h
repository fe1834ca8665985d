/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: Swift, delay-target window control.
 */
#ifndef SWIFT_CONGESTION_OPS_H
#define SWIFT_CONGESTION_OPS_H

#include "fabric-congestion-ops.h"

#include "ns3/traced-value.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief Swift (Kumar et al., "Swift: Delay is Simple and Effective for Congestion Control in
 *        the Datacenter", SIGCOMM 2020, Algorithm 1 and section 3): AIMD on a window of
 *        packets against an end-to-end delay target.
 *
 * The window cwnd is in packets of Mss payload bytes (FabricCcState::GetMssOrDefault; RoCE's
 * path MTU) and may be fractional. On every ACK with an RTT sample (delay = sample.rtt):
 *
 *     target = BaseTarget + hops x PerHopScaling + fs(cwnd)
 *     fs(cwnd) = clamp(a / sqrt(cwnd) + b, 0, FsRange),
 *                a = FsRange / (1/sqrt(FsMinCwnd) - 1/sqrt(FsMaxCwnd)), b = -a / sqrt(FsMaxCwnd)
 *     delay < target:  cwnd += Ai x acked / cwnd  (cwnd >= 1)   or  cwnd += Ai x acked (< 1)
 *     otherwise, at most once per RTT:
 *                      cwnd *= max(1 - Beta (delay - target) / delay, 1 - MaxMdf)
 *
 * with acked the packets the ACK acknowledged (ackedBytes / Mss). A NACK (fast recovery)
 * multiplies cwnd by 1 - MaxMdf at most once per RTT; a timeout does too, and after
 * RetxResetThreshold consecutive timeouts sets cwnd to MinCwnd. cwnd stays in
 * [MinCwnd, MaxCwnd].
 *
 * Enforcement: cwnd >= 1: a window of cwnd x Mss bytes at line rate; cwnd < 1: a window of one
 * packet, paced at cwnd x Mss x 8 / RTT (Swift's pacing delay RTT / cwnd between packets;
 * RTT is the last sample, or before one the path RTT / BaseRtt).
 *
 * Hops: FabricCcAckSample::hopCount (RoCE: RoceNic EchoHopCount echoes the IPv4 TTL decrease
 * the receiver saw); 0 when the transport does not report it (then no hop scaling).
 *
 * Fabric and host delay: Swift splits the RTT into fabric delay (against the fabric target,
 * the fabric window) and endpoint delay (NIC timestamps; against a host target, an endpoint
 * window). The model's endpoints add no delay (a RoCE responder ACKs on arrival), so the
 * endpoint delay is 0, the endpoint window never binds and is not modelled: the whole RTT
 * sample is fabric delay.
 *
 * Defaults: Beta 0.8, MaxMdf 0.5, Ai 1 packet per RTT, RetxResetThreshold 5, flow scaling
 * between FsMinCwnd 0.1 and FsMaxCwnd 100 packets as in the paper; the paper gives no numbers
 * for its deployment's base target, per-hop scaling and fs_range (they depend on the fabric),
 * so BaseTarget 10 us, PerHopScaling 1 us and FsRange 5 us are ours, for a 400 Gb/s fabric of
 * a few microseconds' unloaded RTT.
 *
 * Trace sources: "Cwnd" (packets), "TargetDelay", "Rtt"; window and rate on the state.
 */
class SwiftCongestionOps : public FabricCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SwiftCongestionOps();
    ~SwiftCongestionOps() override;

    std::string GetName() const override;
    Ptr<FabricCongestionOps> Fork() const override;
    using FabricCongestionOps::Init;
    void Init(Ptr<FabricCcState> state) override;
    /**
     * \brief An ACK: AI or MD against the target (see the class description); samples
     *        without RTT are ignored.
     * \param sample the ACK (rtt, ackedBytes, hopCount)
     */
    void OnAck(const FabricCcAckSample& sample) override;
    /**
     * \brief NACK: fast recovery decrease; TIMEOUT: retransmission decrease or reset.
     * \param event the event
     */
    void OnEvent(FabricCcEvent event) override;
    /// \return true: Swift needs RTT samples
    bool WantsRttSamples() const override;

    /// \return the window, packets (may be below 1)
    double GetCwnd() const;
    /// \return the hop count of the last ACK that reported one (0: none yet)
    uint32_t GetHopCount() const;
    /**
     * \param cwnd a window, packets (> 0)
     * \param hops switch hops of the path
     * \return the target delay for that window and hop count
     */
    Time GetTargetDelay(double cwnd, uint32_t hops) const;

  private:
    /// Multiply cwnd by \p factor if the last decrease is at least one RTT old.
    void Decrease(double factor);
    /// Clamp cwnd and write window and rate to the state.
    void Apply();

    // attributes
    double m_ai;          //!< additive increment, packets per RTT
    double m_beta;        //!< multiplicative decrease factor
    double m_maxMdf;      //!< largest decrease per step
    Time m_baseTarget;    //!< base target delay
    Time m_hopScale;      //!< per-hop target delay
    Time m_fsRange;       //!< flow-scaling range
    double m_fsMinCwnd;   //!< flow scaling: cwnd with the full range, packets
    double m_fsMaxCwnd;   //!< flow scaling: cwnd with none, packets
    double m_minCwnd;     //!< packets
    double m_maxCwnd;     //!< packets, 0 = none
    double m_initialCwnd; //!< packets, 0 = one BDP
    Time m_baseRtt;       //!< RTT before the first sample when the path's is unknown
    uint32_t m_retxReset; //!< consecutive timeouts before cwnd = MinCwnd

    // state
    TracedValue<double> m_cwnd{1.0}; //!< window, packets
    TracedValue<Time> m_target;      //!< target delay of the last ACK
    TracedValue<Time> m_rtt;         //!< last RTT sample
    Time m_lastDecrease;             //!< time of the last decrease
    bool m_decreasedEver{false};     //!< a decrease happened
    uint32_t m_retxCount{0};         //!< consecutive timeouts
    uint32_t m_hops{0};              //!< last hop count reported
};

} // namespace ns3

#endif /* SWIFT_CONGESTION_OPS_H */
