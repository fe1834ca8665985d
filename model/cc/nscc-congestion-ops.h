/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: NSCC, Ultra Ethernet's network-signal sender congestion control (window based).
 */
#ifndef NSCC_CONGESTION_OPS_H
#define NSCC_CONGESTION_OPS_H

#include "fabric-congestion-ops.h"

#include "ns3/nstime.h"
#include "ns3/traced-value.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief NSCC, the Ultra Ethernet sender-based congestion control (UEC 1.0 spec section
 *        3.6.13, derived from SMaRTT, Bonato et al. 2024): a window on payload bytes in flight
 *        driven by two signals per acknowledgement, ECN echo and queueing delay (RTT minus the
 *        base RTT).
 *
 * Per valid ACK of \c b newly acknowledged bytes, with \c delay = RTT - base RTT (the RTT of
 * the packet that triggered the ACK, sent once, minus the receiver's service time; the base
 * RTT is the smallest RTT seen, starting at the BaseRtt attribute), one of four quadrants:
 *  - no ECN, delay >= target: fair increase, inc += fi * b;
 *  - no ECN, delay < target: proportional increase, inc += alpha * b * (target - delay), or a
 *    fast increase cwnd += fi_scale * b once a whole window was acknowledged with
 *    delay < FastIncreaseDelay (and for every ACK after, until another quadrant);
 *  - ECN, delay >= target: multiplicative decrease, at most once per base RTT,
 *    cwnd *= max(1 - gamma (avg_delay - target) / avg_delay, MaxMdJump), if the average
 *    delay exceeds the target;
 *  - ECN, delay < target: nothing (a congested path, not a congested flow: the EV selector
 *    moves away from it).
 * The increases accumulate and are applied when AdjustBytes were acknowledged or an adjust
 * period passed: cwnd += inc / cwnd, plus eta once per adjust period. avg_delay is an EWMA
 * (gain DelayEwmaGain) of the delay samples; as in UEC's htsim, a delay above the target
 * without ECN enters it as a quarter of the base RTT (that packet waited on a path the
 * switches did not mark, not at the flow's bottleneck) and a NACK as the BaseRtt attribute.
 *
 * Quick adapt: at the first ACK after each (base RTT + target) interval, if a trim/NACK or a
 * timeout happened, or the delay exceeds QaThreshold, and fewer than max_wnd >> QaGate bytes
 * were acknowledged in the interval, cwnd drops to those achieved bytes (at least MinWindow)
 * and ECN echoes are ignored until the bytes then in flight are acknowledged. A NACK that does
 * not trigger quick adapt takes its bytes off the window, unless it reports a last-hop trim
 * while the flow runs on receiver credit (RcccCongestionOps with NSCC as its SenderCc).
 *
 * Destination flow control: an ACK's rcv_cwnd_pend p (0..127) cuts the window by
 * (p * b) >> 7; RC (restore) returns to the window saved at the first cut
 * (FabricCcAckSample::rcvCwndPend, rcvRestore).
 *
 * Defaults from the link rate R and BaseRtt (UET.md; UEC htsim initNsccParams): BDP = R x
 * BaseRtt; max_wnd = initial window = 1.5 BDP; target = 0.75 BaseRtt with trimming, BaseRtt
 * without; scaling_a = BDP / (100 Gb/s x 12 us); scaling_b = target / 12 us; alpha = 4 Mtu
 * scaling_a scaling_b / target (bytes/ps); fi = 5 Mtu scaling_a; eta = 0.15 Mtu scaling_a;
 * fi_scale = 0.25 scaling_a; QaThreshold = 4 target; AdjustBytes = 8 Mtu; adjust period =
 * BaseRtt. Every constant is an attribute; 0 (or a negative double) selects the computed
 * default. At 100 Gb/s, BaseRtt 14.0227 us and Mtu 4086 (htsim's 4150-byte packets with a
 * 64-byte header) they give alpha 0.00159 B/ps, fi 23874 B, eta 716 B, fi_scale 0.292.
 *
 * The window counts payload bytes in flight: sent (first time or again) and neither
 * acknowledged nor reported lost. NSCC does not pace (the rate stays at line rate).
 *
 * Trace sources: "Cwnd" (bytes; also the state's "Window"), "BaseRttTrace", "AvgDelay",
 * "QuickAdapt" (the window after each quick adapt).
 */
class NsccCongestionOps : public FabricCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    NsccCongestionOps();
    ~NsccCongestionOps() override;

    std::string GetName() const override;
    Ptr<FabricCongestionOps> Fork() const override;
    /**
     * \brief Compute the defaults from the line rate and BaseRtt and open the window at the
     *        initial window. Aborts naming the value and range if MinWindow > MaxWindow or the
     *        initial window is outside [MinWindow, MaxWindow].
     * \param state the flow's state
     */
    void Init(Ptr<FabricCcState> state) override;
    using FabricCongestionOps::Init; // Init(DataRate)
    /**
     * \brief An ACK (ackedBytes, rtt, ecnEcho, rcvCwndPend) or a NACK (nack, nackedBytes,
     *        lastHop) of the flow.
     * \param sample what it tells
     */
    void OnAck(const FabricCcAckSample& sample) override;
    /**
     * \brief TIMEOUT arms quick adapt (as a loss); the others come through OnAck.
     * \param event what happened
     */
    void OnEvent(FabricCcEvent event) override;
    /**
     * \brief A data packet (new or retransmitted) left: its payload joins the bytes in flight.
     * \param bytes payload bytes
     */
    void OnBytesSent(uint32_t bytes) override;
    /// \return true: NSCC needs the RTT of every ACK
    bool WantsRttSamples() const override;
    /// \return true: NSCC wants the receiver's delay and flow-control state on every ACK
    bool WantsReceiverState() const override;

    /// \return the congestion window, bytes
    uint64_t GetCwnd() const
    {
        return static_cast<uint64_t>(m_cwnd.Get());
    }

    /// \return the base RTT (the smallest RTT seen, at most BaseRtt)
    Time GetBaseRtt() const
    {
        return m_baseRtt;
    }

    /// \return the average queueing delay (EWMA)
    Time GetAvgDelay() const
    {
        return m_avgDelay;
    }

    /// \return bytes in flight: the transport's (FabricCcState::GetBytesInFlight) if it
    ///         reports them, else sent minus acknowledged minus NACKed as NSCC counts them
    uint64_t Inflight() const;

    /// \return BDP = line rate x BaseRtt, bytes (after Init)
    double GetBdp() const
    {
        return m_bdp;
    }

    /// \return target queueing delay in effect
    Time GetTargetQdelay() const
    {
        return m_target;
    }

    /// \return alpha in effect, bytes per picosecond
    double GetAlpha() const
    {
        return m_alphaEff;
    }

    /// \return fair-increase constant fi in effect, bytes
    double GetFairIncrease() const
    {
        return m_fiEff;
    }

    /// \return eta in effect, bytes
    double GetEta() const
    {
        return m_etaEff;
    }

    /// \return fast-increase scale in effect
    double GetFiScale() const
    {
        return m_fiScaleEff;
    }

    /// \return quick-adapt delay threshold in effect
    Time GetQaThreshold() const
    {
        return m_qaThresholdEff;
    }

    /// \return maximum window in effect, bytes
    uint64_t GetMaxWindow() const
    {
        return m_maxWndEff;
    }

    /// \return minimum window in effect, bytes
    uint64_t GetMinWindow() const
    {
        return m_minWndEff;
    }

    /// \return acknowledged bytes between window adjustments in effect
    uint64_t GetAdjustBytes() const
    {
        return m_adjustBytesEff;
    }

    /// \return quick adapts so far
    uint64_t GetQuickAdapts() const
    {
        return m_quickAdapts;
    }

    /// \return multiplicative decreases so far
    uint64_t GetDecreases() const
    {
        return m_decreases;
    }

  private:
    /// Apply the NACK of \p sample (trim or loss).
    void OnNack(const FabricCcAckSample& sample);
    /// Feed one delay sample to the EWMA. \param delay the sample \param ecn its ECN echo
    void UpdateAvgDelay(Time delay, bool ecn);
    /**
     * \brief Quick adapt (see the class text).
     * \param isLoss called for a NACK or timeout
     * \param ecn the ACK echoed ECN
     * \param delay the ACK's delay
     * \return true if the ACK must not adjust the window further (adapted, or ignored)
     */
    bool QuickAdapt(bool isLoss, bool ecn, Time delay);
    /// Proportional (or fast) increase. \param bytes acknowledged \param delay sample
    void ProportionalIncrease(uint64_t bytes, Time delay);
    /// Multiplicative decrease, once per base RTT.
    void MultiplicativeDecrease();
    /// Apply the accumulated increase (and eta once per adjust period).
    void FulfillAdjustment();
    /// Clamp the window to [MinWindow, MaxWindow] and publish it to the state.
    void Publish();

    // Attributes (0 / negative = computed default, see the class text)
    Time m_baseRttAttr;         //!< network base RTT the defaults are computed from
    uint32_t m_mtu;             //!< payload bytes of a full packet in the formulas
    bool m_trimming;            //!< the fabric trims (target 0.75 BaseRtt instead of 1.0)
    Time m_targetAttr;          //!< target queueing delay
    uint64_t m_maxWndAttr;      //!< maximum window, bytes
    uint64_t m_initWndAttr;     //!< initial window, bytes
    uint64_t m_minWndAttr;      //!< minimum window, bytes
    double m_alphaAttr;         //!< proportional-increase gain, bytes/ps
    double m_fiAttr;            //!< fair increase, bytes
    double m_etaAttr;           //!< additive increase per adjust period, bytes
    double m_fiScaleAttr;       //!< fast-increase scale
    double m_gamma;             //!< multiplicative-decrease gain
    double m_maxMdJump;         //!< smallest multiplicative-decrease factor
    uint32_t m_qaGate;          //!< quick adapt only if achieved < max_wnd >> QaGate
    Time m_qaThresholdAttr;     //!< delay that triggers quick adapt
    bool m_quickAdapt;          //!< quick adapt on
    double m_delayGain;         //!< EWMA gain of the average delay
    uint64_t m_adjustBytesAttr; //!< acknowledged bytes per adjustment
    Time m_adjustPeriodAttr;    //!< adjust period
    Time m_fastIncreaseDelay;   //!< delay under which ACKs count toward fast increase
    DataRate m_referenceRate;   //!< reference link rate of the scaling (100 Gb/s)
    Time m_referenceRtt;        //!< reference RTT of the scaling (12 us)

    // Effective parameters (computed by Init)
    double m_bdp{0};              //!< bytes
    Time m_target;                //!< target queueing delay
    double m_alphaEff{0};         //!< bytes/ps
    double m_fiEff{0};            //!< bytes
    double m_etaEff{0};           //!< bytes
    double m_fiScaleEff{0};       //!< scale
    Time m_qaThresholdEff;        //!< quick-adapt threshold
    uint64_t m_maxWndEff{0};      //!< bytes
    uint64_t m_minWndEff{0};      //!< bytes
    uint64_t m_adjustBytesEff{0}; //!< bytes
    Time m_adjustPeriodEff;       //!< adjust period

    // Per-flow state
    TracedValue<double> m_cwnd;         //!< congestion window, bytes
    TracedValue<Time> m_baseRtt;        //!< smallest RTT seen
    TracedValue<Time> m_avgDelay;       //!< EWMA of the queueing delay
    TracedCallback<uint64_t> m_qaTrace; //!< window after a quick adapt
    uint64_t m_inflight{0};             //!< payload bytes in flight
    double m_incBytes{0};               //!< accumulated increase, bytes^2
    uint64_t m_receivedBytes{0};        //!< acknowledged since the last adjustment
    uint64_t m_achievedBytes{0};        //!< acknowledged in the current quick-adapt interval
    uint64_t m_bytesToIgnore{0};        //!< in flight at the last quick adapt
    uint64_t m_bytesIgnored{0};         //!< acknowledged/NACKed since then
    uint64_t m_fiCount{0};              //!< bytes acknowledged at near-zero delay in a row
    bool m_increasing{false};           //!< fast increase running
    bool m_triggerQa{false};            //!< a loss arms quick adapt
    Time m_qaEnd;                       //!< end of the quick-adapt interval (0: not started)
    Time m_lastDecrease;                //!< last multiplicative decrease
    Time m_lastAdjust;                  //!< last eta increase
    double m_savedCwnd{0};              //!< window before the receiver's first cut (0: none)
    uint64_t m_quickAdapts{0};          //!< counter
    uint64_t m_decreases{0};            //!< counter
};

} // namespace ns3

#endif /* NSCC_CONGESTION_OPS_H */
